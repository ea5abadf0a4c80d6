"""What a search setting loses to sampling noise, decision by decision, against a many-world search.

    python benchmarks/search_noise.py [--rules schieber] [--positions 150] [--decisions cards]
                                      [--reference PARAMS] [--specs PARAMS ...] [--seed 0]

Positions: rounds dealt from fixed seeds and played by the game's shipped policy (greedy, every
seat) to one decision with two legal actions or more of the kind asked (``--decisions cards``:
card decisions; ``other``: the decisions that are not cards, trump, push, prediction, ...), drawn
at random among the round's first twenty such decisions (``other``: the first of them). At each
position the reference search (default ``worlds=1200,candidates=5,contract=search``, no ``plays``
cap) gives each option's mean result, and every setting of ``--specs`` (``search:`` parameters)
chooses as it would in play (``SearchAgent.act``: its own worlds and margin). A
choice's **loss** is the reference's best mean minus the reference's mean of the option chosen, in
the game's score units (Schieber: own team − opponents). The reference has noise too, so a loss
is an estimate, and two settings are compared on the same positions (the paired difference is
printed).

Also printed: each setting's mean ``act`` time (one core, torch one thread), measured at the same
positions; the evaluation of settings in play is ``python -m agents.evaluate``.

The last line is a JSON object: ``decisions`` (the kind measured) and, per setting, its mean
``loss``, its mean ``ms`` per choice and the number of ``positions`` scored.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.policy import PolicyAgent  # noqa: E402
from agents.registry import AgentSpecError, make_agent  # noqa: E402
from agents.table import observation  # noqa: E402
from jass_env import PRESETS, Round  # noqa: E402
from jass_env.engine.cards import N_CARDS  # noqa: E402

#: a card position is drawn among a round's first this many card decisions with a choice
FIRST_DECISIONS = 20
DEFAULT_SPECS = ("worlds=150,candidates=5,plays=14000,contract=search,margin=2",)


def position(rules: str, policy: PolicyAgent, deal_seed: int, cards: bool,
             rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The observation at one of the first decisions with a choice, of cards (``cards``) or not,
    of a round the greedy policy plays from ``deal_seed``: a random one of the first
    :data:`FIRST_DECISIONS` card decisions, or the first decision that is not a card."""
    r = Round(rules, seed=deal_seed)
    stop, seen = int(rng.integers(0, FIRST_DECISIONS)) if cards else 0, 0
    while True:
        obs = observation(r)
        legal = np.flatnonzero(obs["action_mask"])
        if len(legal) >= 2 and (legal[-1] < N_CARDS) == cards:
            if seen == stop:
                return obs
            seen += 1
        r.step(policy.act(obs))
        if r.is_over:                                 # fewer decisions than drawn: start again
            if stop == 0:
                kind = "card decisions" if cards else "decisions that are not cards"
                raise SystemExit(f"error: a round of {rules} had no {kind} with a choice; "
                                 f"allowed here: --decisions {'other' if cards else 'cards'}")
            r, stop, seen = Round(rules, seed=deal_seed), stop // 2, 0


def half_width(x: np.ndarray) -> float:
    """The half width of the normal 95 % interval of the mean of ``x`` (at least 2 values)."""
    return float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="schieber", choices=PRESETS)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--decisions", choices=("cards", "other"), default="cards")
    ap.add_argument("--reference", default="worlds=1200,candidates=5,contract=search")
    ap.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.positions < 2:
        ap.error(f"--positions must be at least 2, got {args.positions}")
    try:
        reference = make_agent(f"search:{args.reference}", args.rules)
        bots = {spec: make_agent(f"search:{spec}", args.rules) for spec in args.specs}
    except AgentSpecError as exc:
        ap.error(str(exc))
    policy = PolicyAgent(rules=args.rules, greedy=True, threads=1)
    rng = np.random.default_rng(args.seed)
    # per setting, per position: the loss (NaN where the reference did not search the position or
    # the choice is outside its candidates) and the milliseconds of the choice
    loss = {spec: np.full(args.positions, np.nan) for spec in bots}
    ms = {spec: np.full(args.positions, np.nan) for spec in bots}
    for i in range(args.positions):
        obs = position(args.rules, policy, args.seed * 1_000_003 + i, args.decisions == "cards", rng)
        reference.reset(i)
        searched = reference.option_values(obs)
        if searched is None:                          # a decision the game's search leaves to the policy
            continue
        options, means = searched
        for spec, bot in bots.items():
            bot.reset(10_000 + i)
            t = time.perf_counter()
            choice = bot.act(obs)
            ms[spec][i] = 1000 * (time.perf_counter() - t)
            if choice in options:
                loss[spec][i] = means.max() - means[options == choice][0]
    figures = {"decisions": args.decisions}
    first = args.specs[0]
    for spec in args.specs:
        seen = ~np.isnan(loss[spec])
        if seen.sum() < 2:
            print(f"{spec}: fewer than 2 positions scored")
            continue
        l = loss[spec][seen]
        line = (f"{spec} [{args.decisions}, {seen.sum()} positions]: loss {l.mean():.3f} ± "
                f"{half_width(l):.3f}, {np.nanmean(ms[spec]):.1f} ms")
        both = seen & ~np.isnan(loss[first])
        if spec != first and both.sum() >= 2:
            d = loss[spec][both] - loss[first][both]
            line += f"; minus the first setting {d.mean():+.3f} ± {half_width(d):.3f}"
        print(line)
        figures[spec] = {"loss": round(float(l.mean()), 4), "ms": round(float(np.nanmean(ms[spec])), 2),
                         "positions": int(seen.sum())}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
