"""Coiffeur's heuristic bot: declare the row with the largest expected surplus, play cards as the
Schieber heuristic.

Declaration (:func:`choose_declaration`): a hand's strength in a contract is Graf's score
(:func:`agents.heuristic.graf_scores`, the Schieber heuristic's contract tables); a row's
*average* is the expected Graf score of a random 9-card hand in that contract
(:func:`graf_average`: 9/36 of the score of the whole deck, exact). Each legal declaration is
worth ``factor x (score - average)`` of its row and contract (a Joker row with each of the six
contracts, so it takes the hand's best one; Slalom and Guschti with the Obenabe or Undenufe score
of their starting direction). The bot declares the best; when even the best does not pay (<= 0)
and the push is legal it pushes, and when it must declare it takes the best (so a bad hand goes
to a low factor). Card play is :func:`agents.heuristic.heuristic_action` on the Schieber part of
the observation (:mod:`jass_env.observation_coiffeur` begins with Schieber's layout; the
contract there is the one ranking the current trick).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from jass_env import coiffeur
from jass_env.observation import OBS_DIM as SCHIEBER_OBS_DIM
from jass_env.rules import Rules, make_rules
from jass_env.schieber import N_ACTIONS as SCHIEBER_ACTIONS
from jass_env.spec import COIFFEUR_ROW_LABELS

from .base import Agent, checked_action
from .heuristic import graf_scores, heuristic_action
from .view import V_HAND, V_LEGAL, V_PHASE, decode

#: the whole deck (36-bit mask) and a hand's share of it
_DECK = (1 << 36) - 1
HAND_SHARE = 9 / 36
#: the view's phases while declaring (agents.view.PHASE_NAMES: choosing, choosing after a push)
_DECLARING = (0, 1)


def graf_average() -> np.ndarray:
    """The expected Graf score of a random 9-card hand in each contract 0..5 (float[6])."""
    whole = np.zeros(6, dtype=np.int64)
    graf_scores(_DECK, whole)
    return whole * HAND_SHARE


_AVERAGE = graf_average()


def declaration_value(action: int, surplus: np.ndarray, factors: np.ndarray) -> float:
    """``factor x surplus`` of a declaration action (36..58 but the push)."""
    game = int(coiffeur.game_of_action(action))
    if game >= coiffeur.N_CONTRACTS:                   # Slalom / Guschti: the starting direction
        game = int(coiffeur.trick_direction(game, 0))
    return float(factors[int(coiffeur.row_of_action(action))] * surplus[game])


def choose_declaration(hand: int, legal: int, factors: np.ndarray) -> int:
    """The declaration (or push) for ``hand`` (36-bit mask) among the ``legal`` actions (bit a =
    action a); ``factors[r]`` = the factor of row id r (0 where the game has no such row)."""
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(hand, scores)
    surplus = scores - _AVERAGE
    best, best_value = -1, -np.inf
    for a in range(coiffeur.DECLARE_OFFSET, coiffeur.SPECIAL_OFFSET + 4):
        if a != coiffeur.PUSH and legal >> a & 1:
            value = declaration_value(a, surplus, factors)
            if value > best_value:
                best, best_value = a, value
    if legal >> coiffeur.PUSH & 1 and (best < 0 or best_value <= 0):
        return coiffeur.PUSH
    return best


class CoiffeurHeuristic(Agent):
    """The Coiffeur heuristic (see the module docstring). Deterministic; ``seed`` is unused."""

    name = "heuristic"

    def __init__(self, rules: str | Rules | None = "coiffeur", seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        if self.rules.spec.bidding != "declaration":
            raise ValueError(f"the Coiffeur heuristic plays Coiffeur, not {self.rules.game}")
        self.rp = self.rules.params
        self.factors = np.zeros(len(COIFFEUR_ROW_LABELS), dtype=np.int64)
        for label, f in zip(self.rules.spec.rows, self.rules.row_factors, strict=True):
            self.factors[COIFFEUR_ROW_LABELS.index(label)] = f

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        mask = np.asarray(obs["action_mask"])
        legal = sum(1 << int(a) for a in np.flatnonzero(mask))
        if legal == 0:
            raise ValueError("no legal action in the action mask (the deal is over?)")
        # the Schieber part: the first 529 floats, the first 43 actions (cards, rows D..U, push)
        v = decode(np.asarray(obs["observation"])[:SCHIEBER_OBS_DIM], mask[:SCHIEBER_ACTIONS])
        if v[V_PHASE] in _DECLARING:
            return checked_action(choose_declaration(int(v[V_HAND]), legal, self.factors), legal, self.name)
        return checked_action(int(heuristic_action(v, self.rp)), int(v[V_LEGAL]), self.name)


__all__ = ["CoiffeurHeuristic", "choose_declaration", "declaration_value", "graf_average"]
