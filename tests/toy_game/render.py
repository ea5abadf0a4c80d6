"""Zwei's lines of the text table: trump, the hands, the tricks, points and the game."""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUIT_SYMBOLS
from jass_env.games._text import ShowHands, hand_line, head, player_name, trick_lines


def lines(round: Any, show_hands: ShowHands) -> list[str]:  # noqa: A002 (the round shown)
    view, rules = round.view, round.rules
    trump = "not named yet" if view.contract < 0 else SUIT_SYMBOLS[view.contract]
    out = [head(round, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}"), f"Trump: {trump}"]
    out += [hand_line(round, p, player_name(p), show_hands) for p in range(view.players)]
    out += trick_lines(round)
    out.append("Points: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.points)))
    if view.is_match:
        out.append("Game: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.match_score)))
    return out
