"""The ladder of one game: a round robin of agents on one deal set, every pair evaluated by the
game's own protocol (:func:`agents.evaluation.protocol.protocol_for`: duplicate deals for team
games, seat rotation for games played alone, whole games for Coiffeur), ranked by Elo, with each
agent's cost per decision.

    python -m agents.ladder --rules PRESET [--deals N] [--seed S] [--agents A B ...] [--workers W] --out DIR

* **Pairs.** Every pair of agents (A before B in the order given) is one evaluation of the
  protocol on the same ``deals`` deals (whole games: deal sequences) of the set ``seed``; its
  headline figure is the game's statistic (``STATISTIC``, :mod:`jass_env.games.base`), A − B,
  with its t-based 95 % interval, in the game's direction (``higher_is_better``).
* **Elo.** A Bradley-Terry fit on the units each agent of a pair did better on (deals, deal
  sequences; ties half, one virtual drawn unit per pair:
  :func:`agents.evaluation.round_robin.pair_elo`), the first agent at 0.
* **Cost.** Every ``act()`` call of every agent is timed (:mod:`agents.evaluation.timing`):
  mean and slowest seconds per decision. Each process first plays one untimed round with every
  agent in every seat, so a compile or a lazy load is not counted as a decision.
* **Workers.** ``workers`` > 1 spreads the pairs over processes (each pair in one process, with
  agents of its own): the figures are the same as with one, the costs are then measured with
  that many processes sharing the machine.

:func:`run_ladder` returns the JSON-ready summary; :func:`write_ladder_outputs` writes
``ladder.json`` and ``ladder.md`` (one table meant for a game's page, ending with the command that
reproduces it).
"""

from __future__ import annotations

import itertools
import os
import platform
import re
import shlex
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games import game_of, make_rules, overrides
from jass_env.games.base import Statistic
from jass_env.round import Round

from ..registry import UntrainedPolicyWarning, agent_description, agents_of, make_agent, parse_spec
from .cli import IMPLEMENTATIONS
from .deals import _set_hash
from .protocol import DUPLICATE, PLAYS, ROTATION, WHOLE_GAME, Protocol, protocol_for, statistic_for
from .report import write_json
from .round_robin import ELO_PRIOR, pair_elo
from .seeds import match_seed
from .table import Table
from .timing import DecisionClock, TimedFactory
from .workers import Pool

#: the agents of a ladder unless given: each where the game offers it (``policy`` only where the
#: game ships a trained policy for the rules' spec)
DEFAULT_AGENTS = ("random", "heuristic", "pimc:worlds=10", "pimc:worlds=30", "policy", "search")
#: what write_ladder_outputs writes, ladder.json first
LADDER_FILES = ("ladder.json", "ladder.md")
#: the agent the table's column compares every agent with, where the ladder has it
REFERENCE_AGENT = "heuristic"
#: the command line that reproduces a ladder
COMMAND = "python -m agents.ladder"


@dataclass(frozen=True)
class PairFigures:
    """One pair's headline, A's side: the statistic A − B with its 95 % interval, the share of
    units (deals, deal sequences) A did better on in the game's direction (ties half), how many
    units, and the sign test's p-value."""

    value: float
    ci95: tuple[float, float]
    share: float
    units: int
    p_value: float


@dataclass(frozen=True)
class Reading:
    """How the ladder reads the summary of one protocol: its headline figures, what one unit of
    the Elo fit is, what a pair's A − B means, and the deal set's hash."""

    figures: Callable[[dict[str, Any]], PairFigures]
    unit: str
    pair: str
    set_hash: Callable[[dict[str, Any], Rules, int, int], str]


def _duplicate_figures(s: dict[str, Any]) -> PairFigures:
    return PairFigures(s["points_per_hand"], tuple(s["ci95"]), s["share_of_deals_won"], s["deals"],
                       s["sign_test"]["p_value"])


def _rotation_figures(s: dict[str, Any]) -> PairFigures:
    d = s["difference_A_minus_B"]
    return PairFigures(d["mean"], tuple(d["ci95"]), s["share_of_deals_A_better"], s["deals"],
                       s["sign_test"]["p_value"])


def _whole_game_figures(s: dict[str, Any]) -> PairFigures:
    return PairFigures(s["game_score_diff"], tuple(s["ci95"]), s["share_of_sequences_won"], s["sequences"],
                       s["sign_test_p"])


def _summary_hash(s: dict[str, Any], rules: Rules, seed: int, n: int) -> str:
    return s["deal_set_hash"]


def sequence_set_hash(s: dict[str, Any], rules: Rules, seed: int, n: int) -> str:
    """SHA-256 of a set of ``n`` deal sequences (whole games) with seed ``seed``: the rules'
    switches and every sequence's seed, which fixes its hands and dealers
    (:mod:`agents.evaluation.whole_games`)."""
    return _set_hash(rules, (f"{k},{match_seed(seed, k)}" for k in range(n)))


READINGS: dict[str, Reading] = {
    DUPLICATE: Reading(_duplicate_figures, "deal",
                       "the row agent's team score minus the column agent's, each deal played twice "
                       "with the teams' seats swapped", _summary_hash),
    ROTATION: Reading(_rotation_figures, "deal",
                      "the row agent's mean minus the column agent's on the same hands: each deal is "
                      "played once per seat rotation, one agent of the pair (the first in the order "
                      "given) in one seat and the other in every other seat; the mirrored cell is the "
                      "same result negated", _summary_hash),
    WHOLE_GAME: Reading(_whole_game_figures, "deal sequence",
                        "the row team's game score minus the column team's per game, each deal sequence "
                        "played as two whole games with the teams' seats swapped", sequence_set_hash),
}


def reading_for(protocol: str) -> Reading:
    """The :class:`Reading` of ``protocol`` (ValueError for a protocol the ladder cannot read)."""
    if protocol not in READINGS:
        raise ValueError(f"the ladder cannot read the {protocol!r} protocol; it reads {', '.join(READINGS)}")
    return READINGS[protocol]


def statistic_name(stat: Statistic) -> str:
    """The statistic's name for a table: its text up to the first comma or parenthesis
    (``"points per hand"``, ``"penalty per round"``)."""
    return re.split(r"[,(]", stat.text, maxsplit=1)[0].strip()


def direction(stat: Statistic) -> str:
    """``"higher is better"`` or ``"lower is better"``, from the game's statistic."""
    return "higher is better" if stat.higher_is_better else "lower is better"


def default_agents(rules: str | Rules | None) -> list[str]:
    """The specs of :data:`DEFAULT_AGENTS` the game of ``rules`` offers
    (:func:`agents.registry.agents_of`), ``policy`` only where the game ships a trained policy for
    the rules' spec (its ``CHECKPOINTS`` fact)."""
    rules = make_rules(rules)
    offered = agents_of(rules)
    out = []
    for spec in DEFAULT_AGENTS:
        name = parse_spec(spec)[0]
        if name in offered and (name != "policy" or rules.game in game_of(rules).checkpoints):
            out.append(spec)
    return out


def ladder_problem(specs: Sequence[str], deals: int, seed: int, workers: int) -> str | None:
    """What is wrong with a ladder's agents or sizes (before any agent is built), or None."""
    if len(specs) < 2 or len(set(specs)) != len(specs):
        return f"a ladder needs at least 2 distinct agents, got {list(specs)}"
    if deals < 2:
        return f"a ladder needs --deals >= 2 (an interval needs two), got {deals}"
    if seed < 0 or workers < 1:
        return f"need --seed >= 0 and --workers >= 1, got {seed} and {workers}"
    return None


def reference_agent(specs: Sequence[str]) -> str:
    """The agent every other is compared with in the table: the first ``heuristic`` spec, else the
    first agent."""
    return next((s for s in specs if parse_spec(s)[0] == REFERENCE_AGENT), specs[0])


@dataclass
class _Context:
    """What a process plays the ladder's pairs with."""

    rules: Rules
    protocol: Protocol
    pairs: list[tuple[str, str]]
    deals: int
    seed: int
    progress: bool


def warm_up(rules: Rules, specs: Sequence[str], seed: int) -> None:
    """Play one untimed round of ``rules`` (dealt from ``seed``) with each agent of ``specs`` in
    every seat, so that a compile or a lazy load of this process is not timed as a decision."""
    table = Table(rules)
    for spec in specs:
        agent = make_agent(spec, rules)
        agent.reset(seed=seed)
        table.finish_round(Round(rules, seed=seed).state, [agent] * rules.spec.players)


def _build_context(rules: Rules, pairs: list[tuple[str, str]], deals: int, seed: int,
                   progress: bool) -> _Context:
    """A process's context: the protocol of ``rules``, its agents warmed up (:func:`warm_up`)."""
    warnings.simplefilter("ignore", UntrainedPolicyWarning)   # reported once, by run_ladder
    warm_up(rules, list(dict.fromkeys(s for pair in pairs for s in pair)), seed)
    return _Context(rules, IMPLEMENTATIONS[protocol_for(rules)], pairs, deals, seed, progress)


PairRun = tuple[int, dict[str, Any], dict[str, DecisionClock]]


def _play_pairs(context: _Context, indices: Sequence[int]) -> list[PairRun]:
    """Evaluate the pairs ``indices``: for each (index, the protocol's summary, each agent's clock)."""
    out = []
    for i in indices:
        a, b = context.pairs[i]
        clocks = {a: DecisionClock(), b: DecisionClock()}
        res = context.protocol.evaluate(TimedFactory(a, context.rules, clocks[a]),
                                        TimedFactory(b, context.rules, clocks[b]), context.rules,
                                        context.deals, context.seed, 0, 1, context.progress)
        out.append((i, res.summary, clocks))
    return out


def _play(rules: Rules, pairs: list[tuple[str, str]], deals: int, seed: int, workers: int,
          progress: bool) -> list[PairRun]:
    """Every pair, in one process or spread over ``workers``; in pair order."""
    if workers == 1:
        context = _build_context(rules, pairs, deals, seed, progress)
        return _play_pairs(context, range(len(pairs)))
    runs = []
    with Pool(workers, _build_context, (rules, pairs, deals, seed, False)) as pool:
        for chunk in pool.play(_play_pairs, [[i] for i in range(len(pairs))]):
            runs.extend(chunk)
            if progress:
                a, b = pairs[chunk[0][0]]
                print(f"pair {len(runs)}/{len(pairs)} done: {a} vs {b}", file=sys.stderr)
    return sorted(runs, key=lambda r: r[0])


def machine() -> dict[str, Any]:
    """The machine the costs were measured on: processor, architecture, system, Python, CPUs."""
    return {"processor": platform.processor(), "machine": platform.machine(), "system": platform.platform(),
            "python": platform.python_version(), "cpu_count": os.cpu_count()}


def run_ladder(specs: Sequence[str], rules: str | Rules | None = None, deals: int = 100, seed: int = 0,
               workers: int = 1, progress: bool = False) -> dict[str, Any]:
    """The ladder of ``specs`` (agent spec strings) under ``rules``: every pair on ``deals`` deals
    (whole games: deal sequences) of the set ``seed`` (module docstring). Returns the JSON-ready
    summary. ValueError for a bad ladder (:func:`ladder_problem`);
    :class:`agents.registry.AgentSpecError` for an agent that does not play the game;
    :class:`agents.evaluation.table.EvaluationError` for an agent that misbehaves."""
    specs = list(specs)
    problem = ladder_problem(specs, deals, seed, workers)
    if problem:
        raise ValueError(problem)
    rules = make_rules(rules)
    protocol = protocol_for(rules)
    reading = reading_for(protocol)
    stat = statistic_for(rules)
    pairs = list(itertools.combinations(specs, 2))
    start = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UntrainedPolicyWarning)
        descriptions = {s: agent_description(make_agent(s, rules)) for s in specs}
        runs = _play(rules, pairs, deals, seed, min(workers, len(pairs)), progress)
    clocks = {s: DecisionClock() for s in specs}
    records, matrix = [], {a: {b: None for b in specs if b != a} for a in specs}
    for (a, b), (_, summary, pair_clocks) in zip(pairs, runs, strict=True):
        for s, clock in pair_clocks.items():
            clocks[s].merge(clock)
        f = reading.figures(summary)
        matrix[a][b] = {"value": f.value, "ci95": list(f.ci95), "share": f.share}
        matrix[b][a] = {"value": -f.value, "ci95": [-f.ci95[1], -f.ci95[0]], "share": 1.0 - f.share}
        records.append({"agent_a": a, "agent_b": b, "value": f.value, "ci95": list(f.ci95),
                        "share_A": f.share, "units": f.units, "sign_test_p": f.p_value,
                        "summary": {k: v for k, v in summary.items() if k != "agent_descriptions"}})
    elo = pair_elo(specs, [(r["agent_a"], r["agent_b"], r["share_A"] * r["units"],
                            (1.0 - r["share_A"]) * r["units"]) for r in records])
    return {
        "mode": "ladder",
        "rules": {"preset": rules.name, "game": rules.game, "overrides": overrides(rules)},
        "game": game_of(rules).title,
        "protocol": protocol,
        "plays": PLAYS[protocol],
        "statistic": {"name": statistic_name(stat), "text": stat.text,
                      "higher_is_better": stat.higher_is_better, "direction": direction(stat),
                      "pair": reading.pair},
        "unit": reading.unit,
        "seed": seed,
        "deals": deals,
        "deal_set_hash": reading.set_hash(runs[0][1], rules, seed, deals),
        "agents": specs,
        "agent_descriptions": descriptions,
        "reference": reference_agent(specs),
        "elo": elo,
        "elo_anchor": specs[0],
        "elo_prior_virtual_units": ELO_PRIOR,
        "ranking": sorted(specs, key=lambda s: -elo[s]),
        "pairs": records,
        "matrix": matrix,
        "cost_per_decision": {s: clocks[s].as_dict() for s in specs},
        "machine": machine(),
        "workers": min(workers, len(pairs)),
        "elapsed_seconds": time.monotonic() - start,
        "warnings": [f"{s}: {d['warning']}" for s, d in descriptions.items() if d.get("warning")],
    }


def ladder_command(summary: dict[str, Any], out: Path | str) -> str | None:
    """The command line that reproduces the ladder of ``summary`` into ``out`` (None for rules
    with overrides, which the command line does not take)."""
    if summary["rules"]["overrides"]:
        return None
    words = [*COMMAND.split(), "--rules", summary["rules"]["preset"], "--deals", str(summary["deals"]),
             "--seed", str(summary["seed"]), "--agents", *summary["agents"]]
    if summary["workers"] > 1:
        words += ["--workers", str(summary["workers"])]
    return shlex.join([*words, "--out", str(out)])


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _interval(value: float, ci95: Sequence[float]) -> str:
    return f"{_signed(value)} [{_signed(ci95[0])}, {_signed(ci95[1])}]"


def _ms(x: float) -> str:
    """Milliseconds with three significant digits, without an exponent."""
    return f"{x:,.0f}" if x >= 100 else f"{x:#.3g}"


def ladder_markdown(summary: dict[str, Any]) -> str:
    """``ladder.md``: the ranking table (Elo, the statistic against the reference agent, the cost
    per decision), what each column means, every pair's figure, and the command."""
    s, stat = summary, summary["statistic"]
    specs, ref = s["agents"], s["reference"]
    unit, m = s["unit"], s["machine"]
    md = [f"### Ladder: {s['game']} (`{s['rules']['preset']}`)", "",
          f"Round robin of {len(specs)} agents: every pair played the same {s['deals']:,} {s['plays']} "
          f"(seed {s['seed']}, deal set `{s['deal_set_hash'][:16]}`).", "",
          f"| rank | agent | Elo | {stat['name']} vs {ref} (95 % CI; {stat['direction']}) | "
          f"ms per decision: mean / slowest |", "|---|---|---|---|---|"]
    for i, a in enumerate(s["ranking"]):
        vs = "reference" if a == ref else _interval(s["matrix"][a][ref]["value"], s["matrix"][a][ref]["ci95"])
        c = s["cost_per_decision"][a]
        md.append(f"| {i + 1} | `{a}` | {s['elo'][a]:+.0f} | {vs} | "
                  f"{_ms(c['mean_ms'])} / {_ms(c['slowest_ms'])} |")
    md += ["",
           f"* **Elo**: a Bradley-Terry fit on the {unit}s each pair's agents did better on "
           f"({stat['direction']}; a tie counts half, and {s['elo_prior_virtual_units']:g} virtual drawn "
           f"{unit} per pair keeps a sweep finite); `{s['elo_anchor']}` = 0. 100 Elo more means about "
           f"64 % of the {unit}s won.",
           f"* **{stat['name']}** ({stat['direction']}): {stat['pair']}; the mean over the {unit}s with "
           "its t-based 95 % interval.",
           f"* **ms per decision**: wall-clock time of each decision (the agent's `act()` call) over "
           f"the whole ladder, on {m['processor'] or m['machine']} with {m['cpu_count']} CPUs, "
           f"{s['workers']} worker process{'es' if s['workers'] > 1 else ''}.", ""]
    md += [w for warning in s["warnings"] for w in (f"**WARNING** {warning}", "")]
    md += [f"Every pair, {stat['name']} of row − column (95 % CI):", "",
           "| | " + " | ".join(f"`{b}`" for b in specs) + " |", "|---|" + "---|" * len(specs)]
    md += [f"| `{a}` | " + " | ".join("—" if a == b else _interval(s["matrix"][a][b]["value"],
                                                                   s["matrix"][a][b]["ci95"])
                                      for b in specs) + " |" for a in specs]
    command = s.get("command")
    md += ["", "Reproduce:" if command else
           f"Rules with overrides {s['rules']['overrides']}: no command line reproduces them.", ""]
    if command:
        md += ["```bash", command, "```", ""]
    return "\n".join(md)


def headline(summary: dict[str, Any]) -> dict[str, Any]:
    """The ladder's headline figures (the command line's last line): rules, deals, seed and the
    Elo of every agent, best first."""
    return {"rules": summary["rules"]["preset"], "deals": summary["deals"], "seed": summary["seed"],
            "elo": {a: round(summary["elo"][a], 1) for a in summary["ranking"]}}


def write_ladder_outputs(out: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """``ladder.json`` and ``ladder.md`` in ``out`` (created if needed), both with the command that
    reproduces the ladder there; returns the summary written (with its ``command``)."""
    out.mkdir(parents=True, exist_ok=True)
    written = {**summary, "command": ladder_command(summary, out)}
    write_json(out / "ladder.json", written)
    (out / "ladder.md").write_text(ladder_markdown(written))
    return written


def ranking_lines(summary: dict[str, Any]) -> list[str]:
    """The ranking for the terminal: one line per agent with its Elo and cost per decision."""
    return [f"{a:30s} Elo {summary['elo'][a]:+7.1f}  "
            f"{summary['cost_per_decision'][a]['mean_ms']:9.3f} ms per decision" for a in summary["ranking"]]


__all__ = ["DEFAULT_AGENTS", "LADDER_FILES", "COMMAND", "PairFigures", "Reading", "READINGS", "reading_for",
           "statistic_name", "direction", "default_agents", "ladder_problem", "reference_agent", "warm_up",
           "machine", "run_ladder", "ladder_command", "ladder_markdown", "headline", "write_ladder_outputs",
           "ranking_lines", "sequence_set_hash"]
