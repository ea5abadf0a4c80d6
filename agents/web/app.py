"""The browser app's web application (Starlette): the page, the tables' JSON API and websocket.

    GET  /                                the page (agents/web/static/index.html)
    GET  /static/FILE                     its scripts and styles
    GET  /api/games                       the presets, their seats and agents
    POST /api/tables                      a new table                 -> {"table", "tokens", "view"}
    GET  /api/tables/ID?seat=K&token=T    a seat's view (without seat: the watcher's, at a table of
                                          agents or once the round is over)
    POST /api/tables/ID/action            {"seat", "token", "action"} -> the seat's view
    POST /api/tables/ID/advance           {"steps", "seat", "token"}  -> the view (agents act)
    POST /api/tables/ID/next              {"seat", "token"}           -> the view (next round)
    GET  /api/tables/ID/record            the finished rounds' records (JSON Lines)
    WS   /api/tables/ID/ws?seat=K&token=T the seat's view after every change; actions in
    /api/reviews...                       reviews of record files (:mod:`agents.web.review_routes`)

Every answer is JSON; a request that cannot be answered gets ``{"error": "..."}`` with its status
(:mod:`agents.http_json`, :class:`agents.web.tables.TableError`). Table work (agents thinking,
views) runs in worker threads, so the event loop keeps serving other tables; each table takes
one request at a time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jass_env.engine.spec import TEAMS_NONE
from jass_env.games import DEFAULT_PRESET, PRESETS, game_of

from ..extras import missing_extra
from ..registry import agents_of, describe_specs
from .http import MAX_BODY, MAX_DEPTH, read_json
from .review import ReviewStore
from .review_routes import ROUTES as REVIEW_ROUTES
from .tables import Table, TableError, TableStore

try:
    import anyio
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket

    from ..http_json import ERROR_HANDLERS, RequestError, parse_json_object, request_error
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "agents.web (the browser app)", "web") from None

#: the page's files
STATIC_DIR = Path(__file__).resolve().parent / "static"
#: the page when its files are missing (a broken install)
MISSING_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Jass web app</title>
<h1>The page's files are missing</h1>
<p>The Jass web app serves its page from <code>{path}</code>, which does not exist. Reinstall the
package (<code>pip install "jass-env[web]"</code>) or run it from a complete clone. The JSON API
(<code>/api/games</code>, <code>/api/tables</code>) works without the page.</p></html>"""
#: websocket close codes: 4000 + the HTTP status of the refusal
WS_CLOSE_BASE = 4000
#: the fields of each table request's body
ACTION_FIELDS = ("seat", "token", "action")
ADVANCE_FIELDS = ("steps", "seat", "token")
NEXT_FIELDS = ("seat", "token")
#: the fields of each websocket message besides its type (seat and token are the socket's)
MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {"action": ("action",), "advance": ("steps",), "next": (),
                                              "view": ()}


class Hub:
    """The websockets open on each table, as queues that get a token after every change (a queue
    holds at most one: views are built when sent, so a slow socket skips to the newest)."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[None]]] = {}

    def subscribe(self, table_id: str) -> asyncio.Queue[None]:
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._queues.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[None]) -> None:
        queues = self._queues.get(table_id, set())
        queues.discard(queue)
        if not queues:
            self._queues.pop(table_id, None)

    def publish(self, table_id: str) -> None:
        """Tell every socket of the table that it changed."""
        for queue in self._queues.get(table_id, ()):
            if queue.empty():
                queue.put_nowait(None)


def games_answer(default_rules: str) -> dict[str, Any]:
    """``GET /api/games``: every preset with its seats, sides and the agents that play it."""
    presets = []
    for name, rules in PRESETS.items():
        spec, game = rules.spec, game_of(rules)
        presets.append({"name": name, "game": game.name, "title": spec.title, "players": spec.players,
                        "teams": spec.teams != TEAMS_NONE, "sides": spec.sides,
                        "side_of": [spec.side_of(p) for p in range(spec.players)],
                        "match": bool(rules.target or rules.match_rounds),
                        "default_match": spec.default_episode == "match",
                        "agents": list(agents_of(rules)), "shipped_policy": rules.game in game.checkpoints})
    return {"default": default_rules, "presets": presets, "agent_help": describe_specs()}


def _fields(body: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"unknown field(s) {', '.join(map(repr, unknown))}; "
                                                   f"{what} takes {', '.join(allowed)}")


def _store(request: Request | WebSocket) -> TableStore:
    return request.app.state.store


def _table(request: Request | WebSocket) -> Table:
    return _store(request).get(request.path_params["table_id"])


def controller(table: Table, seat: Any, token: Any) -> int | None:
    """Who may set a table's pace: a human seat with its token at a table with people (its
    view is answered), anyone at a table of agents (the watcher's view). TableError otherwise."""
    if table.is_watch and seat is None and token is None:
        return None
    return table.check_seat(seat, token)


def act(table: Table, what: str, body: dict[str, Any]) -> int | None:
    """Apply one request to a table (``what``: action, advance or next) in a worker thread's
    call; returns the seat whose view answers it (None: the watcher's)."""
    seat, token = body.get("seat"), body.get("token")
    if what == "action":
        return table.act(seat, token, body.get("action"))
    viewer = controller(table, seat, token)
    if what == "advance":
        table.advance(body.get("steps", 1))
    else:
        table.next_round()
    return viewer


async def change(request: Request, what: str, allowed: tuple[str, ...]) -> Response:
    body = await read_json(request)
    _fields(body, allowed, what)
    table = _table(request)
    viewer = await run_in_threadpool(act, table, what, body)
    request.app.state.hub.publish(table.id)
    return JSONResponse(await run_in_threadpool(table.view, viewer))


async def index(request: Request) -> Response:
    page = request.app.state.static_dir / "index.html"
    if not page.is_file():
        return HTMLResponse(MISSING_PAGE.format(path=page.parent), status_code=500)
    return FileResponse(page, headers={"Cache-Control": "no-cache"})


async def games(request: Request) -> Response:
    return JSONResponse(request.app.state.games)


async def create_table(request: Request) -> Response:
    body = await read_json(request)
    store = _store(request)
    table = await run_in_threadpool(store.create, body, request.app.state.default_rules)
    return JSONResponse(await run_in_threadpool(table.created))


async def table_view(request: Request) -> Response:
    table = _table(request)
    q = request.query_params
    return JSONResponse(await run_in_threadpool(table.view_for, q.get("seat"), q.get("token")))


async def table_action(request: Request) -> Response:
    return await change(request, "action", ACTION_FIELDS)


async def table_advance(request: Request) -> Response:
    return await change(request, "advance", ADVANCE_FIELDS)


async def table_next(request: Request) -> Response:
    return await change(request, "next", NEXT_FIELDS)


async def table_record(request: Request) -> Response:
    table = _table(request)
    text = await run_in_threadpool(table.record_text)
    if not text:
        raise TableError(HTTPStatus.CONFLICT, f"no round of table {table.id} has been played through all its "
                                              "tricks yet; the record holds each finished round")
    name = f"jass-{table.rules.name}-{table.id}.jsonl"
    return Response(text, media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def same_origin(ws: WebSocket) -> bool:
    """Whether a websocket comes from this server's own page (or from no page at all): a page of
    another site may not drive a table in a browser that has its token."""
    origin = ws.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == ws.headers.get("host")


async def table_socket(ws: WebSocket) -> None:
    """The websocket of one seat (or a watcher) at a table: its view now and after every change;
    messages ``{"type": "action"|"advance"|"next"|"view", ...}`` in, errors to the sender only."""
    await ws.accept()
    seat, token = ws.query_params.get("seat"), ws.query_params.get("token")
    try:
        if not same_origin(ws):
            raise TableError(HTTPStatus.FORBIDDEN,
                             f"a websocket from another site ({ws.headers.get('origin')}) is refused")
        table = _table(ws)
        await run_in_threadpool(table.view_for, seat, token)
    except TableError as e:
        await ws.send_text(json.dumps({"type": "error", "error": e.message}, ensure_ascii=False))
        await ws.close(code=WS_CLOSE_BASE + e.status)
        return
    hub: Hub = ws.app.state.hub
    queue = hub.subscribe(table.id)
    table.connections += 1
    send_lock = anyio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_text(json.dumps(message, ensure_ascii=False))

    async def push_views() -> None:
        while True:
            try:
                view = await run_in_threadpool(table.view_for, seat, token)
            except TableError as e:      # a watcher once the next round is dealt at a table with people
                await send({"type": "error", "error": e.message})
                await ws.close(code=WS_CLOSE_BASE + e.status)
                return
            await send({"type": "view", "view": view})
            await queue.get()

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(push_views)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                error = await socket_message(ws, table, seat, token, message)
                if error is not None:
                    await send({"type": "error", "error": error})
            tasks.cancel_scope.cancel()
    finally:
        hub.unsubscribe(table.id, queue)
        table.connections -= 1


async def socket_message(ws: WebSocket, table: Table, seat: Any, token: Any,
                         message: dict[str, Any]) -> str | None:
    """Carry out one websocket message; the error to send back, or None (every socket of the
    table is then told of the change)."""
    text = message.get("text")
    kinds = "action (with action), advance (with steps), next, view"
    try:
        if text is None:
            raise RequestError(HTTPStatus.BAD_REQUEST, "messages are JSON text, not binary")
        if len(text) > MAX_BODY:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                               f"a message of at most {MAX_BODY} characters is read")
        data = parse_json_object(text.encode("utf-8"), MAX_DEPTH, what="the message", empty_is_object=True)
        kind = data.pop("type", None)
        if kind not in MESSAGE_FIELDS:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"unknown message type {kind!r}; types: {kinds}")
        _fields(data, MESSAGE_FIELDS[kind], f"a {kind} message")
        _store(ws).get(table.id)                     # the table is in use (and still there)
        if kind == "view":
            ws.app.state.hub.publish(table.id)
            return None
        await run_in_threadpool(act, table, kind, {**data, "seat": seat, "token": token})
    except (RequestError, TableError) as e:
        return e.message
    ws.app.state.hub.publish(table.id)
    return None


def routes(static_dir: Path) -> list[BaseRoute]:
    """The app's routes: the page, the tables, the reviews (:mod:`agents.web.review_routes`)."""
    return [
        Route("/", index, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_view, methods=["GET"]),
        Route("/api/tables/{table_id}/action", table_action, methods=["POST"]),
        Route("/api/tables/{table_id}/advance", table_advance, methods=["POST"]),
        Route("/api/tables/{table_id}/next", table_next, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
        WebSocketRoute("/api/tables/{table_id}/ws", table_socket),
        *REVIEW_ROUTES,
        Mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static"),
    ]


async def _table_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TableError)
    headers = {"Retry-After": "60"} if exc.status == HTTPStatus.SERVICE_UNAVAILABLE else None
    return await request_error(request, RequestError(exc.status, exc.message, headers))


def create_app(default_rules: str = DEFAULT_PRESET, store: TableStore | None = None,
               static_dir: Path = STATIC_DIR) -> Starlette:
    """The browser app: ``default_rules`` the preset the page offers first, ``store`` the tables
    (a fresh :class:`TableStore` by default), ``static_dir`` the page's files. ValueError for an
    unknown preset."""
    if default_rules not in PRESETS:
        raise ValueError(f"unknown rules preset {default_rules!r}; presets: {', '.join(PRESETS)}")
    handlers: dict[Any, Callable[..., Any]] = {**ERROR_HANDLERS, TableError: _table_error}
    app = Starlette(routes=routes(static_dir), exception_handlers=handlers)
    app.state.default_rules = default_rules
    app.state.store = store if store is not None else TableStore()
    app.state.hub = Hub()
    app.state.reviews = ReviewStore()
    app.state.static_dir = static_dir
    app.state.games = games_answer(default_rules)
    return app


__all__ = ["Hub", "STATIC_DIR", "create_app", "games_answer", "routes"]
