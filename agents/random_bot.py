"""Uniformly random legal actions (rung L0 of the baseline ladder), in every game of the family.

Cards, contracts and push are drawn uniformly among the legal ones. A Differenzler prediction is
not drawn (a uniform 0..157 would be a straw man) but the rule of thumb
:func:`rule_of_thumb_prediction`: 2 × the card points of the own trump cards + 11 per side Ace.

The project's one random bot: :func:`random_actions` decides a batch of observations (the
trainer's random opponents and evaluations), :class:`RandomAgent` one observation through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from jass_env.kernel import card_points
from jass_env.rules import Rules, make_rules
from jass_env.spec import ROUND_POINTS

from .base import Agent
from .differenzler_view import DV_HAND, DV_TRUMP, ViewDecoder, predicting, prediction_action

#: the rule of thumb: each trump card point counts twice, each side (non-trump) Ace 11
TRUMP_POINT_WEIGHT = 2
SIDE_ACE_POINTS = 11
ACE = 0        # rank offset of the Ace within a suit (jass_env.cards)


def rule_of_thumb_prediction(hand: int, trump: int, rp: np.ndarray) -> int:
    """2 × the card points of the trump cards in ``hand`` (36-bit mask) + 11 per side Ace,
    clipped to 0..157."""
    cards = [c for c in range(36) if hand >> c & 1]
    trump_points = sum(int(card_points(c, trump, rp)) for c in cards if c // 9 == trump)
    side_aces = sum(1 for c in cards if c // 9 != trump and c % 9 == ACE)
    return min(max(TRUMP_POINT_WEIGHT * trump_points + SIDE_ACE_POINTS * side_aces, 0), ROUND_POINTS)


def random_actions(obs: np.ndarray, mask: np.ndarray, rules: Rules | None,
                   rng: np.random.Generator) -> np.ndarray:
    """The random bot's action for each row of a batch: a uniformly random legal action, except
    that a Differenzler seat about to predict predicts by the rule of thumb.

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
    if rules is not None and rules.spec.bidding == "prediction":
        decode = ViewDecoder(rules)
        for i in np.flatnonzero(predicting(mask)):
            view = decode({"observation": obs[i], "action_mask": mask[i]})
            actions[i] = prediction_action(rule_of_thumb_prediction(int(view[DV_HAND]), int(view[DV_TRUMP]),
                                                                    rules.params))
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
    in Differenzler (``rules`` a Differenzler game) it predicts by the rule of thumb.

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
        if self.rules is None and predicting(mask[None])[0]:
            raise ValueError("a Differenzler prediction needs the rules: RandomAgent(rules='differenzler') "
                             "or make_agent('random', 'differenzler')")
        x = np.asarray(obs.get("observation", np.zeros(0, dtype=np.float32)), dtype=np.float32)
        return int(random_actions(x[None], mask[None], self.rules, self.rng)[0])


__all__ = ["RandomAgent", "check_random_opponents", "draw_random_team", "random_actions",
           "rule_of_thumb_prediction"]
