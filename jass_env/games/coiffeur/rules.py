"""Coiffeur's own rules: score sheets, the declaration cycle, row scores.

Two teams (``pairs``: 0 & 2 against 1 & 3), each with a score sheet of one row per contract, each
row with a factor (docs/games/coiffeur.md). Each deal one player declares one of **his own
team's** open rows (a Joker row with any of the six contracts, Slalom and Guschti with a starting
direction) or pushes to the next eligible player; a player whose team has no open row is skipped;
after every eligible player has pushed once, the first of them (from forehand) must declare. The
declarer leads trick 1. Only the declaring team writes: ``factor x (card points + the Match bonus
if it took all 9 tricks)`` (+ ``match_premium``); a Kontermatsch (the defenders take all 9
tricks) writes 0 or ``-kontermatsch_penalty x factor``. With ``coiffeur_weis = "except_joker"``
the declaring team's Weis and Stöck count too, times the factor, except in the Joker rows. The
game (the engine's match) ends when both sheets are full: the higher total wins, equal totals
draw (``S_MATCH_WINNER`` = 2).

Slalom alternates Obenabe and Undenufe trick by trick from the chosen direction; Guschti plays 5
tricks in the chosen direction, then 4 in the other. ``S_CONTRACT`` holds the current trick's
direction (so legal cards and trick winners are the engine's), ``S_CO_GAME`` the declared game.

The game's own state (the two sheets and the deal's declaration, ``STATE_FIELDS``) and switches
(``row_factors``, ``kontermatsch_penalty``, ``match_premium``, ``coiffeur_weis``,
``slalom_values``) come first, then the engine's hooks (:mod:`jass_env.engine.hooks`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from jass_env.engine.cards import CONTRACTS, KING_QUEEN, OBENABE, UNDENUFE, card_points_bound, popcount
from jass_env.engine.jit import engine_inline, engine_jit
from jass_env.engine.spec import MAX_TRICKS, tail_offsets
from jass_env.engine.state import (
    PHASE_CONTRACT,
    PHASE_OVER,
    PHASE_PLAY,
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
    S_POINTS,
    S_PUSHED,
    S_ROUND_NO,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TAIL,
    S_TO_MOVE,
    S_TRICK_NO,
    S_TRICKS_WON,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    n_players,
    seat_after,
)
from jass_env.engine.switches import RP_GAME, RP_MATCH_BONUS, RP_STOECK, RP_TRICKS, Rules
from jass_env.engine.transitions import legal_in_card_play, start_round
from jass_env.engine.validate import StateChecks
from jass_env.engine.weis import team_weis_bound

from ..schieber.rules import DRAW, TEAMS, decide_weis

#: every Coiffeur row; index = the row's id (the contract rows share the contract's number)
ROW_LABELS = ("D", "H", "S", "C", "Obenabe", "Undenufe", "Joker-1", "Joker-2", "Slalom", "Guschti")
MAX_ROWS = len(ROW_LABELS)
_BASE_ROWS = ("S", "C", "D", "H", "Obenabe", "Undenufe")
#: the rows of each Coiffeur game's score sheet, in sheet order
SHEET_ROWS = {"coiffeur": _BASE_ROWS + ("Joker-1", "Joker-2"), "coiffeur6": _BASE_ROWS,
              "coiffeur10": _BASE_ROWS + ("Slalom", "Guschti", "Joker-1", "Joker-2")}

#: the game's own switches as packed (Rules.params from RP_GAME on)
COIFFEUR_WEIS = ("off", "except_joker")
CO_WEIS_OFF, CO_WEIS_EXCEPT_JOKER = range(2)
SLALOM_VALUES = ("starting", "per_trick")
SLALOM_VALUES_STARTING, SLALOM_VALUES_PER_TRICK = range(2)
RP_CO_FACTOR = RP_GAME                             # MAX_ROWS: factor per row id, 0 = no such row
RP_CO_KONTER_PENALTY = RP_CO_FACTOR + MAX_ROWS
RP_CO_MATCH_PREMIUM = RP_CO_KONTER_PENALTY + 1
RP_CO_WEIS = RP_CO_KONTER_PENALTY + 2              # index into COIFFEUR_WEIS
RP_CO_SLALOM_VALUES = RP_CO_KONTER_PENALTY + 3     # index into SLALOM_VALUES

#: the game's tail of the state: the two score sheets (kept across the deals of a game, emptied by
#: begin_match) and the deal's declaration
STATE_FIELDS = (
    ("sheet", 2 * MAX_ROWS),   # value written in each row, team-major (team * 10 + row id)
    ("filled", 2),             # per team: bit r = row r written
    ("row", 1),                # the row declared this deal, -1 before
    ("game", 1),               # its contract: 0..5, or CO_SLALOM_O.. CO_GUSCHTI_U; -1 before
    ("eligible", 1),           # bit p = player p's team has an open row (fixed at the deal)
    ("pushers", 1),            # bit p = player p pushed this deal (S_PUSHED counts them)
)
_AT = tail_offsets(STATE_FIELDS)
S_CO_SHEET = S_TAIL + _AT["sheet"]
S_CO_FILLED = S_TAIL + _AT["filled"]
S_CO_ROW = S_TAIL + _AT["row"]
S_CO_GAME = S_TAIL + _AT["game"]
S_CO_ELIGIBLE = S_TAIL + _AT["eligible"]
S_CO_PUSHERS = S_TAIL + _AT["pushers"]


def max_phase_actions(rules: Rules) -> int:
    """Each candidate pushes at most once, then one declares."""
    return rules.spec.players + 1


def score_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) of a team's score in a deal (the row it writes, 0 for the other team):
    from −kontermatsch_penalty × the largest factor to a Match with the team's largest Weis and
    Stöck at the largest factor, with the Match premium."""
    largest = max(rules.row_factors)
    weis = 0
    if rules.coiffeur_weis != "off":
        weis = team_weis_bound(rules.spec.hand_size, rules.spec.players, rules.sequence_values,
                               rules.quad_values)
    high = (card_points_bound(rules.spec.deck) + rules.match_bonus + weis + rules.stoeck) * largest
    return min(0, -rules.kontermatsch_penalty * largest), high + rules.match_premium


def pack(rules: Rules) -> list[int]:
    """The game's own switches as the compiled rules read them (from RP_GAME on)."""
    factors = [0] * MAX_ROWS
    for label, factor in zip(SHEET_ROWS[rules.game], rules.row_factors):
        factors[ROW_LABELS.index(label)] = factor
    return factors + [rules.kontermatsch_penalty, rules.match_premium,
                      COIFFEUR_WEIS.index(rules.coiffeur_weis),
                      SLALOM_VALUES.index(rules.slalom_values)]


# row ids (spec.ROW_LABELS): the contract rows share the contract's number
ROW_JOKER_1, ROW_JOKER_2, ROW_SLALOM, ROW_GUSCHTI = 6, 7, 8, 9
N_CONTRACTS = 6
# declared games beyond the six contracts (S_CO_GAME)
CO_SLALOM_O, CO_SLALOM_U, CO_GUSCHTI_O, CO_GUSCHTI_U = 6, 7, 8, 9
#: the record format's names of the games 6..9 (docs/records.md)
SPECIAL_GAME_NAMES = ("slalom_O", "slalom_U", "guschti_O", "guschti_U")
#: Guschti: this many tricks in the starting direction, then the rest in the other
GUSCHTI_FIRST = 5

# the action layout: 36 + c declares contract row c, 42 pushes,
# 43 + 6 j + c declares Joker row j as contract c, 55..58 Slalom / Guschti from O / U
DECLARE_OFFSET = 36
PUSH = 42
JOKER_OFFSET = 43
SPECIAL_OFFSET = JOKER_OFFSET + 2 * N_CONTRACTS


@engine_inline
def rows_mask(rp: np.ndarray) -> int:
    """Bit r = row r is on this game's sheets."""
    m = 0
    for r in range(MAX_ROWS):
        if rp[RP_CO_FACTOR + r] > 0:
            m |= 1 << r
    return m


@engine_inline
def open_rows(st: np.ndarray, team: int, rp: np.ndarray) -> int:
    """Bit r = row r of ``team``'s sheet is still open."""
    return rows_mask(rp) & ~st[S_CO_FILLED + team]


@engine_inline
def row_of_action(action: int) -> int:
    """The row a declaration action (36..58, not the push) declares."""
    if action < PUSH:
        return action - DECLARE_OFFSET
    if action < SPECIAL_OFFSET:
        return ROW_JOKER_1 + (action - JOKER_OFFSET) // N_CONTRACTS
    return ROW_SLALOM + (action - SPECIAL_OFFSET) // 2


@engine_inline
def game_of_action(action: int) -> int:
    """The game (0..5 a contract, 6..9 Slalom/Guschti from O/U) a declaration action plays."""
    if action < PUSH:
        return action - DECLARE_OFFSET
    if action < SPECIAL_OFFSET:
        return (action - JOKER_OFFSET) % N_CONTRACTS
    return CO_SLALOM_O + (action - SPECIAL_OFFSET)


@engine_inline
def trick_direction(game: int, trick: int) -> int:
    """The contract that ranks trick ``trick`` (0-based) of ``game``: the contract itself, or
    Obenabe / Undenufe by the Slalom or Guschti schedule."""
    if game < N_CONTRACTS:
        return game
    start = OBENABE if (game - CO_SLALOM_O) % 2 == 0 else UNDENUFE
    other = OBENABE + UNDENUFE - start
    if game < CO_GUSCHTI_O:
        return start if trick % 2 == 0 else other
    return start if trick < GUSCHTI_FIRST else other


@engine_inline
def values_contract(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """The contract whose card values count trick ``trick``: Slalom and Guschti count every trick
    with the starting direction's values unless ``slalom_values = "per_trick"``."""
    game = st[S_CO_GAME]
    if game < N_CONTRACTS or rp[RP_CO_SLALOM_VALUES] == SLALOM_VALUES_PER_TRICK:
        return trick_direction(game, trick)
    return trick_direction(game, 0)


# declaring
@engine_inline
def _next_eligible(st: np.ndarray, after: int, rp: np.ndarray) -> int:
    """The first eligible player after seat ``after`` in play order (``after`` itself last)."""
    n = n_players(rp)
    for k in range(1, n + 1):
        p = seat_after(after, k % n, n)
        if (st[S_CO_ELIGIBLE] >> p) & 1:
            return p
    return -1


@engine_jit
def begin_round(st: np.ndarray, rp: np.ndarray) -> None:
    """After the deal: the players whose team has an open row are the candidates; the first of
    them from forehand declares or pushes. With both sheets full the deal is over at once."""
    n = n_players(rp)
    eligible = 0
    for p in range(n):
        if open_rows(st, p % TEAMS, rp):
            eligible |= 1 << p
    st[S_CO_ELIGIBLE] = eligible
    st[S_CO_PUSHERS] = 0
    st[S_CO_ROW] = -1
    st[S_CO_GAME] = -1
    st[S_PHASE] = PHASE_CONTRACT if eligible else PHASE_OVER
    first = _next_eligible(st, seat_after(st[S_FOREHAND], n - 1, n), rp)
    st[S_TO_MOVE] = first if first >= 0 else st[S_FOREHAND]


@engine_inline
def must_declare(st: np.ndarray) -> bool:
    """Every eligible player has pushed once: the one to move (the first) must declare."""
    return st[S_PUSHED] >= popcount(st[S_CO_ELIGIBLE])


@engine_jit
def legal_declarations(st: np.ndarray, rp: np.ndarray) -> int:
    """The declarations of the player to move (a bit per action): his team's open rows (a Joker
    row with each of the six contracts, Slalom and Guschti with each direction) and, unless he
    must declare, the push."""
    rows = open_rows(st, st[S_TO_MOVE] % TEAMS, rp)
    m = np.int64(0)
    for r in range(N_CONTRACTS):
        if (rows >> r) & 1:
            m |= np.int64(1) << (DECLARE_OFFSET + r)
    for j in range(2):
        if (rows >> (ROW_JOKER_1 + j)) & 1:
            m |= np.int64(0x3F) << (JOKER_OFFSET + N_CONTRACTS * j)
    for j in range(2):
        if (rows >> (ROW_SLALOM + j)) & 1:
            m |= np.int64(0x3) << (SPECIAL_OFFSET + 2 * j)
    if not must_declare(st):
        m |= np.int64(1) << PUSH
    return m


@engine_jit
def apply_declaration(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """A push (to the next eligible player; after the last one's push, back to the first) or a
    declaration (the declarer leads trick 1)."""
    p = st[S_TO_MOVE]
    if action == PUSH:
        st[S_CO_PUSHERS] |= 1 << p
        st[S_PUSHED] += 1
        if must_declare(st):                         # back to the first candidate from forehand
            n = n_players(rp)
            st[S_TO_MOVE] = _next_eligible(st, seat_after(st[S_FOREHAND], n - 1, n), rp)
        else:
            st[S_TO_MOVE] = _next_eligible(st, p, rp)
        return
    row = row_of_action(action)
    game = game_of_action(action)
    st[S_CO_ROW] = row
    st[S_CO_GAME] = game
    st[S_CONTRACT] = trick_direction(game, 0)
    st[S_DECLARER] = p
    st[S_PHASE] = PHASE_PLAY
    st[S_LEADER] = p
    st[S_TO_MOVE] = p
    if rp[RP_CO_WEIS] == CO_WEIS_EXCEPT_JOKER and row != ROW_JOKER_1 and row != ROW_JOKER_2:
        decide_weis(st, rp)
        if game < 4 and rp[RP_STOECK] > 0:
            kq = KING_QUEEN[game]
            for q in range(n_players(rp)):
                if (st[S_DEALT + q] & kq) == kq:
                    st[S_STOECK_PLAYER] = q


# scoring
@engine_jit
def after_trick(st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    """The next trick's direction (Slalom, Guschti)."""
    if trick < rp[RP_TRICKS] - 1:
        st[S_CONTRACT] = trick_direction(st[S_CO_GAME], trick + 1)


@engine_jit
def end_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Deal over: the declaring team writes its row (:func:`write_row`)."""
    write_row(st, rp)


@engine_jit
def row_score(st: np.ndarray, rp: np.ndarray) -> int:
    """The declaring team's value for its row after the last trick (see the module docstring)."""
    team = st[S_DECLARER] % TEAMS
    factor = rp[RP_CO_FACTOR + st[S_CO_ROW]]
    tricks = rp[RP_TRICKS]
    if st[S_TRICKS_WON + 1 - team] == tricks:                      # Kontermatsch
        return -rp[RP_CO_KONTER_PENALTY] * factor
    amount = st[S_POINTS + team]
    if st[S_WEIS_TEAM] == team:
        amount += st[S_WEIS_POINTS + team]
    if st[S_STOECK_PLAYER] >= 0 and st[S_STOECK_PLAYER] % TEAMS == team:
        amount += rp[RP_STOECK]
    if st[S_TRICKS_WON + team] == tricks:                          # Match
        return (amount + rp[RP_MATCH_BONUS]) * factor + rp[RP_CO_MATCH_PREMIUM]
    return amount * factor


@engine_jit
def write_row(st: np.ndarray, rp: np.ndarray) -> None:
    """Deal over: the declaring team writes its row; the game ends when both sheets are full."""
    st[S_PHASE] = PHASE_OVER
    tricks = rp[RP_TRICKS]
    for t in range(TEAMS):
        if st[S_TRICKS_WON + t] == tricks:
            st[S_MATCH_TEAM] = t
    if st[S_STOECK_PLAYER] >= 0:
        st[S_STOECK_SHOWN] = 1                       # both cards are on the table by now
    team = st[S_DECLARER] % TEAMS
    value = row_score(st, rp)
    st[S_SCORE + team] = value
    st[S_SCORE + 1 - team] = 0
    st[S_CO_SHEET + MAX_ROWS * team + st[S_CO_ROW]] = value
    st[S_CO_FILLED + team] |= 1 << st[S_CO_ROW]
    st[S_MATCH_SCORE + team] += value
    if not st[S_MATCH] or st[S_MATCH_WINNER] >= 0:
        return
    st[S_ROUND_NO] += 1
    full = rows_mask(rp)
    if st[S_CO_FILLED] == full and st[S_CO_FILLED + 1] == full:
        a = st[S_MATCH_SCORE]
        b = st[S_MATCH_SCORE + 1]
        st[S_MATCH_WINNER] = 0 if a > b else (1 if b > a else DRAW)


@engine_jit
def write_sheets(st: np.ndarray, filled: np.ndarray, values: np.ndarray) -> None:
    """Set both sheets (``filled[t]`` a row bitmask, ``values[t, r]`` the value written in row
    ``r``) and the game totals; then :func:`begin_round` again fixes the deal's candidates."""
    for t in range(TEAMS):
        total = 0
        st[S_CO_FILLED + t] = filled[t]
        for r in range(MAX_ROWS):
            v = values[t, r] if (filled[t] >> r) & 1 else 0
            st[S_CO_SHEET + MAX_ROWS * t + r] = v
            total += v
        st[S_MATCH_SCORE + t] = total


@engine_jit
def begin_match(st: np.ndarray, rp: np.ndarray) -> None:
    """A new game: both sheets empty."""
    for i in range(2 * MAX_ROWS):
        st[S_CO_SHEET + i] = 0
    st[S_CO_FILLED] = 0
    st[S_CO_FILLED + 1] = 0


@engine_jit
def legal_actions(st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The cards docs/rules.md "Legal moves" allows in card play; the declarations before it."""
    if st[S_PHASE] == PHASE_PLAY:
        return legal_in_card_play(st, rp), 0
    return legal_declarations(st, rp), 0


@engine_jit
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """A push or a declaration (:func:`apply_declaration`)."""
    apply_declaration(st, action, rp)


@engine_inline
def before_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Nothing happens before a card in Coiffeur."""


@engine_inline
def after_card(st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    """Stöck (only with ``coiffeur_weis``): shown once its holder has played both trump K and Q;
    it counts in the row (:func:`row_score`)."""
    if st[S_STOECK_PLAYER] == player and not st[S_STOECK_SHOWN] and card // 9 == st[S_CONTRACT]:
        kq = KING_QUEEN[st[S_CONTRACT]]
        if (st[S_PLAYED + player] & kq) == kq:
            st[S_STOECK_SHOWN] = 1


@engine_inline
def trick_values(st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    """The contract whose card values count the trick (:func:`values_contract`)."""
    return values_contract(st, trick, rp)


@engine_inline
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """The declarer leads trick 1 (forehand while nobody has declared)."""
    return st[S_DECLARER] if st[S_DECLARER] >= 0 else st[S_FOREHAND]


# accessors
@engine_inline
def sheet_value(st: np.ndarray, team: int, row: int) -> int:
    """The value ``team`` wrote in row ``row`` (0 while the row is open)."""
    return st[S_CO_SHEET + MAX_ROWS * team + row]


@engine_inline
def filled_rows(st: np.ndarray, team: int) -> int:
    """Bit r = ``team`` has written row r."""
    return st[S_CO_FILLED + team]


@engine_inline
def declared_row(st: np.ndarray) -> int:
    """The row declared this deal, -1 before."""
    return st[S_CO_ROW]


@engine_inline
def declared_game(st: np.ndarray) -> int:
    """The declared game: 0..5 a contract, 6..9 Slalom / Guschti from Obenabe / Undenufe; -1 before."""
    return st[S_CO_GAME]


@engine_inline
def pushers(st: np.ndarray) -> int:
    """Bit p = player p pushed this deal."""
    return st[S_CO_PUSHERS]


@engine_inline
def eligible(st: np.ndarray) -> int:
    """Bit p = player p's team had an open row when the deal began (the declaration's candidates)."""
    return st[S_CO_ELIGIBLE]


# search worlds
@engine_jit
def set_deal(st: np.ndarray, row: int, game: int) -> None:
    """The row declared (``row``, a row id) and its game (0..5 a contract, 6..9 Slalom / Guschti
    from Obenabe / Undenufe) in a card-play state built by
    :func:`jass_env.engine.positions.set_play_position`, whose ``contract`` is the one ranking the
    current trick. The declaring team's row is written at the deal's end; the sheets and the game
    are not part of such a world."""
    st[S_CO_ROW] = row
    st[S_CO_GAME] = game


@engine_jit
def set_world(game: int, st: np.ndarray, hands: np.ndarray, dealer: int, filled: np.ndarray, pushes: int,
              rp: np.ndarray) -> None:
    """A deal in its declaration phase in ``st`` (a state outside a game): the rows written per
    team (``filled[t]`` bitmasks; the values written are not part of it), the hands dealt by
    ``dealer``, then ``pushes`` pushes from the first candidate on (the declaration as a seat sees
    it: who pushed is public). ``game``: Coiffeur's number (a compile-time constant)."""
    begin_match(st, rp)
    for t in range(TEAMS):
        st[S_CO_FILLED + t] = filled[t]
    start_round(game, st, hands, dealer, rp)
    for _ in range(pushes):
        apply_declaration(st, PUSH, rp)


# checks of states from outside
#: Coiffeur's players: two teams of two
PLAYERS = 4
#: the most a row's value may be from 0: no row's factor x (card points, Weis, Stöck and the bonuses),
#: nor a penalty, comes near it
SHEET_BOUND = 10**7
#: the values each of the game's own fields may hold (GameSpec.state_ranges)
STATE_RANGES = {"sheet": (-SHEET_BOUND, SHEET_BOUND), "filled": (0, (1 << MAX_ROWS) - 1),
                "row": (-1, MAX_ROWS - 1), "game": (-1, CO_GUSCHTI_U), "eligible": (0, (1 << PLAYERS) - 1),
                "pushers": (0, (1 << PLAYERS) - 1)}


@cache
def _declarations() -> tuple[np.ndarray, np.ndarray]:
    """(ROW_GAMES, DIRECTIONS): bit g of ROW_GAMES[r] = a declaration plays row r as game g; and
    DIRECTIONS[g, t] the contract ranking trick t of game g (from the declaration actions and
    :func:`trick_direction`, run as Python)."""
    row_games = np.zeros(MAX_ROWS, dtype=np.int64)
    for action in range(DECLARE_OFFSET, SPECIAL_OFFSET + 4):    # every declaration (and the push)
        if action != PUSH:
            row_games[row_of_action.py_func(action)] |= 1 << game_of_action.py_func(action)
    directions = np.array([[trick_direction.py_func(g, t) for t in range(MAX_TRICKS)]
                           for g in range(CO_GUSCHTI_U + 1)], dtype=np.int64)
    return row_games, directions


def check_state(c: StateChecks) -> None:
    """Coiffeur's checks of states from outside (:mod:`jass_env.engine.validate`): the rows
    written are rows of the game's sheet; while declaring, nothing is declared yet, the candidates
    are the players whose team has an open row, the player to move is one of them and the pushes
    are theirs; in card play the declared row is on the sheet, its game one the row may be played
    as, the contract the direction of the current trick, and the declarer known."""
    n = c.players
    rows = sum(1 << r for r in range(MAX_ROWS) if c.rp[RP_CO_FACTOR + r] > 0)
    row_names = ", ".join(ROW_LABELS[r] for r in range(MAX_ROWS) if (rows >> r) & 1)
    filled = c.tail("filled")
    c.require(filled & ~rows == 0, S_CO_FILLED + np.arange(TEAMS),
              lambda g, t: f"rows of the sheet of {c.spec.name} ({row_names}); not on it: bits "
                           f"{int(filled[g, t]) & ~rows:#x}")
    phase, row, game = c.col(S_PHASE), c.col(S_CO_ROW), c.col(S_CO_GAME)
    declaring = phase == PHASE_CONTRACT
    c.require(~declaring | (row == -1), S_CO_ROW, "-1 before the declaration")
    c.require(~declaring | (game == -1), S_CO_GAME, "-1 before the declaration")
    seats = np.arange(n)
    open_team = (rows & ~filled[:, seats % TEAMS]) != 0
    candidates = (open_team.astype(np.int64) << seats).sum(axis=1)
    eligible, pushers = c.col(S_CO_ELIGIBLE), c.col(S_CO_PUSHERS)
    c.require(~declaring | (eligible == candidates), S_CO_ELIGIBLE,
              lambda g, _: f"the players whose team has an open row (bit p = player p): {candidates[g]}")
    to_move = c.col(S_TO_MOVE)
    c.require(~declaring | ((eligible >> to_move) & 1 == 1), S_TO_MOVE,
              "while declaring a player whose team has an open row (S_CO_ELIGIBLE)")
    c.require(pushers & ~eligible == 0, S_CO_PUSHERS, "players whose team has an open row (S_CO_ELIGIBLE)")
    pushes = sum((pushers >> p) & 1 for p in range(n))
    c.require(c.col(S_PUSHED) == pushes, S_PUSHED,
              lambda g, _: f"the number of players who pushed (S_CO_PUSHERS), {pushes[g]}")
    playing = phase == PHASE_PLAY
    row_games, directions = _declarations()
    row_at = np.maximum(row, 0)
    game_at = np.maximum(game, 0)
    c.require(~playing | ((row >= 0) & ((rows >> row_at) & 1 == 1)), S_CO_ROW,
              f"in card play the row declared, one of {row_names}")
    c.require(~playing | ((game >= 0) & ((row_games[row_at] >> game_at) & 1 == 1)), S_CO_GAME,
              lambda g, _: f"a game row {ROW_LABELS[row[g]]} is played as: " + ", ".join(
                  str(x) for x in range(CO_GUSCHTI_U + 1) if (row_games[row[g]] >> x) & 1))
    direction = directions[game_at, np.minimum(c.col(S_TRICK_NO), MAX_TRICKS - 1)]
    c.require(~playing | (c.col(S_CONTRACT) == direction), S_CONTRACT,
              lambda g, _: f"the direction of the current trick of the game declared (S_CO_GAME "
                           f"{game[g]}), {direction[g]}")
    c.require(~playing | (c.col(S_DECLARER) >= 0), S_DECLARER,
              f"in card play the player who declared, 0..{n - 1}")


# Python readers
def game_name(game: int) -> str | None:
    """The record format's name of a declared game ("D" ... "undenufe", "slalom_O" ...), None for -1."""
    if game < 0:
        return None
    return CONTRACTS[game] if game < N_CONTRACTS else SPECIAL_GAME_NAMES[game - CO_SLALOM_O]


def sheets_of(st: np.ndarray, rows: tuple[str, ...]) -> list[dict[str, int | None]]:
    """Both teams' sheets: per team {row label: value written, None while open}, in ``rows``' order
    (the game's :data:`SHEET_ROWS`)."""
    out = []
    for t in range(TEAMS):
        sheet: dict[str, int | None] = {}
        for label in rows:
            r = ROW_LABELS.index(label)
            written = (st[S_CO_FILLED + t] >> r) & 1
            sheet[label] = int(st[S_CO_SHEET + MAX_ROWS * t + r]) if written else None
        out.append(sheet)
    return out


def pushes_of(st: np.ndarray, players: int) -> list[int]:
    """The players who pushed this deal, in the order they pushed (candidates from forehand)."""
    fh = int(st[S_FOREHAND])
    return [(fh + k) % players for k in range(players) if (int(st[S_CO_PUSHERS]) >> ((fh + k) % players)) & 1]


def set_sheets(st: np.ndarray, sheets: Any, rp: np.ndarray, rows: tuple[str, ...]) -> None:
    """Write both sheets into a state in the declaration phase before anyone acted, and fix the
    deal's candidates again. ``sheets``: per team (a list of two, or a dict with keys 0/1 or
    "0"/"1") a dict {row label: value} of the rows written; labels must be rows of ``rows``."""
    if isinstance(sheets, dict):
        sheets = [sheets.get(t, sheets.get(str(t), {})) for t in range(TEAMS)]
    if len(sheets) != TEAMS or not all(isinstance(s, dict) for s in sheets):
        raise ValueError(f"sheets must give two teams' sheets ({{row label: value}}), got {sheets!r}")
    filled = np.zeros(TEAMS, dtype=np.int64)
    values = np.zeros((TEAMS, MAX_ROWS), dtype=np.int64)
    for t, sheet in enumerate(sheets):
        for label, value in sheet.items():
            if label not in rows:
                raise ValueError(f"team {t}'s sheet names row {label!r}; rows of this game: "
                                 f"{', '.join(rows)}")
            if value is None:
                continue
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise ValueError(f"team {t}'s row {label!r} must hold an integer, got {value!r}")
            if not -SHEET_BOUND <= value <= SHEET_BOUND:
                raise ValueError(f"team {t}'s row {label!r} holds {value}; a row holds -{SHEET_BOUND:,} to "
                                 f"{SHEET_BOUND:,}")
            r = ROW_LABELS.index(label)
            filled[t] |= 1 << r
            values[t, r] = int(value)
    write_sheets(st, filled, values)
    begin_round(st, rp)
