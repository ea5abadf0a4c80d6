"""The trainer's evaluations: the periodic one (the greedy policy against ``eval_opponents`` on
the deal set ``eval_seed``, which picks ``best.pt``) and the final one (``latest.pt`` and
``best.pt`` on ``final_eval_deals`` deals of the evaluation tool's set ``final_eval_seed``,
written to ``results.json`` and ``results.md``), with the game's statistic of
:func:`agents.evaluation.protocol.statistic_for` (the game's ``STATISTIC`` fact): points per hand
in Schieber, the game score difference over whole games (duplicate deal sequences) in Coiffeur, the
penalty difference in Differenzler.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jass_env.commands import shown_command
from jass_env.games import DEFAULT_PRESET

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from ..batched import evaluate_vs_bot
from ..curves import plot_strength
from ..evaluation.protocol import PLAYS, protocol_for, statistic_for
from ..files import atomic_write
from ..network import PolicyNet, load_policy
from .agent_specs import check_eval_opponents
from .config import TrainConfig, best_opponent
from .networks import configure_torch
from .run_folder import CHECKPOINTS, checkpoint_path

#: an evaluation: per opponent its figures (the statistic, ``ci_low``, ``ci_high``, ...)
Evaluation = dict[str, dict[str, float]]


@dataclass
class RunSummary:
    """What a call of the trainer did (``main`` prints it)."""

    run_dir: Path
    iterations: int                       #: iterations done, earlier processes included
    total_iterations: int
    env_decisions: int
    results: dict[str, Any] | None        #: the final evaluation (results.json), None without one
    already_finished: bool = False        #: a resumed run that had nothing left to train
    trained_decisions: int = 0
    bc_decisions: int = 0                 #: decisions of the warm start
    wall_s: float = math.nan              #: of this process
    cpu_s: float = math.nan               #: of this process
    eval: Evaluation = field(default_factory=dict)   #: the last periodic evaluation
    statistic: str = ""                   #: the key of the game's statistic in ``eval``

    @property
    def checkpoint(self) -> Path:
        return checkpoint_path(self.run_dir)


def finished_run(cfg: TrainConfig, ckpt: dict[str, Any]) -> RunSummary:
    """Resume a run whose checkpoint ``ckpt`` has all its iterations (perhaps killed after its last
    checkpoint, before the final outputs): train nothing, write only the missing final outputs (once
    the eval opponents they need are checked)."""
    device = configure_torch(cfg)
    run_dir = Path(cfg.run_dir)
    if cfg.final_eval_deals and not _results_written(run_dir):
        check_eval_opponents(cfg, resumed=True)
    return RunSummary(run_dir, int(ckpt["trainer"]["iteration"]), cfg.iterations,
                      int(ckpt["trainer"]["env_decisions"]), final_outputs(cfg, run_dir, device),
                      already_finished=True)


def evaluate_policy(cfg: TrainConfig, policy: PolicyNet, device: torch.device) -> Evaluation:
    """The periodic evaluation: the greedy policy against every eval opponent on ``eval_deals``
    deals of the set ``eval_seed`` (the evaluation tool's protocol, :mod:`agents.batched`)."""
    return {bot: evaluate_vs_bot(policy, bot, cfg.rules, cfg.eval_deals, cfg.eval_seed, device)
            for bot in cfg.eval_opponents}


def is_new_best(cfg: TrainConfig, res: Evaluation, best: float | None) -> bool:
    """Whether ``res`` beats ``best`` against the opponent that picks ``best.pt``."""
    key = best_opponent(cfg.eval_opponents)
    if key is None:
        return False
    stat = statistic_for(cfg.rules)
    value = res[key][stat.key]
    return best is None or (value > best if stat.higher_is_better else value < best)


def final_results(cfg: TrainConfig, run_dir: Path, device: torch.device) -> dict[str, Any]:
    """Evaluate ``latest.pt`` and (if it is another iteration) ``best.pt`` of ``run_dir`` against
    every eval opponent on ``final_eval_deals`` deals of the set ``final_eval_seed``; write
    ``results.json`` and ``results.md`` (the table) into ``run_dir``; return the JSON dict."""
    rows = []
    seen: set[int] = set()
    for name in CHECKPOINTS:
        path = checkpoint_path(run_dir, name)
        if not path.exists():
            continue
        net, ckpt = load_policy(path)
        decisions = int(ckpt.get("trainer", {}).get("env_decisions", -1))
        if decisions in seen:
            continue
        seen.add(decisions)
        row: dict[str, Any] = {"checkpoint": str(path), "env_decisions": decisions}
        for bot in cfg.eval_opponents:
            row[bot] = evaluate_vs_bot(net, bot, cfg.rules, cfg.final_eval_deals, cfg.final_eval_seed,
                                       device)
        rows.append(row)
    out = {"rules": cfg.rules, "deals": cfg.final_eval_deals, "deal_set_seed": cfg.final_eval_seed,
           "opponents": list(cfg.eval_opponents), "best_by": best_opponent(cfg.eval_opponents),
           "rows": rows}
    atomic_write(run_dir / "results.json", lambda f: f.write((json.dumps(out, indent=2) + "\n").encode()))
    atomic_write(run_dir / "results.md", lambda f: f.write((results_table(out) + "\n").encode()))
    return out


def _results_written(run_dir: Path) -> bool:
    """Whether the final evaluation's ``results.json`` and ``results.md`` are in ``run_dir``."""
    return (run_dir / "results.json").exists() and (run_dir / "results.md").exists()


def final_outputs(cfg: TrainConfig, run_dir: Path, device: torch.device) -> dict[str, Any] | None:
    """The end of a run: ``results.json``/``results.md`` (:func:`final_results`, if
    ``final_eval_deals``) and ``strength.png`` (if ``eval_opponents``), each written unless it
    exists (a resumed run killed after its last checkpoint writes only what is missing). Returns
    the results dict, or None without a final evaluation."""
    results = None
    if cfg.final_eval_deals:
        if _results_written(run_dir):
            results = json.loads((run_dir / "results.json").read_text())
        else:
            results = final_results(cfg, run_dir, device)
    if cfg.eval_opponents and not (run_dir / "strength.png").exists():
        plot_strength(run_dir, run_dir / "strength.png", f"{cfg.name}: strength during training")
    return results


def results_table(res: dict[str, Any]) -> str:
    """The final evaluation as a Markdown table (the game's statistic with its 95 % interval)."""
    bots = res["opponents"]
    stat = statistic_for(res["rules"])
    protocol = PLAYS[protocol_for(res["rules"])]
    rules_flag = "" if res["rules"] == DEFAULT_PRESET else f" --rules {res['rules']}"
    lines = [f"{stat.text[0].upper()}{stat.text[1:]} of the policy (greedy) on {res['deals']:,} {protocol}, "
             f"rules {res['rules']}, deal set {res['deal_set_seed']} (95% intervals); against the heuristic "
             f"this equals `{shown_command()} -m agents.evaluate CHECKPOINT heuristic{rules_flag} --deals "
             f"{res['deals']} --seed {res['deal_set_seed']}`.",
             "",
             f"`latest.pt` is the policy at the end of training; `best.pt` the one that scored best "
             f"against the {res.get('best_by') or 'heuristic'} in the periodic evaluations (another, "
             "smaller deal set), measured again here; one row when they are the same checkpoint.",
             "",
             "| checkpoint | PPO decisions | " + " | ".join(f"vs {b}" for b in bots) + " |",
             "|---|---:|" + "---:|" * len(bots)]
    for row in res["rows"]:
        cells = [f"{row[b][stat.key]:+.1f} [{row[b]['ci_low']:+.1f}, {row[b]['ci_high']:+.1f}]"
                 for b in bots]
        lines.append(f"| {row['checkpoint']} | {row['env_decisions']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
