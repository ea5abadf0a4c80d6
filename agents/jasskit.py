"""jass-kit both ways (the optional ``jasskit`` extra: ``pip install "jass-env[jasskit]"``).

* :class:`AsJasskitAgent`: any of our agents (an agent spec such as ``"heuristic"`` or a
  checkpoint path, or an agent object) as a jass-kit ``Agent``: ``action_trump(obs)`` and
  ``action_play_card(obs)`` on a jass-kit ``GameObservation``. It plays in jass-kit's ``Arena``,
  its tournaments (through :mod:`agents.serve`) and anything else that takes a jass-kit agent.
* :class:`FromJasskitAgent`: a jass-kit agent as one of ours (``act(obs) -> action``), for our
  environments, ``agents.evaluate`` and ``agents.play``. Our observation holds what was played but
  not the order of earlier tricks, which a jass-kit observation has; the adapter rebuilds that
  order from the observations of its seat at each decision (:class:`SeatHistory`), so it must be
  asked at every decision of its seat in a round, as our environments do.

Seats, cards, trump numbers and jass-kit's rule deviation: :mod:`jass_env.games.schieber.jasskit_map` and
docs/jasskit.md. Both adapters play under jass-kit's rules by default (preset ``tournament``:
card points only, as jass-kit counts).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jass_env.engine.card_play import trick_winner_position
from jass_env.engine.cards import N_CARDS, mask_of
from jass_env.engine.switches import Rules
from jass_env.games import make_rules
from jass_env.games.schieber.jasskit_map import (
    JASSKIT_RULES,
    JasskitFormatError,
    action_from_jasskit_trump,
    jasskit_observation_json,
)
from jass_env.games.schieber.seat_view import N_SEATS, seat_position

from .base import Agent, Observation
from .bots.schieber import SeatView
from .extras import missing_extra
from .jasskit_player import AgentActionError, JasskitPlayer, checked_action

JASSKIT_EXTRA = "jasskit"
try:
    from jass.agents.agent import Agent as _JasskitAgent
    from jass.game.game_observation import GameObservation
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "agents.jasskit (jass-kit interop)", JASSKIT_EXTRA) from None

CHOOSING, CHOOSING_AFTER_PUSH, PLAYING = 0, 1, 2      # SeatView.phase


class AsJasskitAgent(_JasskitAgent):
    """One of our agents playing as a jass-kit ``Agent``.

    ``agent``: an agent spec (``"heuristic"``, ``"pimc:worlds=20"``, a ``.pt`` or ``.onnx`` path)
    or an agent object with ``act(obs)``; ``rules``: the rules our agent decides under (default
    jass-kit's, preset ``tournament``). Each decision rebuilds the seat's position from the
    jass-kit observation (:func:`jass_env.games.schieber.jasskit_map.position_from_jasskit`) and asks
    our agent
    (:class:`agents.jasskit_player.JasskitPlayer`).
    """

    def __init__(self, agent: Any, rules: str | Rules | None = JASSKIT_RULES,
                 seed: int | None = None) -> None:
        self.player = JasskitPlayer(agent, rules, seed)

    def action_trump(self, obs: GameObservation) -> int:
        """jass-kit's trump action (0..5, or 10 = push) for a trump-selection observation."""
        return self.player.trump(obs.to_json())

    def action_play_card(self, obs: GameObservation) -> int:
        """jass-kit's card (its id 0..35, the same as ours) for a card-play observation."""
        return self.player.card(obs.to_json())


# jass-kit in ours
class SeatHistory:
    """The order of play of one seat's round, rebuilt from the observations the seat gets at its
    decisions. Seats are the observation's relative seats (0 = the observing seat)."""

    def __init__(self) -> None:
        self.plays: list[tuple[int, int]] = []      # (relative seat, card) in play order
        self.first_leader: int | None = None        # who led trick 1, once seen

    def update(self, v: SeatView) -> list[int]:
        """Take the seat's next observation; returns every card played so far, in order.

        Raises JasskitFormatError when the order cannot be known: the seat was not asked at one of
        its decisions since the round began.
        """
        if v.phase in (CHOOSING, CHOOSING_AFTER_PUSH):
            self.plays, self.first_leader = [], None
            return []
        known = [0] * N_SEATS
        for p, c in self.plays:
            known[p] |= 1 << c
        if any(known[p] & ~v.played[p] for p in range(N_SEATS)):
            self.plays, self.first_leader, known = [], None, [0] * N_SEATS     # a new round
        if v.trick_number == 0:
            self.first_leader = v.trick_leader
        if self.first_leader is None:
            raise JasskitFormatError(f"a jass-kit agent needs every decision of its seat in a round; "
                                     f"this one saw its first at trick {v.trick_number + 1}")
        current = list(v.trick)
        rest = [v.played[p] & ~known[p] & ~mask_of(current) for p in range(N_SEATS)]
        complete = N_SEATS * v.trick_number                    # cards of the finished tricks
        while len(self.plays) < complete:
            k = len(self.plays)
            p = (self._leader_of(k // N_SEATS, v) + k % N_SEATS) % N_SEATS
            if rest[p].bit_count() != 1:
                raise JasskitFormatError(f"a jass-kit agent needs every decision of its seat in a round: "
                                         f"the order of trick {k // N_SEATS + 1} is unknown")
            self.plays.append((p, rest[p].bit_length() - 1))
            rest[p] = 0
        for i, card in enumerate(current):
            if complete + i >= len(self.plays):
                self.plays.append(((v.trick_leader + i) % N_SEATS, card))
        return [c for _, c in self.plays]

    def _leader_of(self, t: int, v: SeatView) -> int:
        """The leader of trick ``t`` (0-based): trick 1's as seen, then each trick's winner."""
        if t == 0:
            return self.first_leader
        first = N_SEATS * (t - 1)
        cards = np.array([c for _, c in self.plays[first:first + N_SEATS]], dtype=np.int64)
        return (self.plays[first][0] + int(trick_winner_position(cards, N_SEATS, v.contract))) % N_SEATS


class FromJasskitAgent(Agent):
    """A jass-kit agent (``action_trump``, ``action_play_card`` on a ``GameObservation``) as one of
    ours. The jass-kit agent sees the observing seat as its North (player 0)."""

    def __init__(self, jasskit_agent: Any, rules: str | Rules | None = JASSKIT_RULES) -> None:
        super().__init__()
        self.jasskit_agent = jasskit_agent
        self.rules = make_rules(rules)
        self.name = f"jasskit:{type(jasskit_agent).__name__}"
        self.history = SeatHistory()

    def observation_for(self, obs: Observation) -> GameObservation:
        """The jass-kit observation of our observation (the seat's history rebuilt)."""
        v = SeatView.from_obs(obs)
        plays = self.history.update(v)
        pos = seat_position(self.rules, 0, v.hand, dealer=(v.forehand - 1) % N_SEATS, pushed=v.pushed,
                            contract=v.contract, plays=plays)
        return GameObservation.from_json(jasskit_observation_json(pos))

    def act(self, obs: Observation) -> int:
        jk_obs = self.observation_for(obs)
        if jk_obs.trump < 0:
            action = action_from_jasskit_trump(int(self.jasskit_agent.action_trump(jk_obs)))
        else:
            action = int(self.jasskit_agent.action_play_card(jk_obs))
            if not 0 <= action < N_CARDS:
                raise AgentActionError(f"jass-kit agent {self.name} played {action}, not a card 0..35")
        return checked_action(action, obs["action_mask"], f"jass-kit agent {self.name}")


__all__ = ["AsJasskitAgent", "FromJasskitAgent", "SeatHistory", "AgentActionError", "JASSKIT_EXTRA"]
