"""What ``train.py --resume RUN_DIR`` continues from.

A run continues from ``checkpoints/latest.pt``. A run stopped before it saved one continues from
``checkpoints/best.pt`` if a periodic evaluation saved that (it holds the whole trainer state, as
``latest.pt`` would at its iteration; it is copied to ``latest.pt`` first). A run stopped before
either starts over from iteration 0 with its ``config.yaml``; since a run is reproducible, it
then plays exactly what it would have played (the earlier process's events go, as with
``--overwrite``).

A checkpoint is resumed only in the run it belongs to: one whose game is not the one its config
trains, or whose config trains other rules than the folder's ``config.yaml`` (another run's
checkpoint put there), is refused with a :class:`~agents.network.CheckpointError`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jass_env.commands import shown_command
from jass_env.games import PRESETS, make_rules

from ..files import atomic_write
from ..network import CheckpointError
from ..trained_for import layout_problem, stored_trained_for
from .checkpoint import load_trainer_checkpoint
from .config import TrainConfig, resumed_config
from .run_folder import CHECKPOINTS, CONFIG_FILE, checkpoint_path
from .yaml_config import ConfigError, read_config_values


def resumed_run(run_dir: Path, overrides: Sequence[str]) -> tuple[TrainConfig, dict[str, Any] | None]:
    """The config and the trainer checkpoint that ``--resume run_dir`` continues from, with the
    ``key=value`` ``overrides`` a resumed run may take; the checkpoint is None when the run starts
    over (no checkpoint yet). CheckpointError or ConfigError when there is nothing to resume or
    the checkpoint is not this folder's run's."""
    if run_dir.exists() and not run_dir.is_dir():
        raise CheckpointError(f"--resume {str(run_dir)!r} is a file; give the run folder that train.py "
                              "wrote (it holds checkpoints/latest.pt)")
    if not run_dir.is_dir():
        raise CheckpointError(f"--resume {str(run_dir)!r}: the folder does not exist; give the run folder "
                              "that train.py wrote (it holds config.yaml and checkpoints/)")
    found = [p for p in (checkpoint_path(run_dir, name) for name in CHECKPOINTS) if p.exists()]
    if found:
        path, latest = found[0], checkpoint_path(run_dir)
        ckpt = load_trainer_checkpoint(path)
        cfg = resumed_config(ckpt["trainer"]["config"], overrides, run_dir)
        check_checkpoint_of_run(ckpt, path, cfg, run_dir)
        if path != latest:
            data = path.read_bytes()
            atomic_write(latest, lambda f: f.write(data))
            print(f"{run_dir} has no checkpoints/{latest.name} (the run stopped before saving one); "
                  f"continuing from checkpoints/{path.name}, which holds the whole trainer state at "
                  f"iteration {ckpt['trainer']['iteration']}", file=sys.stderr, flush=True)
        return cfg, ckpt
    config_file = run_dir / CONFIG_FILE
    if not config_file.is_file():
        raise CheckpointError(f"--resume {str(run_dir)!r}: no run to resume there (no checkpoints/latest.pt "
                              f"and no {CONFIG_FILE}); start one with {shown_command('python')} train.py "
                              f"--config FILE run_dir={run_dir}")
    try:
        cfg = resumed_config(read_config_values(config_file), overrides, run_dir)
    except ConfigError as e:
        raise ConfigError(f"--resume {str(run_dir)!r} (no checkpoint yet, so the run starts over from its "
                          f"{CONFIG_FILE}): {e}") from None
    print(f"{run_dir} has no checkpoint yet (the run stopped before its first one): starting it over from "
          f"iteration 0 with its {CONFIG_FILE}; it plays exactly what it would have played",
          file=sys.stderr, flush=True)
    return cfg, None


def _folder_rules(run_dir: Path) -> str | None:
    """The ``rules`` of the folder's ``config.yaml``; None when it has none or cannot be read (the
    checkpoint's own config then speaks for the run, and ``config.yaml`` is written again)."""
    try:
        rules = read_config_values(run_dir / CONFIG_FILE).get("rules")
    except ConfigError:
        return None
    return rules if isinstance(rules, str) else None


def _game(rules: str) -> str:
    return make_rules(rules).game if rules in PRESETS else f"rules {rules!r}"


def check_checkpoint_of_run(ckpt: dict[str, Any], path: Path, cfg: TrainConfig, run_dir: Path) -> None:
    """CheckpointError unless the trainer checkpoint ``ckpt`` (read from ``path``, its config
    ``cfg``) is the run's of ``run_dir``: its policy must be of the game of its config's rules (its
    ``trained_for`` layout), and those rules the folder's ``config.yaml``'s."""
    tf = stored_trained_for(ckpt)
    problem = layout_problem(tf, f"checkpoint {str(path)!r}", cfg.rules)
    if problem:
        raise CheckpointError(f"{problem}; yet its trainer config trains rules {cfg.rules!r}: the "
                              "checkpoint does not fit its own config and cannot be resumed")
    folder = _folder_rules(run_dir)
    if folder is not None and folder != cfg.rules:
        raise CheckpointError(
            f"checkpoint {str(path)!r} is of a {tf['game']} run (rules {cfg.rules!r}; observation version "
            f"{tf['obs_version']}, {tf['obs_dim']} inputs, {tf['n_actions']} actions), but the run in "
            f"{str(run_dir)!r} trains {_game(folder)} (rules {folder!r} in its {CONFIG_FILE}): it is "
            "another run's checkpoint; resume that run in its own folder, or put this run's own "
            "checkpoint back")
