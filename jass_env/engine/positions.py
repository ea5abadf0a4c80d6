"""Positions built from outside a game's own play: a seat's sampled worlds for the search bots,
a match resumed at a known score, a position that differs only in hidden cards.

:func:`set_play_position` writes a single round in card play from a seat's knowledge and chosen
hands for everyone; a game completes it with its own fields (Differenzler's predictions, Sidi's
stock, Coiffeur's row: each game's ``rules.py``). These write a state as the engine would have,
so the engine plays the position on exactly as a dealt round.
"""

from __future__ import annotations

import numpy as np

from .cards import N_CARDS
from .jit import engine_jit
from .spec import MAX_PLAYERS, MAX_TRICKS
from .state import (
    PHASE_PLAY,
    S_BERG_TEAM,
    S_CONTRACT,
    S_DEALER,
    S_DEALT,
    S_DECLARER,
    S_FOREHAND,
    S_HANDS,
    S_LEADER,
    S_MATCH_SCORE,
    S_MATCH_TEAM,
    S_MATCH_WINNER,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_PLAYS,
    S_POINTS,
    S_PUSHED,
    S_RNG,
    S_SCORE,
    S_STOECK_PLAYER,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_TRICK_POINTS,
    S_TRICK_WINNER,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_CARDS,
    S_WEIS_TEAM,
    n_players,
    n_sides,
)
from .switches import RP_MULT, RP_VALUES
from .transitions import sync_trick_winner


@engine_jit
def set_play_position(st: np.ndarray, hands: np.ndarray, played: np.ndarray, voids: np.ndarray,
                      weis_cards: np.ndarray, trick: np.ndarray, n_in_trick: int, leader: int,
                      forehand: int, pushed: int, declarer: int, contract: int, trick_no: int,
                      points: np.ndarray, tricks_won: np.ndarray, to_move: int, rp: np.ndarray) -> None:
    """Overwrite ``st`` with a single round in card play built from a seat's knowledge and
    chosen hands for everyone (a search bot's sampled world).

    Per player (length >= players): ``hands`` the cards still held, ``played`` the cards played,
    ``voids`` the shown voids, ``weis_cards`` the public Weis cards; ``trick`` the current trick's
    first ``n_in_trick`` cards, leader first. Per side: ``points`` and ``tricks_won`` so far (the
    round's score is the points times the contract's multiplier). Weis, Stöck and the match are
    left out: they are fixed by the deal and never change a card choice.
    """
    for i in range(st.shape[0]):
        st[i] = 0
    n = n_players(rp)
    for p in range(MAX_PLAYERS):
        st[S_TRICK + p] = -1
    for p in range(n):
        st[S_HANDS + p] = hands[p]
        st[S_PLAYED + p] = played[p]
        st[S_DEALT + p] = hands[p] | played[p]
        st[S_VOIDS + p] = voids[p]
        st[S_WEIS_CARDS + p] = weis_cards[p]
    for i in range(n_in_trick):
        st[S_TRICK + i] = trick[i]
    st[S_FOREHAND] = forehand
    st[S_DEALER] = (forehand + n - 1) % n
    st[S_PHASE] = PHASE_PLAY
    st[S_PUSHED] = pushed
    st[S_DECLARER] = declarer
    st[S_CONTRACT] = contract
    st[S_TO_MOVE] = to_move
    st[S_TRICK_NO] = trick_no
    st[S_LEADER] = leader
    st[S_N_IN_TRICK] = n_in_trick
    mult = rp[RP_MULT + contract]
    for t in range(n_sides(rp)):
        st[S_POINTS + t] = points[t]
        st[S_TRICKS_WON + t] = tricks_won[t]
        st[S_SCORE + t] = points[t] * mult
    st[S_WEIS_TEAM] = -1
    st[S_STOECK_PLAYER] = -1
    st[S_MATCH_TEAM] = -1
    st[S_MATCH_WINNER] = -1
    st[S_BERG_TEAM] = -1
    st[S_TRUMP_CARD] = -1
    st[S_RNG] = 1
    for i in range(N_CARDS):
        st[S_PLAYS + i] = -1
    for i in range(MAX_TRICKS):
        st[S_TRICK_WINNER + i] = -1
        st[S_TRICK_POINTS + i] = -1
    sync_trick_winner(st)


@engine_jit
def set_trick_plays(st: np.ndarray, t: int, cards: np.ndarray, n_cards: int, winner: int,
                    rp: np.ndarray) -> None:
    """Record trick ``t``'s first ``n_cards`` cards (leader first) in the plays of a state built
    by :func:`set_play_position`; ``winner`` >= 0 marks it finished, won by that player, with its
    points under the state's contract. The first-discard games read this record: fixing trump
    recounts the finished tricks, Molotow's table Weis looks at the trick's cards."""
    n = n_players(rp)
    points = 0
    for i in range(n_cards):
        st[S_PLAYS + n * t + i] = cards[i]
        points += rp[RP_VALUES + 36 * st[S_CONTRACT] + cards[i]]
    if winner >= 0:
        st[S_TRICK_WINNER + t] = winner
        st[S_TRICK_POINTS + t] = points


def set_match_scores(st: np.ndarray, scores: list[int] | tuple[int, ...], rp: np.ndarray) -> None:
    """Set a match's running totals, one per side (``scores``): resume a match from a known score
    (a match continued, a test played near the target). Raises ValueError on a wrong count."""
    sides = int(n_sides(rp))
    if len(scores) != sides:
        raise ValueError(f"set_match_scores needs one score per side ({sides}), got {list(scores)!r}")
    for s in range(sides):
        st[S_MATCH_SCORE + s] = int(scores[s])



def exchange_cards(st: np.ndarray, p: int, card_p: int, q: int, card_q: int) -> None:
    """Player ``p`` gives ``card_p`` to player ``q`` for ``card_q`` (both still held; the dealt
    hands follow): a position that differs only in hidden cards, for information-set tests.
    ValueError when a card is not held by its player."""
    for who, card in ((p, card_p), (q, card_q)):
        if not (int(st[S_HANDS + who]) >> card) & 1:
            raise ValueError(f"player {who} does not hold card {card}")
    bp, bq = 1 << card_p, 1 << card_q
    for off in (S_HANDS, S_DEALT):
        st[off + p] = (int(st[off + p]) & ~bp) | bq
        st[off + q] = (int(st[off + q]) & ~bq) | bp
