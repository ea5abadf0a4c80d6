"""The bot ladder of docs/bots.md, measured with the evaluation tool on duplicate deals.

    python benchmarks/ladder.py [--deals 2000] [--workers 2] [--rules schieber] [--seed 0]

Each rung is a two-agent duplicate evaluation (:func:`agents.evaluation.duplicate.evaluate_pair`): points per
hand of A's team minus B's team with a t-based 95 % interval, and the share of deals A won. The
mirror rows (a bot against itself) check the seat swap: with per-(deal, seat) seeds a bot against
itself scores exactly 0 on every deal. The last rung (the policy-guided search in its strong
setting, about 30 ms a searched card) takes the longest: ``--only 6`` runs it alone. The last
line is a JSON object of the figures.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from agents.evaluation.duplicate import evaluate_pair  # noqa: E402

#: the search bot's strong setting (docs/bots.md, the search bot)
STRONG_SEARCH = "search:worlds=150,candidates=5,plays=14000,contract=search,margin=2"
RUNGS = (
    ("heuristic", "random", "heuristic beats random by >= +55"),
    ("pimc:worlds=10", "heuristic", "PIMC-10 beats heuristic by >= +15"),
    ("pimc:worlds=30", "pimc:worlds=10", "PIMC-30 beats PIMC-10"),
    ("random", "random", "mirror: 0"),
    ("heuristic", "heuristic", "mirror: 0"),
    ("pimc:worlds=10", "pimc:worlds=10", "mirror: 0"),
    (STRONG_SEARCH, "pimc:worlds=30", "policy-guided search beats PIMC-30 by >= +10"),
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rules", default="schieber")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", type=int, help="indices of the rungs to run (default all)")
    args = ap.parse_args()

    rows = {}
    print(f"{'A':<16}{'B':<16}{'ppH':>8}  {'95% CI':<18}{'deals won':>10}{'seconds':>9}  target")
    for i, (a, b, target) in enumerate(RUNGS):
        if args.only is not None and i not in args.only:
            continue
        t0 = time.monotonic()
        res = evaluate_pair(a, b, rules=args.rules, deals=args.deals, seed=args.seed,
                            workers=args.workers)
        s = res.summary
        lo, hi = s["ci95"]
        secs = time.monotonic() - t0
        print(f"{a:<16}{b:<16}{s['points_per_hand']:>+8.2f}  [{lo:+7.2f}, {hi:+7.2f}]  "
              f"{s['share_of_deals_won']:>9.3f}{secs:>9.0f}  {target}", flush=True)
        rows[f"{a} vs {b}"] = {"points_per_hand": round(s["points_per_hand"], 2),
                               "ci95": [round(lo, 2), round(hi, 2)],
                               "share_of_deals_won": round(s["share_of_deals_won"], 3),
                               "seconds": round(secs, 1)}
    print(json.dumps({"rules": args.rules, "deals": args.deals, "ladder": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
