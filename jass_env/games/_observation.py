"""What the games' observation layouts share: card sets as 36 floats, relative seats, slice tables,
and the pieces of the games everyone plays alone (Differenzler, Mittlere, Molotow, Sidi).

Each such layout opens with the same four card slices (hand 36, played n×36, trick n×36, voids
n×4, from :func:`card_slice_starts`) and has, at offsets of its own, the same table slices (dealer,
leader, trick number, points, tricks won: :func:`encode_table`), the game's totals and rounds left
(:func:`encode_game`); its state appends every current hand (:func:`encode_hands`). Seats are
relative to the observer: relative seat ``r`` is player ``(observer + r) % n``. Also the Python
slice tables (:func:`slice_table`, :func:`slices_by_name`, :func:`named_slice`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import N_SUITS, ROUND_POINTS, lowest_bit
from jass_env.engine.spec import GameSpec
from jass_env.engine.state import seat_after

#: the cards of one card set (a slice of 36 floats, 1 = the card is in the set)
CARD_SLICE = 36
#: one row of a slice table: (name, offset, length, meaning)
SliceRow = tuple[str, int, int, str]


@njit(cache=True, inline="always")
def set_cards(out: np.ndarray, offset: int, mask: int) -> None:
    """Write 1.0 into ``out[offset + c]`` for every card id ``c`` (0..35) of the card set ``mask``
    (bit c = card c); the other entries are left as they are."""
    while mask:
        low = mask & -mask
        out[offset + lowest_bit(low)] = 1.0
        mask ^= low


@njit(cache=True, inline="always")
def relative(player: int, me: int, n: int) -> int:
    """The relative seat (0..n-1) of ``player`` seen from ``me`` among ``n`` players."""
    r = player - me
    return r + n if r < 0 else r


@njit(cache=True, inline="always")
def card_slice_starts(n: int) -> tuple:
    """Starts of the slices every layout opens with: hand (36), played (n×36), trick (n×36), voids
    (n×4); then the offset after them, where the layout's own slices begin."""
    played = CARD_SLICE
    trick = played + CARD_SLICE * n
    voids = trick + CARD_SLICE * n
    return 0, played, trick, voids, voids + N_SUITS * n


@njit(cache=True, inline="always")
def encode_table(st: np.ndarray, me: int, n: int, tricks: int, o_dealer: int, o_leader: int,
                 o_trick_no: int, o_points: int, o_tricks_won: int, out: np.ndarray) -> None:
    """Write what every seat sees on the table into ``out`` (float32, zeroed before) for player
    ``me`` of ``n`` in a round of ``tricks`` tricks: the four opening card slices of
    :func:`card_slice_starts` (my hand, each relative seat's played cards, its card in the current
    trick, its shown voids by suit D H S C), one-hot the dealer's relative seat, in card play the
    leader's relative seat and the trick number (0..tricks-1), and per relative seat the card points
    taken / 157 and the tricks taken / ``tricks``."""
    _, o_played, o_trick, o_voids, _ = card_slice_starts(n)
    set_cards(out, 0, state.hand_of(st, me))
    for r in range(n):
        p = seat_after(me, r, n)
        set_cards(out, o_played + CARD_SLICE * r, state.played_by(st, p))
        v = state.voids_of(st, p)
        for s in range(N_SUITS):
            if (v >> s) & 1:
                out[o_voids + N_SUITS * r + s] = 1.0
        out[o_points + r] = state.points_of(st, p) / ROUND_POINTS
        out[o_tricks_won + r] = state.tricks_won_by(st, p) / tricks
    leader = state.leader(st)
    for i in range(state.cards_in_trick(st)):
        r = relative(seat_after(leader, i, n), me, n)
        out[o_trick + CARD_SLICE * r + state.trick_card(st, i)] = 1.0
    out[o_dealer + relative(state.dealer(st), me, n)] = 1.0
    if state.phase(st) == state.PHASE_PLAY:
        out[o_leader + relative(leader, me, n)] = 1.0
        out[o_trick_no + state.trick_number(st)] = 1.0


@njit(cache=True, inline="always")
def encode_game(st: np.ndarray, me: int, n: int, rounds: int, scale: float, low: float, high: float,
                o_totals: int, o_rounds_left: int, out: np.ndarray) -> None:
    """In a match episode (a game of ``rounds`` rounds), write each relative seat's total so far /
    (``scale`` × ``rounds``), clipped to [``low``, ``high``], and the rounds left: (``rounds`` −
    rounds completed) / ``rounds``, 0 in tie-break rounds. Outside a game nothing is written."""
    if not state.is_match(st):
        return
    for r in range(n):
        x = state.match_score_of(st, seat_after(me, r, n)) / (scale * rounds)
        out[o_totals + r] = min(max(x, low), high)
    out[o_rounds_left] = max(rounds - state.rounds_done(st), 0) / rounds


@njit(cache=True, inline="always")
def encode_hands(st: np.ndarray, observer: int, n: int, base: int, out: np.ndarray) -> None:
    """The hidden part every state starts with: each current hand by relative seat, n×36 floats
    from ``base`` (zeroed here)."""
    out[base:base + CARD_SLICE * n] = 0.0
    for r in range(n):
        set_cards(out, base + CARD_SLICE * r, state.hand_of(st, seat_after(observer, r, n)))


# Python tables
def slice_table(starts: tuple, meanings: tuple[tuple[str, str], ...]) -> tuple[SliceRow, ...]:
    """(name, offset, length, meaning) of every slice, from the slices' (name, meaning) in order and
    their starts (one more: the layout's length)."""
    return tuple((name, starts[i], starts[i + 1] - starts[i], meaning)
                 for i, (name, meaning) in enumerate(meanings))


def slices_by_name(table: tuple[SliceRow, ...]) -> dict[str, slice]:
    """Name -> slice of a :func:`slice_table`."""
    return {name: slice(off, off + k) for name, off, k, _ in table}


class Layout(NamedTuple):
    """The observation layout of one game spec."""

    #: (name, offset, length, meaning) of every slice
    obs_slices: tuple[SliceRow, ...]
    #: slice name -> slice
    slices: dict[str, slice]
    #: observation length (floats)
    obs_dim: int
    #: length of the full-information state (the observation, then the state's extra floats)
    state_dim: int


class Layouts:
    """The :class:`Layout` of every spec of a game, made on first use from the game's
    ``offsets(players, tricks)`` (the starts of its slices, then the layout's length), the slices'
    (name, meaning) in order, and ``state_extra(spec)``: the floats the state adds after the
    observation (the hands, ...)."""

    def __init__(self, offsets: Callable[[int, int], tuple], meanings: tuple[tuple[str, str], ...],
                 state_extra: Callable[[GameSpec], int]) -> None:
        self.offsets, self.meanings, self.state_extra = offsets, meanings, state_extra
        self._made: dict[str, Layout] = {}

    def of(self, spec: GameSpec) -> Layout:
        if spec.name not in self._made:
            starts = self.offsets(spec.players, spec.tricks)
            table = slice_table(starts, self.meanings)
            self._made[spec.name] = Layout(table, slices_by_name(table), starts[-1],
                                           starts[-1] + self.state_extra(spec))
        return self._made[spec.name]


def named_slice(obs: np.ndarray, layout: Layout, name: str) -> np.ndarray:
    """View of slice ``name`` of an observation (or batch, last axis) of ``layout``."""
    if name not in layout.slices:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(layout.slices)}")
    return obs[..., layout.slices[name]]
