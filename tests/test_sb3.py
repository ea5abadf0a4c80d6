"""The Stable-Baselines3 / sb3-contrib example (examples/sb3_maskable_ppo.py): a short MaskablePPO run
trains, saves, reloads and plays only legal actions; frozen copies of the learner follow its weights.

Skipped when stable-baselines3 / sb3-contrib are not installed (``pip install -e ".[sb3]"``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from conftest import play_aec_round  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback, CallbackList  # noqa: E402

from examples.sb3_maskable_ppo import MaskablePolicyAgent, build_model, main  # noqa: E402
from jass_env.envs.aec import env as aec_env  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


class _Snapshot(BaseCallback):
    """Keeps a copy of the learner's weights at every rollout end."""

    params: list[torch.Tensor] = []

    def _on_rollout_end(self) -> None:
        self.params = [p.detach().clone() for p in self.model.policy.parameters()]

    def _on_step(self) -> bool:
        return True


def test_train_save_reload_act_legally(tmp_path):
    model, callback = build_model("heuristic", "self", seed=3, n_envs=2, n_steps=128, batch_size=64,
                                  n_epochs=1, hidden=(64,))
    assert len(callback.agents) == 2  # the two partner seats
    before = [p.clone() for p in callback.agents[0].policy.parameters()]
    snapshot = _Snapshot()
    model.learn(total_timesteps=256, callback=CallbackList([callback, snapshot]))
    assert model.num_timesteps >= 256
    # the frozen partner copies were synced at the start and after each rollout: they hold the
    # learner's weights of the last rollout's end (before its update), not their initial ones
    assert callback.syncs == 1 + callback.rollouts >= 2
    for a in callback.agents:
        params = list(a.policy.parameters())
        assert all(torch.equal(p, q) for p, q in zip(params, snapshot.params))
        assert not all(torch.equal(p, b) for p, b in zip(params, before))
        assert not any(p.requires_grad for p in params)
    path = tmp_path / "jass_maskable.zip"
    model.save(path)
    assert path.stat().st_size > 0
    loaded = MaskablePPO.load(path, device="cpu")
    for p, q in zip(loaded.policy.parameters(), model.policy.parameters()):
        assert torch.equal(p, q)
    greedy = MaskablePolicyAgent(loaded, greedy=True)
    sampled = MaskablePolicyAgent(loaded, greedy=False, seed=5)
    assert play_aec_round(greedy, seed=11) >= 37  # contract + 36 cards (+ push)
    assert play_aec_round(sampled, seed=12) >= 37
    # SB3's own predict with the env's mask agrees with the agent and stays legal
    e = aec_env()
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    act, _ = loaded.predict(obs["observation"], action_masks=obs["action_mask"].astype(bool),
                            deterministic=True)
    assert obs["action_mask"][int(act)] == 1
    assert int(act) == greedy.act(obs)


def test_sampled_agent_is_reproducible_and_masked():
    model, _ = build_model("random", "random", seed=0, n_envs=1, n_steps=16, batch_size=16, hidden=(32,))
    agent = MaskablePolicyAgent(model, greedy=False)
    e = aec_env()
    e.reset(seed=7)
    obs = e.observe(e.agent_selection)
    p = agent.probabilities(obs)
    assert p.shape == (43,) and np.isclose(p.sum(), 1.0)
    assert np.all(p[obs["action_mask"] == 0] == 0)
    agent.reset(seed=9)
    first = [agent.act(obs) for _ in range(20)]
    agent.reset(seed=9)
    assert [agent.act(obs) for _ in range(20)] == first
    with pytest.raises(ValueError, match="no legal action"):
        agent.act({"observation": obs["observation"], "action_mask": np.zeros(43, dtype=np.int8)})
    with pytest.raises(TypeError, match="MaskablePPO model"):
        MaskablePolicyAgent(object())


def test_bad_arguments_give_clear_errors(capsys):
    with pytest.raises(ValueError, match="unknown opponents 'pimc'.*random, heuristic, self"):
        build_model("pimc")
    with pytest.raises(ValueError, match="unknown reward"):
        build_model("random", reward="score")
    with pytest.raises(ValueError, match="unknown lr_schedule 'cosine'.*constant, linear"):
        build_model("random", lr_schedule="cosine")
    assert main(["--timesteps", "0"]) == 2
    assert "--timesteps must be >= 1" in capsys.readouterr().err
    assert main(["--timesteps", "10", "--rules", "nope"]) == 2
    assert "error:" in capsys.readouterr().err


def test_script_self_play_end_to_end(tmp_path, capsys):
    path = tmp_path / "m.zip"
    rc = main(["--timesteps", "128", "--opponents", "self", "--seed", "1", "--save", str(path), "--envs", "1",
               "--n-steps", "128", "--batch-size", "64", "--eval-deals", "2"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["frozen_copies"] == 3 and report["timesteps"] == 128
    assert set(report["evaluation"]) == {"random", "heuristic"}
    assert path.exists()


def test_linear_lr_schedule_decays_to_zero_over_the_run():
    model, callback = build_model("random", "random", seed=0, n_envs=1, n_steps=16, batch_size=16,
                                  hidden=(16,), learning_rate=1e-3, lr_schedule="linear")
    assert model.lr_schedule(1.0) == pytest.approx(1e-3)      # progress remaining: the start
    assert model.lr_schedule(0.25) == pytest.approx(2.5e-4)   # three quarters through
    model.learn(total_timesteps=32, callback=callback)
    # the last update comes after the last rollout, with no progress remaining: rate 0
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(0.0)
    constant, _ = build_model("random", "random", seed=0, n_envs=1, n_steps=16, batch_size=16,
                              hidden=(16,), learning_rate=1e-3)
    assert constant.lr_schedule(0.25) == pytest.approx(1e-3)
