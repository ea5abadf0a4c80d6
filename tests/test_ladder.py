"""The ladder of a game (``python -m agents.ladder``, docs/bots.md): every pair of agents on one
deal set by the game's own protocol, Elo from the pairs' results with the first agent at 0, and
each agent's cost per decision.

Tiny ladders of the three protocols: Schieber (team game, duplicate deals), Molotow for three (a
game played alone, seat rotation; lower is better) and Coiffeur (whole games). At the sizes used
the heuristic beats random with a 95 % interval clear of 0 in each (checked when the sizes were
chosen), so it must come out above random in Elo.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
from pathlib import Path

import pytest

from agents.evaluation.duplicate import evaluate_pair
from agents.evaluation.ladder import DEFAULT_AGENTS, default_agents
from agents.evaluation.timing import DecisionClock, TimedFactory
from agents.ladder import main
from agents.registry import agents_of
from jass_env.games import PRESETS, game_of, make_rules

AGENTS = ("random", "heuristic", "pimc:worlds=2")
#: (preset, deals per pair, agents): small enough for seconds, large enough for a clear margin
LADDERS = {"schieber": ("schieber", 6, AGENTS),
           "molotow3": ("molotow3", 8, ("random", "heuristic")),
           "coiffeur": ("coiffeur", 4, AGENTS)}
#: cards each seat plays in a Schieber round (36 cards, 4 seats)
SCHIEBER_CARDS_PER_SEAT = 9


def run(out: Path, capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def ladders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict, str, str]]:
    """Each ladder of LADDERS run through the command line: (ladder.json, ladder.md, stdout)."""
    out = {}
    for name, (preset, deals, agents) in LADDERS.items():
        folder = tmp_path_factory.mktemp(name)
        with contextlib.redirect_stdout(io.StringIO()) as stdout:
            code = main(["--rules", preset, "--deals", str(deals), "--agents", *agents, "--out", str(folder),
                         "--quiet"])
        assert code == 0, f"{name}: exit {code}"
        out[name] = (json.loads((folder / "ladder.json").read_text()), (folder / "ladder.md").read_text(),
                     stdout.getvalue())
    return out


@pytest.mark.parametrize("name", list(LADDERS))
def test_ladder_writes_its_files_and_ends_with_the_headline(ladders, name) -> None:
    summary, md, stdout = ladders[name]
    preset, deals, agents = LADDERS[name]
    assert summary["agents"] == list(agents) and summary["deals"] == deals and summary["seed"] == 0
    assert summary["rules"]["preset"] == preset and len(summary["deal_set_hash"]) == 64
    assert summary["machine"]["cpu_count"] >= 1
    last = json.loads(stdout.strip().splitlines()[-1])
    assert last["rules"] == preset
    assert last["elo"] == {a: round(summary["elo"][a], 1) for a in summary["ranking"]}
    # the markdown: one row per agent, best Elo first, and the command that reproduces it at the end
    rows = [line for line in md.splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert [r.split("`")[1] for r in rows] == summary["ranking"]
    assert md.rstrip().endswith(f"{summary['command']}\n```")
    assert shlex.split(summary["command"])[:3] == ["python", "-m", "agents.ladder"]


@pytest.mark.parametrize("name", list(LADDERS))
def test_elo_anchor_and_antisymmetric_pairs(ladders, name) -> None:
    summary, _, _ = ladders[name]
    agents = summary["agents"]
    assert summary["elo"][agents[0]] == 0.0
    assert len(summary["pairs"]) == len(agents) * (len(agents) - 1) // 2
    for a in agents:
        for b in agents:
            if a != b:
                ab, ba = summary["matrix"][a][b], summary["matrix"][b][a]
                assert ab["value"] == -ba["value"] and ab["ci95"] == [-ba["ci95"][1], -ba["ci95"][0]]
                assert ab["share"] + ba["share"] == pytest.approx(1.0)
                assert ab["ci95"][0] <= ab["value"] <= ab["ci95"][1]


@pytest.mark.parametrize("name", list(LADDERS))
def test_the_heuristic_beats_random(ladders, name) -> None:
    """Above random in Elo, and its statistic against random better in the game's direction with a
    95 % interval clear of 0."""
    summary, _, _ = ladders[name]
    assert summary["elo"]["heuristic"] > summary["elo"]["random"]
    lo, hi = summary["matrix"]["heuristic"]["random"]["ci95"]
    assert (lo > 0) if summary["statistic"]["higher_is_better"] else (hi < 0)


def test_the_direction_comes_from_the_game() -> None:
    """Molotow counts points against you: lower is better; Schieber and Coiffeur: higher."""
    for preset, higher in (("molotow3", False), ("schieber", True), ("coiffeur", True)):
        assert game_of(make_rules(preset)).statistic.higher_is_better is higher


def test_molotow_reads_lower_is_better(ladders) -> None:
    summary, md, _ = ladders["molotow3"]
    assert summary["statistic"]["direction"] == "lower is better" and "lower is better" in md
    assert summary["protocol"] == "rotation" and summary["unit"] == "deal"
    assert summary["matrix"]["heuristic"]["random"]["value"] < 0     # fewer points than random


def test_coiffeur_plays_whole_games(ladders) -> None:
    summary, md, _ = ladders["coiffeur"]
    assert summary["protocol"] == "whole_game" and summary["unit"] == "deal sequence"
    assert all(p["summary"]["games"] == 2 * LADDERS["coiffeur"][1] for p in summary["pairs"])
    assert "whole games" in md


@pytest.mark.parametrize("name", list(LADDERS))
def test_every_agent_has_a_positive_cost(ladders, name) -> None:
    summary, _, _ = ladders[name]
    for agent in summary["agents"]:
        cost = summary["cost_per_decision"][agent]
        assert cost["decisions"] > 0 and 0 < cost["mean_ms"] <= cost["slowest_ms"]


def test_schieber_times_every_card_an_agent_plays(ladders) -> None:
    """Each agent is in two pairs; per deal its team's two seats play 9 cards each, in both plays
    (seats swapped): at least that many decisions (the trump choice adds some)."""
    summary, _, _ = ladders["schieber"]
    _, deals, agents = LADDERS["schieber"]
    cards = (len(agents) - 1) * deals * 2 * 2 * SCHIEBER_CARDS_PER_SEAT
    for agent in agents:
        assert summary["cost_per_decision"][agent]["decisions"] >= cards


def test_the_command_reproduces_the_ladder(ladders, tmp_path, capsys) -> None:
    summary, _, _ = ladders["molotow3"]
    words = shlex.split(summary["command"])
    out = words.index("--out")
    code, stdout, _ = run(tmp_path, capsys, *words[3:out])
    assert code == 0
    again = json.loads((tmp_path / "ladder.json").read_text())
    assert again["elo"] == summary["elo"] and again["matrix"] == summary["matrix"]
    assert again["deal_set_hash"] == summary["deal_set_hash"]


def test_timing_does_not_change_the_play() -> None:
    """A timed agent plays exactly as the agent it wraps, and every decision is counted."""
    rules = make_rules("schieber")
    plain = evaluate_pair("heuristic", "random", rules, deals=3)
    clocks = DecisionClock(), DecisionClock()
    timed = evaluate_pair(TimedFactory("heuristic", rules, clocks[0]),
                          TimedFactory("random", rules, clocks[1]), rules, deals=3)
    assert [r.diff for r in timed.deals] == [r.diff for r in plain.deals]
    assert timed.agent_a == "heuristic" and timed.agent_b == "random"
    assert clocks[0].decisions >= 3 * 2 * 2 * SCHIEBER_CARDS_PER_SEAT and clocks[0].total_s > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_default_agents_are_those_the_game_offers(preset) -> None:
    """random first; heuristic and both PIMCs where the game has them; ``policy`` exactly where
    the game ships a trained policy for the rules' spec; ``search`` exactly where the game offers
    it; in that order."""
    rules = make_rules(preset)
    agents, offered = default_agents(rules), agents_of(rules)
    assert agents[0] == "random" and ("heuristic" in agents) == ("heuristic" in offered)
    assert ("pimc:worlds=10" in agents) == ("pimc:worlds=30" in agents) == ("pimc" in offered)
    assert ("policy" in agents) == (rules.game in game_of(rules).checkpoints)
    assert ("search" in agents) == ("search" in offered)
    assert agents == [a for a in DEFAULT_AGENTS if a in agents]


@pytest.mark.parametrize("args, message", [
    (("--rules", "no_such_game"), "no_such_game"),
    (("--rules", "mittlere", "--agents", "random", "no_such_bot"), "unknown agent"),
    (("--rules", "mittlere", "--agents", "random"), "at least 2"),
    (("--rules", "mittlere", "--agents", "random", "random"), "at least 2 distinct"),
    (("--rules", "mittlere", "--agents", "random", "heuristic", "--deals", "1"), "--deals >= 2"),
    (("--rules", "mittlere", "--agents", "random", "heuristic", "--workers", "0"), "--workers >= 1"),
    (("--rules", "mittlere", "--agents", "random", "policy:checkpoint=no/such/file.pt"), "no/such/file.pt"),
])
def test_bad_input_is_refused_with_exit_2(tmp_path, capsys, args, message) -> None:
    out = tmp_path / "ladder"
    code, stdout, err = run(out, capsys, *args)
    assert code == 2 and message in err and err.startswith("error: ")
    assert "Traceback" not in err and not out.exists()
