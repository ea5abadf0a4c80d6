"""Seat-rotation evaluation of games where everyone plays alone (Differenzler, Mittlere, Molotow;
docs/bots.md).

``python -m agents.evaluate A B --rules differenzler --deals N --out DIR`` lands here
(:func:`agents.evaluation.protocol.protocol_for` says which games).

Protocol
--------
* **Deal set.** Deal ``i`` of the set with seed ``S`` (:class:`agents.evaluation.deals.RotationDeal`)
  is dealt by the engine, trump included, from ``deal_seed(S, i)`` with dealer ``i % n``; every
  play starts from a copy of the dealt state, so all plays of a deal have the same hands and
  trump. The set's SHA-256 (rules, seeds, dealers, hands, trump) is reported.
* **Line-up and rotation.** A sits in one seat and B in the other ``n − 1`` (one B instance per
  seat). Every deal is played ``n`` times: in rotation ``k`` A sits in seat ``k``, so A holds every
  hand once and B every hand ``n − 1`` times. Before each play every agent is reset with
  ``seat_seed(S, i, seat)``, so whoever holds a hand draws the same random numbers (A against A
  gives exactly 0).
* **Statistic.** Per deal: A's mean penalty over the ``n`` rotations, B's mean over its
  ``n (n − 1)`` seat-plays, and their difference A − B (negative = A better). Reported: each mean
  penalty per round and the difference with t-based 95 % intervals over deals, the share of deals
  where A did better (sign test), A's exact hits.
* **Games.** ``--matches M``: M games of ``match_rounds`` rounds (12; a tie for the lowest total
  plays on), each played ``n`` times with A in seat ``k`` (the engine deals the same rounds from
  the game's seed in every rotation). A's game win rate (lowest total) with a Wilson interval,
  against the chance level ``1 / n``. Agents are reset before every round with seeds of
  (game, round, seat) (:func:`agents.evaluation.seeds.round_seed`).

Agents act on the observation and action mask of the player to move, as in the environment
(:mod:`agents.evaluation.table`).

Mittlere, Molotow and Sidi: the same protocol with each hand's score instead of the penalty
(Mittlere's Striche − Nullen, higher is better; Molotow's points + table Weis − hand Weis − Stöck,
lower is better; Sidi's points + Weis + Stöck (+100), higher is better: with two players each
deal is played twice, the seats swapped); the summary names the statistic (``score_name``,
``higher_is_better``, from :func:`agents.evaluation.protocol.statistic_for`) and the sign test
counts a deal for A when A did better in that direction. No exact hits there.

Outputs in ``--out DIR``: ``deals.csv`` (per deal and rotation), ``summary.json``, ``summary.md``.
An agent spec's warning (``policy`` for a game without a shipped policy plays random weights:
:func:`agents.registry.untrained_policy_note`) is in the summary's ``warnings`` and shown in its
Markdown and on its summary line.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.engine.deal import seed_to_rng_state
from jass_env.engine.state import StateView, match_winner, new_state, score_of, to_move
from jass_env.engine.switches import Rules
from jass_env.games import make_rules, overrides

from ..base import Agent
from ..registry import agent_description
from . import stats
from .deals import RotationDeal, make_rotation_deal, rotation_deal_set_hash
from .lineups import build_team, label
from .progress import Progress
from .protocol import ROTATION, Protocol, protocol_for, statistic_for
from .report import metric_table, write_csv, write_json
from .seeds import match_seed, round_seed, seat_seed
from .table import Table, reset_agents

CSV_FIELDS = ("deal", "seed", "dealer", "rotation", "a_seat", "penalty_A", "penalty_B_mean", "penalties")


def rotation_seats(lineup: Sequence[Agent], k: int) -> list[Agent]:
    """The seat agents of rotation ``k``: ``lineup[0]`` (A) in seat k, the others after it."""
    n = len(lineup)
    return [lineup[(s - k) % n] for s in range(n)]


@dataclass
class RotationResult:
    """All rotations of one deal: ``penalties[k][s]`` = the penalty of seat s in rotation k."""

    deal: int
    seed: int
    dealer: int
    penalties: list[list[int]]

    @property
    def penalty_a(self) -> float:
        return float(np.mean([row[k] for k, row in enumerate(self.penalties)]))

    @property
    def penalty_b(self) -> float:
        return float(np.mean([x for k, row in enumerate(self.penalties)
                              for s, x in enumerate(row) if s != k]))

    @property
    def diff(self) -> float:
        return self.penalty_a - self.penalty_b


def play_rotations(table: Table, deal: RotationDeal, lineup: Sequence[Agent], set_seed: int,
                   keep: list[tuple[list[Agent], np.ndarray]] | None = None) -> RotationResult:
    """Play ``deal`` once per rotation of ``lineup`` (A first); finished plays go to ``keep``."""
    n = len(lineup)
    seeds = [seat_seed(set_seed, deal.index, s) for s in range(n)]
    rows = []
    for k in range(n):
        seats = rotation_seats(lineup, k)
        reset_agents(seats, seeds)
        st = table.play_round(deal.start, seats)
        if keep is not None:
            keep.append((seats, st))
        rows.append([int(score_of(st, s)) for s in range(n)])
    return RotationResult(deal.index, deal.seed, deal.dealer, rows)


@dataclass
class GameResult:
    """One game (``match_rounds`` rounds) with A in seat ``a_seat``: totals and the winner."""

    index: int
    a_seat: int
    totals: list[int]
    winner: int
    rounds: int

    @property
    def a_won(self) -> bool:
        return self.winner == self.a_seat


def play_game(table: Table, index: int, lineup: Sequence[Agent], k: int, set_seed: int) -> GameResult:
    """Game ``index`` with A in seat ``k`` (every rotation of a game deals the same rounds)."""
    rp = table.rp
    n = len(lineup)
    seats = rotation_seats(lineup, k)
    st = new_state(table.rules.spec, seed_to_rng_state(match_seed(set_seed, index)))
    table.engine.start_episode(st, rp, True, -1)
    view = StateView(st, rp)
    current = -1
    while True:
        if view.rounds_done != current:
            current = view.rounds_done
            reset_agents(seats, [round_seed(set_seed, index, current, s) for s in range(n)])
        table.engine.apply_action(st, table.act(seats[int(to_move(st))], st), rp)
        if table.engine.episode_over(st, rp):
            break
    return GameResult(index, k, view.match_score, int(match_winner(st)), view.rounds_done)


@dataclass
class RotationPairResult:
    """Everything measured for A against B."""

    agent_a: str
    agent_b: str
    deals: list[RotationResult]
    games: list[GameResult]
    summary: dict[str, Any] = field(default_factory=dict)


def evaluate_rotation(agent_a: Any, agent_b: Any, rules: str | Rules,
                      deals: int = 500, seed: int = 0, matches: int = 0, progress: bool = False,
                      label_a: str | None = None, label_b: str | None = None) -> RotationPairResult:
    """Seat-rotation evaluation of A against B (module docstring) on ``deals`` deals of the set
    ``seed`` and ``matches`` games. Agents: spec strings, factories or instances."""
    rules = make_rules(rules)
    if protocol_for(rules) != ROTATION:
        raise ValueError(f"seat rotation is for games where everyone plays alone; {rules.game} is evaluated "
                         f"by the {protocol_for(rules)} protocol")
    if deals < 2 or matches < 0 or seed < 0:
        raise ValueError(f"need deals >= 2, matches >= 0, seed >= 0; got {deals}, {matches}, {seed}")
    n = rules.spec.players
    la, lb = label(agent_a, label_a, "A"), label(agent_b, label_b, "B")
    t0 = time.monotonic()
    lineup = build_team(agent_a, rules, 1) + build_team(agent_b, rules, n - 1)
    table = Table(rules)
    deal_set = [make_rotation_deal(rules, seed, i) for i in range(deals)]
    bar = Progress(deals + matches, f"{la} vs {lb}", enabled=progress)
    results = []
    for d in deal_set:
        results.append(play_rotations(table, d, lineup, seed))
        bar.update()
    games = []
    for j in range(matches):
        games.extend(play_game(table, j, lineup, k, seed) for k in range(n))
        bar.update()
    bar.close()
    out = RotationPairResult(la, lb, results, games)
    out.summary = summarize(out, rules, seed, rotation_deal_set_hash(deal_set, rules), time.monotonic() - t0,
                            [agent_description(a) for a in (lineup[0], lineup[-1])])
    return out


def _ci(values: Sequence[float]) -> dict[str, Any]:
    """A mean with its t-based 95 % interval and the standard deviation, JSON-ready."""
    ci = stats.mean_ci(values)
    return {"mean": ci.mean, "ci95": [ci.low, ci.high], "std": ci.std}


def summarize(res: RotationPairResult, rules: Rules, seed: int, set_hash: str, elapsed: float,
              descriptions: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON-ready summary of one rotation evaluation."""
    n = rules.spec.players
    diffs = [r.diff for r in res.deals]
    stat = statistic_for(rules)
    higher = stat.higher_is_better
    sign = stats.sign_test(diffs if higher else [-d for d in diffs])   # a deal where A did better
    exact = sum(row[k] < 0 for r in res.deals for k, row in enumerate(r.penalties))
    g = len(res.games)
    won = sum(x.a_won for x in res.games)
    return {
        "mode": "rotation",
        "agents": {"A": res.agent_a, "B": res.agent_b},
        "agent_descriptions": {"A": descriptions[0], "B": descriptions[1]},
        "rules": {"preset": rules.name, "overrides": overrides(rules)},
        "players": n,
        "score_name": stat.score,
        "higher_is_better": higher,
        "seed": seed,
        "deals": len(res.deals),
        "plays_per_deal": n,
        "deal_set_hash": set_hash,
        "penalty_A": _ci([r.penalty_a for r in res.deals]),
        "penalty_B": _ci([r.penalty_b for r in res.deals]),
        "difference_A_minus_B": _ci(diffs),
        "share_of_deals_A_better": sign.share,
        "sign_test": sign.as_dict(),
        "exact_hits_A": exact / (n * len(res.deals)) if stat.exact_hits else None,
        "games": g,
        "game_rounds": rules.match_rounds,
        "game_win_rate_A": won / g if g else None,
        "game_win_ci95_A": list(stats.wilson_interval(won, g)) if g else None,
        "game_win_chance_level": 1.0 / n,
        "game_total_penalty_A": (float(np.mean([x.totals[x.a_seat] for x in res.games])) if g else None),
        "elapsed_seconds": elapsed,
        "warnings": agent_warnings(descriptions),
    }


def agent_warnings(descriptions: Sequence[dict[str, Any]]) -> list[str]:
    """The warnings of A's and B's specs (``descriptions`` in that order, from
    :func:`agents.registry.agent_description`), each prefixed by its side: a ``policy`` that plays
    random weights must not pass for a trained one."""
    return [f"{side}: {d['warning']}" for side, d in zip("AB", descriptions) if d.get("warning")]


def summary_markdown(s: dict[str, Any]) -> str:
    """One rotation evaluation's summary as a Markdown section (title, metric table)."""

    def ci(d: dict[str, Any], sign: str = "") -> str:
        return f"{d['mean']:{sign}.2f}  [{d['ci95'][0]:{sign}.2f}, {d['ci95'][1]:{sign}.2f}]"

    word = s.get("score_name", "penalty")
    better = "positive" if s.get("higher_is_better") else "negative"
    rows = [(f"mean {word} per round, A", ci(s["penalty_A"])),
            (f"mean {word} per round, B", ci(s["penalty_B"])),
            (f"difference A − B ({better}: A better)", ci(s["difference_A_minus_B"], "+")),
            (f"deals (each played {s['plays_per_deal']} times, seats rotated)", s["deals"]),
            ("share of deals A better (sign test)", f"{s['share_of_deals_A_better']:.3f}  "
             f"(p = {s['sign_test']['p_value']:.3g})")]
    if s["exact_hits_A"] is not None:
        rows.append(("A's exact hits", f"{s['exact_hits_A']:.3f}"))
    if s["games"]:
        lo, hi = s["game_win_ci95_A"]
        rows.append((f"A's game win rate ({s['games']} games of {s['game_rounds']} rounds; chance "
                     f"{s['game_win_chance_level']:.3f})",
                     f"{s['game_win_rate_A']:.3f}  [{lo:.3f}, {hi:.3f}]"))
    rows += [("rules", f"{s['rules']['preset']} {s['rules']['overrides'] or ''}".strip()),
             ("deal set seed / hash", f"{s['seed']} / {s['deal_set_hash'][:16]}"),
             ("elapsed", f"{s['elapsed_seconds']:.1f} s")]
    warned = "".join(f"**WARNING** {w}\n\n" for w in s.get("warnings", []))
    return (f"## {s['agents']['A']} vs {s['agents']['B']} (A in one seat, B in the others)\n\n"
            + warned + metric_table(rows))


def write_outputs(out: Path, res: RotationPairResult) -> None:
    """``deals.csv`` (one line per deal and rotation), ``summary.json`` and ``summary.md`` in
    ``out`` (created if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "deals.csv", CSV_FIELDS,
              ({"deal": r.deal, "seed": r.seed, "dealer": r.dealer, "rotation": k, "a_seat": k,
                "penalty_A": row[k],
                "penalty_B_mean": float(np.mean([x for s, x in enumerate(row) if s != k])),
                "penalties": " ".join(map(str, row))}
               for r in res.deals for k, row in enumerate(r.penalties)))
    write_json(out / "summary.json", res.summary)
    (out / "summary.md").write_text("# Seat-rotation evaluation\n\n" + summary_markdown(res.summary))


def summary_line(s: dict[str, Any]) -> str:
    """One rotation evaluation's summary as one line for the terminal."""
    d = s["difference_A_minus_B"]
    line = (f"{s['agents']['A']} vs {s['agents']['B']}: {s.get('score_name', 'penalty')} per round "
            f"A {s['penalty_A']['mean']:.2f}, "
            f"B {s['penalty_B']['mean']:.2f}, A − B {d['mean']:+.2f} "
            f"[{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] "
            f"over {s['deals']} deals x {s['plays_per_deal']} rotations")
    if s["games"]:
        line += (f"; A's game win rate {s['game_win_rate_A']:.3f} [{s['game_win_ci95_A'][0]:.3f}, "
                 f"{s['game_win_ci95_A'][1]:.3f}] (chance {s['game_win_chance_level']:.3f})")
    for w in s.get("warnings", []):
        line += f"; WARNING {w}"
    return line


def _evaluate(agent_a: Any, agent_b: Any, rules: Rules, deals: int, seed: int, matches: int, workers: int,
              progress: bool) -> RotationPairResult:
    """:func:`evaluate_rotation` as the protocol's ``evaluate``: one process (``workers`` 1)."""
    if workers != 1:
        raise ValueError(f"the seat-rotation evaluation runs in one process, got workers={workers}")
    return evaluate_rotation(agent_a, agent_b, rules, deals, seed, matches, progress)


PROTOCOL = Protocol(name=ROTATION, files=("summary.json", "summary.md", "deals.csv"), evaluate=_evaluate,
                    summary_markdown=summary_markdown, summary_line=summary_line, write_outputs=write_outputs,
                    takes_matches=True, takes_workers=False, takes_round_robin=False,
                    refusal="{game} is evaluated by seat rotation of two agents (A B); --round-robin and "
                            "--workers are for team games")


__all__ = ["PROTOCOL", "evaluate_rotation", "play_rotations", "play_game", "rotation_seats", "RotationResult",
           "GameResult", "RotationPairResult", "summarize", "summary_markdown", "summary_line",
           "write_outputs", "agent_warnings"]
