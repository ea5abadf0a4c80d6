"""Checkpoints of a run: ``jass-policy/1`` files (``PolicyAgent`` and ``load_policy`` read the
policy) that carry the whole trainer state as the extra field ``trainer`` (format
:data:`TRAINER_FORMAT`): the config, the counters, the critic, the optimizer, the snapshots, the
environments' state and line-ups, and every random generator's state. ``--resume`` restores all
of it, so that a resumed run continues exactly as if it had not been interrupted.

A checkpoint that lacks a field of the trainer state is refused with a :class:`CheckpointError`
naming what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jass_env.envs.vector import VectorJassEnv, VectorReset

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from ..network import CheckpointError, read_checkpoint, save_policy
from ..trained_for import trained_for
from .config import TrainConfig
from .generators import RNG_KEYS, Generators, rng_state, set_rng_state
from .lineups import Lineups
from .networks import Learner
from .run_folder import checkpoint_path

TRAINER_FORMAT = "jass-ppo-trainer/1"
#: the fields of the trainer state, and of its parts ``env`` and ``rng``
TRAINER_KEYS = ("config", "iteration", "env_decisions", "trained_decisions", "best_eval", "elapsed",
                "bc_decisions_done", "critic", "optimizer", "snap_filled", "snapshots", "env", "rng")
ENV_KEYS = ("game_states", "sample_rng", "learner_side", "opp_kind", "opp_slot")
#: the longest part of a load error quoted in a CheckpointError
QUOTED_ERROR_CHARS = 400


@dataclass
class Counters:
    """The run's counters (checkpointed)."""

    iteration: int = 0
    env_decisions: int = 0
    trained_decisions: int = 0
    best_eval: float | None = None        #: the best statistic against the best opponent so far
    elapsed_before: float = 0.0           #: training seconds of the processes before this one
    bc_done: int = 0                      #: warm-start decisions played (before iteration 0)
    snap_filled: int = 0                  #: snapshot slots in use


def _cpu_state(net: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu() for k, v in net.state_dict().items()}


def save_checkpoint(name: str, cfg: TrainConfig, run: Counters, learner: Learner, env: VectorJassEnv,
                    lineups: Lineups, gens: Generators, elapsed: float) -> None:
    """``cfg.run_dir/checkpoints/<name>``: a ``jass-policy/1`` file of the policy with the whole
    trainer state (``--resume`` reads it); ``elapsed``: training seconds so far, earlier processes
    included."""
    trainer = {
        "format": TRAINER_FORMAT, "config": cfg.to_dict(), "iteration": run.iteration,
        "env_decisions": run.env_decisions, "trained_decisions": run.trained_decisions,
        "best_eval": run.best_eval, "elapsed": elapsed, "bc_decisions_done": run.bc_done,
        "critic": _cpu_state(learner.critic) if learner.critic is not None else None,
        "optimizer": learner.optimizer.state_dict(), "snap_filled": run.snap_filled,
        "snapshots": [_cpu_state(s) for s in learner.snapshots[:run.snap_filled]],
        "env": {**{k: torch.from_numpy(v) for k, v in env.get_state().items()}, **lineups.state()},
        "rng": rng_state(gens),
    }
    save_policy(checkpoint_path(Path(cfg.run_dir), name), learner.policy, trainer=trainer, rules=cfg.rules,
                trained_for=trained_for(cfg.rules))


def _missing(tr: dict[str, Any]) -> list[str]:
    """The fields of the trainer state ``tr`` that are not there (``env.<key>``, ``rng.<key>`` for
    those of its parts)."""
    missing = [k for k in TRAINER_KEYS if k not in tr]
    for part, keys in (("env", ENV_KEYS), ("rng", RNG_KEYS)):
        if isinstance(tr.get(part), dict):
            missing += [f"{part}.{k}" for k in keys if k not in tr[part]]
    return missing


def load_trainer_checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint written by this trainer; CheckpointError (naming the file) otherwise."""
    ckpt = read_checkpoint(path)
    tr = ckpt.get("trainer")
    if not isinstance(tr, dict) or tr.get("format") != TRAINER_FORMAT:
        raise CheckpointError(f"checkpoint {str(path)!r} is a policy file without trainer state "
                              f"(expected a 'trainer' field of format {TRAINER_FORMAT!r}); it cannot be "
                              "resumed")
    missing = _missing(tr)
    if missing:
        raise CheckpointError(f"checkpoint {str(path)!r}: trainer state lacks {', '.join(missing)}")
    return ckpt


def restore(ckpt: dict[str, Any], cfg: TrainConfig, learner: Learner, env: VectorJassEnv,
            lineups: Lineups, gens: Generators) -> tuple[Counters, VectorReset]:
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
        why = " ".join(str(err).split())[:QUOTED_ERROR_CHARS]
        raise CheckpointError(
            f"checkpoint in {cfg.run_dir!r}: its weights do not fit the network of its config (hidden "
            f"{cfg.hidden}, central_critic {cfg.central_critic}, critic_hidden {cfg.critic_hidden}, "
            f"rules {cfg.rules}): {type(err).__name__}: {why}") from None
    e = tr["env"]
    try:
        first = env.set_state(e["game_states"].numpy(), e["sample_rng"].numpy())
    except ValueError as err:
        raise CheckpointError(f"checkpoint in {cfg.run_dir!r}: env state does not fit this "
                              f"config's environment: {err}") from None
    lineups.set_state(e)
    set_rng_state(tr["rng"], gens)
    run = Counters(int(tr["iteration"]), int(tr["env_decisions"]), int(tr["trained_decisions"]),
                   tr["best_eval"], float(tr["elapsed"]), int(tr["bc_decisions_done"]),
                   int(tr["snap_filled"]))
    return run, first
