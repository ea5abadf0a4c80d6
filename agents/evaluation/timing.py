"""The cost of an agent's decisions: a thin wrapper that times every ``act()`` call of the agent
it wraps, and the clock it adds the times to.

    clock = DecisionClock()
    agent = TimedAgent(make_agent("pimc:worlds=10", rules), clock)   # plays exactly as the agent
    ...                                                               # play with it
    clock.mean_s, clock.slowest_s, clock.decisions

:class:`TimedFactory` builds timed agents from a spec, one per seat, all adding to one clock, and
is what an evaluation protocol takes as an agent (a zero-argument factory,
:func:`agents.evaluation.lineups.build_team`). Times are wall-clock seconds
(``time.perf_counter``) of the ``act()`` call alone: the observation's encoding and the engine's
step are not the agent's cost.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from jass_env.engine.switches import Rules

from ..base import Agent, Observation
from ..registry import make_agent

#: milliseconds per second, for reports
MS_PER_S = 1000.0


@dataclass
class DecisionClock:
    """The decisions timed so far: how many, their total and the slowest one (seconds)."""

    decisions: int = 0
    total_s: float = 0.0
    slowest_s: float = 0.0

    def add(self, seconds: float) -> None:
        """Count one decision that took ``seconds``."""
        self.decisions += 1
        self.total_s += seconds
        self.slowest_s = max(self.slowest_s, seconds)

    def merge(self, other: DecisionClock) -> None:
        """Add the decisions of ``other`` (another process's, another evaluation's) to this clock."""
        self.decisions += other.decisions
        self.total_s += other.total_s
        self.slowest_s = max(self.slowest_s, other.slowest_s)

    @property
    def mean_s(self) -> float:
        """Mean seconds per decision (0 before any decision)."""
        return self.total_s / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict[str, float]:
        """JSON-ready: the counts in seconds, and the mean and the slowest in milliseconds."""
        return {**asdict(self), "mean_ms": self.mean_s * MS_PER_S, "slowest_ms": self.slowest_s * MS_PER_S}


class TimedAgent(Agent):
    """``agent`` with every ``act()`` call timed into ``clock``; it plays, resets and describes
    itself as ``agent`` does (its other attributes are the wrapped agent's)."""

    def __init__(self, agent: Agent, clock: DecisionClock) -> None:
        self.agent, self.clock = agent, clock
        self.name = getattr(agent, "name", type(agent).__name__)

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed=seed)

    def act(self, obs: Observation) -> int:
        start = time.perf_counter()
        action = self.agent.act(obs)
        self.clock.add(time.perf_counter() - start)
        return action

    def __getattr__(self, key: str) -> Any:
        if key == "agent":            # not set yet (a copy being built): no recursion
            raise AttributeError(key)
        return getattr(self.agent, key)


class TimedFactory:
    """A zero-argument factory of timed agents of ``spec`` for ``rules``, all adding to ``clock``;
    ``name`` is the spec, which an evaluation shows as the agent's label."""

    def __init__(self, spec: str, rules: Rules, clock: DecisionClock) -> None:
        self.name, self.rules, self.clock = spec, rules, clock

    def __call__(self) -> TimedAgent:
        return TimedAgent(make_agent(self.name, self.rules), self.clock)


__all__ = ["MS_PER_S", "DecisionClock", "TimedAgent", "TimedFactory"]
