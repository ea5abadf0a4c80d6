"""Schieber's own rules over the trick kernel: contract choice, Weis, Stöck, Match, team scoring.

Two teams (``pairs``: 0 & 2 against 1 & 3; Schieber for six ``alternate``: 0, 2, 4 against 1, 3,
5). Forehand names a contract or pushes to his partner (the next player of his team), who must
name one (docs/rules.md: "Contract choice"); Weis are declared automatically when the
contract is named and the best team's score with trick 1 ("Weis"); Stöck is credited when the
second of trump K and Q is played ("Stöck"); a team taking every trick gets the Match bonus
("Match and the round score"); everything is multiplied by the contract's multiplier; a match ends
at the target (official finish: the moment a team reaches it, so the order Stöck – Weis – tricks
decides) or after a fixed number of rounds.

Compiled functions called by :mod:`jass_env.core`; see :mod:`jass_env.kernel` for conventions.
"""

from __future__ import annotations

import numpy as np

from .kernel import (
    KING_QUEEN,
    PHASE_CONTRACT,
    PHASE_OVER,
    PHASE_PLAY,
    S_BERG_TEAM,
    S_CONTRACT,
    S_DEALT,
    S_DECLARER,
    S_FOREHAND,
    S_LEADER,
    S_MATCH,
    S_MATCH_SCORE,
    S_MATCH_TEAM,
    S_MATCH_WINNER,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_PUSHED,
    S_ROUND_NO,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TO_MOVE,
    S_TRICKS_WON,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    engine_inline,
    n_players,
    side_of,
    weis_summary,
)
from .rules import (
    FINISH_OFFICIAL,
    FINISH_ROUND_END,
    LEADER_DECLARER,
    RP_BERGPREIS,
    RP_CONTRACTS,
    RP_FINISH,
    RP_LEADER_AFTER_PUSH,
    RP_MATCH_BONUS,
    RP_MATCH_ROUNDS,
    RP_MULT,
    RP_PUSH,
    RP_STOECK,
    RP_TARGET,
    RP_TRICKS,
    RP_WEIS,
)

CONTRACT_OFFSET = 36   # action 36 + c names contract c (D H S C obenabe undenufe)
PUSH = 42
N_ACTIONS = 43
#: the team-mate forehand pushes to, in players counted from forehand (the partner; with six
#: players the next player of his team)
PUSH_TO = 2
TEAMS = 2
DRAW = 2               # S_MATCH_WINNER of a drawn match (fixed number of rounds)


@engine_inline
def legal_bidding_actions(st: np.ndarray, rp: np.ndarray) -> int:
    """The contracts the rules allow and, before a push, the push (a bit per action)."""
    m = rp[RP_CONTRACTS] << CONTRACT_OFFSET
    if rp[RP_PUSH] and not st[S_PUSHED]:
        m |= np.int64(1) << PUSH
    return m


@engine_inline
def apply_bidding_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """A push (to forehand's partner) or naming a contract."""
    if action == PUSH:
        st[S_PUSHED] = 1
        st[S_TO_MOVE] = (st[S_FOREHAND] + PUSH_TO) % n_players(rp)
    else:
        _choose_contract(st, action - CONTRACT_OFFSET, rp)


@engine_inline
def leader_of_trick_one(st: np.ndarray, rp: np.ndarray) -> int:
    """Forehand, or after a push the declarer when the rules say so."""
    if st[S_PUSHED] and rp[RP_LEADER_AFTER_PUSH] == LEADER_DECLARER and st[S_DECLARER] >= 0:
        return st[S_DECLARER]
    return st[S_FOREHAND]


@engine_inline
def _choose_contract(st: np.ndarray, contract: int, rp: np.ndarray) -> None:
    st[S_CONTRACT] = contract
    st[S_DECLARER] = st[S_TO_MOVE]
    st[S_PHASE] = PHASE_PLAY
    leader = leader_of_trick_one(st, rp)
    st[S_LEADER] = leader
    st[S_TO_MOVE] = leader
    if rp[RP_WEIS]:
        decide_weis(st, rp)
    if contract < 4 and rp[RP_STOECK] > 0:
        kq = KING_QUEEN[contract]
        for p in range(n_players(rp)):
            if (st[S_DEALT + p] & kq) == kq:
                st[S_STOECK_PLAYER] = p


@engine_inline
def decide_weis(st: np.ndarray, rp: np.ndarray) -> None:
    """Compare the teams' best single Weis; the winner scores all Weis of all its players."""
    contract = st[S_CONTRACT]
    n = n_players(rp)
    best0 = best1 = -1
    for p in range(n):
        total, cards, top = weis_summary(st[S_DEALT + p], contract, (p - st[S_FOREHAND]) % n, rp)
        st[S_PLAYER_WEIS + p] = total
        st[S_WEIS_CARDS + p] = cards                  # cleared below for the losing team
        if p % TEAMS == 0:
            best0 = max(best0, top)
        else:
            best1 = max(best1, top)
    if best0 < 0 and best1 < 0:
        for p in range(n):
            st[S_WEIS_CARDS + p] = 0
        return
    team = 0 if best0 > best1 else 1
    st[S_WEIS_TEAM] = team
    for p in range(n):
        if p % TEAMS == team:
            st[S_WEIS_POINTS + team] += st[S_PLAYER_WEIS + p]
        else:
            st[S_WEIS_CARDS + p] = 0


@engine_inline
def credit(st: np.ndarray, team: int, amount: int, rp: np.ndarray) -> None:
    """Write ``amount`` (before the multiplier) to a team's round score and, in a match, its total.

    Under the official finish a team reaching the target wins at this moment, so the order of
    the calls (Stöck, then Weis, then trick points) is the Ausmachregel.
    """
    if amount == 0:
        return
    value = amount * rp[RP_MULT + st[S_CONTRACT]]
    st[S_SCORE + team] += value
    if not st[S_MATCH]:
        return
    st[S_MATCH_SCORE + team] += value
    target = rp[RP_TARGET]
    if rp[RP_BERGPREIS] > 0 and target > 0 and st[S_BERG_TEAM] < 0 and 2 * st[S_MATCH_SCORE + team] >= target:
        st[S_BERG_TEAM] = team
        st[S_MATCH_SCORE + team] += rp[RP_BERGPREIS]
    if (rp[RP_FINISH] == FINISH_OFFICIAL and target > 0 and st[S_MATCH_WINNER] < 0
            and st[S_MATCH_SCORE + team] >= target):
        st[S_MATCH_WINNER] = team


@engine_inline
def show_stoeck(st: np.ndarray, player: int, rp: np.ndarray) -> None:
    """Stöck: credited when its holder has played both the trump K and Q. The engine calls this
    only when ``player`` holds the Stöck, has not shown it yet and played a trump."""
    kq = KING_QUEEN[st[S_CONTRACT]]
    if (st[S_PLAYED + player] & kq) == kq:
        st[S_STOECK_SHOWN] = 1
        credit(st, side_of(player, rp), rp[RP_STOECK], rp)


@engine_inline
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """Score a finished trick: the Weis with trick 1, then the trick's points; the Match bonus
    and the end of the round after the last trick."""
    team = side_of(winner, rp)
    if trick == 0 and st[S_WEIS_TEAM] >= 0:           # Weis are written after trick 1
        credit(st, st[S_WEIS_TEAM], st[S_WEIS_POINTS + st[S_WEIS_TEAM]], rp)
    credit(st, team, points, rp)
    tricks = rp[RP_TRICKS]
    if trick == tricks - 1:
        if st[S_TRICKS_WON + team] == tricks:
            st[S_MATCH_TEAM] = team
            credit(st, team, rp[RP_MATCH_BONUS], rp)
        _end_of_round(st, rp)


@engine_inline
def match_decided_during_round(st: np.ndarray) -> bool:
    """Under the official finish a match can end in the middle of a round."""
    return st[S_MATCH] != 0 and st[S_MATCH_WINNER] >= 0


@engine_inline
def _end_of_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Round over: decide the match where the rules say so."""
    st[S_PHASE] = PHASE_OVER
    if not st[S_MATCH] or st[S_MATCH_WINNER] >= 0:
        return
    st[S_ROUND_NO] += 1
    a = st[S_MATCH_SCORE]
    b = st[S_MATCH_SCORE + 1]
    target = rp[RP_TARGET]
    if rp[RP_FINISH] == FINISH_ROUND_END and target > 0 and max(a, b) >= target and a != b:
        st[S_MATCH_WINNER] = 0 if a > b else 1
    elif rp[RP_MATCH_ROUNDS] > 0 and st[S_ROUND_NO] >= rp[RP_MATCH_ROUNDS]:
        st[S_MATCH_WINNER] = 0 if a > b else (1 if b > a else DRAW)


@engine_inline
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: forehand names the contract or pushes."""
    st[S_PHASE] = PHASE_CONTRACT


# ---------------------------------------------------------------------------------- bounds (Python)
from .rules import Rules  # noqa: E402  (kept with the Python helpers, below the compiled rules)
from .spec import ROUND_POINTS  # noqa: E402


def weis_team_max(rules: Rules) -> int:
    """An upper bound of one team's Weis points in a round (before the multiplier).

    A hand of h cards holds at most h // 3 runs of >= 3 cards (none longer than h) and h // 4
    fours of a kind (9 cards: 3 and 2; Schieber for six's 6 cards: 2 and 1); a team has
    players / 2 hands.
    """
    if not rules.weis:
        return 0
    h = rules.spec.hand_size
    per_hand = (h // 3 * max(rules.sequence_values[:h - 2])
                + h // 4 * max(v for _, v in rules.quad_values))
    return rules.spec.players // 2 * per_hand


def round_score_max(rules: Rules) -> int:
    """An upper bound of one team's score in one round (multiplier applied)."""
    return max(rules.multipliers) * (ROUND_POINTS + rules.match_bonus + weis_team_max(rules) + rules.stoeck)
