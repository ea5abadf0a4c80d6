"""Molotow's record fields (docs/records.md): those of trump by the first discard
(:mod:`jass_env.games._first_discard.records`), then ``points[n]``, ``hand_weis`` and
``table_weis`` ([{"player", "trick"?, "cards", "points"}]), ``stoeck`` (player or null) and
``score[n]`` (optional).

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
from .._records import parse_per_side, parse_stoeck, parse_weis_list, stoeck_of

WEIS_FIELDS = ("hand_weis", "table_weis")


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The trump, where it was fixed, every player's card points, the hand and table Weis, Stöck
    and every player's score."""
    return {**trump_outcome(round), "hand_weis": round.hand_weis(), "table_weis": round.table_weis(),
            "stoeck": stoeck_of(round), "score": round.score}


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    spec = rules.spec
    return {**parse_trump(obj), **parse_weis_list(obj, "hand_weis", spec.players, with_trick=False),
            **parse_weis_list(obj, "table_weis", spec.players, with_trick=True),
            **parse_stoeck(obj, spec.players), **parse_per_side(obj, spec, ("points", "score"))}


__all__ = ["REQUIRED_FIELDS", "WEIS_FIELDS", "POINTS_AT_END", "fields", "deal", "outcome", "parse",
           "parse_outcome"]
