"""Differenzler bots: a target-tracking heuristic and PIMC search (compiled with numba).

Both decide from their seat's observation only (:mod:`agents.differenzler_view`), in both player
counts (``differenzler`` 4 × 9, ``differenzler3`` 3 × 12); the legal cards come from the action mask.

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
count) and built with :func:`jass_env.core.set_play_position` and
:func:`jass_env.core.set_predictions`; in each world everyone plays the heuristic, with each
other seat's prediction its visible one or the heuristic's estimate of its world hand.

* **Prediction:** the median of the own card points over the sampled worlds (rollouts from the
  first trick, my own play tracking the heuristic's estimate).
* **Card play:** each legal card is played in every world and rolled out; the card with the
  lowest mean penalty of the round (the engine's penalty: ``|prediction − points|``, −10 for an
  exact hit) is chosen (ties: the lowest card id).

Sampling is deterministic given the agent's seed: each decision draws one 32-bit seed from
``self.rng`` for the compiled xorshift generator.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from jass_env import core
from jass_env.core import PHASE_ACTION_OFFSET, state_size
from jass_env.kernel import (
    ACE,
    JACK,
    KING,
    PHASE_PLAY,
    SUIT_MASK,
    card_points,
    card_strength,
    cards_in_trick,
    contract,
    current_trick,
    hand_of,
    lowest_bit,
    n_players,
    phase,
    played_by,
    points_of,
    popcount,
    score_of,
    seat_after,
    to_move,
    trick_winner_position,
    voids,
)
from jass_env.rules import Rules, make_rules
from jass_env.spec import LAST_TRICK_BONUS, MAX_PLAYERS, ROUND_POINTS

from .base import Agent, checked_action
from .differenzler_view import (
    DV_DEALER,
    DV_HAND,
    DV_LEADER,
    DV_LEGAL,
    DV_N_TRICK,
    DV_PHASE,
    DV_PLAYED,
    DV_PLAYERS,
    DV_POINTS,
    DV_PREDICTIONS,
    DV_SIZE,
    DV_TRICK,
    DV_TRICK_NO,
    DV_TRICKS,
    DV_TRICKS_WON,
    DV_TRUMP,
    DV_TRUMP_CARD,
    DV_VOIDS,
    PREDICTING,
    ViewDecoder,
    decode_view,
    prediction_action,
)
from .heuristic import possible_cards
from .pimc import check_search_params, search_worlds
from .worlds import deal_unseen

STATE_SIZE = state_size()   # length of an engine state array

ALL_CARDS = (1 << 36) - 1
N_SUITS = 4
NO_CARD = -1


# ---------------------------------------------------------------------------------- prediction
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
TEN = 4       # rank offsets (jass_env.cards)
NINE = 5


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


# ---------------------------------------------------------------------------------- card play
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
def state_card(st: np.ndarray, target: int, rp: np.ndarray) -> int:
    """The heuristic's card for the player to move in an engine state (a search world), from
    that player's hand and the public information only."""
    n = n_players(rp)
    p = to_move(st)
    played = np.int64(0)
    for q in range(n):
        played |= played_by(st, q)
    shown = voids(st)
    voids_rel = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for k in range(n):
        voids_rel[k] = shown[seat_after(p, k, n)]
    legal = core.legal_actions_mask(st, rp) & ALL_CARDS
    return choose_card(hand_of(st, p), legal, current_trick(st), cards_in_trick(st), contract(st),
                       played, voids_rel, n, target - points_of(st, p), rp)


@njit(cache=True)
def view_action(v: np.ndarray, rp: np.ndarray) -> int:
    """The heuristic's action for a compact seat view: its prediction while predicting, else its
    card (aiming at its own prediction)."""
    if v[DV_PHASE] == PREDICTING:
        points = estimate_points(v[DV_HAND], v[DV_TRUMP], v[DV_PLAYERS], rp)
        return PHASE_ACTION_OFFSET + min(max(points, 0), ROUND_POINTS)
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


def differenzler_rules(rules: str | Rules | None) -> Rules:
    """The rules, which must be a Differenzler game's (ValueError otherwise)."""
    r = make_rules(rules)
    if r.spec.bidding != "prediction":
        raise ValueError(f"the Differenzler bots play differenzler or differenzler3, not {r.game!r}")
    return r


# ---------------------------------------------------------------------------------- PIMC
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
        if r == 0:
            targets[r] = my_target
        elif v[DV_PREDICTIONS + r] >= 0:
            targets[r] = v[DV_PREDICTIONS + r]
        else:
            targets[r] = estimate_points(hands[r] | played[r], v[DV_TRUMP], n, rp)
    if v[DV_PHASE] == PREDICTING:
        core.set_play_position(st, hands, zeros, zeros, zeros, zeros, 0, forehand, forehand, 0, -1,
                               v[DV_TRUMP], 0, zeros, zeros, forehand, rp)
    else:
        core.set_play_position(st, hands, played, v[DV_VOIDS:DV_VOIDS + MAX_PLAYERS], zeros,
                               v[DV_TRICK:DV_TRICK + MAX_PLAYERS], v[DV_N_TRICK], v[DV_LEADER], forehand,
                               0, -1, v[DV_TRUMP], v[DV_TRICK_NO], v[DV_POINTS:DV_POINTS + MAX_PLAYERS],
                               v[DV_TRICKS_WON:DV_TRICKS_WON + MAX_PLAYERS], 0, rp)
    core.set_predictions(st, targets, rp)


@njit(cache=True)
def rollout(st: np.ndarray, targets: np.ndarray, rp: np.ndarray) -> None:
    """Play the world ``st`` to the round's end, everyone with the heuristic toward its target."""
    while phase(st) == PHASE_PLAY:
        core.apply_action(st, state_card(st, targets[to_move(st)], rp), rp)


@njit(cache=True)
def pimc_points(v: np.ndarray, rp: np.ndarray, n_worlds: int, my_target: int, rng: np.ndarray,
                out: np.ndarray) -> None:
    """My card points in each of ``n_worlds`` sampled worlds played out from the first trick."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for i in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world(v, hands, my_target, rp, st, targets)
        rollout(st, targets, rp)
        out[i] = points_of(st, 0)


@njit(cache=True)
def pimc_penalties(v: np.ndarray, rp: np.ndarray, n_worlds: int, rng: np.ndarray, sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds, my round penalty after each legal card to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    targets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for _ in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world(v, hands, v[DV_PREDICTIONS], rp, world, targets)
        m = v[DV_LEGAL]
        while m:
            c = lowest_bit(m)
            m &= m - 1
            st[:] = world
            core.apply_action(st, c, rp)
            rollout(st, targets, rp)
            sums[c] += score_of(st, 0)


class DifferenzlerPIMC(DifferenzlerHeuristic):
    """PIMC for Differenzler (module docstring): ``worlds`` sampled worlds per decision.

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated). ``rollout`` must be "heuristic" (the only Differenzler rollout).
    """

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

    def _search(self, step) -> None:
        """Call ``step(k)`` for batches of worlds until ``worlds`` are done or time is up."""
        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = self.decode(obs)
        rng = np.array([int(self.rng.integers(1, 2**32 - 1))], dtype=np.int64)
        if v[DV_PHASE] == PREDICTING:
            points = np.zeros(self.worlds, dtype=np.int64)
            filled = [0]
            estimate = self.predict(v)

            def step(k: int) -> None:
                pimc_points(v, self.rp, k, estimate, rng, points[filled[0]:filled[0] + k])
                filled[0] += k

            self._search(step)
            return prediction_action(int(np.floor(np.median(points[:filled[0]]) + 0.5)))
        legal = int(v[DV_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        if popcount(legal) == 1:
            return lowest_bit(legal)
        sums = np.zeros(36, dtype=np.int64)
        self._search(lambda k: pimc_penalties(v, self.rp, k, rng, sums))
        best = min((c for c in range(36) if legal >> c & 1), key=lambda c: sums[c])
        return checked_action(best, legal, self.name)


__all__ = ["DifferenzlerHeuristic", "DifferenzlerPIMC", "estimate_points", "choose_card", "view_card",
           "state_card", "view_action", "heuristic_actions", "sample_world", "build_world", "rollout",
           "differenzler_rules"]
