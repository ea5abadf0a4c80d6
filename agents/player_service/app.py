"""The player service's web application (Starlette): jass-kit's player routes for one player.

Every request gets JSON back: the answer, or ``{"error": "..."}`` saying what was wrong (and, for
a wrong method, an ``Allow`` header). Reading a body is capped in size and time; its JSON is
parsed, and the agent decides, in worker threads (anyio's, at most 40), so the event loop keeps
serving other clients; the agent decides one request at a time, since agents are not thread-safe.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from typing import Any

from jass_env.engine.cards import card_name
from jass_env.games.schieber.jasskit_map import JasskitFormatError

from ..extras import missing_extra
from ..jasskit_player import AgentActionError, JasskitPlayer
from . import NEEDED_BY, WEB_EXTRA
from .limits import ServiceLimits

try:
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
    from starlette.types import Receive, Scope, Send

    from ..http_json import ERROR_HANDLERS, RequestError, parse_json_object, read_body
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, NEEDED_BY, WEB_EXTRA) from None

TRUMP, PLAY_CARD, GAME_INFO = "action_trump", "action_play_card", "game_info"
ACTIONS = (TRUMP, PLAY_CARD, GAME_INFO)
#: the methods of the player's own path (its greeting) and of its actions
GREETING_METHODS, ACTION_METHODS = ("GET", "HEAD"), ("POST",)
#: what an action's body must be
OBSERVATION_SHAPE = "a JSON object: jass-kit's observation (GameObservation.to_json)"


class ServedPlayer:
    """The player behind the service: ``player`` under the path segment ``name``. It decides one
    request at a time and counts the decisions it answered (``answered``)."""

    def __init__(self, player: JasskitPlayer, name: str) -> None:
        self.player = player
        self.name = name
        self.answered = 0
        self._lock = threading.Lock()

    def answer(self, action: str, data: dict[str, Any]) -> dict[str, Any]:
        """The JSON answer to ``action`` (TRUMP or PLAY_CARD) on an observation; raises
        JasskitFormatError (an unreadable observation) or AgentActionError (an illegal decision)."""
        with self._lock:
            if action == TRUMP:
                answer: dict[str, Any] = {"trump": self.player.trump(data)}
            else:
                answer = {"card": card_name(self.player.card(data))}
            self.answered += 1
        return answer


class JsonAnswer(JSONResponse):
    """A JSON response written as ``json.dumps`` writes it (the service's answers as before)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content).encode()


class PlayerEndpoint:
    """The ASGI endpoint of every path and method: routes a request, checks it and answers it for
    ``served`` within ``limits``; raises RequestError for a request it cannot answer."""

    def __init__(self, served: ServedPlayer, limits: ServiceLimits) -> None:
        self.served = served
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.respond(Request(scope, receive))
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Response:
        """The answer to ``request``."""
        action = requested_action(request.url.path, self.served.name)
        check_method(request.method, action, self.served.name)
        if action is None:
            return JsonAnswer(f"Player {self.served.name} here")
        body = await read_body(request, self.limits.max_body, self.limits.client_timeout)
        data = await run_in_threadpool(parse_observation, body, self.limits.max_depth)
        if action == GAME_INFO:                     # the information is not used
            return JsonAnswer("")
        try:
            return JsonAnswer(await run_in_threadpool(self.served.answer, action, data))
        except JasskitFormatError as exc:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"bad observation: {exc}") from None
        except AgentActionError as exc:
            raise RequestError(HTTPStatus.INTERNAL_SERVER_ERROR, str(exc)) from None


def player_app(served: ServedPlayer, limits: ServiceLimits) -> Starlette:
    """The ASGI application serving ``served`` within ``limits``: one endpoint for every path and
    method, and a JSON answer for every error."""
    return Starlette(routes=[Route("/{path:path}", PlayerEndpoint(served, limits))],
                     exception_handlers=ERROR_HANDLERS)


def requested_action(path: str, name: str) -> str | None:
    """The action of a path of player ``name`` (``/NAME/ACTION``), or None for the player's own
    path (``/NAME``); raises RequestError for a path of another player or no player."""
    parts = path.strip("/").split("/")
    if len(parts) in (1, 2) and parts[0] == name:
        return parts[1] if len(parts) == 2 else None
    if len(parts) in (1, 2) and parts[0]:
        raise RequestError(HTTPStatus.BAD_REQUEST if len(parts) == 2 else HTTPStatus.NOT_FOUND,
                           f"player not found: {parts[0]!r}; this service plays {name!r}")
    raise RequestError(HTTPStatus.NOT_FOUND, f"no such path {path!r}; paths: /{name}, /{name}/{TRUMP}, "
                                             f"/{name}/{PLAY_CARD}, /{name}/{GAME_INFO}")


def check_method(method: str, action: str | None, name: str) -> None:
    """Raises RequestError unless ``method`` is one that ``action``'s path takes (404 for an
    unknown action, 405 with an ``Allow`` header for a wrong method)."""
    if action is None:
        if method not in GREETING_METHODS:
            raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, f"/{name} takes a GET, not {method}",
                               {"Allow": ", ".join(GREETING_METHODS)})
    elif action not in ACTIONS:
        raise RequestError(HTTPStatus.NOT_FOUND, f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")
    elif method not in ACTION_METHODS:
        raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED,
                           f"{action} takes a POST with an observation, not {method}",
                           {"Allow": ", ".join(ACTION_METHODS)})


def parse_observation(body: bytes, max_depth: int) -> dict[str, Any]:
    """The JSON object in ``body``; raises RequestError (400) for a body that is not JSON, nests
    arrays and objects more than ``max_depth`` levels deep, or is not an object."""
    return parse_json_object(body, max_depth, what="bad observation: the body", shape=OBSERVATION_SHAPE)
