"""Uniformly random legal actions (rung L0 of the baseline ladder)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action (contracts and push included), drawn from ``self.rng``.

    ``reset(seed)`` reseeds, so a deal replayed with the same seed is played the same way.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        if "action_mask" not in obs:
            raise ValueError(f"the observation dict needs an 'action_mask' key, got {sorted(obs)}")
        legal = np.flatnonzero(np.asarray(obs["action_mask"]))
        if legal.size == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        return int(legal[self.rng.integers(legal.size)])


__all__ = ["RandomAgent"]
