"""Deal, play and print one round of any game: ``python -m jass_env.demo [--rules PRESET] [--seed N]``.

Every player picks uniformly among its legal actions; the printout shows the deal (each player's
team in team games), the bidding by the game's action names (a contract chosen or pushed, a row of
the Coiffeur sheet declared, the trump shown and the predictions), every trick with its winner and
points (and the game's own actions during play, such as Sidi's exchange of the trump 6), each
player's prediction, points and penalty where the game predicts, and at the end the game's table
(:func:`jass_env.render.render_table`): its Weis, Stöck and scores as the game counts them (per
team, or per player when everyone plays alone).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import numpy as np

from .commands import quiet_broken_pipe
from .engine.cards import CONTRACTS, PHASE_ACTION_OFFSET, card_id, card_symbol
from .engine.spec import TEAMS_NONE
from .engine.switches import RulesError
from .games import DEFAULT_PRESET, PRESETS, make_rules
from .render import render_table
from .round import Round


def _cards(names: list[str]) -> str:
    return " ".join(card_symbol(card_id(n)) for n in names)


def play_and_print(rules: str = DEFAULT_PRESET, seed: int = 0, out: TextIO | None = None) -> Round:
    """Play one random round of the preset's game and print it to ``out`` (default: standard output
    as it is at the call); returns the finished Round."""
    out = sys.stdout if out is None else out
    r = Round(rules, seed=seed)
    spec = r.spec
    rng = np.random.default_rng(seed)
    print(f"{spec.title} ({r.rules.name}), seed {seed}: dealer player {r.dealer}, forehand player "
          f"{r.forehand}", file=out)
    teams = spec.teams != TEAMS_NONE
    for p in range(spec.players):
        side = f" (team {spec.side_of(p)})" if teams else ""
        print(f"  player {p}{side}: {_cards(r.hand(p))}", file=out)
    if spec.bidding == "prediction":
        shown = f"the dealer's {card_symbol(card_id(r.trump_card))}" if r.trump_card else "drawn"
        print(f"trump {r.contract} ({shown})", file=out)
    while r.phase in ("contract", "prediction"):
        player, action = r.to_move, int(rng.choice(r.legal_actions()))
        r.step(action)
        print(f"player {player}: {spec.action_names[action]}", file=out)
    if spec.bidding == "contract":
        mult = r.rules.multiplier(CONTRACTS.index(r.contract))
        print(f"contract {r.contract} (x{mult}), declared by player {r.declarer}"
              + (" after a push" if r.pushed else ""), file=out)
    during: dict[int, list[str]] = {}                  # the game's own actions during play, by trick
    while not r.is_over:
        player, action = r.to_move, int(rng.choice(r.legal_actions()))
        if action >= PHASE_ACTION_OFFSET:
            during.setdefault(r.trick_number, []).append(f"player {player}: {spec.action_names[action]}")
        r.step(action)
    for t, trick in enumerate(r.tricks):               # the tricks' final points (a late trump recounts)
        for line in during.get(t, ()):
            print(line, file=out)
        plays = "  ".join(f"p{p} {card_symbol(card_id(c))}" for p, c in trick["plays"])
        print(f"trick {t + 1}: {plays}   -> player {trick['winner']} takes {trick['points']}", file=out)
    if spec.bidding == "prediction":
        for p in range(spec.players):
            print(f"player {p}: predicted {r.predictions[p]}, took {r.points[p]} -> penalty "
                  f"{r.penalties[p]}", file=out)
    print("At the end:", file=out)
    print(render_table(r.state, r.rules), file=out)
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default=DEFAULT_PRESET, help=f"preset: {', '.join(PRESETS)}")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        make_rules(args.rules)
    except RulesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with quiet_broken_pipe():          # the reader may stop early (``| head``)
        play_and_print(args.rules, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
