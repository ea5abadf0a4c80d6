"""Molotow's readers of a round: the trump by the first discard (as Mittlere's), and its Weis.

Made by :class:`jass_env.round.Round` for a Molotow round; read as the round's own attributes
(``round.hand_weis()``, ``round.table_weis()``).
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUITS, mask_of, names_of

from .._first_discard.readers import FirstDiscardReaders
from . import rules


class MolotowReaders(FirstDiscardReaders):
    """The Molotow part of a :class:`jass_env.round.Round`."""

    def hand_weis(self) -> list[dict[str, Any]]:
        """Every Weis of every dealt hand [{"player", "cards", "points"}] (they count minus for
        their holder; public after trick 1)."""
        r = self.round
        return [{"player": p, "cards": names_of(mask), "points": pts} for p in range(r.spec.players)
                for pts, mask in rules.hand_weis_list(r.view.dealt[p], r.rp)]

    def table_weis(self) -> list[dict[str, Any]]:
        """The table Weis of the finished tricks [{"player" (the trick's winner), "trick" (from 1),
        "cards", "points"}] (they count plus for the winner)."""
        r = self.round
        fixed = self.trump_fixed
        out = []
        for t in range(r.trick_number):
            trump = None if fixed is None or fixed["trick"] > t + 1 else SUITS.index(self.trump)
            for pts, mask in rules.table_weis_list(mask_of(r.view.trick_cards(t)), trump, r.rp):
                out.append({"player": r.view.trick_winner(t), "trick": t + 1, "cards": names_of(mask),
                            "points": pts})
        return out
