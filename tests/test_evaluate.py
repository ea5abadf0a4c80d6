"""Duplicate evaluation, the agent registry and the evaluation CLI."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from agents.base import Agent
from agents.evaluation.cli import main
from agents.evaluation.deals import deal_set_hash, make_deal, make_deal_set
from agents.evaluation.duplicate import evaluate_pair, play_duplicate
from agents.evaluation.progress import Progress
from agents.evaluation.seeds import seat_seed
from agents.evaluation.table import EvaluationError
from agents.network import CheckpointError
from agents.policy import write_random_checkpoint
from agents.registry import AgentSpecError, make_agent, parse_spec
from jass_env import make_rules
from jass_env.engine.cards import popcount

RULES = make_rules("schieber")


class SeededRandom(Agent):
    """Stand-in random agent that records the seats it acted in and the seeds it was reset with."""

    name = "seeded-random"

    def __init__(self, tag: str) -> None:
        super().__init__()
        self.tag, self.seats, self.seeds = tag, set(), []

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.seeds.append(seed)

    def act(self, obs) -> int:
        seat = int(np.flatnonzero(obs["observation"][498:502])[0])   # forehand's relative seat
        self.seats.add(seat)
        return int(self.rng.choice(np.flatnonzero(obs["action_mask"])))


class Illegal(Agent):
    name = "illegal"

    def act(self, obs) -> int:
        return int(np.flatnonzero(np.asarray(obs["action_mask"]) == 0)[0])


# deal set
def test_deal_set_is_frozen_and_rotates_the_dealer() -> None:
    a, b = make_deal_set(8, 5), make_deal_set(8, 5)
    assert a == b
    assert [d.dealer for d in a] == [0, 1, 2, 3, 0, 1, 2, 3]
    for d in a:
        assert all(popcount(h) == 9 for h in d.hands)
        assert d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3] == (1 << 36) - 1
    assert len({d.hands for d in a}) == 8
    assert deal_set_hash(a, RULES) == deal_set_hash(b, RULES)
    assert deal_set_hash(a, RULES) != deal_set_hash(make_deal_set(8, 6), RULES)
    assert deal_set_hash(a, RULES) != deal_set_hash(a, make_rules("tournament"))
    assert make_deal(5, 3) == a[3]                     # a deal does not depend on the set size


def test_duplicate_plays_same_hands_with_teams_swapped() -> None:
    deal = make_deal_set(3, 1)[2]
    a = [SeededRandom("a0"), SeededRandom("a1")]
    b = [SeededRandom("b0"), SeededRandom("b1")]
    rounds: list = []
    res = play_duplicate(RULES, deal, a, b, set_seed=1, keep_rounds=rounds)
    first, second = rounds
    for p in range(4):
        assert first.dealt_hand(p) == second.dealt_hand(p)
        assert first.view.dealt[p] == deal.hands[p]
    assert first.dealer == second.dealer == deal.dealer
    # each team played both plays; A scored from seats 0&2 first, then from 1&3
    assert res.score_A_first == first.score[0] and res.score_B_first == first.score[1]
    assert res.score_A_second == second.score[1] and res.score_B_second == second.score[0]
    assert res.diff == ((first.score[0] - first.score[1]) + (second.score[1] - second.score[0])) / 2
    # the agent holding a seat is reset with that seat's seed in both plays
    seeds = [seat_seed(1, deal.index, s) for s in range(4)]
    assert a[0].seeds == [seeds[0], seeds[1]] and b[0].seeds == [seeds[1], seeds[0]]
    assert a[1].seeds == [seeds[2], seeds[3]] and b[1].seeds == [seeds[3], seeds[2]]


def test_mirror_match_is_exactly_zero() -> None:
    res = evaluate_pair(lambda: SeededRandom("x"), lambda: SeededRandom("y"), RULES, deals=6, seed=3,
                        matches=2)
    assert all(r.diff == 0 for r in res.deals)
    assert res.summary["points_per_hand"] == 0 and res.summary["ci95"] == [0.0, 0.0]
    assert res.summary["match_win_rate"] == 0.5      # a match pair on one seed, seats swapped


def test_illegal_action_is_reported() -> None:
    with pytest.raises(EvaluationError, match=r"'illegal' in seat \d chose action .*, which is not legal "
                                              r"here \(legal: \["):
        evaluate_pair(Illegal(), lambda: SeededRandom("x"), RULES, deals=2)


def test_progress_line() -> None:
    import io

    buf = io.StringIO()
    p = Progress(4, "x", stream=buf)
    for _ in range(4):
        p.update()
    assert "4/4 100%" in buf.getvalue() and "left" in buf.getvalue()


# registry
def test_parse_spec() -> None:
    assert parse_spec("random") == ("random", {})
    assert parse_spec("pimc:worlds=10,rollout=random,time_limit=0.05") == (
        "pimc", {"worlds": 10, "rollout": "random", "time_limit": 0.05})
    assert parse_spec("policy:greedy=false") == ("policy", {"greedy": False})
    assert parse_spec("runs/a.pt") == ("policy", {"checkpoint": "runs/a.pt"})
    assert parse_spec("runs/a.pt:greedy=no,seed=2") == ("policy", {"checkpoint": "runs/a.pt",
                                                                   "greedy": False, "seed": 2})
    with pytest.raises(AgentSpecError, match="(?s)unknown agent .foo.*random.*heuristic.*pimc.*policy"):
        parse_spec("foo")
    with pytest.raises(AgentSpecError, match="unknown parameter 'depth' for pimc; pimc takes: worlds"):
        parse_spec("pimc:depth=3")
    with pytest.raises(AgentSpecError, match="bad value for worlds"):
        parse_spec("pimc:worlds=-1")
    with pytest.raises(AgentSpecError, match="bad value for rollout: expected heuristic or random"):
        parse_spec("pimc:rollout=mcts")
    with pytest.raises(AgentSpecError, match="key=value"):
        parse_spec("pimc:worlds")


def test_make_agent(tmp_path) -> None:
    assert type(make_agent("random", RULES)).__name__ == "RandomAgent"
    path = write_random_checkpoint(tmp_path / "p.pt", hidden=(8,))
    agent = make_agent(f"{path}:greedy=false", RULES)
    assert agent.checkpoint == str(path) and not agent.greedy
    with pytest.raises(CheckpointError, match="does not exist"):
        make_agent(str(tmp_path / "nope.pt"), RULES)


# CLI
def test_cli_end_to_end(tmp_path, capsys) -> None:
    ckpt = write_random_checkpoint(tmp_path / "p.pt", hidden=(16,))
    out = tmp_path / "out"
    rc = main([str(ckpt), "random", "--deals", "4", "--matches", "2", "--seed", "9", "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    s = json.loads((out / "summary.json").read_text())
    for key in ("points_per_hand", "ci95", "deals", "match_win_rate", "match_win_ci95", "share_of_deals_won",
                "round_win_rate", "agents", "rules", "seed", "deal_set_hash", "agent_descriptions",
                "elapsed_seconds"):
        assert key in s, key
    assert s["deals"] == 4 and s["seed"] == 9 and s["matches"] == 2
    assert s["ci95"][0] <= s["points_per_hand"] <= s["ci95"][1]
    assert s["agent_descriptions"]["A"]["checkpoint_sha256"]
    assert s["deal_set_hash"] == deal_set_hash(make_deal_set(4, 9), RULES)
    rows = list(csv.DictReader((out / "deals.csv").open()))
    assert [int(r["deal"]) for r in rows] == [0, 1, 2, 3]
    assert [int(r["dealer"]) for r in rows] == [0, 1, 2, 3]
    assert np.mean([float(r["diff"]) for r in rows]) == pytest.approx(s["points_per_hand"])
    assert "points per hand" in (out / "summary.md").read_text()
    assert (out / "summary.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_round_robin(tmp_path, capsys) -> None:
    ckpt = write_random_checkpoint(tmp_path / "p.pt", hidden=(16,))
    out = tmp_path / "rr"
    rc = main(["--round-robin", "random", str(ckpt), "policy:seed=1", "--deals", "3", "--matches", "0",
               "--out", str(out), "--quiet"])
    assert rc == 0, capsys.readouterr().err
    s = json.loads((out / "summary.json").read_text())
    assert s["mode"] == "round_robin" and len(s["pairs"]) == 3 and s["elo"]["random"] == 0.0
    assert len(list(csv.DictReader((out / "deals.csv").open()))) == 9
    assert (out / "summary.png").exists() and "Elo" in (out / "summary.md").read_text()


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchbot", "random"], "unknown agent 'nosuchbot'"),
    (["pimc:worlds=x", "random"], "bad value for worlds"),
    (["random"], "give two agents"),
    (["random", "random", "--rules", "bogus"], "unknown rules preset 'bogus'"),
    (["--round-robin", "random"], "a round robin needs at least 2 distinct agents"),
    (["--round-robin", "random", "random"], "a round robin needs at least 2 distinct agents"),
    (["--round-robin", "random", "heuristic", "--rules", "differenzler"], "seat rotation of two agents"),
    (["random", "heuristic", "--rules", "differenzler3", "--workers", "2"], "seat rotation of two agents"),
])
def test_cli_bad_arguments(tmp_path, capsys, args, message) -> None:
    assert main([*args, "--deals", "2", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_corrupt_checkpoint(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"\x00" * 100)
    assert main([str(bad), "random", "--deals", "2", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "bad.pt" in err and "cannot be read" in err and "Traceback" not in err


def test_workers_give_the_same_results() -> None:
    one = evaluate_pair("random", "policy", RULES, deals=6, seed=2, matches=2)
    two = evaluate_pair("random", "policy", RULES, deals=6, seed=2, matches=2, workers=2)
    assert [r.row() for r in one.deals] == [r.row() for r in two.deals]
    assert [m.result for m in one.matches] == [m.result for m in two.matches]
