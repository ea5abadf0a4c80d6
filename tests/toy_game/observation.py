"""Zwei's observation (version 1): what one seat may know, as flat float32.

=============  ======  ==================================================================
slice          length  meaning
=============  ======  ==================================================================
hand           36      1 for each card I hold
played         2×36    cards each relative seat (0 = me) has played this round
trick          2×36    the card each relative seat put on the current trick
voids          2×4     relative seat × suit: shown void
trump          4       one-hot trump suit (0 before it is named)
dealer         2       one-hot relative seat of the dealer
leader         2       one-hot relative seat leading the current trick (card play)
trick_number   12      one-hot current trick (card play)
points         2       card points this round per relative seat / 157
tricks_won     2       tricks this round per relative seat / 12
game_score     2       match episodes: total per relative seat / (157 × rounds)
rounds_left    1       match episodes: rounds left / rounds
=============  ======  ==================================================================

The state appends both hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import N_SUITS, ROUND_POINTS
from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import RP_MATCH_ROUNDS, RP_PLAYERS, RP_TRICKS, Rules
from jass_env.games._observation import (
    Layouts,
    card_slice_starts,
    encode_game,
    encode_hands,
    encode_table,
    named_slice,
)

OBS_VERSION = 1
GAME_SCORE_HIGH = 2.0
_SLICE_MEANINGS = (("hand", "cards I hold"), ("played", "2 x 36 played"),
                   ("trick", "2 x 36 on the trick"), ("voids", "2 x 4 shown voids"),
                   ("trump", "one-hot trump suit"), ("dealer", "one-hot dealer"),
                   ("leader", "one-hot leader"), ("trick_number", "one-hot trick"),
                   ("points", "points / 157"),
                   ("tricks_won", "tricks / T"), ("game_score", "totals / (157 x rounds)"),
                   ("rounds_left", "rounds left / rounds"))


@njit(cache=True, inline="always")
def _offsets(n: int, t: int) -> tuple:
    """Start of every slice for ``n`` players and ``t`` tricks, then the observation's length."""
    _, played, trick, voids, trump = card_slice_starts(n)
    dealer = trump + N_SUITS
    leader = dealer + n
    trick_number = leader + n
    points = trick_number + t
    tricks_won = points + n
    game_score = tricks_won + n
    rounds_left = game_score + n
    return (0, played, trick, voids, trump, dealer, leader, trick_number, points, tricks_won, game_score,
            rounds_left, rounds_left + 1)


def _state_extra(spec: GameSpec) -> int:
    return 36 * spec.players


LAYOUTS = Layouts(_offsets, _SLICE_MEANINGS, _state_extra)


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    return LAYOUTS.of(spec).obs_slices


def obs_dim(spec: GameSpec) -> int:
    return LAYOUTS.of(spec).obs_dim


def state_dim(spec: GameSpec) -> int:
    return LAYOUTS.of(spec).state_dim


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """[0, 1] everywhere but the game totals ([0, 2])."""
    layout = LAYOUTS.of(rules.spec)
    high = np.ones(layout.obs_dim, dtype=np.float32)
    high[layout.slices["game_score"]] = GAME_SCORE_HIGH
    return np.zeros(layout.obs_dim, dtype=np.float32), high


def observation_slice(obs: np.ndarray, spec: GameSpec, name: str) -> np.ndarray:
    return named_slice(obs, LAYOUTS.of(spec), name)


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, at least obs_dim)."""
    n, tricks = rp[RP_PLAYERS], rp[RP_TRICKS]
    (_, _, _, _, o_trump, o_dealer, o_leader, o_trick_no, o_points, o_tricks_won, o_game, o_rounds,
     end) = _offsets(n, tricks)
    out[:end] = 0.0
    encode_table(st, observer, n, tricks, o_dealer, o_leader, o_trick_no, o_points, o_tricks_won, out)
    if state.contract(st) >= 0:
        out[o_trump + state.contract(st)] = 1.0
    encode_game(st, observer, n, rp[RP_MATCH_ROUNDS], ROUND_POINTS, 0.0, GAME_SCORE_HIGH, o_game, o_rounds,
                out)


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """The observation, then both current hands by relative seat."""
    encode_observation(st, observer, rp, out)
    n = rp[RP_PLAYERS]
    encode_hands(st, observer, n, _offsets(n, rp[RP_TRICKS])[-1], out)
