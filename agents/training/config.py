"""The trainer's config: :class:`TrainConfig`, every setting of a PPO self-play run (one YAML file
is one of these), read and validated by :func:`load_config`.

Every key is checked before any work starts: an unknown key, a value of the wrong type or an
impossible value is a :class:`~agents.training.yaml_config.ConfigError` naming the key, the value
and what is allowed. Sizes are counted in env decisions (one per game and step, every seat).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.engine.spec import EPISODES
from jass_env.envs.rewards import REWARD_KINDS, reward_kinds
from jass_env.games import DEFAULT_PRESET, PRESETS, make_rules

from ..registry import AgentSpecError, parse_spec
from .yaml_config import (
    ConfigError,
    build_config,
    meta,
    non_negative,
    parse_override,
    positive,
    read_config_values,
    unit_interval,
)

#: Opponent kinds of the self-play pool, in the order of their codes in the trainer's arrays.
OPPONENT_KINDS = ("self", "snapshot", "random", "heuristic", "agent")
#: the batch bots an evaluation can play against (besides any agent spec)
EVAL_OPPONENTS = ("random", "heuristic")
#: largest ``seed``: the trainer seeds torch generators with ``seed`` and ``seed + 1``, and torch
#: takes seeds below 2**64
MAX_SEED = 2**64 - 2
#: the keys a resumed run may change: they do not change the training's arithmetic, except
#: ``device`` (another device rounds differently; allowed so that a run can move machines).
#: ``torch_threads`` is not among them: resuming a smoke run with 2 threads instead of 1 changed
#: the final weights (by up to 4e-9), since threaded kernels sum in another order.
#: ``eval_opponents`` may change as long as the opponent that picks ``best.pt`` stays
#: (:func:`best_opponent`), so that a run whose opponent checkpoint is gone can still go on.
RESUME_OVERRIDABLE = ("progress", "device", "eval_every", "eval_deals", "eval_opponents", "checkpoint_every",
                      "final_eval_deals", "final_eval_seed")


def is_eval_opponent(x: Any) -> bool:
    """A batch bot (:data:`EVAL_OPPONENTS`), or a spec the agent registry parses."""
    if x in EVAL_OPPONENTS:
        return True
    try:
        parse_spec(x)
    except AgentSpecError:
        return False
    return True


def best_opponent(opponents: Sequence[str]) -> str | None:
    """The eval opponent that picks ``best.pt``: the heuristic if evaluated, else the first."""
    return "heuristic" if "heuristic" in opponents else (opponents[0] if opponents else None)


def _hidden_sizes(v: list[int]) -> bool:
    return len(v) > 0 and all(h >= 1 for h in v)


def _opponent_mix(optional: str = "") -> str:
    return f"{optional}a mapping from {', '.join(OPPONENT_KINDS)} to weights >= 0 with a positive sum"


_EVAL_SPECS = ("pimc:worlds=10, search:worlds=30, a checkpoint; python -m agents.evaluate --help "
               "lists them")


@dataclass(frozen=True)
class TrainConfig:
    """Every setting of a PPO self-play run (one YAML file = one of these)."""

    # run
    name: str = field(default="ppo", metadata=meta("a non-empty string", lambda v: bool(v.strip())))
    """the run's name: its folder is runs/<name>-<timestamp> unless run_dir is given"""
    seed: int = field(default=0, metadata=meta(f"an integer in [0, {MAX_SEED}] (2**64 - 2)",
                                               lambda v: 0 <= v <= MAX_SEED))
    """seeds the networks, the games, the opponent draws and every other random choice"""
    run_dir: str | None = field(default=None, metadata=meta("a path, or null for runs/<name>-<timestamp>"))
    """the run folder (config.yaml, TensorBoard events, checkpoints/, results)"""
    device: str = field(default="auto", metadata=meta(
        "auto, cpu, cuda or cuda:N", lambda v: v in ("auto", "cpu", "cuda") or v.startswith("cuda:")))
    """where the networks run: auto picks cuda when there is one"""
    torch_threads: int = field(default=1, metadata=meta("an integer >= 1", lambda v: v >= 1))
    """torch's CPU threads (fixed for a run: another count rounds differently)"""
    progress: bool = field(default=True, metadata=meta("true or false"))
    """print a progress line on stderr"""

    # game
    rules: str = field(default=DEFAULT_PRESET, metadata=meta(
        f"a rules preset: {', '.join(PRESETS)}", lambda v: v in PRESETS))
    """the game and its rules, a preset of jass_env.PRESETS"""
    episode: str = field(default="round", metadata=meta(
        f"one of {', '.join(EPISODES)}", lambda v: v in EPISODES))
    """round: one deal per episode; match: the whole game (rewards still deal by deal)"""
    reward: str = field(default="points", metadata=meta(
        f"one of {', '.join(REWARD_KINDS)}", lambda v: v in REWARD_KINDS))
    """the reward kind (jass_env.envs.rewards), one the game has"""

    # budget and batch
    total_decisions: int = field(default=20_000_000, metadata=meta("an integer >= 1", positive))
    """env decisions of PPO (all seats); iterations = total_decisions // (num_envs * rollout_steps)"""
    num_envs: int = field(default=512, metadata=meta("an integer >= 1", positive))
    """N: games played side by side, one decision each per step"""
    rollout_steps: int = field(default=64, metadata=meta("an integer >= 1", positive))
    """T: steps per rollout; an iteration is T x N env decisions"""
    env_parallel: bool = field(default=False, metadata=meta("true or false"))
    """step the games in parallel threads (numba prange)"""

    # networks
    init_policy: str | None = field(default=None, metadata=meta(
        "null, or a jass-policy checkpoint of this game whose weights the policy starts from "
        "(its hidden sizes must equal hidden)"))
    """start the policy from this checkpoint's weights (fine-tuning; of a suit average its MLP's)"""
    hidden: list[int] = field(default_factory=lambda: [256, 256], metadata=meta(
        "a non-empty list of integers >= 1", _hidden_sizes))
    """hidden layer sizes of the policy MLP"""
    central_critic: bool = field(default=True, metadata=meta("true or false"))
    """a value MLP over the full state (every hand) instead of the policy's value head"""
    critic_hidden: list[int] = field(default_factory=lambda: [256, 256], metadata=meta(
        "a non-empty list of integers >= 1", _hidden_sizes))
    """hidden layer sizes of the central critic"""

    # PPO
    lr: float = field(default=3e-4, metadata=meta("a number > 0", positive))
    """Adam step size"""
    lr_anneal: bool = field(default=True, metadata=meta("true or false"))
    """anneal the step size linearly to 0 over the run"""
    gamma: float = field(default=1.0, metadata=meta("a number in [0, 1]", unit_interval))
    """discount per decision of a seat"""
    gae_lambda: float = field(default=0.95, metadata=meta("a number in [0, 1]", unit_interval))
    """GAE's lambda"""
    clip_eps: float = field(default=0.2, metadata=meta("a number in (0, 1)", lambda v: 0 < v < 1))
    """PPO's clip range of the probability ratio (and of the value change with clip_vloss)"""
    clip_vloss: bool = field(default=True, metadata=meta("true or false"))
    """clip the value loss as PPO clips the policy loss"""
    vf_coef: float = field(default=0.5, metadata=meta("a number >= 0", non_negative))
    """weight of the value loss"""
    ent_coef: float = field(default=0.01, metadata=meta("a number >= 0", non_negative))
    """weight of the entropy bonus"""
    max_grad_norm: float = field(default=0.5, metadata=meta("a number > 0", positive))
    """the gradient's norm is clipped to this"""
    epochs: int = field(default=4, metadata=meta("an integer >= 1", positive))
    """passes over each iteration's trained decisions"""
    num_minibatches: int = field(default=4, metadata=meta("an integer >= 1", positive))
    """minibatches per pass"""
    norm_adv: bool = field(default=True, metadata=meta("true or false"))
    """normalise the advantages per minibatch"""
    target_kl: float | None = field(default=None, metadata=meta("a number > 0 or null", positive))
    """end an iteration's update early once a minibatch's approximate KL exceeds this (null: never)"""

    # behaviour-cloning warm start
    bc_decisions: int = field(default=0, metadata=meta(
        "an integer >= 0 (env decisions of imitation before PPO; 0 = no warm start)", non_negative))
    """env decisions of the heuristic in every seat that the policy imitates before PPO's iteration 0"""
    bc_lr: float = field(default=1e-3, metadata=meta(
        "a number > 0 (Adam step size of the warm start)", positive))
    """Adam step size of the warm start (its own optimizer)"""
    bc_epochs: int = field(default=2, metadata=meta(
        "an integer >= 1 (passes over each warm-start batch)", positive))
    """passes over each warm-start batch"""

    # self-play opponent pool
    opponents: dict[str, float] = field(
        default_factory=lambda: {"self": 0.4, "snapshot": 0.2, "random": 0.1, "heuristic": 0.3},
        metadata=meta(_opponent_mix()))
    """weights of the opponent kinds, drawn per game when its episode starts"""
    opponents_final: dict[str, float] | None = field(default=None, metadata=meta(_opponent_mix("null or ")))
    """the weights at the end of the run, reached linearly from opponents (null: opponents throughout)"""
    opponent_agent: str = field(default="pimc:worlds=10", metadata=meta(
        f"an agent spec ({_EVAL_SPECS}): who plays the opponents of kind agent", is_eval_opponent))
    """the agent spec that plays the opponents of kind agent (for example a PIMC bot)"""
    snapshot_every: int = field(default=10, metadata=meta("an integer >= 1 (iterations)", positive))
    """iterations between frozen snapshots of the policy"""
    snapshot_keep: int = field(default=5, metadata=meta("an integer >= 1", positive))
    """snapshots kept (a ring; the oldest is replaced)"""

    # evaluation, checkpoints
    eval_every: int = field(default=10, metadata=meta("an integer >= 0 (iterations; 0 = only at the end)",
                                                     non_negative))
    """iterations between periodic evaluations (and one at the end)"""
    eval_deals: int = field(default=500, metadata=meta("an integer >= 2", lambda v: v >= 2))
    """deals of a periodic evaluation"""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"], metadata=meta(
        f"a list of {', '.join(EVAL_OPPONENTS)} or agent specs ({_EVAL_SPECS})",
        lambda v: all(is_eval_opponent(x) for x in v)))
    """who the greedy policy is evaluated against; best.pt is picked against the heuristic (else the first)"""
    eval_seed: int = field(default=12345, metadata=meta("an integer >= 0", non_negative))
    """the deal set of the periodic evaluations"""
    final_eval_deals: int = field(default=2000, metadata=meta(
        "an integer >= 2, or 0 for no final evaluation", lambda v: v == 0 or v >= 2))
    """deals of the final evaluation of latest.pt and best.pt (results.md)"""
    final_eval_seed: int = field(default=0, metadata=meta("an integer >= 0", non_negative))
    """the evaluation tool's deal set of the final evaluation (not eval_seed's, which picked best.pt)"""
    checkpoint_every: int = field(default=10, metadata=meta("an integer >= 1 (iterations)", positive))
    """iterations between saves of checkpoints/latest.pt (and one at the end)"""

    # derived
    @property
    def batch_decisions(self) -> int:
        """Env decisions per iteration (all seats, trained or not)."""
        return self.num_envs * self.rollout_steps

    @property
    def iterations(self) -> int:
        return self.total_decisions // self.batch_decisions

    @property
    def bc_rounds(self) -> int:
        """Batches (of ``batch_decisions`` env decisions each) of the behaviour-cloning warm start."""
        return -(-self.bc_decisions // self.batch_decisions)

    def opponent_weights(self, progress: float) -> np.ndarray:
        """Normalised weights (len(OPPONENT_KINDS),) at ``progress`` in [0, 1] of the run."""
        a = np.array([self.opponents.get(k, 0.0) for k in OPPONENT_KINDS], dtype=np.float64)
        if self.opponents_final is not None:
            b = np.array([self.opponents_final.get(k, 0.0) for k in OPPONENT_KINDS], dtype=np.float64)
            a = a / a.sum() * (1.0 - progress) + b / b.sum() * progress
        return a / a.sum()

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


CONFIG_KEYS = tuple(f.name for f in dataclasses.fields(TrainConfig))


def _check_opponents(key: str, mix: dict[str, float] | None) -> None:
    if mix is None:
        return
    unknown = [k for k in mix if k not in OPPONENT_KINDS]
    if unknown:
        raise ConfigError(f"config key {key!r}: unknown opponent kind {unknown[0]!r}; allowed kinds: "
                          f"{', '.join(OPPONENT_KINDS)}")
    for k, w in mix.items():
        if w < 0:
            raise ConfigError(f"config key {key}.{k}: weight {w!r} is negative; allowed: weights >= 0")
    if sum(mix.values()) <= 0:
        raise ConfigError(f"config key {key!r}: the weights {mix!r} sum to 0; at least one must be > 0")


def make_config(values: Mapping[str, Any]) -> TrainConfig:
    """A validated TrainConfig from a mapping of (some) keys; ConfigError on any problem."""
    cfg = build_config(TrainConfig, values)
    _check_opponents("opponents", cfg.opponents)
    _check_opponents("opponents_final", cfg.opponents_final)
    if cfg.iterations < 1:
        raise ConfigError(f"config key 'total_decisions': {cfg.total_decisions} is less than one iteration "
                          f"(num_envs * rollout_steps = {cfg.batch_decisions}); allowed: >= "
                          f"{cfg.batch_decisions}")
    rules = make_rules(cfg.rules)
    if cfg.reward not in reward_kinds(rules):
        raise ConfigError(f"config key 'reward': {cfg.reward!r} does not exist in {rules.game}; allowed: "
                          f"{', '.join(reward_kinds(rules))}")
    if cfg.num_minibatches > cfg.batch_decisions // 4:
        most = max(1, cfg.batch_decisions // 4)
        raise ConfigError(f"config key 'num_minibatches': {cfg.num_minibatches} is more than the trained "
                          f"decisions of an iteration can fill; allowed: 1..{most}")
    return cfg


def load_config(path: str | Path | None, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read a YAML config (None: all defaults), apply ``key=value`` overrides, validate."""
    return make_config(read_config_values(path, overrides))


def resumed_config(stored: Mapping[str, Any], overrides: Sequence[str], run_dir: Path) -> TrainConfig:
    """The config of a resumed run: the one its checkpoint holds (``stored``) with the
    ``key=value`` overrides of :data:`RESUME_OVERRIDABLE` applied, its ``run_dir`` the folder
    resumed (which may have moved); ConfigError for any other key."""
    values = dict(stored)
    for text in overrides:
        k, v = parse_override(text)
        if k not in RESUME_OVERRIDABLE:
            raise ConfigError(f"override {text!r}: {k!r} cannot change when resuming (it would "
                              f"change the run); allowed: {', '.join(RESUME_OVERRIDABLE)}")
        values[k] = v
    cfg = make_config(values)
    kept = best_opponent(make_config(stored).eval_opponents)
    if best_opponent(cfg.eval_opponents) != kept:
        keep = ("list heuristic" if kept == "heuristic" else
                f"list {kept!r} first and no heuristic" if kept else "keep the list empty")
        raise ConfigError(f"override eval_opponents={cfg.eval_opponents}: this run picks best.pt against "
                          f"{kept!r} (the heuristic when it is listed, else the first opponent), and a "
                          f"resumed run must go on picking it so; {keep}")
    return dataclasses.replace(cfg, run_dir=str(run_dir))
