"""Expert iteration for every game that builds search worlds: distil the policy-guided search into
the policy network.

``python -m agents.distill --config configs/distill.yaml [key=value ...]`` (the command line:
:mod:`agents.distill`) runs ``rounds`` rounds; round r (1, 2, ...) is:

1. **Labels.** Greedy self-play of the round's policy (``init_policy`` in round 1, round r − 1's
   student after it) in every seat, on ``deals`` deals of the round's own label set (for a game
   evaluated by whole games, Coiffeur: ``deals`` whole games, every round of each). Every card
   decision with more than one legal card (with ``contract: search`` also every other decision
   whose worlds the game builds: contracts, pushes, predictions, rows) is searched by
   :class:`agents.search.search.SearchAgent` with that policy as prior and rollout policy
   (``worlds`` worlds, the ``candidates`` actions the policy rates highest, the worlds played out
   by that policy or, with ``rollout: random``, by uniformly random actions, with
   ``rollout: heuristic`` by the game's heuristic play-out where it has one) and stored with each
   candidate's mean result (the game's score units, higher is better: Schieber's own team minus
   opponents, a penalty negated). The game goes on with the policy's greedy action, so the stored
   states are the ones the policy itself reaches. Deals are grouped in chunks of ``chunk_deals``;
   chunk k is one file, deterministic for (seed, r, k) whatever the number of ``workers`` that play
   them.
2. **Fit.** A fresh copy of ``init_policy`` (with ``student_hidden``: a new network of those
   hidden layers, from random weights) is fitted to the labels of rounds 1..r for ``epochs`` epochs
   (Adam, ``lr``, batches of ``batch_size`` decisions, shuffled by ``seed``). The loss of a
   decision (the masked softmax π of the network; π₀ that of ``init_policy``, frozen):

   * a searched decision, ``target: best``: cross-entropy to the best candidate where its mean
     beats the mean of the labelling policy's greedy card by more than ``margin`` points, else
     to the greedy card (a sampled mean is noisy: small differences are mostly noise);
   * a searched decision, ``target: expected``: minus the expected candidate mean,
     −Σ_c π_C(c) (Q(c) − Q̄) / ``temperature``, with π_C the softmax over the candidates and Q̄
     their average. Linear in the means, so zero-mean sampling noise does not bias it;
   * a decision that was not searched (the contract, or one legal card): cross-entropy to the
     labelling policy's greedy action;
   * every decision: plus ``beta`` × the cross-entropy from π₀ to π, which keeps what the search
     does not speak to (the partner's conventions, the contract) where it was.

   What is fitted is one MLP (:meth:`agents.network.PolicyNet.single_view`). With ``augment``
   every decision of a batch is seen with its suits renamed by a random permutation of those the
   rules allow (the game's ``suit_symmetry`` module, :attr:`jass_env.games.base.Game.suit_symmetry`;
   all 24 in ``schieber``): the renamed position is played the same way and its candidates score
   the same, so each label teaches all the equivalent positions, not only the one that happened
   to be dealt. With ``suit_average`` π₀ and the student are *suit averages* (the MLP's logits
   averaged over every renaming, an exactly suit-invariant policy; a start that already is one
   stays one): π₀ is then the stronger anchor, and the student plays as the average of its fitted
   MLP. A game without a suit symmetry, or rules that allow only the identity, fit plainly.
3. **Evaluate** the student against every ``eval_opponents`` entry on ``eval_deals`` duplicate
   deals of the evaluation tool's deal set ``eval_seed`` (:func:`agents.batched.evaluate_vs_bot`,
   greedy policy). Also reported: the held-out regret of the start and the student (every
   ``heldout_every``-th chunk of each round is left out of the fit): best candidate mean minus the
   mean of the card the network plays, over held-out searched decisions where that card is a
   candidate.

Run directory (``run_dir``, default ``runs/<name>``; rerunning the same command resumes it, a
different config is refused, a finished run says so)::

    config.yaml                    the resolved config
    round1/labels/c00000.npz ...   chunk k: obs (n, obs_dim) float32, mask (n, n_actions) int8,
                                   greedy (n,) int64, options (n, candidates) int64 (-1: none),
                                   means (n, candidates) float32 (NaN: none)
    round1/student.pt              the fitted jass-policy/1 checkpoint
    round1/result.json             fit and evaluation figures
    results.json                   every round's result, written when the run is finished
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from ..extras import missing_extra

try:
    import torch
    import yaml
except ModuleNotFoundError as exc:  # torch and PyYAML come with the "train" extra
    raise missing_extra(exc, "agents.search.distill (expert iteration)") from None

from jass_env.engine.cards import N_SUITS
from jass_env.engine.state import to_move
from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim
from jass_env.games import PRESETS, game_of, make_rules
from jass_env.round import Match, Round

from ..batched import evaluate_vs_bot
from ..evaluation.protocol import WHOLE_GAME, protocol_for
from ..files import atomic_write, file_sha256
from ..network import CheckpointError, PolicyNet, apply_mask, load_policy, save_policy
from ..policy import default_checkpoint
from ..trained_for import trained_for
from ..training.config import is_eval_opponent
from ..training.yaml_config import ConfigError, build_config, meta, non_negative, positive, read_config_values
from .search import CONTRACT_MODES, ROLLOUTS, SearchAgent
from .world_model import world_model_class

TARGETS = ("best", "expected")
LABEL_FIELDS = ("obs", "mask", "greedy", "options", "means")


def searchable(preset: str) -> bool:
    """Whether the game of ``preset`` builds search worlds for its spec (the search plays it)."""
    try:
        world_model_class(make_rules(preset))
    except ValueError:
        return False
    return True


@dataclass
class DistillConfig:
    """Every setting of an expert-iteration run (one YAML file = one of these)."""

    name: str = field(default="distill", metadata=meta("a non-empty string", lambda v: bool(v.strip())))
    seed: int = field(default=0, metadata=meta("an integer >= 0", non_negative))
    run_dir: str | None = field(default=None, metadata=meta("a path, or null for runs/<name>"))
    rules: str = field(default="schieber", metadata=meta(
        "a rules preset whose game the search plays: " + ", ".join(p for p in PRESETS if searchable(p)),
        lambda v: v in PRESETS and searchable(v)))
    init_policy: str | None = field(default=None, metadata=meta(
        "null (the preset's shipped policy) or a jass-policy checkpoint of a policy for its game"))
    rounds: int = field(default=1, metadata=meta("an integer >= 1", positive))
    student_hidden: list[int] | None = field(default=None, metadata=meta(
        "null (the student is a copy of the start policy) or a list of positive hidden-layer sizes, "
        "e.g. [512, 512] (a new network of that trunk, from random weights)",
        lambda v: v is None or (len(v) > 0 and all(h > 0 for h in v))))
    # labels
    deals: int = field(default=8000, metadata=meta("an integer >= 1 (deals per round)", positive))
    chunk_deals: int = field(default=50, metadata=meta("an integer >= 1 (deals per label file)", positive))
    workers: int = field(default=2, metadata=meta("an integer >= 1 (processes playing label chunks)",
                                                  positive))
    worlds: int = field(default=100, metadata=meta("an integer >= 1 (worlds per searched decision)",
                                                   positive))
    candidates: int = field(default=5, metadata=meta("an integer >= 2 (actions searched per decision)",
                                                      lambda v: v >= 2))
    rollout: str = field(default="policy", metadata=meta(
        f"one of {', '.join(ROLLOUTS)} (who plays the searched worlds out: the labelling policy, "
        "uniformly random legal actions, or the game's heuristic play-out where it has one)",
        lambda v: v in ROLLOUTS))
    contract: str = field(default="policy", metadata=meta(
        f"one of {', '.join(CONTRACT_MODES)} (search the decisions that are not cards too)",
        lambda v: v in CONTRACT_MODES))
    # fit
    target: str = field(default="expected", metadata=meta(f"one of {', '.join(TARGETS)}",
                                                           lambda v: v in TARGETS))
    margin: float = field(default=3.0, metadata=meta("a number >= 0 (the game's score units; target best)",
                                                      non_negative))
    temperature: float = field(default=2.0, metadata=meta("a number > 0 (the game's score units; target "
                                                           "expected)", positive))
    beta: float = field(default=0.1, metadata=meta("a number >= 0", non_negative))
    augment: bool = field(default=True, metadata=meta(
        "true or false (rename the suits of each decision at random, by the game's suit symmetry)",
        lambda v: isinstance(v, bool)))
    suit_average: bool = field(default=True, metadata=meta(
        "true or false (the start policy, in the anchor, and the student are suit averages)",
        lambda v: isinstance(v, bool)))
    lr: float = field(default=3e-4, metadata=meta("a number > 0", positive))
    epochs: int = field(default=6, metadata=meta("an integer >= 1", positive))
    batch_size: int = field(default=512, metadata=meta("an integer >= 1", positive))
    heldout_every: int = field(default=20, metadata=meta(
        "an integer >= 2 (every n-th label chunk is held out of the fit)", lambda v: v >= 2))
    # evaluation
    eval_opponents: list[str] = field(default_factory=lambda: ["pimc:worlds=10", "heuristic"], metadata=meta(
        "a list of random, heuristic or agent specs (python -m agents.evaluate --help lists them)",
        lambda v: all(is_eval_opponent(x) for x in v)))
    eval_deals: int = field(default=1000, metadata=meta("an integer >= 2, or 0 for none",
                                                         lambda v: v == 0 or v >= 2))
    eval_seed: int = field(default=777, metadata=meta("an integer >= 0", non_negative))
    torch_threads: int = field(default=1, metadata=meta("an integer >= 1", positive))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def chunks(self) -> int:
        """Label chunks per round (the last may hold fewer deals)."""
        return -(-self.deals // self.chunk_deals)

    def start_policy(self) -> Path:
        if self.init_policy is not None:
            return Path(self.init_policy)
        path = default_checkpoint(self.rules)
        if path is None:
            raise ConfigError(f"config key 'init_policy': null means the shipped policy of {self.rules}, "
                              "which this installation lacks; give a checkpoint path")
        return path


def load_distill_config(path: str | Path | None, overrides: Sequence[str] = ()) -> DistillConfig:
    """Read a YAML config (None: all defaults), apply ``key=value`` overrides, validate."""
    cfg = build_config(DistillConfig, read_config_values(path, overrides))
    rules = make_rules(cfg.rules)
    if cfg.rollout == "heuristic" and not world_model_class(rules).has_heuristic_play_out(rules):
        raise ConfigError(f"config key 'rollout': {cfg.rules}'s search has no heuristic play-out; "
                          f"allowed: policy, random")
    try:
        load_policy(cfg.start_policy())
    except CheckpointError as e:
        raise ConfigError(f"config key 'init_policy': {e}") from None
    return cfg


# labels
@lru_cache(maxsize=1)
def _searcher(rules: str, checkpoint: str, worlds: int, candidates: int, contract: str,
              rollout: str) -> SearchAgent:
    """One search agent per worker process and policy (loading and compiling once)."""
    return SearchAgent(rules, checkpoint, worlds=worlds, candidates=candidates, contract=contract,
                       rollout=rollout)


def chunk_seeds(seed: int, round_no: int, chunk: int, n_deals: int) -> tuple[list[int], int]:
    """The deal seeds of one label chunk and its search seed (from (seed, round, chunk) only)."""
    words = np.random.SeedSequence([seed, round_no, chunk]).generate_state(n_deals + 1, dtype=np.uint32)
    return [int(w) for w in words[1:]], int(words[0])


def _episode(rules: Rules, seed: int) -> Round | Match:
    """What one label deal plays: a round, or a whole game where the game is evaluated by whole games
    (its later rounds are positions a round alone never reaches)."""
    return Match(rules, seed=seed) if protocol_for(rules) == WHOLE_GAME else Round(rules, seed=seed)


def label_chunk(rules: str, checkpoint: str, worlds: int, candidates: int, contract: str, rollout: str,
                deal_seeds: Sequence[int], search_seed: int) -> dict[str, np.ndarray]:
    """Play ``deal_seeds`` by greedy self-play of ``checkpoint`` and search every decision with a
    choice that the search searches (module docstring, step 1). Returns the label arrays (fields
    :data:`LABEL_FIELDS`, one row per decision of every seat)."""
    search = _searcher(rules, checkpoint, worlds, candidates, contract, rollout)
    search.reset(seed=search_seed)
    rp = search.rp
    encode_observation = game_of(search.rules).observation.encode_observation
    width, n_actions = obs_dim(search.rules), search.rules.spec.n_actions
    obs_rows, mask_rows, greedy, options, means = [], [], [], [], []
    for s in deal_seeds:
        episode = _episode(search.rules, s)
        while not episode.is_over:
            st = episode.state
            obs = np.zeros(width, dtype=np.float32)
            mask = np.zeros(n_actions, dtype=np.int8)
            encode_observation(st, int(to_move(st)), rp, obs)
            mask[episode.legal_actions()] = 1
            seen = {"observation": obs, "action_mask": mask}
            action = search.policy.act(seen)
            row_options = np.full(candidates, -1, dtype=np.int64)
            row_means = np.full(candidates, np.nan, dtype=np.float32)
            searched = search.option_values(seen)
            if searched is not None:
                row_options[: len(searched[0])], row_means[: len(searched[1])] = searched
            obs_rows.append(obs)
            mask_rows.append(mask)
            greedy.append(action)
            options.append(row_options)
            means.append(row_means)
            episode.step(action)
    return {"obs": np.stack(obs_rows), "mask": np.stack(mask_rows), "greedy": np.asarray(greedy, np.int64),
            "options": np.stack(options), "means": np.stack(means)}


def _write_chunk(path: Path, arrays: dict[str, np.ndarray]) -> None:
    atomic_write(path, lambda f: np.savez_compressed(f, **arrays))


def _label_task(args: tuple[str, str, int, int, str, str, list[int], int, str, int]) -> str:
    rules, checkpoint, worlds, candidates, contract, rollout, deal_seeds, search_seed, out, threads = args
    torch.set_num_threads(threads)
    _write_chunk(Path(out), label_chunk(rules, checkpoint, worlds, candidates, contract, rollout, deal_seeds,
                                        search_seed))
    return out


def chunk_path(run_dir: Path, round_no: int, chunk: int) -> Path:
    return run_dir / f"round{round_no}" / "labels" / f"c{chunk:05d}.npz"


def generate_labels(cfg: DistillConfig, run_dir: Path, round_no: int, policy: Path,
                    log: Any = print) -> None:
    """Write the label chunks of round ``round_no`` that are not there yet (resumable)."""
    todo = []
    for k in range(cfg.chunks):
        out = chunk_path(run_dir, round_no, k)
        if out.exists():
            continue
        n = min(cfg.chunk_deals, cfg.deals - k * cfg.chunk_deals)
        deals, search_seed = chunk_seeds(cfg.seed, round_no, k, n)
        todo.append((cfg.rules, str(policy), cfg.worlds, cfg.candidates, cfg.contract, cfg.rollout, deals,
                     search_seed, str(out), cfg.torch_threads))
    if not todo:
        return
    chunk_path(run_dir, round_no, 0).parent.mkdir(parents=True, exist_ok=True)
    log(f"round {round_no}: labelling {len(todo)} of {cfg.chunks} chunks ({cfg.chunk_deals} deals each) "
        f"with {cfg.workers} worker(s)")
    started = time.perf_counter()
    if cfg.workers == 1:
        done = map(_label_task, todo)
    else:
        pool = ProcessPoolExecutor(cfg.workers, mp_context=get_context("spawn"))
        done = pool.map(_label_task, todo)
    try:
        for i, _ in enumerate(done, 1):
            if i % max(1, len(todo) // 20) == 0 or i == len(todo):
                log(f"  {i}/{len(todo)} chunks, {time.perf_counter() - started:.0f} s")
    finally:
        if cfg.workers > 1:
            pool.shutdown(cancel_futures=True)


class LabelError(ValueError):
    """A label file that is missing, corrupt or of the wrong shape."""


def load_labels(paths: Sequence[Path], rules: Rules, candidates: int) -> dict[str, np.ndarray]:
    """The label arrays of ``paths`` (decisions under ``rules``), concatenated; LabelError names a
    bad file."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in LABEL_FIELDS}
    shapes = {"obs": (obs_dim(rules),), "mask": (rules.spec.n_actions,), "greedy": (),
              "options": (candidates,), "means": (candidates,)}
    for p in paths:
        try:
            with np.load(p) as z:
                arrays = {k: z[k] for k in LABEL_FIELDS}
        except Exception as e:  # zipfile, pickle and key errors for a damaged file
            raise LabelError(f"label file {str(p)!r} cannot be read ({type(e).__name__}: {e}); delete it "
                             "and rerun to label that chunk again") from None
        n = len(arrays["greedy"])
        bad = [k for k, a in arrays.items() if a.shape != (n, *shapes[k])]
        if bad:
            raise LabelError(f"label file {str(p)!r}: field {bad[0]!r} has shape {arrays[bad[0]].shape}, "
                             f"expected {(n, *shapes[bad[0]])}; delete it and rerun")
        for k, a in arrays.items():
            parts[k].append(a)
    if not paths:
        raise LabelError("no label files to load")
    return {k: np.concatenate(v) for k, v in parts.items()}


# fit
def hard_targets(labels: dict[str, np.ndarray], margin: float) -> np.ndarray:
    """Target action per decision (int64[n]) of ``target: best``: the best candidate where its
    mean beats the greedy card's by more than ``margin``, else the greedy action."""
    options, means, greedy = labels["options"], labels["means"], labels["greedy"]
    target = greedy.copy()
    searched = options[:, 0] >= 0
    filled = np.where(np.isnan(means), -np.inf, means)
    best = filled.argmax(axis=1)
    best_mean = filled[np.arange(len(best)), best]
    greedy_mean = np.where(options == greedy[:, None], filled, -np.inf).max(axis=1)   # -inf: no candidate
    with np.errstate(invalid="ignore"):                                # -inf - -inf where not searched
        better = searched & (best_mean - greedy_mean > margin)
    target[better] = options[better, best[better]]
    return target


def regret(net: PolicyNet, labels: dict[str, np.ndarray]) -> tuple[float, float]:
    """Mean regret of ``net``'s greedy card over searched decisions (best candidate mean minus the
    mean of the card it plays, points) where that card is a candidate, and the share of searched
    decisions where it is not."""
    rows = np.flatnonzero(labels["options"][:, 0] >= 0)
    if len(rows) == 0:
        return math.nan, math.nan
    with torch.inference_mode():
        logits = net.masked_logits(torch.from_numpy(labels["obs"][rows]),
                                   torch.from_numpy(labels["mask"][rows].astype(bool)))
    played = logits.argmax(dim=1).numpy()
    options, means = labels["options"][rows], labels["means"][rows].astype(np.float64)
    hit = options == played[:, None]
    on = hit.any(axis=1)
    best = np.nanmax(means, axis=1)
    chosen = np.where(hit, np.nan_to_num(means), 0).sum(axis=1)
    return float((best - chosen)[on].mean()), float(1.0 - on.mean())


def suit_renamings(rules: Rules) -> np.ndarray:
    """The suit permutations under which ``rules`` play the same (int64[m, 4], the identity first):
    the game's suit symmetry, or the identity alone where the game declares none."""
    symmetry = game_of(rules).suit_symmetry
    return np.arange(N_SUITS)[None] if symmetry is None else symmetry.suit_permutations(rules)


class SuitRenaming:
    """Renames the suits of a batch of decisions, each by its own random permutation of those
    the rules allow (:func:`suit_renamings`): the same decision, labelled the same, in another of
    its equivalent forms. ``augment=False``, or rules that allow only the identity: no renaming."""

    def __init__(self, rules: Rules, augment: bool = True) -> None:
        perms = suit_renamings(rules) if augment else np.arange(N_SUITS)[None]
        self.renames = len(perms) > 1
        if self.renames:
            symmetry = game_of(rules).suit_symmetry
            self.obs_index = torch.from_numpy(symmetry.observation_index(perms, rules))    # (m, obs_dim)
            self.action_index = torch.from_numpy(symmetry.action_index(perms, rules))      # (m, n_actions)
            self.action_source = torch.from_numpy(symmetry.action_source(perms, rules))    # (m, n_actions)

    def __call__(self, gen: torch.Generator, obs: torch.Tensor, mask: torch.Tensor, actions: torch.Tensor,
                 options: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """``obs`` (B, obs_dim), ``mask`` (B, n_actions), ``actions`` (B,) and ``options`` (B, K;
        -1 stays -1) renamed; unchanged (no random draw) when only the identity is allowed."""
        if not self.renames:
            return obs, mask, actions, options
        k = torch.randint(len(self.obs_index), (len(obs),), generator=gen)
        names = self.action_index[k]                                    # (B, n_actions)
        return (obs.gather(1, self.obs_index[k]), mask.gather(1, self.action_source[k]),
                names.gather(1, actions[:, None])[:, 0],
                torch.where(options >= 0, names.gather(1, options.clamp(min=0)), options))


def fit(cfg: DistillConfig, labels: dict[str, np.ndarray], log: Any = print) -> PolicyNet:
    """A fresh copy of ``init_policy`` (or, with ``student_hidden``, a new network of that trunk
    from random weights drawn by ``seed``) fitted to ``labels`` (module docstring, step 2)."""
    start, _ = load_policy(cfg.start_policy())
    if cfg.student_hidden is None:
        net, _ = load_policy(cfg.start_policy())
    else:
        net = PolicyNet(cfg.student_hidden, start.obs_dim, start.n_actions, seed=cfg.seed,
                        suit_renamings=start.suit_renamings, game=start.game)
    rules = make_rules(cfg.rules)
    renamings = suit_renamings(rules).tolist()
    if cfg.suit_average and len(renamings) > 1 and net.suit_renamings is None:
        net, start = net.suit_averaged(renamings), start.suit_averaged(renamings)
    mlp = net.single_view().train()          # what is fitted: one MLP pass per decision
    obs = torch.from_numpy(labels["obs"])                              # (n, obs_dim)
    mask = torch.from_numpy(labels["mask"].astype(bool))               # (n, n_actions)
    searched = torch.from_numpy(labels["options"][:, 0] >= 0)          # (n,)
    options = torch.from_numpy(np.maximum(labels["options"], 0))       # (n, K), -1 padding -> 0
    filled = torch.from_numpy(~np.isnan(labels["means"]))              # (n, K) real candidates
    q = torch.from_numpy(np.nan_to_num(labels["means"]).astype(np.float32))
    q_bar = (q * filled).sum(1, keepdim=True) / filled.sum(1, keepdim=True).clamp(min=1)
    q = torch.where(filled, q - q_bar, 0)                              # (n, K) centred means
    hard = torch.from_numpy(hard_targets(labels, cfg.margin) if cfg.target == "best" else labels["greedy"])
    renaming = SuitRenaming(rules, cfg.augment)
    n = len(obs)
    gen = torch.Generator().manual_seed(cfg.seed)
    opt = torch.optim.Adam(mlp.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, cfg.batch_size):
            b = order[i: i + cfg.batch_size]
            obs_b, mask_b, hard_b, options_b = renaming(gen, obs[b], mask[b], hard[b], options[b])
            logits = mlp.masked_logits(obs_b, mask_b)                   # (B, n_actions), illegal -inf
            logp = torch.log_softmax(logits, 1)
            with torch.no_grad():
                p0 = torch.softmax(start.masked_logits(obs_b, mask_b), 1)
            anchor = -(p0 * torch.where(mask_b, logp, 0)).sum(1)       # cross-entropy from π₀
            ce_hard = -logp.gather(1, hard_b[:, None])[:, 0]
            if cfg.target == "best":
                main = ce_hard
            else:
                cand = apply_mask(logits.gather(1, options_b), filled[b])       # (B, K)
                expected = -(torch.softmax(cand, 1) * q[b]).sum(1) / cfg.temperature
                main = torch.where(searched[b], expected, ce_hard)
            loss = (main + cfg.beta * anchor).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        log(f"  epoch {epoch + 1}/{cfg.epochs}: loss {total / n:.4f}")
    net.eval()
    return net


# run
def _heldout(k: int, cfg: DistillConfig) -> bool:
    return k % cfg.heldout_every == cfg.heldout_every - 1


def run_round(cfg: DistillConfig, run_dir: Path, round_no: int, log: Any = print) -> dict[str, Any]:
    """Labels, fit and evaluation of one round (resumable); returns its result dict."""
    result_path = run_dir / f"round{round_no}" / "result.json"
    if result_path.exists():
        return json.loads(result_path.read_text())
    policy = cfg.start_policy() if round_no == 1 else run_dir / f"round{round_no - 1}" / "student.pt"
    started = time.perf_counter()
    generate_labels(cfg, run_dir, round_no, policy, log)
    label_s = time.perf_counter() - started
    train_paths = [chunk_path(run_dir, r, k) for r in range(1, round_no + 1) for k in range(cfg.chunks)
                   if not _heldout(k, cfg)]
    held_paths = [chunk_path(run_dir, round_no, k) for k in range(cfg.chunks) if _heldout(k, cfg)]
    labels = load_labels(train_paths, make_rules(cfg.rules), cfg.candidates)
    n_searched = int((labels["options"][:, 0] >= 0).sum())
    log(f"round {round_no}: fitting on {len(labels['greedy'])} decisions ({n_searched} searched) of "
        f"rounds 1..{round_no}")
    started = time.perf_counter()
    student = fit(cfg, labels, log)
    fit_s = time.perf_counter() - started
    student_path = run_dir / f"round{round_no}" / "student.pt"
    save_policy(student_path, student, note=f"agents.distill round {round_no}", rules=cfg.rules,
                trained_for=trained_for(cfg.rules), source=f"{policy} (sha256 {file_sha256(policy)})",
                distill_config=cfg.to_dict())
    result: dict[str, Any] = {"round": round_no, "decisions": len(labels["greedy"]), "searched": n_searched,
                              "label_seconds": round(label_s, 1), "fit_seconds": round(fit_s, 1)}
    if held_paths:
        held = load_labels(held_paths, make_rules(cfg.rules), cfg.candidates)
        start_net, _ = load_policy(cfg.start_policy())
        result["heldout_regret_start"], _ = regret(start_net, held)
        result["heldout_regret_student"], result["heldout_off_candidates"] = regret(student, held)
        log(f"round {round_no}: held-out regret {result['heldout_regret_start']:.3f} (start) -> "
            f"{result['heldout_regret_student']:.3f} (student)")
    device = torch.device("cpu")
    for bot in cfg.eval_opponents if cfg.eval_deals else ():
        r = evaluate_vs_bot(student, bot, cfg.rules, cfg.eval_deals, cfg.eval_seed, device)
        result[f"vs {bot}"] = r
        value = r[game_of(cfg.rules).statistic.key]
        log(f"round {round_no}: vs {bot}: {value:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] "
            f"on {cfg.eval_deals} deals of set {cfg.eval_seed}")
    atomic_write(result_path, lambda f: f.write(json.dumps(result, indent=2).encode()))
    return result


def run(cfg: DistillConfig, log: Any = print) -> list[dict[str, Any]]:
    """Every round of ``cfg`` in its run directory; resumes what is there."""
    run_dir = Path(cfg.run_dir or Path("runs") / cfg.name)
    config_text = yaml.safe_dump(cfg.to_dict(), sort_keys=False)
    config_path = run_dir / "config.yaml"
    if config_path.exists() and config_path.read_text() != config_text:
        raise ConfigError(f"run directory {str(run_dir)!r} holds a run of another config ({config_path}); "
                          "give another run_dir or name, or the same config to resume it")
    if (run_dir / "results.json").exists():
        raise ConfigError(f"the run in {str(run_dir)!r} is already finished (results.json); its students "
                          f"are round*/student.pt; give another run_dir or name for a new run")
    run_dir.mkdir(parents=True, exist_ok=True)
    config_path.write_text(config_text)
    torch.set_num_threads(cfg.torch_threads)
    results = [run_round(cfg, run_dir, r, log) for r in range(1, cfg.rounds + 1)]
    atomic_write(run_dir / "results.json", lambda f: f.write(json.dumps(results, indent=2).encode()))
    log(f"finished: students in {run_dir}/round*/student.pt, figures in {run_dir}/results.json")
    return results


__all__ = ["DistillConfig", "load_distill_config", "label_chunk", "generate_labels", "load_labels",
           "hard_targets", "SuitRenaming", "suit_renamings", "searchable",
           "regret", "fit", "run_round", "run", "LabelError", "TARGETS"]
