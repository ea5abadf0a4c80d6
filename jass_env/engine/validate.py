"""Checks of engine states that come from outside (a trainer checkpoint, ``set_state``, a position
built from a seat's view) before compiled code plays them.

The compiled engine trusts its state: it indexes arrays by the player to move, the cards of the
trick, the trick number, the contract, the sides' numbers, and writes one float per card of a
bitboard into the observation. A value out of its range there reads or writes outside the arrays
(and may crash the process); a value in range but inconsistent with the rest plays a position no
game reaches. :func:`check_state` and :func:`check_states` (a batch) raise a :class:`StateError`
naming the field, the player or slot, the value and what is allowed, before any of it happens:

1. every field in its range for the game (players 0..n-1 from the rules, cards 0..35, card sets
   within the game's deck, phases the game has, contract -1..5, trick number 0..tricks, cards in
   the trick 0..n-1, sides of the game, ...; the slots a game of fewer players or sides does not
   use hold 0, or -1 where -1 means empty) and the game's own fields in the ranges it declares
   (``GameSpec.state_ranges``);
2. the structure the rules keep: hands, played cards and dealt hands disjoint between the players,
   a hand and its player's played cards together the dealt hand (games without a stock), the cards
   each player holds and has played matching the trick number, the current trick's cards played
   by the players in turn from its leader, the player to move the next of them, the tricks won
   adding up to the trick number, the recorded plays those of the played cards;
3. the game's own checks (``GameSpec.check_state``), given a :class:`StateChecks`.

The shared checks are one compiled pass over the batch (:func:`first_problem`), the game's own
are numpy operations over the batch: 0.1 to 0.25 ms for 1,024 states on the reference machine,
less than one step of the batched environment with as many games (0.37 ms for Schieber). The
environments' ``set_state`` runs them on every call.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from .card_play import STRENGTH
from .cards import ALL_CARDS_MASK, N_CARDS, N_SUITS, ROUND_POINTS, names_of, popcount
from .jit import engine_jit
from .spec import MAX_PLAYERS, MAX_SIDES, MAX_TRICKS, TEAMS_NONE, game_spec, tail_offsets
from .state import (
    FIELDS,
    PHASE_CONTRACT,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PREDICT,
    S_BERG_TEAM,
    S_CONTRACT,
    S_DEALER,
    S_DEALT,
    S_DECLARER,
    S_FOREHAND,
    S_HANDS,
    S_LEADER,
    S_MATCH,
    S_MATCH_SCORE,
    S_MATCH_TEAM,
    S_MATCH_WINNER,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_PLAYS,
    S_POINTS,
    S_PUSHED,
    S_RNG,
    S_ROUND_NO,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TAIL,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_TRICK_POINTS,
    S_TRICK_WINNER,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    S_WIN_POS,
    S_WIN_STRENGTH,
    seat_after,
    state_size,
)
from .switches import RP_CONTRACTS, Rules

#: the largest score, total or Weis sum a state may hold (no game comes near it; sums and
#: products of such values stay far inside int64)
SCORE_BOUND = 10**9
#: the most rounds a match may have played (tie-breaks included)
ROUNDS_BOUND = 10**6
#: the deal generator's state: a non-zero 32-bit xorshift32 state
RNG_HIGH = 2**32 - 1
#: the strongest card's strength (STRENGTH: trumps 20 + their order 0..8)
STRENGTH_HIGH = int(STRENGTH.max())
#: the phases before card play of each bidding (GameSpec.bidding); every game has PLAY and OVER
BIDDING_PHASES = {"contract": (PHASE_CONTRACT,), "declaration": (PHASE_CONTRACT,),
                  "prediction": (PHASE_PREDICT,), "none": ()}
#: the fields with one slot per player, per side, per trick
PER_PLAYER = (S_HANDS, S_DEALT, S_PLAYED, S_WEIS_CARDS, S_PLAYER_WEIS, S_VOIDS)
PER_SIDE = (S_POINTS, S_TRICKS_WON, S_WEIS_POINTS, S_SCORE, S_MATCH_SCORE)
PER_TRICK = (S_TRICK_WINNER, S_TRICK_POINTS)
#: the card sets per player: within the deck, no card in two players' sets
CARD_SETS = (S_HANDS, S_DEALT, S_PLAYED, S_WEIS_CARDS)


class StateError(ValueError):
    """An engine state the engine cannot play: a field out of its range, or inconsistent with the
    others. ``field`` names the field (``S_TO_MOVE``, a game's own field), ``slot`` the player,
    side, position or entry ("" for a field of one slot), ``value`` the value found, ``game`` the
    state's index in its batch (None for a single state)."""

    def __init__(self, message: str, field: str, slot: str, value: int, game: int | None) -> None:
        super().__init__(message)
        self.field, self.slot, self.value, self.game = field, slot, value, game


def check_state(state: np.ndarray, rules: Rules, *, partial: bool = False) -> None:
    """Raise :class:`StateError` unless ``state`` (int64, the game's state size) is a state the
    engine can play under ``rules`` (the module docstring lists the checks).

    ``partial``: the state is one seat's view (:mod:`jass_env.games.schieber.seat_view`), whose
    other hands are left empty; the card counts then apply only to the hands that hold cards.
    """
    _check(np.asarray(state)[None, :], rules, partial, single=True)


def check_states(states: np.ndarray, rules: Rules, *, partial: bool = False) -> None:
    """:func:`check_state` for a batch, ``(n, state_size)`` int64; the error names the first bad
    state's index (``game i``)."""
    _check(np.asarray(states), rules, partial, single=False)


def _check(states: np.ndarray, rules: Rules, partial: bool, single: bool) -> None:
    spec = rules.spec
    size = state_size(spec)
    if states.ndim != 2 or states.shape[1] != size or not np.can_cast(states.dtype, np.int64, "safe"):
        shape = states.shape[1:] if single else states.shape
        want = f"({size},)" if single else f"(n, {size})"
        raise ValueError(f"an engine state of {spec.name} is an int64 array of shape {want}; got "
                         f"{states.dtype} {shape}")
    states = np.ascontiguousarray(states, dtype=np.int64)
    checks = StateChecks(states, rules, single)
    b = _bounds(rules)
    g, column, check = first_problem(states, b.low, b.high, spec.players, spec.sides, spec.tricks,
                                     spec.hand_size, spec.deck, b.phases, b.bidding, partial)
    if g >= 0:
        checks.fail(g, column, _allowed(checks, g, column, check))
    if spec.check_state is not None:
        spec.check_state(checks)


# the checks
class StateChecks:
    """A batch of states ``(n, state_size)`` under checking, with what the checks need: the rules'
    numbers (``players``, ``sides``, ``tricks``, ``hand_size``, ``deck``), views of the fields
    (:meth:`col`, :meth:`block`, :meth:`tail`) and :meth:`require`, which raises the StateError of
    the first state and slot a check fails."""

    def __init__(self, states: np.ndarray, rules: Rules, single: bool) -> None:
        spec = rules.spec
        self.states, self.rules, self.spec, self.single = states, rules, spec, single
        self.players, self.sides, self.tricks = spec.players, spec.sides, spec.tricks
        self.hand_size, self.deck = spec.hand_size, spec.deck
        self.rp = rules.params

    # views
    def col(self, offset: int) -> np.ndarray:
        """(n,) the field at ``offset`` of every state."""
        return self.states[:, offset]

    def block(self, offset: int, k: int) -> np.ndarray:
        """(n, k) the ``k`` slots from ``offset`` of every state."""
        return self.states[:, offset:offset + k]

    def tail_offset(self, field: str) -> int:
        """The offset of the game's own field ``field`` (GameSpec.state_fields)."""
        return _layout(self.spec.name).tail_offsets[field]

    def tail(self, field: str) -> np.ndarray:
        """(n, slots) the game's own field ``field`` of every state."""
        return self.block(self.tail_offset(field), _layout(self.spec.name).tail_slots[field])

    # failing
    def require(self, ok: np.ndarray, offset: int | np.ndarray,
                allowed: str | Callable[[int, int], str]) -> None:
        """Raise the StateError of the first state (and slot) where ``ok`` is False.

        ``ok``: (n,) or (n, k) booleans; ``offset``: the field's offset (for (n,)) or the (k,)
        offsets of the slots checked; ``allowed``: what is allowed, or a function of (state
        index, slot index) that says so for that state."""
        if ok.all():
            return
        if ok.ndim == 1:
            g, j, column = int(np.argmin(ok)), 0, int(offset)
        else:
            bad = ~ok
            g = int(np.argmax(bad.any(axis=1)))
            j = int(np.argmax(bad[g]))
            column = int(np.asarray(offset)[j])
        self.fail(g, column, allowed(g, j) if callable(allowed) else allowed)

    def fail(self, g: int, column: int, allowed: str) -> None:
        """Raise the StateError of state ``g`` at ``column`` with ``allowed``."""
        field, slot = self.label(column)
        value = int(self.states[g, column])
        where = "engine state" if self.single else f"engine state of game {g}"
        name = f"{field}[{slot}]" if slot else field
        raise StateError(f"{where}: {name} is {value}; allowed: {allowed}", field, slot, value,
                         None if self.single else g)

    def label(self, column: int) -> tuple[str, str]:
        """(field, slot) of a column: the shared field's S_ name or the game's own field's name, and
        the player, side, position, trick or entry ("" for a field of one slot)."""
        layout = _layout(self.spec.name)
        field, offset, slots = layout.field_of[column]
        k = column - offset
        if slots == 1:
            return field, ""
        if offset in PER_PLAYER:
            return field, f"player {k}"
        if offset in PER_SIDE:
            return field, f"{'player' if self.spec.teams == TEAMS_NONE else 'team'} {k}"
        if offset in PER_TRICK:
            return field, f"trick {k}"
        if offset == S_TRICK:
            return field, f"position {k}"
        if offset == S_PLAYS:
            return field, f"play {k}: trick {k // self.players}, position {k % self.players}"
        return field, str(k)


class _Layout:
    """Column -> (field, offset, slots) of a game's state, and its own fields' offsets."""

    def __init__(self, spec_name: str) -> None:
        spec = game_spec(spec_name)
        self.field_of: list[tuple[str, int, int]] = []
        for name, offset, slots in FIELDS:
            self.field_of += [(name, offset, slots)] * slots
        self.tail_offsets = {name: S_TAIL + at for name, at in tail_offsets(spec.state_fields).items()}
        self.tail_slots = dict(spec.state_fields)
        for name, slots in spec.state_fields:
            self.field_of += [(name, self.tail_offsets[name], slots)] * slots


@cache
def _layout(spec_name: str) -> _Layout:
    return _Layout(spec_name)


class _Bounds:
    """Per column of a game's state: the lowest and highest value and what is allowed, in words;
    and the game's phases."""

    def __init__(self, size: int, bidding: str) -> None:
        self.low = np.zeros(size, dtype=np.int64)
        self.high = np.zeros(size, dtype=np.int64)
        self.text = [""] * size
        #: the game's phases and its phases before card play, as bit masks (bit p = phase p)
        self.bidding = sum(1 << p for p in BIDDING_PHASES[bidding])
        self.phases = self.bidding | 1 << PHASE_PLAY | 1 << PHASE_OVER

    def set(self, offset: int, k: int, low: int, high: int, text: str) -> None:
        self.low[offset:offset + k] = low
        self.high[offset:offset + k] = high
        self.text[offset:offset + k] = [text] * k


@cache
def _bounds(rules: Rules) -> _Bounds:
    """The range of every column of a state under ``rules`` (see the module docstring, 1.)."""
    spec = rules.spec
    n, sides, tricks = spec.players, spec.sides, spec.tricks
    b = _Bounds(state_size(spec), spec.bidding)
    player = f"a player 0..{n - 1} ({spec.name} has {n})"
    side_kind = "player" if spec.teams == TEAMS_NONE else "team"
    side = f"a {side_kind} 0..{sides - 1}"
    card = "a card id 0..35"
    cards = "a set of cards (a 36-bit mask, bit c = card c)"
    scores = f"-{SCORE_BOUND}..{SCORE_BOUND}"
    unused_player = f"0 ({spec.name} has {n} players)"
    unused_side = f"0 ({spec.name} has {sides} sides)"

    def per_player(offset: int, low: int, high: int, text: str) -> None:
        b.set(offset, n, low, high, text)
        b.set(offset + n, MAX_PLAYERS - n, 0, 0, unused_player)

    def per_side(offset: int, low: int, high: int, text: str) -> None:
        b.set(offset, sides, low, high, text)
        b.set(offset + sides, MAX_SIDES - sides, 0, 0, unused_side)

    for offset in CARD_SETS:
        per_player(offset, 0, ALL_CARDS_MASK, cards)
    per_player(S_VOIDS, 0, (1 << N_SUITS) - 1, "suits 0..15 (bit s = void in suit s)")
    per_player(S_PLAYER_WEIS, 0, SCORE_BOUND, f"Weis points 0..{SCORE_BOUND}")
    for offset in (S_DEALER, S_FOREHAND, S_TO_MOVE, S_LEADER, S_WIN_POS):
        b.set(offset, 1, 0, n - 1, player if offset != S_WIN_POS else f"a position 0..{n - 1} in the trick")
    b.set(S_PHASE, 1, 0, max(PHASE_NAMES), f"a phase 0..{max(PHASE_NAMES)}")
    b.set(S_PUSHED, 1, 0, n, f"0..{n} pushes")
    for offset in (S_DECLARER, S_STOECK_PLAYER):
        b.set(offset, 1, -1, n - 1, f"{player}, or -1")
    b.set(S_CONTRACT, 1, -1, 5, "a contract 0..5 (D H S C obenabe undenufe), or -1 before it is fixed")
    b.set(S_TRICK_NO, 1, 0, tricks, f"a trick number 0..{tricks}")
    b.set(S_N_IN_TRICK, 1, 0, n - 1, f"0..{n - 1} cards in the current trick")
    b.set(S_TRICK, n, -1, N_CARDS - 1, f"{card}, or -1 (empty)")
    b.set(S_TRICK + n, MAX_PLAYERS - n, -1, -1, f"-1 ({spec.name} has {n} players)")
    per_side(S_POINTS, 0, ROUND_POINTS, f"card points 0..{ROUND_POINTS}")
    per_side(S_TRICKS_WON, 0, tricks, f"0..{tricks} tricks")
    per_side(S_WEIS_POINTS, 0, SCORE_BOUND, f"Weis points 0..{SCORE_BOUND}")
    per_side(S_SCORE, -SCORE_BOUND, SCORE_BOUND, scores)
    per_side(S_MATCH_SCORE, -SCORE_BOUND, SCORE_BOUND, scores)
    for offset in (S_WEIS_TEAM, S_MATCH_TEAM, S_BERG_TEAM):
        b.set(offset, 1, -1, sides - 1, f"{side}, or -1")
    b.set(S_MATCH_WINNER, 1, -1, sides, f"{side}, {sides} (a draw), or -1 (undecided)")
    for offset in (S_STOECK_SHOWN, S_MATCH):
        b.set(offset, 1, 0, 1, "0 or 1")
    b.set(S_RNG, 1, 1, RNG_HIGH, f"a deal generator state 1..{RNG_HIGH}")
    b.set(S_ROUND_NO, 1, 0, ROUNDS_BOUND, f"0..{ROUNDS_BOUND} rounds")
    b.set(S_PLAYS, n * tricks, -1, N_CARDS - 1, f"{card}, or -1 (not yet played)")
    b.set(S_PLAYS + n * tricks, N_CARDS - n * tricks, -1, -1,
          f"-1 ({spec.name} plays {n * tricks} cards)")
    b.set(S_TRICK_WINNER, tricks, -1, n - 1, f"{player}, or -1 (not yet won)")
    b.set(S_TRICK_POINTS, tricks, -1, ROUND_POINTS, f"card points 0..{ROUND_POINTS}, or -1 (not yet won)")
    for offset in PER_TRICK:
        b.set(offset + tricks, MAX_TRICKS - tricks, -1, -1, f"-1 ({spec.name} has {tricks} tricks)")
    b.set(S_WIN_STRENGTH, 1, -1, STRENGTH_HIGH, f"a card's strength -1..{STRENGTH_HIGH}")
    b.set(S_TRUMP_CARD, 1, -1, N_CARDS - 1, f"{card}, or -1")
    layout = _layout(spec.name)
    for name, slots in spec.state_fields:
        low, high = spec.state_ranges[name]
        b.set(layout.tail_offsets[name], slots, low, high, f"{low}..{high}")
    return b


def column_ranges(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(lowest, highest) value of every column of a state under ``rules``, two int64 arrays of the
    state's size (the first of the checks; the others concern several fields at once)."""
    b = _bounds(rules)
    return b.low.copy(), b.high.copy()


def column_of(rules: Rules, field: str, slot: int = 0) -> int:
    """The column of a state under ``rules`` that holds slot ``slot`` (a player, side, position,
    trick or entry, from 0) of ``field``: a shared field by its name as errors give it
    (``"S_TO_MOVE"``, ``"S_HANDS"``) or one of the game's own (``"predictions"``). ValueError names
    the fields and slots there are."""
    layout = _layout(rules.spec.name)
    fields = {name: (offset, slots) for name, offset, slots in layout.field_of}
    if field not in fields or not 0 <= slot < fields[field][1]:
        known = ", ".join(f"{name} ({slots})" for name, (_, slots) in fields.items())
        raise ValueError(f"{rules.spec.name} has no field {field!r} with a slot {slot}; fields (slots): "
                         f"{known}")
    return fields[field][0] + slot


# the shared checks, compiled
# what each check of first_problem asks (its number is the check that failed)
(R_RANGE, R_PHASE, R_FOREHAND, R_CONTRACT_FIXED, R_CONTRACT_OPEN, R_TRICK_NO_PLAY, R_BIDDING, R_TRICK_SLOT,
 R_NOT_IN_DECK, R_WIN_POS, R_SHARED, R_HAND_PLAYED, R_DEALT, R_TRICK_PLAYER, R_TO_MOVE, R_PLAYED_COUNT,
 R_HAND_COUNT, R_TRICKS_WON, R_POINTS, R_PLAYS_AHEAD, R_PLAYS_CURRENT, R_PLAYS_PLAYED, R_TRICK_AHEAD,
 R_STOECK) = range(24)


@engine_jit
def first_problem(states: np.ndarray, low: np.ndarray, high: np.ndarray, n: int, sides: int, tricks: int,
                  hand_size: int, deck: int, phases: int, bidding: int,
                  partial: bool) -> tuple[int, int, int]:
    """(state, column, check R_*) of the first check a state of ``states`` (n_states, size) fails,
    (-1, -1, -1) when every state passes: each column between ``low`` and ``high`` (size,), then
    the structure of the module docstring (2.) for a game of ``n`` players, ``sides`` sides,
    ``tricks`` tricks, hands of ``hand_size`` cards from ``deck`` (a 36-bit mask), whose phases
    and bidding phases are the bits of ``phases`` and ``bidding``; ``partial``: empty hands are
    not counted (a seat's view)."""
    for g in range(states.shape[0]):
        st = states[g]
        outside = False
        for i in range(st.shape[0]):                  # without an early exit: numba vectorizes it
            outside |= (st[i] < low[i]) | (st[i] > high[i])
        if outside:
            for i in range(st.shape[0]):
                if st[i] < low[i] or st[i] > high[i]:
                    return g, i, R_RANGE
        phase = st[S_PHASE]
        if not (phases >> phase) & 1:
            return g, S_PHASE, R_PHASE
        if st[S_FOREHAND] != seat_after(st[S_DEALER], 1, n):
            return g, S_FOREHAND, R_FOREHAND
        contract = st[S_CONTRACT]
        if (phase == PHASE_PLAY or phase == PHASE_PREDICT) and contract < 0:
            return g, S_CONTRACT, R_CONTRACT_FIXED
        if phase == PHASE_CONTRACT and contract != -1:
            return g, S_CONTRACT, R_CONTRACT_OPEN
        trick_no = st[S_TRICK_NO]
        k = st[S_N_IN_TRICK]
        if phase == PHASE_PLAY and trick_no >= tricks:
            return g, S_TRICK_NO, R_TRICK_NO_PLAY
        if (bidding >> phase) & 1 and trick_no != 0:
            return g, S_TRICK_NO, R_BIDDING
        if (bidding >> phase) & 1 and k != 0:
            return g, S_N_IN_TRICK, R_BIDDING
        for i in range(n):
            card = st[S_TRICK + i]
            if (i < k) != (card >= 0):
                return g, S_TRICK + i, R_TRICK_SLOT
            if card >= 0 and not (deck >> card) & 1:
                return g, S_TRICK + i, R_NOT_IN_DECK
        if k > 0 and st[S_WIN_POS] >= k:
            return g, S_WIN_POS, R_WIN_POS
        if st[S_TRUMP_CARD] >= 0 and not (deck >> st[S_TRUMP_CARD]) & 1:
            return g, S_TRUMP_CARD, R_NOT_IN_DECK
        for offset in CARD_SETS:
            seen = np.int64(0)
            for p in range(n):
                cards = st[offset + p]
                if cards & ~deck:
                    return g, offset + p, R_NOT_IN_DECK
                if cards & seen:
                    return g, offset + p, R_SHARED
                seen |= cards
        all_played = np.int64(0)
        for p in range(n):
            all_played |= st[S_PLAYED + p]
        for p in range(n):
            if st[S_HANDS + p] & all_played:
                return g, S_HANDS + p, R_HAND_PLAYED
            if hand_size == tricks and st[S_DEALT + p] != st[S_HANDS + p] | st[S_PLAYED + p]:
                return g, S_DEALT + p, R_DEALT
        leader = st[S_LEADER]
        for i in range(k):
            if not (st[S_PLAYED + seat_after(leader, i, n)] >> st[S_TRICK + i]) & 1:
                return g, S_TRICK + i, R_TRICK_PLAYER
        if phase == PHASE_PLAY and st[S_TO_MOVE] != seat_after(leader, k, n):
            return g, S_TO_MOVE, R_TO_MOVE
        holds = min(hand_size, tricks - trick_no)
        for p in range(n):
            in_trick = 1 if seat_after(p, n - leader, n) < k else 0
            if popcount(st[S_PLAYED + p]) != trick_no + in_trick:
                return g, S_PLAYED + p, R_PLAYED_COUNT
            hand = st[S_HANDS + p]
            if (hand != 0 or not partial) and popcount(hand) != holds - in_trick:
                return g, S_HANDS + p, R_HAND_COUNT
        won = 0
        points = 0
        for s in range(sides):
            won += st[S_TRICKS_WON + s]
            points += st[S_POINTS + s]
        if won != trick_no:
            return g, S_TRICK_NO, R_TRICKS_WON
        if points > ROUND_POINTS:
            return g, S_POINTS, R_POINTS
        start = n * trick_no
        for i in range(N_CARDS):
            card = st[S_PLAYS + i]
            if card < 0:
                continue
            if i >= start + k:
                return g, S_PLAYS + i, R_PLAYS_AHEAD
            if i >= start and card != st[S_TRICK + i - start]:
                return g, S_PLAYS + i, R_PLAYS_CURRENT
            if not (all_played >> card) & 1:
                return g, S_PLAYS + i, R_PLAYS_PLAYED
        for t in range(trick_no, MAX_TRICKS):
            if st[S_TRICK_WINNER + t] != -1:
                return g, S_TRICK_WINNER + t, R_TRICK_AHEAD
            if st[S_TRICK_POINTS + t] != -1:
                return g, S_TRICK_POINTS + t, R_TRICK_AHEAD
        if st[S_STOECK_SHOWN] and st[S_STOECK_PLAYER] < 0:
            return g, S_STOECK_SHOWN, R_STOECK
    return -1, -1, -1


def _cards_text(mask: int) -> str:
    """The cards of a mask by name ("none" for none)."""
    return " ".join(names_of(mask)) or "none"


def _allowed(c: StateChecks, g: int, column: int, check: int) -> str:
    """What check ``check`` of :func:`first_problem` allows at ``column`` of state ``g``, in words."""
    st = [int(v) for v in c.states[g]]
    n, tricks, name = c.players, c.tricks, c.spec.name
    k, trick_no, leader = st[S_N_IN_TRICK], st[S_TRICK_NO], st[S_LEADER]
    if check == R_RANGE:
        return _bounds(c.rules).text[column]
    if check == R_PHASE:
        phases = (*BIDDING_PHASES[c.spec.bidding], PHASE_PLAY, PHASE_OVER)
        return f"one of {', '.join(f'{p} ({PHASE_NAMES[p]})' for p in sorted(phases))}, the phases of {name}"
    if check == R_FOREHAND:
        return f"the player after the dealer (S_DEALER {st[S_DEALER]}), {(st[S_DEALER] + 1) % n}"
    if check == R_CONTRACT_FIXED:
        return "a contract 0..5 once it is fixed (phases play and prediction)"
    if check == R_CONTRACT_OPEN:
        return "-1 while the contract is being chosen (phase contract)"
    if check == R_TRICK_NO_PLAY:
        return f"0..{tricks - 1} in card play"
    if check == R_BIDDING:
        return f"0 before card play (phase {st[S_PHASE]}, {PHASE_NAMES[st[S_PHASE]]})"
    if check == R_TRICK_SLOT:
        return f"a card in each of the first {k} positions (S_N_IN_TRICK {k}), -1 after them"
    if check == R_NOT_IN_DECK:
        missing = _cards_text(ALL_CARDS_MASK & ~c.deck)
        return f"cards of {name}'s deck only (it has no {missing})"
    if check == R_WIN_POS:
        return f"a position 0..{k - 1} of the trick's {k} cards (S_N_IN_TRICK)"
    if check == R_SHARED:
        first = column - column_player(column)
        earlier = 0
        for p in range(column - first):
            earlier |= st[first + p]
        return (f"cards of no other player's; {_cards_text(st[column] & earlier)} are an earlier "
                f"player's too")
    if check == R_HAND_PLAYED:
        played = 0
        for p in range(n):
            played |= st[S_PLAYED + p]
        return f"cards not yet played; {_cards_text(st[column] & played)} are played (S_PLAYED)"
    if check == R_DEALT:
        p = column - S_DEALT
        return (f"the player's hand and played cards together (S_HANDS, S_PLAYED): "
                f"{_cards_text(st[S_HANDS + p] | st[S_PLAYED + p])}")
    if check == R_TRICK_PLAYER:
        i = column - S_TRICK
        return (f"a card played (S_PLAYED) by player {(leader + i) % n}, position {i} from the "
                f"trick's leader {leader} (S_LEADER)")
    if check == R_TO_MOVE:
        return (f"in card play the player after the trick's {k} cards from the leader {leader}, "
                f"{(leader + k) % n}")
    if check in (R_PLAYED_COUNT, R_HAND_COUNT):
        p = column_player(column)
        played_now = (p - leader) % n < k
        now = " (he has played to the current trick)" if played_now else ""
        if check == R_PLAYED_COUNT:
            return f"{trick_no + played_now} cards, one a trick at trick {trick_no} (S_TRICK_NO){now}"
        holds = min(c.hand_size, tricks - trick_no) - played_now
        return f"{holds} cards at trick {trick_no} (S_TRICK_NO){now}"
    if check == R_TRICKS_WON:
        return f"the tricks won so far (S_TRICKS_WON), {sum(st[S_TRICKS_WON:S_TRICKS_WON + c.sides])}"
    if check == R_POINTS:
        return (f"card points of all sides together 0..{ROUND_POINTS}; they add up to "
                f"{sum(st[S_POINTS:S_POINTS + c.sides])}")
    if check == R_PLAYS_AHEAD:
        return f"-1 from play {n * trick_no + k} on (not yet played)"
    if check == R_PLAYS_CURRENT:
        card = st[S_TRICK + column - S_PLAYS - n * trick_no]
        return f"the current trick's card at its position (S_TRICK), {card}, or -1"
    if check == R_PLAYS_PLAYED:
        return "a card played (S_PLAYED), or -1"
    if check == R_TRICK_AHEAD:
        return f"-1 from trick {trick_no} (S_TRICK_NO) on: not yet won"
    return "0 while nobody holds the Stöck (S_STOECK_PLAYER -1)"


def column_player(column: int) -> int:
    """The player of a column of a per-player field."""
    for offset in PER_PLAYER:
        if offset <= column < offset + MAX_PLAYERS:
            return column - offset
    raise ValueError(f"column {column} is not in a per-player field")


def contract_allowed(c: StateChecks, rows: np.ndarray | None = None) -> None:
    """A game's check: a fixed contract (>= 0) is one of the rules' ``contracts`` (in the states
    where ``rows`` is True, all if None)."""
    allowed = int(c.rp[RP_CONTRACTS])
    contract = c.col(S_CONTRACT)
    ok = (contract < 0) | ((allowed >> np.maximum(contract, 0)) & 1 == 1)
    if rows is not None:
        ok |= ~rows
    c.require(ok, S_CONTRACT,
              f"-1 or one of the contracts of rules {c.rules.name!r}: {', '.join(c.rules.contracts)}")


__all__ = ["StateError", "StateChecks", "check_state", "check_states", "column_ranges", "column_of",
           "first_problem", "contract_allowed", "column_player", "SCORE_BOUND"]
