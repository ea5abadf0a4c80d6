"""Sidi's record fields (docs/records.md): ``trump_card`` (the card turned face up) and ``stock``
(the 20 undealt cards, top first, the trump card last) (required); ``exchange`` ({"trick": t from
1} or null) (optional); then ``weis``, ``stoeck``, ``points[2]`` and ``score[2]`` (optional).

The names every game's ``records.py`` declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from jass_env.engine.cards import ALL_CARDS_MASK, card_id
from jass_env.engine.switches import Rules

from .._records import (
    Deal,
    Malformed,
    Replay,
    TrickAction,
    card_set,
    is_int,
    kind,
    parse_per_side,
    parse_stoeck,
    parse_weis,
    stoeck_of,
)
from .rules import EXCHANGE

REQUIRED_FIELDS = ("trump_card", "stock")
WEIS_FIELDS = ("weis",)
POINTS_AT_END = False
#: the leader of a trick exchanges the trump 6 for the face-up card before his card
_EXCHANGE = TrickAction(EXCHANGE, "illegal exchange: player {player} may not exchange the trump 6 before "
                                  "trick {trick} (he must hold it, lead, and the stock must have cards)")


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The turned card, the stock and the exchange of the trump 6."""
    trick = _exchange_trick(round)
    return {"trump_card": round.trump_card, "stock": round.stock,
            "exchange": {"trick": trick} if trick else None}


def deal(round: Any) -> Deal:  # noqa: A002
    """The stock as dealt, and the exchange before its trick."""
    return _deal(round.stock, _exchange_trick(round))


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    """Schieber's end fields, one player a side (no Match)."""
    return {"weis": round.weis(), "stoeck": stoeck_of(round), "points": round.points, "score": round.score}


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """The stock (the cards not in the hands, top first, the turned trump card last) and the
    exchange trick; any card of the stock, and the trump 6, may be played by either player."""
    stock = obj["stock"]
    undealt = ALL_CARDS_MASK & ~(hands[0] | hands[1])
    if not isinstance(stock, list) or card_set(stock, "stock") != undealt:
        raise Malformed(f"stock must list the {undealt.bit_count()} cards not in the hands, each once, "
                        f"top first (the turned trump card last), got {kind(stock)}")
    if obj["trump_card"] != stock[-1]:
        raise Malformed(f"trump_card {kind(obj['trump_card'])} must be the last card of the stock "
                        f"({stock[-1]}): the turned card lies face up under it")
    exchange = obj.get("exchange")
    if exchange is None:
        return _deal(stock, 0)
    last = len(stock) // 2
    if (not isinstance(exchange, dict) or set(exchange) != {"trick"} or not is_int(exchange["trick"])
            or not 1 <= exchange["trick"] <= last):
        raise Malformed(f"exchange must be {{\"trick\": t}} with t 1..{last} (the trick its player then "
                        f"leads; the stock lasts {last} tricks) or null, got {kind(exchange)}")
    return _deal(stock, exchange["trick"])


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    spec = rules.spec
    return {**parse_weis(obj, spec.players), **parse_stoeck(obj, spec.players),
            **parse_per_side(obj, spec, ("points", "score"))}


def _exchange_trick(round: Any) -> int:  # noqa: A002
    """The trick (from 1) before which the trump 6 was exchanged, 0 when it was not."""
    return round.exchange["trick"] if round.exchange else 0


def _deal(stock: list[str], exchange_trick: int) -> Deal:
    trump_six = card_id(stock[-1][0] + "6")          # may pass from one hand to the other
    return Deal(setup=partial(_set_stock, stock), drawable=card_set(stock, "stock") | 1 << trump_six,
                before_trick={exchange_trick: _EXCHANGE} if exchange_trick else {})


def _set_stock(stock: list[str], round: Any) -> None:  # noqa: A002
    round.set_stock(stock)
