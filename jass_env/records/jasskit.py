"""Records from jass-kit's game logs (docs/jasskit.md, docs/records.md)::

    python -m jass_env.records convert --from jasskit FILE [-o OUT]

A jass-kit log (its ``Arena(save_filename=...)``, ``LogEntryFileGenerator``) has one game a line:
``{"game": GameState.to_json(), "date": ..., "player_ids": [...]}``. Each becomes one
``jass-record/1`` record in our seats (:mod:`jass_env.games.schieber.jasskit_map`), under the rules
jass-kit plays (preset ``tournament``: card points only), with jass-kit's trick winners and points
and its team points, so that ``python -m jass_env.records check`` compares them all with the engine.

Plays that jass-kit allowed and the rules forbid (its under-trump, issue #10) are kept as played;
``convert`` lists each with its line, trick and position, and ``check`` reports the first of each
record as an illegal play (the replay stops there).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from jass_env.engine.cards import CONTRACTS, card_name
from jass_env.games.schieber.jasskit_map import (
    JASSKIT_RULES,
    JasskitFormatError,
    JasskitRound,
    read_jasskit_json,
    seat_to_jasskit,
)
from jass_env.games.schieber.seat_view import HAND_SIZE, N_SEATS, N_TRICKS, RuleDisagreement, seat_position

from .format import FORMAT, record_line

SOURCES = ("jasskit",)


@dataclass
class Conversion:
    """What converting a log gave: the records, one message per unreadable line, and the plays the
    rules forbid (line, disagreement)."""

    records: list[dict[str, Any]]
    unreadable: list[str]
    disagreements: list[tuple[int, RuleDisagreement, bool]]   # (line, play, an under-trump?)


def convert_jasskit_log(lines: Iterable[str], source: str = "jasskit") -> Conversion:
    """Convert the lines of a jass-kit game log; ``source`` names the records (``id`` =
    ``"SOURCE:LINE"``). Blank lines are skipped; a line that is not a complete jass-kit game is
    reported in ``unreadable`` and converting goes on."""
    out = Conversion([], [], [])
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            game = entry["game"] if isinstance(entry, dict) and "game" in entry else entry
            jk = read_jasskit_json(game)
            record = _record(jk, f"{source}:{n}")
            out.disagreements += [(n, d, _is_under_trump(jk, d)) for d in _disagreements(jk)]
        except (ValueError, JasskitFormatError) as exc:    # json's errors are ValueErrors too
            out.unreadable.append(f"line {n}: {exc}")
            continue
        out.records.append(record)
    return out


def _record(jk: JasskitRound, rid: str) -> dict[str, Any]:
    """The jass-record/1 record of a complete jass-kit game."""
    if jk.contract is None or len(jk.tricks) != N_TRICKS or any(len(t.cards) != N_SEATS for t in jk.tricks):
        raise JasskitFormatError(f"not a complete game: {len(jk.plays)} cards played, a game plays 36 "
                                 f"(with trump {'chosen' if jk.contract is not None else 'not chosen'})")
    hands = _dealt_hands(jk)
    forehand = (jk.dealer + 1) % N_SEATS
    points = [0, 0]
    for t in jk.tricks:
        if t.winner is not None and t.points is not None:
            points[t.winner % 2] += t.points
    record: dict[str, Any] = {
        "format": FORMAT, "rules": JASSKIT_RULES, "id": rid, "dealer": jk.dealer, "forehand": forehand,
        "hands": [[card_name(c) for c in sorted(h)] for h in hands], "pushed": jk.pushed,
        "declarer": (forehand + 2) % N_SEATS if jk.pushed else forehand, "contract": CONTRACTS[jk.contract],
        "tricks": [_trick(t) for t in jk.tricks]}
    if all(t.winner is not None and t.points is not None for t in jk.tricks):
        record["points"] = points
    return record


def _trick(t: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"leader": t.leader,
                           "plays": [[(t.leader + i) % N_SEATS, card_name(c)] for i, c in enumerate(t.cards)]}
    if t.winner is not None:
        out["winner"] = t.winner
    if t.points is not None:
        out["points"] = t.points
    return out


def _dealt_hands(jk: JasskitRound) -> list[list[int]]:
    """Each player's dealt hand: the cards he played (a finished game's hands are empty)."""
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    for t in jk.tricks:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % N_SEATS].append(c)
    if any(len(h) != HAND_SIZE for h in hands):
        raise JasskitFormatError(f"the tricks' first players do not give each player 9 cards: "
                                 f"{[len(h) for h in hands]} (in our seats)")
    return hands


def _disagreements(jk: JasskitRound) -> list[RuleDisagreement]:
    """The plays the rules forbid, each judged from its player's own (known) hand."""
    plays = jk.plays[:-1]                    # the last card is forced; a seat view ends before it
    last = jk.tricks[-1]
    found: dict[tuple[int, int], RuleDisagreement] = {}
    for seat in range(N_SEATS):
        hand = [jk.plays[-1]] if (last.leader + N_SEATS - 1) % N_SEATS == seat else []
        pos = seat_position(JASSKIT_RULES, seat, hand, dealer=jk.dealer, pushed=jk.pushed,
                            contract=jk.contract, plays=plays)
        for d in pos.disagreements:
            if d.player == seat:
                found[(d.trick, d.position)] = d
    return [found[k] for k in sorted(found)]


def _is_under_trump(jk: JasskitRound, d: RuleDisagreement) -> bool:
    """Whether the play is a trump on a plain-suit lead (what jass-kit's issue #10 allows)."""
    lead = jk.tricks[d.trick - 1].cards[0] // 9
    return jk.contract is not None and jk.contract < 4 and d.card // 9 == jk.contract != lead


def describe(line: int, d: RuleDisagreement, under_trump: bool) -> str:
    """One line for a play jass-kit allowed and the rules forbid."""
    why = " (an under-trump: jass-kit's issue #10)" if under_trump else ""
    return (f"line {line}, trick {d.trick}, position {d.position}: rule disagreement: jass-kit let player "
            f"{d.player} (its player {seat_to_jasskit(d.player)}) play {card_name(d.card)}, which the rules "
            f"forbid{why}")


# command line
def add_parser(sub: Any) -> None:
    """The ``convert`` subcommand of ``python -m jass_env.records``."""
    p = sub.add_parser("convert", help="convert other tools' game logs into records",
                       description="Convert a jass-kit game log (one game a line, as its Arena saves them) "
                                   "into jass-record/1 records; then check them with 'check'. Plays the "
                                   "rules forbid are listed on standard error. Exit status 0 when every "
                                   "line converted, 1 when some could not be read, 2 on a usage error.")
    p.add_argument("--from", dest="source", required=True, choices=SOURCES, help="the log's tool: jasskit")
    p.add_argument("file", metavar="FILE", help="the log file ('-' = standard input)")
    p.add_argument("-o", "--output", default="-", metavar="OUT", help="records file to write (default: "
                                                                       "standard output)")


def run(args: argparse.Namespace) -> int:
    """Run ``convert``; returns the exit status."""
    try:
        lines = _lines(args.file)
        result = convert_jasskit_log(lines, os.path.basename(args.file) if args.file != "-" else "stdin")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 2
    text = "".join(record_line(r) + "\n" for r in result.records)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    for message in result.unreadable:
        print(f"{args.file}: {message}", file=sys.stderr)
    for line, d, under_trump in result.disagreements:
        print(f"{args.file}: {describe(line, d, under_trump)}", file=sys.stderr)
    where = "standard output" if args.output == "-" else args.output
    print(f"{len(result.records)} games converted to {where}, {len(result.unreadable)} lines unreadable, "
          f"{len(result.disagreements)} plays the rules forbid", file=sys.stderr)
    return 1 if result.unreadable else 0


def _lines(path: str) -> Iterator[str]:
    if path == "-":
        return iter(sys.stdin.read().splitlines())
    with open(path, encoding="utf-8") as f:
        return iter(f.read().splitlines())


__all__ = ["convert_jasskit_log", "Conversion", "add_parser", "run", "describe"]
