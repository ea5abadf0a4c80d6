"""Expert iteration (``agents.distill``): the label rule, the fit, the labels, the resumable run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.distill import main  # noqa: E402
from agents.network import load_policy  # noqa: E402
from agents.policy import SELFPLAY_CHECKPOINT, default_checkpoint  # noqa: E402
from agents.search.distill import (  # noqa: E402
    DistillConfig,
    LabelError,
    SuitRenaming,
    fit,
    hard_targets,
    label_chunk,
    load_distill_config,
    load_labels,
    run,
)
from agents.training.yaml_config import ConfigError, build_config  # noqa: E402
from jass_env.games import make_rules  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM  # noqa: E402
from jass_env.games.schieber.rules import N_ACTIONS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def labels_of(greedy: list[int], options: list[list[int]], means: list[list[float]]) -> dict[str, np.ndarray]:
    """Hand-made labels: one row per decision, every card legal, observation zero."""
    n = len(greedy)
    return {"obs": np.zeros((n, OBS_DIM), dtype=np.float32),
            "mask": np.tile(np.r_[np.ones(36, np.int8), np.zeros(N_ACTIONS - 36, np.int8)], (n, 1)),
            "greedy": np.array(greedy, dtype=np.int64),
            "options": np.array(options, dtype=np.int64),
            "means": np.array(means, dtype=np.float32)}


def test_the_best_card_is_the_target_only_where_it_beats_the_greedy_card_by_more_than_the_margin():
    nan = float("nan")
    labels = labels_of(
        greedy=[4, 4, 4, 7, 40],
        options=[[2, 4, 9], [2, 4, 9], [2, 4, 9], [7, 8, -1], [-1, -1, -1]],
        means=[[10.0, 5.0, 8.1],     # best (card 2) beats the greedy card by 5 > 3
               [7.9, 5.0, 0.0],      # by 2.9: the greedy card stays
               [8.0, 5.0, 0.0],      # by exactly 3: not more than the margin
               [9.0, 1.0, nan],      # the greedy card is the best
               [nan, nan, nan]])     # not searched (a contract decision): the greedy action
    assert hard_targets(labels, margin=3.0).tolist() == [2, 4, 4, 7, 40]
    assert hard_targets(labels, margin=0.0).tolist() == [2, 2, 2, 7, 40]


def small_config(tmp_path, **kw) -> DistillConfig:
    values = {"run_dir": str(tmp_path / "run"), "deals": 2, "chunk_deals": 1, "workers": 1, "worlds": 2,
              "candidates": 3, "epochs": 1, "heldout_every": 2, "eval_deals": 4,
              "eval_opponents": ["heuristic"]}
    values.update(kw)
    return build_config(DistillConfig, values)


@pytest.mark.skipif(not SELFPLAY_CHECKPOINT.exists(), reason="no shipped Schieber self-play policy")
def test_the_expected_value_target_moves_probability_toward_the_better_candidate(tmp_path):
    # a plain MLP fitted as it is: no renamed views, no suit average
    cfg = small_config(tmp_path, target="expected", beta=0.0, epochs=20, batch_size=4, lr=1e-3, augment=False,
                       suit_average=False, init_policy=str(SELFPLAY_CHECKPOINT))
    labels = labels_of(greedy=[4] * 4, options=[[2, 4, 9]] * 4, means=[[20.0, 0.0, 0.0]] * 4)
    start, _ = load_policy(cfg.start_policy())
    student = fit(cfg, labels, log=lambda *_: None)
    x, m = torch.from_numpy(labels["obs"][:1]), torch.from_numpy(labels["mask"][:1].astype(bool))
    with torch.inference_mode():
        before = torch.softmax(start.masked_logits(x, m), 1)[0]
        after = torch.softmax(student.masked_logits(x, m), 1)[0]
    assert after[2] > 2 * before[2]
    assert after[2] / (after[4] + after[9]) > before[2] / (before[4] + before[9])


@pytest.mark.skipif(not SELFPLAY_CHECKPOINT.exists(), reason="no shipped Schieber self-play policy")
def test_a_student_of_another_trunk_is_a_new_network_fitted_to_the_labels(tmp_path):
    cfg = small_config(tmp_path, target="expected", beta=0.0, epochs=30, batch_size=4, lr=1e-3, augment=False,
                       suit_average=False, init_policy=str(SELFPLAY_CHECKPOINT), student_hidden=[32, 16])
    labels = labels_of(greedy=[4] * 4, options=[[2, 4, 9]] * 4, means=[[20.0, 0.0, 0.0]] * 4)
    student = fit(cfg, labels, log=lambda *_: None)
    assert student.hidden == [32, 16]
    assert (student.obs_dim, student.n_actions) == (OBS_DIM, N_ACTIONS)
    x, m = torch.from_numpy(labels["obs"][:1]), torch.from_numpy(labels["mask"][:1].astype(bool))
    with torch.inference_mode():
        after = torch.softmax(student.masked_logits(x, m), 1)[0]
    assert after[2] > after[4] and after[2] > after[9]
    again = fit(cfg, labels, log=lambda *_: None)          # the random start is drawn from the seed
    assert all(torch.equal(a, b) for a, b in zip(student.state_dict().values(), again.state_dict().values()))


def test_the_student_trunk_must_be_positive_layer_sizes():
    for bad in ([0], [], 5, [256, "wide"]):
        with pytest.raises(ConfigError, match="student_hidden"):
            build_config(DistillConfig, {"student_hidden": bad})


@pytest.mark.skipif(default_checkpoint("schieber") is None, reason="no shipped Schieber policy")
def test_labels_are_the_policys_own_games_searched_deterministically():
    checkpoint = str(default_checkpoint("schieber"))
    a = label_chunk("schieber", checkpoint, 2, 3, "policy", "policy", [11], search_seed=5)
    b = label_chunk("schieber", checkpoint, 2, 3, "policy", "policy", [11], search_seed=5)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    searched = a["options"][:, 0] >= 0
    cards = a["greedy"] < 36
    assert cards.sum() == 36                             # every card of the round is a row
    assert searched.sum() >= 20                          # most of them had a choice
    assert not searched[~cards].any()                    # the contract is not searched
    for row in np.flatnonzero(searched):
        opts = a["options"][row][a["options"][row] >= 0]
        assert len(opts) >= 2 and a["greedy"][row] in opts          # the greedy card is a candidate
        assert all(a["mask"][row][c] for c in opts)                # candidates are legal
        assert np.isfinite(a["means"][row][: len(opts)]).all()
    # the same decisions with their suits renamed: each row by its own permutation, consistently
    renaming = SuitRenaming(make_rules("schieber"))
    gen = torch.Generator().manual_seed(0)
    obs, mask, greedy, options = renaming(gen, *(torch.from_numpy(a[k]) for k in ("obs", "mask", "greedy",
                                                                                   "options")))
    assert not torch.equal(obs, torch.from_numpy(a["obs"]))
    rows = torch.arange(len(greedy))
    assert mask[rows, greedy].all()                                  # the renamed action is legal
    card_rows = torch.from_numpy(cards)
    assert (obs[rows[card_rows], greedy[card_rows]] == 1).all()     # a played card was in the hand
    assert (mask.sum(1) == torch.from_numpy(a["mask"]).sum(1)).all()
    rows_searched = torch.from_numpy(searched)
    named = options[rows_searched]
    assert mask[rows_searched].gather(1, named.clamp(min=0))[named >= 0].all()   # candidates legal
    assert SuitRenaming(make_rules("seed_vaud"))(gen, obs, mask, greedy, options)[0] is obs


@pytest.mark.skipif(default_checkpoint("schieber") is None, reason="no shipped Schieber policy")
def test_a_run_resumes_refuses_another_config_and_says_when_it_is_finished(tmp_path, capsys):
    cfg = small_config(tmp_path)
    results = run(cfg, log=lambda *_: None)
    run_dir = tmp_path / "run"
    assert [r["round"] for r in results] == [1]
    assert (run_dir / "round1" / "student.pt").exists()
    student, ckpt = load_policy(run_dir / "round1" / "student.pt")
    assert len(student.suit_renamings) == 24           # suit_average: the student is the suit average
    assert ckpt["trained_for"]["rules"] == "schieber" and "default.pt (sha256" in ckpt["source"]
    assert json.loads((run_dir / "results.json").read_text()) == results
    assert results[0]["searched"] > 0 and "heldout_regret_student" in results[0]
    assert -160 < results[0]["vs heuristic"]["points_per_hand"] < 160
    with pytest.raises(ConfigError, match="already finished"):
        run(cfg, log=lambda *_: None)
    with pytest.raises(ConfigError, match="another config"):
        run(small_config(tmp_path, margin=5.0), log=lambda *_: None)
    # a damaged label file is named, with what to do
    (run_dir / "round1" / "labels" / "c00000.npz").write_bytes(b"not a zip")
    with pytest.raises(LabelError, match="c00000.npz.*delete it"):
        load_labels([run_dir / "round1" / "labels" / "c00000.npz"], make_rules(cfg.rules), cfg.candidates)


def test_the_shipped_config_is_valid():
    cfg = load_distill_config(ROOT / "configs" / "distill.yaml")
    assert cfg.target == "expected" and cfg.chunks * cfg.chunk_deals >= cfg.deals


@pytest.mark.parametrize("game", ["differenzler", "coiffeur", "mittlere", "molotow", "sidi"])
def test_every_games_config_is_valid_and_states_its_time(game):
    path = ROOT / "configs" / f"distill-{game}.yaml"
    cfg = load_distill_config(path)
    assert make_rules(cfg.rules).spec.game == game
    assert "# Time:" in path.read_text()


def test_the_command_line_names_a_bad_key_and_what_is_allowed(capsys):
    config = str(ROOT / "configs" / "distill.yaml")
    assert main(["--config", config, "wolds=10"]) == 2
    err = capsys.readouterr().err
    assert "unknown config key 'wolds'" in err and "worlds" in err
    assert main(["--config", config, "target=argmax"]) == 2
    assert "one of best, expected" in capsys.readouterr().err


def test_a_bare_command_prints_the_usage_and_starts_no_run(capsys, monkeypatch):
    started = []
    monkeypatch.setattr("agents.search.distill.run", started.append)
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2 and started == []
    assert "--config" in capsys.readouterr().err
