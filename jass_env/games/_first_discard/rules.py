"""The round rules of trump by the first discard: no bidding, and the first card that does not
follow suit fixes trump (the package's docstring).

State: before trump is fixed ``S_CONTRACT`` is Obenabe (4) and ``S_DECLARER`` is −1; the fix sets
``S_CONTRACT`` to the trump suit, ``S_DECLARER`` to the player who fixed it and ``S_TRUMP_CARD`` to
his card (where in the tricks it lies follows from ``S_PLAYS``).
"""
from __future__ import annotations

import numpy as np

from jass_env.engine.cards import KING_QUEEN, N_CARDS, OBENABE
from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.spec import MAX_TRICKS, Switch
from jass_env.engine.state import (
    PHASE_PLAY,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_PLAYS,
    S_POINTS,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TRICK,
    S_TRICK_NO,
    S_TRICK_POINTS,
    S_TRICK_WINNER,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_POINTS,
    n_players,
)
from jass_env.engine.switches import RP_GAME, RP_STOECK, RP_VALUES, Rules
from jass_env.engine.validate import StateChecks

#: a hand in which nobody ever discards: "obenabe" (it counts with Obenabe ranking and values)
#: or "annul" (every player scores 0 for it)
NO_TRUMP_HANDS = ("obenabe", "annul")
NO_TRUMP_OBENABE, NO_TRUMP_ANNUL = range(2)
RP_NO_TRUMP_HAND = RP_GAME + 0     # index into NO_TRUMP_HANDS


def _is_no_trump_hand(value: object) -> bool:
    return value in NO_TRUMP_HANDS


#: the switch both games have
NO_TRUMP_HAND = Switch("no_trump_hand", "obenabe", ", ".join(NO_TRUMP_HANDS), _is_no_trump_hand,
                       "a hand without any discard counts with Obenabe values (\"obenabe\") or scores "
                       "0 for everyone (\"annul\")")
#: the shared switches neither game has, at their one value
FIXED = {"contracts": ("D", "H", "S", "C"), "push": False, "match_bonus": 0,
         "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0, "first_forehand": "random",
         "leader_after_push": "forehand", "ou_card_values": True}


def pack(rules: Rules) -> list[int]:
    """The games' own switch as the compiled rules read it (from RP_GAME on)."""
    return [NO_TRUMP_HANDS.index(rules.no_trump_hand)]


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: no trump yet (Obenabe ranking), forehand leads."""
    st[S_CONTRACT] = OBENABE
    st[S_DECLARER] = -1
    st[S_TRUMP_CARD] = -1
    st[S_PHASE] = PHASE_PLAY


@engine_inline
def is_fixing(st: np.ndarray, card: int) -> bool:
    """Whether ``card``, about to be played, fixes trump: none is fixed yet, it is not the lead,
    and it does not follow the led suit (a player holding the led suit must follow while there is
    no trump)."""
    return st[S_N_IN_TRICK] > 0 and st[S_DECLARER] < 0 and card // 9 != st[S_TRICK] // 9


@engine_jit
def fix_trump(st: np.ndarray, player: int, card: int, rp: np.ndarray, stoeck: bool) -> None:
    """``player`` cannot follow and plays ``card`` (not yet removed from his hand): its suit is
    trump from now on. Recounts the finished tricks with the trump's values; records that he
    showed a void; with ``stoeck``, who holds the Stöck (trump K and Q) now."""
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
    if stoeck and rp[RP_STOECK] > 0:
        kq = KING_QUEEN[suit]
        for q in range(n):
            if (st[S_HANDS + q] & kq) == kq:        # the fixer's hand still holds his card
                st[S_STOECK_PLAYER] = q


@engine_inline
def annulled(st: np.ndarray, rp: np.ndarray) -> bool:
    """Whether the hand scores 0 for everyone: nobody discarded, under ``no_trump_hand = "annul"``."""
    return st[S_DECLARER] < 0 and rp[RP_NO_TRUMP_HAND] == NO_TRUMP_ANNUL


@engine_inline
def annul(st: np.ndarray, rp: np.ndarray) -> None:
    for p in range(n_players(rp)):
        st[S_SCORE + p] = 0


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


# positions built from outside the play (a search world written by
# jass_env.engine.positions.set_play_position from a seat's view)
@engine_jit
def set_trump_fix(st: np.ndarray, card: int, trick: int, position: int, rp: np.ndarray) -> None:
    """Record that ``card`` fixed trump, played at ``position`` (0 = the leader) of trick ``trick``
    (from 0), in a position whose trump and fixer (``S_CONTRACT``, ``S_DECLARER``) are set: the
    observation finds it there (:func:`fix_position`)."""
    st[S_TRUMP_CARD] = card
    st[S_PLAYS + n_players(rp) * trick + position] = card


@engine_jit
def set_public_scoring(st: np.ndarray, hand_weis: np.ndarray, table_weis: np.ndarray, stoeck_player: int,
                       stoeck_shown: bool, rp: np.ndarray) -> None:
    """Write each player's hand Weis (``hand_weis[p]``, points) and the table Weis he has taken
    (``table_weis[p]``, points), and the player holding the Stöck (-1 none; ``stoeck_shown``: he
    has played both cards), into a position (Molotow's scoring so far; 0 and none in Mittlere);
    the hand's score follows from them at its end."""
    for p in range(n_players(rp)):
        st[S_PLAYER_WEIS + p] = hand_weis[p]
        st[S_WEIS_POINTS + p] = table_weis[p]
    st[S_STOECK_PLAYER] = stoeck_player
    st[S_STOECK_SHOWN] = 1 if stoeck_shown and stoeck_player >= 0 else 0


def check_state(c: StateChecks) -> None:
    """The checks of states from outside (:mod:`jass_env.engine.validate`) for the games with trump
    by the first discard: while no trump is fixed (S_DECLARER -1) the cards rank as in Obenabe, no
    trump card is shown, and every finished trick is recorded (its plays, winner and points:
    fixing trump recounts them); once fixed, trump is a suit, and the card that fixed it is of
    that suit, played by the player who fixed it and recorded in the plays (where the observation
    finds it). The current trick's cards are recorded as they are played (Molotow's table Weis
    reads them)."""
    n, tricks = c.players, c.tricks
    rows = np.arange(c.states.shape[0])
    declarer, contract, trump = c.col(S_DECLARER), c.col(S_CONTRACT), c.col(S_TRUMP_CARD)
    open_ = declarer < 0
    c.require(~open_ | (contract == OBENABE), S_CONTRACT,
              f"{OBENABE} (Obenabe ranking) while no trump is fixed (S_DECLARER -1)")
    c.require(~open_ | (trump == -1), S_TRUMP_CARD, "-1 while no trump is fixed (S_DECLARER -1)")
    c.require(open_ | (contract < OBENABE), S_CONTRACT, "the trump suit 0..3 once trump is fixed")
    c.require(open_ | ((trump >= 0) & (trump // 9 == contract)), S_TRUMP_CARD,
              lambda g, _: f"the card that fixed trump: of the trump suit {contract[g]} (S_CONTRACT)")
    fixer_played = c.block(S_PLAYED, n)[rows, np.maximum(declarer, 0)]
    c.require(open_ | ((fixer_played >> np.maximum(trump, 0)) & 1 == 1), S_TRUMP_CARD,
              lambda g, _: f"a card played by the player who fixed trump (S_DECLARER {declarer[g]})")
    trick_no, in_trick = c.col(S_TRICK_NO), c.col(S_N_IN_TRICK)
    index = np.arange(N_CARDS)
    plays = c.block(S_PLAYS, N_CARDS)
    done = n * np.minimum(trick_no, tricks)                    # the plays of the finished tricks
    first = np.where(open_, 0, done)                           # the first play that must be recorded
    needed = (index[None, :] >= first[:, None]) & (index[None, :] < (done + in_trick)[:, None])
    c.require(~needed | (plays >= 0), S_PLAYS + index,
              "the card played there: the current trick's cards are recorded, and while no trump is "
              "fixed every finished trick's")
    t = np.arange(MAX_TRICKS)
    won = (t[None, :] < trick_no[:, None]) & open_[:, None]
    for offset in (S_TRICK_WINNER, S_TRICK_POINTS):
        c.require(~won | (c.block(offset, MAX_TRICKS) >= 0), offset + t,
                  "the finished trick's record while no trump is fixed (fixing trump recounts it)")
    recorded = (plays == trump[:, None]).any(axis=1)
    c.require(open_ | recorded, S_TRUMP_CARD, "a card recorded in the plays (S_PLAYS)")
