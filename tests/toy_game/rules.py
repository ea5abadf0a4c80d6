"""Zwei's rules: forehand names trump, then twelve tricks; each player scores his card points.

The engine's hooks (:mod:`jass_env.engine.hooks`), all of them, as every game defines them.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.state import (
    PHASE_CONTRACT,
    PHASE_OVER,
    PHASE_PLAY,
    S_CONTRACT,
    S_DECLARER,
    S_FOREHAND,
    S_LEADER,
    S_PHASE,
    S_POINTS,
    S_SCORE,
    S_TO_MOVE,
)
from jass_env.engine.switches import RP_CONTRACTS
from jass_env.engine.transitions import legal_in_card_play
from jass_env.games._alone import add_round_to_game

#: action 36 + s names suit s trump
NAME_OFFSET = 36
PLAYERS = 2
#: Zwei keeps nothing of its own in the state
STATE_FIELDS: tuple[tuple[str, int], ...] = ()


@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A game keeps nothing of Zwei's own beyond the shared totals."""


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: forehand names trump."""
    st[S_PHASE] = PHASE_CONTRACT


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The four suits before card play (those the rules allow), then the legal cards."""
    if st[S_PHASE] == PHASE_PLAY:
        return legal_in_card_play(st, rp), 0
    return rp[RP_CONTRACTS] << NAME_OFFSET, 0


@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Forehand names trump and leads trick 1."""
    st[S_CONTRACT] = action - NAME_OFFSET
    st[S_DECLARER] = st[S_TO_MOVE]
    st[S_PHASE] = PHASE_PLAY
    st[S_LEADER] = st[S_FOREHAND]
    st[S_TO_MOVE] = st[S_FOREHAND]


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Nothing happens before a card."""


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Zwei has no Stöck."""


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the trump's card values."""
    return st[S_CONTRACT]


@engine_inline
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """The trick's points are already the winner's."""


@engine_jit
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Each player scores his card points; in a game, the totals and, after the last round, the
    winner (the higher total)."""
    st[S_PHASE] = PHASE_OVER
    for p in range(PLAYERS):
        st[S_SCORE + p] = st[S_POINTS + p]
    add_round_to_game(st, rp, highest_wins=True)


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand leads trick 1."""
    return st[S_FOREHAND]
