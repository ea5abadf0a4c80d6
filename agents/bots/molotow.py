"""Molotow's rule-based bots (docs/bots.md): the heuristic, and PIMC by the lowest score.

:class:`MolotowHeuristic` avoids points: it leads its lowest card, ducks with its highest losing
card (preferring one that gives the trick's winner a table Weis, then the most points), wins a
forced trick as cheaply as possible, and discards into a suit where its own J and 9 are safe (a
suit without them, the shortest, with its card worth the fewest points), so its J and 9 do not
become the top trumps.

PIMC is the one of the games of trump by the first discard
(:class:`agents.bots._first_discard.DiscardPIMC`): it minimizes the hand score and plays its worlds
out by the avoidance play (:func:`agents.bots._first_discard.avoid_card`, ``rollout=heuristic``,
the default) or with random legal cards.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from jass_env.engine.card_play import STRENGTH
from jass_env.engine.cards import JACK, NINE
from jass_env.engine.switches import Rules
from jass_env.games.molotow import SPECS
from jass_env.games.molotow.rules import table_weis_list

from ..base import legal_actions
from ._first_discard import DiscardBot, Table, decode


class MolotowHeuristic(DiscardBot):
    """Avoid points: low leads, highest losing card, table Weis fed to the winner, safe discards."""

    name = "molotow-heuristic"
    game_kind = tuple(SPECS)

    def __init__(self, rules: str | Rules | None = "molotow", seed: int | None = None) -> None:
        super().__init__(rules, seed)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        legal = [int(a) for a in legal_actions(obs)]
        if len(legal) == 1:
            return legal[0]
        t = decode(obs, self.rules)
        if not t.trick:
            return min(legal, key=lambda c: (c // 9 == t.trump, self.strength(c, t)))
        if t.trump is None and all(c // 9 != t.trick[0] // 9 for c in legal):
            return self.discard(legal, t)
        card = self.duck(legal, t, key=lambda c: (self.table_weis_with(c, t), self.points_of(c, t)))
        if card is not None:
            return card
        return min(legal, key=lambda c: (self.points_of(c, t) + self.table_weis_with(c, t),
                                         -self.strength(c, t)))

    def table_weis_with(self, card: int, t: Table) -> int:
        """The table Weis points the trick's cards form with ``card`` added."""
        mask = sum(1 << c for c in [*t.trick, card])
        return sum(p for p, _ in table_weis_list(mask, t.trump, self.rules.params))

    def discard(self, legal: list[int], t: Table) -> int:
        """Into a suit where its own J and 9 are safe: a suit without them, the shortest; its card
        worth the fewest points as trump."""
        hand = set(t.hand)

        def danger(s: int) -> tuple[int, int]:
            return ((9 * s + JACK in hand) + (9 * s + NINE in hand), sum(1 for c in hand if c // 9 == s))
        suit = min(sorted({c // 9 for c in legal}), key=danger)
        # the discard becomes the trick's only trump: give it as few points as the suit allows
        return min((c for c in legal if c // 9 == suit),
                   key=lambda c: (self.values[suit][c], STRENGTH[suit, suit, c]))


__all__ = ["MolotowHeuristic"]
