"""Trump by the first discard (``trump_mode = "first_discard"``): the round rules of Mittlere and
Molotow over the trick kernel.

Play starts at once (no bidding): forehand leads, there is no trump yet, the cards rank as in
Obenabe and everyone must follow suit. The first player who cannot follow plays any card, and its
suit is trump **from that card on**: that card can win its trick, and the players after him in
that trick already play under the trump rules (docs/rules.md "Legal moves", with the rules'
``undertrump_rule``, ``only_if_void`` in both games). A trick finished before trump was fixed keeps
the winner decided then (Obenabe ranking), but every trick of the hand counts with the final trump's
card values: their points are recounted when trump is fixed. When nobody ever discards (every
player holds as many cards of each suit: 0.24 % of Mittlere deals; impossible with 4, 5 or 6
players, whose suits of 9 cards, or 8 spades without the ♠7, do not split evenly) the hand
counts with Obenabe values, or scores 0 for all under ``no_trump_hand = "annul"``.

State: before trump is fixed ``S_CONTRACT`` is Obenabe (4) and ``S_DECLARER`` is −1; the fix sets
``S_CONTRACT`` to the trump suit, ``S_DECLARER`` to the player who fixed it and ``S_TRUMP_CARD`` to
his card (where in the tricks it lies follows from ``S_PLAYS``).

Each game's scoring: :mod:`jass_env.mittlere` (Striche and Nullen), :mod:`jass_env.molotow`
(points and Weis, lowest best). A game is ``match_rounds`` hands; the best total wins (Mittlere:
the highest, Molotow: the lowest), and a tie for the best plays one more hand.
Compiled functions called by :mod:`jass_env.core`; see :mod:`jass_env.kernel` for conventions.
"""

from __future__ import annotations

import numpy as np

from . import mittlere, molotow
from .kernel import (
    KING_QUEEN,
    OBENABE,
    PHASE_OVER,
    PHASE_PLAY,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_PHASE,
    S_PLAYS,
    S_POINTS,
    S_SCORE,
    S_STOECK_PLAYER,
    S_TRICK,
    S_TRICK_NO,
    S_TRICK_POINTS,
    S_TRICK_WINNER,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    S_VOIDS,
    engine_inline,
    engine_jit,
    n_players,
)
from .rules import (
    NO_TRUMP_ANNUL,
    RP_KIND,
    RP_NO_TRUMP_HAND,
    RP_STOECK,
    RP_TRICKS,
    RP_VALUES,
)
from .spec import KIND_MITTLERE, KIND_MOLOTOW
from .totals import add_round_to_game


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: no trump yet (Obenabe ranking), forehand leads; Molotow's hand Weis."""
    st[S_CONTRACT] = OBENABE
    st[S_DECLARER] = -1
    st[S_TRUMP_CARD] = -1
    st[S_PHASE] = PHASE_PLAY
    if rp[RP_KIND] == KIND_MOLOTOW:
        molotow.declare_hand_weis(st, rp)


@engine_inline
def is_fixing(st: np.ndarray, card: int) -> bool:
    """Whether ``card``, about to be played, fixes trump: none is fixed yet and it does not follow
    the led suit (a player holding the led suit must follow while there is no trump)."""
    return st[S_DECLARER] < 0 and card // 9 != st[S_TRICK] // 9


@engine_jit
def fix_trump(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """``player`` cannot follow and plays ``card`` (not yet removed from his hand): its suit is
    trump from now on. Recounts the finished tricks with the trump's
    values; records that he showed a void; in Molotow, who holds the Stöck."""
    suit = card // 9
    st[S_CONTRACT] = suit
    st[S_DECLARER] = player
    st[S_TRUMP_CARD] = card
    st[S_VOIDS + player] |= np.int64(1) << (st[S_TRICK] // 9)
    n = n_players(rp)
    base = RP_VALUES + 36 * suit
    for t in range(st[S_TRICK_NO]):
        points = 0
        for i in range(n):
            points += rp[base + st[S_PLAYS + n * t + i]]
        st[S_POINTS + st[S_TRICK_WINNER + t]] += points - st[S_TRICK_POINTS + t]
        st[S_TRICK_POINTS + t] = points
    if rp[RP_KIND] == KIND_MOLOTOW and rp[RP_STOECK] > 0:
        kq = KING_QUEEN[suit]
        for q in range(n):
            if (st[S_HANDS + q] & kq) == kq:        # the fixer's hand still holds his card
                st[S_STOECK_PLAYER] = q


@engine_inline
def show_stoeck(st: np.ndarray, player: int) -> None:
    """The Stöck holder played a trump (called only for him, before it is shown)."""
    molotow.show_stoeck(st, player, st[S_CONTRACT])


@engine_jit
def after_trick(st: np.ndarray, trick: int, winner: int, rp: np.ndarray) -> None:
    """A trick is finished and its points are the winner's: Molotow's table Weis; after the
    last trick score the hand."""
    if rp[RP_KIND] == KIND_MOLOTOW:
        molotow.score_trick(st, trick, winner, st[S_CONTRACT], rp)
    if trick == rp[RP_TRICKS] - 1:
        _end_of_round(st, rp)


@engine_jit
def _end_of_round(st: np.ndarray, rp: np.ndarray) -> None:
    """The hand's score per player; in a game, the totals and, after the last hand, the winner."""
    st[S_PHASE] = PHASE_OVER
    n = n_players(rp)
    mittlere_game = rp[RP_KIND] == KIND_MITTLERE
    if st[S_DECLARER] < 0 and rp[RP_NO_TRUMP_HAND] == NO_TRUMP_ANNUL:
        for p in range(n):
            st[S_SCORE + p] = 0
    elif mittlere_game:
        mittlere.hand_score(st[S_POINTS:S_POINTS + n], st[S_TRICKS_WON:S_TRICKS_WON + n], rp[RP_TRICKS],
                            st[S_SCORE:S_SCORE + n])
    else:
        molotow.score_hand(st, rp)
    add_round_to_game(st, rp, highest_wins=mittlere_game)   # Mittlere: highest wins; Molotow: lowest


@engine_jit
def fix_position(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """(trick from 0, position from 0 = the leader) of the card that fixed trump; (-1, -1) while
    none is fixed."""
    if st[S_DECLARER] < 0:
        return -1, -1
    n = n_players(rp)
    card = st[S_TRUMP_CARD]
    for i in range(n * (st[S_TRICK_NO] + 1)):
        if st[S_PLAYS + i] == card:
            return i // n, i % n
    return -1, -1


__all__ = ["fix_position", "begin_round", "is_fixing", "fix_trump", "show_stoeck", "after_trick"]
