"""The browser app: play any game of the Jass family in a web page, with people and agents in any
seats; watch agents play; review game records decision by decision.

Start it (the ``web`` extra: ``pip install "jass-env[web]"``; console script ``jass-web``)::

    python -m agents.web --rules molotow      # prints: Jass web app: http://127.0.0.1:8000/

and open the address it prints. It listens on 127.0.0.1 (this machine only) unless ``--host``
says otherwise (another address prints a warning: the app has no login); ``--port 0`` picks a free
port; ``--open-browser`` opens the page; ``--rules`` is the preset the page offers first (every
preset of the registry can be chosen there). ``--max-tables`` (default 200) caps the tables kept
at once, ``--table-ttl`` (seconds, default 7200) drops a table nobody asked about for that long.
Ctrl-C stops the server.

The page has three modes:

* **Play**: choose a preset, then for each seat "human" or an agent spec (``random``,
  ``heuristic``, ``pimc:worlds=10``, ``policy``, a ``.pt`` checkpoint, an ``.onnx`` export; see
  :mod:`agents.registry`), a seed if you want a deal again, and whether to play the game's whole
  match. Your hand is at the bottom; only the legal cards and actions (the engine's) can be
  chosen, by click or keyboard. The agents' moves come at the pace you set. The server holds the
  deal: the page never receives a card your seat may not see. After each round, its result and
  "next round"; every round played through all its tricks is kept as a game record
  (docs/records.md) that the download button saves.
* **Watch**: agents in every seat, every hand open, at a chosen speed, paused or step by step.
* **Review**: open a records file (or a jass-kit log) and step through each record card by card
  from any seat, hands open or closed, with an agent's opinion of every decision, the decisions
  where the player differed from it, and "play on from here" (:mod:`agents.web.review`).
  ``python -m agents.web review FILE -o runs/review.html`` writes the review as one HTML file
  that opens without a server.

The modules:

    tables.py         the tables (a game in progress, its seats and log) and the store that keeps them
    views.py          what one seat sees: the JSON the page draws
    app.py            the web application: the page, the JSON API, the websocket
    http.py           the limits of the app's JSON bodies and reading one (agents.http_json)
    review.py         records read for review, an agent's analysis, play-on
    review_routes.py  the review part of the API
    review_html.py    the self-contained review page and the ``review`` command
    __main__.py       the command line
    static/           the page (HTML, CSS, JavaScript; no build step, nothing fetched from elsewhere)

The JSON API (every answer JSON; an error is ``{"error": "..."}`` with its status): ``GET
/api/games``; ``POST /api/tables`` ``{"rules", "seats", "seed", "match"}`` -> ``{"table",
"tokens", "view"}``; ``GET /api/tables/ID?seat=K&token=T``; ``POST /api/tables/ID/action``
``{"seat", "token", "action"}``; ``POST /api/tables/ID/advance`` ``{"steps", "seat", "token"}``;
``POST /api/tables/ID/next``; ``GET /api/tables/ID/record``; the websocket
``/api/tables/ID/ws?seat=K&token=T`` pushes the seat's view after every change; ``/api/reviews``
(:mod:`agents.web.review_routes`). ``benchmarks/web_load.py`` measures it under load.
"""
