"""Deal, play and print one round of any game: ``python -m jass_env.demo [--rules PRESET] [--seed N]``.

Every player picks uniformly among its legal actions; the printout shows the deal, the bidding (a
contract chosen, or pushed; a trump shown and the predictions), every trick with its winner and
points, and the result (Weis, Stöck and score per side; or each player's prediction, points and
penalty). What is printed follows the game's facts: its teams and how it bids.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from .commands import quiet_broken_pipe
from .engine.cards import CONTRACTS, card_id, card_symbol
from .engine.spec import TEAMS_NONE
from .engine.switches import RulesError
from .games import DEFAULT_PRESET, PRESETS, make_rules
from .round import Round

#: the tricks of a round in words where the Match line names them
TRICKS_IN_WORDS = {9: "nine"}


def _cards(names: list[str]) -> str:
    return " ".join(card_symbol(card_id(n)) for n in names)


def play_and_print(rules: str = DEFAULT_PRESET, seed: int = 0, out=sys.stdout) -> Round:
    """Play one random round of the preset's game and print it; returns the finished Round."""
    r = Round(rules, seed=seed)
    spec = r.spec
    rng = np.random.default_rng(seed)
    print(f"{spec.title} ({r.rules.name}), seed {seed}: dealer player {r.dealer}, forehand player "
          f"{r.forehand}", file=out)
    teams = spec.teams != TEAMS_NONE
    side_name = "team" if teams else "player"
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
    multiplied = ""
    if spec.bidding == "contract":
        mult = r.rules.multiplier(CONTRACTS.index(r.contract))
        multiplied = f" (x{mult})"
        print(f"contract {r.contract}{multiplied}, declared by player {r.declarer}"
              + (" after a push" if r.pushed else ""), file=out)
    while not r.is_over:
        r.step(int(rng.choice(r.legal_actions())))
    for t, trick in enumerate(r.tricks, 1):
        plays = "  ".join(f"p{p} {card_symbol(card_id(c))}" for p, c in trick["plays"])
        print(f"trick {t}: {plays}   -> player {trick['winner']} takes {trick['points']}", file=out)
    if spec.bidding == "prediction":
        for p in range(spec.players):
            print(f"player {p}: predicted {r.predictions[p]}, took {r.points[p]} -> penalty "
                  f"{r.penalties[p]}", file=out)
        return r
    weis = r.weis()
    if weis:
        for w in weis:
            print(f"Weis: player {w['player']} {_cards(w['cards'])} = {w['points']}", file=out)
    else:
        print("Weis: none scores", file=out)
    if r.stoeck_player is not None:
        print(f"Stöck: player {r.stoeck_player} ({r.rules.stoeck})", file=out)
    if r.match_team is not None:
        print(f"Match! {side_name} {r.match_team} took all {TRICKS_IN_WORDS.get(spec.tricks, spec.tricks)} "
              f"tricks (+{r.rules.match_bonus})", file=out)
    print(f"card points {_per_side(r.points)}   Weis {_per_side(r.weis_points)}", file=out)
    score = ", ".join(f"{side_name} {s} {x}" for s, x in enumerate(r.score))
    print(f"score{multiplied}: {score}", file=out)
    return r


def _per_side(values: list[int]) -> str:
    return " : ".join(str(v) for v in values)


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
