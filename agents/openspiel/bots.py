"""Bots for the OpenSpiel games and OpenSpiel's IS-MCTS as a project agent.

>>> import numpy as np, pyspiel
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> from agents.openspiel.bots import make_bot
>>> game = pyspiel.load_game("python_jass_schieber")
>>> bots = [make_bot(spec, game, p, seed=p) for p, spec in enumerate(["pimc:worlds=10", "heuristic"] * 2)]
>>> evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))   # each player's return

* :class:`AgentBot`: any agent of the project (an agent spec of :mod:`agents.registry` or an
  :class:`~agents.base.Agent`) as a ``pyspiel.Bot`` of one seat. At each of its turns the agent is
  given what the AEC environment gives it: the seat's observation (the state's observation tensor,
  which is the project's observation of the seat) and the legal-action mask, nothing else of the
  state; it is reset (seeded) at every ``restart_at``, so it plays in
  ``open_spiel.python.algorithms.evaluate_bots.evaluate_bots``.
* :class:`ISMCTSAgent` (agent spec ``ismcts``): OpenSpiel's Python information-set MCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random rollouts) as a project agent, so it
  plays every game and every evaluation of the project (``python -m agents.evaluate``). Given only
  its observations, it rebuilds a round that shows its seat the same
  (:class:`agents.openspiel.seat_history.SeatHistory`) and searches the OpenSpiel game from there;
  the worlds of the search are deals drawn by ``resample_from_infostate``
  (:func:`agents.openspiel.resample.resample_deal`), uniform among those consistent with what the
  seat has seen.
* :func:`make_bot` builds a bot by agent spec and refuses OpenSpiel's C++ search bots
  (``pyspiel.MCTSBot``, ``pyspiel.ISMCTSBot``): they cannot search these Python games (the
  interpreter crashes when they clone or resample a state), so :func:`check_bots` and
  :func:`play` refuse them too, with the Python IS-MCTS to use instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.algorithms.ismcts import ISMCTSBot, ISMCTSFinalPolicyType
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

from jass_env.engine.switches import Rules
from jass_env.games import game_of, make_rules

from ..base import Agent, Observation, checked_action
from ..registry import ISMCTS_FINALS, make_agent
from .deal import Deal, outcomes_of
from .game import JassGame, JassState
from .seat_history import SeatHistory, SeatHistoryError

#: the names under which a user might ask for OpenSpiel's C++ search bots, and the class of each
CPP_SEARCH_BOTS = {"mcts": "pyspiel.MCTSBot", "cpp_mcts": "pyspiel.MCTSBot",
                   "ismcts_cpp": "pyspiel.ISMCTSBot", "cpp_ismcts": "pyspiel.ISMCTSBot"}
#: the final choice of IS-MCTS by name (``final=`` of the agent spec)
FINAL_POLICIES = dict(zip(ISMCTS_FINALS, (ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                          ISMCTSFinalPolicyType.MAX_VALUE,
                                          ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT), strict=True))
#: the exclusive bound of the seeds drawn for OpenSpiel's generators (numpy's RandomState)
SEED_BOUND = 2**32
#: the spec's default number of IS-MCTS simulations per decision
DEFAULT_SIMULATIONS = 200
#: the spec's default exploration constant, for returns in units of the game's points scale
DEFAULT_UCT_C = 2.0


class BotError(ValueError):
    """A bot that cannot play these games, or a bot for the wrong seat."""


def cpp_search_message(what: str) -> str:
    """Why OpenSpiel's C++ search bot ``what`` is refused, and what to use instead."""
    return (f"{what} cannot play the Jass games: they are Python games, and OpenSpiel's C++ MCTSBot and "
            f"ISMCTSBot crash the interpreter when they clone or resample a Python state (and MCTS would "
            f"search the true state, seeing every hand). Use OpenSpiel's Python IS-MCTS: the agent spec "
            f"'ismcts:simulations=200' (make_bot('ismcts', game, player) or python -m agents.evaluate "
            f"ismcts pimc:worlds=10), or open_spiel.python.algorithms.ismcts.ISMCTSBot")


def check_bots(bots: Sequence[pyspiel.Bot]) -> None:
    """BotError when one of ``bots`` is OpenSpiel's C++ MCTSBot or ISMCTSBot (they cannot play the
    Python Jass games; :func:`cpp_search_message`)."""
    for seat, bot in enumerate(bots):
        if isinstance(bot, (pyspiel.MCTSBot, pyspiel.ISMCTSBot)):
            raise BotError(f"the bot of seat {seat}: " + cpp_search_message(f"pyspiel.{type(bot).__name__}"))


def play(game: JassGame, bots: Sequence[pyspiel.Bot], rng: np.random.Generator) -> list[float]:
    """One round of ``game`` with ``bots[p]`` in seat p (deal drawn from ``rng``): each player's
    return (``evaluate_bots``). BotError for a C++ search bot or the wrong number of bots."""
    if len(bots) != game.num_players():
        raise BotError(f"{game} is played by {game.num_players()} players; got {len(bots)} bots")
    check_bots(bots)
    return list(evaluate_bots(game.new_initial_state(), list(bots), rng))


class AgentBot(pyspiel.Bot):
    """A project agent in seat ``player`` of a Jass OpenSpiel game (module doc).

    ``agent``: an Agent, or an agent spec built for the game's rules; ``seed``: seeds the agent
    at each ``restart_at`` (a new seed each round, drawn from a generator seeded with it).
    """

    def __init__(self, agent: Agent | str, game: JassGame, player: int, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, JassGame):
            raise BotError(f"AgentBot plays the Jass OpenSpiel games (agents.openspiel), not {game}")
        if not (isinstance(player, (int, np.integer)) and 0 <= player < game.num_players()):
            raise BotError(f"player must be a seat 0..{game.num_players() - 1} of {game}, got {player!r}")
        self.agent = make_agent(agent, game.rules, seed) if isinstance(agent, str) else agent
        self.player = int(player)
        self.name = getattr(self.agent, "name", type(self.agent).__name__)
        self._seeds = np.random.default_rng(seed)

    def restart_at(self, state: pyspiel.State) -> None:
        """A new round: the agent is reset with the next seed."""
        self.agent.reset(seed=int(self._seeds.integers(SEED_BOUND)))

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Another seat acted: nothing to do (the agent sees the result in its next observation)."""

    def step(self, state: pyspiel.State) -> int:
        """The agent's action at its seat's turn in ``state``, from the seat's observation and
        legal-action mask only. BotError when it is not this seat's turn; AgentActionError when the
        agent chooses an illegal action."""
        if state.current_player() != self.player:
            raise BotError(f"the bot of seat {self.player} was asked to act for player "
                           f"{state.current_player()}")
        obs = {"observation": np.asarray(state.observation_tensor(self.player), dtype=np.float32),
               "action_mask": np.asarray(state.legal_actions_mask(self.player), dtype=np.int8)}
        who = f"agent {self.name!r} in seat {self.player}"
        return checked_action(self.agent.act(obs), obs["action_mask"], who)

    def provides_policy(self) -> bool:
        return False


def make_bot(spec: str, game: JassGame, player: int, seed: int | None = None) -> pyspiel.Bot:
    """A bot for seat ``player`` of ``game`` from an agent spec (``heuristic``, ``pimc:worlds=10``,
    ``ismcts:simulations=100``, a checkpoint, ...: :mod:`agents.registry`) as an :class:`AgentBot`.
    BotError for OpenSpiel's C++ search bots (``mcts``, ``cpp_ismcts``, ...); AgentSpecError for
    any other spec the registry does not know."""
    name = spec.partition(":")[0].strip().lower() if isinstance(spec, str) else ""
    if name in CPP_SEARCH_BOTS:
        raise BotError(f"bot {spec!r}: " + cpp_search_message(CPP_SEARCH_BOTS[name]))
    return AgentBot(spec, game, player, seed)


class ISMCTSAgent(Agent):
    """OpenSpiel's Python IS-MCTS with random rollouts, as an agent of any game (module doc).

    ``simulations``: simulations per decision (each from a world drawn anew, unless ``worlds``
    limits the worlds of a decision); ``uct_c``: UCT's exploration constant for returns in units of
    the game's points scale (:meth:`jass_env.games.base.Game.points_scale`: 157 card points in
    Schieber, so it is multiplied by 157 there); ``rollouts``: random rollouts per leaf;
    ``final``: the choice at the root (:data:`FINAL_POLICIES`); ``seed``: the search's generators.

    It searches one round: in a match, a later round is rebuilt as a round alone (the scores so far
    unknown to the search); where that round allows actions the seat may not take (rows of
    Coiffeur's sheet already played), it takes the allowed action the search likes best (a random
    one among equals); a decision whose round cannot be rebuilt at all (a match position no round
    alone reaches, as late in a Coiffeur game) is played uniformly at random, counted in
    ``unsearched``. ``history.inexact`` counts the decisions whose rebuilt round did not show the
    seat exactly what it saw.
    """

    name = "ismcts"

    def __init__(self, rules: str | Rules | None = None, simulations: int = DEFAULT_SIMULATIONS,
                 uct_c: float = DEFAULT_UCT_C, rollouts: int = 1, worlds: int | None = None,
                 final: str = "max_visit_count", seed: int | None = None) -> None:
        super().__init__(seed)
        for what, v in (("simulations", simulations), ("rollouts", rollouts)):
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{what} must be an integer >= 1, got {v!r}")
        if worlds is not None and (not isinstance(worlds, (int, np.integer)) or isinstance(worlds, bool)
                                   or worlds < 1):
            raise ValueError(f"worlds must be an integer >= 1 or None (a new world each simulation), "
                             f"got {worlds!r}")
        if not isinstance(uct_c, (int, float)) or isinstance(uct_c, bool) or not 0 < uct_c < float("inf"):
            raise ValueError(f"uct_c must be a positive finite number, got {uct_c!r}")
        if final not in FINAL_POLICIES:
            raise ValueError(f"final must be one of {', '.join(FINAL_POLICIES)}, got {final!r}")
        self.rules = make_rules(rules)
        self.game = JassGame(rules=self.rules)
        self.simulations, self.rollouts, self.worlds = int(simulations), int(rollouts), worlds
        self.uct_c, self.final = float(uct_c), final
        self.history = SeatHistory(self.rules, self.rng)
        #: decisions played at random because the seat's round could not be rebuilt
        self.unsearched = 0
        self.bot = self._bot()
        #: the deal, actions and OpenSpiel state of the last decision searched
        self._last: tuple[Deal | None, list[int], JassState | None] = (None, [], None)

    def _bot(self) -> ISMCTSBot:
        """The search, its generators seeded from the agent's."""
        rollout_rng = np.random.RandomState(self.rng.integers(SEED_BOUND))
        evaluator = RandomRolloutEvaluator(self.rollouts, rollout_rng)
        return ISMCTSBot(self.game, evaluator, self.uct_c * game_of(self.rules).points_scale(self.rules),
                         self.simulations, -1 if self.worlds is None else self.worlds,
                         np.random.RandomState(self.rng.integers(SEED_BOUND)), FINAL_POLICIES[self.final])

    def reset(self, seed: int | None = None) -> None:
        """A new round (reseeded when ``seed`` is given)."""
        super().reset(seed)
        self.history.rng = self.rng
        self.history.reset()
        self.bot = self._bot()
        self._last = (None, [], None)

    def state_of(self, deal: Deal, actions: Sequence[int]) -> JassState:
        """The OpenSpiel state of ``deal`` after ``actions`` (the last one made, carried on when the
        deal is the same and the actions go on from its)."""
        last_deal, last_actions, last = self._last
        if deal == last_deal and list(actions[:len(last_actions)]) == last_actions:
            state, done = last.clone(), len(last_actions)
        else:
            state, done = self.game.new_initial_state(), 0
            for outcome in outcomes_of(self.rules, deal):
                state.apply_action(outcome)
        for a in actions[done:]:
            state.apply_action(a)
        self._last = (deal, list(actions), state.clone())
        return state

    def act(self, obs: Observation) -> int:
        """The searched action at the seat's decision (the seat's round rebuilt from its
        observations, :class:`~agents.openspiel.seat_history.SeatHistory`)."""
        mask = np.asarray(obs["action_mask"])
        legal = [int(a) for a in np.flatnonzero(mask)]
        try:
            deal, actions = self.history.observe(obs["observation"], mask)   # followed even when forced
        except SeatHistoryError:
            self.unsearched += 1
            return int(self.rng.choice(legal))
        if len(legal) == 1:
            searched = legal[0]
        else:
            state = self.state_of(deal, actions)
            if state.legal_actions() == legal:
                searched = self.bot.step(state)
            else:                       # the rebuilt round allows more (a match's later round)
                policy = dict(self.bot.get_policy(state))
                top = max(policy.get(a, 0.0) for a in legal)
                searched = self.rng.choice([a for a in legal if policy.get(a, 0.0) == top])
        action = checked_action(int(searched), mask, "IS-MCTS")
        self.history.took(action)
        return action


__all__ = ["AgentBot", "ISMCTSAgent", "BotError", "CPP_SEARCH_BOTS", "FINAL_POLICIES", "check_bots", "play",
           "make_bot", "cpp_search_message"]
