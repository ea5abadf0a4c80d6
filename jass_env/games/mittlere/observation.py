"""Mittlere's observation: the layout of the games of trump by the first discard
(:mod:`jass_env.games._first_discard.observation`); its Weis and Stöck slices stay 0 (Mittlere has
neither)."""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine.switches import Rules

from .._first_discard import observation as layout
from .._first_discard.observation import OBS_VERSION, obs_dim, obs_slices, observation_slice, state_dim

#: the Weis and Stöck slices are written
WITH_WEIS = False


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length ``obs_dim(spec)``."""
    return layout.observation_bounds(rules.spec)


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, at least obs_dim)."""
    layout.encode_observation(st, observer, rp, out, WITH_WEIS)


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic: the observation, then every current hand."""
    layout.encode_state(st, observer, rp, out, WITH_WEIS)


__all__ = ["OBS_VERSION", "obs_slices", "obs_dim", "state_dim", "observation_bounds", "observation_slice",
           "encode_observation", "encode_state"]
