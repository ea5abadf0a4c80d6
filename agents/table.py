"""A game in progress with agents in some seats: what the terminal game (:mod:`agents.play`) and the
browser app (:mod:`agents.web`) share.

    is_card, option_label      an action as shown: a card with its suit symbol, else the game's name
    encode, observation        what a seat's agent is given: the game's observation vector, the mask
    hidden_from                whether an action another seat takes is hidden from a seat
    indistinguishable          the actions a seat cannot tell from the one taken
    agent_action               an agent's action, checked (AgentFailure names the seat and why)
    describe                   one line of words for an action just taken
    SeatedGame                 a round (or the rounds of a match) stepped action by action, the agents
                               reset for each round, a record of every round played to its end

Everything game-specific comes from the rules (their :class:`~jass_env.engine.spec.GameSpec`) and
the game's registry entry (:func:`jass_env.games.game_of`); nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from jass_env.engine.cards import PHASE_ACTION_OFFSET, card_symbol
from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of
from jass_env.records import record_of
from jass_env.round import Match, Round

from .base import Agent


class AgentFailure(RuntimeError):
    """An agent raised, or chose an action that is not legal."""


def is_card(action: int) -> bool:
    """Whether an action id is a card (every game's actions begin with the 36 cards)."""
    return action < PHASE_ACTION_OFFSET


def option_label(action: int, spec: GameSpec) -> str:
    """How an action is shown: a card with its suit symbol (``♥9``), else the game's name for it
    (``choose obenabe``, ``push``, ``predict 40``)."""
    return card_symbol(action) if is_card(action) else spec.action_names[action]


def encode(rnd: Round, player: int) -> np.ndarray:
    """``player``'s observation of ``rnd``: float32[obs_dim(rules)], the game's encoding (its own
    hand and the public history, never another hand)."""
    obs = np.zeros(obs_dim(rnd.rules), dtype=np.float32)
    game_of(rnd.rules).observation.encode_observation(rnd.state, player, rnd.rules.params, obs)
    return obs


def observation(rnd: Round) -> dict[str, np.ndarray]:
    """What the agent of the seat to move is given: ``observation`` float32[obs_dim(rules)] and
    ``action_mask`` int8[spec.n_actions] (1 = legal)."""
    mask = np.zeros(rnd.spec.n_actions, dtype=np.int8)
    rnd.engine.action_mask(rnd.state, rnd.rules.params, mask)
    return {"observation": encode(rnd, rnd.to_move), "action_mask": mask}


def indistinguishable(rnd: Round, action: int, seat: int) -> list[int]:
    """The legal actions of the seat to move in ``rnd`` that leave ``seat``'s observation as
    ``action`` does (``action`` among them, ascending): ``[action]`` when ``seat`` sees which
    action was taken, every prediction for a hidden Differenzler prediction. ``rnd`` itself is not
    changed."""
    def seen_after(a: int) -> np.ndarray:
        after = rnd.copy()
        after.step(a)
        return encode(after, seat)

    seen = seen_after(action)
    return [int(b) for b in rnd.legal_actions() if b == action or np.array_equal(seen, seen_after(int(b)))]


def hidden_from(rnd: Round, action: int, seat: int) -> bool:
    """Whether ``action``, about to be taken in ``rnd`` by the seat to move, is hidden from
    ``seat``: some other legal action would leave ``seat``'s observation the same (a hidden
    Differenzler prediction). ``rnd`` itself is not changed."""
    return len(indistinguishable(rnd, action, seat)) > 1


def agent_action(agent: Agent, rnd: Round) -> int:
    """The action of ``agent``, the agent of the seat to move in ``rnd``; AgentFailure (naming the
    agent, the seat and what went wrong) when it raises or chooses an action that is not legal."""
    seat, name = rnd.to_move, getattr(agent, "name", agent)
    obs = observation(rnd)
    try:
        a = agent.act(obs)
    except Exception as e:
        raise AgentFailure(f"agent {name!r} in seat {seat} failed: {type(e).__name__}: {e}") from e
    mask = obs["action_mask"]
    if (isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= a < len(mask)
            or not mask[a]):
        raise AgentFailure(f"agent {name!r} in seat {seat} chose {a!r}, not a legal action; legal: "
                           f"{np.flatnonzero(mask).tolist()}")
    return int(a)


def describe(name: str, action: int, spec: GameSpec, you: bool = False, hidden: bool = False) -> str:
    """One line for an action just taken by the seat called ``name``: ``player_1 plays ♠K``,
    ``player_2 predicts (hidden from you)``; ``you``: the reader took it (``You choose H``)."""
    if is_card(action):
        verb, rest = "play", card_symbol(action)
    else:
        verb, _, rest = spec.action_names[action].partition(" ")
    if you:
        name = "You"
    else:
        verb += "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
    if hidden:
        rest = "(hidden from you)"
    return f"{name} {verb}" + (f" {rest}" if rest else "")


def round_seed(seed: int, round_no: int, seat: int) -> int:
    """The seed an agent in ``seat`` is reset with before round ``round_no`` (0-based) of a game
    seeded ``seed``: a non-negative 32-bit integer, distinct per round and seat."""
    return int(np.random.SeedSequence([seed, round_no, seat]).generate_state(1)[0])


@dataclass(frozen=True)
class Step:
    """What one action did: who took which action in which round (``rnd``, after the action), the
    trick it completed (``Round.tricks`` entry) and the round it finished (None when neither), and
    whether that round was recorded (played through all its tricks)."""

    player: int
    action: int
    rnd: Round
    trick: dict[str, Any] | None
    finished: Round | None
    recorded: bool


class SeatedGame:
    """One round, or a match of rounds (``match``), stepped action by action; ``agents`` play
    their seats (the others' actions come from outside). Each agent is reset before each round
    (:func:`round_seed`); every round played through all its tricks is recorded
    (:func:`jass_env.records.record_of`, ``record_id(n)`` the id of round ``n``, 1-based) in
    ``records``. A one-round game deals a new round with :meth:`new_round` after the last; it may
    start from a round already under way (``start``: a Round of ``rules``, e.g. a record's deal
    replayed to some decision)."""

    def __init__(self, rules: Rules, agents: Mapping[int, Agent], seed: int, match: bool,
                 record_id: Callable[[int], Any], start: Round | None = None) -> None:
        if start is not None and (match or start.rules != rules):
            raise ValueError("a game started from a round is a one-round game of that round's rules")
        self.rules, self.agents, self.seed, self.match = rules, dict(agents), seed, match
        self.record_id = record_id
        self.game: Match | Round
        if start is not None:
            self.game = start
        else:
            self.game = Match(rules, seed=seed) if match else Round(rules, seed=seed)
        self.records: list[dict[str, Any]] = []
        #: rounds finished (recorded or, the match decided during one, not)
        self.rounds_played = 0
        self._reset_agents()

    @property
    def spec(self) -> GameSpec:
        return self.rules.spec

    @property
    def round(self) -> Round:
        """The round being played (a match's next round is dealt as soon as one ends)."""
        return self.game.round if isinstance(self.game, Match) else self.game

    @property
    def is_over(self) -> bool:
        """The round (one-round game) or the match is over."""
        return self.game.is_over

    def _reset_agents(self) -> None:
        for seat, agent in self.agents.items():
            agent.reset(seed=round_seed(self.seed, self.rounds_played, seat))

    def agent_to_move(self) -> bool:
        """Whether an agent is to move (the game going on)."""
        return not self.is_over and self.round.to_move in self.agents

    def agent_action(self) -> int:
        """The action of the agent to move (:func:`agent_action`); AgentFailure."""
        return agent_action(self.agents[self.round.to_move], self.round)

    def step(self, action: int) -> Step:
        """Take a legal ``action`` of the seat to move (IllegalActionError otherwise, nothing
        changed); records a round finished by it and resets the agents for a match's next one."""
        rnd, player = self.round, self.round.to_move
        tricks_before = rnd.trick_number
        finished_before = len(self.game.finished_rounds) if isinstance(self.game, Match) else 0
        self.game.step(action)
        if isinstance(self.game, Match):
            done = (self.game.finished_rounds[-1] if len(self.game.finished_rounds) > finished_before
                    else None)
        else:
            done = self.game if self.game.is_over else None
        acted_in = done if done is not None else rnd
        trick = acted_in.tricks[-1] if acted_in.trick_number > tricks_before else None
        recorded = False
        if done is not None:
            self.rounds_played += 1
            if done.trick_number >= self.spec.tricks:
                self.records.append(record_of(done, id=self.record_id(self.rounds_played)))
                recorded = True
            if not self.is_over:
                self._reset_agents()
        return Step(player, action, acted_in, trick, done, recorded)

    def new_round(self) -> None:
        """Deal the next round of a one-round game whose round is over (its seed: the game's seed
        plus the rounds played). ValueError for a match, or a round still being played."""
        if isinstance(self.game, Match) or not self.game.is_over:
            raise ValueError("a new round is dealt only after the round of a one-round game is over")
        self.game = Round(self.rules, seed=self.seed + self.rounds_played)
        self._reset_agents()


__all__ = ["AgentFailure", "SeatedGame", "Step", "agent_action", "describe", "encode", "hidden_from",
           "indistinguishable", "is_card", "observation", "option_label", "round_seed"]
