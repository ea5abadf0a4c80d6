"""Human play in the terminal (agents.play), driven through its input stream."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.play import DEFAULT_RECORD_DIR, Session, Terminal, interpret, main, options_line
from agents.table import encode, observation
from jass_env.engine.cards import card_id
from jass_env.engine.spec import TEAMS_NONE
from jass_env.envs.encoding import obs_dim
from jass_env.games import PRESETS, make_rules
from jass_env.records import check_records
from jass_env.round import Round

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
    assert ("Your contract: 1 choose D  2 choose H  3 choose S  4 choose C  5 choose obenabe  "
            "6 choose undenufe  7 push") in out
    assert "You choose obenabe" in out
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
    spec = make_rules("schieber").spec
    hand = sum(1 << card_id(c) for c in ("H9", "HJ", "SA", "D6"))
    options = [card_id("HJ"), card_id("H9")]
    assert interpret("hJ", options, hand, spec) == (card_id("HJ"), "")
    assert interpret("♥9", options, hand, spec) == (card_id("H9"), "")
    assert interpret("2", options, hand, spec) == (options[1], "")
    action, hint = interpret("SA", options, hand, spec)
    assert action is None and "♠A may not be played now" in hint and "legal: ♥J ♥9" in hint
    action, hint = interpret("C6", options, hand, spec)
    assert action is None and "You do not hold ♣6" in hint
    action, hint = interpret("push", options, hand, spec)
    assert action is None and "push is not an option now; play a card" in hint
    names = spec.action_names
    contracts = [names.index(f"choose {c}") for c in ("D", "H", "S", "C", "obenabe", "undenufe")]
    push = names.index("push")
    choice = [*contracts, push]
    assert interpret("h", choice, hand, spec) == (names.index("choose H"), "")     # without "choose"
    assert interpret("♥", choice, hand, spec) == (names.index("choose H"), "")
    assert interpret("Obenabe", choice, hand, spec) == (names.index("choose obenabe"), "")
    assert interpret("unde", choice, hand, spec) == (names.index("choose undenufe"), "")  # a beginning
    assert interpret("push", choice, hand, spec) == (push, "")
    action, hint = interpret("push", contracts, hand, spec)        # pushed to us: no push
    assert action is None and "push is not an option now" in hint
    action, hint = interpret("H9", choice, hand, spec)
    assert action is None and "Cards are played after the contract" in hint
    assert options_line(options, spec) == "Your cards to play: 1 ♥J  2 ♥9"


def test_interpret_reads_every_games_own_action_names() -> None:
    """Each game's phase actions by their names: a prediction, a Coiffeur row, Sidi's exchange."""
    diff = make_rules("differenzler").spec
    predictions = [diff.action_names.index(f"predict {k}") for k in range(158)]
    assert interpret("predict 40", predictions, 0, diff) == (diff.action_names.index("predict 40"), "")
    assert interpret("1", predictions, 0, diff) == (diff.action_names.index("predict 0"), "")
    action, hint = interpret("p", predictions, 0, diff)
    assert action is None and "could be any of: predict 0 … predict 157" in hint
    assert options_line(predictions, diff) == "Your prediction: 1 predict 0 … 158 predict 157"

    coiffeur = make_rules("coiffeur10").spec
    rows = [a for a, n in enumerate(coiffeur.action_names) if n.startswith("declare") or n == "push"]
    joker = coiffeur.action_names.index("declare Joker-2 as S")
    assert interpret("Joker-2 as S", rows, 0, coiffeur) == (joker, "")
    action, hint = interpret("slalom", rows, 0, coiffeur)          # from obenabe or from undenufe
    assert action is None and "declare Slalom from obenabe, declare Slalom from undenufe" in hint
    line = options_line(rows, coiffeur)                 # every row named in full, wrapped between them
    assert "…" not in line and all(len(part) <= 110 for part in line.splitlines())
    assert all(f"{i} {coiffeur.action_names[a]}" in line for i, a in enumerate(rows, 1))
    slalom_up = coiffeur.action_names.index("declare Slalom from obenabe")
    assert interpret("slalom", [slalom_up], 0, coiffeur) == (slalom_up, "")   # the one legal one

    sidi = make_rules("sidi").spec
    exchange = sidi.action_names.index("exchange trump 6")
    hand = sum(1 << card_id(c) for c in ("H6", "SA"))
    cards = [card_id("H6"), card_id("SA")]
    assert interpret("exchange", [*cards, exchange], hand, sidi) == (exchange, "")
    assert options_line([*cards, exchange], sidi) == "Your options: 1 ♥6  2 ♠A  3 exchange trump 6"
    action, hint = interpret("exchange", cards, hand, sidi)
    assert action is None and "exchange trump 6 is not an option now; play a card" in hint


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



# every preset of the registry
def _bots(rules_name: str) -> list[str]:
    """Random agents in every other seat (--partner only where the game has partners)."""
    teams = PRESETS[rules_name].spec.teams != TEAMS_NONE
    return [*(["--partner", "random"] if teams else []), "--opponents", "random"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_plays_a_round_in_the_terminal(name, tmp_path) -> None:
    """Answering 1 to every question plays the round through; the seats, sides and scores are
    the game's own, and the record checks clean."""
    spec = PRESETS[name].spec
    seat = spec.players - 1                               # the last seat: 5 in a game for six
    rec = tmp_path / "r.jsonl"
    rc, out = _run([*_bots(name), "--rules", name, "--seat", str(seat), "--seed", "4", "--record", str(rec)],
                   "1\n" * 80)
    assert rc == 0, out
    report = check_records(rec)
    assert report.ok and report.records == 1, report.lines()
    (record,) = _records(rec)
    assert record["rules"] == name and len(record["tricks"]) == spec.tricks
    assert re.findall(r"^  player_(\d)\b", out, re.M) == [str(p) for p in range(spec.players)]
    assert f"player_{seat} (you)" in out
    assert out.count(" -> won by player_") == spec.tricks
    over = next(line for line in out.splitlines() if line.startswith("Round 1 over: "))
    if spec.teams == TEAMS_NONE:
        assert f"{spec.players} players, each alone" in out
        assert "partner" not in out and "your team" not in out and "(team " not in out
        assert over.startswith(f"Round 1 over: you (player_{seat}) ")
        assert all(f"player_{p} " in over for p in range(spec.players) if p != seat)
    else:
        teams = [" & ".join(str(p) for p in range(spec.players) if p % 2 == t) for t in (0, 1)]
        assert f"{spec.players} players, 2 teams: {teams[0]} against {teams[1]}" in out
        assert f"player_{(seat + 2) % spec.players} (partner)" in out and "player_0 (partner)" not in out
        assert over.startswith(f"Round 1 over: your team (team {seat % 2}) ")
        assert f"the opponents (team {1 - seat % 2}) " in over


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_encoders_buffer_is_sized_by_the_game(name) -> None:
    """The observation handed to an agent has the game's width and its action mask the game's
    actions, in every seat (a fixed four-player Schieber buffer overflows in a game for five)."""
    rules = PRESETS[name]
    rnd = Round(rules, seed=1)
    obs = observation(rnd)
    assert obs["observation"].shape == (obs_dim(rules),) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (rules.spec.n_actions,)
    assert np.flatnonzero(obs["action_mask"]).tolist() == rnd.legal_actions().tolist()
    for p in range(rules.spec.players):
        assert encode(rnd, p).shape == (obs_dim(rules),)


def test_seats_and_partners_follow_the_game(tmp_path, capsys) -> None:
    rec = str(tmp_path / "x.jsonl")
    rc, _ = _run(["--rules", "mittlere", "--seat", "3", "--opponents", "random", "--record", rec], "")
    err = capsys.readouterr().err
    assert rc == 2 and "--seat 3: mittlere is played by 3 players; choose a seat 0..2" in err
    rc, _ = _run(["--rules", "molotow", "--partner", "random", "--record", rec], "")
    err = capsys.readouterr().err
    assert rc == 2 and "there is no partner" in err and "--opponents" in err
    # Schieber for six: seat 5 exists, and both other seats of its team are partners
    rc, out = _run(["--rules", "schieber6", "--seat", "5", *BOTS, "--seed", "2", "--record", rec], "q\n")
    assert rc == 0 and "player_1 (partner)" in out and "player_3 (partner)" in out
    assert "player_2 (partner)" not in out


def test_hidden_predictions_stay_hidden_open_ones_are_shown() -> None:
    """Differenzler's hidden predictions are not shown to the other seats as they are made; open
    ones are (the observation of the seat decides); a Schieber contract is public."""
    for switch, hidden in (("hidden", True), ("open", False)):
        rules = make_rules("differenzler", predictions=switch)
        rnd = Round(rules, seed=3)
        me = (rnd.to_move + 1) % rules.spec.players
        session = Session(rules, me, {}, 3, Terminal(io.StringIO(), io.StringIO()))
        assert session.hidden_from_me(rnd, rules.spec.action_names.index("predict 40")) is hidden
    rules = make_rules("schieber")
    rnd = Round(rules, seed=3)
    session = Session(rules, (rnd.to_move + 1) % 4, {}, 3, Terminal(io.StringIO(), io.StringIO()))
    assert not session.hidden_from_me(rnd, rules.spec.action_names.index("choose H"))


def test_a_bots_hidden_prediction_is_printed_as_hidden(tmp_path) -> None:
    rc, out = _run(["--rules", "differenzler", "--opponents", "random", "--seed", "3",
                    "--record", str(tmp_path / "d.jsonl")], "predict 40\n" + "1\n" * 40)
    assert rc == 0
    assert out.count("(opponent) predicts (hidden from you)") == 3 and "You predict 40" in out
    assert _records(tmp_path / "d.jsonl")[0]["predictions"][0] == 40


def test_an_existing_record_file_is_appended_to_unless_overwritten(tmp_path) -> None:
    rec = tmp_path / "games.jsonl"
    args = [*BOTS, "--seed", "3", "--record", str(rec)]
    assert _run(args, "1\n" * 40)[0] == 0
    rc, out = _run(args, "1\n" * 40)
    assert rc == 0 and "exists (1 records): this game's rounds will be appended" in out
    assert f"Appended 1 round record(s) to {rec}, after its 1 earlier one(s)" in out
    report = check_records(rec)
    assert report.ok and report.records == 2
    rec.write_text(rec.read_text(encoding="utf-8").rstrip("\n"), encoding="utf-8")   # no last newline
    assert _run(args, "1\n" * 40)[0] == 0
    report = check_records(rec)
    assert report.ok and report.records == 3
    rc, out = _run([*args, "--overwrite"], "1\n" * 40)
    assert rc == 0 and "it will be replaced (--overwrite)" in out
    assert f"Wrote 1 round record(s) to {rec}" in out
    report = check_records(rec)
    assert report.ok and report.records == 1


def test_a_whole_match_of_a_game_played_alone(tmp_path) -> None:
    rec = tmp_path / "m.jsonl"
    rc, out = _run(["--rules", "molotow3", "--opponents", "random", "--seed", "5", "--match",
                    "--record", str(rec)], "1\n" * 200)
    rules = PRESETS["molotow3"]
    assert rc == 0 and f"Molotow for three (molotow3, match of {rules.match_rounds} rounds)" in out
    last = out.splitlines()[-2]
    assert re.fullmatch(rf"Match over after {rules.match_rounds} rounds: you \(player_0\) -?\d+, "
                        r"player_1 -?\d+, player_2 -?\d+ \(lower is better\): (you win|player_[12] wins)",
                        last), last
    report = check_records(rec)
    assert report.ok and report.records == rules.match_rounds
