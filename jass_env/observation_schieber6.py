"""Schieber for six's observation encoding (version 1): Schieber's slices (:mod:`jass_env.observation`)
sized for 6 seats and 6 tricks.

The compiled encoder is Schieber's (:func:`jass_env.observation.encode_observation`, which reads
the seats and tricks from the rules), so the AEC and the batched environments share it. Seats are
*relative to the observer*: relative seat ``r`` is player ``(observer + r) % 6``, so 0 = me, 1, 3,
5 the opponents (the next player in play order first), 2 and 4 my team-mates. "Own team" is the
observer's ({0, 2, 4} or {1, 3, 5}).

=============  ======  ======  =============================================================
slice          offset  length  meaning
=============  ======  ======  =============================================================
hand           0       36      1 for each card I hold (card ids of :mod:`jass_env.cards`)
played         36      216     6 x 36: cards each relative seat has played this round
trick          252     216     6 x 36: the card each relative seat put on the current trick
voids          468     24      6 x 4: relative seat x suit (D H S C), 1 = shown void in that suit
                               (trump suit: no trump other than possibly the Puur)
weis_public    492     216     6 x 36: Weis cards of each relative seat that are public
                               (the Weis-winning team's, from the end of trick 1)
contract       708     6       one-hot D H S C obenabe undenufe (all 0 before it is chosen)
phase          714     3       one-hot: choosing (forehand), choosing after a push, card play
pushed         717     1       1 if forehand pushed
declarer       718     6       one-hot relative seat of the declarer
forehand       724     6       one-hot relative seat of forehand
leader         730     6       one-hot relative seat leading the current trick (card play only)
trick_number   736     6       one-hot index of the current trick 0..5 (card play only)
card_points    742     2       card points taken so far: own team, opponents; / 157
weis_points    744     2       Weis points (public, from the end of trick 1): own, opp; / 157
stoeck         746     6       one-hot relative seat that has shown Stöck
round_score    752     2       the round's score so far (multiplier applied): own, opp; / 157
match          754     3       match mode: own total / target, opp total / target, target / 2500
                               (all 0 in single-round episodes)
multiplier     757     1       the contract's multiplier / 4 (0 before the contract)
=============  ======  ======  =============================================================

``OBS_DIM = 758``. The full-information *state* for centralized critics is the observation
followed by all six hands by relative seat (6 x 36), ``STATE_DIM = 974``; it is never part of an
observation. Bounds: :func:`jass_env.observation.observation_high` (Weis points from
:func:`jass_env.schieber.weis_team_max`, three hands of six cards).
"""

from __future__ import annotations

import numpy as np

from .observation import OBS_SLICES as SCHIEBER_SLICES
from .observation import layout_offsets, observation_high
from .rules import Rules
from .spec import SPECS

OBS_VERSION = 1
GAME = "schieber6"
PLAYERS = SPECS[GAME].players
TRICKS = SPECS[GAME].tricks

#: (name, offset, length, meaning) of every slice, in order (Schieber's names and meanings, six seats)
_STARTS = layout_offsets(PLAYERS, TRICKS)
OBS_SLICES: tuple[tuple[str, int, int, str], ...] = tuple(
    (name, _STARTS[i], _STARTS[i + 1] - _STARTS[i], meaning.replace("4 x", f"{PLAYERS} x")
     .replace("0..8", f"0..{TRICKS - 1}"))
    for i, (name, _, _, meaning) in enumerate(SCHIEBER_SLICES))
OBS_DIM = _STARTS[-1]
STATE_DIM = OBS_DIM + 36 * PLAYERS
SLICES = {name: slice(off, off + n) for name, off, n, _ in OBS_SLICES}


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length OBS_DIM for Schieber-for-six ``rules``."""
    return np.zeros(OBS_DIM, dtype=np.float32), observation_high(rules)


def observation_slice(obs: np.ndarray, name: str) -> np.ndarray:
    """View of one named slice of a Schieber-for-six observation (or batch, last axis)."""
    if name not in SLICES:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(SLICES)}")
    return obs[..., SLICES[name]]


__all__ = ["OBS_VERSION", "OBS_SLICES", "OBS_DIM", "STATE_DIM", "SLICES", "observation_bounds",
           "observation_slice"]
