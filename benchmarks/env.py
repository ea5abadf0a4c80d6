"""Benchmark: AEC steps per second of jass_v0 and of other card-game environments, one thread.

Each measurement drives an environment through the AEC API for about ``--seconds`` (default 3)
seconds: every step calls ``env.last()`` (so the observation and action mask are built), draws a
uniformly random legal action from the mask with a seeded ``numpy`` Generator, and calls
``env.step``; dead steps (``step(None)`` after termination) and ``reset()`` are done as needed but
only live steps are counted. The rate is steps per CPU second of this process
(``time.process_time``; one thread, so on an idle core this equals wall time, and on a shared
machine it is not distorted by other processes); the wall rate is printed too.

Measured, when they install here (a missing one is skipped with the reason):

* ``jass_v0`` through ``raw_env`` and through ``env()`` (PettingZoo's wrappers), and the same for
  Differenzler (``--differenzler``, a Differenzler preset, default ``differenzler``; ``""`` skips);
* PettingZoo classic card games ``leduc_holdem_v4``, ``texas_holdem_v4`` (need ``rlcard`` and
  ``pygame``: ``pip install 'pettingzoo[classic]'``) and ``hanabi_v5`` (PettingZoo 1.27 runs it
  on OpenSpiel through ``shimmy``: ``pip install shimmy open_spiel``), raw and wrapped likewise;
* OpenSpiel's ``hearts`` (``pip install open_spiel``) through ``pyspiel`` with its information
  state tensor (hearts provides no observation tensor) and legal actions each decision; chance
  nodes (dealing, pass direction) are sampled but not counted. It has no PettingZoo wrapper, so it
  reports the same number in both columns.

Run: ``python benchmarks/env.py [--seconds 3]``. Prints a table, then ONE JSON line
``{"raw_env_steps_per_s": ..., "env_steps_per_s": ..., "differenzler": {"raw_env_steps_per_s": ...,
"env_steps_per_s": ...}, "peers": {name: {...}}}``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

U_SIZE = 1 << 16


def aec_rate(make: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[float, float]:
    """(steps per CPU second, steps per wall second) of random legal play through the AEC API."""
    e = make()
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    u = rng.random(U_SIZE)                       # uniform draws, refilled from the same Generator
    k = 0
    steps = 0
    # warm-up (compilation, caches), not counted
    deadline = time.perf_counter() + min(0.5, seconds / 4)
    while time.perf_counter() < deadline:
        for _ in range(200):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                if not e.agents:
                    e.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(u[k & (U_SIZE - 1)] * len(legal))]))
            k += 1
    u = rng.random(U_SIZE)                       # fresh draws for the timed part
    k = 0
    c0, w0 = time.process_time(), time.perf_counter()
    end = w0 + seconds
    while True:
        for _ in range(1000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                if not e.agents:
                    e.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(u[k] * len(legal))]))
            k += 1
            if k == U_SIZE:
                u = rng.random(U_SIZE)
                k = 0
            steps += 1
        if time.perf_counter() >= end:
            break
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    e.close()
    return steps / cpu, steps / wall


def openspiel_rate(game_name: str, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Random play of an OpenSpiel game: information state tensor + legal actions per decision."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    steps = 0
    c0, w0 = time.process_time(), time.perf_counter()
    end = w0 + seconds
    while True:
        for _ in range(500):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        if time.perf_counter() >= end:
            break
    return steps / (time.process_time() - c0), steps / (time.perf_counter() - w0)


def pettingzoo_peer(module: str) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """(raw constructor, wrapped constructor) of a PettingZoo classic env; ImportError if missing."""
    import importlib

    mod = importlib.import_module(f"pettingzoo.classic.{module}")
    return mod.raw_env, mod.env


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    ap.add_argument("--rules", default="schieber", help="jass rules preset (default schieber)")
    ap.add_argument("--differenzler", default="differenzler",
                    help="Differenzler preset of the Differenzler rows ('' skips them)")
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")

    from jass_env.envs.aec import env as jass_env_fn
    from jass_env.envs.aec import raw_env as jass_raw

    rows: list[tuple[str, str, float, float]] = []
    result: dict[str, Any] = {"peers": {}}
    skipped: list[str] = []

    raw = aec_rate(lambda: jass_raw(args.rules), args.seconds)
    wrapped = aec_rate(lambda: jass_env_fn(rules=args.rules), args.seconds)
    rows += [("jass_v0", "raw_env", *raw), ("jass_v0", "env()", *wrapped)]
    result["raw_env_steps_per_s"] = round(raw[0])
    result["env_steps_per_s"] = round(wrapped[0])
    if args.differenzler:
        d = args.differenzler
        d_raw = aec_rate(lambda: jass_raw(d), args.seconds)
        d_wrapped = aec_rate(lambda: jass_env_fn(rules=d), args.seconds)
        rows += [(d, "raw_env", *d_raw), (d, "env()", *d_wrapped)]
        result["differenzler"] = {"rules": d, "raw_env_steps_per_s": round(d_raw[0]),
                                  "env_steps_per_s": round(d_wrapped[0])}

    for name in ("leduc_holdem_v4", "texas_holdem_v4", "hanabi_v5"):
        try:
            make_raw, make_env = pettingzoo_peer(name)
            r = aec_rate(make_raw, args.seconds)
            w = aec_rate(make_env, args.seconds)
        except Exception as exc:  # noqa: BLE001 (a peer that does not install or run is skipped)
            skipped.append(f"{name}: {type(exc).__name__}: {exc}".splitlines()[0][:200])
            continue
        rows += [(name, "raw_env", *r), (name, "env()", *w)]
        result["peers"][name] = {"raw_env_steps_per_s": round(r[0]), "env_steps_per_s": round(w[0])}
    try:
        r = openspiel_rate("hearts", args.seconds)
        rows.append(("openspiel hearts", "pyspiel", *r))
        result["peers"]["openspiel_hearts"] = {"raw_env_steps_per_s": round(r[0]),
                                               "env_steps_per_s": round(r[0])}
    except Exception as exc:  # noqa: BLE001
        skipped.append(f"openspiel hearts: {type(exc).__name__}: {exc}".splitlines()[0][:200])

    print(f"AEC steps per second, one thread, random legal actions, last() every step "
          f"({args.seconds:g} s each; rules {args.rules})")
    print(f"{'environment':<20} {'api':<9} {'steps/CPU-s':>12} {'steps/wall-s':>13}")
    for env_name, api, cpu, wall in rows:
        print(f"{env_name:<20} {api:<9} {cpu:>12,.0f} {wall:>13,.0f}")
    for s in skipped:
        print(f"skipped {s}")
    peers = result["peers"]
    if peers:
        fastest = max(v["raw_env_steps_per_s"] for v in peers.values())
        print(f"jass_v0 raw_env vs fastest peer: {result['raw_env_steps_per_s'] / fastest:.1f}x")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
