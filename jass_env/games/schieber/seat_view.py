"""A seat's view as a position: build the engine state (and so the observation and legal mask)
that one Schieber seat has, from its own hand and the public history alone.

>>> from jass_env.games.schieber.seat_view import seat_position
>>> pos = seat_position("schieber", seat=2, hand=["HA", "H6", ...], dealer=0, contract="H",
...                     plays=["S6", "SA", "SK"])      # the cards played so far, in order
>>> pos.observation()          # float32[529], exactly what the real game shows seat 2
>>> pos.action_mask()          # int8[43], the legal actions (when it is seat 2's turn)

Nothing about the other hands is invented: their hands are empty in the state, and neither the
observation encoder (:mod:`jass_env.games.schieber.observation`, which reads only the observer's
hand) nor the legal-move code (which reads only the hand of the player to move) looks at them. Who
made each play follows from the rules: forehand (or, where the rules say so, the declarer) leads
trick 1 and the winner of each trick leads the next, as the engine computes it.

Histories other engines allowed are accepted. A play that no hand its player could hold makes
legal under the rules (jass-kit, for one, lets a player under-trump when two trumps are in the
trick) is kept and listed in :attr:`SeatPosition.disagreements`, with its trick
and position, instead of failing. "Could hold" uses what the history and the seat's own hand
show: the cards the player plays later, the cards others hold or played, and his shown voids;
the seat's own plays are checked against its exact hand.

Seats are our play order (0..3 clockwise, the player after ``p`` is ``(p + 1) % 4``); cards are
:mod:`jass_env.engine.cards` ids or names. jass-kit numbers its seats the other way round:
:mod:`jass_env.games.schieber.jasskit_map` converts, docs/jasskit.md has the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jass_env.engine.card_play import (
    card_points,
    legal_cards,
    possible_holding,
    shows_void,
    trick_winner_position,
)
from jass_env.engine.cards import (
    CONTRACTS,
    JACK,
    KING_QUEEN,
    LAST_TRICK_BONUS,
    N_CARDS,
    card_id,
    card_name,
    cards_of,
    contract_id,
    mask_of,
)
from jass_env.engine.positions import set_match_scores, set_play_position
from jass_env.engine.spec import MAX_PLAYERS, MAX_SIDES
from jass_env.engine.state import (
    StateView,
    new_state,
)
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import GameEngine, for_game
from jass_env.engine.validate import StateError, check_state
from jass_env.games import make_rules

from .observation import OBS_DIM, encode_observation
from .rules import PUSH, set_public_scores

N_SEATS = 4
HAND_SIZE = 9
N_TRICKS = 9
ALL_CARDS = (1 << N_CARDS) - 1


class SeatViewError(ValueError):
    """A history or hand that cannot be a position of the game (wrong sizes, a card twice, ...)."""


@dataclass(frozen=True)
class RuleDisagreement:
    """A play in the history that no hand its player could hold makes legal under the rules.

    ``trick`` and ``position`` are 1-based (position 1 = the trick's leader)."""

    trick: int
    position: int
    player: int
    card: int

    def __str__(self) -> str:
        return (f"trick {self.trick}, position {self.position}: player {self.player} plays "
                f"{card_name(self.card)}, which no hand that player could hold allows under these rules")


@dataclass(frozen=True)
class PublicTrick:
    """One trick of the history: its leader, its cards in play order, and once complete its
    winner and card points (the last trick with its 5)."""

    leader: int
    cards: tuple[int, ...]
    winner: int | None
    points: int | None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % N_SEATS for i in range(len(self.cards)))


@dataclass(frozen=True)
class SeatPosition:
    """One seat's position: the engine state it sees (other hands empty), the tricks of the
    history and the rule disagreements found in it."""

    rules: Rules
    seat: int
    state: np.ndarray
    tricks: tuple[PublicTrick, ...]
    disagreements: tuple[RuleDisagreement, ...]

    @property
    def view(self) -> StateView:
        return StateView(self.state, self.rules.params)

    @property
    def to_move(self) -> int:
        return self.view.to_move

    @property
    def is_turn(self) -> bool:
        """Whether the seat is the player to move (only then is the legal mask its own)."""
        return self.to_move == self.seat

    def observation(self) -> np.ndarray:
        """The seat's observation (float32[OBS_DIM], :mod:`jass_env.games.schieber.observation`)."""
        out = np.zeros(OBS_DIM, dtype=np.float32)
        encode_observation(self.state, self.seat, self.rules.params, out)
        return out

    def action_mask(self) -> np.ndarray:
        """The seat's legal actions (int8[43]); raises SeatViewError when it is not its turn."""
        if not self.is_turn:
            raise SeatViewError(f"it is player {self.to_move}'s turn, not seat {self.seat}'s: the seat "
                                f"has no legal actions now")
        out = np.zeros(self.rules.spec.n_actions, dtype=np.int8)
        _engine(self.rules).action_mask(self.state, self.rules.params, out)
        return out

    def obs_dict(self) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}``: what an agent's ``act`` takes (agents.base)."""
        return {"observation": self.observation(), "action_mask": self.action_mask()}


# building
def seat_position(rules: str | Rules | None, seat: int, hand: Iterable[int | str] | int, *, dealer: int,
                  pushed: bool = False, contract: int | str | None = None,
                  plays: Sequence[int | str] = (), weis: Iterable[Mapping[str, Any]] = (),
                  match_scores: Sequence[int] | None = None) -> SeatPosition:
    """The position of ``seat`` from its hand and the public history (Schieber rules only).

    ``hand``: the cards the seat holds now (ids, names or a mask); ``dealer``: the dealer;
    ``pushed``: forehand pushed; ``contract``: 0..5 or a name (``"H"``, ``"obenabe"``), None while
    it is being chosen; ``plays``: every card played so far, in order (0..35 cards; none before
    the contract); ``weis``: the Weis that score, as in records (``{"player", "cards", "points"}``,
    public from the end of trick 1); ``match_scores``: the match totals now per team, or None
    for a single round. Raises SeatViewError naming what is inconsistent.
    """
    rules = make_rules(rules)
    if rules.game != "schieber":
        raise SeatViewError(f"seat_position builds Schieber positions; rules {rules.name!r} are for "
                            f"{rules.game}")
    rp = rules.params
    seat = _seat(seat, "seat")
    dealer = _seat(dealer, "dealer")
    hand_mask = _cards(hand, "hand")
    forehand = (dealer + 1) % N_SEATS
    declarer = (forehand + 2) % N_SEATS if pushed else forehand
    if pushed and not rules.push:
        raise SeatViewError(f"the history pushes, but rules {rules.name!r} have no push")
    if match_scores is not None and len(match_scores) != rules.spec.sides:
        raise SeatViewError(f"match_scores has one total per team (2), got {list(match_scores)!r}")
    history = [_card(c, f"plays[{k}]") for k, c in enumerate(plays)]
    if contract is None:
        if history:
            raise SeatViewError(f"{len(history)} cards are played, but no contract is given; cards are "
                                f"played after the contract is named")
        return _bidding_position(rules, seat, hand_mask, dealer, pushed, match_scores)
    c = _contract(contract, rules)
    if len(history) >= N_CARDS:
        raise SeatViewError("all 36 cards are played: the round is over and no seat has a decision")
    seen: dict[int, int] = {}
    for k, card in enumerate(history):
        if card in seen:
            raise SeatViewError(f"{card_name(card)} is played twice (plays[{seen[card]}] and plays[{k}])")
        seen[card] = k
        if hand_mask >> card & 1:
            raise SeatViewError(f"{card_name(card)} is in the seat's hand and also played (plays[{k}])")
    first = declarer if (pushed and rules.leader_after_push == "declarer") else forehand
    players, winners = _players_of(history, first, c)
    played_by_seat = players.count(seat)
    if hand_mask.bit_count() != HAND_SIZE - played_by_seat:
        raise SeatViewError(f"the seat has played {played_by_seat} cards, so it holds "
                            f"{HAND_SIZE - played_by_seat}; the hand given has {hand_mask.bit_count()}")
    tricks, disagreements, voids = _replay(history, players, winners, first, seat, hand_mask, c, rp)
    played = [0] * N_SEATS
    for p, card in zip(players, history):
        played[p] |= 1 << card
    st = _play_state(tricks, seat, hand_mask, played, voids, forehand, first, pushed, declarer, c, rules)
    _write_scores(st, played, weis, c, match_scores, rules)
    _check(st, rules)
    return SeatPosition(rules, seat, st, tuple(tricks), tuple(disagreements))


def _bidding_position(rules: Rules, seat: int, hand: int, dealer: int, pushed: bool,
                      match_scores: Sequence[int] | None) -> SeatPosition:
    if hand.bit_count() != HAND_SIZE:
        raise SeatViewError(f"before any card is played the seat holds {HAND_SIZE} cards; the hand given "
                            f"has {hand.bit_count()}")
    rp = rules.params
    engine = _engine(rules)
    st = new_state(rules.spec)
    engine.reset_match(st, match_scores is not None, rp)
    if match_scores is not None:
        set_match_scores(st, list(match_scores), rp)
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    hands[seat] = hand
    engine.start_round(st, hands, dealer, rp)
    if pushed:
        engine.apply_action(st, PUSH, rp)
    _check(st, rules)
    return SeatPosition(rules, seat, st, (), ())


def _players_of(history: list[int], first: int, contract: int) -> tuple[list[int], list[int]]:
    """Who makes each play (the leader, then play order) and the winner of each complete trick,
    who leads the next."""
    players: list[int] = []
    winners: list[int] = []
    leader = first
    for t in range(0, len(history), N_SEATS):
        cards = history[t:t + N_SEATS]
        players += [(leader + i) % N_SEATS for i in range(len(cards))]
        if len(cards) == N_SEATS:
            pos = int(trick_winner_position(np.array(cards, dtype=np.int64), N_SEATS, contract))
            leader = (leader + pos) % N_SEATS
            winners.append(leader)
    return players, winners


def _replay(history: list[int], players: list[int], winners: list[int], first: int, seat: int,
            hand: int, contract: int, rp: np.ndarray,
            ) -> tuple[list[PublicTrick], list[RuleDisagreement], list[int]]:
    """The tricks of the history with their points, the plays no possible hand allows, and each
    player's shown voids (bit s = suit s)."""
    tricks: list[PublicTrick] = []
    disagreements: list[RuleDisagreement] = []
    later = [0] * N_SEATS                       # the cards each player plays from index k on
    later_at: list[list[int]] = [[]] * len(history)
    for k in range(len(history) - 1, -1, -1):
        later[players[k]] |= 1 << history[k]
        later_at[k] = list(later)
    outside = ALL_CARDS & ~mask_of(history) & ~hand   # cards nobody has shown: in the others' hands
    voids = [0] * N_SEATS
    held = [HAND_SIZE] * N_SEATS
    for t in range((len(history) + N_SEATS - 1) // N_SEATS):
        cards = history[N_SEATS * t:N_SEATS * (t + 1)]
        leader = players[N_SEATS * t]
        trick = np.full(MAX_PLAYERS, -1, dtype=np.int64)
        for i, card in enumerate(cards):
            k = N_SEATS * t + i
            p = players[k]
            if p == seat:                       # the seat's own hand then is known exactly
                known, pool, unknown = hand | later_at[k][p], 0, 0
            else:
                known = later_at[k][p]
                pool = outside & int(possible_holding(voids[p], contract, rp))
                unknown = held[p] - known.bit_count()
            if i > 0 and not _legal_for_some_hand(card, known, pool, unknown, trick, i, contract, rp):
                disagreements.append(RuleDisagreement(t + 1, i + 1, p, card))
            if i > 0 and shows_void(card, int(trick[0] // 9), contract, rp):
                voids[p] |= 1 << int(trick[0] // 9)
            trick[i] = card
            held[p] -= 1
        if len(cards) < N_SEATS:
            tricks.append(PublicTrick(leader, tuple(cards), None, None))
            break
        points = sum(int(card_points(c, contract, rp)) for c in cards)
        points += LAST_TRICK_BONUS if t == N_TRICKS - 1 else 0
        tricks.append(PublicTrick(leader, tuple(cards), winners[t], points))
    return tricks, disagreements, voids


def _category(card: int, lead_suit: int, contract: int) -> int:
    """What the legal-move rules ask of a card: of the led suit? a trump? the Puur?"""
    suit = card // 9
    trump = contract < 4 and suit == contract
    puur = trump and card % 9 == JACK
    return (suit == lead_suit) + 2 * trump + 4 * puur


def _legal_for_some_hand(card: int, known: int, pool: int, unknown: int, trick: np.ndarray, n: int,
                         contract: int, rp: np.ndarray) -> bool:
    """Whether some hand = ``known`` (``card`` among them) + ``unknown`` cards of ``pool`` makes
    ``card`` legal on the trick's first ``n`` cards.

    The legal cards depend on the rest of a hand only through which of these kinds it holds: the
    led suit, trumps, the Puur, other cards (:func:`_category`). So one hand of each feasible mix
    of kinds is tried with the engine's :func:`~jass_env.engine.card_play.legal_cards`. Following
    the led suit is legal under every rule switch, which decides most plays at once.
    """
    lead_suit = int(trick[0] // 9)
    if card // 9 == lead_suit:
        return True
    kinds: dict[int, list[int]] = {}
    for c in cards_of(pool):
        kinds.setdefault(_category(c, lead_suit, contract), []).append(c)
    keys = list(kinds)
    for subset in range(1 << len(keys)):
        chosen = [keys[j] for j in range(len(keys)) if subset >> j & 1]
        if len(chosen) > unknown or sum(len(kinds[k]) for k in chosen) < unknown:
            continue
        if unknown > 0 and not chosen:
            continue
        hand = known
        for k in chosen:
            hand |= 1 << kinds[k][0]
        if legal_cards(np.int64(hand), trick, n, contract, rp) >> card & 1:
            return True
    return False


def _play_state(tricks: list[PublicTrick], seat: int, hand: int, played: list[int], voids: list[int],
                forehand: int, first: int, pushed: bool, declarer: int, contract: int,
                rules: Rules) -> np.ndarray:
    """The state in card play: the seat's hand, every public fact, the other hands empty."""
    n = MAX_PLAYERS
    hands = np.zeros(n, dtype=np.int64)
    hands[seat] = hand
    trick = np.full(n, -1, dtype=np.int64)
    points = np.zeros(MAX_SIDES, dtype=np.int64)
    tricks_won = np.zeros(MAX_SIDES, dtype=np.int64)
    done = [t for t in tricks if t.winner is not None]
    for t in done:
        points[t.winner % 2] += t.points
        tricks_won[t.winner % 2] += 1
    current = tricks[-1].cards if tricks and tricks[-1].winner is None else ()
    leader = tricks[-1].leader if current else (done[-1].winner if done else first)
    trick[:len(current)] = current
    st = new_state(rules.spec)
    set_play_position(st, hands, _padded(played), _padded(voids), np.zeros(n, dtype=np.int64), trick,
                      len(current), leader, forehand, int(pushed), declarer, contract, len(done),
                      points, tricks_won, (leader + len(current)) % N_SEATS, rules.params)
    return st


def _padded(values: list[int]) -> np.ndarray:
    out = np.zeros(MAX_PLAYERS, dtype=np.int64)
    out[:len(values)] = values
    return out


def _write_scores(st: np.ndarray, played: list[int], weis: Iterable[Mapping[str, Any]],
                  contract: int, match_scores: Sequence[int] | None, rules: Rules) -> None:
    """The public Weis, the Stöck shown so far (both trump K and Q played by one player) and the
    match totals."""
    weis_cards = [0] * N_SEATS
    teams = set()
    total = 0
    for k, w in enumerate(weis):
        if not isinstance(w, Mapping) or any(key not in w for key in ("player", "cards", "points")):
            raise SeatViewError(f"weis[{k}] must be {{\"player\", \"cards\", \"points\"}}, got {w!r}")
        p = _seat(w["player"], f"weis[{k}].player")
        weis_cards[p] |= _cards(w["cards"], f"weis[{k}].cards")
        total += int(w["points"])
        teams.add(p % 2)
    if len(teams) > 1:
        raise SeatViewError("the Weis of one team score, never of both; weis lists players of both teams")
    stoeck_player = -1
    if contract < 4 and rules.stoeck > 0:
        kq = int(KING_QUEEN[contract])
        for p in range(N_SEATS):
            if played[p] & kq == kq:
                stoeck_player = p
    rp = rules.params
    set_public_scores(st, weis_cards, teams.pop() if teams else -1, total, stoeck_player, rp)
    _engine(rules).reset_match(st, match_scores is not None, rp)
    if match_scores is not None:
        set_match_scores(st, [int(x) for x in match_scores], rp)


def _check(st: np.ndarray, rules: Rules) -> None:
    """The engine's checks of the position built (:mod:`jass_env.engine.validate`; the other hands
    are empty): what the history and Weis give passes them, or SeatViewError says what does not."""
    try:
        check_state(st, rules, partial=True)
    except StateError as e:
        raise SeatViewError(f"the history makes a position the engine cannot play: {e}") from None


def _engine(rules: Rules) -> GameEngine:
    """The engine's compiled entry points for Schieber."""
    return for_game(rules.spec.kind)


# parsing
def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < N_SEATS:
        raise SeatViewError(f"{what} must be a player 0..3, got {value!r}")
    return int(value)


def _card(value: Any, what: str) -> int:
    if isinstance(value, str):
        try:
            return card_id(value)
        except ValueError as exc:
            raise SeatViewError(f"{what}: {exc}") from None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < N_CARDS:
        raise SeatViewError(f"{what}: {value!r} is not a card (an id 0..35 or a name like 'H9')")
    return int(value)


def _cards(value: Any, what: str) -> int:
    """A set of cards (ids, names, or a 36-bit mask) as a mask; a card listed twice is an error."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not 0 <= value <= ALL_CARDS:
            raise SeatViewError(f"{what}: {value!r} is not a 36-bit card mask")
        return int(value)
    mask = 0
    for c in value:
        card = _card(c, what)
        if mask >> card & 1:
            raise SeatViewError(f"{what} lists {card_name(card)} twice")
        mask |= 1 << card
    return mask


def _contract(value: Any, rules: Rules) -> int:
    if isinstance(value, str):
        try:
            c = contract_id(value)
        except ValueError as exc:
            raise SeatViewError(str(exc)) from None
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < len(CONTRACTS):
        c = int(value)
    else:
        raise SeatViewError(f"contract must be 0..5 or one of {', '.join(CONTRACTS)}, got {value!r}")
    if CONTRACTS[c] not in rules.contracts:
        raise SeatViewError(f"contract {CONTRACTS[c]!r} is not allowed by rules {rules.name!r}; allowed: "
                            f"{', '.join(rules.contracts)}")
    return c


__all__ = ["seat_position", "SeatPosition", "PublicTrick", "RuleDisagreement", "SeatViewError"]
