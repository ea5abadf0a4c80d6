"""The browser app's JSON API and websocket (agents.web): every preset played by a person against
agents through it, watch tables and matches, records that check clean, and every request it
cannot answer refused with a clear JSON error that leaves the table as it was.

The client is Starlette's in-process test client (the app as the server runs it, without a
socket); the command line is run as a process once.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():     # Starlette's test client would rather have httpx2; httpx serves
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from agents.base import Agent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.web.app import create_app  # noqa: E402
from agents.web.tables import KEPT_EVENTS, MAX_ADVANCE_STEPS, TableStore  # noqa: E402
from agents.web.views import LOG_EVENTS  # noqa: E402
from jass_env.games import PRESETS, REGISTRY, presets_of  # noqa: E402
from jass_env.records import check_records  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
ROOT = Path(__file__).resolve().parents[1]
#: one preset of each game
FIRST_PRESETS = [presets_of(spec)[0] for game in REGISTRY.values() for spec in list(game.specs)[:1]]


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def new_table(client: TestClient, rules: str, seats: list[str], **fields) -> dict:
    r = client.post("/api/tables", json={"rules": rules, "seats": seats, **fields})
    assert r.status_code == 200, r.text
    return r.json()


def play_round(client: TestClient, table: str, seat: int | None, token: str | None,
               rng: random.Random) -> dict:
    """Play the round of a table until it is over: the person's moves chosen among the view's
    legal actions, the agents' by advance; returns the last view."""
    who = {} if seat is None else {"seat": seat, "token": token}
    view = client.get(f"/api/tables/{table}", params=who).json()
    while view["waiting_for"] != "none":
        if view["waiting_for"] == "human":
            assert view["to_move"] == seat and view["legal"], view
            r = client.post(f"/api/tables/{table}/action",
                            json={**who, "action": rng.choice(view["legal"])["action"]})
        else:
            assert view["legal"] == []                # only the seat to move is offered actions
            r = client.post(f"/api/tables/{table}/advance", json={**who, "steps": 1})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def records_of(client: TestClient, table: str) -> list[str]:
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert "attachment" in r.headers["content-disposition"]
    return r.text.splitlines()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_is_played_by_a_person_through_the_api(client, preset):
    spec = PRESETS[preset].spec
    seat = spec.players - 1
    seats = ["random"] * spec.players
    seats[seat] = "human"
    created = new_table(client, preset, seats, seed=11)
    assert list(created["tokens"]) == [str(seat)]
    view = created["view"]
    assert view["seat"] == seat and len(view["hand"]) == spec.hand_size and view["hands"] is None
    assert [s["who"] == "human" for s in view["seats"]] == [p == seat for p in range(spec.players)]
    last = play_round(client, created["table"], seat, created["tokens"][str(seat)], random.Random(preset))
    assert last["round_over"] and last["result"] and last["next_round"] and last["records"] == 1
    assert len(last["tricks"]) == spec.tricks
    lines = records_of(client, created["table"])
    report = check_records(lines)
    assert report.ok and report.records == 1, report.lines()
    assert len(json.loads(lines[0])["tricks"]) == spec.tricks


def test_a_watch_table_is_played_by_agents_to_the_end_with_every_hand_open(client):
    created = new_table(client, "schieber", ["random"] * 4, seed=3)
    assert created["tokens"] == {}
    view = created["view"]
    assert view["seat"] is None and sorted(view["hands"]) == ["0", "1", "2", "3"]
    assert all(len(h) == 9 for h in view["hands"].values())
    r = client.post(f"/api/tables/{created['table']}/advance", json={"steps": MAX_ADVANCE_STEPS})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["round_over"] and view["waiting_for"] == "none" and len(view["tricks"]) == 9
    assert check_records(records_of(client, created["table"])).ok
    nxt = client.post(f"/api/tables/{created['table']}/next", json={}).json()
    assert nxt["round_no"] == 2 and not nxt["round_over"] and nxt["records"] == 1


def test_a_whole_match_of_agents_is_watched_round_by_round(client):
    rules = PRESETS["molotow"]
    created = new_table(client, "molotow", ["random"] * 4, seed=5, match=True)
    table, rounds = created["table"], 0
    while True:
        view = client.post(f"/api/tables/{table}/advance", json={"steps": MAX_ADVANCE_STEPS}).json()
        assert view["round_over"], view
        rounds += 1
        if view["match_over"]:
            break
        assert view["next_round"] and view["round_no"] == rounds
        view = client.post(f"/api/tables/{table}/next", json={}).json()
        assert view["round_no"] == rounds + 1 and not view["round_over"]
    assert rounds == rules.match_rounds and not view["next_round"] and "Match over" in view["result"]
    report = check_records(records_of(client, table))
    assert report.ok and report.records == rules.match_rounds, report.lines()
    r = client.post(f"/api/tables/{table}/next", json={})
    assert r.status_code == 409 and "match is over" in r.json()["error"]
    assert len(view["log"]) == LOG_EVENTS                     # a view shows the last events
    assert len(client.app.state.store.tables[table].events) <= KEPT_EVENTS   # a long game keeps few


@pytest.mark.parametrize("preset", FIRST_PRESETS)
def test_a_match_table_starts_its_second_round_after_the_first(client, preset):
    spec = PRESETS[preset].spec
    created = new_table(client, preset, ["human"] + ["random"] * (spec.players - 1), seed=2, match=True)
    table, token = created["table"], created["tokens"]["0"]
    first = play_round(client, table, 0, token, random.Random(1))
    assert first["match"] and first["round_no"] == 1 and first["match_scores"] is not None
    assert first["next_round"] and not first["match_over"]
    second = client.post(f"/api/tables/{table}/next", json={"seat": 0, "token": token}).json()
    assert second["round_no"] == 2 and not second["round_over"] and second["waiting_for"] != "none"
    assert len(second["hand"]) == spec.hand_size and second["tricks"] == []
    assert "Round 2: dealer" in second["log"][-1]


def test_an_agent_that_does_not_load_is_a_400_naming_its_seat(client, tmp_path):
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"not a checkpoint")
    for spec, why in [(str(broken), "broken.pt"), (str(tmp_path / "missing.pt"), "missing.pt"),
                      ("nosuchagent", "unknown agent")]:
        r = client.post("/api/tables", json={"rules": "schieber",
                                             "seats": ["human", "random", spec, "random"]})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error.startswith("seat 2: ") and why in error
    assert len(client.app.state.store) == 0                  # no table with a substitute agent


@pytest.mark.parametrize("body, status, says", [
    ({"rules": "nope"}, 400, "unknown rules 'nope'; presets: schieber"),
    ({"rules": "schieber", "seats": ["human", "random"]}, 400, "seats must be a list of 4 strings"),
    ({"rules": "schieber", "seats": ["human", 3, "random", "random"]}, 400, "seats must be a list"),
    ({"seed": -1}, 400, "seed must be an integer"),
    ({"seed": True}, 400, "seed must be an integer"),
    ({"match": "yes"}, 400, "match must be true or false"),
    ({"colour": "red"}, 400, "unknown field(s) 'colour'"),
])
def test_a_bad_table_request_says_what_is_allowed(client, body, status, says):
    r = client.post("/api/tables", json=body)
    assert r.status_code == status and says in r.json()["error"]


def _view(client: TestClient, table: str, token: str) -> dict:
    return client.get(f"/api/tables/{table}", params={"seat": 0, "token": token}).json()


def test_illegal_out_of_turn_and_malformed_requests_are_refused_and_change_nothing(client):
    # seat 0 human in Schieber: first an agent's turn, then the person's
    created = new_table(client, "schieber", ["human", "random", "random", "random"], seed=4)
    table, token = created["table"], created["tokens"]["0"]
    base = f"/api/tables/{table}"
    view = created["view"]
    while view["waiting_for"] == "human":
        view = client.post(f"{base}/action", json={"seat": 0, "token": token,
                                                   "action": view["legal"][0]["action"]}).json()
    assert view["waiting_for"] == "agent"
    before = _view(client, table, token)
    agent_turn = [
        ("action", {"seat": 0, "token": token, "action": 0}, 409, "not seat 0's turn"),
    ]
    for path, body, status, says in agent_turn:
        r = client.post(f"{base}/{path}", json=body)
        assert r.status_code == status and says in r.json()["error"], r.text
        assert _view(client, table, token) == before
    while view["waiting_for"] == "agent":
        view = client.post(f"{base}/advance", json={"seat": 0, "token": token}).json()
    before = _view(client, table, token)
    legal = {e["action"] for e in before["legal"]}
    illegal = next(a for a in range(36) if a not in legal)
    human_turn = [
        ("action", {"seat": 0, "token": token, "action": illegal}, 400, "may not play"),
        ("action", {"seat": 0, "token": token, "action": 43}, 400, "integer 0..42"),
        ("action", {"seat": 0, "token": token, "action": "HA"}, 400, "integer 0..42"),
        ("action", {"seat": 0, "token": token, "action": True}, 400, "integer 0..42"),
        ("action", {"seat": 0, "token": token}, 400, "got None"),
        ("action", {"seat": 0, "token": "wrong", "action": min(legal)}, 403, "wrong or missing token"),
        ("action", {"seat": 1, "token": token, "action": min(legal)}, 400, "not a human seat"),
        ("action", {"token": token, "action": min(legal)}, 400, "not a human seat"),
        ("action", {"seat": 0, "token": token, "action": min(legal), "x": 1}, 400, "unknown field(s) 'x'"),
        ("advance", {"seat": 0, "token": token}, 409, "no agent is to move"),
        ("advance", {"seat": 0, "token": token, "steps": 0}, 400, f"1..{MAX_ADVANCE_STEPS}"),
        ("advance", {"seat": 0, "token": token, "steps": "1"}, 400, f"1..{MAX_ADVANCE_STEPS}"),
        ("advance", {"steps": 1}, 400, "not a human seat"),
        ("next", {"seat": 0, "token": token}, 409, "still being played"),
    ]
    for path, body, status, says in human_turn:
        r = client.post(f"{base}/{path}", json=body)
        assert r.status_code == status and says in r.json()["error"], (body, r.text)
        assert _view(client, table, token) == before
    raw = [
        (b"{", "application/json", 400, "not valid JSON"),
        (b"[1]", "application/json", 400, "must be a JSON object, got an array"),
        (b"\xff", "application/json", 400, "not valid JSON"),
        (b"[" * 40 + b"]" * 40, "application/json", 400, "more than 32 levels"),
        (json.dumps({"seat": 0, "token": token, "action": min(legal)}).encode(), "text/plain", 415,
         "json data expected"),
        (b" " * 70_000, "application/json", 413, "at most 65536 bytes"),
    ]
    for content, kind, status, says in raw:
        r = client.post(f"{base}/action", content=content, headers={"content-type": kind})
        assert r.status_code == status and says in r.json()["error"], r.text
        assert _view(client, table, token) == before
    # the watcher's view of a round being played with a person at the table
    r = client.get(base)
    assert r.status_code == 403 and "give seat and token" in r.json()["error"]
    r = client.get(base, params={"seat": 0, "token": "nope"})
    assert r.status_code == 403
    r = client.get(f"{base}/record")
    assert r.status_code == 409 and "no round" in r.json()["error"]


def test_unknown_tables_routes_and_methods_are_json_errors(client):
    for method, path in [("GET", "/api/tables/nope"), ("POST", "/api/tables/nope/action"),
                         ("POST", "/api/tables/nope/advance"), ("GET", "/api/tables/nope/record")]:
        r = client.request(method, path, json={})
        assert r.status_code == 404 and "no table 'nope'" in r.json()["error"]
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"].startswith("Not Found")
    r = client.delete("/api/tables")
    assert r.status_code == 405 and "POST" in r.headers["allow"] and "error" in r.json()


def test_abandoned_tables_are_dropped_after_the_ttl_unless_a_socket_is_open():
    now = [0.0]
    store = TableStore(ttl=60.0, clock=lambda: now[0])
    with TestClient(create_app(store=store)) as client:
        kept = new_table(client, "molotow", ["random"] * 4)["table"]
        watched = new_table(client, "molotow", ["random"] * 4)["table"]
        now[0] = 50.0
        assert client.get(f"/api/tables/{kept}").status_code == 200          # a request keeps it
        with client.websocket_connect(f"/api/tables/{watched}/ws") as ws:
            assert ws.receive_json()["type"] == "view"
            now[0] = 100.0
            assert client.get(f"/api/tables/{watched}").status_code == 200   # open socket: kept
            now[0] = 200.0
            assert client.get(f"/api/tables/{kept}").status_code == 404
        now[0] = 300.0
        r = client.get(f"/api/tables/{watched}")
        assert r.status_code == 404 and "dropped after 60 s" in r.json()["error"]
        assert len(store) == 0


def test_the_number_of_tables_is_capped_with_a_503():
    store = TableStore(max_tables=2)
    with TestClient(create_app(store=store)) as client:
        new_table(client, "sidi", ["random", "random"])
        new_table(client, "sidi", ["random", "random"])
        r = client.post("/api/tables", json={"rules": "sidi", "seats": ["random", "random"]})
        assert r.status_code == 503 and "the most it keeps" in r.json()["error"]
        assert r.headers["retry-after"]
        assert len(store) == 2


def test_the_websocket_pushes_each_change_to_every_seat_and_answers_bad_messages(client):
    created = new_table(client, "schieber", ["human", "random", "human", "random"], seed=8)
    table, tokens = created["table"], created["tokens"]
    with client.websocket_connect(f"/api/tables/{table}/ws?seat=0&token={tokens['0']}") as ws0, \
            client.websocket_connect(f"/api/tables/{table}/ws?seat=2&token={tokens['2']}") as ws2:
        first0, first2 = ws0.receive_json(), ws2.receive_json()
        assert first0["type"] == first2["type"] == "view"
        assert first0["view"]["seat"] == 0 and first2["view"]["seat"] == 2
        version = first0["view"]["version"]
        for bad, says in [("not json", "not valid JSON"), ('{"type": "dance"}', "unknown message type"),
                          ('{"type": "advance", "steps": 0}', "steps must be an integer 1..1000"),
                          ('{"type": "advance", "steps": 1, "seat": 3}', "unknown field(s) 'seat'"),
                          ("[]", "the message must be a JSON object")]:
            ws0.send_text(bad)
            reply = ws0.receive_json()
            assert reply["type"] == "error" and says in reply["error"], reply
        ws0.send_bytes(b"{}")
        assert "not binary" in ws0.receive_json()["error"]
        # a change through HTTP reaches both sockets, each with its own seat's view
        view = first0["view"]
        mover = view["to_move"]
        if view["waiting_for"] == "agent":
            client.post(f"/api/tables/{table}/advance", json={"seat": 0, "token": tokens["0"]})
        else:
            seat = str(mover)
            legal = (first0 if mover == 0 else first2)["view"]["legal"]
            client.post(f"/api/tables/{table}/action",
                        json={"seat": mover, "token": tokens[seat], "action": legal[0]["action"]})
        pushed0, pushed2 = ws0.receive_json()["view"], ws2.receive_json()["view"]
        assert pushed0["version"] == pushed2["version"] == version + 1
        assert pushed0["seat"] == 0 and pushed2["seat"] == 2 and pushed0["log"] == pushed2["log"]
        # a change through the socket reaches both too
        ws0.send_text(json.dumps({"type": "view"}))
        assert ws0.receive_json()["view"]["version"] == version + 1
        assert ws2.receive_json()["view"]["version"] == version + 1


def test_a_websocket_with_a_wrong_token_or_table_gets_an_error_and_is_closed(client):
    created = new_table(client, "sidi", ["human", "random"])
    for path in [f"/api/tables/{created['table']}/ws?seat=0&token=wrong", "/api/tables/nope/ws"]:
        with client.websocket_connect(path) as ws:
            assert ws.receive_json()["type"] == "error"
            message = ws.receive()
            assert message["type"] == "websocket.close" and message["code"] in (4403, 4404)


def test_a_hidden_prediction_is_logged_as_hidden(client):
    # Differenzler predictions are hidden until the round ends (the preset's rules)
    created = new_table(client, "differenzler", ["human", "random", "random", "random"], seed=1)
    table, token = created["table"], created["tokens"]["0"]
    view = created["view"]
    while view["phase"] == "prediction":
        if view["waiting_for"] == "human":
            view = client.post(f"/api/tables/{table}/action",
                               json={"seat": 0, "token": token, "action": view["legal"][40]["action"]}).json()
        else:
            view = client.post(f"/api/tables/{table}/advance", json={"seat": 0, "token": token}).json()
    predictions = [line for line in view["log"] if "predict" in line]
    assert len(predictions) == 4
    assert "You predict 40" in predictions
    assert sum(line.endswith("predicts (hidden from you)") for line in predictions) == 3


def test_games_lists_every_preset_with_its_seats_and_agents(client):
    games = client.get("/api/games").json()
    assert games["default"] == "schieber" and "pimc" in games["agent_help"]
    assert [p["name"] for p in games["presets"]] == list(PRESETS)
    for p in games["presets"]:
        spec = PRESETS[p["name"]].spec
        assert p["players"] == spec.players and p["side_of"] == [spec.side_of(s) for s in range(spec.players)]
        assert "random" in p["agents"] and "heuristic" in p["agents"]


def test_the_page_is_served_and_a_missing_page_says_so(tmp_path):
    with TestClient(create_app(static_dir=tmp_path)) as client:
        r = client.get("/")
        assert r.status_code == 500 and "files are missing" in r.text and str(tmp_path) in r.text
        assert client.get("/api/games").status_code == 200
        r = client.get("/static/app.js")
        assert r.status_code == 404 and "error" in r.json()
    page = tmp_path / "index.html"
    page.write_text("<!doctype html><title>Jass</title>", encoding="utf-8")
    (tmp_path / "app.js").write_text("// the page's script", encoding="utf-8")
    with TestClient(create_app(static_dir=tmp_path)) as client:
        r = client.get("/")
        assert r.status_code == 200 and "<title>Jass</title>" in r.text
        assert client.get("/static/app.js").text == "// the page's script"


def _serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "agents.web", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_the_command_line_prints_its_address_and_serves():
    import httpx

    proc = _serve("--rules", "molotow", "--port", "0")
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"Jass web app: http://127\.0\.0\.1:(\d+)/\n", line)
        assert m and int(m[1]) > 0, line
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{m[1]}/api/games", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert r.status_code == 200 and r.json()["default"] == "molotow"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_the_command_line_warns_when_listening_beyond_this_machine():
    proc = _serve("--host", "0.0.0.0", "--port", "0")
    try:
        assert proc.stdout.readline().startswith("Jass web app: http://0.0.0.0:")
        assert "warning: --host 0.0.0.0 lets other machines reach the app" in proc.stderr.readline()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    bad = subprocess.run([sys.executable, "-m", "agents.web", "--port", "70000"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--port must be 0..65535" in bad.stderr


def test_the_servers_connections_send_without_waiting_for_acknowledgements():
    """asyncio sets TCP_NODELAY on a connection only when its listening socket names its protocol;
    without it an answer written as head then body waits ~40 ms for the client's delayed ACK."""
    import asyncio
    import socket

    from agents.http_json import listening_socket

    async def nodelay_of_a_connection() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        sock = listening_socket("127.0.0.1", 0, 8)
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
        try:
            return await asyncio.wait_for(accepted, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(nodelay_of_a_connection()) != 0


class _Failing(Agent):
    name = "failing"

    def act(self, obs):
        raise RuntimeError("out of ideas")


def test_an_agent_that_fails_is_a_500_naming_its_seat_and_its_action_is_not_taken():
    store = TableStore()

    def make(spec, rules, seed=None):
        return _Failing() if spec == "failing" else make_agent(spec, rules, seed=seed)

    table = store.create({"rules": "molotow", "seats": ["random", "failing", "random", "random"]}, "molotow",
                         make_agent=make)
    with TestClient(create_app(store=store)) as client:
        view = client.get(f"/api/tables/{table.id}").json()
        while view["to_move"] != 1:
            view = client.post(f"/api/tables/{table.id}/advance", json={"steps": 1}).json()
        r = client.post(f"/api/tables/{table.id}/advance", json={"steps": 1})
        assert r.status_code == 500
        assert r.json()["error"] == "agent 'failing' in seat 1 failed: RuntimeError: out of ideas"
        assert client.get(f"/api/tables/{table.id}").json() == view
