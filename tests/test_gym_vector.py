"""The Gymnasium vector environment (jass_env.envs.gym_vector): against SyncVectorEnv over the
single-agent wrapper, its autoreset modes, masks, seeding, opponents, registration and bad input."""

from __future__ import annotations

import zlib

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from jass_env.envs.gym import JassGymEnv
from jass_env.envs.gym_vector import JassVectorEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import REGISTRY, make_rules
from jass_env.round import IllegalActionError

SEED = 40
#: reward sums: the batched engine's rewards are float32, the AEC env's float64
REWARD_TOL = 1e-6


class HashPolicy:
    """A deterministic stand-in for a random opponent: a legal action picked by a hash of the
    observation, so two environments that show a seat the same observation get the same move."""

    def act(self, obs: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[zlib.crc32(obs["observation"].tobytes()) % len(legal)])


class HashBatchPolicy(HashPolicy):
    """The same decisions through ``act_batch``."""

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array([self.act({"observation": o, "action_mask": m}) for o, m in zip(obs, mask)],
                        dtype=np.int64)


def _learner_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A random legal action per row (0 where nothing is legal: NEXT_STEP ignores those)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int64)


def _sync(n: int, mode: AutoresetMode, **kwargs: object) -> SyncVectorEnv:
    return SyncVectorEnv([lambda: JassGymEnv(flat=True, **kwargs) for _ in range(n)], autoreset_mode=mode)


def _compare_with_sync(mode: AutoresetMode, steps: int, n: int = 4, **kwargs: object) -> int:
    """Step JassVectorEnv and SyncVectorEnv(JassGymEnv) with the same seeds, opponents and learner
    actions; every output agrees. Returns how many episodes ended."""
    ours = JassVectorEnv(n, autoreset_mode=mode, **kwargs)
    theirs = _sync(n, mode, **kwargs)
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    obs, info = ours.reset(seed=SEED)
    obs_s, _ = theirs.reset(seed=SEED)
    np.testing.assert_array_equal(obs, obs_s)                    # the same deals
    np.testing.assert_array_equal(info["action_mask"], np.stack(theirs.call("action_masks")))
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        actions = _learner_actions(rng, info["action_mask"])
        obs, rew, term, trunc, info = ours.step(actions)
        obs_s, rew_s, term_s, trunc_s, info_s = theirs.step(actions)
        assert ours.observation_space.contains(obs)
        np.testing.assert_array_equal(obs, obs_s)
        np.testing.assert_allclose(rew, rew_s, atol=REWARD_TOL)
        np.testing.assert_array_equal(term, term_s)
        np.testing.assert_array_equal(trunc, trunc_s)
        np.testing.assert_array_equal(info["action_mask"], np.stack(theirs.call("action_masks")))
        if mode == AutoresetMode.SAME_STEP and term.any():
            np.testing.assert_array_equal(info["_final_obs"], info_s["_final_obs"])
            for i in np.flatnonzero(term):
                np.testing.assert_array_equal(info["final_obs"][i], info_s["final_obs"][i])
        ended += int(term.sum())
    return ended


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_same_as_sync_vector_env_of_the_single_agent_wrapper(mode: AutoresetMode) -> None:
    """With the same seeds and opponents that decide alike, the same deals, observations, masks,
    rewards and terminations as SyncVectorEnv over JassGymEnv, over several episodes."""
    assert _compare_with_sync(mode, 40, opponents=HashPolicy(), partner=HashBatchPolicy()) >= 8


def test_same_as_sync_for_a_game_played_alone_and_a_later_seat() -> None:
    """Molotow for five, seat 3, tricks counted per hand: the same as the single-agent wrapper."""
    policies = [HashPolicy(), HashBatchPolicy(), HashPolicy(), HashBatchPolicy()]
    assert _compare_with_sync(AutoresetMode.SAME_STEP, 20, n=3, rules="molotow5", seat=3,
                              opponents=policies, reward="win") >= 3


def test_opponents_from_an_agent_play_as_in_the_single_agent_wrapper() -> None:
    """The heuristic agent (agents.registry) as opponents and partner: its act_batch here, its act
    in JassGymEnv, the same games."""
    from agents.registry import make_agent

    bot = make_agent("heuristic", "schieber")
    assert callable(getattr(bot, "act_batch", None))
    assert _compare_with_sync(AutoresetMode.SAME_STEP, 12, seat=1, opponents=bot, partner=bot,
                              reward="tricks") >= 4


def test_match_episodes_end_with_the_match() -> None:
    """episode="match": the episode (and the reward kind "win") ends with the match, as in
    JassGymEnv."""
    assert _compare_with_sync(AutoresetMode.NEXT_STEP, 120, n=2, rules="schieber_2500", episode="match",
                              reward="win", opponents=HashPolicy(), partner=HashPolicy()) >= 1


def test_same_step_autoreset_reports_the_finished_episode_in_info() -> None:
    """SAME_STEP: the ending step returns the next episode's first observation and its mask, and
    info["final_obs"] / info["final_info"] (the result) where the episode ended, as Gymnasium
    documents them."""
    env = JassVectorEnv(8, reward="points")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    while ended < 8:
        obs, rew, term, trunc, info = env.step(_learner_actions(rng, info["action_mask"]))
        assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (8, 43)
        assert info["action_mask"].any(axis=1).all()            # always a decision of the next episode
        if not term.any():
            assert "final_obs" not in info
            continue
        np.testing.assert_array_equal(info["_final_obs"], term)
        np.testing.assert_array_equal(info["_final_info"], term)
        for i in range(8):
            assert (info["final_obs"][i] is None) == (not term[i])
        final = info["final_info"]
        # a round's end: the two teams' scores, the winner, the points reward of team 0's seat
        for i in np.flatnonzero(term):
            s0, s1 = final["final_score"][i]
            assert rew[i] == pytest.approx((s0 - s1) / 157, abs=REWARD_TOL)
            assert final["winner"][i] == (0 if s0 > s1 else 1 if s1 > s0 else 2)
            assert not np.array_equal(info["final_obs"][i], obs[i])   # the new deal differs
        assert (final["winner"][~term] == -1).all()
        ended += int(term.sum())
    assert not trunc.any()


def test_next_step_autoreset_ignores_the_action_after_the_end() -> None:
    """NEXT_STEP: the ending step returns the finished position with an empty mask and the
    result in info; the next step ignores that game's action (even an illegal one) and returns
    the new episode with reward 0."""
    env = JassVectorEnv(4, autoreset_mode="NextStep")
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=9)
    rng = np.random.default_rng(2)
    for _ in range(40):
        obs, rew, term, _, info = env.step(_learner_actions(rng, info["action_mask"]))
        if term.any():
            break
    assert term.any()
    assert not info["action_mask"][term].any() and info["action_mask"][~term].any(axis=1).all()
    np.testing.assert_array_equal(info["_final_score"], term)
    actions = _learner_actions(rng, info["action_mask"])
    actions[term] = 42                                  # not legal in a card phase: ignored
    obs2, rew2, term2, _, info2 = env.step(actions)
    assert (rew2[term] == 0).all() and not term2[term].any()
    assert info2["action_mask"][term].any(axis=1).all()
    assert not np.array_equal(obs2[term], obs[term])


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_gymnasium_episode_statistics_sum_the_rewards(mode: AutoresetMode) -> None:
    """gymnasium's RecordEpisodeStatistics, which reads metadata["autoreset_mode"], counts every
    episode's return as the sum of the rewards of its steps."""
    env = RecordEpisodeStatistics(JassVectorEnv(4, autoreset_mode=mode, reward="tricks"))
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(3)
    running = np.zeros(4)
    pending = np.zeros(4, dtype=bool)
    returns: list[float] = []
    for _ in range(60):
        _, rew, term, _, info = env.step(_learner_actions(rng, info["action_mask"]))
        running[~pending] += rew[~pending]
        if term.any():
            np.testing.assert_allclose(info["episode"]["r"][term], running[term], atol=1e-9)
            returns.extend(running[term])
            running[term] = 0
        pending = term if mode == AutoresetMode.NEXT_STEP else np.zeros(4, dtype=bool)
    assert len(returns) >= 8 and len(env.return_queue) == len(returns)


def test_each_game_plays_the_same_whatever_the_other_games() -> None:
    """Game i of a batch (random opponents from the env's generators) plays exactly as a batch of
    one seeded with its seed: the deals and the random opponents' draws are its own."""
    seeds = [5, 77, 123]
    batch = JassVectorEnv(3, rules="differenzler")
    alone = JassVectorEnv(1, rules="differenzler")
    obs, info = batch.reset(seed=seeds)
    obs1, info1 = alone.reset(seed=[77])
    rng = np.random.default_rng(4)
    for _ in range(30):
        np.testing.assert_array_equal(obs[1], obs1[0])
        actions = _learner_actions(rng, info["action_mask"])
        obs, rew, term, _, info = batch.step(actions)
        obs1, rew1, term1, _, info1 = alone.step(actions[1:2])
        assert rew[1] == rew1[0] and term[1] == term1[0]


def test_seeding() -> None:
    """reset(seed=s) seeds game i with s + i (SyncVectorEnv's rule); an unseeded reset after it is
    reproducible; a list gives each game its seed."""
    a, b = JassVectorEnv(3), JassVectorEnv(3)
    obs_a, _ = a.reset(seed=10)
    obs_b, _ = b.reset(seed=[10, 11, 12])
    np.testing.assert_array_equal(obs_a, obs_b)
    b.reset(seed=10)
    unseeded = a.reset()[0]
    np.testing.assert_array_equal(unseeded, b.reset()[0])
    assert not np.array_equal(unseeded, obs_a)


def test_bad_input_is_refused_with_what_is_allowed() -> None:
    env = JassVectorEnv(4)
    with pytest.raises(RuntimeError, match="before reset"):
        env.step(np.zeros(4, dtype=np.int64))
    obs, info = env.reset(seed=0)
    state = env.engine.get_state()
    legal = _learner_actions(np.random.default_rng(0), info["action_mask"])
    illegal = legal.copy()
    illegal[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(IllegalActionError, match=r"game 2: seat 0 may not play .* legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(legal[:3])
    with pytest.raises(ValueError, match="integers 0..42"):
        env.step(legal.astype(np.float32))
    with pytest.raises(ValueError, match="bool"):
        env.step(np.ones(4, dtype=bool))
    np.testing.assert_array_equal(env.engine.get_state()["game_states"], state["game_states"])
    env.step(legal)                                     # nothing was lost
    with pytest.raises(ValueError, match="one seed per game"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=1.5)
    with pytest.raises(TypeError, match="options"):
        env.reset(seed=0, options="no")
    with pytest.raises(ValueError, match="autoreset_mode must be one of SameStep, NextStep"):
        JassVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match=r"seat must be a player 0..4"):
        JassVectorEnv(2, rules="molotow5", seat=5)
    with pytest.raises(ValueError, match="flat must be True"):
        JassVectorEnv(2, flat=False)
    with pytest.raises(ValueError, match="no partners"):
        JassVectorEnv(2, rules="differenzler", partner=HashPolicy())
    with pytest.raises(ValueError, match="one policy or a sequence of 2"):
        JassVectorEnv(2, opponents=[None, None, None])
    with pytest.raises(TypeError, match="act_batch"):
        JassVectorEnv(2, opponents=5)
    with pytest.raises(ValueError, match="unknown reward"):
        JassVectorEnv(2, rules="differenzler", reward="tricks")


def test_a_policy_that_plays_illegally_is_named_and_the_env_asks_for_reset() -> None:
    class Cheat:
        def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            return np.argmin(mask, axis=1)              # the first illegal action of each row

    class WrongShape:
        def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            return np.zeros(len(obs) + 1, dtype=np.int64)

    env = JassVectorEnv(2, seat=0, opponents=Cheat())
    with pytest.raises(IllegalActionError, match="a policy of the other seats returned an illegal action"):
        _, info = env.reset(seed=0)                      # seat 1, an opponent, moves after seat 0
        env.step(_learner_actions(np.random.default_rng(0), info["action_mask"]))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"must return one integer action per row, shape \(\d+,\)"):
        JassVectorEnv(2, seat=1, opponents=WrongShape()).reset(seed=0)


def test_the_batched_engine_steps_and_samples_a_subset_of_games() -> None:
    """VectorJassEnv.step(active=...) moves only the active games (the others keep their state,
    observation and sampler, with no reward), and final_obs_seat keeps the finished position."""
    n = 6
    env = VectorJassEnv(n, final_obs_seat=2)
    twin = VectorJassEnv(n)
    env.reset(seed=1)
    twin.reset(seed=1)
    active = np.array([True, False, True, False, True, False])
    for _ in range(60):
        before = env.game_states.copy()
        obs_before = env.step(np.zeros(n, dtype=np.int64), active=np.zeros(n, dtype=bool)).obs.copy()
        a = env.sample_actions(active=active).copy()
        assert (a[~active] == -1).all()
        out = env.step(a, active=active)
        np.testing.assert_array_equal(env.game_states[~active], before[~active])
        np.testing.assert_array_equal(out.obs[~active], obs_before[~active])
        assert not out.rewards[~active].any() and not out.done[~active].any()
        full = twin.step(twin.sample_actions())         # the twin's games 0, 2, 4 see the same moves
        np.testing.assert_array_equal(out.obs[active], full.obs[active])
        np.testing.assert_array_equal(out.done[active], full.done[active])
    with pytest.raises(ValueError, match="bool array of shape"):
        env.step(a, active=active.astype(int))


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_make_vec_builds_every_registered_game(game: str) -> None:
    """Every id of the registry builds JassVectorEnv with gymnasium.make_vec (the vector entry
    point, also the default mode), for that game, and plays a step."""
    for spec_name, (_, gym_id) in REGISTRY[game].env_ids.items():
        envs = gymnasium.make_vec(gym_id, num_envs=3, vectorization_mode="vector_entry_point", seat=1)
        assert isinstance(envs, JassVectorEnv)
        assert envs.rules.spec.name == spec_name and envs.num_envs == 3
        assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        _, info = envs.reset(seed=0)
        envs.step(_learner_actions(np.random.default_rng(0), info["action_mask"]))
    assert isinstance(gymnasium.make_vec(gym_id, num_envs=2), JassVectorEnv)


def test_make_vec_sync_and_async_vectorize_the_single_agent_wrapper() -> None:
    """"sync" and "async" go through the single-agent entry point: JassGymEnv's keywords (flat=True,
    the preset, the opponents) build both, and their first observations match JassVectorEnv's."""
    kwargs = {"rules": "molotow5", "flat": True, "opponents": HashPolicy()}
    ours = gymnasium.make_vec("jass_env/Molotow-v0", num_envs=2, **kwargs)
    obs, _ = ours.reset(seed=4)
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec("jass_env/Molotow-v0", num_envs=2, vectorization_mode=mode, **kwargs)
        try:
            assert envs.single_observation_space == ours.single_observation_space
            np.testing.assert_array_equal(envs.reset(seed=4)[0], obs)
        finally:
            envs.close()


def test_molotow5_rules_and_spaces() -> None:
    env = JassVectorEnv(5, rules="molotow5", seat=4)
    rules = make_rules("molotow5")
    assert env.single_action_space.n == rules.spec.n_actions
    assert env.observation_space.shape == (5, env.single_observation_space.shape[0])
    assert env.observation_space.dtype == np.float32
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and info["action_mask"].shape == (5, rules.spec.n_actions)


def test_copy_false_returns_the_same_values_in_buffers_it_reuses() -> None:
    """copy=False: the values of copy=True (NEXT_STEP, whose ending steps rewrite rows), in one buffer."""
    reused = JassVectorEnv(3, copy=False, autoreset_mode="NextStep")
    fresh = JassVectorEnv(3, autoreset_mode="NextStep")
    obs_r, info_r = reused.reset(seed=2)
    obs_f, info_f = fresh.reset(seed=2)
    first = obs_r
    rng = np.random.default_rng(5)
    for _ in range(12):
        np.testing.assert_array_equal(obs_r, obs_f)
        np.testing.assert_array_equal(info_r["action_mask"], info_f["action_mask"])
        actions = _learner_actions(rng, info_f["action_mask"])
        obs_r, rew_r, term_r, _, info_r = reused.step(actions)
        obs_f, rew_f, term_f, _, info_f = fresh.step(actions)
        np.testing.assert_array_equal(rew_r, rew_f)
        np.testing.assert_array_equal(term_r, term_f)
        assert obs_r is first and obs_f is not first


def test_the_ppo_example_runs_a_few_updates() -> None:
    """examples/gym_vector_ppo.py end to end at a tiny size: rollouts, updates, both evaluations."""
    pytest.importorskip("torch")
    from examples.gym_vector_ppo import Config, train

    result = train(Config(num_envs=16, num_steps=8, total_timesteps=3 * 16 * 8, eval_games=16))
    assert result["steps"] == 3 * 16 * 8
    for which in ("random_learner", "before", "after"):
        figures = result[which]
        assert np.isfinite(figures["mean_return"]) and 0.0 <= figures["win_rate"] <= 1.0
