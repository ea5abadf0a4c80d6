"""The record fields Mittlere and Molotow share (docs/records.md): nothing before the tricks (trump
is fixed by the first discard); ``trump`` (a suit or null) and ``trump_fixed`` ({"trick": t from 1,
"position": i from 0} or null) among the optional end fields.

A trick finished before the first discard is recounted with the trump's values when trump is fixed,
so a trick's points are final only at the end of the round. The names every game's ``records.py``
declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUITS
from jass_env.engine.switches import Rules

from .._records import Deal, Malformed, Replay, is_int, kind

REQUIRED_FIELDS: tuple[str, ...] = ()
POINTS_AT_END = True


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """No fields before the tricks: play starts at once."""
    return {}


def deal(round: Any) -> Deal:  # noqa: A002
    """No bidding: a replay starts from the hands alone."""
    return Deal()


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """No fields of its own to read."""
    return Deal()


def trump_outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    """The trump, where the first discard fixed it, and every player's card points."""
    fixed = round.trump_fixed
    where = None if fixed is None else {"trick": fixed["trick"], "position": fixed["position"]}
    return {"trump": round.trump, "trump_fixed": where, "points": round.points}


def parse_trump(obj: dict[str, Any]) -> dict[str, Any]:
    """The ``trump`` and ``trump_fixed`` fields present, type-checked."""
    out: dict[str, Any] = {}
    if "trump" in obj:
        if obj["trump"] is not None and obj["trump"] not in SUITS:
            raise Malformed(f"trump must be a suit letter {' '.join(SUITS)} or null, "
                            f"got {kind(obj['trump'])}")
        out["trump"] = obj["trump"]
    if "trump_fixed" in obj:
        v = obj["trump_fixed"]
        if v is not None and (not isinstance(v, dict) or set(v) != {"trick", "position"}
                              or not all(is_int(x) for x in v.values())):
            raise Malformed(f"trump_fixed must be {{\"trick\": t, \"position\": i}} (integers) or null, "
                            f"got {kind(v)}")
        out["trump_fixed"] = v
    return out
