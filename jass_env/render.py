"""Text pictures of a game state, for ``render()`` of the environments and the human-play CLI.

:func:`render_table` reads a core state array (layout in :mod:`jass_env.core`) through the
checked :class:`jass_env.game.Round` view and returns a few lines of text with suit symbols
(♦ ♥ ♠ ♣)::

    Jass (schieber) · round 1 · dealer player_3 · forehand player_0
    Contract: ♥ trump ×1, declared by player_2 (pushed by player_0)
    player_0 (team 0) : ♦A ♦10 ♥K ♥Q ♠9 ...
    player_1 (team 1) : 8 cards (hidden)
    ...
    Trick 2 (led by player_1): player_1 ♠K · player_2 ♠9
    Last trick: player_0 ♦A · ... won by player_0 (21 points)
    Weis: player_0 ♥K ♥Q ♥J (20) — team 0 scores 20
    Stöck: player_2 (+20, shown)
    Card points: team 0 34 · team 1 12 | tricks 1 : 1 | round score 74 : 12
    Match: team 0 512 · team 1 388 (target 1000)
    To move: player_3

Hands are shown for every seat (``show_hands="all"``), for one seat only (``show_hands=p``,
0..3, the others as a card count), or for nobody (``show_hands=None``). With one seat or none
shown, only public information is printed: Weis appear after trick 1 (when they are shown at
the table) and Stöck once shown; with all hands shown the pending ones are listed too.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from . import core
from .cards import CONTRACT_NAMES, SUIT_SYMBOLS, card_id, card_symbol, cards_of
from .game import Round
from .rules import Rules, make_rules

ShowHands = Literal["all"] | int | None


def player_name(p: int) -> str:
    """Seat number 0..3 to the agent name used by the environments (``player_0`` ...)."""
    return f"player_{p}"


def hand_text(mask: int) -> str:
    """Cards of a bitboard with suit symbols, by suit (♦ ♥ ♠ ♣) and high to low."""
    return " ".join(card_symbol(c) for c in cards_of(int(mask))) or "—"


def render_table(state: np.ndarray, rules: str | Rules | None = None,
                 show_hands: ShowHands = "all") -> str:
    """A readable text picture of ``state`` (int64 array of length ``core.S_SIZE``).

    ``show_hands``: ``"all"``, a seat 0..3 (only that hand, the others hidden) or None.
    Raises ValueError for a bad ``show_hands`` or a state array of the wrong shape.
    """
    if show_hands != "all" and show_hands is not None and not (
            isinstance(show_hands, (int, np.integer)) and not isinstance(show_hands, bool)
            and 0 <= show_hands < 4):
        raise ValueError(f"show_hands must be 'all', a seat 0..3 or None, not {show_hands!r}")
    st = np.asarray(state)
    if st.shape != (core.S_SIZE,):
        raise ValueError(f"state must be a core state array of shape ({core.S_SIZE},), got {st.shape}")
    r = Round(make_rules(rules), state=st)
    everything = show_hands == "all"
    g = lambda i: int(st[i])  # noqa: E731
    phase = g(core.S_PHASE)
    lines: list[str] = []

    head = f"Jass ({r.rules.name})"
    if g(core.S_MATCH):
        head += f" · round {g(core.S_ROUND_NO) + (0 if phase == core.PHASE_OVER else 1)}"
    head += f" · dealer {player_name(r.dealer)} · forehand {player_name(r.forehand)}"
    lines.append(head)

    # contract
    c = g(core.S_CONTRACT)
    pushed = f" (pushed by {player_name(r.forehand)})" if r.pushed else ""
    if c < 0:
        chooser = g(core.S_TO_MOVE)
        lines.append(f"Contract: not chosen yet, {player_name(chooser)} to choose{pushed}")
    else:
        lines.append(f"Contract: {CONTRACT_NAMES[c]} ×{r.rules.multipliers[c]}, declared by "
                     f"{player_name(r.declarer)}{pushed}")

    # hands
    for p in range(4):
        hand = g(core.S_HANDS + p)
        label = f"{player_name(p)} (team {p % 2})"
        if everything or show_hands == p:
            lines.append(f"{label} : {hand_text(hand)}")
        else:
            lines.append(f"{label} : {core.popcount(hand)} cards (hidden)")

    # tricks
    if c >= 0:
        t = g(core.S_TRICK_NO)
        if phase == core.PHASE_PLAY:
            cards = " · ".join(f"{player_name(p)} {card_symbol(card_id(cd))}" for p, cd in r.current_trick)
            lines.append(f"Trick {t + 1} (led by {player_name(r.leader)}): {cards or '(no card yet)'}")
        if t >= 1:
            last = r.tricks[-1]
            cards = " · ".join(f"{player_name(p)} {card_symbol(card_id(cd))}" for p, cd in last["plays"])
            lines.append(f"Last trick: {cards}, won by {player_name(last['winner'])} "
                         f"({last['points']} points)")

    # Weis and Stöck
    if c >= 0 and r.rules.weis:
        team = r.weis_team
        public = g(core.S_TRICK_NO) >= 1
        if team is None:
            lines.append("Weis: none")
        elif public or everything:
            items = " · ".join(
                f"{player_name(w['player'])} {' '.join(card_symbol(card_id(x)) for x in w['cards'])}"
                f" ({w['points']})" for w in r.weis())
            when = "" if public else " (shown after trick 1)"
            lines.append(f"Weis: {items}; team {team} scores {r.weis_points[team]}{when}")
        else:
            lines.append("Weis: declared, shown after trick 1")
    sp = r.stoeck_player
    if sp is not None and (r.stoeck_shown or everything):
        state_txt = "shown" if r.stoeck_shown else "not shown yet"
        lines.append(f"Stöck: {player_name(sp)} (+{r.rules.stoeck}, {state_txt})")

    # scores
    pts, tw, sc = r.points, r.tricks_won, r.score
    lines.append(f"Card points: team 0 {pts[0]} · team 1 {pts[1]} | tricks {tw[0]} : {tw[1]} | "
                 f"round score {sc[0]} : {sc[1]}")
    if r.match_team is not None:
        lines.append(f"Match (all 9 tricks): team {r.match_team} +{r.rules.match_bonus}")
    if g(core.S_MATCH):
        target = f"target {r.rules.target}" if r.rules.target else f"{r.rules.match_rounds} rounds"
        line = (f"Match: team 0 {g(core.S_MATCH_SCORE)} · team 1 {g(core.S_MATCH_SCORE + 1)} ({target}, "
                f"{g(core.S_ROUND_NO)} rounds completed)")
        w = g(core.S_MATCH_WINNER)
        if w in (0, 1):
            line += f": team {w} wins"
        elif w == 2:
            line += ": a draw"
        lines.append(line)

    if phase == core.PHASE_OVER:
        lines.append("Round over" if not (g(core.S_MATCH) and g(core.S_MATCH_WINNER) >= 0) else "Match over")
    else:
        lines.append(f"To move: {player_name(g(core.S_TO_MOVE))}")
    return "\n".join(lines)


__all__ = ["render_table", "hand_text", "player_name", "SUIT_SYMBOLS"]
