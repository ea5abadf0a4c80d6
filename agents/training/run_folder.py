"""The run folder: ``runs/<name>-<timestamp>``, or the config's ``run_dir``.

It holds ``config.yaml`` (the resolved config), TensorBoard event files (the warm start's in
``warm_start/``), ``checkpoints/latest.pt`` and ``checkpoints/best.pt``, and at the end
``results.json``, ``results.md`` and ``strength.png``. A fresh run refuses a folder that holds
files unless ``--overwrite`` is given, which removes an earlier run's outputs there (its
config.yaml, checkpoints, events and results; other files stay); the message says whether that
folder holds a run to ``--resume``. The folder is created only once the start is validated.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from jass_env.commands import shown_command

from ..files import atomic_write, remove_stale_temp_files
from .config import TrainConfig
from .yaml_config import ConfigError, config_yaml

CHECKPOINTS = ("latest.pt", "best.pt")           # in RUN_DIR/checkpoints
CONFIG_FILE = "config.yaml"                      # the run's resolved config, in RUN_DIR
WARM_START_DIR = "warm_start"                    # the warm start's TensorBoard events, in RUN_DIR
EVENTS_GLOB = "events.out.tfevents.*"
#: a run's result files, relative to its folder (listed at the end of a run)
RESULT_FILES = ("results.md", "results.json", *(f"checkpoints/{c}" for c in CHECKPOINTS), "strength.png")
#: what a run writes besides its event files (an ``--overwrite`` start removes these and the events)
RUN_OUTPUTS = (CONFIG_FILE, *RESULT_FILES)
#: how many of a folder's files an error message names
SHOWN_FILES = 5


def checkpoint_path(run_dir: Path, name: str = "latest.pt") -> Path:
    """``run_dir/checkpoints/<name>``, one of :data:`CHECKPOINTS`."""
    return run_dir / "checkpoints" / name


def fresh_run_dir(cfg: TrainConfig, overwrite: bool) -> Path:
    """The folder of a fresh run: the config's ``run_dir``, else ``runs/<name>-<timestamp>``;
    ConfigError when a run may not write there (:func:`check_fresh_run_dir`)."""
    run_dir = Path(cfg.run_dir or Path("runs") / f"{cfg.name}-{time.strftime('%Y%m%d-%H%M%S')}")
    check_fresh_run_dir(run_dir, overwrite)
    return run_dir


def check_fresh_run_dir(run_dir: Path, overwrite: bool) -> None:
    """A fresh run may write into ``run_dir`` if it does not exist or is an empty folder; with
    ``overwrite`` any folder. ConfigError otherwise, naming a fresh ``run_dir``, ``--overwrite``,
    and ``--resume`` when the folder holds a checkpoint to resume."""
    blocker = next((p for p in (run_dir, *run_dir.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise ConfigError(f"run_dir {str(run_dir)!r}: {str(blocker)!r} is a file, not a folder; give a "
                          "folder that does not exist yet, e.g. run_dir=runs/NAME")
    if run_dir.is_dir() and not overwrite:
        held = sorted(p.name for p in run_dir.iterdir())
        if not held:
            return
        shown = ", ".join(held[:SHOWN_FILES]) + (", ..." if len(held) > SHOWN_FILES else "")
        replaced = f"{CONFIG_FILE}, checkpoints, events and results"
        if any(checkpoint_path(run_dir, name).exists() for name in CHECKPOINTS):
            raise ConfigError(f"run_dir {str(run_dir)!r} already holds a run ({shown}); continue it with "
                              f"--resume {run_dir}, give a fresh run_dir=..., or pass --overwrite to "
                              f"replace it (its {replaced})")
        if (run_dir / CONFIG_FILE).exists():
            raise ConfigError(f"run_dir {str(run_dir)!r} holds a run that stopped before its first "
                              f"checkpoint ({shown}), so there is nothing to resume; pass --overwrite to "
                              f"start this run there instead (it removes that run's {replaced}), or give "
                              "a fresh run_dir=...")
        raise ConfigError(f"run_dir {str(run_dir)!r} already holds files ({shown}) and no run; give a "
                          f"fresh run_dir=..., or pass --overwrite to write the run among them (it removes "
                          f"only a run's {replaced})")


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
    for path in (run_dir / CONFIG_FILE, *(checkpoint_path(run_dir, name) for name in CHECKPOINTS)):
        remove_stale_temp_files(path)


def output_files(run_dir: Path) -> list[Path]:
    """The run's result files that exist: results.md, results.json, both checkpoints, the plot."""
    return [run_dir / name for name in RESULT_FILES if (run_dir / name).exists()]


def open_run(cfg: TrainConfig, overwrite: bool, resumed: bool, iteration: int, env_decisions: int) -> Any:
    """Start writing into the run folder ``cfg.run_dir`` (once the start is validated): create it
    (:func:`open_run_dir`), write ``config.yaml``, say on stderr where the run writes (and how to
    continue it, or where it continues: at ``iteration``), and return the TensorBoard
    ``SummaryWriter``. Scalars are logged at step = env decisions: a resumed run hides (purges)
    only what the interrupted process logged after its checkpoint (steps > ``env_decisions``),
    which it logs again."""
    from torch.utils.tensorboard import SummaryWriter  # heavy import: only when training

    run_dir = Path(cfg.run_dir)
    open_run_dir(run_dir, overwrite)
    atomic_write(run_dir / CONFIG_FILE, lambda f: f.write(config_yaml(cfg).encode()))
    if resumed:
        print(f"continuing the run in {run_dir} at iteration {iteration}/{cfg.iterations}",
              file=sys.stderr, flush=True)
    else:
        print(f"run folder {run_dir} (config.yaml, TensorBoard events, checkpoints/); after an "
              f"interruption continue it with {shown_command('python')} train.py --resume {run_dir}",
              file=sys.stderr, flush=True)
    return SummaryWriter(log_dir=str(run_dir), purge_step=env_decisions + 1 if resumed else None)
