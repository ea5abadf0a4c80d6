"""Schieber's lines of the text table: the contract, the hands, tricks, Weis, Stöck, points and match."""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import CONTRACT_NAMES

from .._text import ShowHands, hand_line, head, player_name, team_result, trick_lines, weis_items


def lines(round: Any, show_hands: ShowHands) -> list[str]:  # noqa: A002 (the round shown)
    view, rules = round.view, round.rules
    everything = show_hands == "all"
    out = [head(round, f"Jass ({rules.name})", "")]

    c = view.contract
    pushed = f" (pushed by {player_name(view.forehand)})" if view.pushed else ""
    if c < 0:
        out.append(f"Contract: not chosen yet, {player_name(view.to_move)} to choose{pushed}")
    else:
        out.append(f"Contract: {CONTRACT_NAMES[c]} ×{rules.multipliers[c]}, declared by "
                     f"{player_name(view.declarer)}{pushed}")
    for p in range(view.players):
        out.append(hand_line(round, p, f"{player_name(p)} (team {p % 2})", show_hands))
    if c >= 0:
        out += trick_lines(round)

    # Weis and Stöck
    if c >= 0 and rules.weis:
        team = view.weis_team
        public = view.trick_number >= 1
        if not (public or everything):           # whether anyone has a Weis is not known yet
            out.append("Weis: shown after trick 1")
        elif team is None:
            out.append("Weis: none")
        else:
            items = weis_items(round.weis(), with_player=True)
            when = "" if public else " (shown after trick 1)"
            out.append(f"Weis: {items}; team {team} scores {view.weis_points[team]}{when}")
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or everything):
        state_txt = "shown" if view.stoeck_shown else "not shown yet"
        out.append(f"Stöck: {player_name(sp)} (+{rules.stoeck}, {state_txt})")

    pts, tw, sc = view.points, view.tricks_won, view.score
    out.append(f"Card points: team 0 {pts[0]} · team 1 {pts[1]} | tricks {tw[0]} : {tw[1]} | "
                 f"round score {sc[0]} : {sc[1]}")
    if view.match_team is not None:
        out.append(f"Match (all {view.tricks} tricks): team {view.match_team} +{rules.match_bonus}")
    if view.is_match:
        target = f"target {rules.target}" if rules.target else f"{rules.match_rounds} rounds"
        ms = view.match_score
        line = (f"Match: team 0 {ms[0]} · team 1 {ms[1]} ({target}, "
                f"{view.rounds_done} rounds completed)")
        out.append(line + team_result(view.match_winner))
    return out
