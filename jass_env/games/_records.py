"""What every game's ``records.py`` shares: a record's deal (:class:`Deal`) and the type checks of its
fields (docs/records.md).

A game's ``records.py`` (:mod:`jass_env.games.base`) declares, with the same names in every game:

==================  ==========================================================================
name                what it is
==================  ==========================================================================
REQUIRED_FIELDS     the game's own required fields, between ``hands`` and ``tricks``
WEIS_FIELDS         its outcome fields that are lists of Weis (compared as multisets)
POINTS_AT_END       whether a trick's points are final only when the round ends (trump fixed
                    by a later discard recounts the tricks before it)
fields(round)       the game's fields of the record of a finished round (after ``hands``)
deal(round)         the :class:`Deal` a replay of that round starts from
outcome(round)      the optional end-of-round fields, as the engine computes them
parse(obj, rules, hands, dealer, forehand, replay)
                    the game's required fields of a record, type-checked, as a :class:`Deal`
parse_outcome(obj, rules)
                    the optional end-of-round fields present in a record, type-checked
==================  ==========================================================================

:mod:`jass_env.records` reads them through :func:`jass_env.games.game_of` and names no game. The
checks below raise :class:`Malformed`, which ends the check of a record with one message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jass_env.engine.cards import card_id, card_name
from jass_env.engine.spec import TEAMS_NONE, GameSpec

#: a Weis as records write it
WEIS_KEYS = ("player", "cards", "points")


class Malformed(Exception):
    """A record that cannot be read or replayed; ends the check of that record. ``trick`` and
    ``position`` (1-based) place the problem in the play where it has a place."""

    def __init__(self, text: str, trick: int | None = None, position: int | None = None) -> None:
        super().__init__(text)
        self.text, self.trick, self.position = text, trick, position


@dataclass(frozen=True)
class TrickAction:
    """An action taken before a trick's first card (Sidi: the exchange of the trump 6).

    ``refused`` is what the checker says when the engine does not allow it; ``{player}`` and
    ``{trick}`` are filled in (the trick's leader, the trick from 1).
    """

    action: int
    refused: str


@dataclass(frozen=True)
class Deal:
    """What a record's round starts from beyond its hands and dealer: the replay's set-up.

    ``options``: deal options of :class:`jass_env.round.Round` (Differenzler: ``trump_card`` or
    ``trump``); ``setup``: applied to the fresh round before the bidding (Coiffeur: the sheets,
    Sidi: the stock); ``bidding``: the actions before card play, in order; ``before_trick``: the
    actions taken before a trick's first card, by trick from 1; ``drawable``: cards (36-bit mask)
    a player may play without holding them at the deal (Sidi: the stock and the trump 6).
    """

    bidding: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    setup: Callable[[Any], None] | None = None
    before_trick: Mapping[int, TrickAction] = field(default_factory=dict)
    drawable: int = 0


#: ``replay(deal)``: a fresh round of the record's rules, hands and dealer, set up and bid as ``deal``
#: says (what a game's ``parse`` may ask the engine)
Replay = Callable[[Deal], Any]


# values
def kind(value: Any) -> str:
    """A short description of a JSON value for messages: its type and (short) text."""
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
             dict: "object", type(None): "null"}
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{names.get(type(value), type(value).__name__)} {text}"


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def player(value: Any, what: str, n: int, trick: int | None = None, position: int | None = None) -> int:
    """A player number 0..n-1."""
    if not is_int(value) or not 0 <= value < n:
        raise Malformed(f"{what} must be a player number 0..{n - 1}, got {kind(value)}", trick, position)
    return value


def integer(value: Any, what: str, trick: int | None = None) -> int:
    if not is_int(value):
        raise Malformed(f"{what} must be an integer, got {kind(value)}", trick)
    return value


def card(value: Any, what: str, trick: int | None = None, position: int | None = None) -> int:
    """A card id from its canonical name (``"H9"``, ``"C10"``)."""
    if isinstance(value, str):
        try:
            c = card_id(value)
        except ValueError:
            c = -1
        if c >= 0 and card_name(c) == value:
            return c
    raise Malformed(f"{what}: {kind(value)} is not a card; cards are a suit letter D H S C then a "
                    f"rank 6 7 8 9 10 J Q K A, e.g. \"H9\", \"C10\"", trick, position)


def card_set(value: Any, what: str, trick: int | None = None, position: int | None = None) -> int:
    """A list of distinct cards as a card mask."""
    if not isinstance(value, list):
        raise Malformed(f"{what} must be a list of cards, got {kind(value)}", trick, position)
    mask = 0
    for v in value:
        c = card(v, what, trick, position)
        if mask >> c & 1:
            raise Malformed(f"{what} lists {v} twice; a card appears once", trick, position)
        mask |= 1 << c
    return mask


# outcome fields
def stoeck_of(round: Any) -> int | None:  # noqa: A002 (the round read)
    """The ``stoeck`` field of a finished round: the player who showed Stöck, or None."""
    return round.stoeck_player if round.stoeck_shown else None


def parse_weis(obj: dict[str, Any], players: int) -> dict[str, Any]:
    """The ``weis`` field, if present: the Weis that score, [{"player", "cards", "points"}]."""
    if "weis" not in obj:
        return {}
    weis = obj["weis"]
    if not isinstance(weis, list):
        raise Malformed(f"weis must be a list of {{\"player\", \"cards\", \"points\"}}, got {kind(weis)}")
    for w in weis:
        if not isinstance(w, dict) or any(k not in w for k in WEIS_KEYS):
            raise Malformed(f"a Weis is an object {{\"player\", \"cards\", \"points\"}}, got {kind(w)}")
        player(w["player"], "the player of a Weis", players)
        card_set(w["cards"], "the cards of a Weis")
        integer(w["points"], "the points of a Weis")
    return {"weis": weis}


def parse_weis_list(obj: dict[str, Any], key: str, players: int, with_trick: bool) -> dict[str, Any]:
    """The field ``key``, if present: a list of Weis entries {"player", ("trick",) "cards", "points"}."""
    if key not in obj:
        return {}
    value = obj[key]
    keys = ("player", "trick", "cards", "points") if with_trick else WEIS_KEYS
    shown = "{" + ", ".join(f'"{k}"' for k in keys) + "}"
    if not isinstance(value, list):
        raise Malformed(f"{key} must be a list of {shown}, got {kind(value)}")
    for w in value:
        if not isinstance(w, dict) or any(k not in w for k in keys):
            raise Malformed(f"an entry of {key} is an object {shown}, got {kind(w)}")
        player(w["player"], f"the player of a {key} entry", players)
        if with_trick:
            integer(w["trick"], f"the trick of a {key} entry")
        card_set(w["cards"], f"the cards of a {key} entry")
        integer(w["points"], f"the points of a {key} entry")
    return {key: value}


def parse_stoeck(obj: dict[str, Any], players: int) -> dict[str, Any]:
    """The ``stoeck`` field, if present: the player who showed Stöck, or null."""
    if "stoeck" not in obj:
        return {}
    if obj["stoeck"] is not None:
        player(obj["stoeck"], "stoeck", players)
    return {"stoeck": obj["stoeck"]}


def parse_per_side(obj: dict[str, Any], spec: GameSpec, keys: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``keys`` present: each a list of one integer per side."""
    side_names = "one per player" if spec.teams == TEAMS_NONE else "[team0, team1]"
    out: dict[str, Any] = {}
    for key in keys:
        if key in obj:
            v = obj[key]
            if not isinstance(v, list) or len(v) != spec.sides or not all(is_int(x) for x in v):
                raise Malformed(f"{key} must be a list of {spec.sides} integers {side_names}, got {kind(v)}")
            out[key] = v
    return out


def parse_match_team(obj: dict[str, Any]) -> dict[str, Any]:
    """The ``match_team`` field, if present: the team that took every trick, or null."""
    if "match_team" not in obj:
        return {}
    v = obj["match_team"]
    if v is not None and (not is_int(v) or v not in (0, 1)):
        raise Malformed(f"match_team must be a team 0 or 1, or null, got {kind(v)}")
    return {"match_team": v}


__all__ = ["Malformed", "TrickAction", "Deal", "Replay", "kind", "is_int", "player", "integer", "card",
           "card_set", "stoeck_of", "parse_weis", "parse_weis_list", "parse_stoeck", "parse_per_side",
           "parse_match_team"]
