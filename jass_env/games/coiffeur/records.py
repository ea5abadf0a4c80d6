"""Coiffeur's record fields (docs/records.md): ``pushes`` (players in order), ``declarer``, ``row``
(its label) and ``contract`` (what the row plays: a Joker row's contract, ``"slalom_O"`` ...)
(required); ``factor``, ``row_score`` and ``sheets_before`` ({"0": {row: value}, "1": {...}}, the
rows written before this deal) (optional); then Schieber's ``weis``, ``stoeck``, ``points``,
``match_team`` and ``score`` (optional).

The names every game's ``records.py`` declares: :mod:`jass_env.games._records`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from jass_env.engine.cards import CONTRACTS
from jass_env.engine.switches import Rules

from .._records import (
    Deal,
    Malformed,
    Replay,
    integer,
    is_int,
    kind,
    parse_match_team,
    parse_per_side,
    parse_stoeck,
    parse_weis,
    player,
    stoeck_of,
)
from .rules import ROW_LABELS, SHEET_ROWS, SPECIAL_GAME_NAMES

REQUIRED_FIELDS = ("pushes", "declarer", "row", "contract")
WEIS_FIELDS = ("weis",)
POINTS_AT_END = False
#: the rows a declaration names as "declare ROW from DIRECTION"
_DIRECTION_ROWS = ("Slalom", "Guschti")
#: the contracts a row may play: its own contract, any for a Joker row, a direction for the others
_ROW_GAMES = {**dict(zip(ROW_LABELS, ((c,) for c in CONTRACTS))), "Joker-1": CONTRACTS, "Joker-2": CONTRACTS,
              "Slalom": SPECIAL_GAME_NAMES[:2], "Guschti": SPECIAL_GAME_NAMES[2:]}


def fields(round: Any) -> dict[str, Any]:  # noqa: A002 (the round recorded)
    """The pushes, the declarer, the row with its factor, what it plays, the score written and the
    sheets before the deal."""
    return {"pushes": round.pushes, "declarer": round.declarer, "row": round.row, "factor": round.factor,
            "contract": round.declared_game, "row_score": round.row_score,
            "sheets_before": _sheets_before(round)}


def deal(round: Any) -> Deal:  # noqa: A002
    """The sheets before the deal, then the pushes and the declaration."""
    return Deal(bidding=_bidding(len(round.pushes), round.row, round.declared_game),
                setup=partial(_set_sheets, _sheets_before(round)))


def outcome(round: Any) -> dict[str, Any]:  # noqa: A002
    """Schieber's end fields, the row's factor and the score written in it."""
    return {"weis": round.weis(), "stoeck": stoeck_of(round), "points": round.points,
            "match_team": round.match_team, "score": round.score, "factor": round.factor,
            "row_score": round.row_score}


def parse(obj: dict[str, Any], rules: Rules, hands: list[int], dealer: int, forehand: int,
          replay: Replay) -> Deal:
    """The pushes, the declarer, the row and its contract as the bidding, after ``sheets_before``;
    the pushes and the declaration must be the turns and legal actions the engine allows."""
    n = rules.spec.players
    pushes = obj["pushes"]
    if not isinstance(pushes, list):
        raise Malformed(f"pushes must be a list of players (in the order they pushed), got {kind(pushes)}")
    for p in pushes:
        player(p, "a player in pushes", n)
    declarer = player(obj["declarer"], "declarer", n)
    rows = SHEET_ROWS[rules.spec.name]
    row = obj["row"]
    if row not in rows:
        raise Malformed(f"unknown row {kind(row)}; rows of {rules.name}: {', '.join(rows)}")
    game = obj["contract"]
    if game not in _ROW_GAMES[row]:
        raise Malformed(f"row {row!r} cannot play contract {kind(game)}; it plays "
                        f"{', '.join(_ROW_GAMES[row])}")
    sheets = obj.get("sheets_before")
    if sheets is not None:
        if not isinstance(sheets, dict) or set(sheets) - {"0", "1"}:
            raise Malformed(f"sheets_before must be an object {{'0': {{row: value}}, '1': {{...}}}}, "
                            f"got {kind(sheets)}")
        for team, sheet in sheets.items():
            if not isinstance(sheet, dict) or any(k not in rows or not is_int(v) for k, v in sheet.items()):
                raise Malformed(f"sheets_before[{team!r}] must map rows of {rules.name} ({', '.join(rows)}) "
                                f"to integers, got {kind(sheet)}")
    setup = None if sheets is None else partial(_set_sheets, sheets)
    bidding = _bidding(len(pushes), row, game)
    _check_declaration(replay(Deal(setup=setup)), bidding, declarer)
    return Deal(bidding=bidding, setup=setup)


def parse_outcome(obj: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The optional end-of-round fields present."""
    spec = rules.spec
    out = {**parse_weis(obj, spec.players), **parse_stoeck(obj, spec.players),
           **parse_per_side(obj, spec, ("points", "score"))}
    for key in ("factor", "row_score"):
        if obj.get(key) is not None:
            out[key] = integer(obj[key], key)
    return {**out, **parse_match_team(obj)}


def _sheets_before(round: Any) -> dict[str, dict[str, int]]:  # noqa: A002
    """The rows both teams had written before this deal (its own row taken out)."""
    return {str(t): {label: v for label, v in sheet.items()
                     if v is not None and not (t == round.declarer % 2 and label == round.row)}
            for t, sheet in enumerate(round.sheets)}


def _set_sheets(sheets: dict[str, Any], round: Any) -> None:  # noqa: A002
    round.set_sheets(sheets)


def _declaration_action(row: str, game: str) -> str:
    """The action name that declares ``row`` playing ``game``."""
    if row.startswith("Joker"):
        return f"declare {row} as {game}"
    if row in _DIRECTION_ROWS:
        return f"declare {row} from {'obenabe' if game.endswith('_O') else 'undenufe'}"
    return f"declare {game}"


def _bidding(pushes: int, row: str, game: str) -> tuple[str, ...]:
    return ("push",) * pushes + (_declaration_action(row, game),)


def _check_declaration(r: Any, bidding: tuple[str, ...], declarer: int) -> None:
    """The pushes and the declaration, stepped on the fresh round ``r``, must be the turns and
    legal actions the engine allows, and end with ``declarer`` declaring."""
    for k, action in enumerate(bidding):
        if not r.phase == "contract" or not r.legal_mask() >> r.parse_action(action) & 1:
            legal = ", ".join(r.spec.action_names[int(a)] for a in r.legal_actions())
            raise Malformed(f"declaration: {action!r} by player {r.to_move} (step {k + 1}) is not legal "
                            f"with these sheets; legal: {legal}")
        r.step(action)
    if r.declarer != declarer:
        raise Malformed(f"declarer is player {declarer}, but after the recorded pushes the engine's "
                        f"declarer is player {r.declarer}")
