"""Coiffeur's rule-based bots: the heuristic (declare the row with the largest expected surplus,
planning a sheet's last rows exactly; play cards as the Schieber heuristic) and PIMC.

**Surplus.** A hand's strength in a contract is Graf's score (:func:`agents.bots.schieber.graf_scores`,
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
Card play is :func:`agents.bots.schieber.heuristic_action` on the Schieber part of the observation
(:mod:`jass_env.games.coiffeur.observation` begins with Schieber's layout; the contract there is
the one ranking the current trick). :func:`state_declaration` is the same declaration read from an
engine state, for the PIMC bot's compiled play-outs.

**PIMC** (:class:`CoiffeurPIMC`, for ``coiffeur``, ``coiffeur6``, ``coiffeur10``): card play and
declaration.

Both decisions sample ``worlds`` deals of the cards the seat has not seen, try every legal action
in each, let the engine play the deal out (:func:`jass_env.engine.transitions.apply_action`) with the
Coiffeur heuristic as every seat's policy (its declaration, read from the world state, and the
Schieber card play of :func:`agents.bots.schieber.rollout`, which ranks each trick by its own
direction), and pick the action with the best mean value. The engine writes the row (factor,
Match, Kontermatsch, the Slalom and Guschti schedules); a world's *row value* for me is the
declaring team's row score if my team declares, minus it if the opponents do.

* **Card play** (more than one legal card): the worlds are :func:`agents.bots.schieber.sample_world`'s
  (each other seat as many cards as it holds, none of a suit it has shown void in, public Weis
  cards with their owner), built by :func:`agents.bots.schieber.build_world_state` with the deal's
  row and game (:func:`jass_env.games.coiffeur.rules.set_deal`); the value is the row value. Weis and Stöck
  (``coiffeur_weis = "except_joker"``) are left out of the worlds, as in Schieber's PIMC.
* **Declaration** (more than one legal action): the 27 cards I do not hold are dealt uniformly to
  the others (a declaration has shown nothing yet), the deal rebuilt from the public facts (both
  sheets' written rows, the dealer, the pushes so far: :func:`jass_env.games.coiffeur.rules.set_world`);
  after a push the later candidates declare by the heuristic. The value maximized is the row value
  **relative to the row's average**: ``sign x (row score - factor x ROUND_POINTS / 2)`` with sign
  +1 when my team declares, -1 when the opponents do. A row's average is taken as its factor times
  half the deal's 157 points (the share of a random hand), so a weak hand is not spent on a
  high-factor row: it is worth the points above that share.

**Search worlds** (:class:`CoiffeurWorlds`): the same worlds, with both sheets written, for the
policy-guided search (:mod:`agents.search.world_model`); its result is the declaration's row value
relative to the row's average.

Deterministic for a seed (:func:`agents.search.pimc.decision_generator`). ``time_limit`` (seconds
per decision) stops adding worlds once exceeded (at least one world is evaluated); ``last_worlds``
tells how many were. The compiled functions that play a world take the game's number first (a
compile-time constant: :mod:`jass_env.engine.hooks`); :func:`compiled_pimc` makes the searches of
one game for Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import ALL_CARDS, ROUND_POINTS, popcount
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.state import PHASE_CONTRACT, state_size
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action
from jass_env.games import make_rules
from jass_env.games.coiffeur import rules as coiffeur
from jass_env.games.coiffeur.observation import O_OPEN, O_PUSHES, O_ROW, O_SCHEDULE, O_VALUES, OBS_DIM
from jass_env.games.coiffeur.rules import MAX_ROWS, RP_CO_FACTOR
from jass_env.games.schieber.observation import O_PHASE, O_SCORE, O_STOECK, O_WEIS_POINTS
from jass_env.games.schieber.observation import OBS_DIM as SCHIEBER_OBS_DIM
from jass_env.games.schieber.rules import N_ACTIONS as SCHIEBER_ACTIONS

from ..base import Agent, checked_action
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.world_model import ActionLikelihood, WorldModel
from ..search.worlds import deal_unseen
from .schieber import (
    V_CONTRACT,
    V_FOREHAND,
    V_HAND,
    V_LEGAL,
    V_PHASE,
    build_world_state,
    card_sums,
    decode,
    graf_scores,
    heuristic_action,
    rollout,
    sample_world,
)

#: the whole deck (36-bit mask) and a hand's share of it
_DECK = (1 << 36) - 1
HAND_SHARE = 9 / 36
#: the view's phases while declaring (agents.bots.schieber.PHASE_NAMES: choosing, choosing after a push)
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
    p = state.to_move(st)
    team = p % 2
    partner_pushed = (coiffeur.pushers(st) >> ((p + 2) % 4)) & 1 == 1
    return planned_declaration(state.hand_of(st, p), coiffeur.legal_declarations(st, rp),
                               coiffeur.open_rows(st, team, rp), coiffeur.open_rows(st, 1 - team, rp) != 0,
                               partner_pushed, factors, average, cost, margin)


# planning tables
@lru_cache(maxsize=1)
def sample_row_values() -> np.ndarray:
    """``sigma_r(H)`` of the sample's hands (float64[4 x SAMPLE_DEALS, MAX_ROWS], by row id)."""
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
    n_masks = 1 << MAX_ROWS
    values = np.zeros((2, n_masks))            # V (opponents open), W (opponents full)
    cost = np.zeros((2, n_masks, MAX_ROWS))
    margin = np.zeros((3, n_masks))
    game_rows = sum(1 << r for r, f in enumerate(factors) if f > 0)
    masks = sorted((m for m in range(1, n_masks) if m & ~game_rows == 0 and bin(m).count("1") <= PLAN_ROWS),
                   key=lambda m: bin(m).count("1"))
    for m in masks:
        rows = [r for r in range(MAX_ROWS) if m >> r & 1]
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
    """The factor of each row id (int64[MAX_ROWS], 0 where the game has no such row)."""
    return np.asarray(rules.params[RP_CO_FACTOR:RP_CO_FACTOR + MAX_ROWS], dtype=np.int64)


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
        return int(planned_declaration(hand, legal, _mask_of(obs[O_OPEN:O_OPEN + MAX_ROWS]),
                                       _mask_of(obs[O_OPEN + MAX_ROWS:O_OPEN + 2 * MAX_ROWS]) != 0,
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
    zeros = np.zeros(MAX_ROWS)
    return int(plan_declaration(hand, legal, np.asarray(factors, dtype=np.int64), GRAF_AVERAGE, zeros, 0.0))

# PIMC
#: the play-out policy (the heuristic's; PIMC's own ``rollout`` parameter names it)
ROLLOUTS = ("heuristic",)
#: a row's average: its factor times this share of a deal's points
ROW_AVERAGE_SHARE = 0.5
PLAYERS = 4
HAND = 9


@njit(cache=True)
def card_world(v: np.ndarray, row: int, deal_game: int, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray,
               world: np.ndarray) -> None:
    """Write into ``world`` one sampled card-play world of the seat view ``v`` in a deal of ``row``
    and ``deal_game`` (0..9, :meth:`CoiffeurPIMC.game_of`): :func:`agents.bots.schieber.sample_world`'s
    hands (into ``hands``, int64[MAX_PLAYERS]), built by :func:`agents.bots.schieber.build_world_state`
    with the deal's row and game; the sheets are not part of it."""
    sample_world(v, rp, rng, hands)
    build_world_state(v, hands, rp, world)
    coiffeur.set_deal(world, row, deal_game)


@njit(cache=True)
def declaration_world(game: int, hand: int, filled: np.ndarray, dealer: int, pushes: int, rp: np.ndarray,
                      rng: np.ndarray, hands: np.ndarray, world: np.ndarray) -> None:
    """Write into ``world`` one deal in its declaration phase: the 27 cards I (player 0, ``hand``)
    do not hold dealt uniformly to the others (into ``hands``, int64[MAX_PLAYERS]), rebuilt from
    the public facts by :func:`jass_env.games.coiffeur.rules.set_world` (``filled`` the rows written
    per team, mine 0; the dealer; the pushes so far). ``game``: Coiffeur's number (a compile-time
    constant)."""
    hands[0] = hand
    deal_unseen(ALL_CARDS & ~hand, np.zeros(PLAYERS, dtype=np.int64), np.full(PLAYERS, HAND, dtype=np.int64),
                np.full(PLAYERS, ALL_CARDS, dtype=np.int64), PLAYERS, rng, hands)
    coiffeur.set_world(game, world, hands, dealer, filled, pushes, rp)


@njit(cache=True)
def card_worlds(game: int, v: np.ndarray, row: int, deal_game: int, rp: np.ndarray, size: int, n_worlds: int,
                rng: np.ndarray, sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds (states of ``size``) of the seat view ``v`` in a deal
    of ``row`` and ``deal_game`` (0..9, :meth:`CoiffeurPIMC.game_of`), each legal card's row value
    to ``sums[card]``. ``game``: Coiffeur's number (a compile-time constant)."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(size, dtype=np.int64)
    for _ in range(n_worlds):
        card_world(v, row, deal_game, rp, rng, hands, world)
        card_sums(game, world, v[V_LEGAL] & ALL_CARDS, rp, 0, rng, sums)


@njit(cache=True)
def declaration_worlds(game: int, hand: int, filled: np.ndarray, dealer: int, pushes: int,
                       options: np.ndarray, rp: np.ndarray, factors: np.ndarray, cost: np.ndarray,
                       margin: np.ndarray, average_row: np.ndarray, size: int, n_worlds: int, rng: np.ndarray,
                       sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` deals (states of ``size``) of the cards I (player 0, ``hand``) do not
    hold, each option's (``options[k]``, a declaration or the push) row value relative to the
    row's average (``average_row[r]`` by row id) to ``sums[k]``; ``filled`` the rows written per
    team (mine 0), ``cost`` / ``margin`` the heuristic's planning tables. ``game``: Coiffeur's
    number (a compile-time constant)."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(size, dtype=np.int64)
    st = np.zeros(size, dtype=np.int64)
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for _ in range(n_worlds):
        declaration_world(game, hand, filled, dealer, pushes, rp, rng, hands, world)
        for k in range(options.shape[0]):
            st[:] = world
            apply_action(game, st, options[k], rp)
            while state.phase(st) == PHASE_CONTRACT:
                apply_action(game, st, state_declaration(st, rp, factors, GRAF_AVERAGE, cost, margin), rp)
            row = coiffeur.declared_row(st)
            sign = 1 if state.declarer(st) % 2 == 0 else -1
            sums[k] += rollout(game, st, rp, 0, rng, known) - sign * average_row[row]


class Searches(NamedTuple):
    """The PIMC searches of one game for Python (:func:`compiled_pimc`)."""

    cards: object         #: :func:`card_worlds` without ``game``
    declarations: object  #: :func:`declaration_worlds` without ``game``


@cache
def compiled_pimc(game: int) -> Searches:
    """The searches of the game numbered ``game`` for Python, with that game's rules compiled in."""

    @njit(cache=True)
    def cards(v, row, deal_game, rp, size, n_worlds, rng, sums):  # noqa: ANN001, ANN202
        card_worlds(game, v, row, deal_game, rp, size, n_worlds, rng, sums)

    @njit(cache=True)
    def declarations(hand, filled, dealer, pushes, options, rp, factors, cost, margin,  # noqa: ANN001, ANN202
                     average_row, size, n_worlds, rng, sums):
        declaration_worlds(game, hand, filled, dealer, pushes, options, rp, factors, cost, margin,
                           average_row, size, n_worlds, rng, sums)

    return Searches(cards, declarations)


class CoiffeurPIMC(CoiffeurHeuristic):
    """Coiffeur PIMC (module docstring): ``worlds`` sampled worlds per decision, the heuristic as
    the play-out policy (``rollout`` "heuristic", the only one)."""

    def __init__(self, rules: str | Rules | None = "coiffeur", worlds: int = 10, rollout: str = "heuristic",
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(make_rules(rules), seed)
        if rollout not in ROLLOUTS:
            raise ValueError(f"Coiffeur PIMC plays out with rollout={' or '.join(ROLLOUTS)}, got {rollout!r}")
        self.worlds = check_search_params(worlds, time_limit)
        self.rollout = rollout
        self.time_limit = time_limit
        self.name = f"coiffeur-pimc{self.worlds}"
        self.average_row = self.factors * (ROUND_POINTS * ROW_AVERAGE_SHARE)
        self.rows = coiffeur.rows_mask(self.rp)
        self.last_worlds = 0   # worlds evaluated in the last searched decision
        self._searches = compiled_pimc(self.rules.spec.kind)
        self._size = state_size(self.rules.spec)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        mask = np.asarray(obs["action_mask"])
        legal = sum(1 << int(a) for a in np.flatnonzero(mask))
        if legal == 0:
            raise ValueError("no legal action in the action mask (the deal is over?)")
        if popcount(legal) == 1:
            return int(np.flatnonzero(mask)[0])
        o = np.asarray(obs["observation"])
        v = decode(o[:SCHIEBER_OBS_DIM], mask[:SCHIEBER_ACTIONS])
        rng = decision_generator(self.rng)
        if v[V_PHASE] == 2:
            row = int(np.argmax(o[O_ROW:O_ROW + MAX_ROWS]))
            game = self.game_of(row, int(v[V_CONTRACT]), bool(o[O_SCHEDULE] > 0.5))
            sums = np.zeros(36, dtype=np.int64)
            self.last_worlds = search_worlds(
                lambda k: self._searches.cards(v, row, game, self.rp, self._size, k, rng, sums),
                self.worlds, self.time_limit)
            best = max(np.flatnonzero(mask[:36]), key=lambda c: sums[c])       # ties: the lowest card
            return checked_action(int(best), legal, self.name)
        options = np.flatnonzero(mask).astype(np.int64)
        filled = np.array([self.rows & ~_mask_of(o[O_OPEN + MAX_ROWS * k:O_OPEN + MAX_ROWS * (k + 1)])
                           for k in range(2)], dtype=np.int64)
        dealer = (int(v[V_FOREHAND]) + PLAYERS - 1) % PLAYERS
        pushes = int(round(float(o[O_PUSHES:O_PUSHES + PLAYERS].sum())))
        sums = np.zeros(len(options))

        def step(k: int) -> None:
            self._searches.declarations(int(v[V_HAND]), filled, dealer, pushes, options, self.rp,
                                        self.factors, self.cost, self.margin, self.average_row, self._size, k,
                                        rng, sums)

        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)
        return checked_action(int(options[int(np.argmax(sums))]), legal, self.name)

    @staticmethod
    def game_of(row: int, contract: int, starts_undenufe: bool) -> int:
        """The deal's game (0..5 a contract, 6..9 Slalom / Guschti from O / U) from its row, the
        contract ranking the current trick and whether trick 1 is ranked Undenufe."""
        if row < coiffeur.N_CONTRACTS:
            return row
        if row < coiffeur.ROW_SLALOM:                  # a Joker row keeps its contract all deal
            return contract
        return coiffeur.CO_SLALOM_O + 2 * (row - coiffeur.ROW_SLALOM) + int(starts_undenufe)


# the policy-guided search's worlds
#: the Schieber phase slot of a card-play observation (choosing, choosing after a push, card play)
_O_CARD_PLAY = O_PHASE + 2


@njit(cache=True)
def card_world_states(v: np.ndarray, row: int, deal_game: int, filled: np.ndarray, values: np.ndarray,
                      rp: np.ndarray, rng: np.ndarray, states: np.ndarray) -> None:
    """Fill ``states`` (int64[n_worlds, state size]) with card-play worlds of the seat view ``v``
    (:func:`card_world`), each with both sheets written (``filled[t]`` the rows written per world
    team, mine 0; ``values[t, r]`` their values: :func:`jass_env.games.coiffeur.rules.write_sheets`)."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for w in range(states.shape[0]):
        card_world(v, row, deal_game, rp, rng, hands, states[w])
        coiffeur.write_sheets(states[w], filled, values)


@njit(cache=True)
def declaration_world_states(game: int, hand: int, filled: np.ndarray, values: np.ndarray, dealer: int,
                             pushes: int, rp: np.ndarray, rng: np.ndarray, states: np.ndarray) -> None:
    """Fill ``states`` (int64[n_worlds, state size]) with worlds at a declaration of mine
    (:func:`declaration_world`), each with both sheets written (as :func:`card_world_states`).
    ``game``: Coiffeur's number (a compile-time constant)."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for w in range(states.shape[0]):
        states[w, :] = 0
        declaration_world(game, hand, filled, dealer, pushes, rp, rng, hands, states[w])
        coiffeur.write_sheets(states[w], filled, values)


@njit(cache=True)
def copy_card_play_public(states: np.ndarray, root: np.ndarray, obs: np.ndarray) -> None:
    """Into the observation ``obs[i]`` (float32[B, OBS_DIM]) of the player to move in each unfinished
    card-play world ``states[i]``, the public features such a world leaves out, from my (player
    0's) real observation ``root``, turned to the acting seat's view: who pushed this deal, the
    Weis points and the shown Stöck (``coiffeur_weis``), and the round score (0 in card play:
    Coiffeur writes it when the row is written, a world built from a seat view holds the card
    points there)."""
    for i in range(states.shape[0]):
        st = states[i]
        if state.phase(st) == state.PHASE_OVER:
            continue
        p = state.to_move(st)
        o = obs[i]
        own = p % 2
        for k in range(2):
            t = (own + k) % 2
            o[O_WEIS_POINTS + k] = root[O_WEIS_POINTS + t]
            o[O_SCORE + k] = root[O_SCORE + t]
        for r in range(PLAYERS):
            o[O_PUSHES + r] = root[O_PUSHES + (p + r) % PLAYERS]
            o[O_STOECK + r] = root[O_STOECK + (p + r) % PLAYERS]


@njit(cache=True)
def row_results(states: np.ndarray, average_row: np.ndarray, out: np.ndarray) -> None:
    """``out[i]``: the row value above its average for player 0 in the finished world
    ``states[i]``: ``sign x (row score - average_row[row])``, sign +1 when player 0's team
    declared, -1 when the opponents did (:class:`CoiffeurWorlds`)."""
    for i in range(states.shape[0]):
        st = states[i]
        if state.phase(st) != state.PHASE_OVER:
            raise ValueError("a world's result is read once its deal is over")
        sign = 1 if state.declarer(st) % 2 == 0 else -1
        out[i] = state.score_of(st, 0) - state.score_of(st, 1) - sign * average_row[coiffeur.declared_row(st)]


class WorldKernels(NamedTuple):
    """The search's world builders of one game for Python (:func:`compiled_worlds`)."""

    cards: object         #: :func:`card_world_states`
    declarations: object  #: :func:`declaration_world_states` without ``game``


@cache
def compiled_worlds(game: int) -> WorldKernels:
    """The world builders of the game numbered ``game`` for Python, with that game's rules compiled in."""

    @njit(cache=True)
    def declarations(hand, filled, values, dealer, pushes, rp, rng, states):  # noqa: ANN001, ANN202
        declaration_world_states(game, hand, filled, values, dealer, pushes, rp, rng, states)

    return WorldKernels(card_world_states, declarations)


class CoiffeurWorlds(WorldModel):
    """Coiffeur's worlds for the policy-guided search (:mod:`agents.search.world_model`): card play
    and the declaration (a row or the push, the first choice or one after pushes), for
    ``coiffeur``, ``coiffeur6`` and ``coiffeur10``.

    * **Card play**: the PIMC's worlds (:func:`card_world`: :func:`agents.bots.schieber.sample_world`'s
      deals, each other seat as many cards as it holds, none of a suit it has shown void in, public
      Weis cards with their owner; the deal's row and game set), with both sheets written as the
      observation shows them (the rows written and their values, read back to the point from the
      observation's ``row_values``), so that the rollout policy sees the game's state. Such a world
      leaves out who pushed this deal, the Weis points, the shown Stöck (``coiffeur_weis``) and holds
      the card points as its round score: :meth:`encode` copies these from the real observation.
    * **Declaration**: the PIMC's worlds (:func:`declaration_world`: the 27 cards I do not hold
      dealt uniformly, the deal rebuilt from the public facts with the pushes so far), with both
      sheets written. These are complete: every feature of the observation comes from the world;
      after a push the later candidates decide by the rollout policy, and the Weis and Stöck are
      the world's own.

    The worlds are not weighted (``likelihood`` and ``oversample`` are not used: no inference
    from the pushes, as in the PIMC).

    **Result** (:meth:`results`): the default (side 0's round score) would be wrong here: only the
    declaring team writes, so in a deal the opponents declared side 0 scores 0 whatever the cards.
    A deal's share of the game's objective (the difference of the two sheet totals) is what it
    writes: my team's row value, or minus the opponents'. As the PIMC's declaration sees it, each
    row is valued **above its average** (its factor times half the deal's 157 points,
    :data:`ROW_AVERAGE_SHARE`): every row is written once in a game, so declaring a row spends it,
    and what this hand adds is what it writes beyond the share of a random hand; a weak hand is not
    spent on a high-factor row. So the result is ``sign x (row score - factor x 157 / 2)``, sign +1
    when my team declared, -1 when the opponents did. In card play the row is fixed and the average
    is the same for every card: the choice is the PIMC's (the row value). Weis and Stöck are left out
    of a card-play world's row (fixed by the deal, the same for every card).
    """

    def __init__(self, rules: Rules, likelihood: ActionLikelihood | None = None, oversample: int = 1) -> None:
        super().__init__(rules, likelihood, oversample)
        if self.rules.spec.bidding != "declaration":
            raise ValueError(f"Coiffeur's search worlds are for Coiffeur, not {self.rules.game}")
        self.factors = row_factors(self.rules)
        self.average_row = self.factors * (ROUND_POINTS * ROW_AVERAGE_SHARE)
        self.rows = coiffeur.rows_mask(self.rp)
        self._kernels = compiled_worlds(self.game.kind)

    def sheets(self, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Both sheets as the observation ``o`` shows them, by world team (mine 0): the rows written
        (int64[2] bitmasks) and their values (int64[2, MAX_ROWS], 0 where open)."""
        filled = np.zeros(2, dtype=np.int64)
        values = np.zeros((2, MAX_ROWS), dtype=np.int64)
        for k in range(2):
            filled[k] = self.rows & ~_mask_of(o[O_OPEN + MAX_ROWS * k:O_OPEN + MAX_ROWS * (k + 1)])
            written = [r for r in range(MAX_ROWS) if (filled[k] >> r) & 1]
            values[k, written] = np.rint(o[O_VALUES + MAX_ROWS * k + np.array(written, dtype=np.int64)]
                                         .astype(np.float64) * ROUND_POINTS * self.factors[written])
        return filled, values

    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        o = np.asarray(obs["observation"], dtype=np.float32)
        mask = np.asarray(obs["action_mask"])
        if o.shape != (OBS_DIM,) or mask.shape != (self.rules.spec.n_actions,):
            raise ValueError(f"a {self.rules.game} observation has {OBS_DIM} floats and "
                             f"{self.rules.spec.n_actions} actions, got shapes {o.shape} and {mask.shape}")
        if not mask.any():
            raise ValueError("no legal action in the action mask (the deal is over?)")
        v = decode(o[:SCHIEBER_OBS_DIM], mask[:SCHIEBER_ACTIONS])
        filled, values = self.sheets(o)
        states = np.zeros((n_worlds, self.size), dtype=np.int64)
        if v[V_PHASE] == 2:
            row = int(np.argmax(o[O_ROW:O_ROW + MAX_ROWS]))
            game = CoiffeurPIMC.game_of(row, int(v[V_CONTRACT]), bool(o[O_SCHEDULE] > 0.5))
            self._kernels.cards(v, row, game, filled, values, self.rp, rng, states)
        elif v[V_PHASE] in _DECLARING:
            dealer = (int(v[V_FOREHAND]) + PLAYERS - 1) % PLAYERS
            pushes = int(round(float(o[O_PUSHES:O_PUSHES + PLAYERS].sum())))
            self._kernels.declarations(int(v[V_HAND]), filled, values, dealer, pushes, self.rp, rng, states)
        else:
            return None
        return states, np.ones(n_worlds, dtype=np.int64)

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """The default encoding; in card-play worlds (``root`` a card-play observation) the public
        features they leave out copied from ``root`` (:func:`copy_card_play_public`)."""
        super().encode(states, root, obs, mask)
        if root[_O_CARD_PLAY] > 0.5:
            copy_card_play_public(states, np.asarray(root, dtype=np.float32), obs)

    def results(self, states: np.ndarray) -> np.ndarray:
        """The row value above its average for me (class docstring; the game's sign is +1)."""
        out = np.zeros(len(states), dtype=np.float64)
        row_results(states, self.average_row, out)
        return self.game.sign * out

__all__ = ["CoiffeurHeuristic", "CoiffeurPIMC", "GRAF_AVERAGE", "choose_declaration", "declaration_value",
           "graf_average", "plan_declaration", "plan_tables", "planned_declaration", "state_declaration",
           "sample_row_values", "row_factors", "surplus_of", "PLAN_ROWS", "card_worlds", "declaration_worlds",
           "compiled_pimc", "ROW_AVERAGE_SHARE", "ROLLOUTS", "card_world", "declaration_world",
           "card_world_states", "declaration_world_states", "copy_card_play_public", "row_results",
           "compiled_worlds", "WorldKernels", "CoiffeurWorlds"]
