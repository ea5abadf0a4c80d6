"""Zwei's rule-based bot: name the longest suit trump, then play the strongest legal card."""

from __future__ import annotations

import numpy as np

from agents.base import Agent, Observation
from jass_env.engine.switches import Rules

from .rules import NAME_OFFSET


class ZweiHeuristic(Agent):
    """Names its longest suit; plays the legal card of the highest id rank (the ace first)."""

    name = "heuristic"

    def __init__(self, rules: Rules, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = rules

    def act(self, obs: Observation) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        if legal[0] >= NAME_OFFSET:                        # naming trump: the suit I hold most of
            hand = np.asarray(obs["observation"][:36]).reshape(4, 9).sum(axis=1)
            return int(max(legal, key=lambda a: hand[a - NAME_OFFSET]))
        return int(min(legal, key=lambda c: c % 9))        # rank offset 0 is the ace
