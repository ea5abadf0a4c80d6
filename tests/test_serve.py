"""agents.serve: our agents behind jass-kit's player-service protocol, over loopback.

jass-kit's own network agent (``AgentByNetwork``) plays Arena games against the service; bad
requests get a JSON error and the service keeps answering.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import types
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from agents.serve import main, make_service

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def service():
    svc = make_service("heuristic", port=0)
    thread = threading.Thread(target=svc.serve_forever, daemon=True)
    thread.start()
    yield svc
    svc.shutdown()
    svc.server_close()


def _url(svc, path: str = "") -> str:
    host, port = svc.server_address[:2]
    return f"http://{host}:{port}/{svc.name}{path}"


def _post(url: str, body: bytes, content_type: str = "application/json") -> tuple[int, object]:
    req = urllib.request.Request(url, data=body, headers={"Content-Type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _requests_stand_in() -> types.ModuleType:
    """``requests.post(url, json=, timeout=)`` over urllib, where requests is not installed (jass-kit's
    AgentByNetwork imports it but jass-kit does not declare it)."""
    mod = types.ModuleType("requests")

    class Response:
        def __init__(self, body: bytes) -> None:
            self.body = body

        def json(self):
            return json.loads(self.body)

    def post(url, json=None, timeout=None):  # noqa: A002 (requests' name)
        data = __import__("json").dumps(json).encode()
        req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return Response(r.read())

    mod.post = post
    return mod


def _flask_stand_in() -> types.ModuleType:
    """What importing jass.service.player_service_route (which holds AgentByNetwork's path names)
    takes of flask: a Blueprint whose route decorator registers nothing. The client never uses it."""
    mod = types.ModuleType("flask")

    class Blueprint:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def route(self, *args, **kwargs):
            return lambda f: f

    mod.Blueprint = Blueprint
    mod.request = mod.jsonify = mod.current_app = None
    return mod


def test_jasskit_network_agents_play_arena_games_against_the_service(service, monkeypatch):
    pytest.importorskip("jass")
    # jass-kit's network agent imports requests and flask, which jass-kit does not declare; where
    # they are missing, stand-ins let its own client code run over real loopback HTTP
    for name, stand_in in (("requests", _requests_stand_in), ("flask", _flask_stand_in)):
        try:
            __import__(name)
        except ModuleNotFoundError:
            monkeypatch.setitem(sys.modules, name, stand_in())
    for name in ("jass.agents.agent_by_network", "jass.service.player_service_route"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    from jass.agents.agent_by_network import AgentByNetwork
    from jass.agents.agent_random_schieber import AgentRandomSchieber
    from jass.arena.arena import Arena

    class NoStandIn:
        """AgentByNetwork falls back to a random player when the service does not answer."""

        def action_trump(self, obs):
            raise AssertionError("the service did not answer a trump request")

        def action_play_card(self, obs):
            raise AssertionError("the service did not answer a card request")

    north, south = AgentByNetwork(_url(service)), AgentByNetwork(_url(service))
    for a in (north, south):
        a._standin_player = NoStandIn()
    east, west = AgentRandomSchieber(), AgentRandomSchieber()
    np.random.seed(1)
    n_games = 4
    arena = Arena(nr_games_to_play=n_games, print_every_x_games=1000)   # checks every card's validity
    arena.set_players(north, east, south, west)
    arena.play_all_games()
    assert arena.nr_games_played == n_games
    assert all(arena.points_team_0 + arena.points_team_1 == 157)
    # every decision of North and South went to the service: 18 cards a game, plus trump calls
    assert service.answered >= 18 * n_games


def _observation() -> dict:
    pytest.importorskip("jass")
    from jass.game.game_sim import GameSim
    from jass.game.game_util import deal_random_hand
    from jass.game.rule_schieber import RuleSchieber
    np.random.seed(4)
    sim = GameSim(rule=RuleSchieber())
    sim.init_from_cards(hands=deal_random_hand(), dealer=0)
    return sim.get_observation().to_json()


def test_bad_requests_get_a_clear_error_and_the_service_goes_on(service):
    obs = _observation()                            # a trump request for jass-kit player 3 (East's next)
    good = json.dumps(obs).encode()
    cases = [
        (_url(service, "/action_trump"), b"{}", "text/plain", 415, "json data expected"),
        (_url(service, "/action_trump"), b"{not json", "application/json", 400, "not valid JSON"),
        (_url(service, "/action_trump"), b"[1, 2]", "application/json", 400, "bad observation"),
        (_url(service, "/action_play_card"), good, "application/json", 400, "asks for a trump"),
        (_url(service, "/jump"), good, "application/json", 404, "unknown action 'jump'"),
        (_url(service, "/action_trump").replace(service.name, "nobody"), good, "application/json", 400,
         "player not found"),
    ]
    wrong_player = dict(obs, playerView=(obs["currentPlayer"] + 1) % 4)
    cases.append((_url(service, "/action_trump"), json.dumps(wrong_player).encode(), "application/json", 400,
                  "is to move"))
    bad_card = json.loads(good)
    bad_card["player"][obs["playerView"]]["hand"][0] = "Z9"
    cases.append((_url(service, "/action_trump"), json.dumps(bad_card).encode(), "application/json", 400,
                  "'Z9' is not a jass-kit card"))
    for url, body, ctype, status, text in cases:
        got, answer = _post(url, body, ctype)
        assert (got, text in answer.get("error", "")) == (status, True), (url, body[:40], answer)
    status, answer = _post(_url(service, "/action_trump"), good)
    assert status == 200 and answer["trump"] in (0, 1, 2, 3, 4, 5, 10)
    status, answer = _post(_url(service, "/game_info"), good)
    assert (status, answer) == (200, "")
    with urllib.request.urlopen(_url(service), timeout=30) as r:
        assert json.loads(r.read()) == f"Player {service.name} here"


def test_the_command_binds_to_loopback_and_serves(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "agents.serve", "random", "--port", "0", "--name", "bot"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line + proc.stderr.read()
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        assert url.endswith("/bot")
        with urllib.request.urlopen(url, timeout=30) as r:
            assert json.loads(r.read()) == "Player bot here"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_command_refuses_a_bad_agent_spec_with_a_message():
    proc = subprocess.run([sys.executable, "-m", "agents.serve", "nonsense", "--port", "0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "unknown agent 'nonsense'" in proc.stderr and "Traceback" not in proc.stderr


def test_without_the_web_extra_the_command_names_it(monkeypatch, capsys):
    """Starlette not installed: the command says which extra brings it, and starts nothing."""
    for module in ("agents.player_service.app", "agents.player_service.server"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    for module in ["starlette"] + [m for m in sys.modules if m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, module, None)
    assert main(["random", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "'web' extra" in err and 'pip install "jass-env[web]"' in err and "Traceback" not in err


def test_mangled_observations_get_a_format_error_and_nothing_else():
    """Any field of a real observation replaced, deleted or retyped: the decision either goes
    through or raises JasskitFormatError (a 400 answer), never another exception (a 500)."""
    import copy
    import random

    from agents.jasskit_player import JasskitPlayer
    from jass_env import Round
    from jass_env.games.schieber.jasskit_map import JasskitFormatError, jasskit_observation_json
    from jass_env.games.schieber.seat_view import seat_position

    observations = []
    for seed in range(3):
        r = Round("tournament", seed=seed)
        while not r.is_over:
            history = [c for t in r.tricks for _, c in t["plays"]] + [c for _, c in r.current_trick]
            pos = seat_position(r.rules, r.to_move, r.hand(r.to_move), dealer=r.dealer, pushed=r.pushed,
                                contract=r.contract, plays=history if r.contract else ())
            observations.append(jasskit_observation_json(pos))
            r.step(int(r.legal_actions()[-1]))
    player = JasskitPlayer("random")
    rng = random.Random(1)
    values = [None, -1, 0, 3, 4, 9, 10, 36, "DA", "x", [], {}, [1], 1.5, True, "C6", [["DA"]]]
    answered = refused = 0
    for _ in range(2000):
        data = copy.deepcopy(rng.choice(observations))
        for _ in range(rng.randint(1, 3)):
            parent, key, node = None, None, data
            while isinstance(node, (dict, list)) and node and (parent is None or rng.random() < 0.6):
                key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
                parent, node = node, node[key]
            if parent is not None:
                if isinstance(parent, dict) and rng.random() < 0.2:
                    del parent[key]
                else:
                    parent[key] = rng.choice(values)
        try:
            player.decide(data)
            answered += 1
        except JasskitFormatError:
            refused += 1
    assert answered > 0 and refused > 1000
