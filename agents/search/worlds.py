"""Sampling the hidden cards of a search bot's worlds (determinization), for every game.

A search bot knows its own hand, the cards played, each other seat's card count and the public
constraints (shown voids, public Weis cards, a shown trump card). :func:`deal_unseen` deals the
remaining cards to the other seats so that every constraint holds: each seat gets exactly as many
cards as it still holds and only cards it may hold. Cards are placed most constrained first (in
a random order among equals), each to a random allowed seat weighted by its free slots; a dead end
restarts, and after ``MAX_TRIES`` restarts the allowed sets are dropped (an inconsistent view
then still gives a full deal). The game-specific part, which cards a seat may hold, stays with
each game's bots (:mod:`agents.bots`); :func:`deal_seat_view` is the common case (shown voids and
public Weis cards), :func:`play_out_random` the random rollout of any game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine.card_play import possible_holding
from jass_env.engine.cards import ALL_CARDS, lowest_bit, nth_bit, popcount
from jass_env.engine.deal import xorshift32
from jass_env.engine.state import PHASE_PLAY, phase
from jass_env.engine.switches import RP_DECK
from jass_env.engine.transitions import apply_action, legal_set

#: restarts before the allowed sets are dropped
MAX_TRIES = 50


@njit(cache=True)
def next_rand(rng: np.ndarray, n: int) -> int:
    """An integer in [0, n) from the xorshift32 state ``rng[0]`` (advanced in place)."""
    x = xorshift32(rng[0])
    rng[0] = x
    return x % n


@njit(cache=True)
def deal_unseen(free: int, fixed: np.ndarray, need: np.ndarray, allowed: np.ndarray, n: int,
                rng: np.ndarray, hands: np.ndarray) -> int:
    """Deal the cards of ``free`` to relative seats 1..n-1 into ``hands`` (``hands[0]`` is left
    as it is: the searcher's own hand).

    Per seat r (arrays of length >= n): ``fixed[r]`` the cards it is known to hold (not in
    ``free``), ``need[r]`` how many of ``free`` it gets, ``allowed[r]`` the cards it may hold.
    Returns the restarts used; more than ``MAX_TRIES`` means the allowed sets were dropped.
    """
    nfree = popcount(free)
    cards = np.empty(nfree, dtype=np.int64)
    order = np.empty(nfree, dtype=np.int64)
    k = 0
    m = free
    while m:
        low = m & -m
        cards[k] = lowest_bit(low)
        m ^= low
        k += 1
    cap = np.zeros(n, dtype=np.int64)
    tries = 0
    while True:
        relax = tries > MAX_TRIES
        # order: fewest allowed seats first, random among equals
        for i in range(nfree - 1, 0, -1):
            j = next_rand(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        k = 0
        for want in range(0, n):
            for i in range(nfree):
                c = cards[i]
                cnt = 0
                for r in range(1, n):
                    if relax or (allowed[r] >> c) & 1:
                        cnt += 1
                if cnt == want:
                    order[k] = c
                    k += 1
        for r in range(1, n):
            cap[r] = need[r]
            hands[r] = fixed[r]
        ok = True
        for i in range(nfree):
            c = order[i]
            total = 0
            for r in range(1, n):
                if cap[r] > 0 and (relax or (allowed[r] >> c) & 1):
                    total += cap[r]
            if total == 0:
                if relax:                       # inconsistent sizes: give it to any seat
                    for r in range(1, n):
                        if cap[r] > 0 or r == n - 1:
                            hands[r] |= np.int64(1) << c
                            cap[r] -= 1
                            break
                    continue
                ok = False
                break
            x = next_rand(rng, total)
            for r in range(1, n):
                if cap[r] > 0 and (relax or (allowed[r] >> c) & 1):
                    if x < cap[r]:
                        hands[r] |= np.int64(1) << c
                        cap[r] -= 1
                        break
                    x -= cap[r]
        if ok:
            return tries
        tries += 1


@njit(cache=True)
def deal_seat_view(hand: int, played: np.ndarray, voids: np.ndarray, public: np.ndarray, n: int,
                   tricks: int, contract: int, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> int:
    """Deal the cards a seat has not seen to relative seats 1..n-1 into ``hands`` (``hands[0]`` =
    ``hand``, the seat's own cards, 36-bit mask), from the cards of the game's deck
    (``rp[RP_DECK]``: Molotow for five deals no ♠7).

    Per relative seat r (arrays of length >= n): ``played[r]`` its cards played, ``voids[r]`` its
    shown voids (bit s = suit s), ``public[r]`` its public cards (Weis shown; those not yet played
    stay with it). Each seat gets ``tricks`` − its played cards in all, only cards its voids allow
    under ``contract`` (:func:`jass_env.engine.card_play.possible_holding`). Returns the restarts
    used (:func:`deal_unseen`).
    """
    seen = hand
    for r in range(n):
        seen |= played[r]
    unseen = rp[RP_DECK] & ~seen
    known = np.zeros(n, dtype=np.int64)
    need = np.zeros(n, dtype=np.int64)
    allowed = np.zeros(n, dtype=np.int64)
    free = unseen
    for r in range(1, n):
        known[r] = public[r] & unseen
        free &= ~known[r]
    for r in range(1, n):
        need[r] = tricks - popcount(played[r]) - popcount(known[r])
        allowed[r] = possible_holding(voids[r], contract, rp)
    hands[0] = hand
    return deal_unseen(free, known, need, allowed, n, rng, hands)


@njit(cache=True)
def play_out_random(game: int, st: np.ndarray, rp: np.ndarray, rng: np.ndarray) -> None:
    """Play the round of ``st`` (of the game numbered ``game``, a compile-time constant) to its end
    with uniformly random legal cards drawn from ``rng``."""
    while phase(st) == PHASE_PLAY:
        bits, _ = legal_set(game, st, rp)
        legal = bits & ALL_CARDS
        apply_action(game, st, nth_bit(legal, next_rand(rng, popcount(legal))), rp)


__all__ = ["MAX_TRIES", "next_rand", "deal_unseen", "deal_seat_view", "play_out_random"]
