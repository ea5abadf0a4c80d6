"""jass-kit's conventions (the HSLU course kit, ``jass-kit==2.0.5``, import name ``jass``) mapped
to ours, once. Nothing here imports jass-kit: its observations, game states and logs are JSON, read
and written here; :mod:`agents.jasskit` (the Agent adapters), :mod:`agents.serve` (the player
service) and :mod:`jass_env.records.jasskit` (log conversion) all go through this module.

=====================  ======================================  ===================================
what                   jass-kit                                this project
=====================  ======================================  ===================================
seats                  N=0 E=1 S=2 W=3; the next player of     0..3; the next player of ``p`` is
                       ``p`` is ``(p - 1) % 4`` (``next_       ``(p + 1) % 4``.  Ours = ``(-p) % 4``
                       player = [3, 0, 1, 2]``)                both ways: N=0, E=3, S=2, W=1
teams                  0 = N, S; 1 = E, W                      0 = players 0, 2; 1 = 1, 3 (same)
cards                  ``9 * suit + offset``, suits D H S C,   the same ids and the same names
                       offsets A K Q J 10 9 8 7 6; "DA".."C6"
trump                  0..3 D H S C, 4 OBE_ABE, 5 UNE_UFE      contracts 0..5 in the same order;
                       (``trump``, -1 before it is chosen)     action 36 + contract
push                   PUSH = 10 (PUSH_ALT = 6 in its          action 42
                       "full" action set)
``forehand``           -1 nobody has chosen yet; 1 forehand    ``pushed`` False, then True after
                       chose; 0 forehand pushed (the           a push
                       partner chooses or chose)
``declared_trump``     the player who chose                    ``declarer``
``dealer``             the dealer; forehand = next player      the dealer; forehand = dealer + 1
points                 card points per team, last trick +5     ``Round.points`` (no Weis, Stöck or
                       (no Weis, Stöck, Match bonus)           Match bonus: preset ``tournament``)
=====================  ======================================  ===================================

Rule deviation: jass-kit's ``RuleSchieber.get_valid_cards`` compares a player's trumps with the
*lowest* trump in the trick, by card index, so with two trumps in a plain-suit
trick it allows under-trumping the higher one (and misorders the Puur and Nell). Its legal sets
are otherwise ours (official under-trump rule, trumping instead of following allowed, Puur
exception). :func:`position_from_jasskit` accepts such histories and marks those plays
(:attr:`jass_env.games.schieber.seat_view.SeatPosition.disagreements`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jass_env.engine.cards import N_CARDS, card_id, card_name
from jass_env.engine.state import PHASE_CONTRACT
from jass_env.engine.switches import Rules
from jass_env.games import make_rules

from .rules import CONTRACT_OFFSET
from .rules import PUSH as PUSH_ACTION
from .seat_view import SeatPosition, SeatViewError, seat_position

#: the rules jass-kit plays: card points only (no Weis, Stöck or Match bonus), multiplier 1
JASSKIT_RULES = "tournament"
#: jass-kit's JSON format version of game states and observations
FORMAT_VERSION = "V0.2"
JASS_TYPE = "SCHIEBER"
N_SEATS = 4
PUSH = 10
PUSH_ALT = 6
N_TRUMPS = 6
#: jass-kit's ``forehand`` field
FOREHAND_UNDECIDED, FOREHAND_PUSHED, FOREHAND_CHOSE = -1, 0, 1


class JasskitFormatError(ValueError):
    """A jass-kit observation, game state or log entry that cannot be read; says what is wrong."""


# numbers
def seat_from_jasskit(player: int) -> int:
    """Our seat of jass-kit's player (N=0 E=1 S=2 W=3 -> 0 3 2 1)."""
    return (-int(player)) % N_SEATS


def seat_to_jasskit(seat: int) -> int:
    """jass-kit's player of our seat (0 1 2 3 -> N=0 W=3 S=2 E=1); the inverse of
    :func:`seat_from_jasskit` (the same map)."""
    return (-int(seat)) % N_SEATS


def action_from_jasskit_trump(trump: int) -> int:
    """Our action of a jass-kit trump action (0..5, PUSH or PUSH_ALT)."""
    if trump in (PUSH, PUSH_ALT):
        return PUSH_ACTION
    if not 0 <= trump < N_TRUMPS:
        raise JasskitFormatError(f"jass-kit trump action {trump!r} is none of 0..5 (D H S C obe une) or "
                                 f"{PUSH} (push)")
    return CONTRACT_OFFSET + int(trump)


def jasskit_trump_from_action(action: int) -> int:
    """jass-kit's trump action (0..5, or PUSH) of our contract or push action (36..42)."""
    if action == PUSH_ACTION:
        return PUSH
    if not CONTRACT_OFFSET <= action < CONTRACT_OFFSET + N_TRUMPS:
        raise ValueError(f"action {action} is no contract or push (36..42)")
    return int(action) - CONTRACT_OFFSET


# reading JSON
@dataclass(frozen=True)
class JasskitTrick:
    """One trick of a jass-kit game, in our seats: leader, cards in play order, and (complete
    tricks) jass-kit's winner and points."""

    leader: int
    cards: tuple[int, ...]
    winner: int | None
    points: int | None


@dataclass(frozen=True)
class JasskitRound:
    """A jass-kit game state or observation (its ``to_json`` form), in our seats and cards."""

    dealer: int
    pushed: bool
    contract: int | None
    to_move: int | None          #: None once the round is over
    view: int | None             #: the observing seat (observations only)
    hands: tuple[tuple[int, ...], ...]
    tricks: tuple[JasskitTrick, ...]

    @property
    def plays(self) -> list[int]:
        return [c for t in self.tricks for c in t.cards]


def read_jasskit_json(data: Any) -> JasskitRound:
    """Read jass-kit's JSON of a game state or observation (``GameState.to_json``,
    ``GameObservation.to_json``; version V0.2). Raises JasskitFormatError naming the field."""
    if not isinstance(data, Mapping):
        raise JasskitFormatError(f"a jass-kit game state or observation is a JSON object, got "
                                 f"{type(data).__name__}")
    if "version" in data and data["version"] != FORMAT_VERSION:
        raise JasskitFormatError(f"jass-kit format version {data['version']!r}; this reader reads "
                                 f"{FORMAT_VERSION!r}")
    missing = [k for k in ("dealer", "trump", "forehand", "tricks", "player") if k not in data]
    if missing:
        raise JasskitFormatError(f"missing field(s) {', '.join(missing)} of a jass-kit game state or "
                                 f"observation")
    dealer = seat_from_jasskit(_player(data["dealer"], "dealer"))
    trump = _int(data["trump"], "trump")
    if not -1 <= trump < N_TRUMPS:
        raise JasskitFormatError(f"trump must be -1 (not chosen) or 0..5 (D H S C obe une), got {trump}")
    forehand = _int(data["forehand"], "forehand")
    if forehand not in (FOREHAND_UNDECIDED, FOREHAND_PUSHED, FOREHAND_CHOSE):
        raise JasskitFormatError(f"forehand must be -1 (undecided), 0 (pushed) or 1 (forehand chose), "
                                 f"got {forehand}")
    if trump >= 0 and forehand == FOREHAND_UNDECIDED:
        raise JasskitFormatError("trump is chosen, but forehand is -1 (nobody chose)")
    current = data.get("currentPlayer", -1)
    to_move = None if current == -1 else seat_from_jasskit(_player(current, "currentPlayer"))
    view = data.get("playerView")
    view = None if view is None else seat_from_jasskit(_player(view, "playerView"))
    players = data["player"]
    if not isinstance(players, list) or len(players) != N_SEATS:
        raise JasskitFormatError(f"player must be a list of 4 objects {{\"hand\": [...]}}, got {players!r}")
    hands: list[tuple[int, ...]] = [()] * N_SEATS
    for p, entry in enumerate(players):
        hand = entry.get("hand", []) if isinstance(entry, Mapping) else None
        if not isinstance(hand, list):
            raise JasskitFormatError(f"player[{p}] must be an object {{\"hand\": [cards]}}, got {entry!r}")
        hands[seat_from_jasskit(p)] = tuple(_card(c, f"player[{p}].hand") for c in hand)
    tricks = _tricks(data["tricks"])
    return JasskitRound(dealer, forehand == FOREHAND_PUSHED, None if trump < 0 else trump, to_move, view,
                        tuple(hands), tricks)


def _tricks(value: Any) -> tuple[JasskitTrick, ...]:
    if not isinstance(value, list):
        raise JasskitFormatError(f"tricks must be a list, got {value!r}")
    out = []
    for t, trick in enumerate(value, 1):
        if not isinstance(trick, Mapping):
            raise JasskitFormatError(f"trick {t} must be an object {{cards, first, win, points}}, "
                                     f"got {trick!r}")
        cards = trick.get("cards", [])
        if not isinstance(cards, list) or len(cards) > N_SEATS:
            raise JasskitFormatError(f"trick {t}: cards must be a list of at most 4 cards, got {cards!r}")
        if cards and "first" not in trick:
            raise JasskitFormatError(f"trick {t} has cards but no 'first' player")
        if not cards:
            continue                    # the next trick's leader, before its first card: derived
        win = trick.get("win")
        out.append(JasskitTrick(seat_from_jasskit(_player(trick["first"], f"trick {t} first")),
                                tuple(_card(c, f"trick {t} cards") for c in cards),
                                None if win is None else seat_from_jasskit(_player(win, f"trick {t} win")),
                                None if trick.get("points") is None else _int(trick["points"],
                                                                              f"trick {t} points")))
    return tuple(out)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise JasskitFormatError(f"{what} must be an integer, got {value!r}")
    return value


def _player(value: Any, what: str) -> int:
    v = _int(value, what)
    if not 0 <= v < N_SEATS:
        raise JasskitFormatError(f"{what} must be a jass-kit player 0..3 (N E S W), got {v}")
    return v


def _card(value: Any, what: str) -> int:
    try:
        c = card_id(value) if isinstance(value, str) else -1
    except ValueError:
        c = -1
    if not 0 <= c < N_CARDS or card_name(c) != value:
        raise JasskitFormatError(f"{what}: {value!r} is not a jass-kit card (DA, DK, ..., D10, ..., C6)")
    return c


# positions
def position_from_jasskit(data: Any, rules: str | Rules | None = JASSKIT_RULES) -> SeatPosition:
    """The position of the observing seat (``playerView``) of a jass-kit observation JSON.

    The seat must be the player to move. jass-kit's trick leaders, winners and points must be
    the engine's (they are, whatever the under-trump rule). Raises JasskitFormatError.
    """
    jk = read_jasskit_json(data)
    if jk.view is None:
        raise JasskitFormatError("not an observation: playerView is missing")
    if jk.to_move != jk.view:
        mover = "nobody" if jk.to_move is None else f"player {seat_to_jasskit(jk.to_move)}"
        raise JasskitFormatError(f"the observation is for jass-kit player {seat_to_jasskit(jk.view)}, "
                                 f"but {mover} is to move")
    try:
        pos = seat_position(make_rules(rules), jk.view, jk.hands[jk.view], dealer=jk.dealer,
                            pushed=jk.pushed, contract=jk.contract, plays=jk.plays)
    except SeatViewError as exc:
        raise JasskitFormatError(f"the observation is no position of the game: {exc}") from None
    check_tricks(jk.tricks, pos)
    if pos.to_move != jk.to_move:
        raise JasskitFormatError(f"jass-kit says player {seat_to_jasskit(jk.to_move)} is to move, the "
                                 f"engine computes {seat_to_jasskit(pos.to_move)}")
    return pos


def check_tricks(tricks: Sequence[JasskitTrick], pos: SeatPosition) -> None:
    """jass-kit's leaders, winners and points of the tricks must be the engine's; raises
    JasskitFormatError at the first difference (trick 1-based, jass-kit's player numbers)."""
    for t, (jk, ours) in enumerate(zip(tricks, pos.tricks), 1):
        for what, a, b in (("leader", jk.leader, ours.leader), ("winner", jk.winner, ours.winner)):
            if a is not None and b is not None and a != b:
                raise JasskitFormatError(f"trick {t}: jass-kit's {what} is player {seat_to_jasskit(a)}, the "
                                         f"engine computes player {seat_to_jasskit(b)}")
        if jk.points is not None and ours.points is not None and jk.points != ours.points:
            raise JasskitFormatError(f"trick {t}: jass-kit counts {jk.points} points, the engine "
                                     f"{ours.points}")


def jasskit_observation_json(pos: SeatPosition) -> dict[str, Any]:
    """jass-kit's observation JSON (``GameObservation.to_json`` form) of a seat's position."""
    v = pos.view
    contract = v.contract if v.phase != PHASE_CONTRACT else -1
    if contract < 0:
        forehand = FOREHAND_PUSHED if v.pushed else FOREHAND_UNDECIDED
    else:
        forehand = FOREHAND_PUSHED if v.pushed else FOREHAND_CHOSE
    tricks: list[dict[str, Any]] = []
    for t in pos.tricks:
        entry: dict[str, Any] = {"cards": [card_name(c) for c in t.cards]}
        if t.winner is not None:
            entry.update(points=t.points, win=seat_to_jasskit(t.winner))
        entry["first"] = seat_to_jasskit(t.leader)
        tricks.append(entry)
    if contract >= 0 and (not pos.tricks or pos.tricks[-1].winner is not None) and len(pos.tricks) < 9:
        tricks.append({"first": seat_to_jasskit(v.leader)})       # the next trick, no card yet
    players: list[dict[str, Any]] = [{"hand": []} for _ in range(N_SEATS)]
    players[seat_to_jasskit(pos.seat)] = {"hand": [card_name(c) for c in range(N_CARDS)
                                                   if v.hands[pos.seat] >> c & 1]}
    return {"version": FORMAT_VERSION, "trump": contract, "dealer": seat_to_jasskit(v.dealer),
            "currentPlayer": seat_to_jasskit(v.to_move), "playerView": seat_to_jasskit(pos.seat),
            "forehand": forehand, "tricks": tricks, "player": players, "jassTyp": JASS_TYPE}


__all__ = ["JASSKIT_RULES", "PUSH", "JasskitFormatError", "JasskitRound", "JasskitTrick",
           "seat_from_jasskit", "seat_to_jasskit", "action_from_jasskit_trump", "jasskit_trump_from_action",
           "read_jasskit_json", "position_from_jasskit", "check_tricks", "jasskit_observation_json"]
