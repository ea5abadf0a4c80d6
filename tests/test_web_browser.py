"""The browser app end to end in a real browser (Chromium driven by Playwright): rounds played by
clicking and by keyboard only, the record download, the Review mode on a records file, the
self-contained review page opened from disk with the network blocked, accessible card names, the
layout at phone and desktop width, and no console or page error anywhere.

The server is the real one (agents.web.app on uvicorn, on a free port of 127.0.0.1, a fresh table
store); the agents are ``random`` and the deals seeded. The browser is the system's Chromium
(Debian's ``chromium`` package): without it the tests skip, except in CI (the environment variable
CI set), where a missing browser fails.

The README's screenshots come from this file:
``JASS_WEB_SCREENSHOTS=docs/img .venv/bin/python -m pytest -q tests/test_web_browser.py -k screenshots``
writes web-play-phone.png, web-play-desktop.png and web-review-desktop.png there (every run
writes them into its temporary folder only).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from jass_env.engine.cards import PHASE_ACTION_OFFSET, card_name
from jass_env.records import check_records, record_line, record_of
from jass_env.round import Round


def _browser_or_skip() -> str:
    """The Chromium executable; skip (fail in CI) without it or without Playwright."""
    in_ci = bool(os.environ.get("CI"))
    path = shutil.which("chromium")
    missing = []
    if path is None:
        missing.append("the chromium browser (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (pip install -e '.[dev]')")
    if missing:
        reason = f"browser tests need {' and '.join(missing)}"
        if in_ci:
            pytest.fail(f"{reason}; CI must run them (.ci/run installs chromium)", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    assert path is not None
    return path


CHROMIUM = _browser_or_skip()

import uvicorn  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    ConsoleMessage,
    ElementHandle,
    Page,
    Route,
    expect,
    sync_playwright,
)

from agents.web.__main__ import main as web_main  # noqa: E402
from agents.web.app import create_app  # noqa: E402
from agents.web.tables import TableStore  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: ms Playwright waits for one element or condition (a slow CI machine: generous, never reached)
WAIT_MS = 15_000
#: the most decisions one seat takes in a round of the presets played here (a guard against a loop)
MAX_DECISIONS = 60
SCREENSHOT_DIR_VAR = "JASS_WEB_SCREENSHOTS"
#: ms to let a move asked for before a pause arrive: more than the page's default pause between agents
SETTLE_MS = 1_000

#: the English names of the cards (rank letter or number, suit letter as the engine names cards)
RANK_WORDS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "10": "Ten", "9": "Nine", "8": "Eight",
              "7": "Seven", "6": "Six"}
SUIT_WORDS = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}
ALL_CARD_WORDS = {f"{rank} of {suit}" for rank in RANK_WORDS.values() for suit in SUIT_WORDS.values()}

#: what a person can do on the board now: play a legal card or choose a phase action
OPTIONS = "#board .hand button.card:not(.illegal), #board .phase-actions button.action"
RESULT = "#info .result"
#: the preset and seed of the records file the review tests open
SCHIEBER_RECORD = ("schieber", 21)
#: card decisions of a round of Molotow: 4 players x 9 tricks
CARDS_IN_PLAY = 36


def card_words(card: str) -> str:
    """``"HA"`` -> ``"Ace of hearts"``."""
    return f"{RANK_WORDS[card[1:]]} of {SUIT_WORDS[card[0]]}"


# the server and the browser
@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on uvicorn in a thread, on a free port; yields its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    app = create_app(default_rules="molotow", store=TableStore())
    srv = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_MS / 1000
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the web app did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageProblems:
    """Console errors, uncaught page errors and the errors the page shows its user (#alert)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.seen.append(f"page error: {exc}"))

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.seen.append(f"console error: {msg.text} ({msg.location})")

    def all(self) -> list[str]:
        alerts = self.page.locator("#alert .alert-item span")
        shown = [] if self.page.is_closed() else alerts.all_inner_texts()
        return self.seen + [f"shown to the user: {text}" for text in shown]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """``open_page(viewport=DESKTOP)``: a fresh page (own context: no shared storage); after the test
    every page it opened must have had no console error, no page error and no error shown."""
    opened: list[tuple[Page, PageProblems]] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, accept_downloads=True, locale="en-US")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        opened.append((page, PageProblems(page)))
        return page

    yield make
    problems = [p for _, watch in opened for p in watch.all()]
    for page, _ in opened:
        page.context.close()
    assert problems == [], "\n".join(problems)


# driving the page
def set_fastest_agents(page: Page) -> None:
    """The speed slider to its fast end, by keyboard (End on a range input)."""
    page.focus("#speed")
    page.keyboard.press("End")
    assert page.input_value("#speed") == page.get_attribute("#speed", "max")


def start_table(page: Page, server: str, preset: str, seed: int, seats: list[str]) -> None:
    """Open the app, choose ``preset``, ``seats`` ("human" or an agent), ``seed``; start."""
    page.goto(server + "/")
    page.wait_for_selector("#lobby-fields:not([disabled])")
    page.select_option("#lobby-preset", preset)
    for seat, who in enumerate(seats):
        page.select_option(f"#seat-{seat}", who)
    page.fill("#lobby-seed", str(seed))
    page.click("#lobby-start")
    page.wait_for_selector("#table-view:not([hidden]) #board .hand")


def wait_for_turn_or_result(page: Page) -> bool:
    """Wait until the person may act or the round has a result; True when it is over."""
    page.locator(f"{OPTIONS}, {RESULT}").first.wait_for()
    return page.locator(RESULT).count() > 0


def wait_until_redrawn(old_board: ElementHandle | None) -> None:
    """Wait until the board drawn before an action has been replaced (the server's answer came)."""
    assert old_board is not None
    old_board.wait_for_element_state("hidden")


def hand_names(page: Page) -> list[str]:
    return page.locator("#board .hand button.card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")


def play_by_clicking(page: Page, rng: random.Random) -> int:
    """Click one of the offered options at random at every turn until the round's result shows;
    returns the number of decisions taken."""
    for taken in range(MAX_DECISIONS):
        if wait_for_turn_or_result(page):
            return taken
        options = page.locator(OPTIONS)
        choice = options.nth(rng.randrange(options.count()))
        many = page.locator("#board .phase-actions.many select")
        if many.count():                       # many options (predictions): a select, then "choose"
            values = many.locator("option").evaluate_all("os => os.map(o => o.value)")
            many.select_option(rng.choice(values))
        board = page.locator("#board .felt").element_handle()
        choice.click()
        wait_until_redrawn(board)
    raise AssertionError(f"the round did not end within {MAX_DECISIONS} decisions")


def download_record(page: Page, folder: Path) -> Path:
    """Click the download button; the saved file's path."""
    with page.expect_download() as info:
        page.click("#btn-download")
    path = folder / info.value.suggested_filename
    info.value.save_as(path)
    return path


def table_query(page: Page) -> tuple[str, dict[str, str]]:
    """The table id and the seat/token query of the page's own seat (from its address)."""
    params = {k: v[0] for k, v in parse_qs(urlsplit(page.url).fragment).items()}
    return params["table"], {"seat": params["seat"], "token": params["token"]}


def server_view(server: str, page: Page) -> dict:
    """The view of the page's seat as the server gives it (GET /api/tables/ID?seat&token)."""
    table, query = table_query(page)
    url = f"{server}/api/tables/{table}?seat={query['seat']}&token={query['token']}"
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.load(resp)


def seeded_records(path: Path, preset: str, seed: int) -> tuple[Round, list[int]]:
    """Write the record of one ``preset`` round of uniformly random legal actions (``seed``) to
    ``path``; the finished round and its actions in order."""
    rnd, rng = Round(preset, seed=seed), np.random.default_rng(seed)
    actions = []
    while not rnd.is_over:
        actions.append(int(rng.choice(rnd.legal_actions())))
        rnd.step(actions[-1])
    path.write_text(record_line(record_of(rnd, id=f"{preset}-{seed}")) + "\n", encoding="utf-8")
    return rnd, actions


def assert_no_horizontal_overflow(page: Page, width: int) -> None:
    scroll = page.evaluate("document.scrollingElement.scrollWidth")
    assert scroll <= width + 1, f"the page is {scroll} px wide at a {width} px viewport"


# 1. a round played by clicking, its record downloaded
@pytest.mark.parametrize(("preset", "players", "hand_size"), [("schieber", 4, 9), ("differenzler3", 3, 12)])
def test_a_round_is_played_by_clicking_and_its_record_checks_clean(server, open_page, tmp_path, preset,
                                                                    players, hand_size):
    page = open_page()
    start_table(page, server, preset, seed=11, seats=["human"] + ["random"] * (players - 1))
    assert page.locator("#board .hand button.card").count() == hand_size
    set_fastest_agents(page)
    taken = play_by_clicking(page, random.Random(5))
    assert taken >= hand_size                       # every card of the hand, and any phase action
    assert page.inner_text(RESULT).strip()
    assert page.locator("#board .hand button.card").count() == 0      # every card played
    record = download_record(page, tmp_path)
    lines = record.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["rules"] == preset
    report = check_records(lines)
    assert report.records == 1 and report.ok, report.lines()


# 2. keyboard only: a round played with digits and Enter, then the review stepped with the arrows
def test_keyboard_plays_a_round_and_steps_the_review(server, open_page, tmp_path):
    page = open_page()
    start_table(page, server, "molotow", seed=3, seats=["human", "random", "random", "random"])
    set_fastest_agents(page)
    page.locator("#board .hand button.card").first.focus()
    by_digit = by_enter = 0
    for turn in range(MAX_DECISIONS):
        if wait_for_turn_or_result(page):
            break
        board = page.locator("#board .felt").element_handle()
        focused = page.evaluate("document.activeElement.matches('#board .hand button.card:not(.illegal)')"
                                " ? document.activeElement.getAttribute('aria-label') : null")
        if turn % 2 and focused:
            page.keyboard.press("Enter")           # Enter plays the focused legal card
            played, by_enter = focused, by_enter + 1
        else:
            first = page.locator('#board [aria-keyshortcuts="1"]')
            played = first.get_attribute("aria-label") or first.inner_text()
            page.keyboard.press("1")               # 1 = the first legal option
            by_digit += 1
        wait_until_redrawn(board)
        if played in ALL_CARD_WORDS:
            assert played not in hand_names(page), f"{played} was not played"
    else:
        raise AssertionError(f"the round did not end within {MAX_DECISIONS} decisions")
    assert by_digit >= 2 and by_enter >= 2, (by_digit, by_enter)
    assert page.locator("#board .hand button.card").count() == 0

    record = download_record(page, tmp_path)
    page.click("#tab-review")
    page.set_input_files("#review-file", str(record))
    page.wait_for_selector("#review-main:not([hidden])")
    d, n, _ = position(page)
    phase_decisions = n - CARDS_IN_PLAY        # Molotow: 4 players, 9 tricks of one card each
    assert d == 1 and phase_decisions >= 0
    page.focus("#review-next")                 # in the review (not a text field): the arrows step
    title = page.inner_text("#review-decision .decision-title")
    page.keyboard.press("ArrowRight")
    assert position(page)[0] == 2
    assert page.inner_text("#review-decision .decision-title") != title or n == 1
    page.keyboard.press("ArrowLeft")
    assert position(page)[0] == 1
    page.keyboard.press("ArrowDown")           # the next trick's first card
    d, _, trick = position(page)
    first_trick = 1 if phase_decisions else 2
    assert (d, trick) == (phase_decisions + 4 * (first_trick - 1) + 1, first_trick)
    page.keyboard.press("ArrowDown")
    assert position(page)[0] == d + 4
    page.keyboard.press("ArrowUp")             # back to the start of the trick before
    assert position(page)[0] == d


def test_a_choice_made_before_the_agents_step_is_answered_is_played(server, open_page):
    """The pushed board can show the person's turn while the answer to the agent's step that led
    to it is still on its way; a card chosen then is played once that answer is in, not dropped.
    Here every answer to an agent's step is held back in the browser until the test lets it go."""
    page = open_page()
    held: list[tuple[Route, object]] = []
    page.route("**/advance", lambda route: held.append((route, route.fetch())))

    def release_held() -> None:
        while held:
            route, response = held.pop(0)
            route.fulfill(response=response)

    start_table(page, server, "schieber", seed=2, seats=["random", "human", "random", "random"])
    set_fastest_agents(page)
    page.locator("#board .hand button.card").first.focus()     # the digits act from the table
    options = page.locator(OPTIONS)
    for _ in range(20 * MAX_DECISIONS):
        if page.locator(RESULT).count():
            break
        if not options.count():
            release_held()
            page.wait_for_timeout(20)
            continue
        board = page.locator("#board .felt").element_handle()
        first = page.locator('#board [aria-keyshortcuts="1"]')
        played = first.get_attribute("aria-label") or first.inner_text()
        chosen_while_held = bool(held)
        page.keyboard.press("1")
        page.wait_for_timeout(SETTLE_MS)
        release_held()
        wait_until_redrawn(board)
        if chosen_while_held:
            if played in ALL_CARD_WORDS:
                assert played not in hand_names(page), f"{played} was not played"
            return
    raise AssertionError("the person's turn never showed while an agent's step was unanswered")


def position(page: Page) -> tuple[int, int, int]:
    """The review's position text ("Decision 5 of 40 · trick 2") as (decision, of, trick; 0 before
    card play)."""
    text = page.inner_text("#review-decision .review-pos").strip()
    m = re.fullmatch(r"Decision (\d+) of (\d+)(?: · trick (\d+))?", text)
    assert m, text
    return int(m[1]), int(m[2]), int(m[3] or 0)


# 3. Review: a records file opened through the file input
@pytest.fixture(scope="module")
def schieber_record(tmp_path_factory) -> tuple[Path, Round, list[int]]:
    """A records file of one seeded random round of Schieber: (path, the finished round, its
    actions)."""
    path = tmp_path_factory.mktemp("records") / "schieber.jsonl"
    return (path, *seeded_records(path, SCHIEBER_RECORD[0], SCHIEBER_RECORD[1]))


def open_review(page: Page, server: str, records: Path) -> None:
    page.goto(server + "/")
    page.click("#tab-review")
    page.set_input_files("#review-file", str(records))
    page.wait_for_selector("#review-main:not([hidden])")
    page.focus("#review-next")


def shown_hand(page: Page, seat_section: str) -> set[str]:
    """The accessible names of the cards shown in a seat's area of the review board."""
    names = page.locator(f"#review-board {seat_section} .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    return {re.sub(r" \(.*$|,.*$", "", n) for n in names}


def chosen_differs_from_best(page: Page) -> bool:
    """Whether the agent's best option (marked best) is not the one the player chose."""
    chosen = page.locator("#review-decision li.option.chosen")
    return chosen.count() == 1 and "best" not in (chosen.get_attribute("class") or "")


def test_review_of_a_records_file(server, open_page, schieber_record):
    records, rnd, taken = schieber_record
    actions = len(taken)
    page = open_page()
    open_review(page, server, records)
    assert position(page)[:2] == (1, actions)                # one decision per action of the round

    page.select_option("#review-viewpoint", "2")            # the bottom hand is seat 2's, dealt hand
    page.locator("#review-board .own h3", has_text="Player 2").wait_for()
    assert shown_hand(page, ".own .hand") == {card_words(c) for c in rnd.dealt_hand(2)}
    assert page.locator("#review-board .mini-hand").count() == 0    # closed: no other hand shown

    page.check("#review-open")
    page.locator("#review-board .mini-hand").first.wait_for()
    for seat in (0, 1, 3):
        assert shown_hand(page, f'section.seat[aria-label="Player {seat}"] .mini-hand') == {
            card_words(c) for c in rnd.dealt_hand(seat)}
    page.uncheck("#review-open")
    page.locator("#review-board .mini-hand").first.wait_for(state="detached")

    # the agent's choice at every decision, then only the decisions where the player chose otherwise
    page.select_option("#review-agent", "random")
    page.click("#review-analyse")
    page.locator("#review-decision .analysis-summary").wait_for()
    page.focus("#review-next")
    page.keyboard.press("Home")
    differing = set()
    for _ in range(actions):
        d, _, _ = position(page)
        if chosen_differs_from_best(page):
            differing.add(d)
        page.keyboard.press("ArrowRight")
    assert position_or_end(page) is None
    # the last trick's cards are forced (one card left): the agent cannot differ there
    assert 0 < len(differing) <= actions - 4

    page.check("#review-only-differs")
    assert page.locator("#review-decision .differs-list li").count() == len(differing)
    page.focus("#review-next")
    page.keyboard.press("Home")
    visited = set()
    for _ in range(actions):
        page.keyboard.press("ArrowRight")
        d = position_or_end(page)
        if d is None or d in visited:
            break
        visited.add(d)
        assert chosen_differs_from_best(page), f"decision {d} shown under the filter agrees with the agent"
    assert visited == {d for d in differing if d > 1}


def position_or_end(page: Page) -> int | None:
    text = page.inner_text("#review-decision .review-pos").strip()
    return None if text == "End of the round" else position(page)[0]


def test_play_on_from_a_review_decision_deals_the_same_cards(server, open_page, schieber_record):
    records, _, taken = schieber_record
    page = open_page()
    open_review(page, server, records)
    for _ in range(3):
        page.keyboard.press("ArrowDown")           # the first card of trick 3 (or 4 when a push came)
    d, _, _ = position(page)
    before = Round(SCHIEBER_RECORD[0], seed=SCHIEBER_RECORD[1])
    for action in taken[:d - 1]:                   # the actions before decision d
        before.step(action)
    seat = before.to_move
    page.click("#review-playon summary")
    expect(page.locator(f"#playon-{seat}")).to_have_value("human")     # the seat to move, by default
    for s in range(4):
        page.select_option(f"#playon-{s}", "human" if s == seat else "random")
    page.click("#review-playon-go")
    page.wait_for_selector("#table-view:not([hidden]) #board .hand")
    assert page.locator("#tab-play").get_attribute("aria-selected") == "true"
    assert hand_names(page) == [card_words(c) for c in before.hand(seat)]
    playable = page.locator("#board .hand button.card:not(.illegal)").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    legal_cards = [card_name(a) for a in before.legal_actions() if a < PHASE_ACTION_OFFSET]
    assert set(playable) == {card_words(c) for c in legal_cards}
    assert "Your turn" in page.inner_text("#turn-line")


def test_watch_pauses_and_steps_one_action_at_a_time(server, open_page):
    page = open_page()
    page.goto(server + "/")
    page.click("#tab-watch")
    page.wait_for_selector("#lobby-fields:not([disabled])")
    page.select_option("#lobby-preset", "schieber")
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "random")
    page.fill("#lobby-seed", "6")
    page.click("#lobby-start")
    page.wait_for_selector("#table-view:not([hidden]) #board .hand")
    page.click("#btn-pause")
    assert page.get_attribute("#btn-pause", "aria-pressed") == "true"
    events = page.locator("#info ol.log li")
    page.wait_for_timeout(SETTLE_MS)               # an agent's move asked for before the pause lands
    before = events.count()
    page.click("#btn-step")
    events.nth(before).wait_for()
    page.wait_for_timeout(SETTLE_MS)
    after = events.count()
    page.wait_for_timeout(SETTLE_MS)               # paused: no agent moves unless stepped
    assert events.count() == after
    page.keyboard.press("s")                       # S steps as the button does (focus on it)
    events.nth(after).wait_for()
    page.wait_for_timeout(SETTLE_MS)
    stepped = events.count()
    page.click("#board .felt")                     # the mouse on the table, then Space resumes
    page.keyboard.press(" ")
    assert page.get_attribute("#btn-pause", "aria-pressed") == "false"
    events.nth(stepped).wait_for()


# 4. the self-contained review page, opened from disk with every network request refused
def test_the_exported_review_page_works_from_disk_without_network(open_page, schieber_record, tmp_path):
    records, _, taken = schieber_record
    actions = len(taken)
    out = tmp_path / "review.html"
    assert web_main(["review", str(records), "-o", str(out), "--agent", "random"]) == 0
    page = open_page()
    refused: list[str] = []

    def only_files(route: Route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    page.goto(out.as_uri())
    page.wait_for_selector("#review-main:not([hidden])")
    assert page.locator("#tab-play").is_hidden()
    assert position(page)[:2] == (1, actions)
    page.locator("#review-decision .analysis-summary").wait_for()
    page.focus("#review-next")
    page.keyboard.press("ArrowRight")
    assert position(page)[0] == 2
    page.keyboard.press("End")
    assert page.inner_text("#review-decision .review-pos").strip() == "End of the round"
    assert page.locator("#review-info .result").inner_text().strip()
    page.keyboard.press("Home")
    assert position(page)[0] == 1
    assert refused == [], f"the exported page asked the network for {refused}"


# 5. accessible names of the cards
def play_until_cards_to_play(page: Page, rng: random.Random, tricks_before: int = 0) -> None:
    """Take the person's decisions (phase actions, and cards while fewer than ``tricks_before``
    tricks are done) until they are to play a card of trick ``tricks_before + 1``."""
    for _ in range(MAX_DECISIONS):
        assert not wait_for_turn_or_result(page), "the round ended first"
        cards = page.locator("#board .hand button.card:not(.illegal)")
        done = page.locator("#board .hand button.card").count()
        if cards.count() and page.locator("#board .phase-actions").count() == 0 and done <= 9 - tricks_before:
            return
        options = page.locator(OPTIONS)
        board = page.locator("#board .felt").element_handle()
        options.nth(rng.randrange(options.count())).click()
        wait_until_redrawn(board)
    raise AssertionError("no card to play came")


def test_every_card_of_the_hand_has_an_accessible_name(server, open_page):
    page = open_page()
    start_table(page, server, "schieber", seed=4, seats=["human", "random", "random", "random"])
    set_fastest_agents(page)
    play_until_cards_to_play(page, random.Random(1))
    view = server_view(server, page)
    snapshot = page.locator("#board .hand").aria_snapshot()
    buttons = re.findall(r'- button "([^"]*)"( \[disabled\])?', snapshot)
    assert [name for name, _ in buttons] == [card_words(c) for c in view["hand"]], snapshot
    playable = {name for name, disabled in buttons if not disabled}
    assert playable == {card_words(a["card"]) for a in view["legal"] if a["card"]}, snapshot


# 6. the layout at phone and desktop width; the README's screenshots
def save_screenshot(page: Page, folder: Path, name: str) -> None:
    """Screenshot of the viewport into ``folder`` and, when JASS_WEB_SCREENSHOTS names a folder, there
    as well."""
    page.screenshot(path=folder / name)
    keep = os.environ.get(SCREENSHOT_DIR_VAR)
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / name, Path(keep) / name)


def test_screenshots_and_no_horizontal_overflow_on_a_phone(server, open_page, schieber_record, tmp_path):
    page = open_page(PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#lobby-fields:not([disabled])")
    assert_no_horizontal_overflow(page, PHONE["width"])

    start_table(page, server, "schieber", seed=8, seats=["human", "random", "random", "random"])
    set_fastest_agents(page)
    play_until_cards_to_play(page, random.Random(2), tricks_before=2)
    assert_no_horizontal_overflow(page, PHONE["width"])
    page.locator("#table-title").scroll_into_view_if_needed()
    save_screenshot(page, tmp_path, "web-play-phone.png")
    page.set_viewport_size(DESKTOP)
    save_screenshot(page, tmp_path, "web-play-desktop.png")

    records, _, _ = schieber_record
    review = open_page(DESKTOP)
    open_review(review, server, records)
    review.check("#review-open")
    review.locator("#review-board .mini-hand").first.wait_for()
    review.select_option("#review-agent", "policy")
    review.click("#review-analyse")
    review.locator("#review-decision .analysis-summary").wait_for()
    review.focus("#review-next")
    for _ in range(2):
        review.keyboard.press("ArrowDown")
    review.keyboard.press("ArrowRight")
    review.evaluate("document.getElementById('review-records').scrollIntoView()")
    save_screenshot(review, tmp_path, "web-review-desktop.png")
    review.set_viewport_size(PHONE)
    assert_no_horizontal_overflow(review, PHONE["width"])
