"""PettingZoo AEC environment for Schieber Jass (``jass_v0``).

>>> from jass_env.aec import env
>>> e = env(rules="schieber", episode="round", reward="points")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents
    ``player_0`` … ``player_3``, seated in play order; partners are 0 & 2 (team 0) and
    1 & 3 (team 1). The agent to move is ``agent_selection``: forehand chooses the contract or
    pushes, after a push the partner chooses, then the cards are played.

Actions
    ``Discrete(43)`` for every agent (:mod:`jass_env.cards`): 0..35 play that card, 36..41 choose
    the contract D H S C obenabe undenufe, 42 push. **Weis and Stöck are declared
    automatically**: every Weis a player holds is declared when the contract is named and the
    winning team's Weis score with trick 1; Stöck (trump K+Q in one hand) is credited when the
    second of the two cards is played. So no action exists for them.

Observations
    ``Dict(observation=Box(0, high, (OBS_DIM,), float32), action_mask=Box(0, 1, (43,), int8))``,
    from the observing agent's seat (:func:`jass_env.observation.encode_observation`, layout in
    :mod:`jass_env.observation`). ``action_mask`` holds exactly the legal actions
    (:func:`jass_env.observation.encode_action_mask`) for the agent to move and is all zero for
    the other agents and once the episode is over (PettingZoo classic convention). ``high`` is
    computed from the rules by :func:`observation_high` so that every value fits; see there.
    Each call returns new arrays (keep them safely, e.g. in a replay buffer).

State
    ``state()`` is the full-information vector of :func:`jass_env.observation.encode_state`
    (the observation of the agent to move followed by all four hands, ``STATE_DIM`` float32),
    for centralized critics; ``state_space`` is its Box. It never appears in ``observe()``.

Rewards
    :func:`jass_env.rewards.step_with_rewards` gives every step's rewards of all four agents
    (``reward="points"``, ``"win"`` or ``"tricks"``, see :mod:`jass_env.rewards`); the two teams'
    rewards sum to zero. ``last()`` returns the reward accumulated since the agent last acted
    (PettingZoo's ``_cumulative_rewards``).

Episodes
    ``episode="round"`` (default): one dealt round; all agents terminate when it ends.
    ``episode="match"``: rounds follow one another (next dealer in play order) until the match is
    decided (the rules' target or number of rounds); all agents terminate then. No truncation.

Seeding
    ``reset(seed=s)`` seeds the deal generator (``game.seed_to_rng_state``); ``reset()`` without
    a seed deals the next hands from the same stream, so episodes form one reproducible sequence.

Illegal actions
    ``raw_env`` raises :class:`jass_env.game.IllegalActionError` naming the agent, the action and
    the legal actions; ``env()`` wraps it in PettingZoo's ``TerminateIllegalWrapper``
    (``illegal_reward=-1``: the offender gets -1, everyone terminates), ``AssertOutOfBoundsWrapper``
    and ``OrderEnforcingWrapper``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from numba import njit
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import core
from .cards import ACTION_NAMES, N_ACTIONS
from .game import IllegalActionError, seed_to_rng_state
from .observation import OBS_DIM, SLICES, STATE_DIM, encode_action_mask, encode_observation, encode_state
from .render import render_table
from .rewards import REWARD_KINDS, REWARD_SCALE, reward_kind, step_with_rewards
from .rules import Rules, RulesError, make_rules

EPISODES = ("round", "match")
RENDER_MODES = ("human", "ansi")
AGENTS = ("player_0", "player_1", "player_2", "player_3")
ENV_KWARGS = ("rules", "rule_overrides", "episode", "reward", "render_mode")
#: consecutive tied rounds past the target (``match_finish="round_end"``) that the match-score
#: bound of :func:`observation_high` allows for
TIE_ROUNDS_BOUND = 10


# ---------------------------------------------------------------------------------- compiled steps
@njit(cache=True)
def _env_step(st: np.ndarray, action: int, rp: np.ndarray, kind: int, is_match: bool,
              rewards: np.ndarray) -> tuple[int, int, bool]:
    """Apply a legal action, write the 4 rewards, deal on in a match.

    Returns (player to move next or -1 when the episode is over, that player's legal-action
    mask, whether any reward is non-zero).
    """
    step_with_rewards(st, action, rp, kind, rewards)
    nonzero = rewards[0] != 0.0 or rewards[1] != 0.0 or rewards[2] != 0.0 or rewards[3] != 0.0
    if core.episode_over(st, rp):
        return -1, 0, nonzero
    return st[core.S_TO_MOVE], core.legal_actions_mask(st, rp), nonzero


@njit(cache=True)
def _env_reset(st: np.ndarray, rp: np.ndarray, is_match: bool) -> tuple[int, int]:
    """Start an episode: match fields, first deal. Returns (player to move, legal mask)."""
    core.start_episode(st, rp, is_match, -1)
    return st[core.S_TO_MOVE], core.legal_actions_mask(st, rp)


@njit(cache=True)
def _observe(st: np.ndarray, observer: int, rp: np.ndarray, with_mask: bool, obs: np.ndarray,
             mask: np.ndarray) -> None:
    """Observation of ``observer`` into ``obs``; the legal actions into ``mask`` if ``with_mask``
    (``mask`` must be zero on entry)."""
    encode_observation(st, observer, rp, obs)
    if with_mask:
        encode_action_mask(st, rp, mask)


def _fast(dispatcher: Any, *args: Any) -> Any:
    """The compiled entry point of ``dispatcher`` for the types of ``args``, skipping numba's
    per-call type dispatch (about 0.5 us a call). Calls it once with ``args`` to compile or load it
    from the cache; only ever call the result with arguments of exactly these types. Under
    ``NUMBA_DISABLE_JIT=1`` the plain function.
    """
    dispatcher(*args)
    overloads = getattr(dispatcher, "overloads", None)
    if not overloads:
        return dispatcher
    from numba import typeof
    return overloads[tuple(typeof(a) for a in args)].entry_point


# ---------------------------------------------------------------------------------- spaces
def _weis_team_max(rules: Rules) -> int:
    """An upper bound of one team's Weis points in a round (before the multiplier).

    Nine cards hold at most 3 runs of >= 3 cards and at most 2 fours of a kind, so a hand
    declares at most 3 * max(sequence value) + 2 * max(quad value); a team has two hands.
    """
    if not rules.weis:
        return 0
    return 2 * (3 * max(rules.sequence_values) + 2 * max(v for _, v in rules.quad_values))


def round_score_max(rules: Rules) -> int:
    """An upper bound of one team's score in one round (multiplier applied)."""
    return max(rules.multipliers) * (157 + rules.match_bonus + _weis_team_max(rules) + rules.stoeck)


def observation_high(rules: Rules) -> np.ndarray:
    """Upper bounds (float32, OBS_DIM) of the observation vector under ``rules``; the low is 0.

    One-hot and card slices and ``card_points`` are at most 1. The others follow from the rules:
    ``weis_points`` from the largest Weis a team can hold, ``round_score`` from
    :func:`round_score_max`, ``match`` totals from target + (1 + TIE_ROUNDS_BOUND) rounds + the
    Bergpreis (a match ends at the round that passes the target, or, under
    ``match_finish="round_end"``, after a tie; the bound allows ``TIE_ROUNDS_BOUND`` tied rounds in
    a row), ``target / 2500`` and ``multiplier / 4`` from the switches. A small margin covers
    float32 rounding.
    """
    high = np.ones(OBS_DIM, dtype=np.float64)
    high[SLICES["weis_points"]] = max(1.0, _weis_team_max(rules) / REWARD_SCALE)
    high[SLICES["round_score"]] = max(1.0, round_score_max(rules) / REWARD_SCALE)
    m = SLICES["match"]
    if rules.target > 0:
        total = rules.target + (1 + TIE_ROUNDS_BOUND) * round_score_max(rules) + rules.bergpreis
        high[m.start:m.start + 2] = max(1.0, total / rules.target)
        high[m.start + 2] = max(1.0, rules.target / 2500.0)
    high[SLICES["multiplier"]] = max(1.0, max(rules.multipliers) / 4.0)
    return (high * 1.0001).astype(np.float32)


def _check_kwargs(kwargs: dict[str, Any]) -> None:
    unknown = sorted(set(kwargs) - set(ENV_KWARGS))
    if unknown:
        raise TypeError(f"unknown keyword argument(s) {', '.join(map(repr, unknown))} for jass_v0; "
                        f"valid keywords: {', '.join(ENV_KWARGS)}")


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (illegal action: -1 and termination).

    Keywords: ``rules`` (preset name or Rules), ``rule_overrides`` (dict of switches),
    ``episode`` ("round" or "match"), ``reward`` ("points", "win", "tricks"), ``render_mode``
    (None, "human", "ansi").
    """
    _check_kwargs(kwargs)
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = _RejectNonActions(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def _not_an_action(action: Any) -> str | None:
    """Why ``action`` is no action at all (a bool, a float, a string, ...), None for an integer."""
    if isinstance(action, (bool, np.bool_)):
        return f"{action!r} is a bool, not an action; actions are integers 0..{N_ACTIONS - 1}"
    if not hasattr(action, "__index__"):
        return f"{action!r} is not an action; actions are integers 0..{N_ACTIONS - 1}"
    return None


class _RejectNonActions(wrappers.BaseWrapper):
    """Raises IllegalActionError for an action that is not an integer (``step(True)``), before
    PettingZoo's wrappers would fail on it with an unrelated error."""

    def step(self, action: Any) -> None:
        problem = None if action is None else _not_an_action(action)
        if problem:
            raise IllegalActionError(f"{self.agent_selection}: {problem}")
        super().step(action)


class raw_env(AECEnv, EzPickle):
    """The unwrapped AEC environment (see the module docstring)."""

    metadata = {"name": "jass_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: str | Rules | None = None, *, rule_overrides: dict[str, Any] | None = None,
                 episode: str = "round", reward: str = "points", render_mode: str | None = None,
                 **unknown: Any) -> None:
        _check_kwargs(unknown)
        EzPickle.__init__(self, rules, rule_overrides=rule_overrides, episode=episode, reward=reward,
                          render_mode=render_mode)
        super().__init__()
        if rule_overrides is None:
            rule_overrides = {}
        if not isinstance(rule_overrides, dict):
            raise RulesError(f"rule_overrides must be a dict of rule switches, e.g. {{'stoeck': 0}}; "
                             f"got {type(rule_overrides).__name__}")
        self.rules: Rules = make_rules(rules, **rule_overrides)
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r}; valid episodes: {', '.join(EPISODES)}")
        if reward not in REWARD_KINDS:
            raise ValueError(f"unknown reward {reward!r}; valid rewards: {', '.join(REWARD_KINDS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; valid: None, {', '.join(RENDER_MODES)}")
        self.episode = episode
        self.reward_name = reward
        self.render_mode = render_mode
        self._kind = int(reward_kind(reward))
        self._is_match = bool(episode == "match")
        self._rp = self.rules.params

        self.possible_agents = list(AGENTS)
        self.agents = []
        self._index = {a: i for i, a in enumerate(AGENTS)}
        high = observation_high(self.rules)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=high, shape=(OBS_DIM,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
            }) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        state_high = np.concatenate([high, np.ones(STATE_DIM - OBS_DIM, dtype=np.float32)])
        self.state_space = spaces.Box(low=0.0, high=state_high, shape=(STATE_DIM,), dtype=np.float32)

        self._st = np.zeros(core.S_SIZE, dtype=np.int64)
        self._st[core.S_RNG] = seed_to_rng_state(None)
        self._rew = np.zeros(4, dtype=np.float64)
        self._legal = 0          # legal-action mask (int) of the agent to move
        self._reward_nonzero = False
        # compiled entry points, bound once (types: see _fast); run on a scratch state
        scratch = np.zeros(core.S_SIZE, dtype=np.int64)
        scratch[core.S_RNG] = 1
        _, legal = _env_reset(scratch, self._rp, self._is_match)
        first_legal = (legal & -legal).bit_length() - 1
        self._step_fn = _fast(_env_step, scratch, first_legal, self._rp, int(self._kind),
                              bool(self._is_match), self._rew)
        self._observe_fn = _fast(_observe, self._st, 0, self._rp, True, np.zeros(OBS_DIM, dtype=np.float32),
                                 np.zeros(N_ACTIONS, dtype=np.int8))

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                                 or seed < 0):
            raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
        if seed is not None:
            self._st[core.S_RNG] = seed_to_rng_state(seed)
        to_move, self._legal = _env_reset(self._st, self._rp, self._is_match)
        self._begin(to_move)

    def set_state(self, state: np.ndarray) -> None:
        """Continue from a given engine state (int64, ``core.S_SIZE``), e.g. a position built with
        :class:`jass_env.game.Round` (``Round(...).state``); used like ``reset``.

        The state's match flag must agree with ``episode`` (``Round`` states are single rounds).
        Raises ValueError for a wrong shape or type, a mismatched match flag or a finished state.
        """
        st = np.asarray(state)
        if st.shape != (core.S_SIZE,) or st.dtype != np.int64:
            raise ValueError(f"state must be an int64 array of shape ({core.S_SIZE},) (core.S_SIZE); "
                             f"got {st.dtype} {st.shape}")
        if bool(st[core.S_MATCH]) != self._is_match:
            raise ValueError(f"the state is {'a match' if st[core.S_MATCH] else 'a single round'} but this "
                             f"environment plays episode={self.episode!r}")
        if st[core.S_PHASE] == core.PHASE_OVER:
            raise ValueError("the state is finished (phase over); nobody is to move")
        self._st[:] = st
        if not 0 < self._st[core.S_RNG] < 2**32:
            self._st[core.S_RNG] = seed_to_rng_state(None)
        self._legal = int(core.legal_actions_mask(self._st, self._rp))
        self._begin(int(self._st[core.S_TO_MOVE]))

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
        self.agent_selection = AGENTS[to_move]

    def _outside_episode(self, call: str) -> RuntimeError:
        """The error for ``call`` when no episode runs (before reset, or every agent is done)."""
        when = ("before reset()" if not hasattr(self, "agent_selection") else
                "after the episode ended (every agent is done)")
        return RuntimeError(f"jass_v0: {call} {when}; call reset() to deal a new episode")

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
            a = action.__index__()  # type: ignore[union-attr]
        except AttributeError:
            a = -1
        if a < 0 or a >= N_ACTIONS or not (self._legal >> a) & 1 or type(action) is bool:
            raise IllegalActionError(self._illegal_message(agent, action))
        self._cumulative_rewards[agent] = 0.0
        to_move, self._legal, nonzero = self._step_fn(self._st, a, self._rp, self._kind, self._is_match,
                                                      self._rew)
        if nonzero:
            r = self._rew.tolist()
            self.rewards = dict(zip(AGENTS, r, strict=True))
            cum = self._cumulative_rewards
            for ag, x in zip(AGENTS, r, strict=True):
                cum[ag] += x
            self._reward_nonzero = True
        elif self._reward_nonzero:                    # clear the previous step's rewards
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self._reward_nonzero = False
        if to_move < 0:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = AGENTS[self._st[core.S_TO_MOVE]]
        else:
            self.agent_selection = AGENTS[to_move]
        if self.render_mode == "human":
            self.render()

    def _illegal_message(self, agent: str, action: Any) -> str:
        problem = _not_an_action(action)
        if problem:
            return f"{agent}: {problem}"
        legal = [a for a in range(N_ACTIONS) if (self._legal >> a) & 1]
        if isinstance(action, (int, np.integer)) and 0 <= action < N_ACTIONS:
            what = f"{ACTION_NAMES[int(action)]} (action {int(action)})"
        else:
            what = f"{action!r} (actions are integers 0..{N_ACTIONS - 1})"
        return (f"{agent} may not play {what} now; legal actions: "
                + ", ".join(f"{ACTION_NAMES[x]} ({x})" for x in legal))

    # ------------------------------------------------------------------ views
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.empty(OBS_DIM, dtype=np.float32)
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        with_mask = agent == self.agent_selection and not self.terminations.get(agent, True)
        self._observe_fn(self._st, self._index[agent], self._rp, with_mask, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """Full-information state (STATE_DIM float32) from the seat of the agent to move."""
        out = np.empty(STATE_DIM, dtype=np.float32)
        encode_state(self._st, self._index[self.agent_selection], self._rp, out)
        return out

    @property
    def core_state(self) -> np.ndarray:
        """The engine's state array (int64, ``core.S_SIZE``; layout in :mod:`jass_env.core`).

        Read-only by convention: changing it bypasses the environment's bookkeeping.
        """
        return self._st

    def legal_actions_mask(self) -> int:
        """The legal actions of the agent to move as a 43-bit int (0 once the episode is over)."""
        return 0 if self.terminations.get(self.agent_selection, True) else int(self._legal)

    def render(self, show_hands: str | int | None = "all") -> str | None:
        """``"ansi"``: the table as text (:func:`jass_env.render.render_table`); ``"human"``: print it."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_table(self._st, self.rules, show_hands=show_hands)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        pass


def _register() -> None:
    """Make ``pettingzoo.make("aec", "jass_v0", **kwargs)`` work (PettingZoo versions with a registry)."""
    import pettingzoo

    if hasattr(pettingzoo, "register") and "jass_v0" not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", "jass_v0", entry_point="jass_env.aec:env")


_register()

__all__ = ["env", "raw_env", "observation_high", "round_score_max", "EPISODES", "AGENTS"]
