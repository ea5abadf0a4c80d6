"""The tables of the browser app: a game in progress with people and agents in its seats, and the
store that keeps them.

A :class:`Table` holds one :class:`agents.table.SeatedGame` (one round at a time, or a match), the
agents of its agent seats, a secret token per human seat, and the log. People act through
:meth:`Table.act` (their seat and token), agents through :meth:`Table.advance` (the client sets the
pace); after a round ends the table waits for :meth:`Table.next_round` (the next round of the
match, or a new deal). Every request that cannot be answered raises :class:`TableError` with the
HTTP status and a message saying what was wrong and what is allowed; the table is then unchanged.

The :class:`TableStore` creates tables, finds them by id, drops tables nobody asked about for
``ttl`` seconds (unless a websocket is open on them) and holds at most ``max_tables``.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games import PRESETS, make_rules
from jass_env.records import record_line
from jass_env.round import Match, Round

from ..base import Agent
from ..table import AgentFailure, SeatedGame, hidden_from, is_card
from .views import (
    HUMAN,
    LOG_EVENTS,
    WAITING_AGENT,
    WAITING_HUMAN,
    WAITING_NONE,
    Event,
    event_text,
    match_result,
    player_name,
    round_result,
    round_view,
)

#: seconds a table is kept after the last request about it (no websocket open on it)
DEFAULT_TTL = 2 * 3600.0
#: the most tables a store holds
DEFAULT_MAX_TABLES = 200
#: the most agent actions one advance takes, and the seconds after which it stops early
MAX_ADVANCE_STEPS = 1000
ADVANCE_SECONDS = 10.0
#: the agent of a seat a table request leaves out
DEFAULT_AGENT = "heuristic"
#: the largest seed a table takes
MAX_SEED = 2**63 - 1
#: events a table keeps for its log (views show the last LOG_EVENTS)
KEPT_EVENTS = 4 * LOG_EVENTS


class TableError(Exception):
    """A request about a table that cannot be answered: the HTTP ``status`` and the ``message``."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TableRequest:
    """A checked request for a new table: the rules, each seat's ``"human"`` or agent spec, the
    seed (None: a random one, never shown) and whether the game's whole match is played."""

    rules: Rules
    seats: tuple[str, ...]
    seed: int | None
    match: bool

    @classmethod
    def parse(cls, body: Mapping[str, Any], default_rules: str, rules: Rules | None = None) -> TableRequest:
        """The request of a JSON body ``{"rules", "seats", "seed", "match"}`` (all optional: the
        default preset; seat 0 human and the heuristic elsewhere; a random seed; one round);
        ``rules``: the table's rules when they are given (a round played on), the body's then
        left out or naming them. TableError (400) saying what is wrong."""
        unknown = sorted(set(body) - {"rules", "seats", "seed", "match"})
        if unknown:
            raise TableError(HTTPStatus.BAD_REQUEST, f"unknown field(s) {', '.join(map(repr, unknown))}; a "
                                                     "table takes rules, seats, seed and match")
        name = body.get("rules", default_rules if rules is None else rules.name)
        if rules is not None and name != rules.name:
            raise TableError(HTTPStatus.BAD_REQUEST,
                             f"this table plays on a round of {rules.name}, not {name!r}")
        if rules is None:
            if not isinstance(name, str) or name not in PRESETS:
                raise TableError(HTTPStatus.BAD_REQUEST,
                                 f"unknown rules {name!r}; presets: {', '.join(PRESETS)}")
            rules = make_rules(name)
        n = rules.spec.players
        seats = body.get("seats", [HUMAN] + [DEFAULT_AGENT] * (n - 1))
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) and s.strip()
                                                                     for s in seats):
            raise TableError(HTTPStatus.BAD_REQUEST,
                             f"seats must be a list of {n} strings for {name} ({rules.spec.title}, {n} "
                             f"players): \"human\" or an agent spec per seat, got {seats!r}")
        seed = body.get("seed")
        if seed is not None and not (_int(seed) and 0 <= seed <= MAX_SEED):
            raise TableError(HTTPStatus.BAD_REQUEST, f"seed must be an integer 0..{MAX_SEED} or left out, "
                                                     f"got {seed!r}")
        match = body.get("match", False)
        if not isinstance(match, bool):
            raise TableError(HTTPStatus.BAD_REQUEST, f"match must be true or false, got {match!r}")
        specs = tuple(HUMAN if s.strip().lower() == HUMAN else s.strip() for s in seats)
        return cls(rules, specs, seed, match)


def build_agents(request: TableRequest, seed: int,
                 make_agent: Callable[..., Agent]) -> dict[int, Agent]:
    """The agents of the request's agent seats (one instance per seat, seeded from ``seed``);
    TableError (400) naming the first seat whose spec does not load and why."""
    agents = {}
    for p, spec in enumerate(request.seats):
        if spec == HUMAN:
            continue
        try:
            agents[p] = make_agent(spec, request.rules, seed=seed + p)
        except Exception as e:      # any failure to load an agent is the request's: a clear 400
            raise TableError(HTTPStatus.BAD_REQUEST,
                             f"seat {p}: agent {spec!r} cannot play {request.rules.name}: "
                             f"{type(e).__name__}: {e}") from None
    return agents


class Table:
    """One table: its rules, its seats (``"human"`` or an agent spec each), the game and its log.
    Every method takes the table's lock; a request it cannot answer raises TableError and changes
    nothing."""

    def __init__(self, table_id: str, request: TableRequest, agents: dict[int, Agent], seed: int,
                 start: Round | None = None) -> None:
        self.id, self.rules, self.seat_specs = table_id, request.rules, request.seats
        self.humans = tuple(p for p, s in enumerate(request.seats) if s == HUMAN)
        self.tokens = {p: secrets.token_urlsafe(18) for p in self.humans}
        self.game = SeatedGame(request.rules, agents, seed, request.match,
                               record_id=lambda n: f"{table_id}-round{n}", start=start)
        self.events: list[Event] = []
        #: +1 on every change of the table (views carry it: a client keeps the newest)
        self.version = 0
        #: a match's round that is over, shown until the next one is started
        self.paused: Round | None = None
        self.lock = threading.RLock()
        #: when the store last handed the table out (its clock's seconds)
        self.last_used = 0.0
        #: websockets open on the table (a table with one is not abandoned)
        self.connections = 0
        self._round_started()

    # who sits where
    @property
    def is_watch(self) -> bool:
        """No person plays: every view shows every hand."""
        return not self.humans

    def who(self, seat: int) -> str:
        """``"human"`` or the agent's name."""
        agent = self.game.agents.get(seat)
        return HUMAN if agent is None else str(getattr(agent, "name", self.seat_specs[seat]))

    def warning(self, seat: int) -> str | None:
        """What the seat's agent spec warns about (a policy with random weights), or None."""
        return getattr(self.game.agents.get(seat), "spec_warning", None)

    def check_seat(self, seat: Any, token: Any) -> int:
        """The human seat a request names with its token; TableError (400 not a human seat, 403
        a wrong token)."""
        if isinstance(seat, str) and seat.strip().isdigit():
            seat = int(seat)
        if not _int(seat) or seat not in self.humans:
            humans = ", ".join(map(str, self.humans)) or "none (a table of agents: watch it without seat)"
            raise TableError(HTTPStatus.BAD_REQUEST, f"seat {seat!r} is not a human seat of table {self.id}; "
                                                     f"human seats: {humans}")
        if not isinstance(token, str) or not secrets.compare_digest(token.encode(),
                                                                    self.tokens[seat].encode()):
            raise TableError(HTTPStatus.FORBIDDEN,
                             f"wrong or missing token for seat {seat} of table {self.id}")
        return seat

    def check_viewer(self, seat: Any, token: Any) -> int | None:
        """The seat (a human seat with its token) or None (a watcher, allowed at a table of agents
        or once the round is over); TableError otherwise."""
        if seat is None and token is None:
            with self.lock:
                if not (self.is_watch or self.shown_round.is_over):
                    raise TableError(HTTPStatus.FORBIDDEN,
                                     f"table {self.id} has human seats ({', '.join(map(str, self.humans))}) "
                                     "and its round is being played: give seat and token")
            return None
        return self.check_seat(seat, token)

    # the game's state
    @property
    def shown_round(self) -> Round:
        """The round the views show: a finished round of a match until the next is started, else
        the round being played."""
        return self.paused if self.paused is not None else self.game.round

    @property
    def round_no(self) -> int:
        """The shown round's number, from 1."""
        return self.game.rounds_played + (0 if self.shown_round.is_over else 1)

    @property
    def waiting_for(self) -> str:
        """Whom the table waits for: a human, an agent, or nobody (round or match over)."""
        rnd = self.shown_round
        if rnd.is_over:
            return WAITING_NONE
        return WAITING_HUMAN if rnd.to_move in self.humans else WAITING_AGENT

    @property
    def can_start_next(self) -> bool:
        """Whether :meth:`next_round` starts a round: the shown round is over and the match, if
        one is played, goes on."""
        return self.shown_round.is_over and not (self.game.match and self.game.is_over)

    # acting
    def act(self, seat: Any, token: Any, action: Any) -> int:
        """The action of a human seat: checked (seat and token, its turn, a legal action id).
        Returns the seat."""
        with self.lock:
            seat = self.check_seat(seat, token)
            self._check_going_on()
            rnd = self.game.round
            if rnd.to_move != seat:
                kind = "a person" if rnd.to_move in self.humans else "an agent"
                raise TableError(HTTPStatus.CONFLICT, f"it is not seat {seat}'s turn: "
                                                      f"{player_name(rnd.to_move)} ({kind}) is to move")
            spec = self.rules.spec
            if not _int(action) or not 0 <= action < spec.n_actions:
                raise TableError(HTTPStatus.BAD_REQUEST,
                                 f"action must be an action id of {self.rules.name}, an integer "
                                 f"0..{spec.n_actions - 1} (the 'action' of an entry of the view's "
                                 f"'legal' list), got {action!r}")
            if action not in rnd.legal_actions():
                raise TableError(HTTPStatus.BAD_REQUEST, rnd.illegal_message(action))
            self._step(action)
            return seat

    def advance(self, steps: Any) -> int:
        """Let agents take up to ``steps`` actions (1..MAX_ADVANCE_STEPS): stops when a person is
        to move, the round is over, or after ADVANCE_SECONDS. Returns the actions taken.
        TableError: 400 bad steps, 409 no agent to move, 500 an agent failed (its action not
        taken)."""
        if not _int(steps) or not 1 <= steps <= MAX_ADVANCE_STEPS:
            raise TableError(HTTPStatus.BAD_REQUEST,
                             f"steps must be an integer 1..{MAX_ADVANCE_STEPS}, got {steps!r}")
        taken, deadline = 0, time.monotonic() + ADVANCE_SECONDS
        while taken < steps and time.monotonic() < deadline:
            with self.lock:
                if self.waiting_for != WAITING_AGENT:
                    if taken == 0:
                        self._check_going_on()
                        raise TableError(HTTPStatus.CONFLICT, f"no agent is to move: "
                                                              f"{player_name(self.game.round.to_move)} "
                                                              "(a person) is")
                    break
                try:
                    action = self.game.agent_action()
                except AgentFailure as e:
                    raise TableError(HTTPStatus.INTERNAL_SERVER_ERROR, str(e)) from None
                self._step(action)
            taken += 1
        return taken

    def next_round(self) -> None:
        """Start the next round after one ended: the match's next round, or a new deal."""
        with self.lock:
            if not self.shown_round.is_over:
                raise TableError(HTTPStatus.CONFLICT, f"round {self.round_no} is still being played")
            if not self.can_start_next:
                raise TableError(HTTPStatus.CONFLICT, "the match is over; start a new table to play again")
            if self.paused is not None:
                self.paused = None
            else:
                self.game.new_round()
            self._round_started()
            self.version += 1

    def _round_started(self) -> None:
        rnd, n = self.game.round, self.round_no
        self.events.append(Event(n, text=f"Round {n}: dealer {player_name(rnd.dealer)}, "
                                         f"forehand {player_name(rnd.forehand)}"))

    def _check_going_on(self) -> None:
        if self.shown_round.is_over:
            nxt = ("start a new table to play again" if not self.can_start_next
                   else "POST next starts the next round")
            raise TableError(HTTPStatus.CONFLICT, f"round {self.round_no} is over; {nxt}")

    def _step(self, action: int) -> None:
        """Take a legal action of the seat to move and log it."""
        rnd, player = self.game.round, self.game.round.to_move
        hidden = frozenset() if is_card(action) else frozenset(
            p for p in self.humans if p != player and hidden_from(rnd, action, p))
        round_no = self.round_no
        step = self.game.step(action)
        self.events.append(Event(round_no, player=player, action=action, hidden_from=hidden))
        if step.trick is not None:
            t = step.trick
            self.events.append(Event(round_no, text=f"Trick {step.rnd.trick_number} won by "
                                                    f"{player_name(t['winner'])} ({t['points']} points)"))
        if step.finished is not None:
            self.events.append(Event(round_no, text=round_result(step.finished, round_no)))
            if isinstance(self.game.game, Match):
                if self.game.is_over:
                    self.events.append(Event(round_no, text=match_result(
                        self.rules.spec, self.game.game.winner, self.game.game.scores)))
                else:
                    self.paused = step.finished
        del self.events[:-KEPT_EVENTS]
        self.version += 1

    # reading
    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of a checked seat (None: a watcher); :func:`table_view`."""
        with self.lock:
            return table_view(self, seat)

    def view_for(self, seat: Any, token: Any) -> dict[str, Any]:
        """The view of whoever a request names (:meth:`check_viewer`); TableError."""
        with self.lock:
            return table_view(self, self.check_viewer(seat, token))

    def created(self) -> dict[str, Any]:
        """The answer to the request that created the table: its id, the token of each human seat
        (by seat, as a string) and the view of the first human seat (the watcher's at a table of
        agents)."""
        with self.lock:
            first = self.humans[0] if self.humans else None
            return {"table": self.id, "tokens": {str(p): t for p, t in self.tokens.items()},
                    "view": table_view(self, first)}

    def record_text(self) -> str:
        """Every recorded round as JSON Lines (``jass-record/1``, one line per round)."""
        with self.lock:
            return "".join(record_line(r) + "\n" for r in self.game.records)


@dataclass
class TableStore:
    """The tables by id: at most ``max_tables``, each dropped after ``ttl`` seconds without a
    request (and no websocket open). ``clock``: seconds, monotonic (a test's own clock)."""

    ttl: float = DEFAULT_TTL
    max_tables: int = DEFAULT_MAX_TABLES
    clock: Callable[[], float] = time.monotonic
    tables: dict[str, Table] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.ttl > 0 or not _int(self.max_tables) or self.max_tables < 1:
            raise ValueError(f"a table store needs ttl > 0 seconds and max_tables >= 1, got "
                             f"ttl={self.ttl!r}, max_tables={self.max_tables!r}")
        self._lock = threading.Lock()

    def expire(self) -> int:
        """Drop the abandoned tables; returns how many."""
        now = self.clock()
        with self._lock:
            old = [k for k, t in self.tables.items() if t.connections == 0 and now - t.last_used > self.ttl]
            for k in old:
                del self.tables[k]
        return len(old)

    def _check_room(self) -> None:
        if len(self.tables) >= self.max_tables:
            raise TableError(HTTPStatus.SERVICE_UNAVAILABLE,
                             f"the server holds {len(self.tables)} tables, the most it keeps; a table is "
                             f"dropped {self.ttl:.0f} s after its last request: try again later")

    def create(self, body: Mapping[str, Any], default_rules: str, start: Round | None = None,
               make_agent: Callable[..., Agent] | None = None) -> Table:
        """A new table from a request body (:meth:`TableRequest.parse`), its game a new round (or
        match), or ``start``, a round under way (one round; the body's rules are its rules);
        TableError 400 for a bad request or an agent that does not load, 503 when the store is
        full. ``make_agent``: how agents are built (default :func:`agents.registry.make_agent`)."""
        if make_agent is None:
            from ..registry import make_agent
        self.expire()
        request = TableRequest.parse(body, default_rules, None if start is None else start.rules)
        if start is not None and request.match:
            raise TableError(HTTPStatus.BAD_REQUEST, "a table that plays on from a round plays that round, "
                                                     "not a match: leave match out")
        with self._lock:
            self._check_room()
        seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
        agents = build_agents(request, seed, make_agent)
        with self._lock:
            self._check_room()
            table_id = secrets.token_urlsafe(9)
            table = Table(table_id, request, agents, seed, start)
            table.last_used = self.clock()
            self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (its last use now); TableError 404 when there is none."""
        self.expire()
        with self._lock:
            table = self.tables.get(table_id)
        if table is None:
            raise TableError(HTTPStatus.NOT_FOUND, f"no table {table_id!r}: it never existed or was dropped "
                                                   f"after {self.ttl:.0f} s without a request")
        table.last_used = self.clock()
        return table

    def __len__(self) -> int:
        return len(self.tables)



def table_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (a human seat; None: a watcher, whom the caller has allowed to see
    every hand) of ``table``: :func:`round_view` of the round the table shows, with the table's
    players, log, whom it waits for, its round number, records and version."""
    spec = table.rules.spec
    out = round_view(table.shown_round, seat, open_hands=seat is None,
                     who=[table.who(p) for p in range(spec.players)],
                     log=[event_text(e, spec, seat) for e in table.events[-LOG_EVENTS:]])
    for entry in out["seats"]:
        entry["warning"] = table.warning(entry["seat"])
    waiting = table.waiting_for
    if waiting != WAITING_HUMAN:
        out["legal"] = []
    match = table.game.match
    out.update(table=table.id, waiting_for=waiting, round_no=table.round_no, match=match,
               match_scores=out["match_scores"] if match else None,
               match_over=bool(match and table.game.is_over), next_round=table.can_start_next,
               records=len(table.game.records), version=table.version)
    if out["round_over"]:
        rnd = table.shown_round
        out["result"] = round_result(rnd, table.round_no)
        if out["match_over"]:
            out["result"] += "; " + match_result(spec, table.game.game.winner, table.game.game.scores)
    return out


__all__ = ["ADVANCE_SECONDS", "DEFAULT_MAX_TABLES", "DEFAULT_TTL", "MAX_ADVANCE_STEPS", "Table", "TableError",
           "TableRequest", "TableStore", "build_agents", "table_view"]
