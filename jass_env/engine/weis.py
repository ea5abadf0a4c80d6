"""Weis, the same in every game that has them: the runs and fours of a kind a dealt hand declares,
and the key that orders Weis as the rules compare them (docs/rules.md "Weis").

A hand of up to 12 cards declares its counting runs (3 or more adjacent cards of one suit) and
fours of a kind; without Kreuzweis a card counts in one Weis only. How a game scores them (the
best side's Weis all count in Schieber; every hand Weis counts minus in Molotow) is the game's.
"""

from __future__ import annotations

import numpy as np

from .cards import N_RANKS, N_SUITS, UNDENUFE
from .jit import engine_inline, engine_jit
from .spec import MAX_PLAYERS
from .switches import (
    RP_KREUZWEIS,
    RP_QUAD,
    RP_SEQ,
    RP_UND_REVERSE,
    RP_WEIS_CMP,
    WEIS_CMP_NO_TOP_CARD,
    WEIS_CMP_VAUD,
)

#: QUAD_MASK[r]: the four cards of rank offset r
QUAD_MASK = np.array([sum(1 << (9 * s + r) for s in range(N_SUITS)) for r in range(N_RANKS)], dtype=np.int64)
#: RUNS[bits] for the 9 bits of one suit: (start, length) of its first and second maximal run of
#: >= 3 adjacent cards (length 0 = none); a suit of 9 cards holds at most two such runs
RUNS = np.zeros((512, 4), dtype=np.int64)
for _bits in range(512):
    _k, _r = 0, 0
    while _r < N_RANKS:
        if not (_bits >> _r) & 1:
            _r += 1
            continue
        _r0 = _r
        while _r < N_RANKS and (_bits >> _r) & 1:
            _r += 1
        if _r - _r0 >= 3:
            RUNS[_bits, 2 * _k] = _r0
            RUNS[_bits, 2 * _k + 1] = _r - _r0
            _k += 1
#: most quads one hand can hold (12 cards: three) and most Weis a hand declares
MAX_QUADS = 3
MAX_WEIS = 2 * N_SUITS + MAX_QUADS
#: seed_vaud suit order for Weis ties, H > C > S > D
VAUD_SUIT_ORDER = np.array([0, 3, 1, 2], dtype=np.int64)


@engine_inline
def weis_key(points: int, ncards: int, height: int, suit: int, is_quad: bool, position: int,
             contract: int, rp: np.ndarray) -> int:
    """An integer that orders Weis as the rules compare them (larger wins).

    ``height`` is the natural rank index 0 (6) .. 8 (A) of the top card (of the rank for a quad);
    ``position`` is the owner's seat counted from forehand (0 wins ties).
    """
    cmp = rp[RP_WEIS_CMP]
    if contract == UNDENUFE and rp[RP_UND_REVERSE]:
        height = 8 - height
    if cmp == WEIS_CMP_NO_TOP_CARD:
        height = 0
    trump = 1 if (contract < 4 and not is_quad and suit == contract) else 0
    if cmp == WEIS_CMP_VAUD:  # quads above sequences, then points, cards, height, trump, suit order
        k = 1 if is_quad else 0
        k = k * 1024 + points
        k = k * 16 + ncards
        k = k * 16 + height
        k = k * 2 + trump
        return k * 4 + (0 if is_quad else VAUD_SUIT_ORDER[suit])
    k = points * 16 + ncards
    k = k * 16 + height
    k = k * 2 + trump
    return k * 8 + (MAX_PLAYERS - 1 - position)


@engine_jit
def _run_weis(hand: int, s: int, j: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """The ``j``-th (0 or 1) maximal run of >= 3 cards of suit ``s`` in ``hand`` as a Weis:
    (points, cards mask, key); points 0 when there is no such run or it does not count."""
    bits = (hand >> (9 * s)) & 0x1FF
    length = RUNS[bits, 2 * j + 1]
    if length == 0:
        return 0, np.int64(0), -1
    points = rp[RP_SEQ + length - 3]
    if points <= 0:
        return 0, np.int64(0), -1
    r0 = RUNS[bits, 2 * j]
    mask = (((np.int64(1) << length) - 1) << r0) << (9 * s)
    return points, mask, weis_key(points, length, 8 - r0, s, False, position, contract, rp)


@engine_jit
def _quad_weis(r: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """The four cards of rank offset ``r`` as a Weis: (points, cards mask, key)."""
    points = rp[RP_QUAD + r]
    return points, QUAD_MASK[r], weis_key(points, 4, 8 - r, 0, True, position, contract, rp)


@engine_jit
def _weis_total(hand: int, quads: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """(points, cards mask, best key) of declaring the quads of the rank set ``quads`` (bit r =
    rank offset r) and every counting run of ``hand``; without Kreuzweis the runs only of the
    cards outside those quads. Key -1: no Weis."""
    total = 0
    cards = np.int64(0)
    top = -1
    runs_of = hand
    for r in range(N_RANKS):
        if (quads >> r) & 1:
            points, mask, key = _quad_weis(r, contract, position, rp)
            total += points
            cards |= mask
            top = max(top, key)
            if not rp[RP_KREUZWEIS]:
                runs_of &= ~mask
    for s in range(N_SUITS):
        for j in range(2):
            points, mask, key = _run_weis(runs_of, s, j, contract, position, rp)
            total += points
            cards |= mask
            top = max(top, key)
    return total, cards, top


@engine_jit
def declared_quads(hand: int, contract: int, position: int, rp: np.ndarray) -> int:
    """The fours of a kind a player declares from a dealt ``hand`` (docs/rules.md "Weis"), as a
    set of rank offsets (bit r). A 12-card hand holds up to three. With Kreuzweis allowed: every
    counting quad. Without (a card counts in one Weis only): the choice of quads that gives the
    most points, then the best single Weis, the first such choice in increasing order."""
    quads = 0
    for r in range(N_RANKS):
        if (hand & QUAD_MASK[r]) == QUAD_MASK[r] and rp[RP_QUAD + r] > 0:
            quads |= 1 << r
    if rp[RP_KREUZWEIS] or quads == 0:
        return quads
    best = 0
    best_total = -1
    best_key = -1
    subset = 0
    while True:                                       # every subset of quads, in increasing order
        total, _, top = _weis_total(hand, subset, contract, position, rp)
        if total > best_total or (total == best_total and top > best_key):
            best, best_total, best_key = subset, total, top
        if subset == quads:
            return best
        subset = (subset - quads) & quads


@engine_jit
def weis_summary(hand: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """What a player declares from a dealt ``hand``: (points, cards mask, key of his best single
    Weis), key -1 when he has none. The sums over the rows of :func:`player_weis`."""
    return _weis_total(hand, declared_quads(hand, contract, position, rp), contract, position, rp)


@engine_inline
def player_weis(hand: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray) -> int:
    """The Weis a player declares from a dealt ``hand`` of any size (docs/rules.md "Weis"),
    written to ``out``, one row each: (points, cards mask, key), the key ordering Weis as the
    rules compare them.

    ``out`` is an (at least MAX_WEIS, 3) int64 array. Returns the number of Weis: the quads of
    :func:`declared_quads` and the counting runs of the cards (without Kreuzweis: of the cards
    outside those quads); with Kreuzweis the runs are listed first.
    """
    quads = declared_quads(hand, contract, position, rp)
    kreuzweis = rp[RP_KREUZWEIS] != 0
    runs_of = hand
    k = 0
    if not kreuzweis:
        k = _write_quads(quads, contract, position, rp, out, k)
        for r in range(N_RANKS):
            if (quads >> r) & 1:
                runs_of &= ~QUAD_MASK[r]
    for s in range(N_SUITS):
        for j in range(2):
            points, mask, key = _run_weis(runs_of, s, j, contract, position, rp)
            if points > 0:
                out[k, 0], out[k, 1], out[k, 2] = points, mask, key
                k += 1
    if kreuzweis:
        k = _write_quads(quads, contract, position, rp, out, k)
    return k


@engine_jit
def _write_quads(quads: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray, k: int) -> int:
    """Append the quads of the rank set ``quads`` to ``out`` rows from ``k``; the new row count."""
    for r in range(N_RANKS):
        if (quads >> r) & 1:
            out[k, 0], out[k, 1], out[k, 2] = _quad_weis(r, contract, position, rp)
            k += 1
    return k


def team_weis_bound(hand_size: int, players: int, sequence_values: tuple[int, ...],
                    quad_values: tuple[tuple[str, int], ...]) -> int:
    """An upper bound of one team's Weis points when each of its ``players // 2`` hands holds
    ``hand_size`` cards: a hand of h cards holds at most h // 3 runs of >= 3 cards (none longer than
    h) and h // 4 fours of a kind (9 cards: 3 and 2; Schieber for six's 6 cards: 2 and 1)."""
    runs = hand_size // 3 * max(sequence_values[:hand_size - 2]) if hand_size >= 3 else 0
    per_hand = runs + hand_size // 4 * max(v for _, v in quad_values)
    return players // 2 * per_hand
