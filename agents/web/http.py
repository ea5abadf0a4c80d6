"""JSON over HTTP for the browser app: reading a request's JSON body within limits, and the JSON
answer of every request that cannot be answered (``{"error": "..."}`` with its status).

A POST must say ``Content-Type: application/json`` (415 otherwise: a page of another site cannot
send that without the browser asking first, which this server never allows), its body at most
``max_body`` bytes (413), arriving within ``timeout`` seconds (408), valid JSON (400) nested at
most ``max_depth`` levels (400), and an object (400); an empty body is the empty object.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

logger = logging.getLogger(__name__)

JSON_TYPE = "application/json"
#: bytes of a request body the table routes read
MAX_BODY = 64 * 1024
#: levels of arrays and objects a body may nest
MAX_DEPTH = 32
#: seconds a client has to send a body
BODY_TIMEOUT = 10.0


_JSON_KINDS = {type(None): "null", bool: "a boolean", int: "a number", float: "a number", str: "a string",
               list: "an array"}


class RequestError(Exception):
    """A request that cannot be answered: its HTTP status, the message for ``{"error": ...}`` and
    the headers of the answer (``Allow`` for a wrong method, ``Retry-After``)."""

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


def parse_json_object(body: bytes, max_depth: int = MAX_DEPTH, what: str = "the body") -> dict[str, Any]:
    """The JSON object in ``body`` (the empty body: ``{}``); RequestError (400) for a body that is
    not UTF-8 JSON, nests more than ``max_depth`` levels, or is not an object (``what`` names
    it in the message: "the body", "the message")."""
    if not body.strip():
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
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           f"{what} must be a JSON object, got {_JSON_KINDS[type(data)]}")
    return data


async def read_json(request: Request, max_body: int = MAX_BODY, timeout: float = BODY_TIMEOUT,
                    max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The JSON object a request carries (see the module doc for the limits); RequestError."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != JSON_TYPE:
        raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                           f"a JSON body is expected (Content-Type: {JSON_TYPE}), got {kind or 'no type'!r}")
    declared = request.headers.get("content-length", "")
    too_large = f"a body of at most {max_body} bytes is read"
    if declared.isdigit() and int(declared) > max_body:
        raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body of {declared} bytes; {too_large}")
    body = bytearray()
    try:
        with anyio.fail_after(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > max_body:
                    raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body over {max_body} bytes; "
                                                                            f"{too_large}")
    except TimeoutError:
        raise RequestError(HTTPStatus.REQUEST_TIMEOUT, f"the body did not come within {timeout} s",
                           {"Connection": "close"}) from None
    except ClientDisconnect:
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           "the client closed the connection before its body came") from None
    return parse_json_object(bytes(body))


async def request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    logger.info("%s %s: %d %s", request.method, request.url.path, exc.status, exc.message)
    return error_response(exc.status, exc.message, exc.headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a wrong method): as JSON."""
    assert isinstance(exc, HTTPException)
    return error_response(exc.status_code, f"{exc.detail}: {request.method} {request.url.path}",
                          dict(exc.headers or {}))


async def internal_error(request: Request, exc: Exception) -> Response:
    """Anything unexpected: a 500 with the exception's type and message (the server logs the
    traceback); the server goes on."""
    return error_response(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error ({type(exc).__name__}: {exc})")


__all__ = ["BODY_TIMEOUT", "JSON_TYPE", "MAX_BODY", "MAX_DEPTH", "RequestError", "error_response",
           "http_error", "internal_error", "nests_deeper", "parse_json_object", "read_json", "request_error"]
