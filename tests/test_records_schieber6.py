"""Records of Schieber for six (docs/records.md): the Schieber fields of a record with 6 hands of 6
cards and 6 tricks of 6 plays, written by the engine and checked by replay; ``declarer`` after a
push is forehand + 2; ``points`` and ``score`` per team ({0, 2, 4}, {1, 3, 5}).
"""

from __future__ import annotations

import pytest

from jass_env import Round, make_rules
from jass_env.records import check_records, record_line, record_of, write_records

GAME = "schieber6"


def played(seed: int, rules=GAME) -> Round:
    """A round of random legal actions (a push in about one round of seven)."""
    r = Round(rules, seed=seed)
    while not r.is_over:
        legal = r.legal_actions()
        r.step(int(legal[seed % len(legal)]))
    return r


def test_records_written_by_the_engine_have_six_hands_six_tricks_and_check_clean(tmp_path) -> None:
    records = [record_of(played(seed), id=seed) for seed in range(14)]
    assert any(rec["pushed"] for rec in records) and not all(rec["pushed"] for rec in records)
    for rec in records:
        assert rec["rules"] == GAME and "rule_overrides" not in rec
        assert len(rec["hands"]) == 6 and all(len(h) == 6 for h in rec["hands"])
        assert len(rec["tricks"]) == 6 and all(len(t["plays"]) == 6 for t in rec["tricks"])
        assert rec["forehand"] == (rec["dealer"] + 1) % 6
        assert rec["declarer"] == ((rec["forehand"] + 2) % 6 if rec["pushed"] else rec["forehand"])
        assert sum(rec["points"]) == 157 and len(rec["score"]) == 2
        for t in rec["tricks"]:
            assert [p for p, *_ in t["plays"]] == [(t["leader"] + i) % 6 for i in range(6)]
    path = tmp_path / "s6.jsonl"
    write_records(path, records)
    report = check_records(path)
    assert report.ok and report.summary() == "14 records, 0 disagree"


def test_switches_travel_as_rule_overrides() -> None:
    rec = record_of(played(2, make_rules(GAME, multipliers={"S": 3}, undertrump_rule="allowed")))
    assert rec["rules"] == GAME
    assert rec["rule_overrides"] == {"multipliers": {"D": 1, "H": 1, "S": 3, "C": 1, "obenabe": 1,
                                                     "undenufe": 1}, "undertrump_rule": "allowed"}
    assert check_records([record_line(rec)]).ok


def test_a_declarer_that_is_not_forehands_team_mate_is_refused() -> None:
    for seed in range(50):
        rec = record_of(played(seed))
        if rec["pushed"]:
            break
    rec["declarer"] = (rec["forehand"] + 4) % 6                   # a team-mate, but not the next one
    lines = check_records([record_line(rec)]).lines()
    assert f"it must be player {(rec['forehand'] + 2) % 6}" in lines[0]


@pytest.mark.parametrize("field", ["score", "points", "weis", "match_team"])
def test_the_checker_reports_each_wrong_team_field(field: str) -> None:
    for seed in range(100):
        rec = record_of(played(seed))
        if rec["weis"]:
            break
    if field in ("score", "points"):
        rec[field][1] += 1
    elif field == "weis":
        rec["weis"] = rec["weis"][1:] if len(rec["weis"]) > 1 else []
    else:
        rec["match_team"] = 0 if rec["match_team"] is None else None
    lines = check_records([record_line(rec)]).lines()
    assert any(f"{field}:" in line for line in lines), lines
    assert lines[-1] == "1 records, 1 disagree"


def test_five_plays_in_a_trick_are_malformed() -> None:
    rec = record_of(played(1))
    rec["tricks"][2]["plays"] = rec["tricks"][2]["plays"][:5]
    assert "plays must be a list of 6 plays" in check_records([record_line(rec)]).lines()[0]
