"""Sidi's lines of the text table: the open trump card and the stock, the hands, tricks, Weis, Stöck."""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import SUIT_SYMBOLS, card_id, card_symbol

from .._text import ShowHands, hand_line, hand_text, head, player_name, trick_lines, weis_items
from . import rules as sidi


def lines(round: Any, show_hands: ShowHands) -> list[str]:
    """Sidi: the open trump card and the stock, the exchange, the hands (with the cards a seat
    is known to hold), tricks, Weis, Stöck, points and the game to the target."""
    view, rules = round.view, round.rules
    everything = show_hands == "all"
    r = round
    out = [head(round, f"{rules.spec.title} ({rules.name})", "")]
    trump = f"Trump: {SUIT_SYMBOLS[view.contract]}, turned card {card_symbol(view.trump_card)}"
    if r.face_up_card is not None:
        trump += f"; stock {r.stock_left} cards on {card_symbol(card_id(r.face_up_card))} (face up)"
    else:
        trump += "; stock empty (follow suit)"
    ex = r.exchange
    if ex is not None:
        trump += f"; {player_name(ex['player'])} exchanged the trump 6 before trick {ex['trick']}"
    out.append(trump)
    for p in range(view.players):
        known = int(sidi.known_cards(view.st, p))
        shown = everything or show_hands == p
        extra = f" | known to hold {hand_text(known)}" if known and not shown else ""
        out.append(hand_line(round, p, player_name(p), show_hands) + extra)
    out += trick_lines(round)
    if rules.weis:
        weis = r.weis()
        if not (view.trick_number >= 1 or everything):   # whether anyone has a Weis is not known yet
            out.append("Weis: shown after trick 1")
        elif view.weis_team is None:
            out.append("Weis: none")
        else:
            items = weis_items(weis, with_player=False)
            out.append(f"Weis: {player_name(view.weis_team)} {items}; scores "
                         f"{view.weis_points[view.weis_team]}")
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or everything):
        out.append(f"Stöck: {player_name(sp)} (+{rules.stoeck}, "
                     f"{'shown' if view.stoeck_shown else 'not shown yet'})")
    pts, tw, sc = view.points, view.tricks_won, view.score
    out.append(f"Points: {player_name(0)} {pts[0]} · {player_name(1)} {pts[1]} | tricks {tw[0]} : "
                 f"{tw[1]} | round score {sc[0]} : {sc[1]}")
    if view.match_team is not None:
        out.append(f"All {rules.spec.tricks} tricks: {player_name(view.match_team)} +{rules.match_bonus}")
    if view.is_match:
        target = f"target {rules.target}" if rules.target else f"{rules.match_rounds} rounds"
        ms = view.match_score
        line = (f"Game: {player_name(0)} {ms[0]} · {player_name(1)} {ms[1]} ({target}, "
                f"{view.rounds_done} rounds completed)")
        if view.match_winner in (0, 1):
            line += f": {player_name(view.match_winner)} wins"
        out.append(line)
    return out
