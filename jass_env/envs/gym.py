"""A Gymnasium single-agent view of the AEC environment: one learning seat, three given players.

>>> from jass_env.envs.gym import JassGymEnv
>>> env = JassGymEnv(seat=0, reward="points")            # three uniformly random partners/opponents
>>> obs, info = env.reset(seed=0)
>>> mask = env.action_masks()                             # bool[n_actions], for sb3-contrib's MaskablePPO
>>> obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

The other seats are played by *policies*: any object with an ``act(obs_dict) -> int``
method, or a plain callable ``f(obs_dict) -> int``, where ``obs_dict`` is the AEC observation
``{"observation": float32[obs_dim], "action_mask": int8[n_actions]}`` of that seat. Schieber:
``opponents`` is one policy for both opponents or a sequence of two (next seat first);
``partner`` plays the seat opposite. Differenzler (``rules="differenzler"`` or
``game="differenzler3"``; everyone alone, no partner): ``opponents`` is one policy for every
other seat or a sequence of n − 1 (next seat first). ``None`` (the default) draws uniformly
random legal actions with the environment's seeded generator (``self.np_random``, seeded by
``reset(seed=...)``).

Observation: the AEC ``Dict(observation, action_mask)``; with ``flat=True`` just the
``observation`` Box vector. Each step returns new arrays.

Reward: what the learning seat accumulated since its previous action (PettingZoo's cumulative
reward; the kinds of :mod:`jass_env.envs.rewards`). ``terminated`` when the round (``episode="round"``)
or the match (``episode="match"``) is over; never truncated.

Illegal actions of the learning seat (an action 0..n_actions-1 that is not legal now),
``illegal_action=``:
  ``"penalty"`` (default) the episode ends at once (``terminated=True``) with reward
  ``illegal_reward`` (-1) and ``info["illegal_action"] = True``, as PettingZoo's
  ``TerminateIllegalWrapper`` does in ``env()``. (Gymnasium's ``check_env`` steps with unmasked
  random actions, so it needs this mode.)
  ``"raise"`` raise :class:`jass_env.round.IllegalActionError` naming the seat, the action and the
  legal actions.
Something outside the action space (an integer outside 0..n_actions-1, a bool, a float, None)
always raises IllegalActionError (a ValueError), changing nothing, as does an illegal action
returned by one of the given policies. ``step`` before ``reset`` or after the episode and
``render`` before ``reset`` raise RuntimeError; ``reset`` refuses a negative or non-integer seed
(ValueError) and options that are not a dict (TypeError) before anything changes, and ignores a
dict of options with a warning (it takes none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from jass_env.engine.switches import Rules
from jass_env.games import REGISTRY
from jass_env.render import render_table
from jass_env.round import IllegalActionError, legal_actions_text

from .aec import raw_env
from .checks import action_index, action_problem, check_options, check_seed
from .encoding import mask_array

Policy = Any  # an object with act(obs_dict) -> int, or a callable obs_dict -> int
ILLEGAL_ACTIONS = ("penalty", "raise")


def _as_policy(p: Policy, what: str) -> Callable[[dict[str, np.ndarray]], int] | None:
    if p is None:
        return None
    act = getattr(p, "act", None)
    if callable(act):
        return act
    if callable(p):
        return p
    raise TypeError(f"{what} must be None (random legal actions), an object with an "
                    f"act(obs_dict) -> int method, or a callable obs_dict -> int; got {type(p).__name__}")


def _seat_policies(given: Policy | Sequence[Policy], count: int, what: str) -> list[Callable | None]:
    """The policies of ``count`` seats from one policy (for all of them) or a sequence of
    ``count``; ValueError for a sequence of another length."""
    if isinstance(given, (list, tuple)):
        if len(given) != count:
            raise ValueError(f"{what}: one policy or a sequence of {count}, got {len(given)}")
        return [_as_policy(g, f"{what}[{i}]") for i, g in enumerate(given)]
    return [_as_policy(given, what)] * count


class RandomLegalAgent:
    """Uniformly random legal actions from a seeded generator (``act(obs_dict) -> int``)."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def act(self, obs: dict[str, np.ndarray]) -> int:
        legal = obs["action_mask"].nonzero()[0]
        if len(legal) == 0:
            raise ValueError("no legal action in the action mask (is it this seat's turn?)")
        return int(legal[self.rng.integers(len(legal))])


class JassGymEnv(gymnasium.Env):
    """One seat of a Jass game as a Gymnasium env (see the module docstring).

    Args:
        seat: the learning seat 0..n-1 (Schieber: team = seat % 2).
        opponents: None (random), one policy for every opponent, or a sequence: Schieber two
            (seat + 1, seat + 3), Schieber for six three (seat + 1, seat + 3, seat + 5),
            Differenzler n - 1 (seat + 1, ..., seat + n - 1).
        partner: Schieber: None (random) or the policy of seat + 2; Schieber for six: one policy
            or a sequence of two (seat + 2, seat + 4); Differenzler: must be None.
        rules, game, rule_overrides, episode, reward: as for :func:`jass_env.envs.aec.env`.
        flat: observation is the Box vector only (no dict).
        illegal_action: "penalty" (default) or "raise"; illegal_reward: the penalty.
        render_mode: None, "human" or "ansi" (the table with only the learning seat's hand).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, seat: int = 0, opponents: Policy | Sequence[Policy] = None, partner: Policy = None,
                 rules: str | Rules | None = None, *, game: str | None = None,
                 rule_overrides: dict[str, Any] | None = None,
                 episode: str | None = None, reward: str = "points", flat: bool = False,
                 illegal_action: str = "penalty", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"unknown illegal_action {illegal_action!r}; "
                             f"valid: {', '.join(ILLEGAL_ACTIONS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; valid: None, human, ansi")
        self.aec = raw_env(rules, game=game, rule_overrides=rule_overrides, episode=episode, reward=reward)
        self.rules = self.aec.rules
        n = self.rules.spec.players
        if not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"seat must be a player 0..{n - 1}, got {seat!r}")
        self.seat = int(seat)
        agents = self.aec.possible_agents
        self.agent = agents[self.seat]
        teams = self.rules.spec.team_mode != "none"
        # the other seats in play order, and which of them are opponents and team-mates
        others = [(self.seat + k) % n for k in range(1, n)]
        opponent_seats = [p for p in others if not teams or p % 2 != self.seat % 2]
        mate_seats = [p for p in others if teams and p % 2 == self.seat % 2]
        opp = _seat_policies(opponents, len(opponent_seats), "opponents")
        self._policies: dict[str, Callable | None] = {
            agents[p]: opp[i] for i, p in enumerate(opponent_seats)}
        if teams:
            mates = _seat_policies(partner, len(mate_seats), "partner")   # six players: two
            for p, policy in zip(mate_seats, mates):
                self._policies[agents[p]] = policy
        elif partner is not None:
            raise ValueError(f"partner: {self.rules.game} has no partners (everyone plays alone); "
                             f"give the other seats' policies as opponents")
        self.flat = bool(flat)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        dict_space = self.aec.observation_space(self.agent)
        self.observation_space = dict_space["observation"] if self.flat else dict_space
        self.n_actions = self.aec.n_actions
        self.action_space = spaces.Discrete(self.n_actions)
        self._obs: dict[str, np.ndarray] | None = None
        self._over = True
        self._was_reset = False

    # gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        check_seed(seed)
        check_options(options)
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._over = False
        self._was_reset = True
        self._play_others()
        return self._out(), {}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            when = "after the episode ended" if self._was_reset else "before reset() was ever called"
            raise RuntimeError(f"step() {when}; call reset() first")
        aec = self.aec
        legal = aec.legal_actions_mask()
        a = action_index(action, self.n_actions)
        if a is None:
            raise IllegalActionError(self._illegal_message(self.seat, action, legal))
        if not (legal >> a) & 1:
            if self.illegal_action == "raise":
                raise IllegalActionError(self._illegal_message(self.seat, action, legal))
            self._over = True
            return self._out(), self.illegal_reward, True, False, {"illegal_action": True}
        aec.step(a)
        self._play_others()
        reward = float(aec._cumulative_rewards[self.agent])
        terminated = self._over
        if self.render_mode == "human":
            self.render()
        return self._out(), reward, terminated, False, {}

    def action_masks(self) -> np.ndarray:
        """bool[n_actions]: the legal actions of the learning seat now (all False once the episode
        ended)."""
        return mask_array(0 if self._over else self.aec.legal_actions_mask(), self.n_actions)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if not self._was_reset:
            raise RuntimeError("render() before reset(); call reset() first")
        text = render_table(self.aec.core_state, self.rules, show_hands=self.seat)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        self.aec.close()

    # internals
    def _play_others(self) -> None:
        """Let the other seats act until the learning seat must act or the episode ends."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                self._over = True
                return
            if agent == self.agent:
                return
            obs = aec.observe(agent)
            policy = self._policies[agent]
            if policy is None:
                legal = obs["action_mask"].nonzero()[0]
                a = int(legal[self.np_random.integers(len(legal))])
            else:
                chosen = policy(obs)
                legal_mask = aec.legal_actions_mask()
                a = action_index(chosen, self.n_actions)
                if a is None or not (legal_mask >> a) & 1:
                    seat = aec.possible_agents.index(agent)
                    raise IllegalActionError(
                        f"the policy of seat {seat} returned an illegal action; "
                        + self._illegal_message(seat, chosen, legal_mask))
            aec.step(a)

    def _out(self) -> Any:
        obs = self.aec.observe(self.agent)
        return obs["observation"] if self.flat else obs

    def _illegal_message(self, seat: int, action: Any, legal: int) -> str:
        names = self.rules.spec.action_names
        a = action_index(action, self.n_actions)
        legal_text = legal_actions_text(legal, names)
        who = f"seat {seat} (player_{seat})"
        if a is None:
            return f"{who}: {action_problem(action, self.n_actions)}; legal actions: {legal_text}"
        return f"{who} may not play {names[a]} (action {a}) now; legal actions: {legal_text}"


__all__ = ["JassGymEnv", "RandomLegalAgent", "ILLEGAL_ACTIONS", "game_gym_env"]


def game_gym_env(game: str, **kwargs: Any) -> JassGymEnv:
    """:class:`JassGymEnv` for the game spec ``game`` (its default preset unless ``rules`` says
    otherwise): the entry point every registered id calls with its spec."""
    if "rules" not in kwargs:
        kwargs.setdefault("game", game)
    return JassGymEnv(**kwargs)


def _register() -> None:
    """``gymnasium.make("jass_env/Jass-v0")`` and the id of every spec of the registry; their
    ``gymnasium.make_vec`` builds :class:`jass_env.envs.gym_vector.JassVectorEnv` (mode
    ``"vector_entry_point"``, the default) or vectorizes this env (``"sync"``, ``"async"``)."""
    for game in REGISTRY.values():
        for spec_name, (_, gym_id) in game.env_ids.items():
            if gym_id not in gymnasium.registry:
                gymnasium.register(id=gym_id, entry_point="jass_env.envs.gym:game_gym_env",
                                   vector_entry_point="jass_env.envs.gym_vector:game_vector_env",
                                   kwargs={"game": spec_name})


_register()
