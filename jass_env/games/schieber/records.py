"""Schieber's record fields (docs/records.md): ``pushed``, ``declarer`` and ``contract`` (required;
team = player % 2), then ``weis``, ``stoeck``, ``points``, ``match_team`` and ``score`` (optional).

The names every game's ``records.py`` declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import CONTRACTS
from jass_env.engine.switches import Rules

from .._records import (
    Deal,
    Malformed,
    Replay,
    kind,
    parse_match_team,
    parse_per_side,
    parse_stoeck,
    parse_weis,
    player,
    stoeck_of,
)
from .rules import PUSH_TO

REQUIRED_FIELDS = ("pushed", "declarer", "contract")
WEIS_FIELDS = ("weis",)
POINTS_AT_END = False


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The push, the declarer and the contract of a finished round."""
    return {"pushed": round.pushed, "declarer": round.declarer, "contract": round.contract}


def deal(round: Any) -> Deal:  # noqa: A002
    """The bidding of a finished round: the push (if forehand pushed), then the contract."""
    return Deal(bidding=_bidding(round.pushed, round.contract))


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    """The Weis that score, Stöck, card points, the Match and the score of a finished round."""
    return {"weis": round.weis(), "stoeck": stoeck_of(round), "points": round.points,
            "match_team": round.match_team, "score": round.score}


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """``pushed``, ``declarer`` and ``contract`` as the bidding actions."""
    pushed = obj["pushed"]
    if not isinstance(pushed, bool):
        raise Malformed(f"pushed must be true or false, got {kind(pushed)}")
    if pushed and not rules.push:
        raise Malformed(f"the record pushes, but rules {rules.name!r} have no push")
    n = rules.spec.players
    declarer = player(obj["declarer"], "declarer", n)
    expected = (forehand + PUSH_TO) % n if pushed else forehand
    if declarer != expected:
        raise Malformed(f"declarer is player {declarer}, but with forehand {forehand} and pushed "
                        f"{str(pushed).lower()} it must be player {expected}")
    contract = obj["contract"]
    if contract not in CONTRACTS:
        raise Malformed(f"unknown contract {kind(contract)}; contracts: {', '.join(CONTRACTS)}")
    if contract not in rules.contracts:
        raise Malformed(f"contract {contract!r} is not allowed by rules {rules.name!r}; allowed: "
                        f"{', '.join(rules.contracts)}")
    return Deal(bidding=_bidding(pushed, contract))


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    spec = rules.spec
    return {**parse_weis(obj, spec.players), **parse_stoeck(obj, spec.players),
            **parse_per_side(obj, spec, ("points", "score")), **parse_match_team(obj)}


def _bidding(pushed: bool, contract: str) -> tuple[str, ...]:
    return ("push", contract) if pushed else (contract,)
