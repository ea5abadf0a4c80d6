"""What one seat knows, decoded from its observation vector (and action mask).

Bots decide from this only (plus the Rules, which are public). Two forms share one decoder:

* :func:`decode_view` (numba, compiled) writes a compact ``int64[V_SIZE]`` array (offsets ``V_*``
  below). The compiled bots read it directly, so decoding costs about a microsecond.
* :class:`SeatView` is the same information as a readable dataclass (``SeatView.from_obs``).

Slice offsets come from :data:`jass_env.observation.SLICES` (never written down twice). All seats
are *relative to the observer*: 0 me, 1 next player (opponent), 2 partner, 3 previous (opponent).
Card sets are 36-bit masks (bit = card id, see :mod:`jass_env.cards`).

Compact layout (``int64[V_SIZE]``):

==================  ===  =================================================================
V_HAND              1    my cards
V_PLAYED            4    cards each relative seat has played this round (current trick too)
V_TRICK             4    cards of the current trick in play order (leader first), -1 = empty
V_N_TRICK           1    number of cards in the current trick, 0..3
V_VOIDS             4    per relative seat: bit s = shown void in suit s (trump: maybe the Puur)
V_WEIS              4    per relative seat: public Weis cards (played ones included)
V_CONTRACT          1    0..5, -1 before the contract is chosen
V_PHASE             1    0 choosing, 1 choosing after a push, 2 card play, -1 none (round over)
V_PUSHED            1    1 if forehand pushed
V_DECLARER          1    relative seat of the declarer, -1 before
V_FOREHAND          1    relative seat of forehand
V_LEADER            1    relative seat leading the current trick (card play), -1 otherwise
V_TRICK_NO          1    current trick 0..8 (card play), -1 otherwise
V_POINTS            2    card points taken so far: own team, opponents
V_LEGAL             1    the legal actions as a 43-bit mask (from the action mask)
==================  ===  =================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numba import njit

from jass_env.cards import CONTRACTS, N_ACTIONS
from jass_env.observation import OBS_DIM, SLICES
from jass_env.spec import ROUND_POINTS

# observation offsets, taken from the one table in jass_env.observation
_O_HAND = SLICES["hand"].start
_O_PLAYED = SLICES["played"].start
_O_TRICK = SLICES["trick"].start
_O_VOIDS = SLICES["voids"].start
_O_WEIS = SLICES["weis_public"].start
_O_CONTRACT = SLICES["contract"].start
_O_PHASE = SLICES["phase"].start
_O_PUSHED = SLICES["pushed"].start
_O_DECLARER = SLICES["declarer"].start
_O_FOREHAND = SLICES["forehand"].start
_O_LEADER = SLICES["leader"].start
_O_TRICK_NO = SLICES["trick_number"].start
_O_POINTS = SLICES["card_points"].start
#: the observation's card points are divided by a round's card points
_POINTS_SCALE = float(ROUND_POINTS)

# compact view layout
V_HAND = 0
V_PLAYED = 1
V_TRICK = 5
V_N_TRICK = 9
V_VOIDS = 10
V_WEIS = 14
V_CONTRACT = 18
V_PHASE = 19
V_PUSHED = 20
V_DECLARER = 21
V_FOREHAND = 22
V_LEADER = 23
V_TRICK_NO = 24
V_POINTS = 25
V_LEGAL = 27
V_SIZE = 28

PHASE_NAMES = ("choosing", "choosing after push", "play")


@njit(cache=True)
def _mask36(obs: np.ndarray, off: int) -> int:
    m = np.int64(0)
    for c in range(36):
        if obs[off + c] > 0.5:
            m |= np.int64(1) << c
    return m


@njit(cache=True)
def _one_hot(obs: np.ndarray, off: int, n: int) -> int:
    for i in range(n):
        if obs[off + i] > 0.5:
            return i
    return -1


@njit(cache=True)
def decode_view(obs: np.ndarray, action_mask: np.ndarray, out: np.ndarray) -> None:
    """Decode an observation (float32[OBS_DIM]) and action mask (length 43) into ``out`` (V_SIZE)."""
    out[V_HAND] = _mask36(obs, _O_HAND)
    for r in range(4):
        out[V_PLAYED + r] = _mask36(obs, _O_PLAYED + 36 * r)
        out[V_WEIS + r] = _mask36(obs, _O_WEIS + 36 * r)
        v = 0
        for s in range(4):
            if obs[_O_VOIDS + 4 * r + s] > 0.5:
                v |= 1 << s
        out[V_VOIDS + r] = v
    out[V_CONTRACT] = _one_hot(obs, _O_CONTRACT, 6)
    out[V_PHASE] = _one_hot(obs, _O_PHASE, 3)
    out[V_PUSHED] = 1 if obs[_O_PUSHED] > 0.5 else 0
    out[V_DECLARER] = _one_hot(obs, _O_DECLARER, 4)
    out[V_FOREHAND] = _one_hot(obs, _O_FOREHAND, 4)
    leader = _one_hot(obs, _O_LEADER, 4)
    out[V_LEADER] = leader
    out[V_TRICK_NO] = _one_hot(obs, _O_TRICK_NO, 9)
    out[V_POINTS] = np.int64(np.round(obs[_O_POINTS] * _POINTS_SCALE))
    out[V_POINTS + 1] = np.int64(np.round(obs[_O_POINTS + 1] * _POINTS_SCALE))
    # current trick: the seats from the leader on, as long as each has a card on the table
    for i in range(4):
        out[V_TRICK + i] = -1
    n = 0
    if leader >= 0:
        for i in range(4):
            r = (leader + i) % 4
            card = _one_hot(obs, _O_TRICK + 36 * r, 36)
            if card < 0:
                break
            out[V_TRICK + i] = card
            n += 1
    out[V_N_TRICK] = n
    legal = np.int64(0)
    for a in range(43):
        if action_mask[a] != 0:
            legal |= np.int64(1) << a
    out[V_LEGAL] = legal


def decode(obs: Mapping[str, np.ndarray] | np.ndarray, action_mask: np.ndarray | None = None) -> np.ndarray:
    """The compact view (int64[V_SIZE]) of an observation dict or an observation vector + mask.

    Raises ValueError on a wrong shape or a missing action mask.
    """
    if isinstance(obs, Mapping):
        if "observation" not in obs or "action_mask" not in obs:
            raise ValueError(f"an observation dict needs the keys 'observation' and 'action_mask', "
                             f"got {sorted(obs)}")
        action_mask = obs["action_mask"]
        vec = obs["observation"]
    else:
        vec = obs
        if action_mask is None:
            raise ValueError("decode(vector) needs the action mask too: decode(vector, mask)")
    vec = np.asarray(vec, dtype=np.float32)
    mask = np.asarray(action_mask)
    if vec.shape != (OBS_DIM,):
        raise ValueError(f"observation must have shape ({OBS_DIM},), got {vec.shape}")
    if mask.shape != (N_ACTIONS,):
        raise ValueError(f"action mask must have shape ({N_ACTIONS},), got {mask.shape}")
    out = np.empty(V_SIZE, dtype=np.int64)
    decode_view(vec, mask.astype(np.int8, copy=False), out)
    return out


@dataclass(frozen=True)
class SeatView:
    """What the observing seat knows. Seats are relative (0 me, 1 next, 2 partner, 3 previous)."""

    hand: int                          #: my cards (36-bit mask)
    played: tuple[int, int, int, int]  #: cards played this round per relative seat
    trick: tuple[int, ...]             #: current trick cards in play order (leader first)
    trick_leader: int                  #: relative seat that led the current trick (-1 outside play)
    voids: tuple[int, int, int, int]   #: per relative seat, bit s = void in suit s (trump: maybe Puur)
    weis_public: tuple[int, int, int, int]  #: public Weis cards per relative seat
    contract: int | None               #: 0..5 (see jass_env.cards.CONTRACTS) or None
    phase: int                         #: 0 choosing, 1 choosing after push, 2 play, -1 round over
    pushed: bool
    declarer: int | None               #: relative seat of the declarer
    forehand: int                      #: relative seat of forehand
    leader: int | None                 #: relative seat leading the current trick
    trick_number: int                  #: 0..8 during play, -1 otherwise
    card_points: tuple[int, int]       #: card points so far (own team, opponents)
    legal: int                         #: legal actions as a 43-bit mask
    compact: np.ndarray                #: the int64[V_SIZE] form the compiled bots read

    @classmethod
    def from_obs(cls, obs: Mapping[str, np.ndarray] | np.ndarray,
                 action_mask: np.ndarray | None = None) -> SeatView:
        """Decode an observation dict (or vector + action mask)."""
        return cls.from_compact(decode(obs, action_mask))

    @classmethod
    def from_compact(cls, v: np.ndarray) -> SeatView:
        n = int(v[V_N_TRICK])
        return cls(
            hand=int(v[V_HAND]),
            played=tuple(int(x) for x in v[V_PLAYED:V_PLAYED + 4]),
            trick=tuple(int(x) for x in v[V_TRICK:V_TRICK + n]),
            trick_leader=int(v[V_LEADER]),
            voids=tuple(int(x) for x in v[V_VOIDS:V_VOIDS + 4]),
            weis_public=tuple(int(x) for x in v[V_WEIS:V_WEIS + 4]),
            contract=None if v[V_CONTRACT] < 0 else int(v[V_CONTRACT]),
            phase=int(v[V_PHASE]),
            pushed=bool(v[V_PUSHED]),
            declarer=None if v[V_DECLARER] < 0 else int(v[V_DECLARER]),
            forehand=int(v[V_FOREHAND]),
            leader=None if v[V_LEADER] < 0 else int(v[V_LEADER]),
            trick_number=int(v[V_TRICK_NO]),
            card_points=(int(v[V_POINTS]), int(v[V_POINTS + 1])),
            legal=int(v[V_LEGAL]),
            compact=v,
        )

    # ------------------------------------------------------------------ derived
    @property
    def played_all(self) -> int:
        """Every card played this round (the current trick included)."""
        return self.played[0] | self.played[1] | self.played[2] | self.played[3]

    @property
    def unseen(self) -> int:
        """Cards neither in my hand nor played: held by the other three seats."""
        return ((1 << 36) - 1) & ~self.hand & ~self.played_all

    @property
    def contract_name(self) -> str | None:
        return None if self.contract is None else CONTRACTS[self.contract]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase] if self.phase >= 0 else "over"

    def hand_size(self, seat: int) -> int:
        """Cards the relative seat still holds (9 minus what it has played)."""
        return 9 - bin(self.played[seat]).count("1")

    def legal_actions(self) -> list[int]:
        return [a for a in range(N_ACTIONS) if self.legal >> a & 1]


__all__ = ["SeatView", "decode", "decode_view", "V_SIZE"]
