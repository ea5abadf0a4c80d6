"""PPO self-play for Jass (single file, in the spirit of CleanRL's ppo.py).

    .venv/bin/python train.py --config configs/quickstart.yaml [key=value ...] [--stop-after N]
    .venv/bin/python train.py --resume runs/quickstart-20250101-120000 [progress=false ...]

Every game of the family trains here (``rules``: a Schieber preset, ``differenzler``,
``coiffeur``, ...); the sizes come from the game (P players, the observation and action layout),
the bots from :mod:`agents.batched`. ``episode=match`` plays the whole game per episode (Coiffeur's
unit: every deal until both score sheets are full), the rewards still coming deal by deal.

One iteration: ``rollout_steps`` steps of ``num_envs`` batched games (:class:`VectorJassEnv`, one
decision per game and step), then ``epochs`` x ``num_minibatches`` PPO updates on the decisions
of the learning policy. Every game draws, when an episode starts, a line-up (:class:`Lineups`):
the side the learner plays (a team in Schieber, where the learner's partner is the learner too;
one player in Differenzler) and who plays the other seats: the current policy itself (then every
seat is training data), a frozen earlier snapshot, the random bot, the heuristic bot, or the
agent spec ``opponent_agent`` (kind ``agent``, for example ``pimc:worlds=10``, deciding row by
row from each row's observation) (weights ``opponents`` -> ``opponents_final``).
``init_policy`` starts the policy from a checkpoint's weights instead of the seed's (fine-tuning;
the critic still starts fresh; of a suit-averaged checkpoint such as the shipped Schieber policy
only the MLP's weights are taken, and PPO trains that single view). A centralized critic (option
``central_critic``) sees the full state (all hands, and in Differenzler all predictions) while the
policy sees its observation only. With ``bc_decisions`` > 0, a behaviour-cloning warm start
(:func:`warm_start`) runs once before iteration 0: the policy imitates the heuristic bot, which
plays every seat, and the value function learns that play's returns; the checkpoint counts it
(``bc_decisions_done``), so a resumed run does not repeat it.

The run directory (``runs/<name>-<timestamp>`` or ``run_dir=``; a fresh run refuses a folder
that holds files unless ``--overwrite`` is given, which replaces the earlier run's outputs) holds
``config.yaml`` (resolved config), TensorBoard event files (the warm start's in ``warm_start/``),
and ``checkpoints/latest.pt`` (every ``checkpoint_every`` iterations and at the end) and
``checkpoints/best.pt`` (the best statistic against the heuristic, on the deal set ``eval_seed``:
points per hand in Schieber, the game score difference over whole games (duplicate deal
sequences) in Coiffeur, the penalty difference in Differenzler, :mod:`agents.evaluation.headline`).
The folder is created only once the start is validated. At the end,
:func:`final_results` evaluates both on ``final_eval_deals`` deals of the evaluation tool's set
``final_eval_seed`` and writes ``results.json`` and ``results.md`` (the table ``main`` prints),
and ``strength.png`` plots the periodic evaluations against training time
(:mod:`agents.curves`). Checkpoints are ``jass-policy/1`` files (``PolicyAgent``/``load_policy``
read them) with the whole trainer state as extra fields; ``--resume`` continues a run exactly as
if it had not been interrupted (its TensorBoard history, evaluations included, stays whole), and
of a finished run writes only the final outputs that are missing. Exit status 2 with one
``error:`` line for a bad config or checkpoint.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.extras import missing_extra

try:
    import torch
except ModuleNotFoundError as _exc:  # torch, TensorBoard, PyYAML and matplotlib: the "train" extra
    sys.exit(str(missing_extra(_exc, "train.py")))

from agents.batched import SpecBot, bot_actions, evaluate_vs_bot
from agents.curves import plot_strength
from agents.evaluation.protocol import PLAYS, protocol_for, statistic_for
from agents.files import atomic_write, remove_stale_temp_files
from agents.network import (
    CheckpointError,
    PolicyNet,
    apply_mask,
    load_policy,
    read_checkpoint,
    save_policy,
)
from agents.ppo import (
    OPPONENT_KINDS,
    ConfigError,
    CriticNet,
    TrainConfig,
    bc_loss,
    bootstrap_values,
    config_yaml,
    load_config,
    log_prob_entropy,
    make_config,
    parse_override,
    policy_and_value,
    ppo_loss,
    seat_gae,
    value_of,
)
from agents.registry import AgentSpecError
from agents.trained_for import trained_for
from jass_env.commands import shown_command
from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim, state_dim
from jass_env.envs.vector import VectorJassEnv

SELF, SNAPSHOT, RANDOM, HEURISTIC, AGENT = (OPPONENT_KINDS.index(k)
                                            for k in ("self", "snapshot", "random", "heuristic", "agent"))
TRAINER_FORMAT = "jass-ppo-trainer/1"
#: config keys a resumed run may change: they do not change the training's arithmetic, except
#: ``device`` (another device rounds differently; allowed so that a run can move machines).
#: ``torch_threads`` is not among them: resuming a smoke run with 2 threads instead of 1 changed
#: the final weights (by up to 4e-9), since threaded kernels sum in another order.
RESUME_OVERRIDABLE = ("progress", "device", "eval_every", "eval_deals", "checkpoint_every",
                      "final_eval_deals", "final_eval_seed")
CHECKPOINTS = ("latest.pt", "best.pt")           # in RUN_DIR/checkpoints
WARM_START_DIR = "warm_start"                    # the warm start's TensorBoard events, in RUN_DIR
EVENTS_GLOB = "events.out.tfevents.*"
#: a run's result files, relative to its folder (listed at the end of a run)
RESULT_FILES = ("results.md", "results.json", *(f"checkpoints/{c}" for c in CHECKPOINTS), "strength.png")
#: what a run writes besides its event files (an ``--overwrite`` start removes these and the events)
RUN_OUTPUTS = ("config.yaml", *RESULT_FILES)


# ---------------------------------------------------------------------------------- small helpers
class Timers:
    """Wall time per category (env, bots, inference, update, eval, other), in seconds."""

    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)

    @contextmanager
    def __call__(self, name: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.total[name] += time.perf_counter() - t0


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"config key 'device': {name!r} asked for, but no CUDA device is available; "
                          "allowed here: auto, cpu")
    return torch.device(name)


def gumbel(gen: torch.Generator, shape: tuple[int, ...]) -> torch.Tensor:
    """Gumbel(0, 1) noise from a CPU generator: argmax(logits + noise) samples softmax(logits)."""
    u = torch.rand(shape, generator=gen).clamp_(min=1e-20)
    return -torch.log(-torch.log(u))


def hms(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def default_run_dir(cfg: TrainConfig) -> Path:
    return Path("runs") / f"{cfg.name}-{time.strftime('%Y%m%d-%H%M%S')}"


def best_opponent(opponents: Sequence[str]) -> str | None:
    """The eval opponent that picks ``best.pt``: the heuristic if evaluated, else the first."""
    return "heuristic" if "heuristic" in opponents else (opponents[0] if opponents else None)


# ---------------------------------------------------------------------------------- run folder
def check_fresh_run_dir(run_dir: Path, overwrite: bool) -> None:
    """A fresh run may write into ``run_dir`` if it does not exist or is an empty folder; with
    ``overwrite`` any folder. ConfigError (naming ``--resume`` and a fresh ``run_dir``) otherwise."""
    blocker = next((p for p in (run_dir, *run_dir.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise ConfigError(f"run_dir {str(run_dir)!r}: {str(blocker)!r} is a file, not a folder; give a "
                          "folder that does not exist yet, e.g. run_dir=runs/NAME")
    if run_dir.is_dir() and not overwrite:
        held = sorted(p.name for p in run_dir.iterdir())
        if held:
            shown = ", ".join(held[:5]) + (", ..." if len(held) > 5 else "")
            raise ConfigError(f"run_dir {str(run_dir)!r} already holds files ({shown}); continue that run "
                              f"with --resume {run_dir}, give a fresh run_dir=..., or pass --overwrite to "
                              "replace its outputs")


def open_run_dir(run_dir: Path, overwrite: bool) -> None:
    """Create ``run_dir``/checkpoints (once the start is validated); with ``overwrite``, remove
    the earlier run's outputs (:data:`RUN_OUTPUTS` and event files); remove the temporary files
    of a save that was killed half-way."""
    try:
        (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"run_dir {str(run_dir)!r} cannot be created: {e.strerror}") from None
    if overwrite:
        for name in RUN_OUTPUTS:
            (run_dir / name).unlink(missing_ok=True)
        for events in (*run_dir.glob(EVENTS_GLOB), *(run_dir / WARM_START_DIR).glob(EVENTS_GLOB)):
            events.unlink()
    for name in CHECKPOINTS:
        remove_stale_temp_files(run_dir / "checkpoints" / name)


def output_files(run_dir: Path) -> list[Path]:
    """The run's result files that exist: results.md, results.json, both checkpoints, the plot."""
    return [run_dir / name for name in RESULT_FILES if (run_dir / name).exists()]


# ---------------------------------------------------------------------------------- evaluation
def final_results(cfg: TrainConfig, run_dir: Path, device: torch.device) -> dict[str, Any]:
    """Evaluate ``latest.pt`` and (if it is another iteration) ``best.pt`` of ``run_dir`` against
    every eval opponent on ``final_eval_deals`` deals of the set ``final_eval_seed``; write
    ``results.json`` and ``results.md`` (the table) into ``run_dir``; return the JSON dict."""
    rows = []
    seen: set[int] = set()
    for name in ("latest.pt", "best.pt"):
        path = run_dir / "checkpoints" / name
        if not path.exists():
            continue
        net, ckpt = load_policy(path)
        decisions = int(ckpt.get("trainer", {}).get("env_decisions", -1))
        if decisions in seen:
            continue
        seen.add(decisions)
        row: dict[str, Any] = {"checkpoint": str(path), "env_decisions": decisions}
        for bot in cfg.eval_opponents:
            row[bot] = evaluate_vs_bot(net, bot, cfg.rules, cfg.final_eval_deals, cfg.final_eval_seed,
                                       device)
        rows.append(row)
    out = {"rules": cfg.rules, "deals": cfg.final_eval_deals, "deal_set_seed": cfg.final_eval_seed,
           "opponents": list(cfg.eval_opponents), "best_by": best_opponent(cfg.eval_opponents),
           "rows": rows}
    atomic_write(run_dir / "results.json", lambda f: f.write((json.dumps(out, indent=2) + "\n").encode()))
    atomic_write(run_dir / "results.md", lambda f: f.write((results_table(out) + "\n").encode()))
    return out


def final_outputs(cfg: TrainConfig, run_dir: Path, device: torch.device) -> dict[str, Any] | None:
    """The end of a run: ``results.json``/``results.md`` (:func:`final_results`, if
    ``final_eval_deals``) and ``strength.png`` (if ``eval_opponents``), each written unless it
    exists (a resumed run killed after its last checkpoint writes only what is missing). Returns
    the results dict, or None without a final evaluation."""
    results = None
    if cfg.final_eval_deals:
        if (run_dir / "results.json").exists() and (run_dir / "results.md").exists():
            results = json.loads((run_dir / "results.json").read_text())
        else:
            results = final_results(cfg, run_dir, device)
    if cfg.eval_opponents and not (run_dir / "strength.png").exists():
        plot_strength(run_dir, run_dir / "strength.png", f"{cfg.name}: strength during training")
    return results


def results_table(res: dict[str, Any]) -> str:
    """The final evaluation as a Markdown table (the game's statistic with its 95 % interval)."""
    bots = res["opponents"]
    stat = statistic_for(res["rules"])
    protocol = PLAYS[protocol_for(res["rules"])]
    rules_flag = "" if res["rules"] == "schieber" else f" --rules {res['rules']}"
    lines = [f"{stat.text[0].upper()}{stat.text[1:]} of the policy (greedy) on {res['deals']:,} {protocol}, "
             f"rules {res['rules']}, deal set {res['deal_set_seed']} (95% intervals); against the heuristic "
             f"this equals `{shown_command()} -m agents.evaluate CHECKPOINT heuristic{rules_flag} --deals "
             f"{res['deals']} --seed {res['deal_set_seed']}`.",
             "",
             f"`latest.pt` is the policy at the end of training; `best.pt` the one that scored best "
             f"against the {res.get('best_by') or 'heuristic'} in the periodic evaluations (another, "
             "smaller deal set), measured again here; one row when they are the same checkpoint.",
             "",
             "| checkpoint | PPO decisions | " + " | ".join(f"vs {b}" for b in bots) + " |",
             "|---|---:|" + "---:|" * len(bots)]
    for row in res["rows"]:
        cells = [f"{row[b][stat.key]:+.1f} [{row[b]['ci_low']:+.1f}, {row[b]['ci_high']:+.1f}]"
                 for b in bots]
        lines.append(f"| {row['checkpoint']} | {row['env_decisions']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- checkpoints
def rng_state(gens: Generators) -> dict[str, Any]:
    """Every random generator's state, as checkpoint-safe values (weights_only loadable)."""
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    return {"python": random.getstate(),
            "numpy_global": {"kind": kind, "keys": torch.from_numpy(keys.astype(np.int64)), "pos": int(pos),
                             "has_gauss": int(has_gauss), "cached": float(cached)},
            "numpy": gens.draws.bit_generator.state,
            "torch": torch.get_rng_state(),
            "sample": gens.sample.get_state(),
            "bots": gens.bots.bit_generator.state,
            "agent": gens.agent.bit_generator.state}


def set_rng_state(state: dict[str, Any], gens: Generators) -> None:
    py = state["python"]
    random.setstate((py[0], tuple(py[1]), py[2]))
    g = state["numpy_global"]
    np.random.set_state((g["kind"], g["keys"].numpy().astype(np.uint32), g["pos"], g["has_gauss"],
                         g["cached"]))
    gens.draws.bit_generator.state = state["numpy"]
    torch.set_rng_state(state["torch"])
    gens.sample.set_state(state["sample"])
    if "bots" in state:                      # checkpoints before the random bot had its own generator
        gens.bots.bit_generator.state = state["bots"]
    if "agent" in state:                     # checkpoints before the opponent kind "agent"
        gens.agent.bit_generator.state = state["agent"]


def load_trainer_checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint written by this trainer; CheckpointError (naming the file) otherwise."""
    ckpt = read_checkpoint(path)
    tr = ckpt.get("trainer")
    if not isinstance(tr, dict) or tr.get("format") != TRAINER_FORMAT:
        raise CheckpointError(f"checkpoint {str(path)!r} is a policy file without trainer state "
                              f"(expected a 'trainer' field of format {TRAINER_FORMAT!r}); it cannot be "
                              "resumed")
    missing = [k for k in ("config", "iteration", "optimizer", "env", "rng", "snapshots") if k not in tr]
    if missing:
        raise CheckpointError(f"checkpoint {str(path)!r}: trainer state lacks {', '.join(missing)}")
    return ckpt


def resume_checkpoint(run_dir: Path) -> dict[str, Any]:
    """``run_dir/checkpoints/latest.pt``, the checkpoint ``--resume run_dir`` continues from."""
    if run_dir.exists() and not run_dir.is_dir():
        raise CheckpointError(f"--resume {str(run_dir)!r} is a file; give the run folder that train.py "
                              "wrote (it holds checkpoints/latest.pt)")
    return load_trainer_checkpoint(run_dir / "checkpoints" / "latest.pt")


# ---------------------------------------------------------------------------------- warm start
def warm_start(cfg: TrainConfig, policy: PolicyNet, critic: CriticNet | None, device: torch.device,
               writer: Any = None) -> dict[str, float]:
    """Behaviour-cloning warm start: imitate the heuristic bot for ``cfg.bc_rounds`` batches.

    Its own :class:`VectorJassEnv` (the trainer's settings, ``num_envs`` games, seed
    ``cfg.seed + 1``) plays ``rollout_steps`` steps per batch with the heuristic in every seat;
    then ``bc_epochs`` passes of ``num_minibatches`` Adam steps (``bc_lr``, its own
    optimizer; gradient norm clipped at ``max_grad_norm``) minimise, over every decision, the
    cross-entropy of the masked policy to the heuristic's action plus ``vf_coef`` x the squared
    error of the value (critic, or the policy's value head) to the TD(lambda) returns of that
    play (``seat_gae`` with ``gamma``/``gae_lambda``). Deterministic; uses no global RNG, so the
    PPO that follows draws exactly what it would without the warm start. Logs ``bc/loss``,
    ``bc/value_loss`` and ``bc/accuracy`` (first-pass agreement with the heuristic, on decisions
    not yet trained on) at step = warm-start decisions so far to ``writer`` (the trainer's is
    in ``RUN_DIR/warm_start``, apart from PPO's steps). Returns the last batch's stats and
    ``decisions`` (env decisions played).
    """
    N, T = cfg.num_envs, cfg.rollout_steps
    central = critic is not None
    env = VectorJassEnv(N, rules=cfg.rules, episode=cfg.episode, reward=cfg.reward, check_actions=False,
                        state_obs=central, parallel=cfg.env_parallel)
    rules, rp = env.rules, env.rp
    P, A = rules.spec.players, rules.spec.n_actions
    D = state_dim(rules) if central else obs_dim(rules)
    gen = np.random.default_rng(cfg.seed + 1)                 # minibatch order
    params = list(policy.parameters()) + (list(critic.parameters()) if central else [])
    opt = torch.optim.Adam(params, lr=cfg.bc_lr, eps=1e-5)

    r = env.reset(seed=cfg.seed + 1)
    obs, mask, seat = r.obs, r.mask, r.seat
    state = env.states() if central else None
    buf_x = np.zeros((T, N, D), np.float32)
    buf_mask = np.zeros((T, N, A), bool)
    buf_seat = np.zeros((T, N), np.int64)
    buf_act = np.zeros((T, N), np.int64)
    buf_rew = np.zeros((T, N, P), np.float32)
    buf_done = np.zeros((T, N), bool)
    boot_x = np.zeros((N, P, D), np.float32)
    decisions = 0
    stats: dict[str, float] = {}
    start = time.monotonic()
    for rnd in range(cfg.bc_rounds):
        for t in range(T):
            buf_x[t] = state if central else obs
            buf_mask[t] = mask
            buf_seat[t] = seat
            actions = bot_actions("heuristic", rules, obs, mask, None)
            buf_act[t] = actions
            out = env.step(actions)
            buf_rew[t] = out.rewards
            buf_done[t] = out.done
            obs, mask, seat, state = out.obs, out.mask, out.seat, out.states
        decisions += N * T
        M = N * T
        b_x = torch.from_numpy(buf_x.reshape(M, D)).to(device)
        b_mask = torch.from_numpy(buf_mask.reshape(M, A)).to(device)
        b_act = torch.from_numpy(buf_act.reshape(M)).to(device)
        with torch.inference_mode():
            policy.eval()
            val = value_of(policy, critic, b_x).float().cpu().numpy().reshape(T, N)
            boot = bootstrap_values(policy, critic, env.game_states, rp, boot_x, device)   # (N, P)
        adv = seat_gae(buf_seat, val, buf_rew, buf_done, boot, cfg.gamma, cfg.gae_lambda)
        b_ret = torch.from_numpy((adv + val).reshape(M)).to(device)
        policy.train()
        mb = max(1, math.ceil(M / cfg.num_minibatches))
        acc: dict[str, list[float]] = defaultdict(list)
        for epoch in range(cfg.bc_epochs):
            perm = torch.from_numpy(gen.permutation(M)).to(device)
            for s in range(0, M, mb):
                idx = perm[s:s + mb]
                x = b_x[idx]
                logits, v = policy_and_value(policy, critic, x)
                ce, hit = bc_loss(apply_mask(logits, b_mask[idx]), b_act[idx])
                v_loss = 0.5 * ((v - b_ret[idx]) ** 2).mean()
                loss = ce + cfg.vf_coef * v_loss
                opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                opt.step()
                acc["loss"].append(float(ce.detach()))
                acc["value_loss"].append(float(v_loss.detach()))
                if epoch == 0:
                    acc["accuracy"].append(float(hit))
        stats = {k: float(np.mean(v)) for k, v in acc.items()}
        if writer is not None:
            for k, v in stats.items():
                writer.add_scalar(f"bc/{k}", v, decisions)
        if cfg.progress and (rnd + 1 == cfg.bc_rounds or (rnd + 1) % 20 == 0):
            print(f"{cfg.name} warm start {rnd + 1}/{cfg.bc_rounds} {decisions / 1e6:.2f}M dec "
                  f"loss {stats['loss']:.3f} accuracy {stats['accuracy']:.3f} "
                  f"elapsed {hms(time.monotonic() - start)}", file=sys.stderr, flush=True)
    policy.eval()
    return {**stats, "decisions": float(decisions)}


# ---------------------------------------------------------------------------------- run state
@dataclass
class Generators:
    """The run's random generators besides the global ones (each checkpointed)."""

    draws: np.random.Generator        #: opponent draws, minibatch order
    sample: torch.Generator           #: action sampling of the policies (CPU)
    bots: np.random.Generator         #: the random bot's dice
    agent: np.random.Generator        #: the dice of the opponent agent (``opponent_agent``)

    @classmethod
    def from_seed(cls, seed: int) -> Generators:
        return cls(np.random.default_rng(seed), torch.Generator().manual_seed(seed + 1),
                   np.random.default_rng(seed + 2), np.random.default_rng(seed + 3))


class Lineups:
    """Who plays each of the ``num_envs`` games this episode, drawn when an episode starts.

    The learner plays the seats of side ``learner_side[i]`` (a team in Schieber, one player in
    Differenzler); the other seats are played by ``opp_kind[i]`` (an index into OPPONENT_KINDS:
    the learner itself, the frozen snapshot ``opp_slot[i]``, the random or the heuristic bot).
    All arrays are (num_envs,) int64.
    """

    def __init__(self, num_envs: int, rules: Rules) -> None:
        self.sides = rules.spec.sides
        #: (players,) the side of each seat
        self.side_of_seat = np.array([rules.spec.side_of(p) for p in range(rules.spec.players)])
        self.learner_side = np.zeros(num_envs, dtype=np.int64)
        self.opp_kind = np.zeros(num_envs, dtype=np.int64)
        self.opp_slot = np.zeros(num_envs, dtype=np.int64)

    def draw(self, games: np.ndarray, weights: np.ndarray, snap_filled: int,
             rng: np.random.Generator) -> None:
        """New line-ups for ``games`` (indices): opponent kinds by ``weights``, a snapshot slot among
        the ``snap_filled`` filled ones (none filled: the learner instead), a learner side."""
        k = rng.choice(len(OPPONENT_KINDS), size=games.size, p=weights)
        slot = rng.integers(0, max(snap_filled, 1), size=games.size)
        side = rng.integers(0, self.sides, size=games.size)
        if snap_filled == 0:
            k[k == SNAPSHOT] = SELF
        self.opp_kind[games], self.opp_slot[games], self.learner_side[games] = k, slot, side

    def deciders(self, seat: np.ndarray) -> np.ndarray:
        """(num_envs,) who decides at this step of each game: SELF in the learner's seats, else the
        game's opponent kind (``seat``: the seat to act per game)."""
        return np.where(self.side_of_seat[seat] == self.learner_side, SELF, self.opp_kind)

    def state(self) -> dict[str, torch.Tensor]:
        return {"learner_side": torch.from_numpy(self.learner_side.copy()),
                "opp_kind": torch.from_numpy(self.opp_kind.copy()),
                "opp_slot": torch.from_numpy(self.opp_slot.copy())}

    def set_state(self, env_state: dict[str, torch.Tensor]) -> None:
        # checkpoints of the Schieber-only trainer called the side "learner_team"
        side = env_state["learner_side"] if "learner_side" in env_state else env_state["learner_team"]
        self.learner_side[:] = side.numpy()
        self.opp_kind[:] = env_state["opp_kind"].numpy()
        self.opp_slot[:] = env_state["opp_slot"].numpy()


@dataclass
class Learner:
    """The trained networks, their optimizer and the ring of frozen snapshots."""

    policy: PolicyNet
    critic: CriticNet | None
    optimizer: torch.optim.Optimizer
    params: list[torch.nn.Parameter]
    snapshots: list[PolicyNet]       #: ``snapshot_keep`` slots, the first ``snap_filled`` in use


@dataclass
class Progress:
    """The run's counters (checkpointed)."""

    iteration: int = 0
    env_decisions: int = 0
    trained_decisions: int = 0
    best_eval: float | None = None        #: the best statistic against the best_opponent so far
    elapsed_before: float = 0.0           #: training seconds of the processes before this one
    bc_done: int = 0                      #: warm-start decisions played (before iteration 0)
    snap_filled: int = 0


def new_policy(cfg: TrainConfig, rules: Rules, seed: int | None = None) -> PolicyNet:
    """A policy network of the config's size for the game of ``rules``."""
    return PolicyNet(cfg.hidden, obs_dim=obs_dim(rules), n_actions=rules.spec.n_actions, seed=seed)


def load_initial_policy(cfg: TrainConfig, policy: PolicyNet) -> None:
    """Copy the weights of the checkpoint ``cfg.init_policy`` into ``policy`` (of a suit-averaged
    network its MLP's: ``policy`` stays a single view); CheckpointError for a bad file, ConfigError
    when its network does not fit the config and the game."""
    net, _ = load_policy(cfg.init_policy)
    have = (net.hidden, net.obs_dim, net.n_actions)
    want = (policy.hidden, policy.obs_dim, policy.n_actions)
    if have != want:
        raise ConfigError(f"config key 'init_policy': {cfg.init_policy!r} holds a network with hidden "
                          f"{net.hidden}, {net.obs_dim} inputs and {net.n_actions} actions; this run needs "
                          f"hidden {policy.hidden}, {policy.obs_dim} inputs and {policy.n_actions} actions "
                          f"(set hidden, or pick a checkpoint of game {cfg.rules!r})")
    policy.load_state_dict(net.state_dict())


def opponent_agent(cfg: TrainConfig, rules: Rules, gens: Generators) -> SpecBot | None:
    """The agent playing the opponents of kind "agent", drawing from ``gens.agent``; None when
    neither opponent mix gives that kind a weight."""
    mixes = (cfg.opponents, cfg.opponents_final or {})
    if not any(m.get("agent", 0.0) > 0 for m in mixes):
        return None
    try:
        bot = SpecBot(cfg.opponent_agent, rules, seed=0)
    except AgentSpecError as e:         # a spec of another game, or a parameter the agent refuses
        raise ConfigError(f"config key 'opponent_agent': {e}") from None
    bot.agent.rng = gens.agent
    return bot


def cpu_state(net: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu() for k, v in net.state_dict().items()}


def save_checkpoint(path: Path, cfg: TrainConfig, run: Progress, learner: Learner, env: VectorJassEnv,
                    lineups: Lineups, gens: Generators, elapsed: float) -> None:
    """A ``jass-policy/1`` file of the policy with the whole trainer state (``--resume`` reads it)."""
    trainer = {
        "format": TRAINER_FORMAT, "config": cfg.to_dict(), "iteration": run.iteration,
        "env_decisions": run.env_decisions, "trained_decisions": run.trained_decisions,
        "best_eval": run.best_eval, "elapsed": elapsed, "bc_decisions_done": run.bc_done,
        "critic": cpu_state(learner.critic) if learner.critic is not None else None,
        "optimizer": learner.optimizer.state_dict(), "snap_filled": run.snap_filled,
        "snapshots": [cpu_state(s) for s in learner.snapshots[:run.snap_filled]],
        "env": {**{k: torch.from_numpy(v) for k, v in env.get_state().items()}, **lineups.state()},
        "rng": rng_state(gens),
    }
    save_policy(path, learner.policy, trainer=trainer, rules=cfg.rules, trained_for=trained_for(cfg.rules))


def restore(ckpt: dict[str, Any], cfg: TrainConfig, resume: Path, learner: Learner, env: VectorJassEnv,
            lineups: Lineups, gens: Generators) -> tuple[Progress, Any]:
    """Load a trainer checkpoint into the networks, env, line-ups and generators; returns the
    counters and the env's first observations. CheckpointError when it does not fit the config."""
    tr = ckpt["trainer"]
    try:
        learner.policy.load_state_dict(ckpt["model"])
        if learner.critic is not None:
            learner.critic.load_state_dict(tr["critic"])
        learner.optimizer.load_state_dict(tr["optimizer"])
        for s, sd in zip(learner.snapshots, tr["snapshots"], strict=False):
            s.load_state_dict(sd)
    except (RuntimeError, ValueError, KeyError, TypeError, AttributeError) as err:
        why = " ".join(str(err).split())[:400]
        raise CheckpointError(
            f"checkpoint in {str(resume)!r}: its weights do not fit the network of its config (hidden "
            f"{cfg.hidden}, central_critic {cfg.central_critic}, critic_hidden {cfg.critic_hidden}, "
            f"rules {cfg.rules}): {type(err).__name__}: {why}") from None
    e = tr["env"]
    try:
        sample_rng = e["sample_rng"].numpy() if "sample_rng" in e else None    # older checkpoints
        first = env.set_state(e["game_states"].numpy(), sample_rng)
    except ValueError as err:
        raise CheckpointError(f"checkpoint in {str(resume)!r}: env state does not fit this "
                              f"config's environment: {err}") from None
    lineups.set_state(e)
    set_rng_state(tr["rng"], gens)
    run = Progress(int(tr["iteration"]), int(tr["env_decisions"]), int(tr["trained_decisions"]),
                   tr["best_eval"], float(tr["elapsed"]), int(tr.get("bc_decisions_done", 0)),
                   int(tr["snap_filled"]))
    return run, first


def evaluate_policy(cfg: TrainConfig, policy: PolicyNet, device: torch.device) -> dict[str, dict[str, float]]:
    """The periodic evaluation: the greedy policy against every eval opponent on ``eval_deals``
    deals of the set ``eval_seed`` (the evaluation tool's protocol, :mod:`agents.batched`)."""
    return {bot: evaluate_vs_bot(policy, bot, cfg.rules, cfg.eval_deals, cfg.eval_seed, device)
            for bot in cfg.eval_opponents}


#: TensorBoard names of the evaluation's interval keys (eval/<name>_vs_<bot>)
EVAL_TAGS = {"ci_low": "ci95_low", "ci_high": "ci95_high"}


def log_evaluation(writer: Any, res: dict[str, dict[str, float]], step: int) -> None:
    """Every figure of an evaluation as ``eval/<figure>_vs_<bot>`` at ``step`` (env decisions)."""
    for bot, r in res.items():
        for key, value in r.items():
            if key != "deals":
                writer.add_scalar(f"eval/{EVAL_TAGS.get(key, key)}_vs_{bot}", value, step)


def is_new_best(cfg: TrainConfig, res: dict[str, dict[str, float]], best: float | None) -> bool:
    """Whether ``res`` beats ``best`` against the opponent that picks ``best.pt``."""
    key = best_opponent(cfg.eval_opponents)
    if key is None:
        return False
    stat = statistic_for(cfg.rules)
    value = res[key][stat.key]
    return best is None or (value > best if stat.higher_is_better else value < best)


def episode_margins(final_score: np.ndarray, side: np.ndarray, rules: Rules) -> np.ndarray:
    """How much better the learner's side did in finished episodes, (k,) int64 or float64 from
    their scores (k, sides) and the learner's sides (k,): a team game its team's score minus the
    other's; a game played alone the difference of its own score and the others' mean, signed so
    that positive is better (Mittlere's higher result; Differenzler's and Molotow's lower score)."""
    idx = np.arange(side.size)
    own = final_score[idx, side]
    if rules.spec.team_mode != "none":
        return own - final_score[idx, 1 - side]
    margin = own - (final_score.sum(axis=1) - own) / (rules.spec.sides - 1)
    return margin if statistic_for(rules).higher_is_better else -margin


# ---------------------------------------------------------------------------------- training
def train(cfg: TrainConfig, run_dir: Path | None = None, resume: Path | None = None,
          stop_after: int | None = None, overwrite: bool = False) -> dict[str, Any]:
    """Run (or, with ``resume`` = a run directory, continue) PPO self-play; returns a summary dict.

    ``stop_after``: stop once this many iterations are done (the checkpoint is written, so the
    run can be resumed; the config's schedule is unchanged). A fresh run refuses a ``run_dir``
    that holds files unless ``overwrite`` (then the earlier run's outputs are removed). Resuming
    a finished run trains nothing and writes only missing final outputs (``already_finished``
    in the summary).
    """
    from torch.utils.tensorboard import SummaryWriter  # heavy import: only when training

    ckpt = None
    if resume is not None:
        if overwrite:
            raise ConfigError("--overwrite starts a run afresh; it cannot go with --resume")
        ckpt = resume_checkpoint(Path(resume))
        run_dir = Path(resume)
    run_dir = Path(run_dir or cfg.run_dir or default_run_dir(cfg))
    if ckpt is None:
        check_fresh_run_dir(run_dir, overwrite)

    # ---- seeding, device, threads
    torch.set_num_threads(cfg.torch_threads)
    device = pick_device(cfg.device)
    if ckpt is not None and int(ckpt["trainer"]["iteration"]) >= cfg.iterations:
        # finished (perhaps killed after its last checkpoint, before the final outputs)
        tr = ckpt["trainer"]
        return {"run_dir": str(run_dir), "already_finished": True, "iterations": int(tr["iteration"]),
                "env_decisions": int(tr["env_decisions"]), "results": final_outputs(cfg, run_dir, device),
                "checkpoint": str(run_dir / "checkpoints" / "latest.pt")}
    random.seed(cfg.seed)
    np.random.seed(cfg.seed % 2**32)
    torch.manual_seed(cfg.seed)
    gens = Generators.from_seed(cfg.seed)

    # ---- environment: N games, the acting seat of each changes every step
    N, T = cfg.num_envs, cfg.rollout_steps
    central = cfg.central_critic
    env = VectorJassEnv(N, rules=cfg.rules, episode=cfg.episode, reward=cfg.reward, check_actions=False,
                        state_obs=central, parallel=cfg.env_parallel)
    rules, rp = env.rules, env.rp
    P, A = rules.spec.players, rules.spec.n_actions      # seats, actions of the game
    D = state_dim(rules) if central else obs_dim(rules)  # what we store per decision (obs = its first part)
    stat = statistic_for(rules)

    # ---- networks, optimizer, the opponent pool of frozen snapshots (a ring of snapshot_keep slots)
    policy = new_policy(cfg, rules, seed=cfg.seed)
    if cfg.init_policy is not None and ckpt is None:
        load_initial_policy(cfg, policy)
    policy = policy.to(device)
    critic = (CriticNet(cfg.critic_hidden, state_dim=state_dim(rules), seed=cfg.seed + 1).to(device)
              if central else None)
    params = list(policy.parameters()) + (list(critic.parameters()) if critic is not None else [])
    learner = Learner(policy, critic, torch.optim.Adam(params, lr=cfg.lr, eps=1e-5), params,
                      [new_policy(cfg, rules).to(device).eval() for _ in range(cfg.snapshot_keep)])
    optimizer, snapshots = learner.optimizer, learner.snapshots
    lineups = Lineups(N, rules)
    agent_bot = opponent_agent(cfg, rules, gens)
    bc_stats: dict[str, float] = {}

    if ckpt is None:
        run = Progress()
        r = env.reset(seed=cfg.seed)
        snapshots[0].load_state_dict(policy.state_dict())
        run.snap_filled = 1
        lineups.draw(np.arange(N), cfg.opponent_weights(0.0), run.snap_filled, gens.draws)
    else:
        run, r = restore(ckpt, cfg, Path(resume), learner, env, lineups, gens)
    cur_obs, cur_mask, cur_seat = r.obs, r.mask, r.seat
    cur_state = env.states() if central else None

    # ---- rollout storage; T steps x N games (one decision per game and step)
    buf_x = np.zeros((T, N, D), np.float32)          # observation or state of the acting seat
    buf_mask = np.zeros((T, N, A), bool)             # its legal actions
    buf_seat = np.zeros((T, N), np.int64)            # the acting seat 0..P-1
    buf_train = np.zeros((T, N), bool)               # decided by the learning policy -> training data
    buf_act = np.zeros((T, N), np.int64)
    buf_logp = np.zeros((T, N), np.float32)
    buf_val = np.zeros((T, N), np.float32)
    buf_rew = np.zeros((T, N, P), np.float32)        # rewards of every seat for the step
    buf_done = np.zeros((T, N), bool)
    boot_x = np.zeros((N, P, D), np.float32)         # every seat's obs/state at the rollout's end

    # ---- the run folder: created only now that the start is validated
    open_run_dir(run_dir, overwrite)
    cfg.run_dir = str(run_dir)
    (run_dir / "config.yaml").write_text(config_yaml(cfg))
    if ckpt is None:
        print(f"run folder {run_dir} (config.yaml, TensorBoard events, checkpoints/); after an "
              f"interruption continue it with {shown_command('python')} train.py --resume {run_dir}",
              file=sys.stderr, flush=True)
    else:
        print(f"continuing the run in {run_dir} at iteration {run.iteration}/{cfg.iterations}",
              file=sys.stderr, flush=True)
    # Scalars are logged at step = env decisions. A resumed run hides (purges) only what the
    # interrupted process logged after its checkpoint (steps > env_decisions), which it logs again.
    writer = SummaryWriter(log_dir=str(run_dir),
                           purge_step=run.env_decisions + 1 if ckpt is not None else None)
    timers = Timers()
    total_iters = cfg.iterations
    last_iter = total_iters if stop_after is None else min(total_iters, stop_after)
    first_iter = run.iteration
    start = time.monotonic()
    cpu_start = time.process_time()
    last_print = 0.0
    last_eval: dict[str, dict[str, float]] = {}
    tty = sys.stderr.isatty()
    eval_policy = new_policy(cfg, rules).to(device)
    if ckpt is None and cfg.bc_decisions > 0:
        # warm start once, before iteration 0 (never checkpointed half-way; a resumed run has done it)
        # its own event folder: its steps (warm-start decisions) are not PPO's, and a resume's purge
        # of PPO steps must not touch them
        with timers("warm_start"), SummaryWriter(log_dir=str(run_dir / WARM_START_DIR)) as bc_writer:
            bc_stats = warm_start(cfg, policy, critic, device, bc_writer)
        writer.add_scalar("time/warm_start_s", timers.total["warm_start"], 0)
        run.bc_done = int(bc_stats["decisions"])
        snapshots[0].load_state_dict(policy.state_dict())
    ppo_start = time.monotonic()                  # for the time-left estimate (warm start excluded)

    while run.iteration < last_iter:
        it_start = time.perf_counter()
        t_before = dict(timers.total)
        progress = run.iteration / total_iters
        if cfg.lr_anneal:
            for g in optimizer.param_groups:
                g["lr"] = cfg.lr * (1.0 - progress)
        if run.iteration % cfg.snapshot_every == 0 and run.iteration > 0:
            slot = (run.iteration // cfg.snapshot_every) % cfg.snapshot_keep
            snapshots[slot].load_state_dict(policy.state_dict())
            run.snap_filled = min(run.snap_filled + 1, cfg.snapshot_keep)
        episode_stats: dict[int, list[float]] = defaultdict(list)

        # ---------------------------------------------------------------- rollout
        policy.eval()
        for t in range(T):
            with timers("other"):
                x_now = cur_state if central else cur_obs                     # (N, D)
                buf_x[t] = x_now
                buf_mask[t] = cur_mask
                buf_seat[t] = cur_seat
                kind = lineups.deciders(cur_seat)                              # (N,) who decides
                train_rows = np.flatnonzero(kind == SELF)
                buf_train[t] = kind == SELF
            with timers("inference"), torch.inference_mode():
                logits = torch.zeros((N, A))                                  # bot rows keep 0
                if train_rows.size:
                    x = torch.from_numpy(buf_x[t][train_rows]).to(device)
                    lg, v = policy_and_value(policy, critic, x)
                    logits[torch.from_numpy(train_rows)] = lg.float().cpu()
                    buf_val[t, train_rows] = v.float().cpu().numpy()
                snap_rows = np.flatnonzero(kind == SNAPSHOT)
                for slot in np.unique(lineups.opp_slot[snap_rows]):
                    rows = snap_rows[lineups.opp_slot[snap_rows] == slot]
                    lg, _ = snapshots[slot](torch.from_numpy(cur_obs[rows]).to(device))
                    logits[torch.from_numpy(rows)] = lg.float().cpu()
                masked = apply_mask(logits, torch.from_numpy(cur_mask))
                actions = (masked + gumbel(gens.sample, (N, A))).argmax(-1)     # (N,)
                logp = torch.log_softmax(masked, -1).gather(1, actions[:, None])[:, 0]
                actions = actions.numpy()
                buf_logp[t] = logp.numpy()
            with timers("bots"):
                for bot_kind, bot in ((RANDOM, "random"), (HEURISTIC, "heuristic")):
                    rows = np.flatnonzero(kind == bot_kind)
                    if rows.size:
                        actions[rows] = bot_actions(bot, rules, cur_obs[rows], cur_mask[rows], gens.bots)
                rows = np.flatnonzero(kind == AGENT)
                if rows.size:
                    actions[rows] = agent_bot.actions(cur_obs[rows], cur_mask[rows])
            buf_act[t] = actions
            with timers("env"):
                out = env.step(actions)
            with timers("other"):
                buf_rew[t] = out.rewards
                buf_done[t] = out.done
                cur_obs, cur_mask, cur_seat = out.obs, out.mask, out.seat
                cur_state = out.states
                ended = np.flatnonzero(out.done)
                if ended.size:
                    margins = episode_margins(out.final_score[ended], lineups.learner_side[ended], rules)
                    for k, d in zip(lineups.opp_kind[ended], margins, strict=True):
                        episode_stats[int(k)].append(float(d))
                    lineups.draw(ended, cfg.opponent_weights(progress), run.snap_filled, gens.draws)

        # ---------------------------------------------------------------- advantages
        with timers("inference"), torch.inference_mode():
            boot = bootstrap_values(policy, critic, env.game_states, rp, boot_x, device)   # (N, P)
        with timers("other"):
            adv = seat_gae(buf_seat, buf_val, buf_rew, buf_done, boot, cfg.gamma, cfg.gae_lambda)  # (T, N)
            sel = buf_train.reshape(-1)                                          # (T*N,) trained rows
            b_x = torch.from_numpy(buf_x.reshape(T * N, D)[sel]).to(device)     # (M, D)
            b_mask = torch.from_numpy(buf_mask.reshape(T * N, A)[sel]).to(device)
            b_act = torch.from_numpy(buf_act.reshape(-1)[sel]).to(device)
            b_logp = torch.from_numpy(buf_logp.reshape(-1)[sel]).to(device)
            b_val = torch.from_numpy(buf_val.reshape(-1)[sel]).to(device)
            b_adv = torch.from_numpy(adv.reshape(-1)[sel]).to(device)
            b_ret = b_adv + b_val
            M = int(sel.sum())

        # ---------------------------------------------------------------- update
        with timers("update"):
            policy.train()
            mb = max(1, math.ceil(M / cfg.num_minibatches))
            stats_acc: dict[str, list[float]] = defaultdict(list)
            stop = False
            for _epoch in range(cfg.epochs):
                perm = torch.from_numpy(gens.draws.permutation(M)).to(device)
                for s in range(0, M, mb):
                    idx = perm[s:s + mb]
                    x = b_x[idx]
                    logits, v = policy_and_value(policy, critic, x)
                    new_logp, ent = log_prob_entropy(apply_mask(logits, b_mask[idx]), b_mask[idx], b_act[idx])
                    lo = ppo_loss(new_logp, ent, v, b_logp[idx], b_val[idx], b_adv[idx], b_ret[idx],
                                  cfg.clip_eps, cfg.vf_coef, cfg.ent_coef, cfg.clip_vloss, cfg.norm_adv)
                    optimizer.zero_grad(set_to_none=True)
                    lo.loss.backward()
                    gn = torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                    optimizer.step()
                    for name in ("loss", "pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac"):
                        stats_acc[name].append(float(getattr(lo, name).detach()))
                    stats_acc["grad_norm"].append(float(gn))
                    if cfg.target_kl is not None and float(lo.approx_kl) > cfg.target_kl:
                        stop = True
                        break
                if stop:
                    break

        run.iteration += 1
        run.env_decisions += N * T
        run.trained_decisions += M

        # ---------------------------------------------------------------- logging
        with timers("other"):
            it_time = time.perf_counter() - it_start
            step = run.env_decisions
            for name, vals in stats_acc.items():
                writer.add_scalar(f"losses/{name}", float(np.mean(vals)), step)
            y, p = b_ret.cpu().numpy(), b_val.cpu().numpy()
            var_y = float(np.var(y))
            expl_var = math.nan if var_y == 0 else 1 - float(np.var(y - p)) / var_y
            writer.add_scalar("losses/explained_variance", expl_var, step)
            writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], step)
            writer.add_scalar("charts/decisions_per_s", N * T / it_time, step)
            writer.add_scalar("charts/trained_decisions_per_s", M / it_time, step)
            writer.add_scalar("charts/trained_decisions", run.trained_decisions, step)
            writer.add_scalar("charts/snapshots", run.snap_filled, step)
            for k, vals in episode_stats.items():
                writer.add_scalar(f"train/score_diff_vs_{OPPONENT_KINDS[k]}", float(np.mean(vals)), step)
            spent = {k: timers.total[k] - t_before.get(k, 0.0) for k in timers.total}
            for k, v in spent.items():
                if k in ("eval", "warm_start"):      # logged where they happen (outside iterations)
                    continue
                writer.add_scalar(f"time/{k}_s", v, step)
                writer.add_scalar(f"time/{k}_share", v / it_time, step)

        # ---------------------------------------------------------------- evaluation, checkpoints
        if (cfg.eval_every and run.iteration % cfg.eval_every == 0) or run.iteration == total_iters:
            eval_policy.load_state_dict(policy.state_dict())
            eval_before = timers.total["eval"]
            with timers("eval"):
                last_eval = evaluate_policy(cfg, eval_policy, device)
            log_evaluation(writer, last_eval, run.env_decisions)
            writer.add_scalar("time/eval_s", timers.total["eval"] - eval_before, run.env_decisions)
            elapsed = run.elapsed_before + time.monotonic() - start
            writer.add_scalar("time/elapsed_s", elapsed, run.env_decisions)
            if is_new_best(cfg, last_eval, run.best_eval):
                run.best_eval = last_eval[best_opponent(cfg.eval_opponents)][stat.key]
                save_checkpoint(run_dir / "checkpoints" / "best.pt", cfg, run, learner, env, lineups, gens,
                                elapsed)
        writer.flush()                         # all that the checkpoint covers is on disk before it
        if run.iteration % cfg.checkpoint_every == 0 or run.iteration == last_iter:
            save_checkpoint(run_dir / "checkpoints" / "latest.pt", cfg, run, learner, env, lineups, gens,
                            run.elapsed_before + time.monotonic() - start)

        now = time.monotonic()
        if cfg.progress and (run.iteration == last_iter or now - last_print >= (0.5 if tty else 10.0)):
            last_print = now
            per_it = (now - ppo_start) / max(1, run.iteration - first_iter)
            frac = run.iteration / total_iters
            bar = "#" * int(20 * frac) + "." * (20 - int(20 * frac))
            ev = " ".join(f"vs {k} {v[stat.key]:+.1f}" for k, v in last_eval.items())
            line = (f"{cfg.name} [{bar}] it {run.iteration}/{total_iters} {run.env_decisions / 1e6:.2f}M dec "
                    f"{N * T / it_time:,.0f} dec/s ent {np.mean(stats_acc['entropy']):.2f} "
                    f"{ev} elapsed {hms(now - start)} left {hms(per_it * (last_iter - run.iteration))}")
            print(("\r" if tty else "") + line, end="\n" if (not tty or run.iteration == last_iter) else "",
                  file=sys.stderr, flush=True)

    writer.close()
    wall = time.monotonic() - start
    shares = {k: v / wall for k, v in timers.total.items()} if wall > 0 else {}
    results = final_outputs(cfg, run_dir, device) if run.iteration == total_iters else None
    return {"run_dir": str(run_dir), "already_finished": False, "iterations": run.iteration,
            "total_iterations": total_iters, "env_decisions": run.env_decisions,
            "trained_decisions": run.trained_decisions, "wall_s": wall,
            "cpu_s": time.process_time() - cpu_start, "time_s": dict(timers.total),
            "time_share": shares, "eval": last_eval, "best_eval_vs_heuristic": run.best_eval,
            "statistic": stat.key, "bc_decisions": run.bc_done, "bc": bc_stats, "results": results,
            "checkpoint": str(run_dir / "checkpoints" / "latest.pt")}


# ---------------------------------------------------------------------------------- CLI
def print_outputs(summary: dict[str, Any]) -> None:
    """The end of ``main``: the results table, every output file, and how to look at the curves."""
    if summary["results"]:
        print("\n" + results_table(summary["results"]) + "\n")
    run_dir = Path(summary["run_dir"])
    print(f"outputs in {run_dir}:")
    for path in output_files(run_dir):
        print(f"  {path}")
    if (run_dir / "strength.png").exists():
        print(f"curves: {shown_command('python')} -m agents.curves {run_dir}  or  "
              f"{shown_command('tensorboard')} --logdir {run_dir}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=f"{shown_command('python')} train.py",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="YAML config (configs/*.yaml); keys: see agents/ppo.py TrainConfig")
    ap.add_argument("--resume", metavar="RUN_DIR",
                    help="continue the run in RUN_DIR from checkpoints/latest.pt (a finished run: only "
                    "its missing final outputs are written)")
    ap.add_argument("--stop-after", type=int, metavar="N", help="stop after N iterations in total "
                    "(checkpointed; resume later)")
    ap.add_argument("--overwrite", action="store_true", help="start afresh in a run_dir that already holds "
                    "a run, removing its checkpoints, events, config and results (without it such a "
                    "run_dir is refused)")
    ap.add_argument("overrides", nargs="*", metavar="key=value", help="config overrides, e.g. lr=1e-4 "
                    "(before or after the options)")
    args = ap.parse_intermixed_args(argv)
    try:
        if args.stop_after is not None and args.stop_after < 1:
            raise ConfigError(f"--stop-after: {args.stop_after} is not allowed; allowed: an integer >= 1")
        if args.resume:
            if args.config:
                raise ConfigError("--resume takes the config stored in the run; do not pass --config too")
            ckpt = resume_checkpoint(Path(args.resume))
            values = dict(ckpt["trainer"]["config"])
            for text in args.overrides:
                k, v = parse_override(text)
                if k not in RESUME_OVERRIDABLE:
                    raise ConfigError(f"override {text!r}: {k!r} cannot change when resuming (it would "
                                      f"change the run); allowed: {', '.join(RESUME_OVERRIDABLE)}")
                values[k] = v
            cfg = make_config(values)
            del ckpt
            summary = train(cfg, resume=Path(args.resume), stop_after=args.stop_after,
                            overwrite=args.overwrite)
        else:
            if not args.config:
                raise ConfigError("give --config FILE (e.g. configs/quickstart.yaml) or --resume RUN_DIR")
            cfg = load_config(args.config, args.overrides)
            summary = train(cfg, stop_after=args.stop_after, overwrite=args.overwrite)
    except (ConfigError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted; resume from the last checkpoint with --resume RUN_DIR", file=sys.stderr)
        return 130
    if summary["already_finished"]:
        print(f"run {summary['run_dir']} is already finished ({summary['iterations']} iterations, "
              f"{summary['env_decisions']:,} decisions); nothing left to train")
        print_outputs(summary)
        return 0
    ev = "; last periodic evaluation " + " ".join(
        f"vs {k}: {v[summary['statistic']]:+.1f} [{v['ci_low']:+.1f}, {v['ci_high']:+.1f}]"
        for k, v in summary["eval"].items()) if summary["eval"] else ""
    bc = f" after a {summary['bc_decisions']:,}-decision warm start" if summary["bc_decisions"] else ""
    print(f"done: {summary['iterations']} iterations, {summary['env_decisions']:,} decisions{bc} "
          f"({summary['trained_decisions']:,} trained) in {hms(summary['wall_s'])} "
          f"(CPU time {hms(summary['cpu_s'])}){ev}; checkpoint {summary['checkpoint']}")
    if summary["iterations"] < summary["total_iterations"]:
        print(f"stopped at iteration {summary['iterations']}/{summary['total_iterations']}; continue with "
              f"{shown_command('python')} train.py --resume {summary['run_dir']}")
    print_outputs(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
