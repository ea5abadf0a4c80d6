"""Human play in the terminal (agents.play), driven through its input stream."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from agents.play import DEFAULT_RECORD_DIR, interpret, main, options_line
from jass_env.engine.cards import card_id
from jass_env.records import check_records

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["--partner", "random", "--opponents", "random"]


def _run(args: list[str], answers) -> tuple[int, str]:
    out = io.StringIO()
    stdin = io.StringIO(answers) if isinstance(answers, str) else answers
    rc = main(args, stdin=stdin, stdout=out)
    return rc, out.getvalue()


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_round_is_played_shown_and_recorded(tmp_path) -> None:
    rec = tmp_path / "game.jsonl"
    rc, out = _run([*BOTS, "--seed", "3", "--seat", "1", "--record", str(rec)], "1\n" * 40)
    assert rc == 0, out
    # the table from the human's seat: own hand, the others hidden, numbered legal cards
    assert re.search(r"player_1 \(you\) \(team 1\) : [♦♥♠♣]", out)
    assert re.search(r"player_0 \(team 0\) : \d cards \(hidden\)", out)
    assert re.search(r"player_3 \(partner\) \(team 1\) : \d cards \(hidden\)", out)
    assert "Your cards to play: 1 " in out and "Contract: " in out and "Card points: team 0" in out
    for t in range(1, 10):                               # each trick's winner is announced
        assert f"Trick {t}: " in out
    assert out.count(" -> won by player_") == 9
    assert "Round 1 over: your team (team 1)" in out and f"Wrote 1 round record(s) to {rec}" in out
    report = check_records(rec)
    assert report.ok and report.records == 1, report.lines()
    (r,) = _records(rec)
    assert len(r["tricks"]) == 9 and r["id"] == "play-seed3-round1"


def test_contract_choice_is_numbered_and_accepts_names(tmp_path) -> None:
    # seat 0 with dealer chosen so that we are forehand: find a seed where we choose the contract
    for seed in range(40):
        rc, out = _run([*BOTS, "--seed", str(seed), "--record", str(tmp_path / f"{seed}.jsonl")],
                       "obenabe\n" + "1\n" * 40)
        if "7 push" in out:
            break
    else:
        raise AssertionError("no seed made player 0 choose the contract")
    assert rc == 0
    assert ("Choose the contract: 1 ♦ trump  2 ♥ trump  3 ♠ trump  4 ♣ trump  5 Obenabe  6 Undenufe  "
            "7 push") in out
    assert "You choose Obenabe" in out
    assert _records(tmp_path / f"{seed}.jsonl")[0]["contract"] == "obenabe"


def test_wrong_input_gets_a_hint_and_the_question_again(tmp_path) -> None:
    rec = tmp_path / "g.jsonl"
    rc, out = _run([*BOTS, "--seed", "3", "--record", str(rec)], "abc\n99\n0\n\n?\n" + "1\n" * 40)
    assert rc == 0
    assert "Not understood: 'abc'" in out
    assert "99 is out of range: choose a number from 1 to" in out
    assert "0 is out of range" in out and "Please answer" in out and "How to answer" in out
    first_options = out.split("Your cards to play:")[1].splitlines()[0]
    # asked again after each of the 5 wrong/help answers: the same options line 6 times in a row
    assert out.count("Your cards to play:" + first_options) >= 6
    assert check_records(rec).ok


def test_interpret_cards_contracts_and_illegal_choices() -> None:
    hand = sum(1 << card_id(c) for c in ("H9", "HJ", "SA", "D6"))
    options = [card_id("HJ"), card_id("H9")]
    assert interpret("hJ", options, hand, False) == (card_id("HJ"), "")
    assert interpret("♥9", options, hand, False) == (card_id("H9"), "")
    assert interpret("2", options, hand, False) == (options[1], "")
    action, hint = interpret("SA", options, hand, False)
    assert action is None and "♠A may not be played now" in hint and "legal: ♥J ♥9" in hint
    action, hint = interpret("C6", options, hand, False)
    assert action is None and "You do not hold ♣6" in hint
    action, hint = interpret("push", options, hand, False)
    assert action is None and "already chosen" in hint
    contracts = list(range(36, 43))
    assert interpret("h", contracts, hand, True) == (37, "")
    assert interpret("Obenabe", contracts, hand, True) == (40, "")
    assert interpret("push", contracts, hand, True) == (42, "")
    action, hint = interpret("push", contracts[:-1], hand, True)
    assert action is None and "cannot push" in hint
    action, hint = interpret("H9", contracts, hand, True)
    assert action is None and "First the contract is chosen" in hint
    assert options_line(options, False) == "Your cards to play: 1 ♥J  2 ♥9"


def test_quit_mid_round_exits_cleanly_without_a_record(tmp_path) -> None:
    rec = tmp_path / "q.jsonl"
    rc, out = _run([*BOTS, "--seed", "3", "--record", str(rec)], "1\nq\n")
    assert rc == 0 and "Game stopped (quit)." in out and "no record written" in out
    assert not rec.exists()
    rc, out = _run([*BOTS, "--seed", "3", "--record", str(rec)], "1\n")      # end of input
    assert rc == 0 and "Game stopped (end of input)." in out and not rec.exists()


class _UntilRoundOver(io.StringIO):
    """Answers 1 until the output shows round 1 finished, then q."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out

    def readline(self, *args) -> str:  # noqa: ANN002
        return "q\n" if "Round 1 over" in self.out.getvalue() else "1\n"


def test_quit_during_a_match_records_the_finished_rounds(tmp_path) -> None:
    rec = tmp_path / "m.jsonl"
    out = io.StringIO()
    rc = main([*BOTS, "--seed", "8", "--match", "--record", str(rec)], stdin=_UntilRoundOver(out), stdout=out)
    text = out.getvalue()
    assert rc == 0 and "=== Round 2:" in text and "Game stopped (quit)." in text
    report = check_records(rec)
    assert report.ok and report.records == 1


def test_a_whole_match(tmp_path) -> None:
    rec = tmp_path / "match.jsonl"
    rc, out = _run([*BOTS, "--seed", "11", "--match", "--seat", "2", "--record", str(rec)], "1\n" * 400)
    assert rc == 0 and "Match over after" in out and "Match: team 0" in out
    finished = out.count(" over: your team (team 0)")
    report = check_records(rec)
    assert report.ok and report.records == finished >= 2
    assert [r["id"] for r in _records(rec)][:2] == ["play-seed11-round1", "play-seed11-round2"]


def test_bad_arguments_are_reported(tmp_path, capsys) -> None:
    rc, _ = _run(["--opponents", "nosuchbot", "--record", str(tmp_path / "x.jsonl")], "")
    assert rc == 2 and "unknown agent 'nosuchbot'" in capsys.readouterr().err
    rc, _ = _run(["--rules", "nosuchrules", "--record", str(tmp_path / "x.jsonl")], "")
    assert rc == 2 and "nosuchrules" in capsys.readouterr().err
    rc, _ = _run(["--partner", str(tmp_path / "missing.pt")], "")
    assert rc == 2 and "does not exist" in capsys.readouterr().err


def test_module_entry_point_reads_standard_input(tmp_path) -> None:
    rec = tmp_path / "sub.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, "-m", "agents.play", *BOTS, "--seed", "5", "--record", str(rec)],
                          input="x\n" + "1\n" * 40, capture_output=True, text=True, encoding="utf-8",
                          cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Not understood: 'x'" in proc.stdout and "Wrote 1 round record(s)" in proc.stdout
    assert check_records(rec).ok


def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(tmp_path, capsys) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    rc, out = _run([*BOTS, "--seed", "3", "--record", str(blocker / "game.jsonl")], "1\n" * 40)
    err = capsys.readouterr().err
    assert rc == 2 and "notes.txt' is a file, not a folder" in err
    assert out == ""                                    # nothing was played
    assert blocker.read_text() == "a file, not a folder"


def test_record_into_a_folder_and_by_default_under_runs(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    rc, out = _run([*BOTS, "--seed", "3", "--record", str(folder)], "1\n" * 40)
    (rec,) = folder.iterdir()
    assert rc == 0 and re.fullmatch(r"jass_game_\d{8}_\d{6}\.jsonl", rec.name) and check_records(rec).ok
    new = tmp_path / "new" / "sub"                      # a folder that does not exist yet
    rc, out = _run([*BOTS, "--seed", "3", "--record", f"{new}/"], "1\n" * 40)
    assert rc == 0 and len(list(new.glob("jass_game_*.jsonl"))) == 1
    monkeypatch.chdir(tmp_path)                         # no --record: under runs/ (ignored by git)
    rc, out = _run([*BOTS, "--seed", "3"], "1\n" * 40)
    (rec,) = (tmp_path / DEFAULT_RECORD_DIR).glob("jass_game_*.jsonl")
    assert rc == 0 and DEFAULT_RECORD_DIR.parts[0] == "runs" and check_records(rec).ok
    assert f"Wrote 1 round record(s) to {DEFAULT_RECORD_DIR / rec.name}" in out
    assert "runs/" in (ROOT / ".gitignore").read_text().split()


def test_closed_standard_input_is_a_named_error(tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(["bash", "-c", f"{sys.executable} -m agents.play --partner random "
                           f"--opponents random --record {tmp_path}/x.jsonl 0<&-"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: standard input is closed") and "Traceback" not in proc.stderr
    closed = io.StringIO()
    closed.close()
    assert main([*BOTS, "--record", str(tmp_path / "y.jsonl")], stdin=closed, stdout=io.StringIO()) == 2

