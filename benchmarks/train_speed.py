"""End-to-end training speed (collection + PPO update) per config, and where the wall time goes.

    python benchmarks/train_speed.py [--iterations 3] [--configs default quickstart ...] [--threads 1 2]

Each config runs ``--iterations`` PPO iterations (its own num_envs, rollout_steps, networks and
opponent mix; evaluation, progress and the behaviour-cloning warm start off) after a
one-iteration warm-up of the same config (numba compilation, allocator). Reported per config:
decisions per second (env decisions, all seats), trained decisions per second, and the share of
wall time spent in the environment, the heuristic bots, network inference during the rollout,
the update, and the rest (copies, GAE, logging). ``--threads`` repeats default.yaml with other
torch thread counts. gpu.yaml runs only where CUDA is available. The last line is JSON:
{"decisions_per_s", "env_share", "per_config"} for default.yaml.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import train  # noqa: E402
from agents.ppo import load_config  # noqa: E402


def measure(config: str, iterations: int, extra: list[str]) -> dict[str, float]:
    """Run ``iterations`` iterations of ``configs/<config>.yaml`` (after a warm-up iteration)."""
    path = ROOT / "configs" / f"{config}.yaml"
    base = load_config(path)
    common = ["eval_every=0", "eval_opponents=[]", "progress=false", "checkpoint_every=1000000",
              "bc_decisions=0", *extra]
    with tempfile.TemporaryDirectory() as tmp:
        warm = load_config(path, [*common, f"total_decisions={base.batch_decisions}", f"run_dir={tmp}/warm"])
        train.train(warm)
        cfg = load_config(path, [*common, f"total_decisions={iterations * base.batch_decisions}",
                                 f"run_dir={tmp}/run"])
        t0 = time.perf_counter()
        s = train.train(cfg)
        wall = time.perf_counter() - t0
    shares = {f"{k}_share": round(v / wall, 4) for k, v in s["time_s"].items()}
    return {"decisions_per_s": round(s["env_decisions"] / wall, 1),
            "trained_decisions_per_s": round(s["trained_decisions"] / wall, 1),
            "iterations": iterations, "decisions": s["env_decisions"], "wall_s": round(wall, 2),
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
