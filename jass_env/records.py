"""Game records (docs/records.md): write the rounds the engine plays, check records written by anyone.

The format
----------
A record is one dealt hand (deal, bidding, every play) as one JSON object; a file of records is
JSON Lines (one object a line, UTF-8). Cards are written ``"H9"``, ``"C10"``, players are
0..n-1 in play order, contracts are ``D H S C obenabe undenufe``. The ``rules`` preset decides the
game and so how the rest is read. Fields::

    format        "jass-record/1" (optional; any other value is refused)
    rules         preset name (optional, default "schieber"); rule_overrides: switches on top
    id            any JSON value naming the record in messages (optional)
    dealer, forehand, hands[n][hand size]                           (required)
    Schieber:     pushed, declarer, contract                        (required; team = player % 2)
    Differenzler: predictions[n] (required), trump_card (bottom_card) or trump (random_suit)
    Coiffeur:     pushes (players in order), declarer, row (label), contract (a Joker row's
                  contract; "slalom_O" ...) (required); factor, row_score, sheets_before
                  ({"0": {row: value}, "1": {...}}, the rows written before this deal) (optional)
    Mittlere, Molotow: nothing more (trump is fixed by the first discard)
    Sidi:         trump_card (the card turned face up), stock (the 20 undealt cards, top first, the
                  trump card last) (required); exchange ({"trick": t from 1} or null, optional)
    tricks        one per trick: {"leader": p, "plays": [[player, card, legal?] x n],
                  "winner"?, "points"?}
    Schieber:     weis, stoeck, points[2], match_team, score[2]      (optional)
    Differenzler: points[n], penalties[n]                            (optional)
    Coiffeur:     weis, stoeck, points[2], match_team, score[2]      (optional; as Schieber)
    Mittlere, Molotow: trump (suit or null), trump_fixed ({"trick": t from 1, "position": i from
                  0} or null), points[n]; Mittlere result[n] (Striche − Nullen); Molotow
                  hand_weis, table_weis ([{"player", "trick"?, "cards", "points"}]), stoeck
                  (player or null), score[n]                         (optional)
    Sidi:         weis, stoeck, points[2], score[2]                  (optional)

:func:`record_of` writes the record of a finished :class:`~jass_env.game.Round`, every optional
field included (``legal`` is the engine's legal card list before each play, found by replaying the
round from its dealt hands). :func:`write_records` writes or appends JSON Lines.

The checker
-----------
:func:`check_records` reads JSON Lines and checks each record in two stages:

1. *Structure*: JSON, required fields and their types, player numbers 0..n-1, ``forehand`` ==
   ``(dealer + 1) % n``, n hands of the game's size of distinct cards of the game's deck (the 36;
   ``molotow5``: without the ♠7), ``declarer`` consistent with ``pushed`` and a contract the
   rules allow (Schieber), the predictions 0..157 and the trump card in the dealer's hand
   (Differenzler), the game's number of tricks of n plays, each play by the
   player whose turn it is (trick 1 led by the player the rules name) and holding the card, every
   card played once, the types of the optional fields, the ``rules``/``rule_overrides`` fields
   (``format`` must be ``"jass-record/1"``). A malformed record gets one message, for the first
   problem found, and is not replayed.
2. *Replay* with the engine (:mod:`jass_env.game`, the single source of truth): each trick must be
   led by the winner of the previous one as the engine computes it, each play must be legal (an
   illegal play is reported and ends the replay of that record, since the state after it is
   undefined), and every optional field present is compared: each play's ``legal`` set, each
   trick's ``winner`` and ``points``, then ``weis`` (a multiset of (player, set of cards, points)),
   ``stoeck``, ``points``, ``match_team`` and ``score`` (Differenzler: ``points``, ``penalties``).

Each problem is one :class:`Finding`, printed as one line such as::

    record "r7" (line 7), trick 6, position 4: illegal play: record says player 0 plays D9,
    engine computes legal [S10]; the replay stops here

(all on one line; ``record at line 7`` when the record has no ``id``). Checking never stops at a
bad record; the :class:`CheckReport` counts records and records that disagree (an unreadable record
disagrees).

Command line::

    python -m jass_env.records check FILE [--rules PRESET]

prints the findings, then one summary line ``N records, M disagree``; exit status 0 when every
record agrees, 1 otherwise, 2 for a usage error or an unreadable file. ``--rules`` replaces each
record's ``rules`` field (its ``rule_overrides`` still apply on top).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import ALL_CARDS_MASK, CONTRACTS, SUITS, card_id, card_name, names_of
from .commands import module_command, quiet_broken_pipe
from .game import Round
from .rules import PRESETS, Rules, RulesError, make_rules
from .spec import KIND_MITTLERE, KIND_MOLOTOW, KIND_SIDI, ROUND_POINTS, TEAMS_NONE, GameSpec

FORMAT = "jass-record/1"
DEFAULT_PRESET = "schieber"
#: the fields every record of a game must have, by how the game bids
REQUIRED_FIELDS = {"contract": ("dealer", "forehand", "hands", "pushed", "declarer", "contract", "tricks"),
                   "prediction": ("dealer", "forehand", "hands", "predictions", "tricks"),
                   # ---- Coiffeur (issue 15)
                   "declaration": ("dealer", "forehand", "hands", "pushes", "declarer", "row", "contract",
                                   "tricks"),
                   "none": ("dealer", "forehand", "hands", "tricks")}
# ---- Sidi: the turned card and the stock are part of the deal
SIDI_REQUIRED_FIELDS = ("dealer", "forehand", "hands", "trump_card", "stock", "tricks")
#: the games whose sides are two teams (Schieber's outcome fields)
_TEAM_BIDDINGS = ("contract", "declaration")

__all__ = ["FORMAT", "record_of", "record_line", "write_records", "check_records", "CheckReport",
           "Finding", "main"]


# ====================================================================================== writing
def record_of(round: Round, id: Any = None) -> dict[str, Any]:  # noqa: A002 (the format's name)
    """The JSON record (a dict) of a finished round, every optional field included.

    ``id`` (any JSON value) is written when not None. Raises ValueError for a round that has not
    played all 9 tricks (still in play, or cut short because its match was decided mid-round).
    """
    n_tricks = round.spec.tricks
    if not round.is_over or round.trick_number < n_tricks:
        raise ValueError(f"a record needs a finished round (all {n_tricks} tricks played); this round "
                         f"is in phase {round.phase!r} after {round.trick_number} tricks"
                         + (" (its match was decided during the round)" if round.is_over else ""))
    rules = round.rules
    record: dict[str, Any] = {"format": FORMAT,
                              "rules": rules.name if rules.name in PRESETS else DEFAULT_PRESET}
    overrides = rules.overrides()
    if overrides:
        record["rule_overrides"] = overrides
    if id is not None:
        record["id"] = id
    hands = [round.dealt_hand(p) for p in range(round.spec.players)]
    record.update(dealer=round.dealer, forehand=round.forehand, hands=hands)
    sheets = stock = None
    trump_card = trump = None
    exchange_trick = 0
    if round.spec.kind == KIND_SIDI:               # ---- Sidi: the stock and the exchange
        stock = round.stock
        exchange_trick = round.exchange["trick"] if round.exchange else 0
        record.update(trump_card=round.trump_card, stock=stock,
                      exchange={"trick": exchange_trick} if exchange_trick else None)
    elif round.spec.bidding == "contract":
        record.update(pushed=round.pushed, declarer=round.declarer, contract=round.contract)
    elif round.spec.bidding == "declaration":     # ---- Coiffeur (issue 15)
        sheets = _sheets_before(round)
        record.update(pushes=round.pushes, declarer=round.declarer, row=round.row, factor=round.factor,
                      contract=round.declared_game, row_score=round.row_score, sheets_before=sheets)
    elif round.spec.bidding == "prediction":
        trump_card, trump = _trump_fields(round)
        record.update({"trump_card": trump_card} if trump_card is not None else {"trump": trump})
        record["predictions"] = round.predictions

    # the legal sets: replay the round from its dealt hands, reading the legal cards before each play
    replay = _start_replay(rules, hands, round.dealer, _bidding_of(round), trump_card, trump, sheets, stock)
    tricks = []
    for t, trick in enumerate(round.tricks, 1):
        plays = []
        for player, card in trick["plays"]:
            if t == exchange_trick and not plays:
                replay.step(SIDI_EXCHANGE)
            plays.append([player, card, names_of(_legal_cards(replay))])
            replay.step(card)
        tricks.append({"leader": trick["leader"], "plays": plays, "winner": trick["winner"],
                       "points": trick["points"]})
    record["tricks"] = tricks
    record.update(_outcome(round))
    return record


def record_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON (UTF-8 text, no trailing newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]], *,
                  append: bool = False) -> int:
    """Write records to a JSON Lines file (``append=True`` adds to its end); returns the count."""
    n = 0
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        for record in records:
            f.write(record_line(record) + "\n")
            n += 1
    return n


# ====================================================================================== engine glue
def _start_replay(rules: Rules, hands: Sequence[Any], dealer: int, bidding: Sequence[str],
                  trump_card: str | None = None, trump: str | None = None, sheets: Any = None,
                  stock: Sequence[str] | None = None) -> Round:
    """A fresh round on the given deal (Differenzler: with its trump; Coiffeur: from ``sheets``;
    Sidi: with its ``stock``), the bidding actions applied: Schieber's push and contract,
    Differenzler's predictions in turn, or Coiffeur's pushes and declaration."""
    r = Round(rules, hands=hands, dealer=dealer, seed=0, trump_card=trump_card, trump=trump)
    if sheets is not None:
        r.set_sheets(sheets)
    if stock is not None:
        r.set_stock(stock)
    for action in bidding:
        r.step(action)
    return r


def _bidding_of(r: Round) -> list[str]:
    """The bidding actions of a round, in order."""
    if r.spec.bidding == "contract":
        return (["push"] if r.pushed else []) + [r.contract]
    if r.spec.bidding == "declaration":
        return ["push"] * len(r.pushes) + [_declaration_action(r.row, r.declared_game)]
    if r.spec.bidding == "none":
        return []
    n = r.spec.players
    return [f"predict {r.predictions[(r.forehand + k) % n]}" for k in range(n)]


def _trump_fields(r: Round) -> tuple[str | None, str | None]:
    """Differenzler: (trump_card, None) under bottom_card, (None, trump suit) under random_suit."""
    if r.rules.trump_mode == "bottom_card":
        return r.trump_card, None
    return None, r.contract


def _legal_cards(r: Round) -> int:
    """The engine's legal cards for the player to move, as a card mask."""
    return r.legal_mask() & ALL_CARDS_MASK


def _outcome(r: Round) -> dict[str, Any]:
    """The optional end-of-round fields of a finished round, as the engine computes them."""
    if r.spec.bidding == "prediction":
        return {"points": r.points, "penalties": r.penalties}
    if r.spec.bidding == "declaration":           # ---- Coiffeur: Schieber's fields and the row
        return {"weis": r.weis(), "stoeck": r.stoeck_player if r.stoeck_shown else None,
                "points": r.points, "match_team": r.match_team, "score": r.score, "factor": r.factor,
                "row_score": r.row_score}
    if r.spec.kind == KIND_SIDI:                  # ---- Sidi: Schieber's fields, one player a side
        return {"weis": r.weis(), "stoeck": r.stoeck_player if r.stoeck_shown else None,
                "points": r.points, "score": r.score}
    if r.spec.bidding == "none":
        return _discard_outcome(r)
    return {"weis": r.weis(), "stoeck": r.stoeck_player if r.stoeck_shown else None,
            "points": r.points, "match_team": r.match_team, "score": r.score}


# ====================================================================================== report
@dataclass(frozen=True)
class Finding:
    """One problem with one record: a disagreement with the engine or malformed input.

    ``record_id`` is the record's ``id`` rendered as JSON (None when it has none); ``trick`` and
    ``position`` are 1-based where the problem has a place in the play.
    """

    line: int
    record_id: str | None
    text: str
    trick: int | None = None
    position: int | None = None
    malformed: bool = False

    def __str__(self) -> str:
        where = (f"record {self.record_id} (line {self.line})" if self.record_id is not None
                 else f"record at line {self.line}")
        if self.trick is not None:
            where += f", trick {self.trick}"
        if self.position is not None:
            where += f", position {self.position}"
        return f"{where}: {self.text}"


@dataclass
class CheckReport:
    """The result of :func:`check_records`: counts and every finding, in input order."""

    records: int = 0
    disagreeing: int = 0
    unreadable: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.disagreeing == 0

    def summary(self) -> str:
        """The summary line: ``N records, M disagree``."""
        return f"{self.records} records, {self.disagreeing} disagree"

    def lines(self) -> list[str]:
        """The findings, one line each, then the summary line."""
        return [str(f) for f in self.findings] + [self.summary()]


# ====================================================================================== checking
class _Malformed(Exception):
    """A record that cannot be read or replayed; ends the check of that record."""

    def __init__(self, text: str, trick: int | None = None, position: int | None = None) -> None:
        super().__init__(text)
        self.text, self.trick, self.position = text, trick, position


@dataclass
class _Trick:
    leader: int
    plays: list[tuple[int, int, int | None]]   # (player, card id, legal mask or None)
    winner: int | None
    points: int | None


@dataclass
class _Record:
    rules: Rules
    dealer: int
    hands: list[int]                            # dealt hands as card masks
    bidding: list[str]                          # the bidding actions (push, contract; predictions)
    trump_card: str | None                      # Differenzler's trump (bottom_card / random_suit)
    trump: str | None
    tricks: list[_Trick]
    outcome: dict[str, Any]                     # optional end-of-round fields present, parsed
    sheets: Any = None                          # Coiffeur: the sheets before the deal
    stock: list[str] | None = None              # Sidi: the stock, top first
    exchange: int = 0                           # Sidi: the trick (from 1) of the exchange, 0 none


def check_records(path_or_lines: str | os.PathLike[str] | Iterable[str | bytes],
                  rules: str | Rules | None = None) -> CheckReport:
    """Check every record of a JSON Lines file (a path) or of an iterable of lines.

    ``rules`` (a preset name or a Rules object), when given, replaces each record's ``rules`` field;
    the record's ``rule_overrides`` still apply on top. Blank lines are skipped. Raises OSError
    when the file cannot be opened and RulesError for an unknown preset in ``rules``; problems in
    the records themselves are never raised, they are findings of the returned report.
    """
    explicit = make_rules(rules) if rules is not None else None
    report = CheckReport()
    cache: dict[tuple[str, str], Rules] = {}
    for line_no, text, decode_error in _numbered_lines(path_or_lines):
        if decode_error is None and not text.strip():
            continue
        report.records += 1
        if decode_error is not None:
            findings = [Finding(line_no, None, f"not UTF-8 text ({decode_error})", malformed=True)]
            readable = False
        else:
            findings, readable = _check_line(text, line_no, explicit, cache)
        report.findings.extend(findings)
        if findings:
            report.disagreeing += 1
        if not readable:
            report.unreadable += 1
    return report


def _numbered_lines(source: str | os.PathLike[str] | Iterable[str | bytes],
                    ) -> Iterator[tuple[int, str, UnicodeDecodeError | None]]:
    """(1-based line number, text, decoding error or None) of a file or an iterable of lines."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from _numbered_lines(f)
        return
    for i, raw in enumerate(source, 1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8-sig" if i == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                yield i, "", exc
                continue
        yield i, raw.removeprefix("\ufeff") if i == 1 else raw, None


def _check_line(text: str, line: int, explicit: Rules | None,
                cache: dict[tuple[str, str], Rules]) -> tuple[list[Finding], bool]:
    """Findings of one line and whether the record was readable (well-formed)."""
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        at = "at the end of the line" if exc.pos >= len(text.rstrip()) else f"at character {exc.pos + 1}"
        return [Finding(line, None, f"not valid JSON: {exc.msg} {at}", malformed=True)], False
    except (ValueError, RecursionError) as exc:
        return [Finding(line, None, f"not valid JSON: {exc}", malformed=True)], False
    if not isinstance(obj, dict):
        return [Finding(line, None, f"a record is a JSON object {{...}}, got {_kind(obj)}",
                        malformed=True)], False
    rid = _render_id(obj.get("id"))
    findings: list[Finding] = []

    def report(text: str, trick: int | None = None, position: int | None = None) -> None:
        findings.append(Finding(line, rid, text, trick, position))

    try:
        record = _parse(obj, explicit, cache)
    except _Malformed as exc:
        return [Finding(line, rid, exc.text, exc.trick, exc.position, malformed=True)], False
    try:
        _replay(record, report)
    except Exception as exc:  # noqa: BLE001 - one bad record must never stop the run
        report(f"internal error while replaying this record ({type(exc).__name__}: {exc}); "
               f"please report it with the record")
    return findings, True


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r} in a JSON object")
        out[k] = v
    return out


def _render_id(value: Any) -> str | None:
    if value is None:
        return None
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    """A short description of a JSON value for messages: its type and (short) text."""
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
             dict: "object", type(None): "null"}
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{names.get(type(value), type(value).__name__)} {text}"


def _show_cards(mask: int) -> str:
    return "[" + ", ".join(names_of(mask)) + "]"


# -------------------------------------------------------------------------------------- structure
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _player(value: Any, what: str, n: int, trick: int | None = None, position: int | None = None) -> int:
    if not _is_int(value) or not 0 <= value < n:
        raise _Malformed(f"{what} must be a player number 0..{n - 1}, got {_kind(value)}", trick, position)
    return value


def _int(value: Any, what: str, trick: int | None = None) -> int:
    if not _is_int(value):
        raise _Malformed(f"{what} must be an integer, got {_kind(value)}", trick)
    return value


def _card(value: Any, what: str, trick: int | None = None, position: int | None = None) -> int:
    """A card id from its canonical name (``"H9"``, ``"C10"``)."""
    if isinstance(value, str):
        try:
            c = card_id(value)
        except ValueError:
            c = -1
        if c >= 0 and card_name(c) == value:
            return c
    raise _Malformed(f"{what}: {_kind(value)} is not a card; cards are a suit letter D H S C then a "
                     f"rank 6 7 8 9 10 J Q K A, e.g. \"H9\", \"C10\"", trick, position)


def _card_set(value: Any, what: str, trick: int | None = None, position: int | None = None) -> int:
    """A list of distinct cards as a card mask."""
    if not isinstance(value, list):
        raise _Malformed(f"{what} must be a list of cards, got {_kind(value)}", trick, position)
    mask = 0
    for v in value:
        c = _card(v, what, trick, position)
        if mask >> c & 1:
            raise _Malformed(f"{what} lists {v} twice; a card appears once", trick, position)
        mask |= 1 << c
    return mask


def _resolve_rules(obj: dict[str, Any], explicit: Rules | None,
                   cache: dict[tuple[str, str], Rules]) -> Rules:
    """The rules a record is checked under: its preset (or the explicit one) plus its overrides."""
    overrides = obj.get("rule_overrides", {})
    if not isinstance(overrides, dict):
        raise _Malformed(f"rule_overrides must be an object of rule switches, got {_kind(overrides)}")
    if explicit is not None:
        base: Rules | str = explicit
        key = f"explicit:{id(explicit)}"
    else:
        base = obj.get("rules", DEFAULT_PRESET)
        if not isinstance(base, str):
            raise _Malformed(f"rules must be a preset name ({', '.join(PRESETS)}), got {_kind(base)}")
        if base not in PRESETS:
            raise _Malformed(f"unknown rules preset {base!r}; valid presets: {', '.join(PRESETS)}")
        key = base
    cache_key = (key, json.dumps(overrides, sort_keys=True))
    if cache_key not in cache:
        try:
            cache[cache_key] = make_rules(base, **overrides)
        except RulesError as exc:
            raise _Malformed(f"bad rule_overrides: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise _Malformed(f"bad rule_overrides {_kind(overrides)}: a switch has a value of the wrong "
                             f"type ({exc}); docs/rules.md lists each switch's values") from None
    return cache[cache_key]


def _parse(obj: dict[str, Any], explicit: Rules | None, cache: dict[tuple[str, str], Rules]) -> _Record:
    """Validate the structure of a record (stage 1); raises _Malformed at the first problem."""
    if "format" in obj and obj["format"] != FORMAT:
        raise _Malformed(f"unsupported format {_kind(obj['format'])}; this reader reads \"{FORMAT}\"")
    rules = _resolve_rules(obj, explicit, cache)
    spec = rules.spec
    required = SIDI_REQUIRED_FIELDS if spec.kind == KIND_SIDI else REQUIRED_FIELDS[spec.bidding]
    missing = [k for k in required if k not in obj]
    if missing:
        raise _Malformed(f"missing required field(s) {', '.join(missing)}; every {spec.name} record has "
                         f"{', '.join(required)}")
    n = spec.players
    dealer = _player(obj["dealer"], "dealer", n)
    forehand = _player(obj["forehand"], "forehand", n)
    if forehand != (dealer + 1) % n:
        raise _Malformed(f"forehand is player {forehand}, but with dealer {dealer} it must be the next "
                         f"player, {(dealer + 1) % n}")
    hands = _parse_hands(obj["hands"], spec)
    trump_card = trump = sheets = stock = None
    exchange = drawable = 0
    if spec.kind == KIND_SIDI:                     # ---- Sidi: the stock and the exchange
        bidding = []
        stock, exchange = _parse_sidi_deal(obj, hands)
        trump_six = card_id(stock[-1][0] + "6")          # may pass from one hand to the other
        drawable = _card_set(stock, "stock") | 1 << trump_six
    elif spec.bidding == "contract":
        bidding = _parse_contract(obj, rules, forehand)
    elif spec.bidding == "declaration":            # ---- Coiffeur (issue 15)
        bidding, sheets = _parse_declaration(obj, rules)
        _check_declaration(rules, hands, dealer, bidding, sheets, obj["declarer"])
    elif spec.bidding == "prediction":
        bidding = _parse_predictions(obj["predictions"], n, forehand)
        trump_card, trump = _parse_trump(obj, rules, hands, dealer)
    else:                                             # Mittlere, Molotow: card play at once
        bidding = []
    # who leads trick 1 is the engine's to say (forehand, or after a push maybe the declarer)
    first_leader = _start_replay(rules, hands, dealer, bidding, trump_card, trump, sheets, stock).leader
    tricks = _parse_tricks(obj["tricks"], hands, first_leader, n, spec.tricks, drawable)
    return _Record(rules, dealer, hands, bidding, trump_card, trump, tricks, _parse_outcome(obj, rules),
                   sheets, stock, exchange)


def _parse_contract(obj: dict[str, Any], rules: Rules, forehand: int) -> list[str]:
    """Schieber's pushed, declarer and contract, as the bidding actions."""
    pushed = obj["pushed"]
    if not isinstance(pushed, bool):
        raise _Malformed(f"pushed must be true or false, got {_kind(pushed)}")
    if pushed and not rules.push:
        raise _Malformed(f"the record pushes, but rules {rules.name!r} have no push")
    n = rules.spec.players
    declarer = _player(obj["declarer"], "declarer", n)
    expected = (forehand + 2) % n if pushed else forehand
    if declarer != expected:
        raise _Malformed(f"declarer is player {declarer}, but with forehand {forehand} and pushed "
                         f"{str(pushed).lower()} it must be player {expected}")
    contract = obj["contract"]
    if contract not in CONTRACTS:
        raise _Malformed(f"unknown contract {_kind(contract)}; contracts: {', '.join(CONTRACTS)}")
    if contract not in rules.contracts:
        raise _Malformed(f"contract {contract!r} is not allowed by rules {rules.name!r}; allowed: "
                         f"{', '.join(rules.contracts)}")
    return (["push"] if pushed else []) + [contract]


def _parse_predictions(value: Any, n: int, forehand: int) -> list[str]:
    """Differenzler's predictions (indexed by player) as the bidding actions, forehand first."""
    if not isinstance(value, list) or len(value) != n or not all(_is_int(v) for v in value):
        raise _Malformed(f"predictions must be a list of {n} integers (predictions[p] for player p), "
                         f"got {_kind(value)}")
    for p, v in enumerate(value):
        if not 0 <= v <= ROUND_POINTS:
            raise _Malformed(f"predictions[{p}] is {v}; a prediction is 0..{ROUND_POINTS} points")
    return [f"predict {value[(forehand + k) % n]}" for k in range(n)]


def _parse_trump(obj: dict[str, Any], rules: Rules, hands: list[int],
                 dealer: int) -> tuple[str | None, str | None]:
    """Differenzler's trump: ``trump_card`` (bottom_card, a card of the dealer's hand) or ``trump``
    (random_suit, a suit letter)."""
    if rules.trump_mode == "bottom_card":
        if "trump_card" not in obj:
            raise _Malformed("missing required field trump_card (the dealer's card that shows trump "
                             "under trump_mode bottom_card)")
        card = _card(obj["trump_card"], "trump_card")
        if not hands[dealer] >> card & 1:
            raise _Malformed(f"trump_card {obj['trump_card']} is not in the dealer's hand hands[{dealer}]")
        return obj["trump_card"], None
    trump = obj.get("trump")
    if trump not in SUITS:
        raise _Malformed(f"trump must be a suit letter {' '.join(SUITS)} under trump_mode random_suit, "
                         f"got {_kind(trump)}")
    return None, trump


# ---- Coiffeur (issue 15)
def _sheets_before(r: Round) -> dict[str, dict[str, int]]:
    """The rows both teams had written before this deal (its own row taken out)."""
    out = {}
    for t, sheet in enumerate(r.sheets):
        out[str(t)] = {label: v for label, v in sheet.items()
                       if v is not None and not (t == r.declarer % 2 and label == r.row)}
    return out


def _declaration_action(row: str, game: str) -> str:
    """The action name that declares ``row`` playing ``game`` (RECORDS.md's names)."""
    if row.startswith("Joker"):
        return f"declare {row} as {game}"
    if row in ("Slalom", "Guschti"):
        return f"declare {row} from {'obenabe' if game.endswith('_O') else 'undenufe'}"
    return f"declare {game}"


#: the contracts a row may play: its own contract, any for a Joker row, a direction for the others
_ROW_GAMES = {**{row: (c,) for row, c in zip(("D", "H", "S", "C", "Obenabe", "Undenufe"), CONTRACTS)},
              "Joker-1": CONTRACTS, "Joker-2": CONTRACTS, "Slalom": ("slalom_O", "slalom_U"),
              "Guschti": ("guschti_O", "guschti_U")}


def _parse_declaration(obj: dict[str, Any], rules: Rules) -> tuple[list[str], dict[str, Any] | None]:
    """Coiffeur's pushes, declarer, row and contract as the bidding actions, and sheets_before."""
    n = rules.spec.players
    pushes = obj["pushes"]
    if not isinstance(pushes, list):
        raise _Malformed(f"pushes must be a list of players (in the order they pushed), got {_kind(pushes)}")
    for p in pushes:
        _player(p, "a player in pushes", n)
    _player(obj["declarer"], "declarer", n)
    rows = rules.spec.rows
    row = obj["row"]
    if row not in rows:
        raise _Malformed(f"unknown row {_kind(row)}; rows of {rules.name}: {', '.join(rows)}")
    game = obj["contract"]
    if game not in _ROW_GAMES[row]:
        raise _Malformed(f"row {row!r} cannot play contract {_kind(game)}; it plays "
                         f"{', '.join(_ROW_GAMES[row])}")
    sheets = obj.get("sheets_before")
    if sheets is not None:
        if not isinstance(sheets, dict) or set(sheets) - {"0", "1"}:
            raise _Malformed(f"sheets_before must be an object {{'0': {{row: value}}, '1': {{...}}}}, "
                             f"got {_kind(sheets)}")
        for team, sheet in sheets.items():
            if not isinstance(sheet, dict) or any(k not in rows or not _is_int(v) for k, v in sheet.items()):
                raise _Malformed(f"sheets_before[{team!r}] must map rows of {rules.name} ({', '.join(rows)}) "
                                 f"to integers, got {_kind(sheet)}")
    return ["push"] * len(pushes) + [_declaration_action(row, game)], sheets


def _check_declaration(rules: Rules, hands: list[int], dealer: int, bidding: list[str],
                       sheets: dict[str, Any] | None, declarer: int) -> None:
    """The pushes and the declaration must be the turns and legal actions the engine allows."""
    r = Round(rules, hands=hands, dealer=dealer, seed=0)
    if sheets is not None:
        r.set_sheets(sheets)
    for k, action in enumerate(bidding):
        if not r.phase == "contract" or not r.legal_mask() >> r.parse_action(action) & 1:
            legal = ", ".join(r.spec.action_names[int(a)] for a in r.legal_actions())
            raise _Malformed(f"declaration: {action!r} by player {r.to_move} (step {k + 1}) is not legal "
                             f"with these sheets; legal: {legal}")
        r.step(action)
    if r.declarer != declarer:
        raise _Malformed(f"declarer is player {declarer}, but after the recorded pushes the engine's "
                         f"declarer is player {r.declarer}")


def _parse_hands(value: Any, spec: GameSpec) -> list[int]:
    """The hands of a record as masks: one per player, of the game's hand size, each card of the
    game's deck (Molotow for five: without the ♠7) at most once."""
    n, hand_size, deck = spec.players, spec.hand_size, spec.deck
    if not isinstance(value, list) or len(value) != n:
        raise _Malformed(f"hands must be a list of {n} hands (hands[p] for player p), got {_kind(value)}")
    masks: list[int] = []
    for p, hand in enumerate(value):
        m = _card_set(hand, f"hands[{p}]")
        if m.bit_count() != hand_size:
            raise _Malformed(f"hands[{p}] has {m.bit_count()} cards; each hand has {hand_size}")
        if m & ~deck:
            raise _Malformed(f"hands[{p}] holds {' '.join(names_of(m & ~deck))}, which is not in the "
                             f"{spec.name} deck (the 36 cards without {' '.join(spec.removed)})")
        for q, other in enumerate(masks):
            if other & m:
                common = names_of(other & m)[0]
                raise _Malformed(f"{common} is in hands[{q}] and hands[{p}]; each of the "
                                 f"{deck.bit_count()} cards is dealt once")
        masks.append(m)
    return masks


def _parse_tricks(value: Any, hands: list[int], first_leader: int, players: int,
                  n_tricks: int, drawable: int = 0) -> list[_Trick]:
    """The tricks, each play by the player whose turn it is with a card of his hand or of
    ``drawable`` (Sidi: the stock's cards, which anyone may draw, and the exchanged trump 6)."""
    if not isinstance(value, list) or len(value) != n_tricks:
        n = f"{len(value)} tricks" if isinstance(value, list) else _kind(value)
        raise _Malformed(f"tricks must be a list of {n_tricks} tricks, got {n}")
    played: dict[int, tuple[int, int]] = {}
    tricks = []
    for t, trick in enumerate(value, 1):
        if not isinstance(trick, dict):
            raise _Malformed(f"a trick is an object {{\"leader\", \"plays\", ...}}, got {_kind(trick)}", t)
        for key in ("leader", "plays"):
            if key not in trick:
                raise _Malformed(f"missing required field {key!r} of the trick", t)
        leader = _player(trick["leader"], "leader", players, t)
        if t == 1 and leader != first_leader:
            raise _Malformed(f"play out of turn: trick 1 is led by player {leader}, but under these "
                             f"rules player {first_leader} leads it", t)
        plays_in = trick["plays"]
        if not isinstance(plays_in, list) or len(plays_in) != players:
            n = f"{len(plays_in)} plays" if isinstance(plays_in, list) else _kind(plays_in)
            raise _Malformed(f"plays must be a list of {players} plays [player, card, legal], got {n}", t)
        plays = []
        for i, play in enumerate(plays_in, 1):
            if not isinstance(play, list) or len(play) not in (2, 3):
                raise _Malformed(f"a play is [player, card] or [player, card, legal], got {_kind(play)}",
                                 t, i)
            player = _player(play[0], "the player of a play", players, t, i)
            card = _card(play[1], "the card of a play", t, i)
            legal = None if len(play) == 2 or play[2] is None else _card_set(play[2], "legal", t, i)
            turn = (leader + i - 1) % players
            if player != turn:
                raise _Malformed(f"play out of turn: player {player} plays {play[1]}, but after leader "
                                 f"{leader} it is player {turn}'s turn", t, i)
            if not (hands[player] | drawable) >> card & 1:
                where = " nor can be drawn" if drawable else ""
                raise _Malformed(f"player {player} plays {play[1]}, which is not in hands[{player}]{where}",
                                 t, i)
            if card in played:
                pt, pi = played[card]
                raise _Malformed(f"{play[1]} is played a second time (first at trick {pt}, position "
                                 f"{pi})", t, i)
            played[card] = (t, i)
            plays.append((player, card, legal))
        winner = (_player(trick["winner"], "winner", players, t) if trick.get("winner") is not None
                  else None)
        points = _int(trick["points"], "points", t) if trick.get("points") is not None else None
        tricks.append(_Trick(leader, plays, winner, points))
    return tricks


def _parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present in the record, type-checked."""
    spec = rules.spec
    out: dict[str, Any] = {}
    schieber_fields = spec.bidding in _TEAM_BIDDINGS or spec.kind == KIND_SIDI   # Sidi: weis, stoeck
    if schieber_fields and "weis" in obj:
        weis = obj["weis"]
        if not isinstance(weis, list):
            raise _Malformed(f"weis must be a list of {{\"player\", \"cards\", \"points\"}}, "
                             f"got {_kind(weis)}")
        for w in weis:
            if not isinstance(w, dict) or any(k not in w for k in ("player", "cards", "points")):
                raise _Malformed(f"a Weis is an object {{\"player\", \"cards\", \"points\"}}, got {_kind(w)}")
            _player(w["player"], "the player of a Weis", spec.players)
            _card_set(w["cards"], "the cards of a Weis")
            _int(w["points"], "the points of a Weis")
        out["weis"] = weis
    if schieber_fields and "stoeck" in obj:
        if obj["stoeck"] is not None:
            _player(obj["stoeck"], "stoeck", spec.players)
        out["stoeck"] = obj["stoeck"]
    if spec.bidding == "none" and spec.kind != KIND_SIDI:
        out.update(_parse_discard_outcome(obj, rules))
    per_side = {"contract": ("points", "score"), "declaration": ("points", "score"),
                "prediction": ("points", "penalties"),
                "none": ("points", "result" if spec.kind == KIND_MITTLERE else "score")}[spec.bidding]
    side_names = "one per player" if spec.teams == TEAMS_NONE else "[team0, team1]"
    for key in per_side:
        if key in obj:
            v = obj[key]
            if not isinstance(v, list) or len(v) != spec.sides or not all(_is_int(x) for x in v):
                raise _Malformed(f"{key} must be a list of {spec.sides} integers {side_names}, "
                                 f"got {_kind(v)}")
            out[key] = v
    if spec.bidding == "declaration":              # ---- Coiffeur: the row's factor and score
        for key in ("factor", "row_score"):
            if obj.get(key) is not None:
                out[key] = _int(obj[key], key)
    if spec.bidding in _TEAM_BIDDINGS and "match_team" in obj:
        v = obj["match_team"]
        if v is not None and (not _is_int(v) or v not in (0, 1)):
            raise _Malformed(f"match_team must be a team 0 or 1, or null, got {_kind(v)}")
        out["match_team"] = v
    return out


# -------------------------------------------------------------------------------------- replay
def _replay(rec: _Record, report: Callable[..., None]) -> None:
    """Stage 2: replay a well-formed record with the engine and report every disagreement."""
    r = _start_replay(rec.rules, rec.hands, rec.dealer, rec.bidding, rec.trump_card, rec.trump, rec.sheets,
                      rec.stock)
    for t, trick in enumerate(rec.tricks, 1):
        if trick.leader != r.leader:
            report(f"play out of turn: leader: record says player {trick.leader}, engine computes "
                   f"player {r.leader} (the winner of trick {t - 1}); the replay stops here", t)
            return
        if t == rec.exchange:                     # ---- Sidi: the leader exchanges before his card
            if not r.legal_mask() >> SIDI_EXCHANGE & 1:
                report(f"illegal exchange: player {r.leader} may not exchange the trump 6 before trick {t} "
                       f"(he must hold it, lead, and the stock must have cards); the replay stops here", t)
                return
            r.step(SIDI_EXCHANGE)
        for i, (player, card, legal) in enumerate(trick.plays, 1):
            engine_legal = _legal_cards(r)
            if legal is not None and legal != engine_legal:
                report(f"legal: record says {_show_cards(legal)}, engine computes "
                       f"{_show_cards(engine_legal)}", t, i)
            if not engine_legal >> card & 1:
                report(f"illegal play: record says player {player} plays {card_name(card)}, engine "
                       f"computes legal {_show_cards(engine_legal)}; the replay stops here", t, i)
                return
            r.step(card)
        done = r.tricks[t - 1]
        if trick.winner is not None and trick.winner != done["winner"]:
            report(f"winner: record says player {trick.winner}, engine computes player {done['winner']}", t)
        if trick.points is not None and not r.discards_fix_trump:
            _check_trick_points(trick, done, t, report)
    if r.discards_fix_trump:      # a trick before the first discard is recounted with the trump's values
        for t, (trick, done) in enumerate(zip(rec.tricks, r.tricks), 1):
            if trick.points is not None:
                _check_trick_points(trick, done, t, report)

    engine = _outcome(r)
    for key, value in rec.outcome.items():
        if key in ("hand_weis", "table_weis"):
            if _weis_multiset(value) != _weis_multiset(engine[key]):
                report(f"{key}: record says {_show_weis(value)}, engine computes {_show_weis(engine[key])}")
        elif key == "weis":
            if _weis_multiset(value) != _weis_multiset(engine["weis"]):
                report(f"weis: record says {_show_weis(value)}, engine computes {_show_weis(engine['weis'])}")
        elif value != engine[key]:
            report(f"{key}: record says {json.dumps(value)}, engine computes {json.dumps(engine[key])}")


def _check_trick_points(trick: _Trick, done: dict[str, Any], t: int, report: Callable[..., None]) -> None:
    if trick.points != done["points"]:
        report(f"points: record says {trick.points}, engine computes {done['points']}", t)


def _weis_multiset(weis: list[dict[str, Any]]) -> Counter[tuple[int, int | None, frozenset[str], int]]:
    return Counter((w["player"], w.get("trick"), frozenset(w["cards"]), w["points"]) for w in weis)


def _show_weis(weis: list[dict[str, Any]]) -> str:
    """Weis as ``[player 1: HQ HK HA = 20, ...]``, cards in natural order, sorted."""
    items = []
    for w in weis:
        cards = sorted(w["cards"], key=lambda c: (card_id(c) // 9, -(card_id(c) % 9)))
        trick = f" (trick {w['trick']})" if "trick" in w else ""
        items.append((w["player"], f"player {w['player']}{trick}: {' '.join(cards)} = {w['points']}"))
    return "[" + ", ".join(text for _, text in sorted(items)) + "]"


# ====================================================================================== Mittlere, Molotow
# --- Mittlere and Molotow (issue 17): trump by the first discard; docs/records.md
def _discard_outcome(r: Round) -> dict[str, Any]:
    """Mittlere's and Molotow's optional fields of a finished round, as the engine computes them."""
    fixed = r.trump_fixed
    out: dict[str, Any] = {"trump": r.trump,
                           "trump_fixed": None if fixed is None else {"trick": fixed["trick"],
                                                                      "position": fixed["position"]},
                           "points": r.points}
    if r.spec.kind == KIND_MITTLERE:
        out["result"] = r.result
    else:
        out.update(hand_weis=r.hand_weis(), table_weis=r.table_weis(),
                   stoeck=r.stoeck_player if r.stoeck_shown else None, score=r.score)
    return out


def _parse_weis_list(value: Any, key: str, players: int, with_trick: bool) -> list[dict[str, Any]]:
    """A list of Weis entries {"player", ("trick",) "cards", "points"}, type-checked."""
    fields = ("player", "trick", "cards", "points") if with_trick else ("player", "cards", "points")
    shown = "{" + ", ".join(f'"{f}"' for f in fields) + "}"
    if not isinstance(value, list):
        raise _Malformed(f"{key} must be a list of {shown}, got {_kind(value)}")
    for w in value:
        if not isinstance(w, dict) or any(k not in w for k in fields):
            raise _Malformed(f"an entry of {key} is an object {shown}, got {_kind(w)}")
        _player(w["player"], f"the player of a {key} entry", players)
        if with_trick:
            _int(w["trick"], f"the trick of a {key} entry")
        _card_set(w["cards"], f"the cards of a {key} entry")
        _int(w["points"], f"the points of a {key} entry")
    return value


def _parse_discard_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """Mittlere's and Molotow's optional fields present in the record (not the per-player lists)."""
    spec = rules.spec
    out: dict[str, Any] = {}
    if "trump" in obj:
        if obj["trump"] is not None and obj["trump"] not in SUITS:
            raise _Malformed(f"trump must be a suit letter {' '.join(SUITS)} or null, "
                             f"got {_kind(obj['trump'])}")
        out["trump"] = obj["trump"]
    if "trump_fixed" in obj:
        v = obj["trump_fixed"]
        if v is not None and (not isinstance(v, dict) or set(v) != {"trick", "position"}
                              or not all(_is_int(x) for x in v.values())):
            raise _Malformed(f"trump_fixed must be {{\"trick\": t, \"position\": i}} (integers) or null, "
                             f"got {_kind(v)}")
        out["trump_fixed"] = v
    if spec.kind == KIND_MOLOTOW:
        for key, with_trick in (("hand_weis", False), ("table_weis", True)):
            if key in obj:
                out[key] = _parse_weis_list(obj[key], key, spec.players, with_trick)
        if "stoeck" in obj:
            if obj["stoeck"] is not None:
                _player(obj["stoeck"], "stoeck", spec.players)
            out["stoeck"] = obj["stoeck"]
    return out
# --- end Mittlere and Molotow


# ====================================================================================== Sidi
# --- Sidi (project rules, docs/sidi.md): the turned card, the stock and the exchange
#: the action that exchanges the trump 6 for the face-up card
SIDI_EXCHANGE = 36


def _parse_sidi_deal(obj: dict[str, Any], hands: list[int]) -> tuple[list[str], int]:
    """Sidi's stock (the 20 undealt cards, top first, the turned trump card last) and the exchange
    trick (0 = none)."""
    stock = obj["stock"]
    undealt = ALL_CARDS_MASK & ~(hands[0] | hands[1])
    if not isinstance(stock, list) or _card_set(stock, "stock") != undealt:
        raise _Malformed(f"stock must list the {undealt.bit_count()} cards not in the hands, each once, "
                         f"top first (the turned trump card last), got {_kind(stock)}")
    if obj["trump_card"] != stock[-1]:
        raise _Malformed(f"trump_card {_kind(obj['trump_card'])} must be the last card of the stock "
                         f"({stock[-1]}): the turned card lies face up under it")
    exchange = obj.get("exchange")
    if exchange is None:
        return stock, 0
    last = len(stock) // 2
    if (not isinstance(exchange, dict) or set(exchange) != {"trick"} or not _is_int(exchange["trick"])
            or not 1 <= exchange["trick"] <= last):
        raise _Malformed(f"exchange must be {{\"trick\": t}} with t 1..{last} (the trick its player then "
                         f"leads; the stock lasts {last} tricks) or null, got {_kind(exchange)}")
    return stock, exchange["trick"]
# --- end Sidi


# ====================================================================================== CLI
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m jass_env.records check FILE [--rules PRESET]`` (or ``convert --from jasskit
    FILE``, :mod:`jass_env.records_jasskit`); returns the exit status."""
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
    from . import records_jasskit  # records from other tools (imports this module: so here)
    records_jasskit.add_parser(sub)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # argparse has printed the usage error (or the help)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command == "convert":
        return records_jasskit.run(args)
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


if __name__ == "__main__":
    sys.exit(main())
