"""Batched self-play: ``num_envs`` Jass games stepped by one compiled call.

:class:`VectorJassEnv` runs many games with one rules configuration and the same observation
encoding (the game's observation module), action layout (the game's spec) and rewards
(:mod:`jass_env.envs.rewards`) as the PettingZoo environment (:mod:`jass_env.envs.aec`). In every game exactly
one seat acts at any time, so each call returns one observation per game, for the seat to act:

>>> env = VectorJassEnv(1024, rules="schieber", episode="round", reward="points")
>>> obs, mask, seat = env.reset(seed=0)        # (N, obs_dim) f32, (N, n_actions) bool, (N,) int64
>>> out = env.step(env.sample_actions())       # a VectorStep of arrays
>>> out.rewards[out.done]                      # (k, players) rewards of the games that just ended

Any game of the registry runs by its rules (``rules="molotow5"``): its actions, observation,
rewards and scores per side.

Finished games start a new episode by themselves (auto-reset): round episodes deal the next round
from the game's own generator, match episodes deal the next round of the match with
:func:`jass_env.engine.transitions.next_round` and, after the match, start a new match. The step
that finishes an
episode reports it in ``done`` with the result (``final_score``, ``winner``); its observation is
already the first one of the next episode.

Part of the batch can move alone: ``step(actions, active=...)`` and ``sample_actions(active=...)``
take a bool per game, and ``final_obs_seat`` keeps one seat's view of each finished episode's last
position (:attr:`VectorJassEnv.final_obs`), which the single-seat Gymnasium vector environment
(:mod:`jass_env.envs.gym_vector`) builds on.

Every rule lives in the engine and the game's rules: the batch loops below (:func:`kernels`) are
numba functions over the ``(num_envs, state_size)`` state array calling
``rewards.step_with_rewards``, the game's encoders, ``write_legal_mask`` and ``start_episode`` /
``episode_over``, exactly what the AEC environment calls for one game; they are compiled for one
game at a time.

Arrays: every returned array is preallocated once, C-contiguous, with dtypes float32 / bool / int64,
so ``torch.from_numpy`` shares the memory. **They are overwritten by the next** ``reset``/``step``
**call** (copy what you keep). ``bytes_per_game`` says what the env holds per game (Schieber: the
engine state and the 2.1 KB observation; ``benchmarks/vector.py`` prints it).

Speed: one decision (one action of one game: apply, reward, auto-reset, observation, mask) costs
well under a microsecond in the compiled loop; ``benchmarks/vector.py`` measures it.

Seeding follows the AEC environment: game ``i`` reset with ``seeds=[..., s, ...]`` deals exactly what
``raw_env(...).reset(seed=s)`` deals, and its later episodes continue the same generator as the AEC
env's ``reset()`` without a seed does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from numba import prange

from jass_env.engine import hooks, state
from jass_env.engine.cards import PHASE_ACTION_OFFSET, popcount
from jass_env.engine.deal import seed_to_rng_state, xorshift32
from jass_env.engine.jit import compiled, compiled_parallel, engine_inline, engine_jit
from jass_env.engine.state import state_size
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import (
    episode_over,
    in_legal_set,
    legal_set,
    pick_legal,
    start_episode,
    write_legal_mask,
)
from jass_env.engine.validate import check_states
from jass_env.games import make_rules
from jass_env.round import IllegalActionError, legal_actions_text

from . import encoding
from .checks import check_seed
from .rewards import reward_facts, reward_kind, step_with_rewards

EPISODES = ("round", "match")
#: what the sampler writes for a game without a legal action (never an action id)
NO_ACTION = -1


class VectorReset(NamedTuple):
    """What :meth:`VectorJassEnv.reset` returns (arrays are reused by the next call)."""

    obs: np.ndarray    #: (num_envs, obs_dim) float32, observation of the seat to act
    mask: np.ndarray   #: (num_envs, n_actions) bool, its legal actions
    seat: np.ndarray   #: (num_envs,) int64, the seat (player) to act


class VectorStep(NamedTuple):
    """What :meth:`VectorJassEnv.step` returns (arrays are reused by the next call)."""

    obs: np.ndarray          #: (num_envs, obs_dim) float32, next observation (of the seat to act)
    mask: np.ndarray         #: (num_envs, n_actions) bool, its legal actions
    seat: np.ndarray         #: (num_envs,) int64, the seat to act next
    rewards: np.ndarray      #: (num_envs, players) float32, reward of each player for this step
    done: np.ndarray         #: (num_envs,) bool, the game finished an episode at this step
    final_score: np.ndarray  #: (num_envs, sides) int64, where done: the episode's score per side
    #: (Schieber: round score with multipliers per team; Differenzler: penalty per player; in
    #: match mode the match totals); 0 elsewhere
    winner: np.ndarray       #: (num_envs,) int64, where done: the winning side (team 0/1, or the
    #: Differenzler player), ``sides`` (Schieber 2) = tie/draw; -1 elsewhere
    states: np.ndarray | None  #: (num_envs, state_dim) float32 with ``state_obs=True``, else None


# compiled
@engine_inline
def _observe(game: int, st: np.ndarray, rp: np.ndarray, i: int, obs: np.ndarray, mask: np.ndarray,
             seat: np.ndarray, legal: np.ndarray, block: np.ndarray, state_out: np.ndarray,
             want_state: bool) -> None:
    """Fill row ``i`` of the outputs for the seat to act in game ``st``; cache its legal set."""
    p = state.to_move(st)
    seat[i] = p
    legal[i], block[i] = legal_set(game, st, rp)
    if want_state:
        hooks.encode_state(game, st, p, rp, state_out[i])
        obs[i, :] = state_out[i, :obs.shape[1]]
    else:
        hooks.encode_observation(game, st, p, rp, obs[i])
    write_legal_mask(legal[i], block[i], mask[i])


@engine_jit
def _first_not_at_decision(states: np.ndarray, rp: np.ndarray) -> int:
    """Index of the first game whose round is over or was never dealt, -1 if every game has a
    seat to act."""
    for i in range(states.shape[0]):
        st = states[i]
        dealt = 0
        for p in range(state.n_players(rp)):
            dealt |= state.dealt_hand_of(st, p)
        if state.phase(st) == state.PHASE_OVER or dealt == 0:
            return i
    return -1


@engine_jit
def _first_out_of_range(actions: np.ndarray, n_actions: int, active: np.ndarray) -> int:
    """Index of the first active game whose action is outside 0..n_actions-1, -1 if none is (memory
    safety: the engine indexes its arrays by the action, so this check runs even with
    ``check_actions=False``)."""
    for i in range(actions.shape[0]):
        if active[i] and (actions[i] < 0 or actions[i] >= n_actions):
            return i
    return -1


@engine_jit
def _first_illegal(legal: np.ndarray, block: np.ndarray, actions: np.ndarray, active: np.ndarray) -> int:
    """Index of the first active game whose action is not in its legal set, -1 if all are legal."""
    for i in range(legal.shape[0]):
        if active[i] and not in_legal_set(legal[i], block[i], actions[i]):
            return i
    return -1


@engine_inline
def _round_winner(st: np.ndarray, rp: np.ndarray, sign: float) -> int:
    """The side that won a finished round, ``sides`` for a tie: the best score (the higher when
    ``sign`` > 0, the lower otherwise)."""
    sides = state.n_sides(rp)
    best = 0
    tied = False
    for s in range(1, sides):
        a, b = state.score_of(st, s), state.score_of(st, best)
        if (a > b) if sign > 0 else (a < b):
            best = s
            tied = False
        elif a == b:
            tied = True
    return sides if tied else best


@engine_inline
def _step_one(game: int, i: int, st: np.ndarray, action: int, rp: np.ndarray, kind: int, sign: float,
              scale: float, is_match: bool, obs: np.ndarray, mask: np.ndarray, seat: np.ndarray,
              legal: np.ndarray, block: np.ndarray, rew: np.ndarray, done: np.ndarray,
              final_score: np.ndarray,
              winner: np.ndarray, state_out: np.ndarray, want_state: bool, final_seat: int,
              final_obs: np.ndarray) -> None:
    """Game ``i``: apply, reward, auto-reset a finished episode (first encoding its last position
    for ``final_seat`` into ``final_obs[i]`` when ``final_seat`` >= 0), encode the next step."""
    step_with_rewards(game, st, action, rp, kind, sign, scale, rew[i])
    finished = episode_over(game, st, rp)
    sides = final_score.shape[1]
    if finished:
        for s in range(sides):
            final_score[i, s] = state.match_score_of(st, s) if is_match else state.score_of(st, s)
        winner[i] = state.match_winner(st) if is_match else _round_winner(st, rp, sign)
        if final_seat >= 0:
            hooks.encode_observation(game, st, final_seat, rp, final_obs[i])
        start_episode(game, st, rp, is_match, -1)
    else:
        for s in range(sides):
            final_score[i, s] = 0
        winner[i] = -1
    done[i] = finished
    _observe(game, st, rp, i, obs, mask, seat, legal, block, state_out, want_state)


@engine_inline
def _skip_one(i: int, rew: np.ndarray, done: np.ndarray, final_score: np.ndarray, winner: np.ndarray) -> None:
    """Game ``i`` is not stepped: no reward, not done, no result (its state and observation stay)."""
    rew[i, :] = 0.0
    done[i] = False
    final_score[i, :] = 0
    winner[i] = -1


@engine_jit
def _sample_one(i: int, legal: np.ndarray, block: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random action of game ``i``'s legal set, from its sampler xorshift32 stream;
    ``NO_ACTION`` (the stream not advanced) when the set is empty, which only a game left
    meaningless by an illegal action (``check_actions=False``) can have."""
    m = legal[i]
    count = popcount(m) + block[i]
    if count == 0:
        out[i] = NO_ACTION
        return
    x = xorshift32(rng[i])
    rng[i] = x
    out[i] = pick_legal(m, block[i], x % count)


@engine_jit
def _sample_batch(legal: np.ndarray, block: np.ndarray, rng: np.ndarray, out: np.ndarray,
                  active: np.ndarray) -> None:
    for i in range(legal.shape[0]):
        if active[i]:
            _sample_one(i, legal, block, rng, out)
        else:
            out[i] = NO_ACTION


@compiled_parallel
def _sample_batch_parallel(legal: np.ndarray, block: np.ndarray, rng: np.ndarray, out: np.ndarray,
                           active: np.ndarray) -> None:
    for i in prange(legal.shape[0]):
        if active[i]:
            _sample_one(i, legal, block, rng, out)
        else:
            out[i] = NO_ACTION


class Kernels(NamedTuple):
    """The batched env's compiled loops for one game (:func:`kernels`)."""

    reset: Any
    observe: Any
    step: Any
    step_parallel: Any
    encode_states: Any
    encode_seats: Any


@cache
def kernels(game: int) -> Kernels:
    """The compiled loops of the batched env for the game numbered ``game``. ``step`` and
    ``step_parallel`` (games split over numba's threads) have one body: :func:`_step_one` per
    active game (:func:`_skip_one` for the others), after the first illegal action of an active game
    (with ``check``) or one outside the game's actions (without) is looked for; they return that
    game's index and step no game, or -1."""

    @compiled
    def reset(states, rng, dealers, rp, is_match, obs, mask, seat, legal, block, state_out,  # noqa: ANN001, ANN202
              want_state):
        for i in range(states.shape[0]):
            st = states[i]
            st[:] = 0
            state.seed_generator(st, rng[i])
            start_episode(game, st, rp, is_match, dealers[i])
            _observe(game, st, rp, i, obs, mask, seat, legal, block, state_out, want_state)

    @compiled
    def observe(states, rp, obs, mask, seat, legal, block, state_out, want_state):  # noqa: ANN001, ANN202
        for i in range(states.shape[0]):
            _observe(game, states[i], rp, i, obs, mask, seat, legal, block, state_out, want_state)

    @compiled
    def step(states, actions, active, rp, kind, sign, scale, is_match, obs, mask, seat, legal,  # noqa: ANN001, ANN202
             block, rew, done, final_score, winner, state_out, want_state, final_seat, final_obs, check):
        bad = (_first_illegal(legal, block, actions, active) if check
               else _first_out_of_range(actions, mask.shape[1], active))
        if bad >= 0:
            return bad
        for i in range(states.shape[0]):
            if active[i]:
                _step_one(game, i, states[i], actions[i], rp, kind, sign, scale, is_match, obs, mask, seat,
                          legal, block, rew, done, final_score, winner, state_out, want_state, final_seat,
                          final_obs)
            else:
                _skip_one(i, rew, done, final_score, winner)
        return -1

    @compiled_parallel
    def step_parallel(states, actions, active, rp, kind, sign, scale, is_match, obs, mask, seat, legal,  # noqa: ANN001, ANN202
                      block, rew, done, final_score, winner, state_out, want_state, final_seat, final_obs,
                      check):
        bad = (_first_illegal(legal, block, actions, active) if check
               else _first_out_of_range(actions, mask.shape[1], active))
        if bad >= 0:
            return bad
        for i in prange(states.shape[0]):
            if active[i]:
                _step_one(game, i, states[i], actions[i], rp, kind, sign, scale, is_match, obs, mask, seat,
                          legal, block, rew, done, final_score, winner, state_out, want_state, final_seat,
                          final_obs)
            else:
                _skip_one(i, rew, done, final_score, winner)
        return -1

    @compiled
    def encode_states(states, rp, out):  # noqa: ANN001, ANN202
        for i in range(states.shape[0]):
            st = states[i]
            hooks.encode_state(game, st, state.to_move(st), rp, out[i])

    @compiled
    def encode_seats(states, rp, out, want_state):  # noqa: ANN001, ANN202
        for i in range(states.shape[0]):
            st = states[i]
            for p in range(out.shape[1]):
                if want_state:
                    hooks.encode_state(game, st, p, rp, out[i, p])
                else:
                    hooks.encode_observation(game, st, p, rp, out[i, p])

    return Kernels(reset, observe, step, step_parallel, encode_states, encode_seats)


# the env
def _rng_states(seq: np.random.SeedSequence, n: int) -> np.ndarray:
    """``n`` non-zero 32-bit xorshift states from a SeedSequence, as int64."""
    out = seq.generate_state(n, dtype=np.uint32).astype(np.int64)
    out[out == 0] = 1
    return out


class VectorJassEnv:
    """``num_envs`` games of Jass stepped together; see the module docstring.

    Parameters
    ----------
    num_envs: number of games, >= 1 (tens of thousands are fine).
    rules: preset name or :class:`~jass_env.engine.switches.Rules` (default ``schieber``): any
        game of the registry.
    episode: ``"round"`` (one dealt hand) or ``"match"`` (rounds to the rules' target, or the
        Differenzler game's rounds).
    reward: one of the game's reward kinds (:mod:`jass_env.envs.rewards`).
    check_actions: raise :class:`IllegalActionError` on an illegal action (default). With False
        legality is not checked: the actions must be legal (e.g. from the mask), an illegal one
        leaves the game's state meaningless (:meth:`sample_actions` raises RuntimeError for a
        game left without a legal action). An action outside the game's actions always raises
        IllegalActionError (no game stepped), checked or not.
    state_obs: also fill the perfect-information state of every game for the seat to act
        (``(num_envs, state_dim)`` float32, the game's ``encode_state``) each step.
    parallel: step and sample the games on numba's threads (``numba.set_num_threads`` /
        ``NUMBA_NUM_THREADS``, ``prange`` over the games); results are identical to the serial
        loop. Each step ends at a barrier of all threads, so it only pays off with many games and
        cores that nothing else is using (on busy cores it is much slower than serial). The first
        use compiles the parallel kernels (about a minute, then cached).
    final_obs_seat: a seat whose view of each finished episode's last position every step writes
        into :attr:`final_obs` (row i where ``done[i]``), before the game's auto-reset deals the
        next episode (a single-seat wrapper's terminal observation); None (default): not kept.
    """

    def __init__(self, num_envs: int, rules: str | Rules | None = None, episode: str | None = None,
                 reward: str = "points", check_actions: bool = True, state_obs: bool = False,
                 parallel: bool = False, final_obs_seat: int | None = None) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        self.num_envs = int(num_envs)
        self.rules = make_rules(rules)
        self._kernels = kernels(self.rules.spec.kind)
        if episode is None:                   # Coiffeur: the whole game; the others one round
            episode = self.rules.spec.default_episode
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r}; valid episodes: {', '.join(EPISODES)}")
        self.rp = self.rules.params
        self.episode = episode
        self.reward = reward
        self._kind = reward_kind(reward, self.rules)
        self._sign, self._scale = reward_facts(self.rules)
        spec = self.rules.spec
        self.players = spec.players
        self._action_names = spec.action_names
        self._is_match = episode == "match"
        self.check_actions = bool(check_actions)
        self.state_obs = bool(state_obs)
        self.parallel = bool(parallel)
        if final_obs_seat is not None and not (isinstance(final_obs_seat, (int, np.integer))
                                               and not isinstance(final_obs_seat, bool)
                                               and 0 <= final_obs_seat < self.players):
            raise ValueError(f"final_obs_seat must be None or a seat 0..{self.players - 1}, "
                             f"got {final_obs_seat!r}")
        self.final_obs_seat = final_obs_seat
        self._final_seat = -1 if final_obs_seat is None else int(final_obs_seat)
        self._step_kernel = self._kernels.step_parallel if parallel else self._kernels.step
        self._sample_kernel = _sample_batch_parallel if parallel else _sample_batch
        n = self.num_envs
        #: (num_envs, state_size) int64 engine state of every game (layout in :mod:`jass_env.engine.state`)
        self.game_states = np.zeros((n, state_size(spec)), dtype=np.int64)
        self._obs = np.zeros((n, self.observation_dim), dtype=np.float32)
        self._mask = np.zeros((n, self.num_actions), dtype=np.bool_)
        self._seat = np.zeros(n, dtype=np.int64)
        self._legal = np.zeros(n, dtype=np.int64)   # legal-action bits of the seat to act
        self._block = np.zeros(n, dtype=np.int64)   # and its block of phase actions (transitions.legal_set)
        self._rewards = np.zeros((n, spec.players), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._final_score = np.zeros((n, spec.sides), dtype=np.int64)
        self._winner = np.full(n, -1, dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._sampled = np.zeros(n, dtype=np.int64)
        self._all_games = np.ones(n, dtype=np.bool_)
        #: (num_envs, obs_dim) float32 with ``final_obs_seat``: row i, where the last step's ``done[i]``,
        #: is that seat's observation of the finished episode's last position; stale elsewhere
        self.final_obs = np.zeros((n if final_obs_seat is not None else 0, self.observation_dim),
                                  dtype=np.float32)
        self._sample_rng = _rng_states(np.random.SeedSequence(), n)
        self._states_buf = np.zeros((n if state_obs else 0, self.state_dim), dtype=np.float32)
        self._started = False
        self._result = VectorStep(self._obs, self._mask, self._seat, self._rewards, self._done,
                                  self._final_score, self._winner,
                                  self._states_buf if state_obs else None)

    # episodes
    def reset(self, seed: int | None = None, seeds: Sequence[int] | np.ndarray | None = None,
              dealers: Sequence[int] | np.ndarray | None = None) -> VectorReset:
        """Deal a new episode in every game.

        ``seeds`` (one non-negative int per game): game ``i`` is seeded with
        ``seed_to_rng_state(seeds[i])``, so it deals what an AEC env ``reset(seed=seeds[i])``
        deals. Otherwise ``seed`` seeds game ``i`` with the i-th value of
        ``np.random.SeedSequence(seed).generate_state(num_envs)`` (None: fresh entropy).
        The :meth:`sample_actions` generator is reseeded from ``seed`` (or from ``seeds``).
        ``dealers`` (one per game, a player of the game, or -1 for the preset's ``first_forehand``
        rule; default
        all -1) fixes who deals each game's first round; the hands do not depend on it. Games that
        restart automatically later always use the preset's rule.
        """
        n = self.num_envs
        if dealers is None:
            dealer_arr = np.full(n, -1, dtype=np.int64)
        else:
            dealer_arr = np.asarray(dealers).reshape(-1)
            if (dealer_arr.size != n or not np.issubdtype(dealer_arr.dtype, np.integer)
                    or ((dealer_arr < -1) | (dealer_arr >= self.players)).any()):
                raise ValueError(f"dealers must give one integer per game ({n}) in 0..{self.players - 1}, "
                                 f"or -1 for "
                                 f"the preset's rule; got {np.asarray(dealers).tolist()!r}")
            dealer_arr = dealer_arr.astype(np.int64)
        check_seed(seed)
        if seeds is not None:
            seeds = seeds if isinstance(seeds, list) else np.asarray(seeds).reshape(-1).tolist()
            if len(seeds) != n:
                raise ValueError(f"seeds must give one seed per game ({n}), got {len(seeds)}")
            for i, s in enumerate(seeds):
                check_seed(s, f"seeds[{i}]", none_ok=False)
            game_rng = np.array([seed_to_rng_state(int(s)) for s in seeds], dtype=np.int64)
            sampler = np.random.SeedSequence([int(s) for s in seeds] if seed is None else seed,
                                             spawn_key=(1,))
        else:
            seq = np.random.SeedSequence(seed)
            game_rng = _rng_states(seq, n)
            sampler = np.random.SeedSequence(seq.entropy, spawn_key=(1,))
        self._sample_rng[:] = _rng_states(sampler, n)
        self._kernels.reset(self.game_states, game_rng, dealer_arr, self.rp, self._is_match, self._obs,
                     self._mask, self._seat, self._legal, self._block, self._states_buf, self.state_obs)
        return self._started_episode()

    def _started_episode(self) -> VectorReset:
        """After every game was (re)positioned and observed: clear the step outputs."""
        self._done[:] = False
        self._rewards[:] = 0.0
        self._final_score[:] = 0
        self._winner[:] = -1
        self._started = True
        return VectorReset(self._obs, self._mask, self._seat)

    def step(self, actions: np.ndarray | Sequence[int], active: np.ndarray | None = None) -> VectorStep:
        """Apply one action (0..n_actions-1) per game for its seat to act; see :class:`VectorStep`.

        ``actions``: (num_envs,) integers (numpy array, list, or a CPU torch tensor).
        ``active``: None (every game), or (num_envs,) bool: step only these games; the others keep
        their position and observation, with zero rewards, ``done`` False and no result, and their
        actions are not read.
        Raises :class:`IllegalActionError` (a ValueError) naming the first game with an illegal
        action (with ``check_actions=False``: an action outside the game's actions), its seat, the action and
        the legal actions; no game is stepped then.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},) (one per game), got {a.shape}")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            if a.dtype.kind not in "iu":
                raise ValueError(f"actions must be integers 0..{self.num_actions - 1}, got dtype {a.dtype}")
            np.copyto(self._actions, a, casting="unsafe")
            a = self._actions
        bad = self._step_kernel(self.game_states, a, self._active(active), self.rp, self._kind, self._sign,
                                self._scale, self._is_match, self._obs,
                                self._mask, self._seat, self._legal, self._block, self._rewards, self._done,
                                self._final_score, self._winner, self._states_buf, self.state_obs,
                                self._final_seat, self.final_obs, self.check_actions)
        if bad >= 0:
            raise self._illegal(bad, int(a[bad]))
        return self._result

    def _active(self, active: np.ndarray | None) -> np.ndarray:
        """The games a call works on: every game for None, else ``active`` checked to be (num_envs,) bool."""
        if active is None:
            return self._all_games
        if not isinstance(active, np.ndarray) or active.dtype != np.bool_ or active.shape != (self.num_envs,):
            what = (f"{active.dtype} {active.shape}" if isinstance(active, np.ndarray)
                    else type(active).__name__)
            raise ValueError(f"active must be None or a bool array of shape ({self.num_envs},) (one flag per "
                             f"game), got {what}")
        return np.ascontiguousarray(active)

    def _legal_int(self, i: int) -> int:
        """Game ``i``'s legal set as one Python int (bit a = action a)."""
        block = int(self._block[i])
        return int(self._legal[i]) | (((1 << block) - 1) << PHASE_ACTION_OFFSET)

    def _illegal(self, i: int, action: int) -> IllegalActionError:
        legal = legal_actions_text(self._legal_int(i), self._action_names)
        what = f"{self._action_names[action]} (action {action})" if 0 <= action < self.num_actions else \
            f"action {action} (actions are 0..{self.num_actions - 1})"
        return IllegalActionError(f"game {i}: seat {int(self._seat[i])} may not play {what} now; "
                                  f"legal: {legal}")

    # helpers
    def sample_actions(self, active: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per game, (num_envs,) int64 (reused by the next call).

        Drawn in compiled code from the env's own per-game xorshift32 generators (seeded by
        :meth:`reset`), so the games' deals are not affected. ``active`` (None: every game, or
        (num_envs,) bool): draw only for these games (the others' generators do not advance, and
        their entries are ``NO_ACTION``), so each game's draws do not depend on the other games.
        """
        if not self._started:
            raise RuntimeError("call reset() before sample_actions()")
        act = self._active(active)
        self._sample_kernel(self._legal, self._block, self._sample_rng, self._sampled, act)
        missing = act & (self._sampled == NO_ACTION) if self._sampled.min() == NO_ACTION else None
        if missing is not None and missing.any():
            i = int(np.flatnonzero(missing)[0])
            raise RuntimeError(f"game {i} has no legal action: an illegal action was stepped with "
                               f"check_actions=False, which leaves a game meaningless; reset() or "
                               f"set_state() the games (check_actions=True refuses illegal actions)")
        return self._sampled

    def get_state(self) -> dict[str, np.ndarray]:
        """Copies of everything that decides the env's future: ``game_states`` (num_envs, state_size)
        int64, every game's engine state, and ``sample_rng`` (num_envs,) int64, the
        :meth:`sample_actions` generators. :meth:`set_state` continues from them exactly (trainer
        checkpoints, search from a position)."""
        if not self._started:
            raise RuntimeError("call reset() before get_state()")
        return {"game_states": self.game_states.copy(), "sample_rng": self._sample_rng.copy()}

    def set_state(self, game_states: np.ndarray, sample_rng: np.ndarray | None = None) -> VectorReset:
        """Restore what :meth:`get_state` returned and observe every game again: returns, as
        :meth:`reset` does, the observation, mask and seat of each game's seat to act (and fills
        :meth:`states`). ``sample_rng`` None keeps the current sample generators. Rewards, done
        flags and final scores are cleared. Raises ValueError, changing nothing, if an array has
        the wrong shape or a game is not at a decision (finished, or never dealt), and
        :class:`jass_env.engine.validate.StateError` (a ValueError naming the game, the field, the
        slot, the value and what is allowed) for a game state the engine cannot play.
        """
        n = self.num_envs
        gs = np.asarray(game_states)
        size = self.game_states.shape[1]
        if gs.shape != (n, size) or not np.issubdtype(gs.dtype, np.integer):
            raise ValueError(f"game_states must be an integer array of shape ({n}, {size}) "
                             f"(num_envs, state size); got {gs.dtype} {gs.shape}")
        if sample_rng is not None:
            sr = np.asarray(sample_rng)
            if sr.shape != (n,) or not np.issubdtype(sr.dtype, np.integer):
                raise ValueError(f"sample_rng must be an integer array of shape ({n},); got "
                                 f"{sr.dtype} {sr.shape}")
            if ((sr < 1) | (sr >= 2**32)).any():
                bad = int(np.argmax((sr < 1) | (sr >= 2**32)))
                raise ValueError(f"sample_rng[{bad}] is {int(sr[bad])}; allowed: a sampler generator state "
                                 f"1..{2**32 - 1}")
        check_states(gs, self.rules)
        over = _first_not_at_decision(np.ascontiguousarray(gs, dtype=np.int64), self.rp)
        if over >= 0:
            raise ValueError(f"game_states: game {over} is not at a decision (its round is over "
                             f"or was never dealt); every game must have a seat to act")
        self.game_states[:] = gs
        if sample_rng is not None:
            self._sample_rng[:] = sr
        self._kernels.observe(self.game_states, self.rp, self._obs, self._mask, self._seat, self._legal,
                       self._block, self._states_buf, self.state_obs)
        return self._started_episode()

    def states(self) -> np.ndarray:
        """Perfect-information state of every game for its seat to act, (num_envs, state_dim)
        float32 (observation + all hands by relative seat, in Differenzler + all predictions).
        Reused by the next call."""
        if not self._started:
            raise RuntimeError("call reset() before states()")
        if not self.state_obs:
            if self._states_buf.shape[0] != self.num_envs:
                self._states_buf = np.zeros((self.num_envs, self.state_dim), dtype=np.float32)
            self._kernels.encode_states(self.game_states, self.rp, self._states_buf)
        return self._states_buf

    def every_seat(self, out: np.ndarray, want_state: bool = False) -> np.ndarray:
        """Every seat's observation (with ``want_state``: its perfect-information state) in every
        game, whoever is to act: ``out`` float32 (num_envs, players, observation_dim or
        state_dim), filled and returned (for a trainer's bootstrap values)."""
        if not self._started:
            raise RuntimeError("call reset() before every_seat()")
        width = self.state_dim if want_state else self.observation_dim
        if out.shape != (self.num_envs, self.rules.spec.players, width) or out.dtype != np.float32:
            raise ValueError(f"every_seat needs a float32 array of shape ({self.num_envs}, "
                             f"{self.rules.spec.players}, {width}), got {out.dtype} {out.shape}")
        self._kernels.encode_seats(self.game_states, self.rp, out, want_state)
        return out

    @property
    def observation_dim(self) -> int:
        return encoding.obs_dim(self.rules)

    @property
    def state_dim(self) -> int:
        return encoding.state_dim(self.rules)

    @property
    def num_actions(self) -> int:
        return self.rules.spec.n_actions

    def per_game_arrays(self) -> dict[str, np.ndarray]:
        """Every array the env holds whose size grows with num_envs (for memory accounting)."""
        return {"game_states": self.game_states, "obs": self._obs, "mask": self._mask,
                "seat": self._seat, "legal": self._legal, "block": self._block, "rewards": self._rewards,
                "done": self._done,
                "final_score": self._final_score, "winner": self._winner, "actions": self._actions,
                "sampled": self._sampled, "sample_rng": self._sample_rng, "states": self._states_buf,
                "all_games": self._all_games, "final_obs": self.final_obs}

    @property
    def bytes_per_game(self) -> float:
        """Bytes the env holds per game (sum of :meth:`per_game_arrays` / num_envs)."""
        return sum(a.nbytes for a in self.per_game_arrays().values()) / self.num_envs

    def __repr__(self) -> str:
        return (f"VectorJassEnv(num_envs={self.num_envs}, rules={self.rules.name!r}, "
                f"episode={self.episode!r}, reward={self.reward!r}, check_actions={self.check_actions}, "
                f"state_obs={self.state_obs}, parallel={self.parallel})")


__all__ = ["VectorJassEnv", "VectorReset", "VectorStep", "IllegalActionError", "EPISODES"]
