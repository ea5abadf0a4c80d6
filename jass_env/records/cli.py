"""The command line of game records::

    python -m jass_env.records check FILE [--rules PRESET]
    python -m jass_env.records convert --from jasskit FILE [-o OUT [--overwrite]]

``check`` prints the findings of :func:`jass_env.records.check.check_records`, then one summary line
``N records, M disagree``; exit status 0 when every record agrees, 1 otherwise, 2 for a usage
error or an unreadable file. ``--rules`` replaces each record's ``rules`` field (its
``rule_overrides`` still apply on top). ``convert`` turns other tools' game logs into records
(:mod:`jass_env.records.jasskit`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from jass_env.commands import module_command, quiet_broken_pipe
from jass_env.games import PRESETS

from . import jasskit
from .check import check_records


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m jass_env.records check FILE [--rules PRESET]`` (or ``convert --from jasskit
    FILE``, :mod:`jass_env.records.jasskit`); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog=module_command("jass_env.records"),
        description="Check Jass game records (JSON Lines, format jass-record/1) against the engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{check,convert}")
    check = sub.add_parser("check", help="replay every record and report each disagreement",
                           description="Replay every record of FILE with the engine and print each "
                                       "disagreement, then 'N records, M disagree'. Exit status 0 "
                                       "when all agree, 1 otherwise, 2 on a usage error.")
    check.add_argument("file", metavar="FILE", help="JSON Lines file of records ('-' = standard input)")
    check.add_argument("--rules", choices=list(PRESETS), metavar="PRESET",
                       help=f"rules preset replacing each record's 'rules' field ({', '.join(PRESETS)})")
    jasskit.add_parser(sub)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # argparse has printed the usage error (or the help)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command == "convert":
        return jasskit.run(args)
    try:
        source = sys.stdin.buffer if args.file == "-" else args.file
        report = check_records(source, rules=args.rules)
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    with quiet_broken_pipe():          # the reader may stop early (``| head``)
        for line in report.lines():
            print(line)
    return 0 if report.ok else 1


__all__ = ["main"]
