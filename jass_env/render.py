"""Text pictures of a game state, for ``render()`` of the environments and the human-play CLI.

:func:`render_table` reads a core state array through :class:`jass_env.core.StateView` and
returns a few lines of text with suit symbols (♦ ♥ ♠ ♣). Schieber::

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

Differenzler (everyone alone)::

    Differenzler (differenzler) · round 3 of 12 · dealer player_3 · forehand player_0
    Trump: ♥, bottom card ♥10 (held by player_3)
    player_0 : ♦A ♦10 ♥K ... | prediction 45
    player_1 : 9 cards (hidden) | prediction hidden
    ...
    Trick 2 (led by player_1): player_1 ♠K · player_2 ♠9
    Last trick: ...
    Points: player_0 34 · player_1 12 · player_2 0 · player_3 21 | tricks 1 · 0 · 0 · 1
    Penalties: player_0 11 · ...                      (when the round is over)
    Game: player_0 45 · player_1 ... (penalty totals, 12 rounds, 2 completed)
    To move: player_3 (predicting)

Hands are shown for every seat (``show_hands="all"``), for one seat only (``show_hands=p``,
the others as a card count), or for nobody (``show_hands=None``). With one seat or none shown,
only public information is printed: Weis appear after trick 1 (when they are shown at the table)
and Stöck once shown, hidden predictions once the round is over (a seat's own always); with all
hands shown the pending ones are listed too.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from . import core
from .cards import CONTRACT_NAMES, SUIT_SYMBOLS, card_id, card_symbol, cards_of
from .game import Round
from .rules import Rules, make_rules
from .spec import KIND_MOLOTOW, KIND_SIDI

ShowHands = Literal["all"] | int | None


def player_name(p: int) -> str:
    """Seat number to the agent name used by the environments (``player_0`` ...)."""
    return f"player_{p}"


def hand_text(mask: int) -> str:
    """Cards of a bitboard with suit symbols, by suit (♦ ♥ ♠ ♣) and high to low."""
    return " ".join(card_symbol(c) for c in cards_of(int(mask))) or "—"


def render_table(state: np.ndarray, rules: str | Rules | None = None,
                 show_hands: ShowHands = "all") -> str:
    """A readable text picture of ``state`` (int64 array of length ``core.S_SIZE``).

    ``show_hands``: ``"all"``, a seat of the game (only that hand, the others hidden) or None.
    Raises ValueError for a bad ``show_hands`` or a state array of the wrong shape.
    """
    rules = make_rules(rules)
    players = rules.spec.players
    if show_hands != "all" and show_hands is not None and not (
            isinstance(show_hands, (int, np.integer)) and not isinstance(show_hands, bool)
            and 0 <= show_hands < players):
        raise ValueError(f"show_hands must be 'all', a seat 0..{players - 1} or None, not {show_hands!r}")
    st = np.asarray(state)
    if st.shape != (core.S_SIZE,):
        raise ValueError(f"state must be a core state array of shape ({core.S_SIZE},), got {st.shape}")
    view = core.StateView(st, rules.params)
    if rules.spec.bidding == "prediction":
        lines = _differenzler_lines(view, rules, show_hands)
    elif rules.spec.bidding == "declaration":      # ---- Coiffeur (issue 15)
        lines = _coiffeur_lines(view, rules, show_hands)
    elif rules.spec.kind == KIND_SIDI:             # ---- Sidi
        lines = _sidi_lines(view, rules, show_hands)
    elif rules.spec.bidding == "none":
        lines = _discard_lines(view, rules, show_hands)
    else:
        lines = _schieber_lines(view, rules, show_hands)
    if view.is_over:
        over = "Game over" if rules.spec.bidding == "declaration" else "Match over"
        lines.append(over if view.is_match and view.match_winner is not None else "Round over")
    else:
        lines.append(f"To move: {player_name(view.to_move)}"
                     + (" (predicting)" if view.phase == core.PHASE_PREDICT else ""))
    return "\n".join(lines)


def _plays_text(plays: list[tuple[int, int]]) -> str:
    return " · ".join(f"{player_name(p)} {card_symbol(c)}" for p, c in plays)


def _trick_lines(view: core.StateView) -> list[str]:
    """The current trick (in card play) and the last finished one."""
    lines = []
    n, t = view.players, view.trick_number
    if view.phase == core.PHASE_PLAY:
        plays = [((view.leader + i) % n, c) for i, c in enumerate(view.trick)]
        lines.append(f"Trick {t + 1} (led by {player_name(view.leader)}): "
                     f"{_plays_text(plays) or '(no card yet)'}")
    if t >= 1:
        last = t - 1
        leader = view.trick_winner(last - 1) if last else int(core.first_leader(view.st, view.rp))
        plays = [((leader + i) % n, c) for i, c in enumerate(view.trick_cards(last))]
        lines.append(f"Last trick: {_plays_text(plays)}, won by {player_name(view.trick_winner(last))} "
                     f"({view.trick_points(last)} points)")
    return lines


def _head(view: core.StateView, title: str, of_rounds: str) -> str:
    """The first line: the game, the round of a match, dealer and forehand."""
    head = title
    if view.is_match:
        head += f" · round {view.rounds_done + (0 if view.is_over else 1)}{of_rounds}"
    return head + f" · dealer {player_name(view.dealer)} · forehand {player_name(view.forehand)}"


def _hand_line(view: core.StateView, p: int, label: str, show_hands: ShowHands) -> str:
    hand = view.hands[p]
    if show_hands == "all" or show_hands == p:
        return f"{label} : {hand_text(hand)}"
    return f"{label} : {core.popcount(hand)} cards (hidden)"


def _schieber_lines(view: core.StateView, rules: Rules, show_hands: ShowHands) -> list[str]:
    everything = show_hands == "all"
    lines = [_head(view, f"Jass ({rules.name})", "")]

    c = view.contract
    pushed = f" (pushed by {player_name(view.forehand)})" if view.pushed else ""
    if c < 0:
        lines.append(f"Contract: not chosen yet, {player_name(view.to_move)} to choose{pushed}")
    else:
        lines.append(f"Contract: {CONTRACT_NAMES[c]} ×{rules.multipliers[c]}, declared by "
                     f"{player_name(view.declarer)}{pushed}")
    for p in range(view.players):
        lines.append(_hand_line(view, p, f"{player_name(p)} (team {p % 2})", show_hands))
    if c >= 0:
        lines += _trick_lines(view)

    # Weis and Stöck
    if c >= 0 and rules.weis:
        team = view.weis_team
        public = view.trick_number >= 1
        if team is None:
            lines.append("Weis: none")
        elif public or everything:
            items = " · ".join(
                f"{player_name(w['player'])} {' '.join(card_symbol(card_id(x)) for x in w['cards'])}"
                f" ({w['points']})" for w in Round(rules, state=view.st).weis())
            when = "" if public else " (shown after trick 1)"
            lines.append(f"Weis: {items}; team {team} scores {view.weis_points[team]}{when}")
        else:
            lines.append("Weis: declared, shown after trick 1")
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or everything):
        state_txt = "shown" if view.stoeck_shown else "not shown yet"
        lines.append(f"Stöck: {player_name(sp)} (+{rules.stoeck}, {state_txt})")

    pts, tw, sc = view.points, view.tricks_won, view.score
    lines.append(f"Card points: team 0 {pts[0]} · team 1 {pts[1]} | tricks {tw[0]} : {tw[1]} | "
                 f"round score {sc[0]} : {sc[1]}")
    if view.match_team is not None:
        lines.append(f"Match (all {view.tricks} tricks): team {view.match_team} +{rules.match_bonus}")
    if view.is_match:
        target = f"target {rules.target}" if rules.target else f"{rules.match_rounds} rounds"
        ms = view.match_score
        line = (f"Match: team 0 {ms[0]} · team 1 {ms[1]} ({target}, "
                f"{view.rounds_done} rounds completed)")
        lines.append(line + _team_result(view.match_winner))
    return lines


def _team_result(winner: int | None) -> str:
    """": team w wins", ": a draw" (winner 2) or "" (undecided) after a line of team totals."""
    if winner in (0, 1):
        return f": team {winner} wins"
    return ": a draw" if winner == 2 else ""


def _differenzler_lines(view: core.StateView, rules: Rules, show_hands: ShowHands) -> list[str]:
    n = view.players
    lines = [_head(view, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    card = view.trump_card
    if view.contract < 0:
        lines.append("Trump: not fixed yet")
    elif card is None:
        lines.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, drawn at random")
    else:
        lines.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, bottom card {card_symbol(card)} "
                     f"(held by {player_name(view.dealer)})")
    reveal = rules.predictions == "open" or view.is_over or show_hands == "all"
    for p, pred in enumerate(view.predictions):
        if pred is None:
            what = "no prediction yet"
        elif reveal or show_hands == p:
            what = f"prediction {pred}"
        else:
            what = "prediction hidden"
        lines.append(_hand_line(view, p, player_name(p), show_hands) + f" | {what}")
    lines += _trick_lines(view)
    pts, tw = view.points, view.tricks_won
    lines.append("Points: " + " · ".join(f"{player_name(p)} {pts[p]}" for p in range(n))
                 + " | tricks " + " · ".join(str(x) for x in tw))
    if view.is_over:
        lines.append("Penalties: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.score)))
    if view.is_match:
        line = ("Game: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.match_score))
                + f" (penalty totals, {rules.match_rounds} rounds, {view.rounds_done} completed)")
        if view.match_winner is not None:
            line += f": {player_name(view.match_winner)} wins"
        lines.append(line)
    return lines


# ---- Coiffeur (issue 15)
def _coiffeur_lines(view: core.StateView, rules: Rules, show_hands: ShowHands) -> list[str]:
    """Head, the declaration (pushes, row, factor, game), hands, tricks, then both score sheets."""
    from . import coiffeur
    from .kernel import co_game, co_row
    from .spec import COIFFEUR_ROW_LABELS

    st, rows = view.st, rules.spec.rows
    lines = [_head(view, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    pushes = coiffeur.pushes_of(st, view.players)
    pushed = f"; pushed by {', '.join(player_name(p) for p in pushes)}" if pushes else ""
    row = int(co_row(st))
    if row < 0:
        forced = " (must declare)" if view.phase == core.PHASE_CONTRACT and coiffeur.must_declare(st) else ""
        lines.append(f"Row: not declared yet, {player_name(view.to_move)} to declare or push{forced}{pushed}")
    else:
        label = COIFFEUR_ROW_LABELS[row]
        game = coiffeur.game_name(int(co_game(st)))
        lines.append(f"Row: {label} ×{rules.row_factors[rows.index(label)]} playing {game}, declared by "
                     f"{player_name(view.declarer)} (team {view.declarer % 2}, leads trick 1){pushed}")
    for p in range(view.players):
        lines.append(_hand_line(view, p, f"{player_name(p)} (team {p % 2})", show_hands))
    lines += _trick_lines(view)
    pts, tw = view.points, view.tricks_won
    lines.append(f"Card points: team 0 {pts[0]} · team 1 {pts[1]} | tricks {tw[0]} : {tw[1]}")
    if view.is_over and row >= 0:
        lines.append(f"Row score: team {view.declarer % 2} writes {view.score[view.declarer % 2]}")
    sheets = coiffeur.sheets_of(st, rows)
    width = max(len(label) for label in rows) + 4
    lines.append("Sheets".ljust(width) + "team 0".rjust(8) + "team 1".rjust(8))
    for label, factor in zip(rows, rules.row_factors):
        values = [sheets[t][label] for t in range(2)]
        cells = "".join(("—" if v is None else str(v)).rjust(8) for v in values)
        lines.append(f"{label} ×{factor}".ljust(width) + cells)
    ms = view.match_score
    lines.append("Total".ljust(width) + str(ms[0]).rjust(8) + str(ms[1]).rjust(8)
                 + _team_result(view.match_winner))
    return lines


# --- Mittlere and Molotow (issue 17)
def _discard_lines(view: core.StateView, rules: Rules, show_hands: ShowHands) -> list[str]:
    """Mittlere and Molotow: trump by the first discard; Molotow's Weis and Stöck."""
    n = view.players
    r = Round(rules, state=view.st)
    lines = [_head(view, f"{rules.spec.title} ({rules.name})", f" of {rules.match_rounds}")]
    fixed = r.trump_fixed
    if fixed is None:
        lines.append("Trump: none yet (Obenabe ranking; the first card that does not follow fixes it)")
    else:
        lines.append(f"Trump: {SUIT_SYMBOLS[view.contract]}, fixed by {player_name(fixed['player'])}'s "
                     f"{card_symbol(view.trump_card)} (trick {fixed['trick']}, position {fixed['position']})")
    for p in range(n):
        lines.append(_hand_line(view, p, player_name(p), show_hands))
    lines += _trick_lines(view)
    pts, tw = view.points, view.tricks_won
    lines.append("Points: " + " · ".join(f"{player_name(p)} {pts[p]}" for p in range(n))
                 + " | tricks " + " · ".join(str(x) for x in tw))
    if rules.spec.kind == KIND_MOLOTOW and (view.trick_number >= 1 or show_hands == "all"):
        hand = [sum(w["points"] for w in r.hand_weis() if w["player"] == p) for p in range(n)]
        lines.append("Hand Weis (minus): " + " · ".join(f"{player_name(p)} {hand[p]}" for p in range(n))
                     + " | table Weis (plus): "
                     + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.weis_points)))
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or show_hands == "all"):
        lines.append(f"Stöck: {player_name(sp)} (−{rules.stoeck}, "
                     f"{'shown' if view.stoeck_shown else 'not shown yet'})")
    if view.is_over:
        label = "Striche − Nullen" if rules.spec.kind != KIND_MOLOTOW else "Hand scores (lowest best)"
        lines.append(f"{label}: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.score)))
    if view.is_match:
        best = "highest" if rules.spec.kind != KIND_MOLOTOW else "lowest"
        line = ("Game: " + " · ".join(f"{player_name(p)} {x}" for p, x in enumerate(view.match_score))
                + f" ({best} wins, {rules.match_rounds} hands, {view.rounds_done} completed)")
        if view.match_winner is not None:
            line += f": {player_name(view.match_winner)} wins"
        lines.append(line)
    return lines
# --- end Mittlere and Molotow


# --- Sidi (project rules)
def _sidi_lines(view: core.StateView, rules: Rules, show_hands: ShowHands) -> list[str]:
    """Sidi: the open trump card and the stock, the exchange, the hands (with the cards a seat
    is known to hold), tricks, Weis, Stöck, points and the game to the target."""
    from .kernel import sidi_known_cards

    everything = show_hands == "all"
    r = Round(rules, state=view.st)
    lines = [_head(view, f"{rules.spec.title} ({rules.name})", "")]
    trump = f"Trump: {SUIT_SYMBOLS[view.contract]}, turned card {card_symbol(view.trump_card)}"
    if r.face_up_card is not None:
        trump += f"; stock {r.stock_left} cards on {card_symbol(card_id(r.face_up_card))} (face up)"
    else:
        trump += "; stock empty (follow suit)"
    ex = r.exchange
    if ex is not None:
        trump += f"; {player_name(ex['player'])} exchanged the trump 6 before trick {ex['trick']}"
    lines.append(trump)
    for p in range(view.players):
        known = int(sidi_known_cards(view.st, p))
        shown = everything or show_hands == p
        extra = f" | known to hold {hand_text(known)}" if known and not shown else ""
        lines.append(_hand_line(view, p, player_name(p), show_hands) + extra)
    lines += _trick_lines(view)
    if rules.weis:
        weis = r.weis()
        if view.weis_team is None:
            lines.append("Weis: none")
        elif view.trick_number >= 1 or everything:
            items = " · ".join(f"{' '.join(card_symbol(card_id(x)) for x in w['cards'])} ({w['points']})"
                               for w in weis)
            lines.append(f"Weis: {player_name(view.weis_team)} {items}; scores "
                         f"{view.weis_points[view.weis_team]}")
        else:
            lines.append("Weis: declared, shown after trick 1")
    sp = view.stoeck_player
    if sp is not None and (view.stoeck_shown or everything):
        lines.append(f"Stöck: {player_name(sp)} (+{rules.stoeck}, "
                     f"{'shown' if view.stoeck_shown else 'not shown yet'})")
    pts, tw, sc = view.points, view.tricks_won, view.score
    lines.append(f"Points: {player_name(0)} {pts[0]} · {player_name(1)} {pts[1]} | tricks {tw[0]} : "
                 f"{tw[1]} | round score {sc[0]} : {sc[1]}")
    if view.match_team is not None:
        lines.append(f"All {rules.spec.tricks} tricks: {player_name(view.match_team)} +{rules.match_bonus}")
    if view.is_match:
        target = f"target {rules.target}" if rules.target else f"{rules.match_rounds} rounds"
        ms = view.match_score
        line = (f"Game: {player_name(0)} {ms[0]} · {player_name(1)} {ms[1]} ({target}, "
                f"{view.rounds_done} rounds completed)")
        if view.match_winner in (0, 1):
            line += f": {player_name(view.match_winner)} wins"
        lines.append(line)
    return lines
# --- end Sidi


__all__ = ["render_table", "hand_text", "player_name", "SUIT_SYMBOLS"]
