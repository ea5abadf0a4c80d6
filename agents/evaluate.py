"""Duplicate evaluation of Jass agents (docs/bots.md): ``python -m agents.evaluate A B --deals N``.

Protocol
--------
* **Deal set.** Deal ``i`` of the set with seed ``S`` is shuffled by the engine (:func:`core.deal`)
  from the generator state ``seed_to_rng_state(deal_seed(S, i))``; the dealer is ``i % 4``. The set
  is frozen by ``S`` and its SHA-256 (over rules, seeds, dealers and hands) is reported.
* **Duplicate.** Every deal is played twice on the same hands: agent A in seats 0 and 2 against
  B in 1 and 3, then the teams swap seats. Before each play every agent is ``reset`` with a seed
  that depends only on the deal and the seat, so the two plays reuse the same randomness (A vs A
  gives exactly 0 on every deal).
* **Statistic.** Per deal: the mean over the two plays of (A's team score − B's team score), with
  the preset's scoring (multipliers, Weis, Stöck, Match bonus). Reported: points per hand with a
  t-based 95 % CI, the sign-test share of deals where A did better, the round win rate (share of
  plays where A's team scored more), A's share of the card points, and, when ``--matches M > 0``,
  the win rate over M matches to the preset's target (in pairs on the same seed with seats
  swapped) with a Wilson interval.
* **Round robin.** ``--round-robin A B C ...`` evaluates every pair the same way and fits a
  Bradley-Terry model on deals won (ties half, one virtual drawn deal per pair), shown as Elo
  with the first agent at 0.

Agents act on ``{"observation": float32[obs_dim], "action_mask": int8[n_actions]}`` for the
player to move, in the game's encoding (:mod:`jass_env.encoding`) exactly as in the AEC environment.

Games where everyone plays alone (``--rules differenzler`` or ``differenzler3``) are evaluated by
**seat rotation** instead (:mod:`agents.rotation`): A in one seat and B in the others, every deal
played once per rotation (n plays), so A holds every hand; reported are each agent's mean penalty
per round, A − B, all with 95 % intervals, and with ``--matches M`` A's win rate over M games of
12 rounds (each played in every rotation) against the chance level 1/n. ``--round-robin`` and
``--workers`` are for the duplicate evaluation only.

Outputs in ``--out DIR``: ``deals.csv`` (per-deal paired results), ``summary.json``, ``summary.md``
and ``summary.png``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import math
import multiprocessing as mp
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from jass_env import core
from jass_env.encoding import encode_observation, obs_dim
from jass_env.game import IllegalActionError, Match, Round, seed_to_rng_state
from jass_env.kernel import deal, phase, rounds_done, to_move
from jass_env.observation import encode_action_mask
from jass_env.rules import Rules, RulesError, make_rules
from jass_env.spec import SPECS

from . import stats
from .base import Agent, AgentActionError, checked_action
from .registry import AgentSpecError, agent_description, make_agent

#: matches per pair (Schieber) or games (Differenzler) unless --matches says otherwise
DEFAULT_MATCHES = 20
CSV_FIELDS = ("pair", "agent_a", "agent_b", "deal", "seed", "dealer", "score_A_first", "score_B_first",
              "score_A_second", "score_B_second", "diff_first", "diff_second", "diff",
              "points_A_first", "points_A_second", "contract_first", "declarer_team_first",
              "contract_second", "declarer_team_second")


class EvaluationError(RuntimeError):
    """An agent misbehaved during evaluation (illegal action, exception) or a bad setting."""


# ---------------------------------------------------------------------------------- seeds and deals
def _hash_seed(*parts: int) -> int:
    """A 32-bit seed derived from non-negative integers (numpy SeedSequence, stable across runs)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, dtype=np.uint32)[0])


def deal_seed(set_seed: int, index: int) -> int:
    """Seed of deal ``index`` in the deal set ``set_seed``."""
    return _hash_seed(set_seed, 0, index)


def seat_seed(set_seed: int, index: int, seat: int) -> int:
    """Seed an agent in ``seat`` is reset with before playing deal ``index`` (either play)."""
    return _hash_seed(set_seed, 1, index, seat)


def match_seed(set_seed: int, pair_index: int) -> int:
    """Seed of the match pair ``pair_index`` (both matches of a pair deal the same cards)."""
    return _hash_seed(set_seed, 2, pair_index)


@dataclass(frozen=True)
class Deal:
    """One frozen deal: its index in the set, seed, dealer (index % players) and the hand
    bitboards (4 in Schieber, 6 in Schieber for six)."""

    index: int
    seed: int
    dealer: int
    hands: tuple[int, ...]


def make_deal(set_seed: int, index: int, game: str = "schieber") -> Deal:
    """Deal ``index`` of the set ``set_seed`` for a team game (``schieber``, ``schieber6``): hands
    shuffled by the engine from the deal seed."""
    s = deal_seed(set_seed, index)
    st = core.new_state(seed_to_rng_state(s))
    spec = SPECS[game]
    hands = np.zeros(spec.players, dtype=np.int64)
    deal(st, hands, spec.players, spec.hand_size, spec.deck)
    return Deal(index, s, index % spec.players, tuple(int(h) for h in hands[:spec.players]))


def make_deal_set(n: int, set_seed: int, game: str = "schieber") -> list[Deal]:
    """The first ``n`` deals of the set ``set_seed``."""
    return [make_deal(set_seed, i, game) for i in range(n)]


def _deal_game(rules: Rules) -> str:
    """The game whose deals a team game's evaluation plays: Schieber's 4 × 9 (Coiffeur too), or
    Schieber for six's 6 × 6."""
    return rules.game if rules.game == "schieber6" else "schieber"


def seating(team_a: Sequence[Agent], team_b: Sequence[Agent], a_team: int, players: int) -> list[Agent]:
    """The agent of every seat when A holds the seats of team ``a_team`` (0: 0, 2, ...; 1: 1, 3,
    ...): seat p gets its team's agent number p // 2."""
    return [(team_a if p % 2 == a_team else team_b)[p // 2] for p in range(players)]


def deal_set_hash(deals: Sequence[Deal], rules: Rules) -> str:
    """SHA-256 over the rules' switches and every deal's index, seed, dealer and hands."""
    h = hashlib.sha256(json.dumps(rules.switches(), sort_keys=True, default=str).encode())
    for d in deals:
        h.update(f"{d.index},{d.seed},{d.dealer},{','.join(map(str, d.hands))};".encode())
    return h.hexdigest()


# ---------------------------------------------------------------------------------- playing
def _reset_agents(seat_agents: Sequence[Agent], seeds: Sequence[int]) -> None:
    """Reset each distinct agent once, with the seed of the first seat it occupies."""
    done: set[int] = set()
    for agent, s in zip(seat_agents, seeds, strict=True):
        if id(agent) not in done:
            done.add(id(agent))
            agent.reset(seed=s)


def _act(agent: Agent, st: np.ndarray, rules: Rules) -> int:
    """Ask ``agent`` for the action of the player to move, from that seat's observation and mask
    in the game's encoding (:mod:`jass_env.encoding`); checks it is legal."""
    player = int(to_move(st))
    obs = np.zeros(obs_dim(rules), dtype=np.float32)
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    encode_observation(st, player, rules.params, obs)
    encode_action_mask(st, rules.params, mask)
    who = f"agent {getattr(agent, 'name', agent)!r} in seat {player}"
    try:
        a = agent.act({"observation": obs, "action_mask": mask})
    except Exception as e:
        raise EvaluationError(f"{who} failed: {type(e).__name__}: {e}") from e
    try:
        return checked_action(a, mask, who)
    except AgentActionError as e:
        raise EvaluationError(str(e)) from None


def play_deal(rules: Rules, deal: Deal, seat_agents: Sequence[Agent]) -> Round:
    """Play one deal with ``seat_agents[p]`` in seat p (agents reset with the deal's seat seeds,
    which the caller passes via ``deal``); returns the finished Round."""
    rnd = Round(rules, hands=list(deal.hands), dealer=deal.dealer)
    st, rp = rnd.state, rnd.rp
    while phase(st) != core.PHASE_OVER:
        core.apply_action(st, _act(seat_agents[int(to_move(st))], st, rules), rp)
    return rnd


@dataclass
class DealResult:
    """Both plays of one deal, from A's side."""

    deal: int
    seed: int
    dealer: int
    score_A_first: int
    score_B_first: int
    score_A_second: int
    score_B_second: int
    points_A_first: int
    points_A_second: int
    contract_first: str
    declarer_team_first: str
    contract_second: str
    declarer_team_second: str

    @property
    def diff_first(self) -> int:
        return self.score_A_first - self.score_B_first

    @property
    def diff_second(self) -> int:
        return self.score_A_second - self.score_B_second

    @property
    def diff(self) -> float:
        """Per-deal paired result: mean over the two plays of (A's score − B's score)."""
        return (self.diff_first + self.diff_second) / 2.0

    def row(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(diff_first=self.diff_first, diff_second=self.diff_second, diff=self.diff)
        return d


def play_duplicate(rules: Rules, deal: Deal, team_a: Sequence[Agent], team_b: Sequence[Agent],
                   set_seed: int, keep_rounds: list[Round] | None = None) -> DealResult:
    """Play ``deal`` twice: A (``team_a[0]``, ``team_a[1]``, ...) in seats 0, 2, ..., then in seats
    1, 3, ....

    Agents are reset before each play with :func:`seat_seed` of the seat they sit in, so the agent
    holding a given hand draws the same random numbers in both plays. Finished rounds are appended
    to ``keep_rounds`` when given (tests).
    """
    players = rules.spec.players
    seeds = [seat_seed(set_seed, deal.index, s) for s in range(players)]
    out = []
    for a_team in (0, 1):
        seats = seating(team_a, team_b, a_team, players)
        _reset_agents(seats, seeds)
        rnd = play_deal(rules, deal, seats)
        if keep_rounds is not None:
            keep_rounds.append(rnd)
        score, points = rnd.score, rnd.points
        decl = rnd.declarer % 2
        out.append((score[a_team], score[1 - a_team], points[a_team] / max(1, sum(points)),
                    rnd.contract or "", "A" if decl == a_team else "B"))
    (sa1, sb1, pa1, c1, d1), (sa2, sb2, pa2, c2, d2) = out
    return DealResult(deal.index, deal.seed, deal.dealer, sa1, sb1, sa2, sb2, pa1, pa2, c1, d1, c2, d2)


@dataclass
class MatchResult:
    """One match to the preset's target: which seats A held, the final scores and the winner."""

    index: int
    seed: int
    a_seats: str              # "0&2" or "1&3" (six players: "0&2&4" or "1&3&5")
    score_A: int
    score_B: int
    rounds: int
    result: float             # 1 A won, 0 B won, 0.5 draw


def play_match(rules: Rules, index: int, team_a: Sequence[Agent], team_b: Sequence[Agent],
               set_seed: int) -> MatchResult:
    """Match ``index``: matches 2k and 2k+1 share the seed ``match_seed(set_seed, k)`` with A in
    seats 0&2, then 1&3. Agents are reset before every round with seeds of (match, round, seat)."""
    a_team = index % 2
    players = rules.spec.players
    seats = seating(team_a, team_b, a_team, players)
    seed = match_seed(set_seed, index // 2)
    m = Match(rules, seed=seed)
    current = -1
    while not m.is_over:
        st = m.state
        if int(rounds_done(st)) != current:
            current = int(rounds_done(st))
            _reset_agents(seats, [_hash_seed(set_seed, 3, index // 2, current, s) for s in range(players)])
        try:
            m.step(_act(seats[int(to_move(st))], st, rules))
        except IllegalActionError as e:  # _act already checked legality; kept for safety
            raise EvaluationError(str(e)) from e
    w = m.winner
    result = 0.5 if w == 2 else (1.0 if w == a_team else 0.0)
    return MatchResult(index, seed, "&".join(map(str, range(a_team, players, 2))), m.scores[a_team],
                       m.scores[1 - a_team], int(rounds_done(m.state)), result)


# ---------------------------------------------------------------------------------- progress bar
class Progress:
    """A small progress bar with the rate and an estimate of the time left, on ``stream``.

    On a terminal the line is redrawn in place (at most every 0.2 s); otherwise a line is
    printed every 10 s and at the end.
    """

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.total, self.label, self.done = max(0, total), label, 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and total > 0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self.last = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        now = time.monotonic()
        if self.enabled and (now - self.last >= (0.2 if self.tty else 10.0) or self.done == self.total):
            self.last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        elapsed = now - self.start
        frac = self.done / self.total if self.total else 1.0
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.nan
        bar = "#" * int(24 * frac) + "." * (24 - int(24 * frac))
        return (f"{self.label} [{bar}] {self.done}/{self.total} {100 * frac:3.0f}% "
                f"{rate:.1f}/s elapsed {_hms(elapsed)} left {_hms(eta)}")

    def _draw(self, now: float) -> None:
        if self.tty:
            self.stream.write("\r" + self.line(now) + ("\n" if self.done == self.total else ""))
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.tty and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()


def _hms(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


# ---------------------------------------------------------------------------------- one pair
def build_team(agent: Any, rules: Rules) -> list[Agent]:
    """A team's seat agents (two; three in Schieber for six) from a spec (one instance each), a
    zero-arg factory (one call each), or an instance (shared by every seat)."""
    size = max(2, rules.spec.players // 2)
    if isinstance(agent, str):
        return [make_agent(agent, rules) for _ in range(size)]
    if isinstance(agent, Agent) or hasattr(agent, "act"):
        return [agent] * size
    if callable(agent):
        return [agent() for _ in range(size)]
    raise TypeError(f"an agent must be a spec string, an Agent or a factory, got {type(agent).__name__}")


_WORKER: dict[str, Any] = {}


def _worker_init(spec_a: str, spec_b: str, rules: Rules, set_seed: int) -> None:
    _WORKER.update(rules=rules, set_seed=set_seed, a=build_team(spec_a, rules), b=build_team(spec_b, rules))


def _worker_deals(indices: Sequence[int]) -> list[DealResult]:
    w = _WORKER
    return [play_duplicate(w["rules"], make_deal(w["set_seed"], i, _deal_game(w["rules"])), w["a"], w["b"],
                           w["set_seed"])
            for i in indices]


def _worker_matches(indices: Sequence[int]) -> list[MatchResult]:
    w = _WORKER
    return [play_match(w["rules"], i, w["a"], w["b"], w["set_seed"]) for i in indices]


def _chunks(items: Sequence[int], size: int) -> list[list[int]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


@dataclass
class PairResult:
    """Everything measured for one pair (A vs B)."""

    agent_a: str
    agent_b: str
    deals: list[DealResult]
    matches: list[MatchResult]
    summary: dict[str, Any] = field(default_factory=dict)


def evaluate_pair(agent_a: Any, agent_b: Any, rules: str | Rules | None = None, deals: int = 500,
                  seed: int = 0, matches: int = 0, workers: int = 1, progress: bool = False,
                  label_a: str | None = None, label_b: str | None = None) -> PairResult:
    """Duplicate evaluation of A against B on ``deals`` deals of the set ``seed``, plus ``matches``
    matches to the preset's target.

    ``agent_a``/``agent_b``: agent spec strings (see :mod:`agents.registry`), zero-argument
    factories, or Agent instances (one instance then plays both seats of its team). ``workers`` > 1
    spreads deals over processes (spec strings only; each worker builds its own agents).
    Returns a PairResult whose ``summary`` is the JSON-ready summary.
    """
    rules = make_rules(rules)
    if deals < 2:
        raise ValueError(f"deals must be >= 2 (a CI needs two deals), got {deals}")
    if matches < 0 or seed < 0 or workers < 1:
        raise ValueError(f"need matches >= 0, seed >= 0, workers >= 1; got {matches}, {seed}, {workers}")
    la = label_a or (agent_a if isinstance(agent_a, str) else getattr(agent_a, "name", "A"))
    lb = label_b or (agent_b if isinstance(agent_b, str) else getattr(agent_b, "name", "B"))
    t0 = time.monotonic()
    deal_set = make_deal_set(deals, seed, _deal_game(rules))
    team_a, team_b = build_team(agent_a, rules), build_team(agent_b, rules)
    bar = Progress(deals + matches, f"{la} vs {lb}", enabled=progress)
    if workers > 1:
        if not (isinstance(agent_a, str) and isinstance(agent_b, str)):
            raise ValueError("workers > 1 needs agent spec strings (each worker builds its own agents)")
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, initializer=_worker_init, initargs=(agent_a, agent_b, rules, seed)) as pool:
            size = max(1, min(50, deals // (workers * 8)))
            results: list[DealResult] = []
            for chunk in pool.imap_unordered(_worker_deals, _chunks(range(deals), size)):
                results.extend(chunk)
                bar.update(len(chunk))
            match_results: list[MatchResult] = []
            for chunk in pool.imap_unordered(_worker_matches, _chunks(range(matches), 1)):
                match_results.extend(chunk)
                bar.update(len(chunk))
        results.sort(key=lambda r: r.deal)
        match_results.sort(key=lambda r: r.index)
    else:
        results = []
        for d in deal_set:
            results.append(play_duplicate(rules, d, team_a, team_b, seed))
            bar.update()
        match_results = []
        for j in range(matches):
            match_results.append(play_match(rules, j, team_a, team_b, seed))
            bar.update()
    bar.close()
    out = PairResult(la, lb, results, match_results)
    out.summary = summarize(out, rules, seed, deal_set_hash(deal_set, rules), time.monotonic() - t0,
                            [agent_description(a) for a in (team_a[0], team_b[0])], workers)
    return out


def summarize(res: PairResult, rules: Rules, seed: int, set_hash: str, elapsed: float,
              descriptions: list[dict[str, Any]], workers: int = 1) -> dict[str, Any]:
    """The JSON-ready summary of one pair."""
    diffs = [r.diff for r in res.deals]
    ci = stats.mean_ci(diffs)
    sign = stats.sign_test(diffs)
    plays = [d for r in res.deals for d in (r.diff_first, r.diff_second)]
    round_wins = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in plays)
    point_share = [p for r in res.deals for p in (r.points_A_first, r.points_A_second)]
    decl: dict[str, list[int]] = {"A": [], "B": []}
    for r in res.deals:
        for team, d in ((r.declarer_team_first, r.diff_first), (r.declarer_team_second, r.diff_second)):
            decl[team].append(d if team == "A" else -d)
    m = len(res.matches)
    mw = sum(x.result for x in res.matches)
    summary: dict[str, Any] = {
        "agents": {"A": res.agent_a, "B": res.agent_b},
        "agent_descriptions": {"A": descriptions[0], "B": descriptions[1]},
        "rules": {"preset": rules.name, "overrides": rules.overrides()},
        "seed": seed,
        "deals": len(diffs),
        "deal_set_hash": set_hash,
        "points_per_hand": ci.mean,
        "ci95": [ci.low, ci.high],
        "std_per_deal": ci.std,
        "sem": ci.sem,
        "share_of_deals_won": sign.share,
        "sign_test": sign.as_dict(),
        "round_win_rate": round_wins / len(plays),
        "card_point_share_A": float(np.mean(point_share)),
        "declarer_advantage": {k: (float(np.mean(v)) if v else None) for k, v in decl.items()},
        "matches": m,
        "match_target": rules.target,
        "match_length": (f"to {rules.target} points" if rules.target > 0 else f"{rules.match_rounds} rounds"),
        "match_win_rate": (mw / m) if m else None,
        "match_win_ci95": list(stats.wilson_interval(mw, m)) if m else None,
        "match_results": {"won": sum(x.result == 1.0 for x in res.matches),
                          "lost": sum(x.result == 0.0 for x in res.matches),
                          "drawn": sum(x.result == 0.5 for x in res.matches)},
        "elapsed_seconds": elapsed,
        "workers": workers,
    }
    return summary


# ---------------------------------------------------------------------------------- outputs
def write_deals_csv(path: Path, pairs: Sequence[PairResult]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for k, pr in enumerate(pairs):
            for r in pr.deals:
                w.writerow({"pair": k, "agent_a": pr.agent_a, "agent_b": pr.agent_b, **r.row()})


def _fmt(x: Any, nd: int = 2) -> str:
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{nd}f}"
    return str(x)


def pair_markdown(s: dict[str, Any]) -> str:
    lo, hi = s["ci95"]
    rows = [("points per hand (A − B)", f"{s['points_per_hand']:+.2f}  [{lo:+.2f}, {hi:+.2f}]"),
            ("deals (duplicate pairs)", s["deals"]),
            ("share of deals won (sign test)", f"{s['share_of_deals_won']:.3f}  "
             f"(W {s['sign_test']['wins']} / L {s['sign_test']['losses']} / T {s['sign_test']['ties']}, "
             f"p = {s['sign_test']['p_value']:.3g})"),
            ("round win rate", f"{s['round_win_rate']:.3f}"),
            ("A's share of card points", f"{s['card_point_share_A']:.3f}"),
            ("declarer advantage (A declares / B declares)",
             f"{_fmt(s['declarer_advantage']['A'])} / {_fmt(s['declarer_advantage']['B'])}")]
    if s["matches"]:
        mlo, mhi = s["match_win_ci95"]
        rows.append((f"match win rate ({s['matches']} matches, {s['match_length']})",
                     f"{s['match_win_rate']:.3f}  [{mlo:.3f}, {mhi:.3f}]"))
    rows += [("rules", f"{s['rules']['preset']} {s['rules']['overrides'] or ''}".strip()),
             ("deal set seed / hash", f"{s['seed']} / {s['deal_set_hash'][:16]}"),
             ("elapsed", f"{s['elapsed_seconds']:.1f} s")]
    head = (f"## {s['agents']['A']} vs {s['agents']['B']}\n\n"
            f"A = {s['agent_descriptions']['A']['name']}, B = {s['agent_descriptions']['B']['name']}\n\n"
            "| metric | value |\n|---|---|\n")
    return head + "\n".join(f"| {k} | {v} |" for k, v in rows) + "\n"


def _plot_pair(path: Path, res: PairResult) -> None:
    import matplotlib  # noqa: PLC0415 (optional heavy import)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    s = res.summary
    diffs = np.array([r.diff for r in res.deals])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    ax1.hist(diffs, bins=min(60, max(10, len(diffs) // 10)), color="#6a8cbf")
    ax1.axvline(s["points_per_hand"], color="k", label=f"mean {s['points_per_hand']:+.1f}")
    ax1.axvspan(*s["ci95"], color="orange", alpha=0.4, label="95% CI")
    ax1.set_xlabel("per-deal paired difference (A − B points)")
    ax1.set_ylabel("deals")
    ax1.legend()
    n = np.arange(1, len(diffs) + 1)
    run = np.cumsum(diffs) / n
    ax2.plot(n, run, color="#6a8cbf")
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.axhspan(*s["ci95"], color="orange", alpha=0.3)
    ax2.set_xlabel("deals")
    ax2.set_ylabel("running mean ppH")
    fig.suptitle(f"{res.agent_a} vs {res.agent_b} ({s['rules']['preset']}, {len(diffs)} deals)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_pair_outputs(out: Path, res: PairResult) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_deals_csv(out / "deals.csv", [res])
    (out / "summary.json").write_text(json.dumps({"mode": "pair", **res.summary}, indent=2) + "\n")
    (out / "summary.md").write_text("# Duplicate evaluation\n\n" + pair_markdown(res.summary))
    _plot_pair(out / "summary.png", res)


# ---------------------------------------------------------------------------------- round robin
def round_robin_problem(specs: Sequence[str]) -> str | None:
    """Why ``specs`` cannot make a round robin (fewer than 2 agents, or one twice), or None."""
    if len(specs) < 2 or len(set(specs)) != len(specs):
        return (f"a round robin needs at least 2 distinct agents (--round-robin A B ...), "
                f"got {list(specs)}")
    return None


def round_robin(specs: Sequence[str], rules: str | Rules | None = None, deals: int = 500, seed: int = 0,
                matches: int = 0, workers: int = 1, progress: bool = False,
                prior: float = 1.0) -> tuple[list[PairResult], dict[str, Any]]:
    """Every pair of ``specs`` on the same deal set; Bradley-Terry/Elo on deals won (ties half,
    ``prior`` virtual drawn deals per pair), first agent = 0 Elo. Returns (pairs, summary)."""
    problem = round_robin_problem(specs)
    if problem:
        raise ValueError(problem)
    t0 = time.monotonic()
    pairs = [evaluate_pair(a, b, rules, deals, seed, matches, workers, progress)
             for a, b in itertools.combinations(specs, 2)]
    w = stats.win_matrix(specs, [(p.agent_a, p.agent_b,
                                  p.summary["sign_test"]["wins"] + p.summary["sign_test"]["ties"] / 2,
                                  p.summary["sign_test"]["losses"] + p.summary["sign_test"]["ties"] / 2)
                                 for p in pairs])
    elo = stats.elo_ratings(specs, w, anchor=specs[0], prior=prior)
    pph = {a: {b: 0.0 for b in specs} for a in specs}
    for p in pairs:
        pph[p.agent_a][p.agent_b] = p.summary["points_per_hand"]
        pph[p.agent_b][p.agent_a] = -p.summary["points_per_hand"]
    first = pairs[0].summary
    summary = {"mode": "round_robin", "agents": list(specs), "rules": first["rules"], "seed": seed,
               "deals": deals, "deal_set_hash": first["deal_set_hash"],
               "elo": elo, "elo_anchor": specs[0], "elo_prior_virtual_deals": prior,
               "ppH_matrix": pph, "mean_ppH": {a: float(np.mean([pph[a][b] for b in specs if b != a]))
                                               for a in specs},
               "pairs": [p.summary for p in pairs], "elapsed_seconds": time.monotonic() - t0}
    return pairs, summary


def write_round_robin_outputs(out: Path, pairs: list[PairResult], summary: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_deals_csv(out / "deals.csv", pairs)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    specs = summary["agents"]
    order = sorted(specs, key=lambda a: -summary["elo"][a])
    md = ["# Round robin (duplicate)\n", f"{summary['deals']} deals per pair, rules "
          f"{summary['rules']['preset']}, seed {summary['seed']}, deal set {summary['deal_set_hash'][:16]}\n",
          "| rank | agent | Elo (BT on deals won) | mean ppH vs field |", "|---|---|---|---|"]
    md += [f"| {i + 1} | {a} | {summary['elo'][a]:+.0f} | {summary['mean_ppH'][a]:+.2f} |"
           for i, a in enumerate(order)]
    md += ["", "ppH of row vs column:", "", "| | " + " | ".join(specs) + " |",
           "|---|" + "---|" * len(specs)]
    md += [f"| {a} | " + " | ".join("—" if a == b else f"{summary['ppH_matrix'][a][b]:+.1f}" for b in specs)
           + " |" for a in specs]
    md.append("")
    md += [pair_markdown(p.summary) for p in pairs]
    (out / "summary.md").write_text("\n".join(md))

    fig = round_robin_figure(summary)         # sets the Agg backend before pyplot is imported here
    fig.savefig(out / "summary.png", dpi=100)
    import matplotlib.pyplot as plt  # noqa: PLC0415
    plt.close(fig)


def round_robin_figure(summary: dict[str, Any]):
    """The round robin's plot (a matplotlib Figure): Elo bars, and a heat map of points per hand
    of row against column with the number in each cell; titled with deals, rules and seed."""
    import matplotlib  # noqa: PLC0415
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    specs = summary["agents"]
    order = sorted(specs, key=lambda a: -summary["elo"][a])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    ax1.barh(order[::-1], [summary["elo"][a] for a in order[::-1]], color="#6a8cbf")
    ax1.set_xlabel(f"Elo ({specs[0]} = 0)")
    ax1.set_title("Elo (Bradley-Terry on deals won)")
    mat = np.array([[summary["ppH_matrix"][a][b] for b in specs] for a in specs])
    lim = max(1.0, float(np.abs(mat).max()))
    im = ax2.imshow(mat, cmap="RdBu", vmin=-lim, vmax=lim)
    for i, a in enumerate(specs):
        for j, b in enumerate(specs):
            text = "—" if a == b else f"{mat[i, j]:+.1f}"
            ax2.text(j, i, text, ha="center", va="center", fontsize=9,
                     color="white" if abs(mat[i, j]) > 0.6 * lim else "black")
    ax2.set_xticks(range(len(specs)), specs, rotation=45, ha="right")
    ax2.set_yticks(range(len(specs)), specs)
    ax2.set_title("points per hand, row vs column")
    fig.colorbar(im, ax=ax2)
    fig.suptitle(f"Round robin: {summary['deals']:,} duplicate deals per pair, rules "
                 f"{summary['rules']['preset']}, seed {summary['seed']}")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------- CLI
def _parser() -> argparse.ArgumentParser:
    from .registry import describe_specs  # noqa: PLC0415

    ap = argparse.ArgumentParser(
        prog="python -m agents.evaluate", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Duplicate evaluation of two agents (or a round robin); protocol: docs/bots.md.",
        epilog="agent specs:\n" + describe_specs())
    ap.add_argument("agents", nargs="*", metavar="AGENT", help="two agent specs: A (evaluated) and B")
    ap.add_argument("--round-robin", nargs="+", metavar="AGENT", help="evaluate every pair of these agents")
    ap.add_argument("--deals", type=int, default=500,
                    help="deals, each played twice (Differenzler: once per seat rotation; Coiffeur: "
                         "deal sequences of whole games, each played twice) (default 500)")
    ap.add_argument("--rules", default="schieber", help="rules preset (default schieber)")
    ap.add_argument("--seed", type=int, default=0, help="deal-set seed (default 0)")
    ap.add_argument("--matches", type=int, default=None,
                    help="matches to the target per pair, or Differenzler games of 12 rounds (default 20; "
                         "Coiffeur plays whole games anyway)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; returns the exit status (0 ok, 2 bad arguments, agents or checkpoints)."""
    from . import whole_games  # noqa: PLC0415  (it builds on this module)
    from .network import CheckpointError  # noqa: PLC0415

    ap = _parser()
    args = ap.parse_args(argv)

    def fail(msg: str) -> int:
        print(f"error: {msg}", file=sys.stderr)
        return 2

    if args.round_robin and args.agents:
        return fail("give either two agents or --round-robin, not both")
    if args.round_robin and round_robin_problem(args.round_robin):
        return fail(round_robin_problem(args.round_robin))
    if not args.round_robin and len(args.agents) != 2:
        return fail(f"give two agents (A B) or --round-robin A B ...; got {len(args.agents)} agent(s)")
    if args.deals < 2 or (args.matches or 0) < 0 or args.seed < 0 or args.workers < 1:
        return fail("need --deals >= 2, --matches >= 0, --seed >= 0, --workers >= 1")
    try:
        rules = make_rules(args.rules)
        specs = args.round_robin or args.agents
        for s in dict.fromkeys(specs):   # build each once up front: fail fast with a clear message
            make_agent(s, rules)
    except (RulesError, AgentSpecError, CheckpointError) as e:
        return fail(str(e))
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return fail(f"cannot create the output folder {str(out)!r}: {e}")
    if whole_games.is_whole_game(rules):
        return _main_whole_games(args, rules, specs, out, fail)
    if args.matches is None:
        args.matches = DEFAULT_MATCHES
    if rules.spec.team_mode == "none":
        return _main_rotation(args, rules, specs, out, fail)
    try:
        if args.round_robin:
            pairs, summary = round_robin(specs, rules, args.deals, args.seed, args.matches, args.workers,
                                         not args.quiet)
            write_round_robin_outputs(out, pairs, summary)
            for a in sorted(specs, key=lambda a: -summary["elo"][a]):
                print(f"{a:30s} Elo {summary['elo'][a]:+7.1f}  mean ppH {summary['mean_ppH'][a]:+7.2f}")
        else:
            res = evaluate_pair(specs[0], specs[1], rules, args.deals, args.seed, args.matches,
                                args.workers, not args.quiet)
            write_pair_outputs(out, res)
            s = res.summary
            line = (f"{specs[0]} vs {specs[1]}: {s['points_per_hand']:+.2f} ppH "
                    f"[{s['ci95'][0]:+.2f}, {s['ci95'][1]:+.2f}] over {s['deals']} deals; "
                    f"deals won {s['share_of_deals_won']:.3f}")
            if s["matches"]:
                line += (f"; matches won {s['match_win_rate']:.3f} "
                         f"[{s['match_win_ci95'][0]:.3f}, {s['match_win_ci95'][1]:.3f}]")
            print(line)
    except (EvaluationError, OSError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("\ninterrupted; nothing written for the unfinished evaluation", file=sys.stderr)
        return 130
    print(f"wrote {out / 'summary.json'}, summary.md, deals.csv, summary.png")
    return 0


def _run_protocol(run, module, files: str, out: Path, fail, errors: tuple[type[BaseException], ...]) -> int:
    """Run ``run()`` (an evaluation of ``module``: :mod:`agents.rotation` or
    :mod:`agents.whole_games`), write its outputs to ``out`` and print its summary line; ``errors``
    become a clear message, an interrupt writes nothing."""
    try:
        res = run()
        module.write_outputs(out, res)
    except (*errors, OSError) as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("\ninterrupted; nothing written for the unfinished evaluation", file=sys.stderr)
        return 130
    print(module.summary_line(res.summary))
    print(f"wrote {out / 'summary.json'}, summary.md, {files}")
    return 0


def _main_rotation(args: argparse.Namespace, rules: Rules, specs: Sequence[str], out: Path, fail) -> int:
    """The CLI for games where everyone plays alone: the seat-rotation evaluation."""
    from . import rotation  # noqa: PLC0415

    if args.round_robin or args.workers != 1:
        return fail(f"{rules.game} is evaluated by seat rotation of two agents (A B); "
                    f"--round-robin and --workers are for team games")
    return _run_protocol(lambda: rotation.evaluate_rotation(specs[0], specs[1], rules, args.deals, args.seed,
                                                            args.matches, not args.quiet),
                         rotation, "deals.csv", out, fail, (rotation.RotationError,))


def _main_whole_games(args: argparse.Namespace, rules: Rules, specs: Sequence[str], out: Path, fail) -> int:
    """The CLI for games whose unit is the whole game (Coiffeur): :mod:`agents.whole_games`."""
    from . import whole_games  # noqa: PLC0415

    if args.round_robin or args.workers != 1 or args.matches is not None:
        return fail(f"{rules.game} is evaluated by whole games of two agents (A B, --deals N deal "
                    f"sequences, each played twice); --round-robin, --workers and --matches are for "
                    f"games evaluated deal by deal")
    return _run_protocol(lambda: whole_games.evaluate_games(specs[0], specs[1], rules, args.deals, args.seed,
                                                            not args.quiet),
                         whole_games, "games.csv", out, fail, (ValueError,))


if __name__ == "__main__":
    raise SystemExit(main())
