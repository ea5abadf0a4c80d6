"""Rewards, shared by the AEC and the batched environment, for every game.

The ``reward=`` keyword of the environments picks the kind; :func:`reward_kinds` lists those of a
game. Rewards are per player; in every game and kind they sum to zero over the players.

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
from numba import njit

from . import core, kernel
from .rules import RP_CO_FACTOR, RP_KIND, Rules
from .spec import (
    COIFFEUR_ROW_LABELS,
    KIND_COIFFEUR,
    KIND_DIFFERENZLER,
    KIND_MITTLERE,
    KIND_MOLOTOW,
    KIND_SCHIEBER,
    KIND_SIDI,
    ROUND_POINTS,
)

REWARD_KINDS = ("points", "win", "tricks")
REWARD_POINTS, REWARD_WIN, REWARD_TRICKS = 0, 1, 2
REWARD_SCALE = float(ROUND_POINTS)
#: Mittlere's "points" divisor: a hand's score is −2..+2 Striche − Nullen
MITTLERE_REWARD_SCALE = 2.0
#: the kinds each rules family has, by spec.KIND_*
_KINDS_OF_FAMILY = {KIND_SCHIEBER: REWARD_KINDS, KIND_DIFFERENZLER: ("points", "win"),
                    KIND_COIFFEUR: ("points", "win"),
                    KIND_MITTLERE: ("points", "win"), KIND_MOLOTOW: ("points", "win"),
                    KIND_SIDI: REWARD_KINDS}      # ---- Sidi: as Schieber's, one player a side


def reward_kinds(rules: Rules | None = None) -> tuple[str, ...]:
    """The reward kinds of the game of ``rules`` (None: every kind of any game)."""
    if rules is None:
        return REWARD_KINDS
    return _KINDS_OF_FAMILY[rules.spec.kind]


def reward_kind(name: str, rules: Rules | None = None) -> int:
    """The number of a reward kind; ValueError lists the valid names (of the game of ``rules``)."""
    valid = reward_kinds(rules)
    if name not in valid:
        game = f" in {rules.game}" if rules is not None else ""
        raise ValueError(f"unknown reward {name!r}{game}; valid rewards: {', '.join(valid)}")
    return REWARD_KINDS.index(name)


@njit(cache=True, inline="always")
def step_with_rewards(st: np.ndarray, action: int, rp: np.ndarray, kind: int, out: np.ndarray) -> None:
    """Apply a legal ``action`` and write every player's reward for it into ``out`` (one entry
    per player of the game)."""
    family = rp[RP_KIND]
    if family == KIND_SCHIEBER or family == KIND_SIDI:    # Sidi: two sides of one player each
        _schieber_step(st, action, rp, kind, out, REWARD_SCALE)
    elif family == KIND_COIFFEUR:                     # ---- Coiffeur (issue 15)
        _coiffeur_step(st, action, rp, kind, out)
    elif family == KIND_MITTLERE:                     # higher is better
        _individual_step(st, action, rp, kind, out, 1.0, MITTLERE_REWARD_SCALE)
    else:                                             # Differenzler, Molotow: lower is better
        _individual_step(st, action, rp, kind, out, -1.0, REWARD_SCALE)


@njit(cache=True, inline="always")
def _schieber_step(st: np.ndarray, action: int, rp: np.ndarray, kind: int, out: np.ndarray,
                   scale: float) -> None:
    """Team rewards (score differences / ``scale``: 157 in Schieber, Coiffeur's own scale): side
    0 (the even seats) gets ``r``, side 1 (the odd seats) ``-r``; Sidi's two players are the sides."""
    before = kernel.score_of(st, 0) - kernel.score_of(st, 1)
    core.apply_action(st, action, rp)
    after = kernel.score_of(st, 0) - kernel.score_of(st, 1)
    r = 0.0
    if kind == REWARD_TRICKS:
        r = (after - before) / scale
    elif kernel.phase(st) == kernel.PHASE_OVER:
        if kind == REWARD_POINTS:
            r = after / scale
        elif kernel.is_match(st):
            w = kernel.match_winner(st)
            r = 1.0 if w == 0 else (-1.0 if w == 1 else 0.0)
        else:
            r = 1.0 if after > 0 else (-1.0 if after < 0 else 0.0)
    for p in range(kernel.n_players(rp)):         # team 0 = the even seats, team 1 the odd ones
        out[p] = r if p % 2 == 0 else -r


@njit(cache=True, inline="always")
def _individual_step(st: np.ndarray, action: int, rp: np.ndarray, kind: int, out: np.ndarray,
                     sign: float, scale: float) -> None:
    """Everyone alone: rewards when a hand (or the game) ends; ``sign`` +1 when a higher score
    is better, −1 when lower is; ``scale`` divides the "points" reward."""
    core.apply_action(st, action, rp)
    n = kernel.n_players(rp)
    for p in range(n):
        out[p] = 0.0
    if kernel.phase(st) != kernel.PHASE_OVER:
        return
    if kind == REWARD_POINTS:
        total = 0
        for p in range(n):
            total += kernel.score_of(st, p)
        mean = total / n
        for p in range(n):
            out[p] = sign * (kernel.score_of(st, p) - mean) / scale
    elif kernel.is_match(st):
        w = kernel.match_winner(st)
        if w >= 0:
            for p in range(n):
                out[p] = 1.0 if p == w else -1.0 / (n - 1)
    else:
        best = sign * kernel.score_of(st, 0)
        for p in range(1, n):
            best = max(best, sign * kernel.score_of(st, p))
        k = 0
        for p in range(n):
            if sign * kernel.score_of(st, p) == best:
                k += 1
        if k < n:
            for p in range(n):
                out[p] = 1.0 / k if sign * kernel.score_of(st, p) == best else -1.0 / (n - k)


# ---- Coiffeur (issue 15)
@njit(cache=True, inline="always")
def coiffeur_reward_scale(rp: np.ndarray) -> float:
    """157 x the largest row factor of the Coiffeur game of ``rp``: the ``"points"`` normalizer."""
    largest = 1
    for r in range(len(COIFFEUR_ROW_LABELS)):
        largest = max(largest, rp[RP_CO_FACTOR + r])
    return REWARD_SCALE * largest


@njit(cache=True)            # a real call: one more inlined apply_action would slow the compile
def _coiffeur_step(st: np.ndarray, action: int, rp: np.ndarray, kind: int, out: np.ndarray) -> None:
    """Schieber's team rewards on the row scores, divided by the Coiffeur scale (one division,
    so the AEC env's float64 and the batched env's float32 rewards round alike)."""
    _schieber_step(st, action, rp, kind, out, coiffeur_reward_scale(rp))
