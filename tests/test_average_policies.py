"""``python -m agents.average_policies``: the mean of the weights of policies of one network."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from agents.average_policies import average_policies, main  # noqa: E402
from agents.network import CheckpointError, PolicyNet, load_policy, save_policy  # noqa: E402
from agents.trained_for import trained_for  # noqa: E402


def _policy(tmp_path, name: str, seed: int, hidden=(8,), rules: str = "schieber", **extra):
    return save_policy(tmp_path / name, PolicyNet(hidden, seed=seed), trained_for=trained_for(rules), **extra)


def test_the_average_holds_the_mean_of_every_weight_and_names_its_inputs(tmp_path) -> None:
    a = _policy(tmp_path, "a.pt", 1, distill_config={"seed": 3})
    b = _policy(tmp_path, "b.pt", 2)
    out = average_policies([a, b], tmp_path / "avg.pt")
    net, ckpt = load_policy(out)
    (na, _), (nb, _) = load_policy(a), load_policy(b)
    for key, value in net.state_dict().items():
        assert torch.allclose(value, (na.state_dict()[key] + nb.state_dict()[key]) / 2)
    assert ckpt["note"] == "the weight average of 2 policies"
    assert str(a) in ckpt["source"] and str(b) in ckpt["source"] and ckpt["source"].count("sha256") == 2
    assert ckpt["distill_config"] == {"seed": 3}                 # the first input's training config


def test_policies_of_another_network_or_layout_are_refused(tmp_path) -> None:
    a = _policy(tmp_path, "a.pt", 1)
    with pytest.raises(CheckpointError, match="same network"):
        average_policies([a, _policy(tmp_path, "wide.pt", 2, hidden=(16,))], tmp_path / "x.pt")
    with pytest.raises(CheckpointError, match="same rules"):
        average_policies([a, _policy(tmp_path, "other.pt", 2, rules="schieber_2500")], tmp_path / "x.pt")
    with pytest.raises(CheckpointError, match="at least two"):
        average_policies([a], tmp_path / "x.pt")
    assert not (tmp_path / "x.pt").exists()


def test_the_command_reports_a_missing_file_without_a_traceback(tmp_path, capsys) -> None:
    a = _policy(tmp_path, "a.pt", 1)
    assert main([str(a), str(tmp_path / "missing.pt"), "--out", str(tmp_path / "x.pt")]) == 2
    assert "does not exist" in capsys.readouterr().err
    b = _policy(tmp_path, "b.pt", 2)
    (tmp_path / "taken").write_text("a file, not a folder")
    assert main([str(a), str(b), "--out", str(tmp_path / "taken" / "avg.pt")]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert main([str(a), str(b), "--out", str(tmp_path / "avg.pt")]) == 0
    assert "weight average of 2 policies" in capsys.readouterr().out
