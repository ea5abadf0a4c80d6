"""A Gymnasium ``VectorEnv`` for one learning seat in ``num_envs`` games, on the batched engine.

>>> import gymnasium, jass_env.envs.gym                   # registers the ids
>>> envs = gymnasium.make_vec("jass_env/Jass-v0", num_envs=1024, vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=0)                        # obs float32 (1024, 529)
>>> mask = info["action_mask"]                            # bool (1024, 43), the learning seat's legal actions
>>> obs, reward, terminated, truncated, info = envs.step(actions)    # actions int (1024,), legal

:class:`JassVectorEnv` is what :class:`jass_env.envs.gym.JassGymEnv` is for one game, for many
games at once: the learning seat ``seat`` of every game acts through :meth:`step`, and the other
seats are played inside the environment until that seat is to act again (or the episode ended and
the next one reached it), so each step is one decision of the learning seat in every game. The
games are stepped by :class:`jass_env.envs.vector.VectorJassEnv` (one compiled call for a batch of
moves), with the same rules (any preset: ``rules="molotow5"``), observation encoding, reward kinds
and episodes as the other environments of the project.

Opponents
    ``opponents`` plays the other seats (team games: the other side's, ``partner`` the learning
    seat's team-mates), as in ``JassGymEnv``: one policy for all of them, or a sequence of one per
    seat (next seat in play order first). A policy is ``None`` (uniformly random legal actions from
    the environment's own per-game generators, seeded by :meth:`reset`), an object with
    ``act_batch(obs, mask) -> actions`` (obs float32 ``(k, obs_dim)``, mask bool ``(k, n_actions)``,
    actions int ``(k,)``; the compiled heuristics have it), an object with ``act(obs_dict) -> int``
    or a callable ``f(obs_dict) -> int`` (``obs_dict`` as the AEC env observes: ``{"observation":
    float32[obs_dim], "action_mask": int8[n_actions]}``). The games waiting on other seats are
    moved in rounds: in each round every policy decides the games it plays in one call
    (``act_batch``) or row by row (``act``), then one compiled step moves them all. The
    environment imports no agent: ``agents.registry.make_agent("heuristic", rules)`` builds one.

Observations, actions, info
    ``single_observation_space`` is the game's observation ``Box`` (float32, the
    ``JassGymEnv(flat=True)`` one), ``observation_space`` its batch ``(num_envs, obs_dim)``;
    ``single_action_space`` is ``Discrete(n_actions)``, ``action_space`` ``MultiDiscrete``. Every
    ``reset``/``step`` info holds ``"action_mask"``: bool ``(num_envs, n_actions)``, the learning
    seat's legal actions for the returned observation (all False for an observation that ends an
    episode in ``NEXT_STEP`` mode), with ``"_action_mask"`` (all True, Gymnasium's per-key mask).
    Arrays are new on every call unless ``copy=False`` (then they are overwritten by the next call).

Rewards
    What the learning seat earned since its previous decision (its own action and the other seats'
    moves up to its next decision or the episode's end), of the kind ``reward=`` (the game's kinds,
    :mod:`jass_env.envs.rewards`), float64 as ``SyncVectorEnv`` returns them. ``terminated`` when
    the episode (``episode="round"`` or ``"match"``, default the game's) ends; never truncated.

Autoreset (``metadata["autoreset_mode"]``, https://farama.org/Vector-Autoreset-Mode)
    ``autoreset_mode=AutoresetMode.SAME_STEP`` (the default): the step that ends a game's episode
    returns the first observation of its next episode (its opponents already moved), with
    ``terminated`` True and the episode's reward; ``info["final_obs"]`` (object array
    ``(num_envs,)``, the learning seat's float32 view of the finished position where
    ``info["_final_obs"]``, else None) and ``info["final_info"]`` (the finished step's own info:
    ``"final_score"`` int64 ``(num_envs, sides)`` and ``"winner"`` int64 ``(num_envs,)`` as
    :class:`~jass_env.envs.vector.VectorStep` gives them, with their ``"_"`` masks), masked by
    ``info["_final_info"]``, as ``SyncVectorEnv`` does in that mode.
    ``AutoresetMode.NEXT_STEP``: the ending step returns the finished position and its mask is all
    False, with ``"final_score"`` and ``"winner"`` (and masks) in the info itself; the next step
    ignores that game's action and returns the first observation of its next episode with reward 0
    and ``terminated`` False (Gymnasium's default mode). ``DISABLED`` is not offered: the engine
    always deals the next episode.

Seeding
    ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (as ``SyncVectorEnv`` seeds its
    sub-environments), ``reset(seed=[s_0, ..., s_{n-1}])`` game ``i`` with ``s_i``: game ``i`` then
    deals what ``JassGymEnv.reset(seed=s_i)`` and the AEC env deal, and its later episodes continue
    the same generator, as theirs do. The random opponents' draws of game ``i`` come from its own
    generator seeded by ``s_i`` alone, so a game plays the same whatever the other games are (they
    are not ``JassGymEnv``'s draws: that env draws from its ``np_random``). ``reset()`` without a
    seed draws the games' seeds from ``np_random`` (seeded by the last seeded reset, else fresh
    entropy), so a seeded run stays reproducible.

Errors
    Bad input raises before anything changes: an action that is not legal for the learning seat
    (:class:`jass_env.round.IllegalActionError`, naming the game, the seat, the action and the legal
    actions; there is no penalty mode), actions of the wrong shape or type, bad seeds, unknown
    reward kinds, episodes, rules or autoreset modes, a seat outside the game, policies of the wrong
    kind or count (ValueError or TypeError naming what is allowed). A policy that returns an illegal
    action raises IllegalActionError naming its seat; that step is then left half done, and the
    environment asks for :meth:`reset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from jass_env.engine.switches import Rules
from jass_env.round import IllegalActionError

from . import encoding
from . import gym as _gym  # noqa: F401  (registers the ids, with this module's vector entry point)
from .aec import resolve_rules
from .checks import action_index, action_problem, check_options, check_seed
from .vector import VectorJassEnv, VectorReset, VectorStep

#: the autoreset modes this environment offers (``DISABLED`` is not: the engine deals on)
AUTORESET_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
#: the spawn key of the random opponents' generators, apart from the deal generator of the same seed
_OPPONENT_KEY = 1
#: seeds drawn from ``np_random`` for an unseeded reset are below this
_SEED_BOUND = 2**31
#: rounds of the other seats' moves between two decisions of the learning seat, at most (a round
#: moves every waiting game once; a game needs at most players - 1 of them, more only if a
#: policy never lets the learning seat act again)
_MAX_ROUNDS = 10_000

Policy = Any  # None, an object with act_batch(obs, mask) or act(obs_dict), or a callable obs_dict -> int


def _check_policy(p: Policy, what: str) -> Policy:
    """``p`` when it can play a seat (None, ``act_batch``, ``act`` or a callable); TypeError else."""
    if p is None or callable(p) or any(callable(getattr(p, m, None)) for m in ("act_batch", "act")):
        return p
    raise TypeError(f"{what} must be None (random legal actions), an object with act_batch(obs, mask) -> "
                    f"actions or act(obs_dict) -> int, or a callable obs_dict -> int; got {type(p).__name__}")


def _seat_policies(given: Policy | Sequence[Policy], count: int, what: str) -> list[Policy]:
    """The policies of ``count`` seats from one policy (for all of them) or a sequence of ``count``."""
    if isinstance(given, (list, tuple)):
        if len(given) != count:
            raise ValueError(f"{what}: one policy or a sequence of {count}, got {len(given)}")
        return [_check_policy(g, f"{what}[{i}]") for i, g in enumerate(given)]
    return [_check_policy(given, what)] * count


class JassVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games, one learning seat in each, the other seats played inside (module docstring).

    Args:
        num_envs: number of games, >= 1.
        seat: the learning seat 0..players-1 (the same in every game).
        opponents, partner: the other seats' policies, as for :class:`~jass_env.envs.gym.JassGymEnv`
            (``partner`` only in team games); None plays uniformly random legal actions.
        rules, game, rule_overrides, episode, reward: as for :func:`jass_env.envs.aec.env`.
        autoreset_mode: ``AutoresetMode.SAME_STEP`` (default) or ``NEXT_STEP`` (or their values
            ``"SameStep"``, ``"NextStep"``).
        flat: must be True (the observation is the vector, the mask is in the info); accepted so
            that the keywords of ``JassGymEnv(flat=True)`` build both (``make_vec`` in any mode).
        copy: return new arrays on every call (default); False returns buffers that the next call
            overwrites.
        parallel: step the games on numba's threads (:class:`VectorJassEnv`'s ``parallel``).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, seat: int = 0, opponents: Policy | Sequence[Policy] = None,
                 partner: Policy | Sequence[Policy] = None, rules: str | Rules | None = None, *,
                 game: str | None = None, rule_overrides: dict[str, Any] | None = None,
                 episode: str | None = None, reward: str = "points",
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP, flat: bool = True,
                 copy: bool = True, parallel: bool = False) -> None:
        self.autoreset_mode = self._mode(autoreset_mode)
        if flat is not True:
            raise ValueError("flat must be True: JassVectorEnv's observation is the float32 vector and "
                             "the legal actions are in info['action_mask']")
        self.rules = resolve_rules(rules, game, rule_overrides)
        spec = self.rules.spec
        n_players = spec.players
        if not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n_players):
            raise ValueError(f"seat must be a player 0..{n_players - 1}, got {seat!r}")
        self.seat = int(seat)
        self.side = spec.side_of(self.seat)
        self.engine = VectorJassEnv(num_envs, rules=self.rules, episode=episode, reward=reward,
                                    parallel=parallel, final_obs_seat=self.seat)
        self.num_envs = self.engine.num_envs
        self.episode = self.engine.episode
        self.reward = reward
        self.copy = bool(copy)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}

        others = [(self.seat + k) % n_players for k in range(1, n_players)]
        mates = [p for p in others if spec.team_mode != "none" and spec.side_of(p) == self.side]
        opponent_seats = [p for p in others if p not in mates]
        seat_policy: dict[int, Policy] = dict(zip(opponent_seats, _seat_policies(
            opponents, len(opponent_seats), "opponents"), strict=True))
        if mates:
            seat_policy.update(zip(mates, _seat_policies(partner, len(mates), "partner"), strict=True))
        elif partner is not None:
            raise ValueError(f"partner: {spec.name} has no partners of seat {self.seat}; give the "
                             f"other seats' policies as opponents")
        #: the distinct policies (by identity) and, per seat, the index of its policy (-1: learning seat)
        self.policies: list[Policy] = []
        self._policy_of_seat = np.full(n_players, -1, dtype=np.int64)
        for p, policy in seat_policy.items():
            k = next((i for i, q in enumerate(self.policies) if q is policy), None)
            if k is None:
                self.policies.append(policy)
                k = len(self.policies) - 1
            self._policy_of_seat[p] = k
        self._seats_of_policy = [tuple(int(p) for p in np.flatnonzero(self._policy_of_seat == k))
                                 for k in range(len(self.policies))]

        low, high = encoding.observation_bounds(self.rules)
        self.single_observation_space = spaces.Box(low=low, high=high, shape=(len(low),), dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.n_actions = spec.n_actions
        self.single_action_space = spaces.Discrete(self.n_actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        n = self.num_envs
        self._obs = np.zeros((n, len(low)), dtype=np.float32)
        self._mask = np.zeros((n, self.n_actions), dtype=np.bool_)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._final_obs = np.zeros((n, len(low)), dtype=np.float32)
        self._final_score = np.zeros((n, spec.sides), dtype=np.int64)
        self._winner = np.full(n, -1, dtype=np.int64)
        self._other_actions = np.zeros(n, dtype=np.int64)
        self._all_true = np.ones(n, dtype=np.bool_)
        self._pending = np.zeros(n, dtype=np.bool_)   # NEXT_STEP: the game's last step ended its episode
        self._ready = False                            # reset() was called and no step is half done
        self._why_not_ready = "before reset() was ever called"

    @staticmethod
    def _mode(mode: AutoresetMode | str) -> AutoresetMode:
        try:
            mode = mode if isinstance(mode, AutoresetMode) else AutoresetMode(mode)
        except ValueError:
            mode = None
        if mode not in AUTORESET_MODES:
            raise ValueError(f"autoreset_mode must be one of {', '.join(m.value for m in AUTORESET_MODES)} "
                             f"(gymnasium.vector.AutoresetMode); DISABLED is not offered")
        return mode

    # gymnasium API
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new episode in every game (see Seeding in the module docstring); ``options``
        as the other environments take them (None or a dict, ignored with a warning)."""
        check_options(options)
        seeds = self._seeds(seed)
        self.engine.reset(seeds=seeds)
        opponent_rng = np.array([np.random.SeedSequence(s, spawn_key=(_OPPONENT_KEY,)).generate_state(1)[0]
                                 for s in seeds], dtype=np.int64)
        opponent_rng[opponent_rng == 0] = 1
        self._now = self.engine.set_state(self.engine.game_states, sample_rng=opponent_rng)
        self._pending[:] = False
        self._ready = True
        self._play_others(None, None)
        obs, mask = self._fresh(self._now.obs, self._obs), self._fresh(self._now.mask, self._mask)
        return obs, self._info({}, mask)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision of the learning seat in every game: ``actions`` int ``(num_envs,)`` (numpy,
        list, or a CPU torch tensor), each legal in ``info["action_mask"]`` (NEXT_STEP: ignored for a
        game whose previous step ended its episode)."""
        if not self._ready:
            raise RuntimeError(f"step() {self._why_not_ready}; call reset() first")
        a = self._actions(actions)
        out = self.engine.step(a, active=~self._pending if self._pending.any() else None)
        self._now = out
        self._rewards[:] = out.rewards[:, self.seat]
        ended = out.done.copy()
        self._record_ends(out, ended)
        self._play_others(self._rewards, ended)
        self._terminated[:] = ended
        obs, mask = self._fresh(self._now.obs, self._obs), self._fresh(self._now.mask, self._mask)
        info: dict[str, Any] = {}
        ends = self._ends_info(ended) if ended.any() else {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            if ended.any():
                final_obs = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(ended):
                    final_obs[i] = self._final_obs[i].copy()
                info.update({"final_obs": final_obs, "_final_obs": ended.copy(), "final_info": ends,
                             "_final_info": ended.copy()})
        else:
            obs[ended] = self._final_obs[ended]
            mask[ended] = False
            info.update(ends)
            self._pending[:] = ended
        return (obs, self._fresh(self._rewards), self._fresh(self._terminated), self._fresh(self._truncated),
                self._info(info, mask))

    def close_extras(self, **kwargs: Any) -> None:
        self._ready = False
        self._why_not_ready = "after close()"

    # internals
    def _seeds(self, seed: int | Sequence[int] | None) -> list[int]:
        """One seed per game from ``reset``'s ``seed`` (module docstring); seeds ``np_random``."""
        n = self.num_envs
        if seed is None:
            return [int(s) for s in self.np_random.integers(0, _SEED_BOUND, size=n)]
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: a list must give one seed per game ({n}), got {len(seeds)}")
            for i, s in enumerate(seeds):
                check_seed(s, f"seed[{i}]", none_ok=False)
            seeds = [int(s) for s in seeds]
            self.np_random = np.random.default_rng(seeds)
            return seeds
        if not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed must be a non-negative integer, a list of one per game ({n}) or None, "
                             f"got {seed!r}")
        check_seed(seed)
        super().reset(seed=int(seed))
        return [int(seed) + i for i in range(n)]

    def _actions(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 ``(num_envs,)``; ValueError, before anything changes, for a wrong
        shape or type (legality is checked by the engine, also before anything changes)."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},) (one per game), got {a.shape}")
        if a.dtype.kind not in "iu":
            problem = action_problem(a.flat[0].item() if a.dtype != object else a.flat[0], self.n_actions)
            raise ValueError(f"actions must be integers 0..{self.n_actions - 1}, got dtype {a.dtype} "
                             f"({problem})")
        return a.astype(np.int64, copy=False)

    def _record_ends(self, out: VectorStep, ended: np.ndarray) -> None:
        """Keep the finished position and result of the games in ``ended`` (before the engine's
        next step overwrites them)."""
        if ended.any():
            self._final_obs[ended] = self.engine.final_obs[ended]
            self._final_score[ended] = out.final_score[ended]
            self._winner[ended] = out.winner[ended]

    def _ends_info(self, ended: np.ndarray) -> dict[str, Any]:
        """The info of a step that ended the episodes of ``ended``: their results, with masks."""
        return {"final_score": np.where(ended[:, None], self._final_score, 0), "_final_score": ended.copy(),
                "winner": np.where(ended, self._winner, -1), "_winner": ended.copy()}

    def _play_others(self, rewards: np.ndarray | None, ended: np.ndarray | None) -> None:
        """Move the other seats of every game until the learning seat is to act in each. With
        ``rewards``, add the learning seat's rewards of these moves for the games whose episode did
        not end (``ended``, updated with the games that end now, whose results are kept)."""
        for _ in range(_MAX_ROUNDS):
            now = self._now
            waiting = now.seat != self.seat
            if not waiting.any():
                return
            acts = self._other_actions
            policy_now = self._policy_of_seat[now.seat]
            for k, policy in enumerate(self.policies):
                rows = waiting & (policy_now == k)
                if rows.any():
                    acts[rows] = self._decide(policy, k, rows, now)
            try:
                out = self.engine.step(acts, active=waiting)
            except IllegalActionError as e:
                self._ready = False
                self._why_not_ready = "after a policy returned an illegal action (the step is half done)"
                raise IllegalActionError(f"a policy of the other seats returned an illegal action: {e}; "
                                         f"this step is half done, call reset()") from None
            self._now = out
            if rewards is not None:
                rewards += np.where(ended, 0.0, out.rewards[:, self.seat])
                newly = out.done & ~ended
                self._record_ends(out, newly)
                ended |= newly
        raise RuntimeError(f"the other seats moved {_MAX_ROUNDS} times without the learning seat "
                           f"{self.seat} getting to act")

    def _decide(self, policy: Policy, k: int, rows: np.ndarray, now: VectorReset | VectorStep) -> np.ndarray:
        """The actions of ``policy`` (number ``k``) for the games ``rows`` (bool mask) of the
        position ``now``, int64 (r,)."""
        if policy is None:
            return self.engine.sample_actions(active=rows)[rows]
        idx = np.flatnonzero(rows)
        obs, mask = now.obs[idx], now.mask[idx]
        act_batch = getattr(policy, "act_batch", None)
        if callable(act_batch):
            chosen = np.asarray(act_batch(obs, mask))
            if chosen.shape != (len(idx),) or chosen.dtype.kind not in "iu":
                raise ValueError(f"act_batch of the policy of seat(s) {self._seats_of_policy[k]} must "
                                 f"return one integer action per row, shape ({len(idx)},); got "
                                 f"{chosen.dtype} {chosen.shape}")
            return chosen
        act = getattr(policy, "act", None)
        act = act if callable(act) else policy
        out = np.empty(len(idx), dtype=np.int64)
        for j in range(len(idx)):
            chosen = act({"observation": obs[j], "action_mask": mask[j].astype(np.int8)})
            a = action_index(chosen, self.n_actions)
            if a is None:
                seat = int(now.seat[idx[j]])
                raise IllegalActionError(f"the policy of seat {seat} returned an illegal action in game "
                                         f"{int(idx[j])}: {action_problem(chosen, self.n_actions)}")
            out[j] = a
        return out

    def _fresh(self, array: np.ndarray, buffer: np.ndarray | None = None) -> np.ndarray:
        """What a call returns of ``array``: a copy (``copy=True``), else ``buffer`` (our own,
        overwritten by the next call) filled with it, or ``array`` itself."""
        if self.copy:
            return array.copy()
        if buffer is None:
            return array
        buffer[:] = array
        return buffer

    def _info(self, info: dict[str, Any], mask: np.ndarray) -> dict[str, Any]:
        info["action_mask"] = mask
        info["_action_mask"] = self._fresh(self._all_true)
        return info

    def __repr__(self) -> str:
        return (f"JassVectorEnv({self.rules.name}, num_envs={self.num_envs}, seat={self.seat}, "
                f"episode={self.episode!r}, reward={self.reward!r}, "
                f"autoreset_mode={self.autoreset_mode.value})")


def game_vector_env(num_envs: int = 1, game: str | None = None, **kwargs: Any) -> JassVectorEnv:
    """:class:`JassVectorEnv` for the game spec ``game`` (its default preset unless ``rules`` says
    otherwise): the vector entry point every registered id calls with its spec."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", game)
    return JassVectorEnv(num_envs, **kwargs)


__all__ = ["JassVectorEnv", "AUTORESET_MODES", "game_vector_env"]
