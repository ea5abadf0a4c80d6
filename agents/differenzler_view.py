"""What one Differenzler seat knows, decoded from its observation vector and action mask.

The Differenzler bots (:mod:`agents.random_bot`, :mod:`agents.differenzler`) decide from this only
(plus the Rules, which are public). :func:`decode_view` (compiled) writes a compact
``int64[DV_SIZE]`` array; :func:`seat_view` is its Python entry point for an observation dict
``{"observation": float32[obs_dim], "action_mask": int8[194]}``.

Slice offsets come from :data:`jass_env.observation_differenzler.SLICES` of the game (never written
down twice). Seats are *relative to the observer*: relative seat ``r`` is player ``(me + r) % n``
(0 = me, 1 = the next player in play order, ...). Card sets are 36-bit masks (bit = card id, see
:mod:`jass_env.cards`); points are card points (the observation's value × 157, rounded).

Compact layout (``int64[DV_SIZE]``, per-seat fields have room for MAX_PLAYERS seats):

================  ====  ===============================================================
DV_HAND           1     my cards
DV_PLAYED         4     cards each relative seat has played this round (current trick too)
DV_TRICK          4     the current trick's cards in play order (leader first), -1 = empty
DV_N_TRICK        1     cards in the current trick
DV_VOIDS          4     per relative seat: bit s = shown void in suit s
DV_TRUMP          1     trump suit 0..3
DV_TRUMP_CARD     1     the shown bottom card (held by the dealer until played), -1 = none
DV_DEALER         1     relative seat of the dealer
DV_PHASE          1     PREDICTING, PLAYING, or OVER
DV_PREDICTIONS    4     predictions per relative seat as far as visible, -1 = not made or hidden
DV_LEADER         1     relative seat leading the current trick (card play), -1 otherwise
DV_TRICK_NO       1     current trick 0..T-1 (card play), -1 otherwise
DV_POINTS         4     card points taken this round per relative seat
DV_TRICKS_WON     4     tricks taken this round per relative seat
DV_LEGAL          1     the legal cards (36-bit mask, from the action mask)
DV_PLAYERS        1     n
DV_TRICKS         1     T (tricks per round = cards per hand)
================  ====  ===============================================================
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from jass_env.core import PHASE_ACTION_OFFSET
from jass_env.observation_differenzler import OBS_DIMS, SLICES
from jass_env.rules import Rules
from jass_env.spec import MAX_PLAYERS, N_PREDICTIONS, ROUND_POINTS

from .view import _mask36, _one_hot  # the one decoder of card sets and one-hot slices

N_CARDS = 36
N_SUITS = 4
#: DV_PHASE values
PREDICTING, PLAYING, OVER = 0, 1, -1

DV_HAND = 0
DV_PLAYED = DV_HAND + 1
DV_TRICK = DV_PLAYED + MAX_PLAYERS
DV_N_TRICK = DV_TRICK + MAX_PLAYERS
DV_VOIDS = DV_N_TRICK + 1
DV_TRUMP = DV_VOIDS + MAX_PLAYERS
DV_TRUMP_CARD = DV_TRUMP + 1
DV_DEALER = DV_TRUMP_CARD + 1
DV_PHASE = DV_DEALER + 1
DV_PREDICTIONS = DV_PHASE + 1
DV_LEADER = DV_PREDICTIONS + MAX_PLAYERS
DV_TRICK_NO = DV_LEADER + 1
DV_POINTS = DV_TRICK_NO + 1
DV_TRICKS_WON = DV_POINTS + MAX_PLAYERS
DV_LEGAL = DV_TRICKS_WON + MAX_PLAYERS
DV_PLAYERS = DV_LEGAL + 1
DV_TRICKS = DV_PLAYERS + 1
DV_SIZE = DV_TRICKS + 1

#: the observation slices the decoder reads, in the order of the offsets array it is given
_READ = ("hand", "played", "trick", "voids", "trump", "trump_card", "dealer", "phase", "predicted",
         "predictions", "leader", "trick_number", "points", "tricks_won")
(_O_HAND, _O_PLAYED, _O_TRICK, _O_VOIDS, _O_TRUMP, _O_TRUMP_CARD, _O_DEALER, _O_PHASE, _O_PREDICTED,
 _O_PREDICTIONS, _O_LEADER, _O_TRICK_NO, _O_POINTS, _O_TRICKS_WON) = range(len(_READ))


def observation_offsets(game: str) -> np.ndarray:
    """The start of each slice the decoder reads (``_READ`` order) in ``game``'s observation."""
    if game not in SLICES:
        raise ValueError(f"not a Differenzler game: {game!r}; games: {', '.join(SLICES)}")
    return np.array([SLICES[game][name].start for name in _READ], dtype=np.int64)


@njit(cache=True)
def _points(x: float) -> int:
    return int(np.floor(x * ROUND_POINTS + 0.5))


@njit(cache=True)
def decode_view(obs: np.ndarray, mask: np.ndarray, offs: np.ndarray, n: int, tricks: int,
                open_predictions: bool, out: np.ndarray) -> None:
    """Decode one seat's observation (float32) and action mask into ``out`` (int64[DV_SIZE]).

    ``offs`` is :func:`observation_offsets` of the game, ``n`` its players, ``tricks`` its tricks;
    other seats' predictions are read only when ``open_predictions`` (else they are hidden).
    """
    out[:] = 0
    out[DV_PLAYERS] = n
    out[DV_TRICKS] = tricks
    out[DV_HAND] = _mask36(obs, offs[_O_HAND])
    for r in range(MAX_PLAYERS):
        out[DV_TRICK + r] = -1
        out[DV_PREDICTIONS + r] = -1
    for r in range(n):
        out[DV_PLAYED + r] = _mask36(obs, offs[_O_PLAYED] + N_CARDS * r)
        v = 0
        for s in range(N_SUITS):
            if obs[offs[_O_VOIDS] + N_SUITS * r + s] > 0.5:
                v |= 1 << s
        out[DV_VOIDS + r] = v
        out[DV_POINTS + r] = _points(obs[offs[_O_POINTS] + r])
        out[DV_TRICKS_WON + r] = int(np.floor(obs[offs[_O_TRICKS_WON] + r] * tricks + 0.5))
        if obs[offs[_O_PREDICTED] + r] > 0.5 and (r == 0 or open_predictions):
            out[DV_PREDICTIONS + r] = _points(obs[offs[_O_PREDICTIONS] + r])
    out[DV_TRUMP] = _one_hot(obs, offs[_O_TRUMP], N_SUITS)
    out[DV_TRUMP_CARD] = _one_hot(obs, offs[_O_TRUMP_CARD], N_CARDS)
    out[DV_DEALER] = _one_hot(obs, offs[_O_DEALER], n)
    ph = _one_hot(obs, offs[_O_PHASE], 2)
    out[DV_PHASE] = PREDICTING if ph == 0 else PLAYING if ph == 1 else OVER
    leader = _one_hot(obs, offs[_O_LEADER], n)
    out[DV_LEADER] = leader
    out[DV_TRICK_NO] = _one_hot(obs, offs[_O_TRICK_NO], tricks)
    if leader >= 0:
        k = 0
        for i in range(n):
            card = _one_hot(obs, offs[_O_TRICK] + N_CARDS * ((leader + i) % n), N_CARDS)
            if card < 0:
                break
            out[DV_TRICK + k] = card
            k += 1
        out[DV_N_TRICK] = k
    legal = np.int64(0)
    for c in range(N_CARDS):
        if mask[c]:
            legal |= np.int64(1) << c
    out[DV_LEGAL] = legal


class ViewDecoder:
    """Decodes observation dicts of one Differenzler game (``rules.game``) into compact views."""

    def __init__(self, rules: Rules) -> None:
        self.game = rules.game
        self.offs = observation_offsets(rules.game)
        self.players = rules.spec.players
        self.tricks = rules.spec.tricks
        self.n_actions = rules.spec.n_actions
        self.obs_dim = OBS_DIMS[rules.game]
        self.open_predictions = rules.predictions == "open"

    def __call__(self, obs: Mapping[str, np.ndarray]) -> np.ndarray:
        """The compact view (int64[DV_SIZE]) of ``{"observation": ..., "action_mask": ...}``."""
        if "observation" not in obs or "action_mask" not in obs:
            raise ValueError(f"the observation dict needs 'observation' and 'action_mask' keys, "
                             f"got {sorted(obs)}")
        o = np.asarray(obs["observation"], dtype=np.float32)
        mask = np.asarray(obs["action_mask"])
        if mask.shape != (self.n_actions,) or o.shape != (self.obs_dim,):
            raise ValueError(f"a {self.game} observation has an action mask of {self.n_actions} entries and "
                             f"an observation of {self.obs_dim}; got mask {mask.shape}, "
                             f"observation {o.shape}")
        v = np.empty(DV_SIZE, dtype=np.int64)
        decode_view(o, mask.astype(np.int8), self.offs, self.players, self.tricks, self.open_predictions, v)
        return v


def predicting(masks: np.ndarray) -> np.ndarray:
    """(N,) bool: which rows of the action masks ``masks`` (N, n_actions) allow the predictions
    (the whole block of N_PREDICTIONS); all False for a game without them."""
    m = np.asarray(masks)
    if m.shape[1] < PHASE_ACTION_OFFSET + N_PREDICTIONS:
        return np.zeros(m.shape[0], dtype=bool)
    return m[:, PHASE_ACTION_OFFSET:PHASE_ACTION_OFFSET + N_PREDICTIONS].astype(bool).all(axis=1)



def prediction_action(points: int) -> int:
    """The action that predicts ``points`` (clipped to 0..157)."""
    return PHASE_ACTION_OFFSET + int(min(max(points, 0), ROUND_POINTS))


__all__ = ["ViewDecoder", "decode_view", "observation_offsets", "predicting", "prediction_action",
           "PREDICTING", "PLAYING", "OVER"] + [k for k in dir() if k.startswith("DV_")]
