"""Do the Stable-Baselines3 and Tianshou examples learn? Train each with a fixed budget, then play
the greedy learner against the random bot on duplicate deals.

    python benchmarks/integrations_learn.py [--only sb3|tianshou] [--deals 1000] [--eval-seed 0]

The budgets (:data:`SB3_BUDGET`, :data:`TIANSHOU_BUDGET`: steps, seed and hyperparameters) are
fixed here and passed to the examples' own functions (``examples/sb3_maskable_ppo.py``:
``build_model`` and ``evaluate``; ``examples/tianshou_ppo.py``: ``train`` and ``evaluate``), with
torch at one thread. ``--sb3-timesteps`` / ``--tianshou-timesteps`` replace the step budgets (for
a quick look; the output then says the budget is not the stated one).

* SB3 (``MaskablePPO``): one learning seat, the two opponents the random bot, the partner a frozen
  copy of the learner; a step is one decision of the learning seat.
* Tianshou (multi-agent PPO, one network shared by the four seats): ``random_opponents`` 1.0, so in
  every training round the random bot plays one team (which one is drawn per round) and the
  network learns in the other team's two seats; a step is one decision of a learning seat.

After training, the greedy learner plays both seats of its team against ``random`` with
:func:`agents.evaluation.duplicate.evaluate_pair` (duplicate deals of the set ``--eval-seed``). For each
library the script prints points per hand with its 95 % interval, the steps trained, the wall and
CPU seconds of training and of the evaluation; the last line is one JSON object with those figures
(``null`` for a library that is not installed). The target: at least
:data:`TARGET_POINTS_PER_HAND` points per hand against ``random`` on 1,000 deals.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch is imported
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_POINTS_PER_HAND = 40.0
OPPONENT = "random"

# learner decisions; build_model's keywords (n_steps is per env: 8 x 512 = 4,096 steps per rollout)
SB3_BUDGET: dict[str, Any] = {
    "timesteps": 3_000_000, "seed": 0, "opponents": "random", "partner": "self", "reward": "tricks",
    "n_envs": 8, "n_steps": 512, "batch_size": 1024, "n_epochs": 4, "learning_rate": 1e-3,
    "lr_schedule": "linear", "hidden": (256, 256), "ent_coef": 0.01,
}
# decisions of the learning seats (the random bot's are not counted); train's keywords
TIANSHOU_BUDGET: dict[str, Any] = {
    "timesteps": 6_000_000, "seed": 0, "reward": "tricks", "n_envs": 16, "steps_per_collect": 4096,
    "batch_size": 512, "repeat": 4, "hidden": (256, 256), "lr": 1e-3, "lr_schedule": "linear",
    "random_opponents": 1.0,
}

Result = dict[str, Any]


class _Clock:
    """Wall and CPU seconds (this process) since creation."""

    def __init__(self) -> None:
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()

    def read(self) -> tuple[float, float]:
        return round(time.perf_counter() - self.wall0, 1), round(time.process_time() - self.cpu0, 1)


def learn_sb3(budget: dict[str, Any], deals: int, eval_seed: int) -> Result:
    """Train MaskablePPO with ``budget`` (examples/sb3_maskable_ppo.py), evaluate against ``random``."""
    from examples.sb3_maskable_ppo import build_model, evaluate

    kw = dict(budget)
    timesteps = kw.pop("timesteps")
    opponents, partner = kw.pop("opponents"), kw.pop("partner")
    model, callback = build_model(opponents, partner, **kw)
    clock = _Clock()
    model.learn(total_timesteps=timesteps, callback=callback)
    train_s = clock.read()
    clock = _Clock()
    ev = evaluate(model, [OPPONENT], deals=deals, seed=eval_seed)[OPPONENT]
    return {**ev, "steps": int(model.num_timesteps), "train": train_s, "eval": clock.read()}


def learn_tianshou(budget: dict[str, Any], deals: int, eval_seed: int) -> Result:
    """Train the four-seat PPO with ``budget`` (examples/tianshou_ppo.py), evaluate against ``random``."""
    from examples.tianshou_ppo import evaluate, train

    kw = dict(budget)
    timesteps = kw.pop("timesteps")
    clock = _Clock()
    out = train(timesteps, **kw)
    train_s = clock.read()
    clock = _Clock()
    ev = evaluate(out["actor"], [OPPONENT], deals=deals, seed=eval_seed)[OPPONENT]
    return {**ev, "steps": out["env_steps"], "train": train_s, "eval": clock.read()}


def _run(name: str, fn: Callable[..., Result], budget: dict[str, Any], stated: bool, deals: int,
         eval_seed: int) -> Result | None:
    """One library's run, printed; None when the library is not installed."""
    try:
        r = fn(budget, deals, eval_seed)
    except ImportError as e:  # the examples name the missing library and its install command
        print(f"{name}: not installed ({e})", flush=True)
        return None
    lo, hi = r["ci95"]
    (train_wall, train_cpu), (eval_wall, _) = r["train"], r["eval"]
    print(f"{name}: {r['points_per_hand']:+.1f} points per hand vs {OPPONENT} [{lo:+.1f}, {hi:+.1f}] "
          f"on {deals} duplicate deals (set {eval_seed}); {r['steps']:,} steps in {train_wall:.0f} s "
          f"({train_cpu:.0f} s CPU), evaluation {eval_wall:.0f} s; budget "
          f"{'as stated' if stated else 'NOT the stated one'}: {json.dumps(budget)}", flush=True)
    return {"points_per_hand": round(r["points_per_hand"], 2), "ci95": [round(lo, 2), round(hi, 2)],
            "round_win_rate": r["round_win_rate"], "steps": r["steps"], "train_s": train_wall,
            "train_cpu_s": train_cpu, "eval_s": eval_wall, "stated_budget": stated,
            "target_met": bool(stated and deals >= 1000 and r["points_per_hand"] >= TARGET_POINTS_PER_HAND)}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("sb3", "tianshou"), default=None, help="run one library only")
    ap.add_argument("--deals", type=int, default=1000, help="duplicate deals against random (default 1000)")
    ap.add_argument("--eval-seed", type=int, default=0, help="deal set of the evaluation (default 0)")
    ap.add_argument("--sb3-timesteps", type=int, default=None,
                    help=f"replace the SB3 budget's learner steps ({SB3_BUDGET['timesteps']:,})")
    ap.add_argument("--tianshou-timesteps", type=int, default=None,
                    help=f"replace the Tianshou budget's env steps ({TIANSHOU_BUDGET['timesteps']:,})")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.deals < 2 or args.eval_seed < 0:
        print(f"error: need --deals >= 2 (an interval needs two deals) and --eval-seed >= 0; "
              f"got {args.deals}, {args.eval_seed}", file=sys.stderr)
        return 2
    for flag, value in (("--sb3-timesteps", args.sb3_timesteps),
                        ("--tianshou-timesteps", args.tianshou_timesteps)):
        if value is not None and value < 1:
            print(f"error: {flag} must be >= 1, got {value}", file=sys.stderr)
            return 2
    torch.set_num_threads(1)
    runs = {"sb3": (learn_sb3, SB3_BUDGET, args.sb3_timesteps),
            "tianshou": (learn_tianshou, TIANSHOU_BUDGET, args.tianshou_timesteps)}
    results: dict[str, Result | None] = {}
    for name, (fn, budget, timesteps) in runs.items():
        if args.only not in (None, name):
            continue
        stated = timesteps is None or timesteps == budget["timesteps"]
        results[name] = _run(name, fn, {**budget, "timesteps": timesteps or budget["timesteps"]}, stated,
                             args.deals, args.eval_seed)
    print(json.dumps({"opponent": OPPONENT, "deals": args.deals, "eval_seed": args.eval_seed,
                      "target_points_per_hand": TARGET_POINTS_PER_HAND, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
