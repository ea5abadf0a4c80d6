"""Rules-engine speed: full random rounds per second on one core, against jass-kit in the same run.

One Schieber round = seeded deal, a random contract choice (push included), 36 random legal plays,
Weis, Stöck and the score, all in the compiled engine (``for_game(kind).play_random_rounds``); one
Differenzler round = seeded deal, the bottom card, a random prediction per player, 36 random
legal plays and the penalties. Every preset of every game is measured. jass-kit's
``GameSim`` plays the same kind of round in the same run (without Weis and Stöck, which it does
not have); install it for the benchmark only: ``pip install jass-kit``.

Also measured: one call of the Python-facing ``Round.legal_actions()`` (and ``legal_mask()``) on a
position in the middle of a trick.

    python benchmarks/engine.py [--seconds 3]

The last line printed is a JSON object of the headline figures.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jass_env import PRESETS, Round, make_rules  # noqa: E402
from jass_env.engine.state import state_size  # noqa: E402
from jass_env.engine.transitions import for_game  # noqa: E402


def rounds_per_s(preset: str, seconds: float) -> float:
    """Random rounds per second of the compiled core under a preset, best of 3 timed batches."""
    rules = make_rules(preset)
    rp, size = rules.params, state_size(rules.spec)
    play_random_rounds = for_game(rules.spec.kind).play_random_rounds
    play_random_rounds(100, 1, rp, size)                     # compile / load from cache
    t0 = time.perf_counter()
    play_random_rounds(20_000, 2, rp, size)
    batch = max(10_000, int(20_000 * (seconds / 3) / max(time.perf_counter() - t0, 1e-6)))
    best = 0.0
    for rep in range(3):
        t0 = time.perf_counter()
        play_random_rounds(batch, 3 + rep, rp, size)
        best = max(best, batch / (time.perf_counter() - t0))
    return best


def legal_actions_us() -> tuple[float, float]:
    """Microseconds per call of Round.legal_actions() and Round.legal_mask(), mid-trick."""
    r = Round(seed=11)
    r.step("S")
    for _ in range(6):
        r.step(int(r.legal_actions()[0]))
    n = 200_000
    arr = min(timeit.repeat(r.legal_actions, number=n, repeat=3)) / n * 1e6
    mask = min(timeit.repeat(r.legal_mask, number=n, repeat=3)) / n * 1e6
    return arr, mask


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="approximate time per measurement")
    args = ap.parse_args()

    print(f"{'preset':<16}{'rounds/s':>14}")
    per_preset = {}
    for preset in PRESETS:
        per_preset[preset] = rounds_per_s(preset, args.seconds)
        print(f"{preset:<16}{per_preset[preset]:>14,.0f}")
    ours = per_preset["schieber"]

    from peers_jasskit import jasskit_available, jasskit_rounds_per_s
    if jasskit_available():
        theirs = jasskit_rounds_per_s(seconds=args.seconds)
        print(f"{'jass-kit GameSim':<16}{theirs:>14,.0f}   (no Weis, no Stöck)")
        ratio = ours / theirs
        ratio_diff = per_preset["differenzler"] / theirs
        print(f"ratio schieber / jass-kit: {ratio:,.0f}x; differenzler / jass-kit's Schieber: "
              f"{ratio_diff:,.0f}x")
    else:
        theirs = ratio = ratio_diff = None
        print("jass-kit not installed (pip install jass-kit): no peer figure")

    arr_us, mask_us = legal_actions_us()
    print(f"Round.legal_actions(): {arr_us:.2f} us per call; Round.legal_mask(): {mask_us:.2f} us")
    print(json.dumps({"rounds_per_s": round(ours), "jasskit_rounds_per_s": theirs and round(theirs),
                      "ratio": ratio and round(ratio, 1),
                      "differenzler_rounds_per_s": round(per_preset["differenzler"]),
                      "ratio_differenzler": ratio_diff and round(ratio_diff, 1),
                      "legal_actions_us": round(arr_us, 3),
                      "legal_mask_us": round(mask_us, 3),
                      "rounds_per_s_by_preset": {k: round(v) for k, v in per_preset.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
