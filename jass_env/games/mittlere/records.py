"""Mittlere's record fields (docs/records.md): those of trump by the first discard
(:mod:`jass_env.games._first_discard.records`), then ``points[n]`` and ``result[n]`` (Striche −
Nullen) (optional).

The names every game's ``records.py`` declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.switches import Rules

from .._first_discard.records import (
    POINTS_AT_END,
    REQUIRED_FIELDS,
    deal,
    fields,
    parse,
    parse_trump,
    trump_outcome,
)
from .._records import parse_per_side

WEIS_FIELDS: tuple[str, ...] = ()


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The trump, where it was fixed, every player's card points and result."""
    return {**trump_outcome(round), "result": round.result}


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    return {**parse_trump(obj), **parse_per_side(obj, rules.spec, ("points", "result"))}


__all__ = ["REQUIRED_FIELDS", "WEIS_FIELDS", "POINTS_AT_END", "fields", "deal", "outcome", "parse",
           "parse_outcome"]
