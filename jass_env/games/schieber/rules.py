"""Schieber's own rules: contract choice, Weis, Stöck, Match, team scoring and match end.

Two teams (``pairs``: 0 & 2 against 1 & 3; Schieber for six ``alternate``: 0, 2, 4 against 1, 3,
5). Forehand names a contract or pushes to his partner (the next player of his team), who must
name one (docs/games/schieber.md "Players, deal and contract choice"); Weis are declared
automatically when the contract is named and the best team's score with trick 1 (docs/rules.md
"Weis"); Stöck is credited when the second of trump K and Q is played (docs/rules.md "Stöck");
a team taking every trick gets the Match bonus; everything is multiplied by the contract's
multiplier; a match ends at the target (official finish: the moment a team reaches it, so the
order Stöck – Weis – tricks decides) or after a fixed number of rounds.

The engine's hooks (:mod:`jass_env.engine.hooks`) come first; Sidi-Jass and Coiffeur score with
:func:`credit`, :func:`decide_weis` and :func:`show_stoeck` as they are.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.cards import (
    KING_QUEEN,
    LAST_TRICK_BONUS,
    ROUND_POINTS,
    card_values,
    cards_of,
    contract_id,
)
from jass_env.engine.jit import engine_inline
from jass_env.engine.state import (
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
    S_POINTS,
    S_PUSHED,
    S_ROUND_NO,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TO_MOVE,
    S_TRICK_NO,
    S_TRICKS_WON,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    n_players,
    n_sides,
    side_of,
)
from jass_env.engine.switches import (
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
    Rules,
)
from jass_env.engine.transitions import legal_in_card_play
from jass_env.engine.validate import StateChecks, contract_allowed
from jass_env.engine.weis import team_weis_bound, weis_summary

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
    after the last trick."""
    team = side_of(winner, rp)
    if trick == 0 and st[S_WEIS_TEAM] >= 0:           # Weis are written after trick 1
        credit(st, st[S_WEIS_TEAM], st[S_WEIS_POINTS + st[S_WEIS_TEAM]], rp)
    credit(st, team, points, rp)
    tricks = rp[RP_TRICKS]
    if trick == tricks - 1 and st[S_TRICKS_WON + team] == tricks:
        st[S_MATCH_TEAM] = team
        credit(st, team, rp[RP_MATCH_BONUS], rp)


@engine_inline
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
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


@engine_inline
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A match keeps nothing of Schieber's own beyond the shared totals."""


@engine_inline
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The cards docs/rules.md "Legal moves" allows in card play; the contracts and the push
    before it."""
    if st[S_PHASE] == PHASE_PLAY:
        return legal_in_card_play(st, rp), 0
    return legal_bidding_actions(st, rp), 0


@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """A push or a contract (:func:`apply_bidding_action`)."""
    apply_bidding_action(st, action, rp)


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Nothing happens before a card in Schieber."""


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Stöck: the holder's trump may be the second of his K and Q."""
    if st[S_STOECK_PLAYER] == player and not st[S_STOECK_SHOWN] and card // 9 == st[S_CONTRACT]:
        show_stoeck(st, player, rp)


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """Every trick counts with the contract's card values."""
    return st[S_CONTRACT]


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Who leads trick 1: :func:`leader_of_trick_one`."""
    return leader_of_trick_one(st, rp)


def set_public_scores(st: np.ndarray, weis_cards: list[int], weis_team: int, weis_points: int,
                      stoeck_player: int, rp: np.ndarray) -> None:
    """Write the public scoring of a seat's view into a state built by ``set_play_position``, and
    the round's score from it.

    ``weis_cards[p]``: each player's public Weis cards (the Weis-winning team's); ``weis_team``
    the team whose Weis score (-1 none) and ``weis_points`` their total before the multiplier;
    ``stoeck_player`` the player who has shown Stöck (-1 none). The score is (card points + Weis
    once trick 1 is over + Stöck) times the contract's multiplier, as
    :func:`credit` credits it (a Python function: it runs once a position).
    """
    for p in range(int(n_players(rp))):
        st[S_WEIS_CARDS + p] = int(weis_cards[p])
    st[S_WEIS_TEAM] = weis_team
    st[S_STOECK_PLAYER] = stoeck_player
    st[S_STOECK_SHOWN] = 1 if stoeck_player >= 0 else 0
    mult = int(rp[RP_MULT + st[S_CONTRACT]])
    for t in range(int(n_sides(rp))):
        st[S_WEIS_POINTS + t] = weis_points if t == weis_team else 0
        extra = (weis_points if t == weis_team and st[S_TRICK_NO] >= 1 else 0)
        extra += int(rp[RP_STOECK]) if stoeck_player >= 0 and int(side_of(stoeck_player, rp)) == t else 0
        st[S_SCORE + t] = (st[S_POINTS + t] + extra) * mult


def check_state(c: StateChecks) -> None:
    """Schieber's checks of states from outside (:mod:`jass_env.engine.validate`): a contract the
    rules allow; a push (S_PUSHED 1) only under rules with the push; while the contract is chosen
    the player to move is forehand, after the push his partner; in card play the contract has a
    declarer."""
    contract_allowed(c)
    pushed = c.col(S_PUSHED)
    c.require(pushed <= int(c.rules.push), S_PUSHED,
              "0, or 1 after forehand pushed" if c.rules.push else f"0 (rules {c.rules.name!r} have no push)")
    forehand = c.col(S_FOREHAND)
    chooser = (forehand + PUSH_TO * pushed) % c.players
    phase = c.col(S_PHASE)
    c.require((phase != PHASE_CONTRACT) | (c.col(S_TO_MOVE) == chooser), S_TO_MOVE,
              lambda g, _: f"while the contract is chosen forehand ({forehand[g]}), or after the push his "
                           f"partner: {chooser[g]}")
    c.require((phase != PHASE_PLAY) | (c.col(S_DECLARER) >= 0), S_DECLARER,
              f"in card play the player who named the contract, 0..{c.players - 1}")


def weis_team_max(rules: Rules) -> int:
    """An upper bound of one team's Weis points in a round (before the multiplier), 0 without
    Weis (:func:`team_weis_bound` of the game's hands)."""
    if not rules.weis:
        return 0
    return team_weis_bound(rules.spec.hand_size, rules.spec.players, rules.sequence_values, rules.quad_values)


def round_score_max(rules: Rules) -> int:
    """An upper bound of one team's score in one round (multiplier applied)."""
    return max(rules.multipliers) * (ROUND_POINTS + rules.match_bonus + weis_team_max(rules) + rules.stoeck)


def score_sum(rules: Rules) -> int | None:
    """The constant the two sides' round scores add up to, None when it varies (the game's
    ``SCORE_SUM``; Sidi's too). Without Weis, Stöck and the Match bonus every card point of the
    round is scored once, times the contract's multiplier: constant when that product is the same
    for every contract the rules allow (the ``tournament`` preset: 157)."""
    if rules.weis or rules.stoeck or rules.match_bonus:
        return None
    totals = set()
    for name in rules.contracts:
        c = contract_id(name)
        values = card_values(c, rules.ou_card_values)
        points = sum(int(values[card]) for card in cards_of(rules.spec.deck)) + LAST_TRICK_BONUS
        totals.add(rules.multipliers[c] * points)
    return totals.pop() if len(totals) == 1 else None


def max_phase_actions(rules: Rules) -> int:
    """Forehand's push, then his partner's contract (without the push: forehand's contract)."""
    return 2 if rules.push else 1


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of one side's score in a round: 0 .. :func:`round_score_max` (the game's
    ``SCORE_RANGE``; Sidi's too, one player a side)."""
    return 0, round_score_max(rules)
