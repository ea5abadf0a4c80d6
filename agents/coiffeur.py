"""Coiffeur's heuristic bot: declare the row with the largest expected surplus, planning a sheet's
last rows exactly; play cards as the Schieber heuristic.

**Surplus.** A hand's strength in a contract is Graf's score (:func:`agents.heuristic.graf_scores`,
the Schieber heuristic's contract tables); a contract's *average* is the expected Graf score of a
random 9-card hand in it (:func:`graf_average`: 9/36 of the whole deck's score, exact); the hand's
*surplus* ``s_c`` is its score minus the average. A declaration action is worth ``factor x s_c``
of its row and contract (:func:`declaration_value`: a Joker row with the contract the action
names, Slalom and Guschti with the score of their starting direction). A row's best value
``sigma_r(h)`` is the best over its actions (the row's contract; a Joker row the best of the six;
Slalom and Guschti the better of Obenabe and Undenufe). Units: Graf points times the factor, the
heuristic's stand-in for the row's written score above its average.

**Declaration** (:func:`plan_declaration`): each legal declaration ``a`` of row ``r`` is worth
``factor_r x s(a) - cost_r`` and the push ``margin``; the bot takes the best (a push wins ties).
While a team has more than :data:`PLAN_ROWS` open rows, ``cost = 0`` and ``margin = 0``: the row
with the largest surplus, pushed when nothing pays (> 0). With :data:`PLAN_ROWS` or fewer open rows
``S`` the last rows are **planned exactly** under this model of the rest of the game:

* every later declaration of the team is made with a fresh uniformly random 9-card hand
  (independent of this hand and of each other; the expectation is taken over
  :data:`SAMPLE_DEALS` fixed random deals, all four hands of each, so each contract's mean surplus
  is exactly 0), and its declarer maximizes the same objective;
* the objective is the sum over the team's remaining rows (this deal's included) of ``factor_r x``
  the surplus of the hand written there in the row's contract (what the team adds above the
  rows' averages); the opponents' sheet is not valued.

Two cases, by whether the opponents still have an open row (so are candidates this deal):

* **Opponents open.** The team's rows ``S`` are filled in later deals, one random hand each:
  ``V(S) = E_H[max_r (factor_r sigma_r(H) + V(S - r))]``, ``V({}) = 0``. Declaring ``a`` (row
  ``r``) is worth ``factor_r s(a) + V(S - r)``, a push ``V(S)`` (the rows are left to a random
  hand: the partner's or a later deal's), so ``cost_r = V(S) - V(S - r)`` and ``margin = 0``.
* **Opponents full** (only the team declares, every deal left is its own, the two partners are
  the candidates). With ``X = max_r (factor_r sigma_r(H) + W(S - r))`` for a random hand, the first
  candidate declares iff ``X >= T1``, the second (after the first's push) iff ``X >= P2``, after
  whose push the first must declare; the thresholds are the fixed point of ``T1 = E[X | X >= P2]``
  (the push's worth to the first, whose hand is then declared only if the second passes) and
  ``P2 = E[X | X < T1]`` (the first's hand is known to be below ``T1``), and
  ``W(S) = E[X; X >= T1] + P(X < T1) (E[X; X >= P2] + P(X < P2) E[X | X < T1])``. So
  ``cost_r = W(S) - W(S - r)`` and ``margin = T1 - W(S)`` for the first candidate,
  ``P2 - W(S)`` for the second.

The tables (:func:`plan_tables`) are computed once per set of row factors with numpy and cached.
Card play is :func:`agents.heuristic.heuristic_action` on the Schieber part of the observation
(:mod:`jass_env.observation_coiffeur` begins with Schieber's layout; the contract there is the one
ranking the current trick). :func:`state_declaration` is the same declaration read from an engine
state, for the PIMC bot's compiled play-outs (:mod:`agents.coiffeur_pimc`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np
from numba import njit

from jass_env import coiffeur, kernel
from jass_env.kernel import CO_MAX_ROWS
from jass_env.observation import OBS_DIM as SCHIEBER_OBS_DIM
from jass_env.observation_coiffeur import O_OPEN, O_PUSHES
from jass_env.rules import RP_CO_FACTOR, Rules, make_rules
from jass_env.schieber import N_ACTIONS as SCHIEBER_ACTIONS

from .base import Agent, checked_action
from .heuristic import graf_scores, heuristic_action
from .view import V_HAND, V_LEGAL, V_PHASE, decode

#: the whole deck (36-bit mask) and a hand's share of it
_DECK = (1 << 36) - 1
HAND_SHARE = 9 / 36
#: the view's phases while declaring (agents.view.PHASE_NAMES: choosing, choosing after a push)
_DECLARING = (0, 1)
#: a team with this many open rows or fewer plans them exactly (module docstring)
PLAN_ROWS = 3
#: random deals (4 hands each) over which the planning takes its expectations, and their seed
SAMPLE_DEALS = 4096
SAMPLE_SEED = 15
#: fixed-point iterations of the two thresholds T1, P2 (they settle in far fewer)
THRESHOLD_ITERATIONS = 100
#: plan cases: the opponents still have an open row; opponents full, first / second candidate
CASE_OPPONENTS_OPEN, CASE_FIRST, CASE_SECOND = 0, 1, 2
N_CONTRACTS = coiffeur.N_CONTRACTS
#: the last declaration action (Guschti from Undenufe), the first is coiffeur.DECLARE_OFFSET
_LAST_ACTION = coiffeur.SPECIAL_OFFSET + 3


def graf_average() -> np.ndarray:
    """The expected Graf score of a random 9-card hand in each contract 0..5 (float[6])."""
    whole = np.zeros(6, dtype=np.int64)
    graf_scores(_DECK, whole)
    return whole * HAND_SHARE


#: the expected Graf score of a random hand per contract (float[6]), computed once at import
GRAF_AVERAGE = graf_average()


@njit(cache=True)
def surplus_of(hand: int, average: np.ndarray) -> np.ndarray:
    """The hand's Graf score minus the average, per contract 0..5 (float64[6])."""
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(hand, scores)
    return scores - average


@njit(cache=True)
def declaration_value(action: int, surplus: np.ndarray, factors: np.ndarray) -> float:
    """``factor x surplus`` of a declaration action (36..58 but the push)."""
    game = coiffeur.game_of_action(action)
    if game >= N_CONTRACTS:                            # Slalom / Guschti: the starting direction
        game = coiffeur.trick_direction(game, 0)
    return factors[coiffeur.row_of_action(action)] * surplus[game]


@njit(cache=True)
def plan_declaration(hand: int, legal: int, factors: np.ndarray, average: np.ndarray, cost: np.ndarray,
                     margin: float) -> int:
    """The declaration (or push) for ``hand`` (36-bit mask) among the ``legal`` actions (bit a =
    action a): the best ``factor x surplus - cost[row]``, or the push when it is legal and worth
    ``margin`` or more (module docstring). ``factors[r]``, ``cost[r]`` per row id r."""
    surplus = surplus_of(hand, average)
    best, best_value = -1, -np.inf
    for a in range(coiffeur.DECLARE_OFFSET, _LAST_ACTION + 1):
        if a != coiffeur.PUSH and (legal >> a) & 1:
            value = declaration_value(a, surplus, factors) - cost[coiffeur.row_of_action(a)]
            if value > best_value:
                best, best_value = a, value
    if (legal >> coiffeur.PUSH) & 1 and (best < 0 or best_value <= margin):
        return coiffeur.PUSH
    return best


@njit(cache=True)
def planned_declaration(hand: int, legal: int, own_open: int, opponents_open: bool, partner_pushed: bool,
                        factors: np.ndarray, average: np.ndarray, cost: np.ndarray,
                        margin: np.ndarray) -> int:
    """:func:`plan_declaration` with the planning tables of :func:`plan_tables` for a candidate
    whose team has the open rows ``own_open`` (bitmask); the case (module docstring) follows from
    whether the opponents have an open row and whether the partner pushed this deal."""
    case = CASE_OPPONENTS_OPEN
    if not opponents_open:
        case = CASE_SECOND if partner_pushed else CASE_FIRST
    kind = 0 if case == CASE_OPPONENTS_OPEN else 1
    return plan_declaration(hand, legal, factors, average, cost[kind, own_open], margin[case, own_open])


@njit(cache=True)
def state_declaration(st: np.ndarray, rp: np.ndarray, factors: np.ndarray, average: np.ndarray,
                      cost: np.ndarray, margin: np.ndarray) -> int:
    """The heuristic's declaration for the player to move in an engine state in the declaration
    phase (the planning tables ``cost``, ``margin`` of :func:`plan_tables`)."""
    p = kernel.to_move(st)
    team = p % 2
    partner_pushed = (kernel.co_pushers(st) >> ((p + 2) % 4)) & 1 == 1
    return planned_declaration(kernel.hand_of(st, p), coiffeur.legal_declarations(st, rp),
                               coiffeur.open_rows(st, team, rp), coiffeur.open_rows(st, 1 - team, rp) != 0,
                               partner_pushed, factors, average, cost, margin)


# ---------------------------------------------------------------------------------- planning tables
@lru_cache(maxsize=1)
def sample_row_values() -> np.ndarray:
    """``sigma_r(H)`` of the sample's hands (float64[4 x SAMPLE_DEALS, CO_MAX_ROWS], by row id)."""
    weights = np.array([surplus_of(1 << c, np.zeros(6)) for c in range(36)])        # [36, 6]
    order = np.argsort(np.random.default_rng(SAMPLE_SEED).random((SAMPLE_DEALS, 36)), axis=1)
    hands = order.reshape(SAMPLE_DEALS * 4, 9)                                        # 4 hands a deal
    surplus = weights[hands].sum(axis=1) - GRAF_AVERAGE                                   # [N, 6]
    best = surplus.max(axis=1)
    directions = surplus[:, 4:6].max(axis=1)
    return np.column_stack([surplus, best, best, directions, directions])


def _thresholds(x: np.ndarray) -> tuple[float, float]:
    """The fixed point ``T1 = E[X | X >= P2]``, ``P2 = E[X | X < T1]`` over the sample ``x``."""
    t1 = float(x.mean())
    p2 = t1
    for _ in range(THRESHOLD_ITERATIONS):
        below = x[x < t1]
        p2 = float(below.mean()) if below.size else t1
        t1 = float(x[x >= p2].mean())
    return t1, p2


@lru_cache(maxsize=8)
def _tables(factors: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    sigma = sample_row_values()
    n_masks = 1 << CO_MAX_ROWS
    values = np.zeros((2, n_masks))            # V (opponents open), W (opponents full)
    cost = np.zeros((2, n_masks, CO_MAX_ROWS))
    margin = np.zeros((3, n_masks))
    game_rows = sum(1 << r for r, f in enumerate(factors) if f > 0)
    masks = sorted((m for m in range(1, n_masks) if m & ~game_rows == 0 and bin(m).count("1") <= PLAN_ROWS),
                   key=lambda m: bin(m).count("1"))
    for m in masks:
        rows = [r for r in range(CO_MAX_ROWS) if m >> r & 1]
        for kind in (0, 1):
            x = np.max([factors[r] * sigma[:, r] + values[kind, m & ~(1 << r)] for r in rows], axis=0)
            if kind == 0:
                values[0, m] = x.mean()
            else:
                t1, p2 = _thresholds(x)
                p_t1, p_p2 = float((x < t1).mean()), float((x < p2).mean())
                second = x[x >= p2].sum() / x.size + p_p2 * x[x < t1].mean()
                values[1, m] = x[x >= t1].sum() / x.size + p_t1 * second
                margin[CASE_FIRST, m] = t1 - values[1, m]
                margin[CASE_SECOND, m] = p2 - values[1, m]
        for r in rows:
            cost[:, m, r] = values[:, m] - values[:, m & ~(1 << r)]
    return cost, margin


def plan_tables(factors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The planning tables for row factors ``factors[r]`` (by row id, 0 = not in the game):
    ``cost[kind, open_rows, r]`` (kind 0: opponents open, 1: opponents full) and
    ``margin[case, open_rows]`` (the CASE_* constants), both 0 for more than PLAN_ROWS open rows."""
    return _tables(tuple(int(f) for f in factors))


def row_factors(rules: Rules) -> np.ndarray:
    """The factor of each row id (int64[CO_MAX_ROWS], 0 where the game has no such row)."""
    return np.asarray(rules.params[RP_CO_FACTOR:RP_CO_FACTOR + CO_MAX_ROWS], dtype=np.int64)


def _mask_of(bits: np.ndarray) -> int:
    return sum(1 << int(r) for r in np.flatnonzero(np.asarray(bits) > 0.5))


class CoiffeurHeuristic(Agent):
    """The Coiffeur heuristic (see the module docstring). Deterministic; ``seed`` is unused."""

    name = "heuristic"

    def __init__(self, rules: str | Rules | None = "coiffeur", seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        if self.rules.spec.bidding != "declaration":
            raise ValueError(f"the Coiffeur heuristic plays Coiffeur, not {self.rules.game}")
        self.rp = self.rules.params
        self.factors = row_factors(self.rules)
        self.cost, self.margin = plan_tables(self.factors)

    def declare(self, hand: int, legal: int, obs: np.ndarray) -> int:
        """The declaration for ``hand`` and the ``legal`` actions; ``obs`` the Coiffeur observation
        (it tells both sheets' open rows and who pushed)."""
        return int(planned_declaration(hand, legal, _mask_of(obs[O_OPEN:O_OPEN + CO_MAX_ROWS]),
                                       _mask_of(obs[O_OPEN + CO_MAX_ROWS:O_OPEN + 2 * CO_MAX_ROWS]) != 0,
                                       bool(obs[O_PUSHES + 2] > 0.5), self.factors, GRAF_AVERAGE, self.cost,
                                       self.margin))

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        mask = np.asarray(obs["action_mask"])
        legal = sum(1 << int(a) for a in np.flatnonzero(mask))
        if legal == 0:
            raise ValueError("no legal action in the action mask (the deal is over?)")
        o = np.asarray(obs["observation"])
        # the Schieber part: the first 529 floats, the first 43 actions (cards, rows D..U, push)
        v = decode(o[:SCHIEBER_OBS_DIM], mask[:SCHIEBER_ACTIONS])
        if v[V_PHASE] in _DECLARING:
            return checked_action(self.declare(int(v[V_HAND]), legal, o), legal, self.name)
        return checked_action(int(heuristic_action(v, self.rp)), int(v[V_LEGAL]), self.name)


def choose_declaration(hand: int, legal: int, factors: np.ndarray) -> int:
    """The declaration without planning (a team with more than PLAN_ROWS open rows): the largest
    ``factor x surplus``, the push when nothing pays and it is legal."""
    zeros = np.zeros(CO_MAX_ROWS)
    return int(plan_declaration(hand, legal, np.asarray(factors, dtype=np.int64), GRAF_AVERAGE, zeros, 0.0))


__all__ = ["CoiffeurHeuristic", "GRAF_AVERAGE", "choose_declaration", "declaration_value", "graf_average",
           "plan_declaration",
           "plan_tables", "planned_declaration", "state_declaration", "sample_row_values", "row_factors",
           "surplus_of", "PLAN_ROWS"]
