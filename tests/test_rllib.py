"""RLlib integration (examples/rllib_ppo.py): env wrapper, team metrics, training, checkpoint reload.

Skipped when the optional extra is missing (``pip install -e '.[rllib]'``); CI runs it in its
own virtual environment through ``.ci/rllib`` (Ray pins its own gymnasium).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="RLlib extra not installed (pip install -e '.[rllib]'; "
                                        "CI runs this file through .ci/rllib)")
import ray  # noqa: E402
import torch  # noqa: E402

from examples import rllib_ppo as rp  # noqa: E402
from jass_env import core  # noqa: E402
from jass_env.aec import AGENTS  # noqa: E402
from jass_env.cards import N_ACTIONS  # noqa: E402
from jass_env.game import IllegalActionError  # noqa: E402
from jass_env.observation import OBS_DIM  # noqa: E402


def _legal(obs: dict[str, np.ndarray]) -> np.ndarray:
    return np.flatnonzero(obs["action_mask"])


def _play_round(env: rp.JassMultiAgentEnv, seed: int, choose) -> tuple[dict[str, float], int]:
    """Play one episode choosing ``choose(obs) -> action``; returns per-seat returns and steps."""
    obs, _ = env.reset(seed=seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    steps = 0
    while True:
        assert len(obs) == 1, "turn-based: only the agent to move is observed"
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        obs, rew, term, trunc, _ = env.step({agent: choose(o)})
        steps += 1
        for a, r in rew.items():
            returns[a] += r
        assert trunc == {"__all__": False}
        if term["__all__"]:
            assert set(obs) == set(AGENTS) and all(term[a] for a in AGENTS)
            assert all(not o["action_mask"].any() for o in obs.values())
            return returns, steps
        assert set(rew) == set(obs), "rewards travel with the observation of the seat to move"


def test_env_wrapper_keys_turns_and_zero_sum_returns() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber", "reward": "points"})
    space = env.observation_spaces["player_0"]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].shape == (OBS_DIM,) and space["action_mask"].shape == (N_ACTIONS,)
    assert space["action_mask"].dtype == np.float32
    rng = np.random.default_rng(0)
    for seed in range(3):
        returns, steps = _play_round(env, seed, lambda o: int(rng.choice(_legal(o))))
        assert steps in (37, 38)                      # contract (maybe after a push) + 36 cards
        score = core.StateView(env.aec.core_state, env.aec.rules.params).score
        diff = (score[0] - score[1]) / 157.0
        assert returns["player_0"] == pytest.approx(diff) == pytest.approx(returns["player_2"])
        assert returns["player_1"] == pytest.approx(-diff) == pytest.approx(returns["player_3"])


def test_env_wrapper_tricks_reward_sums_to_points_and_is_reproducible() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber", "reward": "tricks"})
    first = _play_round(env, 7, lambda o: int(_legal(o)[0]))
    again = _play_round(env, 7, lambda o: int(_legal(o)[0]))
    assert first == again
    score = core.StateView(env.aec.core_state, env.aec.rules.params).score
    assert first[0]["player_0"] == pytest.approx((score[0] - score[1]) / 157.0)


def test_env_wrapper_errors_are_clear() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber"})
    obs, _ = env.reset(seed=1)
    (agent, o), = obs.items()
    other = next(a for a in AGENTS if a != agent)
    with pytest.raises(ValueError, match=f"{agent} is to move"):
        env.step({other: 0})
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal actions"):
        env.step({agent: illegal})
    with pytest.raises(TypeError, match="valid keywords"):
        rp.JassMultiAgentEnv({"rulez": "schieber"})


def test_cli_options(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert rp.parse_args([]).address == "local"
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    args = rp.parse_args(["--num-env-runners", "8", "--iterations", "3"])
    assert (args.address, args.num_env_runners, args.iterations) == ("10.0.0.1:6379", 8, 3)
    assert rp.parse_args(["--address", "auto"]).address == "auto"
    for bad, msg in ((["--minibatch-size", "500", "--train-batch-size", "400"], "must not exceed"),
                     (["--rules", "nope"], "invalid choice"),
                     (["--num-env-runners", "-1"], "must be >= 0")):
        with pytest.raises(SystemExit):
            rp.parse_args(bad)
        assert msg in capsys.readouterr().err


def test_load_shared_module_missing_checkpoint(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="no RLlib module checkpoint"):
        rp.load_shared_module(tmp_path)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_train_two_iterations_checkpoint_and_reload(local_ray, tmp_path, capsys) -> None:
    ckpt_dir = tmp_path / "ckpt"
    args = rp.parse_args(["--iterations", "2", "--num-env-runners", "0", "--train-batch-size", "200",
                          "--minibatch-size", "100", "--num-epochs", "1", "--seed", "3",
                          "--checkpoint-dir", str(ckpt_dir), "--rules", "schieber", "--address", "local"])
    ckpt, history = rp.train(args)
    out = capsys.readouterr().out
    assert "team0_ret" in out and "checkpoint" in out

    # metrics: per-team / per-seat returns, not the all-seat sum (always 0 in a zero-sum game)
    assert len(history) == 2
    last = history[-1]
    assert last["env_steps"] >= 200 and last["env_steps_per_s"] > 0
    assert np.isfinite(last[rp.TEAM_0_RETURN])
    seats = [last[k] for k in rp.SEAT_RETURNS]
    assert seats[0] == pytest.approx(seats[2]) == pytest.approx(last[rp.TEAM_0_RETURN])
    assert seats[1] == pytest.approx(seats[3]) == pytest.approx(-seats[0])

    # checkpoint written and reloads: the module plays only legal actions through a full round
    assert ckpt == ckpt_dir.resolve() and rp.module_path(ckpt).is_dir()
    module = rp.load_shared_module(ckpt)
    env = rp.JassMultiAgentEnv({"rules": "schieber"})
    chosen = []

    def choose(o):
        a = rp.greedy_action(module, o)
        assert o["action_mask"][a] == 1.0
        chosen.append(a)
        return a

    _, steps = _play_round(env, 11, choose)
    assert steps >= 37 and len(chosen) == steps

    # the whole Algorithm restores too: its acting module gives the same logits, and it trains on
    config = rp.build_config(rules="schieber", num_env_runners=0, train_batch_size=200,
                             minibatch_size=100, num_epochs=1)
    algo = config.build_algo()
    try:
        obs = [next(iter(env.reset(seed=s)[0].values())) for s in range(5)]
        batch = {"obs": {k: torch.as_tensor(np.stack([o[k] for o in obs])) for k in obs[0]}}
        fresh = algo.get_module(rp.MODULE_ID).forward_inference(
            {"obs": dict(batch["obs"])})["action_dist_inputs"]
        algo.restore_from_path(str(ckpt))
        with torch.no_grad():
            want = module.forward_inference({"obs": dict(batch["obs"])})["action_dist_inputs"]
            got = algo.get_module(rp.MODULE_ID).forward_inference(
                {"obs": dict(batch["obs"])})["action_dist_inputs"]
        assert torch.allclose(got, want) and not torch.allclose(fresh, want)
        assert rp.summarize(algo.train())["env_steps"] >= 200
    finally:
        algo.stop()
