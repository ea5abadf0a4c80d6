"""Records from jass-kit's game logs (docs/jasskit.md, docs/records.md)::

    python -m jass_env.records convert --from jasskit FILE [-o OUT [--overwrite]]

A jass-kit log (its ``Arena(save_filename=...)``, ``LogEntryFileGenerator``) has one game a line:
``{"game": GameState.to_json(), "date": ..., "player_ids": [...]}``. Each becomes one
``jass-record/1`` record in our seats (:mod:`jass_env.games.schieber.jasskit_map`), under the rules
jass-kit plays (preset ``tournament``: card points only), with jass-kit's trick winners and points
and its team points, so that ``python -m jass_env.records check`` compares them all with the engine.

A line that is no complete jass-kit game (not UTF-8, not JSON, a field missing or of the wrong type,
a card played twice, ...) is skipped with its line number and why; the other lines are converted.
What a converted game shows that the rules contradict is kept as the log has it and listed:

* plays that jass-kit allowed and the rules forbid (its under-trump: docs/jasskit.md), with their
  trick and position; ``check`` reports the first of each record as an illegal play (the replay
  stops there);
* tricks the log gives to another player than the rules (its ``win``, or the next trick's
  ``first``), with the trick's number and cards; ``check`` reports the winner, or the next trick
  led out of turn.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jass_env.commands import quiet_broken_pipe
from jass_env.engine.card_play import trick_winner_position
from jass_env.engine.cards import CONTRACTS, card_name
from jass_env.games.schieber.jasskit_map import (
    JASSKIT_RULES,
    JasskitFormatError,
    JasskitRound,
    JasskitTrick,
    read_jasskit_json,
    seat_to_jasskit,
)
from jass_env.games.schieber.seat_view import N_SEATS, N_TRICKS, RuleDisagreement, seat_position

from .check import numbered_lines
from .format import FORMAT, record_line, write_records

SOURCES = ("jasskit",)


@dataclass
class Conversion:
    """What converting a log gave: the records; the lines skipped, each with why; the tricks of
    converted games that the log gives to another player than the rules (line, trick, message);
    the plays the rules forbid (line, disagreement, an under-trump?). ``lines`` counts the
    non-blank lines read."""

    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    winner_faults: list[tuple[int, int, str]] = field(default_factory=list)
    disagreements: list[tuple[int, RuleDisagreement, bool]] = field(default_factory=list)
    lines: int = 0

    def summary(self, where: str) -> str:
        """The summary line: ``N of M lines converted to WHERE, K skipped; ...``."""
        return (f"{len(self.records)} of {self.lines} lines converted to {where}, {len(self.skipped)} "
                f"skipped; {len(self.disagreements)} plays the rules forbid, {len(self.winner_faults)} "
                f"tricks the rules give to another player")


def convert_jasskit_log(lines: Iterable[str | bytes], source: str = "jasskit") -> Conversion:
    """Convert the lines (text, or bytes read as UTF-8) of a jass-kit game log; ``source`` names the
    records (``id`` = ``"SOURCE:LINE"``). Blank lines are passed over; a line that cannot be
    converted, whatever it holds, is listed in ``skipped`` with why, and converting goes on."""
    out = Conversion()
    for n, text, decode_error in numbered_lines(lines):
        if decode_error is None and not text.strip():
            continue
        out.lines += 1
        if decode_error is not None:
            out.skipped.append((n, f"not UTF-8 text ({decode_error})"))
            continue
        try:
            jk = _read_line(text)
            record = _record(jk, f"{source}:{n}")
            faults, agreed = _winner_faults(jk)
            disagreements = _disagreements(jk, agreed)
        except JasskitFormatError as exc:
            out.skipped.append((n, str(exc)))
            continue
        except Exception as exc:  # noqa: BLE001 - one bad line must never stop the conversion
            out.skipped.append((n, f"internal error while converting this line ({type(exc).__name__}: "
                                   f"{str(exc)[:200]}); please report it with the line"))
            continue
        out.records.append(record)
        out.winner_faults += [(n, t, message) for t, message in faults]
        out.disagreements += [(n, d, _is_under_trump(jk, d)) for d in disagreements]
    return out


def _read_line(text: str) -> JasskitRound:
    """The game of one log line (a log entry ``{"game": ...}``, or a bare game state)."""
    try:
        entry = json.loads(text)
    except RecursionError:
        raise JasskitFormatError("not valid JSON: nested too deeply") from None
    except ValueError as exc:                       # json's errors are ValueErrors
        raise JasskitFormatError(f"not valid JSON: {exc}") from None
    game = entry["game"] if isinstance(entry, dict) and "game" in entry else entry
    return read_jasskit_json(game)


def _record(jk: JasskitRound, rid: str) -> dict[str, Any]:
    """The jass-record/1 record of a complete jass-kit game."""
    if jk.contract is None or len(jk.tricks) != N_TRICKS or any(len(t.cards) != N_SEATS for t in jk.tricks):
        raise JasskitFormatError(f"not a complete game: {len(jk.plays)} cards played, a game plays 36 "
                                 f"(with trump {'chosen' if jk.contract is not None else 'not chosen'})")
    first: dict[int, tuple[int, int]] = {}
    for t, trick in enumerate(jk.tricks, 1):
        for i, c in enumerate(trick.cards, 1):
            if c in first:
                raise JasskitFormatError(f"{card_name(c)} is played twice: trick {first[c][0]}, position "
                                         f"{first[c][1]} and trick {t}, position {i}")
            first[c] = (t, i)
    forehand = (jk.dealer + 1) % N_SEATS
    points = [0, 0]
    for t in jk.tricks:
        if t.winner is not None and t.points is not None:
            points[t.winner % 2] += t.points
    record: dict[str, Any] = {
        "format": FORMAT, "rules": JASSKIT_RULES, "id": rid, "dealer": jk.dealer, "forehand": forehand,
        "hands": [[card_name(c) for c in sorted(h)] for h in _dealt_hands(jk)], "pushed": jk.pushed,
        "declarer": (forehand + 2) % N_SEATS if jk.pushed else forehand, "contract": CONTRACTS[jk.contract],
        "tricks": [_trick(t) for t in jk.tricks]}
    if all(t.winner is not None and t.points is not None for t in jk.tricks):
        record["points"] = points
    return record


def _trick(t: JasskitTrick) -> dict[str, Any]:
    out: dict[str, Any] = {"leader": t.leader,
                           "plays": [[(t.leader + i) % N_SEATS, card_name(c)] for i, c in enumerate(t.cards)]}
    if t.winner is not None:
        out["winner"] = t.winner
    if t.points is not None:
        out["points"] = t.points
    return out


def _dealt_hands(jk: JasskitRound, after: int = 0) -> list[list[int]]:
    """Each player's cards from trick ``after + 1`` on, by the log's trick leaders: at 0 his dealt
    hand (a finished game's hands are empty; each of the 9 complete tricks gives him one card)."""
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    for t in jk.tricks[after:]:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % N_SEATS].append(c)
    return hands


def _player(seat: int) -> str:
    return f"player {seat} (its player {seat_to_jasskit(seat)})"


def _winner_faults(jk: JasskitRound) -> tuple[list[tuple[int, str]], int]:
    """The tricks of a complete game the log gives to another player than the rules (trick, message),
    and how many tricks from the first the log and the rules agree are led by the same players
    (after a trick the log gives another leader than its winner, who plays what follows the log)."""
    first = seat_position(JASSKIT_RULES, 0, _dealt_hands(jk)[0], dealer=jk.dealer, pushed=jk.pushed,
                          contract=jk.contract).view.leader
    if jk.tricks[0].leader != first:
        return [(1, f"trick 1: {_cards(jk.tricks[0])} led by {_player(jk.tricks[0].leader)}; the rules have "
                    f"{_player(first)} lead it")], 0
    faults = []
    for t, trick in enumerate(jk.tricks, 1):
        cards = np.array(trick.cards, dtype=np.int64)
        winner = (trick.leader + int(trick_winner_position(cards, N_SEATS, jk.contract))) % N_SEATS
        says = trick.winner if trick.winner is not None and trick.winner != winner else None
        next_leader = jk.tricks[t].leader if t < N_TRICKS else winner
        leads = next_leader if next_leader != winner else None
        claims = ([f"says {_player(says)} wins it"] if says is not None else []) + (
            [f"has {_player(leads)} lead trick {t + 1}"] if leads is not None else [])
        if says is not None and says == leads:
            claims = [f"says {_player(says)} wins it and leads trick {t + 1}"]
        if claims:
            faults.append((t, f"trick {t}: {_cards(trick)} led by {_player(trick.leader)}; the log "
                              f"{' and '.join(claims)}, the rules give it to {_player(winner)}"))
        if leads is not None:
            return faults, t
    return faults, N_TRICKS


def _cards(t: JasskitTrick) -> str:
    return " ".join(card_name(c) for c in t.cards)


def _disagreements(jk: JasskitRound, agreed: int) -> list[RuleDisagreement]:
    """The plays of the first ``agreed`` tricks the rules forbid, each judged from its player's own
    (known) hand."""
    plays = [c for t in jk.tricks[:agreed] for c in t.cards]
    if agreed == N_TRICKS:
        plays = plays[:-1]                   # the last card is forced; a seat view ends before it
    if not plays:
        return []
    later = _dealt_hands(jk, agreed)         # what each seat holds after those plays
    if agreed == N_TRICKS:
        last = jk.tricks[-1]
        later[(last.leader + N_SEATS - 1) % N_SEATS] = [jk.plays[-1]]
    found: dict[tuple[int, int], RuleDisagreement] = {}
    for seat in range(N_SEATS):
        pos = seat_position(JASSKIT_RULES, seat, later[seat], dealer=jk.dealer, pushed=jk.pushed,
                            contract=jk.contract, plays=plays)
        for d in pos.disagreements:
            if d.player == seat:
                found[(d.trick, d.position)] = d
    return [found[k] for k in sorted(found)]


def _is_under_trump(jk: JasskitRound, d: RuleDisagreement) -> bool:
    """Whether the play is a trump on a plain-suit lead (the under-trump jass-kit allows)."""
    lead = jk.tricks[d.trick - 1].cards[0] // 9
    return jk.contract is not None and jk.contract < 4 and d.card // 9 == jk.contract != lead


def describe(line: int, d: RuleDisagreement, under_trump: bool) -> str:
    """One line for a play jass-kit allowed and the rules forbid."""
    why = " (an under-trump: jass-kit compares with the lowest trump in the trick)" if under_trump else ""
    return (f"line {line}, trick {d.trick}, position {d.position}: rule disagreement: jass-kit let player "
            f"{d.player} (its player {seat_to_jasskit(d.player)}) play {card_name(d.card)}, which the rules "
            f"forbid{why}")


# command line
def add_parser(sub: Any) -> None:
    """The ``convert`` subcommand of ``python -m jass_env.records``."""
    p = sub.add_parser("convert", help="convert other tools' game logs into records",
                       description="Convert a jass-kit game log (one game a line, as its Arena saves them) "
                                   "into jass-record/1 records; then check them with 'check'. Lines that "
                                   "are no complete game are skipped, each named with why; plays the rules "
                                   "forbid and tricks the log gives to another player than the rules are "
                                   "listed; all on standard error. Exit status 0 when every line converted, "
                                   "1 when some were skipped, 2 on a usage error, an unreadable FILE or an "
                                   "OUT that cannot be written (then nothing is written).")
    p.add_argument("--from", dest="source", required=True, choices=SOURCES, help="the log's tool: jasskit")
    p.add_argument("file", metavar="FILE", help="the log file ('-' = standard input)")
    p.add_argument("-o", "--output", default="-", metavar="OUT",
                   help="records file to write (default: standard output); never FILE itself")
    p.add_argument("--overwrite", action="store_true", help="replace OUT if it exists (without it an "
                                                            "existing OUT is refused)")


def run(args: argparse.Namespace) -> int:
    """Run ``convert``; returns the exit status."""
    refusal = None if args.output == "-" else _output_refusal(args.file, args.output, args.overwrite)
    if refusal is not None:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    name = "stdin" if args.file == "-" else os.path.basename(args.file)
    try:
        if args.file == "-":
            result = convert_jasskit_log(sys.stdin.buffer, name)
        else:
            with open(args.file, "rb") as f:
                result = convert_jasskit_log(f, name)
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        if args.output == "-":
            with quiet_broken_pipe():          # the reader may stop early (``| head``)
                sys.stdout.writelines(record_line(r) + "\n" for r in result.records)
        else:
            write_records(args.output, result.records)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc.strerror or exc}; nothing was written",
              file=sys.stderr)
        return 2
    for line, why in result.skipped:
        print(f"{args.file}: line {line}: skipped: {why}", file=sys.stderr)
    for line, _, message in result.winner_faults:
        print(f"{args.file}: line {line}, {message}", file=sys.stderr)
    for line, d, under_trump in result.disagreements:
        print(f"{args.file}: {describe(line, d, under_trump)}", file=sys.stderr)
    print(result.summary("standard output" if args.output == "-" else args.output), file=sys.stderr)
    return 1 if result.skipped else 0


def _output_refusal(source: str, output: str, overwrite: bool) -> str | None:
    """Why ``-o OUT`` may not be written (None when it may): the log itself (by any path or link, or
    as standard input), a folder, or an existing file without ``--overwrite``."""
    if not os.path.exists(output):
        return None
    try:
        log = os.fstat(sys.stdin.fileno()) if source == "-" else os.stat(source)
    except (OSError, ValueError):      # no log to compare with (a closed standard input, a missing FILE)
        log = None
    if log is not None and stat.S_ISREG(log.st_mode) and os.path.samestat(log, os.stat(output)):
        return (f"-o {output} is the log being converted ({source}); writing the records there would "
                f"destroy it: give another OUT")
    if os.path.isdir(output):
        return f"-o {output} is a folder; give the records file's name"
    if os.path.isfile(output) and not overwrite:
        return f"{output} exists; pass --overwrite to replace it, or give another OUT"
    return None


__all__ = ["convert_jasskit_log", "Conversion", "add_parser", "run", "describe"]
