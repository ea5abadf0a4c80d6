"""The Gymnasium single-agent wrapper (jass_env.envs.gym.JassGymEnv)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from jass_env.engine.state import StateView
from jass_env.envs.gym import JassGymEnv, RandomLegalAgent
from jass_env.games.schieber.observation import OBS_DIM
from jass_env.round import IllegalActionError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("kwargs", [
    {}, {"seat": 3, "flat": True}, {"seat": 1, "episode": "match", "reward": "tricks"},
    {"rules": "seed_vaud", "reward": "win", "render_mode": "ansi"},
])
def test_check_env(kwargs):
    check_env(JassGymEnv(**kwargs), skip_render_check="render_mode" not in kwargs)


def play_episode(env: JassGymEnv, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    obs, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (43,)
        if not env.flat:
            np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        assert env.aec.agent_selection == env.agent                # the learner is to move
        legal = mask.nonzero()[0]
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        assert env.observation_space.contains(obs) and not trunc
        total += r
        steps += 1
        if term:
            return total, steps


@pytest.mark.parametrize("seat", range(4))
def test_reward_is_the_seats_round_result(seat):
    env = JassGymEnv(seat=seat, reward="tricks")
    for seed in range(3):
        total, steps = play_episode(env, seed, np.random.default_rng(seed))
        st = env.aec.core_state
        score = StateView(st, env.rules.params).score
        own, opp = score[seat % 2], score[1 - seat % 2]
        assert total == pytest.approx((own - opp) / 157)
        assert 9 <= steps <= 11                                     # 9 cards, maybe a contract choice
        assert not env.action_masks().any()


def test_match_episode():
    env = JassGymEnv(seat=0, episode="match", reward="win", flat=True)
    total, steps = play_episode(env, 1, np.random.default_rng(1))
    w = StateView(env.aec.core_state, env.rules.params).match_winner
    assert total == (1.0 if w == 0 else -1.0) and steps > 9


def test_policies_act_and_callables_are_used():
    calls = {"act": 0, "fn": 0}

    class First:
        def act(self, obs):
            calls["act"] += 1
            assert obs["observation"].shape == (OBS_DIM,) and obs["action_mask"].any()
            return int(obs["action_mask"].nonzero()[0][0])

    def last(obs):
        calls["fn"] += 1
        return obs["action_mask"].nonzero()[0][-1]            # a numpy integer is fine

    env = JassGymEnv(seat=0, opponents=First(), partner=last)
    play_episode(env, 0, np.random.default_rng(0))
    assert calls["act"] >= 18 and calls["fn"] >= 9
    env = JassGymEnv(seat=0, opponents=[First(), RandomLegalAgent(3)], partner=RandomLegalAgent(4))
    play_episode(env, 0, np.random.default_rng(0))


def test_seeded_reset_is_reproducible():
    a, b = JassGymEnv(seat=2), JassGymEnv(seat=2)
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    np.testing.assert_array_equal(oa["observation"], ob["observation"])
    for _ in range(5):
        act = int(a.action_masks().nonzero()[0][0])
        ra, rb = a.step(act), b.step(act)
        np.testing.assert_array_equal(ra[0]["observation"], rb[0]["observation"])
        if ra[2]:
            break


def test_illegal_action_penalty_and_raise():
    env = JassGymEnv(seat=0)
    env.reset(seed=0)
    bad = int((~env.action_masks()).nonzero()[0][0])
    obs, r, term, trunc, info = env.step(bad)
    assert r == -1.0 and term and info == {"illegal_action": True}
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = JassGymEnv(seat=0, illegal_action="raise")
    env.reset(seed=0)
    bad = int((~env.action_masks()).nonzero()[0][0])
    with pytest.raises(IllegalActionError, match=r"seat 0 \(player_0\) may not play .* legal actions: "):
        env.step(bad)


def test_step_before_the_first_reset_says_reset_was_never_called():
    env = JassGymEnv(seat=0)
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\) was ever called; call reset\(\)"):
        env.step(0)
    env.reset(seed=0)
    env.step(int(env.action_masks().nonzero()[0][0]))


@pytest.mark.parametrize("illegal_action", ["penalty", "raise"])
@pytest.mark.parametrize("action", [43, -1, True, 1.0, np.float64(3.0), "3", None, np.array([3])])
def test_an_action_outside_the_space_raises_in_both_modes(illegal_action, action):
    """The penalty is for actions of the space that are not legal now; anything else is a bug of
    the caller: IllegalActionError naming it, the range and the legal actions, nothing changed."""
    env = JassGymEnv(seat=0, illegal_action=illegal_action)
    env.reset(seed=0)
    before = env.aec.core_state.copy()
    with pytest.raises(IllegalActionError, match=r"seat 0 \(player_0\): .*actions are integers 0..42.* "
                                                 r"legal actions: "):
        env.step(action)
    assert np.array_equal(env.aec.core_state, before)
    env.step(int(env.action_masks().nonzero()[0][0]))


def test_reset_refuses_a_bad_seed_before_anything_changes():
    env = JassGymEnv(seat=0)
    env.reset(seed=5)
    before = env.aec.core_state.copy()
    for seed in (-1, True, 1.5, "7"):
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer or None, got "):
            env.reset(seed=seed)
    assert np.array_equal(env.aec.core_state, before)


def test_bad_policy_and_arguments():
    env = JassGymEnv(seat=0, opponents=lambda obs: 99)
    with pytest.raises(IllegalActionError, match=r"policy of seat [13] returned an illegal action"):
        for seed in range(5):
            play_episode(env, seed, np.random.default_rng(0))
    with pytest.raises(TypeError, match="act\\(obs_dict\\)"):
        JassGymEnv(partner=42)
    with pytest.raises(ValueError, match="seat must be a player 0..3"):
        JassGymEnv(seat=4)
    with pytest.raises(ValueError, match="penalty, raise"):
        JassGymEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="valid episodes"):
        JassGymEnv(episode="season")


def test_render_shows_only_the_learning_seat():
    env = JassGymEnv(seat=1, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    lines = {ln.split(" ")[0]: ln for ln in text.splitlines() if ln.startswith("player_")}
    assert "hidden" not in lines["player_1"]
    assert all("hidden" in lines[p] for p in ("player_0", "player_2", "player_3"))
