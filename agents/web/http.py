"""The browser app's requests: the limits its JSON bodies are read within, and reading one
(:mod:`agents.http_json`, shared with the player service, does the work and answers errors).

Every POST of the app must say ``Content-Type: application/json``; an empty body is ``{}``.
"""

from __future__ import annotations

from typing import Any

from ..extras import missing_extra

try:
    from starlette.requests import Request

    from ..http_json import RequestError, parse_json_object, read_body
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "agents.web (the browser app)", "web") from None

#: bytes of a request body (or a websocket message) the table routes read
MAX_BODY = 64 * 1024
#: levels of arrays and objects a body may nest
MAX_DEPTH = 32
#: seconds a client has to send a body
BODY_TIMEOUT = 10.0


async def read_json(request: Request, max_body: int = MAX_BODY, timeout: float = BODY_TIMEOUT,
                    max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The JSON object a request carries (``{}`` for an empty body); RequestError (415 not JSON,
    413 over ``max_body`` bytes, 408 not within ``timeout`` seconds, 400 not JSON, nested more
    than ``max_depth`` levels or not an object)."""
    return parse_json_object(await read_body(request, max_body, timeout), max_depth, empty_is_object=True)


__all__ = ["BODY_TIMEOUT", "MAX_BODY", "MAX_DEPTH", "RequestError", "read_json"]
