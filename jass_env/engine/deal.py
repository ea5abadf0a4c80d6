"""Dealing: the game's own random generator, the deal, and who deals the first round.

Each state carries its deal generator (a xorshift32 state, ``S_RNG``), so a game seeded once deals
a reproducible sequence of rounds whatever else the process draws; :func:`seed_to_rng_state`
turns any integer seed into such a state.
"""

from __future__ import annotations

import numpy as np

from .cards import D7, N_CARDS
from .jit import engine_inline
from .state import S_RNG, n_players
from .switches import FIRST_FOREHAND_D7, RP_FIRST_FOREHAND

#: bits per player of the room counters packed into one integer while dealing (a hand < 32 cards)
_ROOM_BITS = 5
_ROOM_MASK = (1 << _ROOM_BITS) - 1


def seed_to_rng_state(seed: int | None) -> int:
    """A non-zero 32-bit generator state from any integer seed (None = fresh entropy)."""
    x = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint32)[0])
    return x or 1


@engine_inline
def xorshift32(x: int) -> int:
    """Marsaglia's xorshift32 on a non-zero state < 2**32; returns the next state."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


@engine_inline
def random_below(st: np.ndarray, n: int) -> int:
    """Advance the game's generator and return an integer in [0, n) (n < 2**30).

    Multiply-shift instead of a modulo (Lemire): no division, bias below n / 2**32.
    """
    x = xorshift32(st[S_RNG])
    st[S_RNG] = x
    return (x * n) >> 32


@engine_inline
def deal(st: np.ndarray, hands: np.ndarray, players: int, hand_size: int, deck: int) -> None:
    """Deal ``players`` hands of ``hand_size`` cards at random into ``hands[:players]`` (bitboards)
    from the cards of ``deck`` (36-bit mask, ``rp[RP_DECK]``: all 36 but in Molotow for five).

    Each card of the deck in turn goes to a player with probability proportional to the room left
    in that player's hand, which gives every deal the same probability. A card not in the deck is
    skipped without a draw (so a full deck's deals do not depend on this). The cards left over
    when the hands hold fewer cards than the deck are not dealt. The room left per player is kept
    packed in one integer (``_ROOM_BITS`` bits each), so dealing needs no scratch array.
    """
    room = 0
    for p in range(players):
        hands[p] = 0
        room |= hand_size << (_ROOM_BITS * p)
    left = players * hand_size
    for c in range(N_CARDS):
        if left == 0:
            break
        if not (deck >> c) & 1:
            continue
        k = random_below(st, left)
        p = 0
        while k >= (room >> (_ROOM_BITS * p)) & _ROOM_MASK:
            k -= (room >> (_ROOM_BITS * p)) & _ROOM_MASK
            p += 1
        hands[p] |= np.int64(1) << c
        room -= 1 << (_ROOM_BITS * p)
        left -= 1


@engine_inline
def d7_dealer(hands: np.ndarray, rp: np.ndarray) -> int:
    """Under ``first_forehand="D7"``: the dealer whose forehand holds the ♦7; -1 under "random"."""
    if rp[RP_FIRST_FOREHAND] != FIRST_FOREHAND_D7:
        return -1
    n = n_players(rp)
    for p in range(n):
        if (hands[p] >> D7) & 1:
            return (p + n - 1) % n
    return -1
