"""What one seat of a table sees, as the JSON the page draws (the design's "view").

A view is built from public information and the viewing seat's own hand only: the cards played
(the current trick, the finished tricks), the game's own lines for that seat
(:func:`jass_env.render.render_table` with ``show_hands=seat``: contract, pushes, Weis and Stöck
once shown, predictions, sheets, the stock, cards a seat is known to hold), counts of cards, the
points of finished tricks and the scores, and the log of actions in words (an action hidden from
the seat, such as a hidden prediction, only as hidden). The legal actions are listed only in the
view of the seat to move. A watcher (``seat`` None) of a table without humans, or of a round that
is over, sees every hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jass_env.engine.cards import SUIT_SYMBOLS, SUITS, names_of, popcount
from jass_env.engine.spec import TEAMS_NONE, GameSpec
from jass_env.games import game_of
from jass_env.render import render_table
from jass_env.round import Round

from ..table import describe, is_card, option_label

#: events of the log a view carries (the last ones)
LOG_EVENTS = 50
#: who a seat is when a person plays it
HUMAN = "human"
#: what ``waiting_for`` says: a person is to move, an agent is, or nobody (the round or match over)
WAITING_HUMAN, WAITING_AGENT, WAITING_NONE = "human", "agent", "none"


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: an action (``player`` took ``action``; ``hidden_from``: the seats
    it is hidden from) or a fact in words (``text``: a trick won, a round over)."""

    round_no: int
    text: str | None = None
    player: int | None = None
    action: int | None = None
    hidden_from: frozenset[int] = frozenset()


def event_text(event: Event, spec: GameSpec, seat: int | None) -> str:
    """The event in words for ``seat`` (None: a watcher): ``player_2 plays ♠K``, ``You choose H``,
    ``player_1 predicts (hidden from you)``."""
    if event.text is not None:
        return event.text
    assert event.player is not None and event.action is not None
    return describe(player_name(event.player), event.action, spec, you=event.player == seat,
                    hidden=seat in event.hidden_from)


def player_name(seat: int) -> str:
    """A seat as the game's lines name it: ``player_2``."""
    return f"player_{seat}"


def side_name(spec: GameSpec, side: int) -> str:
    """A side as words: ``team 1`` in team games, ``player_2`` when everyone plays alone."""
    return player_name(side) if spec.teams == TEAMS_NONE else f"team {side}"


def sides_text(spec: GameSpec, values: Sequence[int]) -> str:
    """``team 0 57 · team 1 100``: one value per side."""
    return " · ".join(f"{side_name(spec, s)} {int(v)}" for s, v in enumerate(values))


def legal_entry(action: int, spec: GameSpec) -> dict[str, Any]:
    """One legal action as the page offers it: its id, its label and its card name (None for a
    phase action)."""
    return {"action": int(action), "label": option_label(int(action), spec),
            "card": names_of(1 << int(action))[0] if is_card(int(action)) else None}


def trump_text(rnd: Round) -> str | None:
    """The trump as shown: a suit symbol, the contract's name when it has no trump suit
    (``obenabe``), None while none is fixed."""
    if rnd.trump is not None:
        return SUIT_SYMBOLS[SUITS.index(rnd.trump)]
    contract = rnd.contract
    return contract if contract is not None and contract not in SUITS else None


def round_result(rnd: Round, round_no: int) -> str:
    """The line for a round that is over: each side's round score and which way is better."""
    game = game_of(rnd.rules)
    spec = rnd.spec
    if rnd.trick_number < spec.tricks:
        return f"Round {round_no} ended after {rnd.trick_number} tricks: the match was decided"
    return (f"Round {round_no} over: {sides_text(spec, rnd.score)} ({game.statistic.score}, "
            f"{game.better} is better)")


def match_result(spec: GameSpec, winner: int | None, scores: Sequence[int]) -> str:
    """The line for a match that is over: who won (or a draw) and the totals."""
    who = (f"{side_name(spec, winner)} wins" if winner is not None and 0 <= winner < spec.sides
           else "a draw")
    return f"Match over: {who} ({sides_text(spec, scores)})"


def round_view(rnd: Round, seat: int | None, *, open_hands: bool = False, who: Sequence[str] | None = None,
               log: Sequence[str] = ()) -> dict[str, Any]:
    """The view of ``seat`` (None: a watcher) of a round: a JSON-ready dict (the design's "view").
    ``open_hands``: every hand is shown (``"hands"``; the caller has checked that the reader may
    see them); ``who``: each seat's player ("human" or an agent's name), None where unknown;
    ``log``: the events before, in words. The table's own fields (``table``, ``records``,
    ``version``) are None, and ``waiting_for`` says only whether the round is over."""
    rules, spec = rnd.rules, rnd.spec
    view = rnd.view
    over = rnd.is_over
    to_move = None if over else int(rnd.to_move)
    seats = [{"seat": p, "who": who[p] if who is not None else None, "side": spec.side_of(p),
              "cards_left": popcount(view.hands[p]), "is_you": p == seat, "warning": None}
             for p in range(spec.players)]
    lines = render_table(rnd.state, rules, show_hands="all" if open_hands else seat)
    hands = {str(p): names_of(view.hands[p]) for p in range(spec.players)} if open_hands else None
    mine = seat is not None and seat == to_move
    legal = [legal_entry(a, spec) for a in rnd.legal_actions()] if mine else []
    in_play = rnd.phase == "play"
    match = view.is_match
    match_over = bool(match and view.match_winner is not None)
    round_no = view.rounds_done + (0 if over else 1) if match else 1
    result = None
    if over:
        result = round_result(rnd, round_no)
        if match_over:
            result += "; " + match_result(spec, view.match_winner, view.match_score)
    return {
        "table": None, "rules": rules.name, "title": spec.title, "players": spec.players,
        "teams": spec.teams != TEAMS_NONE, "sides": spec.sides, "seat": seat, "seats": seats,
        "phase": rnd.phase, "to_move": to_move, "waiting_for": WAITING_NONE if over else None,
        "dealer": int(rnd.dealer), "forehand": int(rnd.forehand),
        "trump": trump_text(rnd), "contract": rnd.contract,
        "hand": names_of(view.hands[seat]) if seat is not None else None, "hands": hands, "legal": legal,
        "trick": [{"seat": int(p), "card": c} for p, c in rnd.current_trick] if in_play else [],
        "trick_leader": int(rnd.leader) if in_play else None,
        "tricks": [{"plays": [{"seat": int(p), "card": c} for p, c in t["plays"]], "winner": int(t["winner"]),
                    "points": int(t["points"])} for t in rnd.tricks],
        "points": [int(x) for x in rnd.points], "tricks_won": [int(x) for x in rnd.tricks_won],
        "score": [int(x) for x in rnd.score],
        "match": match, "match_scores": [int(x) for x in view.match_score] if match else None,
        "round_no": round_no, "round_over": over, "match_over": match_over, "next_round": False,
        "result": result, "lines": lines.split("\n"), "log": list(log),
        "records": None, "version": None, "error": None,
    }


__all__ = ["Event", "HUMAN", "LOG_EVENTS", "WAITING_AGENT", "WAITING_HUMAN", "WAITING_NONE", "event_text",
           "legal_entry", "match_result", "player_name", "round_result", "side_name", "sides_text",
           "round_view", "trump_text"]
