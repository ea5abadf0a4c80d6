"""A rollout network for the search: one MLP fitted to play like a suit-averaged policy
(``python -m agents.search.rollout_net``).

Where a game's suits are interchangeable, its shipped policy is the *suit average*
(:class:`agents.network.PolicyNet` with ``suit_renamings``): the MLP sees the position under every
renaming and the logits are averaged, one MLP pass per renaming (24 in Schieber). The search's
rollouts cannot pay that much per row, so they play one view of the MLP, which under the renaming
it happens to see plays worse than the average (in Schieber the average beat its own single view
by +1.78 points a hand head to head on 2,000 deals, docs/lab/measurements.md). This tool fits one
MLP to play like the average, for ``search:...,rollout_checkpoint=PATH``: of the view's size, or
(``--hidden``) narrower, so that a rollout costs less (Schieber's shipped one has two layers of 128
against the policy's 256, and plays as well as a fitted view of the policy's size):

1. **Positions.** ``games`` games at a time in the batched environment
   (:class:`jass_env.envs.vector.VectorJassEnv`), each seat of each game playing in one of
   :data:`PLAY_STYLES` ways: the average's greedy action, the single view's greedy action (the
   rollouts' own play), or an action sampled from the average's softmax (positions off the greedy
   paths). Every decision with more than one legal action is kept, with the average's logits.
2. **Fit.** A copy of the single view (the same layer sizes), or a new MLP of the ``--hidden``
   sizes, is fitted by the cross-entropy from the average's softmax to its own over the legal actions,
   each row seen under a random renaming of its suits (the average is the same under every
   renaming, so each position teaches all of its renamings); Adam with the learning rate decayed
   to 0 on a cosine.
3. **Report.** On held-out positions (one in :data:`HELD_OUT_EVERY`): how often the greedy action
   is the average's, the single view's before the fit and the fitted network's after it, and the
   mean cross-entropy excess (KL) of each.

Shapes: observations float32 (rows, obs_dim), masks bool (rows, n_actions), the average's logits
float32 (rows, n_actions). Memory: about 2.3 KB a position in Schieber (1.5 million positions,
3.5 GB).
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jass_env.commands import module_command
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import PRESETS, make_rules

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.search.rollout_net") from None

from ..card_evaluations import shown_path
from ..files import file_sha256
from ..network import CheckpointError, PolicyNet, load_policy, save_policy
from ..policy import default_checkpoint
from ..trained_for import layout_problem, stored_trained_for

#: how a seat plays while positions are collected, and each style's share of the seats
PLAY_STYLES = {"average": 0.4, "single_view": 0.4, "sampled": 0.2}
SINGLE_VIEW, SAMPLED = list(PLAY_STYLES).index("single_view"), list(PLAY_STYLES).index("sampled")
#: one position in this many is held out of the fit and scored
HELD_OUT_EVERY = 20
#: positions per scoring pass (memory only)
SCORE_BATCH = 8192


@dataclass
class Positions:
    """Decisions with a choice: ``obs`` float32 (N, obs_dim), ``mask`` bool (N, n_actions), the
    teacher's masked ``logits`` float32 (N, n_actions; illegal actions at the dtype's minimum)."""

    obs: torch.Tensor
    mask: torch.Tensor
    logits: torch.Tensor

    def __len__(self) -> int:
        return len(self.obs)

    def take(self, rows: torch.Tensor) -> Positions:
        return Positions(self.obs[rows], self.mask[rows], self.logits[rows])


def collect_positions(teacher: PolicyNet, rules: str, positions: int, games: int, seed: int) -> Positions:
    """At least ``positions`` decisions with a choice from batches of ``games`` games (step 1 of
    the module doc), with ``teacher``'s logits; deals and styles drawn from ``seed``."""
    env = VectorJassEnv(games, rules)
    single = teacher.single_view()
    rng = np.random.default_rng(seed)
    draw = torch.Generator().manual_seed(seed)      # the sampled seats' actions
    styles = np.array(list(PLAY_STYLES.values()))
    players = env.rules.spec.players
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    logit_rows: list[np.ndarray] = []
    kept = 0
    with torch.inference_mode():
        while kept < positions:
            obs, mask, seat = env.reset(seeds=rng.integers(0, 2**31, games).tolist())
            style = rng.choice(len(styles), size=(games, players), p=styles)   # (games, players)
            finished = np.zeros(games, dtype=bool)
            while not finished.all():
                x, m = torch.from_numpy(obs), torch.from_numpy(mask)
                average = teacher.masked_logits(x, m)                           # (games, n_actions)
                keep = ~finished & (mask.sum(1) > 1)
                obs_rows.append(obs[keep].copy())
                mask_rows.append(mask[keep].copy())
                logit_rows.append(average[keep].numpy().copy())
                kept += int(keep.sum())
                seat_style = style[np.arange(games), seat]
                actions = average.argmax(1).numpy()
                actions = np.where(seat_style == SINGLE_VIEW, single.masked_logits(x, m).argmax(1).numpy(),
                                   actions)
                sampled = torch.multinomial(torch.softmax(average, 1), 1, generator=draw)[:, 0].numpy()
                actions = np.where(seat_style == SAMPLED, sampled, actions)
                step = env.step(actions, active=~finished)
                finished |= step.done
                obs, mask, seat = step.obs, step.mask, step.seat
    return Positions(torch.from_numpy(np.concatenate(obs_rows)), torch.from_numpy(np.concatenate(mask_rows)),
                     torch.from_numpy(np.concatenate(logit_rows)))


def renamed(teacher: PolicyNet, data: Positions, views: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor,
                                                                                torch.Tensor]:
    """Row ``i`` of ``data`` under the suit renaming ``views[i]`` (an index into
    ``teacher.suit_renamings``): the observation as the MLP sees it under that renaming
    (B, obs_dim), and the mask and the teacher's softmax with the actions renamed the same way
    (B, n_actions), so that the MLP's logit ``a`` under the renaming is the action named ``a``
    there (the suit average names its views' actions back the same way)."""
    obs = torch.gather(data.obs, 1, teacher.renamed_obs[views])
    to_view = teacher.renamed_action[views]                                   # (B, n_actions)
    mask = torch.zeros_like(data.mask).scatter_(1, to_view, data.mask)
    target = torch.zeros_like(data.logits).scatter_(1, to_view, torch.softmax(data.logits, 1))
    return obs, mask, target


def agreement(student: PolicyNet, data: Positions) -> tuple[float, float]:
    """(share of rows whose greedy action is the teacher's, mean KL from the teacher's softmax to
    the student's over the legal actions, in nats)."""
    same, kl = 0, 0.0
    with torch.inference_mode():
        for start in range(0, len(data), SCORE_BATCH):
            part = data.take(torch.arange(start, min(start + SCORE_BATCH, len(data))))
            logits = student.masked_logits(part.obs, part.mask)
            same += int((logits.argmax(1) == part.logits.argmax(1)).sum())
            p = torch.softmax(part.logits, 1)
            kl += float((p * (torch.log(p.clamp_min(1e-12)) - torch.log_softmax(logits, 1))).sum())
    return same / len(data), kl / len(data)


def fit(teacher: PolicyNet, data: Positions, epochs: int, lr: float, batch_size: int, seed: int,
        hidden: Sequence[int] | None = None, log: Callable[[str], None] = print) -> PolicyNet:
    """One MLP view fitted to ``teacher``'s logits on ``data`` (step 2): a copy of the teacher's
    single view, or with ``hidden`` layer sizes other than the teacher's a new network of those
    sizes (initialised from ``seed``), for rollouts that cost less per row."""
    view = teacher.single_view()
    if hidden is None or list(hidden) == view.hidden:
        student = copy.deepcopy(view).train()
    else:
        student = PolicyNet(hidden, view.obs_dim, view.n_actions, seed=seed, game=view.game).train()
    for p in student.parameters():
        p.requires_grad_(True)
    g = torch.Generator().manual_seed(seed)
    n_views = len(teacher.suit_renamings)
    steps = epochs * (len(data) // batch_size)
    opt = torch.optim.Adam(student.parameters(), lr=lr)
    cosine = lambda step: 0.5 * (1 + math.cos(math.pi * step / max(steps, 1)))  # noqa: E731
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, cosine)
    for epoch in range(epochs):
        order = torch.randperm(len(data), generator=g)
        total = 0.0
        for start in range(0, len(data) - batch_size + 1, batch_size):
            part = data.take(order[start:start + batch_size])
            obs, mask, target = renamed(teacher, part, torch.randint(0, n_views, (batch_size,), generator=g))
            loss = -(target * torch.log_softmax(student.masked_logits(obs, mask), 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            total += loss.item()
        log(f"epoch {epoch + 1}/{epochs}: cross-entropy {total / max(len(data) // batch_size, 1):.4f}")
    return student.eval()


def held_out_split(n: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(fit rows, held-out rows): every :data:`HELD_OUT_EVERY`-th of a seeded shuffle is held out."""
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    held = torch.zeros(n, dtype=torch.bool)
    held[order[::HELD_OUT_EVERY]] = True
    return torch.where(~held)[0], torch.where(held)[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=module_command("agents.search.rollout_net"),
                                 description=__doc__.split("\n\n")[0].replace("\n", " "))
    ap.add_argument("--rules", default="schieber", choices=PRESETS, metavar="PRESET",
                    help="the rules preset (default schieber)")
    ap.add_argument("--checkpoint",
                    help="the suit-averaged policy to fit (default: the preset's shipped one)")
    ap.add_argument("--out", required=True, help="the rollout network's checkpoint to write")
    ap.add_argument("--positions", type=int, default=1_500_000,
                    help="decisions with a choice to collect (default 1,500,000)")
    ap.add_argument("--games", type=int, default=512, help="games played at once (default 512)")
    ap.add_argument("--epochs", type=int, default=12, help="passes over the positions (default 12)")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate at the start (default 1e-3)")
    ap.add_argument("--batch-size", type=int, default=1024, help="positions per step (default 1024)")
    ap.add_argument("--hidden", type=int, nargs="+", metavar="UNITS",
                    help="the rollout network's hidden layer sizes (default: the policy's own, fitted from a "
                         "copy of its single view; other sizes start from a new network)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals, the styles and the fit")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = ap.parse_args(argv)
    for key in ("positions", "games", "epochs", "batch_size", "threads"):
        if getattr(args, key) < 1:
            ap.error(f"--{key.replace('_', '-')} must be an integer >= 1, got {getattr(args, key)}")
    if args.hidden is not None and min(args.hidden) < 1:
        ap.error(f"--hidden sizes must be integers >= 1, got {args.hidden}")
    if not args.lr > 0:
        ap.error(f"--lr must be a number > 0, got {args.lr}")
    torch.set_num_threads(args.threads)
    rules = make_rules(args.rules)
    path = args.checkpoint or default_checkpoint(rules)
    if path is None:
        print(f"error: {rules.name} ships no policy; give the policy to fit as --checkpoint PATH",
              file=sys.stderr)
        return 2
    try:
        teacher, fields = load_policy(path)
    except CheckpointError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problem = layout_problem(stored_trained_for(fields), f"policy checkpoint {str(path)!r}", rules)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if teacher.suit_renamings is None:
        print(f"error: {path} is not a suit average (no suit_renamings): the search's rollouts already play "
              f"it as it is; give a suit-averaged policy", file=sys.stderr)
        return 2
    if args.batch_size * HELD_OUT_EVERY > args.positions:
        ap.error(f"--positions {args.positions} is too few for --batch-size {args.batch_size}: give at least "
                 f"{args.batch_size * HELD_OUT_EVERY}")
    teacher.eval()
    started = time.perf_counter()
    data = collect_positions(teacher, rules.name, args.positions, args.games, args.seed)
    collected = time.perf_counter() - started
    print(f"collected {len(data):,} positions in {collected:.0f} s", flush=True)
    fit_rows, held_rows = held_out_split(len(data), args.seed)
    held = data.take(held_rows)
    before = agreement(teacher.single_view(), held)
    student = fit(teacher, data.take(fit_rows), args.epochs, args.lr, args.batch_size, args.seed, args.hidden,
                  log=lambda line: print(line, flush=True))
    after = agreement(student, held)
    seconds = time.perf_counter() - started
    print(f"held out ({len(held):,} positions): the greedy action is the average's in {before[0]:.1%} "
          f"before, {after[0]:.1%} after; KL {before[1]:.4f} -> {after[1]:.4f} nats; {seconds:.0f} s in all")
    words = sys.argv[1:] if argv is None else argv
    out = save_policy(
        args.out, student, trained_for=stored_trained_for(fields),
        note="A rollout network: one MLP view fitted to a suit-averaged policy (agents.search.rollout_net)",
        command=" ".join([module_command("agents.search.rollout_net"), *words]),
        source=f"fitted to {shown_path(Path(path))} (sha256 {file_sha256(path)})",
        config=vars(args),
        held_out={"positions": len(held), "agreement_before": before[0], "agreement_after": after[0],
                  "kl_before": before[1], "kl_after": after[1]},
        seconds=round(seconds, 1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
