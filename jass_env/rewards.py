"""Rewards, shared by the AEC and the batched environment.

Three kinds (``reward=`` keyword of the environments):

``"points"`` (default)
    When a round ends, every player gets its team's round score minus the opponents',
    divided by ``REWARD_SCALE`` = 157 (the card points of one round). Multipliers, Weis, Stöck and
    the Match bonus are included, so a value can exceed 1 in size.
``"win"``
    +1 / -1 / 0 for winning / losing / tying the round (score comparison) when it ends; in match
    episodes +1 / -1 / 0 for the match result when the match ends, 0 at the other round ends.
``"tricks"``
    The ``"points"`` total, paid as it is earned: after every action each player gets the change of
    (own team's round score - opponents') / 157, i.e. a trick's points when it is won, the Weis with
    trick 1, Stöck when shown, the Match bonus with the last trick.

In every case the two teams' rewards sum to zero: ``r[0] = r[2] = -r[1] = -r[3]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import core

REWARD_KINDS = ("points", "win", "tricks")
REWARD_POINTS, REWARD_WIN, REWARD_TRICKS = 0, 1, 2
REWARD_SCALE = 157.0


def reward_kind(name: str) -> int:
    """The number of a reward kind; ValueError lists the valid names."""
    if name not in REWARD_KINDS:
        raise ValueError(f"unknown reward {name!r}; valid rewards: {', '.join(REWARD_KINDS)}")
    return REWARD_KINDS.index(name)


@njit(cache=True)
def step_with_rewards(st: np.ndarray, action: int, rp: np.ndarray, kind: int, out: np.ndarray) -> None:
    """Apply a legal ``action`` and write the four players' rewards for it into ``out`` (length 4)."""
    before = st[core.S_SCORE] - st[core.S_SCORE + 1]
    core.apply_action(st, action, rp)
    after = st[core.S_SCORE] - st[core.S_SCORE + 1]
    r = 0.0
    if kind == REWARD_TRICKS:
        r = (after - before) / REWARD_SCALE
    elif st[core.S_PHASE] == core.PHASE_OVER:
        if kind == REWARD_POINTS:
            r = after / REWARD_SCALE
        elif st[core.S_MATCH]:
            w = st[core.S_MATCH_WINNER]
            r = 1.0 if w == 0 else (-1.0 if w == 1 else 0.0)
        else:
            r = 1.0 if after > 0 else (-1.0 if after < 0 else 0.0)
    out[0] = r
    out[1] = -r
    out[2] = r
    out[3] = -r
