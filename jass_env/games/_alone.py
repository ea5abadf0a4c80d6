"""What the games played alone share (Differenzler, Mittlere, Molotow): a game's totals.

A game is ``match_rounds`` rounds; each round's score is added to the player's total, and after
the last scheduled round the best total wins: the highest (Mittlere) or the lowest (Differenzler's
penalties, Molotow). A tie for the best plays one more round, and so on until one player is
alone best. Outside a game (a single-round episode) the totals stay untouched.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.jit import engine_jit
from jass_env.engine.state import S_MATCH, S_MATCH_SCORE, S_MATCH_WINNER, S_ROUND_NO, S_SCORE, n_players
from jass_env.engine.switches import RP_MATCH_ROUNDS, Rules, RulesError


def check_match_rounds(rules: Rules) -> None:
    """A game of rounds played alone is a fixed number of rounds (``match_rounds`` > 0)."""
    if rules.match_rounds == 0:
        raise RulesError(f"bad value 0 for rule switch 'match_rounds' in {rules.game}: a game is a fixed "
                         f"number of rounds; allowed: an integer 1..10000")


@engine_jit
def add_round_to_game(st: np.ndarray, rp: np.ndarray, highest_wins: bool) -> None:
    """In a game not yet decided: add the round's ``S_SCORE`` of each player to his total, count
    the round, and from the last scheduled round on make the player with the best total (the
    highest if ``highest_wins``, else the lowest) the winner, unless another player ties him."""
    if not st[S_MATCH] or st[S_MATCH_WINNER] >= 0:
        return
    n = n_players(rp)
    for p in range(n):
        st[S_MATCH_SCORE + p] += st[S_SCORE + p]
    st[S_ROUND_NO] += 1
    if st[S_ROUND_NO] < rp[RP_MATCH_ROUNDS]:
        return
    sign = 1 if highest_wins else -1
    best = 0
    tied = False
    for p in range(1, n):
        d = sign * (st[S_MATCH_SCORE + p] - st[S_MATCH_SCORE + best])
        if d > 0:
            best = p
            tied = False
        elif d == 0:
            tied = True
    if not tied:                                      # a tie for the best plays one more round
        st[S_MATCH_WINNER] = best
