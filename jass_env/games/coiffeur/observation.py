"""Coiffeur's observation: Schieber's 529 floats (:mod:`jass_env.games.schieber.observation`), then
the sheets.

The first ``observation.OBS_DIM`` = 529 floats are Schieber's layout, read for Coiffeur:
``contract`` is the contract ranking the current trick (in Slalom and Guschti it changes trick by
trick), ``declarer`` the declarer, ``phase`` "choosing after a push" once anyone pushed this deal,
``pushed`` 1 after a push, ``round_score`` the row score once written (/ 157, so up to about
16 in a x10 row), ``match`` is 0 and ``multiplier`` 1/4 (Coiffeur has none: the sheets and
the row's factor below take their place). The Coiffeur
block follows; "own" is the observer's team, rows are in :data:`jass_env.games.coiffeur.rules.ROW_LABELS`
order (D H S C Obenabe Undenufe Joker-1 Joker-2 Slalom Guschti; rows not in the game stay 0):

=============  ======  ======  =============================================================
slice          offset  length  meaning
=============  ======  ======  =============================================================
open_rows      529     20      own, then opponents' sheet: 1 = the row is in the game and open
row_values     549     20      own, then opponents': the value written / (157 x row factor)
totals         569     2       sheet totals, own / opponents', / (157 x sum of the factors)
row            571     10      one-hot: the row declared this deal
factor         581     1       its factor / the game's largest factor
schedule       582     9       per trick: 1 = ranked Undenufe (Obenabe, Undenufe, Slalom, Guschti)
values_undenufe 591    1       1 = the deal's cards count with Undenufe's values
pushes         592     4       by relative seat: 1 = pushed this deal
must_declare   596     1       1 = every candidate pushed: the one to move must declare
deals_left     597     1       deals left in the game (this one included) / deals in a game
=============  ======  ======  =============================================================

``OBS_DIM = 598``; the state (centralized critic) appends the four hands by relative seat
(``STATE_DIM = 742``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import OBENABE, ROUND_POINTS, UNDENUFE, popcount
from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import RP_TRICKS, Rules
from jass_env.engine.weis import team_weis_bound

from .._observation import set_cards
from ..schieber import observation
from . import rules as coiffeur
from .rules import MAX_ROWS, RP_CO_FACTOR

BASE_DIM = observation.OBS_DIM
OBS_SLICES: tuple[tuple[str, int, int, str], ...] = (
    ("open_rows", 529, 20, "own / opponents' sheet: 1 = row open"),
    ("row_values", 549, 20, "own / opponents' written value / (157 x factor)"),
    ("totals", 569, 2, "sheet totals own / opponents' / (157 x sum of factors)"),
    ("row", 571, 10, "one-hot row declared this deal"),
    ("factor", 581, 1, "its factor / largest factor"),
    ("schedule", 582, 9, "per trick: 1 = ranked Undenufe"),
    ("values_undenufe", 591, 1, "1 = cards count with Undenufe's values"),
    ("pushes", 592, 4, "relative seat pushed this deal"),
    ("must_declare", 596, 1, "the one to move must declare"),
    ("deals_left", 597, 1, "deals left / deals in a game"),
)
#: bumped on any change of the layout below
OBS_VERSION = 1
OBS_DIM = 598
STATE_DIM = OBS_DIM + 4 * 36
SLICES = {name: slice(off, off + n) for name, off, n, _ in OBS_SLICES}
O_OPEN, O_VALUES, O_TOTALS, O_ROW, O_FACTOR, O_SCHEDULE = 529, 549, 569, 571, 581, 582
O_VALUES_U, O_PUSHES, O_MUST, O_DEALS_LEFT = 591, 592, 596, 597


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, OBS_DIM)."""
    observation.encode_observation(st, observer, rp, out)
    out[BASE_DIM:OBS_DIM] = 0.0
    if state.pushed(st):                        # the engine counts Coiffeur's pushes; a flag here
        out[observation.O_PUSHED] = 1.0
    team = observer % 2
    rows = coiffeur.rows_mask(rp)
    largest = 1
    factor_sum = 0
    for r in range(MAX_ROWS):
        largest = max(largest, rp[RP_CO_FACTOR + r])
        factor_sum += rp[RP_CO_FACTOR + r]
    deals_left = 0
    for k in range(2):
        t = (team + k) % 2
        filled = coiffeur.filled_rows(st, t)
        total = 0
        for r in range(MAX_ROWS):
            if not (rows >> r) & 1:
                continue
            if (filled >> r) & 1:
                v = coiffeur.sheet_value(st, t, r)
                total += v
                out[O_VALUES + MAX_ROWS * k + r] = v / (ROUND_POINTS * rp[RP_CO_FACTOR + r])
            else:
                out[O_OPEN + MAX_ROWS * k + r] = 1.0
                deals_left += 1
        out[O_TOTALS + k] = total / (ROUND_POINTS * factor_sum)
    row = coiffeur.declared_row(st)
    if row >= 0:
        out[O_ROW + row] = 1.0
        out[O_FACTOR] = rp[RP_CO_FACTOR + row] / largest
        game = coiffeur.declared_game(st)
        if game >= OBENABE:
            for t in range(rp[RP_TRICKS]):
                if coiffeur.trick_direction(game, t) == UNDENUFE:
                    out[O_SCHEDULE + t] = 1.0
            if coiffeur.values_contract(st, 0, rp) == UNDENUFE:
                out[O_VALUES_U] = 1.0
    pushers = coiffeur.pushers(st)
    for rel in range(4):
        if (pushers >> ((observer + rel) % 4)) & 1:
            out[O_PUSHES + rel] = 1.0
    if state.phase(st) == state.PHASE_CONTRACT and coiffeur.must_declare(st):
        out[O_MUST] = 1.0
    out[O_DEALS_LEFT] = deals_left / max(1, 2 * popcount(rows))


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """The observation, then the four current hands by relative seat (float32, STATE_DIM)."""
    encode_observation(st, observer, rp, out)
    out[OBS_DIM:STATE_DIM] = 0.0
    for r in range(4):
        set_cards(out, OBS_DIM + 36 * r, state.hand_of(st, (observer + r) % 4))


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice: Schieber's, then Coiffeur's own."""
    return observation.obs_slices(spec) + OBS_SLICES


def obs_dim(spec: GameSpec) -> int:
    return OBS_DIM


def state_dim(spec: GameSpec) -> int:
    """Observation, then the four hands."""
    return STATE_DIM


def row_value_bounds(rules: Rules) -> tuple[float, float]:
    """(low, high) of one written row / (157 x its factor): a Kontermatsch penalty below 0; the
    Match with the team's largest Weis, Stöck and the premium above."""
    weis = 0
    if rules.coiffeur_weis != "off":     # Schieber's bound of a team's Weis under the same values
        weis = team_weis_bound(rules.spec.hand_size, rules.spec.players, rules.sequence_values,
                               rules.quad_values) + rules.stoeck
    low = -rules.kontermatsch_penalty / ROUND_POINTS
    high = (ROUND_POINTS + rules.match_bonus + weis + rules.match_premium) / ROUND_POINTS
    return low, high


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length OBS_DIM that hold every Coiffeur observation."""
    low = np.zeros(OBS_DIM, dtype=np.float64)
    high = np.ones(OBS_DIM, dtype=np.float64)
    high[:BASE_DIM] = observation.observation_high(rules)
    lo, hi = row_value_bounds(rules)
    largest = max(rules.row_factors)
    high[observation.SLICES["round_score"]] = max(1.0, hi * largest)
    low[observation.SLICES["round_score"]] = lo * largest
    high[observation.SLICES["weis_points"]] = max(1.0, (hi * ROUND_POINTS - ROUND_POINTS) / ROUND_POINTS)
    high[SLICES["row_values"]] = max(1.0, hi)
    low[SLICES["row_values"]] = lo
    high[SLICES["totals"]] = max(1.0, hi)
    low[SLICES["totals"]] = lo
    return (low * 1.0001 - 1e-6).astype(np.float32), (high * 1.0001).astype(np.float32)
