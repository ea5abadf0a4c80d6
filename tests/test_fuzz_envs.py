"""Misuse of every environment of every game gets a clear error and loses nothing.

For each preset (every game of the registry, the test game too), the AEC env (``raw_env`` and the
wrapped ``env()``), the Gymnasium single-agent env and the batched env are driven with calls in
the wrong order, actions that are no actions, illegal actions, steps after the end, bad seeds and
options, unknown agents and wrongly shaped batches. The rule each test checks:

* the error is a ValueError, RuntimeError or TypeError (IllegalActionError is a ValueError), never
  an AssertionError, IndexError, KeyError or AttributeError from inside, and its message says
  what was wrong and what is allowed;
* nothing changed (the engine state is the one before the call);
* a valid call right after it works.

A seeded random walk mixes valid and invalid calls so orders nobody wrote down are tried too. Each
preset takes a fraction of a second once its game is compiled.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from jass_env.envs.aec import env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import PRESETS
from jass_env.round import IllegalActionError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

PRESET_NAMES = sorted(PRESETS)
#: the error types misuse may raise (each with a message); anything else is a bug
CLEAR_ERRORS = (ValueError, RuntimeError, TypeError)
#: seeds the environments refuse: negative, a bool, a float, a numpy float, a string
BAD_SEEDS = (-1, True, 1.5, np.float64(2.0), "3")
#: steps of the random walk of valid and invalid calls, per environment
WALK_STEPS = 150


def no_actions(n_actions: int) -> list[Any]:
    """Things that are no action of ``Discrete(n_actions)``: out of range, bools, floats, None, a
    string, a list, a 1-element array."""
    return [n_actions, -1, n_actions + 1000, 2**70, np.int64(n_actions), True, np.True_, 1.0,
            np.float32(1.0), None, "0", [0], np.array([0])]


def refused(says: str | tuple[str, ...], call: Callable[..., Any], *args: Any,
            **kwargs: Any) -> BaseException:
    """``call(*args, **kwargs)`` must raise one of CLEAR_ERRORS whose message says each of ``says``."""
    with pytest.raises(CLEAR_ERRORS) as err:
        call(*args, **kwargs)
    msg = str(err.value)
    assert msg, f"{type(err.value).__name__} without a message"
    for needle in (says,) if isinstance(says, str) else says:
        assert needle in msg, f"{needle!r} not in {msg!r}"
    return err.value


def legal_of(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask)


# the AEC environment
def aec_snapshot(e: Any) -> tuple:
    raw = e.unwrapped
    return raw.core_state.copy(), raw.agent_selection, dict(raw.terminations), dict(raw._cumulative_rewards)


def assert_same(a: tuple, b: tuple) -> None:
    assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]


@pytest.mark.parametrize("make", [raw_env, env], ids=["raw_env", "env"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_aec_misuse(preset: str, make: Callable[..., Any]) -> None:
    e = make(rules=preset, episode="round", render_mode="ansi")
    raw = e.unwrapped
    n = raw.n_actions
    agents = raw.possible_agents
    # before reset: every call says to call reset()
    for call in (lambda: e.step(0), e.last, lambda: e.observe(agents[0]), e.state, e.render):
        refused(("before reset()", "call reset()"), call)
    for seed in BAD_SEEDS:
        refused("seed must be a non-negative integer or None", e.reset, seed=seed)
    refused("before reset()", e.step, 0)                           # a refused reset dealt nothing
    refused("options must be None or a dict", e.reset, options="fast")
    with pytest.warns(UserWarning, match="ignores options"):
        e.reset(seed=1, options={"deal": 3})
    e.reset(seed=1)
    # unknown agents
    for agent in (f"player_{len(agents)}", "player", 0, None):
        for call in (e.observe, e.action_space, e.observation_space):
            refused(("unknown agent", agents[0], agents[-1]), call, agent)
    # actions that are no actions: refused, nothing changed
    before = aec_snapshot(e)
    for action in no_actions(n):
        says = (raw.agent_selection, f"actions are integers 0..{n - 1}", "legal actions")
        err = refused(says, e.step, action)
        assert isinstance(err, IllegalActionError)
        assert_same(aec_snapshot(e), before)
    # an illegal action of the space: raw_env raises, env() ends the episode with the penalty
    obs = e.observe(raw.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    if make is raw_env:
        refused((f"(action {illegal})", "legal actions"), e.step, illegal)
        assert_same(aec_snapshot(e), before)
    else:
        offender = raw.agent_selection
        e.step(illegal)
        assert all(e.terminations.values()) and e._cumulative_rewards[offender] == -1
        refused("the only valid action is None", e.step, 0)      # a done agent
        while e.agents:
            e.step(None)
        check_after_the_end(e)
        e.reset(seed=1)
        assert_same(aec_snapshot(e), before)             # the same seed deals the same round
    # a valid game to the end, then steps after it
    rng = np.random.default_rng(0)
    while not all(e.terminations.values()):
        e.step(int(rng.choice(legal_of(e.observe(raw.agent_selection)["action_mask"]))))
    refused("the only valid action is None", e.step, 0)
    while e.agents:
        e.step(None)
    check_after_the_end(e)
    e.reset()
    assert e.last()[0]["action_mask"].any()


def check_after_the_end(e: Any) -> None:
    """Every agent is done: step and last say the episode ended; observe and state still work."""
    for call in (lambda: e.step(0), lambda: e.step(None), e.last):
        refused(("after the episode ended", "call reset()"), call)
    assert not e.observe(e.unwrapped.possible_agents[0])["action_mask"].any()
    assert e.state().shape == e.unwrapped.state_space.shape


@pytest.mark.parametrize("make", [raw_env, env], ids=["raw_env", "env"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_aec_random_walk_of_valid_and_invalid_calls(preset: str, make: Callable[..., Any]) -> None:
    e = make(rules=preset, episode="round")
    raw = e.unwrapped
    n = raw.n_actions
    rng = np.random.default_rng(len(preset))
    junk = no_actions(n) + [f"player_{raw.rules.spec.players}", "nobody"]
    e.reset(seed=0)
    for _ in range(WALK_STEPS):
        done = not e.agents or all(e.terminations.values())
        if done:
            while e.agents:
                e.step(None)
            refused("after the episode ended", e.step, 0)
            e.reset(seed=int(rng.integers(1000)) if rng.random() < 0.5 else None)
            continue
        before = aec_snapshot(e)
        move = rng.integers(6)
        if move == 0:                                    # no action at all
            action = junk[rng.integers(len(junk) - 2)]
            refused("actions are integers", e.step, action)
        elif move == 1:                                  # an unknown agent
            agent = junk[-1 - rng.integers(2)]
            refused("unknown agent", e.observe, agent)
        elif move == 2:                                  # a bad seed
            seed = BAD_SEEDS[rng.integers(len(BAD_SEEDS))]
            refused("seed must be", e.reset, seed=seed)
        elif move == 3 and make is raw_env:              # an illegal action of the space
            mask = e.observe(raw.agent_selection)["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask == 0)))
            refused("may not play", e.step, action)
        else:                                            # a valid step
            mask = e.observe(raw.agent_selection)["action_mask"]
            e.step(int(rng.choice(legal_of(mask))))
            continue
        assert_same(aec_snapshot(e), before)


# the Gymnasium single-agent environment
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_gym_misuse(preset: str) -> None:
    g = JassGymEnv(seat=0, rules=preset, episode="round", render_mode="ansi")
    n = g.n_actions
    refused(("before reset() was ever called", "call reset() first"), g.step, 0)
    refused(("before reset()", "call reset() first"), g.render)
    for seed in BAD_SEEDS:
        refused("seed must be a non-negative integer or None", g.reset, seed=seed)
    refused("before reset() was ever called", g.step, 0)
    refused("options must be None or a dict", g.reset, options=["x"])
    g.reset(seed=2)
    before = g.aec.core_state.copy()
    for action in no_actions(n):
        says = ("seat 0 (player_0)", f"actions are integers 0..{n - 1}", "legal actions")
        err = refused(says, g.step, action)
        assert isinstance(err, IllegalActionError)
        assert np.array_equal(g.aec.core_state, before)
    illegal = int(np.flatnonzero(~g.action_masks())[0])
    _, reward, terminated, _, info = g.step(illegal)            # the documented penalty
    assert terminated and reward == g.illegal_reward and info == {"illegal_action": True}
    refused(("after the episode ended", "call reset() first"), g.step, 0)
    g.reset(seed=2)
    assert np.array_equal(g.aec.core_state, before)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = g.step(int(rng.choice(np.flatnonzero(g.action_masks()))))
    assert not g.action_masks().any()
    refused("after the episode ended", g.step, 0)
    g.reset()
    assert g.action_masks().any()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_gym_raise_mode_refuses_an_illegal_action_and_changes_nothing(preset: str) -> None:
    g = JassGymEnv(seat=0, rules=preset, episode="round", illegal_action="raise")
    g.reset(seed=4)
    before = g.aec.core_state.copy()
    illegal = int(np.flatnonzero(~g.action_masks())[0])
    refused((f"(action {illegal}) now", "legal actions"), g.step, illegal)
    assert np.array_equal(g.aec.core_state, before)
    g.step(int(np.flatnonzero(g.action_masks())[0]))


# the batched environment
def bad_batches(num_envs: int, n_actions: int) -> list[tuple[Any, str]]:
    """(actions, what the message says) of batches that are no batch of actions."""
    good = np.zeros(num_envs, dtype=np.int64)
    return [(good[:-1], "must have shape"), (good.reshape(-1, 1), "must have shape"), (3, "must have shape"),
            (None, "must have shape"), (np.zeros(num_envs + 1, dtype=np.int64), "must have shape"),
            (good.astype(np.float64), "must be integers"), (good.astype(bool), "must be integers"),
            (np.array(["0"] * num_envs), "must be integers"), ([0.5] * num_envs, "must be integers"),
            (np.full(num_envs, n_actions), f"(actions are 0..{n_actions - 1})"),
            (np.full(num_envs, -1), f"(actions are 0..{n_actions - 1})")]


@pytest.mark.parametrize("check_actions", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_vector_misuse(preset: str, check_actions: bool) -> None:
    num_envs = 3
    v = VectorJassEnv(num_envs, rules=preset, episode="round", check_actions=check_actions)
    players, n = v.players, v.num_actions
    out = np.zeros((num_envs, players, v.observation_dim), dtype=np.float32)
    for call in (lambda: v.step(np.zeros(num_envs, dtype=np.int64)), v.sample_actions, v.get_state, v.states,
                 lambda: v.every_seat(out)):
        refused("call reset() before", call)
    for seed in BAD_SEEDS:
        refused("seed must be a non-negative integer or None", v.reset, seed=seed)
    for seeds, needle in (([1] * (num_envs - 1), "one seed per game"), ([1, -2, 3], "seeds[1] must be"),
                          ([1, 2, 2.5], "seeds[2] must be"), ([None] * num_envs, "seeds[0] must be")):
        refused(needle, v.reset, seeds=seeds)
    for dealers in ([players] * num_envs, [0] * (num_envs + 1), [-2] * num_envs, [0.5] * num_envs):
        refused("dealers must give one integer per game", v.reset, dealers=dealers)
    refused("call reset() before", v.step, np.zeros(num_envs, dtype=np.int64))
    first = v.reset(seed=5)
    before = v.get_state()
    for actions, needle in bad_batches(num_envs, n):
        refused(needle, v.step, actions)
        assert np.array_equal(v.game_states, before["game_states"])
    if check_actions:                         # an illegal action of the layout: named, nothing stepped
        actions = np.array([legal_of(row)[0] for row in first.mask])
        actions[1] = np.flatnonzero(~first.mask[1])[0]
        refused(("game 1", f"(action {actions[1]})", "legal:"), v.step, actions)
        assert np.array_equal(v.game_states, before["game_states"])
    for shape in ((num_envs, players), (num_envs, players + 1, v.observation_dim)):
        refused("every_seat needs", v.every_seat, np.zeros(shape, dtype=np.float32))
    refused("every_seat needs", v.every_seat, out.astype(np.float64))
    refused("game_states", v.set_state, before["game_states"][:-1])
    assert np.array_equal(v.game_states, before["game_states"])
    for _ in range(60):                                  # and it plays on, through auto-resets
        v.step(v.sample_actions())
    v.set_state(**before)
    assert np.array_equal(v.game_states, before["game_states"])


# the wrapped env under python -O: no assertion to lean on
def test_env_refuses_an_action_outside_the_space_under_python_O() -> None:
    """PettingZoo's AssertOutOfBoundsWrapper is an ``assert``: under ``python -O`` an out-of-range
    action used to reach the engine (an IndexError, or a corrupted state). The named error comes
    before any wrapper."""
    code = ("from jass_env.envs.aec import env\n"
            "from jass_env.round import IllegalActionError\n"
            "e = env(rules='schieber')\ne.reset(seed=0)\n"
            "try:\n    e.step(43)\nexcept IllegalActionError as err:\n    print('refused:', err)\n")
    run = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "refused: player_" in run.stdout and "action 43 is out of range" in run.stdout

