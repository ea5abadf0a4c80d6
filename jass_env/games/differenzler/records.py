"""Differenzler's record fields (docs/records.md): ``predictions[n]`` (required), ``trump_card``
(under ``trump_mode="bottom_card"``, a card of the dealer's hand) or ``trump`` (``random_suit``,
a suit letter), then ``points[n]`` and ``penalties[n]`` (optional).

The names every game's ``records.py`` declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import ROUND_POINTS, SUITS
from jass_env.engine.switches import Rules

from .._records import Deal, Malformed, Replay, card, is_int, kind, parse_per_side

REQUIRED_FIELDS = ("predictions",)
WEIS_FIELDS: tuple[str, ...] = ()
POINTS_AT_END = False


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The trump (its card, or the suit drawn) and every player's prediction."""
    return {**_trump_fields(round), "predictions": round.predictions}


def deal(round: Any) -> Deal:  # noqa: A002
    """The round's trump as a deal option, the predictions in turn as the bidding."""
    return Deal(bidding=_bidding(round.predictions, round.forehand), options=_trump_fields(round))


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    """Every player's card points and penalty."""
    return {"points": round.points, "penalties": round.penalties}


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """The predictions (indexed by player) as the bidding, forehand first, and the trump."""
    n = rules.spec.players
    value = obj["predictions"]
    if not isinstance(value, list) or len(value) != n or not all(is_int(v) for v in value):
        raise Malformed(f"predictions must be a list of {n} integers (predictions[p] for player p), "
                        f"got {kind(value)}")
    for p, v in enumerate(value):
        if not 0 <= v <= ROUND_POINTS:
            raise Malformed(f"predictions[{p}] is {v}; a prediction is 0..{ROUND_POINTS} points")
    return Deal(bidding=_bidding(value, forehand), options=_parse_trump(obj, rules, hands, dealer))


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    return parse_per_side(obj, rules.spec, ("points", "penalties"))


def _bidding(predictions: list[int], forehand: int) -> tuple[str, ...]:
    n = len(predictions)
    return tuple(f"predict {predictions[(forehand + k) % n]}" for k in range(n))


def _trump_fields(round: Any) -> dict[str, str]:  # noqa: A002
    """``{"trump_card": card}`` under bottom_card, ``{"trump": suit}`` under random_suit."""
    if round.rules.trump_mode == "bottom_card":
        return {"trump_card": round.trump_card}
    return {"trump": round.contract}


def _parse_trump(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int) -> dict[str, str]:
    """The trump: ``trump_card`` (bottom_card, a card of the dealer's hand) or ``trump``
    (random_suit, a suit letter)."""
    if rules.trump_mode == "bottom_card":
        if "trump_card" not in obj:
            raise Malformed("missing required field trump_card (the dealer's card that shows trump "
                            "under trump_mode bottom_card)")
        c = card(obj["trump_card"], "trump_card")
        if not hands[dealer] >> c & 1:
            raise Malformed(f"trump_card {obj['trump_card']} is not in the dealer's hand hands[{dealer}]")
        return {"trump_card": obj["trump_card"]}
    trump = obj.get("trump")
    if trump not in SUITS:
        raise Malformed(f"trump must be a suit letter {' '.join(SUITS)} under trump_mode random_suit, "
                        f"got {kind(trump)}")
    return {"trump": trump}
