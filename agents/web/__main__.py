"""The browser app's command line (console script ``jass-web``); :mod:`agents.web` documents it.

    python -m agents.web [--rules PRESET] [--host HOST] [--port N] [--open-browser]
                         [--max-tables N] [--table-ttl SECONDS] [--verbose]
    python -m agents.web review FILE [-o OUT.html] [--agent SPEC] [--rules PRESET] ...

Exit status: 0 when stopped with Ctrl-C, 2 for bad arguments, a port that cannot be listened on or
the ``web`` extra missing (the ``review`` subcommand: :func:`agents.web.review_html.run_review`).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
import threading
import time
import webbrowser
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from jass_env.commands import module_command
from jass_env.games import DEFAULT_PRESET, PRESETS, make_rules
from jass_env.render import render_table
from jass_env.round import Round

from ..extras import MissingExtraError
from ..table import encode
from .tables import DEFAULT_MAX_TABLES, DEFAULT_TTL

if TYPE_CHECKING:
    import uvicorn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: connections the system queues while the server is busy accepting, and the most it serves at once
BACKLOG, MAX_CONNECTIONS = 1024, 512
#: seconds an idle keep-alive connection is kept open
KEEP_ALIVE = 5
#: seconds the server waits for its requests in progress when it stops
GRACEFUL_SHUTDOWN = 5


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.x, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_url(host: str, port: int) -> str:
    """The address people open: ``http://HOST:PORT/`` (an IPv6 host in brackets)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def warm_up(rules_name: str) -> None:
    """Compile what a table of ``rules_name`` needs (the engine, the observation, the text table)
    before the first request asks for it: one round of random legal actions."""
    rules = make_rules(rules_name)
    rnd, rng = Round(rules, seed=0), np.random.default_rng(0)
    while not rnd.is_over:
        encode(rnd, rnd.to_move)
        rnd.step(int(rng.choice(rnd.legal_actions())))
    render_table(rnd.state, rules, show_hands=0)


def _parser() -> argparse.ArgumentParser:
    from .review_html import add_review_parser

    ap = argparse.ArgumentParser(
        prog=module_command("agents.web"),
        description="Play any game of the Jass family in the browser (people and agents in any seats), "
                    "watch agents play, and review game records. Serves a local web app; open the address "
                    "it prints.")
    ap.add_argument("--rules", default=DEFAULT_PRESET, choices=list(PRESETS), metavar="PRESET",
                    help=f"the preset the page offers first (default {DEFAULT_PRESET}; any other can be "
                         f"chosen on the page): {', '.join(PRESETS)}")
    ap.add_argument("--host", default=DEFAULT_HOST,
                    help=f"address to listen on (default {DEFAULT_HOST}: this machine only; 0.0.0.0 = every "
                         "network, with a warning: the app has no login)")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT,
                    help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one, printed)")
    ap.add_argument("--open-browser", action="store_true", help="open the page in the default browser")
    ap.add_argument("--max-tables", type=int, default=DEFAULT_MAX_TABLES, metavar="N",
                    help=f"the most tables kept at once (default {DEFAULT_MAX_TABLES}; more are refused "
                         "with 503)")
    ap.add_argument("--table-ttl", type=float, default=DEFAULT_TTL, metavar="SECONDS",
                    help=f"a table nobody asked about for this long is dropped (default {DEFAULT_TTL:.0f})")
    ap.add_argument("--verbose", action="store_true", help="log every request to standard error")
    sub = ap.add_subparsers(dest="command", metavar="{review}")
    add_review_parser(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; returns the exit status."""
    try:
        parser = _parser()
        from .app import create_app  # noqa: F401 (the web extra is there)
    except MissingExtraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if args.command == "review":
        from .review_html import run_review

        return run_review(args)
    return serve(args)


def serve(args: argparse.Namespace) -> int:
    """Listen, print the address, serve until Ctrl-C; the exit status."""
    import uvicorn

    from ..http_json import listening_socket
    from .app import create_app
    from .tables import TableStore

    if not 0 <= args.port <= 65535:
        print(f"error: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    try:
        store = TableStore(ttl=args.table_ttl, max_tables=args.max_tables)
    except ValueError as exc:
        print(f"error: --max-tables and --table-ttl: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        sock = listening_socket(args.host, args.port, BACKLOG)
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if not is_loopback(args.host):
        print(f"warning: --host {args.host} lets other machines reach the app; it has no login: anyone who "
              "reaches it can open tables and run agents on this machine", file=sys.stderr)
    app = create_app(default_rules=args.rules, store=store)
    config = uvicorn.Config(app, lifespan="off", proxy_headers=False, timeout_keep_alive=KEEP_ALIVE,
                            limit_concurrency=MAX_CONNECTIONS, backlog=BACKLOG, ws_max_size=64 * 1024,
                            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN, log_config=None,
                            log_level="info" if args.verbose else "warning", access_log=args.verbose)
    server = uvicorn.Server(config)
    host, port = sock.getsockname()[:2]
    url = app_url(host, port)
    print(f"Jass web app: {url}", flush=True)
    print(f"(rules {args.rules} first; Ctrl-C stops)", flush=True)
    threading.Thread(target=warm_up, args=(args.rules,), daemon=True).start()
    if args.open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


def _open_when_started(server: uvicorn.Server, url: str) -> None:
    """Open ``url`` in the browser once the server answers."""
    while not server.started and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)


if __name__ == "__main__":
    sys.exit(main())
