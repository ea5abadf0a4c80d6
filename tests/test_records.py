"""Game records (docs/records.md, jass_env/records/): writing, checking and the command line.

Records written by the engine must check clean under every preset; every kind of disagreement
(illegal play, ``legal`` set, trick winner and points, Weis, Stöck, points, Match, score) is
reported once, at its trick and position; malformed input gets a message naming the record and its
line, and checking goes on with the next record.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jass_env import SCHIEBER_PRESETS, Match, Round, make_rules
from jass_env.records import (
    FORMAT,
    CheckReport,
    Finding,
    check_records,
    main,
    record_line,
    record_of,
    write_records,
)

FIXTURE = Path(__file__).parent / "data" / "records" / "jasskit_issue10.jsonl"
REPO = Path(__file__).resolve().parents[1]


# helpers
def random_round(rules: Any = "schieber", seed: int = 0, *, push: bool = False,
                 contract: str | None = None) -> Round:
    """A round played to the end with seeded random legal actions (forehand pushes if ``push``)."""
    r = Round(rules, seed=seed)
    rng = random.Random(seed)
    if push:
        r.step("push")
    if contract is not None:
        r.step(contract)
    while not r.is_over:
        r.step(int(rng.choice(list(r.legal_actions()))))
    return r


def check(*records: dict[str, Any] | str, rules: str | None = None) -> CheckReport:
    """Check records given as dicts (written as JSON) or as raw lines."""
    return check_records([r if isinstance(r, str) else record_line(r) for r in records], rules=rules)


def texts(report: CheckReport) -> list[str]:
    return [str(f) for f in report.findings]


@pytest.fixture(scope="module")
def clean() -> list[dict[str, Any]]:
    """Schieber records with every optional field, pushed and not, each with an id."""
    return [record_of(random_round("schieber", s, push=s % 2 == 1), id=f"r{s}") for s in range(12)]


def first(records: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """A deep copy of the first record satisfying ``pred``."""
    for rec in records:
        if pred(rec):
            return copy.deepcopy(rec)
    raise AssertionError("no record in the sample has the property the test needs")


def plays(rec: dict[str, Any]) -> list[tuple[int, int, list]]:
    """(trick, position, play) for every play, 1-based, in play order."""
    return [(t, i, p) for t, tr in enumerate(rec["tricks"], 1) for i, p in enumerate(tr["plays"], 1)]


# writing
@pytest.mark.parametrize("preset", list(SCHIEBER_PRESETS))
def test_round_trip_every_preset(preset: str, tmp_path: Path) -> None:
    rounds = [random_round(preset, seed, push=seed % 2 == 0) for seed in range(8)]
    records = [record_of(r, id=i) for i, r in enumerate(rounds)]
    path = tmp_path / "records.jsonl"
    assert write_records(path, records[:5]) == 5
    assert write_records(path, records[5:], append=True) == 3
    report = check_records(path)
    assert texts(report) == []
    assert (report.records, report.disagreeing, report.ok) == (8, 0, True)
    assert report.summary() == "8 records, 0 disagree"
    for r, rec in zip(rounds, records, strict=True):
        assert rec["format"] == FORMAT and rec["rules"] == preset and "rule_overrides" not in rec
        assert rec["pushed"] == r.pushed and rec["declarer"] == r.declarer
        assert [sorted(h) for h in rec["hands"]] == [sorted(r.dealt_hand(p)) for p in range(4)]
        assert rec["score"] == r.score and rec["points"] == r.points and sum(rec["points"]) == 157
        assert rec["weis"] == r.weis() and rec["match_team"] == r.match_team
        assert len(rec["tricks"]) == 9 and rec["tricks"][0]["leader"] == r.forehand
        for _, _, (_player, card, legal) in plays(rec):
            assert card in legal
    assert any(rec["pushed"] for rec in records)


def test_round_trip_with_rule_overrides_and_declarer_lead() -> None:
    rules = make_rules("schieber_2500", leader_after_push="declarer", stoeck=50)
    records = [record_of(random_round(rules, seed, push=True)) for seed in range(4)]
    for rec in records:
        assert rec["rules"] == "schieber_2500"
        assert rec["rule_overrides"] == {"leader_after_push": "declarer", "stoeck": 50}
        assert rec["tricks"][0]["leader"] == rec["declarer"] == (rec["forehand"] + 2) % 4
        assert "id" not in rec
    assert texts(check(*records)) == []
    # without the override the first trick is led by the wrong player
    plain = copy.deepcopy(records[0])
    del plain["rule_overrides"]
    assert "trick 1 is led by player" in texts(check(plain))[0]


def test_round_trip_of_match_rounds() -> None:
    m = Match("schieber", seed=3)
    rng = random.Random(3)
    while not m.is_over:
        m.step(int(rng.choice(list(m.legal_actions()))))
    full = [r for r in m.finished_rounds if r.trick_number == 9]
    assert len(full) >= 3
    assert texts(check(*(record_of(r, id=k) for k, r in enumerate(full)))) == []
    for r in m.finished_rounds:                       # a round cut short by the match's end
        if r.trick_number < 9:
            with pytest.raises(ValueError, match="match was decided"):
                record_of(r)


def test_record_of_refuses_an_unfinished_round() -> None:
    r = Round(seed=5)
    with pytest.raises(ValueError, match="finished round"):
        record_of(r)
    r.step("H")
    r.step(int(r.legal_actions()[0]))
    with pytest.raises(ValueError, match="after 0 tricks"):
        record_of(r)


def test_record_is_one_json_line() -> None:
    rec = record_of(random_round(seed=1), id={"game": 1, "name": "Jöri"})
    line = record_line(rec)
    assert "\n" not in line and json.loads(line) == rec and "Jöri" in line


# disagreements
def test_illegal_play_reported_at_its_trick_and_position(clean: list[dict[str, Any]]) -> None:
    """Swap a played card with an illegal card the same player plays later."""
    for rec in clean:
        seq = plays(rec)
        for k, (t, i, (player, card, legal)) in enumerate(seq):
            later = [(k2, p) for k2, (_, _, p) in enumerate(seq) if k2 > k and p[0] == player
                     and p[1] not in legal]
            if later:
                bad = copy.deepcopy(rec)
                k2, p2 = later[0]
                bad_seq = plays(bad)
                bad_seq[k][2][1], bad_seq[k2][2][1] = p2[1], card
                report = check(bad)
                assert report.disagreeing == 1
                assert len(report.findings) == 1, texts(report)
                f = report.findings[0]
                assert (f.line, f.record_id, f.trick, f.position) == (1, json.dumps(rec["id"]), t, i)
                assert f"illegal play: record says player {player} plays {p2[1]}" in str(f)
                assert str(f).startswith(f'record "{rec["id"]}" (line 1), trick {t}, position {i}: ')
                return
    raise AssertionError("no play with an illegal alternative in the sample")


def test_jasskit_issue10_under_trump_is_reported() -> None:
    """docs/rules.md "Legal moves" / jass-kit issue #10: clubs led, diamonds trump, the trick holds
    C6, D10, DJ; the 4th player holds DA, D9, D6, S10 and under-trumps with D9 (jass-kit allows
    DA, D9, S10)."""
    report = check_records(FIXTURE)
    assert (report.records, report.disagreeing) == (2, 1)
    assert {(f.line, f.record_id, f.trick, f.position) for f in report.findings} == {
        (2, '"issue10-jasskit"', 6, 4)}
    lines = texts(report)
    assert any("illegal play: record says player 0 plays D9, engine computes legal [S10]" in t for t in lines)
    assert any("legal: record says [DA, D9, S10], engine computes [S10]" in t for t in lines)


def test_obenabe_relabelled_undenufe_breaks_the_turn_order(clean: list[dict[str, Any]]) -> None:
    """Following suit is the same in both, so only the winners differ: the engine reports the first
    wrong winner, then the next trick's leader, and stops."""
    rec = record_of(random_round("schieber", 11, contract="obenabe"), id="o")
    rec["contract"] = "undenufe"
    for key in ("weis", "stoeck", "points", "match_team", "score"):
        del rec[key]
    findings = check(rec).findings
    wrong = findings[0].trick
    assert "winner: record says" in findings[0].text
    last = findings[-1]
    assert last.trick == wrong + 1 and last.text.startswith("play out of turn: leader: record says player")
    assert all(f.trick in (wrong, wrong + 1) for f in findings)


@pytest.mark.parametrize("field, expect", [
    ("legal", "legal: record says"),
    ("winner", "winner: record says player"),
    ("trick points", "points: record says"),
    ("weis", "weis: record says"),
    ("weis points", "weis: record says"),
    ("stoeck", "stoeck: record says"),
    ("points", "points: record says"),
    ("match_team", "match_team: record says"),
    ("score", "score: record says"),
])
def test_each_wrong_field_is_reported_once(clean: list[dict[str, Any]], field: str, expect: str) -> None:
    where: tuple[int | None, int | None] = (None, None)
    if field == "legal":
        rec = first(clean, lambda r: True)
        t, i, play = next((t, i, p) for t, i, p in plays(rec) if len(p[2]) >= 3)
        play[2] = play[2][:-1] if play[2][-1] != play[1] else play[2][1:]     # drop a legal card
        where = (t, i)
    elif field == "winner":
        rec = first(clean, lambda r: True)
        rec["tricks"][2]["winner"] = (rec["tricks"][2]["winner"] + 1) % 4
        where = (3, None)
    elif field == "trick points":
        rec = first(clean, lambda r: True)
        rec["tricks"][8]["points"] += 1
        where = (9, None)
    elif field == "weis":
        rec = first(clean, lambda r: True)
        rec["weis"].append({"player": 2, "cards": ["D6", "D7", "D8"], "points": 20})
    elif field == "weis points":
        rec = first(clean, lambda r: bool(r["weis"]))
        rec["weis"][0]["points"] += 30
    elif field == "stoeck":
        rec = first(clean, lambda r: True)
        rec["stoeck"] = None if rec["stoeck"] is not None else 2
    elif field == "points":
        rec = first(clean, lambda r: r["points"][0] != r["points"][1])
        rec["points"] = rec["points"][::-1]
    elif field == "match_team":
        rec = first(clean, lambda r: True)
        rec["match_team"] = 0 if rec["match_team"] != 0 else 1
    else:
        rec = first(clean, lambda r: True)
        rec["score"][1] += 10
    report = check(rec)
    assert len(report.findings) == 1, texts(report)
    f = report.findings[0]
    assert (f.trick, f.position) == where and not f.malformed
    assert f.text.startswith(expect) and ", engine computes " in f.text
    assert report.summary() == "1 records, 1 disagree"


def test_weis_compared_as_a_multiset(clean: list[dict[str, Any]]) -> None:
    rec = first(clean, lambda r: len(r["weis"]) >= 1)
    rec["weis"] = [{**w, "cards": list(reversed(w["cards"]))} for w in reversed(rec["weis"])]
    assert texts(check(rec)) == []
    rec["weis"].append(copy.deepcopy(rec["weis"][0]))                 # the same Weis twice
    assert "weis: record says" in texts(check(rec))[0]


def test_optional_fields_may_be_left_out(clean: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(clean[0])
    for key in ("format", "rules", "id", "weis", "stoeck", "points", "match_team", "score"):
        del rec[key]
    for _, _, play in plays(rec):
        del play[2]
    for trick in rec["tricks"]:
        del trick["winner"], trick["points"]
    assert texts(check(rec)) == []


# malformed input
def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation setting ``rec[a][b]...`` (path "a.b.0") to value; value ... = delete."""
    def apply(rec: dict[str, Any]) -> None:
        *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        obj: Any = rec
        for k in parents:
            obj = obj[k]
        if value is ...:
            del obj[last]
        else:
            obj[last] = value(rec) if callable(value) else value
    return apply


def _same_player_later(rec: dict[str, Any]) -> None:
    """The leader of trick 1 plays his trick-1 card again later."""
    seq = plays(rec)
    player, card = seq[0][2][0], seq[0][2][1]
    later = next(p for t, _, p in seq if t > 1 and p[0] == player)
    later[1] = card


def _foreign_card(rec: dict[str, Any]) -> None:
    player, card = rec["tricks"][0]["plays"][0][:2]
    rec["tricks"][0]["plays"][0][1] = rec["hands"][(player + 1) % 4][0]


def _out_of_turn(rec: dict[str, Any]) -> None:
    play = rec["tricks"][1]["plays"][1]
    play[0] = (play[0] + 1) % 4


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None] | str, str, tuple | None]] = [
    ("bad json", '{"id": "x", "dealer": 0,', "not valid JSON", (None, None)),
    ("duplicate key", '{"id": "k", "dealer": 0, "dealer": 1}', "duplicate key 'dealer'", (None, None)),
    ("not an object", "[1, 2, 3]", "a record is a JSON object", (None, None)),
    ("format", _set("format", "jass-record/2"), "unsupported format string \"jass-record/2\"", (None, None)),
    ("rules preset", _set("rules", "bogus"),
     "unknown rules preset 'bogus'; valid presets: schieber, schieber_2500, tournament, seed_nl, "
     "seed_vaud", (None, None)),
    ("rules type", _set("rules", 3), "rules must be a preset name", (None, None)),
    ("override value", _set("rule_overrides", {"stoeck": "x"}),
     "bad rule_overrides: bad value 'x' for rule switch 'stoeck'", (None, None)),
    ("override name", _set("rule_overrides", {"stock": 20}),
     "bad rule_overrides: unknown rule switch(es) 'stock'", (None, None)),
    ("override type", _set("rule_overrides", {"contracts": 5}),
     "bad rule_overrides: bad value 5 for rule switch 'contracts'; allowed: a non-empty list", (None, None)),
    ("missing field", _set("dealer", ...), "missing required field(s) dealer", (None, None)),
    ("missing fields", lambda r: (r.pop("hands"), r.pop("tricks")) and None,
     "missing required field(s) hands, tricks", (None, None)),
    ("wrong type", _set("dealer", "0"), "dealer must be a player number 0..3, got string \"0\"",
     (None, None)),
    ("player range", _set("dealer", 4), "dealer must be a player number 0..3, got integer 4", (None, None)),
    ("bool player", _set("declarer", True), "declarer must be a player number 0..3", (None, None)),
    ("forehand", _set("forehand", lambda r: (r["forehand"] + 1) % 4), "it must be the next player",
     (None, None)),
    ("pushed type", _set("pushed", 1), "pushed must be true or false", (None, None)),
    ("declarer", _set("pushed", lambda r: not r["pushed"]), "declarer is player", (None, None)),
    ("unknown card", _set("hands.0.3", "X9"), "hands[0]: string \"X9\" is not a card", (None, None)),
    ("lowercase card", _set("hands.2.0", "h9"), "hands[2]: string \"h9\" is not a card", (None, None)),
    ("duplicate card", _set("hands.1.1", lambda r: r["hands"][1][0]), "hands[1] lists", (None, None)),
    ("card in two hands", _set("hands.3.0", lambda r: r["hands"][0][0]), "is in hands[0] and hands[3]",
     (None, None)),
    ("hand size", _set("hands.0", lambda r: r["hands"][0][:8]), "hands[0] has 8 cards; each hand has 9",
     (None, None)),
    ("three hands", _set("hands", lambda r: r["hands"][:3]), "hands must be a list of 4 hands", (None, None)),
    ("unknown contract", _set("contract", "trumpf"),
     "unknown contract string \"trumpf\"; contracts: D, H, S, C, obenabe, undenufe", (None, None)),
    ("contract not allowed", lambda r: r.update(rules="seed_vaud", contract="obenabe"),
     "contract 'obenabe' is not allowed by rules 'seed_vaud'; allowed: D, H, S, C", (None, None)),
    ("8 tricks", _set("tricks", lambda r: r["tricks"][:8]), "tricks must be a list of 9 tricks, got 8",
     (None, None)),
    ("3 plays", _set("tricks.4.plays", lambda r: r["tricks"][4]["plays"][:3]),
     "plays must be a list of 4 plays", (5, None)),
    ("trick type", _set("tricks.2", 7), "a trick is an object", (3, None)),
    ("missing leader", _set("tricks.6.leader", ...), "missing required field 'leader'", (7, None)),
    ("play shape", _set("tricks.3.plays.2", "SJ"), "a play is [player, card]", (4, 3)),
    ("unknown play card", _set("tricks.1.plays.3.1", "H11"), "the card of a play: string \"H11\" is not",
     (2, 4)),
    ("legal card", _set("tricks.1.plays.0.2", ["HZ"]), "legal: string \"HZ\" is not a card", (2, 1)),
    ("out of turn", _out_of_turn, "play out of turn: player", (2, 2)),
    ("first leader", _set("tricks.0.leader", lambda r: (r["forehand"] + 1) % 4),
     "play out of turn: trick 1 is led by player", (1, None)),
    ("card not held", _foreign_card, "which is not in hands[", (1, 1)),
    ("card played twice", _same_player_later, "is played a second time (first at trick 1, position 1)",
     None),
    ("winner type", _set("tricks.0.winner", "north"), "winner must be a player number", (1, None)),
    ("weis type", _set("weis", "none"), "weis must be a list", (None, None)),
    ("weis entry", _set("weis", [{"player": 0, "cards": ["H6", "H7", "H8"]}]), "a Weis is an object",
     (None, None)),
    ("score type", _set("score", [1, 2, 3]), "score must be a list of 2 integers", (None, None)),
    ("match_team", _set("match_team", 2), "match_team must be a team 0 or 1", (None, None)),
]


@pytest.mark.parametrize("name, mutation, expect, where", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record_named_and_checking_goes_on(clean: list[dict[str, Any]], name: str,
                                                     mutation: Any, expect: str, where: tuple | None) -> None:
    good = record_line(clean[1])
    if isinstance(mutation, str):
        bad, label = mutation, None
    else:
        rec = copy.deepcopy(clean[0])
        rec["id"] = f"m-{name}"
        mutation(rec)
        bad, label = record_line(rec), f'"m-{name}"'
    report = check_records([good, "", bad, "   ", good])          # blank lines are skipped
    assert (report.records, report.disagreeing, report.unreadable) == (3, 1, 1)
    assert len(report.findings) == 1, texts(report)
    f = report.findings[0]
    assert f.line == 3 and f.malformed and f.record_id == label
    assert expect in f.text, f.text
    if where is not None:                                          # None: any trick and position
        assert (f.trick, f.position) == where
    prefix = f"record {label} (line 3)" if label else "record at line 3"
    assert str(f).startswith(prefix)


def test_undecodable_line_is_reported() -> None:
    report = check_records([b"\xff\xfe{}\n", record_line(record_of(random_round(seed=2))).encode()])
    assert (report.records, report.disagreeing) == (2, 1)
    assert texts(report) == [report.findings[0].__str__()]
    assert str(report.findings[0]).startswith("record at line 1: not UTF-8 text")


def _coiffeur_records() -> list[dict[str, Any]]:
    """The records of the first deals of a random Coiffeur game: from the second on, sheets_before
    holds the rows written before."""
    m = Match("coiffeur", seed=4)
    rng = random.Random(4)
    while len(m.finished_rounds) < 3:
        m.step(int(rng.choice(list(m.legal_actions()))))
    return [record_of(r, id=f"c{k}") for k, r in enumerate(m.finished_rounds)]


@pytest.mark.parametrize("value", [2**63, -2**63 - 1, 2**64 + 7, 10**30, 2**31])
def test_a_huge_sheet_value_is_that_records_finding(value: int) -> None:
    """docs/records.md: every number of a record lies within ±(2**31 - 1); a number beyond the
    engine's 64-bit integers once stopped the whole check with a traceback."""
    records = _coiffeur_records()
    bad = copy.deepcopy(records[2])
    team, sheet = next((t, s) for t, s in bad["sheets_before"].items() if s)
    row = next(iter(sheet))
    sheet[row] = value
    wrong_points = {**records[1], "points": [p + 1 for p in records[1]["points"]]}
    report = check(records[0], bad, wrong_points)
    assert (report.records, report.disagreeing, report.unreadable) == (3, 2, 1)
    huge, points = report.findings
    assert (huge.line, huge.record_id, huge.malformed) == (2, '"c2"', True)
    assert f'sheets_before["{team}"]["{row}"] is integer {value}'[:60] in huge.text
    assert "out of range" in huge.text and "2147483647" in huge.text
    assert (points.line, points.record_id) == (3, '"c1"') and points.text.startswith("points: record says")


def test_huge_numbers_anywhere_are_findings_with_their_trick(clean: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(clean[0])
    rec["tricks"][4]["plays"][2][0] = 2**70
    (f,) = check(rec, clean[1]).findings
    assert (f.line, f.trick, f.position, f.malformed) == (1, 5, 3, True)
    assert 'tricks[4]["plays"][2][0] is integer 1180591620717411303424, out of range' in f.text


def test_an_unforeseen_error_is_a_finding_of_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last-resort guard: whatever goes wrong while reading one record is that record's
    finding, naming where the checker was; the other records are still checked."""
    from jass_env.games import game_of
    records = _coiffeur_records()
    game_records = game_of("coiffeur").records
    real_parse = game_records.parse

    def parse(obj: dict[str, Any], *args: Any) -> Any:
        if obj["id"] == "c1":
            raise ArithmeticError("something the checker did not foresee")
        return real_parse(obj, *args)
    monkeypatch.setattr(game_records, "parse", parse)
    report = check(*records)
    assert (report.records, report.disagreeing, report.unreadable) == (3, 1, 1)
    (f,) = report.findings
    assert (f.line, f.record_id, f.malformed) == (2, '"c1"', True)
    assert f.text.startswith("internal error while checking the coiffeur deal and bidding fields (pushes, "
                             "declarer, row, contract, ...) (ArithmeticError: something the checker")


def test_write_records_leaves_the_old_file_when_writing_fails(clean: list[dict[str, Any]],
                                                              tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    write_records(path, clean[:2])
    before = path.read_text()
    with pytest.raises(TypeError):
        write_records(path, [clean[2], {"id": object()}])      # the second cannot be written as JSON
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]


def test_explicit_rules_replace_the_records_preset(clean: list[dict[str, Any]]) -> None:
    rec = copy.deepcopy(clean[0])
    rec["rules"] = "bogus"
    assert "unknown rules preset 'bogus'" in texts(check(rec))[0]
    assert texts(check(rec, rules="schieber")) == []
    # a tournament record checked under the schieber preset: scores differ where Weis/Stöck count
    t_recs = [record_of(random_round("tournament", s)) for s in range(6)]
    report = check(*t_recs, rules="schieber")
    s_recs = [record_of(random_round("schieber", s)) for s in range(6)]
    expect = sum(a["score"] != b["score"] for a, b in zip(t_recs, s_recs, strict=True))
    assert report.disagreeing == expect > 0


# command line
def test_main_exit_codes_and_summary(clean: list[dict[str, Any]], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.jsonl"
    write_records(good, clean[:3])
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out.splitlines() == ["3 records, 0 disagree"]

    bad = tmp_path / "bad.jsonl"
    wrong_score = record_line({**clean[1], "score": [0, 0]})
    bad.write_text(record_line(clean[0]) + "\n\nnot json\n" + wrong_score + "\n")
    assert main(["check", str(bad), "--rules", "schieber"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 records, 2 disagree"
    assert out[0].startswith("record at line 3: not valid JSON")
    assert out[1].startswith('record "r1" (line 4): score: record says [0, 0], engine computes')

    assert main(["check", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["check", str(good), "--rules", "bogus"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main([]) == 2
    assert main(["--help"]) == 0


def test_cli_as_a_module() -> None:
    proc = subprocess.run([sys.executable, "-m", "jass_env.records", "check", str(FIXTURE)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "2 records, 1 disagree"
    assert len(lines) == 3 and all('record "issue10-jasskit" (line 2), trick 6, position 4: ' in x
                                   for x in lines[:2])
    assert "Traceback" not in proc.stderr



def test_cli_stops_quietly_when_its_reader_stops(tmp_path: Path) -> None:
    many = tmp_path / "many.jsonl"
    many.write_text("not json\n" * 20000)           # 20000 finding lines, far more than a pipe holds
    proc = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m jass_env.records "
                           f"check {many} | head -n 2"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and all(x.startswith("record at line ") for x in lines)
    assert proc.stderr == ""                          # no BrokenPipeError traceback
    assert proc.returncode == 1                       # the records still disagree

def test_finding_formats_without_id() -> None:
    assert str(Finding(4, None, "x: record says 1, engine computes 2", 2, 3)) == (
        "record at line 4, trick 2, position 3: x: record says 1, engine computes 2")
