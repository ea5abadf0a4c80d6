"""A compact, reproducible playthrough of one OpenSpiel Jass game: a seeded random round as text.

Every chance outcome and every move with the legal actions, a digest of every player's views after
each move (observation and information-state tensors and strings), the full views of the first
mover and the returns. tests/test_openspiel_game.py compares each preset's playthrough with
tests/data/openspiel/<preset>.txt; after a deliberate change (rules, encoding, rendering) write
them again with::

    python -m agents.openspiel.playthrough --write tests/data/openspiel

``python -m agents.openspiel.playthrough <preset> [--seed S]`` prints one.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np
import pyspiel

from jass_env.games import PRESETS

from . import game_name
from .game import JassState

#: the seed of the stored playthroughs
SEED = 0
#: hex digits of a digest line
DIGEST_HEX = 16


def ids_text(ids: list[int]) -> str:
    """Action ids with runs of three or more as ``first-last``: ``[1, 4-7, 36-193]``."""
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(f"{ids[i]}-{ids[j]}" if j - i >= 2 else ", ".join(map(str, ids[i:j + 1])))
        i = j + 1
    return f"[{', '.join(parts)}]"


def views_digest(state: JassState) -> str:
    """A digest of what every player is shown in ``state``: both tensors and both strings."""
    h = hashlib.sha256()
    for p in range(state.num_players()):
        h.update(np.asarray(state.observation_tensor(p), dtype=np.float32).tobytes())
        h.update(np.asarray(state.information_state_tensor(p), dtype=np.float32).tobytes())
        h.update(state.observation_string(p).encode())
        h.update(state.information_state_string(p).encode())
    return h.hexdigest()[:DIGEST_HEX]


def playthrough(preset: str, seed: int = SEED) -> str:
    """The playthrough text of ``python_jass_<preset>``, every choice drawn from ``seed``."""
    game = pyspiel.load_game(game_name(preset))
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    lines = [f"game: {game}", f"seed: {seed}", f"max_game_length: {game.max_game_length()}",
             f"utility: {game.get_type().utility.name} {game.min_utility():g} .. {game.max_utility():g}"
             + (f", sum {game.utility_sum():g}" if game.get_type().utility.name != "GENERAL_SUM" else "")]
    shown = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            o, p = outcomes[int(rng.integers(len(outcomes)))]
            lines.append(f"chance {o} ({state.action_to_string(pyspiel.PlayerId.CHANCE, o)}) "
                         f"1 of {len(outcomes)}, p={p:.6g}")
            state.apply_action(o)
            continue
        player = state.current_player()
        if not shown:
            lines += [f"observation of player {player}:", state.observation_string(player),
                      f"information state of player {player}:", state.information_state_string(player)]
            shown = True
        legal = state.legal_actions()
        a = legal[int(rng.integers(len(legal)))]
        lines.append(f"player {player}: {a} ({state.action_to_string(player, a)}) of {ids_text(legal)}")
        state.apply_action(a)
        lines.append(f"  views {views_digest(state)}")
    lines += ["terminal; information state of player 0:", state.information_state_string(0),
              f"returns: {state.returns()}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", nargs="?", choices=list(PRESETS), help="print this preset's playthrough")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--write", metavar="DIR", help="write every preset's playthrough to DIR/<preset>.txt")
    args = parser.parse_args(argv)
    if args.write:
        folder = Path(args.write)
        folder.mkdir(parents=True, exist_ok=True)
        for preset in PRESETS:
            (folder / f"{preset}.txt").write_text(playthrough(preset, args.seed), encoding="utf-8")
        print(f"wrote {len(PRESETS)} playthroughs to {folder}")
    elif args.preset:
        print(playthrough(args.preset, args.seed), end="")
    else:
        parser.error("name a preset or give --write DIR")


if __name__ == "__main__":
    main()
