"""``python -m agents.distill``: the command line of expert iteration, every game that builds search
worlds (the run, its config and its files: :mod:`agents.search.distill`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .network import CheckpointError
from .search import distill
from .training.yaml_config import ConfigError


def main(argv: Sequence[str] | None = None) -> int:
    """Run (or resume) the expert iteration of ``--config`` with its overrides; 2 on a missing or bad
    config, label file or checkpoint (the error on stderr), else 0. The config is never implied: a
    bare command prints the usage instead of starting an hour-long run."""
    ap = argparse.ArgumentParser(prog="python -m agents.distill",
                                 description=distill.__doc__.split("\n\n")[0])
    ap.add_argument("--config", required=True,
                    help="YAML config, e.g. configs/distill.yaml (the shipped Schieber policy's run, about "
                    "70 minutes with two workers) or configs/distill-GAME.yaml; keys: "
                    "agents/search/distill.py DistillConfig")
    ap.add_argument("overrides", nargs="*", metavar="key=value", help="config overrides, values as YAML")
    args = ap.parse_args(argv)
    try:
        distill.run(distill.load_distill_config(args.config, args.overrides))
    except (ConfigError, distill.LabelError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


__all__ = ["main"]


if __name__ == "__main__":
    sys.exit(main())
