"""Zwei's record fields: ``trump`` (the suit forehand named) (required); ``points[2]`` and
``score[2]`` (optional). The names every game's ``records.py`` declares:
:mod:`jass_env.games._records`."""

from __future__ import annotations

from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games._records import Deal, Malformed, Replay, kind, parse_per_side

REQUIRED_FIELDS = ("trump",)
WEIS_FIELDS: tuple[str, ...] = ()
POINTS_AT_END = False
SUITS = ("D", "H", "S", "C")


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    return {"trump": round.contract}


def deal(round: Any) -> Deal:  # noqa: A002
    return Deal(bidding=(f"name {round.contract}",))


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    return {"points": round.points, "score": round.score}


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """The trump suit forehand named, as the bidding."""
    if obj["trump"] not in SUITS:
        raise Malformed(f"trump must be one of {', '.join(SUITS)}, got {kind(obj['trump'])}")
    return Deal(bidding=(f"name {obj['trump']}",))


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    return parse_per_side(obj, rules.spec, ("points", "score"))
