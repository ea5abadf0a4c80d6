"""Benchmark: the browser app's server (agents.web) under load, through its HTTP API.

Starts ``python -m agents.web --port 0`` as its own process, then plays ``--tables`` tables (20)
at once: one client thread per table, each over one keep-alive HTTP/1.1 connection. A table has
one "human" seat (the thread, choosing uniformly among the legal actions its view offers) and
random agents in the others; the thread calls ``advance`` whenever an agent is to move, as the
page does, and ``next`` between rounds, for ``--rounds`` rounds (5). The tables cycle through the
presets (``--rules``, default every preset of the registry). Every request's latency (from
sending it to the whole answer read) is recorded; every answer must be 200.

Before the timed run, one watch table of each preset used is played through untimed, so that the
server has compiled what each game needs. After it, each table's record download is checked by
:func:`jass_env.records.check_records`: every round must replay as legal with the engine.

Run: ``python benchmarks/web_load.py [--tables 20] [--rounds 5] [--rules all] [--seed 0]``.
Prints the figures per request kind, then ONE JSON line ``{"tables", "rounds", "requests",
"seconds", "requests_per_s", "p50_ms", "p95_ms", "p99_ms", "max_ms", "records",
"records_disagree", "errors"}``. Exit status 0 when every answer was 200 and every record checks
clean, 1 otherwise.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from jass_env.games import PRESETS  # noqa: E402
from jass_env.records import check_records  # noqa: E402

#: seconds to wait for the server's address line and for each answer
START_TIMEOUT, REQUEST_TIMEOUT = 120.0, 120.0
#: agent actions one warm-up advance takes (a whole round)
WARM_UP_STEPS = 1000


@dataclass
class Client:
    """One keep-alive connection to the server, timing each request by kind."""

    host: str
    port: int
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT)

    def call(self, kind: str, method: str, path: str,
             body: dict[str, Any] | None = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        headers = {} if body is None else {"Content-Type": "application/json"}
        t0 = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException):   # the server closed an idle connection: once more
            self.conn.close()
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            answer = response.read()
        self.latencies[kind].append(time.perf_counter() - t0)
        if response.status != 200:
            self.errors.append(f"{method} {path}: {response.status} {answer[:300]!r}")
        return response.status, answer

    def json(self, kind: str, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        status, answer = self.call(kind, method, path, body)
        if status != 200:
            raise RuntimeError(self.errors[-1])
        return json.loads(answer)


def play_table(client: Client, rules: str, rounds: int, seed: int) -> str:
    """Play ``rounds`` rounds of a new table of ``rules`` from its human seat; the record's text."""
    rng = random.Random(seed)
    players = PRESETS[rules].spec.players
    seat = rng.randrange(players)
    seats = ["human" if p == seat else "random" for p in range(players)]
    created = client.json("create", "POST", "/api/tables", {"rules": rules, "seats": seats, "seed": seed})
    table, who = created["table"], {"seat": seat, "token": created["tokens"][str(seat)]}
    view, played = created["view"], 0
    while True:
        if view["waiting_for"] == "human":
            action = rng.choice(view["legal"])["action"]
            view = client.json("action", "POST", f"/api/tables/{table}/action", {**who, "action": action})
        elif view["waiting_for"] == "agent":
            view = client.json("advance", "POST", f"/api/tables/{table}/advance", {**who, "steps": 1})
        else:
            played += 1
            if played == rounds:
                break
            view = client.json("next", "POST", f"/api/tables/{table}/next", who)
    status, record = client.call("record", "GET", f"/api/tables/{table}/record")
    return record.decode() if status == 200 else ""


def warm_up(client: Client, presets: list[str]) -> None:
    """One watch table of each preset played through (compiles what each game needs)."""
    for rules in presets:
        players = PRESETS[rules].spec.players
        seats = ["random"] * players
        created = client.json("warm-up", "POST", "/api/tables", {"rules": rules, "seats": seats})
        client.json("warm-up", "POST", f"/api/tables/{created['table']}/advance", {"steps": WARM_UP_STEPS})


def start_server(rules: str) -> tuple[subprocess.Popen[str], str, int]:
    """``python -m agents.web --port 0`` running; (process, host, port) from its address line."""
    proc = subprocess.Popen([sys.executable, "-m", "agents.web", "--port", "0", "--rules", rules], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT)
    m = re.match(r"Jass web app: http://([^/]+):(\d+)/", line[0] if line else "")
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not print its address within {START_TIMEOUT:.0f} s: {line!r}")
    return proc, m[1], int(m[2])


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> int:
    ap = argparse.ArgumentParser(description="Load test of the browser app's server through its HTTP API.")
    ap.add_argument("--tables", type=int, default=20, help="tables played at once (default 20)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per table (default 5)")
    ap.add_argument("--rules", default="all", help="a preset, or 'all' to cycle through every preset")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals and the human seats' choices")
    args = ap.parse_args()
    if args.tables < 1 or args.rounds < 1:
        ap.error("--tables and --rounds must be at least 1")
    presets = list(PRESETS) if args.rules == "all" else [args.rules]
    if any(p not in PRESETS for p in presets):
        ap.error(f"unknown preset {args.rules!r}; presets: {', '.join(PRESETS)} or all")
    tables = [presets[i % len(presets)] for i in range(args.tables)]
    proc, host, port = start_server(presets[0])
    try:
        t0 = time.perf_counter()
        warm_up(Client(host, port), sorted(set(tables)))
        print(f"server at http://{host}:{port}/, warm-up {time.perf_counter() - t0:.1f} s; "
              f"{len(tables)} tables x {args.rounds} rounds; load average {os.getloadavg()[0]:.2f} on "
              f"{os.cpu_count()} cores", flush=True)
        clients = [Client(host, port) for _ in tables]
        records: list[str] = [""] * len(tables)

        def run(i: int) -> None:
            try:
                records[i] = play_table(clients[i], tables[i], args.rounds, args.seed + i)
            except Exception as e:  # noqa: BLE001 - a failed table is counted, the others go on
                clients[i].errors.append(f"table {i} ({tables[i]}): {type(e).__name__}: {e}")

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tables))]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    by_kind: dict[str, list[float]] = defaultdict(list)
    for c in clients:
        for kind, values in c.latencies.items():
            by_kind[kind].extend(values)
    every = [v for values in by_kind.values() for v in values]
    errors = [e for c in clients for e in c.errors]
    report = check_records(line for text in records for line in text.splitlines())
    for kind, values in sorted(by_kind.items()):
        print(f"{kind:8s} {len(values):6d} requests  p50 {percentile(values, 0.5) * 1e3:7.1f} ms  "
              f"p95 {percentile(values, 0.95) * 1e3:7.1f} ms  p99 {percentile(values, 0.99) * 1e3:7.1f} ms  "
              f"max {max(values) * 1e3:7.1f} ms")
    print(f"all      {len(every):6d} requests in {seconds:.1f} s: {len(every) / seconds:,.0f} requests/s")
    print(f"records: {report.summary()} (expected {len(tables) * args.rounds}); errors: {len(errors)}")
    for line in [*errors[:10], *report.lines()[:-1][:10]]:
        print(f"  {line}")
    ok = not errors and report.ok and report.records == len(tables) * args.rounds
    print(json.dumps({"tables": len(tables), "rounds": args.rounds, "requests": len(every),
                      "seconds": round(seconds, 2), "requests_per_s": round(len(every) / seconds, 1),
                      "p50_ms": round(percentile(every, 0.5) * 1e3, 2),
                      "p95_ms": round(percentile(every, 0.95) * 1e3, 2),
                      "p99_ms": round(percentile(every, 0.99) * 1e3, 2),
                      "max_ms": round(max(every) * 1e3, 2), "records": report.records,
                      "records_disagree": report.disagreeing, "errors": len(errors)}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
