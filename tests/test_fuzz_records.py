"""Fuzzing the record tools (docs/records.md, docs/jasskit.md): whatever a line holds, ``check`` and
``convert`` report its fault as that line's finding, never raise, and go on with the other lines.

For every preset, records of a few randomly played rounds must check clean; then one of them is
broken in each of the ways below (a few random instances of each, seeded; a wrong type, a huge
number and a non-integer number in every field the record has) and checked in a file
between a clean record and a record with one known disagreement. Every mutation breaks a rule of
the format or of the game, so the broken record must get a finding, and only it; the record after
it must still get exactly its own. Likewise for jass-kit log lines (``tests/data/jasskit``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jass_env import Match
from jass_env.games import PRESETS
from jass_env.records import check_records, record_line, record_of
from jass_env.records.jasskit import Conversion, convert_jasskit_log

#: random instances of each mutation per preset (each one a check of three records)
PER_KIND = 3
#: records per preset (the second is mutated, the third carries the known disagreement)
N_RECORDS = 3
#: docs/records.md: every number of a record but its id lies within ±(2**31 - 1)
MAX_NUMBER = 2**31 - 1
HUGE = (2**63, -2**63 - 1, 2**64 + 1, 10**30, MAX_NUMBER + 1, -MAX_NUMBER - 1)
#: numbers where integers belong (JSON 2.0 is a number, not an integer; Python's json writes NaN)
NOT_INTEGERS = (1.5, -0.5, 2.0, 1e308, float("nan"), float("inf"), -float("inf"))
#: docs/records.md "Fields": the fields every record needs, and each game's own required ones
REQUIRED = ("dealer", "forehand", "hands", "tricks")
GAME_REQUIRED = {"schieber": ("pushed", "declarer", "contract"), "seed": ("pushed", "declarer", "contract"),
                 "tournament": ("pushed", "declarer", "contract"), "differenzler": ("predictions",),
                 "coiffeur": ("pushes", "declarer", "row", "contract"), "mittlere": (), "molotow": (),
                 "sidi": ("trump_card", "stock")}
JASSKIT_LOG = Path(__file__).parent / "data" / "jasskit" / "arena0001.txt"

Path_ = tuple[str | int, ...]


def _records(preset: str) -> list[dict[str, Any]]:
    """Records of the first rounds of random matches (Coiffeur's later deals have sheets_before)."""
    records: list[dict[str, Any]] = []
    seed = 0
    while len(records) < N_RECORDS:
        m = Match(preset, seed=seed)
        rng = random.Random(seed)
        while not m.is_over and len(m.finished_rounds) < N_RECORDS:
            m.step(int(rng.choice(list(m.legal_actions()))))
        full = [r for r in m.finished_rounds if r.trick_number == r.spec.tricks]
        records += [record_of(r, id=f"{preset}-{seed}-{k}") for k, r in enumerate(full)]
        seed += 1
    return records[:N_RECORDS]


# record mutations: each takes a deep copy of a record and returns the broken line
def _paths(value: Any, path: Path_ = ()) -> list[Path_]:
    """Every place inside a JSON value (the value itself first)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _get(obj: Any, path: Path_) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def _put(obj: Any, path: Path_, value: Any) -> None:
    _get(obj, path[:-1])[path[-1]] = value


def _fields(rec: dict[str, Any]) -> list[Path_]:
    """Every place in a record but its id."""
    return [p for p in _paths(rec) if p and p[0] != "id"]


def _other_type(value: Any) -> Any:
    """A JSON value of another type."""
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"junk": 1}
    if isinstance(value, dict):
        return ["junk"]
    return "junk"                          # numbers, true/false, null


def _game_required(preset: str) -> tuple[str, ...]:
    """The game's own required fields by docs/records.md (none for a game it does not list, such as
    tests/toy_game's)."""
    return next((fields for family, fields in GAME_REQUIRED.items() if preset.startswith(family)), ())


def drop_field(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    if rng.random() < 0.5:
        del rec[rng.choice(REQUIRED + _game_required(preset))]
    else:
        del rng.choice(rec["tricks"])[rng.choice(("leader", "plays"))]
    return record_line(rec)


def _by_field(rec: dict[str, Any], keep: Callable[[Any], bool]) -> list[list[Path_]]:
    """The places of a record (its id aside) whose value ``keep`` accepts, one group per field:
    places that differ only in list indices (every trick's ``points``) are one field."""
    groups: dict[str, list[Path_]] = {}
    for path in _fields(rec):
        if keep(_get(rec, path)):
            groups.setdefault(str(tuple("*" if isinstance(k, int) else k for k in path)), []).append(path)
    return [groups[k] for k in sorted(groups)]


def change_type(rec: dict[str, Any], path: Path_, rng: random.Random) -> str:
    _put(rec, path, _other_type(_get(rec, path)))
    return record_line(rec)


def huge_number(rec: dict[str, Any], path: Path_, rng: random.Random) -> str:
    _put(rec, path, rng.choice(HUGE))
    return record_line(rec)


def not_an_integer(rec: dict[str, Any], path: Path_, rng: random.Random) -> str:
    _put(rec, path, rng.choice(NOT_INTEGERS))
    return record_line(rec)


def player_out_of_range(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    n = len(rec["hands"])
    trick = rng.choice(rec["tricks"])
    path = rng.choice([("dealer",), ("forehand",), ("tricks", rec["tricks"].index(trick), "leader"),
                       ("tricks", rec["tricks"].index(trick), "plays", rng.randrange(n), 0)])
    _put(rec, path, rng.choice((-1, n)))
    return record_line(rec)


def swap_cards_between_players(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    p, q = rng.sample(range(len(rec["hands"])), 2)
    i, j = rng.randrange(len(rec["hands"][p])), rng.randrange(len(rec["hands"][q]))
    rec["hands"][p][i], rec["hands"][q][j] = rec["hands"][q][j], rec["hands"][p][i]
    return record_line(rec)


def duplicate_card(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    if rng.random() < 0.5:
        places = [(p, i) for p, hand in enumerate(rec["hands"]) for i in range(len(hand))]
        (p, i), (q, j) = rng.sample(places, 2)
        rec["hands"][q][j] = rec["hands"][p][i]
    else:
        plays = [play for trick in rec["tricks"] for play in trick["plays"]]
        a, b = rng.sample(plays, 2)
        b[1] = a[1]
    return record_line(rec)


def reorder_plays(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    plays = rng.choice(rec["tricks"])["plays"]
    i, j = rng.sample(range(len(plays)), 2)
    plays[i], plays[j] = plays[j], plays[i]
    return record_line(rec)


def change_score(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    delta = rng.choice((1, -1, 5, 100))
    if rng.random() < 0.5:
        rec["points"][rng.randrange(len(rec["points"]))] += delta
    else:
        rng.choice(rec["tricks"])["points"] += delta
    return record_line(rec)


def truncate_line(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    text = record_line(rec)
    return text[:rng.randrange(1, len(text))]


def invalid_json(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    text = record_line(rec)
    return rng.choice((text + "x", text[:-1], "{" + text, text.replace('"', "'", 1),
                       text[:-1] + ',"tricks":[]}'))                       # a key twice


def non_object(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    return rng.choice(("[1, 2]", '"a record"', "42", "null", "true", json.dumps([rec])))


def not_utf8(rec: dict[str, Any], rng: random.Random, preset: str) -> bytes:
    data = record_line(rec).encode()
    k = rng.randrange(len(data))
    return data[:k] + b"\xff" + data[k:]


def deep_nesting(rec: dict[str, Any], rng: random.Random, preset: str) -> str:
    depth = rng.choice((1_000, 100_000))
    return '{"id": 1, "hands": ' + "[" * depth + "]" * depth + "}"


#: mutations of a random place, each tried PER_KIND times
RECORD_MUTATIONS: dict[str, Callable[[dict[str, Any], random.Random, str], str | bytes]] = {
    f.__name__: f for f in (drop_field, player_out_of_range, swap_cards_between_players, duplicate_card,
                            reorder_plays, change_score, truncate_line, invalid_json, non_object, not_utf8,
                            deep_nesting)}
#: mutations of one field, each tried once on every field (of every game) it applies to
FIELD_MUTATIONS: dict[str, tuple[Callable[[dict[str, Any], Path_, random.Random], str],
                                 Callable[[Any], bool]]] = {
    "change_type": (change_type, lambda value: True),
    "huge_number": (huge_number, lambda value: type(value) is int),
    "not_an_integer": (not_an_integer, lambda value: type(value) is int)}


def _broken_lines(rec: dict[str, Any], rng: random.Random, preset: str) -> list[tuple[str, str | bytes]]:
    """(mutation, broken line) of every mutation of a record."""
    out = [(kind, mutate(copy.deepcopy(rec), rng, preset)) for kind, mutate in RECORD_MUTATIONS.items()
           for _ in range(PER_KIND)]
    for kind, (mutate_field, keep) in FIELD_MUTATIONS.items():
        out += [(kind, mutate_field(copy.deepcopy(rec), rng.choice(group), rng))
                for group in _by_field(rec, keep)]
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_broken_record_is_reported_alone(preset: str) -> None:
    records = _records(preset)
    lines = [record_line(r) for r in records]
    assert check_records(lines).findings == []
    sentinel = copy.deepcopy(records[2])
    sentinel["points"][0] += 1
    sentinel_line = record_line(sentinel)
    expected = [f.text for f in check_records([sentinel_line]).findings]
    assert len(expected) == 1 and expected[0].startswith("points: record says")

    for kind, broken in _broken_lines(records[1], random.Random(preset), preset):
        report = check_records([lines[0], broken, sentinel_line])
        context = f"{kind}: {broken[:300]!r}"
        assert report.records == 3 and report.disagreeing == 2, context
        by_line = {n: [f for f in report.findings if f.line == n] for n in (1, 2, 3)}
        assert by_line[1] == [], context
        assert by_line[2], f"{context}: no finding"
        assert [f.text for f in by_line[3]] == expected, context
        for f in report.findings:
            assert "\n" not in str(f) and not f.text.startswith("internal error"), f"{context}: {f}"


# jass-kit log mutations: each takes a deep copy of a log entry {"game": ...} and returns the line
#: docs/rules.md "The deck": card points by rank, per contract (trump suit D H S C 0..3, plain suit
#: of a trump contract, Obenabe 4, Undenufe 5)
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "10": 10}
PLAIN_POINTS = {"J": 2, "A": 11, "K": 4, "Q": 3, "10": 10}
OBENABE_POINTS = {**PLAIN_POINTS, "8": 8}
UNDENUFE_POINTS = {"J": 2, "K": 4, "Q": 3, "10": 10, "8": 8, "6": 11}
SUITS = "DHSC"


def _card_points(card: str, trump: int) -> int:
    suit, rank = card[0], card[1:]
    if trump == 4:
        return OBENABE_POINTS.get(rank, 0)
    if trump == 5:
        return UNDENUFE_POINTS.get(rank, 0)
    return (TRUMP_POINTS if SUITS.index(suit) == trump else PLAIN_POINTS).get(rank, 0)


def jk_drop_field(entry: dict[str, Any], rng: random.Random) -> str:
    game = entry["game"]
    if rng.random() < 0.5:
        del game[rng.choice(("dealer", "trump", "forehand", "tricks", "player"))]
    else:
        del rng.choice(game["tricks"])[rng.choice(("cards", "first"))]
    return json.dumps(entry)


def jk_change_type(entry: dict[str, Any], rng: random.Random) -> str:
    game = entry["game"]
    t = rng.randrange(len(game["tricks"]))
    path = rng.choice([("game", k) for k in ("version", "dealer", "trump", "forehand", "tricks", "player",
                                             "currentPlayer")]
                      + [("game", "tricks", t, k) for k in ("cards", "first", "win", "points")]
                      + [("game", "tricks", t, "cards", rng.randrange(4))])
    _put(entry, path, _other_type(_get(entry, path)))
    return json.dumps(entry)


def jk_huge_number(entry: dict[str, Any], rng: random.Random) -> str:
    game = entry["game"]
    t = rng.randrange(len(game["tricks"]))
    path = rng.choice([("game", k) for k in ("dealer", "trump", "forehand", "currentPlayer")]
                      + [("game", "tricks", t, k) for k in ("first", "win", "points")])
    _put(entry, path, rng.choice(HUGE))
    return json.dumps(entry)


def jk_swap_cards_between_tricks(entry: dict[str, Any], rng: random.Random) -> str:
    """Two cards of different points in different tricks: both tricks' logged points are wrong then."""
    game = entry["game"]
    tricks = game["tricks"]
    while True:
        s, t = rng.sample(range(len(tricks)), 2)
        i, j = rng.randrange(4), rng.randrange(4)
        a, b = tricks[s]["cards"][i], tricks[t]["cards"][j]
        if _card_points(a, game["trump"]) != _card_points(b, game["trump"]):
            tricks[s]["cards"][i], tricks[t]["cards"][j] = b, a
            return json.dumps(entry)


def jk_duplicate_card(entry: dict[str, Any], rng: random.Random) -> str:
    cards = [(t["cards"], i) for t in entry["game"]["tricks"] for i in range(len(t["cards"]))]
    (a, i), (b, j) = rng.sample(cards, 2)
    b[j] = a[i]
    return json.dumps(entry)


def jk_reorder_plays(entry: dict[str, Any], rng: random.Random) -> str:
    """The winning card of a trick not won by its leader moves to another player after the leader:
    the lead suit stays, so that player wins by the rules, not the one the log names."""
    game = entry["game"]
    tricks = [t for t in game["tricks"] if t["win"] != t["first"]]
    trick = rng.choice(tricks)
    won = (trick["first"] - trick["win"]) % 4         # jass-kit's next player of p is p - 1
    other = rng.choice([k for k in (1, 2, 3) if k != won])
    cards = trick["cards"]
    cards[won], cards[other] = cards[other], cards[won]
    return json.dumps(entry)


def jk_change_score(entry: dict[str, Any], rng: random.Random) -> str:
    trick = rng.choice(entry["game"]["tricks"])
    if rng.random() < 0.5:
        trick["points"] += rng.choice((1, -1, 5, 100))
    else:
        trick["win"] = (trick["win"] + rng.randrange(1, 4)) % 4
    return json.dumps(entry)


def jk_truncate_line(entry: dict[str, Any], rng: random.Random) -> str:
    text = json.dumps(entry)
    return text[:rng.randrange(1, len(text))]


def jk_invalid_json(entry: dict[str, Any], rng: random.Random) -> str:
    text = json.dumps(entry)
    return rng.choice((text + "x", text[:-1], "{" + text, text.replace('"', "'", 1)))


def jk_non_object(entry: dict[str, Any], rng: random.Random) -> str:
    return rng.choice(("[1, 2]", '"a game"', "42", "null", "true", json.dumps([entry])))


def jk_not_utf8(entry: dict[str, Any], rng: random.Random) -> bytes:
    data = json.dumps(entry).encode()
    k = rng.randrange(len(data))
    return data[:k] + b"\xff" + data[k:]


def jk_deep_nesting(entry: dict[str, Any], rng: random.Random) -> str:
    depth = rng.choice((1_000, 100_000))
    return '{"game": ' + "[" * depth + "]" * depth + "}"


JASSKIT_MUTATIONS: dict[str, Callable[[dict[str, Any], random.Random], str | bytes]] = {
    f.__name__: f for f in (jk_drop_field, jk_change_type, jk_huge_number, jk_swap_cards_between_tricks,
                            jk_duplicate_card, jk_reorder_plays, jk_change_score, jk_truncate_line,
                            jk_invalid_json, jk_non_object, jk_not_utf8, jk_deep_nesting)}


def _line_findings(result: Conversion, line: int) -> list[str]:
    """What converting said about one line, and what checking its record says."""
    said = ([why for n, why in result.skipped if n == line]
            + [m for n, _, m in result.winner_faults if n == line]
            + [str(d) for n, d, _ in result.disagreements if n == line])
    record = [r for r in result.records if r["id"] == f"fuzz:{line}"]
    return said + [f.text for f in check_records([record_line(r) for r in record]).findings]


@pytest.mark.parametrize("kind", list(JASSKIT_MUTATIONS))
def test_each_broken_jasskit_line_is_reported_alone(kind: str) -> None:
    log = JASSKIT_LOG.read_text().splitlines()
    clean = convert_jasskit_log(log, "fuzz")
    assert len(clean.records) == len(log)
    assert not (clean.skipped or clean.winner_faults or clean.disagreements)
    rng = random.Random(kind)
    for k in range(PER_KIND):
        middle = 1 + k % (len(log) - 2)
        broken = JASSKIT_MUTATIONS[kind](json.loads(log[middle]), rng)
        lines = [log[middle - 1].encode(), broken if isinstance(broken, bytes) else broken.encode(),
                 log[middle + 1].encode()]
        result = convert_jasskit_log(lines, "fuzz")
        context = f"{kind}: {broken[:300]!r}"
        assert result.lines == 3, context
        assert [r for r in result.records if r["id"] != "fuzz:2"] == [
            {**clean.records[middle - 1], "id": "fuzz:1"}, {**clean.records[middle + 1], "id": "fuzz:3"}]
        assert _line_findings(result, 1) == [] and _line_findings(result, 3) == [], context
        said = _line_findings(result, 2)
        assert said, f"{context}: no finding"
        assert not any(s.startswith("internal error") for s in said), f"{context}: {said}"
