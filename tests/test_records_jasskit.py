"""``python -m jass_env.records convert --from jasskit``: jass-kit's game logs become our records,
which the checker then checks. The logs are written by jass-kit's own Arena: here, where jass-kit
is installed, and ``tests/data/jasskit/arena0001.txt`` (6 games of its random agents, jass-kit 2.0.5).
"""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path

import numpy as np
import pytest

from jass_env.records import check_records, main

SAMPLE = Path(__file__).parent / "data" / "jasskit" / "arena0001.txt"


def _jasskit_log(tmp_path, n_games: int, seed: int) -> str:
    """A log of jass-kit's random agents playing its Arena (they under-trump as its rule lets them)."""
    pytest.importorskip("jass")
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
    assert all("under-trump: jass-kit compares with the lowest trump in the trick" in e for e in forbidden)
    assert (f"40 of 40 lines converted to {out}, 0 skipped; {len(forbidden)} plays the rules forbid, "
            f"0 tricks the rules give to another player") in err

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


def test_bad_lines_are_reported_and_the_others_converted(tmp_path, capsys):
    """Every line that is no complete game is skipped with its number and why, whatever it holds;
    the others are converted and the exit status is 1."""
    good = SAMPLE.read_bytes().splitlines(keepends=True)
    truncated = json.loads(good[0])
    truncated["game"]["tricks"] = truncated["game"]["tricks"][:3]
    twice = json.loads(good[1])
    twice["game"]["tricks"][4]["cards"][2] = twice["game"]["tricks"][1]["cards"][0]
    bad = [b"{oops\n", b"\xff\xfe not UTF-8\n", b"[" * 100_000 + b"\n", b"[1, 2]\n",
           json.dumps(truncated).encode() + b"\n", json.dumps(twice).encode() + b"\n"]
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"".join(x for pair in zip(bad, good) for x in pair))   # bad lines 1, 3, ... 11
    out = tmp_path / "o.jsonl"
    assert main(["convert", "--from", "jasskit", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: line 1: skipped: not valid JSON: Expecting property name" in err
    assert f"{path}: line 3: skipped: not UTF-8 text" in err
    assert f"{path}: line 5: skipped: not valid JSON: nested too deeply" in err
    assert f"{path}: line 7: skipped: a jass-kit game state or observation is a JSON object, got list" in err
    assert f"{path}: line 9: skipped: not a complete game: 12 cards played" in err
    card = twice["game"]["tricks"][1]["cards"][0]
    assert (f"{path}: line 11: skipped: {card} is played twice: trick 2, position 1 and trick 5, "
            f"position 3") in err
    assert f"6 of 12 lines converted to {out}, 6 skipped; " in err
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in records] == [f"mixed.txt:{n}" for n in (2, 4, 6, 8, 10, 12)]
    assert check_records(out).ok


def test_a_log_that_converts_whole_exits_0(tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    assert main(["convert", "--from", "jasskit", str(SAMPLE), "-o", str(out)]) == 0
    assert (f"6 of 6 lines converted to {out}, 0 skipped; 0 plays the rules forbid, 0 tricks the rules "
            f"give to another player") in capsys.readouterr().err
    assert check_records(out).summary() == "6 records, 0 disagree"


def test_swapped_trick_cards_name_the_trick_its_cards_and_both_winners(tmp_path, capsys):
    """The sample's third game: diamonds trump; in trick 1 jass-kit's player 1 (our 3) leads D7 and
    its player 0 (our 0) wins with the Nell D9, the highest trump but the Puur. With the two cards
    swapped the leader plays the Nell, so by the rules he wins trick 1; the log still says player
    0 wins it and leads trick 2 (every card follows suit: the plays stay legal)."""
    lines = SAMPLE.read_text().splitlines()
    entry = json.loads(lines[2])
    assert entry["game"]["trump"] == 0 and entry["game"]["tricks"][0]["cards"] == ["D7", "D9", "D6", "DA"]
    entry["game"]["tricks"][0]["cards"][:2] = ["D9", "D7"]
    path = tmp_path / "swapped.txt"
    path.write_text(lines[0] + "\n" + json.dumps(entry) + "\n")
    out = tmp_path / "o.jsonl"
    assert main(["convert", "--from", "jasskit", str(path), "-o", str(out)]) == 0      # kept as logged
    err = capsys.readouterr().err
    assert (f"{path}: line 2, trick 1: D9 D7 D6 DA led by player 3 (its player 1); the log says player 0 "
            f"(its player 0) wins it and leads trick 2, the rules give it to player 3 (its player 1)") in err
    assert ("2 of 2 lines converted to " in err and "0 plays the rules forbid, 1 tricks the rules give to "
            "another player" in err)
    report = check_records(out)
    assert [(f.line, f.trick) for f in report.findings] == [(2, 1), (2, 2)]
    assert report.findings[0].text == "winner: record says player 0, engine computes player 3"
    assert report.findings[1].text.startswith("play out of turn: leader: record says player 0, engine "
                                              "computes player 3")


# the output file
def _convert(*args: str) -> int:
    return main(["convert", "--from", "jasskit", *args])


@pytest.mark.parametrize("spelling", ["same", "dotted", "relative", "symlink", "hardlink", "stdin"])
def test_the_log_itself_is_never_the_output(tmp_path, capsys, monkeypatch, spelling):
    log = tmp_path / "arena.txt"
    log.write_bytes(SAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    source, out = str(log), {"same": str(log), "dotted": f"{tmp_path}/./sub/../arena.txt",
                             "relative": "arena.txt", "symlink": str(tmp_path / "link.jsonl"),
                             "hardlink": str(tmp_path / "hard.jsonl"), "stdin": str(log)}[spelling]
    if spelling == "symlink":
        os.symlink(log, out)
    if spelling == "hardlink":
        os.link(log, out)
    for extra in ([], ["--overwrite"]):
        with open(log) as stdin:
            if spelling == "stdin":               # convert - -o arena.txt < arena.txt
                source = "-"
                monkeypatch.setattr("sys.stdin", stdin)
            assert _convert(source, "-o", out, *extra) == 2
        assert "is the log being converted" in capsys.readouterr().err
        assert log.read_bytes() == SAMPLE.read_bytes()


def test_an_existing_output_is_replaced_only_with_overwrite(tmp_path, capsys):
    out = tmp_path / "records.jsonl"
    out.write_text("earlier records\n")
    assert _convert(str(SAMPLE), "-o", str(out)) == 2
    assert f"{out} exists; pass --overwrite to replace it" in capsys.readouterr().err
    assert out.read_text() == "earlier records\n"
    assert _convert(str(SAMPLE), "-o", str(out), "--overwrite") == 0
    assert check_records(out).summary() == "6 records, 0 disagree"
    assert _convert(str(SAMPLE), "-o", str(tmp_path)) == 2
    assert "is a folder" in capsys.readouterr().err


def test_a_failed_write_leaves_no_half_written_output(tmp_path, capsys, monkeypatch):
    import jass_env.records.format as record_format
    out = tmp_path / "records.jsonl"
    out.write_text("earlier records\n")
    real_line, written = record_format.record_line, []

    def record_line(record):
        if len(written) == 3:
            raise OSError(28, "No space left on device")
        written.append(record)
        return real_line(record)
    monkeypatch.setattr(record_format, "record_line", record_line)
    assert _convert(str(SAMPLE), "-o", str(out), "--overwrite") == 2
    assert "cannot write" in capsys.readouterr().err
    assert out.read_text() == "earlier records\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]
    assert _convert(str(SAMPLE), "-o", str(tmp_path / "no-such-folder" / "r.jsonl")) == 2
    assert "cannot write" in capsys.readouterr().err and not (tmp_path / "no-such-folder").exists()


def test_a_missing_file_or_unknown_tool_is_a_usage_error(tmp_path, capsys):
    assert main(["convert", "--from", "jasskit", str(tmp_path / "none.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["convert", "--from", "pyjass", "x"]) == 2
