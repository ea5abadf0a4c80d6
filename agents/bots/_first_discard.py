"""What the bots of the games of trump by the first discard (Mittlere, Molotow; docs/bots.md)
share: the seat's table as the heuristics read it, and PIMC with the game's own objective.

Every bot reads only its seat's observation (:mod:`jass_env.games._first_discard.observation`,
the layout both games share) and the legal mask. The heuristics (:mod:`agents.bots.mittlere`,
:mod:`agents.bots.molotow`) decide from a :class:`Table` (:func:`decode`) through
:class:`DiscardBot`.

:class:`DiscardPIMC` plays every game of this layout (:func:`first_discard_specs`). For a card
decision with more than one legal card:

1. **Sample** ``worlds`` deals of the cards the seat has not seen
   (:func:`agents.search.worlds.deal_seat_view`): each other seat as many cards as it still holds,
   none of a suit it has shown void in (in these games every void shown is a void: the first
   failure to follow fixes trump, later ones follow the trump rules), the public hand-Weis cards
   not yet played with their owner (Molotow).
2. **History**: while no trump is fixed, fixing it recounts the finished tricks with the trump's
   values, so the world needs them. Before the fix everyone followed suit, so each finished trick
   is one card of one suit from every seat; the observation tells each seat's cards, points and
   tricks but not how a suit played twice split into tricks: :func:`sample_history` draws a split
   that gives every seat its observed points and tricks (after ``MAX_TRIES`` misses, the last one).
3. **Evaluate** each legal card in every world: the world's state is built with
   :func:`jass_env.engine.positions.set_play_position` and
   :func:`jass_env.engine.positions.set_trick_plays` (I am player 0), the card applied and the
   hand played out by everyone with random legal cards (:func:`agents.search.worlds.play_out_random`)
   or, where the lowest score wins (Molotow; there by default), the compiled avoidance play
   (:func:`avoid_card`: lowest lead, highest card that does not take the trick, else the cheapest
   winner); the engine scores the hand.
4. **Pick** the card with the best mean of the game's own objective for me: my hand score times
   the game's sign (:attr:`jass_env.games.base.Game.sign`: Mittlere's Striche − Nullen count up,
   Molotow's score down; hand Weis and table Weis taken before are the same in every world and
   left out). Ties: the lowest card id.

The policy-guided search (:mod:`agents.search.search`) takes the same worlds
(:class:`FirstDiscardWorlds`, the games' ``"worlds"`` bot): :func:`build_world` writes what a world
shows its players beyond the cards (the card that fixed trump, Molotow's Weis and Stöck), so a
world shows the searcher its real observation.

A given seed plays a given hand the same way (:func:`agents.search.pimc.decision_generator`). The
compiled functions that play a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`compiled_pimc` makes them for one game for Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from jass_env.engine.card_play import STRENGTH, card_points, card_strength, trick_winner_position
from jass_env.engine.cards import (
    ALL_CARDS,
    KING_QUEEN,
    N_SUITS,
    OBENABE,
    ROUND_POINTS,
    SUIT_MASK,
    card_values,
    lowest_bit,
    nth_bit,
    popcount,
)
from jass_env.engine.positions import set_play_position, set_trick_plays
from jass_env.engine.spec import MAX_PLAYERS, MAX_TRICKS
from jass_env.engine.state import (
    PHASE_OVER,
    PHASE_PLAY,
    cards_in_trick,
    contract,
    current_trick,
    phase,
    score_of,
    state_size,
    to_move,
)
from jass_env.engine.switches import RP_PLAYERS, RP_STOECK, Rules
from jass_env.engine.transitions import apply_action, legal_set
from jass_env.games import REGISTRY, game_of, make_rules
from jass_env.games._first_discard.observation import LAYOUTS, obs_slices
from jass_env.games._first_discard.rules import set_public_scoring, set_trump_fix
from jass_env.games.molotow.rules import declare_hand_weis

from ..base import Agent, checked_action
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.world_model import ActionLikelihood, WorldModel, encode_to_move
from ..search.worlds import MAX_TRIES, deal_seat_view, next_rand, play_out_random

#: play-out policies: random legal cards, or (where the lowest score wins) the compiled avoidance
#: play (:func:`avoid_card`; the games' own heuristics are Python, too slow inside a search)
ROLLOUTS = ("random", "heuristic")


def first_discard_specs() -> tuple[str, ...]:
    """The specs of every registered game whose observation is this layout (their observation
    modules take it from :mod:`jass_env.games._first_discard.observation`)."""
    return tuple(name for game in REGISTRY.values() if game.observation.obs_slices is obs_slices
                 for name in game.specs)


# the heuristics' table
@dataclass
class Table:
    """What a seat sees of the current hand, decoded from its observation (relative seats)."""

    hand: list[int]
    dealt: list[int]             # the hand as dealt: ``hand`` and the cards this seat has played
    trick: list[int]             # cards on the table, leader first
    leader: int                  # relative seat of the trick's leader
    trump: int | None            # None while no trump is fixed
    points: list[int]            # per relative seat
    tricks_won: list[int]
    n: int

    @property
    def contract(self) -> int:
        return OBENABE if self.trump is None else self.trump

    def winner_seat(self) -> int | None:
        """The relative seat winning the trick so far (None on an empty trick)."""
        if not self.trick:
            return None
        lead = self.trick[0] // 9
        best = max(range(len(self.trick)), key=lambda i: STRENGTH[self.contract, lead, self.trick[i]])
        return (self.leader + best) % self.n

    def would_win(self, card: int) -> bool:
        """Whether ``card`` would win the trick against the cards already in it (a card that does
        not follow while no trump is fixed becomes trump)."""
        if not self.trick:
            return True
        lead = self.trick[0] // 9
        contract = self.contract
        if self.trump is None and card // 9 != lead:
            contract = card // 9
        return STRENGTH[contract, lead, card] > max(STRENGTH[contract, lead, c] for c in self.trick)

    def fixes_trump(self, card: int) -> bool:
        return self.trump is None and bool(self.trick) and card // 9 != self.trick[0] // 9


def decode(obs: Mapping[str, np.ndarray], rules: Rules) -> Table:
    """The :class:`Table` of an observation of ``rules``' game."""
    o = np.asarray(obs["observation"])
    s = LAYOUTS.of(rules.spec).slices
    n, tricks = rules.spec.players, rules.spec.tricks
    hand = [int(c) for c in np.flatnonzero(o[s["hand"]])]
    own_played = [int(c) for c in np.flatnonzero(o[s["played"]][:36])]     # relative seat 0 first
    trick_rows = o[s["trick"]].reshape(n, 36)
    leaders = np.flatnonzero(o[s["leader"]])
    leader = int(leaders[0]) if leaders.size else 0
    trick = []
    for i in range(n):
        cards = np.flatnonzero(trick_rows[(leader + i) % n])
        if not cards.size:
            break
        trick.append(int(cards[0]))
    trumps = np.flatnonzero(o[s["trump"]])
    return Table(hand, sorted(hand + own_played), trick, leader, int(trumps[0]) if trumps.size else None,
                 [int(round(x * ROUND_POINTS)) for x in o[s["points"]]],
                 [int(round(x * tricks)) for x in o[s["tricks_won"]]], n)


class DiscardBot(Agent):
    """What the heuristics share: the rules (one of ``game_kind``, the game's specs), the card
    values under a contract, the strength of a card in a trick."""

    game_kind: tuple[str, ...] = ()

    def __init__(self, rules: str | Rules | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        if self.rules.game not in self.game_kind:
            raise ValueError(f"{type(self).__name__} plays {', '.join(self.game_kind)}, "
                             f"not {self.rules.game}")
        self.values = [card_values(c) for c in range(5)]

    def points_of(self, card: int, t: Table) -> int:
        return int(self.values[t.contract][card])

    def strength(self, card: int, t: Table) -> int:
        """How high a card ranks in the trick (or, leading, in its own suit)."""
        lead = t.trick[0] // 9 if t.trick else card // 9
        contract = card // 9 if t.fixes_trump(card) else t.contract
        return int(STRENGTH[contract, lead, card])

    def duck(self, legal: list[int], t: Table, key=None) -> int | None:  # noqa: ANN001 (a sort key)
        """The highest losing card (ties broken by ``key``), None when every card wins."""
        losing = [c for c in legal if not t.would_win(c)]
        if not losing:
            return None
        return max(losing, key=lambda c: (key(c) if key else 0, self.strength(c, t), self.points_of(c, t)))

    def cheapest_win(self, legal: list[int], t: Table) -> int | None:
        winning = [c for c in legal if t.would_win(c)]
        if not winning:
            return None
        return min(winning, key=lambda c: (self.points_of(c, t), self.strength(c, t)))


# PIMC
# the compact seat view (int64), seats relative to me (0 = me, 1 = next in play order)
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
W_FIX_TRICK = W_TRICKS_WON + MAX_PLAYERS  # trick (from 0) in which trump was fixed, -1 none
W_FIX_POSITION = W_FIX_TRICK + 1        # position of the fixing card in that trick (0 = leader), -1 none
W_HAND_WEIS = W_FIX_POSITION + 1        # hand Weis points per relative seat (Molotow, public after trick 1)
W_TABLE_WEIS = W_HAND_WEIS + MAX_PLAYERS  # table Weis points taken per relative seat (Molotow)
W_STOECK = W_TABLE_WEIS + MAX_PLAYERS   # relative seat whose Stöck is shown, -1 none (Molotow)
W_SIZE = W_STOECK + 1

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
    s = LAYOUTS.of(rules.spec).slices
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
    fixed = v[W_TRUMP] != OBENABE
    v[W_FIX_TRICK] = _one_hot(o[s["trump_trick"]], -1) if fixed else -1
    v[W_FIX_POSITION] = _one_hot(o[s["trump_position"]], -1) if fixed else -1
    v[W_HAND_WEIS:W_HAND_WEIS + n] = np.rint(o[s["hand_weis"]].astype(np.float64) * ROUND_POINTS)
    v[W_TABLE_WEIS:W_TABLE_WEIS + n] = np.rint(o[s["table_weis"]].astype(np.float64) * ROUND_POINTS)
    v[W_STOECK] = _one_hot(o[s["stoeck"]], -1)
    return v


@njit(cache=True)
def current_trick_mask(v: np.ndarray) -> int:
    """The cards on the table in the current trick of a view (36-bit mask)."""
    cards = np.int64(0)
    for i in range(v[W_N_TRICK]):
        cards |= np.int64(1) << v[W_TRICK + i]
    return cards


@njit(cache=True)
def sample_history(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, plays: np.ndarray,
                   winners: np.ndarray) -> bool:
    """The finished tricks of a view with no trump fixed yet: ``plays[t, r]`` the card of relative
    seat r in trick t, ``winners[t]`` its winner (the highest card: every card followed suit, Obenabe
    ranking). A suit played in k tricks splits each seat's k cards of it into a random order; the
    split is redrawn until each seat's Obenabe points and tricks are the view's (at most MAX_TRIES
    redraws). Returns whether they match."""
    n = v[W_PLAYERS]
    current = current_trick_mask(v)
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
def fixing_card(v: np.ndarray) -> int:
    """The card that fixed trump in a view where it is fixed: in the current trick the card at the
    fixing position; in a finished trick (the view keeps no finished trick's cards once trump is
    fixed) the lowest trump the fixer played outside the current trick: which one it was changes
    nothing in the play to come."""
    if v[W_FIX_TRICK] == v[W_TRICK_NO]:
        return v[W_TRICK + v[W_FIX_POSITION]]
    return lowest_bit(v[W_PLAYED + v[W_FIXER]] & SUIT_MASK[v[W_TRUMP]] & ~current_trick_mask(v))


@njit(cache=True)
def stoeck_holder(v: np.ndarray, hands: np.ndarray) -> int:
    """The relative seat that held the trump K and Q when trump was fixed (it holds the Stöck),
    -1 none, in a world with ``hands`` of a view where trump is fixed and no Stöck is shown yet:
    a seat's cards then were those it holds now and its card in the current trick unless played
    before the fixing card in the same trick (a card it played in a finished trick after the fix
    is not known to be one of them)."""
    n = v[W_PLAYERS]
    kq = KING_QUEEN[v[W_TRUMP]]
    for r in range(n):
        held = hands[r]
        i = (r - v[W_LEADER]) % n
        if i < v[W_N_TRICK] and (v[W_FIX_TRICK] < v[W_TRICK_NO] or i >= v[W_FIX_POSITION]):
            held |= np.int64(1) << v[W_TRICK + i]
        if held & kq == kq:
            return r
    return -1


@njit(cache=True)
def build_world(v: np.ndarray, hands: np.ndarray, plays: np.ndarray, winners: np.ndarray, n_history: int,
                rp: np.ndarray, st: np.ndarray) -> None:
    """The engine state of a sampled world (players = relative seats, I am player 0, to move):
    the view's position with ``hands``, the first ``n_history`` finished tricks of ``plays`` /
    ``winners`` recorded (:func:`sample_history`), and the current trick; once trump is fixed, the
    card that fixed it (:func:`fixing_card`) and who holds the Stöck (the one shown, else
    :func:`stoeck_holder`); the hand Weis (the public ones after trick 1, during trick 1 those of
    the world's own hands, as the deal declares them) and the table Weis taken."""
    n = v[W_PLAYERS]
    set_play_position(st, hands, v[W_PLAYED:W_PLAYED + MAX_PLAYERS], v[W_VOIDS:W_VOIDS + MAX_PLAYERS],
                      v[W_WEIS:W_WEIS + MAX_PLAYERS], v[W_TRICK:W_TRICK + MAX_PLAYERS], v[W_N_TRICK],
                      v[W_LEADER], (v[W_DEALER] + 1) % n, 0, v[W_FIXER], v[W_TRUMP], v[W_TRICK_NO],
                      v[W_POINTS:W_POINTS + MAX_PLAYERS], v[W_TRICKS_WON:W_TRICKS_WON + MAX_PLAYERS],
                      0, rp)
    for t in range(n_history):
        set_trick_plays(st, t, plays[t], n, winners[t], rp)
    set_trick_plays(st, v[W_TRICK_NO], v[W_TRICK:W_TRICK + MAX_PLAYERS], v[W_N_TRICK], -1, rp)
    stoeck = v[W_STOECK]
    if v[W_FIX_TRICK] >= 0:
        set_trump_fix(st, fixing_card(v), v[W_FIX_TRICK], v[W_FIX_POSITION], rp)
        if stoeck < 0 and rp[RP_STOECK] > 0:
            stoeck = stoeck_holder(v, hands)
    set_public_scoring(st, v[W_HAND_WEIS:W_HAND_WEIS + MAX_PLAYERS],
                       v[W_TABLE_WEIS:W_TABLE_WEIS + MAX_PLAYERS], stoeck, v[W_STOECK] >= 0, rp)
    if v[W_TRICK_NO] == 0:
        declare_hand_weis(st, rp)


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
def avoid_card(game: int, st: np.ndarray, rp: np.ndarray) -> int:
    """The avoidance play-out's card for the player to move (in the game numbered ``game``, a
    compile-time constant): lead the lowest card (a side card before a trump), follow with the
    highest card that does not take the trick (the most points among equals; a discard while no
    trump is fixed takes it), else the winner worth the fewest points."""
    bits, _ = legal_set(game, st, rp)
    legal = bits & ALL_CARDS
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
def play_out_avoiding(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    """Play the hand of ``st`` to its end, every player with :func:`avoid_card`."""
    while phase(st) == PHASE_PLAY:
        apply_action(game, st, avoid_card(game, st, rp), rp)


@njit(cache=True)
def pimc_scores(game: int, v: np.ndarray, rp: np.ndarray, size: int, n_worlds: int, sign: int, policy: int,
                rng: np.ndarray, sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds (states of ``size``), ``sign`` × my hand score after
    each legal card and a play-out (``policy`` 0 random, 1 avoiding) to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    world = np.zeros(size, dtype=np.int64)
    st = np.zeros(size, dtype=np.int64)
    for _ in range(n_worlds):
        n_history = sample_world(v, rp, rng, hands, plays, winners)
        build_world(v, hands, plays, winners, n_history, rp, world)
        m = v[W_LEGAL]
        while m:
            c = lowest_bit(m)
            m &= m - 1
            st[:] = world
            apply_action(game, st, c, rp)
            if policy == 0:
                play_out_random(game, st, rp, rng)
            else:
                play_out_avoiding(game, st, rp)
            sums[c] += sign * score_of(st, 0)


class Searches(NamedTuple):
    """The compiled entry points of one game for Python (:func:`compiled_pimc`)."""

    scores: object      #: (v, rp, size, n_worlds, sign, policy, rng, sums): :func:`pimc_scores`
    avoid_card: object  #: (st, rp) -> card: :func:`avoid_card`


@cache
def compiled_pimc(game: int) -> Searches:
    """The search (and the avoidance play's card) of the game numbered ``game`` for Python, with
    that game's rules compiled in."""

    @njit(cache=True)
    def scores(v, rp, size, n_worlds, sign, policy, rng, sums):  # noqa: ANN001, ANN202
        pimc_scores(game, v, rp, size, n_worlds, sign, policy, rng, sums)

    @njit(cache=True)
    def avoid(st, rp):  # noqa: ANN001, ANN202
        return avoid_card(game, st, rp)

    return Searches(scores, avoid)


def avoidance_fits(rules: Rules) -> bool:
    """Whether the avoidance play-out (:func:`avoid_card`, which plays for the fewest points) fits
    the game of ``rules``: where the lowest score wins (Molotow), not where it does not (Mittlere)."""
    return not game_of(rules).higher_is_better


class DiscardPIMC(Agent):
    """PIMC for the games of trump by the first discard (module docstring): ``worlds`` sampled
    worlds per decision, scored by the game's own objective; ``rollout`` "random" or, where the
    lowest score wins, "heuristic" (the avoidance play-out, :func:`avoid_card`; there the default).

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated).
    """

    def __init__(self, rules: str | Rules, worlds: int = 10, rollout: str | None = None,
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        specs = first_discard_specs()
        if self.rules.game not in specs:
            raise ValueError(f"DiscardPIMC plays {', '.join(specs)}, not {self.rules.game!r}")
        self.worlds = check_search_params(worlds, time_limit)
        game = game_of(self.rules)
        allowed = ROLLOUTS if avoidance_fits(self.rules) else ROLLOUTS[:1]
        rollout = allowed[-1] if rollout is None else rollout
        if rollout not in allowed:
            raise ValueError(f"{self.rules.game} PIMC plays out with rollout={' or '.join(allowed)}, "
                             f"got {rollout!r}")
        self.rp = self.rules.params
        self.sign = game.sign
        self.rollout = rollout
        self.policy = ROLLOUTS.index(rollout)
        self.time_limit = time_limit
        self.name = f"{self.rules.game}-pimc{self.worlds}"
        self.last_worlds = 0   # worlds evaluated in the last searched decision
        self._scores = compiled_pimc(game.kind).scores
        self._size = state_size(self.rules.spec)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode_view(obs, self.rules)
        legal = int(v[W_LEGAL])
        if legal == 0:
            raise ValueError("no legal card in the action mask (the hand is over?)")
        if popcount(legal) == 1:
            return lowest_bit(legal)
        rng = decision_generator(self.rng)
        sums = np.zeros(36, dtype=np.int64)

        def step(k: int) -> None:
            self._scores(v, self.rp, self._size, k, self.sign, self.policy, rng, sums)

        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)
        best = max((c for c in range(36) if legal >> c & 1), key=lambda c: sums[c])
        return checked_action(best, legal, self.name)


# the policy-guided search's worlds
@njit(cache=True)
def fill_worlds(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, states: np.ndarray) -> None:
    """Fill ``states`` (int64[n_worlds, state size]) with worlds of the seat view ``v``, each
    sampled (:func:`sample_world`) and built (:func:`build_world`) as the PIMC's."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    for w in range(states.shape[0]):
        n_history = sample_world(v, rp, rng, hands, plays, winners)
        build_world(v, hands, plays, winners, n_history, rp, states[w])


@njit(cache=True)
def encode_rows(game: int, states: np.ndarray, rp: np.ndarray, root: np.ndarray, o_game: int, o_rounds: int,
                obs: np.ndarray, mask: np.ndarray) -> None:
    """Observation (float32[B, obs_dim]) and action mask (int8[B, 36]) of the player to move in
    each world of ``states`` (int64[B, state size]; finished: an all-zero mask), with the match
    features a world leaves out (each seat's game total from ``o_game`` on, the hands left at
    ``o_rounds``) from the searcher's real observation ``root``, turned to the player to move."""
    encode_to_move(game, states, rp, obs, mask)
    n = rp[RP_PLAYERS]
    for i in range(states.shape[0]):
        if phase(states[i]) == PHASE_OVER:
            continue
        p = to_move(states[i])
        for r in range(n):
            obs[i, o_game + r] = root[o_game + (p + r) % n]
        obs[i, o_rounds] = root[o_rounds]


@cache
def compiled_encode_rows(game: int):  # noqa: ANN201 (a compiled function)
    """:func:`encode_rows` for the game numbered ``game`` (its rules compiled in):
    (states, rp, root, o_game, o_rounds, obs, mask)."""

    @njit(cache=True)
    def encode(states, rp, root, o_game, o_rounds, obs, mask):  # noqa: ANN001, ANN202
        encode_rows(game, states, rp, root, o_game, o_rounds, obs, mask)

    return encode


@njit(cache=True)
def play_out_rows_avoiding(game: int, states: np.ndarray, rp: np.ndarray) -> None:
    """Play every world of ``states`` (int64[B, state size]) to its end with :func:`avoid_card`."""
    for i in range(states.shape[0]):
        play_out_avoiding(game, states[i], rp)


@cache
def compiled_play_out_rows(game: int):  # noqa: ANN201 (a compiled function)
    """:func:`play_out_rows_avoiding` for the game numbered ``game`` (its rules compiled in):
    (states, rp)."""

    @njit(cache=True)
    def play_out(states, rp):  # noqa: ANN001, ANN202
        play_out_rows_avoiding(game, states, rp)

    return play_out


class FirstDiscardWorlds(WorldModel):
    """The worlds of Mittlere and Molotow for the policy-guided search
    (:mod:`agents.search.world_model`), every spec of this layout (:func:`first_discard_specs`).

    Every decision of these games is a card (there is no bidding, and Molotow's hand Weis are
    declared by the deal, not by the player), so every decision has worlds: deals of the unseen
    cards sampled as the PIMC samples them (:func:`sample_world`: hand sizes, shown voids, the
    public hand-Weis cards with their owner, the deck of the spec; while no trump is fixed, a split
    of the finished tricks that gives every seat its points and tricks, :func:`sample_history`)
    and built by :func:`build_world`, which also writes the card that fixed trump, the Weis and the
    Stöck, so that a world shows the searcher its real observation. A world is one hand; in a game
    the totals so far and the hands left are copied into the rollouts' observations from the real
    one (:meth:`encode`). The result is the game's own score of the searcher's hand times the
    game's sign (the default :meth:`results`, the PIMC's objective: Mittlere's Striche − Nullen,
    Molotow's points negated).
    """

    def __init__(self, rules: Rules, likelihood: ActionLikelihood | None = None, oversample: int = 1) -> None:
        super().__init__(rules, likelihood, oversample)
        specs = first_discard_specs()
        if rules.game not in specs:
            raise ValueError(f"FirstDiscardWorlds are for {', '.join(specs)}, not {rules.game!r}")
        slices = LAYOUTS.of(rules.spec).slices
        self._o_game = slices["game_score"].start
        self._o_rounds = slices["rounds_left"].start
        self._encode_rows = compiled_encode_rows(self.game.kind)

    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        if isinstance(n_worlds, bool) or not isinstance(n_worlds, (int, np.integer)) or n_worlds < 1:
            raise ValueError(f"n_worlds must be an integer >= 1, got {n_worlds!r}")
        v = decode_view(obs, self.rules)
        if v[W_LEGAL] == 0:
            raise ValueError("no legal card in the action mask (the hand is over?)")
        states = np.zeros((n_worlds, self.size), dtype=np.int64)
        fill_worlds(v, self.rp, rng, states)
        return states, np.ones(n_worlds, dtype=np.int64)

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        self._encode_rows(states, self.rp, root, self._o_game, self._o_rounds, obs, mask)

    @classmethod
    def has_heuristic_play_out(cls, rules: Rules) -> bool:
        """The avoidance play-out of the PIMC, where it fits the game (:func:`avoidance_fits`)."""
        return avoidance_fits(rules)

    def play_out(self, states: np.ndarray) -> None:
        if not avoidance_fits(self.rules):
            super().play_out(states)          # raises: Mittlere has no heuristic play-out
        compiled_play_out_rows(self.game.kind)(states, self.rp)


__all__ = ["Table", "decode", "DiscardBot", "DiscardPIMC", "ROLLOUTS", "first_discard_specs", "avoid_card",
           "play_out_avoiding", "play_out_rows_avoiding", "compiled_play_out_rows", "avoidance_fits",
           "decode_view", "sample_world", "sample_history", "build_world", "pimc_scores",
           "compiled_pimc", "current_trick_mask", "fixing_card", "stoeck_holder", "fill_worlds",
           "encode_rows", "compiled_encode_rows", "FirstDiscardWorlds",
           ] + [k for k in dir() if k.startswith("W_")]
