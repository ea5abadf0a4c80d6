"""PettingZoo AEC environments for every game of the Jass family (``jass_v0``, ``differenzler_v0``,
``coiffeur_v0``, ... : each game's ``ENV_IDS``, registered in one loop over the registry).

>>> from jass_env.envs.aec import env
>>> e = env(rules="schieber", episode="round", reward="points")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

The game is the one of ``rules`` (a preset name or :class:`~jass_env.engine.switches.Rules`);
``game=`` (a spec name: "schieber", "molotow5", ...) picks that game's default preset, or checks
that ``rules`` belong to it. Everything sized by the game (agents, actions, observation) follows
its :class:`~jass_env.engine.spec.GameSpec`; each game's page (docs/games/) gives its agents,
actions, observation and rewards.

Agents
    ``player_0`` … ``player_{n-1}``, seated in play order; the agent to move is
    ``agent_selection``. Team games: partners are the players of one side (``p % 2``).
Actions
    ``Discrete(n_actions)`` of the game: 0..35 play that card, then the game's phase actions
    (contracts and the push, predictions, declarations, the exchange). Weis and Stöck are declared
    automatically, so no action exists for them.
Observations
    ``Dict(observation=Box(low, high, (obs_dim,), float32), action_mask=Box(0, 1, (n_actions,),
    int8))``, from the observing agent's seat (the game's ``observation.py``). ``action_mask`` holds
    exactly the legal actions for the agent to move and is all zero for the other agents and once
    the episode is over (PettingZoo classic convention). The bounds come from the game's
    ``observation_bounds``. Each call returns new arrays (keep them safely, e.g. in a replay buffer).
State
    ``state()`` is the full-information vector of the game's ``encode_state`` (the observation of
    the agent to move followed by all hands, and what else is hidden), for centralized critics;
    ``state_space`` is its Box. It never appears in ``observe()``.
Rewards
    :func:`jass_env.envs.rewards.step_with_rewards` gives every step's rewards of all agents
    (``reward=`` one of the game's ``REWARDS``); they sum to zero over the agents. ``last()``
    returns the reward accumulated since the agent last acted (PettingZoo's ``_cumulative_rewards``).
Episodes
    ``episode="round"``: one dealt round; all agents terminate when it ends. ``episode="match"``:
    rounds follow one another (next dealer in play order) until the match is decided (the rules'
    target or number of rounds; a whole Coiffeur game); all agents terminate then. The default is
    the game's (``GameSpec.default_episode``). No truncation.
Seeding
    ``reset(seed=s)`` seeds the deal generator (:func:`jass_env.engine.deal.seed_to_rng_state`);
    ``reset()`` without a seed deals the next hands from the same stream, so episodes form one
    reproducible sequence.
Illegal actions
    ``raw_env`` raises :class:`jass_env.round.IllegalActionError` (a ValueError) naming the agent,
    the action and the legal actions, and changes nothing; ``env()`` wraps it in PettingZoo's
    ``TerminateIllegalWrapper`` (``illegal_reward=-1``: the offender of an action that is not legal
    now gets -1, everyone terminates, a warning names the action and the legal actions),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Something that is no action of the
    space (an integer outside 0..n_actions-1, a bool, a float, ``None`` for an agent that must act)
    raises IllegalActionError in both, before anything changes.
Misuse
    Calls before ``reset()`` (``step``, ``last``, ``observe``, ``state``, ``render``) raise
    RuntimeError saying to call ``reset()``, as do ``step`` and ``last`` after the episode; an
    unknown agent raises ValueError naming the agents; ``reset`` refuses a negative or non-integer
    seed (ValueError) and ``options`` that are not a dict (TypeError); it takes no options, so a
    non-empty dict is ignored with a warning. The environment stays usable after each of these.
"""

from __future__ import annotations

import operator
from functools import cache
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from numba import typeof
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from jass_env.engine import hooks
from jass_env.engine import state as engine_state
from jass_env.engine.cards import PHASE_ACTION_OFFSET
from jass_env.engine.deal import seed_to_rng_state
from jass_env.engine.jit import compiled
from jass_env.engine.spec import SPECS
from jass_env.engine.state import StateView, new_state, state_size
from jass_env.engine.switches import Rules, RulesError
from jass_env.engine.transitions import episode_over, legal_set, start_episode, write_legal_mask
from jass_env.engine.validate import check_state
from jass_env.games import REGISTRY, make_rules, presets_of
from jass_env.render import render_table
from jass_env.round import IllegalActionError, legal_actions_text

from . import encoding
from .checks import action_index, action_problem, check_options, check_seed
from .rewards import reward_facts, reward_kind, reward_kinds, step_with_rewards

EPISODES = ("round", "match")
RENDER_MODES = ("human", "ansi")
ENV_KWARGS = ("rules", "rule_overrides", "episode", "reward", "render_mode", "game")
#: what ``env()`` gives the agent of an illegal action (TerminateIllegalWrapper)
ILLEGAL_REWARD = -1


def env_ids(spec_name: str) -> tuple[str, str]:
    """(PettingZoo id, Gymnasium id) of a game spec (its game's ``ENV_IDS``)."""
    for game in REGISTRY.values():
        if spec_name in game.env_ids:
            return game.env_ids[spec_name]
    raise KeyError(f"unknown game {spec_name!r}")


# compiled steps
class Steps(NamedTuple):
    """The AEC environment's compiled steps for one game (:func:`compiled_steps`)."""

    reset: Any      #: (st, rp, is_match) -> (player to move, legal bits, block)
    #: (st, action, rp, reward kind, sign, scale, rewards) -> (to move or -1, bits, block, any reward)
    step: Any
    legal_set: Any  #: (st, rp) -> (bits, block)
    observe: Any    #: (st, observer, rp, with_mask, obs, mask)
    state: Any      #: (st, observer, rp, out)


@cache
def compiled_steps(game: int) -> Steps:
    """The compiled steps of the game numbered ``game`` (its rules compiled in, no other's)."""

    @compiled
    def reset(st, rp, is_match):  # noqa: ANN001, ANN202
        start_episode(game, st, rp, is_match, -1)
        bits, block = legal_set(game, st, rp)
        return engine_state.to_move(st), bits, block

    @compiled
    def step(st, action, rp, kind, sign, scale, rewards):  # noqa: ANN001, ANN202
        step_with_rewards(game, st, action, rp, kind, sign, scale, rewards)
        nonzero = False
        for p in range(rewards.shape[0]):
            nonzero |= rewards[p] != 0.0
        if episode_over(game, st, rp):
            return -1, 0, 0, nonzero
        bits, block = legal_set(game, st, rp)
        return engine_state.to_move(st), bits, block, nonzero

    @compiled
    def legal(st, rp):  # noqa: ANN001, ANN202
        return legal_set(game, st, rp)

    @compiled
    def observe(st, observer, rp, with_mask, obs, mask):  # noqa: ANN001, ANN202
        hooks.encode_observation(game, st, observer, rp, obs)
        if with_mask:
            bits, block = legal_set(game, st, rp)
            write_legal_mask(bits, block, mask)

    @compiled
    def full_state(st, observer, rp, out):  # noqa: ANN001, ANN202
        hooks.encode_state(game, st, observer, rp, out)

    return Steps(reset, step, legal, observe, full_state)


def _entry_point(dispatcher: Any, *args: Any) -> Any:
    """The compiled entry point of ``dispatcher`` for the types of ``args``, which skips numba's
    per-call type dispatch (a tenth of a microsecond a call, on every step and observation). Calls
    it once with ``args`` to compile or load it from the cache; call the result only with arguments
    of exactly these types. Under ``NUMBA_DISABLE_JIT=1`` the plain function."""
    dispatcher(*args)
    overloads = getattr(dispatcher, "overloads", None)
    if not overloads:
        return dispatcher
    return overloads[tuple(typeof(a) for a in args)].entry_point


def _legal_int(bits: int, block: int) -> int:
    """A legal set as one Python int, bit a = action a legal (the block's bits above 63 too)."""
    return bits if not block else bits | (((1 << block) - 1) << PHASE_ACTION_OFFSET)


# construction
def _check_kwargs(kwargs: dict[str, Any]) -> None:
    unknown = sorted(set(kwargs) - set(ENV_KWARGS))
    if unknown:
        raise TypeError(f"unknown keyword argument(s) {', '.join(map(repr, unknown))} for the Jass "
                        f"environments; valid keywords: {', '.join(ENV_KWARGS)}")


def resolve_rules(rules: str | Rules | None, game: str | None,
                  rule_overrides: dict[str, Any] | None) -> Rules:
    """The rules of an environment: ``rules`` (default: the default preset of ``game``, else
    ``schieber``) with ``rule_overrides``; RulesError if they are not for ``game``."""
    if rule_overrides is None:
        rule_overrides = {}
    if not isinstance(rule_overrides, dict):
        raise RulesError(f"rule_overrides must be a dict of rule switches, e.g. {{'stoeck': 0}}; "
                         f"got {type(rule_overrides).__name__}")
    if game is not None and game not in SPECS:
        raise RulesError(f"unknown game {game!r}; games: {', '.join(SPECS)}")
    if rules is None and game is not None:
        rules = presets_of(game)[0]
    resolved = make_rules(rules, **rule_overrides)
    if game is not None and resolved.game != game:
        raise RulesError(f"rules {resolved.name!r} are for {resolved.game}, not for game={game!r}; "
                         f"presets of {game}: {', '.join(presets_of(game))}")
    return resolved


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (illegal action: -1 and termination).

    Keywords: ``rules`` (preset name or Rules), ``game`` (a game spec's default preset, see the
    module docstring), ``rule_overrides`` (dict of switches), ``episode`` ("round" or "match"),
    ``reward`` (one of the game's REWARDS), ``render_mode`` (None, "human", "ansi").
    """
    _check_kwargs(kwargs)
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _OrderEnforcing(e)


def game_env(game: str, **kwargs: Any) -> AECEnv:
    """:func:`env` for the game spec ``game`` (its default preset unless ``rules`` says otherwise):
    the entry point every registered id calls with its spec."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", game)
    return env(**kwargs)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper (the outermost wrapper), with named errors where the
    wrappers below would fail with an assertion or an unrelated error: raw_env's RuntimeError for
    a call before ``reset()`` or ``step()`` / ``last()`` after the episode (every agent is done),
    and IllegalActionError, before anything changes, for an action outside the action space (not
    an integer 0..n_actions-1: ``step(43)``, ``step(-1)``, ``step(True)``, ``step(1.0)``, ``step(None)``
    for an agent that must act). A legal-range action that is not legal now goes on to
    TerminateIllegalWrapper (the offender gets ``ILLEGAL_REWARD``, everyone terminates), with a
    warning naming the action and the legal actions."""

    def _before_reset(self, call: str) -> None:
        if not self._has_reset:
            raise self.unwrapped._outside_episode(call)

    def last(self, observe: bool = True) -> tuple:
        self._before_reset("last()")
        if not self.unwrapped.agents:
            raise self.unwrapped._outside_episode("last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._before_reset(f"observe({agent!r})")
        return super().observe(agent)

    def state(self) -> np.ndarray:
        self._before_reset("state()")
        return super().state()

    def render(self) -> str | None:
        self._before_reset("render()")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._before_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def step(self, action: Any) -> None:
        raw = self.unwrapped
        self._before_reset("step()")
        if not raw.agents:
            raise raw._outside_episode("step()")
        agent = raw.agent_selection
        if not (raw.terminations[agent] or raw.truncations[agent]):
            a = action_index(action, raw.n_actions)
            if a is None:
                raise IllegalActionError(raw._illegal_message(agent, action))
            if not (raw._legal >> a) & 1:
                gymnasium.logger.warn(f"{raw._illegal_message(agent, action)}; the episode ends, "
                                      f"{agent} gets {ILLEGAL_REWARD}")
        super().step(action)


class raw_env(AECEnv, EzPickle):
    """The unwrapped AEC environment (see the module docstring)."""

    metadata = {"name": "jass_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: str | Rules | None = None, *, game: str | None = None,
                 rule_overrides: dict[str, Any] | None = None, episode: str | None = None,
                 reward: str = "points", render_mode: str | None = None, **unknown: Any) -> None:
        _check_kwargs(unknown)
        EzPickle.__init__(self, rules, game=game, rule_overrides=rule_overrides, episode=episode,
                          reward=reward, render_mode=render_mode)
        super().__init__()
        self.rules: Rules = resolve_rules(rules, game, rule_overrides)
        spec = self.rules.spec
        if episode is None:
            episode = spec.default_episode
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r}; valid episodes: {', '.join(EPISODES)}")
        if reward not in reward_kinds(self.rules):
            raise ValueError(f"unknown reward {reward!r} for {spec.name}; valid rewards: "
                             f"{', '.join(reward_kinds(self.rules))}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; valid: None, {', '.join(RENDER_MODES)}")
        self.metadata = {**raw_env.metadata, "name": env_ids(spec.name)[0]}
        self.episode = episode
        self.reward_name = reward
        self.render_mode = render_mode
        self._kind = int(reward_kind(reward, self.rules))
        self._sign, self._scale = reward_facts(self.rules)
        self._is_match = bool(episode == "match")
        self._rp = self.rules.params
        self.n_actions = spec.n_actions
        self._action_names = spec.action_names
        self._obs_dim = encoding.obs_dim(self.rules)
        self._state_dim = encoding.state_dim(self.rules)

        agents = tuple(f"player_{p}" for p in range(spec.players))
        self._agents = agents
        self.possible_agents = list(agents)
        self.agents = []
        self._index = {a: i for i, a in enumerate(agents)}
        low, high = encoding.observation_bounds(self.rules)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, shape=(self._obs_dim,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.n_actions,), dtype=np.int8),
            }) for a in agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in agents}
        state_low, state_high = encoding.state_bounds(self.rules)
        self.state_space = spaces.Box(low=state_low, high=state_high, shape=(self._state_dim,),
                                      dtype=np.float32)

        self._st = new_state(spec, seed_to_rng_state(None))
        self._rew = np.zeros(spec.players, dtype=np.float64)
        self._legal = 0          # legal actions (bit a = action a) of the agent to move
        self._reward_nonzero = False
        self._steps = compiled_steps(spec.kind)
        # the step and the observation bound once to their compiled entry points, for the types
        # they are called with (the step run on a scratch state)
        scratch = new_state(spec, 1)
        _, bits, block = self._steps.reset(scratch, self._rp, self._is_match)
        first_legal = (bits & -bits).bit_length() - 1 if bits else PHASE_ACTION_OFFSET
        self._step_fn = _entry_point(self._steps.step, scratch, first_legal, self._rp, self._kind, self._sign,
                                     self._scale, self._rew)
        self._observe_fn = _entry_point(self._steps.observe, scratch, 0, self._rp, True,
                                        np.zeros(self._obs_dim, dtype=np.float32),
                                        np.zeros(self.n_actions, dtype=np.int8))

    # spaces
    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown_agent(agent) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown_agent(agent) from None

    # episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode (see Seeding in the module docstring). ``options``: None or a dict,
        ignored (with a warning when not empty: the rules, episode and reward are the
        constructor's). ValueError for a negative or non-integer seed, TypeError for options
        that are not a dict; both change nothing."""
        check_seed(seed)
        check_options(options)
        if seed is not None:
            engine_state.seed_generator(self._st, seed_to_rng_state(seed))
        to_move, bits, block = self._steps.reset(self._st, self._rp, self._is_match)
        self._legal = _legal_int(bits, block)
        self._begin(to_move)

    def set_state(self, state: np.ndarray) -> None:
        """Continue from a given engine state (int64, the game's ``state_size``), e.g. a position
        built with :class:`jass_env.round.Round` (``Round(...).state``); used like ``reset``.

        The state's match flag must agree with ``episode`` (``Round`` states are single rounds).
        Raises ValueError for a wrong shape or type, a mismatched match flag or a finished state,
        and :class:`jass_env.engine.validate.StateError` (a ValueError naming the field, the slot,
        the value and what is allowed) for a state the engine cannot play; the environment is then
        unchanged. A deal generator state outside 1..2**32-1 is replaced by a fresh one.
        """
        st = np.asarray(state)
        size = state_size(self.rules.spec)
        if st.shape != (size,) or st.dtype != np.int64:
            raise ValueError(f"state must be an int64 array of shape ({size},) (the {self.rules.spec.name} "
                             f"state size); got {st.dtype} {st.shape}")
        st = st.copy()
        view = StateView(st, self._rp)
        if not 0 < view.rng_state < 2**32:
            engine_state.seed_generator(st, seed_to_rng_state(None))
        check_state(st, self.rules)
        if view.is_match != self._is_match:
            raise ValueError(f"the state is {'a match' if view.is_match else 'a single round'} but this "
                             f"environment plays episode={self.episode!r}")
        if view.is_over:
            raise ValueError("the state is finished (phase over); nobody is to move")
        self._st[:] = st
        bits, block = self._steps.legal_set(self._st, self._rp)
        self._legal = _legal_int(int(bits), int(block))
        self._begin(view.to_move)

    def _begin(self, to_move: int) -> None:
        """Fresh PettingZoo bookkeeping for an episode that starts with ``to_move`` to act."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._reward_nonzero = False
        self._skip_agent_selection = None
        self.agent_selection = self._agents[to_move]

    def _outside_episode(self, call: str) -> RuntimeError:
        """The error for ``call`` when no episode runs (before reset, or every agent is done)."""
        when = ("before reset()" if not hasattr(self, "agent_selection") else
                "after the episode ended (every agent is done)")
        return RuntimeError(f"{self.metadata['name']}: {call} {when}; call reset() to deal a new episode")

    def last(self, observe: bool = True) -> tuple:
        """AECEnv.last, with a named error outside an episode."""
        if not self.agents:
            raise self._outside_episode("last()")
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise self._outside_episode("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = operator.index(action)
        except TypeError:                              # None, a float, a string, a numpy bool, ...
            a = -1
        if a < 0 or a >= self.n_actions or not (self._legal >> a) & 1 or type(action) is bool:
            raise IllegalActionError(self._illegal_message(agent, action))
        self._cumulative_rewards[agent] = 0.0
        to_move, bits, block, nonzero = self._step_fn(self._st, a, self._rp, self._kind, self._sign,
                                                         self._scale, self._rew)
        self._legal = bits if not block else _legal_int(bits, block)
        agents = self._agents
        if nonzero:
            r = self._rew.tolist()
            self.rewards = dict(zip(agents, r, strict=True))
            cum = self._cumulative_rewards
            for ag, x in zip(agents, r, strict=True):
                cum[ag] += x
            self._reward_nonzero = True
        elif self._reward_nonzero:                    # clear the previous step's rewards
            self.rewards = dict.fromkeys(agents, 0.0)
            self._reward_nonzero = False
        if to_move < 0:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agents[engine_state.to_move(self._st)]
        else:
            self.agent_selection = agents[to_move]
        if self.render_mode == "human":
            self.render()

    def _illegal_message(self, agent: str, action: Any) -> str:
        """Why ``agent`` may not play ``action`` now: not an action of the space, or not legal; with
        the legal actions."""
        names = self._action_names
        legal = legal_actions_text(self._legal, names)
        a = action_index(action, self.n_actions)
        if a is None:
            return f"{agent}: {action_problem(action, self.n_actions)}; legal actions now: {legal}"
        return f"{agent} may not play {names[a]} (action {a}) now; legal actions: {legal}"

    def _unknown_agent(self, agent: Any) -> ValueError:
        return ValueError(f"unknown agent {agent!r}; the agents of {self.rules.game}: "
                          f"{', '.join(self.possible_agents)}")

    # views
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (module docstring); ValueError for an unknown agent,
        RuntimeError before ``reset()``."""
        try:
            index = self._index[agent]
            with_mask = agent == self.agent_selection and not self.terminations.get(agent, True)
        except (KeyError, TypeError):
            raise self._unknown_agent(agent) from None
        except AttributeError:                         # no agent_selection: never reset
            raise self._outside_episode(f"observe({agent!r})") from None
        obs = np.empty(self._obs_dim, dtype=np.float32)
        mask = np.zeros(self.n_actions, dtype=np.int8)
        self._observe_fn(self._st, index, self._rp, with_mask, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """Full-information state (float32, ``state_space``) from the seat of the agent to move;
        RuntimeError before ``reset()``."""
        if not hasattr(self, "agent_selection"):
            raise self._outside_episode("state()")
        out = np.empty(self._state_dim, dtype=np.float32)
        self._steps.state(self._st, self._index[self.agent_selection], self._rp, out)
        return out

    @property
    def core_state(self) -> np.ndarray:
        """The engine's state array (int64, the game's state size; read it with
        :class:`jass_env.engine.state.StateView`).

        Read-only by convention: changing it bypasses the environment's bookkeeping.
        """
        return self._st

    def legal_actions_mask(self) -> int:
        """The legal actions of the agent to move as an int, bit a = action a legal (0 once the
        episode is over)."""
        return 0 if self.terminations.get(self.agent_selection, True) else int(self._legal)

    def render(self, show_hands: str | int | None = "all") -> str | None:
        """``"ansi"``: the table as text (:func:`jass_env.render.render_table`); ``"human"``: print it.
        RuntimeError before ``reset()`` (no table is dealt)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if not hasattr(self, "agent_selection"):
            raise self._outside_episode("render()")
        text = render_table(self._st, self.rules, show_hands=show_hands)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        pass


def _register() -> None:
    """Make ``pettingzoo.make("aec", "<id>", **kwargs)`` work for every spec of the registry
    (PettingZoo versions with a registry)."""
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        return
    for game in REGISTRY.values():
        for spec_name, (aec_id, _) in game.env_ids.items():
            pettingzoo.register("aec", aec_id, entry_point="jass_env.envs.aec:game_env",
                                kwargs={"game": spec_name})


_register()

__all__ = ["env", "raw_env", "game_env", "env_ids", "resolve_rules", "compiled_steps", "EPISODES",
           "ILLEGAL_REWARD"]
