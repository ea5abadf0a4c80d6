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
from jass_env.engine.cards import ACE, ALL_CARDS, ROUND_POINTS, card_values, lowest_bit, popcount
from jass_env.engine.positions import set_play_position
from jass_env.engine.state import PHASE_PLAY, cards_in_trick, contract, new_state, phase, score_of, trick_card
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action, legal_set
from jass_env.games import make_rules
from jass_env.games.sidi import SPECS
from jass_env.games.sidi.observation import LAYOUTS
from jass_env.games.sidi.rules import EXCHANGE, STOCK_SIZE, set_world

from ..base import Agent, checked_action
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.worlds import play_out_random

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
        set_world(st, stock, t.stock_left, t.trump_card, t.exchanged, self.rp)
        return st


__all__ = ["SidiHeuristic", "SidiPIMC", "SidiTable", "decode", "pimc_scores", "compiled_pimc", "greedy_card",
           "play_out_greedy", "ROLLOUTS"]
