"""Play our agents against each other in jass-kit's own Arena and keep its game log.

    .venv/bin/python examples/jasskit_arena.py heuristic random --games 20 --log runs/arena/arena

The first agent spec (``agents.evaluate``'s spellings: ``random``, ``heuristic``,
``pimc:worlds=10``, a checkpoint or ONNX path) holds North and South, the second East and West;
jass-kit's Arena deals, checks every card under its own rules and writes one game a line to
``LOG0001.txt`` (``--log`` is the file name without the number and ``.txt``, as jass-kit's
``Arena(save_filename=...)`` takes it). That log is what ``jass_env.records convert --from jasskit``
reads. Needs the ``jasskit`` extra (``pip install -e ".[jasskit]"``).
"""

from __future__ import annotations

import argparse
import glob
import sys
from pathlib import Path

import numpy as np

from agents.extras import missing_extra
from agents.jasskit import AsJasskitAgent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("team0", help="agent spec of North and South")
    ap.add_argument("team1", help="agent spec of East and West")
    ap.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--log", default="runs/arena/arena",
                    help="log file name without its number and .txt (default runs/arena/arena)")
    ap.add_argument("--seed", type=int, default=0, help="seed of jass-kit's dealer and our agents")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    if args.seed < 0:
        ap.error(f"--seed must be >= 0, got {args.seed}")
    try:
        from jass.arena.arena import Arena  # noqa: PLC0415 (the optional extra)
    except ModuleNotFoundError as e:
        print(f"error: {missing_extra(e, 'examples/jasskit_arena.py', 'jasskit')}", file=sys.stderr)
        return 2
    try:
        north, south = (AsJasskitAgent(args.team0, seed=args.seed + k) for k in (0, 2))
        east, west = (AsJasskitAgent(args.team1, seed=args.seed + k) for k in (1, 3))
    except ValueError as e:               # an unknown agent spec or an unreadable checkpoint
        print(f"error: {e}", file=sys.stderr)
        return 2
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    before = set(glob.glob(f"{glob.escape(args.log)}[0-9][0-9][0-9][0-9].txt"))
    np.random.seed(args.seed)             # jass-kit's dealer draws from numpy's global generator
    arena = Arena(nr_games_to_play=args.games, save_filename=args.log, print_every_x_games=10**9)
    arena.set_players(north, east, south, west)
    arena.play_all_games()
    written = sorted(set(glob.glob(f"{glob.escape(args.log)}[0-9][0-9][0-9][0-9].txt")) - before) or "-"
    print(f"{args.games} games: {args.team0} (North, South) {int(np.sum(arena.points_team_0))} points, "
          f"{args.team1} (East, West) {int(np.sum(arena.points_team_1))} points")
    print(f"log: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
