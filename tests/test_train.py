"""PPO trainer: loss pieces on hand-made batches, per-seat GAE, a smoke training run, exact
resume, atomic checkpoints, the run folder (no run overwritten, history kept across resumes,
finished runs), config validation and corrupt checkpoints (configs/smoke.yaml).

``train.py`` is a script that nothing imports: the tests run it as ``python train.py ARGV`` runs
it (:func:`run_train`), in this process, and read what it wrote."""

from __future__ import annotations

import json
import math
import runpy
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.batched import evaluate_vs_bot
from agents.bots.schieber import HeuristicAgent, heuristic_actions
from agents.curves import read_curves
from agents.network import CheckpointError, apply_mask, load_policy, read_checkpoint, save_policy
from agents.policy import PolicyAgent, write_random_checkpoint
from agents.training.agent_specs import check_eval_opponents
from agents.training.checkpoint import load_trainer_checkpoint
from agents.training.config import load_config, make_config, resumed_config
from agents.training.generators import Generators
from agents.training.lineups import episode_margins, opponent_agent
from agents.training.networks import load_initial_policy, new_policy
from agents.training.ppo import log_prob_entropy, ppo_loss, seat_gae
from agents.training.warm_start import warm_start
from agents.training.yaml_config import ConfigError, config_yaml
from jass_env.envs.encoding import obs_dim
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import make_rules
from jass_env.games.schieber.suit_symmetry import suit_permutations

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"


def run_train(*argv: str | Path) -> int:
    """``python train.py ARGV``, run in this process; its exit status."""
    saved = sys.argv
    sys.argv = ["train.py", *map(str, argv)]
    try:
        runpy.run_path(str(ROOT / "train.py"), run_name="__main__")
    except SystemExit as done:
        return done.code
    finally:
        sys.argv = saved
    raise AssertionError("train.py ended without an exit status")


def train_smoke(run: Path, *overrides: str, stop_after: int | None = None) -> None:
    """A run of configs/smoke.yaml in ``run`` (with ``key=value`` overrides; stopped after
    ``stop_after`` iterations), which must succeed."""
    stop = ("--stop-after", str(stop_after)) if stop_after is not None else ()
    assert run_train("--config", SMOKE, f"run_dir={run}", *overrides, *stop) == 0


def latest(run: Path) -> dict:
    """The trainer state in ``run``'s checkpoints/latest.pt."""
    return read_checkpoint(run / "checkpoints" / "latest.pt")["trainer"]


def smoke(tmp: Path, *overrides: str):
    return load_config(SMOKE, [f"run_dir={tmp}", *overrides])


def copy_run(run: Path, tmp: Path) -> Path:
    """A copy of a run folder that a test may change."""
    return Path(shutil.copytree(run, tmp / "run"))


def straight_and_resumed(tmp: Path, *overrides: str) -> tuple[dict, dict]:
    """The final checkpoints of a smoke run played straight through (``tmp/straight``) and of the
    same run stopped after 2 iterations and resumed (``tmp/parts``)."""
    straight, parts = tmp / "straight", tmp / "parts"
    train_smoke(straight, *overrides)
    train_smoke(parts, *overrides, stop_after=2)
    assert latest(parts)["iteration"] == 2
    assert run_train("--resume", parts, "progress=false") == 0
    return (read_checkpoint(straight / "checkpoints" / "latest.pt"),
            read_checkpoint(parts / "checkpoints" / "latest.pt"))


def eval_steps(run: Path, bot: str = "heuristic") -> list[int]:
    """PPO decisions at which the run's events hold an evaluation against ``bot``."""
    (curve,) = [c for c in read_curves(run) if c.opponent == bot]
    return curve.decisions.tolist()


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory) -> Path:
    """A smoke run stopped after 2 of its 4 iterations (512 decisions each): evaluated and
    checkpointed at iteration 2."""
    run = tmp_path_factory.mktemp("stopped") / "run"
    train_smoke(run, "final_eval_deals=4", stop_after=2)
    return run


@pytest.fixture(scope="module")
def finished_run(stopped_run, tmp_path_factory) -> Path:
    """``stopped_run`` resumed to its end (evaluated at iterations 2 and 4, final outputs)."""
    run = copy_run(stopped_run, tmp_path_factory.mktemp("finished"))
    assert run_train("--resume", run) == 0
    return run


# loss pieces
def test_masked_distribution_gives_illegal_actions_zero_probability_and_no_entropy():
    logits = torch.tensor([[1.0, 2.0, 3.0, 50.0], [0.0, 0.0, -7.0, 9.0]])
    mask = torch.tensor([[True, True, True, False], [True, False, True, False]])
    masked = apply_mask(logits, mask)
    p = torch.softmax(masked, -1)
    assert p[~mask].abs().max().item() == 0.0
    logp, ent = log_prob_entropy(masked, mask, torch.tensor([2, 0]))
    for row in range(2):
        legal = logits[row][mask[row]].double()
        q = torch.softmax(legal, -1)
        assert ent[row].item() == pytest.approx(-(q * q.log()).sum().item(), rel=1e-5)
    expected = math.log(math.exp(3) / (math.e + math.e ** 2 + math.e ** 3))
    assert logp[0].item() == pytest.approx(expected, rel=1e-5)
    # what illegal actions' logits say does not matter, and no NaN appears in the gradient
    logits2 = logits.clone().requires_grad_(True)
    logp2, ent2 = log_prob_entropy(apply_mask(logits2 * 100, mask), mask, torch.tensor([2, 0]))
    (logp2.sum() + ent2.sum()).backward()
    assert torch.isfinite(logits2.grad).all()
    assert (logits2.grad[~mask] == 0).all()


def test_ppo_loss_uses_the_clipped_objective_outside_the_trust_region():
    eps = 0.2
    old = torch.zeros(4)
    ratio = torch.tensor([1.5, 0.5, 1.5, 1.05])
    adv = torch.tensor([1.0, -1.0, -1.0, 1.0])
    new = torch.log(ratio).requires_grad_(True)
    zeros = torch.zeros(4)
    out = ppo_loss(new, zeros, zeros, old, zeros, adv, zeros, clip_eps=eps, vf_coef=0.0, ent_coef=0.0,
                   norm_adv=False)
    # per sample: max(-A r, -A clip(r)) = -1.2 (clipped), 0.8 (clipped), 1.5 (unclipped), -1.05 (inside)
    assert out.pg_loss.item() == pytest.approx((-1.2 + 0.8 + 1.5 - 1.05) / 4, abs=1e-6)
    assert out.clipfrac.item() == pytest.approx(0.75)
    out.loss.backward()
    # clipped samples give no gradient; the others give -A r / B
    assert new.grad[0].item() == 0.0 and new.grad[1].item() == 0.0
    assert new.grad[2].item() == pytest.approx(1.5 / 4, rel=1e-5)
    assert new.grad[3].item() == pytest.approx(-1.05 / 4, rel=1e-5)


def test_value_loss_clipping_and_entropy_bonus():
    v_new, v_old, ret = torch.tensor([1.0]), torch.tensor([0.0]), torch.tensor([0.5])
    z = torch.zeros(1)
    clipped = ppo_loss(z, torch.tensor([2.0]), v_new, z, v_old, z, ret, 0.2, 1.0, 0.1, clip_vloss=True,
                       norm_adv=False)
    # max((1 - 0.5)^2, (0.2 - 0.5)^2) / 2 = 0.125; loss = 0 - 0.1 * 2 + 0.125
    assert clipped.v_loss.item() == pytest.approx(0.125)
    assert clipped.loss.item() == pytest.approx(-0.2 + 0.125)


def test_seat_gae_on_a_hand_made_trajectory():
    # one game, 7 steps: seats act 0,1,2,3,0,1 then the episode ends at step 5 (rewards paid
    # there: +1 for team 0, -1 for team 1); step 6 is seat 2 in the next episode, unfinished.
    seat = np.array([[0], [1], [2], [3], [0], [1], [2]], dtype=np.int64)
    values = np.array([[0.1], [0.2], [0.3], [0.4], [0.5], [0.6], [0.7]], dtype=np.float32)
    rewards = np.zeros((7, 1, 4), dtype=np.float32)
    rewards[5, 0] = [1.0, -1.0, 1.0, -1.0]
    rewards[2, 0, 3] = 0.25          # a reward for seat 3 paid while seat 2 acts (before 3's decision)
    done = np.zeros((7, 1), dtype=bool)
    done[5, 0] = True
    boot = np.array([[0.0, 0.0, 0.9, 0.0]], dtype=np.float32)
    g, lam = 0.9, 0.5
    adv = seat_gae(seat, values, rewards, done, boot, g, lam)[:, 0]
    # seat 0: decisions at 0 and 4; 4 is terminal with reward +1
    a4 = 1.0 - 0.5
    a0 = (0 + g * 0.5 - 0.1) + g * lam * a4
    # seat 1: decisions at 1 and 5; 5 gets -1 at its own step (terminal)
    a5 = -1.0 - 0.6
    a1 = (0 + g * 0.6 - 0.2) + g * lam * a5
    # seat 2: decision at 2 is its last of the episode: +1 at step 5, terminal
    a2 = 1.0 - 0.3
    # seat 3: decision at 3, terminal, -1 at step 5 (the 0.25 at step 2 came before it acted)
    a3 = -1.0 - 0.4
    # step 6: seat 2 in the new episode, bootstrapped from boot[2]
    a6 = 0 + g * 0.9 - 0.7
    np.testing.assert_allclose(adv, [a0, a1, a2, a3, a4, a5, a6], rtol=1e-6, atol=1e-7)


def test_batched_heuristic_matches_the_heuristic_agent():
    env = VectorJassEnv(64, rules="schieber", check_actions=True)
    obs, mask, _ = env.reset(seed=3)
    agent = HeuristicAgent("schieber")
    for _ in range(40):
        acts = heuristic_actions(obs, mask, env.rp)
        for i in range(0, 64, 7):
            assert acts[i] == agent.act({"observation": obs[i], "action_mask": mask[i]})
        out = env.step(acts)           # check_actions=True: every action is legal
        obs, mask = out.obs, out.mask


# training runs
def test_smoke_run_writes_events_config_and_loadable_checkpoints(tmp_path):
    train_smoke(tmp_path)
    trainer = latest(tmp_path)
    assert trainer["iteration"] == 4 and trainer["env_decisions"] == 2048
    assert 0 < trainer["trained_decisions"] <= 2048
    assert list(tmp_path.glob("events.out.tfevents.*"))
    assert load_config(tmp_path / "config.yaml").num_envs == 16
    net, ckpt = load_policy(tmp_path / "checkpoints" / "latest.pt")
    assert ckpt["trainer"]["iteration"] == 4 and "optimizer" in ckpt["trainer"]
    torch.load(tmp_path / "checkpoints" / "best.pt", weights_only=True)
    agent = PolicyAgent(tmp_path / "checkpoints" / "latest.pt")
    env = VectorJassEnv(1)
    obs, mask, _ = env.reset(seed=0)
    assert mask[0, agent.act({"observation": obs[0], "action_mask": mask[0]})]
    curves = {c.opponent: c for c in read_curves(tmp_path)}       # the periodic evaluations
    for bot in ("random", "heuristic"):
        c = curves[bot]
        assert c.stat.key == "points_per_hand" and c.low[-1] <= c.points[-1] <= c.high[-1]
    # the small policy-only copy that ships: same network, the run's config, no trainer state
    from agents.export import main as export_main
    small = tmp_path / "small.pt"
    assert export_main([str(tmp_path / "checkpoints" / "latest.pt"), "--policy", str(small)]) == 0
    small_net, small_ckpt = load_policy(small)
    assert "trainer" not in small_ckpt and small_ckpt["trainer_config"]["name"] == "smoke"
    assert small_ckpt["env_decisions"] == 2048 and "sha256" in small_ckpt["source"]
    assert small.stat().st_size < (tmp_path / "checkpoints" / "latest.pt").stat().st_size / 2
    x = torch.from_numpy(obs)
    assert torch.equal(small_net(x)[0], net(x)[0])
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    tags = EventAccumulator(str(tmp_path)).Reload().Tags()["scalars"]
    for tag in ("losses/approx_kl", "losses/clipfrac", "losses/explained_variance", "losses/entropy",
                "charts/decisions_per_s", "time/env_share", "time/inference_share", "time/update_share",
                "eval/points_per_hand_vs_random", "eval/ci95_low_vs_heuristic", "time/eval_s",
                "time/elapsed_s"):
        assert tag in tags, tag


def test_a_finished_run_writes_the_results_table_and_the_strength_plot(tmp_path, capsys):
    assert run_train("--config", SMOKE, f"run_dir={tmp_path}", "final_eval_deals=6") == 0
    out = capsys.readouterr()
    printed = out.out
    # the run folder is announced at the start, every output file at the end
    assert f"run folder {tmp_path} " in out.err
    for name in ("results.md", "results.json", "checkpoints/latest.pt", "checkpoints/best.pt",
                 "strength.png"):
        assert f"  {tmp_path / name}\n" in printed, name
    assert "`latest.pt` is the policy at the end of training; `best.pt` the one that scored best" in printed
    # the closing hint's commands name an interpreter and a tensorboard that exist
    (hint,) = [line for line in printed.splitlines() if line.startswith("curves: ")]
    python, tensorboard = hint.split()[1], hint.split("  or  ")[1].split()[0]
    assert Path(python).is_file() and hint.split()[2:4] == ["-m", "agents.curves"]
    assert Path(tensorboard).is_file() and Path(tensorboard).name == "tensorboard"
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["deals"] == 6 and res["deal_set_seed"] == 0 and res["opponents"] == ["random", "heuristic"]
    assert res["rows"][0]["checkpoint"].endswith("latest.pt")
    for row in res["rows"]:
        for bot in ("random", "heuristic"):
            assert row[bot]["deals"] == 6
            assert row[bot]["ci_low"] <= row[bot]["points_per_hand"] <= row[bot]["ci_high"]
    table = (tmp_path / "results.md").read_text()
    assert "| checkpoint | PPO decisions | vs random | vs heuristic |" in table
    assert table.strip() in printed
    png = (tmp_path / "strength.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    (curve,) = [c for c in read_curves(tmp_path) if c.opponent == "heuristic"]
    assert len(curve.points) == 2 and np.all(np.diff(curve.minutes) > 0)     # evals at iterations 2, 4


def test_the_trainers_evaluation_equals_the_evaluation_tool_against_the_heuristic(tmp_path):
    """Same deals, dealers and seats as ``python -m agents.evaluate``; the heuristic is deterministic."""
    from agents.evaluation.duplicate import evaluate_pair

    path = ROOT / "agents" / "checkpoints" / "default.pt"
    net, _ = load_policy(path)
    fast = evaluate_vs_bot(net, "heuristic", "schieber", 12, 5, torch.device("cpu"))
    slow = evaluate_pair(PolicyAgent(path), "heuristic", "schieber", deals=12, seed=5).summary
    assert fast["points_per_hand"] == pytest.approx(slow["points_per_hand"], abs=1e-9)
    assert [fast["ci_low"], fast["ci_high"]] == pytest.approx(slow["ci95"], abs=1e-9)


def test_resume_gives_the_same_weights_as_an_uninterrupted_run(tmp_path):
    a, b = straight_and_resumed(tmp_path)
    assert b["trainer"]["iteration"] == 4
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    for k in a["trainer"]["critic"]:
        assert torch.equal(a["trainer"]["critic"][k], b["trainer"]["critic"][k]), k
    assert torch.equal(a["trainer"]["env"]["game_states"], b["trainer"]["env"]["game_states"])


def test_a_differenzler_run_resumes_exactly_and_reports_the_penalty_difference(tmp_path):
    """One seat per line-up, per-player rewards, the seat-rotation evaluation: differenzler3 (3 players)."""
    a, b = straight_and_resumed(tmp_path, "rules=differenzler3", "final_eval_deals=4", "eval_deals=4")
    straight = tmp_path / "straight"
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    assert a["trained_for"]["game"] == "differenzler3" and a["net"]["n_actions"] == 36 + 158
    res = json.loads((straight / "results.json").read_text())
    row = res["rows"][0]["heuristic"]
    assert {"penalty_diff", "ci_low", "ci_high", "deal_better_rate"} <= row.keys()
    assert row["ci_low"] <= row["penalty_diff"] <= row["ci_high"]
    table = (straight / "results.md").read_text()
    assert "Penalty per round, policy - bots" in table and "--rules differenzler3" in table
    assert {c.opponent for c in read_curves(straight)} == {"random", "heuristic"}
    assert (straight / "strength.png").exists()


@pytest.mark.parametrize(("game", "key", "words"), [
    ("mittlere", "result_diff", "Result per hand (Striche - Nullen), policy - bots"),
    ("molotow", "score_diff", "Score per hand, policy - bots (negative: policy better)"),
])
def test_a_first_discard_game_trains_against_its_own_heuristic_and_reports_its_statistic(game, key, words,
                                                                                          tmp_path):
    """Mittlere and Molotow train with their own heuristic as the bot opponent (36 card actions;
    Schieber's heuristic would name actions the game does not have) and report their statistic."""
    run = tmp_path / game
    train_smoke(run, f"rules={game}", "final_eval_deals=4", "eval_deals=4")
    ckpt = read_checkpoint(run / "checkpoints" / "latest.pt")
    assert ckpt["trained_for"]["game"] == game and ckpt["net"]["n_actions"] == 36
    row = json.loads((run / "results.json").read_text())["rows"][0]["heuristic"]
    assert row["ci_low"] <= row[key] <= row["ci_high"] and 0.0 <= row["deal_better_rate"] <= 1.0
    table = (run / "results.md").read_text()
    assert words in table and "seat rotation" in table and f"--rules {game}" in table


def test_coiffeur_trains_by_whole_games_and_reports_the_game_score_over_deal_sequences(tmp_path):
    """Coiffeur's unit is the whole game: with match episodes the learner plays every deal of a
    game (rewards deal by deal, one episode until both sheets are full) and the trainer evaluates
    it as ``python -m agents.evaluate --rules coiffeur6`` does, by duplicate deal sequences."""
    run = tmp_path / "coiffeur6"
    train_smoke(run, "rules=coiffeur6", "episode=match", "final_eval_deals=2", "eval_deals=2",
                "total_decisions=2048", "num_envs=4", "rollout_steps=256", "eval_every=0")
    ckpt = read_checkpoint(run / "checkpoints" / "latest.pt")
    assert ckpt["trained_for"]["game"] == "coiffeur6"
    row = json.loads((run / "results.json").read_text())["rows"][0]["heuristic"]
    assert row["deals"] == 2 and row["ci_low"] <= row["game_score_diff"] <= row["ci_high"]
    assert row["game_win_rate"] in (0.0, 0.25, 0.5, 0.75, 1.0)          # 4 games, draws half
    table = (run / "results.md").read_text()
    for words in ("Game score per game (policy team - bot team)", "whole games (duplicate deal sequences",
                  "--rules coiffeur6 --deals 2"):
        assert words in table, words
    (curve,) = [c for c in read_curves(run) if c.opponent == "heuristic"]     # the strength plot's
    assert curve.stat.key == "game_score_diff" and len(curve.points) == 1


def test_a_learners_margin_is_positive_when_it_did_better_in_its_games_direction():
    """Mittlere: a higher result is better; Differenzler and Molotow: a lower score is."""
    scores = np.array([[2, -1, -1], [-1, 2, -1]])         # (episodes, players)
    learner = np.array([0, 0])
    assert episode_margins(scores, learner, make_rules("mittlere")).tolist() == [3.0, -1.5]
    assert episode_margins(scores, learner, make_rules("differenzler3")).tolist() == [-3.0, 1.5]
    assert episode_margins(scores, learner, make_rules("molotow3")).tolist() == [-3.0, 1.5]


def test_a_reward_the_game_does_not_have_is_refused():
    with pytest.raises(ConfigError, match="'tricks' does not exist in differenzler; allowed: points, win"):
        make_config({"rules": "differenzler", "reward": "tricks"})


# the run folder
def test_a_fresh_start_refuses_a_run_dir_that_holds_a_run(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    assert run_train("--config", SMOKE, f"run_dir={run}") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    for words in (f"--resume {run}", "fresh run_dir", "--overwrite"):
        assert words in err, words
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before
    assert run_train("--resume", run, "--overwrite") == 2
    assert "cannot go with --resume" in capsys.readouterr().err


def test_overwrite_replaces_the_earlier_run_and_its_stale_temporary_files(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    stale = run / "checkpoints" / ".latest.pt.k1ll3d.tmp"          # what a save killed half-way leaves
    stale.write_bytes(b"half a checkpoint")
    assert run_train("--config", SMOKE, f"run_dir={run}", "--overwrite", "--stop-after", "1",
                       "eval_every=0") == 0
    (hint,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("stopped at ")]
    python, *rest = hint.split("; continue with ")[1].split()
    assert hint.startswith("stopped at iteration 1/4;") and rest == ["train.py", "--resume", str(run)]
    assert Path(python).is_file()                                  # a command that runs as printed
    assert read_checkpoint(run / "checkpoints" / "latest.pt")["trainer"]["iteration"] == 1
    assert not (run / "checkpoints" / "best.pt").exists()           # the old run's best is gone
    assert len(list(run.glob("events.out.tfevents.*"))) == 1 and not stale.exists()


def test_resume_keeps_the_evaluations_from_before_it(finished_run, stopped_run):
    # the stopped run was evaluated at 1,024 decisions, the resumed one at 2,048: both stay in the
    # events that TensorBoard, strength.png and agents.curves read
    assert eval_steps(stopped_run) == [1024]
    assert eval_steps(finished_run) == [1024, 2048]
    assert eval_steps(finished_run, "random") == [1024, 2048]


def test_resume_hides_only_what_the_interrupted_process_logged_after_its_checkpoint(stopped_run, tmp_path):
    from torch.utils.tensorboard import SummaryWriter

    run = copy_run(stopped_run, tmp_path)
    with SummaryWriter(str(run)) as w:          # an evaluation after the checkpoint, then killed
        for tag in ("points_per_hand", "ci95_low", "ci95_high"):
            w.add_scalar(f"eval/{tag}_vs_heuristic", 99.0, 1536)
        w.add_scalar("time/elapsed_s", 1e6, 1536)
    assert eval_steps(run) == [1024, 1536]
    time.sleep(1.1)                             # event files are read in the order of their names'
    #                                             time stamps (whole seconds): the resume comes later
    stale = run / "checkpoints" / ".latest.pt.k1ll3d.tmp"
    stale.write_bytes(b"half a checkpoint")
    assert run_train("--resume", run, "eval_every=1", "final_eval_deals=0") == 0
    assert eval_steps(run) == [1024, 1536, 2048]
    (curve,) = [c for c in read_curves(run) if c.opponent == "heuristic"]
    assert curve.points[1] != 99.0 and not stale.exists()


def test_resuming_a_finished_run_says_so_and_changes_nothing(finished_run, tmp_path, capsys):
    from agents.curves import main as curves_main

    run = copy_run(finished_run, tmp_path)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    assert run_train("--resume", run) == 0
    printed = capsys.readouterr().out
    assert f"run {run} is already finished (4 iterations, 2,048 decisions); nothing left to train" in printed
    assert (run / "results.md").read_text().strip() in printed
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before
    assert curves_main([str(run), "--out", str(tmp_path / "again.png")]) == 0
    # killed after its last checkpoint, before the final outputs: resuming writes just those
    for name in ("results.json", "results.md", "strength.png"):
        (run / name).unlink()
    assert run_train("--resume", run) == 0
    again, first = json.loads((run / "results.json").read_text()), json.loads(before[run / "results.json"])
    for res in (again, first):                  # the copy's folder differs; the checkpoints do not
        for row in res["rows"]:
            row["checkpoint"] = Path(row["checkpoint"]).name
    assert again == first
    assert (run / "strength.png").exists() and eval_steps(run) == [1024, 2048]
    assert (run / "checkpoints" / "latest.pt").read_bytes() == before[run / "checkpoints" / "latest.pt"]


def test_resume_refuses_another_thread_count_and_reads_overrides_around_the_options(stopped_run, capsys):
    # measured: 2 threads instead of 1 change the weights (threaded kernels sum in another order);
    # overrides may stand before and after --stop-after N
    assert run_train("--resume", stopped_run, "progress=false", "--stop-after", "3",
                       "torch_threads=2") == 2
    err = capsys.readouterr().err
    assert "'torch_threads' cannot change when resuming" in err and "Traceback" not in err


def test_a_start_that_fails_leaves_no_run_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    run = tmp_path / "new"
    assert run_train("--config", SMOKE, f"run_dir={run}", "device=cuda") == 2
    assert "no CUDA device" in capsys.readouterr().err
    assert not run.exists()


def test_a_crash_while_saving_leaves_the_previous_checkpoint_intact(tmp_path, monkeypatch):
    train_smoke(tmp_path, stop_after=2)
    latest_pt = tmp_path / "checkpoints" / "latest.pt"
    before = latest_pt.read_bytes()

    def crash(obj, f, *a, **k):
        f.write(b"PK\x03\x04 half a checkpoint")
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(torch, "save", crash)
    with pytest.raises(OSError, match="simulated"):
        run_train("--resume", tmp_path, "eval_every=0")
    monkeypatch.undo()
    assert latest_pt.read_bytes() == before
    assert latest(tmp_path)["iteration"] == 2
    assert not [p for p in (tmp_path / "checkpoints").iterdir() if p.name.endswith(".tmp")]


# bad input
@pytest.mark.parametrize("override, words", [
    ("learning_rate=0.1", ["unknown config key 'learning_rate'", "0.1", "allowed keys", "lr"]),
    ("num_envs=lots", ["'num_envs'", "'lots'", "integer"]),
    ("hidden=64", ["'hidden'", "64", "list"]),
    ("progress=3", ["'progress'", "3", "true or false"]),
    ("gamma=1.5", ["'gamma'", "1.5", "[0, 1]"]),
    ("num_envs=0", ["'num_envs'", "0", ">= 1"]),
    ("rules=belote", ["'rules'", "'belote'", "schieber"]),
    ("opponents={self: 1, robot: 1}", ["'opponents'", "'robot'", "heuristic"]),
    ("opponents={random: 0}", ["'opponents'", "sum to 0"]),
    ("total_decisions=100", ["'total_decisions'", "100", "512"]),
    ("seed=18446744073709551616", ["'seed'", "18446744073709551616", "2**64 - 2"]),
    ("seed=-1", ["'seed'", "-1", "[0, "]),
])
def test_bad_config_values_are_named_with_what_is_allowed(override, words, capsys):
    with pytest.raises(ConfigError) as e:
        load_config(SMOKE, [override])
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    assert run_train("--config", SMOKE, override) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err


def test_config_files_are_valid_and_unknown_yaml_keys_are_rejected(tmp_path):
    # distill*.yaml configure agents.distill, not train.py (tests/test_distill.py reads them)
    names = sorted(p.stem for p in (ROOT / "configs").glob("*.yaml") if not p.stem.startswith("distill"))
    assert {"smoke", "quickstart", "default", "gpu", "differenzler", "coiffeur"} <= set(names)
    for name in names:
        cfg = load_config(ROOT / "configs" / f"{name}.yaml")
        assert cfg.iterations >= 1
    bad = tmp_path / "bad.yaml"
    for content, message in [
        (b"num_envs: 8\nbatch: 3\n", "unknown config key 'batch'"),
        (b"- a list\n", "mapping"),
        (b"num_envs: 8\nlr: 0.1\nnum_envs: 16\n", "key 'num_envs' is given twice"),
        (b"opponents: {self: 1, random: 1, self: 2}\n", "key 'self' is given twice"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "is not a text file"),       # a binary file
    ]:
        bad.write_bytes(content)
        with pytest.raises(ConfigError, match=message):
            load_config(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="is not a file"):
        load_config(tmp_path)
    assert make_config({"lr": "3e-4"}).lr == pytest.approx(3e-4)


def test_the_trainer_evaluates_against_batch_bots_and_agent_specs():
    """``eval_opponents`` takes the batch bots and any agent spec (a search bot, a checkpoint);
    a spec the agent registry cannot read is refused, naming what is allowed."""
    cfg = make_config({"eval_opponents": ["random", "pimc:worlds=10", "search:worlds=30"]})
    assert cfg.eval_opponents == ["random", "pimc:worlds=10", "search:worlds=30"]
    with pytest.raises(ConfigError, match="'eval_opponents'.*allowed: a list of random, heuristic or agent "
                                          "specs"):
        make_config({"eval_opponents": ["pimc:wolds=10"]})


def test_corrupt_truncated_or_foreign_checkpoints_give_a_clear_error(tmp_path, capsys):
    train_smoke(tmp_path, stop_after=1)
    latest_pt = tmp_path / "checkpoints" / "latest.pt"
    good = latest_pt.read_bytes()
    for content in (good[: len(good) // 2], b"not a checkpoint at all"):
        latest_pt.write_bytes(content)
        with pytest.raises(CheckpointError, match="cannot be read"):
            load_trainer_checkpoint(latest_pt)
        assert run_train("--resume", tmp_path) == 2
        err = capsys.readouterr().err
        assert "error:" in err and "latest.pt" in err and "Traceback" not in err
    torch.save({"format": "jass-policy/1", "obs_version": 1, "net": {}, "model": {}}, latest_pt)
    with pytest.raises(CheckpointError, match="without trainer state"):
        load_trainer_checkpoint(latest_pt)
    assert run_train("--resume", tmp_path / "nowhere") == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_run_dir_that_is_a_file_is_named(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("not a folder\n")
    for run_dir in (f, f / "run"):
        assert run_train("--config", SMOKE, f"run_dir={run_dir}") == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and f"{str(f)!r} is a file, not a folder" in err
    assert run_train("--resume", f) == 2
    assert "is a file; give the run folder" in capsys.readouterr().err
    assert f.read_text() == "not a folder\n"


def test_resuming_weights_that_do_not_fit_the_network_is_named(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    latest_pt = run / "checkpoints" / "latest.pt"
    ckpt = read_checkpoint(latest_pt)
    ckpt["trainer"]["config"]["hidden"] = [16]                      # the weights are of hidden [32]
    torch.save(ckpt, latest_pt)
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "weights do not fit the network of its config (hidden [16]" in err
    assert "Traceback" not in err


def test_a_checkpoint_lacking_part_of_the_trainer_state_is_refused_naming_it(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    latest_pt = run / "checkpoints" / "latest.pt"
    ckpt = read_checkpoint(latest_pt)
    trainer = ckpt["trainer"]                          # as a checkpoint of an earlier trainer might be
    del trainer["bc_decisions_done"], trainer["env"]["sample_rng"], trainer["rng"]["agent"]
    torch.save(ckpt, latest_pt)
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "trainer state lacks bc_decisions_done, env.sample_rng, rng.agent" in err


# warm start
def _heuristic_batch(games: int = 64, steps: int = 40, seed: int = 123):
    """A fixed batch of (obs, mask, heuristic action) from heuristic-only play."""
    env = VectorJassEnv(games)
    obs, mask, _ = env.reset(seed=seed)
    xs, ms, acts = [], [], []
    for _ in range(steps):
        a = heuristic_actions(obs, mask, env.rp)
        xs.append(obs.copy())
        ms.append(mask.copy())
        acts.append(a)
        out = env.step(a)
        obs, mask = out.obs, out.mask
    return (torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ms)),
            torch.from_numpy(np.concatenate(acts)))


def _agreement(net, batch) -> float:
    x, m, a = batch
    with torch.no_grad():
        return float((net.masked_logits(x, m).argmax(-1) == a).float().mean())


def test_behaviour_cloning_warm_start_raises_agreement_with_the_heuristic_and_is_not_redone(tmp_path):
    from agents.network import PolicyNet
    from agents.training.networks import CriticNet
    from jass_env.envs.encoding import state_dim

    batch = _heuristic_batch()
    cfg = smoke(tmp_path, "bc_decisions=8192", "bc_lr=3e-3", "bc_epochs=4")
    assert cfg.bc_rounds == 16
    policy = PolicyNet(cfg.hidden, seed=cfg.seed)
    critic = CriticNet(cfg.critic_hidden, state_dim(make_rules(cfg.rules)), seed=cfg.seed + 1)
    before = _agreement(policy, batch)
    stats = warm_start(cfg, policy, critic, torch.device("cpu"))
    after = _agreement(policy, batch)
    assert stats["decisions"] == 8192 and math.isfinite(stats["loss"]) and math.isfinite(stats["value_loss"])
    assert after > before + 0.08, (before, after)

    # in the trainer: once before iteration 0, logged, counted in the checkpoint, not redone on resume
    train_smoke(tmp_path, "bc_decisions=8192", "bc_lr=3e-3", "bc_epochs=4", stop_after=1)
    assert latest(tmp_path)["bc_decisions_done"] == 8192 and latest(tmp_path)["iteration"] == 1
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    tags = EventAccumulator(str(tmp_path / "warm_start")).Reload().Tags()["scalars"]
    assert {"bc/loss", "bc/accuracy", "bc/value_loss"} <= set(tags)
    assert run_train("--resume", tmp_path, "eval_every=0", "--stop-after", "2") == 0
    assert latest(tmp_path)["bc_decisions_done"] == 8192 and latest(tmp_path)["iteration"] == 2
    # not redone: its history (one point per warm-start batch, up to 8,192 decisions) survives the resume
    bc = EventAccumulator(str(tmp_path / "warm_start")).Reload().Scalars("bc/loss")
    assert [e.step for e in bc] == [512 * (i + 1) for i in range(16)]


@pytest.mark.parametrize("override, words", [
    ("bc_decisions=-1", ["'bc_decisions'", "-1", ">= 0"]),
    ("bc_lr=0", ["'bc_lr'", "0", "> 0"]),
    ("bc_epochs=0", ["'bc_epochs'", "0", ">= 1"]),
])
def test_bad_warm_start_values_are_named(override, words):
    with pytest.raises(ConfigError) as e:
        load_config(SMOKE, [override])
    for w in words:
        assert w in str(e.value), (w, str(e.value))


# fine-tuning
def test_init_policy_starts_the_run_from_that_checkpoints_weights(stopped_run, tmp_path):
    start = stopped_run / "checkpoints" / "latest.pt"
    net, _ = load_policy(start)
    cfg = smoke(tmp_path, f"init_policy={start}")
    policy = new_policy(cfg, make_rules(cfg.rules))
    load_initial_policy(cfg, policy)
    for k, v in net.state_dict().items():
        assert torch.equal(policy.state_dict()[k], v), k
    # the run trains on from there: its snapshot 0 (the policy at the start) holds those weights
    train_smoke(tmp_path / "run", f"init_policy={start}", "final_eval_deals=0", stop_after=1)
    snap0 = read_checkpoint(tmp_path / "run" / "checkpoints" / "latest.pt")["trainer"]["snapshots"][0]
    for k, v in net.state_dict().items():
        assert torch.equal(snap0[k], v), k


def test_a_suit_averaged_init_policy_gives_its_mlp_and_the_run_trains_one_view(stopped_run, tmp_path):
    net, _ = load_policy(stopped_run / "checkpoints" / "latest.pt")
    averaged = net.suit_averaged(suit_permutations(make_rules("schieber")).tolist())
    start = save_policy(tmp_path / "averaged.pt", averaged)
    cfg = smoke(tmp_path, f"init_policy={start}")
    policy = new_policy(cfg, make_rules(cfg.rules))
    load_initial_policy(cfg, policy)
    assert policy.suit_renamings is None
    for k, v in net.state_dict().items():
        assert torch.equal(policy.state_dict()[k], v), k


def test_an_init_policy_that_does_not_fit_the_network_is_named(stopped_run, tmp_path, capsys):
    start = stopped_run / "checkpoints" / "latest.pt"                 # hidden [32]
    assert run_train("--config", SMOKE, f"run_dir={tmp_path / 'run'}", f"init_policy={start}",
                       "hidden=[16]") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "'init_policy'" in err and "hidden [32]" in err
    assert "Traceback" not in err and not (tmp_path / "run").exists()
    assert run_train("--config", SMOKE, f"run_dir={tmp_path / 'run'}",
                       f"init_policy={tmp_path / 'missing.pt'}") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "missing.pt" in err and "Traceback" not in err


def test_the_agent_opponent_plays_with_the_runs_checkpointed_dice(tmp_path):
    """Opponent kind "agent" (here PIMC, which draws its worlds from its generator): the opponents'
    seats are the agent's, and a resumed run continues its dice exactly."""
    pimc = ("opponents={self: 0.5, agent: 0.5}", "opponent_agent=pimc:worlds=2", "final_eval_deals=0")
    cfg = smoke(tmp_path / "x", *pimc)
    gens = Generators.from_seed(cfg.seed)
    bot = opponent_agent(cfg, make_rules(cfg.rules), gens.agent)
    assert bot.agent.name == "pimc2" and bot.agent.rng is gens.agent
    assert opponent_agent(smoke(tmp_path / "y"), make_rules(cfg.rules), gens.agent) is None
    a, b = straight_and_resumed(tmp_path, *pimc)
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    assert torch.equal(a["trainer"]["env"]["game_states"], b["trainer"]["env"]["game_states"])


def test_a_bad_opponent_agent_is_named(tmp_path, capsys):
    with pytest.raises(ConfigError) as e:
        load_config(SMOKE, ["opponent_agent=wizard:level=9"])
    assert "'opponent_agent'" in str(e.value) and "agent spec" in str(e.value)
    # a spec of another game is refused before the run starts, with the registry's reason
    assert run_train("--config", SMOKE, f"run_dir={tmp_path / 'run'}", "rules=mittlere",
                       "opponents={self: 0.5, agent: 0.5}", "opponent_agent=search:rollout=heuristic") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: config key 'opponent_agent'") and "no heuristic play-out" in err
    assert "Traceback" not in err and not (tmp_path / "run").exists()


# mistakes refused before a run starts, and every stopped run resumable
def _policy_of(game: str, path: Path) -> Path:
    """A random-weights policy checkpoint of ``game``, of the smoke config's size (hidden [32])."""
    return write_random_checkpoint(path, hidden=[32], game=game)


def _same_weights(a: Path, b: Path) -> bool:
    """Whether the checkpoints ``a`` and ``b`` hold the same policy weights."""
    wa, wb = read_checkpoint(a)["model"], read_checkpoint(b)["model"]
    return wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)


@pytest.mark.parametrize("overrides, key, agent, why", [
    (["eval_opponents=[heuristic, {spec}]"], "eval_opponents[1]", "schieber", "trained for game 'schieber'"),
    (["eval_opponents=[{spec}, heuristic]"], "eval_opponents[0]", "gone", "does not exist"),
    (["opponents={{self: 0.5, agent: 0.5}}", "opponent_agent={spec}"], "opponent_agent", "schieber",
     "trained for game 'schieber'"),
])
def test_an_agent_that_cannot_play_the_runs_game_is_refused_before_the_run_starts(overrides, key, agent, why,
                                                                                    tmp_path, capsys):
    """A Differenzler run names a Schieber policy (or a file that is not there) as an opponent: the
    error names the config key, the spec and why, and no run folder is written (before, the run
    died at its first evaluation and, the opponent being part of its config, could not resume)."""
    spec = _policy_of("schieber", tmp_path / "schieber.pt") if agent == "schieber" else tmp_path / "gone.pt"
    run = tmp_path / "run"
    assert run_train("--config", SMOKE, f"run_dir={run}", "rules=differenzler",
                     *(o.format(spec=spec) for o in overrides)) == 2
    err = capsys.readouterr().err
    assert f"error: config key '{key}': '{spec}' cannot play differenzler, the game this run trains" in err
    assert why in err and "Traceback" not in err
    assert not run.exists()


def test_an_init_policy_of_another_game_is_refused_even_when_its_sizes_fit(tmp_path):
    # Mittlere's observation and Molotow-for-three's have the same length and both games 36
    # actions, but the numbers mean other things: only the game a checkpoint records tells them apart
    mittlere, molotow3 = make_rules("mittlere"), make_rules("molotow3")
    assert (obs_dim(mittlere), mittlere.spec.n_actions) == (obs_dim(molotow3), molotow3.spec.n_actions)
    start = _policy_of("mittlere", tmp_path / "mittlere.pt")
    cfg = smoke(tmp_path / "run", "rules=molotow3", f"init_policy={start}")
    with pytest.raises(ConfigError) as e:
        load_initial_policy(cfg, new_policy(cfg, molotow3))
    assert f"config key 'init_policy': '{start}' cannot play molotow3" in str(e.value)
    assert "trained for game 'mittlere'" in str(e.value)


def test_resume_refuses_a_checkpoint_of_another_game_put_in_the_run_folder(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)            # made a Differenzler run's folder, with a Schieber
    config = run / "config.yaml"                     # run's checkpoint put in it
    values = {**load_config(config).to_dict(), "rules": "differenzler"}
    config.write_text(config_yaml(make_config(values)))
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert "is of a schieber run (rules 'schieber'" in err and "Traceback" not in err
    assert f"the run in '{run}' trains differenzler (rules 'differenzler' in its config.yaml)" in err
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before
    # a checkpoint whose own config trains another game than its policy plays does not fit itself
    latest_pt = run / "checkpoints" / "latest.pt"
    ckpt = read_checkpoint(latest_pt)
    ckpt["trainer"]["config"]["rules"] = "differenzler"
    torch.save(ckpt, latest_pt)
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert "was trained for game 'schieber'" in err and "does not fit its own config" in err


def test_a_run_stopped_before_its_first_checkpoint_starts_over_when_resumed(stopped_run, finished_run,
                                                                           tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    for name in ("latest.pt", "best.pt"):           # killed before it saved any checkpoint
        (run / "checkpoints" / name).unlink()
    assert run_train("--config", SMOKE, f"run_dir={run}") == 2
    err = capsys.readouterr().err
    assert "stopped before its first checkpoint" in err and "nothing to resume" in err
    assert "--overwrite" in err and "--resume" not in err
    assert run_train("--resume", run) == 0
    assert "starting it over from iteration 0 with its config.yaml" in capsys.readouterr().err
    # a run is reproducible: started over, it ends where the run that was never stopped ends
    assert _same_weights(run / "checkpoints" / "latest.pt", finished_run / "checkpoints" / "latest.pt")
    assert len(list(run.glob("events.out.tfevents.*"))) == 1 and eval_steps(run) == [1024, 2048]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_train("--resume", empty) == 2
    assert "no run to resume there (no checkpoints/latest.pt and no config.yaml)" in capsys.readouterr().err


def test_a_run_stopped_after_best_pt_before_latest_pt_resumes_from_best_pt(stopped_run, finished_run,
                                                                           tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    (run / "checkpoints" / "latest.pt").unlink()    # best.pt of iteration 2 saved, killed before latest.pt
    assert run_train("--config", SMOKE, f"run_dir={run}") == 2
    assert f"--resume {run}" in capsys.readouterr().err            # there is a checkpoint to resume
    assert run_train("--resume", run) == 0
    assert "continuing from checkpoints/best.pt, which holds the whole trainer state at iteration 2" in (
        capsys.readouterr().err)
    assert _same_weights(run / "checkpoints" / "latest.pt", finished_run / "checkpoints" / "latest.pt")
    assert eval_steps(run) == [1024, 2048]


def test_a_resumed_run_may_leave_out_an_eval_opponent_that_is_gone(stopped_run, tmp_path, capsys):
    run = copy_run(stopped_run, tmp_path)
    gone = tmp_path / "gone.pt"
    latest_pt = run / "checkpoints" / "latest.pt"
    ckpt = read_checkpoint(latest_pt)                # a run evaluated against a checkpoint since deleted
    ckpt["trainer"]["config"]["eval_opponents"] = ["random", "heuristic", str(gone)]
    torch.save(ckpt, latest_pt)
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert f"config key 'eval_opponents[2]': '{gone}' cannot play schieber" in err and "does not exist" in err
    assert f"train.py --resume {run} 'eval_opponents=[random, heuristic]'" in err
    assert run_train("--resume", run, "eval_opponents=[random, heuristic]", "--stop-after", "3") == 0
    assert latest(run)["iteration"] == 3
    # best.pt is picked against the heuristic: a resumed run keeps it, so that opponent must stay
    with pytest.raises(ConfigError, match="this run picks best.pt against 'heuristic'"):
        resumed_config(ckpt["trainer"]["config"], ["eval_opponents=[random]"], run)
    with pytest.raises(ConfigError, match="this run picks best.pt against it, so it must play"):
        check_eval_opponents(make_config({"eval_opponents": [str(gone)], "run_dir": str(run)}), resumed=True)
