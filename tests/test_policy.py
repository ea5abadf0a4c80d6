"""Policy network, checkpoint files and PolicyAgent."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.network import CHECKPOINT_FORMAT, CheckpointError, PolicyNet, load_policy, save_policy
from agents.policy import PolicyAgent, main, write_random_checkpoint
from jass_env import Round
from jass_env.observation import OBS_DIM, OBS_VERSION, encode_action_mask, encode_observation


def _obs(round_: Round) -> dict[str, np.ndarray]:
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(43, dtype=np.int8)
    encode_observation(round_.state, round_.to_move, round_.rp, obs)
    encode_action_mask(round_.state, round_.rp, mask)
    return {"observation": obs, "action_mask": mask}


def test_masked_logits_give_zero_probability_to_illegal_actions() -> None:
    net = PolicyNet((32,), seed=1)
    obs = torch.randn(5, OBS_DIM)
    mask = torch.zeros(5, 43, dtype=torch.bool)
    mask[:, [3, 7, 40]] = True
    mask[4] = False                                  # a row without legal actions stays finite
    logits = net.masked_logits(obs, mask)
    assert logits.shape == (5, 43)
    probs = torch.softmax(logits, dim=-1)
    assert torch.all(probs[:4][~mask[:4]] == 0)
    assert torch.allclose(probs[:4].sum(-1), torch.ones(4))
    assert torch.all(torch.isfinite(probs))
    logits_raw, value = net(obs)
    assert logits_raw.shape == (5, 43) and value.shape == (5,)


def test_seeded_init_is_reproducible_and_leaves_global_rng() -> None:
    state = torch.random.get_rng_state()
    a, b = PolicyNet((16, 8), seed=3), PolicyNet((16, 8), seed=3)
    assert torch.equal(torch.random.get_rng_state(), state)
    for (ka, va), (kb, vb) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert ka == kb and torch.equal(va, vb)
    with pytest.raises(ValueError, match="positive"):
        PolicyNet((0,))


def test_checkpoint_round_trip_and_weights_only(tmp_path) -> None:
    net = PolicyNet((24, 12), seed=5)
    path = save_policy(tmp_path / "sub" / "p.pt", net, config={"lr": 3e-4}, steps=1234)
    raw = torch.load(path, weights_only=True)
    assert raw["format"] == CHECKPOINT_FORMAT and raw["obs_version"] == OBS_VERSION
    assert raw["net"]["hidden"] == [24, 12] and raw["steps"] == 1234 and raw["config"] == {"lr": 3e-4}
    loaded, ckpt = load_policy(path)
    assert ckpt["steps"] == 1234 and not loaded.training
    x = torch.randn(3, OBS_DIM)
    assert torch.equal(net(x)[0], loaded(x)[0]) and torch.equal(net(x)[1], loaded(x)[1])
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["p.pt"]   # no temp file left


def test_save_rejects_fields_that_would_not_load_weights_only(tmp_path) -> None:
    with pytest.raises(TypeError, match="config.when"):
        save_policy(tmp_path / "p.pt", PolicyNet((4,)), config={"when": object()})
    with pytest.raises(ValueError, match="may not be named"):
        save_policy(tmp_path / "p.pt", PolicyNet((4,)), model=1)
    assert not list(tmp_path.iterdir())


def test_load_errors_name_the_file_and_the_expectation(tmp_path) -> None:
    with pytest.raises(CheckpointError, match="does not exist"):
        load_policy(tmp_path / "missing.pt")
    good = save_policy(tmp_path / "good.pt", PolicyNet((8,), seed=0))
    data = good.read_bytes()
    trunc = tmp_path / "trunc.pt"
    trunc.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match=r"trunc\.pt.*cannot be read.*corrupt, truncated"):
        load_policy(trunc)
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a torch file at all")
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_policy(junk)

    def variant(name: str, **changes) -> str:
        ckpt = torch.load(good, weights_only=True)
        ckpt.update(changes)
        torch.save(ckpt, tmp_path / name)
        return str(tmp_path / name)

    with pytest.raises(CheckpointError, match="format 'other/2'; expected 'jass-policy/1'"):
        load_policy(variant("fmt.pt", format="other/2"))
    with pytest.raises(CheckpointError, match=f"version 99; this code encodes version {OBS_VERSION}"):
        load_policy(variant("obs.pt", obs_version=99))
    shape_msg = r"wrong shapes: .*trunk\.0\.weight: \(8, 529\) \(expected \(16, 529\)\)"
    with pytest.raises(CheckpointError, match=shape_msg):
        load_policy(variant("shape.pt", net={"hidden": [16]}))
    torch.save([1, 2], tmp_path / "list.pt")
    with pytest.raises(CheckpointError, match="holds a list"):
        load_policy(tmp_path / "list.pt")


def test_policy_agent_plays_legal_actions_greedy_and_sampled(tmp_path) -> None:
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=(32,), seed=2)
    greedy = PolicyAgent(path)
    assert "r.pt" in greedy.name and greedy.checkpoint_sha256 and torch.get_num_threads() == 1
    sampled = PolicyAgent(path, greedy=False, seed=1)
    for agent in (greedy, sampled):
        r = Round(seed=11)
        while not r.is_over:
            obs = _obs(r)
            a = agent.act(obs)
            assert obs["action_mask"][a]
            if agent is greedy:
                probs = agent.action_probabilities(obs)
                assert a == int(np.argmax(probs)) and probs[obs["action_mask"] == 0].sum() == 0
            r.step(a)


def test_sampled_policy_is_reproducible_after_reset(tmp_path) -> None:
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=(32,), seed=2)
    agent = PolicyAgent(path, greedy=False)
    obs = _obs(Round(seed=4))

    def draws(seed: int) -> list[int]:
        agent.reset(seed)
        return [agent.act(obs) for _ in range(20)]

    assert draws(7) == draws(7)
    assert len(set(draws(7))) > 1                    # near-uniform initial policy: it does sample


def test_default_policy_without_checkpoint_uses_seeded_random_weights() -> None:
    a, b = PolicyAgent(seed=3), PolicyAgent(seed=3)
    if a.checkpoint is None:
        assert "random-weights seed=3" in a.name
        obs = _obs(Round(seed=1))
        assert np.array_equal(a.action_probabilities(obs), b.action_probabilities(obs))


def test_write_random_cli(tmp_path, capsys) -> None:
    assert main(["--write-random", str(tmp_path / "x.pt"), "--hidden", "16", "--seed", "4"]) == 0
    net, ckpt = load_policy(tmp_path / "x.pt")
    assert net.hidden == [16] and ckpt["seed"] == 4
    assert "wrote" in capsys.readouterr().out
