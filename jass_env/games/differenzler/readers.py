"""Differenzler's readers of a round: the predictions, the penalties, and a deal's trump given;
the trump draw at the start of a round (:class:`DifferenzlerDraws`).

Made by :class:`jass_env.round.Round` for a Differenzler round; read as the round's own
attributes (``round.predictions``, ``round.penalties``).
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import N_CARDS, N_SUITS, SUITS, card_id, card_name, cards_of
from jass_env.engine.switches import Rules

from ..base import Draws
from . import rules


class DifferenzlerReaders:
    """The Differenzler part of a :class:`jass_env.round.Round` (``round`` is that round)."""

    def __init__(self, round: Any) -> None:  # noqa: A002 (the round it reads)
        self.round = round

    @property
    def predictions(self) -> list[int | None]:
        """Each player's prediction (None before he made it). Full information: with hidden
        predictions a seat sees only its own (the environments enforce that)."""
        return rules.predictions_of(self.round.state, self.round.spec.players)

    @property
    def penalties(self) -> list[int] | None:
        """Each player's penalty once the round is over, else None."""
        return self.round.score if self.round.is_over else None

    def deal_options(self, trump_card: str | None = None, trump: str | None = None) -> None:
        """A deal from explicit hands: ``trump_card="H9"`` (a card of the dealer's hand, under
        ``trump_mode="bottom_card"``) or ``trump="H"`` (``random_suit``) replaces the trump drawn
        from the seed."""
        if trump_card is None and trump is None:
            return
        r = self.round
        if r.rules.trump_mode == "bottom_card":
            if trump is not None or trump_card is None:
                raise ValueError("under trump_mode='bottom_card' give trump_card (a card of the dealer's "
                                 "hand), not trump")
            card = card_id(trump_card)
            if not r.view.dealt[r.dealer] >> card & 1:
                raise ValueError(f"trump_card {trump_card!r} is not in the dealer's (player {r.dealer}) "
                                 f"hand {r.dealt_hand(r.dealer)}")
            rules.set_trump(r.state, card // 9, card)
        else:
            if trump_card is not None or trump not in SUITS:
                raise ValueError(f"under trump_mode='random_suit' give trump as a suit letter "
                                 f"{' '.join(SUITS)}, not a card; got trump={trump!r}, "
                                 f"trump_card={trump_card!r}")
            rules.set_trump(r.state, SUITS.index(trump), -1)


class DifferenzlerDraws(Draws):
    """The one draw at the start of a round: trump. Under ``trump_mode="bottom_card"`` the card of
    the dealer's hand shown to all (a card id, each card of the dealer's hand equally likely), under
    ``random_suit`` the suit (0..3 = D H S C, each equally likely)."""

    def outcomes(self, rules: Rules, dealer: int, hands: tuple[int, ...],
                 drawn: tuple[int, ...]) -> tuple[int, ...]:
        if drawn:
            return ()
        if rules.trump_mode == "bottom_card":
            return tuple(cards_of(hands[dealer]))
        return tuple(range(N_SUITS))

    def outcome_name(self, rules: Rules, outcome: int) -> str:
        if rules.trump_mode == "bottom_card":
            return f"trump card {card_name(outcome)}"
        return f"trump {SUITS[outcome]}"

    def of(self, round: Any) -> tuple[int, ...]:  # noqa: A002 (the round it reads)
        if round.rules.trump_mode == "bottom_card":
            return (int(round.view.trump_card),)
        return (int(round.view.contract),)

    def apply(self, round: Any, draws: tuple[int, ...]) -> None:  # noqa: A002
        if len(draws) != 1:
            raise ValueError(f"a Differenzler round draws trump once; got draws {draws}")
        d = int(draws[0])
        if round.rules.trump_mode == "bottom_card":
            if not 0 <= d < N_CARDS:
                raise ValueError(f"the trump draw under trump_mode='bottom_card' is a card id 0..35, got {d}")
            round.readers.deal_options(trump_card=card_name(d))
        else:
            if not 0 <= d < N_SUITS:
                raise ValueError(f"the trump draw under trump_mode='random_suit' is a suit 0..3, got {d}")
            round.readers.deal_options(trump=SUITS[d])
