"""End-to-end training speed (collection + PPO update) per config, and where the wall time goes.

    python benchmarks/train_speed.py [--iterations 3] [--configs default quickstart ...] [--threads 1 2]

Each config runs as ``python train.py --config configs/<config>.yaml`` does, for ``--iterations``
PPO iterations after one warm-up iteration (numba compilation or cache loading, allocator), with
its own num_envs, rollout_steps, networks and opponent mix, and evaluation, progress and the
behaviour-cloning warm start off. The timings are the run's own, read back from its TensorBoard
events (:func:`agents.training.timing.iteration_times`; the warm-up iteration left out). Reported
per config: decisions per second (env decisions, all seats), trained decisions per second, and
the share of the iterations' wall time spent in the environment, the heuristic bots, network
inference during the rollout, the update, and the rest (copies, GAE, logging). ``--threads``
repeats default.yaml with other torch thread counts. gpu.yaml runs only where CUDA is available.
The last line is JSON: {"decisions_per_s", "env_share", "per_config"} for default.yaml.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.training.config import load_config  # noqa: E402
from agents.training.timing import iteration_times  # noqa: E402

#: iterations run before the measured ones and left out of the figures
WARM_UP_ITERATIONS = 1


def measure(config: str, iterations: int, extra: list[str]) -> dict[str, float]:
    """Run ``iterations`` iterations of ``configs/<config>.yaml`` (after a warm-up iteration)."""
    path = ROOT / "configs" / f"{config}.yaml"
    options = ["eval_every=0", "eval_opponents=[]", "progress=false", "checkpoint_every=1000000",
               "bc_decisions=0", "final_eval_deals=0", *extra]
    cfg = load_config(path, options)
    total = (WARM_UP_ITERATIONS + iterations) * cfg.batch_decisions
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        subprocess.run([sys.executable, str(ROOT / "train.py"), "--config", str(path), f"run_dir={run}",
                        f"total_decisions={total}", *options], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        measured = iteration_times(run)[WARM_UP_ITERATIONS:]
    wall = sum(it.wall_s for it in measured)
    decisions = sum(it.decisions for it in measured)
    seconds: dict[str, float] = {}
    for it in measured:
        for k, v in it.seconds.items():
            seconds[k] = seconds.get(k, 0.0) + v
    shares = {f"{k}_share": round(v / wall, 4) for k, v in seconds.items()}
    return {"decisions_per_s": round(decisions / wall, 1),
            "trained_decisions_per_s": round(sum(it.trained_decisions for it in measured) / wall, 1),
            "iterations": len(measured), "decisions": decisions, "wall_s": round(wall, 2),
            "torch_threads": cfg.torch_threads, **shares}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=3, help="measured iterations per config")
    ap.add_argument("--configs", nargs="+", default=["smoke", "quickstart", "default", "gpu"])
    ap.add_argument("--threads", type=int, nargs="*", default=[],
                    help="extra torch thread counts for default.yaml")
    args = ap.parse_args()
    per: dict[str, dict[str, float]] = {}
    for name in args.configs:
        if name == "gpu" and not torch.cuda.is_available():
            print("gpu: skipped (no CUDA device)")
            continue
        r = measure(name, args.iterations, [])
        per[name] = r
        print(f"{name}: {r}", flush=True)
    for th in args.threads:
        r = measure("default", args.iterations, [f"torch_threads={th}"])
        per[f"default@threads={th}"] = r
        print(f"default@threads={th}: {r}", flush=True)
    d = per.get("default") or next(iter(per.values()))
    print(json.dumps({"decisions_per_s": d["decisions_per_s"], "env_share": d.get("env_share", 0.0),
                      "per_config": per}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
