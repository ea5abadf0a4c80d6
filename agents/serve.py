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
wrong: status 400 (not JSON, not an object, nested too deeply, an unreadable observation, the
wrong player, or no HTTP request at all), 404 (unknown path), 405 (wrong method; ``Allow`` names
the right one), 408 (the body did not come in time), 413 (body over 1 MiB), 415 (not JSON), 500
(the agent failed). The service answers the next request either way; the limits are
:class:`agents.player_service.limits.ServiceLimits`. It runs on Starlette and uvicorn (the ``web``
extra: ``pip install "jass-env[web]"``); jass-kit need not be installed: the protocol is JSON over
HTTP (:mod:`jass_env.games.schieber.jasskit_map`, :mod:`agents.jasskit_player`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from jass_env.commands import module_command
from jass_env.engine.switches import RulesError
from jass_env.games import PRESETS
from jass_env.games.schieber.jasskit_map import JASSKIT_RULES, jasskit_observation_json
from jass_env.games.schieber.seat_view import HAND_SIZE, N_SEATS, seat_position

from .extras import MissingExtraError
from .jasskit_player import JasskitPlayer
from .player_service.limits import DEFAULT_LIMITS, ServiceLimits
from .registry import AgentSpecError, describe_specs

if TYPE_CHECKING:
    from .player_service.server import JasskitService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5000
#: the characters a player name may hold besides letters and digits
NAME_CHARS = "-_."


def make_service(spec: str, *, name: str | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 rules: str = JASSKIT_RULES, verbose: bool = False,
                 limits: ServiceLimits = DEFAULT_LIMITS) -> JasskitService:
    """The service of an agent spec, listening (answering from ``serve_forever``). ``port`` 0 picks a
    free port (``service.server_address[1]``). Raises MissingExtraError without the ``web`` extra,
    AgentSpecError, RulesError or ValueError for a bad spec, rules or name, OSError if it cannot
    listen."""
    from .player_service.app import ServedPlayer
    from .player_service.server import JasskitService

    if name is not None and (not name or not all(ch.isalnum() or ch in NAME_CHARS for ch in name)):
        raise ValueError(f"a player name is one URL path segment of letters, digits and {NAME_CHARS}, "
                         f"got {name!r}")
    player = JasskitPlayer(spec, rules)
    warm_up(player)
    return JasskitService(ServedPlayer(player, name or _default_name(player)), host, port, limits, verbose)


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
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        service = make_service(args.policy, name=args.name, host=args.host, port=args.port, rules=args.rules,
                               verbose=args.verbose)
    except (MissingExtraError, AgentSpecError, RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)     # no web extra; a bad spec, checkpoint or name
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
