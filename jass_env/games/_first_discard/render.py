"""The lines of the text table of a round of trump by the first discard (Mittlere, Molotow)."""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUIT_SYMBOLS, card_symbol

from .._text import ShowHands, hand_line, head, player_name, trick_lines


def discard_lines(round: Any, show_hands: ShowHands, molotow: bool) -> list[str]:
    """The lines of a round of trump by the first discard; with ``molotow`` its Weis and Stöck."""
    view, rules = round.view, round.rules
    n = view.players
    r = round
    out = [head(round, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    fixed = r.trump_fixed
    if fixed is None:
        out.append("Trump: none yet (Obenabe ranking; the first card that does not follow fixes it)")
    else:
        out.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, fixed by {player_name(fixed['player'])}'s "
                     f"{card_symbol(view.trump_card)} (trick {fixed['trick']}, position {fixed['position']})")
    for p in range(n):
        out.append(hand_line(round, p, player_name(p), show_hands))
    out += trick_lines(round)
    pts, tw = view.points, view.tricks_won
    out.append("Points: " + " · ".join(f"{player_name(p)} {pts[p]}" for p in range(n))
                 + " | tricks " + " · ".join(str(x) for x in tw))
    if molotow and (view.trick_number >= 1 or show_hands == "all"):
        hand = [sum(w["points"] for w in r.hand_weis() if w["player"] == p) for p in range(n)]
        out.append("Hand Weis (minus): " + " · ".join(f"{player_name(p)} {hand[p]}" for p in range(n))
                     + " | table Weis (plus): "
                     + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.weis_points)))
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or show_hands == "all"):
        out.append(f"Stöck: {player_name(sp)} (−{rules.stoeck}, "
                     f"{'shown' if view.stoeck_shown else 'not shown yet'})")
    if view.is_over:
        label = "Striche − Nullen" if not molotow else "Hand scores (lowest best)"
        out.append(f"{label}: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.score)))
    if view.is_match:
        best = "highest" if not molotow else "lowest"
        line = ("Game: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.match_score))
                + f" ({best} wins, {rules.match_rounds} hands, {view.rounds_done} completed)")
        if view.match_winner is not None:
            line += f": {player_name(view.match_winner)} wins"
        out.append(line)
    return out
