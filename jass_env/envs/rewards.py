"""Rewards, shared by the AEC and the batched environment, for every game.

The ``reward=`` keyword of the environments picks the kind; :func:`reward_kinds` lists those of a
game (its ``REWARDS``). Rewards are per player; in every game and kind they sum to zero over the
players. How they are paid follows from two facts of the game: whether a round is scored between
two sides (two teams, or two players: the difference of the sides' scores) or by every player
against the table (the player's score against the mean), and which way a score is better
(``BETTER``); the "points" reward divides by the game's ``REWARD_SCALE``. The kinds per game:

Schieber (teams 0 & 2 against 1 & 3; ``r[0] = r[2] = -r[1] = -r[3]``):

``"points"`` (default)
    When a round ends, every player gets its team's round score minus the opponents',
    divided by ``REWARD_SCALE`` = 157 (``spec.ROUND_POINTS``, the card points of one round).
    Multipliers, Weis, Stöck and the Match bonus are included, so a value can exceed 1 in size.
``"win"``
    +1 / -1 / 0 for winning / losing / tying the round (score comparison) when it ends; in match
    episodes +1 / -1 / 0 for the match result when the match ends, 0 at the other round ends.
``"tricks"``
    The ``"points"`` total, paid as it is earned: after every action each player gets the change of
    (own team's round score - opponents') / 157, i.e. a trick's points when it is won, the Weis with
    trick 1, Stöck when shown, the Match bonus with the last trick.

Differenzler (n players alone; the round's score of a player is his penalty, lower is better):

``"points"`` (default)
    When a round ends (in match episodes: every round), player p gets
    ``-(penalty_p - mean penalty) / 157``: better than the table's average is positive.
``"win"``
    Round episodes: when the round ends, the k players with the lowest penalty get +1/k each and
    the others -1/(n-k) each (all 0 when everyone ties). Match episodes: when the game ends, the
    winner (lowest total penalty; ties play on, so there is one) gets +1 and every other player
    -1/(n-1); 0 at the other round ends.

Sidi-Jass for two (two players alone, higher is better): Schieber's three kinds with one player
per side, ``r[0] = -r[1]``: ``"points"`` (own round score minus the opponent's / 157 when the
round ends), ``"win"`` (+1 / -1 / 0 for the round; in match episodes for the game to 1000) and
``"tricks"`` (the change of that difference after every action).

``"tricks"`` does not exist in Differenzler: a penalty is only known when the round ends.

Coiffeur (teams as Schieber; only the declaring team writes a row; ``r[0] = r[2] = -r[1] = -r[3]``):

``"points"`` (default)
    When a deal ends (every deal of a whole game), every player gets its team's row score minus
    the opponents' (one of the two is 0), divided by :func:`coiffeur_reward_scale` = 157 x the
    game's largest row factor (1256 in ``coiffeur``): a Match in the top row is about +1.6.
``"win"``
    Whole-game episodes: +1 / -1 / 0 for winning / losing / drawing the game when it ends (the
    higher sheet total), 0 at the other deals; single deals: the sign of the row score difference.

Mittlere (3 players alone; a hand's score is Striche − Nullen, −2..+2, higher is better) and
Molotow (n players alone; a hand's score is points + table Weis − hand Weis − Stöck, lower is
better), paid when a hand ends like Differenzler's, with the sign of "better":

``"points"`` (default)
    Mittlere: ``(score_p − mean score) / 2``; Molotow: ``−(score_p − mean score) / 157`` (a hand
    with large Weis can go beyond ±1).
``"win"``
    As Differenzler's, with the best score the highest (Mittlere) or the lowest (Molotow): round
    episodes +1/k to the k best, −1/(n−k) to the others (0 when all tie); match episodes +1 to
    the game's winner and −1/(n−1) to every other player.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine import state
from jass_env.engine.jit import engine_inline
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action
from jass_env.games import game_of
from jass_env.games.base import REWARD_KINDS

REWARD_POINTS, REWARD_WIN, REWARD_TRICKS = 0, 1, 2


def reward_kinds(rules: Rules | None = None) -> tuple[str, ...]:
    """The reward kinds of the game of ``rules`` (None: every kind of any game)."""
    if rules is None:
        return REWARD_KINDS
    return game_of(rules).rewards


def reward_kind(name: str, rules: Rules | None = None) -> int:
    """The number of a reward kind; ValueError lists the valid names (of the game of ``rules``)."""
    valid = reward_kinds(rules)
    if name not in valid:
        game = f" in {rules.game}" if rules is not None else ""
        raise ValueError(f"unknown reward {name!r}{game}; valid rewards: {', '.join(valid)}")
    return REWARD_KINDS.index(name)


def reward_facts(rules: Rules) -> tuple[float, float]:
    """(sign, scale) of the game of ``rules``: +1.0 when a higher score is better, -1.0 when a lower
    one is; the "points" reward's divisor. The compiled steps take them as arguments."""
    game = game_of(rules)
    return float(game.sign), game.points_scale(rules)


@engine_inline
def step_with_rewards(game: int, st: np.ndarray, action: int, rp: np.ndarray, kind: int, sign: float,
                      scale: float, out: np.ndarray) -> None:
    """Apply a legal ``action`` and write every player's reward for it into ``out`` (one entry
    per player of the game); ``sign`` and ``scale`` from :func:`reward_facts`."""
    before = state.score_of(st, 0) - state.score_of(st, 1)
    apply_action(game, st, action, rp)
    if state.n_sides(rp) == 2:
        _two_sides_rewards(st, rp, kind, sign, scale, before, out)
    else:
        _table_rewards(st, rp, kind, sign, scale, out)


@engine_inline
def _two_sides_rewards(st: np.ndarray, rp: np.ndarray, kind: int, sign: float, scale: float, before: int,
                       out: np.ndarray) -> None:
    """Two sides (two teams, or two players alone): side 0 (the even seats) gets ``r``, side 1 (the
    odd seats) ``-r``, ``r`` from the difference of the sides' scores (``before`` the action's)."""
    after = state.score_of(st, 0) - state.score_of(st, 1)
    r = 0.0
    if kind == REWARD_TRICKS:
        r = sign * (after - before) / scale
    elif state.phase(st) == state.PHASE_OVER:
        if kind == REWARD_POINTS:
            r = sign * after / scale
        elif state.is_match(st):
            w = state.match_winner(st)
            r = 1.0 if w == 0 else (-1.0 if w == 1 else 0.0)
        else:
            d = sign * after
            r = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    for p in range(state.n_players(rp)):         # side 0 = the even seats, side 1 the odd ones
        out[p] = r if p % 2 == 0 else -r


@engine_inline
def _table_rewards(st: np.ndarray, rp: np.ndarray, kind: int, sign: float, scale: float,
                   out: np.ndarray) -> None:
    """Everyone alone against the table: rewards when a hand (or the game) ends; ``sign`` +1 when a
    higher score is better, −1 when lower is; ``scale`` divides the "points" reward."""
    n = state.n_players(rp)
    for p in range(n):
        out[p] = 0.0
    if state.phase(st) != state.PHASE_OVER:
        return
    if kind == REWARD_POINTS:
        total = 0
        for p in range(n):
            total += state.score_of(st, p)
        mean = total / n
        for p in range(n):
            out[p] = sign * (state.score_of(st, p) - mean) / scale
    elif state.is_match(st):
        w = state.match_winner(st)
        if w >= 0:
            for p in range(n):
                out[p] = 1.0 if p == w else -1.0 / (n - 1)
    else:
        best = sign * state.score_of(st, 0)
        for p in range(1, n):
            best = max(best, sign * state.score_of(st, p))
        k = 0
        for p in range(n):
            if sign * state.score_of(st, p) == best:
                k += 1
        if k < n:
            for p in range(n):
                out[p] = 1.0 / k if sign * state.score_of(st, p) == best else -1.0 / (n - k)


__all__ = ["REWARD_KINDS", "REWARD_POINTS", "REWARD_WIN", "REWARD_TRICKS", "reward_kinds", "reward_kind",
           "reward_facts", "step_with_rewards"]
