"""The generic driver of Perfect Information Monte Carlo (PIMC) search, shared by every game's PIMC
bot (:mod:`agents.bots`).

A PIMC decision samples worlds (deals of the cards the seat has not seen that fit what it knows:
:mod:`agents.search.worlds`), plays each option in every world and the round out by a rollout
policy, and picks the option with the best mean of the game's objective. What a world is and what
is maximized is the game's (its bot module); the parts every game shares are here: the search
parameters (:func:`check_search_params`), the budget of worlds per decision, by count or by time
(:func:`search_worlds`), and the compiled generator each decision draws its worlds from
(:func:`decision_generator`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

#: the exclusive upper bound of a decision's generator seed (a non-zero 32-bit xorshift32 state)
SEED_BOUND = 2**32 - 1


def check_search_params(worlds: object, time_limit: object) -> int:
    """The PIMC bots' shared parameters: ``worlds`` an integer >= 1 (returned as int),
    ``time_limit`` seconds per decision > 0 or None; ValueError naming the bad one otherwise."""
    if not isinstance(worlds, (int, np.integer)) or isinstance(worlds, bool) or worlds < 1:
        raise ValueError(f"worlds must be an integer >= 1, got {worlds!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    return int(worlds)


def search_worlds(step: Callable[[int], None], worlds: int, time_limit: float | None) -> int:
    """Call ``step(k)`` (evaluate k more worlds) until ``worlds`` are done, or, with a
    ``time_limit`` in seconds, one world at a time until it is exceeded (at least one world is
    always evaluated). Returns the worlds evaluated."""
    if time_limit is None:
        step(worlds)
        return worlds
    deadline = time.perf_counter() + time_limit
    done = 0
    while done < worlds:
        step(1)
        done += 1
        if time.perf_counter() >= deadline:
            break
    return done


def decision_generator(rng: np.random.Generator) -> np.ndarray:
    """The compiled xorshift32 generator of one decision (int64[1], advanced in place by
    :func:`agents.search.worlds.next_rand`), seeded by one draw from the agent's ``rng``: a search
    is deterministic given the agent's seed and the observations."""
    return np.array([int(rng.integers(1, SEED_BOUND))], dtype=np.int64)


__all__ = ["check_search_params", "search_worlds", "decision_generator", "SEED_BOUND"]
