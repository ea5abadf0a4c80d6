"""Differenzler observation encoding (version 1): what one seat may know, as a flat float32 vector.

Used by the AEC environment (:mod:`jass_env.envs.aec`) and the batched environment
(:mod:`jass_env.envs.vector`) for the games ``differenzler`` (n = 4 players, T = 9 tricks) and
``differenzler3`` (n = 3, T = 12); both call the compiled :func:`encode_observation`, so they cannot
drift apart. The layout is sized by the game: the slices below, in this order, with the offsets of
:func:`obs_slices`.

Seats are *relative to the observer*: relative seat ``r`` is player ``(observer + r) % n``, so
0 = me, 1 = the next player in play order, ..., n − 1 = the previous one. Everyone plays alone.
Points and predictions are divided by 157 (``spec.ROUND_POINTS``, a round's card points).

==============  ===========  ======  ==================================================================
slice           offset 4/3   length  meaning
==============  ===========  ======  ==================================================================
hand            0 / 0        36      1 for each card I hold (card ids of :mod:`jass_env.engine.cards`)
played          36 / 36      n×36    cards each relative seat has played this round
trick           180 / 144    n×36    the card each relative seat put on the current trick
voids           324 / 252    n×4     relative seat × suit (D H S C): 1 = shown void in that suit
trump           340 / 264    4       one-hot trump suit (fixed at the deal)
trump_card      344 / 268    36      the shown bottom card (the dealer holds it); all 0 with
                                     ``trump_mode="random_suit"``
dealer          380 / 304    n       one-hot relative seat of the dealer
phase           384 / 307    2       one-hot: predicting, card play (both 0 once the round is over)
my_prediction   386 / 309    1       my prediction / 157 (0 before I made it)
predicted       387 / 310    n       1 = that relative seat has made its prediction (public)
predictions     391 / 313    n       predictions / 157: with ``predictions="open"`` every one made;
                                     with ``"hidden"`` only my own (others' stay 0)
leader          395 / 316    n       one-hot relative seat leading the current trick (card play)
trick_number    399 / 319    T       one-hot current trick 0..T−1 (card play)
points          408 / 331    n       card points taken this round per relative seat / 157
tricks_won      412 / 334    n       tricks taken this round per relative seat / T
to_go           416 / 337    2       mine, card play only: max(pred − pts, 0) / 157 (still to take),
                                     max(pts − pred, 0) / 157 (taken too many)
game_penalty    418 / 339    n       match episodes: total penalty so far per relative seat divided
                                     by 157 × rounds (``match_rounds``), clipped to
                                     [GAME_PENALTY_LOW, GAME_PENALTY_HIGH] = [−1, 2]; 0 otherwise
rounds_left     422 / 342    1       match episodes: (rounds − rounds completed) / rounds, 0 in the
                                     tie-break rounds after the last; 0 otherwise
==============  ===========  ======  ==================================================================

``obs_dim``: 423 (differenzler), 343 (differenzler3). Every value lies in [0, 1] except
``game_penalty``, in [−1, 2]: a round's penalty is −10 .. 157, so after the scheduled rounds a total
lies in [−10/157, 1] × rounds; the clip is reached only after more than ``rounds`` tie-break rounds
with the worst penalty (or 15 × rounds exact hits). :func:`observation_bounds` gives the bounds.

A hidden prediction is never part of another seat's observation (tests swap one and compare).

The full-information *state* for centralized critics (:func:`encode_state`, ``state_dim``: 571 /
454) is the observation followed by every current hand by relative seat (n×36) and every
prediction made by relative seat (n, / 157, 0 before it is made); it is never part of an
observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import N_SUITS, ROUND_POINTS
from jass_env.engine.spec import GameSpec
from jass_env.engine.state import seat_after
from jass_env.engine.switches import RP_MATCH_ROUNDS, RP_PLAYERS, RP_TRICKS, Rules

from .._observation import (
    Layouts,
    card_slice_starts,
    encode_game,
    encode_hands,
    encode_table,
    named_slice,
)
from .rules import RP_PREDICTIONS_OPEN, prediction_of

OBS_VERSION = 1
#: bounds of the game_penalty slice (the only one outside [0, 1])
GAME_PENALTY_LOW = -1.0
GAME_PENALTY_HIGH = 2.0

#: (name, meaning) of every slice, in order; lengths and offsets follow from the game
_SLICE_MEANINGS: tuple[tuple[str, str], ...] = (
    ("hand", "cards I hold"),
    ("played", "n x 36 cards each relative seat has played this round"),
    ("trick", "n x 36 card each relative seat put on the current trick"),
    ("voids", "n x 4 relative seat x suit: shown void"),
    ("trump", "one-hot trump suit D H S C"),
    ("trump_card", "the shown bottom card (held by the dealer); 0 with random_suit"),
    ("dealer", "one-hot relative seat of the dealer"),
    ("phase", "one-hot: predicting, card play"),
    ("my_prediction", "my prediction / 157 (0 before)"),
    ("predicted", "1 = that relative seat has made its prediction"),
    ("predictions", "predictions / 157: all made ones when open, else my own only"),
    ("leader", "one-hot relative seat leading the current trick (card play)"),
    ("trick_number", "one-hot current trick 0..T-1 (card play)"),
    ("points", "card points this round per relative seat / 157"),
    ("tricks_won", "tricks this round per relative seat / T"),
    ("to_go", "mine in card play: max(pred - pts, 0) / 157, max(pts - pred, 0) / 157"),
    ("game_penalty", "match: total penalty per relative seat / (157 x rounds), clipped to [-1, 2]"),
    ("rounds_left", "match: (rounds - rounds completed) / rounds"),
)


@njit(cache=True, inline="always")
def _offsets(n: int, t: int) -> tuple:
    """Start of every slice of :data:`_SLICE_MEANINGS` for ``n`` players and ``t`` tricks, then
    the observation's length."""
    _, played, trick, voids, trump = card_slice_starts(n)
    trump_card = trump + N_SUITS
    dealer = trump_card + 36
    phase = dealer + n
    my_prediction = phase + 2
    predicted = my_prediction + 1
    predictions = predicted + n
    leader = predictions + n
    trick_number = leader + n
    points = trick_number + t
    tricks_won = points + n
    to_go = tricks_won + n
    game_penalty = to_go + 2
    rounds_left = game_penalty + n
    end = rounds_left + 1
    return (0, played, trick, voids, trump, trump_card, dealer, phase, my_prediction, predicted,
            predictions, leader, trick_number, points, tricks_won, to_go, game_penalty, rounds_left, end)


def _state_extra(spec: GameSpec) -> int:
    """The floats the state adds after the observation: the n hands, then the n predictions."""
    return 36 * spec.players + spec.players


#: the layout of each spec of the game
LAYOUTS = Layouts(_offsets, _SLICE_MEANINGS, _state_extra)


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice for a Differenzler game, in order."""
    return LAYOUTS.of(spec).obs_slices


def obs_dim(spec: GameSpec) -> int:
    return LAYOUTS.of(spec).obs_dim


def state_dim(spec: GameSpec) -> int:
    """Observation, then n hands and n predictions."""
    return LAYOUTS.of(spec).state_dim


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length ``obs_dim(spec)``: [0, 1] everywhere but
    ``game_penalty`` ([GAME_PENALTY_LOW, GAME_PENALTY_HIGH])."""
    spec = rules.spec
    low = np.zeros(obs_dim(spec), dtype=np.float32)
    high = np.ones(obs_dim(spec), dtype=np.float32)
    s = LAYOUTS.of(spec).slices["game_penalty"]
    low[s] = GAME_PENALTY_LOW
    high[s] = GAME_PENALTY_HIGH
    return low, high


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, at least obs_dim)."""
    n = rp[RP_PLAYERS]
    tricks = rp[RP_TRICKS]
    (_, _, _, _, o_trump, o_trump_card, o_dealer, o_phase, o_my_pred, o_predicted, o_preds, o_leader,
     o_trick_no, o_points, o_tricks_won, o_to_go, o_penalty, o_rounds, end) = _offsets(n, tricks)
    out[:end] = 0.0
    me = observer
    encode_table(st, me, n, tricks, o_dealer, o_leader, o_trick_no, o_points, o_tricks_won, out)
    open_predictions = rp[RP_PREDICTIONS_OPEN] != 0
    for r in range(n):
        pred = prediction_of(st, seat_after(me, r, n))
        if pred >= 0:
            out[o_predicted + r] = 1.0
            if r == 0 or open_predictions:
                out[o_preds + r] = pred / ROUND_POINTS
    trump = state.contract(st)
    if trump >= 0:
        out[o_trump + trump] = 1.0
    card = state.trump_card(st)
    if card >= 0:
        out[o_trump_card + card] = 1.0
    mine = prediction_of(st, me)
    if mine >= 0:
        out[o_my_pred] = mine / ROUND_POINTS
    phase = state.phase(st)
    if phase == state.PHASE_PREDICT:
        out[o_phase] = 1.0
    elif phase == state.PHASE_PLAY:
        out[o_phase + 1] = 1.0
        pts = state.points_of(st, me)
        out[o_to_go] = max(mine - pts, 0) / ROUND_POINTS
        out[o_to_go + 1] = max(pts - mine, 0) / ROUND_POINTS
    encode_game(st, me, n, rp[RP_MATCH_ROUNDS], ROUND_POINTS, GAME_PENALTY_LOW, GAME_PENALTY_HIGH, o_penalty,
                o_rounds, out)


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic (float32, state_dim): the observer's observation,
    then every current hand and every prediction (/ 157, 0 before it is made) by relative seat."""
    encode_observation(st, observer, rp, out)
    n = rp[RP_PLAYERS]
    base = _offsets(n, rp[RP_TRICKS])[-1]
    encode_hands(st, observer, n, base, out)
    predictions = base + 36 * n
    out[predictions:predictions + n] = 0.0
    for r in range(n):
        pred = prediction_of(st, seat_after(observer, r, n))
        if pred >= 0:
            out[predictions + r] = pred / ROUND_POINTS


def observation_slice(obs: np.ndarray, spec: GameSpec, name: str) -> np.ndarray:
    """View of one named slice of a Differenzler observation (or batch, last axis)."""
    return named_slice(obs, LAYOUTS.of(spec), name)
