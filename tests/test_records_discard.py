"""Records of Mittlere and Molotow (docs/records.md): written by the engine, checked by replay.

The fields come from the format: no ``pushed``/``declarer``/``contract``; ``trump`` (a suit or
null), ``trump_fixed`` ({"trick" from 1, "position" from 0} or null), ``points`` per player;
Mittlere ``result``, Molotow ``hand_weis``, ``table_weis``, ``stoeck``, ``score``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from jass_env import Round
from jass_env.records import check_records, record_line, record_of, write_records


def played(game: str, seed: int, hands=None, dealer=None) -> Round:
    r = Round(game, seed=seed) if hands is None else Round(game, hands=hands, dealer=dealer)
    while not r.is_over:
        legal = r.legal_actions()
        r.step(int(legal[seed % len(legal)]))
    return r


@pytest.mark.parametrize("game", ["mittlere", "molotow", "molotow3"])
def test_records_written_by_the_engine_check_clean(game: str, tmp_path) -> None:
    records = [record_of(played(game, seed), id=seed) for seed in range(12)]
    for rec in records:
        assert {"pushed", "declarer", "contract", "predictions"}.isdisjoint(rec)
        assert rec["rules"] == game and len(rec["tricks"]) == (9 if game == "molotow" else 12)
        assert sum(rec["points"]) == 157
        assert sum(t["points"] for t in rec["tricks"]) == 157      # final trump values in every trick
        if rec["trump"] is None:
            assert rec["trump_fixed"] is None
        else:
            t, i = rec["trump_fixed"]["trick"], rec["trump_fixed"]["position"]
            assert 1 <= t and 1 <= i < len(rec["hands"])          # never the leader
            assert rec["tricks"][t - 1]["plays"][i][1][0] == rec["trump"]
    key = "result" if game == "mittlere" else "score"
    assert all(key in rec for rec in records)
    path = tmp_path / "r.jsonl"
    write_records(path, records)
    report = check_records(path)
    assert report.ok and report.summary() == "12 records, 0 disagree"


def test_the_checker_reports_each_wrong_molotow_field() -> None:
    for seed in range(100):
        rec = record_of(played("molotow", seed))
        if rec["table_weis"] and rec["trump"] is not None:
            break
    rec["trump"] = "D" if rec["trump"] != "D" else "H"
    rec["trump_fixed"] = {"trick": 9, "position": 1}
    rec["table_weis"] = rec["table_weis"][1:]
    rec["score"][0] += 1
    rec["tricks"][0]["points"] += 1
    lines = check_records([record_line(rec)]).lines()
    text = "\n".join(lines)
    for field in ("trump:", "trump_fixed:", "table_weis:", "score:", "trick 1: points:"):
        assert field in text
    assert lines[-1] == "1 records, 1 disagree"


def test_the_checker_reports_a_wrong_mittlere_result_and_a_malformed_trump_fixed() -> None:
    rec = record_of(played("mittlere", 3))
    rec["result"] = [9, 9, 9]
    assert "result: record says [9, 9, 9]" in "\n".join(check_records([record_line(rec)]).lines())
    rec = record_of(played("mittlere", 3))
    rec["trump_fixed"] = [2, 1]
    lines = check_records([record_line(rec)]).lines()
    assert "trump_fixed must be" in lines[0]


def test_the_command_line_checks_a_file(tmp_path) -> None:
    path = tmp_path / "m.jsonl"
    write_records(path, [record_of(played("mittlere", s)) for s in range(3)])
    out = subprocess.run([sys.executable, "-m", "jass_env.records", "check", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("3 records, 0 disagree")
    data = [json.loads(x) for x in path.read_text().splitlines()]
    data[1]["points"][0] += 1
    path.write_text("\n".join(json.dumps(d) for d in data) + "\n")
    out = subprocess.run([sys.executable, "-m", "jass_env.records", "check", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "points: record says" in out.stdout
