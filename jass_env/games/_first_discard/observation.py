"""The observation of the games of trump by the first discard (version 1), Mittlere's and Molotow's:
what one seat may know, as flat float32.

Used by the AEC environment (:mod:`jass_env.envs.aec`) and the batched environment
(:mod:`jass_env.envs.vector`) for ``mittlere`` (n = 3 players, T = 12 tricks), ``molotow`` (n = 4,
T = 9), ``molotow3`` (n = 3, T = 12), ``molotow5`` (n = 5, T = 7) and ``molotow6`` (n = 6,
T = 6); both call the compiled :func:`encode_observation`. One
layout serves both games (Molotow's Weis slices stay 0 in Mittlere); it is sized by the game, the
slices below in this order (offsets from :func:`obs_slices`).

Seats are *relative to the observer*: relative seat ``r`` is player ``(observer + r) % n``
(0 = me, 1 = the next player in play order). Points and Weis are divided by 157
(``spec.ROUND_POINTS``).

===============  ======  ==========================================================================
slice            length  meaning
===============  ======  ==========================================================================
hand             36      1 for each card I hold
played           n×36    cards each relative seat has played this hand
trick            n×36    the card each relative seat put on the current trick
voids            n×4     relative seat × suit (D H S C): 1 = shown void in that suit
trump            4       one-hot trump suit, all 0 while none is fixed
trump_fixer      n       one-hot relative seat whose discard fixed trump (0 before)
trump_trick      T       one-hot trick in which trump was fixed (0 before)
trump_position   n       one-hot position in that trick of the fixing card (0 = the leader; 0 before)
dealer           n       one-hot relative seat of the dealer
leader           n       one-hot relative seat leading the current trick (card play)
trick_number     T       one-hot current trick 0..T−1 (card play)
points           n       card points taken this hand per relative seat / 157 (with the trump values
                         once trump is fixed, Obenabe values before)
tricks_won       n       tricks taken this hand per relative seat / T
hand_weis        n       Molotow, after trick 1: each seat's hand Weis / 157, clipped to [0, 4]
hand_weis_cards  n×36    Molotow, after trick 1: the cards of each seat's hand Weis
table_weis       n       Molotow: table Weis each seat has taken this hand / 157, clipped to [0, 8]
stoeck           n       Molotow: 1 = that seat's Stöck is shown (−20 for him)
game_score       n       match episodes: each seat's total so far / (scale × hands), scale 2 in
                         Mittlere (Striche − Nullen), 157 in Molotow; clipped to [−4, 8]
rounds_left      1       match episodes: (hands − hands completed) / hands, 0 in tie-break hands
===============  ======  ==========================================================================

``obs_dim``: 431 (mittlere, molotow3), 547 (molotow), 665 (molotow5), 785 (molotow6);
``state_dim``: 539, 691, 845, 1001. Every value lies
in [0, 1] except ``hand_weis`` ([0, 4]), ``table_weis`` ([0, 8]) and ``game_score`` ([−4, 8]);
:func:`observation_bounds` gives the bounds.

The full-information *state* for centralized critics (:func:`encode_state`) is the observation
followed by every current hand by relative seat (n×36); it is never part of an observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import N_SUITS, ROUND_POINTS
from jass_env.engine.spec import GameSpec
from jass_env.engine.state import seat_after
from jass_env.engine.switches import RP_MATCH_ROUNDS, RP_PLAYERS, RP_TRICKS

from .._observation import (
    Layouts,
    card_slice_starts,
    encode_game,
    encode_hands,
    encode_table,
    named_slice,
    relative,
    set_cards,
)
from . import rules as first_discard

OBS_VERSION = 1
HAND_WEIS_HIGH = 4.0
TABLE_WEIS_HIGH = 8.0
GAME_SCORE_LOW = -4.0
GAME_SCORE_HIGH = 8.0
#: game_score divisor per hand: Mittlere's Striche − Nullen (−2..+2), Molotow's points
MITTLERE_SCALE = 2.0

_SLICE_MEANINGS: tuple[tuple[str, str], ...] = (
    ("hand", "cards I hold"),
    ("played", "n x 36 cards each relative seat has played this hand"),
    ("trick", "n x 36 card each relative seat put on the current trick"),
    ("voids", "n x 4 relative seat x suit: shown void"),
    ("trump", "one-hot trump suit D H S C (0 while none is fixed)"),
    ("trump_fixer", "one-hot relative seat whose discard fixed trump"),
    ("trump_trick", "one-hot trick in which trump was fixed"),
    ("trump_position", "one-hot position of the fixing card in that trick (0 = leader)"),
    ("dealer", "one-hot relative seat of the dealer"),
    ("leader", "one-hot relative seat leading the current trick (card play)"),
    ("trick_number", "one-hot current trick 0..T-1 (card play)"),
    ("points", "card points this hand per relative seat / 157"),
    ("tricks_won", "tricks this hand per relative seat / T"),
    ("hand_weis", "Molotow, after trick 1: hand Weis per relative seat / 157, clipped to [0, 4]"),
    ("hand_weis_cards", "Molotow, after trick 1: n x 36 cards of each seat's hand Weis"),
    ("table_weis", "Molotow: table Weis taken per relative seat / 157, clipped to [0, 8]"),
    ("stoeck", "Molotow: 1 = that seat's Stoeck is shown"),
    ("game_score", "match: total per relative seat / (scale x hands), clipped to [-4, 8]"),
    ("rounds_left", "match: (hands - hands completed) / hands"),
)


@njit(cache=True, inline="always")
def _offsets(n: int, t: int) -> tuple:
    """Start of every slice of :data:`_SLICE_MEANINGS` for ``n`` players and ``t`` tricks, then
    the observation's length."""
    _, played, trick, voids, trump = card_slice_starts(n)
    fixer = trump + N_SUITS
    fix_trick = fixer + n
    fix_pos = fix_trick + t
    dealer = fix_pos + n
    leader = dealer + n
    trick_number = leader + n
    points = trick_number + t
    tricks_won = points + n
    hand_weis = tricks_won + n
    hand_weis_cards = hand_weis + n
    table_weis = hand_weis_cards + 36 * n
    stoeck = table_weis + n
    game_score = stoeck + n
    rounds_left = game_score + n
    end = rounds_left + 1
    return (0, played, trick, voids, trump, fixer, fix_trick, fix_pos, dealer, leader, trick_number,
            points, tricks_won, hand_weis, hand_weis_cards, table_weis, stoeck, game_score, rounds_left,
            end)


def _state_extra(spec: GameSpec) -> int:
    """The floats the state adds after the observation: the n hands."""
    return 36 * spec.players


#: the layout of each spec of the game
LAYOUTS = Layouts(_offsets, _SLICE_MEANINGS, _state_extra)


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice for Mittlere or Molotow, in order."""
    return LAYOUTS.of(spec).obs_slices


def obs_dim(spec: GameSpec) -> int:
    return LAYOUTS.of(spec).obs_dim


def state_dim(spec: GameSpec) -> int:
    """Observation, then n hands."""
    return LAYOUTS.of(spec).state_dim


def observation_bounds(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length ``obs_dim(spec)``."""
    low = np.zeros(obs_dim(spec), dtype=np.float32)
    high = np.ones(obs_dim(spec), dtype=np.float32)
    s = LAYOUTS.of(spec).slices
    high[s["hand_weis"]] = HAND_WEIS_HIGH
    high[s["table_weis"]] = TABLE_WEIS_HIGH
    low[s["game_score"]] = GAME_SCORE_LOW
    high[s["game_score"]] = GAME_SCORE_HIGH
    return low, high


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray, molotow: bool) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, at least obs_dim); with
    ``molotow`` its Weis and Stöck slices (0 in Mittlere)."""
    n = rp[RP_PLAYERS]
    tricks = rp[RP_TRICKS]
    (_, _, _, _, o_trump, o_fixer, o_fix_trick, o_fix_pos, o_dealer, o_leader, o_trick_no, o_points,
     o_tricks_won, o_hand_weis, o_weis_cards, o_table_weis, o_stoeck, o_game, o_rounds,
     end) = _offsets(n, tricks)
    out[:end] = 0.0
    me = observer
    encode_table(st, me, n, tricks, o_dealer, o_leader, o_trick_no, o_points, o_tricks_won, out)
    weis_public = molotow and state.trick_number(st) >= 1
    stoeck = state.stoeck_shown_by(st)
    for r in range(n):
        p = seat_after(me, r, n)
        if weis_public:
            out[o_hand_weis + r] = min(state.player_weis_of(st, p) / ROUND_POINTS, HAND_WEIS_HIGH)
            set_cards(out, o_weis_cards + 36 * r, state.weis_cards_of(st, p))
        if molotow:
            out[o_table_weis + r] = min(state.weis_points_of(st, p) / ROUND_POINTS, TABLE_WEIS_HIGH)
        if stoeck == p:
            out[o_stoeck + r] = 1.0
    fixer = state.declarer(st)
    if fixer >= 0:
        out[o_trump + state.contract(st)] = 1.0
        out[o_fixer + relative(fixer, me, n)] = 1.0
        t, i = first_discard.fix_position(st, rp)
        out[o_fix_trick + t] = 1.0
        out[o_fix_pos + i] = 1.0
    scale = ROUND_POINTS if molotow else MITTLERE_SCALE
    encode_game(st, me, n, rp[RP_MATCH_ROUNDS], scale, GAME_SCORE_LOW, GAME_SCORE_HIGH, o_game, o_rounds, out)


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray, molotow: bool) -> None:
    """Full information for a centralized critic (float32, state_dim): the observer's observation,
    then every current hand by relative seat."""
    encode_observation(st, observer, rp, out, molotow)
    n = rp[RP_PLAYERS]
    encode_hands(st, observer, n, _offsets(n, rp[RP_TRICKS])[-1], out)


def observation_slice(obs: np.ndarray, spec: GameSpec, name: str) -> np.ndarray:
    """View of one named slice of a Mittlere or Molotow observation (or batch, last axis)."""
    return named_slice(obs, LAYOUTS.of(spec), name)
