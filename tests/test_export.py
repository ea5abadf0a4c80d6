"""ONNX export of a policy checkpoint and the torch-free OnnxPolicyAgent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

from agents.export import (  # noqa: E402
    ATOL,
    RTOL,
    compare_logits,
    export_net,
    export_onnx,
    main,
    random_inputs,
)
from agents.network import CheckpointError, PolicyNet, load_policy  # noqa: E402
from agents.onnx_policy import OnnxModelError, OnnxPolicyAgent  # noqa: E402
from agents.policy import DEFAULT_CHECKPOINT, SHIPPED_CHECKPOINTS, PolicyAgent, write_random_checkpoint  # noqa: E402
from agents.registry import AgentSpecError, make_agent  # noqa: E402
from agents.trained_for import RulesMismatchWarning, trained_for  # noqa: E402
from jass_env import PRESETS, REGISTRY, Round, make_rules  # noqa: E402
from jass_env.envs.aec import raw_env  # noqa: E402
from jass_env.envs.encoding import obs_dim  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM, encode_observation  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
F32_MIN = float(np.finfo(np.float32).min)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, Path]:
    """(checkpoint, onnx file) of a random-weights network with a stronger policy head (so greedy
    choices are well separated), exported once for the module."""
    d = tmp_path_factory.mktemp("export")
    ckpt = write_random_checkpoint(d / "p.pt", hidden=(64, 32), seed=7)
    raw = torch.load(ckpt, weights_only=True)
    raw["model"]["policy_head.weight"] *= 100.0
    torch.save(raw, ckpt)
    return ckpt, export_onnx(ckpt, d / "p.onnx")


def _obs(r: Round) -> dict[str, np.ndarray]:
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(43, dtype=np.int8)
    encode_observation(r.state, r.to_move, r.rp, obs)
    r.engine.action_mask(r.state, r.rp, mask)
    return {"observation": obs, "action_mask": mask}


def _play(agent, seed: int) -> list[int]:
    r = Round("schieber", seed=seed)
    agent.reset(seed=seed)
    actions = []
    while not r.is_over:
        a = agent.act(_obs(r))
        r.step(a)                    # checked: an illegal action raises
        actions.append(a)
    return actions


@pytest.mark.parametrize("batch", [1, 2, 33])
def test_onnxruntime_gives_the_torch_logits(exported, batch: int) -> None:
    ckpt, path = exported
    net, _ = load_policy(ckpt)
    agent = OnnxPolicyAgent(path)
    obs, mask = random_inputs(batch, seed=batch)
    obs[: batch // 2] = np.random.default_rng(batch).normal(size=(batch // 2, OBS_DIM))
    got = agent.logits(obs, mask)
    with torch.inference_mode():
        want = net.masked_logits(torch.from_numpy(obs), torch.from_numpy(mask)).numpy()
    assert got.shape == want.shape == (batch, 43) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
    assert np.all(got[~mask] == F32_MIN) and np.all(want[~mask] == F32_MIN)   # masked entries equal
    assert np.all(got[mask] > F32_MIN)
    if batch >= 2:
        assert not mask[-1].any() and np.all(got[-1] == F32_MIN)   # a row without legal actions


def test_exported_file_carries_metadata_and_a_dynamic_batch_axis(exported) -> None:
    import onnx

    _, path = exported
    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["format"] == "jass-policy-onnx/1" and meta["obs_version"] == "1" and meta["hidden"] == "64,32"
    assert len(meta["source_sha256"]) == 64
    dims = [[d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim] for i in model.graph.input]
    assert dims == [["batch", OBS_DIM], ["batch", 43]]
    assert [o.name for o in model.graph.output] == ["logits"]


def test_onnx_agent_plays_like_the_torch_agent(exported) -> None:
    ckpt, path = exported
    for greedy in (True, False):
        for seed in (1, 2):
            a = _play(OnnxPolicyAgent(path, greedy=greedy), seed)
            b = _play(PolicyAgent(ckpt, greedy=greedy), seed)
            assert a == b and len(a) >= 37


def test_onnx_agent_runs_without_torch(exported) -> None:
    ckpt, path = exported
    script = textwrap.dedent(f"""
        import json, sys
        sys.modules["torch"] = None          # any import of torch now fails
        from agents.onnx_policy import OnnxPolicyAgent
        from agents.registry import make_agent
        from jass_env import Round
        from jass_env.games.schieber.observation import OBS_DIM, encode_observation
        import numpy as np
        out = []
        for seed in (1, 2, 3):
            agent = make_agent({str(path)!r}) if seed == 3 else OnnxPolicyAgent({str(path)!r}, greedy=True)
            assert isinstance(agent, OnnxPolicyAgent)
            r = Round("schieber", seed=seed)
            actions = []
            while not r.is_over:
                obs = np.zeros(OBS_DIM, dtype=np.float32); mask = np.zeros(43, dtype=np.int8)
                encode_observation(r.state, r.to_move, r.rp, obs); r.engine.action_mask(r.state, r.rp, mask)
                a = agent.act({{"observation": obs, "action_mask": mask}})
                r.step(a)                    # raises on an illegal action
                actions.append(a)
            out.append(actions)
        assert sys.modules["torch"] is None
        assert not [m for m in sys.modules if m.startswith("torch.")]
        print(json.dumps(out))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    played = json.loads(proc.stdout.strip().splitlines()[-1])
    for seed, actions in zip((1, 2, 3), played):
        assert actions == _play(PolicyAgent(ckpt, greedy=True), seed)


def test_cli_exports_and_verifies(exported, tmp_path, capsys) -> None:
    ckpt, _ = exported
    out = tmp_path / "sub" / "cli.onnx"
    assert main([str(ckpt), "--onnx", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"wrote {out}" in text and "verified: onnxruntime matches torch" in text
    assert out.is_file() and [p.name for p in out.parent.iterdir()] == ["cli.onnx"]   # no temp file
    assert OnnxPolicyAgent(out).act(_obs(Round(seed=4))) in Round(seed=4).legal_actions()


@pytest.mark.parametrize("spec", sorted(SHIPPED_CHECKPOINTS))
def test_cli_exports_and_verifies_every_shipped_policy(spec: str, tmp_path, capsys) -> None:
    """Every game's shipped policy exports with its own layout, and onnxruntime gives torch's
    logits (float32 logits of the shipped policies reach about 50: rounding of ~2e-5)."""
    checkpoint = SHIPPED_CHECKPOINTS[spec]
    out = tmp_path / f"{spec}.onnx"
    assert main([str(checkpoint), "--onnx", str(out)]) == 0, capsys.readouterr().err
    text = capsys.readouterr().out
    assert "verified: onnxruntime matches torch" in text and "argmax differs in 0 row(s)" in text
    agent = OnnxPolicyAgent(out, rules=spec)
    assert (agent.obs_dim, agent.n_actions) == (obs_dim(make_rules(spec)), make_rules(spec).spec.n_actions)


def _logit_rows() -> tuple[np.ndarray, np.ndarray]:
    """Two rows of masked float32 logits of scale 50 (one legal logit near 0), all but two legal."""
    want = np.tile(np.linspace(-50, 50, 43, dtype=np.float32), (2, 1))
    want[:, 20] = 1e-3
    mask = np.ones((2, 43), bool)
    mask[:, :2] = False
    return np.where(mask, want, F32_MIN).astype(np.float32), mask


def test_logit_comparison_allows_float32_rounding_relative_to_the_row_scale() -> None:
    want, mask = _logit_rows()
    got = want.copy()
    got[mask] += np.float32(4e-7 * 50)                  # rounding at the scale of the row
    got[0, 20] += np.float32(2e-5)                      # 2% of a near-zero logit, 4e-7 of the row
    c = compare_logits(got, want, mask)
    assert c.ok and c.max_difference > 2e-5 and c.worst_fraction < 1


def test_logit_comparison_fails_real_differences() -> None:
    want, mask = _logit_rows()
    scale_tol = ATOL + RTOL * 50
    off = want.copy()
    off[1, 30] += np.float32(3 * scale_tol)             # beyond rounding
    assert not compare_logits(off, want, mask).ok
    flipped = want.copy()
    flipped[0, 42], flipped[0, 41] = want[0, 41], want[0, 42]   # another greedy action
    c = compare_logits(flipped, want, mask)
    assert not c.ok and c.argmax_disagreements == 1
    unmasked = want.copy()
    unmasked[0, 0] = 0.0                                # an illegal action given a finite logit
    assert not compare_logits(unmasked, want, mask).masked_equal
    tie = want.copy()
    tie[0, 41] = want[0, 42] - np.float32(scale_tol / 4)          # torch's top two tie at float32
    swapped = tie.copy()
    swapped[0, 41], swapped[0, 42] = tie[0, 42], tie[0, 41]
    assert compare_logits(swapped, tie, mask).ok        # a tie may break either way


def test_cli_reports_bad_checkpoints(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "missing.pt"), "--onnx", str(tmp_path / "x.onnx")]) == 2
    assert "missing.pt' does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"garbage")
    assert main([str(bad), "--onnx", str(tmp_path / "x.onnx")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert not (tmp_path / "x.onnx").exists()
    with pytest.raises(CheckpointError, match="does not exist"):
        export_onnx(tmp_path / "missing.pt", tmp_path / "y.onnx")
    assert main([str(bad)]) == 2
    assert "nothing to write; give --onnx FILE and/or --policy FILE" in capsys.readouterr().err


def test_onnx_agent_errors_for_missing_corrupt_and_wrong_files(exported, tmp_path) -> None:
    ckpt, path = exported
    with pytest.raises(OnnxModelError, match=r"missing\.onnx' does not exist.*agents\.export"):
        OnnxPolicyAgent(tmp_path / "missing.onnx")
    trunc = tmp_path / "trunc.onnx"
    trunc.write_bytes(path.read_bytes()[:200])
    with pytest.raises(OnnxModelError, match=r"trunc\.onnx' cannot be read \(corrupt, truncated"):
        OnnxPolicyAgent(trunc)
    with pytest.raises(OnnxModelError, match="cannot be read"):
        OnnxPolicyAgent(ckpt)                            # a torch checkpoint is not an ONNX model
    # a valid ONNX model with other inputs
    import onnx
    from onnx import TensorProto, helper

    g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])])
    other = tmp_path / "other.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(other))
    with pytest.raises(OnnxModelError, match=r"does not fit: expected inputs observation"):
        OnnxPolicyAgent(other)
    # the registry: .onnx paths are ONNX agents; errors are AgentSpecErrors
    agent = make_agent(f"{path}:greedy=false,seed=3")
    assert isinstance(agent, OnnxPolicyAgent) and not agent.greedy and agent.checkpoint == str(path)
    with pytest.raises(AgentSpecError, match="does not exist"):
        make_agent(str(tmp_path / "nope.onnx"))
    with pytest.raises(ValueError, match="no legal action"):
        OnnxPolicyAgent(path).act({"observation": np.zeros(OBS_DIM, np.float32),
                                   "action_mask": np.zeros(43, np.int8)})


def test_the_onnx_file_carries_the_game_and_the_onnx_agent_checks_it(tmp_path) -> None:
    net = PolicyNet((8,), seed=0)
    vaud = export_net(net, tmp_path / "vaud.onnx", trained_for=trained_for("seed_vaud"))
    agent = OnnxPolicyAgent(vaud, rules="seed_vaud")
    assert agent.trained_for == json.loads(json.dumps(trained_for("seed_vaud")))
    with pytest.warns(RulesMismatchWarning, match="trained for rules 'seed_vaud' but plays under 'schieber'"):
        make_agent(str(vaud), "schieber")
    other = export_net(net, tmp_path / "other.onnx", trained_for={**trained_for(None), "game": "coiffeur"})
    with pytest.raises(OnnxModelError, match=r"trained for game 'coiffeur'"):
        OnnxPolicyAgent(other)
    with pytest.raises(AgentSpecError, match=r"trained for game 'coiffeur'"):   # a bad agent for the CLIs
        make_agent(str(other), "schieber")


@pytest.mark.skipif(not DEFAULT_CHECKPOINT.exists(), reason="no shipped policy")
def test_the_shipped_policy_exports_as_schieber(tmp_path) -> None:
    path = export_onnx(DEFAULT_CHECKPOINT, tmp_path / "d.onnx")
    assert OnnxPolicyAgent(path, rules="schieber").trained_for["rules"] == "schieber"



@pytest.mark.parametrize("game", [g.name for g in REGISTRY.values() if g.name in PRESETS])
def test_every_games_policy_exports_and_plays_its_own_layout(game: str, tmp_path) -> None:
    """A policy of any game exports with that game's observation and action widths, and the ONNX
    agent chooses the torch agent's actions in that game's environment."""
    ckpt = write_random_checkpoint(tmp_path / "p.pt", hidden=(16,), seed=3, game=game)
    path = export_onnx(ckpt, tmp_path / "p.onnx")
    onnx_agent, torch_agent = OnnxPolicyAgent(path, rules=game), PolicyAgent(ckpt, rules=game)
    rules = make_rules(game)
    assert (onnx_agent.obs_dim, onnx_agent.n_actions) == (obs_dim(rules), rules.spec.n_actions)
    e = raw_env(rules=game)
    e.reset(seed=5)
    for _ in range(12):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            break
        action = onnx_agent.act(obs)
        assert action == torch_agent.act(obs) and obs["action_mask"][action]
        e.step(action)
