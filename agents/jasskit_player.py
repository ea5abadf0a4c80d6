"""One of our agents answering jass-kit observations: the decision behind :class:`agents.jasskit.
AsJasskitAgent` (jass-kit's Arena) and :mod:`agents.serve` (jass-kit's player-service protocol).

It works on jass-kit's JSON form of an observation (``GameObservation.to_json``), so it needs no
jass-kit installed. Seats, cards and trump numbers: :mod:`jass_env.games.schieber.jasskit_map`.
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games import make_rules
from jass_env.games.schieber.jasskit_map import (
    JASSKIT_RULES,
    JasskitFormatError,
    jasskit_trump_from_action,
    position_from_jasskit,
)
from jass_env.games.schieber.seat_view import SeatPosition

from .base import AgentActionError, checked_action
from .registry import make_agent


class JasskitPlayer:
    """Our agent deciding on jass-kit observations (JSON dicts).

    ``agent``: an agent spec (``"heuristic"``, ``"pimc:worlds=20"``, a ``.pt`` or ``.onnx`` path)
    or an agent object with ``act(obs)``; ``rules``: the rules it decides under (default
    jass-kit's, preset ``tournament``: card points only).
    """

    def __init__(self, agent: Any, rules: str | Rules | None = JASSKIT_RULES,
                 seed: int | None = None) -> None:
        self.rules = make_rules(rules)
        self.agent = make_agent(agent, self.rules, seed=seed) if isinstance(agent, str) else agent
        self.name = str(getattr(self.agent, "name", type(self.agent).__name__))
        #: the last position decided on (its ``disagreements`` list plays our rules forbid)
        self.last_position: SeatPosition | None = None

    def decide(self, data: Any) -> int:
        """Our action (0..42) for a jass-kit observation; raises JasskitFormatError for one that
        cannot be read, AgentActionError if the agent answers an illegal action."""
        pos = position_from_jasskit(data, self.rules)
        self.last_position = pos
        obs = pos.obs_dict()
        return checked_action(int(self.agent.act(obs)), obs["action_mask"], f"agent {self.name!r}")

    def trump(self, data: Any) -> int:
        """jass-kit's trump action (0..5, or 10 = push) for a trump-selection observation."""
        self._expect(data, trump=True)
        return jasskit_trump_from_action(self.decide(data))

    def card(self, data: Any) -> int:
        """The card to play (its id 0..35, jass-kit's and ours) for a card-play observation."""
        self._expect(data, trump=False)
        return self.decide(data)

    @staticmethod
    def _expect(data: Any, trump: bool) -> None:
        if isinstance(data, dict) and isinstance(data.get("trump"), int):
            chosen = data["trump"] >= 0
            if trump and chosen:
                raise JasskitFormatError("trump is already chosen in this observation: it asks for a card")
            if not trump and not chosen:
                raise JasskitFormatError("no trump is chosen yet in this observation: it asks for a trump")


__all__ = ["JasskitPlayer", "AgentActionError", "checked_action"]
