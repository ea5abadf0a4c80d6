"""``python -m agents.ladder``: the ladder of one game (:mod:`agents.evaluation.ladder`; docs/bots.md).

    python -m agents.ladder --rules PRESET [--deals N] [--seed S] [--agents A B ...] [--workers W] --out DIR

Every pair of agents on one deal set by the game's own protocol, ranked by Elo, with each agent's
cost per decision; writes ``ladder.json`` and ``ladder.md`` to ``--out``. The last line on stdout
is one JSON line of the headline figures (the Elo of every agent). Exit status 0 when the files are
written, 2 for bad arguments, agents or checkpoints (or an agent that misbehaves), 130 when
interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from jass_env.engine.switches import RulesError
from jass_env.games import DEFAULT_PRESET, PRESETS, make_rules

from .evaluation.cli import INTERRUPTED, build_agents, fail
from .evaluation.ladder import (
    DEFAULT_AGENTS,
    LADDER_FILES,
    default_agents,
    headline,
    ladder_problem,
    ranking_lines,
    run_ladder,
    write_ladder_outputs,
)
from .evaluation.table import EvaluationError
from .registry import AgentSpecError, describe_specs

#: deals per pair unless --deals says otherwise
DEFAULT_DEALS = 100


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    ap = argparse.ArgumentParser(
        prog="python -m agents.ladder", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The ladder of one game: every pair of agents on one deal set by the game's "
                    "protocol, Elo, and the cost per decision (docs/bots.md).",
        epilog="agent specs:\n" + describe_specs())
    ap.add_argument("--rules", default=DEFAULT_PRESET,
                    help=f"rules preset (default {DEFAULT_PRESET}); one of {', '.join(PRESETS)}")
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                    help=f"deals per pair (whole games: deal sequences, each played twice) "
                         f"(default {DEFAULT_DEALS})")
    ap.add_argument("--seed", type=int, default=0, help="deal-set seed (default 0)")
    ap.add_argument("--agents", nargs="+", metavar="AGENT",
                    help=f"agent specs, the first at 0 Elo (default: those of {' '.join(DEFAULT_AGENTS)} "
                         "the game offers; policy where it ships one)")
    ap.add_argument("--workers", type=int, default=1, help="processes, each playing whole pairs (default 1)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--quiet", action="store_true", help="no progress")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; returns the exit status (0 ok, 2 bad arguments or agents, 130 interrupted)."""
    from .network import CheckpointError  # imported here: agents.network needs torch (the train extra)

    args = parser().parse_args(argv)
    try:
        rules = make_rules(args.rules)
        specs = args.agents or default_agents(rules)
        problem = ladder_problem(specs, args.deals, args.seed, args.workers)
        if problem:
            return fail(problem)
        build_agents(specs, rules)
    except (RulesError, AgentSpecError, CheckpointError) as e:
        return fail(str(e))
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        summary = run_ladder(specs, rules, args.deals, args.seed, args.workers, not args.quiet)
        write_ladder_outputs(out, summary)
    except (EvaluationError, ValueError, OSError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("\ninterrupted; nothing written", file=sys.stderr)
        return INTERRUPTED
    print("\n".join(ranking_lines(summary)))
    print(f"wrote {out / LADDER_FILES[0]}, {', '.join(LADDER_FILES[1:])}")
    print(json.dumps(headline(summary)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
