"""Observation encoding (version 1): what one seat may know, as a flat float32 vector.

Shared by the AEC environment (:mod:`jass_env.aec`) and the batched environment
(:mod:`jass_env.vector`); both call the compiled :func:`encode_observation` on the engine's state
array, so the two cannot drift apart.

Seats are *relative to the observer*: relative seat ``r`` is player ``(observer + r) % 4``, so
0 = me, 1 = the next player in play order (an opponent), 2 = my partner, 3 = the previous player
(an opponent). "Own team" is the observer's team.

=============  ======  ======  =============================================================
slice          offset  length  meaning
=============  ======  ======  =============================================================
hand           0       36      1 for each card I hold (card ids of :mod:`jass_env.cards`)
played         36      144     4 x 36: cards each relative seat has played this round
trick          180     144     4 x 36: the card each relative seat put on the current trick
voids          324     16      4 x 4: relative seat x suit (D H S C), 1 = shown void in that suit
                               (trump suit: no trump other than possibly the Puur)
weis_public    340     144     4 x 36: Weis cards of each relative seat that are public
                               (the Weis-winning team's, from the end of trick 1)
contract       484     6       one-hot D H S C obenabe undenufe (all 0 before it is chosen)
phase          490     3       one-hot: choosing (forehand), choosing after a push, card play
pushed         493     1       1 if forehand pushed
declarer       494     4       one-hot relative seat of the declarer
forehand       498     4       one-hot relative seat of forehand
leader         502     4       one-hot relative seat leading the current trick (card play only)
trick_number   506     9       one-hot index of the current trick 0..8 (card play only)
card_points    515     2       card points taken so far: own team, opponents; / 157
weis_points    517     2       Weis points (public, from the end of trick 1): own, opp; / 157
stoeck         519     4       one-hot relative seat that has shown Stöck
round_score    523     2       the round's score so far (multiplier applied): own, opp; / 157
match          525     3       match mode: own total / target, opp total / target, target / 2500
                               (all 0 in single-round episodes)
multiplier     528     1       the contract's multiplier / 4 (0 before the contract)
=============  ======  ======  =============================================================

``OBS_DIM = 529``. The full-information *state* for centralized critics is the observation
followed by all four hands by relative seat (4 x 36), ``STATE_DIM = 673``; it is never part of an
observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import core
from .rules import RP_MULT, RP_TARGET

OBS_VERSION = 1

#: (name, offset, length, meaning) of every slice, in order.
OBS_SLICES: tuple[tuple[str, int, int, str], ...] = (
    ("hand", 0, 36, "cards I hold"),
    ("played", 36, 144, "4 x 36 cards each relative seat has played this round"),
    ("trick", 180, 144, "4 x 36 card each relative seat put on the current trick"),
    ("voids", 324, 16, "4 x 4 relative seat x suit: shown void"),
    ("weis_public", 340, 144, "4 x 36 public Weis cards of each relative seat (from end of trick 1)"),
    ("contract", 484, 6, "one-hot D H S C obenabe undenufe"),
    ("phase", 490, 3, "one-hot: choosing, choosing after a push, card play"),
    ("pushed", 493, 1, "1 if forehand pushed"),
    ("declarer", 494, 4, "one-hot relative seat of the declarer"),
    ("forehand", 498, 4, "one-hot relative seat of forehand"),
    ("leader", 502, 4, "one-hot relative seat leading the current trick"),
    ("trick_number", 506, 9, "one-hot current trick 0..8"),
    ("card_points", 515, 2, "card points so far, own / opponents, / 157"),
    ("weis_points", 517, 2, "public Weis points, own / opponents, / 157"),
    ("stoeck", 519, 4, "one-hot relative seat that has shown Stöck"),
    ("round_score", 523, 2, "round score so far (multiplied), own / opponents, / 157"),
    ("match", 525, 3, "own total / target, opponents / target, target / 2500 (match mode)"),
    ("multiplier", 528, 1, "contract multiplier / 4"),
)
OBS_DIM = 529
STATE_DIM = OBS_DIM + 144
SLICES = {name: slice(off, off + n) for name, off, n, _ in OBS_SLICES}

O_HAND, O_PLAYED, O_TRICK, O_VOIDS, O_WEIS = 0, 36, 180, 324, 340
O_CONTRACT, O_PHASE, O_PUSHED, O_DECLARER, O_FOREHAND, O_LEADER = 484, 490, 493, 494, 498, 502
O_TRICK_NO, O_POINTS, O_WEIS_POINTS, O_STOECK, O_SCORE, O_MATCH, O_MULT = 506, 515, 517, 519, 523, 525, 528
O_HANDS_ALL = OBS_DIM


@njit(cache=True, inline="always")
def _set_cards(out: np.ndarray, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[offset + core.lowest_bit(low)] = 1.0
        mask ^= low


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` (0..3) into ``out`` (float32, OBS_DIM)."""
    out[:OBS_DIM] = 0.0
    me = observer
    _set_cards(out, O_HAND, st[core.S_HANDS + me])
    phase = st[core.S_PHASE]
    trick_no = st[core.S_TRICK_NO]
    for r in range(4):
        p = (me + r) % 4
        _set_cards(out, O_PLAYED + 36 * r, st[core.S_PLAYED + p])
        voids = st[core.S_VOIDS + p]
        for s in range(4):
            if (voids >> s) & 1:
                out[O_VOIDS + 4 * r + s] = 1.0
        if trick_no >= 1:
            _set_cards(out, O_WEIS + 36 * r, st[core.S_WEIS_CARDS + p])
    n = st[core.S_N_IN_TRICK]
    leader = st[core.S_LEADER]
    for i in range(n):
        r = (leader + i - me) % 4
        out[O_TRICK + 36 * r + st[core.S_TRICK + i]] = 1.0
    contract = st[core.S_CONTRACT]
    if contract >= 0:
        out[O_CONTRACT + contract] = 1.0
        out[O_DECLARER + (st[core.S_DECLARER] - me) % 4] = 1.0
        out[O_MULT] = rp[RP_MULT + contract] / 4.0
    if phase == core.PHASE_CONTRACT:
        out[O_PHASE + (1 if st[core.S_PUSHED] else 0)] = 1.0
    elif phase == core.PHASE_PLAY:
        out[O_PHASE + 2] = 1.0
        out[O_LEADER + (leader - me) % 4] = 1.0
        out[O_TRICK_NO + trick_no] = 1.0
    out[O_PUSHED] = float(st[core.S_PUSHED])
    out[O_FOREHAND + (st[core.S_FOREHAND] - me) % 4] = 1.0
    team = me % 2
    for k in range(2):
        t = (team + k) % 2
        out[O_POINTS + k] = st[core.S_POINTS + t] / 157.0
        if trick_no >= 1:
            out[O_WEIS_POINTS + k] = st[core.S_WEIS_POINTS + t] / 157.0
        out[O_SCORE + k] = st[core.S_SCORE + t] / 157.0
    if st[core.S_STOECK_SHOWN]:
        out[O_STOECK + (st[core.S_STOECK_PLAYER] - me) % 4] = 1.0
    target = rp[RP_TARGET]
    if st[core.S_MATCH] and target > 0:
        out[O_MATCH] = st[core.S_MATCH_SCORE + team] / target
        out[O_MATCH + 1] = st[core.S_MATCH_SCORE + 1 - team] / target
        out[O_MATCH + 2] = target / 2500.0


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic (float32, STATE_DIM): the observer's observation,
    then the four current hands by relative seat."""
    encode_observation(st, observer, rp, out)
    out[OBS_DIM:STATE_DIM] = 0.0
    for r in range(4):
        _set_cards(out, O_HANDS_ALL + 36 * r, st[core.S_HANDS + (observer + r) % 4])


@njit(cache=True)
def encode_action_mask(st: np.ndarray, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the legal actions of the player to move as 0/1 into ``out`` (length 43, any dtype)."""
    write_action_bits(core.legal_actions_mask(st, rp), out)


@njit(cache=True)
def write_action_bits(bits: int, out: np.ndarray) -> None:
    """Write a 43-bit legal-action mask as 0/1 into ``out`` (length 43, any dtype)."""
    for a in range(43):
        out[a] = (bits >> a) & 1


def observation_slice(obs: np.ndarray, name: str) -> np.ndarray:
    """View of one named slice of an observation (or batch, last axis)."""
    if name not in SLICES:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(SLICES)}")
    return obs[..., SLICES[name]]
