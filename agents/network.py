"""The policy network (an MLP with a masked policy head and a value head) and its checkpoint files.

Checkpoint format ``jass-policy/1``: a plain dict written with ``torch.save`` that loads with
``torch.load(path, weights_only=True)``::

    {"format": "jass-policy/1",
     "obs_version": 1,                              # observation encoding the net was trained on
     "trained_for": {"game": "schieber", ...},      # its game and rules (agents.trained_for)
     "net": {"hidden": [256, 256], "obs_dim": 529, "n_actions": 43,
             "suit_renamings": [[0, 1, 2, 3], ...]},   # optional: the suit average (PolicyNet)
     "model": net.state_dict(),
     ...}                                           # optional trainer fields (config, counters)

:func:`save_policy` writes atomically (temporary file in the same folder, then ``os.replace``);
:func:`load_policy` checks everything and raises :class:`CheckpointError` naming the file and what
was expected.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.network (the policy network)") from None

from jass_env.engine.cards import N_SUITS
from jass_env.games import game_of, make_rules, presets_of

from .files import atomic_write, file_sha256
from .trained_for import game_layout, layout_problem, legacy_layout, stored_trained_for

CHECKPOINT_FORMAT = "jass-policy/1"
DEFAULT_HIDDEN = (256, 256)
#: the observation and action layout of the default preset's game, a network's default
DEFAULT_LAYOUT = game_layout(None)
#: a checkpoint's top-level ``obs_version`` (older than ``trained_for``, which holds each game's):
#: the observation version of the game of those files
OBS_VERSION = legacy_layout()["obs_version"]


class CheckpointError(ValueError):
    """A policy checkpoint that is missing, unreadable or does not fit this code."""


def init_linear_layers(module: nn.Module, seed: int) -> None:
    """Every ``nn.Linear`` in ``module`` (in ``modules()`` order): weights uniform ±1/√fan_in from
    a generator seeded with ``seed`` (the global torch RNG is untouched), biases zero."""
    g = torch.Generator().manual_seed(int(seed))
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, nn.Linear):
                bound = 1.0 / m.in_features ** 0.5
                m.weight.uniform_(-bound, bound, generator=g)
                m.bias.zero_()


class PolicyNet(nn.Module):
    """MLP trunk over the observation, a policy head of one logit per action and a scalar value head.

    Args:
        hidden: sizes of the hidden layers of the shared trunk (ReLU after each), e.g. (256, 256).
        obs_dim: observation length (the game's, ``jass_env.envs.encoding.obs_dim(rules)``;
            default the default preset's: Schieber's 529).
        n_actions: number of actions (the game's ``spec.n_actions``; default Schieber's 43).
        seed: if given, the weights are initialised from a ``torch.Generator`` with this seed
            (reproducible, and the global torch RNG is left untouched).
        suit_renamings: suit permutations (each a list of the new suit of D H S C, those the
            game's ``suit_symmetry`` module allows: :attr:`jass_env.games.base.Game.suit_symmetry`).
            Given, the network is the *suit average*: the MLP sees the position under every
            renaming and the logits (renamed back) and values are averaged, so the policy plays
            the same whichever suit is which. Costs one MLP pass per renaming; :meth:`single_view`
            is the plain MLP.
        game: the spec name of the layout (default: the default preset's), whose suit symmetry
            renames the observation and actions when ``suit_renamings`` is given.

    Shapes: ``obs`` float32 (B, obs_dim); ``mask`` bool or 0/1 (B, n_actions);
    logits (B, n_actions); value (B,).
    """

    def __init__(self, hidden: Sequence[int] = DEFAULT_HIDDEN, obs_dim: int = DEFAULT_LAYOUT["obs_dim"],
                 n_actions: int = DEFAULT_LAYOUT["n_actions"], seed: int | None = None,
                 suit_renamings: Sequence[Sequence[int]] | None = None,
                 game: str = DEFAULT_LAYOUT["game"]) -> None:
        super().__init__()
        self.game = game
        hidden = [int(h) for h in hidden]
        if any(h <= 0 for h in hidden):
            raise ValueError(f"hidden layer sizes must be positive integers, got {hidden}")
        self.hidden = hidden
        self.obs_dim = int(obs_dim)
        self.n_actions = int(n_actions)
        self.suit_renamings: list[list[int]] | None = None
        if suit_renamings is not None:
            self._set_renamings(suit_renamings)
        if seed is None:
            self._build()
        else:
            with torch.random.fork_rng(devices=[]):   # the default init must not move the global RNG
                self._build()
            self.init_weights(seed)

    def _build(self) -> None:
        layers: list[nn.Module] = []
        width = self.obs_dim
        for h in self.hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy_head = nn.Linear(width, self.n_actions)
        self.value_head = nn.Linear(width, 1)

    def init_weights(self, seed: int) -> None:
        """Re-initialise all weights from ``seed``: uniform ±1/√fan_in, policy head scaled by 0.01
        (a near-uniform initial policy), biases zero."""
        init_linear_layers(self, seed)
        with torch.no_grad():
            self.policy_head.weight.mul_(0.01)

    def _set_renamings(self, renamings: Sequence[Sequence[int]]) -> None:
        perms = [[int(x) for x in p] for p in renamings]
        if not perms or any(sorted(p) != list(range(N_SUITS)) for p in perms):
            raise ValueError(f"suit_renamings must be a non-empty list of permutations of 0..{N_SUITS - 1}, "
                             f"got {renamings!r}")
        symmetry = game_of(self.game).suit_symmetry
        if symmetry is None:
            raise ValueError(f"suit_renamings: the game of {self.game!r} declares no suit symmetry")
        rules = make_rules(presets_of(self.game)[0])
        table = np.array(perms, dtype=np.int64)
        # non-persistent: the tables follow from the renamings, the weights are the MLP's alone
        renamed_obs = symmetry.observation_index(table, rules)
        renamed_action = symmetry.action_index(table, rules)
        if (renamed_obs.shape[1], renamed_action.shape[1]) != (self.obs_dim, self.n_actions):
            raise ValueError(f"suit_renamings need {self.game}'s layout (obs_dim {renamed_obs.shape[1]}, "
                             f"n_actions {renamed_action.shape[1]}), not ({self.obs_dim}, {self.n_actions})")
        self.suit_renamings = perms
        self.register_buffer("renamed_obs", torch.from_numpy(renamed_obs), persistent=False)
        self.register_buffer("renamed_action", torch.from_numpy(renamed_action), persistent=False)

    def config(self) -> dict[str, Any]:
        """The constructor arguments stored in a checkpoint's ``"net"`` field."""
        out: dict[str, Any] = {"hidden": list(self.hidden), "obs_dim": self.obs_dim,
                               "n_actions": self.n_actions}
        if self.suit_renamings is not None:
            out["suit_renamings"] = [list(p) for p in self.suit_renamings]
        return out

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw (unmasked) logits (B, n_actions) and values (B,) for observations (B, obs_dim)."""
        if self.suit_renamings is None:
            z = self.trunk(obs)
            return self.policy_head(z), self.value_head(z).squeeze(-1)
        views = obs[:, self.renamed_obs]                                  # (B, m, obs_dim), m renamings
        z = self.trunk(views)                                             # (B, m, width)
        renamed = self.policy_head(z)                                     # (B, m, n_actions), renamed
        view = torch.arange(len(self.suit_renamings), device=obs.device)[:, None]
        logits = renamed[:, view, self.renamed_action]                    # (B, m, n_actions), named back
        return logits.mean(1), self.value_head(z).squeeze(-1).mean(1)

    def single_view(self) -> PolicyNet:
        """The plain MLP (no suit average), sharing this network's weights."""
        return self if self.suit_renamings is None else self._sharing(None)

    def suit_averaged(self, renamings: Sequence[Sequence[int]]) -> PolicyNet:
        """The suit average over ``renamings`` of this network's MLP, sharing its weights."""
        return self._sharing(renamings)

    def _sharing(self, renamings: Sequence[Sequence[int]] | None) -> PolicyNet:
        other = PolicyNet(self.hidden, self.obs_dim, self.n_actions, suit_renamings=renamings, game=self.game)
        other.trunk, other.policy_head, other.value_head = self.trunk, self.policy_head, self.value_head
        return other.train(self.training)

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits (B, n_actions) with illegal actions (mask 0/False) set to the most negative
        finite value of the dtype, so ``softmax`` gives them probability exactly 0 (and a row with
        no legal action yields a uniform distribution instead of NaN)."""
        logits, _ = self.forward(obs)
        return apply_mask(logits, mask)


def apply_mask(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` where ``mask`` is set, else ``torch.finfo(dtype).min`` (same shape)."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, torch.finfo(logits.dtype).min))


# checkpoints
_ALLOWED_LEAVES = (str, int, float, bool, type(None), torch.Tensor)


def _check_extra(value: Any, where: str) -> None:
    """Extra checkpoint fields must load with weights_only=True: plain containers and tensors."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, (str, int)):
                raise TypeError(f"checkpoint field {where}: keys must be str or int, got {type(k).__name__}")
            _check_extra(v, f"{where}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_extra(v, f"{where}[{i}]")
    elif not isinstance(value, _ALLOWED_LEAVES):
        raise TypeError(f"checkpoint field {where} has type {type(value).__name__}; allowed are "
                        "dict, list, tuple, str, int, float, bool, None and torch tensors "
                        "(so the file loads with weights_only=True)")


def save_policy(path: str | os.PathLike[str], net: PolicyNet, **extra: Any) -> Path:
    """Write ``net`` (and ``extra`` fields such as config or counters) as a ``jass-policy/1``
    checkpoint. Atomic: a reader never sees a half-written file. Returns the path."""
    path = Path(path)
    reserved = {"format", "obs_version", "net", "model"} & extra.keys()
    if reserved:
        raise ValueError(f"extra checkpoint fields may not be named {sorted(reserved)}")
    for k, v in extra.items():
        _check_extra(v, k)
    ckpt = {"format": CHECKPOINT_FORMAT, "obs_version": OBS_VERSION, "net": net.config(),
            "model": {k: v.detach().cpu() for k, v in net.state_dict().items()}, **extra}
    return atomic_write(path, lambda f: torch.save(ckpt, f))


def read_checkpoint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Load and validate a checkpoint dict (no network built). Raises CheckpointError."""
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"policy checkpoint {str(path)!r} does not exist")
    if not path.is_file():
        raise CheckpointError(f"policy checkpoint {str(path)!r} is not a file")
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises RuntimeError, UnpicklingError, EOFError, ... for bad files
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CheckpointError(
            f"policy checkpoint {str(path)!r} cannot be read (corrupt, truncated, or not a "
            f"weights-only torch file; expected a {CHECKPOINT_FORMAT!r} dict written by "
            f"save_policy): {type(e).__name__}: {first}") from None
    if not isinstance(ckpt, dict):
        raise CheckpointError(f"policy checkpoint {str(path)!r} holds a {type(ckpt).__name__}; "
                              f"expected a {CHECKPOINT_FORMAT!r} dict")
    fmt = ckpt.get("format")
    if fmt != CHECKPOINT_FORMAT:
        raise CheckpointError(f"policy checkpoint {str(path)!r} has format {fmt!r}; "
                              f"expected {CHECKPOINT_FORMAT!r}")
    if ckpt.get("obs_version") != OBS_VERSION:
        raise CheckpointError(
            f"policy checkpoint {str(path)!r} was trained on observation version "
            f"{ckpt.get('obs_version')!r}; this code encodes version {OBS_VERSION}")
    for key in ("net", "model"):
        if not isinstance(ckpt.get(key), dict):
            raise CheckpointError(f"policy checkpoint {str(path)!r} lacks the {key!r} dict "
                                  f"(fields: {', '.join(map(str, ckpt))})")
    return ckpt


def load_policy(path: str | os.PathLike[str]) -> tuple[PolicyNet, dict[str, Any]]:
    """Load a ``jass-policy/1`` checkpoint: returns (network in eval mode, checkpoint dict).

    Raises CheckpointError for a missing file, a corrupt or truncated file, a wrong format,
    an incompatible observation version, or weights whose shapes do not fit the stored net config.
    """
    ckpt = read_checkpoint(path)
    cfg = ckpt["net"]
    hidden = cfg.get("hidden")
    if not isinstance(hidden, (list, tuple)) or not all(isinstance(h, int) and h > 0 for h in hidden):
        raise CheckpointError(f"policy checkpoint {str(path)!r}: net.hidden must be a list of "
                              f"positive ints, got {hidden!r}")
    tf = stored_trained_for(ckpt)
    obs_dim, n_actions = cfg.get("obs_dim", tf["obs_dim"]), cfg.get("n_actions", tf["n_actions"])
    problem = layout_problem(tf, f"policy checkpoint {str(path)!r}")
    if problem:
        raise CheckpointError(problem)
    if (obs_dim, n_actions) != (tf["obs_dim"], tf["n_actions"]):
        raise CheckpointError(f"policy checkpoint {str(path)!r} has obs_dim={obs_dim}, "
                              f"n_actions={n_actions}; the {tf['game']} layout it was trained for has "
                              f"{tf['obs_dim']} and {tf['n_actions']}")
    try:
        net = PolicyNet(hidden, obs_dim, n_actions, suit_renamings=cfg.get("suit_renamings"), game=tf["game"])
    except ValueError as e:
        raise CheckpointError(f"policy checkpoint {str(path)!r}: net config {cfg!r}: {e}") from None
    expected = {k: tuple(v.shape) for k, v in net.state_dict().items()}
    got = {k: tuple(v.shape) for k, v in ckpt["model"].items() if isinstance(v, torch.Tensor)}
    if expected != got:
        missing = sorted(expected.keys() - got.keys())
        unexpected = sorted(got.keys() - expected.keys())
        wrong = [f"{k}: {got[k]} (expected {expected[k]})" for k in sorted(expected.keys() & got.keys())
                 if expected[k] != got[k]]
        raise CheckpointError(
            f"policy checkpoint {str(path)!r}: weights do not fit net {cfg!r}"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; unexpected: {', '.join(unexpected)}" if unexpected else "")
            + (f"; wrong shapes: {'; '.join(wrong)}" if wrong else ""))
    net.load_state_dict(ckpt["model"])
    net.eval()
    return net, ckpt


def slim_policy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> Path:
    """Copy the policy of checkpoint ``src`` (e.g. a trainer's ``best.pt``) into a small
    ``jass-policy/1`` file ``dst``: weights, the training run's config (``trainer_config``), its
    env decisions and ``source`` (the path and SHA-256 of ``src``); no optimizer, critic,
    snapshots or environment state. Raises CheckpointError for a bad ``src``."""
    net, ckpt = load_policy(src)
    tr = ckpt.get("trainer") or {}
    extra: dict[str, Any] = {"source": f"{src} (sha256 {file_sha256(src)})"}
    for key in ("rules", "trained_for", "trainer_config"):
        if key in ckpt:
            extra[key] = ckpt[key]
    if "config" in tr:
        extra["trainer_config"] = tr["config"]
    if "env_decisions" in tr:
        extra["env_decisions"] = int(tr["env_decisions"])
    return save_policy(dst, net, **extra)


__all__ = ["PolicyNet", "apply_mask", "CheckpointError", "save_policy", "load_policy", "slim_policy",
           "read_checkpoint", "CHECKPOINT_FORMAT", "DEFAULT_HIDDEN"]
