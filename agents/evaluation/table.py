"""Agents at the table: each decision of an evaluation asks the agent of the seat to move for a
legal action, from that seat's observation and action mask in the game's encoding, exactly as
the AEC environment gives them (``{"observation": float32[obs_dim], "action_mask":
int8[n_actions]}``, the game's ``observation.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jass_env.engine.state import PHASE_OVER, phase, to_move
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of

from ..base import Agent, AgentActionError, checked_action


class EvaluationError(RuntimeError):
    """An agent misbehaved during an evaluation (an illegal action, an exception) or a bad setting."""


class Table:
    """Asks seat agents for actions on states of one game (observation and mask buffers)."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.rp = rules, rules.params
        self.engine = for_game(rules.spec.kind)
        self.encode_observation = game_of(rules).observation.encode_observation
        self.obs = np.zeros(obs_dim(rules), dtype=np.float32)
        self.mask = np.zeros(rules.spec.n_actions, dtype=np.int8)

    def act(self, agent: Agent, st: np.ndarray) -> int:
        """The legal action ``agent`` chooses for the player to move of ``st`` (EvaluationError
        when it fails or chooses an illegal one). The agent gets its own copies of the arrays."""
        player = int(to_move(st))
        self.encode_observation(st, player, self.rp, self.obs)
        self.engine.action_mask(st, self.rp, self.mask)
        who = f"agent {getattr(agent, 'name', agent)!r} in seat {player}"
        try:
            a = agent.act({"observation": self.obs.copy(), "action_mask": self.mask.copy()})
        except Exception as e:
            raise EvaluationError(f"{who} failed: {type(e).__name__}: {e}") from e
        try:
            return checked_action(a, self.mask, who)
        except AgentActionError as e:
            raise EvaluationError(str(e)) from None

    def finish_round(self, st: np.ndarray, seat_agents: Sequence[Agent]) -> np.ndarray:
        """Play the round of ``st`` to its end in place, ``seat_agents[p]`` in seat p; returns ``st``."""
        while phase(st) != PHASE_OVER:
            self.engine.apply_action(st, self.act(seat_agents[int(to_move(st))], st), self.rp)
        return st

    def play_round(self, start: np.ndarray, seat_agents: Sequence[Agent]) -> np.ndarray:
        """Play a round from a copy of ``start`` with ``seat_agents[p]`` in seat p; the final state."""
        return self.finish_round(start.copy(), seat_agents)


def reset_agents(seat_agents: Sequence[Agent], seeds: Sequence[int]) -> None:
    """Reset each distinct agent once, with the seed of the first seat it occupies."""
    done: set[int] = set()
    for agent, s in zip(seat_agents, seeds, strict=True):
        if id(agent) not in done:
            done.add(id(agent))
            agent.reset(seed=s)


__all__ = ["EvaluationError", "Table", "reset_agents"]
