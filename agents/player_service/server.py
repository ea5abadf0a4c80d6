"""The player service's HTTP server: uvicorn (HTTP/1.1 through h11) on a socket bound and
listening from the moment the service is made.

uvicorn times out a keep-alive connection only after an answer, and cancels that on any byte
received, so a client that connects and sends nothing, or its request line a byte at a time, would
hold its connection (and a place under ``limit_concurrency``) for ever. Here every connection has
``client_timeout`` seconds from opening, and from each answer, to deliver its next request's head;
the application then gives the body as long (:func:`agents.http_json.read_body`).
"""

from __future__ import annotations

import asyncio
import json
import threading

from ..extras import missing_extra
from ..jasskit_player import JasskitPlayer
from . import NEEDED_BY, WEB_EXTRA
from .app import ServedPlayer, player_app
from .limits import DEFAULT_LIMITS, ServiceLimits

try:
    import h11
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from ..http_json import listening_socket
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, NEEDED_BY, WEB_EXTRA) from None


class _HeadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head (``config.timeout_keep_alive``
    seconds) and a JSON answer to a request it cannot read."""

    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm_head_deadline()

    def on_response_complete(self) -> None:
        self._arm_head_deadline()             # first: the base class may start a pipelined request
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
        self._head_deadline = self.loop.call_later(self.config.timeout_keep_alive, self._head_overdue)

    def _head_overdue(self) -> None:
        """Close the connection unless a request's head arrived (its application then times its
        body)."""
        self._head_deadline = None
        if self.cycle is not None and not self.cycle.response_complete:
            return
        if not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to bytes that are no HTTP/1.1 request (or a head over the size
        limit), as JSON; the connection is closed after it."""
        body = json.dumps({"error": f"{msg.rstrip('.').lower()}: not an HTTP/1.1 request this service reads "
                                    f"(request line and headers at most "
                                    f"{self.config.h11_max_incomplete_event_size} bytes)"}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()


class JasskitService:
    """One player (``served``) served over HTTP within ``limits``: listening when made; answering
    from :meth:`serve_forever` (in any thread) until :meth:`shutdown` or, in the main thread,
    Ctrl-C. ``server_address``: (host, port) bound."""

    def __init__(self, served: ServedPlayer, host: str, port: int, limits: ServiceLimits = DEFAULT_LIMITS,
                 verbose: bool = False) -> None:
        self.served = served
        self.limits = limits
        self.socket = listening_socket(host, port, limits.backlog)
        config = uvicorn.Config(
            player_app(served, limits), http=_HeadDeadlineProtocol, lifespan="off", proxy_headers=False,
            timeout_keep_alive=limits.client_timeout,            # type: ignore[arg-type] (seconds)
            limit_concurrency=limits.max_connections, backlog=limits.backlog,
            h11_max_incomplete_event_size=limits.max_head,
            timeout_graceful_shutdown=limits.client_timeout,     # type: ignore[arg-type] (seconds)
            log_config=None, log_level="info" if verbose else "warning", access_log=verbose)
        self._server = uvicorn.Server(config)
        self._stopped = threading.Event()
        self._stopped.set()

    @property
    def server_address(self) -> tuple[str, int]:
        host, port = self.socket.getsockname()[:2]
        return host, port

    @property
    def name(self) -> str:
        """The player's name: the first segment of its paths."""
        return self.served.name

    @property
    def player(self) -> JasskitPlayer:
        """The player deciding."""
        return self.served.player

    @property
    def answered(self) -> int:
        """Decisions answered (trump and card)."""
        return self.served.answered

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`; in the main thread SIGINT and SIGTERM stop it too
        (and are raised again after, so Ctrl-C ends in KeyboardInterrupt)."""
        self._stopped.clear()
        try:
            self._server.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop :meth:`serve_forever` (from another thread) and wait until it has returned; the
        requests in progress get ``client_timeout`` seconds to finish."""
        self._server.should_exit = True
        self._stopped.wait()

    def server_close(self) -> None:
        """Close the listening socket."""
        self.socket.close()
