"""benchmarks/integrations_learn.py on a tiny budget: it trains each example through the example's
own functions, evaluates on the duplicate deals asked for, ends with one JSON line, marks a
replaced budget as not the stated one, and rejects bad arguments with a clear message.

Skipped when stable-baselines3 / sb3-contrib or tianshou are not installed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
pytest.importorskip("tianshou")

import torch  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "integrations_learn.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("integrations_learn", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    yield
    torch.set_num_threads(old)


def _last_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_tiny_budget_trains_evaluates_and_reports(bench, capsys):
    assert bench.main(["--sb3-timesteps", "100", "--tianshou-timesteps", "100", "--deals", "2",
                       "--eval-seed", "3"]) == 0
    out = _last_json(capsys)
    assert (out["opponent"], out["deals"], out["eval_seed"]) == ("random", 2, 3)
    assert torch.get_num_threads() == 1
    sb3, ts = out["sb3"], out["tianshou"]
    # SB3 trains whole rollouts: one of n_envs x n_steps learner decisions covers 100 steps
    assert sb3["steps"] == bench.SB3_BUDGET["n_envs"] * bench.SB3_BUDGET["n_steps"]
    assert ts["steps"] >= 100
    for r in (sb3, ts):
        lo, hi = r["ci95"]
        assert lo <= r["points_per_hand"] <= hi
        assert r["stated_budget"] is False and r["target_met"] is False
        assert r["train_s"] >= 0 and r["train_cpu_s"] >= 0


def test_one_library_only(bench, capsys):
    assert bench.main(["--only", "tianshou", "--tianshou-timesteps", "50", "--deals", "2"]) == 0
    out = _last_json(capsys)
    assert "sb3" not in out and out["tianshou"]["steps"] >= 50


def test_default_protocol_is_1000_duplicate_deals_of_set_0(bench):
    args = bench._parser().parse_args([])
    assert (args.deals, args.eval_seed, args.only) == (1000, 0, None)


@pytest.mark.parametrize(("argv", "message"), [
    (["--deals", "1"], "--deals >= 2"),
    (["--eval-seed", "-1"], "--eval-seed >= 0"),
    (["--sb3-timesteps", "0"], "--sb3-timesteps must be >= 1, got 0"),
    (["--tianshou-timesteps", "-5"], "--tianshou-timesteps must be >= 1, got -5"),
])
def test_bad_arguments_are_named(bench, capsys, argv, message):
    assert bench.main(argv) == 2
    assert message in capsys.readouterr().err
