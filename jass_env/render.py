"""Text pictures of a game state, for ``render()`` of the environments and the human-play CLI.

:func:`render_table` reads a state array through :class:`jass_env.round.Round` and returns a few
lines of text with suit symbols (♦ ♥ ♠ ♣): each game's ``render.lines``, then who is to move.
Schieber::

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

import numpy as np

from .engine.cards import SUIT_SYMBOLS
from .engine.state import PHASE_PREDICT, state_size
from .engine.switches import Rules
from .games import make_rules
from .games._text import ShowHands, hand_text, player_name
from .round import Round


def render_table(state: np.ndarray, rules: str | Rules | None = None, show_hands: ShowHands = "all") -> str:
    """A readable text picture of ``state`` (int64 array, the game's state size).

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
    size = state_size(rules.spec)
    if st.shape != (size,):
        raise ValueError(f"state must be a {rules.spec.name} state array of shape ({size},), got {st.shape}")
    round_ = Round(rules, state=st)
    lines = round_.game.render.lines(round_, show_hands)
    view = round_.view
    if view.is_over:
        over = "Game over" if rules.spec.default_episode == "match" else "Match over"
        lines.append(over if view.is_match and view.match_winner is not None else "Round over")
    else:
        predicting = " (predicting)" if view.phase == PHASE_PREDICT else ""
        lines.append(f"To move: {player_name(view.to_move)}{predicting}")
    return "\n".join(lines)


__all__ = ["render_table", "hand_text", "player_name", "SUIT_SYMBOLS"]
