"""The browser app's review (agents.web.review): a records file or jass-kit log read into decisions,
an agent's opinion of each decision, play-on from any decision, the self-contained HTML export.

Expected values come from how the records were made (the actions a round took, in order, and who
took them) and from the rules of a review (docs: the design of the app): one decision per action,
the chosen action among the engine's legal ones, a closed view shows the viewpoint's own hand
only, an agent sees only its seat's observation, "differs" is p(best) - p(chosen) > threshold.
"""

from __future__ import annotations

import glob
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from agents.web import review as review_mod
from agents.web.review import (
    CHOICE_ONLY,
    PROBABILITIES,
    ReviewError,
    ReviewNotFound,
    ReviewStore,
    analyse,
    playon_round,
    read_review,
)
from agents.web.review_html import EMBED_ID, STATIC_DIR, embedded_review, script_json, self_contained_page
from jass_env.engine.cards import PHASE_ACTION_OFFSET
from jass_env.envs.aec import raw_env
from jass_env.games import PRESETS
from jass_env.records import record_line, record_of
from jass_env.round import Round

DATA = Path(__file__).parent / "data"
JASSKIT_SAMPLE = DATA / "jasskit" / "arena0001.txt"
ISSUE10 = DATA / "records" / "jasskit_issue10.jsonl"


def _random_round(preset: str, seed: int) -> tuple[Round, list[tuple[int, int]]]:
    """A round of ``preset`` played to its end by uniformly random legal actions, and its actions
    in order as (player, action)."""
    r = Round(preset, seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    while not r.is_over:
        a = int(rng.choice(r.legal_actions()))
        taken.append((r.to_move, a))
        r.step(a)
    return r, taken


@pytest.fixture(scope="module")
def played():
    """One random round of every preset: {preset: (its finished Round, its actions)}."""
    return {p: _random_round(p, seed) for seed, p in enumerate(PRESETS)}


@pytest.fixture(scope="module")
def records_text(played):
    """The records of those rounds as one JSON Lines text, in preset order (id = the preset)."""
    return "".join(record_line(record_of(r, id=p)) + "\n" for p, (r, _) in played.items())


@pytest.fixture(scope="module")
def review(records_text):
    return read_review(records_text.encode("utf-8"), name="every-preset.jsonl")


def _rec(review, preset):
    return next(r for r in review.records if r.id == preset)


# reading and decisions
def test_every_preset_reads_with_one_decision_per_action_in_order(review, played):
    assert review.format == "records" and review.problems == []
    assert [r.id for r in review.records] == list(PRESETS)
    for preset, (_, taken) in played.items():
        rec = _rec(review, preset)
        decisions = rec.replay().decisions
        assert rec.replay().stopped is None
        assert [(d.seat, d.action) for d in decisions] == taken, preset
        assert rec.summary()["decisions"] == len(taken)


def test_each_decision_offers_the_engines_legal_actions_and_the_chosen_is_among_them(review, played):
    for preset, (_, taken) in played.items():
        rules_round = Round(preset, seed=list(PRESETS).index(preset))     # the same deal, replayed
        data = _rec(review, preset).review(viewpoint=0, open_hands=True)
        assert len(data["decisions"]) == len(taken)
        for d, (_, action) in zip(data["decisions"], taken, strict=True):
            legal = [e["action"] for e in d["legal"]]
            assert legal == [int(a) for a in rules_round.legal_actions()]
            assert d["chosen"] in legal and d["chosen"] == action
            assert d["kind"] == ("card" if action < PHASE_ACTION_OFFSET else "phase")
            card_entries = [e for e in d["legal"] if e["card"] is not None]
            assert all(e["action"] < PHASE_ACTION_OFFSET for e in card_entries)
            # before card play the trick is 0; during it the trick being played, from 1
            assert d["trick"] == (rules_round.trick_number + 1 if rules_round.phase == "play" else 0)
            rules_round.step(action)
        assert data["outcome"] is not None and data["final"]["round_over"]


def test_a_closed_view_shows_the_viewpoints_hand_only_and_an_open_view_every_hand(review, played):
    for preset in ("schieber", "differenzler", "sidi", "molotow5"):
        rec = _rec(review, preset)
        players = rec.rules.spec.players
        for viewpoint in range(players):
            closed = rec.review(viewpoint, open_hands=False)
            opened = rec.review(viewpoint, open_hands=True)
            replayed = rec.replay(rounds=True)
            for before, c, o in zip(replayed.before, closed["decisions"], opened["decisions"], strict=True):
                assert c["view"]["hand"] == before.hand(viewpoint)
                assert c["view"]["hands"] is None
                assert o["view"]["hands"] == {str(p): before.hand(p) for p in range(players)}


def test_hidden_predictions_of_other_seats_stay_hidden_in_a_closed_log(review):
    # Differenzler hides the predictions until the round ends (its "predictions" switch, "hidden")
    rec = _rec(review, "differenzler")
    closed = rec.review(0, open_hands=False)
    opened = rec.review(0, open_hands=True)
    n_bids = sum(1 for d in rec.replay().decisions if d.action >= PHASE_ACTION_OFFSET)
    closed_log = closed["decisions"][n_bids]["view"]["log"]      # the view before the first card
    open_log = opened["decisions"][n_bids]["view"]["log"]
    others = [d for d in rec.replay().decisions[:n_bids] if d.seat != 0]
    assert sum("hidden" in line for line in closed_log) == len(others)
    assert not any("hidden" in line for line in open_log)


def test_bad_lines_are_named_with_their_line_and_the_good_records_stay_reviewable(records_text):
    good = records_text.splitlines()
    broken_record = json.loads(good[0])
    del broken_record["hands"]
    data = "\n".join([good[0], "{not json", "", json.dumps(broken_record), "[1, 2]", good[1]]).encode()
    data += b"\n\xff\xfe not utf-8\n"
    rev = read_review(data, name="mixed.jsonl")
    assert [r.line for r in rev.records] == [1, 6]
    assert len(rev.problems) == 4
    assert rev.problems[0].startswith("line 2: not valid JSON")
    assert rev.problems[1].startswith("line 4: missing required field(s) hands")
    assert rev.problems[2].startswith("line 5: a record is a JSON object")
    assert rev.problems[3].startswith("line 7: not UTF-8 text")


def test_an_illegal_play_ends_the_decisions_before_it_and_says_why():
    rev = read_review(ISSUE10.read_bytes(), name=ISSUE10.name)
    clean, bad = rev.records
    assert clean.replay().stopped is None and clean.notes == []
    stopped = bad.replay().stopped
    assert stopped.startswith("trick 6, position 4: player 0 may not play D9") and "legal: S10" in stopped
    # 2 bidding decisions at most before the cards; 5 tricks of 4 and 3 plays of trick 6 were legal
    cards = [d for d in bad.replay().decisions if d.action < PHASE_ACTION_OFFSET]
    assert len(cards) == 5 * 4 + 3
    assert any(n.startswith("trick 6, position 4: illegal play") for n in bad.notes)


def test_a_jasskit_log_is_detected_converted_and_reviewed():
    rev = read_review(JASSKIT_SAMPLE.read_bytes(), name=JASSKIT_SAMPLE.name)
    lines = [line for line in JASSKIT_SAMPLE.read_text().splitlines() if line.strip()]
    assert rev.format == "jasskit" and rev.problems == []
    assert [r.line for r in rev.records] == list(range(1, len(lines) + 1))
    for rec in rev.records:
        cards = [d for d in rec.replay().decisions if d.action < PHASE_ACTION_OFFSET]
        # the 36 cards, after the trump choice (and a push when forehand pushed)
        assert len(cards) == 36 and 1 <= len(rec.replay().decisions) - 36 <= 2
        assert rec.rules.name == "tournament"


def test_a_jasskit_arena_log_with_under_trumps_is_reviewed_up_to_each_illegal_play(tmp_path):
    pytest.importorskip("jass")
    from jass.agents.agent_random_schieber import AgentRandomSchieber
    from jass.arena.arena import Arena
    np.random.seed(3)
    players = []
    for k in range(4):
        a = AgentRandomSchieber()
        a._rng = np.random.default_rng(3 + k)
        players.append(a)
    arena = Arena(nr_games_to_play=12, save_filename=str(tmp_path / "log"), print_every_x_games=1000)
    arena.set_players(*players)
    arena.play_all_games()
    (log,) = glob.glob(str(tmp_path / "log*.txt"))
    rev = read_review(Path(log).read_bytes(), name="arena.txt", format="auto")
    assert rev.format == "jasskit" and len(rev.records) == 12 and rev.problems == []
    for rec in rev.records:
        illegal = [n for n in rec.notes if "illegal play" in n]
        assert (rec.replay().stopped is not None) == bool(illegal)
        if illegal:      # the replay stops exactly where the checker's replay stops
            assert rec.replay().stopped.split(":", 1)[0] == illegal[0].split(":", 1)[0]
        else:
            assert rec.replay().final.is_over


def test_bad_format_rules_and_indices_are_refused_clearly(review):
    with pytest.raises(ReviewError, match="unknown format 'csv'; formats: auto, records, jasskit"):
        read_review("", format="csv")
    with pytest.raises(ReviewError, match="unknown rules preset 'skat'"):
        read_review("", rules="skat")
    with pytest.raises(ReviewNotFound, match=f"its records are 0..{len(PRESETS) - 1}"):
        review.record(len(PRESETS))
    with pytest.raises(ReviewNotFound):
        review.record("x")
    with pytest.raises(ReviewError, match="viewpoint must be a seat 0..1"):
        _rec(review, "sidi").review(viewpoint=2)
    assert read_review(b"\n\n", name="empty").records == []


# analysis
def test_random_analysis_is_its_choice_with_probability_one_and_the_filter_follows_it(review):
    for preset in ("schieber", "differenzler", "coiffeur", "mittlere", "sidi"):
        rec = _rec(review, preset)
        result = analyse(rec, "random", threshold=0.0)
        assert result["mode"] == CHOICE_ONLY and result["agent"] == "random"
        for d, a in zip(rec.replay().decisions, result["decisions"], strict=True):
            probs = {int(k): p for k, p in a["probs"].items()}
            assert set(probs) == set(d.legal)
            assert sorted(probs.values())[-1] == 1.0 and sum(probs.values()) == 1.0
            assert a["best"] == max(probs, key=probs.get)
            assert a["differs"] == (a["best"] != d.action)        # 1 - 0 > 0 exactly then


@pytest.mark.parametrize("threshold", [0.0, 0.2, 0.9, 1.0])
def test_a_policy_checkpoint_gives_probabilities_and_differs_marks_exactly_where_the_margin_is_exceeded(
        review, tmp_path_factory, threshold):
    from agents.policy import write_random_checkpoint
    path = tmp_path_factory.getbasetemp() / "molotow-random.pt"
    if not path.exists():
        write_random_checkpoint(path, hidden=(32,), seed=1, game="molotow")
    rec = _rec(review, "molotow")
    result = analyse(rec, str(path), threshold=threshold)
    assert result["mode"] == PROBABILITIES
    for d, a in zip(rec.replay().decisions, result["decisions"], strict=True):
        probs = {int(k): p for k, p in a["probs"].items()}
        assert set(probs) == set(d.legal)
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-9)
        assert a["differs"] == (max(probs.values()) - probs[d.action] > threshold)
    if threshold == 1.0:
        assert not any(a["differs"] for a in result["decisions"])


def test_the_shipped_policy_analyses_schieber_and_says_when_the_rules_differ(review):
    result = analyse(_rec(review, "schieber"), "policy", threshold=0.2)
    assert result["mode"] == PROBABILITIES and result["warning"] is None
    assert all(sum(a["probs"].values()) == pytest.approx(1.0) for a in result["decisions"])
    # the shipped Schieber policy was trained under "schieber"; "tournament" counts no Weis or Stöck
    with pytest.warns(UserWarning):
        other = analyse(_rec(review, "tournament"), "policy", threshold=0.2)
    assert "trained for rules 'schieber'" in other["warning"] and "weis" in other["warning"]


class SpyAgent:
    """An agent that remembers every observation it is given (and its resets); plays the first
    legal action."""

    def __init__(self, seat_log):
        self.log = seat_log

    def reset(self, seed=None):
        self.log.append(("reset", seed))

    def act(self, obs):
        self.log.append(("act", obs["observation"].copy(), obs["action_mask"].copy()))
        return int(np.flatnonzero(obs["action_mask"])[0])


def test_each_seats_agent_is_reset_then_fed_exactly_its_seats_observations_in_order(review, monkeypatch):
    rec = _rec(review, "differenzler")
    logs = []

    def make_spy(spec, rules, seed):
        logs.append([])
        return SpyAgent(logs[-1])

    monkeypatch.setattr(review_mod, "make_agent", make_spy)
    analyse(rec, "spy", threshold=0.2)
    players = rec.rules.spec.players
    assert len(logs) == players
    env = raw_env(rec.rules)                    # what the AEC environment shows each seat
    env.reset(seed=0)
    replayed = rec.replay(rounds=True)
    for seat, log in enumerate(logs):
        mine = [(d, r) for d, r in zip(replayed.decisions, replayed.before, strict=True) if d.seat == seat]
        assert log[0][0] == "reset" and [e[0] for e in log[1:]] == ["act"] * len(mine)
        for (d, before), (_, obs, mask) in zip(mine, log[1:], strict=True):
            env.set_state(before.state)
            seen = env.observe(f"player_{seat}")
            assert np.array_equal(obs, seen["observation"])
            assert np.flatnonzero(mask).tolist() == list(d.legal)


def test_a_bad_agent_or_threshold_is_refused_naming_it(review):
    rec = _rec(review, "schieber")
    with pytest.raises(ReviewError, match="unknown agent 'nobody'"):
        analyse(rec, "nobody")
    with pytest.raises(ReviewError, match="threshold must be a number 0..1"):
        analyse(rec, "random", threshold=1.5)
    with pytest.raises(ReviewError, match="threshold must be a number 0..1"):
        analyse(rec, "random", threshold=True)


# play on
@pytest.mark.parametrize("preset", ["schieber", "coiffeur", "differenzler3", "sidi", "molotow6"])
def test_play_on_starts_from_the_replayed_prefix_of_the_same_deal(review, played, preset):
    rec = _rec(review, preset)
    _, taken = played[preset]
    for decision in (0, len(taken) // 2, len(taken) - 1):
        rnd = playon_round(rec, decision)
        expected = Round(preset, seed=list(PRESETS).index(preset))
        for _, action in taken[:decision]:
            expected.step(action)
        players = expected.spec.players
        assert [rnd.hand(p) for p in range(players)] == [expected.hand(p) for p in range(players)]
        assert [rnd.dealt_hand(p) for p in range(players)] == [expected.dealt_hand(p) for p in range(players)]
        assert (rnd.to_move, rnd.phase, rnd.current_trick, rnd.tricks) == (
            expected.to_move, expected.phase, expected.current_trick, expected.tricks)
        assert rnd.legal_actions().tolist() == expected.legal_actions().tolist()
        for _, action in taken[decision:]:          # and it plays on to the same end
            rnd.step(action)
        assert rnd.score == played[preset][0].score
    with pytest.raises(ReviewError, match=f"decision must be an integer 0..{len(taken) - 1}"):
        playon_round(rec, len(taken))


def test_play_on_after_an_illegal_play_starts_where_the_record_broke():
    rev = read_review(ISSUE10.read_bytes())
    bad = rev.records[1]
    n = len(bad.replay().decisions)
    rnd = playon_round(bad, n)
    assert rnd.trick_number == 5 and len(rnd.current_trick) == 3 and rnd.to_move == 0


# the review store
def test_the_store_keeps_the_latest_reviews_and_says_when_one_is_gone(review):
    store = ReviewStore(limit=2)
    first = store.add(review)
    second = store.add(review)
    assert store.get(first) is review
    store.add(review)                         # the least recently used (second) goes
    assert store.get(first) is review
    with pytest.raises(ReviewNotFound, match="open the file again"):
        store.get(second)
    by_records = ReviewStore(limit=10, max_records=len(review.records) - 1)
    first = by_records.add(review)             # one review over the cap is still kept
    assert by_records.get(first) is review
    second = by_records.add(review)            # two are more records than the cap: the older goes
    assert by_records.get(second) is review
    with pytest.raises(ReviewNotFound):
        by_records.get(first)


# the self-contained HTML
class _Page(HTMLParser):
    """The elements of a page: tags with their attributes, and the text of each script."""

    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in = dict(attrs)
            self.scripts.append([dict(attrs), ""])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in = None

    def handle_data(self, data):
        if self._in is not None:
            self.scripts[-1][1] += data


def _fetches(page: _Page) -> list[str]:
    """Every attribute of the page that would make the browser fetch something."""
    out = []
    for tag, attrs in page.tags:
        for key in ("src", "href", "srcset", "poster", "action"):
            v = attrs.get(key)
            if v is not None and v != "" and not v.startswith(("#", "data:")):
                out.append(f"<{tag} {key}={v}>")
    return out


def _embedded(page: _Page):
    (data,) = [text for attrs, text in page.scripts if attrs.get("id") == EMBED_ID]
    return json.loads(data)


@pytest.fixture
def static_dir(tmp_path):
    """A page of the app's shape: a style sheet and two scripts, named as index.html names them."""
    d = tmp_path / "static"
    d.mkdir()
    (d / "index.html").write_text(
        '<!doctype html><html><head><meta charset="utf-8">\n'
        '<link rel="stylesheet" href="static/style.css">\n'
        '<link rel="icon" href="static/icon.svg">\n'
        '</head><body><main id="app"></main>\n'
        '<script src="static/i18n.js"></script>\n<script src="static/app.js"></script>\n'
        '</body></html>\n', encoding="utf-8")
    (d / "style.css").write_text("body { color: black; }\n", encoding="utf-8")
    (d / "icon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    (d / "i18n.js").write_text("window.order = ['i18n'];\n", encoding="utf-8")
    (d / "app.js").write_text("window.order.push('app'); const end = '</script>';\n", encoding="utf-8")
    return d


def test_the_page_inlines_its_files_in_order_and_embeds_the_review(review, static_dir):
    data = embedded_review(review, record=0)
    html = self_contained_page(data, static_dir)
    page = _Page()
    page.feed(html)
    assert _fetches(page) == []
    assert "body { color: black; }" in html
    codes = [text for attrs, text in page.scripts if attrs.get("id") != EMBED_ID]
    assert "window.order = ['i18n']" in codes[0] and "window.order.push('app')" in codes[1]
    assert r"'<\/script>'" in codes[1]              # the script's own text cannot end its element
    assert page.scripts[0][0].get("id") == EMBED_ID  # before the first script
    assert _embedded(page) == json.loads(json.dumps(data))


def test_embedded_data_cannot_break_out_of_its_script_element(static_dir):
    record = json.loads(ISSUE10.read_text().splitlines()[0])
    record["id"] = "</script><script>alert(1)</script><!--"
    rev = read_review(record_line(record))
    html = self_contained_page(embedded_review(rev), static_dir)
    assert "</script><script>alert(1)" not in html and "<!--" not in html
    page = _Page()
    page.feed(html)
    assert _embedded(page)["records"][0]["id"] == record["id"]
    assert json.loads(script_json({"a": "</x>"})) == {"a": "</x>"}


def test_a_page_that_refers_to_a_url_or_a_missing_file_is_refused(review, static_dir):
    index = static_dir / "index.html"
    original = index.read_text()
    index.write_text(original.replace("static/app.js", "https://cdn.example.org/app.js"))
    with pytest.raises(ReviewError, match="a URL: the exported page may make no request"):
        self_contained_page({}, static_dir)
    index.write_text(original.replace("static/app.js", "static/gone.js"))
    with pytest.raises(ReviewError, match="cannot read the page's file gone.js"):
        self_contained_page({}, static_dir)
    index.write_text(original.replace("<main", '<img src="logo.png"><main'))
    with pytest.raises(ReviewError, match="refers to src=\"logo.png"):
        self_contained_page({}, static_dir)


def test_the_embedded_review_holds_every_viewpoint_closed_and_open_and_the_analysis(review):
    data = embedded_review(review, agent="random", threshold=0.3, record=list(PRESETS).index("sidi"))
    (entry,) = data["records"]
    assert entry["id"] == "sidi" and data["agent"] == "random" and data["threshold"] == 0.3
    views = data["reviews"][str(entry["index"])]
    assert sorted(views) == ["0", "1"]
    assert views["1"]["closed"]["viewpoint"] == 1 and views["1"]["open"]["open"] is True
    assert len(data["analysis"][str(entry["index"])]["decisions"]) == entry["decisions"]


def _cli(*argv: str) -> int:
    from agents.web.__main__ import main
    return main(["review", *argv])


def test_the_review_command_writes_one_self_contained_file(records_text, tmp_path, capsys, monkeypatch,
                                                           static_dir):
    import agents.web.review_html as review_html
    monkeypatch.setattr(review_html, "STATIC_DIR", static_dir)
    src = tmp_path / "games.jsonl"
    src.write_text(records_text.splitlines()[0] + "\nnot json\n", encoding="utf-8")
    out = tmp_path / "runs" / "review.html"
    assert _cli(str(src), "-o", str(out), "--agent", "random", "--threshold", "0.25") == 1
    err = capsys.readouterr().err
    assert f"{src}: line 2: not valid JSON" in err
    assert re.search(rf"wrote {re.escape(str(out))} \(\d+\.\d MiB\): 1 records, \d+ decisions", err)
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    data = _embedded(page)
    assert data["agent"] == "random" and data["threshold"] == 0.25
    assert data["problems"][0].startswith("line 2")
    assert _fetches(page) == []
    code = "".join(text for attrs, text in page.scripts if attrs.get("id") != EMBED_ID)
    assert not re.search(r"https?://", code)


def test_the_review_command_fails_clearly_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "review.html"
    assert _cli(str(tmp_path / "missing.jsonl"), "-o", str(out)) == 2
    assert "error: cannot read" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert _cli(str(empty), "-o", str(out)) == 2
    assert "has no record that can be reviewed (it is empty)" in capsys.readouterr().err
    assert _cli(str(ISSUE10), "-o", str(out), "--agent", "nobody") == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert _cli(str(ISSUE10), "-o", str(out), "--record", "7") == 2
    assert "its records are 0..1" in capsys.readouterr().err
    assert _cli(str(ISSUE10), "-o", str(ISSUE10)) == 2
    assert "is FILE itself" in capsys.readouterr().err
    assert not out.exists()


def test_the_review_command_keeps_each_records_rules_unless_told(played, tmp_path, capsys):
    src = tmp_path / "molotow.jsonl"
    src.write_text(record_line(record_of(played["molotow"][0], id="m")) + "\n", encoding="utf-8")
    out = tmp_path / "review.html"
    assert _cli(str(src), "-o", str(out)) == 0
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    assert _embedded(page)["records"][0]["rules"] == "molotow"
    assert _cli(str(src), "-o", str(out), "--rules", "schieber") == 2      # 4 molotow hands, no contract
    assert "has no record that can be reviewed" in capsys.readouterr().err


def test_the_apps_own_page_exports_as_one_file_with_its_scripts_in_order(review):
    index = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    index = re.sub(r"<!--.*?-->", "", index, flags=re.DOTALL)
    listed = re.findall(r'<script src="static/([^"]+)"></script>', index)
    assert listed, "the page lists its scripts"
    data = embedded_review(review, record=0)
    html = self_contained_page(data)
    page = _Page()
    page.feed(html)
    assert _fetches(page) == []
    assert page.scripts[0][0].get("id") == EMBED_ID
    inlined = [text for attrs, text in page.scripts[1:]]
    assert len(inlined) == len(listed)
    for name, text in zip(listed, inlined, strict=True):
        code = (STATIC_DIR / name).read_text(encoding="utf-8")
        assert text == re.sub(r"</(script)", r"<\\/\1", code, flags=re.IGNORECASE), name
    assert _embedded(page) == json.loads(json.dumps(data))


# the routes
@pytest.fixture
def client():
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from agents.web.app import create_app
    with TestClient(create_app()) as c:
        yield c


def _upload(client, text: str, **fields):
    return client.post("/api/reviews", json={"text": text, "name": "games.jsonl", **fields})


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_the_routes_review_analyse_and_list_what_could_not_be_read(client, records_text):
    text = records_text.splitlines()[0] + "\n{broken\n" + records_text.splitlines()[-1] + "\n"
    r = _upload(client, text)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["format"] == "records" and answer["problems"][0].startswith("line 2: not valid JSON")
    assert [(e["index"], e["line"]) for e in answer["records"]] == [(0, 1), (1, 3)]
    rid = answer["review"]
    one = client.get(f"/api/reviews/{rid}/1", params={"viewpoint": 1, "open": 0}).json()
    assert one["viewpoint"] == 1 and one["open"] is False
    assert len(one["decisions"]) == answer["records"][1]["decisions"]
    assert all(d["view"]["hands"] is None for d in one["decisions"])
    opened = client.get(f"/api/reviews/{rid}/1", params={"viewpoint": 1, "open": 1}).json()
    assert all(d["view"]["hands"] is not None for d in opened["decisions"])
    analysis = client.post(f"/api/reviews/{rid}/0/analysis", json={"agent": "random", "threshold": 0.5})
    assert analysis.status_code == 200 and analysis.json()["mode"] == CHOICE_ONLY
    assert len(analysis.json()["decisions"]) == answer["records"][0]["decisions"]


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_play_on_makes_a_table_at_the_replayed_prefix_that_plays_to_a_clean_record(client, review, played):
    from jass_env.records import check_records
    preset = "coiffeur"
    text = record_line(record_of(played[preset][0], id="c")) + "\n"
    rid = _upload(client, text).json()["review"]
    rec = read_review(text).records[0]
    decision = 20
    r = client.post(f"/api/reviews/{rid}/0/playon", json={"decision": decision, "seed": 5,
                                                            "seats": ["human", "random", "random", "random"]})
    assert r.status_code == 200, r.text
    created = r.json()
    expected = playon_round(rec, decision)
    table = client.app.state.store.get(created["table"])
    assert np.array_equal(table.shown_round.state, expected.state)
    assert created["view"]["hand"] == expected.hand(0)
    # play it on: the person (seat 0) takes the first legal action, the agents theirs
    token = created["tokens"]["0"]
    view = created["view"]
    while view["waiting_for"] != "none":
        if view["waiting_for"] == "human":
            r = client.post(f"/api/tables/{created['table']}/action",
                            json={"seat": 0, "token": token, "action": view["legal"][0]["action"]})
        else:
            r = client.post(f"/api/tables/{created['table']}/advance",
                            json={"seat": 0, "token": token, "steps": 50})
        assert r.status_code == 200, r.text
        view = r.json()
    lines = client.get(f"/api/tables/{created['table']}/record").text.splitlines()
    assert len(lines) == 1 and check_records(lines).ok
    assert json.loads(lines[0])["hands"] == record_of(played[preset][0])["hands"]     # the same deal


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_the_routes_answer_every_bad_request_with_a_clear_json_error(client, records_text, monkeypatch):
    import agents.web.review_routes as routes
    first = records_text.splitlines()[0]
    uploaded = _upload(client, first).json()
    rid, last = uploaded["review"], uploaded["records"][0]["decisions"] - 1
    review_url = f"/api/reviews/{rid}/0"
    cases = [
        (_upload(client, ""), 400, "has no record that can be reviewed (the file is empty)"),
        (_upload(client, "x\ny\n"), 400, "line 1: not valid JSON"),
        (_upload(client, first, format="xml"), 400, "unknown format 'xml'"),
        (client.post("/api/reviews", json={"name": "x"}), 400, "the body needs 'text'"),
        (client.post("/api/reviews", json={"text": 5}), 400, "'text' must be the file's contents"),
        (client.post("/api/reviews", content=b"{", headers={"Content-Type": "application/json"}), 400,
         "not valid JSON"),
        (client.get("/api/reviews/nope/0"), 404, "no review 'nope'"),
        (client.get(f"/api/reviews/{rid}/3"), 404, "its records are 0..0"),
        (client.get(review_url, params={"viewpoint": "x"}), 400, "viewpoint must be a seat 0..3"),
        (client.get(review_url, params={"viewpoint": 4}), 400, "viewpoint must be a seat 0..3"),
        (client.get(review_url, params={"open": "yes"}), 400, "open must be 1"),
        (client.post(f"{review_url}/analysis", json={"agent": "nobody"}), 400, "unknown agent 'nobody'"),
        (client.post(f"{review_url}/analysis", json={"agent": "random", "threshold": "x"}), 400,
         "'threshold' must be a number 0..1"),
        (client.post(f"{review_url}/analysis", json={"agent": "random", "seed": -1}), 400,
         "seed must be a non-negative integer"),
        (client.post(f"{review_url}/playon", json={"decision": 99, "seats": ["human"] * 4}), 400,
         f"decision must be an integer 0..{last}"),
        (client.post(f"{review_url}/playon", json={"decision": 3, "seats": ["human", "nobody", "human",
                                                                            "human"]}),
         400, "seat 1: agent 'nobody'"),
        (client.post(f"{review_url}/playon", json={"decision": 3, "seats": ["human"]}), 400,
         "seats must be a list of 4"),
    ]
    for response, status, message in cases:
        assert response.status_code == status, (message, response.text)
        assert message in response.json()["error"], (message, response.text)
    monkeypatch.setattr(routes, "MAX_UPLOAD_BYTES", 100)
    big = _upload(client, first)
    assert big.status_code == 413 and "at most 100 bytes" in big.json()["error"]
