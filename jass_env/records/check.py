"""Checking game records (docs/records.md) written by anyone, by replaying them with the engine.

:func:`check_records` reads JSON Lines and checks each record in two stages:

1. *Structure*: JSON, required fields and their types, player numbers 0..n-1, ``forehand`` ==
   ``(dealer + 1) % n``, n hands of the game's size of distinct cards of the game's deck, the
   game's own fields (its ``records.parse``: e.g. a declarer consistent with the push and a
   contract the rules allow, predictions 0..157), the game's number of tricks of n plays, each
   play by the player whose turn it is (trick 1 led by the player the rules name) and holding the
   card, every card played once, the types of the optional fields, the ``rules`` and
   ``rule_overrides`` fields (``format`` must be ``"jass-record/1"``), every number (the ``id``
   aside) within ±:data:`~jass_env.records.format.MAX_NUMBER`. A malformed record gets one
   message, for the first problem found, and is not replayed.
2. *Replay* with the engine (:class:`jass_env.round.Round`, the single source of truth): each
   trick must be led by the winner of the previous one as the engine computes it, each play must
   be legal (an illegal play is reported and ends the replay of that record, since the state
   after it is undefined), and every optional field present is compared: each play's ``legal``
   set, each trick's ``winner`` and ``points``, then the game's end-of-round fields (Weis as a
   multiset of (player, set of cards, points)).

Each problem is one :class:`Finding`, printed as one line such as::

    record "r7" (line 7), trick 6, position 4: illegal play: record says player 0 plays D9,
    engine computes legal [S10]; the replay stops here

(all on one line; ``record at line 7`` when the record has no ``id``). Checking never stops at a
bad record; the :class:`CheckReport` counts records and records that disagree (an unreadable record
disagrees). Whatever a line holds, its problems are its own findings: an error the checker did not
foresee while reading or replaying a record becomes a finding of that record, naming the field
or trick it was at.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from jass_env.engine.cards import card_id, card_name, names_of
from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import Rules, RulesError
from jass_env.games import PRESETS, game_of, make_rules
from jass_env.games._records import Deal, Malformed, card, card_set, integer, is_int, kind, player

from .format import DEFAULT_PRESET, FORMAT, MAX_NUMBER
from .replay import legal_cards, start_replay

#: the fields of every record before the game's own, and after them
LEADING_FIELDS = ("dealer", "forehand", "hands")
TRAILING_FIELDS = ("tricks",)


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


@dataclass
class _Trick:
    leader: int
    plays: list[tuple[int, int, int | None]]   # (player, card id, legal mask or None)
    winner: int | None
    points: int | None


@dataclass
class _Progress:
    """Where the check of a record is (a field, or the replay, and the trick): what a finding names
    when something the checker did not foresee goes wrong there."""

    what: str = "the record"
    trick: int | None = None

    def at(self, what: str, trick: int | None = None) -> None:
        self.what, self.trick = what, trick


@dataclass
class _Record:
    rules: Rules
    dealer: int
    hands: list[int]                            # dealt hands as card masks
    deal: Deal                                  # the game's set-up and bidding
    tricks: list[_Trick]
    outcome: dict[str, Any]                     # optional end-of-round fields present, parsed


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
    for line_no, text, decode_error in numbered_lines(path_or_lines):
        if decode_error is None and not text.strip():
            continue
        report.records += 1
        if decode_error is not None:
            findings = [Finding(line_no, None, f"not UTF-8 text ({decode_error})", malformed=True)]
            readable = False
        else:
            try:
                findings, readable = _check_line(text, line_no, explicit, cache)
            except Exception as exc:  # noqa: BLE001 - a line's problem is that line's finding
                findings = [Finding(line_no, None, _unforeseen(exc, "the line"), malformed=True)]
                readable = False
        report.findings.extend(findings)
        if findings:
            report.disagreeing += 1
        if not readable:
            report.unreadable += 1
    return report


def numbered_lines(source: str | os.PathLike[str] | Iterable[str | bytes],
                   ) -> Iterator[tuple[int, str, UnicodeDecodeError | None]]:
    """(1-based line number, text, decoding error or None) of a file (a path) or an iterable of lines
    (text, or bytes read as UTF-8: a line that is not gives its decoding error and no text)."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from numbered_lines(f)
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
        return [Finding(line, None, f"a record is a JSON object {{...}}, got {kind(obj)}",
                        malformed=True)], False
    rid = _render_id(obj.get("id"))
    findings: list[Finding] = []

    def report(text: str, trick: int | None = None, position: int | None = None) -> None:
        findings.append(Finding(line, rid, text, trick, position))

    progress = _Progress()
    try:
        record = _parse(obj, explicit, cache, progress)
    except Malformed as exc:
        return [Finding(line, rid, exc.text, exc.trick, exc.position, malformed=True)], False
    except Exception as exc:  # noqa: BLE001 - one bad record must never stop the run
        return [Finding(line, rid, _unforeseen(exc, progress.what), progress.trick, malformed=True)], False
    progress.at("the replay")
    try:
        _replay(record, report, progress)
    except Exception as exc:  # noqa: BLE001 - one bad record must never stop the run
        report(_unforeseen(exc, progress.what), progress.trick)
    return findings, True


def _unforeseen(exc: Exception, what: str) -> str:
    """The finding of an error the checker did not foresee (a fault of the checker, or of the engine,
    that this record shows)."""
    return (f"internal error while checking {what} ({type(exc).__name__}: {str(exc)[:200]}); the record "
            f"was not checked further; please report it with the record")


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


def _show_cards(mask: int) -> str:
    return "[" + ", ".join(names_of(mask)) + "]"


# structure
def _resolve_rules(obj: dict[str, Any], explicit: Rules | None,
                   cache: dict[tuple[str, str], Rules]) -> Rules:
    """The rules a record is checked under: its preset (or the explicit one) plus its overrides."""
    overrides = obj.get("rule_overrides", {})
    if not isinstance(overrides, dict):
        raise Malformed(f"rule_overrides must be an object of rule switches, got {kind(overrides)}")
    if explicit is not None:
        base: Rules | str = explicit
        key = f"explicit:{id(explicit)}"
    else:
        base = obj.get("rules", DEFAULT_PRESET)
        if not isinstance(base, str):
            raise Malformed(f"rules must be a preset name ({', '.join(PRESETS)}), got {kind(base)}")
        if base not in PRESETS:
            raise Malformed(f"unknown rules preset {base!r}; valid presets: {', '.join(PRESETS)}")
        key = base
    cache_key = (key, json.dumps(overrides, sort_keys=True))
    if cache_key not in cache:
        try:
            cache[cache_key] = make_rules(base, **overrides)
        except RulesError as exc:
            raise Malformed(f"bad rule_overrides: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise Malformed(f"bad rule_overrides {kind(overrides)}: a switch has a value of the wrong "
                            f"type ({exc}); docs/rules.md lists each switch's values") from None
    return cache[cache_key]


def _parse(obj: dict[str, Any], explicit: Rules | None, cache: dict[tuple[str, str], Rules],
           progress: _Progress) -> _Record:
    """Validate the structure of a record (stage 1); raises Malformed at the first problem.
    ``progress`` follows the field being read."""
    progress.at("format")
    if "format" in obj and obj["format"] != FORMAT:
        raise Malformed(f"unsupported format {kind(obj['format'])}; this reader reads \"{FORMAT}\"")
    progress.at("rules and rule_overrides")
    rules = _resolve_rules(obj, explicit, cache)
    spec = rules.spec
    game_records = game_of(rules).records
    required = LEADING_FIELDS + game_records.REQUIRED_FIELDS + TRAILING_FIELDS
    missing = [k for k in required if k not in obj]
    if missing:
        raise Malformed(f"missing required field(s) {', '.join(missing)}; every {spec.name} record has "
                        f"{', '.join(required)}")
    n = spec.players
    progress.at("dealer and forehand")
    dealer = player(obj["dealer"], "dealer", n)
    forehand = player(obj["forehand"], "forehand", n)
    if forehand != (dealer + 1) % n:
        raise Malformed(f"forehand is player {forehand}, but with dealer {dealer} it must be the next "
                        f"player, {(dealer + 1) % n}")
    progress.at("hands")
    hands = _parse_hands(obj["hands"], spec)
    progress.at("the numbers")
    _check_numbers(obj)
    own = ", ".join(game_records.REQUIRED_FIELDS)
    progress.at(f"the {spec.name} deal and bidding fields" + (f" ({own}, ...)" if own else ""))
    replay = partial(start_replay, rules, hands, dealer)
    deal = game_records.parse(obj, rules, hands, dealer, forehand, replay)
    # who leads trick 1 is the engine's to say (forehand, or after a push maybe the declarer)
    first_leader = replay(deal).leader
    tricks = _parse_tricks(obj["tricks"], hands, first_leader, n, spec.tricks, deal.drawable, progress)
    progress.at("the end-of-round fields")
    return _Record(rules, dealer, hands, deal, tricks, game_records.parse_outcome(obj, rules))


#: the fields whose numbers :func:`_check_numbers` leaves alone: any JSON value, and rule switches
#: (each checked against its own range)
_FREE_FIELDS = ("id", "rule_overrides")


def _check_numbers(obj: dict[str, Any]) -> None:
    """Every integer of the record (outside :data:`_FREE_FIELDS`) within ±MAX_NUMBER; raises
    Malformed naming the first one outside, with its trick and position when it is in one."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((k,), v) for k, v in reversed(obj.items())
                                                      if k not in _FREE_FIELDS]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack += [((*path, k), v) for k, v in reversed(value.items())]
        elif isinstance(value, list):
            stack += [((*path, i), v) for i, v in reversed(list(enumerate(value)))]
        elif is_int(value) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            in_trick = path[0] == "tricks" and len(path) > 1 and isinstance(path[1], int)
            in_play = in_trick and len(path) > 3 and path[2] == "plays" and isinstance(path[3], int)
            raise Malformed(f"{_show_path(path)} is {kind(value)}, out of range: the numbers of a record "
                            f"lie within -{MAX_NUMBER}..{MAX_NUMBER}",
                            path[1] + 1 if in_trick else None, path[3] + 1 if in_play else None)


def _show_path(path: tuple[str | int, ...]) -> str:
    """A field's place in a record: ``sheets_before["0"]["S"]``, ``tricks[4]["points"]`` (0-based)."""
    return str(path[0]) + "".join(f"[{p}]" if isinstance(p, int) else f"[{json.dumps(p)}]" for p in path[1:])


def _parse_hands(value: Any, spec: GameSpec) -> list[int]:
    """The hands of a record as masks: one per player, of the game's hand size, each card of the
    game's deck at most once."""
    n, hand_size, deck = spec.players, spec.hand_size, spec.deck
    if not isinstance(value, list) or len(value) != n:
        raise Malformed(f"hands must be a list of {n} hands (hands[p] for player p), got {kind(value)}")
    masks: list[int] = []
    for p, hand in enumerate(value):
        m = card_set(hand, f"hands[{p}]")
        if m.bit_count() != hand_size:
            raise Malformed(f"hands[{p}] has {m.bit_count()} cards; each hand has {hand_size}")
        if m & ~deck:
            raise Malformed(f"hands[{p}] holds {' '.join(names_of(m & ~deck))}, which is not in the "
                            f"{spec.name} deck (the 36 cards without {' '.join(spec.removed)})")
        for q, other in enumerate(masks):
            if other & m:
                common = names_of(other & m)[0]
                raise Malformed(f"{common} is in hands[{q}] and hands[{p}]; each of the "
                                f"{deck.bit_count()} cards is dealt once")
        masks.append(m)
    return masks


def _parse_tricks(value: Any, hands: list[int], first_leader: int, players: int,
                  n_tricks: int, drawable: int, progress: _Progress) -> list[_Trick]:
    """The tricks, each play by the player whose turn it is with a card of his hand or of
    ``drawable`` (cards anyone may come to hold during the round)."""
    if not isinstance(value, list) or len(value) != n_tricks:
        n = f"{len(value)} tricks" if isinstance(value, list) else kind(value)
        raise Malformed(f"tricks must be a list of {n_tricks} tricks, got {n}")
    played: dict[int, tuple[int, int]] = {}
    tricks = []
    for t, trick in enumerate(value, 1):
        progress.at("tricks", t)
        if not isinstance(trick, dict):
            raise Malformed(f"a trick is an object {{\"leader\", \"plays\", ...}}, got {kind(trick)}", t)
        for key in ("leader", "plays"):
            if key not in trick:
                raise Malformed(f"missing required field {key!r} of the trick", t)
        leader = player(trick["leader"], "leader", players, t)
        if t == 1 and leader != first_leader:
            raise Malformed(f"play out of turn: trick 1 is led by player {leader}, but under these "
                            f"rules player {first_leader} leads it", t)
        plays_in = trick["plays"]
        if not isinstance(plays_in, list) or len(plays_in) != players:
            n = f"{len(plays_in)} plays" if isinstance(plays_in, list) else kind(plays_in)
            raise Malformed(f"plays must be a list of {players} plays [player, card, legal], got {n}", t)
        plays = []
        for i, play in enumerate(plays_in, 1):
            if not isinstance(play, list) or len(play) not in (2, 3):
                raise Malformed(f"a play is [player, card] or [player, card, legal], got {kind(play)}", t, i)
            who = player(play[0], "the player of a play", players, t, i)
            c = card(play[1], "the card of a play", t, i)
            legal = None if len(play) == 2 or play[2] is None else card_set(play[2], "legal", t, i)
            turn = (leader + i - 1) % players
            if who != turn:
                raise Malformed(f"play out of turn: player {who} plays {play[1]}, but after leader "
                                f"{leader} it is player {turn}'s turn", t, i)
            if not (hands[who] | drawable) >> c & 1:
                where = " nor can be drawn" if drawable else ""
                raise Malformed(f"player {who} plays {play[1]}, which is not in hands[{who}]{where}", t, i)
            if c in played:
                pt, pi = played[c]
                raise Malformed(f"{play[1]} is played a second time (first at trick {pt}, position "
                                f"{pi})", t, i)
            played[c] = (t, i)
            plays.append((who, c, legal))
        winner = (player(trick["winner"], "winner", players, t) if trick.get("winner") is not None
                  else None)
        points = integer(trick["points"], "points", t) if trick.get("points") is not None else None
        tricks.append(_Trick(leader, plays, winner, points))
    return tricks


# replay
def _replay(rec: _Record, report: Callable[..., None], progress: _Progress) -> None:
    """Stage 2: replay a well-formed record with the engine and report every disagreement.
    ``progress`` follows the trick replayed."""
    game_records = game_of(rec.rules).records
    r = start_replay(rec.rules, rec.hands, rec.dealer, rec.deal)
    for t, trick in enumerate(rec.tricks, 1):
        progress.at("the replay", t)
        if trick.leader != r.leader:
            report(f"play out of turn: leader: record says player {trick.leader}, engine computes "
                   f"player {r.leader} (the winner of trick {t - 1}); the replay stops here", t)
            return
        before = rec.deal.before_trick.get(t)
        if before is not None:                    # the leader acts before his card
            if not r.legal_mask() >> before.action & 1:
                report(before.refused.format(player=r.leader, trick=t) + "; the replay stops here", t)
                return
            r.step(before.action)
        for i, (who, c, legal) in enumerate(trick.plays, 1):
            engine_legal = legal_cards(r)
            if legal is not None and legal != engine_legal:
                report(f"legal: record says {_show_cards(legal)}, engine computes "
                       f"{_show_cards(engine_legal)}", t, i)
            if not engine_legal >> c & 1:
                report(f"illegal play: record says player {who} plays {card_name(c)}, engine "
                       f"computes legal {_show_cards(engine_legal)}; the replay stops here", t, i)
                return
            r.step(c)
        done = r.tricks[t - 1]
        if trick.winner is not None and trick.winner != done["winner"]:
            report(f"winner: record says player {trick.winner}, engine computes player {done['winner']}", t)
        if trick.points is not None and not game_records.POINTS_AT_END:
            _check_trick_points(trick, done, t, report)
    progress.at("the end-of-round fields")
    if game_records.POINTS_AT_END:        # a trick's points are final only now
        for t, (trick, done) in enumerate(zip(rec.tricks, r.tricks), 1):
            if trick.points is not None:
                _check_trick_points(trick, done, t, report)

    engine = game_records.outcome(r)
    for key, value in rec.outcome.items():
        if key in game_records.WEIS_FIELDS:
            if _weis_multiset(value) != _weis_multiset(engine[key]):
                report(f"{key}: record says {_show_weis(value)}, engine computes {_show_weis(engine[key])}")
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


__all__ = ["Finding", "CheckReport", "check_records", "numbered_lines"]
