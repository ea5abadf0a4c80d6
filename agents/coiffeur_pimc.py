"""PIMC for Coiffeur (``coiffeur``, ``coiffeur6``, ``coiffeur10``): card play and declaration.

Both decisions sample ``worlds`` deals of the cards the seat has not seen, try every legal action
in each, let the engine play the deal out (:func:`jass_env.core.apply_action`) with the Coiffeur
heuristic as every seat's policy (:mod:`agents.coiffeur`: its declaration, read from the world
state, and the Schieber card play of :func:`agents.pimc.rollout`, which ranks each trick by its
own direction), and pick the action with the best mean value. The engine writes the row (factor,
Match, Kontermatsch, the Slalom and Guschti schedules); a world's *row value* for me is the
declaring team's row score if my team declares, minus it if the opponents do.

* **Card play** (more than one legal card): the worlds are :func:`agents.pimc.sample_world`'s
  (each other seat as many cards as it holds, none of a suit it has shown void in, public Weis
  cards with their owner), built by :func:`agents.pimc.build_world_state` with the deal's row and
  game (:func:`jass_env.core.set_coiffeur_deal`); the value is the row value. Weis and Stöck
  (``coiffeur_weis = "except_joker"``) are left out of the worlds, as in Schieber's PIMC.
* **Declaration** (more than one legal action): the 27 cards I do not hold are dealt uniformly to
  the others (a declaration has shown nothing yet), the deal rebuilt from the public facts (both
  sheets' written rows, the dealer, the pushes so far: :func:`jass_env.core.set_coiffeur_world`);
  after a push the later candidates declare by the heuristic. The value maximized is the row value
  **relative to the row's average**: ``sign x (row score - factor x ROUND_POINTS / 2)`` with sign
  +1 when my team declares, -1 when the opponents do. A row's average is taken as its factor times
  half the deal's 157 points (the share of a random hand), so a weak hand is not spent on a
  high-factor row: it is worth the points above that share.

Deterministic for a seed: each decision draws one 32-bit seed from ``self.rng`` for the compiled
generator. ``time_limit`` (seconds per decision) stops adding worlds once exceeded (at least one
world is evaluated); ``last_worlds`` tells how many were.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from jass_env import coiffeur, core, kernel
from jass_env.kernel import ALL_CARDS, CO_MAX_ROWS, PHASE_CONTRACT, popcount
from jass_env.observation import OBS_DIM as SCHIEBER_OBS_DIM
from jass_env.observation_coiffeur import O_OPEN, O_PUSHES, O_ROW, O_SCHEDULE
from jass_env.rules import Rules, make_rules
from jass_env.schieber import N_ACTIONS as SCHIEBER_ACTIONS
from jass_env.spec import MAX_PLAYERS, ROUND_POINTS

from .base import checked_action
from .coiffeur import GRAF_AVERAGE, CoiffeurHeuristic, state_declaration
from .pimc import (
    STATE_SIZE,
    build_world_state,
    card_sums,
    check_search_params,
    rollout,
    sample_world,
    search_worlds,
)
from .view import V_CONTRACT, V_FOREHAND, V_HAND, V_LEGAL, V_PHASE, decode
from .worlds import deal_unseen

#: the play-out policy (the heuristic's; PIMC's own ``rollout`` parameter names it)
ROLLOUTS = ("heuristic",)
#: a row's average: its factor times this share of a deal's points
ROW_AVERAGE_SHARE = 0.5
PLAYERS = 4
HAND = 9


@njit(cache=True)
def card_worlds(v: np.ndarray, row: int, game: int, rp: np.ndarray, n_worlds: int, rng: np.ndarray,
                sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds of the seat view ``v`` in a deal of ``row`` and
    ``game``, each legal card's row value to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    for _ in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world_state(v, hands, rp, world)
        core.set_coiffeur_deal(world, row, game)
        card_sums(world, v[V_LEGAL] & ALL_CARDS, rp, 0, rng, sums)


@njit(cache=True)
def declaration_worlds(hand: int, filled: np.ndarray, dealer: int, pushes: int, options: np.ndarray,
                       rp: np.ndarray, factors: np.ndarray, cost: np.ndarray, margin: np.ndarray,
                       average_row: np.ndarray, n_worlds: int, rng: np.ndarray, sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` deals of the cards I (player 0, ``hand``) do not hold, each option's
    (``options[k]``, a declaration or the push) row value relative to the row's average
    (``average_row[r]`` by row id) to ``sums[k]``; ``filled`` the rows written per team (mine 0),
    ``cost`` / ``margin`` the heuristic's planning tables."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    fixed = np.zeros(PLAYERS, dtype=np.int64)
    need = np.full(PLAYERS, HAND, dtype=np.int64)
    allowed = np.full(PLAYERS, ALL_CARDS, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for _ in range(n_worlds):
        hands[0] = hand
        deal_unseen(ALL_CARDS & ~hand, fixed, need, allowed, PLAYERS, rng, hands)
        core.set_coiffeur_world(world, hands, dealer, filled, pushes, rp)
        for k in range(options.shape[0]):
            st[:] = world
            core.apply_action(st, options[k], rp)
            while kernel.phase(st) == PHASE_CONTRACT:
                core.apply_action(st, state_declaration(st, rp, factors, GRAF_AVERAGE, cost, margin), rp)
            row = kernel.co_row(st)
            sign = 1 if kernel.declarer(st) % 2 == 0 else -1
            sums[k] += rollout(st, rp, 0, rng, known) - sign * average_row[row]


def _mask_of(bits: np.ndarray) -> int:
    return sum(1 << int(r) for r in np.flatnonzero(np.asarray(bits) > 0.5))


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

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        mask = np.asarray(obs["action_mask"])
        legal = sum(1 << int(a) for a in np.flatnonzero(mask))
        if legal == 0:
            raise ValueError("no legal action in the action mask (the deal is over?)")
        if popcount(legal) == 1:
            return int(np.flatnonzero(mask)[0])
        o = np.asarray(obs["observation"])
        v = decode(o[:SCHIEBER_OBS_DIM], mask[:SCHIEBER_ACTIONS])
        rng = np.array([int(self.rng.integers(1, 2**32 - 1))], dtype=np.int64)
        if v[V_PHASE] == 2:
            row = int(np.argmax(o[O_ROW:O_ROW + CO_MAX_ROWS]))
            game = self.game_of(row, int(v[V_CONTRACT]), bool(o[O_SCHEDULE] > 0.5))
            sums = np.zeros(36, dtype=np.int64)
            self.last_worlds = search_worlds(lambda k: card_worlds(v, row, game, self.rp, k, rng, sums),
                                             self.worlds, self.time_limit)
            best = max(np.flatnonzero(mask[:36]), key=lambda c: sums[c])       # ties: the lowest card
            return checked_action(int(best), legal, self.name)
        options = np.flatnonzero(mask).astype(np.int64)
        filled = np.array([self.rows & ~_mask_of(o[O_OPEN + CO_MAX_ROWS * k:O_OPEN + CO_MAX_ROWS * (k + 1)])
                           for k in range(2)], dtype=np.int64)
        dealer = (int(v[V_FOREHAND]) + PLAYERS - 1) % PLAYERS
        pushes = int(round(float(o[O_PUSHES:O_PUSHES + PLAYERS].sum())))
        sums = np.zeros(len(options))

        def step(k: int) -> None:
            declaration_worlds(int(v[V_HAND]), filled, dealer, pushes, options, self.rp, self.factors,
                               self.cost, self.margin, self.average_row, k, rng, sums)

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


__all__ = ["CoiffeurPIMC", "card_worlds", "declaration_worlds", "ROW_AVERAGE_SHARE", "ROLLOUTS"]
