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

from . import core, kernel
from .rules import RP_MULT, RP_TARGET, Rules
from .schieber import round_score_max, weis_team_max
from .spec import ROUND_POINTS

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


#: consecutive tied rounds past the target (``match_finish="round_end"``) that the match-score
#: bound of :func:`observation_high` allows for
TIE_ROUNDS_BOUND = 10


@njit(cache=True, inline="always")
def set_cards(out: np.ndarray, offset: int, mask: int) -> None:
    """Write 1.0 into ``out[offset + c]`` for every card id ``c`` (0..35) of the card set ``mask``
    (bit c = card c); the other entries are left as they are."""
    while mask:
        low = mask & -mask
        out[offset + kernel.lowest_bit(low)] = 1.0
        mask ^= low


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` (0..3) into ``out`` (float32, OBS_DIM)."""
    out[:OBS_DIM] = 0.0
    me = observer
    set_cards(out, O_HAND, kernel.hand_of(st, me))
    phase = kernel.phase(st)
    trick_no = kernel.trick_number(st)
    for r in range(4):
        p = (me + r) % 4
        set_cards(out, O_PLAYED + 36 * r, kernel.played_by(st, p))
        voids = kernel.voids_of(st, p)
        for s in range(4):
            if (voids >> s) & 1:
                out[O_VOIDS + 4 * r + s] = 1.0
        if trick_no >= 1:
            set_cards(out, O_WEIS + 36 * r, kernel.weis_cards_of(st, p))
    n = kernel.cards_in_trick(st)
    leader = kernel.leader(st)
    for i in range(n):
        r = (leader + i - me) % 4
        out[O_TRICK + 36 * r + kernel.trick_card(st, i)] = 1.0
    contract = kernel.contract(st)
    if contract >= 0:
        out[O_CONTRACT + contract] = 1.0
        out[O_DECLARER + (kernel.declarer(st) - me) % 4] = 1.0
        out[O_MULT] = rp[RP_MULT + contract] / 4.0
    pushed = kernel.pushed(st)
    if phase == kernel.PHASE_CONTRACT:
        out[O_PHASE + (1 if pushed else 0)] = 1.0
    elif phase == kernel.PHASE_PLAY:
        out[O_PHASE + 2] = 1.0
        out[O_LEADER + (leader - me) % 4] = 1.0
        out[O_TRICK_NO + trick_no] = 1.0
    out[O_PUSHED] = float(pushed)
    out[O_FOREHAND + (kernel.forehand(st) - me) % 4] = 1.0
    team = me % 2
    for k in range(2):
        t = (team + k) % 2
        out[O_POINTS + k] = kernel.points_of(st, t) / ROUND_POINTS
        if trick_no >= 1:
            out[O_WEIS_POINTS + k] = kernel.weis_points_of(st, t) / ROUND_POINTS
        out[O_SCORE + k] = kernel.score_of(st, t) / ROUND_POINTS
    stoeck = kernel.stoeck_shown_by(st)
    if stoeck >= 0:
        out[O_STOECK + (stoeck - me) % 4] = 1.0
    target = rp[RP_TARGET]
    if kernel.is_match(st) and target > 0:
        out[O_MATCH] = kernel.match_score_of(st, team) / target
        out[O_MATCH + 1] = kernel.match_score_of(st, 1 - team) / target
        out[O_MATCH + 2] = target / 2500.0


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic (float32, STATE_DIM): the observer's observation,
    then the four current hands by relative seat."""
    encode_observation(st, observer, rp, out)
    out[OBS_DIM:STATE_DIM] = 0.0
    for r in range(4):
        set_cards(out, O_HANDS_ALL + 36 * r, kernel.hand_of(st, (observer + r) % 4))


@njit(cache=True)
def encode_action_mask(st: np.ndarray, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the legal actions of the player to move as 0/1 into ``out`` (one entry per action of
    the game: 43 in Schieber, any dtype)."""
    core.write_legal_mask(core.legal_actions_mask(st, rp), core.legal_block(st, rp), out)


def observation_high(rules: Rules) -> np.ndarray:
    """Upper bounds (float32, OBS_DIM) of the observation vector under Schieber ``rules``; the
    low is 0.

    One-hot and card slices and ``card_points`` are at most 1. The others follow from the rules:
    ``weis_points`` from the largest Weis a team can hold, ``round_score`` from
    :func:`jass_env.schieber.round_score_max`, ``match`` totals from target + (1 +
    TIE_ROUNDS_BOUND) rounds + the Bergpreis (a match ends at the round that passes the target,
    or, under ``match_finish="round_end"``, after a tie; the bound allows ``TIE_ROUNDS_BOUND``
    tied rounds in a row), ``target / 2500`` and ``multiplier / 4`` from the switches. A small
    margin covers float32 rounding.
    """
    high = np.ones(OBS_DIM, dtype=np.float64)
    high[SLICES["weis_points"]] = max(1.0, weis_team_max(rules) / ROUND_POINTS)
    high[SLICES["round_score"]] = max(1.0, round_score_max(rules) / ROUND_POINTS)
    m = SLICES["match"]
    if rules.target > 0:
        total = rules.target + (1 + TIE_ROUNDS_BOUND) * round_score_max(rules) + rules.bergpreis
        high[m.start:m.start + 2] = max(1.0, total / rules.target)
        high[m.start + 2] = max(1.0, rules.target / 2500.0)
    high[SLICES["multiplier"]] = max(1.0, max(rules.multipliers) / 4.0)
    return (high * 1.0001).astype(np.float32)


def observation_slice(obs: np.ndarray, name: str) -> np.ndarray:
    """View of one named slice of an observation (or batch, last axis)."""
    if name not in SLICES:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(SLICES)}")
    return obs[..., SLICES[name]]
