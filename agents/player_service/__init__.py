"""The player service's web stack (the optional ``web`` extra: ``pip install "jass-env[web]"``):
one of our agents answering jass-kit's player-service protocol over HTTP. ``python -m agents.serve``
is its command line and lists the routes.

    limits.py   what the service accepts from a client: body size, JSON nesting, time, connections
    app.py      the web application (Starlette): the routes, reading a request, a JSON error for
                every request it cannot answer, the agent's decisions off the event loop (the
                reading of bodies and the errors are agents.http_json, shared with agents.web)
    server.py   the HTTP server (uvicorn, h11): a listening socket, a deadline for each request
                head, start and stop from Python or the command line
"""

#: the optional dependencies this package needs (Starlette and uvicorn)
WEB_EXTRA = "web"
#: the component named in the error when they are missing
NEEDED_BY = "agents.serve (the player service)"
