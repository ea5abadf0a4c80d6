"""Differenzler's own rules: trump from the bottom card, predictions, penalty.

Everyone plays alone (4 players × 9 cards, or 3 × 12 in ``differenzler3``). Trump is the suit of a
card of the dealer's hand shown to everyone (``bottom_card``), or a suit drawn at random
(``random_suit``); trump suits only. Before play each player predicts the card points he alone
will take (0..157, the last trick's 5 included), forehand first and the dealer last; the
predictions are hidden until the round ends (or open, a switch). Forehand leads; card play follows
docs/rules.md "Legal moves" with the under-trump ban only for a player who holds the led suit. No
Weis, Stöck or Match bonus. A player's penalty for the round is ``|prediction − points|``, or −10
for an exact hit with a prediction above 0 (switch ``zero_bid_bonus = zero_point_trick``: also for
an exact 0 with a trick won). A game is ``match_rounds`` rounds (12); the lowest total penalty
wins, and a tie for the lowest plays one more round.

The engine's hooks (:mod:`jass_env.engine.hooks`), then the game's own state and parameters.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.cards import N_SUITS, ROUND_POINTS, nth_bit
from jass_env.engine.deal import random_below
from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.spec import tail_offsets
from jass_env.engine.state import (
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
    S_SCORE,
    S_TAIL,
    S_TO_MOVE,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    n_players,
)
from jass_env.engine.switches import RP_GAME, RP_HAND_SIZE, Rules
from jass_env.engine.transitions import legal_in_card_play
from jass_env.engine.validate import StateChecks, contract_allowed

from .._alone import add_round_to_game

#: a prediction is an integer 0..ROUND_POINTS; action 36 + k predicts k points
N_PREDICTIONS = ROUND_POINTS + 1
PREDICTION_OFFSET = 36
N_ACTIONS = PREDICTION_OFFSET + N_PREDICTIONS
#: the penalty of an exact hit is this much below 0
EXACT_HIT_BONUS = 10
#: the most players of a Differenzler game
MAX_PLAYERS = 4

#: the game's own switches and their values as packed (Rules.params from RP_GAME on)
TRUMP_MODES = ("bottom_card", "random_suit")
TRUMP_BOTTOM_CARD, TRUMP_RANDOM_SUIT = range(2)
PREDICTIONS = ("hidden", "open")
ZERO_BID_BONUSES = ("never", "zero_point_trick")
ZERO_BID_NEVER, ZERO_BID_ZERO_POINT_TRICK = range(2)
RP_TRUMP_MODE = RP_GAME + 0        # index into TRUMP_MODES
RP_PREDICTIONS_OPEN = RP_GAME + 1  # index into PREDICTIONS
RP_ZERO_BID = RP_GAME + 2          # index into ZERO_BID_BONUSES

#: the game's tail of the state: each player's prediction, -1 = not yet made
STATE_FIELDS = (("predictions", MAX_PLAYERS),)
#: the values each field may hold (GameSpec.state_ranges): a prediction 0..157, or -1
STATE_RANGES = {"predictions": (-1, ROUND_POINTS)}
S_PREDICTIONS = S_TAIL + tail_offsets(STATE_FIELDS)["predictions"]


def pack(rules: Rules) -> list[int]:
    """The game's own switches as the compiled rules read them (from RP_GAME on)."""
    return [TRUMP_MODES.index(rules.trump_mode), PREDICTIONS.index(rules.predictions),
            ZERO_BID_BONUSES.index(rules.zero_bid_bonus)]


# the hooks
@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A game keeps nothing of Differenzler's own beyond the shared totals."""


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: fix trump, then forehand predicts first."""
    if rp[RP_TRUMP_MODE] == TRUMP_BOTTOM_CARD:
        dealer_hand = st[S_DEALT + st[S_DEALER]]
        card = nth_bit(dealer_hand, random_below(st, rp[RP_HAND_SIZE]))
        set_trump(st, card // 9, card)
    else:
        set_trump(st, random_below(st, N_SUITS), -1)
    st[S_PHASE] = PHASE_PREDICT
    for p in range(MAX_PLAYERS):
        st[S_PREDICTIONS + p] = -1


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """While predicting, every prediction (a block of 158 actions from 36); then the cards
    docs/rules.md "Legal moves" allows."""
    if st[S_PHASE] == PHASE_PREDICT:
        return 0, N_PREDICTIONS
    return legal_in_card_play(st, rp), 0


@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """A prediction (action 36 + k predicts k points)."""
    predict(st, action - PREDICTION_OFFSET, rp)


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Nothing happens before a card in Differenzler."""


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Differenzler has no Stöck."""


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the trump suit's card values."""
    return st[S_CONTRACT]


@engine_inline
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """The trick's points are already the winner's; nothing else is scored per trick."""


@engine_jit
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
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


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand leads trick 1."""
    return st[S_FOREHAND]


# the game's own
@engine_inline
def set_trump(st: np.ndarray, suit: int, card: int) -> None:
    """Trump ``suit``, shown by ``card`` of the dealer's hand (-1: drawn, no card shown)."""
    st[S_CONTRACT] = suit
    st[S_TRUMP_CARD] = card


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


@engine_inline
def prediction_of(st: np.ndarray, player: int) -> int:
    """A player's prediction, -1 before he made it."""
    return st[S_PREDICTIONS + player]


@engine_jit
def set_predictions(st: np.ndarray, predictions: np.ndarray, rp: np.ndarray) -> None:
    """Write every player's prediction (``predictions[p]``, -1 = not made) into a state built by
    :func:`jass_env.engine.positions.set_play_position` (a search bot's sampled world), so that the
    engine scores the world's round with the game's penalty."""
    for p in range(n_players(rp)):
        st[S_PREDICTIONS + p] = predictions[p]


def check_state(c: StateChecks) -> None:
    """Differenzler's checks of states from outside (:mod:`jass_env.engine.validate`): trump is a
    suit; while predicting, the players from forehand up to the one to move have predicted and
    the others not; in card play everyone has."""
    contract_allowed(c)
    n = c.players
    made = c.tail("predictions")[:, :n] >= 0
    forehand = c.col(S_FOREHAND)
    turn = (c.col(S_TO_MOVE) - forehand) % n                       # the mover's place from forehand
    place = (np.arange(n)[None, :] - forehand[:, None]) % n
    predicting = c.col(S_PHASE) == PHASE_PREDICT
    should = np.where(predicting[:, None], place < turn[:, None], True)
    c.require(made == should, S_PREDICTIONS + np.arange(n),
              lambda g, j: (f"a prediction 0..{ROUND_POINTS}: player {j} has predicted" if should[g, j] else
                            f"-1: player {j} predicts after the player to move ({int(c.col(S_TO_MOVE)[g])})"))


def max_phase_actions(rules: Rules) -> int:
    """One prediction a player."""
    return rules.spec.players


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of a player's penalty in a round: −10 (an exact hit) .. 157 (a
    prediction off by every point of the round)."""
    return -EXACT_HIT_BONUS, ROUND_POINTS


def predictions_of(st: np.ndarray, players: int) -> list[int | None]:
    """Each player's prediction (None before he made it), for Python readers."""
    return [None if v < 0 else int(v) for v in st[S_PREDICTIONS:S_PREDICTIONS + players]]
