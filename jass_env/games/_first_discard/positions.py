"""Positions of the games of trump by the first discard built from outside their play: what a
search world (a state written by :func:`jass_env.engine.positions.set_play_position` from a seat's
view) needs beyond the engine's fields so that it shows that seat what the real round shows and
plays on as it would.

* :func:`set_trump_fix`: the card that fixed trump and where it lies in the plays (the
  observation's ``trump_trick`` and ``trump_position`` read it, :func:`rules.fix_position`);
* :func:`set_public_scoring`: Molotow's scoring so far, each player's hand Weis, the table Weis
  each player has taken and who holds the Stöck (0 and none in Mittlere).
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.jit import engine_jit
from jass_env.engine.state import (
    S_PLAYER_WEIS,
    S_PLAYS,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TRUMP_CARD,
    S_WEIS_POINTS,
    n_players,
)


@engine_jit
def set_trump_fix(st: np.ndarray, card: int, trick: int, position: int, rp: np.ndarray) -> None:
    """Record that ``card`` fixed trump, played at ``position`` (0 = the leader) of trick ``trick``
    (from 0), in a position whose trump and fixer (``S_CONTRACT``, ``S_DECLARER``) are set."""
    st[S_TRUMP_CARD] = card
    st[S_PLAYS + n_players(rp) * trick + position] = card


@engine_jit
def set_public_scoring(st: np.ndarray, hand_weis: np.ndarray, table_weis: np.ndarray, stoeck_player: int,
                       stoeck_shown: bool, rp: np.ndarray) -> None:
    """Write each player's hand Weis (``hand_weis[p]``, points) and the table Weis he has taken
    (``table_weis[p]``, points), and the player holding the Stöck (-1 none; ``stoeck_shown``: he
    has played both cards), into a position; the hand's score follows from them at its end."""
    for p in range(n_players(rp)):
        st[S_PLAYER_WEIS + p] = hand_weis[p]
        st[S_WEIS_POINTS + p] = table_weis[p]
    st[S_STOECK_PLAYER] = stoeck_player
    st[S_STOECK_SHOWN] = 1 if stoeck_shown and stoeck_player >= 0 else 0


__all__ = ["set_trump_fix", "set_public_scoring"]
