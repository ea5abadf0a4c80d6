"""The seeds of an evaluation: each a 32-bit seed derived by numpy's ``SeedSequence`` from the
deal set's seed ``S``, a stream number and the position in the set (stable across runs, platforms
and numpy versions).

    deal_seed(S, i)              the generator of deal i of the set S
    seat_seed(S, i, seat)        an agent's reset before a play of deal i, by the seat it holds
    match_seed(S, k)             match pair k (both matches of the pair deal the same cards), or
                                 game k of a game played alone (every rotation of it)
    round_seed(S, k, r, seat)    an agent's reset before round r of match pair (or game) k
"""

from __future__ import annotations

import numpy as np

#: the stream numbers: what a seed is for
DEAL_STREAM, SEAT_STREAM, MATCH_STREAM, ROUND_STREAM = 0, 1, 2, 3


def hash_seed(*parts: int) -> int:
    """A 32-bit seed derived from non-negative integers (numpy SeedSequence, stable across runs)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, dtype=np.uint32)[0])


def deal_seed(set_seed: int, index: int) -> int:
    """Seed of deal ``index`` in the deal set ``set_seed``."""
    return hash_seed(set_seed, DEAL_STREAM, index)


def seat_seed(set_seed: int, index: int, seat: int) -> int:
    """Seed an agent in ``seat`` is reset with before playing deal ``index`` (every play of it)."""
    return hash_seed(set_seed, SEAT_STREAM, index, seat)


def match_seed(set_seed: int, pair_index: int) -> int:
    """Seed of the match pair ``pair_index`` (both matches of a pair deal the same cards), or of
    game ``pair_index`` of a game played alone (every rotation of it deals the same rounds)."""
    return hash_seed(set_seed, MATCH_STREAM, pair_index)


def round_seed(set_seed: int, pair_index: int, round_index: int, seat: int) -> int:
    """Seed an agent in ``seat`` is reset with before round ``round_index`` of the match pair (or
    game played alone) ``pair_index``."""
    return hash_seed(set_seed, ROUND_STREAM, pair_index, round_index, seat)


__all__ = ["hash_seed", "deal_seed", "seat_seed", "match_seed", "round_seed"]
