"""Cost of the bots on one core: heuristic ms per hand, PIMC-10/30 and search ms per decision.

    python benchmarks/bots_cost.py [--rounds 200] [--pimc-rounds 20] [--search-rounds 5]
                                   [--search-worlds 10 30] [--search-specs PARAMS ...]
                                   [--rules schieber]

Rounds are dealt from fixed seeds and played by four copies of the bot; only the bots' ``act``
calls are timed (observation encoding by the driver is excluded).

* heuristic: total ``act`` time of one seat over a whole round (contract choice + 9 cards).
* PIMC: mean ``act`` time over the card decisions that run a search (more than one legal card);
  decisions with one legal card or the contract choice are answered without search.
* policy (the shipped network of the game, ``policy`` in :mod:`agents.registry`; torch on one
  thread): the mean ``act`` time over every decision, one forward pass each.
* search (``agents.search``, the shipped policy's rollouts; Schieber only): the same mean over
  searched card decisions, and the slowest one (the first tricks, with the most cards to play
  out), for each ``--search-worlds`` size and each ``--search-specs`` bot (its spec parameters,
  e.g. ``worlds=30,oversample=8,margin=5``); torch uses one thread. A bot with
  ``contract=search`` also gets the mean of its contract decisions (``NAME_contract_ms_per_decision``),
  and every search bot the mean over all its decisions, forced ones included
  (``NAME_all_ms_per_decision``). The search bots take turns round by round (each plays the same
  deals), so that a drift in the machine's speed during the run hits them alike and their ratios
  hold.

Prints a table, then, as the last line, a JSON object with ``heuristic_ms_per_hand``,
``pimc10_ms_per_decision``, ``pimc30_ms_per_decision``, ``policy_ms_per_decision`` and, per
search bot NAME (``search30``, ``search30-margin5-infer8``, ...), ``NAME_ms_per_decision`` and
``NAME_max_ms_per_decision``. Compile time is excluded (one
warm-up round per bot).
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

from agents.bots.schieber import HeuristicAgent, PIMCAgent  # noqa: E402
from jass_env import Round  # noqa: E402
from jass_env.games import make_rules  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM, encode_observation  # noqa: E402


def time_rounds(agent, rules: str, rounds: int, seed0: int, searched_times: list[float] | None = None,
                contract_times: list[float] | None = None) -> tuple[float, float, int, int]:
    """Play ``rounds`` rounds with 4 seats of ``agent``; return (total s, searched s, decisions, searched).

    ``searched_times`` (if given) receives the seconds of every searched card decision,
    ``contract_times`` those of every contract decision (the push included)."""
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(43, dtype=np.int8)
    total = searched_t = 0.0
    n_dec = n_search = 0
    for i in range(rounds):
        agent.reset(seed0 + i)
        r = Round(rules, seed=seed0 + i)
        while not r.is_over:
            encode_observation(r.state, r.to_move, r.rp, obs)
            r.engine.action_mask(r.state, r.rp, mask)
            search = r.phase == "play" and int(mask[:36].sum()) > 1
            choosing = r.phase != "play"
            t = time.perf_counter()
            a = agent.act({"observation": obs, "action_mask": mask})
            dt = time.perf_counter() - t
            total += dt
            n_dec += 1
            if search:
                searched_t += dt
                n_search += 1
                if searched_times is not None:
                    searched_times.append(dt)
            if choosing and contract_times is not None:
                contract_times.append(dt)
            r.step(a)
    return total, searched_t, n_dec, n_search


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200, help="rounds for the heuristic")
    ap.add_argument("--pimc-rounds", type=int, default=20, help="rounds for each PIMC size")
    ap.add_argument("--search-rounds", type=int, default=5, help="rounds for each search size "
                    "(Schieber rules only; 0 skips the search bot)")
    ap.add_argument("--search-worlds", type=int, nargs="+", default=[10, 30], help="search sizes (worlds)")
    ap.add_argument("--search-specs", nargs="*", default=[], metavar="PARAMS",
                    help="more search bots by their spec parameters, e.g. worlds=30,oversample=8,margin=5 "
                    "(keyed by the bot's name)")
    ap.add_argument("--rules", default="schieber", help="rules preset")
    args = ap.parse_args(argv)
    rows = []
    h = HeuristicAgent(args.rules)
    time_rounds(h, args.rules, 1, 999)                       # warm-up (compile)
    tot, _, n_dec, _ = time_rounds(h, args.rules, args.rounds, 0)
    heur_ms_hand = 1000 * tot / (4 * args.rounds)
    rows.append(("heuristic", f"{1000 * tot / n_dec:.4f} ms/decision", f"{heur_ms_hand:.3f} ms/hand"))
    result = {"heuristic_ms_per_hand": round(heur_ms_hand, 4)}
    for worlds in (10, 30):
        p = PIMCAgent(args.rules, worlds=worlds, seed=0)
        time_rounds(p, args.rules, 1, 999)
        tot, st, n_dec, n_s = time_rounds(p, args.rules, args.pimc_rounds, 0)
        per_dec = 1000 * st / max(n_s, 1)
        rows.append((f"pimc{worlds}", f"{per_dec:.3f} ms/searched decision",
                     f"{1000 * tot / n_dec:.3f} ms/decision (all)"))
        result[f"pimc{worlds}_ms_per_decision"] = round(per_dec, 4)
    from agents.registry import make_agent

    policy = make_agent("policy", make_rules(args.rules), seed=0)
    time_rounds(policy, args.rules, 1, 999)
    tot, _, n_dec, _ = time_rounds(policy, args.rules, args.pimc_rounds, 0)
    rows.append(("policy", f"{1000 * tot / n_dec:.3f} ms/decision", ""))
    result["policy_ms_per_decision"] = round(1000 * tot / n_dec, 4)
    if args.search_rounds > 0 and make_rules(args.rules).game == "schieber":
        from agents.search.search import SearchAgent

        bots = [SearchAgent(args.rules, worlds=worlds, seed=0) for worlds in args.search_worlds]
        bots += [make_agent(f"search:{params},seed=0", make_rules(args.rules))
                 for params in args.search_specs]
        for bot in bots:
            time_rounds(bot, args.rules, 1, 999)
        # the bots take turns round by round, so that a drift in the machine's speed hits them alike
        totals = np.zeros((len(bots), 4))            # per bot: total s, searched s, decisions, searched
        times: list[list[float]] = [[] for _ in bots]
        contract_times: list[list[float]] = [[] for _ in bots]
        for i in range(args.search_rounds):
            for b, bot in enumerate(bots):
                totals[b] += time_rounds(bot, args.rules, 1, i, times[b], contract_times[b])
        for bot, (tot, st, n_dec, n_s), bot_times, bot_contract in zip(bots, totals, times, contract_times):
            per_dec = 1000 * st / max(n_s, 1)
            slowest = 1000 * max(bot_times, default=0.0)
            rows.append((bot.name, f"{per_dec:.3f} ms/searched decision",
                         f"{1000 * tot / n_dec:.3f} ms/decision (all), slowest {slowest:.1f} ms"))
            result[f"{bot.name}_ms_per_decision"] = round(per_dec, 4)
            result[f"{bot.name}_all_ms_per_decision"] = round(1000 * tot / n_dec, 4)
            result[f"{bot.name}_max_ms_per_decision"] = round(slowest, 4)
            if bot.contract == "search":
                contract_ms = 1000 * float(np.mean(bot_contract))
                rows.append((f"{bot.name} contract", f"{contract_ms:.3f} ms/contract decision",
                             f"slowest {1000 * max(bot_contract):.1f} ms"))
                result[f"{bot.name}_contract_ms_per_decision"] = round(contract_ms, 4)
    print(f"rules={args.rules}  one core (thread env vars = 1)")
    width = max(10, *(len(name) + 1 for name, _, _ in rows))
    print(f"{'bot':<{width}} {'per decision':<32} {'per hand / all'}")
    for name, a, b in rows:
        print(f"{name:<{width}} {a:<32} {b}")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
