"""Mittlere's own rules: three players alone, trump by the first discard, and the score of a hand in
Striche (+1) and Nullen (−1) by the players' points and tricks.

Three players alone, 12 cards each; trump is fixed by the first discard
(:mod:`jass_env.games._first_discard`). The aim of a hand is not to end in the middle. The first
case that fits decides (docs/games/mittlere.md):

=========================================================  =================================
case                                                       score
=========================================================  =================================
one player took all 12 tricks                              he +2, the others −1 each
one player has ≥ 100 points and another has 0              the middle player +2, the others −1
one player has ≥ 100 points                                he −2, the others +1 each
one player took no trick                                   he −2, the others +1 each
otherwise                                                  highest +1, lowest +1, middle −2
=========================================================  =================================

In the two cases scored by place (the second and the last), players tied on points share the
places they cover and get 0; an untied player is scored by his place (52/52/53 → 0/0/+1). The
game's score is the sum over its hands; the highest total wins. No Weis, no Stöck.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.state import PHASE_OVER, S_CONTRACT, S_FOREHAND, S_PHASE, S_POINTS, S_SCORE, S_TRICKS_WON
from jass_env.engine.switches import RP_TRICKS, Rules
from jass_env.engine.transitions import legal_in_card_play

from .._alone import add_round_to_game
from .._first_discard import rules as first_discard

STATE_FIELDS: tuple[tuple[str, int], ...] = ()

#: one player at or above this many points is "over 100"
HIGH_POINTS = 100
#: the players of a Mittlere hand
PLAYERS = 3
#: place scores (highest, middle, lowest) of the two cases scored by place
MIDDLE_WINS = (-1, 2, -1)
MIDDLE_LOSES = (1, -2, 1)
#: the lowest and highest Striche − Nullen of a hand (every case of :func:`hand_score`)
HAND_SCORE_RANGE = (-2, 2)


@engine_inline
def _by_place(points: np.ndarray, top: int, middle: int, low: int, out: np.ndarray) -> None:
    """Score each player by his place among the three ``points``; tied players get 0."""
    for p in range(PLAYERS):
        above = 0
        tied = False
        for q in range(PLAYERS):
            if q != p:
                if points[q] > points[p]:
                    above += 1
                elif points[q] == points[p]:
                    tied = True
        if tied:
            out[p] = 0
        elif above == 0:
            out[p] = top
        elif above == 1:
            out[p] = middle
        else:
            out[p] = low


@engine_jit
def hand_score(points: np.ndarray, tricks: np.ndarray, n_tricks: int, out: np.ndarray) -> None:
    """Write each player's Striche − Nullen for one hand into ``out`` (3 entries), from the
    players' card points and tricks taken (3 entries each) and the hand's number of tricks."""
    for p in range(PLAYERS):
        if tricks[p] == n_tricks:                       # one player took every trick
            for q in range(PLAYERS):
                out[q] = 2 if q == p else -1
            return
    high = -1
    zero = False
    for p in range(PLAYERS):
        if points[p] >= HIGH_POINTS:
            high = p
        if points[p] == 0:
            zero = True
    if high >= 0 and zero:                              # >= 100 and another at 0: the middle wins
        _by_place(points, MIDDLE_WINS[0], MIDDLE_WINS[1], MIDDLE_WINS[2], out)
        return
    if high >= 0:                                       # >= 100: he loses
        for q in range(PLAYERS):
            out[q] = -2 if q == high else 1
        return
    for p in range(PLAYERS):
        if tricks[p] == 0:                              # no trick: he loses
            for q in range(PLAYERS):
                out[q] = -2 if q == p else 1
            return
    _by_place(points, MIDDLE_LOSES[0], MIDDLE_LOSES[1], MIDDLE_LOSES[2], out)



# the hooks
@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A game keeps nothing of Mittlere's own beyond the shared totals."""


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: no trump yet, forehand leads (:mod:`jass_env.games._first_discard`)."""
    first_discard.begin_round(st, rp)


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The cards docs/rules.md "Legal moves" allows (Mittlere has no phase actions)."""
    return legal_in_card_play(st, rp), 0


@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Mittlere has no actions but cards."""


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """The first card that does not follow suit fixes trump from itself on."""
    if first_discard.is_fixing(st, card):
        first_discard.fix_trump(st, player, card, rp, False)


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Mittlere has no Stöck."""


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the trump's card values (Obenabe's before trump is fixed)."""
    return st[S_CONTRACT]


@engine_inline
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """The trick's points are already the winner's; nothing else is scored per trick."""


@engine_jit
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
    """The hand's Striche − Nullen per player; in a game, the totals and, after the last hand, the
    winner (the highest total)."""
    st[S_PHASE] = PHASE_OVER
    if first_discard.annulled(st, rp):
        first_discard.annul(st, rp)
    else:
        hand_score(st[S_POINTS:S_POINTS + PLAYERS], st[S_TRICKS_WON:S_TRICKS_WON + PLAYERS], rp[RP_TRICKS],
                   st[S_SCORE:S_SCORE + PLAYERS])
    add_round_to_game(st, rp, highest_wins=True)


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand leads trick 1."""
    return st[S_FOREHAND]


def max_phase_actions(rules: Rules) -> int:
    """No bidding: every action is a card."""
    return 0


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of a player's score in a hand: Striche − Nullen, −2..+2."""
    return HAND_SCORE_RANGE


def hand_result(points: list[int], tricks: list[int], n_tricks: int = 12) -> list[int]:
    """Python face of :func:`hand_score`: the three players' Striche − Nullen of one hand."""
    if len(points) != PLAYERS or len(tricks) != PLAYERS:
        raise ValueError(f"a Mittlere hand has {PLAYERS} players; got points {points!r}, tricks {tricks!r}")
    out = np.zeros(PLAYERS, dtype=np.int64)
    hand_score(np.asarray(points, dtype=np.int64), np.asarray(tricks, dtype=np.int64), n_tricks, out)
    return [int(v) for v in out]
