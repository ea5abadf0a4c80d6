"""PPO pieces shared by ``train.py`` and the tests: the typed training config, the masked policy
distribution, the clipped PPO loss, per-seat GAE for the batched environment, and the
centralized critic.

* :class:`TrainConfig` holds every hyperparameter; :func:`load_config` reads a YAML file plus
  ``key=value`` overrides and validates them (:class:`ConfigError` names the key, the value and
  what is allowed).
* :func:`log_prob_entropy` / :func:`ppo_loss`: illegal actions have probability exactly 0 and
  are left out of the entropy.
* :func:`seat_gae`: in the batched env one seat acts per game and step, and a seat's reward can
  arrive at a step where another seat acts. Each (game, seat) pair is its own trajectory: the
  rewards paid to a seat between two of its decisions belong to the first one, the seat's next
  decision is its next state, and an episode end terminates every seat's trajectory.
* :class:`CriticNet`: a value MLP over the perfect-information state (the observation followed
  by all hands, and in Differenzler all predictions: ``jass_env.encoding.state_dim``), used
  only during training; the policy sees only the observation.

Every game of the family trains with the same pieces: sizes come from the game (``P`` players,
``obs_dim``, ``n_actions``), never from Schieber's constants.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from .extras import missing_extra

try:
    import torch
    import yaml
    from torch import nn
except ModuleNotFoundError as exc:  # torch and PyYAML come with the "train" extra
    raise missing_extra(exc, "agents.ppo (the trainer)") from None

from jass_env import encoding
from jass_env.observation import STATE_DIM
from jass_env.rewards import REWARD_KINDS, reward_kinds
from jass_env.rules import PRESETS, make_rules
from jass_env.vector import EPISODES

from .network import init_linear_layers
from .registry import AgentSpecError, parse_spec

#: Opponent kinds of the self-play pool, in the order of their codes in the trainer's arrays.
OPPONENT_KINDS = ("self", "snapshot", "random", "heuristic", "agent")
EVAL_OPPONENTS = ("random", "heuristic")
#: largest ``seed``: the trainer seeds torch generators with ``seed`` and ``seed + 1``, and torch
#: takes seeds below 2**64
MAX_SEED = 2**64 - 2


Config = typing.TypeVar("Config")


class ConfigError(ValueError):
    """A config (``train.py``'s or ``agents.distill``'s) with an unknown key, a value of the wrong type
    or an impossible value."""


# ---------------------------------------------------------------------------------- config
def _is_eval_opponent(x: Any) -> bool:
    """A batch bot (:data:`EVAL_OPPONENTS`), or a spec the agent registry parses."""
    if x in EVAL_OPPONENTS:
        return True
    try:
        parse_spec(x)
    except AgentSpecError:
        return False
    return True


def _meta(allowed: str, check: Any = None) -> dict[str, Any]:
    return {"allowed": allowed, "check": check}


def _pos(v: float) -> bool:
    return v > 0


def _nonneg(v: float) -> bool:
    return v >= 0


def _unit(v: float) -> bool:
    return 0.0 <= v <= 1.0


@dataclass
class TrainConfig:
    """Every setting of a PPO self-play run (one YAML file = one of these)."""

    # run
    name: str = field(default="ppo", metadata=_meta("a non-empty string", lambda v: bool(v.strip())))
    seed: int = field(default=0, metadata=_meta(f"an integer in [0, {MAX_SEED}] (2**64 - 2)",
                                                lambda v: 0 <= v <= MAX_SEED))
    run_dir: str | None = field(default=None, metadata=_meta("a path, or null for runs/<name>-<timestamp>"))
    device: str = field(default="auto", metadata=_meta(
        "auto, cpu, cuda or cuda:N", lambda v: v in ("auto", "cpu", "cuda") or v.startswith("cuda:")))
    torch_threads: int = field(default=1, metadata=_meta("an integer >= 1", lambda v: v >= 1))
    progress: bool = field(default=True, metadata=_meta("true or false"))
    # game
    rules: str = field(default="schieber", metadata=_meta(
        f"a rules preset: {', '.join(PRESETS)}", lambda v: v in PRESETS))
    episode: str = field(default="round", metadata=_meta(
        f"one of {', '.join(EPISODES)}", lambda v: v in EPISODES))
    reward: str = field(default="points", metadata=_meta(
        f"one of {', '.join(REWARD_KINDS)}", lambda v: v in REWARD_KINDS))
    # budget and batch: one iteration = rollout_steps steps of num_envs games (one decision each)
    total_decisions: int = field(default=20_000_000, metadata=_meta("an integer >= 1", _pos))
    num_envs: int = field(default=512, metadata=_meta("an integer >= 1", _pos))
    rollout_steps: int = field(default=64, metadata=_meta("an integer >= 1", _pos))
    env_parallel: bool = field(default=False, metadata=_meta("true or false"))
    # networks
    init_policy: str | None = field(default=None, metadata=_meta(
        "null, or a jass-policy checkpoint of this game whose weights the policy starts from "
        "(its hidden sizes must equal hidden)"))
    hidden: list[int] = field(default_factory=lambda: [256, 256], metadata=_meta(
        "a non-empty list of integers >= 1", lambda v: len(v) > 0 and all(h >= 1 for h in v)))
    central_critic: bool = field(default=True, metadata=_meta("true or false"))
    critic_hidden: list[int] = field(default_factory=lambda: [256, 256], metadata=_meta(
        "a non-empty list of integers >= 1", lambda v: len(v) > 0 and all(h >= 1 for h in v)))
    # PPO
    lr: float = field(default=3e-4, metadata=_meta("a number > 0", _pos))
    lr_anneal: bool = field(default=True, metadata=_meta("true or false"))
    gamma: float = field(default=1.0, metadata=_meta("a number in [0, 1]", _unit))
    gae_lambda: float = field(default=0.95, metadata=_meta("a number in [0, 1]", _unit))
    clip_eps: float = field(default=0.2, metadata=_meta("a number in (0, 1)", lambda v: 0 < v < 1))
    clip_vloss: bool = field(default=True, metadata=_meta("true or false"))
    vf_coef: float = field(default=0.5, metadata=_meta("a number >= 0", _nonneg))
    ent_coef: float = field(default=0.01, metadata=_meta("a number >= 0", _nonneg))
    max_grad_norm: float = field(default=0.5, metadata=_meta("a number > 0", _pos))
    epochs: int = field(default=4, metadata=_meta("an integer >= 1", _pos))
    num_minibatches: int = field(default=4, metadata=_meta("an integer >= 1", _pos))
    norm_adv: bool = field(default=True, metadata=_meta("true or false"))
    target_kl: float | None = field(default=None, metadata=_meta("a number > 0 or null", _pos))
    # behaviour-cloning warm start, run once before PPO iteration 0: every seat plays the
    # heuristic bot; the policy learns its actions (cross-entropy on the masked logits) and the
    # value function the TD(lambda) returns of that play
    bc_decisions: int = field(default=0, metadata=_meta(
        "an integer >= 0 (env decisions of imitation before PPO; 0 = no warm start)", _nonneg))
    bc_lr: float = field(default=1e-3, metadata=_meta(
        "a number > 0 (Adam step size of the warm start)", _pos))
    bc_epochs: int = field(default=2, metadata=_meta(
        "an integer >= 1 (passes over each warm-start batch)", _pos))
    # self-play opponent pool: weights per opponent kind (drawn per game at episode start),
    # interpolated linearly from `opponents` to `opponents_final` (if given) over the run; the
    # kind "agent" is the agent spec `opponent_agent` (for example a PIMC bot)
    opponents: dict[str, float] = field(
        default_factory=lambda: {"self": 0.4, "snapshot": 0.2, "random": 0.1, "heuristic": 0.3},
        metadata=_meta(f"a mapping from {', '.join(OPPONENT_KINDS)} to weights >= 0 with a "
                       "positive sum", None))
    opponents_final: dict[str, float] | None = field(default=None, metadata=_meta(
        f"null or a mapping from {', '.join(OPPONENT_KINDS)} to weights >= 0 with a positive sum"))
    opponent_agent: str = field(default="pimc:worlds=10", metadata=_meta(
        "an agent spec (pimc:worlds=10, search:worlds=30, a checkpoint; python -m agents.evaluate "
        "--help lists them): who plays the opponents of kind agent",
        _is_eval_opponent))
    snapshot_every: int = field(default=10, metadata=_meta("an integer >= 1 (iterations)", _pos))
    snapshot_keep: int = field(default=5, metadata=_meta("an integer >= 1", _pos))
    # evaluation, checkpoints
    eval_every: int = field(default=10, metadata=_meta("an integer >= 0 (iterations; 0 = only at the end)",
                                                      _nonneg))
    eval_deals: int = field(default=500, metadata=_meta("an integer >= 2", lambda v: v >= 2))
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"], metadata=_meta(
        f"a list of {', '.join(EVAL_OPPONENTS)} or agent specs (pimc:worlds=10, search:worlds=30, a "
        "checkpoint; python -m agents.evaluate --help lists them)",
        lambda v: all(_is_eval_opponent(x) for x in v)))
    eval_seed: int = field(default=12345, metadata=_meta("an integer >= 0", _nonneg))
    # at the end: latest.pt and best.pt against every eval opponent on the evaluation tool's deal
    # set final_eval_seed (a different set from eval_seed's, on which best.pt was picked)
    final_eval_deals: int = field(default=2000, metadata=_meta(
        "an integer >= 2, or 0 for no final evaluation", lambda v: v == 0 or v >= 2))
    final_eval_seed: int = field(default=0, metadata=_meta("an integer >= 0", _nonneg))
    checkpoint_every: int = field(default=10, metadata=_meta("an integer >= 1 (iterations)", _pos))

    # ------------------------------------------------------------------ derived
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


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp)).replace("typing.", "")


def _coerce(key: str, value: Any, tp: Any) -> Any:
    """``value`` as type ``tp`` (int, float, bool, str, list[int], list[str], dict[str, float],
    X | None); raises ConfigError naming the key. Numeric strings such as ``3e-4`` (which YAML
    reads as text) are accepted for numbers."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _coerce(key, value, inner)

    def bad(what: str) -> ConfigError:
        return ConfigError(f"config key {key!r}: {what}")

    if tp is bool:
        if isinstance(value, bool):
            return value
        raise bad(f"expected true or false, got {value!r} ({type(value).__name__})")
    if tp is int:
        if isinstance(value, str):
            try:
                value = float(value.replace("_", ""))
            except ValueError:
                raise bad(f"expected an integer, got {value!r}") from None
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise bad(f"expected an integer, got {value!r} ({type(value).__name__})")
    if tp is float:
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise bad(f"expected a number, got {value!r}") from None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise bad(f"expected a finite number, got {value!r}")
            return float(value)
        raise bad(f"expected a number, got {value!r} ({type(value).__name__})")
    if tp is str:
        if isinstance(value, str):
            return value
        raise bad(f"expected a string, got {value!r} ({type(value).__name__})")
    if origin is list:
        (inner,) = typing.get_args(tp)
        if not isinstance(value, (list, tuple)):
            raise bad(f"expected a list of {_type_name(inner)}, got {value!r} ({type(value).__name__})")
        return [_coerce(f"{key}[{i}]", v, inner) for i, v in enumerate(value)]
    if origin is dict:
        _, vt = typing.get_args(tp)
        if not isinstance(value, Mapping):
            raise bad(f"expected a mapping, got {value!r} ({type(value).__name__})")
        return {str(k): _coerce(f"{key}.{k}", v, vt) for k, v in value.items()}
    raise TypeError(f"unsupported config type {tp!r}")  # pragma: no cover - a bug in TrainConfig


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


def build_config(cls: type[Config], values: Mapping[str, Any]) -> Config:
    """An instance of the config dataclass ``cls`` from a mapping of (some) of its keys: every value
    coerced to its field's type and checked by the field's ``check``; ConfigError names the key,
    the value and what is allowed."""
    if not isinstance(values, Mapping):
        raise ConfigError(f"a config must be a mapping of keys to values, got {type(values).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = [k for k in values if k not in fields]
    if unknown:
        raise ConfigError(f"unknown config key {unknown[0]!r} (value {values[unknown[0]]!r}); "
                          f"allowed keys: {', '.join(fields)}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, raw in values.items():
        value = _coerce(key, raw, hints[key])
        meta = fields[key].metadata
        check = meta.get("check")
        if value is not None and check is not None and not check(value):
            raise ConfigError(f"config key {key!r}: impossible value {value!r}; allowed: {meta['allowed']}")
        kwargs[key] = value
    return cls(**kwargs)


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


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, except that a key given twice in one mapping is an error (plain
    ``yaml.safe_load`` silently keeps the last value)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":      # "<<: *anchor" may be overridden
                continue
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
            except TypeError:                                  # unhashable: the base loader says so
                continue
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice (keep one)", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _load_yaml(text: str) -> Any:
    """``text`` as YAML (safe types only; a duplicate key raises ``yaml.YAMLError``)."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a subclass of SafeLoader


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line; the value is read as YAML (``hidden=[64,64]``)."""
    if "=" not in text:
        raise ConfigError(f"override {text!r} is not of the form key=value")
    key, raw = text.split("=", 1)
    key = key.strip()
    try:
        value = _load_yaml(raw) if raw.strip() else None
    except yaml.YAMLError as e:
        raise ConfigError(f"override {text!r}: the value is not valid YAML ({e})") from None
    return key, value


def read_config_values(path: str | Path | None, overrides: Sequence[str] = ()) -> dict[str, Any]:
    """The key-value mapping of a YAML config file (None: none) with ``key=value`` overrides
    applied, not yet validated; ConfigError for a missing, unreadable or non-mapping file."""
    values: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise ConfigError(f"config file {str(p)!r} does not exist")
        if not p.is_file():
            raise ConfigError(f"config file {str(p)!r} is not a file; give a YAML file such as "
                              "configs/quickstart.yaml")
        try:
            loaded = _load_yaml(p.read_text(encoding="utf-8"))
        except UnicodeDecodeError as e:
            raise ConfigError(f"config file {str(p)!r} is not a text file (not UTF-8: {e.reason} at byte "
                              f"{e.start}); give a YAML file such as configs/quickstart.yaml") from None
        except yaml.YAMLError as e:
            raise ConfigError(f"config file {str(p)!r} is not valid YAML: {e}") from None
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {str(p)!r} must hold a mapping of keys to values, "
                              f"got {type(loaded).__name__}")
        values.update(loaded)
    for text in overrides:
        k, v = parse_override(text)
        values[k] = v
    return values


def load_config(path: str | Path | None, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read a YAML config (None: all defaults), apply ``key=value`` overrides, validate."""
    return make_config(read_config_values(path, overrides))


def config_yaml(cfg: TrainConfig) -> str:
    """The resolved config as YAML (written to the run directory)."""
    return yaml.safe_dump(cfg.to_dict(), sort_keys=False)


# ---------------------------------------------------------------------------------- networks
def policy_and_value(policy: nn.Module, critic: nn.Module | None,
                     x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """For stored rows ``x`` (B, D): the policy's logits (B, n_actions) from the observation part
    (the first ``policy.obs_dim`` columns) and the values (B,): the centralized critic's on the
    whole row (D = the state's length) when there is one, else the policy's value head."""
    logits, v = policy(x[:, :policy.obs_dim])
    return logits, (critic(x) if critic is not None else v)


def value_of(policy: nn.Module, critic: nn.Module | None, x: torch.Tensor) -> torch.Tensor:
    """Values (B,) of stored rows ``x`` (B, D), as :func:`policy_and_value` gives them (without
    running the policy when a critic gives the value)."""
    return critic(x) if critic is not None else policy(x[:, :policy.obs_dim])[1]


class CriticNet(nn.Module):
    """Centralized value MLP: perfect-information state (B, state_dim) -> value (B,); the default
    ``state_dim`` is Schieber's (``jass_env.encoding.state_dim`` gives every game's).

    Seen only by the trainer (the state includes the other hands); ``seed`` initialises the
    weights reproducibly (uniform ±1/√fan_in, biases 0) without touching the global torch RNG.
    """

    def __init__(self, hidden: Sequence[int], state_dim: int = STATE_DIM, seed: int = 0) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = state_dim
        for h in hidden:
            layers += [nn.Linear(width, int(h)), nn.ReLU()]
            width = int(h)
        layers.append(nn.Linear(width, 1))
        self.net = nn.Sequential(*layers)
        init_linear_layers(self, seed)

    def forward(self, state: torch.Tensor) -> torch.Tensor:
        return self.net(state).squeeze(-1)


# ---------------------------------------------------------------------------------- loss
def log_prob_entropy(masked_logits: torch.Tensor, mask: torch.Tensor,
                     actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probability of ``actions`` (B,) and entropy (B,) of the masked softmax.

    ``masked_logits`` (B, n_actions) already carry ``apply_mask``; illegal actions (``mask`` False)
    have probability 0 and contribute nothing to the entropy.
    """
    logp_all = torch.log_softmax(masked_logits, dim=-1)
    p = logp_all.exp()
    entropy = -(p * logp_all).masked_fill(~mask.bool(), 0.0).sum(-1)
    return logp_all.gather(1, actions.long().unsqueeze(1)).squeeze(1), entropy


@dataclass
class LossOut:
    """The PPO loss of one minibatch and its parts (scalars)."""

    loss: torch.Tensor
    pg_loss: torch.Tensor
    v_loss: torch.Tensor
    entropy: torch.Tensor
    approx_kl: torch.Tensor
    clipfrac: torch.Tensor


def ppo_loss(new_logp: torch.Tensor, entropy: torch.Tensor, new_values: torch.Tensor,
             old_logp: torch.Tensor, old_values: torch.Tensor, advantages: torch.Tensor,
             returns: torch.Tensor, clip_eps: float, vf_coef: float, ent_coef: float,
             clip_vloss: bool = True, norm_adv: bool = True) -> LossOut:
    """Clipped PPO objective (all inputs (B,)).

    pg = mean(max(-A·r, -A·clip(r, 1-eps, 1+eps))) with r = exp(new_logp - old_logp) and A the
    (optionally minibatch-normalised) advantages; value loss = 0.5·mean((V - R)²), or with
    ``clip_vloss`` 0.5·mean(max((V - R)², (V_old + clip(V - V_old, ±eps) - R)²));
    loss = pg - ent_coef·mean(entropy) + vf_coef·v_loss.
    """
    logratio = new_logp - old_logp
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > clip_eps).float().mean()
    adv = advantages
    if norm_adv and adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    if clip_vloss:
        v_clipped = old_values + torch.clamp(new_values - old_values, -clip_eps, clip_eps)
        v_loss = 0.5 * torch.max((new_values - returns) ** 2, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((new_values - returns) ** 2).mean()
    ent = entropy.mean()
    loss = pg_loss - ent_coef * ent + vf_coef * v_loss
    return LossOut(loss, pg_loss, v_loss, ent, approx_kl, clipfrac)


def bc_loss(masked_logits: torch.Tensor, targets: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Behaviour-cloning loss: mean cross-entropy (scalar) of the masked policy (B, n_actions) (after
    ``apply_mask``) against the teacher's actions ``targets`` (B,), and the share (scalar, no
    gradient) of rows where the policy's greedy action equals the teacher's."""
    loss = torch.nn.functional.cross_entropy(masked_logits, targets.long())
    with torch.no_grad():
        acc = (masked_logits.argmax(-1) == targets).float().mean()
    return loss, acc


# ---------------------------------------------------------------------------------- advantages
@njit(cache=True)
def seat_gae(seat: np.ndarray, values: np.ndarray, rewards: np.ndarray, done: np.ndarray,
             boot: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """GAE advantages (T, N) float32 of every decision of a rollout of the batched env.

    seat (T, N) int64: the seat that acted at step t in game i; values (T, N): its value
    estimate; rewards (T, N, P): what each of the P seats got for step t; done (T, N): the
    episode ended at step t (the next step belongs to a new episode); boot (N, P): the value of
    each seat's state at the end of the rollout (its next decision, not yet taken).

    Each (game, seat) is its own trajectory: a decision's reward is the sum of that seat's
    rewards from its step up to (excluding) its next decision, its next state is that next
    decision (value ``values``), and ``done`` makes it terminal (next value 0). Discounting and
    λ apply per decision of the seat. Returns = advantages + values.
    """
    T, N = seat.shape
    P = rewards.shape[2]
    adv = np.zeros((T, N), dtype=np.float32)
    nv = np.zeros(P, dtype=np.float64)     # value of each seat's next decision
    na = np.zeros(P, dtype=np.float64)     # advantage of each seat's next decision
    acc = np.zeros(P, dtype=np.float64)    # rewards since the seat's decision
    for i in range(N):
        for s in range(P):
            nv[s] = boot[i, s]
            na[s] = 0.0
            acc[s] = 0.0
        for t in range(T - 1, -1, -1):
            if done[t, i]:                 # the episode ended here: every seat's trajectory ends
                for s in range(P):
                    nv[s] = 0.0
                    na[s] = 0.0
                    acc[s] = 0.0
            for s in range(P):
                acc[s] += rewards[t, i, s]
            s = seat[t, i]
            delta = acc[s] + gamma * nv[s] - values[t, i]
            a = delta + gamma * lam * na[s]
            adv[t, i] = a
            nv[s] = values[t, i]
            na[s] = a
            acc[s] = 0.0
    return adv


# ---------------------------------------------------------------------------------- env helpers
@njit(cache=True)
def encode_all_seats(game_states: np.ndarray, rp: np.ndarray, out: np.ndarray, want_state: bool) -> None:
    """Observation (or, with ``want_state``, state) of every seat of every game: ``out``
    (N, P, obs_dim or state_dim), for the bootstrap values at the end of a rollout."""
    for i in range(game_states.shape[0]):
        st = game_states[i]
        for p in range(out.shape[1]):
            if want_state:
                encoding.encode_state(st, p, rp, out[i, p])
            else:
                encoding.encode_observation(st, p, rp, out[i, p])


def bootstrap_values(policy: nn.Module, critic: nn.Module | None, game_states: np.ndarray, rp: np.ndarray,
                     out: np.ndarray, device: torch.device) -> np.ndarray:
    """Every seat's value (N, P) at the end of a rollout, for GAE's bootstrap: every seat's row
    is encoded into ``out`` (N, P, D; the state when there is a critic, else the observation)
    and valued as :func:`value_of` does. Call under ``torch.inference_mode()``."""
    n, players, d = out.shape
    encode_all_seats(game_states, rp, out, critic is not None)
    rows = torch.from_numpy(out.reshape(n * players, d)).to(device)               # (N*P, D)
    return value_of(policy, critic, rows).float().cpu().numpy().reshape(n, players)


__all__ = ["TrainConfig", "ConfigError", "CONFIG_KEYS", "OPPONENT_KINDS", "EVAL_OPPONENTS", "MAX_SEED",
           "make_config", "build_config", "read_config_values",
           "load_config", "parse_override", "config_yaml", "CriticNet", "log_prob_entropy", "LossOut",
           "ppo_loss", "bc_loss", "seat_gae", "encode_all_seats", "policy_and_value", "value_of",
           "bootstrap_values"]
