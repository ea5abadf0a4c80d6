"""The one agent interface shared by the AEC environment, the Gymnasium wrapper and evaluation.

An agent sees exactly what its seat may know: its game's observation vector
(:mod:`jass_env.envs.encoding`: own hand and the public history, never other hands) and the
legal-action mask. It returns one legal action id (``0..n_actions-1``, the game's action list).

    obs = {"observation": float32[obs_dim], "action_mask": int8 or bool[n_actions]}
    action = agent.act(obs)

``reset(seed)`` is called before every deal; an agent that draws random numbers takes them from a
generator seeded there, so a deal replayed with the same seed is played the same way (duplicate
evaluation relies on this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from jass_env.envs.checks import check_seed

Observation = Mapping[str, np.ndarray]


class Agent:
    """Base class: subclasses implement :meth:`act`; ``name`` identifies them in reports."""

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        check_seed(seed)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new deal; reseed the agent's generator when a seed is given (a non-negative
        integer, as the environments take; ValueError otherwise, the generator kept)."""
        if seed is not None:
            check_seed(seed)
            self.rng = np.random.default_rng(seed)

    def act(self, obs: Observation) -> int:
        raise NotImplementedError

    def __call__(self, obs: Observation) -> int:
        return self.act(obs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class AgentActionError(RuntimeError):
    """An agent chose an action that is not legal (a bug in that agent, not in the caller)."""


def checked_action(action: int, legal: np.ndarray | int, who: str) -> int:
    """``action`` when it is legal; else the one AgentActionError naming who chose what and the
    legal actions. ``legal``: a 0/1 or bool action mask, or a bitboard (bit a = action a)."""
    ids = (np.flatnonzero(np.asarray(legal)).tolist() if isinstance(legal, np.ndarray)
           else [a for a in range(int(legal).bit_length()) if int(legal) >> a & 1])
    if action not in ids:
        raise AgentActionError(f"{who} chose action {action}, which is not legal here (legal: {ids})")
    return int(action)


def legal_actions(obs: Observation) -> np.ndarray:
    """The legal action ids of an observation dict, ascending."""
    return np.flatnonzero(np.asarray(obs["action_mask"]))


def choose_from_logits(logits: np.ndarray, mask: np.ndarray, greedy: bool,
                       rng: np.random.Generator) -> int:
    """An action from masked logits (43,): the argmax, or a sample from their softmax over the
    legal actions (``mask`` bool)."""
    if greedy:
        return int(np.argmax(logits))
    p = np.exp(logits - logits.max())
    p[~mask] = 0.0
    p /= p.sum()
    return int(rng.choice(len(p), p=p))


def as_agent(obj: Any) -> Agent:
    """Wrap a callable ``f(obs) -> action`` as an Agent; agents pass through unchanged."""
    if isinstance(obj, Agent):
        return obj
    if hasattr(obj, "act"):
        return obj
    if callable(obj):
        return _CallableAgent(obj)
    raise TypeError(f"an agent must have an act(obs) method or be callable, got {type(obj).__name__}")


class _CallableAgent(Agent):
    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")

    def act(self, obs: Observation) -> int:
        return int(self.fn(obs))
