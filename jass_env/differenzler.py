"""Differenzler's own rules over the trick kernel: trump from the bottom card, predictions, penalty.

Everyone plays alone (4 players × 9 cards, or 3 × 12 in ``differenzler3``). Trump is the suit of a
card of the dealer's hand shown to everyone (``bottom_card``), or a suit drawn at random
(``random_suit``); trump suits only. Before play each player predicts the card points he alone
will take (0..157, the last trick's 5 included), forehand first and the dealer last; the
predictions are hidden until the round ends (or open, a switch). Forehand leads; card play follows
Schieber's rules (docs/rules.md "Legal moves") with the under-trump ban only for a player who
holds the led suit. No Weis, Stöck or Match bonus. A player's penalty for the round is
``|prediction − points|``, or −10 for an exact hit with a prediction above 0 (switch
``zero_bid_bonus = zero_point_trick``: also for an exact 0 with a trick won). A game is
``match_rounds`` rounds (12); the lowest total penalty wins, and a tie for the lowest plays one
more round.

Compiled functions called by :mod:`jass_env.core`; see :mod:`jass_env.kernel` for conventions.
"""

from __future__ import annotations

import numpy as np

from .kernel import (
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PREDICT,
    S_CONTRACT,
    S_DEALER,
    S_DEALT,
    S_FOREHAND,
    S_LEADER,
    S_PHASE,
    S_POINTS,
    S_PREDICTIONS,
    S_SCORE,
    S_TO_MOVE,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    engine_inline,
    engine_jit,
    n_players,
    nth_bit,
    random_below,
)
from .rules import (
    RP_HAND_SIZE,
    RP_TRICKS,
    RP_TRUMP_MODE,
    RP_ZERO_BID,
    TRUMP_BOTTOM_CARD,
    ZERO_BID_ZERO_POINT_TRICK,
)
from .spec import N_PREDICTIONS
from .totals import add_round_to_game

PREDICTION_OFFSET = 36   # action 36 + k predicts k points
N_ACTIONS = PREDICTION_OFFSET + N_PREDICTIONS
#: the penalty of an exact hit is this much below 0
EXACT_HIT_BONUS = 10
N_TRUMP_SUITS = 4


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: fix trump, then forehand predicts first."""
    if rp[RP_TRUMP_MODE] == TRUMP_BOTTOM_CARD:
        dealer_hand = st[S_DEALT + st[S_DEALER]]
        card = nth_bit(dealer_hand, random_below(st, rp[RP_HAND_SIZE]))
        set_trump(st, card // 9, card)
    else:
        set_trump(st, random_below(st, N_TRUMP_SUITS), -1)
    st[S_PHASE] = PHASE_PREDICT
    for p in range(n_players(rp)):
        st[S_PREDICTIONS + p] = -1


@engine_inline
def set_trump(st: np.ndarray, suit: int, card: int) -> None:
    """Trump ``suit``, shown by ``card`` of the dealer's hand (-1: drawn, no card shown)."""
    st[S_CONTRACT] = suit
    st[S_TRUMP_CARD] = card


@engine_inline
def legal_predictions(st: np.ndarray) -> int:
    """How many prediction actions are legal (all of them while predicting, else none)."""
    return N_PREDICTIONS if st[S_PHASE] == PHASE_PREDICT else 0


@engine_inline
def predict(st: np.ndarray, points: int, rp: np.ndarray) -> None:
    """The player to move predicts ``points``; after the dealer's prediction forehand leads."""
    p = st[S_TO_MOVE]
    st[S_PREDICTIONS + p] = points
    if p == st[S_DEALER]:
        st[S_PHASE] = PHASE_PLAY
        st[S_LEADER] = st[S_FOREHAND]
        st[S_TO_MOVE] = st[S_FOREHAND]
    else:
        st[S_TO_MOVE] = (p + 1) % n_players(rp)


@engine_jit
def after_trick(st: np.ndarray, trick: int, rp: np.ndarray) -> None:
    """The trick's points are already the winner's; after the last trick score the round."""
    if trick == rp[RP_TRICKS] - 1:
        _end_of_round(st, rp)


@engine_jit
def _end_of_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Penalties of the round; in a game, the totals and, after the last round, the winner."""
    st[S_PHASE] = PHASE_OVER
    n = n_players(rp)
    zero_bonus = rp[RP_ZERO_BID] == ZERO_BID_ZERO_POINT_TRICK
    for p in range(n):
        pred = st[S_PREDICTIONS + p]
        pts = st[S_POINTS + p]
        exact = pred == pts and (pred > 0 or (zero_bonus and st[S_TRICKS_WON + p] > 0))
        st[S_SCORE + p] = -EXACT_HIT_BONUS if exact else abs(pred - pts)
    add_round_to_game(st, rp, highest_wins=False)      # the lowest total penalty wins
