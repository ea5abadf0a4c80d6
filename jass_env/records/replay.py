"""The engine on a record's deal: the one replay that writing a record (its ``legal`` sets) and
checking it (stage 2) share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jass_env.engine.cards import ALL_CARDS_MASK
from jass_env.engine.switches import Rules
from jass_env.games._records import Deal
from jass_env.round import Round


def start_replay(rules: Rules, hands: Sequence[Any], dealer: int, deal: Deal) -> Round:
    """A fresh round on the given hands (card names or masks) and dealer, set up as ``deal`` says
    (its deal options and set-up), its bidding actions applied."""
    r = Round(rules, hands=hands, dealer=dealer, seed=0, **deal.options)
    if deal.setup is not None:
        deal.setup(r)
    for action in deal.bidding:
        r.step(action)
    return r


def legal_cards(r: Round) -> int:
    """The engine's legal cards for the player to move, as a card mask."""
    return r.legal_mask() & ALL_CARDS_MASK


__all__ = ["start_replay", "legal_cards"]
