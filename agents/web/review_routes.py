"""The review routes of the browser app (the design's JSON API), mounted by
:func:`agents.web.app.create_app` (``ROUTES``)::

    POST /api/reviews                           {"text", "name", "format", "rules"?} -> the records
    GET  /api/reviews/{id}/{record}?viewpoint=K&open=1                            -> review JSON
    POST /api/reviews/{id}/{record}/analysis    {"agent", "threshold"?, "seed"?}   -> analysis JSON
    POST /api/reviews/{id}/{record}/playon      {"decision", "seats", "seed"?}     -> a new table

Reviews live in ``app.state.reviews`` (a :class:`~agents.web.review.ReviewStore`); play-on hands
the round to the app's table store (``app.state.store``) and answers as ``POST /api/tables``.
Bodies are read by :func:`agents.web.http.read_json`. Every error is ``{"error": "..."}``: 400
bad input (saying what is allowed), 404 no such review or record, 413 a file over
:data:`MAX_UPLOAD_BYTES`, and the app's own statuses (:mod:`agents.web.app`). The work (reading,
replaying, an agent's analysis) runs in worker threads, off the event loop.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .http import RequestError, read_json
from .review import (
    DEFAULT_THRESHOLD,
    FORMATS,
    ReviewError,
    ReviewNotFound,
    ReviewRecord,
    ReviewStore,
    analyse,
    playon_round,
    read_review,
)

#: the largest file (its text in the request's body) a review reads, and the seconds it may take
#: to arrive
MAX_UPLOAD_BYTES = 16 * 1024 * 1024
UPLOAD_TIMEOUT = 60.0
#: the problems of a file without a reviewable record that its error lists (then "... and N more")
PROBLEMS_SHOWN = 10

Handler = Callable[[Request], Awaitable[dict[str, Any]]]


def _json_route(handler: Handler) -> Callable[[Request], Awaitable[JSONResponse]]:
    """A handler's answer as JSON; a ReviewError becomes the app's error answer (404 for what is
    not there, else 400)."""
    async def endpoint(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await handler(request))
        except ReviewNotFound as exc:
            raise RequestError(HTTPStatus.NOT_FOUND, str(exc)) from None
        except ReviewError as exc:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(exc)) from None
    endpoint.__name__ = handler.__name__
    return endpoint


#: the default of a field the body must have
REQUIRED = object()


def _field(body: dict[str, Any], key: str, kinds: type | tuple[type, ...], what: str,
           default: Any = REQUIRED) -> Any:
    """``body[key]`` of the given type(s) (a boolean is none of them), or ``default`` when it is
    absent or null."""
    value = body.get(key)
    if value is None:
        if default is REQUIRED:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body needs {key!r}: {what}")
        return default
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise RequestError(HTTPStatus.BAD_REQUEST, f"{key!r} must be {what}, got {json.dumps(value)[:60]}")
    return value


def reviews_of(request: Request) -> ReviewStore:
    """The app's reviews (``app.state.reviews``, set by :func:`agents.web.app.create_app`)."""
    return request.app.state.reviews


def _record(request: Request) -> ReviewRecord:
    review = reviews_of(request).get(request.path_params["review"])
    return review.record(request.path_params["record"])


async def create_review(request: Request) -> dict[str, Any]:
    """``POST /api/reviews``: read a file's text for review; its records, and the lines that cannot
    be reviewed. 400 when none can."""
    body = await read_json(request, max_body=MAX_UPLOAD_BYTES, timeout=UPLOAD_TIMEOUT)
    text = _field(body, "text", str, "the file's contents as a string")
    name = _field(body, "name", str, "the file's name", "review")
    fmt = _field(body, "format", str, f"one of {', '.join(FORMATS)}", "auto")
    rules = _field(body, "rules", str, "a rules preset replacing each record's", None)
    review = await run_in_threadpool(read_review, text, name, fmt, rules)
    if not review.records:
        shown = review.problems[:PROBLEMS_SHOWN]
        more = len(review.problems) - len(shown)
        why = "; ".join(shown) + (f"; ... and {more} more" if more else "") if shown else "the file is empty"
        raise ReviewError(f"{name} has no record that can be reviewed ({why}); a review reads game records "
                          f"(JSON Lines, docs/records.md) or a jass-kit game log")
    summary = await run_in_threadpool(review.summary)
    return {"review": reviews_of(request).add(review), **summary}


async def record_review(request: Request) -> dict[str, Any]:
    """``GET /api/reviews/{id}/{record}?viewpoint=K&open=1``: the review JSON of one record."""
    rec = _record(request)
    query = request.query_params
    viewpoint_text = query.get("viewpoint", "0")
    try:
        viewpoint = int(viewpoint_text)
    except ValueError:
        raise ReviewError(f"viewpoint must be a seat 0..{rec.rules.spec.players - 1}, "
                          f"got {viewpoint_text!r}") from None
    open_text = query.get("open", "0").lower()
    if open_text not in ("0", "1", "false", "true"):
        raise ReviewError(f"open must be 1 (every hand shown) or 0 (the viewpoint's own), got {open_text!r}")
    return await run_in_threadpool(rec.review, viewpoint, open_text in ("1", "true"))


async def record_analysis(request: Request) -> dict[str, Any]:
    """``POST /api/reviews/{id}/{record}/analysis``: an agent's opinion of every decision."""
    rec = _record(request)
    body = await read_json(request)
    agent = _field(body, "agent", str, "an agent spec (policy, random, heuristic, pimc:worlds=10, a file)")
    threshold = _field(body, "threshold", (int, float), "a number 0..1", DEFAULT_THRESHOLD)
    seed = _field(body, "seed", int, "a non-negative integer", 0)
    if seed < 0:
        raise ReviewError(f"seed must be a non-negative integer, got {seed}")
    return await run_in_threadpool(analyse, rec, agent, threshold, seed)


async def record_playon(request: Request) -> dict[str, Any]:
    """``POST /api/reviews/{id}/{record}/playon``: a new table on the record's deal, just before
    decision ``decision``, with ``seats`` (as ``POST /api/tables``)."""
    rec = _record(request)
    body = await read_json(request)
    decision = _field(body, "decision", int, "the index of a decision of the record")
    seats = _field(body, "seats", list, f"a list of {rec.rules.spec.players} seats, each \"human\" or an "
                                        f"agent spec")
    seed = _field(body, "seed", int, "a non-negative integer", None)
    rnd = await run_in_threadpool(playon_round, rec, decision)
    table_body = {"seats": seats} if seed is None else {"seats": seats, "seed": seed}
    store = request.app.state.store
    table = await run_in_threadpool(store.create, table_body, request.app.state.default_rules, start=rnd)
    return await run_in_threadpool(table.created)


ROUTES = [
    Route("/api/reviews", _json_route(create_review), methods=["POST"]),
    Route("/api/reviews/{review}/{record}", _json_route(record_review), methods=["GET"]),
    Route("/api/reviews/{review}/{record}/analysis", _json_route(record_analysis), methods=["POST"]),
    Route("/api/reviews/{review}/{record}/playon", _json_route(record_playon), methods=["POST"]),
]

__all__ = ["ROUTES", "MAX_UPLOAD_BYTES", "reviews_of"]
