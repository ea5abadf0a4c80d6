"""PettingZoo AEC environments for the Jass family: Schieber (``jass_v0``), Differenzler
(``differenzler_v0``, ``differenzler3_v0``) and Coiffeur (``coiffeur_v0``, ``coiffeur6_v0``,
``coiffeur10_v0``).

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

The game is the one of ``rules`` (a preset name or :class:`~jass_env.rules.Rules`); ``game=``
("schieber", "differenzler", "differenzler3") picks that game's default preset, or checks that
``rules`` belong to it. Everything sized by the game (agents, actions, observation) follows its
:class:`~jass_env.spec.GameSpec`.

Agents
    ``player_0`` … ``player_{n-1}``, seated in play order. Schieber (n = 4): partners are 0 & 2
    (team 0) and 1 & 3 (team 1); forehand chooses the contract or pushes, after a push the partner
    chooses, then the cards are played. Differenzler (n = 4, or 3 in ``differenzler3``): everyone
    alone; trump is fixed at the deal, each player predicts his points from forehand to the dealer,
    then the cards are played. Coiffeur (n = 4, teams as Schieber): the candidates from forehand
    declare one of their team's open rows or push to the next (after a full cycle of pushes the
    first must declare); the declarer leads. Schieber for six (``schieber6_v0``, n = 6): teams
    0, 2, 4 and 1, 3, 5; a push goes to forehand + 2; Schieber's 43 actions. The agent to move is
    ``agent_selection``.

Actions
    Schieber: ``Discrete(43)`` (:mod:`jass_env.cards`): 0..35 play that card, 36..41 choose
    the contract D H S C obenabe undenufe, 42 push. **Weis and Stöck are declared
    automatically**: every Weis a player holds is declared when the contract is named and the
    winning team's Weis score with trick 1; Stöck (trump K+Q in one hand) is credited when the
    second of the two cards is played. So no action exists for them.
    Differenzler: ``Discrete(194)``: 0..35 play that card, 36 + k predict k points (k = 0..157).
    Coiffeur: 0..35 cards, 36..41 declare row D H S C obenabe undenufe, 42 push; ``coiffeur``
    adds 43 + 6 j + c = Joker row j played as contract c (55 in all), ``coiffeur10`` 55..58 =
    Slalom from O, from U, Guschti from O, from U (59); ``coiffeur6`` is Schieber's 43. The mask
    holds only the mover's team's open rows, and no push when he must declare.
    Sidi-Jass for two (``sidi_v0``, 2 agents): ``Discrete(37)``: 0..35 play that card, 36 exchange
    the trump 6 for the face-up trump card (masked unless the mover leads, holds it, the stock has
    cards and nobody exchanged yet); observation :mod:`jass_env.observation_sidi` (443), state with
    both hands and the stock's order (1235).

Observations
    ``Dict(observation=Box(low, high, (obs_dim,), float32), action_mask=Box(0, 1, (n_actions,),
    int8))``, from the observing agent's seat (:func:`jass_env.encoding.encode_observation`;
    layouts: Schieber :mod:`jass_env.observation` (529), Differenzler
    :mod:`jass_env.observation_differenzler` (423, 3 players 343), Coiffeur
    :mod:`jass_env.observation_coiffeur` (598: both sheets, the row, its factor and trick
    schedule, this deal's pushes, the deals left)). ``action_mask`` holds exactly
    the legal actions (:func:`jass_env.observation.encode_action_mask`) for the agent to move and
    is all zero for the other agents and once the episode is over (PettingZoo classic convention).
    The bounds come from :func:`jass_env.encoding.observation_bounds` (Schieber:
    :func:`observation_high`, computed from the rules so that every value fits). Each call returns
    new arrays (keep them safely, e.g. in a replay buffer).

State
    ``state()`` is the full-information vector of :func:`jass_env.encoding.encode_state` (the
    observation of the agent to move followed by all hands, and in Differenzler all predictions),
    for centralized critics; ``state_space`` is its Box. It never appears in ``observe()``.

Rewards
    :func:`jass_env.rewards.step_with_rewards` gives every step's rewards of all agents
    (Schieber: ``reward="points"``, ``"win"`` or ``"tricks"``; Differenzler: ``"points"`` or
    ``"win"``; see :mod:`jass_env.rewards`); they sum to zero over the agents. ``last()`` returns
    the reward accumulated since the agent last acted (PettingZoo's ``_cumulative_rewards``).

Episodes
    ``episode="round"`` (default except Coiffeur): one dealt round; all agents terminate when it
    ends. ``episode="match"``: rounds follow one another (next dealer in play order) until the
    match is decided (Schieber: the rules' target or number of rounds; Differenzler:
    ``match_rounds`` rounds, a tie for the lowest total playing on; Coiffeur, where it is the
    default: the whole game, until both sheets are full, 2 x rows deals); all agents terminate
    then. No truncation.

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

from . import core, encoding, kernel
from .game import IllegalActionError, seed_to_rng_state
from .observation import TIE_ROUNDS_BOUND, encode_action_mask, observation_high
from .render import render_table
from .rewards import reward_kind, reward_kinds, step_with_rewards
from .rules import Rules, RulesError, make_rules, presets_of
from .schieber import round_score_max
from .spec import SPECS

EPISODES = ("round", "match")
RENDER_MODES = ("human", "ansi")
#: Schieber's agents (every game: ``player_0`` .. ``player_{n-1}``)
AGENTS = ("player_0", "player_1", "player_2", "player_3")
ENV_KWARGS = ("rules", "rule_overrides", "episode", "reward", "render_mode", "game")
#: the registered environment name of each game
ENV_NAMES = {"schieber": "jass_v0", "differenzler": "differenzler_v0", "differenzler3": "differenzler3_v0",
             # ---- Coiffeur (issue 15)
             "coiffeur": "coiffeur_v0", "coiffeur6": "coiffeur6_v0", "coiffeur10": "coiffeur10_v0"}
# --- Mittlere and Molotow (issue 17)
ENV_NAMES.update(mittlere="mittlere_v0", molotow="molotow_v0", molotow3="molotow3_v0")
# --- end Mittlere and Molotow
ENV_NAMES["sidi"] = "sidi_v0"          # ---- Sidi
# ---- Schieber for six
ENV_NAMES["schieber6"] = "schieber6_v0"
# ---- Molotow for five and six (issue 17)
ENV_NAMES.update(molotow5="molotow5_v0", molotow6="molotow6_v0")


# ---------------------------------------------------------------------------------- compiled steps
@njit(cache=True)
def _env_step(st: np.ndarray, action: int, rp: np.ndarray, kind: int, is_match: bool,
              rewards: np.ndarray) -> tuple[int, int, int, bool]:
    """Apply a legal action, write every player's reward, deal on in a match.

    Returns (player to move next or -1 when the episode is over, that player's legal actions as
    the bitboard and the block of :func:`jass_env.core.legal_block`, whether any reward is
    non-zero).
    """
    step_with_rewards(st, action, rp, kind, rewards)
    nonzero = False
    for p in range(rewards.shape[0]):
        nonzero |= rewards[p] != 0.0
    if core.episode_over(st, rp):
        return -1, 0, 0, nonzero
    return kernel.to_move(st), core.legal_actions_mask(st, rp), core.legal_block(st, rp), nonzero


@njit(cache=True)
def _env_reset(st: np.ndarray, rp: np.ndarray, is_match: bool) -> tuple[int, int, int]:
    """Start an episode: match fields, first deal. Returns (player to move, legal bits, block)."""
    core.start_episode(st, rp, is_match, -1)
    return kernel.to_move(st), core.legal_actions_mask(st, rp), core.legal_block(st, rp)


@njit(cache=True)
def _observe(st: np.ndarray, observer: int, rp: np.ndarray, with_mask: bool, obs: np.ndarray,
             mask: np.ndarray) -> None:
    """Observation of ``observer`` into ``obs``; the legal actions into ``mask`` if ``with_mask``
    (``mask`` must be zero on entry)."""
    encoding.encode_observation(st, observer, rp, obs)
    if with_mask:
        encode_action_mask(st, rp, mask)


def _legal_int(bits: int, block: int) -> int:
    """A legal set as one Python int, bit a = action a legal (the block's bits above 63 too)."""
    return bits if not block else bits | (((1 << block) - 1) << core.PHASE_ACTION_OFFSET)


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


# ---------------------------------------------------------------------------------- construction
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

    Keywords: ``rules`` (preset name or Rules), ``game`` (a game's default preset, see the module
    docstring), ``rule_overrides`` (dict of switches), ``episode`` ("round" or "match"),
    ``reward`` ("points", "win", Schieber also "tricks"), ``render_mode`` (None, "human", "ansi").
    """
    _check_kwargs(kwargs)
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _OrderEnforcing(e)


def differenzler_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Differenzler (``differenzler_v0``): the ``differenzler`` preset unless
    ``rules`` or ``game`` say otherwise."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", "differenzler")
    return env(**kwargs)


def differenzler3_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Differenzler for three (``differenzler3_v0``)."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", "differenzler3")
    return env(**kwargs)


# ---- Coiffeur (issue 15)
def coiffeur_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Coiffeur (``coiffeur_v0``; the whole game unless ``episode="round"``)."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", "coiffeur")
    return env(**kwargs)


def coiffeur6_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Coiffeur with the seed's six rows (``coiffeur6_v0``)."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", "coiffeur6")
    return env(**kwargs)


def coiffeur10_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Coiffeur with Slalom and Guschti (``coiffeur10_v0``)."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", "coiffeur10")
    return env(**kwargs)


# --- Mittlere and Molotow (issue 17)
def _game_env(game: str, kwargs: dict[str, Any]) -> AECEnv:
    if "rules" not in kwargs:
        kwargs.setdefault("game", game)
    return env(**kwargs)


def mittlere_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Mittlere (``mittlere_v0``): the ``mittlere`` preset unless ``rules`` or
    ``game`` say otherwise."""
    return _game_env("mittlere", kwargs)


def molotow_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Molotow (``molotow_v0``)."""
    return _game_env("molotow", kwargs)


def molotow3_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Molotow for three (``molotow3_v0``)."""
    return _game_env("molotow3", kwargs)


def molotow5_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Molotow for five (``molotow5_v0``: 5 agents, the deck without the ♠7)."""
    return _game_env("molotow5", kwargs)


def molotow6_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Molotow for six (``molotow6_v0``: 6 agents)."""
    return _game_env("molotow6", kwargs)
# --- end Mittlere and Molotow


# --- Sidi (project rules)
def sidi_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Sidi-Jass for two (``sidi_v0``): 2 agents, ``Discrete(37)`` (36 = exchange
    the trump 6 for the face-up card, masked when not allowed)."""
    return _game_env("sidi", kwargs)
# --- end Sidi


# ---- Schieber for six
def schieber6_env(**kwargs: Any) -> AECEnv:
    """:func:`env` for Schieber for six (``schieber6_v0``): the ``schieber6`` preset unless
    ``rules`` or ``game`` say otherwise."""
    return _game_env("schieber6", kwargs)


def _not_an_action(action: Any, n_actions: int) -> str | None:
    """Why ``action`` is no action at all (a bool, a float, a string, ...), None for an integer."""
    if isinstance(action, (bool, np.bool_)):
        return f"{action!r} is a bool, not an action; actions are integers 0..{n_actions - 1}"
    if not hasattr(action, "__index__"):
        return f"{action!r} is not an action; actions are integers 0..{n_actions - 1}"
    return None


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper (the outermost wrapper), with named errors where the
    wrappers below would fail with an unrelated one: IllegalActionError for an action that is not
    an integer (``step(True)``), and raw_env's RuntimeError for ``step()`` or ``last()`` after the
    episode (every agent is done)."""

    def last(self, observe: bool = True) -> tuple:
        if self._has_reset and not self.unwrapped.agents:
            raise self.unwrapped._outside_episode("last()")
        return super().last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and not self.unwrapped.agents:
            raise self.unwrapped._outside_episode("step()")
        problem = None if action is None else _not_an_action(action, self.unwrapped.n_actions)
        if problem:
            raise IllegalActionError(f"{self.unwrapped.agent_selection}: {problem}")
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
        self.metadata = {**raw_env.metadata, "name": ENV_NAMES[spec.name]}
        self.episode = episode
        self.reward_name = reward
        self.render_mode = render_mode
        self._kind = int(reward_kind(reward, self.rules))
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

        self._st = core.new_state(seed_to_rng_state(None))
        self._rew = np.zeros(spec.players, dtype=np.float64)
        self._legal = 0          # legal actions (bit a = action a) of the agent to move
        self._reward_nonzero = False
        # compiled entry points, bound once (types: see _fast); run on a scratch state
        scratch = core.new_state(1)
        _, bits, block = _env_reset(scratch, self._rp, self._is_match)
        first_legal = (bits & -bits).bit_length() - 1 if bits else core.PHASE_ACTION_OFFSET
        self._step_fn = _fast(_env_step, scratch, first_legal, self._rp, int(self._kind),
                              bool(self._is_match), self._rew)
        self._observe_fn = _fast(_observe, self._st, 0, self._rp, True,
                                 np.zeros(self._obs_dim, dtype=np.float32),
                                 np.zeros(self.n_actions, dtype=np.int8))

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
            kernel.seed_generator(self._st, seed_to_rng_state(seed))
        to_move, bits, block = _env_reset(self._st, self._rp, self._is_match)
        self._legal = _legal_int(bits, block)
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
        view = core.StateView(st, self._rp)
        if view.is_match != self._is_match:
            raise ValueError(f"the state is {'a match' if view.is_match else 'a single round'} but this "
                             f"environment plays episode={self.episode!r}")
        if view.is_over:
            raise ValueError("the state is finished (phase over); nobody is to move")
        self._st[:] = st
        if not 0 < view.rng_state < 2**32:
            kernel.seed_generator(self._st, seed_to_rng_state(None))
        self._legal = _legal_int(int(core.legal_actions_mask(self._st, self._rp)),
                                 int(core.legal_block(self._st, self._rp)))
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
            a = action.__index__()  # type: ignore[union-attr]
        except AttributeError:
            a = -1
        if a < 0 or a >= self.n_actions or not (self._legal >> a) & 1 or type(action) is bool:
            raise IllegalActionError(self._illegal_message(agent, action))
        self._cumulative_rewards[agent] = 0.0
        to_move, bits, block, nonzero = self._step_fn(self._st, a, self._rp, self._kind, self._is_match,
                                                      self._rew)
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
            self.agent_selection = agents[kernel.to_move(self._st)]
        else:
            self.agent_selection = agents[to_move]
        if self.render_mode == "human":
            self.render()

    def _illegal_message(self, agent: str, action: Any) -> str:
        problem = _not_an_action(action, self.n_actions)
        if problem:
            return f"{agent}: {problem}"
        names = self._action_names
        if isinstance(action, (int, np.integer)) and 0 <= action < self.n_actions:
            what = f"{names[int(action)]} (action {int(action)})"
        else:
            what = f"{action!r} (actions are integers 0..{self.n_actions - 1})"
        legal = encoding.legal_actions_text(self._legal, names)
        return f"{agent} may not play {what} now; legal actions: {legal}"

    # ------------------------------------------------------------------ views
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.empty(self._obs_dim, dtype=np.float32)
        mask = np.zeros(self.n_actions, dtype=np.int8)
        with_mask = agent == self.agent_selection and not self.terminations.get(agent, True)
        self._observe_fn(self._st, self._index[agent], self._rp, with_mask, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """Full-information state (float32, ``state_space``) from the seat of the agent to move."""
        out = np.empty(self._state_dim, dtype=np.float32)
        encoding.encode_state(self._st, self._index[self.agent_selection], self._rp, out)
        return out

    @property
    def core_state(self) -> np.ndarray:
        """The engine's state array (int64, ``core.S_SIZE``; read it with :class:`core.StateView`).

        Read-only by convention: changing it bypasses the environment's bookkeeping.
        """
        return self._st

    def legal_actions_mask(self) -> int:
        """The legal actions of the agent to move as an int, bit a = action a legal (0 once the
        episode is over)."""
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


#: the entry point of each registered name
_ENTRY_POINTS = {"jass_v0": "jass_env.aec:env", "differenzler_v0": "jass_env.aec:differenzler_env",
                 "differenzler3_v0": "jass_env.aec:differenzler3_env",
                 # ---- Coiffeur (issue 15)
                 "coiffeur_v0": "jass_env.aec:coiffeur_env", "coiffeur6_v0": "jass_env.aec:coiffeur6_env",
                 "coiffeur10_v0": "jass_env.aec:coiffeur10_env"}
# --- Mittlere and Molotow (issue 17)
_ENTRY_POINTS.update({"mittlere_v0": "jass_env.aec:mittlere_env", "molotow_v0": "jass_env.aec:molotow_env",
                      "molotow3_v0": "jass_env.aec:molotow3_env"})
# --- end Mittlere and Molotow
_ENTRY_POINTS["sidi_v0"] = "jass_env.aec:sidi_env"   # ---- Sidi
_ENTRY_POINTS["schieber6_v0"] = "jass_env.aec:schieber6_env"    # ---- Schieber for six
# ---- Molotow for five and six (issue 17)
_ENTRY_POINTS.update({"molotow5_v0": "jass_env.aec:molotow5_env", "molotow6_v0": "jass_env.aec:molotow6_env"})


def _register() -> None:
    """Make ``pettingzoo.make("aec", "jass_v0", **kwargs)`` (and the Differenzler names) work
    (PettingZoo versions with a registry)."""
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        return
    for name, entry in _ENTRY_POINTS.items():
        if name not in getattr(pettingzoo, "aec_registry", {}):
            pettingzoo.register("aec", name, entry_point=entry)


_register()

__all__ = ["env", "raw_env", "differenzler_env", "differenzler3_env", "coiffeur_env", "coiffeur6_env",
           "coiffeur10_env", "mittlere_env", "molotow_env", "molotow3_env", "sidi_env", "schieber6_env",
           "molotow5_env", "molotow6_env", "resolve_rules",
           "observation_high",
           "round_score_max", "EPISODES", "AGENTS", "ENV_NAMES", "TIE_ROUNDS_BOUND"]
