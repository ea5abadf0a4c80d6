"""Records of Sidi-Jass for two (docs/records.md): written by the engine, checked by replay.

The fields come from the format: no ``pushed``/``declarer``/``contract``; ``trump_card`` (the
turned card), ``stock`` (the 20 undealt cards, top first, the turned card last), ``exchange``
({"trick": t from 1} or null), 18 tricks of 2 plays, ``weis``, ``stoeck``, ``points`` [2],
``score`` [2].
"""

from __future__ import annotations

import json

from test_sidi import (
    ALL_TRICKS_H0,
    ALL_TRICKS_H1,
    ALL_TRICKS_LEADS,
    ALL_TRICKS_STOCK,
    losing_card,
    sidi_round,
)

from jass_env import Round
from jass_env.records import check_records, record_line, record_of

EXCHANGE = 36


def played(seed: int, exchange: bool = True) -> Round:
    """A round of random legal play (the exchange taken whenever offered, if ``exchange``)."""
    r = Round("sidi", seed=seed)
    k = seed
    while not r.is_over:
        legal = [int(a) for a in r.legal_actions()]
        if exchange and EXCHANGE in legal:
            r.step(EXCHANGE)
            continue
        cards = [a for a in legal if a != EXCHANGE]
        k = (k * 1103515245 + 12345) % 2**31
        r.step(cards[k % len(cards)])
    return r


def all_tricks_round() -> Round:
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    r.step("exchange trump 6")
    for lead in ALL_TRICKS_LEADS:
        r.step(lead)
        r.step(losing_card(r))
    return r


def test_records_written_by_the_engine_check_clean() -> None:
    records = [record_of(played(seed), id=seed) for seed in range(10)] + [record_of(all_tricks_round())]
    for rec in records:
        assert {"pushed", "declarer", "contract", "match_team"}.isdisjoint(rec)
        assert rec["rules"] == "sidi" and len(rec["tricks"]) == 18
        assert all(len(t["plays"]) == 2 for t in rec["tricks"])
        assert len(rec["stock"]) == 20 and rec["stock"][-1] == rec["trump_card"]
        assert sum(rec["points"]) == 157 and len(rec["score"]) == 2
    assert any(rec["exchange"] is not None for rec in records)
    last = records[-1]
    assert last["exchange"] == {"trick": 1} and last["stock"] == [*ALL_TRICKS_STOCK, "HA"]
    assert last["weis"] == [{"player": 1, "cards": ["HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6"],
                             "points": 250}]
    assert last["stoeck"] == 1 and last["points"] == [0, 157] and last["score"] == [0, 527]
    assert set(last["tricks"][0]["plays"][0][2]) == {"HA", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"}
    report = check_records([record_line(r) for r in records])
    assert report.ok and report.summary() == "11 records, 0 disagree"


def test_the_checker_reports_wrong_fields_and_a_missing_exchange() -> None:
    rec = record_of(all_tricks_round())
    rec["score"] = [1, 526]
    rec["stoeck"] = None
    text = "\n".join(check_records([record_line(rec)]).lines())
    assert "score: record says [1, 526], engine computes [0, 527]" in text
    assert "stoeck: record says null, engine computes 1" in text
    rec = record_of(all_tricks_round())
    rec["exchange"] = None                            # player 1 then never holds the ♥A he leads
    text = "\n".join(check_records([record_line(rec)]).lines())
    assert "illegal play: record says player 1 plays HA" in text


def test_malformed_sidi_records_get_one_clear_message() -> None:
    rec = record_of(played(1))
    bad = {**rec, "stock": rec["stock"][:-1]}
    lines = check_records([json.dumps(bad)]).lines()
    assert "stock must list the 20 cards not in the hands" in lines[0]
    assert lines[-1] == "1 records, 1 disagree"
    bad = {**rec, "trump_card": rec["stock"][0]}
    assert "must be the last card of the stock" in check_records([json.dumps(bad)]).lines()[0]
    bad = {**rec, "exchange": {"trick": 11}}
    assert 'exchange must be {"trick": t} with t 1..10' in check_records([json.dumps(bad)]).lines()[0]
    bad = {k: v for k, v in rec.items() if k != "stock"}
    assert "missing required field(s) stock" in check_records([json.dumps(bad)]).lines()[0]
    bad = json.loads(json.dumps(rec))
    bad["tricks"] = bad["tricks"][:9]
    assert "tricks must be a list of 18 tricks, got 9 tricks" in check_records([json.dumps(bad)]).lines()[0]
