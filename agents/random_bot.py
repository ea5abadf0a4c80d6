"""Uniformly random legal actions (rung L0 of the baseline ladder), in every game of the family.

Cards, contracts and push are drawn uniformly among the legal ones. A game whose phase actions a
uniform draw would play badly (a Differenzler prediction: a uniform 0..157 would be a straw man)
names how the random bot plays them: a :class:`PhaseRule` in its ``BOTS`` fact under the key
:data:`PHASE_RULE` (``"module:NAME"``, imported only when that game is played).

The project's one random bot: :func:`random_actions` decides a batch of observations (the
trainer's random opponents and evaluations), :class:`RandomAgent` one observation through it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import NamedTuple

import numpy as np

from jass_env.engine.switches import Rules
from jass_env.games import REGISTRY, game_of, make_rules

from .base import Agent

#: the key of a game's ``BOTS`` fact that names its :class:`PhaseRule`
PHASE_RULE = "random_phase"


class PhaseRule(NamedTuple):
    """How the random bot plays a game's phase actions instead of drawing them uniformly."""

    #: what the phase action is, for messages ("prediction")
    what: str
    #: masks (N, n_actions) -> (N,) bool: the rows the rule decides, from the masks alone
    rows: Callable[[np.ndarray], np.ndarray]
    #: (observations (k, obs_dim), masks (k, n_actions), rules) -> (k,) int64 actions of those rows
    actions: Callable[[np.ndarray, np.ndarray, Rules], np.ndarray]


@cache
def _phase_rule(game: str) -> PhaseRule | None:
    """The :class:`PhaseRule` of the game named ``game`` (its ``BOTS`` fact), None when it has none."""
    path = REGISTRY[game].bots.get(PHASE_RULE)
    if path is None:
        return None
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def random_actions(obs: np.ndarray, mask: np.ndarray, rules: Rules | None,
                   rng: np.random.Generator) -> np.ndarray:
    """The random bot's action for each row of a batch: a uniformly random legal action, except
    the rows the game's :class:`PhaseRule` decides (a Differenzler seat about to predict).

    obs: (N, obs_dim) float32 observations; mask: (N, n_actions) bool/0-1 legal actions (every row
    needs one); rules: the game's (None: Schieber); rng: draws one uniform number per action of
    every row. Returns (N,) int64 actions. ValueError for a row without a legal action.
    """
    mask = np.asarray(mask).astype(bool)
    empty = np.flatnonzero(~mask.any(axis=1))
    if empty.size:
        raise ValueError(f"no legal action in the action mask of row {int(empty[0])} (the round is over?)")
    noise = rng.random(mask.shape)
    actions = np.argmax(np.where(mask, noise, -1.0), axis=1).astype(np.int64)
    rule = _phase_rule(game_of(rules).name) if rules is not None else None
    if rule is not None:
        rows = np.flatnonzero(rule.rows(mask))
        if rows.size:
            actions[rows] = rule.actions(np.asarray(obs)[rows], mask[rows], rules)
    return actions


def check_random_opponents(fraction: float) -> float:
    """``fraction`` (the share of training rounds with random opponents) if it is from 0 to 1;
    ValueError otherwise (NaN included)."""
    if not 0.0 <= fraction <= 1.0:  # also rejects NaN
        raise ValueError(f"random_opponents is the fraction of rounds with random opponents, "
                         f"a number from 0 to 1; got {fraction}")
    return fraction


def draw_random_team(rng: np.random.Generator, fraction: float, seats: Sequence[str]) -> frozenset[str]:
    """The seats the random bot plays in one training round of a two-team game (teams by seat
    parity, as in Schieber): with probability ``fraction`` one team, each team with probability
    1/2, else none (self-play). Draws one uniform number, and one integer when a team is drawn."""
    if rng.random() >= fraction:
        return frozenset()
    learners = int(rng.integers(2))
    return frozenset(a for s, a in enumerate(seats) if s % 2 != learners)


class RandomAgent(Agent):
    """Plays a uniformly random legal action (contracts and push included), drawn from ``self.rng``;
    a game's phase actions as its :class:`PhaseRule` says (``rules`` that game's: in Differenzler
    it predicts by the rule of thumb).

    ``reset(seed)`` reseeds, so a deal replayed with the same seed is played the same way.
    """

    name = "random"

    def __init__(self, seed: int | None = None, rules: str | Rules | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules) if rules is not None else None

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        if "action_mask" not in obs:
            raise ValueError(f"the observation dict needs an 'action_mask' key, got {sorted(obs)}")
        mask = np.asarray(obs["action_mask"])
        if self.rules is None:
            _refuse_phase_actions(mask[None])
        x = np.asarray(obs.get("observation", np.zeros(0, dtype=np.float32)), dtype=np.float32)
        return int(random_actions(x[None], mask[None], self.rules, self.rng)[0])


def _refuse_phase_actions(masks: np.ndarray) -> None:
    """ValueError when a game's :class:`PhaseRule` would decide one of ``masks`` (N, n_actions):
    without the rules the random bot cannot play it."""
    for game in REGISTRY.values():
        rule = _phase_rule(game.name)
        if rule is not None and rule.rows(masks).any():
            raise ValueError(f"a {game.title} {rule.what} needs the rules: RandomAgent(rules={game.name!r}) "
                             f"or make_agent('random', {game.name!r})")


__all__ = ["RandomAgent", "PhaseRule", "PHASE_RULE", "check_random_opponents", "draw_random_team",
           "random_actions"]
