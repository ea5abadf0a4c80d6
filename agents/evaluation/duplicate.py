"""Duplicate evaluation of team games (Schieber, Schieber for six; docs/bots.md).

Protocol
--------
* **Deal set.** Deal ``i`` of the set with seed ``S`` (:mod:`agents.evaluation.deals`): hands
  shuffled by the engine from ``deal_seed(S, i)``, dealer ``i % players``; the set's SHA-256 is
  reported.
* **Duplicate.** Every deal is played twice on the same hands: agent A in seats 0 and 2 (and 4)
  against B in 1 and 3 (and 5), then the teams swap seats. Before each play every agent is
  ``reset`` with a seed that depends only on the deal and the seat, so the two plays reuse the
  same randomness (A vs A gives exactly 0 on every deal).
* **Statistic.** Per deal: the mean over the two plays of (A's team score − B's team score), with
  the preset's scoring (multipliers, Weis, Stöck, Match bonus). Reported: points per hand with a
  t-based 95 % CI, the sign-test share of deals where A did better, the round win rate (share of
  plays where A's team scored more), A's share of the card points, and, with ``matches`` M > 0,
  the win rate over M matches to the preset's target (in pairs on the same seed with seats
  swapped) with a Wilson interval.

Outputs: ``deals.csv`` (per-deal paired results), ``summary.json``, ``summary.md`` and
``summary.png``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.engine.state import rounds_done, to_move
from jass_env.engine.switches import Rules
from jass_env.games import make_rules, overrides
from jass_env.round import Match, Round

from ..base import Agent
from ..registry import agent_description
from . import stats
from .deals import Deal, deal_set_hash, make_deal, make_deal_set
from .lineups import build_team, label
from .progress import Progress
from .protocol import DUPLICATE, Protocol
from .report import metric_table, pyplot, save_figure, write_csv, write_json
from .seeds import match_seed, round_seed, seat_seed
from .table import Table, reset_agents
from .workers import Pool, chunks

CSV_FIELDS = ("pair", "agent_a", "agent_b", "deal", "seed", "dealer", "score_A_first", "score_B_first",
              "score_A_second", "score_B_second", "diff_first", "diff_second", "diff",
              "points_A_first", "points_A_second", "contract_first", "declarer_team_first",
              "contract_second", "declarer_team_second")
#: the most deals one task of a worker plays, and the chunks each worker gets at least
MAX_CHUNK, CHUNKS_PER_WORKER = 50, 8


def seating(team_a: Sequence[Agent], team_b: Sequence[Agent], a_team: int, players: int) -> list[Agent]:
    """The agent of every seat when A holds the seats of team ``a_team`` (0: 0, 2, ...; 1: 1, 3,
    ...): seat p gets its team's agent number p // 2."""
    return [(team_a if p % 2 == a_team else team_b)[p // 2] for p in range(players)]


def play_deal(rules: Rules, deal: Deal, seat_agents: Sequence[Agent]) -> Round:
    """Play one deal with ``seat_agents[p]`` in seat p (reset by the caller); the finished Round."""
    rnd = Round(rules, hands=list(deal.hands), dealer=deal.dealer)
    Table(rules).finish_round(rnd.state, seat_agents)
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
        """The deal's line of ``deals.csv`` (without the pair's columns)."""
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
        reset_agents(seats, seeds)
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
    seats 0&2, then 1&3. Agents are reset before every round with :func:`round_seed` of (match
    pair, round, seat)."""
    a_team = index % 2
    players = rules.spec.players
    seats = seating(team_a, team_b, a_team, players)
    seed = match_seed(set_seed, index // 2)
    m = Match(rules, seed=seed)
    table = Table(rules)
    current = -1
    while not m.is_over:
        st = m.state
        if int(rounds_done(st)) != current:
            current = int(rounds_done(st))
            reset_agents(seats, [round_seed(set_seed, index // 2, current, s) for s in range(players)])
        m.step(table.act(seats[int(to_move(st))], st))
    w = m.winner
    result = 0.5 if w == 2 else (1.0 if w == a_team else 0.0)
    return MatchResult(index, seed, "&".join(map(str, range(a_team, players, 2))), m.scores[a_team],
                       m.scores[1 - a_team], int(rounds_done(m.state)), result)


@dataclass
class PairResult:
    """Everything measured for one pair (A vs B)."""

    agent_a: str
    agent_b: str
    deals: list[DealResult]
    matches: list[MatchResult]
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Sides:
    """What a worker plays with: the rules, the deal set's seed and both teams' agents."""

    rules: Rules
    set_seed: int
    team_a: list[Agent]
    team_b: list[Agent]


def _build_sides(spec_a: str, spec_b: str, rules: Rules, set_seed: int) -> _Sides:
    return _Sides(rules, set_seed, build_team(spec_a, rules), build_team(spec_b, rules))


def _play_deals(sides: _Sides, indices: Sequence[int]) -> list[DealResult]:
    return [play_duplicate(sides.rules, make_deal(sides.set_seed, i, sides.rules.game), sides.team_a,
                           sides.team_b, sides.set_seed) for i in indices]


def _play_matches(sides: _Sides, indices: Sequence[int]) -> list[MatchResult]:
    return [play_match(sides.rules, i, sides.team_a, sides.team_b, sides.set_seed) for i in indices]


def _play_on_workers(agent_a: str, agent_b: str, rules: Rules, deals: int, seed: int, matches: int,
                     workers: int, bar: Progress) -> tuple[list[DealResult], list[MatchResult]]:
    """The deals and matches of :func:`evaluate_pair` spread over ``workers`` processes, each
    building its own agents from the specs; results in index order."""
    results: list[DealResult] = []
    match_results: list[MatchResult] = []
    size = max(1, min(MAX_CHUNK, deals // (workers * CHUNKS_PER_WORKER)))
    with Pool(workers, _build_sides, (agent_a, agent_b, rules, seed)) as pool:
        for chunk in pool.play(_play_deals, chunks(range(deals), size)):
            results.extend(chunk)
            bar.update(len(chunk))
        for chunk in pool.play(_play_matches, chunks(range(matches), 1)):
            match_results.extend(chunk)
            bar.update(len(chunk))
    results.sort(key=lambda r: r.deal)
    match_results.sort(key=lambda r: r.index)
    return results, match_results


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
    if workers > 1 and not (isinstance(agent_a, str) and isinstance(agent_b, str)):
        raise ValueError("workers > 1 needs agent spec strings (each worker builds its own agents)")
    la, lb = label(agent_a, label_a, "A"), label(agent_b, label_b, "B")
    t0 = time.monotonic()
    deal_set = make_deal_set(deals, seed, rules.game)
    team_a, team_b = build_team(agent_a, rules), build_team(agent_b, rules)
    bar = Progress(deals + matches, f"{la} vs {lb}", enabled=progress)
    if workers > 1:
        results, match_results = _play_on_workers(agent_a, agent_b, rules, deals, seed, matches, workers, bar)
    else:
        results, match_results = [], []
        for d in deal_set:
            results.append(play_duplicate(rules, d, team_a, team_b, seed))
            bar.update()
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
    return {
        "agents": {"A": res.agent_a, "B": res.agent_b},
        "agent_descriptions": {"A": descriptions[0], "B": descriptions[1]},
        "rules": {"preset": rules.name, "overrides": overrides(rules)},
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


def write_deals_csv(path: Path, pairs: Sequence[PairResult]) -> None:
    """``deals.csv``: one line per deal of every pair (``pair`` numbers the pairs)."""
    write_csv(path, CSV_FIELDS, ({"pair": k, "agent_a": pr.agent_a, "agent_b": pr.agent_b, **r.row()}
                                 for k, pr in enumerate(pairs) for r in pr.deals))


def _fmt(x: Any, nd: int = 2) -> str:
    """A table cell: ``—`` for None, a float with ``nd`` decimals, anything else as text."""
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{nd}f}"
    return str(x)


def summary_markdown(s: dict[str, Any]) -> str:
    """One pair's summary as a Markdown section (title, agents, metric table)."""
    lo, hi = s["ci95"]
    sign = s["sign_test"]
    rows = [("points per hand (A − B)", f"{s['points_per_hand']:+.2f}  [{lo:+.2f}, {hi:+.2f}]"),
            ("deals (duplicate pairs)", s["deals"]),
            ("share of deals won (sign test)", f"{s['share_of_deals_won']:.3f}  "
             f"(W {sign['wins']} / L {sign['losses']} / T {sign['ties']}, p = {sign['p_value']:.3g})"),
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
    return (f"## {s['agents']['A']} vs {s['agents']['B']}\n\n"
            f"A = {s['agent_descriptions']['A']['name']}, B = {s['agent_descriptions']['B']['name']}\n\n"
            + metric_table(rows))


def summary_line(s: dict[str, Any]) -> str:
    """One pair's summary as one line for the terminal."""
    line = (f"{s['agents']['A']} vs {s['agents']['B']}: {s['points_per_hand']:+.2f} ppH "
            f"[{s['ci95'][0]:+.2f}, {s['ci95'][1]:+.2f}] over {s['deals']} deals; "
            f"deals won {s['share_of_deals_won']:.3f}")
    if s["matches"]:
        line += (f"; matches won {s['match_win_rate']:.3f} "
                 f"[{s['match_win_ci95'][0]:.3f}, {s['match_win_ci95'][1]:.3f}]")
    return line


def pair_figure(res: PairResult) -> Any:
    """One pair's plot (a matplotlib Figure): the histogram of the per-deal differences with the
    mean and its 95 % interval, and the running mean over the deals."""
    plt = pyplot()
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
    ax2.plot(n, np.cumsum(diffs) / n, color="#6a8cbf")
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.axhspan(*s["ci95"], color="orange", alpha=0.3)
    ax2.set_xlabel("deals")
    ax2.set_ylabel("running mean ppH")
    fig.suptitle(f"{res.agent_a} vs {res.agent_b} ({s['rules']['preset']}, {len(diffs)} deals)")
    fig.tight_layout()
    return fig


def write_outputs(out: Path, res: PairResult) -> None:
    """``deals.csv``, ``summary.json``, ``summary.md`` and ``summary.png`` in ``out`` (created if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    write_deals_csv(out / "deals.csv", [res])
    write_json(out / "summary.json", {"mode": "pair", **res.summary})
    (out / "summary.md").write_text("# Duplicate evaluation\n\n" + summary_markdown(res.summary))
    save_figure(pair_figure(res), out / "summary.png")


PROTOCOL = Protocol(name=DUPLICATE, files=("summary.json", "summary.md", "deals.csv", "summary.png"),
                    evaluate=evaluate_pair, summary_markdown=summary_markdown, summary_line=summary_line,
                    write_outputs=write_outputs,
                    takes_matches=True, takes_workers=True, takes_round_robin=True)


__all__ = ["PROTOCOL", "DealResult", "MatchResult", "PairResult", "seating", "play_deal",
           "play_duplicate", "play_match", "evaluate_pair", "summarize", "summary_markdown", "summary_line",
           "write_deals_csv", "write_outputs", "pair_figure"]
