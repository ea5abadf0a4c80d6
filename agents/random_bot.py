"""Uniformly random legal actions (rung L0 of the baseline ladder), in every game of the family.

Cards, contracts and push are drawn uniformly among the legal ones. A Differenzler prediction is
not drawn (a uniform 0..157 would be a straw man) but the rule of thumb
:func:`rule_of_thumb_prediction`: 2 × the card points of the own trump cards + 11 per side Ace.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from jass_env.kernel import card_points
from jass_env.rules import Rules, make_rules
from jass_env.spec import ROUND_POINTS

from .base import Agent
from .differenzler_view import DV_HAND, DV_TRUMP, ViewDecoder, may_predict, prediction_action

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


class RandomAgent(Agent):
    """Plays a uniformly random legal action (contracts and push included), drawn from ``self.rng``;
    in Differenzler (``rules`` a Differenzler game) it predicts by the rule of thumb.

    ``reset(seed)`` reseeds, so a deal replayed with the same seed is played the same way.
    """

    name = "random"

    def __init__(self, seed: int | None = None, rules: str | Rules | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules) if rules is not None else None
        self._decode = None
        if self.rules is not None and self.rules.spec.bidding == "prediction":
            self._decode = ViewDecoder(self.rules)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        if "action_mask" not in obs:
            raise ValueError(f"the observation dict needs an 'action_mask' key, got {sorted(obs)}")
        mask = np.asarray(obs["action_mask"])
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        if may_predict(mask):
            return self._predict(obs)
        return int(legal[self.rng.integers(legal.size)])

    def _predict(self, obs: Mapping[str, np.ndarray]) -> int:
        if self._decode is None:
            raise ValueError("a Differenzler prediction needs the rules: RandomAgent(rules='differenzler') "
                             "or make_agent('random', 'differenzler')")
        v = self._decode(obs)
        points = rule_of_thumb_prediction(int(v[DV_HAND]), int(v[DV_TRUMP]), self.rules.params)
        return prediction_action(points)


__all__ = ["RandomAgent", "rule_of_thumb_prediction"]
