"""The observation and action layout of each game, from its observation module (the registry's):
sizes, versions, bounds, and the legal set as a mask.

Each game's ``observation.py`` (:mod:`jass_env.games.base`) encodes its observation;
:func:`obs_dim`, :func:`state_dim` and :func:`observation_bounds` give the sizes and Box bounds
for a :class:`~jass_env.engine.switches.Rules`; :func:`mask_array` turns a legal set (one Python
int, bit a = action a) into a mask. The compiled encoders are reached through the engine's hooks
(:func:`jass_env.engine.hooks.encode_observation`).
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.switches import Rules
from jass_env.games import game_of
from jass_env.round import legal_actions_text


def obs_version(rules: Rules) -> int:
    """The version of the observation layout of the game of ``rules`` (bumped on any change)."""
    return game_of(rules).observation.OBS_VERSION


def obs_dim(rules: Rules) -> int:
    return game_of(rules).observation.obs_dim(rules.spec)


def state_dim(rules: Rules) -> int:
    return game_of(rules).observation.state_dim(rules.spec)


def obs_slices(rules: Rules) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice of the observation of the game of ``rules``."""
    return game_of(rules).observation.obs_slices(rules.spec)


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length :func:`obs_dim` that hold every observation."""
    return game_of(rules).observation.observation_bounds(rules)


def state_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length :func:`state_dim`: the observation's bounds, then
    [0, 1] for the hidden part (hands, predictions)."""
    low, high = observation_bounds(rules)
    extra = state_dim(rules) - obs_dim(rules)
    return (np.concatenate([low, np.zeros(extra, dtype=np.float32)]),
            np.concatenate([high, np.ones(extra, dtype=np.float32)]))


def mask_array(legal: int, n_actions: int) -> np.ndarray:
    """bool[n_actions]: bit a of the Python int ``legal`` at index a."""
    raw = np.frombuffer(int(legal).to_bytes((n_actions + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n_actions].astype(bool)


__all__ = ["mask_array", "legal_actions_text", "obs_version", "obs_dim", "state_dim", "obs_slices",
           "observation_bounds", "state_bounds"]
