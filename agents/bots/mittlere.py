"""Mittlere's rule-based bots (docs/bots.md): the heuristic, and PIMC by the hand score.

:class:`MittlereHeuristic` picks a role after the deal: **high** (a strong hand: A, K, Q count
and long suits) aims to end on top but below 100 points, **low** takes one trick early (so it is
not the player without a trick) and then ducks. Both duck with their highest losing card, dump
points on the player in the middle (when he wins the trick), and choose the trump suit by their
discard: the high role discards into its strongest trump suit (J, 9, A, length), the low role into
its shortest suit without J or 9.

PIMC is the one of the games of trump by the first discard
(:class:`agents.bots._first_discard.DiscardPIMC`): it maximizes the hand score (Striche − Nullen)
and plays its worlds out with random legal cards.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from jass_env.engine.card_play import STRENGTH
from jass_env.engine.cards import ACE, JACK, KING, NINE, QUEEN
from jass_env.engine.switches import Rules
from jass_env.games.mittlere import SPECS

from ..base import legal_actions
from ._first_discard import DiscardBot, Table, decode

#: high-card weight of A K Q J for the Mittlere role, and the length bonus per card beyond 4
HIGH_CARD_WEIGHT = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}
LONG_SUIT = 4
HIGH_ROLE_STRENGTH = 22
#: Mittlere's high role stops taking tricks at this many points (100 would lose)
HIGH_ROLE_CAP = 60


class MittlereHeuristic(DiscardBot):
    """Role after the deal, then duck / take one trick / dump points on the middle player."""

    name = "mittlere-heuristic"
    game_kind = tuple(SPECS)

    def __init__(self, rules: str | Rules | None = "mittlere", seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self.role = "low"

    @staticmethod
    def role_of(hand: list[int]) -> str:
        """"high" for a hand of many high cards and long suits, else "low"."""
        strength = sum(HIGH_CARD_WEIGHT.get(c % 9, 0) for c in hand)
        for s in range(4):
            strength += max(sum(1 for c in hand if c // 9 == s) - LONG_SUIT, 0)
        return "high" if strength >= HIGH_ROLE_STRENGTH else "low"

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        legal = [int(a) for a in legal_actions(obs)]
        t = decode(obs, self.rules)
        self.role = self.role_of(t.dealt)     # the dealt hand's role (decided anew each time: no memory)
        if len(legal) == 1:
            return legal[0]
        if t.trick and t.trump is None and all(c // 9 != t.trick[0] // 9 for c in legal):
            return self.discard(legal, t)
        if not t.trick:
            return self.lead(legal, t)
        middle = self.middle_seat(t)
        if t.winner_seat() == middle and middle != 0:          # feed the middle player points
            card = self.duck(legal, t, key=lambda c: self.points_of(c, t))
            if card is not None:
                return card
        wants_trick = (self.role == "low" and t.tricks_won[0] == 0) or (
            self.role == "high" and t.points[0] < HIGH_ROLE_CAP)
        if wants_trick:
            card = self.cheapest_win(legal, t)
            if card is not None:
                return card
        card = self.duck(legal, t)
        return card if card is not None else self.cheapest_win(legal, t)

    @staticmethod
    def middle_seat(t: Table) -> int:
        """The relative seat with the middle points so far."""
        order = sorted(range(t.n), key=lambda r: t.points[r])
        return order[t.n // 2]

    def lead(self, legal: list[int], t: Table) -> int:
        """High role below the cap, or low role without a trick: its strongest card; otherwise its
        lowest card."""
        if (self.role == "high" and t.points[0] < HIGH_ROLE_CAP) or (
                self.role == "low" and t.tricks_won[0] == 0):
            return max(legal, key=lambda c: self.strength(c, t))
        return min(legal, key=lambda c: (self.strength(c, t), -self.points_of(c, t)))

    def discard(self, legal: list[int], t: Table) -> int:
        """The discard fixes trump: the high role into its strongest trump suit (its lowest card of
        it), the low role into its shortest suit without J or 9 (its highest card)."""
        suits = sorted({c // 9 for c in legal})
        hand = set(t.hand)

        def trump_strength(s: int) -> int:
            return (3 * (9 * s + JACK in hand) + 2 * (9 * s + NINE in hand) + (9 * s + ACE in hand)
                    + sum(1 for c in hand if c // 9 == s))
        if self.role == "high":
            suit = max(suits, key=trump_strength)
            return min((c for c in legal if c // 9 == suit), key=lambda c: STRENGTH[suit, suit, c])
        suit = min(suits, key=trump_strength)
        return max((c for c in legal if c // 9 == suit), key=lambda c: STRENGTH[suit, suit, c])


__all__ = ["MittlereHeuristic"]
