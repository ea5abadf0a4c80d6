"""PIMC for the first-discard games (``mittlere``; ``molotow``, ``molotow3``, ``molotow5``,
``molotow6``), each with its own objective (docs/bots.md).

For a card decision with more than one legal card:

1. **Sample** ``worlds`` deals of the cards the seat has not seen
   (:func:`agents.worlds.deal_seat_view`): each other seat as many cards as it still holds, none of
   a suit it has shown void in (in these games every void shown is a void: the first failure to
   follow fixes trump, later ones follow the trump rules), in Molotow the public hand-Weis cards
   not yet played with their owner.
2. **History**: while no trump is fixed, fixing it recounts the finished tricks with the trump's
   values, so the world needs them. Before the fix everyone followed suit, so each finished trick
   is one card of one suit from every seat; the observation tells each seat's cards, points and
   tricks but not how a suit played twice split into tricks: :func:`sample_history` draws a split
   that gives every seat its observed points and tricks (after ``MAX_TRIES`` misses, the last one).
3. **Evaluate** each legal card in every world: the world's state is built with
   :func:`jass_env.core.set_play_position` and :func:`jass_env.core.set_trick_plays` (I am
   player 0), the card applied and the hand played out by everyone with random legal cards
   (:func:`agents.worlds.play_out_random`; Mittlere) or, in Molotow by default, the compiled
   avoidance play (:func:`avoid_card`: lowest lead, highest card that does not take the trick,
   else the cheapest winner); the engine scores the hand.
4. **Pick** the card with the best mean of the game's own objective for me: Mittlere my hand score
   (Striche − Nullen, :func:`jass_env.mittlere.hand_score`), Molotow minus my hand score (the lowest
   wins; hand Weis and table Weis taken before are the same in every world and left out). Ties:
   the lowest card id.

A given seed plays a given hand the same way (one 32-bit draw of ``self.rng`` seeds each
decision's compiled generator).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from jass_env import core
from jass_env.kernel import (
    ALL_CARDS,
    MAX_TRICKS,
    OBENABE,
    PHASE_PLAY,
    SUIT_MASK,
    card_points,
    card_strength,
    cards_in_trick,
    contract,
    current_trick,
    lowest_bit,
    nth_bit,
    phase,
    popcount,
    score_of,
    trick_winner_position,
)
from jass_env.observation_discard import SLICES
from jass_env.rules import Rules, make_rules
from jass_env.spec import KIND_MITTLERE, KIND_MOLOTOW, MAX_PLAYERS, ROUND_POINTS

from .base import Agent, checked_action
from .pimc import check_search_params, search_worlds
from .worlds import MAX_TRIES, deal_seat_view, next_rand, play_out_random

STATE_SIZE = core.state_size()
N_SUITS = 4
#: play-out policies: random legal cards, or (Molotow only) the compiled avoidance play
#: (:func:`avoid_card`; the discard games' own heuristics are Python, too slow inside a search)
ROLLOUTS = ("random", "heuristic")
#: objective sign per game kind: Mittlere's score counts up, Molotow's down (lowest wins)
OBJECTIVE_SIGN = {KIND_MITTLERE: 1, KIND_MOLOTOW: -1}

# ---- the compact seat view (int64), seats relative to me (0 = me, 1 = next in play order)
W_PLAYERS = 0           # players n
W_TRICKS = 1            # tricks per hand T (= hand size)
W_HAND = 2              # my cards (36-bit mask)
W_LEGAL = 3             # my legal cards
W_TRUMP = 4             # trump suit, OBENABE (4) while none is fixed
W_FIXER = 5             # relative seat who fixed trump, -1 none
W_DEALER = 6            # relative seat of the dealer
W_LEADER = 7            # relative seat leading the current trick
W_TRICK_NO = 8          # finished tricks
W_N_TRICK = 9           # cards in the current trick
W_TRICK = 10            # current trick's cards, leader first (MAX_PLAYERS, -1 = none)
W_PLAYED = W_TRICK + MAX_PLAYERS        # cards played per relative seat (the current trick's too)
W_VOIDS = W_PLAYED + MAX_PLAYERS        # shown voids per relative seat (bit s = suit s)
W_WEIS = W_VOIDS + MAX_PLAYERS          # public hand-Weis cards per relative seat (Molotow)
W_POINTS = W_WEIS + MAX_PLAYERS         # card points taken per relative seat
W_TRICKS_WON = W_POINTS + MAX_PLAYERS   # tricks taken per relative seat
W_SIZE = W_TRICKS_WON + MAX_PLAYERS

_BITS = np.int64(1) << np.arange(36, dtype=np.int64)


def _masks(rows: np.ndarray) -> np.ndarray:
    """36-bit masks (int64) of 0/1 rows (..., 36)."""
    return (np.asarray(rows) > 0.5).astype(np.int64) @ _BITS


def _one_hot(x: np.ndarray, none: int) -> int:
    hits = np.flatnonzero(np.asarray(x) > 0.5)
    return int(hits[0]) if hits.size else none


def decode_view(obs: Mapping[str, np.ndarray], rules: Rules) -> np.ndarray:
    """The compact view (int64[W_SIZE], the W_* fields) of a Mittlere/Molotow observation."""
    o = np.asarray(obs["observation"])
    s = SLICES[rules.game]
    n, tricks = rules.spec.players, rules.spec.tricks
    v = np.zeros(W_SIZE, dtype=np.int64)
    v[W_PLAYERS], v[W_TRICKS] = n, tricks
    v[W_HAND] = _masks(o[s["hand"]])
    v[W_LEGAL] = _masks(np.asarray(obs["action_mask"])[:36])
    v[W_TRUMP] = _one_hot(o[s["trump"]], OBENABE)
    v[W_FIXER] = _one_hot(o[s["trump_fixer"]], -1) if v[W_TRUMP] != OBENABE else -1
    v[W_DEALER] = _one_hot(o[s["dealer"]], 0)
    leader = _one_hot(o[s["leader"]], 0)
    v[W_LEADER] = leader
    v[W_TRICK_NO] = _one_hot(o[s["trick_number"]], 0)
    trick = _masks(o[s["trick"]].reshape(n, 36))
    v[W_TRICK:W_TRICK + MAX_PLAYERS] = -1
    for i in range(n):
        card = trick[(leader + i) % n]
        if not card:
            break
        v[W_TRICK + i] = int(card).bit_length() - 1
        v[W_N_TRICK] = i + 1
    v[W_PLAYED:W_PLAYED + n] = _masks(o[s["played"]].reshape(n, 36))
    voids = (o[s["voids"]].reshape(n, N_SUITS) > 0.5).astype(np.int64)
    v[W_VOIDS:W_VOIDS + n] = voids @ (np.int64(1) << np.arange(N_SUITS, dtype=np.int64))
    v[W_WEIS:W_WEIS + n] = _masks(o[s["hand_weis_cards"]].reshape(n, 36))
    v[W_POINTS:W_POINTS + n] = np.rint(o[s["points"]].astype(np.float64) * ROUND_POINTS)
    v[W_TRICKS_WON:W_TRICKS_WON + n] = np.rint(o[s["tricks_won"]].astype(np.float64) * tricks)
    return v


@njit(cache=True)
def sample_history(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, plays: np.ndarray,
                   winners: np.ndarray) -> bool:
    """The finished tricks of a view with no trump fixed yet: ``plays[t, r]`` the card of relative
    seat r in trick t, ``winners[t]`` its winner (the highest card: every card followed suit, Obenabe
    ranking). A suit played in k tricks splits each seat's k cards of it into a random order; the
    split is redrawn until each seat's Obenabe points and tricks are the view's (at most MAX_TRIES
    redraws). Returns whether they match."""
    n = v[W_PLAYERS]
    current = np.int64(0)
    for i in range(v[W_N_TRICK]):
        current |= np.int64(1) << v[W_TRICK + i]
    cards = np.zeros((MAX_PLAYERS, MAX_TRICKS), dtype=np.int64)
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    won = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for _ in range(MAX_TRIES):
        t = 0
        for s in range(N_SUITS):
            k = popcount(v[W_PLAYED] & ~current & SUIT_MASK[s])
            for r in range(n):
                m = v[W_PLAYED + r] & ~current & SUIT_MASK[s]
                for j in range(k):
                    cards[r, j] = nth_bit(m, j)
                if r > 0:                           # my own order stays: the others' are shuffled
                    for j in range(k - 1, 0, -1):
                        x = next_rand(rng, j + 1)
                        cards[r, j], cards[r, x] = cards[r, x], cards[r, j]
            for j in range(k):
                best = 0
                for r in range(n):
                    plays[t, r] = cards[r, j]
                    if card_strength(cards[r, j], s, OBENABE) > card_strength(cards[best, j], s, OBENABE):
                        best = r
                winners[t] = best
                t += 1
        points[:] = 0
        won[:] = 0
        for j in range(t):
            won[winners[j]] += 1
            for r in range(n):
                points[winners[j]] += card_points(plays[j, r], OBENABE, rp)
        ok = True
        for r in range(n):
            if points[r] != v[W_POINTS + r] or won[r] != v[W_TRICKS_WON + r]:
                ok = False
        if ok:
            return True
    return False


@njit(cache=True)
def build_world(v: np.ndarray, hands: np.ndarray, plays: np.ndarray, winners: np.ndarray, n_history: int,
                rp: np.ndarray, st: np.ndarray) -> None:
    """The engine state of a sampled world (players = relative seats, I am player 0, to move):
    the view's position with ``hands``, the first ``n_history`` finished tricks of ``plays`` /
    ``winners`` recorded (:func:`sample_history`), and the current trick."""
    n = v[W_PLAYERS]
    core.set_play_position(st, hands, v[W_PLAYED:W_PLAYED + MAX_PLAYERS], v[W_VOIDS:W_VOIDS + MAX_PLAYERS],
                           v[W_WEIS:W_WEIS + MAX_PLAYERS], v[W_TRICK:W_TRICK + MAX_PLAYERS], v[W_N_TRICK],
                           v[W_LEADER], (v[W_DEALER] + 1) % n, 0, v[W_FIXER], v[W_TRUMP], v[W_TRICK_NO],
                           v[W_POINTS:W_POINTS + MAX_PLAYERS], v[W_TRICKS_WON:W_TRICKS_WON + MAX_PLAYERS],
                           0, rp)
    for t in range(n_history):
        core.set_trick_plays(st, t, plays[t], n, winners[t], rp)
    core.set_trick_plays(st, v[W_TRICK_NO], v[W_TRICK:W_TRICK + MAX_PLAYERS], v[W_N_TRICK], -1, rp)


@njit(cache=True)
def sample_world(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray, plays: np.ndarray,
                 winners: np.ndarray) -> int:
    """Deal the hidden cards into ``hands`` and, while no trump is fixed, draw the finished
    tricks into ``plays`` / ``winners``; returns how many finished tricks the world records."""
    n = v[W_PLAYERS]
    deal_seat_view(v[W_HAND], v[W_PLAYED:W_PLAYED + MAX_PLAYERS], v[W_VOIDS:W_VOIDS + MAX_PLAYERS],
                   v[W_WEIS:W_WEIS + MAX_PLAYERS], n, v[W_TRICKS], v[W_TRUMP], rp, rng, hands)
    if v[W_TRUMP] != OBENABE or v[W_TRICK_NO] == 0:
        return 0
    sample_history(v, rp, rng, plays, winners)
    return v[W_TRICK_NO]


@njit(cache=True)
def avoid_card(st: np.ndarray, rp: np.ndarray) -> int:
    """The avoidance play-out's card for the player to move: lead the lowest card (a side card
    before a trump), follow with the highest card that does not take the trick (the most points
    among equals; a discard while no trump is fixed takes it), else the winner worth the fewest
    points."""
    legal = core.legal_actions_mask(st, rp) & ALL_CARDS
    trump = contract(st)
    n = cards_in_trick(st)
    best = -1
    best_key = 0
    if n == 0:
        m = legal
        while m:
            c = lowest_bit(m)
            m &= m - 1
            key = -card_strength(c, c // 9, trump) - (100 if c // 9 == trump else 0)
            if best < 0 or key > best_key:
                best, best_key = c, key
        return best
    trick = current_trick(st)
    lead = trick[0] // 9
    top = card_strength(trick[trick_winner_position(trick, n, trump)], lead, trump)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        takes = (trump == OBENABE and c // 9 != lead) or card_strength(c, lead, trump) > top
        value = card_points(c, c // 9 if trump == OBENABE and c // 9 != lead else trump, rp)
        key = (1000 * card_strength(c, lead, trump) + value) if not takes else (-100_000 - value)
        if best < 0 or key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def play_out_avoiding(st: np.ndarray, rp: np.ndarray) -> None:
    """Play the hand of ``st`` to its end, every player with :func:`avoid_card`."""
    while phase(st) == PHASE_PLAY:
        core.apply_action(st, avoid_card(st, rp), rp)


@njit(cache=True)
def pimc_scores(v: np.ndarray, rp: np.ndarray, n_worlds: int, sign: int, policy: int, rng: np.ndarray,
                sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds, ``sign`` × my hand score after each legal card and a
    play-out (``policy`` 0 random, 1 avoiding) to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for _ in range(n_worlds):
        n_history = sample_world(v, rp, rng, hands, plays, winners)
        build_world(v, hands, plays, winners, n_history, rp, world)
        m = v[W_LEGAL]
        while m:
            c = lowest_bit(m)
            m &= m - 1
            st[:] = world
            core.apply_action(st, c, rp)
            if policy == 0:
                play_out_random(st, rp, rng)
            else:
                play_out_avoiding(st, rp)
            sums[c] += sign * score_of(st, 0)


class DiscardPIMC(Agent):
    """PIMC for Mittlere and Molotow (module docstring): ``worlds`` sampled worlds per decision,
    scored by the game's own objective; ``rollout`` "random" (Mittlere's only one) or, in Molotow,
    "heuristic" (the avoidance play-out, :func:`avoid_card`; Molotow's default).

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated).
    """

    def __init__(self, rules: str | Rules | None = "mittlere", worlds: int = 10, rollout: str | None = None,
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        kind = self.rules.spec.kind
        if kind not in OBJECTIVE_SIGN:
            raise ValueError(f"DiscardPIMC plays {', '.join(SLICES)}, not {self.rules.game!r}")
        self.worlds = check_search_params(worlds, time_limit)
        allowed = ROLLOUTS if kind == KIND_MOLOTOW else ROLLOUTS[:1]
        rollout = allowed[-1] if rollout is None else rollout
        if rollout not in allowed:
            raise ValueError(f"{self.rules.game} PIMC plays out with rollout={' or '.join(allowed)}, "
                             f"got {rollout!r}")
        self.rp = self.rules.params
        self.sign = OBJECTIVE_SIGN[self.rules.spec.kind]
        self.rollout = rollout
        self.policy = ROLLOUTS.index(rollout)
        self.time_limit = time_limit
        self.name = f"{self.rules.game}-pimc{self.worlds}"
        self.last_worlds = 0   # worlds evaluated in the last searched decision

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode_view(obs, self.rules)
        legal = int(v[W_LEGAL])
        if legal == 0:
            raise ValueError("no legal card in the action mask (the hand is over?)")
        if popcount(legal) == 1:
            return lowest_bit(legal)
        rng = np.array([int(self.rng.integers(1, 2**32 - 1))], dtype=np.int64)
        sums = np.zeros(36, dtype=np.int64)
        def step(k: int) -> None:
            pimc_scores(v, self.rp, k, self.sign, self.policy, rng, sums)

        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)
        best = max((c for c in range(36) if legal >> c & 1), key=lambda c: sums[c])
        return checked_action(best, legal, self.name)


__all__ = ["DiscardPIMC", "ROLLOUTS", "OBJECTIVE_SIGN", "avoid_card", "play_out_avoiding", "decode_view",
           "sample_world", "sample_history", "build_world", "pimc_scores"]
