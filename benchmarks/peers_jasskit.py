"""Peer benchmark: random Schieber rounds per second with the third-party ``jass-kit``.

Measures how many complete random rounds jass-kit's ``GameSim`` plays per wall second on
one core (pure Python + numpy, single thread). One round is:

1. deal a fresh, seeded random 4x9 hand (one-hot ``[4, 36]``, as jass-kit expects) and a
   random dealer, then ``GameSim.init_from_cards``;
2. pick a contract uniformly among jass-kit's legal trump actions for forehand (D, H, S, C,
   Obe-abe, Une-ufe, Push); after a Push the partner picks uniformly among the six contracts;
3. play 36 cards, each uniformly among the legal cards given by jass-kit's own
   ``RuleSchieber.get_valid_cards_from_state``;
4. read the final card points (``state.points``, 157 in total) from the state.

This mirrors our own engine benchmark, except that jass-kit has no Weis and no Stoeck, so
those are not scored here. All random choices come from one seeded ``numpy`` Generator.
jass-kit is a benchmark-only dependency: ``pip install jass-kit`` (import name ``jass``).
"""

from __future__ import annotations

import time

import numpy as np

from jass_env.engine.cards import ROUND_POINTS

__all__ = ["jasskit_available", "jasskit_rounds_per_s"]


def jasskit_available() -> bool:
    """True when ``import jass`` (the ``jass-kit`` package) works."""
    try:
        import jass.game.game_sim  # noqa: F401
    except ImportError:
        return False
    return True


def jasskit_rounds_per_s(seconds: float = 3.0, seed: int = 0) -> float:
    """Play random rounds with jass-kit's GameSim for about `seconds` wall seconds; return rounds/s."""
    try:
        from jass.game.game_sim import GameSim
        from jass.game.rule_schieber import RuleSchieber
    except ImportError as exc:
        raise RuntimeError(
            "jass-kit is not installed; run `pip install jass-kit` to benchmark it"
        ) from exc

    rng = np.random.default_rng(seed)
    rule = RuleSchieber()
    sim = GameSim(rule=rule)
    state = sim.state  # init_from_cards resets this same GameState in place
    player_rows = np.repeat(np.arange(4), 9)
    hands = np.zeros((4, 36), dtype=np.int32)

    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        # Deal: seeded shuffle -> one-hot hands; random dealer.
        hands.fill(0)
        hands[player_rows, rng.permutation(36)] = 1
        sim.init_from_cards(hands, int(rng.integers(4)))
        u = rng.random(38)  # uniform draws for <= 2 trump actions + 36 cards

        # Contract: full-action ids 36..41 = D,H,S,C,Obe,Une; 42 = Push (forehand only).
        k = 0
        while state.trump == -1:
            legal = np.flatnonzero(rule.get_valid_actions_from_state(state))
            sim.action(int(legal[int(u[k] * legal.size)]))
            k += 1

        # Play 36 random legal cards.
        while not sim.is_done():
            valid = np.flatnonzero(rule.get_valid_cards_from_state(state))
            sim.action_play_card(int(valid[int(u[k] * valid.size)]))
            k += 1

        # Read the score from the state (card points incl. last-trick 5 sum to 157).
        if int(state.points[0]) + int(state.points[1]) != ROUND_POINTS:
            raise AssertionError(
                f"jass-kit round scored {state.points}, expected {ROUND_POINTS} in total"
            )
        rounds += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    return rounds / (now - start)


if __name__ == "__main__":
    print(f"jass-kit GameSim: {jasskit_rounds_per_s():.1f} random rounds/s")
