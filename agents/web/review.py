"""Reviewing game records in the browser app: a records file (or a jass-kit log) read into
reviewable rounds, each round's decisions as the page shows them, an agent's opinion of every
decision, and a new table that plays on from any decision.

    review = read_review(text, name="games.jsonl")            # format "auto": records or jass-kit
    review.records[0].review(viewpoint=2, open_hands=False)   # the review JSON of one record
    analyse(review.records[0], "policy", threshold=0.2)       # the agent's distribution per decision
    playon_round(review.records[0], decision=17)              # a Round just before decision 17

*Reading* (:func:`read_review`): a project records file (JSON Lines, docs/records.md) is checked
line by line by :func:`jass_env.records.check_records`; a jass-kit log is first converted by
:func:`jass_env.records.jasskit.convert_jasskit_log` (what ``records convert`` does). A line that
cannot be reviewed (not JSON, a malformed record, a line jass-kit's converter skips) is one entry
of :attr:`Review.problems` naming its line and why; every other record is reviewable. What the
checker finds wrong in a readable record (a legal set, a trick's winner, an outcome field) is
listed with the record (``notes``); where its play stops being legal (jass-kit's under-trumps)
its decisions end before that play (``stopped`` says where and why).

*Decisions*: every action of the round in order (the bidding, each card, Sidi's exchange), each
with the seat that took it, its trick (1-based, 0 before card play), the legal actions the engine
offered there and the view of the viewpoint seat just before it
(:func:`agents.web.views.round_view`: the other hands only when ``open``).

*Analysis* (:func:`analyse`): an agent spec (:func:`agents.registry.make_agent`) is asked at every
decision, for the seat that decided, from that seat's own observation (its game's encoding, what
the AEC environment gives an agent); each seat has its own agent, reset at the start of the round
and asked at each of its seat's decisions in order, so agents that remember the round see it all.
An agent with ``action_probabilities`` (trained policies, ONNX) gives its distribution over the
legal actions, any other its choice as probability 1 ("choice only"). A decision ``differs`` when
p(agent's best) − p(chosen) exceeds the threshold.

The self-contained HTML export and the ``review`` command are :mod:`agents.web.review_html`; the
HTTP routes :mod:`agents.web.review_routes`.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property, partial
from typing import Any

import numpy as np

from jass_env.engine.cards import PHASE_ACTION_OFFSET, mask_of
from jass_env.engine.switches import Rules, RulesError
from jass_env.games import PRESETS, game_of, make_rules
from jass_env.games._records import Deal
from jass_env.records import check_records, record_line
from jass_env.records.check import Finding, numbered_lines
from jass_env.records.format import DEFAULT_PRESET
from jass_env.records.jasskit import convert_jasskit_log
from jass_env.records.replay import start_replay
from jass_env.round import Round

from ..registry import AgentSpecError, make_agent
from ..table import AgentFailure, agent_action, describe, hidden_from, observation, option_label, round_seed
from ..trained_for import rules_difference
from .views import LOG_EVENTS, legal_entry, player_name, round_view

#: the formats a review reads; "auto" looks at the first JSON object of the file
FORMATS = ("auto", "records", "jasskit")
#: the probability margin by which the agent's best action beats the chosen one for ``differs``
DEFAULT_THRESHOLD = 0.2
#: how an analysis got its numbers: the agent's distribution, or only its choice (probability 1)
PROBABILITIES, CHOICE_ONLY = "probabilities", "choice only"
#: reviews a :class:`ReviewStore` keeps, and records in all (the least recently used go first)
MAX_REVIEWS = 16
MAX_STORED_RECORDS = 20_000


class ReviewError(ValueError):
    """Input that cannot be reviewed or analysed; the message says what was wrong and what is allowed."""


class ReviewNotFound(ReviewError):
    """No review, or no record of a review, by that id or index."""


@dataclass(frozen=True, slots=True)
class Planned:
    """One action of a record, in order: its action id, the player the record names for it (None
    for the bidding, whose player only the engine knows), its trick (from 1; 0 for the bidding)
    and its position in the trick (from 1; 0 for an action before the trick's lead)."""

    action: int
    player: int | None
    trick: int
    position: int

    @property
    def where(self) -> str:
        """Where the action is, for messages: ``trick 3, position 2``."""
        if self.trick == 0:
            return "the bidding"
        return f"trick {self.trick}, " + (f"position {self.position}" if self.position else "before its lead")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a replayed record: its index (0-based), the seat that took it, its trick
    (1-based, 0 before card play), the action taken and the legal actions then (ascending ids)."""

    index: int
    seat: int
    trick: int
    action: int
    legal: tuple[int, ...]


@dataclass(frozen=True)
class Replayed:
    """A record replayed by the engine: its decisions, the round just before each of them (when
    asked for; else empty), the round after the last, and why the replay stopped before the end
    (None when it played every action of the record)."""

    decisions: list[Decision]
    before: list[Round]
    final: Round
    stopped: str | None


@dataclass
class ReviewRecord:
    """One reviewable record: its index in the review, its line in the file, its ``id``, rules,
    dealt hands (card masks), dealer, the game's deal (set-up and bidding), its actions in order,
    and what the record checker found (``notes``). Replays are made when asked for, never kept:
    a server holds many records."""

    index: int
    line: int
    id: Any
    rules: Rules
    hands: list[int]
    dealer: int
    deal: Deal
    actions: list[Planned]
    notes: list[str]

    def start(self) -> Round:
        """The round as dealt: the record's hands and dealer, set up as its game says, before the
        first decision (the bidding is a decision, so it is not applied here)."""
        return start_replay(self.rules, self.hands, self.dealer, replace(self.deal, bidding=()))

    def replay(self, rounds: bool = False) -> Replayed:
        """The record's actions applied one by one (with ``rounds``, a copy of the round before
        each kept); the replay stops before an action by another player than the engine has to
        move, or one the engine does not allow."""
        r = self.start()
        decisions: list[Decision] = []
        before: list[Round] = []
        stopped = None
        for planned in self.actions:
            seat = r.to_move
            label = option_label(planned.action, self.rules.spec)
            if r.is_over:
                stopped = f"{planned.where}: the record goes on with {label}, but the round is over"
                break
            if planned.player is not None and planned.player != seat:
                stopped = (f"{planned.where}: the record has player {planned.player} play {label}, but "
                           f"the engine has player {seat} to move")
                break
            legal = tuple(int(a) for a in r.legal_actions())
            if planned.action not in legal:
                stopped = f"{planned.where}: {r.illegal_message(planned.action)}"
                break
            trick = r.trick_number + 1 if r.phase == "play" else 0
            decisions.append(Decision(len(decisions), seat, trick, planned.action, legal))
            if rounds:
                before.append(r.copy())
            r.step(planned.action)
        if stopped is not None:
            stopped += "; the review ends before this action"
        return Replayed(decisions, before, r, stopped)

    @cached_property
    def outline(self) -> tuple[int, str | None]:
        """The number of decisions and why the replay stops early (None when it does not)."""
        replayed = self.replay()
        return len(replayed.decisions), replayed.stopped

    def summary(self) -> dict[str, Any]:
        """The record's entry in the list of a review (``POST /api/reviews``)."""
        spec = self.rules.spec
        decisions, stopped = self.outline
        return {"index": self.index, "line": self.line, "id": self.id, "rules": self.rules.name,
                "title": spec.title, "players": spec.players, "decisions": decisions,
                "notes": self.notes, "stopped": stopped}

    def review(self, viewpoint: int = 0, open_hands: bool = False) -> dict[str, Any]:
        """The review JSON of this record seen from seat ``viewpoint`` (every hand when
        ``open_hands``): each decision with the view just before it, the view after the last one
        and the engine's outcome of the round (None when the replay stopped early)."""
        spec = self.rules.spec
        if isinstance(viewpoint, bool) or not isinstance(viewpoint, int) or not 0 <= viewpoint < spec.players:
            raise ReviewError(f"viewpoint must be a seat 0..{spec.players - 1} of {spec.title}, "
                              f"got {viewpoint!r}")
        replayed = self.replay(rounds=True)
        decisions = []
        log: list[str] = []
        for d, before in zip(replayed.decisions, replayed.before, strict=True):
            view = round_view(before, viewpoint, open_hands=open_hands, log=log[-LOG_EVENTS:])
            decisions.append({"index": d.index, "seat": d.seat, "trick": d.trick,
                              "kind": "card" if d.action < PHASE_ACTION_OFFSET else "phase",
                              "chosen": d.action, "chosen_label": option_label(d.action, spec),
                              "legal": [legal_entry(a, spec) for a in d.legal], "view": view})
            hidden = (not open_hands and d.seat != viewpoint and d.action >= PHASE_ACTION_OFFSET
                      and hidden_from(before, d.action, viewpoint))      # cards are played face up
            log.append(describe(player_name(d.seat), d.action, spec, you=d.seat == viewpoint, hidden=hidden))
        final = replayed.final
        complete = replayed.stopped is None and final.is_over
        return {"record": self.index, "line": self.line, "id": self.id, "rules": self.rules.name,
                "title": spec.title, "players": spec.players, "teams": spec.sides < spec.players,
                "viewpoint": viewpoint, "open": bool(open_hands), "notes": self.notes,
                "stopped": replayed.stopped, "decisions": decisions,
                "final": round_view(final, viewpoint, open_hands=open_hands, log=log[-LOG_EVENTS:]),
                "outcome": game_of(self.rules).records.outcome(final) if complete else None}


@dataclass
class Review:
    """A file read for review: its name, the format it was read as, the reviewable records and
    the lines that could not be reviewed (``problems``: "line N: why")."""

    name: str
    format: str
    records: list[ReviewRecord]
    problems: list[str]

    def summary(self) -> dict[str, Any]:
        """The answer of ``POST /api/reviews`` (without the review's id)."""
        return {"name": self.name, "format": self.format, "problems": self.problems,
                "records": [r.summary() for r in self.records]}

    def record(self, index: Any) -> ReviewRecord:
        """The record with this index (an int, or its decimal text); ReviewError naming the range."""
        n = len(self.records)
        try:
            i = int(index) if not isinstance(index, bool) else -1
        except (TypeError, ValueError):
            i = -1
        if not 0 <= i < n or (isinstance(index, float) and not index.is_integer()):
            raise ReviewNotFound(f"no record {index!r} in {self.name!r}: its records are 0..{n - 1}")
        return self.records[i]


# reading
def read_review(data: str | bytes, name: str = "review", format: str = "auto",  # noqa: A002 (the API's name)
                rules: str | None = None) -> Review:
    """Read a records file or a jass-kit log (the whole text, or its bytes) for review.

    ``format``: "records" (jass-record/1 JSON Lines), "jasskit" (a jass-kit game log) or "auto"
    (jass-kit when the first JSON object of the file is a jass-kit game or log entry). ``rules``
    (a preset) replaces each record's ``rules`` field, as ``records check --rules`` does. Bad lines
    are :attr:`Review.problems`; ReviewError only for a bad ``format`` or ``rules``.
    """
    if format not in FORMATS:
        raise ReviewError(f"unknown format {format!r}; formats: {', '.join(FORMATS)}")
    if rules is not None and rules not in PRESETS:
        raise ReviewError(f"unknown rules preset {rules!r}; presets: {', '.join(PRESETS)}")
    lines = data.split(b"\n" if isinstance(data, bytes) else "\n")
    if format == "auto":
        format = detect_format(lines)  # noqa: A001
    problems: list[str] = []
    candidates: list[tuple[int, str]] = []        # (line of the file, the record's JSON text)
    if format == "jasskit":
        conversion = convert_jasskit_log(lines, source=name)
        problems += [f"line {n}: {why}" for n, why in conversion.skipped]
        candidates = [(int(str(r["id"]).rsplit(":", 1)[1]), record_line(r)) for r in conversion.records]
    else:
        for n, text, decode_error in numbered_lines(lines):
            if decode_error is not None:
                problems.append(f"line {n}: not UTF-8 text ({decode_error})")
            elif text.strip():
                candidates.append((n, text))
    records = _reviewable(candidates, rules, problems)
    problems.sort(key=lambda p: int(p.split(":", 1)[0].removeprefix("line ")))
    return Review(name, format, records, problems)


def detect_format(lines: Iterable[str | bytes]) -> str:
    """"jasskit" when the first line holding a JSON object is a jass-kit log entry (``{"game":
    ...}``) or game state (``player`` and ``trump``, no ``hands``), else "records"."""
    for _, text, decode_error in numbered_lines(lines):
        if decode_error is not None or not text.strip():
            continue
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict):
            jasskit = "game" in obj or ("player" in obj and "trump" in obj and "hands" not in obj)
            return "jasskit" if jasskit else "records"
    return "records"


def _reviewable(candidates: list[tuple[int, str]], rules: str | None,
                problems: list[str]) -> list[ReviewRecord]:
    """The records among ``candidates`` (line, JSON text) that the checker can read, each with what
    it finds; the others are added to ``problems``."""
    report = check_records([text for _, text in candidates], rules=rules)
    findings: dict[int, list[Finding]] = {}
    for f in report.findings:
        findings.setdefault(f.line, []).append(f)
    explicit = make_rules(rules) if rules is not None else None
    records: list[ReviewRecord] = []
    for k, (line, text) in enumerate(candidates, 1):
        found = findings.get(k, [])
        malformed = next((f for f in found if f.malformed), None)
        if malformed is not None:
            problems.append(f"line {line}: {_place(malformed)}{malformed.text}")
            continue
        notes = [f"{_place(f)}{f.text}" for f in found]
        try:
            records.append(_record(json.loads(text), len(records), line, notes, explicit))
        except Exception as exc:  # noqa: BLE001 - one record that cannot be replayed is its line's problem
            problems.append(f"line {line}: cannot be replayed ({type(exc).__name__}: {str(exc)[:200]})")
    return records


def _place(f: Finding) -> str:
    """Where a finding is in the play ("trick 3, position 2: "), or nothing."""
    parts = [f"trick {f.trick}"] if f.trick is not None else []
    parts += [f"position {f.position}"] if f.position is not None else []
    return ", ".join(parts) + ": " if parts else ""


def _record(obj: dict[str, Any], index: int, line: int, notes: list[str],
            explicit: Rules | None) -> ReviewRecord:
    """A record the checker has read (its structure is sound) as a :class:`ReviewRecord`."""
    overrides = obj.get("rule_overrides", {})
    try:
        base = explicit if explicit is not None else obj.get("rules", DEFAULT_PRESET)
        rules = make_rules(base, **overrides)
    except RulesError as exc:
        raise ReviewError(str(exc)) from None
    hands = [mask_of(h) for h in obj["hands"]]
    dealer = obj["dealer"]
    deal = game_of(rules).records.parse(obj, rules, hands, dealer, obj["forehand"],
                                        partial(start_replay, rules, hands, dealer))
    parse = Round(rules, hands=hands, dealer=dealer).parse_action
    actions = [Planned(parse(name), None, 0, 0) for name in deal.bidding]
    for t, trick in enumerate(obj["tricks"], 1):
        before = deal.before_trick.get(t)
        if before is not None:
            actions.append(Planned(before.action, trick["leader"], t, 0))
        actions += [Planned(parse(play[1]), play[0], t, i) for i, play in enumerate(trick["plays"], 1)]
    return ReviewRecord(index, line, obj.get("id"), rules, hands, dealer, deal, actions, notes)


# analysis
def check_threshold(threshold: Any) -> float:
    """A threshold: a number 0..1 (a difference of probabilities); ReviewError otherwise."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise ReviewError(f"threshold must be a number 0..1 (a difference of probabilities), "
                          f"got {threshold!r}")
    return float(threshold)


def analyse(rec: ReviewRecord, spec: str, threshold: float = DEFAULT_THRESHOLD,
            seed: int = 0) -> dict[str, Any]:
    """Agent ``spec``'s opinion of every decision of ``rec`` (the analysis JSON).

    Each seat gets its own agent (``make_agent(spec, rules, seed)``), reset at the start of the
    round and asked at each of its seat's decisions in order, from that seat's observation. Per
    decision: ``probs`` over the legal actions (summing to 1), ``best`` (the most probable, the
    lowest id on a tie), ``p_best``, ``p_chosen`` and ``differs`` (p_best − p_chosen > threshold).
    ReviewError for a bad spec or threshold, or an agent that fails or chooses an illegal action.
    """
    threshold = check_threshold(threshold)
    if not isinstance(spec, str) or not spec.strip():
        raise ReviewError(f"agent must be an agent spec (e.g. policy, random, heuristic), got {spec!r}")
    rules, players = rec.rules, rec.rules.spec.players
    try:
        agents = [make_agent(spec, rules, seed) for _ in range(players)]
    except (AgentSpecError, ValueError, OSError) as exc:   # CheckpointError is a ValueError
        raise ReviewError(f"agent {spec!r} cannot play {rules.name}: {exc}") from None
    for seat, agent in enumerate(agents):
        agent.reset(seed=round_seed(seed, 0, seat))
    mode = PROBABILITIES if all(hasattr(a, "action_probabilities") for a in agents) else CHOICE_ONLY
    out = []
    replayed = rec.replay(rounds=True)
    for d, before in zip(replayed.decisions, replayed.before, strict=True):
        try:
            probs = _distribution(agents[d.seat], before, d, mode)
        except AgentFailure as exc:
            raise ReviewError(f"agent {spec!r} at decision {d.index}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - an agent's failure is the analysis's error, named
            raise ReviewError(f"agent {spec!r} failed at decision {d.index} (seat {d.seat}): "
                              f"{type(exc).__name__}: {exc}") from None
        best = max(d.legal, key=lambda a: (probs[a], -a))
        p_best, p_chosen = probs[best], probs[d.action]
        out.append({"index": d.index, "seat": d.seat, "chosen": d.action, "best": best,
                    "probs": {str(a): p for a, p in probs.items()}, "values": None,
                    "p_best": p_best, "p_chosen": p_chosen, "differs": p_best - p_chosen > threshold})
    return {"record": rec.index, "agent": spec, "mode": mode, "threshold": threshold, "seed": seed,
            "warning": agent_warning(agents[0], rules), "decisions": out}


def agent_warning(agent: Any, rules: Rules) -> str | None:
    """What the reader of an analysis should know about the agent: its spec's warning (a policy
    with random weights) and rules other than those it was trained for; None when nothing."""
    notes = [agent.spec_warning] if getattr(agent, "spec_warning", None) else []
    trained = getattr(agent, "trained_for", None)
    differ = rules_difference(trained, rules) if isinstance(trained, dict) else None
    if differ:
        notes.append(f"it was trained for rules {trained.get('rules')!r}, this record is played under "
                     f"{rules.name!r}, which differ in {', '.join(differ)}: expect weaker advice")
    return "; ".join(notes) or None


def _distribution(agent: Any, rnd: Round, d: Decision, mode: str) -> dict[int, float]:
    """The agent's probability of each legal action of decision ``d`` (``rnd``: the round just
    before it), summing to 1."""
    if mode == PROBABILITIES:
        p = np.asarray(agent.action_probabilities(observation(rnd)), dtype=np.float64)[list(d.legal)]
        if not np.all(np.isfinite(p)) or p.sum() <= 0:
            raise ValueError(f"action_probabilities gave no distribution over the legal actions: "
                             f"{p.tolist()}")
        p = p / p.sum()
        return {a: float(x) for a, x in zip(d.legal, p, strict=True)}
    choice = agent_action(agent, rnd)
    return {a: 1.0 if a == choice else 0.0 for a in d.legal}


# play on
def playon_round(rec: ReviewRecord, decision: Any) -> Round:
    """A round of ``rec``'s deal just before decision ``decision`` (its actions up to there applied):
    0..decisions−1, or the number of decisions when the replay stopped early (where it stopped)."""
    n, stopped = rec.outline
    last = n if stopped is not None else n - 1
    if isinstance(decision, bool) or not isinstance(decision, int) or not 0 <= decision <= last:
        raise ReviewError(f"decision must be an integer 0..{last} (the decisions of record {rec.index}), "
                          f"got {decision!r}")
    replayed = rec.replay(rounds=True)
    return replayed.final if decision == n else replayed.before[decision]


# the server's reviews
class ReviewStore:
    """The reviews a server holds, by a random id: at most ``limit`` reviews and ``max_records``
    records in all (the least recently used go first; the newest stays whatever its size). Safe to
    use from several threads."""

    def __init__(self, limit: int = MAX_REVIEWS, max_records: int = MAX_STORED_RECORDS) -> None:
        self.limit, self.max_records = limit, max_records
        self._reviews: OrderedDict[str, Review] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, review: Review) -> str:
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._reviews[key] = review
            while len(self._reviews) > 1 and (len(self._reviews) > self.limit or sum(
                    len(r.records) for r in self._reviews.values()) > self.max_records):
                self._reviews.popitem(last=False)
        return key

    def get(self, key: str) -> Review:
        """The review ``key``; ReviewError (a 404) when there is none (unknown, or dropped as the oldest)."""
        with self._lock:
            review = self._reviews.get(key)
            if review is not None:
                self._reviews.move_to_end(key)
        if review is None:
            raise ReviewNotFound(f"no review {key!r}: it is unknown or was dropped (a server keeps the "
                                 f"{self.limit} latest, {self.max_records} records in all); open the file "
                                 f"again")
        return review


__all__ = ["FORMATS", "DEFAULT_THRESHOLD", "PROBABILITIES", "CHOICE_ONLY", "ReviewError", "ReviewNotFound",
           "Decision", "Replayed", "ReviewRecord", "Review", "ReviewStore", "read_review", "detect_format",
           "analyse", "agent_warning", "check_threshold", "playon_round"]
