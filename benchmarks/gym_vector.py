"""Benchmark: steps per second of the Gymnasium vector environments of one learning seat.

    python benchmarks/gym_vector.py [--seconds 3] [--envs 1024] [--async-envs 16] [--rules schieber]

One *step* is one decision of the learning seat in one game, with the other seats' moves up to its
next decision (Gymnasium's env step of a sub-environment); a vector step of ``num_envs`` games is
``num_envs`` steps. Measured in the same run, each for about ``--seconds`` after a warm-up:

* ``JassVectorEnv`` (:mod:`jass_env.envs.gym_vector`, ``gymnasium.make_vec(id,
  vectorization_mode="vector_entry_point")``) at ``--envs`` games, the other seats random (the
  engine's generators) and, in a second row, the game's heuristic (``act_batch``, one call per
  round of moves);
* ``SyncVectorEnv`` of ``JassGymEnv`` (``vectorization_mode="sync"``) at ``--envs`` games, the other
  seats random (each env's ``np_random``);
* ``AsyncVectorEnv`` of ``JassGymEnv`` (``vectorization_mode="async"``), one worker process per
  env, at ``--async-envs`` envs (default 16: a process per game does not scale to 1,024 games on a
  few cores; on the 2-core reference machine 16 was the fastest of 2, 16 and 64).

The learning seat's actions are drawn the same way everywhere: a uniformly random legal action
per game from the mask, in one numpy call over the batch (``JassVectorEnv``: ``info["action_mask"]``;
the others: the ``action_mask`` of ``JassGymEnv``'s dict observation, the Gymnasium way to get it
through the vector API). Rates are per wall-clock second (the async workers run in other
processes); the in-process rows also print the rate per CPU second of this process. Every thread
pool runs one thread. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS",
             "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jass_env.envs.aec import env_ids  # noqa: E402
from jass_env.games import make_rules  # noqa: E402

#: vector steps run before the clock starts (compilation, caches, worker start-up)
WARMUP_STEPS = 5


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (n, n_actions), in one numpy call."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def rate(envs: Any, mask_of: Callable[[Any, dict[str, Any]], np.ndarray], seconds: float,
         seed: int = 0) -> tuple[float, float]:
    """(steps per wall second, steps per CPU second of this process) of random legal play of the
    learning seat through a Gymnasium vector env; ``mask_of(obs, info)`` reads the masks."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    for _ in range(WARMUP_STEPS):
        obs, _, _, _, info = envs.step(random_legal(rng, mask_of(obs, info)))
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        obs, _, _, _, info = envs.step(random_legal(rng, mask_of(obs, info)))
        steps += envs.num_envs
        now = time.perf_counter()
        if now - start >= seconds:
            return steps / (now - start), steps / max(time.process_time() - cpu_start, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed loop (s)")
    parser.add_argument("--envs", type=int, default=1024, help="games of JassVectorEnv and SyncVectorEnv")
    parser.add_argument("--async-envs", type=int, default=16,
                        help="envs (worker processes) of AsyncVectorEnv")
    parser.add_argument("--rules", default="schieber", help="rules preset")
    args = parser.parse_args()

    import jass_env.envs.gym  # noqa: F401  (registers the ids)
    from agents.registry import make_agent

    gym_id = env_ids(make_rules(args.rules).spec.name)[1]
    print(f"{gym_id} rules={args.rules}; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; one thread per pool")
    from_info = lambda obs, info: info["action_mask"]        # noqa: E731
    from_obs = lambda obs, info: obs["action_mask"]          # noqa: E731
    rows: dict[str, dict[str, float]] = {}

    def run(name: str, envs: Any, mask_of: Callable[[Any, dict[str, Any]], np.ndarray]) -> None:
        t0 = time.perf_counter()
        try:
            wall, cpu = rate(envs, mask_of, args.seconds)
        finally:
            envs.close()
        rows[name] = {"num_envs": envs.num_envs, "steps_per_s": round(wall), "steps_per_cpu_s": round(cpu)}
        print(f"{name:34s} num_envs={envs.num_envs:5d}  {wall:12,.0f} steps/s   (per CPU second of this "
              f"process: {cpu:12,.0f}; {time.perf_counter() - t0:.1f} s with warm-up)")

    kwargs = {"rules": args.rules}
    run("JassVectorEnv, random others", gymnasium.make_vec(
        gym_id, num_envs=args.envs, vectorization_mode="vector_entry_point", **kwargs), from_info)
    bot = make_agent("heuristic", args.rules)
    run("JassVectorEnv, heuristic others", gymnasium.make_vec(
        gym_id, num_envs=args.envs, vectorization_mode="vector_entry_point", opponents=bot, partner=bot,
        **kwargs), from_info)
    run("SyncVectorEnv(JassGymEnv), random", gymnasium.make_vec(
        gym_id, num_envs=args.envs, vectorization_mode="sync", **kwargs), from_obs)
    run("AsyncVectorEnv(JassGymEnv), random", gymnasium.make_vec(
        gym_id, num_envs=args.async_envs, vectorization_mode="async", **kwargs), from_obs)

    ours = rows["JassVectorEnv, random others"]["steps_per_s"]
    sync = rows["SyncVectorEnv(JassGymEnv), random"]["steps_per_s"]
    asyn = rows["AsyncVectorEnv(JassGymEnv), random"]["steps_per_s"]
    print(f"JassVectorEnv / SyncVectorEnv: {ours / sync:.1f}x; / AsyncVectorEnv: {ours / asyn:.1f}x")
    print(json.dumps({"rules": args.rules, "num_envs": args.envs, "async_num_envs": args.async_envs,
                      "jass_vector_env_steps_per_s": ours,
                      "jass_vector_env_heuristic_steps_per_s":
                          rows["JassVectorEnv, heuristic others"]["steps_per_s"],
                      "sync_vector_env_steps_per_s": sync, "async_vector_env_steps_per_s": asyn,
                      "speedup_vs_sync": round(ours / sync, 1), "speedup_vs_async": round(ours / asyn, 1),
                      "rows": rows, "load_average": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
