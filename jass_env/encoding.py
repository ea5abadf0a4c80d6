"""The observation and action layout of each game, picked by the rules: one entry point for the
environments.

:mod:`jass_env.observation` encodes Schieber (version 1, 529 floats) and Schieber for six
(:mod:`jass_env.observation_schieber6`, 758),
:mod:`jass_env.observation_differenzler` both Differenzler games, :mod:`jass_env.observation_coiffeur`
the Coiffeur games (598), :mod:`jass_env.observation_discard` Mittlere and Molotow,
:mod:`jass_env.observation_sidi` Sidi-Jass for two (443); the compiled
:func:`encode_observation` and :func:`encode_state` here branch on the game of ``rp`` (the
:meth:`jass_env.rules.Rules.params` array), so the AEC and the batched environments call one
function for every game. :func:`obs_dim`, :func:`state_dim` and :func:`observation_bounds` give the
sizes and Box bounds for a :class:`~jass_env.rules.Rules`; :func:`mask_array` and
:func:`legal_actions_text` turn a legal set (one Python int, bit a = action a) into a mask and
into the list that every illegal-action error shows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import (
    observation,
    observation_coiffeur,
    observation_differenzler,
    observation_discard,
    observation_schieber6,
    observation_sidi,  # ---- Sidi
)
from .rules import RP_KIND, Rules
from .spec import KIND_COIFFEUR, KIND_DIFFERENZLER, KIND_SCHIEBER, KIND_SIDI


@njit(cache=True, inline="always")
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """The observation of player ``observer`` in the game of ``rp`` into ``out`` (float32)."""
    kind = rp[RP_KIND]
    if kind == KIND_SCHIEBER:
        observation.encode_observation(st, observer, rp, out)
    elif kind == KIND_COIFFEUR:            # ---- Coiffeur (issue 15)
        observation_coiffeur.encode_observation(st, observer, rp, out)
    elif kind == KIND_DIFFERENZLER:
        observation_differenzler.encode_observation(st, observer, rp, out)
    elif kind == KIND_SIDI:                # ---- Sidi
        observation_sidi.encode_observation(st, observer, rp, out)
    else:                                             # Mittlere, Molotow
        observation_discard.encode_observation(st, observer, rp, out)


@njit(cache=True, inline="always")
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """The full-information state from ``observer``'s seat in the game of ``rp`` into ``out``."""
    kind = rp[RP_KIND]
    if kind == KIND_SCHIEBER:
        observation.encode_state(st, observer, rp, out)
    elif kind == KIND_COIFFEUR:            # ---- Coiffeur (issue 15)
        observation_coiffeur.encode_state(st, observer, rp, out)
    elif kind == KIND_DIFFERENZLER:
        observation_differenzler.encode_state(st, observer, rp, out)
    elif kind == KIND_SIDI:                # ---- Sidi
        observation_sidi.encode_state(st, observer, rp, out)
    else:                                             # Mittlere, Molotow
        observation_discard.encode_state(st, observer, rp, out)


def _module(rules: Rules):  # noqa: ANN202 (one of the observation modules)
    """The observation module of a non-Schieber game."""
    if rules.spec.kind == KIND_SIDI:              # ---- Sidi
        return observation_sidi
    return observation_differenzler if rules.spec.kind == KIND_DIFFERENZLER else observation_discard


def _schieber_layout(rules: Rules):  # noqa: ANN202 (observation or observation_schieber6)
    """The layout module of a Schieber game: Schieber's, or (six players) Schieber for six's; one
    compiled encoder writes both."""
    six = rules.spec.players == observation_schieber6.PLAYERS
    return observation_schieber6 if six else observation


def obs_version(rules: Rules) -> int:
    """The version of the observation layout of the game of ``rules`` (bumped on any change)."""
    if rules.spec.kind == KIND_SCHIEBER:
        return _schieber_layout(rules).OBS_VERSION
    if rules.spec.kind == KIND_COIFFEUR:
        return observation_coiffeur.OBS_VERSION
    return _module(rules).OBS_VERSION


def obs_dim(rules: Rules) -> int:
    if rules.spec.kind == KIND_SCHIEBER:
        return _schieber_layout(rules).OBS_DIM
    if rules.spec.kind == KIND_COIFFEUR:          # ---- Coiffeur (issue 15)
        return observation_coiffeur.OBS_DIM
    return _module(rules).obs_dim(rules.spec)


def state_dim(rules: Rules) -> int:
    if rules.spec.kind == KIND_SCHIEBER:
        return _schieber_layout(rules).STATE_DIM
    if rules.spec.kind == KIND_COIFFEUR:          # ---- Coiffeur (issue 15)
        return observation_coiffeur.STATE_DIM
    return _module(rules).state_dim(rules.spec)


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length :func:`obs_dim` that hold every observation."""
    if rules.spec.kind == KIND_SCHIEBER:
        return np.zeros(obs_dim(rules), dtype=np.float32), observation.observation_high(rules)
    if rules.spec.kind == KIND_COIFFEUR:          # ---- Coiffeur (issue 15)
        return observation_coiffeur.observation_bounds(rules)
    return _module(rules).observation_bounds(rules.spec)


def state_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length :func:`state_dim`: the observation's bounds, then
    [0, 1] for the hidden part (hands, predictions)."""
    low, high = observation_bounds(rules)
    extra = state_dim(rules) - obs_dim(rules)
    return (np.concatenate([low, np.zeros(extra, dtype=np.float32)]),
            np.concatenate([high, np.ones(extra, dtype=np.float32)]))


#: runs of consecutive legal actions longer than this (Differenzler's 158 predictions) are shown
#: as "first … last"; no hand (at most 12 cards) makes a longer run of cards
RUN_SHOWN = 12


def mask_array(legal: int, n_actions: int) -> np.ndarray:
    """bool[n_actions]: bit a of the Python int ``legal`` at index a."""
    raw = np.frombuffer(int(legal).to_bytes((n_actions + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n_actions].astype(bool)


def legal_actions_text(legal: int, names: tuple[str, ...]) -> str:
    """The legal actions of ``legal`` (bit a = action a) as "name (id), ...", long runs shortened
    ("predict 0 (36) … predict 157 (193)"); "none" for the empty set."""
    ids = [a for a in range(len(names)) if (legal >> a) & 1]
    parts: list[str] = []
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        if j - i + 1 > RUN_SHOWN:
            parts.append(f"{names[ids[i]]} ({ids[i]}) … {names[ids[j]]} ({ids[j]})")
        else:
            parts.extend(f"{names[a]} ({a})" for a in ids[i:j + 1])
        i = j + 1
    return ", ".join(parts) or "none"


__all__ = ["mask_array", "legal_actions_text", "encode_observation", "encode_state", "obs_version", "obs_dim",
           "state_dim", "observation_bounds", "state_bounds"]
