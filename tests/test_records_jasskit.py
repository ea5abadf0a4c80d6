"""``python -m jass_env.records convert --from jasskit``: jass-kit's game logs become our records,
which the checker then checks. The logs are written by jass-kit's own Arena."""

from __future__ import annotations

import glob
import json

import numpy as np
import pytest

from jass_env.records import check_records, main

jass = pytest.importorskip("jass")


def _jasskit_log(tmp_path, n_games: int, seed: int) -> str:
    """A log of jass-kit's random agents playing its Arena (they under-trump as its rule lets them)."""
    from jass.agents.agent_random_schieber import AgentRandomSchieber
    from jass.arena.arena import Arena
    np.random.seed(seed)
    players = []
    for k in range(4):
        a = AgentRandomSchieber()
        a._rng = np.random.default_rng(seed + k)
        players.append(a)
    arena = Arena(nr_games_to_play=n_games, save_filename=str(tmp_path / "log"), print_every_x_games=1000)
    arena.set_players(*players)
    arena.play_all_games()
    (path,) = glob.glob(str(tmp_path / "log*.txt"))
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    return _jasskit_log(tmp_path_factory.mktemp("jasskit"), n_games=40, seed=7)


def test_converted_records_check_and_the_issue10_plays_are_the_disagreements(log, tmp_path, capsys):
    out = tmp_path / "records.jsonl"
    assert main(["convert", "--from", "jasskit", log, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    lines = out.read_text().splitlines()
    assert len(lines) == 40
    forbidden = [e for e in err.splitlines() if "rule disagreement" in e]
    assert forbidden, "these 40 random games include jass-kit under-trumps"
    assert all("under-trump: jass-kit's issue #10" in e for e in forbidden)
    assert f"40 games converted to {out}, 0 lines unreadable, {len(forbidden)} plays the rules forbid" in err

    report = check_records(out)
    # each record with a forbidden play disagrees exactly there (the replay stops at its first one)
    firsts = {}
    for e in forbidden:
        line = int(e.split("line ", 1)[1].split(",", 1)[0])
        where = e.split(": rule disagreement", 1)[0].split(", ", 1)[1]      # "trick T, position P"
        firsts.setdefault(line, where)
    assert report.disagreeing == len(firsts)
    for f in report.findings:
        line = int(json.loads(f.record_id).rsplit(":", 1)[1])
        assert f"trick {f.trick}, position {f.position}" == firsts[line]
        assert f.text.startswith("illegal play")


def test_converted_records_keep_jasskit_points_winners_and_seats(log, tmp_path):
    out = tmp_path / "r.jsonl"
    assert main(["convert", "--from", "jasskit", log, "-o", str(out)]) == 0
    entries = [json.loads(x) for x in open(log)]
    for entry, line in zip(entries, out.read_text().splitlines()):
        rec, game = json.loads(line), entry["game"]
        jk_points = [sum(t["points"] for t in game["tricks"] if t["win"] % 2 == team) for team in (0, 1)]
        assert rec["points"] == jk_points
        assert rec["dealer"] == (-game["dealer"]) % 4              # N E S W -> 0 3 2 1
        assert rec["tricks"][0]["plays"][0][1] == game["tricks"][0]["cards"][0]
        assert rec["pushed"] == (game["forehand"] == 0)


def test_bad_lines_are_reported_and_the_others_converted(log, tmp_path, capsys):
    good = open(log).readline()
    truncated = json.loads(good)
    truncated["game"]["tricks"] = truncated["game"]["tricks"][:3]
    path = tmp_path / "mixed.txt"
    path.write_text("{oops\n" + good + json.dumps(truncated) + "\n")
    out = tmp_path / "o.jsonl"
    assert main(["convert", "--from", "jasskit", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "mixed.txt: line 1: " in err
    assert "mixed.txt: line 3: not a complete game: 12 cards played" in err
    assert len(out.read_text().splitlines()) == 1


def test_a_missing_file_or_unknown_tool_is_a_usage_error(tmp_path, capsys):
    assert main(["convert", "--from", "jasskit", str(tmp_path / "none.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["convert", "--from", "pyjass", "x"]) == 2
