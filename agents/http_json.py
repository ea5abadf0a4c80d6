"""JSON over HTTP for the agents' two web services, the player service (:mod:`agents.serve`,
:mod:`agents.player_service`) and the browser app (:mod:`agents.web`): reading a request's JSON
body within limits, the JSON answer of every request that cannot be answered (``{"error":
"..."}`` with its status), and the listening socket.

A body is read only with ``Content-Type: application/json`` (415 otherwise: a page of another site
cannot send that without the browser asking first, which neither service allows), at most
``max_body`` bytes (413), arriving within ``timeout`` seconds (408); it must be valid UTF-8 JSON
(400), nested at most ``max_depth`` levels (400), and an object (400).

Both services import this module inside their guarded imports of Starlette, so a missing ``web``
extra is reported as theirs.
"""

from __future__ import annotations

import json
import logging
import socket
from http import HTTPStatus
from typing import Any

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

logger = logging.getLogger(__name__)

JSON_TYPE = "application/json"
#: parsed JSON values by how messages name them
_JSON_KINDS = {type(None): "null", bool: "a boolean", int: "a number", float: "a number", str: "a string",
               list: "an array", dict: "an object"}


class RequestError(Exception):
    """A request that cannot be answered: its HTTP status, the message for ``{"error": ...}`` and
    the headers of the answer (``Allow`` for a wrong method, ``Connection: close``,
    ``Retry-After``)."""

    def __init__(self, status: HTTPStatus | int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = int(status), message, headers or {}


def error_response(status: HTTPStatus | int, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=int(status), headers=headers)


def nests_deeper(data: Any, limit: int) -> bool:
    """Whether arrays and objects in parsed JSON ``data`` nest more than ``limit`` levels (``data``
    itself, if one, is level 1)."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def parse_json_object(body: bytes, max_depth: int, what: str = "the body", shape: str = "a JSON object",
                      empty_is_object: bool = False) -> dict[str, Any]:
    """The JSON object in ``body``; RequestError (400) for a body that is not UTF-8 JSON, nests
    more than ``max_depth`` levels, or is not an object. ``what`` names the body in the messages
    (``"the message"``), ``shape`` says what it must be; ``empty_is_object``: an empty body is
    ``{}`` (else it is not JSON)."""
    if empty_is_object and not body.strip():
        return {}
    too_deep = f"{what} nests arrays and objects more than {max_depth} levels deep"
    try:
        data = json.loads(body.decode("utf-8"))
    except RecursionError:
        raise RequestError(HTTPStatus.BAD_REQUEST, too_deep) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"{what} is not valid JSON: {exc}") from None
    if nests_deeper(data, max_depth):
        raise RequestError(HTTPStatus.BAD_REQUEST, too_deep)
    if not isinstance(data, dict):
        raise RequestError(HTTPStatus.BAD_REQUEST, f"{what} must be {shape}, got {_JSON_KINDS[type(data)]}")
    return data


async def read_body(request: Request, max_body: int, timeout: float) -> bytes:
    """A request's JSON body (the module doc: its type, size and time); RequestError (415, 413,
    408, or 400 when the client goes before its body came)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != JSON_TYPE:
        raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                           f"json data expected (Content-Type: {JSON_TYPE}), got {kind or 'no type'!r}")
    too_large = f"a body of at most {max_body} bytes is read"
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_body:
        raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body of {declared} bytes; {too_large}")
    body = bytearray()
    try:
        with anyio.fail_after(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > max_body:
                    raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                       f"body over {max_body} bytes; {too_large}")
    except TimeoutError:
        raise RequestError(HTTPStatus.REQUEST_TIMEOUT,
                           f"the body did not come within {timeout} s ({len(body)} bytes came)",
                           {"Connection": "close"}) from None
    except ClientDisconnect:
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           "the client closed the connection before its body came") from None
    return bytes(body)


async def request_error(request: Request, exc: Exception) -> Response:
    """The answer to a RequestError (logged at INFO)."""
    assert isinstance(exc, RequestError)
    logger.info("%s %s: %d %s", request.method, request.url.path, exc.status, exc.message)
    return error_response(exc.status, exc.message, exc.headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a wrong method, a request target that is no
    path): as JSON."""
    assert isinstance(exc, HTTPException)
    return error_response(exc.status_code, f"{exc.detail}: {request.method} {request.url.path!r}",
                          dict(exc.headers or {}))


async def internal_error(request: Request, exc: Exception) -> Response:
    """Anything unexpected: a 500 with the exception's type and message (the server logs the
    traceback); the service goes on."""
    return error_response(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error ({type(exc).__name__}: {exc})")


#: the handlers every service installs (``Starlette(exception_handlers=...)``)
ERROR_HANDLERS = {RequestError: request_error, HTTPException: http_error, Exception: internal_error}


def listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0 = a free port) and listening, queueing up to
    ``backlog`` connections; raises OSError. Its protocol is named (IPPROTO_TCP), so that asyncio
    sets TCP_NODELAY on each connection: without it an answer written in two pieces (head, then
    body) waits about 40 ms for the client's delayed acknowledgement of the first."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock


__all__ = ["ERROR_HANDLERS", "JSON_TYPE", "RequestError", "error_response", "http_error", "internal_error",
           "listening_socket", "nests_deeper", "parse_json_object", "read_body", "request_error"]
