"""A player service speaking jass-kit's player-service protocol, so our bots and trained policies
can enter jass-kit-based tournaments::

    python -m agents.serve POLICY [--port 5000] [--host 127.0.0.1] [--name NAME] [--rules PRESET]

``POLICY`` is an agent spec (``heuristic``, ``pimc:worlds=20``, a ``.pt`` checkpoint or an
``.onnx`` export; see ``agents.registry``). The service binds to 127.0.0.1 unless ``--host`` says
otherwise, and answers jass-kit's routes (``jass.service.player_service_route``) for the player
``NAME`` (default: the agent's name):

=======  ===========================  ==========================================================
method   path                         answer
=======  ===========================  ==========================================================
POST     ``/NAME/action_trump``       ``{"trump": t}``: 0..5 (D H S C obe une) or 10 (push)
POST     ``/NAME/action_play_card``   ``{"card": "DA"}``
POST     ``/NAME/game_info``          ``""`` (the information is not used)
GET      ``/NAME``                    ``"Player NAME here"``
=======  ===========================  ==========================================================

A POST body is jass-kit's observation JSON (``GameObservation.to_json``, as its
``AgentByNetwork`` sends it). A bad request gets a JSON ``{"error": "..."}`` that says what was
wrong: status 400 (unreadable observation, wrong player), 404 (unknown path), 405 (wrong method),
413 (body too large), 415 (not JSON), 500 (the agent failed). The service answers the next
request either way. jass-kit need not be installed: the protocol is JSON over HTTP
(:mod:`jass_env.games.schieber.jasskit_map`, :mod:`agents.jasskit_player`).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from jass_env.commands import module_command
from jass_env.engine.cards import card_name
from jass_env.engine.switches import RulesError
from jass_env.games import PRESETS
from jass_env.games.schieber.jasskit_map import JASSKIT_RULES, JasskitFormatError, jasskit_observation_json
from jass_env.games.schieber.seat_view import HAND_SIZE, N_SEATS, seat_position

from .jasskit_player import AgentActionError, JasskitPlayer
from .registry import AgentSpecError, describe_specs

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5000
#: the largest request body read (a jass-kit observation is about 2 kB)
MAX_BODY = 1 << 20
TRUMP, PLAY_CARD, GAME_INFO = "action_trump", "action_play_card", "game_info"
#: the characters a player name may hold besides letters and digits
NAME_CHARS = "-_."


class JasskitService(ThreadingHTTPServer):
    """The HTTP server: one player (``player``) under ``name``; one decision at a time."""

    daemon_threads = True

    def __init__(self, player: JasskitPlayer, name: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 verbose: bool = False) -> None:
        super().__init__((host, port), _Handler)
        self.player = player
        self.name = name
        self.verbose = verbose
        self.lock = threading.Lock()        # agents are not thread-safe
        self.answered = 0                   # decisions answered (trump and card)


class _Handler(BaseHTTPRequestHandler):
    server: JasskitService
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: HTTPStatus, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: HTTPStatus, text: str) -> None:
        self.close_connection = True        # the body may be unread: start the next request afresh
        if self.server.verbose:
            print(f"{self.command} {self.path}: {status.value} {text}", file=sys.stderr)
        self._send(status, {"error": text})

    def _route(self) -> tuple[str, str | None] | None:
        """(player name, action or None) of the path, or None (404 sent) for a path of another player."""
        parts = self.path.split("?", 1)[0].strip("/").split("/")
        if len(parts) in (1, 2) and parts[0] == self.server.name:
            return parts[0], parts[1] if len(parts) == 2 else None
        if len(parts) in (1, 2) and parts[0]:
            self._error(HTTPStatus.BAD_REQUEST if len(parts) == 2 else HTTPStatus.NOT_FOUND,
                        f"player not found: {parts[0]!r}; this service plays {self.server.name!r}")
        else:
            n = self.server.name
            self._error(HTTPStatus.NOT_FOUND, f"no such path {self.path!r}; paths: /{n}, /{n}/{TRUMP}, "
                                              f"/{n}/{PLAY_CARD}, /{n}/{GAME_INFO}")
        return None

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        route = self._route()
        if route is None:
            return
        if route[1] is not None:
            self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{route[1]} takes a POST with an observation")
            return
        self._send(HTTPStatus.OK, f"Player {self.server.name} here")

    def do_POST(self) -> None:  # noqa: N802
        try:
            self._post()
        except Exception as exc:  # noqa: BLE001 - one bad request must never stop the service
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error ({type(exc).__name__}: {exc})")

    def _post(self) -> None:
        route = self._route()
        if route is None:
            return
        action = route[1]
        if action not in (TRUMP, PLAY_CARD, GAME_INFO):
            self._error(HTTPStatus.NOT_FOUND if action else HTTPStatus.METHOD_NOT_ALLOWED,
                        f"unknown action {action!r}; actions: {TRUMP}, {PLAY_CARD}, {GAME_INFO}"
                        if action else f"/{self.server.name} takes a GET")
            return
        data = self._read_json()
        if data is None:
            return
        if action == GAME_INFO:
            self._send(HTTPStatus.OK, "")
            return
        try:
            with self.server.lock:
                if action == TRUMP:
                    answer: dict[str, Any] = {"trump": self.server.player.trump(data)}
                else:
                    answer = {"card": card_name(self.server.player.card(data))}
                self.server.answered += 1
        except JasskitFormatError as exc:
            self._error(HTTPStatus.BAD_REQUEST, f"bad observation: {exc}")
            return
        except AgentActionError as exc:
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, str(exc))
            return
        self._send(HTTPStatus.OK, answer)

    def _read_json(self) -> Any:
        """The request's JSON body, or None after sending the error."""
        if self.headers.get_content_type() != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                        "json data expected (Content-Type: application/json)")
            return None
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._error(HTTPStatus.LENGTH_REQUIRED,
                        "a Content-Length header with the body's size is required")
            return None
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body of {length} bytes; at most {MAX_BODY}")
            return None
        body = self.rfile.read(length)
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            self._error(HTTPStatus.BAD_REQUEST, f"the body is not valid JSON: {exc}")
            return None


def make_service(spec: str, *, name: str | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 rules: str = JASSKIT_RULES, verbose: bool = False) -> JasskitService:
    """The service of an agent spec (not yet serving: call ``serve_forever``). ``port`` 0 picks a
    free port (``service.server_address[1]``)."""
    if name is not None and (not name or not all(ch.isalnum() or ch in NAME_CHARS for ch in name)):
        raise ValueError(f"a player name is one URL path segment of letters, digits and {NAME_CHARS}, "
                         f"got {name!r}")
    player = JasskitPlayer(spec, rules)
    warm_up(player)
    return JasskitService(player, name or _default_name(player), host, port, verbose)


def warm_up(player: JasskitPlayer) -> None:
    """Decide once on each kind of request (trump, trump after a push, card), so that the engine
    and the agent are compiled before the first one (a tournament server waits only seconds)."""
    hand, rules = list(range(HAND_SIZE)), player.rules
    positions = [seat_position(rules, 0, hand, dealer=N_SEATS - 1),
                 seat_position(rules, 0, hand, dealer=1, pushed=rules.push),
                 seat_position(rules, 0, hand, dealer=N_SEATS - 1, contract=rules.contracts[0])]
    for pos in positions:
        player.decide(jasskit_observation_json(pos))


def _default_name(player: JasskitPlayer) -> str:
    """The agent's name, usable as one path segment."""
    text = "".join(ch if ch.isalnum() or ch in NAME_CHARS else "_" for ch in player.name)
    return text or "player"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=module_command("agents.serve"),
        description="Serve one of our agents over jass-kit's player-service protocol (HTTP + JSON).",
        epilog="agents:\n" + describe_specs(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("policy", metavar="POLICY",
                        help="agent spec: heuristic, pimc:worlds=20, PATH.pt, PATH.onnx")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to bind (default {DEFAULT_HOST}, this machine only; 0.0.0.0 = all)")
    parser.add_argument("--name", help="the player's name in the URLs (default: the agent's name)")
    parser.add_argument("--rules", default=JASSKIT_RULES, choices=list(PRESETS), metavar="PRESET",
                        help=f"rules the agent decides under (default {JASSKIT_RULES}, jass-kit's scoring)")
    parser.add_argument("--verbose", action="store_true", help="log every request to standard error")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if not 0 <= args.port <= 65535:
        print(f"error: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    try:
        service = make_service(args.policy, name=args.name, host=args.host, port=args.port, rules=args.rules,
                               verbose=args.verbose)
    except (AgentSpecError, RulesError, ValueError) as exc:   # a bad spec, checkpoint or name
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    host, port = service.server_address[:2]
    url = f"http://{host}:{port}/{service.name}"
    print(f"serving {service.player.name!r} as player {service.name!r} at {url} (jass-kit: "
          f"AgentByNetwork({url!r})); Ctrl-C stops", flush=True)
    try:
        service.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        service.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
