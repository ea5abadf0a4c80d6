"""Perfect Information Monte Carlo (PIMC) search bot (rungs L3/L4 of the baseline ladder).

For a card decision with more than one legal card:

1. **Sample** ``worlds`` deals of the unseen cards consistent with what the seat knows
   (:func:`sample_world`): each other seat gets exactly as many cards as it still holds; a seat's
   public Weis cards that are not yet played stay with it; a seat shown void in a suit gets none
   of it (a trump void still allows the Puur under the Puur exception). Cards are assigned by
   constrained sequential assignment (most constrained cards first, each to a random allowed seat
   weighted by its free slots; what a void allows: :func:`jass_env.kernel.possible_holding`); a
   dead end restarts, and after :data:`MAX_TRIES` restarts the void constraints are dropped, so
   sampling never hangs.
2. **Evaluate** each legal card in every world: build the world's state with
   :func:`jass_env.core.set_play_position` (seats relative to the searcher, who is player 0; 4
   players, or 6 in Schieber for six),
   apply the card with :func:`jass_env.core.apply_action` and play the round out with the rollout
   policy: the compiled heuristic (:func:`agents.heuristic.heuristic_card`, each player using only
   its own hand of the world plus public information) or uniformly random legal cards.
3. **Pick** the card with the best mean of (own team − opponents) final round score over the
   worlds. The world's score counts the remaining card points, the last-trick 5 and the Match
   bonus, with the contract multiplier; Weis and Stöck are left out because no card choice changes
   them (they are fixed by the deal).

Contract choice uses the heuristic's Graf table (no search), as does any decision with a single
legal action. Sampling is deterministic given the agent's seed and the observations: each
decision draws one 32-bit seed from ``self.rng`` for the compiled xorshift generator.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np
from numba import njit

from jass_env import core, kernel
from jass_env.kernel import ALL_CARDS, PHASE_PLAY, popcount
from jass_env.rules import RP_HAND_SIZE, RP_PLAYERS, Rules, make_rules
from jass_env.spec import MAX_PLAYERS

from .base import Agent, checked_action
from .heuristic import heuristic_action, heuristic_card
from .view import (
    V_CONTRACT,
    V_DECLARER,
    V_FOREHAND,
    V_HAND,
    V_LEADER,
    V_LEGAL,
    V_N_TRICK,
    V_PHASE,
    V_PLAYED,
    V_POINTS,
    V_PUSHED,
    V_TRICK,
    V_TRICK_NO,
    V_VOIDS,
    V_WEIS,
    decode,
)
from .worlds import MAX_TRIES, deal_seat_view, play_out_random

ROLLOUTS = ("heuristic", "random")
#: length of an engine state array (the worlds' buffers)
STATE_SIZE = core.state_size()


@njit(cache=True)
def sample_world(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> int:
    """Deal the unseen cards of a compact seat view ``v`` to relative seats 1..players-1 (into
    ``hands``).

    ``hands`` (int64, at least players long) receives every hand by relative seat (``hands[0]`` =
    my hand). Returns the number of restarts used; ``MAX_TRIES + 1`` means the voids had to be
    relaxed.
    """
    return deal_seat_view(v[V_HAND], v[V_PLAYED:V_PLAYED + MAX_PLAYERS], v[V_VOIDS:V_VOIDS + MAX_PLAYERS],
                          v[V_WEIS:V_WEIS + MAX_PLAYERS], rp[RP_PLAYERS], rp[RP_HAND_SIZE], v[V_CONTRACT],
                          rp, rng, hands)


@njit(cache=True)
def build_world_state(v: np.ndarray, hands: np.ndarray, rp: np.ndarray, st: np.ndarray) -> None:
    """Write into ``st`` (an engine state array) the sampled world: the seat view ``v`` with the
    hands ``hands`` (int64, one per player), players = relative seats (I am player 0, to move).

    Built by :func:`jass_env.core.set_play_position` (Weis and Stöck left out: fixed by the deal,
    they never change a card choice). Tricks won per team are reconstructed from the card points
    for the Match bonus: a team with 0 points is taken to have won no trick.
    """
    own = v[V_POINTS]
    opp = v[V_POINTS + 1]
    trick_no = v[V_TRICK_NO]
    tricks_won = np.zeros(2, dtype=np.int64)
    if opp == 0:
        tricks_won[0] = trick_no
    elif own == 0:
        tricks_won[1] = trick_no
    else:
        tricks_won[0] = 1
        tricks_won[1] = trick_no - 1
    core.set_play_position(st, hands, v[V_PLAYED:V_PLAYED + MAX_PLAYERS], v[V_VOIDS:V_VOIDS + MAX_PLAYERS],
                           v[V_WEIS:V_WEIS + MAX_PLAYERS], v[V_TRICK:V_TRICK + MAX_PLAYERS], v[V_N_TRICK],
                           v[V_LEADER],
                           v[V_FOREHAND], v[V_PUSHED], v[V_DECLARER], v[V_CONTRACT], trick_no,
                           v[V_POINTS:V_POINTS + 2], tricks_won, 0, rp)


@njit(cache=True)
def rollout(st: np.ndarray, rp: np.ndarray, policy: int, rng: np.ndarray, known: np.ndarray) -> int:
    """Play the world ``st`` to the end (policy 0 heuristic, 1 random); return team 0 − team 1.
    The heuristic reads the contract ranking the current trick (Coiffeur's Slalom and Guschti
    change it trick by trick)."""
    if policy != 0:
        play_out_random(st, rp, rng)
        return kernel.score_of(st, 0) - kernel.score_of(st, 1)
    players = kernel.n_players(rp)
    while kernel.phase(st) == PHASE_PLAY:
        p = kernel.to_move(st)
        played = np.int64(0)
        for q in range(players):
            played |= kernel.played_by(st, q)
        for q in range(players):
            known[q] = kernel.weis_cards_of(st, q) & ~played if kernel.trick_number(st) >= 1 else 0
        card = heuristic_card(kernel.hand_of(st, p), played, kernel.current_trick(st),
                              kernel.cards_in_trick(st), p, kernel.leader(st), kernel.contract(st),
                              kernel.declarer(st),
                              kernel.voids(st), known, rp, 0)
        core.apply_action(st, card, rp)
    return kernel.score_of(st, 0) - kernel.score_of(st, 1)


@njit(cache=True)
def pimc_worlds(v: np.ndarray, rp: np.ndarray, n_worlds: int, policy: int, rng: np.ndarray,
                sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds, each legal card's rollout result to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    for _ in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world_state(v, hands, rp, world)
        card_sums(world, v[V_LEGAL] & ALL_CARDS, rp, policy, rng, sums)


@njit(cache=True)
def card_sums(world: np.ndarray, legal: int, rp: np.ndarray, policy: int, rng: np.ndarray,
              sums: np.ndarray) -> None:
    """Add each card of ``legal`` (36-bit mask) played in the world state ``world`` (the searcher,
    player 0, to move) and the rollout's result (:func:`rollout`) to ``sums[card]``."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    m = legal
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        st[:] = world
        core.apply_action(st, c, rp)
        sums[c] += rollout(st, rp, policy, rng, known)


@njit(cache=True)
def best_card(v: np.ndarray, sums: np.ndarray) -> int:
    """The legal card with the largest sum (ties: the lowest card id)."""
    legal = v[V_LEGAL] & ALL_CARDS
    best = -1
    best_s = -(1 << 60)
    for c in range(36):
        if (legal >> c) & 1 and sums[c] > best_s:
            best_s = sums[c]
            best = c
    return best


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


class PIMCAgent(Agent):
    """PIMC search: ``worlds`` sampled deals per decision, ``rollout`` "heuristic" or "random".

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated). Contract choice: the heuristic's Graf table.
    """

    def __init__(self, rules: str | Rules | None = None, worlds: int = 10, rollout: str = "heuristic",
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.worlds = check_search_params(worlds, time_limit)
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout policy {rollout!r}; valid: {', '.join(ROLLOUTS)}")
        self.rules = make_rules(rules)
        self.rp = self.rules.params
        self.rollout = rollout
        self.policy = ROLLOUTS.index(rollout)
        self.time_limit = time_limit
        self.name = f"pimc{self.worlds}" + ("" if rollout == "heuristic" else f"-{rollout}")
        self.last_worlds = 0   # worlds evaluated in the last searched decision

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode(obs, players=self.rules.spec.players)
        legal = int(v[V_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        if v[V_PHASE] != 2 or popcount(legal) == 1:
            return checked_action(int(heuristic_action(v, self.rp)), legal, self.name)
        rng = np.array([int(self.rng.integers(1, 2**32 - 1))], dtype=np.int64)
        sums = np.zeros(36, dtype=np.int64)
        self.last_worlds = search_worlds(lambda k: pimc_worlds(v, self.rp, k, self.policy, rng, sums),
                                         self.worlds, self.time_limit)
        return checked_action(int(best_card(v, sums)), legal, self.name)


__all__ = ["PIMCAgent", "MAX_TRIES", "check_search_params", "search_worlds", "sample_world",
           "build_world_state", "rollout", "pimc_worlds", "card_sums"]
