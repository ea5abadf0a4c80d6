"""The text pieces every game's table lines share: player names, hands, tricks, the head line.

Each game's ``render.py`` builds its lines (``lines(round, show_hands)``) from these, given the
:class:`jass_env.round.Round` of the state to show; :func:`jass_env.render.render_table` joins them.
``show_hands``: ``"all"``, one seat (only that hand shown, the others as a card count), or None.
"""

from __future__ import annotations

from typing import Any, Literal

from jass_env.engine.cards import card_id, card_symbol, cards_of, popcount
from jass_env.engine.state import PHASE_PLAY

ShowHands = Literal["all"] | int | None


def player_name(p: int) -> str:
    """Seat number to the agent name used by the environments (``player_0`` ...)."""
    return f"player_{p}"


def hand_text(mask: int) -> str:
    """Cards of a bitboard with suit symbols, by suit (♦ ♥ ♠ ♣) and high to low."""
    return " ".join(card_symbol(c) for c in cards_of(int(mask))) or "—"


def plays_text(plays: list[tuple[int, int]]) -> str:
    return " · ".join(f"{player_name(p)} {card_symbol(c)}" for p, c in plays)


def trick_lines(round: Any) -> list[str]:  # noqa: A002 (the round shown)
    """The current trick (in card play) and the last finished one."""
    view = round.view
    lines = []
    n, t = view.players, view.trick_number
    if view.phase == PHASE_PLAY:
        plays = [((view.leader + i) % n, c) for i, c in enumerate(view.trick)]
        lines.append(f"Trick {t + 1} (led by {player_name(view.leader)}): "
                     f"{plays_text(plays) or '(no card yet)'}")
    if t >= 1:
        last = t - 1
        leader = view.trick_winner(last - 1) if last else int(round.engine.first_leader(view.st, view.rp))
        plays = [((leader + i) % n, c) for i, c in enumerate(view.trick_cards(last))]
        lines.append(f"Last trick: {plays_text(plays)}, won by {player_name(view.trick_winner(last))} "
                     f"({view.trick_points(last)} points)")
    return lines


def head(round: Any, title: str, of_rounds: str) -> str:  # noqa: A002
    """The first line: the game, the round of a match, dealer and forehand."""
    view = round.view
    text = title
    if view.is_match:
        text += f" · round {view.rounds_done + (0 if view.is_over else 1)}{of_rounds}"
    return text + f" · dealer {player_name(view.dealer)} · forehand {player_name(view.forehand)}"


def hand_line(round: Any, p: int, label: str, show_hands: ShowHands) -> str:  # noqa: A002
    hand = round.view.hands[p]
    if show_hands == "all" or show_hands == p:
        return f"{label} : {hand_text(hand)}"
    return f"{label} : {popcount(hand)} cards (hidden)"


def team_result(winner: int | None) -> str:
    """": team w wins", ": a draw" (winner 2) or "" (undecided) after a line of team totals."""
    if winner in (0, 1):
        return f": team {winner} wins"
    return ": a draw" if winner == 2 else ""


def weis_items(weis: list[dict[str, Any]], with_player: bool) -> str:
    """The Weis of a list of ``Round.weis()`` entries, with their cards and points."""
    return " · ".join((f"{player_name(w['player'])} " if with_player else "")
                      + f"{' '.join(card_symbol(card_id(x)) for x in w['cards'])} ({w['points']})"
                      for w in weis)
