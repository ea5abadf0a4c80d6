"""Sidi-Jass for two (the project's own rules, docs/sidi.md): the stock, the open trump card, the
exchange of the trump 6, and free play while the stock lasts.

Two players, each alone (side = player). Each is dealt 8 cards; the 20 others form the stock
(``S_SI_STOCK``, top first), whose last card lies face up under it: its suit is trump
(``S_TRUMP_CARD``, ``S_CONTRACT``). The non-dealer (forehand) leads trick 1; a trick is 2 cards.

* **Drawing**: after each trick, while the stock lasts, the winner draws its top card, then the
  loser; the face-up card is the last one drawn (by the loser of trick 10).
* **Card play**: while the stock has cards (tricks 1–10) any card may be played; once it is empty
  (tricks 11–18) docs/rules.md "Legal moves" applies with the rules' ``undertrump_rule``
  (``official`` in the preset). Voids shown in free play mean nothing and are not recorded.
* **Exchange** (action :data:`EXCHANGE`): the holder of the trump 6, when he is to lead a trick
  while the stock has cards (the leads of tricks 1–10), may once give the 6 for the face-up card;
  the 6 then lies face up and is drawn last (``S_SI_EXCHANGE`` = the trick he then leads).
* **Scoring** as Schieber's (:mod:`jass_env.schieber`, one player per side): Weis from the dealt
  8 cards (even after an exchange), compared between the two players with positions counted from
  the non-dealer, the better player's Weis all count, written after trick 1; Stöck (a player who
  at some moment holds trump K and Q at once) when the second of them is played; card points with
  the last trick's 5 (157), +``match_bonus`` (100) for taking all 18 tricks; a game to ``target``
  (1000) with the official finish (Stöck – Weis – tricks).

Compiled functions called by :mod:`jass_env.core`; see :mod:`jass_env.kernel` for conventions.
"""

from __future__ import annotations

import numpy as np

from . import schieber
from .kernel import (
    ALL_CARDS,
    KING_QUEEN,
    MAX_SIDES,
    N_CARDS,
    PHASE_PLAY,
    S_CONTRACT,
    S_DEALT,
    S_HANDS,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYER_WEIS,
    S_SI_DRAWN,
    S_SI_EXCHANGE,
    S_SI_STOCK,
    S_STOECK_PLAYER,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    S_WIN_POS,
    SI_SIX,
    SI_STOCK_SIZE,
    engine_inline,
    engine_jit,
    face_up_card,
    legal_given_winner,
    n_players,
    random_below,
    seat_after,
)
from .rules import RP_STOECK, RP_WEIS

#: action 36: exchange the trump 6 for the face-up trump card
EXCHANGE = N_CARDS
N_ACTIONS = EXCHANGE + 1
#: the stock's cards (20) and the tricks played with free play while it lasts (10)
STOCK_SIZE = SI_STOCK_SIZE
FREE_TRICKS = STOCK_SIZE // 2


@engine_inline
def stock_left(st: np.ndarray) -> int:
    """Cards still in the stock (the face-up one included)."""
    return STOCK_SIZE - st[S_SI_DRAWN]


@engine_inline
def trump_six(st: np.ndarray) -> int:
    """The card id of the trump 6."""
    return 9 * st[S_CONTRACT] + SI_SIX


@engine_jit
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: the undealt cards form the stock in a random order (the game's
    generator); its last card is turned face up and fixes trump."""
    undealt = ALL_CARDS & ~(st[S_DEALT] | st[S_DEALT + 1])
    k = 0
    for c in range(N_CARDS):
        if (undealt >> c) & 1:
            st[S_SI_STOCK + k] = c
            k += 1
    for i in range(STOCK_SIZE - 1, 0, -1):            # Fisher-Yates
        j = random_below(st, i + 1)
        c = st[S_SI_STOCK + i]
        st[S_SI_STOCK + i] = st[S_SI_STOCK + j]
        st[S_SI_STOCK + j] = c
    open_trump(st, rp)


@engine_jit
def open_trump(st: np.ndarray, rp: np.ndarray) -> None:
    """With the stock in place: the face-up card fixes trump; Weis and the Stöck holder of the
    dealt hands; forehand (the non-dealer) leads. Everything it writes is recomputed, so a round
    whose stock is replaced (:func:`jass_env.core.set_sidi_stock`) calls it again."""
    card = st[S_SI_STOCK + STOCK_SIZE - 1]
    st[S_TRUMP_CARD] = card
    st[S_CONTRACT] = card // 9
    st[S_SI_DRAWN] = 0
    st[S_SI_EXCHANGE] = -1
    st[S_PHASE] = PHASE_PLAY
    for t in range(MAX_SIDES):
        st[S_WEIS_POINTS + t] = 0
    for p in range(n_players(rp)):
        st[S_WEIS_CARDS + p] = 0
        st[S_PLAYER_WEIS + p] = 0
    st[S_WEIS_TEAM] = -1
    st[S_STOECK_PLAYER] = -1
    if rp[RP_WEIS]:
        schieber.decide_weis(st, rp)
    for p in range(n_players(rp)):
        note_stoeck(st, p, rp)


@engine_inline
def note_stoeck(st: np.ndarray, player: int, rp: np.ndarray) -> None:
    """After ``player``'s hand grew: he holds the Stöck if he now holds trump K and Q at once."""
    kq = KING_QUEEN[st[S_CONTRACT]]
    if rp[RP_STOECK] > 0 and st[S_STOECK_PLAYER] < 0 and (st[S_HANDS + player] & kq) == kq:
        st[S_STOECK_PLAYER] = player


@engine_inline
def may_exchange(st: np.ndarray) -> bool:
    """Whether the player to move may exchange the trump 6 now: he leads, the stock has cards,
    nobody exchanged yet, and he holds the trump 6."""
    return (st[S_N_IN_TRICK] == 0 and st[S_SI_DRAWN] < STOCK_SIZE and st[S_SI_EXCHANGE] < 0
            and (st[S_HANDS + st[S_TO_MOVE]] >> trump_six(st)) & 1 == 1)


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> int:
    """The legal actions of the player to move in card play (a bit per action): any card while
    the stock lasts, with the exchange when :func:`may_exchange`; once it is empty the cards
    docs/rules.md "Legal moves" allows."""
    p = st[S_TO_MOVE]
    if st[S_SI_DRAWN] < STOCK_SIZE:
        m = st[S_HANDS + p]
        if may_exchange(st):
            m |= np.int64(1) << EXCHANGE
        return m
    win_pos = st[S_WIN_POS]
    return legal_given_winner(st[S_HANDS + p], st[S_TRICK] // 9, st[S_N_IN_TRICK], st[S_TRICK + win_pos],
                              win_pos, st[S_CONTRACT], rp)


@engine_jit
def exchange(st: np.ndarray, rp: np.ndarray) -> None:
    """The player to move gives the trump 6 for the face-up card (a legal exchange)."""
    p = st[S_TO_MOVE]
    six = trump_six(st)
    st[S_HANDS + p] = (st[S_HANDS + p] & ~(np.int64(1) << six)) | (np.int64(1) << st[S_TRUMP_CARD])
    st[S_SI_EXCHANGE] = st[S_TRICK_NO]
    note_stoeck(st, p, rp)


@engine_inline
def stock_place(st: np.ndarray, i: int) -> int:
    """The card drawn ``i``-th from the stock (0 = the top; the last is the face-up card, the
    trump 6 after the exchange)."""
    return face_up_card(st) if i == STOCK_SIZE - 1 else st[S_SI_STOCK + i]


@engine_inline
def _draw(st: np.ndarray, player: int, rp: np.ndarray) -> None:
    """``player`` draws the top card of the stock (the face-up card comes last)."""
    card = stock_place(st, st[S_SI_DRAWN])
    st[S_HANDS + player] |= np.int64(1) << card
    st[S_SI_DRAWN] += 1
    note_stoeck(st, player, rp)


@engine_jit
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """A trick is finished: while the stock lasts the winner draws, then the loser (and the voids
    free play seemed to show are forgotten); then Schieber's scoring of the trick (the Weis with
    trick 1, the points, the bonus for all tricks and the end of the round after the last)."""
    if st[S_SI_DRAWN] < STOCK_SIZE:
        players = n_players(rp)
        _draw(st, winner, rp)
        _draw(st, seat_after(winner, 1, players), rp)
        for p in range(players):
            st[S_VOIDS + p] = 0
    schieber.after_trick(st, trick, winner, points, rp)


__all__ = ["EXCHANGE", "N_ACTIONS", "STOCK_SIZE", "FREE_TRICKS", "begin_round", "open_trump",
           "legal_actions", "may_exchange", "exchange", "after_trick", "stock_left", "stock_place"]
