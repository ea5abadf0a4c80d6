"""What one seat knows, decoded from its observation vector (and action mask).

Bots decide from this only (plus the Rules, which are public). Two forms share one decoder:

* :func:`decode_view` (numba, compiled) writes a compact ``int64[V_SIZE]`` array (offsets ``V_*``
  below). The compiled bots read it directly, so decoding costs about a microsecond.
* :class:`SeatView` is the same information as a readable dataclass (``SeatView.from_obs``).

Slice offsets come from :func:`jass_env.observation.layout_offsets` (never written down twice):
Schieber's layout (4 seats, 9 tricks) or Schieber for six's (6 seats, 6 tricks). All seats are
*relative to the observer*: 0 me, 1 next player (opponent), 2 partner, 3 previous (opponent);
with six players 2 and 4 are my team-mates, 1, 3, 5 the opponents. Card sets are 36-bit masks
(bit = card id, see :mod:`jass_env.cards`).

Compact layout (``int64[V_SIZE]``; per-seat fields have room for MAX_PLAYERS seats, the game's
``players`` are used):

==================  ===  =================================================================
V_HAND              1    my cards
V_PLAYED            6    cards each relative seat has played this round (current trick too)
V_TRICK             6    cards of the current trick in play order (leader first), -1 = empty
V_N_TRICK           1    number of cards in the current trick, 0..players-1
V_VOIDS             6    per relative seat: bit s = shown void in suit s (trump: maybe the Puur)
V_WEIS              6    per relative seat: public Weis cards (played ones included)
V_CONTRACT          1    0..5, -1 before the contract is chosen
V_PHASE             1    0 choosing, 1 choosing after a push, 2 card play, -1 none (round over)
V_PUSHED            1    1 if forehand pushed
V_DECLARER          1    relative seat of the declarer, -1 before
V_FOREHAND          1    relative seat of forehand
V_LEADER            1    relative seat leading the current trick (card play), -1 otherwise
V_TRICK_NO          1    current trick 0..tricks-1 (card play), -1 otherwise
V_POINTS            2    card points taken so far: own team, opponents
V_LEGAL             1    the legal actions as a 43-bit mask (from the action mask)
V_PLAYERS           1    the game's players (4, or 6 in Schieber for six)
==================  ===  =================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numba import njit

from jass_env.cards import CONTRACTS, N_ACTIONS
from jass_env.observation import layout_offsets
from jass_env.spec import MAX_PLAYERS, ROUND_POINTS, SPECS

#: the observation's card points are divided by a round's card points
_POINTS_SCALE = float(ROUND_POINTS)
#: the Schieber games whose observation this view decodes: players -> tricks
TRICKS_OF = {SPECS[g].players: SPECS[g].tricks for g in ("schieber", "schieber6")}

# compact view layout
V_HAND = 0
V_PLAYED = V_HAND + 1
V_TRICK = V_PLAYED + MAX_PLAYERS
V_N_TRICK = V_TRICK + MAX_PLAYERS
V_VOIDS = V_N_TRICK + 1
V_WEIS = V_VOIDS + MAX_PLAYERS
V_CONTRACT = V_WEIS + MAX_PLAYERS
V_PHASE = V_CONTRACT + 1
V_PUSHED = V_PHASE + 1
V_DECLARER = V_PUSHED + 1
V_FOREHAND = V_DECLARER + 1
V_LEADER = V_FOREHAND + 1
V_TRICK_NO = V_LEADER + 1
V_POINTS = V_TRICK_NO + 1
V_LEGAL = V_POINTS + 2
V_PLAYERS = V_LEGAL + 1
V_SIZE = V_PLAYERS + 1

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
def decode_view(obs: np.ndarray, action_mask: np.ndarray, out: np.ndarray, players: int = 4,
                tricks: int = 9) -> None:
    """Decode an observation (float32, the Schieber layout for ``players`` seats and ``tricks``
    tricks) and action mask (length 43) into ``out`` (V_SIZE)."""
    (o_hand, o_played, o_trick, o_voids, o_weis, o_contract, o_phase, o_pushed, o_declarer, o_forehand,
     o_leader, o_trick_no, o_points, _, _, _, _, _, _) = layout_offsets(players, tricks)
    out[V_HAND] = _mask36(obs, o_hand)
    out[V_PLAYERS] = players
    for r in range(MAX_PLAYERS):
        out[V_PLAYED + r] = 0
        out[V_WEIS + r] = 0
        out[V_VOIDS + r] = 0
    for r in range(players):
        out[V_PLAYED + r] = _mask36(obs, o_played + 36 * r)
        out[V_WEIS + r] = _mask36(obs, o_weis + 36 * r)
        v = 0
        for s in range(4):
            if obs[o_voids + 4 * r + s] > 0.5:
                v |= 1 << s
        out[V_VOIDS + r] = v
    out[V_CONTRACT] = _one_hot(obs, o_contract, 6)
    out[V_PHASE] = _one_hot(obs, o_phase, 3)
    out[V_PUSHED] = 1 if obs[o_pushed] > 0.5 else 0
    out[V_DECLARER] = _one_hot(obs, o_declarer, players)
    out[V_FOREHAND] = _one_hot(obs, o_forehand, players)
    leader = _one_hot(obs, o_leader, players)
    out[V_LEADER] = leader
    out[V_TRICK_NO] = _one_hot(obs, o_trick_no, tricks)
    out[V_POINTS] = np.int64(np.round(obs[o_points] * _POINTS_SCALE))
    out[V_POINTS + 1] = np.int64(np.round(obs[o_points + 1] * _POINTS_SCALE))
    # current trick: the seats from the leader on, as long as each has a card on the table
    for i in range(MAX_PLAYERS):
        out[V_TRICK + i] = -1
    n = 0
    if leader >= 0:
        for i in range(players):
            r = (leader + i) % players
            card = _one_hot(obs, o_trick + 36 * r, 36)
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


def decode(obs: Mapping[str, np.ndarray] | np.ndarray, action_mask: np.ndarray | None = None,
           players: int = 4) -> np.ndarray:
    """The compact view (int64[V_SIZE]) of an observation dict or an observation vector + mask,
    of Schieber (``players`` 4) or Schieber for six (6).

    Raises ValueError on a wrong shape or a missing action mask.
    """
    if players not in TRICKS_OF:
        raise ValueError(f"players must be one of {sorted(TRICKS_OF)} (Schieber, Schieber for six), "
                         f"got {players!r}")
    tricks = TRICKS_OF[players]
    obs_dim = layout_offsets(players, tricks)[-1]
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
    if vec.shape != (obs_dim,):
        raise ValueError(f"observation must have shape ({obs_dim},), got {vec.shape}")
    if mask.shape != (N_ACTIONS,):
        raise ValueError(f"action mask must have shape ({N_ACTIONS},), got {mask.shape}")
    out = np.empty(V_SIZE, dtype=np.int64)
    decode_view(vec, mask.astype(np.int8, copy=False), out, players, tricks)
    return out


@dataclass(frozen=True)
class SeatView:
    """What the observing seat knows. Seats are relative (0 me, 1 next, 2 partner, 3 previous;
    six players: 0 me, 2 and 4 team-mates)."""

    hand: int                          #: my cards (36-bit mask)
    played: tuple[int, ...]            #: cards played this round per relative seat
    trick: tuple[int, ...]             #: current trick cards in play order (leader first)
    trick_leader: int                  #: relative seat that led the current trick (-1 outside play)
    voids: tuple[int, ...]             #: per relative seat, bit s = void in suit s (trump: maybe Puur)
    weis_public: tuple[int, ...]       #: public Weis cards per relative seat
    contract: int | None               #: 0..5 (see jass_env.cards.CONTRACTS) or None
    phase: int                         #: 0 choosing, 1 choosing after push, 2 play, -1 round over
    pushed: bool
    declarer: int | None               #: relative seat of the declarer
    forehand: int                      #: relative seat of forehand
    leader: int | None                 #: relative seat leading the current trick
    trick_number: int                  #: 0..tricks-1 during play, -1 otherwise
    card_points: tuple[int, int]       #: card points so far (own team, opponents)
    legal: int                         #: legal actions as a 43-bit mask
    compact: np.ndarray                #: the int64[V_SIZE] form the compiled bots read

    @classmethod
    def from_obs(cls, obs: Mapping[str, np.ndarray] | np.ndarray,
                 action_mask: np.ndarray | None = None, players: int = 4) -> SeatView:
        """Decode an observation dict (or vector + action mask) of ``players`` seats."""
        return cls.from_compact(decode(obs, action_mask, players))

    @classmethod
    def from_compact(cls, v: np.ndarray) -> SeatView:
        n = int(v[V_N_TRICK])
        players = int(v[V_PLAYERS])
        return cls(
            hand=int(v[V_HAND]),
            played=tuple(int(x) for x in v[V_PLAYED:V_PLAYED + players]),
            trick=tuple(int(x) for x in v[V_TRICK:V_TRICK + n]),
            trick_leader=int(v[V_LEADER]),
            voids=tuple(int(x) for x in v[V_VOIDS:V_VOIDS + players]),
            weis_public=tuple(int(x) for x in v[V_WEIS:V_WEIS + players]),
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
        out = 0
        for cards in self.played:
            out |= cards
        return out

    @property
    def unseen(self) -> int:
        """Cards neither in my hand nor played: held by the other seats."""
        return ((1 << 36) - 1) & ~self.hand & ~self.played_all

    @property
    def contract_name(self) -> str | None:
        return None if self.contract is None else CONTRACTS[self.contract]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase] if self.phase >= 0 else "over"

    def hand_size(self, seat: int) -> int:
        """Cards the relative seat still holds (the dealt 9, or 6, minus what it has played)."""
        return TRICKS_OF[len(self.played)] - bin(self.played[seat]).count("1")

    def legal_actions(self) -> list[int]:
        return [a for a in range(N_ACTIONS) if self.legal >> a & 1]


__all__ = ["SeatView", "decode", "decode_view", "V_SIZE", "V_PLAYERS", "TRICKS_OF"]
