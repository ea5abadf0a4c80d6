"""Molotow's own rules: an avoidance game with hand Weis (minus), table Weis (plus) and Stöck.

Everyone alone (4 × 9 cards; 3 × 12 in ``molotow3``, 5 × 7 without the ♠7 in ``molotow5``, 6 × 6
in ``molotow6``); trump is fixed by the first discard
(:mod:`jass_env.games._first_discard`) and its values apply to every trick. A player's hand score
(docs/games/molotow.md), the lowest being best:

    card points in his tricks (+5 for the last) + table Weis of his tricks − his hand Weis − Stöck

* **Hand Weis**: every Weis of his dealt hand (runs and fours of a kind, Kreuzweis, no contest),
  public after trick 1. State: ``S_PLAYER_WEIS[p]`` the points, ``S_WEIS_CARDS[p]`` the cards.
* **Table Weis**: a finished trick whose cards form Weis scores them for the trick's winner: runs
  of one suit (3 = 20, 4 = 50; with 5 or 6 players 5 = 100, 6 = 150), fours of a kind (100, four
  9s 150, four Js 200) and, once trump is fixed, the trump K and Q together (the Stöck value,
  20); all that apply add up. State:
  ``S_WEIS_POINTS[p]`` the table Weis each player has taken.
* **Stöck**: a player who holds the trump K and Q at the moment trump is fixed scores −20 when he
  plays the second of them (``S_STOECK_PLAYER``, ``S_STOECK_SHOWN``).

A game is ``match_rounds`` hands (8); the lowest total wins, a tie for the lowest plays one more.
The engine's hooks (:mod:`jass_env.engine.hooks`), the game's scoring, then Python helpers.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.cards import KING_QUEEN, card_points_bound
from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.state import (
    PHASE_OVER,
    S_CONTRACT,
    S_DEALT,
    S_FOREHAND,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_PLAYS,
    S_POINTS,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    n_players,
)
from jass_env.engine.switches import RP_STOECK, RP_WEIS, Rules
from jass_env.engine.transitions import legal_in_card_play
from jass_env.engine.weis import MAX_WEIS, player_weis, team_weis_bound, weis_summary

from .._alone import add_round_to_game
from .._first_discard import rules as first_discard

STATE_FIELDS: tuple[tuple[str, int], ...] = ()


# the hooks
@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A game keeps nothing of Molotow's own beyond the shared totals."""


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: no trump yet, forehand leads (:mod:`jass_env.games._first_discard`);
    every player's hand Weis."""
    first_discard.begin_round(st, rp)
    declare_hand_weis(st, rp)


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The cards docs/rules.md "Legal moves" allows (Molotow has no phase actions)."""
    return legal_in_card_play(st, rp), 0


@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Molotow has no actions but cards."""


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """The first card that does not follow suit fixes trump from itself on, and who holds the
    Stöck."""
    if first_discard.is_fixing(st, card):
        first_discard.fix_trump(st, player, card, rp, True)


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Stöck: the holder's trump may be the second of his K and Q."""
    if st[S_STOECK_PLAYER] == player and not st[S_STOECK_SHOWN] and card // 9 == st[S_CONTRACT]:
        show_stoeck(st, player, st[S_CONTRACT])


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the trump's card values (Obenabe's before trump is fixed)."""
    return st[S_CONTRACT]


@engine_jit
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """The trick's table Weis go to its winner."""
    score_trick(st, trick, winner, st[S_CONTRACT], rp)


@engine_jit
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
    """The hand's score per player; in a game, the totals and, after the last hand, the winner
    (the lowest total)."""
    st[S_PHASE] = PHASE_OVER
    if first_discard.annulled(st, rp):
        first_discard.annul(st, rp)
    else:
        score_hand(st, rp)
    add_round_to_game(st, rp, highest_wins=False)


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand leads trick 1."""
    return st[S_FOREHAND]


# scoring
#: rows of a table Weis buffer: runs and a four of a kind (player_weis), then the trump K + Q
TABLE_WEIS_ROWS = MAX_WEIS + 1


@engine_inline
def declare_hand_weis(st: np.ndarray, rp: np.ndarray) -> None:
    """At the deal: every player's hand Weis (points and cards), when the rules have Weis."""
    if not rp[RP_WEIS]:
        return
    n = n_players(rp)
    for p in range(n):
        position = p - st[S_FOREHAND]
        total, cards, _ = weis_summary(st[S_DEALT + p], 4, position + n if position < 0 else position, rp)
        st[S_PLAYER_WEIS + p] = total
        st[S_WEIS_CARDS + p] = cards


@engine_jit
def _table_stoeck(cards: int, trump: int, rp: np.ndarray) -> int:
    """The Stöck points of one trick's ``cards`` (a mask) holding the trump K and Q; 0 otherwise
    (``trump`` 4: none fixed yet)."""
    if trump < 4 and rp[RP_STOECK] > 0 and (cards & KING_QUEEN[trump]) == KING_QUEEN[trump]:
        return rp[RP_STOECK]
    return 0


@engine_inline
def table_weis(cards: int, trump: int, rp: np.ndarray, out: np.ndarray) -> int:
    """The table Weis of one trick's ``cards`` (a mask) into ``out`` rows (points, cards mask,
    key), at least TABLE_WEIS_ROWS × 3; ``trump`` is the trump suit, or 4 (Obenabe) while none is
    fixed. Returns the number of Weis (0 when the rules have no Weis)."""
    if not rp[RP_WEIS]:
        return 0
    k = player_weis(cards, 4 if trump > 3 else trump, 0, rp, out)
    stoeck = _table_stoeck(cards, trump, rp)
    if stoeck:
        out[k, 0], out[k, 1], out[k, 2] = stoeck, KING_QUEEN[trump], 0
        k += 1
    return k


@engine_inline
def score_trick(st: np.ndarray, trick: int, winner: int, trump: int, rp: np.ndarray) -> None:
    """After a trick: the points of its table Weis (the rows of :func:`table_weis`) go to the
    winner."""
    if not rp[RP_WEIS]:
        return
    n = n_players(rp)
    cards = np.int64(0)
    for i in range(n):
        cards |= np.int64(1) << st[S_PLAYS + n * trick + i]
    points, _, _ = weis_summary(cards, 4 if trump > 3 else trump, 0, rp)
    st[S_WEIS_POINTS + winner] += points + _table_stoeck(cards, trump, rp)


@engine_inline
def show_stoeck(st: np.ndarray, player: int, trump: int) -> None:
    """Called when the Stöck holder plays a trump: shown once both K and Q are played."""
    if (st[S_PLAYED + player] & KING_QUEEN[trump]) == KING_QUEEN[trump]:
        st[S_STOECK_SHOWN] = 1


@engine_inline
def score_hand(st: np.ndarray, rp: np.ndarray) -> None:
    """Each player's hand score: points + table Weis − hand Weis − Stöck."""
    for p in range(n_players(rp)):
        score = st[S_POINTS + p] + st[S_WEIS_POINTS + p] - st[S_PLAYER_WEIS + p]
        if st[S_STOECK_SHOWN] and st[S_STOECK_PLAYER] == p:
            score -= rp[RP_STOECK]
        st[S_SCORE + p] = score


# Python helpers
def max_phase_actions(rules: Rules) -> int:
    """No bidding: every action is a card."""
    return 0


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of a player's score in a hand: at least −(the largest hand Weis + Stöck),
    at most every card at its highest value in any contract with the last trick's 5, plus the
    largest table Weis of every trick and the table Stöck."""
    hand_weis = table_weis_per_trick = 0
    if rules.weis:                      # team_weis_bound of one hand (a team of 2 has one hand)
        values = rules.sequence_values, rules.quad_values
        hand_weis = team_weis_bound(rules.spec.hand_size, 2, *values)
        table_weis_per_trick = team_weis_bound(rules.spec.players, 2, *values)
    return (-(hand_weis + rules.stoeck),
            card_points_bound(rules.spec.deck) + rules.spec.tricks * table_weis_per_trick + rules.stoeck)


def table_weis_list(cards: int, trump: int | None, rp: np.ndarray) -> list[tuple[int, int]]:
    """(points, cards mask) of each table Weis of one trick's cards (``trump`` None: not fixed)."""
    buf = np.zeros((TABLE_WEIS_ROWS, 3), dtype=np.int64)
    k = table_weis(int(cards), 4 if trump is None else int(trump), rp, buf)
    return [(int(buf[i, 0]), int(buf[i, 1])) for i in range(k)]


def hand_weis_list(hand: int, rp: np.ndarray) -> list[tuple[int, int]]:
    """(points, cards mask) of each Weis of a dealt hand (every one counts in Molotow)."""
    if not rp[RP_WEIS]:
        return []
    buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
    k = player_weis(int(hand), 4, 0, rp, buf)
    return [(int(buf[i, 0]), int(buf[i, 1])) for i in range(k)]
