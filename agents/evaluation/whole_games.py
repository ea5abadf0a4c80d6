"""Whole-game duplicate evaluation, for games whose unit is the whole game (Coiffeur).

    python -m agents.evaluate A B --rules coiffeur --deals N

In Coiffeur which hand a team spends on which row of its sheet is the game, so a single deal says
little: the evaluation plays **whole games** (12, 16 or 20 deals, until both sheets are full).

Protocol
--------
* **Deal sequences.** Sequence ``k`` of the set with seed ``S`` is the game started from the seed
  ``match_seed(S, k)`` (:mod:`agents.evaluation.seeds`): the engine deals every hand of the game
  from its own generator, which nothing else draws from, so the sequence of hands (and dealers) is
  fixed by the seed, whatever is played.
* **Duplicate.** Every sequence is played twice (:func:`agents.evaluation.duplicate.play_match`):
  agent A in seats 0 and 2 against B in 1 and 3, then the teams swap seats, so each team holds the
  other's hands of the first game. Before every deal the agents are reset with seeds of (set, sequence,
  deal, seat): A against A nets exactly 0.
* **Statistic.** Per sequence: the mean over its two games of (A's game score − B's), with a
  t-based 95 % interval; A's game win rate over all games (ties half) with a Wilson interval; the
  share of sequences where A did better (sign test); deals per game.

Outputs in ``--out DIR``: ``games.csv`` (one row per sequence), ``summary.json`` and ``summary.md``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games import make_rules

from ..base import Agent
from ..registry import agent_description
from . import stats
from .duplicate import MatchResult, play_match
from .lineups import build_team
from .progress import Progress
from .protocol import WHOLE_GAME, Protocol, protocol_for
from .report import metric_table, write_csv, write_json

GAMES_CSV_FIELDS = ("sequence", "seed", "deals", "score_A_first", "score_B_first", "score_A_second",
                    "score_B_second", "diff")


@dataclass
class SequencePair:
    """One deal sequence played twice: A in seats 0&2 (``first``), then in 1&3 (``second``)."""

    first: MatchResult
    second: MatchResult

    @property
    def diff(self) -> float:
        """Mean over the two games of A's game score − B's."""
        return ((self.first.score_A - self.first.score_B) + (self.second.score_A - self.second.score_B)) / 2


def play_sequence(rules: Rules, k: int, team_a: Sequence[Agent], team_b: Sequence[Agent],
                  set_seed: int) -> SequencePair:
    """Deal sequence ``k``: its two games (module docstring)."""
    return SequencePair(play_match(rules, 2 * k, team_a, team_b, set_seed),
                        play_match(rules, 2 * k + 1, team_a, team_b, set_seed))


@dataclass
class WholeGameResult:
    """A whole-game evaluation of A against B: every sequence pair and the summary."""

    agent_a: str
    agent_b: str
    pairs: list[SequencePair]
    summary: dict[str, Any]


def evaluate_games(agent_a: Any, agent_b: Any, rules: str | Rules, games: int = 100,
                   seed: int = 0, progress: bool = False) -> WholeGameResult:
    """A (a spec or an agent) against B over ``games`` deal sequences of the set ``seed``, each
    played twice (module docstring)."""
    rules = make_rules(rules)
    if protocol_for(rules) != WHOLE_GAME:
        raise ValueError(f"{rules.game} is evaluated deal by deal, not by whole games")
    if games < 2:
        raise ValueError(f"need at least 2 deal sequences for an interval, got {games}")
    team_a, team_b = build_team(agent_a, rules), build_team(agent_b, rules)
    start = time.monotonic()
    bar = Progress(games, "sequences", enabled=progress)
    pairs = []
    for k in range(games):
        pairs.append(play_sequence(rules, k, team_a, team_b, seed))
        bar.update()
    bar.close()
    a, b = (agent_description(x)["spec"] or agent_description(x)["name"] for x in (team_a[0], team_b[0]))
    return WholeGameResult(a, b, pairs, summarize(pairs, rules, seed, a, b, time.monotonic() - start))


def summarize(pairs: Sequence[SequencePair], rules: Rules, seed: int, agent_a: str, agent_b: str,
              elapsed: float) -> dict[str, Any]:
    """The summary of :func:`evaluate_games` (JSON-ready)."""
    diffs = [p.diff for p in pairs]
    ci = stats.mean_ci(diffs)
    games = [g for p in pairs for g in (p.first, p.second)]
    won = sum(g.result for g in games)
    sign = stats.sign_test(diffs)
    return {
        "agent_a": agent_a, "agent_b": agent_b, "rules": rules.game, "seed": seed,
        "sequences": len(pairs), "games": len(games),
        "deals_per_game": sorted({g.rounds for g in games}),
        "game_score_diff": ci.mean, "ci95": [ci.low, ci.high],
        "mean_game_score_A": sum(g.score_A for g in games) / len(games),
        "mean_game_score_B": sum(g.score_B for g in games) / len(games),
        "game_win_rate": won / len(games),
        "game_win_ci95": list(stats.wilson_interval(won, len(games))),
        "share_of_sequences_won": sign.share, "sign_test_p": sign.p_value,
        "elapsed_s": round(elapsed, 1),
    }


def summary_markdown(s: dict[str, Any]) -> str:
    """The summary as a Markdown table."""
    lo, hi = s["ci95"]
    wlo, whi = s["game_win_ci95"]
    rows = [
        ("game score difference (A − B), per deal sequence",
         f"{s['game_score_diff']:+.1f}  [{lo:+.1f}, {hi:+.1f}]"),
        ("mean game score A / B", f"{s['mean_game_score_A']:.1f} / {s['mean_game_score_B']:.1f}"),
        ("game win rate of A", f"{s['game_win_rate']:.3f}  [{wlo:.3f}, {whi:.3f}]"),
        ("share of sequences A did better (sign test)",
         f"{s['share_of_sequences_won']:.3f}  (p = {s['sign_test_p']:.3g})"),
        ("deal sequences / games", f"{s['sequences']} / {s['games']}"),
        ("deals per game", ", ".join(map(str, s["deals_per_game"]))),
        ("rules / deal set seed", f"{s['rules']} / {s['seed']}"),
        ("elapsed", f"{s['elapsed_s']:.1f} s"),
    ]
    return (f"# Whole-game duplicate evaluation\n\nA = {s['agent_a']}, B = {s['agent_b']}; every deal "
            "sequence played twice with the teams swapped\n\n" + metric_table(rows))


def summary_line(s: dict[str, Any]) -> str:
    """One line for the terminal."""
    lo, hi = s["ci95"]
    wlo, whi = s["game_win_ci95"]
    return (f"{s['agent_a']} vs {s['agent_b']}: {s['game_score_diff']:+.1f} game score "
            f"[{lo:+.1f}, {hi:+.1f}] over {s['sequences']} deal sequences ({s['games']} games); "
            f"games won {s['game_win_rate']:.3f} [{wlo:.3f}, {whi:.3f}]")


def write_outputs(out: Path, res: WholeGameResult) -> None:
    """``games.csv``, ``summary.json`` and ``summary.md`` in ``out`` (created if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "games.csv", GAMES_CSV_FIELDS,
              (dict(zip(GAMES_CSV_FIELDS, (k, p.first.seed, p.first.rounds, p.first.score_A, p.first.score_B,
                                           p.second.score_A, p.second.score_B, p.diff)))
               for k, p in enumerate(res.pairs)))
    write_json(out / "summary.json", res.summary)
    (out / "summary.md").write_text(summary_markdown(res.summary))


def _evaluate(agent_a: Any, agent_b: Any, rules: Rules, deals: int, seed: int, matches: int, workers: int,
              progress: bool) -> WholeGameResult:
    """:func:`evaluate_games` as the protocol's ``evaluate``: ``deals`` deal sequences (whole games
    come with them, so no ``matches``), one process (``workers`` 1)."""
    if matches or workers != 1:
        raise ValueError(f"whole games take neither matches nor workers, got matches={matches}, "
                         f"workers={workers}")
    return evaluate_games(agent_a, agent_b, rules, deals, seed, progress)


PROTOCOL = Protocol(name=WHOLE_GAME, files=("summary.json", "summary.md", "games.csv"), evaluate=_evaluate,
                    summary_markdown=summary_markdown, summary_line=summary_line, write_outputs=write_outputs,
                    takes_matches=False, takes_workers=False, takes_round_robin=False,
                    refusal="{game} is evaluated by whole games of two agents (A B, --deals N deal "
                            "sequences, each played twice); --round-robin, --workers and --matches are "
                            "for games evaluated deal by deal")


__all__ = ["PROTOCOL", "SequencePair", "play_sequence", "WholeGameResult", "evaluate_games",
           "summarize", "summary_markdown", "summary_line", "write_outputs"]
