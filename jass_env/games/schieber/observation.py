"""Schieber's observation (version 1): what one seat may know, as a flat float32 vector.

Shared by the AEC environment (:mod:`jass_env.envs.aec`) and the batched environment
(:mod:`jass_env.envs.vector`); both call the compiled :func:`encode_observation` on the engine's
state array, so the two cannot drift apart.

Seats are *relative to the observer*: relative seat ``r`` is player ``(observer + r) % 4``, so
0 = me, 1 = the next player in play order (an opponent), 2 = my partner, 3 = the previous player
(an opponent). "Own team" is the observer's team.

=============  ======  ======  =============================================================
slice          offset  length  meaning
=============  ======  ======  =============================================================
hand           0       36      1 for each card I hold (card ids of :mod:`jass_env.engine.cards`)
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

Schieber for six uses the same slices in the same order sized for 6 seats and 6 tricks
(:func:`layout_offsets`: 758 floats, its state 758 + 6 × 36 = 974); the encoder reads the seats
and tricks from the rules. Bounds: :func:`observation_high` (Weis points from
:func:`jass_env.games.schieber.rules.weis_team_max`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import ROUND_POINTS
from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import RP_MULT, RP_PLAYERS, RP_TARGET, RP_TRICKS, Rules

from .._observation import set_cards
from .rules import round_score_max, weis_team_max

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
def layout_offsets(n: int, t: int) -> tuple:
    """The start of every slice of :data:`OBS_SLICES`, in order, for ``n`` seats and ``t``
    tricks, then the observation's length: Schieber's (n = 4, t = 9) are the offsets above,
    Schieber for six's (n = 6, t = 6) follow from the same sizes."""
    played = 36
    trick = played + 36 * n
    voids = trick + 36 * n
    weis = voids + 4 * n
    contract = weis + 36 * n
    phase = contract + 6
    pushed = phase + 3
    declarer = pushed + 1
    forehand = declarer + n
    leader = forehand + n
    trick_no = leader + n
    points = trick_no + t
    weis_points = points + 2
    stoeck = weis_points + 2
    score = stoeck + n
    match = score + 2
    mult = match + 3
    return (0, played, trick, voids, weis, contract, phase, pushed, declarer, forehand, leader, trick_no,
            points, weis_points, stoeck, score, match, mult, mult + 1)


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, OBS_DIM; the layout
    of :func:`layout_offsets` for the game's seats and tricks)."""
    n = rp[RP_PLAYERS]
    (_, o_played, o_trick, o_voids, o_weis, o_contract, o_phase, o_pushed, o_declarer, o_forehand,
     o_leader, o_trick_no, o_points, o_weis_points, o_stoeck, o_score, o_match, o_mult,
     end) = layout_offsets(n, rp[RP_TRICKS])
    out[:end] = 0.0
    me = observer
    set_cards(out, O_HAND, state.hand_of(st, me))
    phase = state.phase(st)
    trick_no = state.trick_number(st)
    for r in range(n):
        p = state.seat_after(me, r, n)
        set_cards(out, o_played + 36 * r, state.played_by(st, p))
        voids = state.voids_of(st, p)
        for s in range(4):
            if (voids >> s) & 1:
                out[o_voids + 4 * r + s] = 1.0
        if trick_no >= 1:
            set_cards(out, o_weis + 36 * r, state.weis_cards_of(st, p))
    cards = state.cards_in_trick(st)
    leader = state.leader(st)
    for i in range(cards):
        r = (leader + i - me) % n
        out[o_trick + 36 * r + state.trick_card(st, i)] = 1.0
    contract = state.contract(st)
    if contract >= 0:
        out[o_contract + contract] = 1.0
        out[o_declarer + (state.declarer(st) - me) % n] = 1.0
        out[o_mult] = rp[RP_MULT + contract] / 4.0
    pushed = state.pushed(st)
    if phase == state.PHASE_CONTRACT:
        out[o_phase + (1 if pushed else 0)] = 1.0
    elif phase == state.PHASE_PLAY:
        out[o_phase + 2] = 1.0
        out[o_leader + (leader - me) % n] = 1.0
        out[o_trick_no + trick_no] = 1.0
    out[o_pushed] = float(pushed)
    out[o_forehand + (state.forehand(st) - me) % n] = 1.0
    team = me % 2
    for k in range(2):
        t = (team + k) % 2
        out[o_points + k] = state.points_of(st, t) / ROUND_POINTS
        if trick_no >= 1:
            out[o_weis_points + k] = state.weis_points_of(st, t) / ROUND_POINTS
        out[o_score + k] = state.score_of(st, t) / ROUND_POINTS
    stoeck = state.stoeck_shown_by(st)
    if stoeck >= 0:
        out[o_stoeck + (stoeck - me) % n] = 1.0
    target = rp[RP_TARGET]
    if state.is_match(st) and target > 0:
        out[o_match] = state.match_score_of(st, team) / target
        out[o_match + 1] = state.match_score_of(st, 1 - team) / target
        out[o_match + 2] = target / 2500.0


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic (float32, STATE_DIM): the observer's observation,
    then every current hand by relative seat (n x 36)."""
    encode_observation(st, observer, rp, out)
    n = rp[RP_PLAYERS]
    base = layout_offsets(n, rp[RP_TRICKS])[-1]
    out[base:base + 36 * n] = 0.0
    for r in range(n):
        set_cards(out, base + 36 * r, state.hand_of(st, state.seat_after(observer, r, n)))


def layout_slices(players: int, tricks: int) -> dict[str, slice]:
    """Name -> slice of the layout for ``players`` seats and ``tricks`` tricks (Schieber's is
    :data:`SLICES`)."""
    starts = layout_offsets(players, tricks)
    return {row[0]: slice(starts[i], starts[i + 1]) for i, row in enumerate(OBS_SLICES)}


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice for a Schieber game, in order."""
    starts = layout_offsets(spec.players, spec.tricks)
    return tuple((name, starts[i], starts[i + 1] - starts[i],
                  meaning.replace("4 x", f"{spec.players} x").replace("0..8", f"0..{spec.tricks - 1}"))
                 for i, (name, _, _, meaning) in enumerate(OBS_SLICES))


def obs_dim(spec: GameSpec) -> int:
    return layout_offsets(spec.players, spec.tricks)[-1]


def state_dim(spec: GameSpec) -> int:
    """Observation, then every hand by relative seat."""
    return obs_dim(spec) + 36 * spec.players


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length :func:`obs_dim` that hold every observation."""
    high = observation_high(rules)
    return np.zeros(high.shape[0], dtype=np.float32), high


def observation_high(rules: Rules) -> np.ndarray:
    """Upper bounds (float32, OBS_DIM) of the observation vector under Schieber ``rules`` (or
    Schieber for six's, of its length); the low is 0.

    One-hot and card slices and ``card_points`` are at most 1. The others follow from the rules:
    ``weis_points`` from the largest Weis a team can hold, ``round_score`` from
    :func:`jass_env.games.schieber.rules.round_score_max`, ``match`` totals from target + (1 +
    TIE_ROUNDS_BOUND) rounds + the Bergpreis (a match ends at the round that passes the target,
    or, under ``match_finish="round_end"``, after a tie; the bound allows ``TIE_ROUNDS_BOUND``
    tied rounds in a row), ``target / 2500`` and ``multiplier / 4`` from the switches. A small
    margin covers float32 rounding.
    """
    spec = rules.spec
    slices = layout_slices(spec.players, spec.tricks)
    high = np.ones(layout_offsets(spec.players, spec.tricks)[-1], dtype=np.float64)
    high[slices["weis_points"]] = max(1.0, weis_team_max(rules) / ROUND_POINTS)
    high[slices["round_score"]] = max(1.0, round_score_max(rules) / ROUND_POINTS)
    m = slices["match"]
    if rules.target > 0:
        total = rules.target + (1 + TIE_ROUNDS_BOUND) * round_score_max(rules) + rules.bergpreis
        high[m.start:m.start + 2] = max(1.0, total / rules.target)
        high[m.start + 2] = max(1.0, rules.target / 2500.0)
    high[slices["multiplier"]] = max(1.0, max(rules.multipliers) / 4.0)
    return (high * 1.0001).astype(np.float32)


def observation_slice(obs: np.ndarray, name: str) -> np.ndarray:
    """View of one named slice of an observation (or batch, last axis)."""
    if name not in SLICES:
        raise KeyError(f"unknown observation slice {name!r}; slices: {', '.join(SLICES)}")
    return obs[..., SLICES[name]]
