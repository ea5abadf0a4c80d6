"""Differenzler's lines of the text table: trump, the hands with their predictions, points, penalties."""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUIT_SYMBOLS, card_symbol

from .._text import ShowHands, hand_line, head, player_name, trick_lines


def lines(round: Any, show_hands: ShowHands) -> list[str]:  # noqa: A002 (the round shown)
    view, rules = round.view, round.rules
    n = view.players
    out = [head(round, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    card = view.trump_card
    if view.contract < 0:
        out.append("Trump: not fixed yet")
    elif card is None:
        out.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, drawn at random")
    else:
        out.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, bottom card {card_symbol(card)} "
                     f"(held by {player_name(view.dealer)})")
    reveal = rules.predictions == "open" or view.is_over or show_hands == "all"
    for p, pred in enumerate(round.predictions):
        if pred is None:
            what = "no prediction yet"
        elif reveal or show_hands == p:
            what = f"prediction {pred}"
        else:
            what = "prediction hidden"
        out.append(hand_line(round, p, player_name(p), show_hands) + f" | {what}")
    out += trick_lines(round)
    pts, tw = view.points, view.tricks_won
    out.append("Points: " + " · ".join(f"{player_name(p)} {pts[p]}" for p in range(n))
                 + " | tricks " + " · ".join(str(x) for x in tw))
    if view.is_over:
        out.append("Penalties: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.score)))
    if view.is_match:
        line = ("Game: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.match_score))
                + f" (penalty totals, {rules.match_rounds} rounds, {view.rounds_done} completed)")
        if view.match_winner is not None:
            line += f": {player_name(view.match_winner)} wins"
        out.append(line)
    return out
