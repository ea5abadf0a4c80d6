"""Throughput and memory of the batched environment (jass_env.envs.vector), with the AEC env for scale.

    python benchmarks/vector.py [--seconds 2.0] [--rules schieber] [--differenzler differenzler]
                                [--no-parallel]

One *decision* is one action of one game. Each measurement runs ``env.step(env.sample_actions())``
(random legal actions drawn in compiled code; observations, masks, rewards and auto-resets
included) for about ``--seconds`` after a warm-up, at num_envs = 1, 64, 1024, 16384, with
``check_actions`` on and off. The AEC rate is random legal play through ``jass_env.envs.aec.raw_env``
with the observation read by ``env.last()`` each decision.

Memory: ``bytes_per_game`` sums the nbytes of every array the env holds per game
(``VectorJassEnv.per_game_arrays``); it is cross-checked by tracemalloc (bytes allocated by
building and resetting an env, difference between two sizes / difference of num_envs).

A Differenzler row (``--differenzler``, a Differenzler preset; ``""`` skips it) measures the same
loop at 1024 games, checked, for that game (194 actions, per-player rewards).

The single-core numbers run with every thread pool at 1 thread. Unless ``--no-parallel``, the
``parallel=True`` mode is then measured at 1024 and 16384 games with 1 and 2 numba threads.
The last line printed is one JSON object with the results.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"
# numba's pool size (1 thread is used unless --parallel): at most 2 and at most the CPUs this process
# may use (``taskset``); it cannot change once the pool is launched
_USABLE_CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
os.environ.setdefault("NUMBA_NUM_THREADS", str(min(2, _USABLE_CPUS)))

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba  # noqa: E402

from jass_env.envs.vector import VectorJassEnv  # noqa: E402

SIZES = (1, 64, 1024, 16384)
TARGET_DECISIONS = 2_500_000   # per second at num_envs=1024 on one core (Schieber)
TARGET_DIFFERENZLER = 2_000_000  # the same for Differenzler
TARGET_BYTES = 4096            # per game


def decisions_per_s(env: VectorJassEnv, seconds: float) -> tuple[float, float]:
    """Decisions per second of random legal play (time-bounded loop after a short warm-up), by
    wall-clock time and by the process's CPU time (the latter is what one core delivers when other
    programs compete for the cores)."""
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.sample_actions())
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    batch = max(1, 4096 // env.num_envs)      # check the clock every ~4096 decisions
    while True:
        for _ in range(batch):
            env.step(env.sample_actions())
        steps += batch
        now = time.perf_counter()
        if now >= deadline:
            cpu = time.process_time() - cpu_start
            return steps * env.num_envs / (now - start), steps * env.num_envs / max(cpu, 1e-9)


def aec_steps_per_s(rules: str, seconds: float) -> float | None:
    """Decisions per second of random legal play through the AEC ``raw_env``, measured exactly as
    ``benchmarks/env.py`` does (``last()`` every step); None if the AEC env is missing."""
    try:
        from jass_env.envs.aec import raw_env
    except ImportError as exc:
        print(f"AEC env: skipped (jass_env.envs.aec not importable: {exc})")
        return None
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    pool = os.environ["NUMBA_NUM_THREADS"]
    from env import aec_rate  # importing it pins NUMBA_NUM_THREADS=1 for its own runs
    os.environ["NUMBA_NUM_THREADS"] = pool   # numba rereads it when compiling; our pool is launched

    _, per_wall_s = aec_rate(lambda: raw_env(rules=rules), seconds)
    return per_wall_s


def traced_bytes(num_envs: int, rules: str) -> int:
    """Bytes tracemalloc sees allocated (and kept) by building and resetting an env."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    env = VectorJassEnv(num_envs, rules=rules)
    env.reset(seed=0)
    env.step(env.sample_actions())
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del env
    return used


def differenzler_row(rules: str, seconds: float) -> dict[str, object]:
    """Decisions per second (wall and CPU time) of the batched Differenzler env at 1024 games."""
    env = VectorJassEnv(1024, rules=rules)
    env.reset(seed=0)
    env.step(env.sample_actions())                     # compile / load
    rate, cpu_rate = decisions_per_s(env, seconds)
    ok = max(rate, cpu_rate) >= TARGET_DIFFERENZLER
    print(f"{rules}: num_envs=  1024  check_actions=True  {rate:12,.0f} decisions/s   (per CPU second: "
          f"{cpu_rate:12,.0f}); {env.bytes_per_game:.0f} bytes/game; target >= "
          f"{TARGET_DIFFERENZLER:,}: {'met' if ok else 'NOT met'}")
    return {"rules": rules, "decisions_per_s_1024": round(rate), "decisions_per_cpu_s_1024": round(cpu_rate),
            "bytes_per_game": round(env.bytes_per_game), "target_met": ok}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed loop (s)")
    parser.add_argument("--rules", default="schieber", help="rules preset")
    parser.add_argument("--differenzler", default="differenzler",
                        help="Differenzler preset of the Differenzler row ('' skips it)")
    parser.add_argument("--no-parallel", action="store_true", help="skip the parallel=True scaling")
    args = parser.parse_args()

    numba.set_num_threads(1)
    t0 = time.perf_counter()
    VectorJassEnv(2, rules=args.rules).reset(seed=0)
    warm = VectorJassEnv(2, rules=args.rules)
    warm.reset(seed=0)
    warm.step(warm.sample_actions())
    print(f"compile/load: {time.perf_counter() - t0:.1f} s   rules={args.rules}   one core")

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other programs running make the wall-clock rates lower than the CPU-time rates)")
    checked: dict[str, float] = {}
    unchecked: dict[str, float] = {}
    cpu_rates: dict[str, float] = {}
    for n in SIZES:
        for check, table in ((True, checked), (False, unchecked)):
            env = VectorJassEnv(n, rules=args.rules, check_actions=check)
            rate, cpu_rate = decisions_per_s(env, args.seconds)
            table[str(n)] = round(rate)
            if check:
                cpu_rates[str(n)] = round(cpu_rate)
            print(f"num_envs={n:6d}  check_actions={check!s:5}  {rate:12,.0f} decisions/s   "
                  f"(per CPU second: {cpu_rate:12,.0f})")
            del env

    aec = aec_steps_per_s(args.rules, args.seconds)
    if aec is not None:
        print(f"AEC raw_env (env.last() + random legal action):  {aec:12,.0f} decisions/s")

    env = VectorJassEnv(1024, rules=args.rules)
    per_game = env.bytes_per_game
    per_game_state = VectorJassEnv(1024, rules=args.rules, state_obs=True).bytes_per_game
    small, large = 1024, 16384
    traced = (traced_bytes(large, args.rules) - traced_bytes(small, args.rules)) / (large - small)
    print(f"memory: {per_game:.0f} bytes/game held in arrays ({per_game_state:.0f} with state_obs=True); "
          f"tracemalloc slope {traced:.0f} bytes/game between {small} and {large} games")
    ok_speed = max(checked["1024"], cpu_rates["1024"]) >= TARGET_DECISIONS
    ok_mem = max(per_game, traced) <= TARGET_BYTES
    print(f"target >= {TARGET_DECISIONS:,} decisions/s at 1024 games (checked, wall or CPU time): "
          f"{'met' if ok_speed else 'NOT met'}; "
          f"<= {TARGET_BYTES} bytes/game: {'met' if ok_mem else 'NOT met'}")

    result: dict[str, object] = {"decisions_per_s": checked, "decisions_per_s_unchecked": unchecked,
                                 "aec_steps_per_s": None if aec is None else round(aec),
                                 "bytes_per_game": round(per_game),
                                 "bytes_per_game_tracemalloc": round(traced),
                                 "decisions_per_cpu_s": cpu_rates,
                                 "load_average": round(os.getloadavg()[0], 2)}
    if args.differenzler:
        result["differenzler"] = differenzler_row(args.differenzler, args.seconds)
    if not args.no_parallel:
        threads = min(2, numba.config.NUMBA_NUM_THREADS, _USABLE_CPUS)
        scaling: dict[str, dict[str, float]] = {}
        for n in (1024, 16384):
            scaling[str(n)] = {}
            for k in range(1, threads + 1):
                numba.set_num_threads(k)
                rate, _ = decisions_per_s(VectorJassEnv(n, rules=args.rules, parallel=True), args.seconds)
                scaling[str(n)][str(k)] = round(rate)
                print(f"parallel=True num_envs={n:6d} threads={k}  {rate:12,.0f} decisions/s")
        numba.set_num_threads(1)
        result["parallel_decisions_per_s"] = scaling
    print(json.dumps(result))


if __name__ == "__main__":
    main()
