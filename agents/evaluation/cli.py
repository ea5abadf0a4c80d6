"""The command line of the evaluation: ``python -m agents.evaluate A B --deals N --out DIR`` (or
``--round-robin A B C ...``; the ``jass-evaluate`` script). Protocols: docs/bots.md.

The game's protocol (:func:`agents.evaluation.protocol.protocol_for`) plays and reports: team games
by duplicate deals (:mod:`agents.evaluation.duplicate`; ``--round-robin`` and ``--workers`` too),
games played alone by seat rotation (:mod:`agents.evaluation.rotation`), Coiffeur by whole games
(:mod:`agents.evaluation.whole_games`). Exit status 0 when the files are written, 2 for bad
arguments, agents or checkpoints (or an agent that misbehaves), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from jass_env.engine.switches import Rules, RulesError
from jass_env.games import DEFAULT_PRESET, REGISTRY, make_rules

from ..base import Agent
from ..registry import AgentSpecError, UntrainedPolicyWarning, describe_specs, make_agent
from . import duplicate, rotation, whole_games
from .protocol import ROTATION, WHOLE_GAME, Protocol, protocol_for
from .round_robin import (
    ROUND_ROBIN_FILES,
    ranking_lines,
    round_robin,
    round_robin_problem,
    write_round_robin_outputs,
)
from .table import EvaluationError

#: matches per pair (team games) or games (games played alone) unless --matches says otherwise
DEFAULT_MATCHES = 20
#: every protocol's implementation, by its name
IMPLEMENTATIONS: dict[str, Protocol] = {p.name: p for p in (duplicate.PROTOCOL, rotation.PROTOCOL,
                                                             whole_games.PROTOCOL)}
#: exit status of bad arguments, and of an interrupted evaluation
BAD_ARGUMENTS, INTERRUPTED = 2, 130


def _games_of(protocol: str) -> str:
    """The games evaluated by ``protocol``, for the help text."""
    return ", ".join(g.title for g in REGISTRY.values() if g.protocol == protocol)


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    ap = argparse.ArgumentParser(
        prog="python -m agents.evaluate", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Duplicate evaluation of two agents (or a round robin); protocol: docs/bots.md.",
        epilog="agent specs:\n" + describe_specs())
    ap.add_argument("agents", nargs="*", metavar="AGENT", help="two agent specs: A (evaluated) and B")
    ap.add_argument("--round-robin", nargs="+", metavar="AGENT", help="evaluate every pair of these agents")
    ap.add_argument("--deals", type=int, default=500,
                    help=f"deals, each played twice (games played alone: once per seat rotation, "
                         f"{_games_of(ROTATION)}; deal sequences of whole games, each played twice, "
                         f"{_games_of(WHOLE_GAME)}) (default 500)")
    ap.add_argument("--rules", default=DEFAULT_PRESET, help=f"rules preset (default {DEFAULT_PRESET})")
    ap.add_argument("--seed", type=int, default=0, help="deal-set seed (default 0)")
    ap.add_argument("--matches", type=int, default=None,
                    help=f"matches to the target per pair, or whole games (the rules' match_rounds) "
                         f"in {_games_of(ROTATION)} (default 20; {_games_of(WHOLE_GAME)} plays whole "
                         "games anyway)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    return ap


def fail(message: str) -> int:
    """Print ``error: message`` on stderr; the exit status of bad arguments."""
    print(f"error: {message}", file=sys.stderr)
    return BAD_ARGUMENTS


def argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options themselves (before any rules or agent is built), or None."""
    if args.round_robin and args.agents:
        return "give either two agents or --round-robin, not both"
    if args.round_robin and round_robin_problem(args.round_robin):
        return round_robin_problem(args.round_robin)
    if not args.round_robin and len(args.agents) != 2:
        return f"give two agents (A B) or --round-robin A B ...; got {len(args.agents)} agent(s)"
    if args.deals < 2 or (args.matches or 0) < 0 or args.seed < 0 or args.workers < 1:
        return "need --deals >= 2, --matches >= 0, --seed >= 0, --workers >= 1"
    return None


def build_agents(specs: Sequence[str], rules: Rules) -> dict[str, Agent]:
    """Every spec built once for ``rules``, up front, so a bad one fails fast with a clear message
    (AgentSpecError, CheckpointError); a spec's warning (``policy`` playing random weights) is
    printed once, as a ``warning:`` line on stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UntrainedPolicyWarning)
        built = {s: make_agent(s, rules) for s in dict.fromkeys(specs)}
    for s, agent in built.items():
        if agent.spec_warning:
            print(f"warning: {s}: {agent.spec_warning}", file=sys.stderr)
    return built


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; returns the exit status (0 ok, 2 bad arguments, agents or checkpoints).
    An agent spec's warning (``policy`` playing random weights) is printed once, up front, as a
    ``warning:`` line on stderr."""
    args = parser().parse_args(argv)
    problem = argument_problem(args)
    if problem:
        return fail(problem)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UntrainedPolicyWarning)   # printed by build_agents, once a spec
        return _evaluate(args)


def _evaluate(args: argparse.Namespace) -> int:
    """:func:`main` after its options were checked."""
    from ..network import CheckpointError  # imported here: agents.network needs torch (the train extra)

    specs = args.round_robin or args.agents
    try:
        rules = make_rules(args.rules)
        build_agents(specs, rules)
    except (RulesError, AgentSpecError, CheckpointError) as e:
        return fail(str(e))
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return fail(f"cannot create the output folder {str(out)!r}: {e}")
    protocol = IMPLEMENTATIONS[protocol_for(rules)]
    refusal = protocol.refuses(rules, bool(args.round_robin), args.workers, args.matches)
    if refusal:
        return fail(refusal)
    if not protocol.takes_matches:
        matches = 0
    else:
        matches = DEFAULT_MATCHES if args.matches is None else args.matches
    try:
        if args.round_robin:
            pairs, summary = round_robin(specs, rules, args.deals, args.seed, matches, args.workers,
                                         not args.quiet)
            write_round_robin_outputs(out, pairs, summary)
            print("\n".join(ranking_lines(summary)))
        else:
            res = protocol.evaluate(specs[0], specs[1], rules, args.deals, args.seed, matches, args.workers,
                                    not args.quiet)
            protocol.write_outputs(out, res)
            print(protocol.summary_line(res.summary))
    except (EvaluationError, ValueError, OSError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("\ninterrupted; nothing written for the unfinished evaluation", file=sys.stderr)
        return INTERRUPTED
    files = ROUND_ROBIN_FILES if args.round_robin else protocol.files
    print(f"wrote {out / files[0]}, {', '.join(files[1:])}")
    return 0


__all__ = ["main", "parser", "DEFAULT_MATCHES", "IMPLEMENTATIONS", "build_agents"]
