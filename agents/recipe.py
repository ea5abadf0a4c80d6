"""``python -m agents.recipe``: a game's whole training recipe in one command, self-play and then
expert iteration, resumed where it stopped when rerun.

    python -m agents.recipe --selfplay configs/mittlere.yaml --distill configs/distill-mittlere.yaml \\
        --run-dir runs/recipe-mittlere [--rules PRESET]

1. **Self-play**: ``train.py --config SELFPLAY run_dir=RUN_DIR/selfplay`` (PPO, every game;
   docs/training.md), run as its own process; a folder that already holds that run is continued
   with ``train.py --resume`` (a finished run trains nothing more).
2. **Expert iteration**: :mod:`agents.search.distill` with the DISTILL config, starting from the
   self-play run's ``checkpoints/best.pt`` (the policy its periodic evaluation picked), in
   ``RUN_DIR/distill``; its rounds resume label chunk by label chunk, and a finished run says so.

``--rules`` plays another preset of the same game in both steps (Molotow for three, Coiffeur with
ten rows). Without ``--selfplay`` the recipe is the distillation alone, from the DISTILL config's
``init_policy``. Exit status 0 when both steps are done, 2 for a bad config, checkpoint or a
self-play run that failed (its own output says why), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .network import CheckpointError
from .search import distill
from .training.yaml_config import ConfigError

#: the repository root, where ``train.py`` is
ROOT = Path(__file__).resolve().parent.parent
BAD_ARGUMENTS, INTERRUPTED = 2, 130


def selfplay_command(config: str, run_dir: Path, rules: str | None) -> list[str]:
    """The ``train.py`` command line of the self-play step: a new run, or the one in ``run_dir``
    continued."""
    train = [sys.executable, str(ROOT / "train.py")]
    if (run_dir / "config.yaml").exists():
        return [*train, "--resume", str(run_dir)]
    return [*train, "--config", config, f"run_dir={run_dir}", *([f"rules={rules}"] if rules else [])]


def start_policy(run_dir: Path) -> Path:
    """The self-play run's policy the distillation starts from: ``best.pt``, else ``latest.pt``."""
    for name in ("best.pt", "latest.pt"):
        path = run_dir / "checkpoints" / name
        if path.exists():
            return path
    raise ConfigError(f"the self-play run in {str(run_dir)!r} wrote no checkpoint")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agents.recipe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--selfplay", metavar="CONFIG", help="train.py config of the self-play step, e.g. "
                    "configs/mittlere.yaml (none: start from the distillation config's init_policy)")
    ap.add_argument("--distill", metavar="CONFIG", required=True,
                    help="agents.distill config of the expert iteration, e.g. configs/distill-mittlere.yaml")
    ap.add_argument("--run-dir", required=True, type=Path, help="the recipe's folder: selfplay/ and distill/")
    ap.add_argument("--rules", help="a preset of the configs' game to play instead of theirs")
    args = ap.parse_args(argv)
    overrides = [f"run_dir={args.run_dir / 'distill'}"] + ([f"rules={args.rules}"] if args.rules else [])
    try:
        if args.selfplay:
            selfplay_dir = args.run_dir / "selfplay"
            command = selfplay_command(args.selfplay, selfplay_dir, args.rules)
            print("self-play:", " ".join(command[1:]), flush=True)
            if subprocess.run(command, cwd=ROOT).returncode != 0:
                print(f"error: the self-play step failed (its output is above; rerun to continue it from "
                      f"{selfplay_dir})", file=sys.stderr)
                return BAD_ARGUMENTS
            overrides.append(f"init_policy={start_policy(selfplay_dir)}")
        cfg = distill.load_distill_config(args.distill, overrides)
        if (args.run_dir / "distill" / "results.json").exists():
            print(f"the expert iteration in {args.run_dir / 'distill'} is finished; its students are "
                  "round*/student.pt")
            return 0
        print(f"expert iteration: {cfg.rounds} round(s) of {cfg.rules} in {cfg.run_dir}", flush=True)
        distill.run(cfg)
    except (ConfigError, distill.LabelError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return BAD_ARGUMENTS
    except KeyboardInterrupt:
        print("interrupted: rerun the same command to continue", file=sys.stderr)
        return INTERRUPTED
    return 0


__all__ = ["main", "selfplay_command", "start_policy"]


if __name__ == "__main__":
    sys.exit(main())
