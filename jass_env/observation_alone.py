"""What the observation layouts of the games everyone plays alone share: Differenzler
(:mod:`jass_env.observation_differenzler`) and Mittlere / Molotow
(:mod:`jass_env.observation_discard`).

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

from . import kernel
from .kernel import N_SUITS, seat_after
from .observation import set_cards
from .spec import ROUND_POINTS, SPECS, GameSpec

#: the cards of one card set (a slice of 36 floats, 1 = the card is in the set)
CARD_SLICE = 36
#: one row of a slice table: (name, offset, length, meaning)
SliceRow = tuple[str, int, int, str]


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
    set_cards(out, 0, kernel.hand_of(st, me))
    for r in range(n):
        p = seat_after(me, r, n)
        set_cards(out, o_played + CARD_SLICE * r, kernel.played_by(st, p))
        v = kernel.voids_of(st, p)
        for s in range(N_SUITS):
            if (v >> s) & 1:
                out[o_voids + N_SUITS * r + s] = 1.0
        out[o_points + r] = kernel.points_of(st, p) / ROUND_POINTS
        out[o_tricks_won + r] = kernel.tricks_won_by(st, p) / tricks
    leader = kernel.leader(st)
    for i in range(kernel.cards_in_trick(st)):
        r = relative(seat_after(leader, i, n), me, n)
        out[o_trick + CARD_SLICE * r + kernel.trick_card(st, i)] = 1.0
    out[o_dealer + relative(kernel.dealer(st), me, n)] = 1.0
    if kernel.phase(st) == kernel.PHASE_PLAY:
        out[o_leader + relative(leader, me, n)] = 1.0
        out[o_trick_no + kernel.trick_number(st)] = 1.0


@njit(cache=True, inline="always")
def encode_game(st: np.ndarray, me: int, n: int, rounds: int, scale: float, low: float, high: float,
                o_totals: int, o_rounds_left: int, out: np.ndarray) -> None:
    """In a match episode (a game of ``rounds`` rounds), write each relative seat's total so far /
    (``scale`` × ``rounds``), clipped to [``low``, ``high``], and the rounds left: (``rounds`` −
    rounds completed) / ``rounds``, 0 in tie-break rounds. Outside a game nothing is written."""
    if not kernel.is_match(st):
        return
    for r in range(n):
        x = kernel.match_score_of(st, seat_after(me, r, n)) / (scale * rounds)
        out[o_totals + r] = min(max(x, low), high)
    out[o_rounds_left] = max(rounds - kernel.rounds_done(st), 0) / rounds


@njit(cache=True, inline="always")
def encode_hands(st: np.ndarray, observer: int, n: int, base: int, out: np.ndarray) -> None:
    """The hidden part every state starts with: each current hand by relative seat, n×36 floats
    from ``base`` (zeroed here)."""
    out[base:base + CARD_SLICE * n] = 0.0
    for r in range(n):
        set_cards(out, base + CARD_SLICE * r, kernel.hand_of(st, seat_after(observer, r, n)))


# ---------------------------------------------------------------------------------- Python tables
def slice_table(starts: tuple, meanings: tuple[tuple[str, str], ...]) -> tuple[SliceRow, ...]:
    """(name, offset, length, meaning) of every slice, from the slices' (name, meaning) in order and
    their starts (one more: the layout's length)."""
    return tuple((name, starts[i], starts[i + 1] - starts[i], meaning)
                 for i, (name, meaning) in enumerate(meanings))


def slices_by_name(table: tuple[SliceRow, ...]) -> dict[str, slice]:
    """Name -> slice of a :func:`slice_table`."""
    return {name: slice(off, off + k) for name, off, k, _ in table}


class GameLayouts(NamedTuple):
    """The observation layout of every game of one observation module, per game name.

    Built by :func:`game_layouts` from the module's ``offsets(players, tricks)`` (the starts of its
    slices, then the layout's length) and the slices' (name, meaning) in order.
    """

    #: game -> (name, offset, length, meaning) of every slice
    obs_slices: dict[str, tuple[SliceRow, ...]]
    #: game -> slice name -> slice
    slices: dict[str, dict[str, slice]]
    #: game -> observation length (floats)
    obs_dims: dict[str, int]
    #: game -> length of the full-information state (the observation, then ``state_extra`` floats)
    state_dims: dict[str, int]


def game_layouts(games: tuple[str, ...], offsets: Callable[[int, int], tuple],
                 meanings: tuple[tuple[str, str], ...],
                 state_extra: Callable[[GameSpec], int]) -> GameLayouts:
    """The :class:`GameLayouts` of ``games``; ``state_extra(spec)``: the floats the state adds after
    the observation (the hands, ...)."""
    tables = {g: slice_table(offsets(SPECS[g].players, SPECS[g].tricks), meanings) for g in games}
    dims = {g: offsets(SPECS[g].players, SPECS[g].tricks)[-1] for g in games}
    return GameLayouts(tables, {g: slices_by_name(t) for g, t in tables.items()}, dims,
                       {g: dims[g] + state_extra(SPECS[g]) for g in games})


def named_slice(obs: np.ndarray, slices: dict[str, dict[str, slice]], game: str, name: str,
                unknown_game: str) -> np.ndarray:
    """View of slice ``name`` of a ``game`` observation (or batch, last axis) in ``slices`` (game
    -> name -> slice); an unknown game raises KeyError starting with ``unknown_game``."""
    if game not in slices:
        raise KeyError(f"{unknown_game} {game!r}; games: {', '.join(slices)}")
    if name not in slices[game]:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(slices[game])}")
    return obs[..., slices[game][name]]


__all__ = ["CARD_SLICE", "relative", "card_slice_starts", "encode_table", "encode_game", "encode_hands",
           "slice_table", "slices_by_name", "named_slice", "GameLayouts", "game_layouts"]
