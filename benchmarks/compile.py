"""Cold-cache compile cost: seconds from an empty compile cache to the first step of each game's
environments.

For one spec of every game (or those given), a fresh process with an empty ``NUMBA_CACHE_DIR``
builds the game's AEC env (``jass_env.env(game=...)``), resets it and takes one step; another
fresh process does the same with the batched env (``VectorJassEnv(16, rules)``: reset and one
step). Each process reports its wall time and its CPU time (user + system, children included);
then the same step in a process with the cache now warm. The engine compiles each game on its own,
so these are what a user waits the first time a game is played.

    python benchmarks/compile.py [--games schieber molotow ...]

The last line printed is a JSON object of the headline figures (seconds per game and env).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

#: one spec of each game, the first of its registry entry
DEFAULT_SPECS = ("schieber", "differenzler", "coiffeur", "mittlere", "molotow", "sidi")

_AEC = """
import numpy as np, jass_env
e = jass_env.env(game={spec!r})
e.reset(seed=0)
e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
"""
_VECTOR = """
import jass_env
v = jass_env.VectorJassEnv(16, {spec!r})
v.reset(seed=0)
v.step(v.sample_actions())
"""


def timed(code: str, cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``code`` in a fresh Python process with the compile cache
    ``cache``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache},
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=list(DEFAULT_SPECS), help="game specs to measure")
    args = ap.parse_args()
    results: dict[str, dict[str, float]] = {}
    print(f"{'spec':<14}{'env':<8}{'cold wall s':>12}{'cold CPU s':>12}{'warm wall s':>12}")
    for spec in args.games:
        for name, template in (("aec", _AEC), ("vector", _VECTOR)):
            with tempfile.TemporaryDirectory() as cache:
                code = template.format(spec=spec)
                wall, cpu = timed(code, cache)
                warm, _ = timed(code, cache)
            results[f"{spec}/{name}"] = {"cold_wall_s": round(wall, 1), "cold_cpu_s": round(cpu, 1),
                                         "warm_wall_s": round(warm, 2)}
            print(f"{spec:<14}{name:<8}{wall:>12.1f}{cpu:>12.1f}{warm:>12.2f}", flush=True)
    worst = max(r["cold_wall_s"] for k, r in results.items() if k.endswith("/aec"))
    print(json.dumps({"cold_first_step_aec_max_wall_s": worst, "by_spec": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
