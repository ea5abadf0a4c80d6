"""The agents of one side of an evaluation, and its label.

An evaluated agent is given as an agent spec (:mod:`agents.registry`: ``"heuristic"``,
``"pimc:worlds=10"``, a checkpoint path), a zero-argument factory, or an :class:`~agents.base.Agent`
instance. A side holds several seats: a team's (two; three in Schieber for six) or, in a game
played alone, B's ``n − 1`` seats against A's one.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.switches import Rules

from ..base import Agent
from ..registry import make_agent

#: the fewest seats a team holds (two in a game of four; three in Schieber for six)
MIN_TEAM_SEATS = 2


def build_team(agent: Any, rules: Rules, seats: int | None = None) -> list[Agent]:
    """The seat agents of one side: ``seats`` of them (default: a team of the game of ``rules``,
    half its players); from a spec one instance each, from a factory one call each, an instance
    shared by every seat."""
    size = max(MIN_TEAM_SEATS, rules.spec.players // 2) if seats is None else seats
    if isinstance(agent, str):
        return [make_agent(agent, rules) for _ in range(size)]
    if isinstance(agent, Agent) or hasattr(agent, "act"):
        return [agent] * size
    if callable(agent):
        return [agent() for _ in range(size)]
    raise TypeError(f"an agent must be a spec string, an Agent or a factory, got {type(agent).__name__}")


def label(agent: Any, given: str | None, default: str) -> str:
    """The name a report shows for ``agent``: ``given`` when set, else the spec string, else the
    agent's ``name`` (``default`` when it has none)."""
    return given or (agent if isinstance(agent, str) else getattr(agent, "name", default))


__all__ = ["build_team", "label"]
