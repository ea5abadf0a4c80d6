"""Rule-based bot: Graf trump choice and the card-play rules of docs/bots.md (compiled with numba).

Contract choice (:func:`graf_scores`, :func:`choose_contract`): every allowed contract is scored by
summing Graf's per-card values over the hand (tables below); the best is chosen, or the choice is
pushed when the best score is below :data:`PUSH_THRESHOLD` (68) and pushing is legal.

Card play (:func:`heuristic_card`), from the seat's own hand and public information only:

1. Card counting: ``played`` (every card played so far, the current trick included), the known
   voids per seat and the public Weis cards not yet played give, per other seat, the set of cards
   it may still hold (:func:`possible_cards`). The **Bock** of a suit is its highest card not yet
   played (trump order for the trump suit, reversed order in Undenufe).
2. Leading: when our team declared trump and an opponent may still hold a trump, pull trumps (the
   highest trump if it is the Bock, else a low trump when holding 3 or more); else lead a side-suit
   Bock, most points first (not into a suit an opponent may ruff); else low from the longest side
   suit. Obenabe/Undenufe: Bocks, then low from the longest suit.
3. Partner winning and safe (no opponent still to play may hold a card that beats it): smear the
   most valuable non-trump card.
4. Opponent winning: as last player take the trick with the cheapest winning card; otherwise take
   it with a winner no later opponent can beat (a trump only for a trick worth >= 10), or with the
   strongest winner if the trick is worth >= 10; else discard the cheapest card, keeping trumps
   and Bocks. Partner winning but not safe: overtake with a safe winner if the trick is worth
   >= 10, else discard.
5. Only one legal card: play it.

The compiled functions take plain ints and int64 arrays so that the PIMC rollouts
(:mod:`agents.pimc`) call them from compiled code. Legal cards always come from
:func:`jass_env.core.legal_cards`, card strength from :func:`jass_env.core.card_strength`, trick
winners from :func:`jass_env.core.trick_winner_position` and card points from the rules array.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from jass_env import core
from jass_env.kernel import (
    ALL_CARDS,
    SUIT_MASK,
    card_strength,
    legal_cards,
    popcount,
    possible_holding,
    trick_winner_position,
)
from jass_env.rules import RP_PLAYERS, RP_TRICKS, RP_VALUES, Rules, make_rules
from jass_env.spec import MAX_PLAYERS

from .base import Agent, checked_action
from .view import (
    V_CONTRACT,
    V_DECLARER,
    V_HAND,
    V_LEADER,
    V_LEGAL,
    V_N_TRICK,
    V_PHASE,
    V_PLAYED,
    V_SIZE,
    V_TRICK,
    V_VOIDS,
    V_WEIS,
    decode,
    decode_view,
)

PUSH_THRESHOLD = 68

#: Graf's per-card values by rank offset (A K Q J 10 9 8 7 6)
GRAF_TRUMP = np.array([15, 10, 7, 25, 6, 19, 5, 5, 5], dtype=np.int64)
GRAF_SIDE = np.array([9, 7, 5, 2, 1, 0, 0, 0, 0], dtype=np.int64)
GRAF_OBENABE = np.array([14, 10, 8, 7, 5, 0, 5, 0, 0], dtype=np.int64)
GRAF_UNDENUFE = np.array([0, 2, 1, 1, 5, 5, 7, 9, 11], dtype=np.int64)


# ---------------------------------------------------------------------------------- contract
@njit(cache=True)
def graf_scores(hand: int, out: np.ndarray) -> None:
    """Graf's score of each contract 0..5 for a hand (36-bit mask), written to ``out`` (int64[6])."""
    for c in range(6):
        out[c] = 0
    for card in range(36):
        if not (hand >> card) & 1:
            continue
        s = card // 9
        r = card % 9
        for c in range(4):
            out[c] += GRAF_TRUMP[r] if s == c else GRAF_SIDE[r]
        out[4] += GRAF_OBENABE[r]
        out[5] += GRAF_UNDENUFE[r]


@njit(cache=True)
def choose_contract(hand: int, legal: int) -> int:
    """Action (36..41 or 42 = push) for the contract phase; ``legal`` is the 43-bit legal mask.

    Picks the best-scoring legal contract; pushes when pushing is legal and the best is < 68.
    """
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(hand, scores)
    best = -1
    best_score = -1
    for c in range(6):
        if (legal >> (36 + c)) & 1 and scores[c] > best_score:
            best = c
            best_score = scores[c]
    if (legal >> 42) & 1 and (best < 0 or best_score < PUSH_THRESHOLD):
        return 42
    if best < 0:                      # no contract legal (should not happen): any legal action
        for a in range(43):
            if (legal >> a) & 1:
                return a
        return -1
    return 36 + best


# ---------------------------------------------------------------------------------- card helpers
@njit(cache=True)
def rank_strength(card: int, contract: int) -> int:
    """Order of a card within its own suit under a contract (larger = higher)."""
    return card_strength(card, card // 9, contract)


@njit(cache=True)
def highest(mask: int, contract: int) -> int:
    """The highest card of a mask (within-suit order; trumps above all), -1 if empty."""
    best = -1
    best_s = -1000
    m = mask
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        s = rank_strength(c, contract)
        if s > best_s:
            best_s = s
            best = c
    return best


@njit(cache=True)
def lowest(mask: int, contract: int, rp: np.ndarray) -> int:
    """The lowest card of a mask: fewest points, then lowest rank; -1 if empty."""
    best = -1
    best_k = 1 << 30
    m = mask
    base = RP_VALUES + 36 * contract
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        k = rp[base + c] * 64 + rank_strength(c, contract)
        if k < best_k:
            best_k = k
            best = c
    return best


@njit(cache=True)
def possible_cards(p: int, unseen: int, voids: np.ndarray, known: np.ndarray, contract: int,
                   rp: np.ndarray) -> int:
    """Cards seat ``p`` may hold: unseen cards minus its void suits and others' known cards.

    ``unseen`` = cards not played and not in the observer's hand; ``voids[q]`` bit s = q is void in
    suit s (what a void allows: :func:`jass_env.kernel.possible_holding`); ``known[q]`` = cards
    known to be in q's hand (public Weis cards not yet played).
    """
    others = np.int64(0)
    for q in range(known.shape[0]):
        if q != p:
            others |= known[q]
    m = unseen & ~others & possible_holding(voids[p], contract, rp)
    return m | (known[p] & unseen)


@njit(cache=True)
def _max_strength(mask: int, lead_suit: int, contract: int) -> int:
    best = -1
    m = mask
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        s = card_strength(c, lead_suit, contract)
        if s > best:
            best = s
    return best


@njit(cache=True)
def _is_bock(card: int, played: int, contract: int) -> bool:
    return highest(SUIT_MASK[card // 9] & ~played, contract) == card


# ---------------------------------------------------------------------------------- card play
@njit(cache=True)
def heuristic_card(hand: int, played: int, trick: np.ndarray, n: int, me: int, leader: int,
                   contract: int, declarer: int, voids: np.ndarray, known: np.ndarray,
                   rp: np.ndarray, legal_mask: int) -> int:
    """The heuristic's card for seat ``me`` (card id 0..35).

    hand: my cards (mask); played: every card played this round, current trick included (mask);
    trick/n: the current trick's cards in play order and their count; me/leader/declarer: seats
    (any consistent numbering, absolute or relative, of the game's players: 4, or 6 in Schieber
    for six, whose teams alternate as in Schieber); voids/known: int64 per seat, at least players
    long (see :func:`possible_cards`); legal_mask: the legal cards if known (0 = compute them here).
    """
    legal = legal_cards(hand, trick, n, contract, rp)
    if legal_mask:
        both = legal & legal_mask
        legal = both if both else legal_mask
    if popcount(legal) == 1:
        return core.lowest_bit(legal)
    c = _choose_card(hand, legal, played, trick, n, me, leader, contract, declarer, voids, known, rp)
    if c < 0 or not (legal >> c) & 1:
        return lowest(legal, contract, rp)
    return c


@njit(cache=True)
def _choose_card(hand: int, legal: int, played: int, trick: np.ndarray, n: int, me: int, leader: int,
                 contract: int, declarer: int, voids: np.ndarray, known: np.ndarray,
                 rp: np.ndarray) -> int:
    """The rules of :func:`heuristic_card` once the legal cards (more than one) are known."""
    base = RP_VALUES + 36 * contract
    trump_game = contract < 4
    tmask = SUIT_MASK[contract] if trump_game else np.int64(0)
    remaining = ALL_CARDS & ~played            # not yet played (mine included)
    unseen = remaining & ~hand
    players = rp[RP_PLAYERS]
    lead_suit = trick[0] // 9 if n > 0 else -1
    # the opponents (the seats an odd number after me: teams alternate): what they may hold
    # together, the suits one of them may ruff (void there, maybe holding trumps), and the
    # strongest card one still to play in this trick may hold
    poss_opp = np.int64(0)
    ruff_suits = 0
    opp_max = -1
    for k in range(1, players, 2):
        poss = possible_cards((me + k) % players, unseen, voids, known, contract, rp)
        poss_opp |= poss
        if trump_game and (poss & tmask):
            for s in range(4):
                if (poss & SUIT_MASK[s]) == 0:
                    ruff_suits |= 1 << s
        if n > 0 and k < players - n:
            opp_max = max(opp_max, _max_strength(poss, lead_suit, contract))

    if n == 0:
        # ---------------------------------------------------------------- leading
        if trump_game:
            my_trumps = hand & tmask
            if declarer % 2 == me % 2 and (poss_opp & tmask) and my_trumps:
                top = highest(my_trumps, contract)
                if top == highest(remaining & tmask, contract):
                    return top
                if popcount(my_trumps) >= 3:
                    return lowest(my_trumps, contract, rp)
        best = -1
        best_k = -1
        for s in range(4):
            if trump_game and s == contract:
                continue
            if not (hand & SUIT_MASK[s]):
                continue
            b = highest(remaining & SUIT_MASK[s], contract)
            if not (hand >> b) & 1:
                continue
            if (ruff_suits >> s) & 1:        # an opponent void in s who may hold trumps ruffs
                continue
            k = rp[base + b] * 64 + rank_strength(b, contract)
            if k > best_k:
                best_k = k
                best = b
        if best >= 0:
            return best
        # low from the longest side suit (any suit in Obenabe/Undenufe)
        best_s = -1
        best_len = 0
        for s in range(4):
            if trump_game and s == contract:
                continue
            ln = popcount(hand & SUIT_MASK[s])
            if ln > best_len:
                best_len = ln
                best_s = s
        if best_s >= 0:
            return lowest(hand & SUIT_MASK[best_s], contract, rp)
        # only trumps left
        top = highest(hand, contract)
        if top == highest(remaining & tmask, contract):
            return top
        return lowest(hand, contract, rp)

    # -------------------------------------------------------------------- following
    wpos = trick_winner_position(trick, n, contract)
    best_str = card_strength(trick[wpos], lead_suit, contract)
    winner = (leader + wpos) % players
    tp = 0
    for i in range(n):
        tp += rp[base + trick[i]]
    # my winning cards: cheapest (non-trump first, fewest points, lowest), safest
    cheap_win = -1
    cheap_k = 1 << 30
    cheap_safe = -1
    cheap_safe_k = 1 << 30
    strong_win = -1
    strong_s = -1
    m = legal
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        s = card_strength(c, lead_suit, contract)
        if s <= best_str:
            continue
        is_trump = trump_game and c // 9 == contract
        k = (10000 if is_trump else 0) + rp[base + c] * 64 + s
        if k < cheap_k:
            cheap_k = k
            cheap_win = c
        if s > opp_max and k < cheap_safe_k:
            cheap_safe_k = k
            cheap_safe = c
        if s > strong_s:
            strong_s = s
            strong_win = c

    if winner % 2 == me % 2:                   # a team-mate wins (I have not played yet)
        if best_str > opp_max:
            # smear: the most valuable non-trump card (never a Bock of equal value first)
            best = -1
            best_k = -1
            m = legal
            while m:
                low = m & -m
                c = core.lowest_bit(low)
                m ^= low
                if trump_game and c // 9 == contract:
                    continue
                k = rp[base + c] * 64 + (0 if _is_bock(c, played, contract) else 32) \
                    - rank_strength(c, contract)
                if k > best_k:
                    best_k = k
                    best = c
            if best >= 0:
                return best
        elif cheap_safe >= 0 and tp >= 10:
            return cheap_safe
    else:
        if n == players - 1 and cheap_win >= 0:
            return cheap_win
        if cheap_safe >= 0:
            if not (trump_game and cheap_safe // 9 == contract) or tp >= 10:
                return cheap_safe
        if tp >= 10 and strong_win >= 0:
            return strong_win

    # discard the cheapest card, keeping trumps and Bocks
    best = -1
    best_k = 1 << 40
    m = legal
    while m:
        low = m & -m
        c = core.lowest_bit(low)
        m ^= low
        k = rp[base + c] * 64 + rank_strength(c, contract)
        if trump_game and c // 9 == contract:
            k += 100000
        if _is_bock(c, played, contract):
            k += 50000
        if k < best_k:
            best_k = k
            best = c
    return best


@njit(cache=True)
def heuristic_action(v: np.ndarray, rp: np.ndarray) -> int:
    """The heuristic's action for a compact seat view (int64[V_SIZE], see :mod:`agents.view`)."""
    legal = v[V_LEGAL]
    if popcount(legal) == 1:
        return core.lowest_bit(legal)
    phase = v[V_PHASE]
    if phase == 0 or phase == 1:
        return choose_contract(v[V_HAND], legal)
    played = np.int64(0)
    for r in range(MAX_PLAYERS):
        played |= v[V_PLAYED + r]
    voids = np.empty(MAX_PLAYERS, dtype=np.int64)
    known = np.empty(MAX_PLAYERS, dtype=np.int64)
    for r in range(MAX_PLAYERS):
        voids[r] = v[V_VOIDS + r]
        known[r] = v[V_WEIS + r] & ~played
    trick = v[V_TRICK:V_TRICK + MAX_PLAYERS]
    return heuristic_card(v[V_HAND], played, trick, v[V_N_TRICK], 0, v[V_LEADER], v[V_CONTRACT],
                          v[V_DECLARER], voids, known, rp, legal & ALL_CARDS)


@njit(cache=True)
def heuristic_actions(obs: np.ndarray, mask: np.ndarray, rp: np.ndarray) -> np.ndarray:
    """The heuristic's action for each row of a batch, decided from the observation only.

    obs: (N, obs_dim) float32 observations (Schieber's or Schieber for six's, as ``rp`` says);
    mask: (N, 43) bool/int legal-action masks (every row
    needs a legal action); rp: the rules' params. Returns (N,) int64 actions (what
    :meth:`HeuristicAgent.act` returns for each row), e.g. for bot seats in a batched env.
    """
    n = obs.shape[0]
    out = np.empty(n, dtype=np.int64)
    v = np.empty(V_SIZE, dtype=np.int64)
    for i in range(n):
        decode_view(obs[i], mask[i], v, rp[RP_PLAYERS], rp[RP_TRICKS])
        out[i] = heuristic_action(v, rp)
    return out


class HeuristicAgent(Agent):
    """Graf trump choice + rule-based card play (docs/bots.md). Deterministic; ``seed`` is unused."""

    name = "heuristic"

    def __init__(self, rules: str | Rules | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        self.rp = self.rules.params

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode(obs, players=self.rules.spec.players)
        if v[V_LEGAL] == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        return checked_action(int(heuristic_action(v, self.rp)), int(v[V_LEGAL]), self.name)


__all__ = ["HeuristicAgent", "graf_scores", "choose_contract", "heuristic_card", "heuristic_action",
           "heuristic_actions", "possible_cards", "PUSH_THRESHOLD"]
