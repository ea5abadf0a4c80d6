"""Differenzler's rule-based bots: the seat view they read, a target-tracking heuristic, PIMC
search, and the random bot's prediction (compiled with numba).

Every bot decides from its seat's observation only, in both player counts (``differenzler`` 4 × 9,
``differenzler3`` 3 × 12); the legal cards come from the action mask.

**The seat view.** :func:`decode_view` (compiled) writes a compact ``int64[DV_SIZE]`` array from
an observation vector and action mask; :class:`ViewDecoder` is its Python entry point for an
observation dict ``{"observation": float32[obs_dim], "action_mask": int8[194]}``. Slice offsets
come from the game's layout (:data:`jass_env.games.differenzler.observation.LAYOUTS`, never
written down twice). Seats are *relative to the observer*: relative seat ``r`` is player
``(me + r) % n`` (0 = me, 1 = the next player in play order, ...). Card sets are 36-bit masks (bit
= card id, see :mod:`jass_env.engine.cards`); points are card points (the observation's value ×
157, rounded). Compact layout (per-seat fields have room for MAX_PLAYERS seats):

================  ====  ===============================================================
DV_HAND           1     my cards
DV_PLAYED         6     cards each relative seat has played this round (current trick too)
DV_TRICK          6     the current trick's cards in play order (leader first), -1 = empty
DV_N_TRICK        1     cards in the current trick
DV_VOIDS          6     per relative seat: bit s = shown void in suit s
DV_TRUMP          1     trump suit 0..3
DV_TRUMP_CARD     1     the shown bottom card (held by the dealer until played), -1 = none
DV_DEALER         1     relative seat of the dealer
DV_PHASE          1     PREDICTING, PLAYING, or OVER
DV_PREDICTIONS    6     predictions per relative seat as far as visible, -1 = not made or hidden
DV_LEADER         1     relative seat leading the current trick (card play), -1 otherwise
DV_TRICK_NO       1     current trick 0..T-1 (card play), -1 otherwise
DV_POINTS         6     card points taken this round per relative seat
DV_TRICKS_WON     6     tricks taken this round per relative seat
DV_LEGAL          1     the legal cards (36-bit mask, from the action mask)
DV_PLAYERS        1     n
DV_TRICKS         1     T (tricks per round = cards per hand)
================  ====  ===============================================================

Heuristic (:class:`DifferenzlerHeuristic`)
-----------------------------------------
* **Prediction** (:func:`estimate_points`): a linear estimate of the hand's card points from its
  strength (:data:`FEATURES`: trump points, length and honours, side Aces, Kings, 10s, side
  points, voids), with weights fitted per player count on the heuristic's self-play
  (:data:`PREDICTION_WEIGHTS`; held-out error 12-13 points against 15-16 for the rule of thumb).
* **Card play** (:func:`choose_card`) with ``need = prediction − points taken``:
  behind (need > 0): win when winning brings the points closer to the prediction (the trick's value
  counts the last trick's 5; an unfinished trick adds the average card for each player still to
  play): as leader with a card no other seat can beat, as follower with the cheapest winner no
  later player can beat (last to play: the winner that lands closest to the prediction); otherwise
  discard the lowest card. At or above target (need <= 0): duck: follow with the highest card that
  does not win (fewest points among equals), lead the card most likely to be beaten; forced to win,
  play the winner most likely to be overtaken. On the next-to-last trick (the last one leaves no
  choice) both tricks are weighed together, the last one with its 5: the card kept decides it.

PIMC (:class:`DifferenzlerPIMC`)
--------------------------------
Worlds are sampled consistent with the seat's knowledge (:func:`sample_world`: own hand, played
cards, shown voids, the shown trump card held by the dealer until played, each seat's card
count) and built with :func:`jass_env.engine.positions.set_play_position` and
:func:`jass_env.games.differenzler.rules.set_predictions`; in each world everyone plays the
heuristic, with each other seat's prediction its visible one or the heuristic's estimate of its
world hand.

* **Prediction:** the median of the own card points over the sampled worlds (rollouts from the
  first trick, my own play tracking the heuristic's estimate).
* **Card play:** each legal card is played in every world and rolled out; the card with the
  lowest mean penalty of the round (the engine's penalty: ``|prediction − points|``, −10 for an
  exact hit) is chosen (ties: the lowest card id).

Sampling is deterministic given the agent's seed (:func:`agents.search.pimc.decision_generator`).

Search worlds (:class:`DifferenzlerWorlds`)
-------------------------------------------
The same worlds for the policy-guided search (:mod:`agents.search.search`), at card play and at my
prediction (:func:`build_prediction_world`: the round as dealt, the seats before me having
predicted); the rollouts are the search's, not the heuristic's.
The compiled functions that play a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`compiled_pimc` makes the searches of one game for Python.

The random bot's prediction (:data:`RANDOM_PREDICTIONS`, named in the game's ``BOTS`` fact): not
a uniform 0..157 (a straw man) but the rule of thumb :func:`rule_of_thumb_prediction`: 2 × the card
points of the own trump cards + 11 per side Ace.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from jass_env.engine.card_play import card_points, card_strength, trick_winner_position
from jass_env.engine.cards import (
    ACE,
    ALL_CARDS,
    JACK,
    KING,
    LAST_TRICK_BONUS,
    N_CARDS,
    N_SUITS,
    NINE,
    PHASE_ACTION_OFFSET,
    ROUND_POINTS,
    SUIT_MASK,
    TEN,
    lowest_bit,
    popcount,
)
from jass_env.engine.positions import set_play_position
from jass_env.engine.spec import MAX_PLAYERS, GameSpec
from jass_env.engine.state import (
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PREDICT,
    cards_in_trick,
    contract,
    current_trick,
    hand_of,
    n_players,
    new_state,
    phase,
    played_by,
    points_of,
    score_of,
    seat_after,
    state_size,
    to_move,
    voids,
)
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action, legal_set, reset_match, start_round
from jass_env.games import make_rules
from jass_env.games.differenzler.observation import LAYOUTS, obs_dim
from jass_env.games.differenzler.rules import N_PREDICTIONS, prediction_of, set_predictions, set_trump

from ..base import Agent, checked_action
from ..random_bot import PhaseRule
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.world_model import ActionLikelihood, WorldModel
from ..search.worlds import deal_unseen
from .schieber import mask36, one_hot, possible_cards

NO_CARD = -1

# the seat view
#: DV_PHASE values
PREDICTING, PLAYING, OVER = 0, 1, -1

DV_HAND = 0
DV_PLAYED = DV_HAND + 1
DV_TRICK = DV_PLAYED + MAX_PLAYERS
DV_N_TRICK = DV_TRICK + MAX_PLAYERS
DV_VOIDS = DV_N_TRICK + 1
DV_TRUMP = DV_VOIDS + MAX_PLAYERS
DV_TRUMP_CARD = DV_TRUMP + 1
DV_DEALER = DV_TRUMP_CARD + 1
DV_PHASE = DV_DEALER + 1
DV_PREDICTIONS = DV_PHASE + 1
DV_LEADER = DV_PREDICTIONS + MAX_PLAYERS
DV_TRICK_NO = DV_LEADER + 1
DV_POINTS = DV_TRICK_NO + 1
DV_TRICKS_WON = DV_POINTS + MAX_PLAYERS
DV_LEGAL = DV_TRICKS_WON + MAX_PLAYERS
DV_PLAYERS = DV_LEGAL + 1
DV_TRICKS = DV_PLAYERS + 1
DV_SIZE = DV_TRICKS + 1

#: the observation slices the decoder reads, in the order of the offsets array it is given
_READ = ("hand", "played", "trick", "voids", "trump", "trump_card", "dealer", "phase", "predicted",
         "predictions", "leader", "trick_number", "points", "tricks_won")
(_O_HAND, _O_PLAYED, _O_TRICK, _O_VOIDS, _O_TRUMP, _O_TRUMP_CARD, _O_DEALER, _O_PHASE, _O_PREDICTED,
 _O_PREDICTIONS, _O_LEADER, _O_TRICK_NO, _O_POINTS, _O_TRICKS_WON) = range(len(_READ))


def observation_offsets(spec: GameSpec) -> np.ndarray:
    """The start of each slice the decoder reads (``_READ`` order) in the observation of a
    Differenzler spec."""
    slices = LAYOUTS.of(spec).slices
    return np.array([slices[name].start for name in _READ], dtype=np.int64)


@njit(cache=True)
def _points(x: float) -> int:
    return int(np.floor(x * ROUND_POINTS + 0.5))


@njit(cache=True)
def decode_view(obs: np.ndarray, mask: np.ndarray, offs: np.ndarray, n: int, tricks: int,
                open_predictions: bool, out: np.ndarray) -> None:
    """Decode one seat's observation (float32) and action mask into ``out`` (int64[DV_SIZE]).

    ``offs`` is :func:`observation_offsets` of the game, ``n`` its players, ``tricks`` its tricks;
    other seats' predictions are read only when ``open_predictions`` (else they are hidden).
    """
    out[:] = 0
    out[DV_PLAYERS] = n
    out[DV_TRICKS] = tricks
    out[DV_HAND] = mask36(obs, offs[_O_HAND])
    for r in range(MAX_PLAYERS):
        out[DV_TRICK + r] = -1
        out[DV_PREDICTIONS + r] = -1
    for r in range(n):
        out[DV_PLAYED + r] = mask36(obs, offs[_O_PLAYED] + N_CARDS * r)
        v = 0
        for s in range(N_SUITS):
            if obs[offs[_O_VOIDS] + N_SUITS * r + s] > 0.5:
                v |= 1 << s
        out[DV_VOIDS + r] = v
        out[DV_POINTS + r] = _points(obs[offs[_O_POINTS] + r])
        out[DV_TRICKS_WON + r] = int(np.floor(obs[offs[_O_TRICKS_WON] + r] * tricks + 0.5))
        if obs[offs[_O_PREDICTED] + r] > 0.5 and (r == 0 or open_predictions):
            out[DV_PREDICTIONS + r] = _points(obs[offs[_O_PREDICTIONS] + r])
    out[DV_TRUMP] = one_hot(obs, offs[_O_TRUMP], N_SUITS)
    out[DV_TRUMP_CARD] = one_hot(obs, offs[_O_TRUMP_CARD], N_CARDS)
    out[DV_DEALER] = one_hot(obs, offs[_O_DEALER], n)
    ph = one_hot(obs, offs[_O_PHASE], 2)
    out[DV_PHASE] = PREDICTING if ph == 0 else PLAYING if ph == 1 else OVER
    leader = one_hot(obs, offs[_O_LEADER], n)
    out[DV_LEADER] = leader
    out[DV_TRICK_NO] = one_hot(obs, offs[_O_TRICK_NO], tricks)
    if leader >= 0:
        k = 0
        for i in range(n):
            card = one_hot(obs, offs[_O_TRICK] + N_CARDS * ((leader + i) % n), N_CARDS)
            if card < 0:
                break
            out[DV_TRICK + k] = card
            k += 1
        out[DV_N_TRICK] = k
    legal = np.int64(0)
    for c in range(N_CARDS):
        if mask[c]:
            legal |= np.int64(1) << c
    out[DV_LEGAL] = legal


class ViewDecoder:
    """Decodes observation dicts of one Differenzler game (``rules.game``) into compact views."""

    def __init__(self, rules: Rules) -> None:
        self.game = rules.game
        self.offs = observation_offsets(rules.spec)
        self.players = rules.spec.players
        self.tricks = rules.spec.tricks
        self.n_actions = rules.spec.n_actions
        self.obs_dim = obs_dim(rules.spec)
        self.open_predictions = rules.predictions == "open"

    def __call__(self, obs: Mapping[str, np.ndarray]) -> np.ndarray:
        """The compact view (int64[DV_SIZE]) of ``{"observation": ..., "action_mask": ...}``."""
        if "observation" not in obs or "action_mask" not in obs:
            raise ValueError(f"the observation dict needs 'observation' and 'action_mask' keys, "
                             f"got {sorted(obs)}")
        o = np.asarray(obs["observation"], dtype=np.float32)
        mask = np.asarray(obs["action_mask"])
        if mask.shape != (self.n_actions,) or o.shape != (self.obs_dim,):
            raise ValueError(f"a {self.game} observation has an action mask of {self.n_actions} entries and "
                             f"an observation of {self.obs_dim}; got mask {mask.shape}, "
                             f"observation {o.shape}")
        v = np.empty(DV_SIZE, dtype=np.int64)
        decode_view(o, mask.astype(np.int8), self.offs, self.players, self.tricks, self.open_predictions, v)
        return v


def predicting(masks: np.ndarray) -> np.ndarray:
    """(N,) bool: which rows of the action masks ``masks`` (N, n_actions) allow the predictions
    (the whole block of N_PREDICTIONS); all False for a game without them."""
    m = np.asarray(masks)
    if m.shape[1] < PHASE_ACTION_OFFSET + N_PREDICTIONS:
        return np.zeros(m.shape[0], dtype=bool)
    return m[:, PHASE_ACTION_OFFSET:PHASE_ACTION_OFFSET + N_PREDICTIONS].astype(bool).all(axis=1)


@njit(cache=True)
def prediction_action(points: int) -> int:
    """The action that predicts ``points`` (clipped to 0..157)."""
    return PHASE_ACTION_OFFSET + min(max(points, 0), ROUND_POINTS)


def differenzler_rules(rules: str | Rules | None) -> Rules:
    """The rules, which must be a Differenzler game's (ValueError otherwise)."""
    r = make_rules(rules)
    if r.spec.bidding != "prediction":
        raise ValueError(f"the Differenzler bots play differenzler or differenzler3, not {r.game!r}")
    return r


# the random bot's prediction
#: the rule of thumb: each trump card point counts twice, each side (non-trump) Ace 11
TRUMP_POINT_WEIGHT = 2
SIDE_ACE_POINTS = 11


def rule_of_thumb_prediction(hand: int, trump: int, rp: np.ndarray) -> int:
    """2 × the card points of the trump cards in ``hand`` (36-bit mask) + 11 per side Ace,
    clipped to 0..157."""
    cards = [c for c in range(N_CARDS) if hand >> c & 1]
    trump_points = sum(int(card_points(c, trump, rp)) for c in cards if c // 9 == trump)
    side_aces = sum(1 for c in cards if c // 9 != trump and c % 9 == ACE)
    return min(max(TRUMP_POINT_WEIGHT * trump_points + SIDE_ACE_POINTS * side_aces, 0), ROUND_POINTS)


def rule_of_thumb_actions(obs: np.ndarray, masks: np.ndarray, rules: Rules) -> np.ndarray:
    """The rule of thumb's prediction action (k,) int64 for each row of observations (k, obs_dim)
    and action masks (k, 194) of seats about to predict."""
    decode = ViewDecoder(rules)
    out = np.empty(len(obs), dtype=np.int64)
    for i in range(len(obs)):
        view = decode({"observation": obs[i], "action_mask": masks[i]})
        out[i] = prediction_action(rule_of_thumb_prediction(int(view[DV_HAND]), int(view[DV_TRUMP]),
                                                            rules.params))
    return out


#: how the random bot predicts (the game's ``BOTS["random_phase"]``)
RANDOM_PREDICTIONS = PhaseRule("prediction", predicting, rule_of_thumb_actions)


# prediction
#: the hand features of the prediction, in order (trump = the trump suit, side = the others)
FEATURES = ("1", "trump card points", "trumps", "trump Jack", "trump 9", "trump Ace", "side Aces",
            "side Kings", "side Kings with the Ace", "side 10s", "side card points", "void side suits",
            "trumps squared")
#: least-squares weights of the features for the card points a hand takes, per player count
#: (row: players − 3), fitted on 2000 rounds of the heuristic's self-play (deal set seed 99,
#: first half fitted, second half held out: mean absolute error 12.3 points for 4 players and 13.2
#: for 3, against 16.2 and 15.4 for the rule of thumb of the random bot)
PREDICTION_WEIGHTS = np.array([
    [1.82, 0.31, 1.66, 23.17, 8.8, 4.37, 1.78, 3.46, 2.62, -6.16, 0.47, -0.21, 1.47],
    [4.89, 0.37, 1.92, 19.19, 8.87, 5.75, -8.13, 2.3, 1.3, -14.19, 1.23, 5.87, 0.49],
], dtype=np.float64)
MIN_PLAYERS = 3


@njit(cache=True)
def hand_features(hand: int, trump: int, rp: np.ndarray, out: np.ndarray) -> None:
    """The :data:`FEATURES` of ``hand`` (36-bit mask) with ``trump``, into ``out`` (float64)."""
    out[:] = 0.0
    out[0] = 1.0
    for c in range(36):
        if not (hand >> c) & 1:
            continue
        r = c % 9
        if c // 9 == trump:
            out[1] += card_points(c, trump, rp)
            out[2] += 1.0
            out[3] += 1.0 if r == JACK else 0.0
            out[4] += 1.0 if r == NINE else 0.0
            out[5] += 1.0 if r == ACE else 0.0
        else:
            out[6] += 1.0 if r == ACE else 0.0
            out[7] += 1.0 if r == KING else 0.0
            out[8] += 1.0 if r == KING and (hand >> (c - 1)) & 1 else 0.0
            out[9] += 1.0 if r == TEN else 0.0
            out[10] += card_points(c, trump, rp)
    for s in range(N_SUITS):
        if s != trump and not hand & SUIT_MASK[s]:
            out[11] += 1
    out[12] = out[2] * out[2]


@njit(cache=True)
def estimate_points(hand: int, trump: int, players: int, rp: np.ndarray) -> int:
    """The heuristic's prediction for ``hand`` with ``trump``: the fitted linear estimate of its
    card points (:data:`PREDICTION_WEIGHTS`), rounded and clipped to 0..157."""
    f = np.empty(len(FEATURES), dtype=np.float64)
    hand_features(hand, trump, rp, f)
    x = 0.0
    for i in range(len(FEATURES)):
        x += PREDICTION_WEIGHTS[players - MIN_PLAYERS, i] * f[i]
    return int(min(max(np.floor(x + 0.5), 0), ROUND_POINTS))


# card play
@njit(cache=True)
def _beaten_by(card: int, lead: int, trump: int, cards: int) -> int:
    """How many of ``cards`` beat ``card`` in a trick led in suit ``lead``."""
    mine = card_strength(card, lead, trump)
    k = 0
    m = cards
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if card_strength(c, lead, trump) > mine:
            k += 1
    return k


@njit(cache=True)
def _threats(later_cards: np.ndarray, voids_rel: np.ndarray, lead: int, trump: int) -> int:
    """The cards the players still to play (``later_cards[k]``, 0 for others) may take a trick
    led in ``lead`` with: cards of the led suit, and trumps only when trump is led or the player
    is shown void in the led suit (else he is taken to follow suit)."""
    out = np.int64(0)
    for k in range(MAX_PLAYERS):
        suits = SUIT_MASK[lead]
        if lead == trump or (voids_rel[k] >> lead) & 1:
            suits |= SUIT_MASK[trump]
        out |= later_cards[k] & suits
    return out


@njit(cache=True)
def _rank(card: int, trump: int) -> int:
    """How high ``card`` is within its own suit (its strength with its suit led)."""
    return card_strength(card, card // 9, trump)


@njit(cache=True)
def choose_card(hand: int, legal: int, trick: np.ndarray, n_in: int, trump: int, played: int,
                voids_rel: np.ndarray, players: int, need: int, rp: np.ndarray) -> int:
    """The heuristic's card (see the module docstring).

    ``legal`` the legal cards (36-bit mask), ``trick`` the current trick's first ``n_in`` cards
    (leader first), ``played`` every card played this round, ``voids_rel[k]`` the shown voids of
    the seat ``k`` places after me, ``need`` = prediction − points taken. (The last trick leaves
    no choice; its 5 is weighed on the trick before.)
    """
    if popcount(legal) == 1:
        return lowest_bit(legal)
    unseen = ALL_CARDS & ~hand & ~played
    zeros = np.zeros(MAX_PLAYERS, dtype=np.int64)
    lead = trick[0] // 9 if n_in > 0 else -1
    later_cards = np.zeros(MAX_PLAYERS, dtype=np.int64)   # what each player still to play may hold
    for k in range(1, players - n_in):
        later_cards[k] = possible_cards(k, unseen, voids_rel, zeros, trump, rp)
    later_n = players - 1 - n_in
    n_unseen = popcount(unseen)
    unseen_points = 0
    m = unseen
    while m:
        unseen_points += card_points(lowest_bit(m), trump, rp)
        m &= m - 1
    avg = unseen_points / n_unseen if n_unseen > 0 else 0.0
    value = later_n * avg             # the trick's value without my card (its cards are added below)
    if n_in == 0:
        best_s = -1
    else:
        best_s = card_strength(trick[trick_winner_position(trick, n_in, trump)], lead, trump)
        for i in range(n_in):
            value += card_points(trick[i], trump, rp)
    winners = np.int64(0)
    safe = np.int64(0)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        ls = c // 9 if n_in == 0 else lead
        if card_strength(c, ls, trump) > best_s:
            winners |= np.int64(1) << c
            if _beaten_by(c, ls, trump, _threats(later_cards, voids_rel, ls, trump)) == 0:
                safe |= np.int64(1) << c
    if popcount(hand) == 2:
        return _penultimate(hand, legal, safe, trump, unseen, value, players, avg, need, rp)
    if need > 0:
        # the safe winner that brings the points closest to the prediction, the cheapest among equals
        best = NO_CARD
        best_gap = float(need)
        best_rank = 1 << 30
        m = safe
        while m:
            c = lowest_bit(m)
            m &= m - 1
            gap = abs(need - (value + card_points(c, trump, rp)))
            r = _rank(c, trump) + (100 if c // 9 == trump and n_in == 0 else 0)   # lead side cards first
            if gap < best_gap - 2.5 or (abs(gap - best_gap) <= 2.5 and best != NO_CARD and r < best_rank):
                best, best_gap, best_rank = c, min(gap, best_gap), r
        if best != NO_CARD:
            return best
        # nothing safe helps: discard the lowest card (fewest points among equals), keeping trumps
        return _extreme(legal & ~winners if legal & ~winners else legal, trump, rp, False)
    if n_in > 0 and legal & ~winners:
        return _extreme(legal & ~winners, trump, rp, True)
    # leading at target, or forced to win: the card most likely to be beaten, fewest points
    best = NO_CARD
    best_key = -(1 << 30)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        ls = c // 9 if n_in == 0 else lead
        threats = _threats(later_cards, voids_rel, ls, trump)
        key = 100 * _beaten_by(c, ls, trump, threats) - card_points(c, trump, rp)
        if key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def _penultimate(hand: int, legal: int, safe: int, trump: int, unseen: int, value: float, players: int,
                 avg: float, need: int, rp: np.ndarray) -> int:
    """The next-to-last trick, minding the last trick's 5: the card whose two tricks together
    land closest to the prediction. Playing ``c`` takes this trick if ``c`` is a safe winner; the
    card kept takes the last trick (its points, the 5 and ``players − 1`` average cards) if it is
    the highest trump out, or if I lead it and nobody can beat it."""
    best = NO_CARD
    best_gap = 0.0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        kept = lowest_bit(hand & ~(np.int64(1) << c))
        wins_now = (safe >> c) & 1
        gain = value + card_points(c, trump, rp) if wins_now else 0.0
        top_trump = kept // 9 == trump and _beaten_by(kept, trump, trump, unseen) == 0
        if top_trump or (wins_now and _beaten_by(kept, kept // 9, trump, unseen) == 0):
            gain += LAST_TRICK_BONUS + card_points(kept, trump, rp) + (players - 1) * avg
        gap = abs(need - gain)
        if best == NO_CARD or gap < best_gap:
            best, best_gap = c, gap
    return best


@njit(cache=True)
def _extreme(cards: int, trump: int, rp: np.ndarray, highest: bool) -> int:
    """The highest (or lowest) card of ``cards`` within its suit, trumps counting above side
    cards; among equals the one with the fewest points."""
    best = NO_CARD
    best_key = 0
    m = cards
    while m:
        c = lowest_bit(m)
        m &= m - 1
        rank = _rank(c, trump) + (50 if c // 9 == trump else 0)
        key = (rank if highest else -rank) * 1000 - card_points(c, trump, rp)
        if best == NO_CARD or key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def view_card(v: np.ndarray, target: int, rp: np.ndarray) -> int:
    """The heuristic's card from a compact seat view (I am relative seat 0)."""
    played = np.int64(0)
    for r in range(v[DV_PLAYERS]):
        played |= v[DV_PLAYED + r]
    return choose_card(v[DV_HAND], v[DV_LEGAL], v[DV_TRICK:DV_TRICK + MAX_PLAYERS], v[DV_N_TRICK],
                       v[DV_TRUMP], played, v[DV_VOIDS:DV_VOIDS + MAX_PLAYERS], v[DV_PLAYERS],
                       target - v[DV_POINTS], rp)


@njit(cache=True)
def state_card(game: int, st: np.ndarray, target: int, rp: np.ndarray) -> int:
    """The heuristic's card for the player to move in an engine state (a search world of the game
    numbered ``game``, a compile-time constant), from that player's hand and the public
    information only."""
    n = n_players(rp)
    p = to_move(st)
    played = np.int64(0)
    for q in range(n):
        played |= played_by(st, q)
    shown = voids(st)
    voids_rel = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for k in range(n):
        voids_rel[k] = shown[seat_after(p, k, n)]
    bits, _ = legal_set(game, st, rp)
    return choose_card(hand_of(st, p), bits & ALL_CARDS, current_trick(st), cards_in_trick(st), contract(st),
                       played, voids_rel, n, target - points_of(st, p), rp)


@njit(cache=True)
def view_action(v: np.ndarray, rp: np.ndarray) -> int:
    """The heuristic's action for a compact seat view: its prediction while predicting, else its
    card (aiming at its own prediction)."""
    if v[DV_PHASE] == PREDICTING:
        return prediction_action(estimate_points(v[DV_HAND], v[DV_TRUMP], v[DV_PLAYERS], rp))
    return view_card(v, v[DV_PREDICTIONS], rp)


@njit(cache=True)
def _batch_actions(obs: np.ndarray, mask: np.ndarray, offs: np.ndarray, n: int, tricks: int,
                   open_predictions: bool, rp: np.ndarray) -> np.ndarray:
    out = np.empty(obs.shape[0], dtype=np.int64)
    v = np.empty(DV_SIZE, dtype=np.int64)
    for i in range(obs.shape[0]):
        decode_view(obs[i], mask[i], offs, n, tricks, open_predictions, v)
        out[i] = view_action(v, rp)
    return out


def heuristic_actions(obs: np.ndarray, mask: np.ndarray, rules: Rules) -> np.ndarray:
    """The heuristic's action for each row of a batch, decided from the observation only.

    obs: (N, obs_dim) float32 observations of ``rules``' Differenzler game; mask: (N, n_actions)
    bool/0-1 legal actions. Returns (N,) int64 actions, what :meth:`DifferenzlerHeuristic.act`
    returns for each row (e.g. for bot seats in a batched env).
    """
    r = differenzler_rules(rules)
    d = ViewDecoder(r)
    return _batch_actions(np.ascontiguousarray(obs, dtype=np.float32),
                          np.ascontiguousarray(mask, dtype=np.int8), d.offs, d.players, d.tricks,
                          d.open_predictions, r.params)


class DifferenzlerHeuristic(Agent):
    """The target-tracking heuristic (module docstring) for ``differenzler``/``differenzler3``."""

    name = "diff-heuristic"

    def __init__(self, rules: str | Rules | None = "differenzler", seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = differenzler_rules(rules)
        self.rp = self.rules.params
        self.decode = ViewDecoder(self.rules)

    def predict(self, v: np.ndarray) -> int:
        return int(estimate_points(v[DV_HAND], v[DV_TRUMP], v[DV_PLAYERS], self.rp))

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = self.decode(obs)
        if v[DV_PHASE] == PREDICTING:
            return prediction_action(self.predict(v))
        legal = int(v[DV_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        return checked_action(int(view_action(v, self.rp)), legal, self.name)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """:meth:`act` for every row of a batch at once (:func:`heuristic_actions`)."""
        return heuristic_actions(obs, mask, self.rules)


# PIMC
@njit(cache=True)
def sample_world(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> int:
    """Deal the unseen cards of a seat view ``v`` to relative seats 1..n-1 (into ``hands``,
    ``hands[0]`` = my hand), each seat as many as it still holds, none of a suit it has shown
    void in, the shown trump card to the dealer. Cards go most constrained first, each to a
    random allowed seat weighted by its free slots; a dead end restarts, and after MAX_TRIES
    restarts the voids are dropped. Returns the restarts used."""
    n = v[DV_PLAYERS]
    hand = v[DV_HAND]
    played = np.int64(0)
    for r in range(n):
        played |= v[DV_PLAYED + r]
    unseen = ALL_CARDS & ~hand & ~played
    zeros = np.zeros(MAX_PLAYERS, dtype=np.int64)
    fixed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    need = np.zeros(MAX_PLAYERS, dtype=np.int64)
    allowed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    tc = v[DV_TRUMP_CARD]
    free = unseen
    if tc >= 0 and (unseen >> tc) & 1:
        fixed[v[DV_DEALER]] = np.int64(1) << tc
        free &= ~fixed[v[DV_DEALER]]
    for r in range(1, n):
        need[r] = v[DV_TRICKS] - popcount(v[DV_PLAYED + r]) - popcount(fixed[r])
        allowed[r] = possible_cards(r, ALL_CARDS, v[DV_VOIDS:DV_VOIDS + MAX_PLAYERS], zeros, v[DV_TRUMP], rp)
    hands[0] = hand
    return deal_unseen(free, fixed, need, allowed, n, rng, hands)


@njit(cache=True)
def world_prediction(v: np.ndarray, hands: np.ndarray, r: int, rp: np.ndarray) -> int:
    """Relative seat ``r``'s prediction in a sampled world (``hands`` by relative seat) of the seat
    view ``v``: its visible one, else the heuristic's estimate of its world hand as dealt (the
    cards it holds and the ones it played)."""
    if v[DV_PREDICTIONS + r] >= 0:
        return v[DV_PREDICTIONS + r]
    return estimate_points(hands[r] | v[DV_PLAYED + r], v[DV_TRUMP], v[DV_PLAYERS], rp)


@njit(cache=True)
def build_world(v: np.ndarray, hands: np.ndarray, my_target: int, rp: np.ndarray, st: np.ndarray,
                targets: np.ndarray) -> None:
    """The engine state of a sampled world (players = relative seats, I am player 0), in card
    play at the view's position (before the first trick while predicting); ``targets`` receives
    every player's prediction: mine ``my_target``, another's its visible one or the heuristic's
    estimate of its world hand. The predictions are written into the state so the engine scores
    the world's round."""
    n = v[DV_PLAYERS]
    forehand = (v[DV_DEALER] + 1) % n
    zeros = np.zeros(MAX_PLAYERS, dtype=np.int64)
    played = v[DV_PLAYED:DV_PLAYED + MAX_PLAYERS]
    for r in range(n):
        targets[r] = my_target if r == 0 else world_prediction(v, hands, r, rp)
    if v[DV_PHASE] == PREDICTING:
        set_play_position(st, hands, zeros, zeros, zeros, zeros, 0, forehand, forehand, 0, -1,
                          v[DV_TRUMP], 0, zeros, zeros, forehand, rp)
    else:
        set_play_position(st, hands, played, v[DV_VOIDS:DV_VOIDS + MAX_PLAYERS], zeros,
                          v[DV_TRICK:DV_TRICK + MAX_PLAYERS], v[DV_N_TRICK], v[DV_LEADER], forehand,
                          0, -1, v[DV_TRUMP], v[DV_TRICK_NO], v[DV_POINTS:DV_POINTS + MAX_PLAYERS],
                          v[DV_TRICKS_WON:DV_TRICKS_WON + MAX_PLAYERS], 0, rp)
    set_predictions(st, targets, rp)


@njit(cache=True)
def rollout(game: int, st: np.ndarray, targets: np.ndarray, rp: np.ndarray) -> None:
    """Play the world ``st`` to the round's end, everyone with the heuristic toward its target."""
    while phase(st) == PHASE_PLAY:
        apply_action(game, st, state_card(game, st, targets[to_move(st)], rp), rp)


@njit(cache=True)
def play_out_rows(game: int, states: np.ndarray, rp: np.ndarray) -> None:
    """Play every world of ``states`` (int64[B, state size]) to the round's end as the heuristic
    plays: a seat still to predict predicts its estimate of its hand (:func:`estimate_points`),
    then everyone plays toward its prediction (:func:`rollout`, the PIMC's play-out)."""
    n = n_players(rp)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(states.shape[0]):
        st = states[i]
        while phase(st) == PHASE_PREDICT:
            points = estimate_points(hand_of(st, to_move(st)), contract(st), n, rp)
            apply_action(game, st, prediction_action(points), rp)
        for p in range(n):
            targets[p] = prediction_of(st, p)
        rollout(game, st, targets, rp)


@njit(cache=True)
def pimc_points(game: int, v: np.ndarray, rp: np.ndarray, size: int, n_worlds: int, my_target: int,
                rng: np.ndarray, out: np.ndarray) -> None:
    """My card points in each of ``n_worlds`` sampled worlds (states of ``size``) played out from
    the first trick."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    st = np.zeros(size, dtype=np.int64)
    for i in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world(v, hands, my_target, rp, st, targets)
        rollout(game, st, targets, rp)
        out[i] = points_of(st, 0)


@njit(cache=True)
def pimc_penalties(game: int, v: np.ndarray, rp: np.ndarray, size: int, n_worlds: int, rng: np.ndarray,
                   sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds (states of ``size``), my round penalty after each legal
    card to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(size, dtype=np.int64)
    st = np.zeros(size, dtype=np.int64)
    for _ in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world(v, hands, v[DV_PREDICTIONS], rp, world, targets)
        m = v[DV_LEGAL]
        while m:
            c = lowest_bit(m)
            m &= m - 1
            st[:] = world
            apply_action(game, st, c, rp)
            rollout(game, st, targets, rp)
            sums[c] += score_of(st, 0)


class Searches(NamedTuple):
    """The PIMC searches of one game for Python (:func:`compiled_pimc`)."""

    points: object     #: (v, rp, size, n_worlds, my_target, rng, out): :func:`pimc_points`
    penalties: object  #: (v, rp, size, n_worlds, rng, sums): :func:`pimc_penalties`
    play_out: object   #: (states, rp): :func:`play_out_rows`


@cache
def compiled_pimc(game: int) -> Searches:
    """The searches of the game numbered ``game`` for Python, with that game's rules compiled in."""

    @njit(cache=True)
    def points(v, rp, size, n_worlds, my_target, rng, out):  # noqa: ANN001, ANN202
        pimc_points(game, v, rp, size, n_worlds, my_target, rng, out)

    @njit(cache=True)
    def penalties(v, rp, size, n_worlds, rng, sums):  # noqa: ANN001, ANN202
        pimc_penalties(game, v, rp, size, n_worlds, rng, sums)

    @njit(cache=True)
    def play_out(states, rp):  # noqa: ANN001, ANN202
        play_out_rows(game, states, rp)

    return Searches(points, penalties, play_out)


class DifferenzlerPIMC(DifferenzlerHeuristic):
    """PIMC for Differenzler (module docstring): ``worlds`` sampled worlds per decision.

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated). ``rollout`` must be "heuristic" (the only Differenzler rollout).
    It decides a batch row by row: it has no batch form, and the heuristic's must not stand in for
    its search.
    """

    act_batch = None

    def __init__(self, rules: str | Rules | None = "differenzler", worlds: int = 20,
                 rollout: str = "heuristic", time_limit: float | None = None,
                 seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self.worlds = check_search_params(worlds, time_limit)
        if rollout != "heuristic":
            raise ValueError(f"Differenzler PIMC rolls out with the heuristic only (rollout=heuristic), "
                             f"got rollout={rollout!r}")
        self.rollout = rollout
        self.time_limit = time_limit
        self.name = f"diff-pimc{self.worlds}"
        self.last_worlds = 0   # worlds evaluated in the last searched decision
        self._searches = compiled_pimc(self.rules.spec.kind)
        self._size = state_size(self.rules.spec)

    def _search(self, step) -> None:  # noqa: ANN001 (a callable of k)
        """Call ``step(k)`` for batches of worlds until ``worlds`` are done or time is up."""
        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = self.decode(obs)
        rng = decision_generator(self.rng)
        if v[DV_PHASE] == PREDICTING:
            points = np.zeros(self.worlds, dtype=np.int64)
            filled = [0]
            estimate = self.predict(v)

            def step(k: int) -> None:
                self._searches.points(v, self.rp, self._size, k, estimate, rng,
                                      points[filled[0]:filled[0] + k])
                filled[0] += k

            self._search(step)
            return prediction_action(int(np.floor(np.median(points[:filled[0]]) + 0.5)))
        legal = int(v[DV_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        if popcount(legal) == 1:
            return lowest_bit(legal)
        sums = np.zeros(36, dtype=np.int64)
        self._search(lambda k: self._searches.penalties(v, self.rp, self._size, k, rng, sums))
        best = min((c for c in range(36) if legal >> c & 1), key=lambda c: sums[c])
        return checked_action(best, legal, self.name)


# the policy-guided search's worlds
@njit(cache=True)
def build_prediction_world(game: int, v: np.ndarray, hands: np.ndarray, rp: np.ndarray,
                           st: np.ndarray) -> None:
    """The engine state of a sampled world at my prediction (players = relative seats, I am player
    0 and to move), built in ``st`` (a new state, :func:`jass_env.engine.state.new_state`) of the
    game numbered ``game``: a single round dealt ``hands`` by the view's dealer, with the view's
    trump and shown trump card, in which the seats from forehand up to me have predicted, each its
    :func:`world_prediction`."""
    n = v[DV_PLAYERS]
    reset_match(game, st, False, rp)
    start_round(game, st, hands, v[DV_DEALER], rp)
    set_trump(st, v[DV_TRUMP], v[DV_TRUMP_CARD])
    r = (v[DV_DEALER] + 1) % n
    while r != 0:
        apply_action(game, st, PHASE_ACTION_OFFSET + world_prediction(v, hands, r, rp), rp)
        r = (r + 1) % n


@njit(cache=True)
def sample_search_worlds(game: int, v: np.ndarray, rp: np.ndarray, fresh: np.ndarray, rng: np.ndarray,
                         states: np.ndarray) -> None:
    """Fill each row of ``states`` (int64[m, state size]) with a world of the seat view ``v``
    dealt by :func:`sample_world` from ``rng`` (I am player 0 and to move): at my prediction
    :func:`build_prediction_world` (from the new state ``fresh``), in card play the PIMC's
    :func:`build_world` with my prediction and the trump card shown as in the view."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(states.shape[0]):
        st = states[i]
        sample_world(v, rp, rng, hands)
        if v[DV_PHASE] == PREDICTING:
            st[:] = fresh
            build_prediction_world(game, v, hands, rp, st)
        else:
            build_world(v, hands, v[DV_PREDICTIONS], rp, st, targets)
            set_trump(st, v[DV_TRUMP], v[DV_TRUMP_CARD])


@njit(cache=True)
def copy_game_totals(states: np.ndarray, root: np.ndarray, o_totals: int, o_rounds_left: int, n: int,
                     obs: np.ndarray) -> None:
    """Write the match features a world leaves out (its state is a single round) into the
    observation ``obs[i]`` (float32[B, obs_dim]) of the player to move in each unfinished world
    ``states[i]``, from my real observation ``root``: every seat's total (slice at ``o_totals``,
    ``n`` entries) turned to the acting seat's view, and the rounds left (at ``o_rounds_left``)."""
    for i in range(states.shape[0]):
        if phase(states[i]) == PHASE_OVER:
            continue
        p = to_move(states[i])
        for r in range(n):
            obs[i, o_totals + r] = root[o_totals + seat_after(p, r, n)]
        obs[i, o_rounds_left] = root[o_rounds_left]


@cache
def compiled_worlds(game: int) -> object:
    """:func:`sample_search_worlds` of the game numbered ``game`` for Python (its rules compiled in):
    (v, rp, fresh, rng, states)."""

    @njit(cache=True)
    def sample(v, rp, fresh, rng, states):  # noqa: ANN001, ANN202
        sample_search_worlds(game, v, rp, fresh, rng, states)

    return sample


class DifferenzlerWorlds(WorldModel):
    """The worlds of a Differenzler decision for the policy-guided search
    (:class:`agents.search.world_model.WorldModel`), at both kinds of decision:

    * **card play**: the PIMC's worlds (:func:`sample_world`, :func:`build_world`): the unseen cards
      dealt consistent with my hand, the cards played, the shown voids, each seat's card count and
      the shown trump card (held by the dealer until played); every seat's prediction is written
      in, mine as made, another's as visible (``predictions="open"``) or else the heuristic's
      estimate of its world hand (:func:`world_prediction`), so the engine scores each world's
      round with the game's penalty;
    * **my prediction**: the round as dealt in the world, before any card, with me to predict; the
      seats from forehand up to me have predicted (visible or estimated as above), the seats after
      me predict in the rollout, by the rollout's policy.

    The result is the default, -1 x player 0's round score: :data:`jass_env.games.differenzler.BETTER`
    is "lower" and a finished world's score of player 0 is my penalty (|prediction - points|,
    -10 for an exact hit), so a higher result is a smaller penalty. A world is a single round: in
    a match episode the totals and rounds left of the observation come from my real observation
    (:meth:`encode`). No world is weighted by the other seats' predictions (``likelihood`` and
    ``oversample`` are not used): every world counts once.
    """

    def __init__(self, rules: str | Rules | None = "differenzler", likelihood: ActionLikelihood | None = None,
                 oversample: int = 1) -> None:
        super().__init__(differenzler_rules(rules), likelihood, oversample)
        self.decode = ViewDecoder(self.rules)
        self._fresh = new_state(self.rules.spec)
        self._sample = compiled_worlds(self.rules.spec.kind)
        slices = LAYOUTS.of(self.rules.spec).slices
        self._o_totals = slices["game_penalty"].start
        self._o_rounds_left = slices["rounds_left"].start

    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(n_worlds, bool) or not isinstance(n_worlds, (int, np.integer)) or n_worlds < 1:
            raise ValueError(f"n_worlds must be an integer >= 1, got {n_worlds!r}")
        v = self.decode(obs)
        if v[DV_PHASE] == OVER or (v[DV_PHASE] == PLAYING and v[DV_LEGAL] == 0):
            raise ValueError("no legal action in the action mask (the round is over?): no worlds to build")
        states = np.empty((int(n_worlds), self.size), dtype=np.int64)
        self._sample(v, self.rp, self._fresh, rng, states)
        return states, np.ones(int(n_worlds), dtype=np.int64)

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """The default encoding of each world, with the match totals and rounds left copied from
        ``root`` (:func:`copy_game_totals`)."""
        super().encode(states, root, obs, mask)
        copy_game_totals(states, np.asarray(root, dtype=np.float32), self._o_totals, self._o_rounds_left,
                         self.rules.spec.players, obs)

    @classmethod
    def has_heuristic_play_out(cls, rules: Rules) -> bool:
        """Differenzler's PIMC play-out (:func:`play_out_rows`) plays every world of it."""
        return True

    def play_out(self, states: np.ndarray) -> None:
        compiled_pimc(self.rules.spec.kind).play_out(states, self.rp)


__all__ = ["DifferenzlerHeuristic", "DifferenzlerPIMC", "ViewDecoder", "decode_view", "observation_offsets",
           "predicting", "prediction_action", "differenzler_rules", "rule_of_thumb_prediction",
           "rule_of_thumb_actions", "RANDOM_PREDICTIONS", "estimate_points", "choose_card", "view_card",
           "state_card", "view_action", "heuristic_actions", "sample_world", "build_world", "rollout",
           "play_out_rows", "pimc_points", "pimc_penalties", "compiled_pimc", "world_prediction",
           "build_prediction_world", "sample_search_worlds", "copy_game_totals", "compiled_worlds",
           "DifferenzlerWorlds", "PREDICTING", "PLAYING", "OVER"] + \
    [k for k in dir() if k.startswith("DV_")]
