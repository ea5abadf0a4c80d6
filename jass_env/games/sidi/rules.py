"""Sidi-Jass for two (the project's own rules, docs/games/sidi.md): the stock, the open trump card, the
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
* **Scoring** as Schieber's (:mod:`jass_env.games.schieber.rules`, one player per side): Weis from the dealt
  8 cards (even after an exchange), compared between the two players with positions counted from
  the non-dealer, the better player's Weis all count, written after trick 1; Stöck (a player who
  at some moment holds trump K and Q at once) when the second of them is played; card points with
  the last trick's 5 (157), +``match_bonus`` (100) for taking all 18 tricks; a game to ``target``
  (1000) with the official finish (Stöck – Weis – tricks).

The game's own state (the stock, ``STATE_FIELDS``) first, then the engine's hooks
(:mod:`jass_env.engine.hooks`), then the stock's readers and the search worlds.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.cards import ALL_CARDS, KING_QUEEN, N_CARDS
from jass_env.engine.deal import random_below
from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.spec import MAX_SIDES, tail_offsets
from jass_env.engine.state import (
    PHASE_PLAY,
    S_CONTRACT,
    S_DEALT,
    S_FOREHAND,
    S_HANDS,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_STOECK_PLAYER,
    S_TAIL,
    S_TO_MOVE,
    S_TRICK_NO,
    S_TRICK_WINNER,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    n_players,
    seat_after,
)
from jass_env.engine.switches import RP_STOECK, RP_WEIS, Rules
from jass_env.engine.transitions import legal_in_card_play
from jass_env.engine.validate import StateChecks

from ..schieber import rules as schieber

PLAYERS = 2
HAND_SIZE = 8
#: action 36: exchange the trump 6 for the face-up trump card
EXCHANGE = N_CARDS
N_ACTIONS = EXCHANGE + 1
#: the stock's cards (20: 19 face down on the face-up one) and the tricks played with free play
#: while it lasts (10)
STOCK_SIZE = N_CARDS - PLAYERS * HAND_SIZE
FREE_TRICKS = STOCK_SIZE // 2
#: rank offset of the 6 (the trump 6 may be exchanged)
SIX = 8

#: the game's tail of the state; the shared S_TRUMP_CARD holds the card turned face up at the deal
STATE_FIELDS = (
    ("stock", STOCK_SIZE),     # the stock as dealt, top first; the face-up trump card last
    ("drawn", 1),              # cards drawn from the stock so far (0..20)
    ("exchange", 1),           # the trick (from 0) before whose lead the trump 6 was exchanged
)                              # for the face-up card, -1 = not exchanged
_AT = tail_offsets(STATE_FIELDS)
S_SI_STOCK = S_TAIL + _AT["stock"]
S_SI_DRAWN = S_TAIL + _AT["drawn"]
S_SI_EXCHANGE = S_TAIL + _AT["exchange"]


@engine_inline
def stock_left(st: np.ndarray) -> int:
    """Cards still in the stock (the face-up one included)."""
    return STOCK_SIZE - st[S_SI_DRAWN]


@engine_inline
def trump_six(st: np.ndarray) -> int:
    """The card id of the trump 6."""
    return 9 * st[S_CONTRACT] + SIX


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
    whose stock is replaced (:func:`set_stock`) calls it again."""
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
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The legal actions of the player to move in card play (a bit per action): any card while
    the stock lasts, with the exchange when :func:`may_exchange`; once it is empty the cards
    docs/rules.md "Legal moves" allows."""
    if st[S_SI_DRAWN] < STOCK_SIZE:
        m = st[S_HANDS + st[S_TO_MOVE]]
        if may_exchange(st):
            m |= np.int64(1) << EXCHANGE
        return m, 0
    return legal_in_card_play(st, rp), 0


@engine_jit
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """The exchange of the trump 6 (Sidi's one action that is not a card)."""
    exchange(st, rp)


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
    trick 1, the points, the bonus for all tricks)."""
    if st[S_SI_DRAWN] < STOCK_SIZE:
        players = n_players(rp)
        _draw(st, winner, rp)
        _draw(st, seat_after(winner, 1, players), rp)
        for p in range(players):
            st[S_VOIDS + p] = 0
    schieber.after_trick(st, trick, winner, points, rp)


@engine_inline
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Round over: the game's end as Schieber's (to the target, official finish)."""
    schieber.end_round(st, rp)


@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A game keeps nothing of Sidi's own beyond the shared totals."""


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Nothing happens before a card in Sidi."""


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Stöck, as in Schieber."""
    schieber.after_card(st, player, card, rp)


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the trump's card values."""
    return st[S_CONTRACT]


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand (the non-dealer) leads trick 1."""
    return st[S_FOREHAND]


# readers
@engine_inline
def stock_card(st: np.ndarray, i: int) -> int:
    """The ``i``-th card of the Sidi stock as dealt (0 = top, STOCK_SIZE - 1 = the face-up
    trump card)."""
    return st[S_SI_STOCK + i]


@engine_inline
def stock_drawn(st: np.ndarray) -> int:
    """How many cards of the Sidi stock have been drawn (0..STOCK_SIZE)."""
    return st[S_SI_DRAWN]


@engine_inline
def exchange_trick(st: np.ndarray) -> int:
    """The trick (from 0) before whose lead the Sidi trump 6 was exchanged, -1 = not exchanged."""
    return st[S_SI_EXCHANGE]


@engine_inline
def face_up_card(st: np.ndarray) -> int:
    """The Sidi card lying face up under the stock (the turned card, or the trump 6 after the
    exchange); -1 once it is drawn."""
    if st[S_SI_DRAWN] >= STOCK_SIZE:
        return -1
    if st[S_SI_EXCHANGE] >= 0:
        return 9 * (st[S_TRUMP_CARD] // 9) + SIX
    return st[S_TRUMP_CARD]


@engine_inline
def known_cards(st: np.ndarray, player: int) -> int:
    """The cards ``player`` is publicly known to hold: the face-up card if he drew it
    (the loser of trick 10), the face-up card he took by the exchange, unless played since."""
    known = np.int64(0)
    t = st[S_SI_EXCHANGE]
    if t >= 0:
        exchanger = st[S_FOREHAND] if t == 0 else st[S_TRICK_WINNER + t - 1]
        if exchanger == player:
            known |= np.int64(1) << st[S_TRUMP_CARD]
    last = STOCK_SIZE // 2 - 1                       # the trick after which the last card is drawn
    if st[S_SI_DRAWN] >= STOCK_SIZE and st[S_TRICK_WINNER + last] != player:
        six = 9 * (st[S_TRUMP_CARD] // 9) + SIX
        known |= np.int64(1) << (six if t >= 0 else st[S_TRUMP_CARD])
    return known & ~st[S_PLAYED + player]


# positions
def set_stock(st: np.ndarray, stock: list[int] | np.ndarray, rp: np.ndarray) -> None:
    """Replace the stock of a Sidi round that has just started (no action taken) by ``stock``:
    the 20 card ids not dealt, top first, the face-up trump card last. Trump, Weis and the Stöck
    holder follow from it again. ValueError says what is wrong with the stock."""
    if st[S_PHASE] != PHASE_PLAY or st[S_TRICK_NO] != 0 or st[S_N_IN_TRICK] != 0 or st[S_SI_DRAWN] != 0:
        raise ValueError("the stock can only be set before the first action of a round")
    cards = [int(c) for c in stock]
    dealt = int(st[S_DEALT]) | int(st[S_DEALT + 1])
    undealt = sorted(c for c in range(N_CARDS) if not (dealt >> c) & 1)
    if len(cards) != STOCK_SIZE or sorted(cards) != undealt:
        raise ValueError(f"a Sidi stock is the {STOCK_SIZE} cards not dealt, each once (top first, "
                         f"the face-up trump card last); got {len(cards)} cards {cards}, the undealt "
                         f"cards are {undealt}")
    for i, c in enumerate(cards):
        st[S_SI_STOCK + i] = c
    open_trump(st, rp)


def max_phase_actions(rules: Rules) -> int:
    """The exchange of the trump 6, at most once a round."""
    return 1


def score_sum(rules: Rules) -> int | None:
    """What the two players' round scores add up to: Schieber's rule, one player a side (None
    with Weis, Stöck or the bonus for all 18 tricks, as in the preset)."""
    return schieber.score_sum(rules)


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of a player's score in a round: Schieber's bound with one player a side
    (his Weis from the 8 dealt cards, Stöck, the bonus for all 18 tricks)."""
    return schieber.score_range(rules)


#: the values each of the game's own fields may hold (GameSpec.state_ranges)
STATE_RANGES = {"stock": (0, N_CARDS - 1), "drawn": (0, STOCK_SIZE), "exchange": (-1, FREE_TRICKS - 1)}


def check_state(c: StateChecks) -> None:
    """Sidi's checks of states from outside (:mod:`jass_env.engine.validate`): trump is the suit
    of the turned card, which lies last in the stock; two cards were drawn after each trick while
    the stock lasted; the exchange (if any) came before the current trick, and gave the turned card
    to a player; the cards still in the stock (the face-up one included) are in no hand, not
    played, and each there once."""
    trump = c.col(S_TRUMP_CARD)
    c.require(trump >= 0, S_TRUMP_CARD, "the card turned face up at the deal, a card id 0..35")
    c.require(c.col(S_CONTRACT) == trump // 9, S_CONTRACT,
              lambda g, _: f"the suit of the turned card (S_TRUMP_CARD {trump[g]}), {trump[g] // 9}")
    stock = c.tail("stock")
    c.require(stock[:, -1] == trump, S_SI_STOCK + STOCK_SIZE - 1,
              lambda g, _: f"the turned card (S_TRUMP_CARD), {trump[g]}, last in the stock")
    trick_no, drawn, exchange = c.col(S_TRICK_NO), c.col(S_SI_DRAWN), c.col(S_SI_EXCHANGE)
    should = np.minimum(PLAYERS * trick_no, STOCK_SIZE)
    c.require(drawn == should, S_SI_DRAWN,
              lambda g, _: f"two cards a trick while the stock lasts: {should[g]} after {trick_no[g]} tricks")
    c.require(exchange <= trick_no, S_SI_EXCHANGE,
              lambda g, _: f"-1, or a trick 0..{min(trick_no[g], FREE_TRICKS - 1)} (at most S_TRICK_NO)")
    seen = np.bitwise_or.reduce(c.block(S_HANDS, PLAYERS) | c.block(S_PLAYED, PLAYERS), axis=1)
    c.require((exchange < 0) | ((seen >> trump) & 1 == 1), S_SI_EXCHANGE,
              lambda g, _: f"-1: the turned card (S_TRUMP_CARD {trump[g]}) is in no hand and not played, "
                           f"so nobody took it for the trump 6")
    place = np.arange(STOCK_SIZE)
    face_up = np.where(exchange >= 0, 9 * (trump // 9) + SIX, trump)
    lying = np.where(place[None, :] == STOCK_SIZE - 1, face_up[:, None], stock)
    undrawn = place[None, :] >= drawn[:, None]
    earlier = np.zeros_like(lying)                    # the undrawn cards before each place
    earlier[:, 1:] = np.bitwise_or.accumulate(np.where(undrawn, 1 << lying, 0), axis=1)[:, :-1]
    c.require(~undrawn | (((seen[:, None] | earlier) >> lying) & 1 == 0), S_SI_STOCK + place,
              lambda g, i: f"a card not yet drawn: in no hand, not played and not twice in the stock; "
                           f"{int(lying[g, i])} is one of those (the face-up card, place {STOCK_SIZE - 1}, "
                           f"is the trump 6 after the exchange)")


@engine_jit
def set_world(st: np.ndarray, stock_rest: np.ndarray, n_rest: int, trump_card: int, exchange: int,
              rp: np.ndarray) -> None:
    """Sidi: complete a state built by :func:`set_play_position` (a search bot's sampled world)
    with the stock: ``n_rest`` cards still to draw, ``stock_rest[0]`` the top and
    ``stock_rest[n_rest - 1]`` the card face up (the trump 6 after an exchange); the turned trump
    card and the trick (from 0) before whose lead the trump 6 was exchanged, -1 = not exchanged
    (the one who exchanged is forehand for trick 0, else the winner of the trick before, as the
    state's trick winners say). The Stöck holder follows from the world's hands."""
    drawn = STOCK_SIZE - n_rest
    for i in range(n_rest - 1):
        st[S_SI_STOCK + drawn + i] = stock_rest[i]
    st[S_SI_STOCK + STOCK_SIZE - 1] = trump_card
    st[S_SI_DRAWN] = drawn
    st[S_TRUMP_CARD] = trump_card
    st[S_SI_EXCHANGE] = exchange
    st[S_STOECK_PLAYER] = -1
    for p in range(n_players(rp)):
        note_stoeck(st, p, rp)
