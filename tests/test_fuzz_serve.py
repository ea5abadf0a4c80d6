"""The player service under bad and heavy traffic, over real sockets: every route answers every
request with JSON (a 4xx error saying what was wrong), never hangs and never crashes; a client
that stalls is cut off while others are answered; a burst of connections queues; many clients at
once all get their answers; a slow client holds no thread.
"""

from __future__ import annotations

import functools
import http.client
import json
import select
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agents.player_service.limits import MIB, ServiceLimits
from agents.serve import make_service
from jass_env.engine.cards import card_name
from jass_env.games import make_rules
from jass_env.games.schieber.jasskit_map import JASSKIT_RULES, PUSH, jasskit_observation_json
from jass_env.games.schieber.seat_view import HAND_SIZE, N_SEATS, seat_position

#: seconds the test service gives a client for a request's head and then its body
CLIENT_TIMEOUT = 1.0
LIMITS = ServiceLimits(client_timeout=CLIENT_TIMEOUT)
#: seconds a test client waits for any answer: a hang fails the test, quickly
WAIT = 10.0
ACTIONS = ("action_trump", "action_play_card", "game_info")
#: the trump answers jass-kit knows: D H S C, obenabe, uneufe, push
TRUMPS = (0, 1, 2, 3, 4, 5, PUSH)
HAND = list(range(HAND_SIZE))


@pytest.fixture(scope="module")
def service():
    svc = make_service("random", port=0, limits=LIMITS)
    thread = threading.Thread(target=svc.serve_forever, daemon=True)
    thread.start()
    yield svc
    svc.shutdown()
    svc.server_close()
    thread.join(WAIT)


@functools.cache
def _observations() -> dict[str, dict]:
    """A jass-kit observation for each action: seat 0 (forehand) choosing trump, and the same
    seat leading the first card under Diamonds, holding the nine Diamonds."""
    rules = make_rules(JASSKIT_RULES)
    trump = seat_position(rules, 0, HAND, dealer=N_SEATS - 1)
    card = seat_position(rules, 0, HAND, dealer=N_SEATS - 1, contract=0)
    return {"action_trump": jasskit_observation_json(trump),
            "action_play_card": jasskit_observation_json(card), "game_info": jasskit_observation_json(card)}


def _body(action: str) -> bytes:
    """The request body of a real observation for ``action``."""
    return json.dumps(_observations()[action]).encode()


def _request(svc, method: str, path: str, body: bytes | None = None,
             ) -> tuple[int, http.client.HTTPResponse, object]:
    """(status, response, JSON answer or None for a HEAD) of one request on a new connection."""
    host, port = svc.server_address
    conn = http.client.HTTPConnection(host, port, timeout=WAIT)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        assert response.getheader("Content-Type") == "application/json", (path, data[:200])
        return response.status, response, json.loads(data) if method != "HEAD" else None
    finally:
        conn.close()


def _post(svc, action: str, body: bytes) -> tuple[int, object]:
    status, _, answer = _request(svc, "POST", f"/{svc.name}/{action}", body)
    return status, answer


def _raw(svc, data: bytes) -> socket.socket:
    """A connection that has sent ``data`` and nothing more."""
    sock = socket.create_connection(svc.server_address, timeout=WAIT)
    sock.sendall(data)
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _json_error(raw: bytes) -> tuple[int, str]:
    """(status, error text) of one raw HTTP answer whose body is ``{"error": ...}``."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), raw[:300]
    return int(head.split()[1]), json.loads(body)["error"]


def test_a_null_body_gets_a_400_on_every_route(service):
    for action in ACTIONS:
        status, answer = _post(service, action, b"null")
        assert status == 400, (action, answer)
        assert "must be a JSON object" in answer["error"] and "got null" in answer["error"]


@pytest.mark.parametrize("action", ACTIONS)
def test_bodies_that_are_no_observation_get_a_400_saying_so(service, action):
    cases = [(b"", "not valid JSON"), (b"{not json", "not valid JSON"), (b"\xff\xfe{}", "not valid JSON"),
             (b'{"a": 1', "not valid JSON"), (b"[1, 2]", "got an array"), (b'"DA"', "got a string"),
             (b"7", "got a number"), (b"true", "got a boolean")]
    if action != "game_info":                       # its information is not used: any object will do
        cases += [(b"{}", "missing field"), (b'{"trump": "x", "player": null}', "bad observation")]
    for body, text in cases:
        status, answer = _post(service, action, body)
        assert (status, text in answer["error"]) == (400, True), (body, answer)


@pytest.mark.parametrize("action", ACTIONS)
def test_deep_nesting_gets_a_400_naming_the_depth(service, action):
    deeper_than_python_parses = b"[" * 100_000 + b"]" * 100_000
    deeper_than_the_limit = b'{"a": ' + b"[" * LIMITS.max_depth + b"]" * LIMITS.max_depth + b"}"
    for body in (deeper_than_python_parses, deeper_than_the_limit):
        status, answer = _post(service, action, body)
        assert status == 400 and f"more than {LIMITS.max_depth} levels deep" in answer["error"], answer
    at_the_limit = b'{"a": ' + b"[" * (LIMITS.max_depth - 1) + b"]" * (LIMITS.max_depth - 1) + b"}"
    status, answer = _post(service, action, at_the_limit)
    assert "levels deep" not in str(answer) and status in (200, 400)


def test_wrong_methods_get_a_405_with_the_allowed_ones(service):
    name = service.name
    allowed = {f"/{name}": ("GET", "HEAD")} | {f"/{name}/{action}": ("POST",) for action in ACTIONS}
    for path, methods in allowed.items():
        for method in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW"):
            if method in methods:
                continue
            status, response, answer = _request(service, method, path, b"{}")
            assert status == 405, (method, path, answer)
            assert set(response.getheader("Allow").split(", ")) == set(methods)
            assert "takes a" in answer["error"]
    status, response, _ = _request(service, "HEAD", f"/{name}")
    assert status == 200


def test_unknown_paths_get_a_json_error_naming_the_paths(service):
    name = service.name
    cases = [("GET", "/", 404, "no such path"), ("GET", "/a/b/c", 404, "no such path"),
             ("POST", f"/{name}/action_trump/x", 404, "no such path"), ("POST", f"/{name}/jump", 404,
             "unknown action 'jump'"), ("GET", f"/{name}/jump", 404, "unknown action"),
             ("GET", "/nobody", 404, "player not found"), ("POST", "/nobody/action_trump", 400,
             "player not found"), ("GET", "/%00%ff", 404, "player not found")]
    for method, path, expected, text in cases:
        status, _, answer = _request(service, method, path, b"{}" if method == "POST" else None)
        assert (status, text in answer["error"]) == (expected, True), (method, path, answer)


def test_a_body_over_one_mib_gets_its_413_before_the_connection_closes(service):
    too_large = b"{" + b" " * (MIB - 1) + b"}"      # 1 MiB + 1 bytes of JSON
    assert len(too_large) == MIB + 1
    for action in ACTIONS:
        status, answer = _post(service, action, too_large)
        assert status == 413 and f"at most {MIB} bytes" in answer["error"], answer
    # without a Content-Length: sent in chunks, refused as it passes the limit
    host, port = service.server_address
    conn = http.client.HTTPConnection(host, port, timeout=WAIT)
    chunks = iter([too_large[:MIB // 2], too_large[MIB // 2:]])
    conn.request("POST", f"/{service.name}/action_trump", body=chunks,
                 headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = conn.getresponse()
    assert response.status == 413 and "at most" in json.loads(response.read())["error"]
    conn.close()
    just_fits = b"{" + b" " * (MIB - 2) + b"}"
    assert _post(service, "game_info", just_fits) == (200, "")


def test_bytes_that_are_no_http_request_get_a_json_400(service):
    oversized_head = f"GET /{service.name} HTTP/1.1\r\nX-Big: {'a' * LIMITS.max_head}\r\n\r\n".encode()
    for data in (b"\x00\x01\x02 garbage\r\n\r\n", b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", oversized_head):
        with _raw(service, data) as sock:
            status, error = _json_error(_read_all(sock))
        assert status == 400 and "not an HTTP/1.1 request" in error


def test_a_stalled_client_is_cut_off_and_others_are_answered_meanwhile(service):
    name = service.name
    stalled_body = _raw(service, f"POST /{name}/action_trump HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                 f"application/json\r\nContent-Length: 100\r\n\r\n{{\"a\":".encode())
    stalled_head = _raw(service, f"POST /{name}/action_tr".encode())
    silent = _raw(service, b"")
    start = time.monotonic()
    for _ in range(5):
        status, answer = _post(service, "action_trump", _body("action_trump"))
        assert status == 200 and answer["trump"] in TRUMPS
    answered_others = time.monotonic() - start
    # the others did not wait for the stalled clients: those are not answered yet
    assert select.select([stalled_body, stalled_head, silent], [], [], 0)[0] == []
    with stalled_body:
        status, error = _json_error(_read_all(stalled_body))
    assert status == 408 and "did not come within" in error
    for sock in (stalled_head, silent):
        with sock:
            assert _read_all(sock) == b""               # closed by the server, unanswered
    cut_off = time.monotonic() - start
    print(f"5 requests answered in {answered_others:.3f} s; 3 stalled clients cut off after {cut_off:.2f} s")


def test_many_stalled_clients_hold_no_thread_and_are_all_cut_off(service):
    n_clients = 100
    assert _request(service, "GET", f"/{service.name}")[0] == 200
    threads_before = threading.active_count()
    half_a_head = f"GET /{service.name} HTTP/1.1\r\nHost: x\r\n".encode()
    stalled = [_raw(service, half_a_head) for _ in range(n_clients)]
    try:
        assert _request(service, "GET", f"/{service.name}")[0] == 200
        added = threading.active_count() - threads_before
        assert added <= 0, f"{added} threads for {n_clients} stalled clients"
        assert all(_read_all(sock) == b"" for sock in stalled)
    finally:
        for sock in stalled:
            sock.close()


def test_a_burst_of_connections_queues_while_the_server_is_busy():
    """Nobody accepts connections yet (as when every thread is busy): the system still queues a
    burst of them, instead of dropping their handshakes (a client then waits a second or more)."""
    svc = make_service("random", port=0, limits=LIMITS)
    burst = []
    try:
        for _ in range(64):
            burst.append(socket.create_connection(svc.server_address, timeout=WAIT / 2))
    finally:
        for sock in burst:
            sock.close()
        svc.server_close()
    assert len(burst) == 64


def _client(svc, n_requests: int, seed: int) -> list[str]:
    """One client's requests, cycling through every route and a bad body: the problems found."""
    problems = []
    for i in range(n_requests):
        kind = (seed + i) % 5
        try:
            if kind == 0:
                status, answer = _post(svc, "action_trump", _body("action_trump"))
                ok = status == 200 and answer["trump"] in TRUMPS
            elif kind == 1:
                status, answer = _post(svc, "action_play_card",
                                       _body("action_play_card"))
                ok = status == 200 and answer["card"] in {card_name(c) for c in HAND}
            elif kind == 2:
                status, answer = _post(svc, "game_info", _body("game_info"))
                ok = (status, answer) == (200, "")
            elif kind == 3:
                status, _, answer = _request(svc, "GET", f"/{svc.name}")
                ok = (status, answer) == (200, f"Player {svc.name} here")
            else:
                status, answer = _post(svc, "action_trump", b"null")
                ok = status == 400
            if not ok:
                problems.append(f"{kind}: {status} {answer}")
        except OSError as exc:
            problems.append(f"{kind}: {type(exc).__name__}: {exc}")
    return problems


def test_32_clients_at_once_all_get_their_answers(service):
    n_clients, n_requests = 32, 20
    decisions_before = service.answered
    start = time.monotonic()
    with ThreadPoolExecutor(n_clients) as pool:
        problems = [p for found in pool.map(_client, [service] * n_clients, [n_requests] * n_clients,
                                            range(n_clients)) for p in found]
    elapsed = time.monotonic() - start
    assert problems == []
    decisions = sum(1 for c in range(n_clients) for i in range(n_requests) if (c + i) % 5 in (0, 1))
    assert service.answered - decisions_before == decisions
    print(f"{n_clients * n_requests} requests from {n_clients} clients: 0 errors in {elapsed:.2f} s")


class _Failing:
    """An agent that fails (``exc``) or answers an action that is never legal."""

    name = "failing"

    def __init__(self, exc: Exception | None) -> None:
        self.exc = exc

    def act(self, obs):
        if self.exc is not None:
            raise self.exc
        return len(obs["action_mask"])


def test_an_agent_that_fails_gets_a_json_500_and_the_service_goes_on(service, monkeypatch):
    body = _body("action_trump")
    monkeypatch.setattr(service.player, "agent", _Failing(RuntimeError("out of luck")))
    status, answer = _post(service, "action_trump", body)
    assert (status, answer) == (500, {"error": "internal error (RuntimeError: out of luck)"})
    monkeypatch.setattr(service.player, "agent", _Failing(None))
    status, answer = _post(service, "action_trump", body)
    assert status == 500 and "action 43, which is not legal here" in answer["error"]
    monkeypatch.undo()
    status, answer = _post(service, "action_trump", body)
    assert status == 200 and answer["trump"] in TRUMPS


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(), inner, max_size=4), max_leaves=12)
#: places in an observation, by path (key or index at each level), as jass-kit writes it
FIELD_PATHS = st.sampled_from([("version",), ("trump",), ("dealer",), ("currentPlayer",), ("playerView",),
                               ("forehand",), ("tricks",), ("tricks", 0), ("tricks", 0, "first"),
                               ("tricks", 0, "cards"), ("player",), ("player", 0), ("player", 0, "hand"),
                               ("player", 0, "hand", 0), ("player", 1, "hand"), ("jassTyp",)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(ACTIONS), body=JSON_VALUES)
def test_any_json_body_gets_an_answer_or_a_400(service, action, body):
    status, answer = _post(service, action, json.dumps(body).encode())
    assert status == 200 if (isinstance(body, dict) and action == "game_info") else status == 400, answer


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(ACTIONS[:2]), path=FIELD_PATHS, value=JSON_VALUES, drop=st.booleans())
def test_an_observation_with_a_field_replaced_or_dropped_gets_an_answer_or_a_400(service, action, path, value,
                                                                                  drop):
    obs = json.loads(_body(action))
    parent = obs
    for key in path[:-1]:
        assume(key in parent if isinstance(parent, dict) else key < len(parent))
        parent = parent[key]
    key = path[-1]
    assume(isinstance(parent, dict) or key < len(parent))     # a new field, or a card in place of one
    if drop and isinstance(parent, dict):
        parent.pop(key, None)
    else:
        parent[key] = value
    status, answer = _post(service, action, json.dumps(obs).encode())
    assert status in (200, 400), answer
