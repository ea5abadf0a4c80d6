"""What the trainer logs to TensorBoard, every scalar at step = env decisions so far:

* per iteration: ``losses/<part>`` (the means over its minibatches, and the explained variance
  of the value targets), ``charts/*`` (learning rate, decisions per second, trained decisions,
  snapshots in use), ``train/score_diff_vs_<kind>`` (the learner's margin in the episodes that
  ended, per opponent kind), ``time/<category>_s`` and ``_share`` (:mod:`agents.training.timing`);
* per evaluation: ``eval/<figure>_vs_<bot>``, ``time/eval_s``, ``time/elapsed_s`` (training time
  so far, earlier processes of a resumed run included).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from .checkpoint import Counters
from .config import OPPONENT_KINDS
from .ppo import Batch
from .results import Evaluation
from .timing import OUTSIDE_ITERATIONS

#: TensorBoard names of the evaluation's interval keys (eval/<name>_vs_<bot>)
EVAL_TAGS = {"ci_low": "ci95_low", "ci_high": "ci95_high"}


def explained_variance(returns: torch.Tensor, values: torch.Tensor) -> float:
    """1 - Var(returns - values) / Var(returns) over the batch's (M,) rows; NaN when the returns
    do not vary."""
    y, p = returns.cpu().numpy(), values.cpu().numpy()
    var_y = float(np.var(y))
    return math.nan if var_y == 0 else 1 - float(np.var(y - p)) / var_y


def log_iteration(writer: Any, run: Counters, losses: dict[str, float], batch: Batch, lr: float,
                  decisions: int, wall_s: float, margins: dict[int, list[float]],
                  spent: dict[str, float]) -> None:
    """The scalars of the iteration just done: ``losses`` (name -> mean over its minibatches),
    the trained ``batch``, the learning rate ``lr``, ``decisions`` played in ``wall_s`` seconds,
    the learner's ``margins`` per opponent kind, ``spent`` seconds per timer category."""
    step = run.env_decisions
    for name, value in losses.items():
        writer.add_scalar(f"losses/{name}", value, step)
    writer.add_scalar("losses/explained_variance", explained_variance(batch.ret, batch.val), step)
    writer.add_scalar("charts/learning_rate", lr, step)
    writer.add_scalar("charts/decisions_per_s", decisions / wall_s, step)
    writer.add_scalar("charts/trained_decisions_per_s", batch.size / wall_s, step)
    writer.add_scalar("charts/trained_decisions", run.trained_decisions, step)
    writer.add_scalar("charts/snapshots", run.snap_filled, step)
    for kind, values in margins.items():
        writer.add_scalar(f"train/score_diff_vs_{OPPONENT_KINDS[kind]}", float(np.mean(values)), step)
    for category, seconds in spent.items():
        if category in OUTSIDE_ITERATIONS:       # logged where they happen
            continue
        writer.add_scalar(f"time/{category}_s", seconds, step)
        writer.add_scalar(f"time/{category}_share", seconds / wall_s, step)


def log_evaluation(writer: Any, res: Evaluation, step: int, eval_s: float, elapsed_s: float) -> None:
    """Every figure of an evaluation as ``eval/<figure>_vs_<bot>``, the seconds it took and the
    training time so far, at ``step`` (env decisions)."""
    for bot, r in res.items():
        for key, value in r.items():
            if key != "deals":
                writer.add_scalar(f"eval/{EVAL_TAGS.get(key, key)}_vs_{bot}", value, step)
    writer.add_scalar("time/eval_s", eval_s, step)
    writer.add_scalar("time/elapsed_s", elapsed_s, step)
