"""The training recipe of a game in one command (agents/recipe.py): self-play, then expert
iteration from the self-play run's policy; rerun, it continues where it stopped and redoes
nothing that is finished."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")

from agents.network import load_policy  # noqa: E402
from agents.recipe import main  # noqa: E402

SMOKE = Path(__file__).resolve().parent.parent / "configs" / "smoke.yaml"


def tiny_distill(folder: Path) -> Path:
    """An expert-iteration config of a few seconds for Mittlere."""
    path = folder / "distill.yaml"
    path.write_text("name: recipe-test\nrules: mittlere\nrounds: 1\ndeals: 2\nchunk_deals: 1\nworkers: 1\n"
                    "worlds: 2\ncandidates: 2\nepochs: 1\nheldout_every: 2\neval_deals: 0\n")
    return path


def test_the_recipe_distils_the_selfplay_policy_and_a_rerun_redoes_nothing(tmp_path, capsys):
    run = tmp_path / "recipe"
    argv = ["--selfplay", str(SMOKE), "--distill", str(tiny_distill(tmp_path)), "--run-dir", str(run),
            "--rules", "mittlere"]
    assert main(argv) == 0
    student = run / "distill" / "round1" / "student.pt"
    _, ckpt = load_policy(student)
    assert ckpt["trained_for"]["game"] == "mittlere"
    assert str(run / "selfplay" / "checkpoints" / "best.pt") in ckpt["source"]    # the self-play policy
    done = {p: p.stat().st_mtime_ns for p in (student, run / "selfplay" / "checkpoints" / "latest.pt")}
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "--resume" in out and "is finished" in out
    assert {p: p.stat().st_mtime_ns for p in done} == done


def test_a_bad_distillation_config_is_an_error_without_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules: no_such_preset\n")
    assert main(["--distill", str(bad), "--run-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "rules" in err and "Traceback" not in err
