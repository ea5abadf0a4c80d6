"""Seat-rotation evaluation of games where everyone plays alone (Differenzler, Mittlere, Molotow;
docs/bots.md).

``python -m agents.evaluate A B --rules differenzler --deals N --out DIR`` lands here.

Protocol
--------
* **Deal set.** Deal ``i`` of the set with seed ``S`` is dealt by the engine
  (:func:`jass_env.core.deal_round`, which also fixes trump: the shown bottom card) from the
  generator state ``seed_to_rng_state(deal_seed(S, i))`` with dealer ``i % n``; the dealt state is
  kept and every play starts from a copy, so all plays of a deal have the same hands and trump.
  The set's SHA-256 (rules, seeds, dealers, hands, trump) is reported.
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
  (game, round, seat).

Agents act on ``{"observation": float32[obs_dim], "action_mask": int8[n_actions]}`` of the player
to move, encoded by :func:`jass_env.encoding.encode_observation` as in the environment.

Mittlere, Molotow and Sidi: the same protocol with each hand's score instead of the penalty
(Mittlere's Striche − Nullen, higher is better; Molotow's points + table Weis − hand Weis − Stöck,
lower is better; Sidi's points + Weis + Stöck (+100), higher is better: with two players each
deal is played twice, the seats swapped); the summary names the statistic (``score_name``,
``higher_is_better``) and the sign test counts a deal for A when A did better in that direction.
No exact hits there.

Outputs in ``--out DIR``: ``deals.csv`` (per deal and rotation), ``summary.json``, ``summary.md``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jass_env import core
from jass_env.encoding import encode_observation, obs_dim
from jass_env.game import seed_to_rng_state
from jass_env.kernel import match_winner, phase, score_of, to_move
from jass_env.rules import Rules, make_rules
from jass_env.spec import KIND_DIFFERENZLER

from . import stats
from .base import Agent
from .evaluate import Progress, _hash_seed, _reset_agents, deal_seed, match_seed, seat_seed
from .headline import statistic
from .registry import agent_description, make_agent

CSV_FIELDS = ("deal", "seed", "dealer", "rotation", "a_seat", "penalty_A", "penalty_B_mean", "penalties")


class RotationError(RuntimeError):
    """An agent misbehaved during a rotation evaluation (illegal action, exception)."""


@dataclass(frozen=True)
class RotationDeal:
    """One frozen deal: its index, seed, dealer and the dealt state every play starts from."""

    index: int
    seed: int
    dealer: int
    start: np.ndarray = field(repr=False, compare=False)


def make_rotation_deal(rules: Rules, set_seed: int, index: int) -> RotationDeal:
    """Deal ``index`` of the set ``set_seed`` (dealer ``index % n``), hands and trump fixed."""
    s = deal_seed(set_seed, index)
    st = core.new_state(seed_to_rng_state(s))
    core.reset_match(st, False)
    dealer = index % rules.spec.players
    core.deal_round(st, dealer, rules.params)
    return RotationDeal(index, s, dealer, st)


def deal_set_hash(deals: Sequence[RotationDeal], rules: Rules) -> str:
    """SHA-256 over the rules' switches and every deal's index, seed, dealer, hands and trump."""
    h = hashlib.sha256(json.dumps(rules.switches(), sort_keys=True, default=str).encode())
    for d in deals:
        v = core.StateView(d.start, rules.params)
        h.update(f"{d.index},{d.seed},{d.dealer},{','.join(map(str, v.hands))},{v.contract},"
                 f"{v.trump_card};".encode())
    return h.hexdigest()


class Table:
    """Asks seat agents for actions on a state: observation and mask buffers for one game."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.rp = rules, rules.params
        self.obs = np.zeros(obs_dim(rules), dtype=np.float32)
        self.mask = np.zeros(rules.spec.n_actions, dtype=np.int8)

    def act(self, agent: Agent, st: np.ndarray) -> int:
        """The legal action ``agent`` chooses for the player to move (RotationError otherwise)."""
        player = int(to_move(st))
        encode_observation(st, player, self.rp, self.obs)
        core.write_legal_mask(core.legal_actions_mask(st, self.rp), core.legal_block(st, self.rp), self.mask)
        try:
            a = agent.act({"observation": self.obs.copy(), "action_mask": self.mask.copy()})
        except Exception as e:
            raise RotationError(f"agent {getattr(agent, 'name', agent)!r} in seat {player} failed: "
                                f"{type(e).__name__}: {e}") from e
        if not isinstance(a, (int, np.integer)) or not core.is_legal(st, self.rp, int(a)):
            raise RotationError(f"agent {getattr(agent, 'name', agent)!r} in seat {player} chose {a!r}, "
                                f"which is not a legal action; legal: "
                                f"{core.legal_actions(st, self.rp).tolist()}")
        return int(a)

    def play_round(self, start: np.ndarray, seat_agents: Sequence[Agent]) -> np.ndarray:
        """Play a round from a copy of ``start`` with ``seat_agents[p]`` in seat p; the final state."""
        st = start.copy()
        while phase(st) != core.PHASE_OVER:
            core.apply_action(st, self.act(seat_agents[int(to_move(st))], st), self.rp)
        return st


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
        _reset_agents(seats, seeds)
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
    st = core.new_state(seed_to_rng_state(match_seed(set_seed, index)))
    core.start_episode(st, rp, True, -1)
    view = core.StateView(st, rp)
    current = -1
    while True:
        if view.rounds_done != current:
            current = view.rounds_done
            _reset_agents(seats, [_hash_seed(set_seed, 3, index, current, s) for s in range(n)])
        core.apply_action(st, table.act(seats[int(to_move(st))], st), rp)
        if core.episode_over(st, rp):
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


def _lineup(agent: Any, rules: Rules, copies: int) -> list[Agent]:
    if isinstance(agent, str):
        return [make_agent(agent, rules) for _ in range(copies)]
    if isinstance(agent, Agent) or hasattr(agent, "act"):
        return [agent] * copies
    if callable(agent):
        return [agent() for _ in range(copies)]
    raise TypeError(f"an agent must be a spec string, an Agent or a factory, got {type(agent).__name__}")


def evaluate_rotation(agent_a: Any, agent_b: Any, rules: str | Rules | None = "differenzler",
                      deals: int = 500, seed: int = 0, matches: int = 0, progress: bool = False,
                      label_a: str | None = None, label_b: str | None = None) -> RotationPairResult:
    """Seat-rotation evaluation of A against B (module docstring) on ``deals`` deals of the set
    ``seed`` and ``matches`` games. Agents: spec strings, factories or instances."""
    rules = make_rules(rules)
    if rules.spec.team_mode != "none":
        raise ValueError(f"seat rotation is for games where everyone plays alone; {rules.game} has teams "
                         f"(use the duplicate evaluation)")
    if deals < 2 or matches < 0 or seed < 0:
        raise ValueError(f"need deals >= 2, matches >= 0, seed >= 0; got {deals}, {matches}, {seed}")
    n = rules.spec.players
    la = label_a or (agent_a if isinstance(agent_a, str) else getattr(agent_a, "name", "A"))
    lb = label_b or (agent_b if isinstance(agent_b, str) else getattr(agent_b, "name", "B"))
    t0 = time.monotonic()
    lineup = _lineup(agent_a, rules, 1) + _lineup(agent_b, rules, n - 1)
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
    out.summary = summarize(out, rules, seed, deal_set_hash(deal_set, rules), time.monotonic() - t0,
                            [agent_description(a) for a in (lineup[0], lineup[-1])])
    return out


def higher_is_better(rules: Rules) -> bool:
    """Whether a higher round score is better (Mittlere, Sidi) or a lower one (Differenzler, Molotow)."""
    return statistic(rules).higher_is_better


def _ci(values: Sequence[float]) -> dict[str, Any]:
    ci = stats.mean_ci(values)
    return {"mean": ci.mean, "ci95": [ci.low, ci.high], "std": ci.std}


def summarize(res: RotationPairResult, rules: Rules, seed: int, set_hash: str, elapsed: float,
              descriptions: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON-ready summary of one rotation evaluation."""
    n = rules.spec.players
    diffs = [r.diff for r in res.deals]
    higher = higher_is_better(rules)
    sign = stats.sign_test(diffs if higher else [-d for d in diffs])   # a deal where A did better
    differenzler = rules.spec.kind == KIND_DIFFERENZLER
    exact = sum(row[k] < 0 for r in res.deals for k, row in enumerate(r.penalties))
    g = len(res.games)
    won = sum(x.a_won for x in res.games)
    return {
        "mode": "rotation",
        "agents": {"A": res.agent_a, "B": res.agent_b},
        "agent_descriptions": {"A": descriptions[0], "B": descriptions[1]},
        "rules": {"preset": rules.name, "overrides": rules.overrides()},
        "players": n,
        "score_name": "penalty" if differenzler else "score",
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
        "exact_hits_A": exact / (n * len(res.deals)) if differenzler else None,
        "games": g,
        "game_rounds": rules.match_rounds,
        "game_win_rate_A": won / g if g else None,
        "game_win_ci95_A": list(stats.wilson_interval(won, g)) if g else None,
        "game_win_chance_level": 1.0 / n,
        "game_total_penalty_A": (float(np.mean([x.totals[x.a_seat] for x in res.games])) if g else None),
        "elapsed_seconds": elapsed,
    }


def summary_markdown(s: dict[str, Any]) -> str:
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
    head = (f"## {s['agents']['A']} vs {s['agents']['B']} (A in one seat, B in the others)\n\n"
            "| metric | value |\n|---|---|\n")
    return head + "\n".join(f"| {k} | {v} |" for k, v in rows) + "\n"


def write_outputs(out: Path, res: RotationPairResult) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "deals.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in res.deals:
            for k, row in enumerate(r.penalties):
                w.writerow({"deal": r.deal, "seed": r.seed, "dealer": r.dealer, "rotation": k, "a_seat": k,
                            "penalty_A": row[k],
                            "penalty_B_mean": float(np.mean([x for s, x in enumerate(row) if s != k])),
                            "penalties": " ".join(map(str, row))})
    (out / "summary.json").write_text(json.dumps(res.summary, indent=2) + "\n")
    (out / "summary.md").write_text("# Seat-rotation evaluation\n\n" + summary_markdown(res.summary))


def summary_line(s: dict[str, Any]) -> str:
    d = s["difference_A_minus_B"]
    line = (f"{s['agents']['A']} vs {s['agents']['B']}: {s.get('score_name', 'penalty')} per round "
            f"A {s['penalty_A']['mean']:.2f}, "
            f"B {s['penalty_B']['mean']:.2f}, A − B {d['mean']:+.2f} "
            f"[{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] "
            f"over {s['deals']} deals x {s['plays_per_deal']} rotations")
    if s["games"]:
        line += (f"; A's game win rate {s['game_win_rate_A']:.3f} [{s['game_win_ci95_A'][0]:.3f}, "
                 f"{s['game_win_ci95_A'][1]:.3f}] (chance {s['game_win_chance_level']:.3f})")
    return line


__all__ = ["evaluate_rotation", "play_rotations", "play_game", "make_rotation_deal", "rotation_seats",
           "Table", "RotationError", "RotationResult", "GameResult", "write_outputs", "summary_line"]
