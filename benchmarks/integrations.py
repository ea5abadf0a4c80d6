"""Training throughput of the RL-library integrations on this machine (one torch thread).

    python benchmarks/integrations.py [--seconds 20] [--no-ours]

Each library trains its example (``examples/``) for about ``--seconds`` of wall time after a short
warm-up (numba compilation, first allocations), with torch limited to one thread, and reports
steps per second *while training* (collection and updates together):

* ``sb3_steps_per_s``: Stable-Baselines3 / sb3-contrib ``MaskablePPO`` (examples/sb3_maskable_ppo.py,
  8 envs x 128 steps, opponents random, partner a frozen copy of the learner). A step is one
  decision of the learning seat (what SB3 counts); the other three seats' decisions happen inside
  the environment and are reported as ``decisions_per_s``.
* ``tianshou_steps_per_s``: Tianshou ``MultiAgentOnPolicyAlgorithm`` with four PPO learners that
  share one network (examples/tianshou_ppo.py, 16 envs, 1024 steps per update). A step is one
  decision of any seat, all of them trained.
* ``rllib_steps_per_s``: RLlib (examples/rllib_ppo.py); null when RLlib is not available.
* ``ours_decisions_per_s`` (optional): the project's own trainer (train.py, configs/quickstart.yaml
  via benchmarks/train_speed.py), decisions of all seats per second; null when unavailable.

A measurement function returns a dict with at least ``steps_per_s``, or None when its library is
not installed. The last line of the output is one JSON object with the numbers above.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch is imported
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Measurement = dict[str, Any]


def _installed(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


# Stable-Baselines3
def sb3_steps_per_s(seconds: float = 20.0, seed: int = 0) -> Measurement | None:
    """MaskablePPO learner steps per second over about ``seconds`` of training (after one rollout of
    warm-up); None without stable-baselines3 / sb3-contrib."""
    if not _installed("stable_baselines3", "sb3_contrib"):
        return None
    from examples.sb3_maskable_ppo import build_model

    model, callback = build_model("random", "self", seed=seed)  # the example's defaults
    rollout = model.n_envs * model.n_steps
    counter = _StepCounter(model)
    model.learn(total_timesteps=rollout, callback=callback)  # warm-up
    decisions0 = counter.count
    steps0 = model.num_timesteps
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        model.learn(total_timesteps=rollout, callback=callback, reset_num_timesteps=False)
    wall = time.perf_counter() - t0
    steps = model.num_timesteps - steps0
    decisions = counter.count - decisions0
    return {"steps_per_s": round(steps / wall, 1), "decisions_per_s": round(decisions / wall, 1),
            "steps": steps, "wall_s": round(wall, 2),
            "config": f"{model.n_envs} envs x {model.n_steps} steps, opponents random, partner frozen copy, "
                      "MlpPolicy [256, 256]"}


class _StepCounter:
    """Counts the decisions of all four seats in SB3's Jass envs by wrapping each AEC env's ``step``."""

    def __init__(self, model: Any) -> None:
        self.count = 0
        for monitor in model.get_env().envs:
            aec = monitor.unwrapped.aec
            aec.step = self._counting(aec.step)

    def _counting(self, step: Callable[[int], None]) -> Callable[[int], None]:
        def counted(action: int) -> None:
            self.count += 1
            step(action)
        return counted


# Tianshou
def tianshou_steps_per_s(seconds: float = 20.0, seed: int = 0) -> Measurement | None:
    """Tianshou multi-agent PPO env steps (decisions of all seats) per second over about
    ``seconds`` of training; None without tianshou."""
    if not _installed("tianshou"):
        return None
    from examples.tianshou_ppo import train

    kw = {"seed": seed, "n_envs": 16, "steps_per_collect": 1024, "batch_size": 256, "repeat": 4}
    warm = train(2048, **kw)  # warm-up, and the rate that sizes the timed run
    rate = warm["env_steps"] / warm["train_s"]
    target = max(2048, int(rate * seconds) // 1024 * 1024)
    out = train(target, **kw)
    return {"steps_per_s": round(out["env_steps"] / out["train_s"], 1), "steps": out["env_steps"],
            "wall_s": round(out["train_s"], 2),
            "config": "16 envs, 1024 steps per update, 4 passes, shared actor/critic [256, 256]"}


# RLlib
def rllib_steps_per_s(seconds: float = 20.0, seed: int = 0) -> Measurement | None:
    """RLlib PPO env steps (decisions of all seats, all trained by the shared module) per second
    over about ``seconds`` of training, sampling and learning in this process (local Ray, 0 env
    runners, 8 games, 2000-step iterations, 4 epochs of 256-step minibatches) after one warm-up
    iteration; None without ray[rllib]."""
    if not _installed("ray", "ray.rllib"):
        return None
    import ray

    from examples.rllib_ppo import build_config, init_ray

    init_ray("local", num_cpus=2)
    algo = build_config(num_env_runners=0, num_envs_per_env_runner=8, train_batch_size=2000,
                        minibatch_size=256, num_epochs=4, seed=seed).build_algo()
    try:
        algo.train()  # warm-up
        steps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            steps += int(algo.train()["env_runners"]["num_env_steps_sampled"])
        wall = time.perf_counter() - t0
    finally:
        algo.stop()
        ray.shutdown()
    return {"steps_per_s": round(steps / wall, 1), "steps": steps, "wall_s": round(wall, 2),
            "config": "local Ray, 0 env runners x 8 games, 2000 steps per iteration, 4 epochs, "
                      "minibatch 256, shared masked module [256, 256]"}




# our trainer
def ours_decisions_per_s(seconds: float = 20.0, seed: int = 0) -> Measurement | None:
    """The project's trainer (configs/quickstart.yaml, one torch thread) via
    benchmarks/train_speed.py; None when train.py or the config is not there."""
    if not (ROOT / "train.py").exists() or not (ROOT / "configs" / "quickstart.yaml").exists():
        return None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from train_speed import measure

    r = measure("quickstart", 1, ["torch_threads=1"])  # sizes the timed run
    iterations = max(1, round(seconds / max(r["wall_s"], 1e-3)))
    if iterations > 1:
        r = measure("quickstart", iterations, ["torch_threads=1"])
    return {"steps_per_s": r["decisions_per_s"], **r,
            "config": f"configs/quickstart.yaml, {r['iterations']} iterations"}


# driver
def _run(name: str, fn: Callable[..., Measurement | None], seconds: float, seed: int) -> float | None:
    """Run one measurement, print its details, return its steps per second (None: not available)."""
    t0 = time.perf_counter()
    try:
        m = fn(seconds, seed)
    except Exception as e:  # one failing library must not hide the others' numbers
        print(f"{name}: failed ({type(e).__name__}: {e})", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return None
    if m is None:
        print(f"{name}: not installed")
        return None
    print(f"{name}: {json.dumps(m)} ({time.perf_counter() - t0:.0f} s with warm-up)", flush=True)
    return float(m["steps_per_s"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="timed training per library (default 20)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-ours", action="store_true", help="skip the project's own trainer")
    args = ap.parse_args(argv)
    if args.seconds <= 0:
        print(f"error: --seconds must be > 0, got {args.seconds}", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    results: dict[str, float | None] = {}
    results["sb3_steps_per_s"] = _run("sb3", sb3_steps_per_s, args.seconds, args.seed)
    results["tianshou_steps_per_s"] = _run("tianshou", tianshou_steps_per_s, args.seconds, args.seed)
    results["rllib_steps_per_s"] = _run("rllib", rllib_steps_per_s, args.seconds, args.seed)
    if not args.no_ours:
        results["ours_decisions_per_s"] = _run("ours", ours_decisions_per_s, args.seconds, args.seed)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
