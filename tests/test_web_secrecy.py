"""The browser app never tells a seat a card it may not know (agents.web).

During live play of every preset, every HTTP answer and every websocket message a person's seat
gets is scanned for the cards that seat may not know: the deck minus its own hand, the cards
played (the current trick and every finished one) and the cards the game's own table shows that
seat (:func:`jass_env.render.render_table` with ``show_hands=seat``: Weis once shown, Sidi's
face-up card and the cards a seat is known to hold, Differenzler's trump card shown by the
dealer). A card is found as its name (``HA``, ``C10``) or its symbol (``♥A``, ``♣10``); any hit
fails.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():     # Starlette's test client would rather have httpx2; httpx serves
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from agents.web.app import create_app  # noqa: E402
from agents.web.views import round_view  # noqa: E402
from jass_env.engine.cards import SUIT_SYMBOLS, SUITS, card_id, card_name, card_symbol, cards_of  # noqa: E402
from jass_env.games import PRESETS  # noqa: E402
from jass_env.render import render_table  # noqa: E402
from jass_env.round import Round  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
#: a card as the game's text shows it: a suit symbol and a rank
SHOWN_CARD = re.compile(r"([♦♥♠♣])(10|[6-9JQKA])")
#: the characters around a card's name that make it part of a longer word (or a token)
WORD = "A-Za-z0-9_-"


def shown_cards(text: str) -> set[int]:
    """The cards a text names with their symbols (``♥A``)."""
    return {card_id(SUITS[SUIT_SYMBOLS.index(s)] + rank) for s, rank in SHOWN_CARD.findall(text)}


def may_know(rnd: Round, seat: int) -> set[int]:
    """The cards ``seat`` may know in ``rnd``: its hand, the cards played, what its table shows."""
    played = {card_id(c) for t in rnd.tricks for _, c in t["plays"]}
    played |= {card_id(c) for _, c in rnd.current_trick}
    own = set(cards_of(rnd.view.hands[seat]))
    return own | played | shown_cards(render_table(rnd.state, rnd.rules, show_hands=seat))


def leaks(text: str, secret: set[int]) -> list[str]:
    """The secret cards that a message names, by name or symbol (also JSON-escaped symbols)."""
    try:
        texts = [text, json.dumps(json.loads(text), ensure_ascii=False)]
    except ValueError:
        texts = [text]
    found = []
    for c in sorted(secret):
        name, symbol = card_name(c), card_symbol(c)
        by_name = re.compile(rf"(?<![{WORD}]){name}(?![{WORD}])")
        by_symbol = re.compile(rf"{re.escape(symbol)}(?![0-9])")
        if any(by_name.search(t) or by_symbol.search(t) for t in texts):
            found.append(name)
    return found


def test_the_scan_finds_a_hand_shown_to_another_seat():
    rnd = Round("schieber", seed=1)
    secret = set(range(36)) - may_know(rnd, 0)
    assert len(secret) == 27                          # the three other hands of 9
    open_view = json.dumps(round_view(rnd, 0, open_hands=True))
    assert sorted(leaks(open_view, secret)) == sorted(card_name(c) for c in secret)
    assert leaks(json.dumps(round_view(rnd, 0)), secret) == []


class Watch:
    """Every answer and message of a live table, checked against what its seat may know."""

    def __init__(self, client: TestClient, table: str) -> None:
        self.client, self.table = client, table
        self.checked = 0

    @property
    def round(self) -> Round:
        return self.client.app.state.store.tables[self.table].game.round

    def check(self, text: str, seat: int, what: str) -> None:
        rnd = self.round
        if rnd.is_over:
            return
        secret = set(cards_of(rnd.spec.deck)) - may_know(rnd, seat)
        found = leaks(text, secret)
        assert not found, f"{what} for seat {seat} names {found}, which it may not know: {text[:2000]}"
        self.checked += 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_seat_is_told_a_card_it_may_not_know(preset):
    spec = PRESETS[preset].spec
    humans = sorted({0, spec.players - 1})
    seats = ["human" if p in humans else "random" for p in range(spec.players)]
    rng = random.Random(preset)
    with TestClient(create_app()) as client, ExitStack() as stack:
        r = client.post("/api/tables", json={"rules": preset, "seats": seats, "seed": 21})
        created = r.json()
        table, tokens = created["table"], {int(k): v for k, v in created["tokens"].items()}
        watch = Watch(client, table)
        first = humans[0]
        watch.check(r.text, first, "the answer creating the table")
        base = f"/api/tables/{table}"
        sockets = {p: stack.enter_context(client.websocket_connect(f"{base}/ws?seat={p}&token={tokens[p]}"))
                   for p in humans}
        for p, ws in sockets.items():
            watch.check(ws.receive_text(), p, "the websocket's first view")
        r = client.get(base)                               # a watcher while people play
        assert r.status_code == 403
        watch.check(r.text, first, "the watcher's refusal")

        def changed() -> None:
            for p, ws in sockets.items():
                watch.check(ws.receive_text(), p, "a websocket push")

        views = {}
        while True:
            for p in humans:
                r = client.get(base, params={"seat": p, "token": tokens[p]})
                watch.check(r.text, p, "GET view")
                views[p] = r.json()
            view = views[first]
            if view["waiting_for"] == "none":
                break
            if view["waiting_for"] == "agent":
                r = client.post(f"{base}/advance", json={"seat": first, "token": tokens[first]})
                watch.check(r.text, first, "advance")
                changed()
                continue
            mover = view["to_move"]
            legal = [e["action"] for e in views[mover]["legal"]]
            known = may_know(watch.round, mover)
            wrong = [c for c in sorted(known) if c not in legal]
            if wrong:                                      # a card it knows but may not play
                r = client.post(f"{base}/action", json={"seat": mover, "token": tokens[mover],
                                                        "action": rng.choice(wrong)})
                assert r.status_code == 400
                watch.check(r.text, mover, "an illegal action's error")
            other = next((p for p in humans if p != mover), None)
            if other is not None:                          # out of turn
                r = client.post(f"{base}/action", json={"seat": other, "token": tokens[other],
                                                        "action": legal[0]})
                assert r.status_code == 409
                watch.check(r.text, other, "an out-of-turn error")
            r = client.post(f"{base}/action", json={"seat": mover, "token": tokens[mover],
                                                    "action": rng.choice(legal)})
            watch.check(r.text, mover, "action")
            changed()
    assert watch.checked > 4 * spec.tricks
