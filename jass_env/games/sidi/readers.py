"""Sidi's readers of a round: the stock, the face-up card and the exchange of the trump 6; the
stock's order drawn at the start of a round (:class:`SidiDraws`).

Made by :class:`jass_env.round.Round` for a Sidi round; read as the round's own attributes
(``round.stock``, ``round.exchange``, ``round.set_stock(...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jass_env.engine.cards import card_id, card_name, cards_of
from jass_env.engine.switches import Rules

from ..base import Draws
from . import rules
from .rules import STOCK_SIZE


class SidiReaders:
    """The Sidi part of a :class:`jass_env.round.Round` (``round`` is that round)."""

    def __init__(self, round: Any) -> None:  # noqa: A002 (the round it reads)
        self.round = round

    def set_stock(self, stock: Sequence[str | int]) -> None:
        """Deal this round's stock as given (the 20 cards not dealt, names or ids, top first, the
        face-up trump card last) before the first action; trump, Weis and Stöck follow."""
        cards = [card_id(c) if isinstance(c, str) else int(c) for c in stock]
        rules.set_stock(self.round.state, cards, self.round.rp)

    @property
    def stock(self) -> list[str]:
        """The stock as dealt, top first, the face-up trump card last (full information)."""
        return [card_name(int(rules.stock_card(self.round.state, i))) for i in range(rules.STOCK_SIZE)]

    @property
    def stock_left(self) -> int:
        """Cards still in the stock (the face-up one included)."""
        return int(rules.stock_left(self.round.state))

    @property
    def face_up_card(self) -> str | None:
        """The card lying face up under the stock (the trump 6 after the exchange), None once drawn."""
        c = int(rules.face_up_card(self.round.state))
        return None if c < 0 else card_name(c)

    @property
    def exchange(self) -> dict[str, int] | None:
        """{"player", "trick"} of the exchange of the trump 6 (trick counted from 1, the trick he
        then led), None while nobody exchanged."""
        r = self.round
        t = int(rules.exchange_trick(r.state))
        if t < 0:
            return None
        leader = r.forehand if t == 0 else r.view.trick_winner(t - 1)
        return {"player": leader, "trick": t + 1}


class SidiDraws(Draws):
    """The stock's order, drawn at the start of a round: its cards one at a time, top first, the
    face-up trump card last, each of the cards not dealt and not yet drawn equally likely."""

    def outcomes(self, rules: Rules, dealer: int, hands: tuple[int, ...],
                 drawn: tuple[int, ...]) -> tuple[int, ...]:
        if len(drawn) >= STOCK_SIZE:
            return ()
        taken = 0
        for h in hands:
            taken |= h
        for c in drawn:
            taken |= 1 << c
        return tuple(cards_of(rules.spec.deck & ~taken))

    def outcome_name(self, rules: Rules, outcome: int) -> str:
        return f"stock {card_name(outcome)}"

    def of(self, round: Any) -> tuple[int, ...]:  # noqa: A002 (the round it reads)
        return tuple(int(rules.stock_card(round.state, i)) for i in range(STOCK_SIZE))

    def apply(self, round: Any, draws: tuple[int, ...]) -> None:  # noqa: A002
        rules.set_stock(round.state, list(draws), round.rp)
