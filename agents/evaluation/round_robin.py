"""Round robin of team-game agents: every pair evaluated by duplicate deals on one deal set
(:mod:`agents.evaluation.duplicate`), and a Bradley-Terry model fitted on deals won (ties half,
``prior`` virtual drawn deals per pair), shown as Elo with the first agent at 0.

    python -m agents.evaluate --round-robin A B C ... --out DIR

Outputs: ``deals.csv`` (every pair's deals), ``summary.json``, ``summary.md`` (ranking, the
points-per-hand matrix, every pair's section) and ``summary.png`` (Elo bars and the matrix).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.engine.switches import Rules

from . import stats
from .duplicate import PairResult, evaluate_pair, summary_markdown, write_deals_csv
from .report import pyplot, save_figure, write_json

#: what write_round_robin_outputs writes, summary.json first
ROUND_ROBIN_FILES = ("summary.json", "summary.md", "deals.csv", "summary.png")
#: virtual drawn deals added to every pair of the Bradley-Terry fit
ELO_PRIOR = 1.0

def round_robin_problem(specs: Sequence[str]) -> str | None:
    """Why ``specs`` cannot make a round robin (fewer than 2 agents, or one twice), or None."""
    if len(specs) < 2 or len(set(specs)) != len(specs):
        return (f"a round robin needs at least 2 distinct agents (--round-robin A B ...), "
                f"got {list(specs)}")
    return None


def pair_elo(specs: Sequence[str], results: Iterable[tuple[str, str, float, float]],
             prior: float = ELO_PRIOR) -> dict[str, float]:
    """Elo of every agent of ``specs`` (the first at 0) from a Bradley-Terry fit on the pairs'
    results ``(agent_a, agent_b, won_a, won_b)``: units (deals, games) each side won, a tie
    counted half to each; ``prior`` virtual drawn units per pair keep a sweep finite."""
    return stats.elo_ratings(specs, stats.win_matrix(specs, results), anchor=specs[0], prior=prior)


def round_robin(specs: Sequence[str], rules: str | Rules | None = None, deals: int = 500, seed: int = 0,
                matches: int = 0, workers: int = 1, progress: bool = False,
                prior: float = ELO_PRIOR) -> tuple[list[PairResult], dict[str, Any]]:
    """Every pair of ``specs`` on the same deal set; Bradley-Terry/Elo on deals won (ties half,
    ``prior`` virtual drawn deals per pair), first agent = 0 Elo. Returns (pairs, summary)."""
    problem = round_robin_problem(specs)
    if problem:
        raise ValueError(problem)
    t0 = time.monotonic()
    pairs = [evaluate_pair(a, b, rules, deals, seed, matches, workers, progress)
             for a, b in itertools.combinations(specs, 2)]
    elo = pair_elo(specs, [(p.agent_a, p.agent_b,
                            p.summary["sign_test"]["wins"] + p.summary["sign_test"]["ties"] / 2,
                            p.summary["sign_test"]["losses"] + p.summary["sign_test"]["ties"] / 2)
                           for p in pairs], prior)
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


def ranking(summary: dict[str, Any]) -> list[str]:
    """The agents of a round robin's summary, best Elo first."""
    return sorted(summary["agents"], key=lambda a: -summary["elo"][a])


def round_robin_markdown(pairs: Sequence[PairResult], summary: dict[str, Any]) -> str:
    """``summary.md`` of a round robin: the ranking, the matrix of points per hand, every pair."""
    specs = summary["agents"]
    md = ["# Round robin (duplicate)\n", f"{summary['deals']} deals per pair, rules "
          f"{summary['rules']['preset']}, seed {summary['seed']}, deal set {summary['deal_set_hash'][:16]}\n",
          "| rank | agent | Elo (BT on deals won) | mean ppH vs field |", "|---|---|---|---|"]
    md += [f"| {i + 1} | {a} | {summary['elo'][a]:+.0f} | {summary['mean_ppH'][a]:+.2f} |"
           for i, a in enumerate(ranking(summary))]
    md += ["", "ppH of row vs column:", "", "| | " + " | ".join(specs) + " |",
           "|---|" + "---|" * len(specs)]
    md += [f"| {a} | " + " | ".join("—" if a == b else f"{summary['ppH_matrix'][a][b]:+.1f}" for b in specs)
           + " |" for a in specs]
    md.append("")
    md += [summary_markdown(p.summary) for p in pairs]
    return "\n".join(md)


def round_robin_figure(summary: dict[str, Any]) -> Any:
    """The round robin's plot (a matplotlib Figure): Elo bars, and a heat map of points per hand
    of row against column with the number in each cell; titled with deals, rules and seed."""
    plt = pyplot()
    specs = summary["agents"]
    order = ranking(summary)
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


def write_round_robin_outputs(out: Path, pairs: list[PairResult], summary: dict[str, Any]) -> None:
    """``deals.csv``, ``summary.json``, ``summary.md`` and ``summary.png`` in ``out`` (created if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    write_deals_csv(out / "deals.csv", pairs)
    write_json(out / "summary.json", summary)
    (out / "summary.md").write_text(round_robin_markdown(pairs, summary))
    save_figure(round_robin_figure(summary), out / "summary.png")


def ranking_lines(summary: dict[str, Any]) -> list[str]:
    """The ranking for the terminal: one line per agent with its Elo and mean points per hand."""
    return [f"{a:30s} Elo {summary['elo'][a]:+7.1f}  mean ppH {summary['mean_ppH'][a]:+7.2f}"
            for a in ranking(summary)]


__all__ = ["ROUND_ROBIN_FILES", "ELO_PRIOR", "round_robin_problem", "pair_elo", "round_robin", "ranking",
           "round_robin_markdown", "round_robin_figure", "write_round_robin_outputs", "ranking_lines"]
