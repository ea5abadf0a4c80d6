"""Coiffeur's lines of the text table: the declaration, the hands, tricks and both score sheets."""

from __future__ import annotations

from typing import Any

from jass_env.engine.state import PHASE_CONTRACT

from .._text import ShowHands, hand_line, head, player_name, team_result, trick_lines
from . import rules as coiffeur


def lines(round: Any, show_hands: ShowHands) -> list[str]:
    """Head, the declaration (pushes, row, factor, game), hands, tricks, then both score sheets."""
    view, rules = round.view, round.rules
    st, rows = view.st, round.rows
    out = [head(round, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    pushes = coiffeur.pushes_of(st, view.players)
    pushed = f"; pushed by {', '.join(player_name(p) for p in pushes)}" if pushes else ""
    row = int(coiffeur.declared_row(st))
    if row < 0:
        forced = " (must declare)" if view.phase == PHASE_CONTRACT and coiffeur.must_declare(st) else ""
        out.append(f"Row: not declared yet, {player_name(view.to_move)} to declare or push{forced}{pushed}")
    else:
        label = coiffeur.ROW_LABELS[row]
        game = coiffeur.game_name(int(coiffeur.declared_game(st)))
        out.append(f"Row: {label} ×{rules.row_factors[rows.index(label)]} playing {game}, declared by "
                     f"{player_name(view.declarer)} (team {view.declarer % 2}, leads trick 1){pushed}")
    for p in range(view.players):
        out.append(hand_line(round, p, f"{player_name(p)} (team {p % 2})", show_hands))
    out += trick_lines(round)
    pts, tw = view.points, view.tricks_won
    out.append(f"Card points: team 0 {pts[0]} · team 1 {pts[1]} | tricks {tw[0]} : {tw[1]}")
    if view.is_over and row >= 0:
        out.append(f"Row score: team {view.declarer % 2} writes {view.score[view.declarer % 2]}")
    sheets = coiffeur.sheets_of(st, rows)
    width = max(len(label) for label in rows) + 4
    out.append("Sheets".ljust(width) + "team 0".rjust(8) + "team 1".rjust(8))
    for label, factor in zip(rows, rules.row_factors):
        values = [sheets[t][label] for t in range(2)]
        cells = "".join(("—" if v is None else str(v)).rjust(8) for v in values)
        out.append(f"{label} ×{factor}".ljust(width) + cells)
    ms = view.match_score
    out.append("Total".ljust(width) + str(ms[0]).rjust(8) + str(ms[1]).rjust(8)
                 + team_result(view.match_winner))
    return out
