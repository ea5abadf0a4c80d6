"""Sidi-Jass for two's rule-based bots (docs/games/sidi.md, docs/bots.md): a rule-based player and PIMC.

Both read only their seat's observation (:mod:`jass_env.games.sidi.observation`) and the legal mask, and
both exchange the trump 6 for the face-up card whenever the mask allows it (a 6 for a better trump,
and the face-up card is public anyway).

:class:`SidiHeuristic`, while the stock lasts (free play, the hands fill up again): leads its
cheapest plain card (it keeps its trumps), wins a trick with a plain card of the led suit when it
can (the one worth most), trumps a lead worth 10 points or more with its cheapest trump, and
otherwise throws its cheapest plain card. Once the stock is empty (follow suit): it leads the
highest trump while it holds the best one still out, else a plain Ace, else its cheapest card; it
wins a trick with its cheapest winning card (plain before trump) and else plays its cheapest card.

:class:`SidiPIMC`, for a card decision with more than one legal card: **samples** ``worlds``
deals of the cards it has not seen (the opponent's hand: his publicly known cards, the face-up
card he drew or took by the exchange, and as many unseen cards as he holds besides; the stock
still face down in a random order, the face-up card last), **evaluates** each legal card in
every world (the world built with :func:`jass_env.engine.positions.set_play_position` and
:func:`jass_env.games.sidi.rules.set_world`, the card applied and the round played out with random
legal cards, or by default with the compiled greedy play :func:`greedy_card`) by my round score
minus the opponent's, and **picks** the best mean (ties: the lowest card id). After trick 10
nothing is hidden: every world is the true position.

:class:`SidiWorlds` gives the policy-guided search (:mod:`agents.search.world_model`) the worlds
of every Sidi decision, drawn from the search's compiled generator: the cards PIMC samples, with
the opponent's public Weis cards and a history of the finished tricks that shows the seat what it
saw (:func:`world_view`, :func:`build_world`).

The compiled functions that play a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`compiled_pimc` makes the search of one game for Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from jass_env.engine.card_play import STRENGTH, card_points
from jass_env.engine.cards import (
    ACE,
    ALL_CARDS,
    N_CARDS,
    N_SUITS,
    ROUND_POINTS,
    card_values,
    lowest_bit,
    popcount,
)
from jass_env.engine.positions import set_play_position, set_trick_plays
from jass_env.engine.state import (
    PHASE_OVER,
    PHASE_PLAY,
    cards_in_trick,
    contract,
    new_state,
    phase,
    score_of,
    to_move,
    trick_card,
)
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action, legal_set
from jass_env.games import make_rules
from jass_env.games.sidi import SPECS
from jass_env.games.sidi.observation import LAYOUTS
from jass_env.games.sidi.rules import (
    EXCHANGE,
    FREE_TRICKS,
    SIX,
    STOCK_SIZE,
    open_trump,
    set_world,
    stock_left,
)

from ..base import Agent, checked_action
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.world_model import ActionLikelihood, WorldModel
from ..search.worlds import next_rand, play_out_random

PLAYERS = 2
#: a lead worth this many points is worth a trump while the stock lasts
TRUMP_A_LEAD_FROM = 10


@dataclass
class SidiTable:
    """What a seat sees, decoded from its observation (relative seats: 0 me, 1 the opponent)."""

    hand: list[int]
    trick: list[int]              # cards on the table, leader first (0 or 1 card when I am to move)
    leader: int
    trump: int
    trump_card: int
    face_up: int                  # -1 once drawn
    known_opponent: int           # card mask the opponent is known to hold
    played: list[int]             # card masks per relative seat
    stock_left: int
    exchanged: bool
    trick_number: int
    points: list[int]
    tricks_won: list[int]


def _mask(row: np.ndarray) -> int:
    return sum(1 << int(c) for c in np.flatnonzero(row))


def decode(obs: Mapping[str, np.ndarray], rules: Rules) -> SidiTable:
    """The :class:`SidiTable` of a Sidi observation."""
    o = np.asarray(obs["observation"])
    s = LAYOUTS.of(rules.spec).slices
    tricks = rules.spec.tricks
    trick_rows = o[s["trick"]].reshape(PLAYERS, 36)
    leaders = np.flatnonzero(o[s["leader"]])
    leader = int(leaders[0]) if leaders.size else 0
    trick = [int(np.flatnonzero(trick_rows[(leader + i) % PLAYERS])[0]) for i in range(PLAYERS)
             if trick_rows[(leader + i) % PLAYERS].any()]
    face_up = np.flatnonzero(o[s["face_up"]])
    played = o[s["played"]].reshape(PLAYERS, 36)
    return SidiTable(
        hand=[int(c) for c in np.flatnonzero(o[s["hand"]])], trick=trick, leader=leader,
        trump=int(np.flatnonzero(o[s["trump"]])[0]), trump_card=int(np.flatnonzero(o[s["trump_card"]])[0]),
        face_up=int(face_up[0]) if face_up.size else -1,
        known_opponent=_mask(o[s["known"]].reshape(PLAYERS, 36)[1]),
        played=[_mask(played[r]) for r in range(PLAYERS)],
        stock_left=int(round(float(o[s["stock_left"]][0]) * STOCK_SIZE)),
        exchanged=bool(o[s["exchanged"]].any()), trick_number=int(np.flatnonzero(o[s["trick_number"]])[0]),
        points=[int(round(x * ROUND_POINTS)) for x in o[s["points"]]],
        tricks_won=[int(round(x * tricks)) for x in o[s["tricks_won"]]])


class _SidiBot(Agent):
    """Shared: the rules (a Sidi game) and the exchange whenever it is allowed."""

    def __init__(self, rules: str | Rules | None = "sidi", seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        if self.rules.game not in SPECS:
            raise ValueError(f"{type(self).__name__} plays Sidi (rules 'sidi'), not {self.rules.game!r}")
        self.rp = self.rules.params

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        mask = np.asarray(obs["action_mask"])
        if not mask.any():
            raise ValueError("no legal action in the action mask (the round is over?)")
        if mask[EXCHANGE]:
            return EXCHANGE
        legal = [int(c) for c in np.flatnonzero(mask[:EXCHANGE])]
        if len(legal) == 1:
            return legal[0]
        return checked_action(self.choose(decode(obs, self.rules), legal), mask, self.name)

    def choose(self, t: SidiTable, legal: list[int]) -> int:
        raise NotImplementedError


class SidiHeuristic(_SidiBot):
    """The rule-based Sidi player (module docstring)."""

    name = "sidi-heuristic"

    def choose(self, t: SidiTable, legal: list[int]) -> int:
        values = card_values(t.trump)

        def cheap(c: int) -> tuple:              # fewest points, then the weakest
            return (int(values[c]), int(STRENGTH[t.trump, c // 9, c]))

        plain = [c for c in legal if c // 9 != t.trump]
        trumps = [c for c in legal if c // 9 == t.trump]
        if not t.trick:
            return self._lead(t, legal, plain, trumps, cheap)
        lead = t.trick[0]
        beats = [c for c in legal if STRENGTH[t.trump, lead // 9, c] > STRENGTH[t.trump, lead // 9, lead]]
        plain_wins = [c for c in beats if c // 9 != t.trump]
        if t.stock_left > 0:
            if plain_wins:
                return max(plain_wins, key=lambda c: (int(values[c]), -c))
            trump_wins = [c for c in beats if c // 9 == t.trump]
            if trump_wins and values[lead] >= TRUMP_A_LEAD_FROM:
                return min(trump_wins, key=cheap)
            return min(plain or legal, key=cheap)
        if beats:
            return min(beats, key=lambda c: (c // 9 == t.trump, *cheap(c)))
        return min(legal, key=cheap)

    def _lead(self, t: SidiTable, legal: list[int], plain: list[int], trumps: list[int], cheap) -> int:  # noqa: ANN001
        if t.stock_left > 0:
            return min(plain or legal, key=cheap)
        if trumps:
            gone = t.played[0] | t.played[1]
            best = max(trumps, key=lambda c: STRENGTH[t.trump, t.trump, c])
            higher_out = [c for c in range(9 * t.trump, 9 * t.trump + 9)
                          if not gone >> c & 1 and c not in trumps
                          and STRENGTH[t.trump, t.trump, c] > STRENGTH[t.trump, t.trump, best]]
            if not higher_out:
                return best
        aces = [c for c in plain if c % 9 == ACE]
        return aces[0] if aces else min(plain or legal, key=cheap)


# PIMC
#: play-out policies: random legal cards, or the compiled greedy play (:func:`greedy_card`)
ROLLOUTS = ("random", "heuristic")


@njit(cache=True)
def greedy_card(game: int, st: np.ndarray, rp: np.ndarray) -> int:
    """The play-out policy of PIMC: a leader plays his cheapest plain card (fewest points, then
    weakest; his cheapest trump if he holds only trumps); a follower wins with his cheapest plain
    winner, or with his cheapest trump when the lead is worth 10 or more, else plays his cheapest
    card (plain before trump). ``game``: Sidi's number (a compile-time constant)."""
    bits, _ = legal_set(game, st, rp)
    legal = bits & ALL_CARDS
    trump = contract(st)
    n = cards_in_trick(st)
    lead_suit = trick_card(st, 0) // 9 if n else -1
    to_beat = STRENGTH[trump, lead_suit, trick_card(st, 0)] if n else -1
    lead_points = card_points(trick_card(st, 0), trump, rp) if n else 0
    best, best_key = -1, 1 << 40
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        is_trump = c // 9 == trump
        cheap = card_points(c, trump, rp) * 64 + STRENGTH[trump, c // 9 if n == 0 else lead_suit, c] + 1
        key = cheap + (1 << 20 if is_trump else 0)
        wanted = not is_trump or lead_points >= TRUMP_A_LEAD_FROM
        if n and STRENGTH[trump, lead_suit, c] > to_beat and wanted:
            key -= 1 << 30                            # a wanted winner before any other card
        if key < best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def play_out_greedy(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    """Play the round of ``st`` to its end, both players with :func:`greedy_card`."""
    while phase(st) == PHASE_PLAY:
        apply_action(game, st, greedy_card(game, st, rp), rp)


@njit(cache=True)
def pimc_scores(game: int, world: np.ndarray, legal: int, rp: np.ndarray, policy: int, rng: np.ndarray,
                sums: np.ndarray) -> None:
    """Add my score minus the opponent's (I am player 0) after each legal card of ``world`` and
    a play-out (``policy`` 0 random, 1 greedy) to ``sums[card]``."""
    st = np.zeros(world.shape[0], dtype=np.int64)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        st[:] = world
        apply_action(game, st, c, rp)
        if policy == 0:
            play_out_random(game, st, rp, rng)
        else:
            play_out_greedy(game, st, rp)
        sums[c] += score_of(st, 0) - score_of(st, 1)


@cache
def compiled_pimc(game: int):  # noqa: ANN201 (a compiled function)
    """The PIMC search of the game numbered ``game`` for Python: ``scores(world, legal, rp, policy,
    rng, sums)`` is :func:`pimc_scores` with that game's rules compiled in."""

    @njit(cache=True)
    def scores(world, legal, rp, policy, rng, sums):  # noqa: ANN001, ANN202
        pimc_scores(game, world, legal, rp, policy, rng, sums)

    return scores


class SidiPIMC(_SidiBot):
    """PIMC for Sidi (module docstring): ``worlds`` sampled worlds per decision, play-outs by
    ``rollout`` "heuristic" (:func:`greedy_card`, the default) or "random".

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated).
    """

    def __init__(self, rules: str | Rules | None = "sidi", worlds: int = 20, rollout: str = "heuristic",
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(rules, seed)
        if rollout not in ROLLOUTS:
            raise ValueError(f"Sidi PIMC plays out with rollout={' or '.join(ROLLOUTS)}, got {rollout!r}")
        self.policy = ROLLOUTS.index(rollout)
        self.worlds = check_search_params(worlds, time_limit)
        self.time_limit = time_limit
        self.name = f"sidi-pimc{self.worlds}"
        self._scores = compiled_pimc(self.rules.spec.kind)

    def choose(self, t: SidiTable, legal: list[int]) -> int:
        legal_mask = sum(1 << c for c in legal)
        rng = decision_generator(self.rng)
        sums = np.zeros(36, dtype=np.int64)

        def step(k: int) -> None:
            for _ in range(k):
                self._scores(self._world(t), legal_mask, self.rp, self.policy, rng, sums)

        search_worlds(step, self.worlds, self.time_limit)
        return max(legal, key=lambda c: (sums[c], -c))

    def _world(self, t: SidiTable) -> np.ndarray:
        """One sampled world as an engine state, me = player 0."""
        hand = sum(1 << c for c in t.hand)
        face_up = (1 << t.face_up) if t.face_up >= 0 else 0
        unseen = ((1 << 36) - 1) & ~(hand | t.played[0] | t.played[1] | t.known_opponent | face_up)
        opponent_size = len(t.hand) - (1 if t.trick else 0)
        need = opponent_size - popcount(t.known_opponent)
        face_down = max(t.stock_left - 1, 0)
        cards = [c for c in range(36) if unseen >> c & 1]
        if len(cards) != need + face_down:
            raise ValueError(f"inconsistent Sidi view: {len(cards)} unseen cards for the opponent's {need} "
                             f"and the stock's {face_down}")
        cards = list(self.rng.permutation(cards))
        opponent = t.known_opponent | sum(1 << int(c) for c in cards[:need])
        stock = np.array([*cards[need:], t.face_up] if t.stock_left else [0], dtype=np.int64)
        st = new_state(self.rules.spec, 1)
        n_trick = len(t.trick)
        trick = np.full(PLAYERS, -1, dtype=np.int64)
        trick[:n_trick] = t.trick
        zeros = np.zeros(PLAYERS, dtype=np.int64)
        hands = np.array([hand, opponent], dtype=np.int64)
        points, won = np.array(t.points, dtype=np.int64), np.array(t.tricks_won, dtype=np.int64)
        set_play_position(st, hands, np.array(t.played, dtype=np.int64), zeros, zeros, trick, n_trick,
                          t.leader, 1, 0, -1, t.trump, t.trick_number, points, won, 0, self.rp)
        set_world(st, stock, t.stock_left, t.trump_card, 0 if t.exchanged else -1, self.rp)
        return st


# the policy-guided search's worlds
#: entries of a seat's view (:func:`world_view`, int64) that the compiled world builder reads
V_HAND = 0                 # my hand
V_PLAYED = 1               # 2: the cards each relative seat has played
V_VOIDS = 3                # 2: each relative seat's shown voids (bit s = suit s)
V_WEIS_CARDS = 5           # 2: each relative seat's public Weis cards
V_OPPONENT = 7             # the cards the opponent is known to hold
V_OPPONENT_SIZE = 8        # how many cards he holds
V_TRICK = 9                # 2: the current trick's cards, leader first (-1: none)
V_N_TRICK = 11             # cards in the current trick
V_LEADER = 12              # relative seat leading it
V_FOREHAND = 13            # relative seat of forehand (the non-dealer)
V_TRUMP_CARD = 14          # the card turned face up at the deal
V_FACE_UP = 15             # the card face up under the stock now, -1 once drawn
V_STOCK_LEFT = 16          # cards still in the stock (the face-up one included)
V_EXCHANGE = 17            # the trick before whose lead the trump 6 was exchanged, -1 = not exchanged
V_TRICK_NO = 18            # the current trick (from 0)
V_POINTS = 19              # 2: card points taken per relative seat
V_TRICKS_WON = 21          # 2: tricks taken per relative seat
V_WINNERS = 23             # TRICKS: the winner of each finished trick, -1 for the others
TRICKS = N_CARDS // PLAYERS
V_SIZE = V_WINNERS + TRICKS


def _history(t: SidiTable, forehand: int, exchanger: int, last_holder: int) -> tuple[list[int], int]:
    """One history of the finished tricks that shows the seat what it saw: the winner of each
    (per player as many tricks as he took; the current leader won the trick before; the loser of
    trick 10 drew the card drawn last, ``last_holder`` once the stock is empty, else -1) and the trick
    whose lead the ``exchanger`` (relative seat, -1 = nobody) exchanged before: trick 0 for
    forehand, else one after a trick of the first nine he won. Returns (winners per finished
    trick, exchange trick or -1); ValueError when no history fits."""
    n = t.trick_number
    winners = [-1] * n
    if n:
        winners[n - 1] = t.leader
    if last_holder >= 0:
        last = FREE_TRICKS - 1
        if winners[last] not in (-1, 1 - last_holder):
            raise ValueError(f"inconsistent Sidi view: player {last_holder} drew the card drawn last, so "
                             f"he lost trick {FREE_TRICKS}, which the leader {t.leader} won")
        winners[last] = 1 - last_holder
    exchange = -1
    if exchanger == forehand:
        exchange = 0
    elif exchanger >= 0:
        leads = range(min(n, FREE_TRICKS - 1))       # tricks whose winner then led one of tricks 2..10
        won = [k for k in leads if winners[k] == exchanger] or [k for k in leads if winners[k] < 0]
        if not won:
            raise ValueError(f"inconsistent Sidi view: seat {exchanger} exchanged the trump 6 but led none "
                             f"of the first {FREE_TRICKS} tricks")
        winners[won[0]] = exchanger
        exchange = won[0] + 1
    free = [k for k in range(n) if winners[k] < 0]
    rest = [t.tricks_won[p] - winners.count(p) for p in range(PLAYERS)]
    if min(rest) < 0 or sum(rest) != len(free):
        raise ValueError(f"inconsistent Sidi view: tricks taken {t.tricks_won} after {n} tricks, of which "
                         f"these winners are fixed: {winners}")
    for i, k in enumerate(free):
        winners[k] = 0 if i < rest[0] else 1
    return winners, exchange


def world_view(obs: Mapping[str, np.ndarray], rules: Rules) -> np.ndarray:
    """What the seat of ``obs`` knows, as the int64[V_SIZE] view (the ``V_*`` entries) the world
    builder reads: the observation's public facts, the opponent's known cards (the face-up card
    he took or drew, his scoring Weis cards not yet played) and one history of the finished
    tricks consistent with them (:func:`_history`). ValueError when the observation contradicts
    itself (the unseen cards do not fill the opponent's hand and the stock)."""
    t = decode(obs, rules)
    o = np.asarray(obs["observation"])
    s = LAYOUTS.of(rules.spec).slices
    voids = o[s["voids"]].reshape(PLAYERS, N_SUITS)
    weis_cards = o[s["weis_cards"]].reshape(PLAYERS, N_CARDS)
    forehand = (int(np.argmax(o[s["dealer"]])) + 1) % PLAYERS
    exchangers = np.flatnonzero(o[s["exchanged"]])
    exchanger = int(exchangers[0]) if exchangers.size else -1
    hand = sum(1 << c for c in t.hand)
    played = t.played[0] | t.played[1]
    face_up = (1 << t.face_up) if t.face_up >= 0 else 0
    last = 9 * t.trump + SIX if exchanger >= 0 else t.trump_card   # the card drawn last
    last_holder = -1                                   # who drew it: he holds it or played it
    if t.stock_left == 0:
        last_holder = 0 if (hand | t.played[0]) >> last & 1 else 1
    winners, exchange = _history(t, forehand, exchanger, last_holder)
    opponent = (t.known_opponent | _mask(weis_cards[1])) & ~(hand | played | face_up)
    opponent_size = N_CARDS - len(t.hand) - popcount(played) - t.stock_left
    unseen = popcount(ALL_CARDS & ~(hand | played | opponent | face_up))
    need = opponent_size - popcount(opponent)
    face_down = max(t.stock_left - 1, 0)
    if opponent_size != len(t.hand) - len(t.trick):
        raise ValueError(f"inconsistent Sidi view: I hold {len(t.hand)} cards with {len(t.trick)} on the "
                         f"trick, so the opponent holds {len(t.hand) - len(t.trick)}, but the played cards "
                         f"and the stock leave him {opponent_size}")
    if need < 0 or unseen != need + face_down:
        raise ValueError(f"inconsistent Sidi view: {unseen} unseen cards for the opponent's {max(need, 0)} "
                         f"unknown cards and the stock's {face_down} face down")
    v = np.full(V_SIZE, -1, dtype=np.int64)
    v[V_HAND] = hand
    v[V_PLAYED:V_PLAYED + PLAYERS] = t.played
    v[V_VOIDS:V_VOIDS + PLAYERS] = [sum(1 << k for k in np.flatnonzero(row)) for row in voids]
    v[V_WEIS_CARDS:V_WEIS_CARDS + PLAYERS] = [_mask(row) for row in weis_cards]
    v[V_OPPONENT], v[V_OPPONENT_SIZE] = opponent, opponent_size
    v[V_TRICK:V_TRICK + len(t.trick)] = t.trick
    v[V_N_TRICK], v[V_LEADER], v[V_FOREHAND] = len(t.trick), t.leader, forehand
    v[V_TRUMP_CARD], v[V_FACE_UP], v[V_STOCK_LEFT] = t.trump_card, t.face_up, t.stock_left
    v[V_EXCHANGE], v[V_TRICK_NO] = exchange, t.trick_number
    v[V_POINTS:V_POINTS + PLAYERS] = t.points
    v[V_TRICKS_WON:V_TRICKS_WON + PLAYERS] = t.tricks_won
    v[V_WINNERS:V_WINNERS + len(winners)] = winners
    return v


@njit(cache=True)
def deal_hidden(v: np.ndarray, rng: np.ndarray, stock: np.ndarray) -> int:
    """Deal the cards the seat of view ``v`` has not seen, each order equally likely: the
    opponent's hand (returned: his known cards and as many others as he holds besides) and the
    stock's face-down cards into ``stock`` (int64[STOCK_SIZE]: ``stock[0]`` the top, the face-up
    card at ``V_STOCK_LEFT`` - 1)."""
    seen = v[V_HAND] | v[V_PLAYED] | v[V_PLAYED + 1] | v[V_OPPONENT]
    if v[V_FACE_UP] >= 0:
        seen |= np.int64(1) << v[V_FACE_UP]
    pool = ALL_CARDS & ~seen
    cards = np.empty(popcount(pool), dtype=np.int64)
    for i in range(cards.shape[0]):
        cards[i] = lowest_bit(pool)
        pool &= pool - 1
    for i in range(cards.shape[0] - 1, 0, -1):         # Fisher-Yates
        j = next_rand(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    need = v[V_OPPONENT_SIZE] - popcount(v[V_OPPONENT])
    opponent = v[V_OPPONENT]
    for i in range(need):
        opponent |= np.int64(1) << cards[i]
    for i in range(need, cards.shape[0]):
        stock[i - need] = cards[i]
    if v[V_STOCK_LEFT] > 0:
        stock[v[V_STOCK_LEFT] - 1] = v[V_FACE_UP]
    return opponent


@njit(cache=True)
def build_world(game: int, v: np.ndarray, rp: np.ndarray, rng: np.ndarray, st: np.ndarray) -> None:
    """Overwrite ``st`` with one world of the view ``v`` (me = player 0, to move): the hidden
    cards dealt by :func:`deal_hidden`. In trick 1 the round is dealt from its start (the dealt
    hands: hands now and cards played, with the trump 6 back in the hand of who exchanged it) and
    the exchange and the lead replayed, so the world's Weis and Stöck are its own. Later the
    position is set as it stands (:func:`jass_env.engine.positions.set_play_position` with the
    public Weis cards, the trick winners of the view's history, then the stock by
    :func:`jass_env.games.sidi.rules.set_world`); its Weis points and a Stöck already shown are not
    in it."""
    stock = np.zeros(STOCK_SIZE, dtype=np.int64)
    opponent = deal_hidden(v, rng, stock)
    trump_card = v[V_TRUMP_CARD]
    forehand = v[V_FOREHAND]
    hands = np.empty(PLAYERS, dtype=np.int64)
    zeros = np.zeros(PLAYERS, dtype=np.int64)
    if v[V_TRICK_NO] == 0:
        hands[0] = v[V_HAND] | v[V_PLAYED]
        hands[1] = opponent | v[V_PLAYED + 1]
        if v[V_EXCHANGE] == 0:
            six = 9 * (trump_card // 9) + SIX
            hands[forehand] = (hands[forehand] & ~(np.int64(1) << trump_card)) | (np.int64(1) << six)
        no_trick = np.full(PLAYERS, -1, dtype=np.int64)
        set_play_position(st, hands, zeros, zeros, zeros, no_trick, 0, forehand, forehand, 0, -1,
                          trump_card // 9, 0, zeros, zeros, forehand, rp)
        set_world(st, stock, STOCK_SIZE, trump_card, -1, rp)
        open_trump(st, rp)
        if v[V_EXCHANGE] == 0:
            apply_action(game, st, EXCHANGE, rp)
        if v[V_N_TRICK] > 0:
            apply_action(game, st, v[V_TRICK], rp)
        return
    hands[0] = v[V_HAND]
    hands[1] = opponent
    set_play_position(st, hands, v[V_PLAYED:V_PLAYED + PLAYERS], v[V_VOIDS:V_VOIDS + PLAYERS],
                      v[V_WEIS_CARDS:V_WEIS_CARDS + PLAYERS], v[V_TRICK:V_TRICK + PLAYERS], v[V_N_TRICK],
                      v[V_LEADER], forehand, 0, -1, trump_card // 9, v[V_TRICK_NO],
                      v[V_POINTS:V_POINTS + PLAYERS], v[V_TRICKS_WON:V_TRICKS_WON + PLAYERS], 0, rp)
    for t in range(v[V_TRICK_NO]):
        set_trick_plays(st, t, zeros, 0, v[V_WINNERS + t], rp)
    set_world(st, stock, v[V_STOCK_LEFT], trump_card, v[V_EXCHANGE], rp)


@cache
def compiled_worlds(game: int):  # noqa: ANN201 (a compiled function)
    """The world builder of the game numbered ``game`` for Python: ``build(v, rp, rng, states)``
    fills every row of ``states`` (int64[n, state size]) with a world of the view ``v``
    (:func:`build_world`)."""

    @njit(cache=True)
    def build(v, rp, rng, states):  # noqa: ANN001, ANN202
        for w in range(states.shape[0]):
            build_world(game, v, rp, rng, states[w])

    return build


@njit(cache=True)
def copy_public(states: np.ndarray, root: np.ndarray, o_weis: int, o_stoeck: int, o_game: int, weis: bool,
                obs: np.ndarray) -> None:
    """Into the observation ``obs[i]`` (float32[B, obs_dim]) of the player to move in world
    ``states[i]``, what the world leaves out, from my real observation ``root`` turned to that
    player's seats: the match totals, a Stöck shown before the decision and (``weis``: the world
    was set after trick 1) the Weis points."""
    for i in range(states.shape[0]):
        if phase(states[i]) == PHASE_OVER:
            continue
        p = to_move(states[i])
        for r in range(PLAYERS):
            mine = (p + r) % PLAYERS                   # his relative seat r in my seats
            obs[i, o_game + r] = root[o_game + mine]
            if root[o_stoeck + mine] > 0.5:
                obs[i, o_stoeck + r] = 1.0
            if weis:
                obs[i, o_weis + r] = root[o_weis + mine]


class SidiWorlds(WorldModel):
    """Sidi's worlds for the policy-guided search (:mod:`agents.search.world_model`), at every
    decision: the card decisions and the exchange of the trump 6 are all taken in card play, so
    :meth:`worlds` never returns None.

    A world deals what :class:`SidiPIMC` samples (the opponent's hand: his known cards and as
    many unseen ones as he holds besides; the stock's face-down cards in a random order under the
    face-up card), drawn from the search's compiled generator, and also gives the opponent his
    public Weis cards not yet played, and sets the trick winners and the exchange's trick to a
    history that shows the seat what it saw (:func:`world_view`). In trick 1 a world is dealt from
    the start (its Weis and Stöck are its own, :func:`build_world`). Once the stock is empty
    nothing is hidden: every world is the true position, returned once with the count of all
    draws (duplicate worlds are always merged).

    The world's observations (:meth:`encode`) are the real ones at the decision; what a world set
    after trick 1 leaves out, the Weis points and a Stöck already shown, and the match totals, are
    copied from the real observation. A Stöck whose first card was played before the decision is
    left out (the observation does not say that its player held both), and a game to 1000 that
    ends within the round ends in no world.

    :meth:`results` is my round score minus the opponent's, SidiPIMC's objective and the
    ``points`` reward: Weis, Stöck and the bonus for all 18 tricks make the two scores of a
    round add up to no constant (``SCORE_SUM`` is None in the preset), so my score alone would
    not count what the opponent gains. No world is weighted by the opponent's decisions
    (``likelihood`` and ``oversample`` are not used).
    """

    def __init__(self, rules: Rules, likelihood: ActionLikelihood | None = None, oversample: int = 1) -> None:
        super().__init__(rules, likelihood, oversample)
        if self.rules.game not in SPECS:
            raise ValueError(f"SidiWorlds are worlds of Sidi (rules 'sidi'), not {self.rules.game!r}")
        self._build = compiled_worlds(self.game.kind)
        self._slices = LAYOUTS.of(self.rules.spec).slices

    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(n_worlds, bool) or not isinstance(n_worlds, (int, np.integer)) or n_worlds < 1:
            raise ValueError(f"n_worlds must be an integer >= 1, got {n_worlds!r}")
        if not np.asarray(obs["action_mask"]).any():
            raise ValueError("no legal action in the action mask (the round is over?)")
        v = world_view(obs, self.rules)
        states = np.zeros((int(n_worlds), self.size), dtype=np.int64)
        self._build(v, self.rp, rng, states)
        distinct, first, inverse = np.unique(states, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first)
        counts = np.bincount(inverse.ravel(), minlength=len(distinct))
        return distinct[order], counts[order].astype(np.int64)

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        super().encode(states, root, obs, mask)
        s = self._slices
        weis = bool(np.argmax(root[s["trick_number"]]) > 0)
        copy_public(states, np.asarray(root, dtype=np.float32), s["weis"].start, s["stoeck"].start,
                    s["game_score"].start, weis, obs)

    def results(self, states: np.ndarray) -> np.ndarray:
        """My round score minus the opponent's in each finished world (float64[B]; class docstring)."""
        return self.side_differences(states)

    def cards_left(self, states: np.ndarray) -> int:
        """Cards still to play in the first world: the hands' and the stock's."""
        return super().cards_left(states) + int(stock_left(states[0]))


__all__ = ["SidiHeuristic", "SidiPIMC", "SidiTable", "SidiWorlds", "decode", "world_view", "build_world",
           "compiled_worlds", "pimc_scores", "compiled_pimc", "greedy_card", "play_out_greedy", "ROLLOUTS"]
