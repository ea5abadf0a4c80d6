"""Sidi-Jass for two: the observation encoding (version 1), what one seat may know, as flat float32.

Used by the AEC environment (:mod:`jass_env.envs.aec`) and the batched environment
(:mod:`jass_env.envs.vector`) for ``sidi`` (n = 2 players, T = 18 tricks); both call the compiled
:func:`encode_observation`. Seats are *relative to the observer*: relative seat 0 is me, 1 the
opponent. Points and Weis are divided by 157 (``spec.ROUND_POINTS``).

===============  ======  ==========================================================================
slice            length  meaning
===============  ======  ==========================================================================
hand             36      1 for each card I hold
played           n×36    cards each relative seat has played this round
trick            n×36    the card each relative seat put on the current trick
voids            n×4     relative seat × suit (D H S C): 1 = shown void in that suit (only once the
                         stock is empty: free play shows nothing)
trump            4       one-hot trump suit
trump_card       36      the card turned face up at the deal (its suit is trump)
face_up          36      the card lying face up under the stock now (the trump 6 after the
                         exchange); 0 once it is drawn
known            n×36    cards each relative seat is known to hold: the face-up card he drew (the
                         loser of trick 10), the card he took by the exchange (until played)
stock_left       1       cards left in the stock / 20
exchanged        n       one-hot relative seat who exchanged the trump 6 (0 while nobody did)
dealer           n       one-hot relative seat of the dealer
leader           n       one-hot relative seat leading the current trick
trick_number     T       one-hot current trick 0..T−1
points           n       card points taken this round per relative seat / 157
tricks_won       n       tricks taken this round per relative seat / T
weis             n       after trick 1: the Weis each seat scores / 157 (the better player's all,
                         the other's none), clipped to [0, 4]
weis_cards       n×36    after trick 1: the cards of each seat's scoring Weis
stoeck           n       1 = that seat's Stöck is shown (+20 for him)
game_score       n       match episodes: each seat's total so far / target (or / (157 × rounds)
                         without a target), clipped to [0, 2]
===============  ======  ==========================================================================

``obs_dim``: 443; ``state_dim``: 1235. Every value lies in [0, 1] except ``weis`` ([0, 4]) and
``game_score`` ([0, 2]); :func:`observation_bounds` gives the bounds.

The full-information *state* for centralized critics (:func:`encode_state`) is the observation
followed by both current hands by relative seat (n×36) and the stock still to be drawn, one card
slice per place from its top (20×36, the face-up card last, 0 for the places already drawn); it
is never part of an observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.cards import N_SUITS, ROUND_POINTS
from jass_env.engine.spec import GameSpec
from jass_env.engine.state import seat_after
from jass_env.engine.switches import RP_MATCH_ROUNDS, RP_PLAYERS, RP_TARGET, RP_TRICKS, Rules

from .._observation import (
    CARD_SLICE,
    Layouts,
    card_slice_starts,
    encode_hands,
    encode_table,
    named_slice,
    relative,
    set_cards,
)
from . import rules as sidi

OBS_VERSION = 1
WEIS_HIGH = 4.0
GAME_SCORE_HIGH = 2.0

_SLICE_MEANINGS: tuple[tuple[str, str], ...] = (
    ("hand", "cards I hold"),
    ("played", "n x 36 cards each relative seat has played this round"),
    ("trick", "n x 36 card each relative seat put on the current trick"),
    ("voids", "n x 4 relative seat x suit: shown void (once the stock is empty)"),
    ("trump", "one-hot trump suit D H S C"),
    ("trump_card", "the card turned face up at the deal"),
    ("face_up", "the card lying face up under the stock now (0 once drawn)"),
    ("known", "n x 36 cards each relative seat is known to hold (face-up card drawn, exchange)"),
    ("stock_left", "cards left in the stock / 20"),
    ("exchanged", "one-hot relative seat who exchanged the trump 6"),
    ("dealer", "one-hot relative seat of the dealer"),
    ("leader", "one-hot relative seat leading the current trick"),
    ("trick_number", "one-hot current trick 0..T-1"),
    ("points", "card points this round per relative seat / 157"),
    ("tricks_won", "tricks this round per relative seat / T"),
    ("weis", "after trick 1: scoring Weis per relative seat / 157, clipped to [0, 4]"),
    ("weis_cards", "after trick 1: n x 36 cards of each seat's scoring Weis"),
    ("stoeck", "1 = that seat's Stoeck is shown"),
    ("game_score", "match: total per relative seat / target, clipped to [0, 2]"),
)


@njit(cache=True, inline="always")
def _offsets(n: int, t: int) -> tuple:
    """Start of every slice of :data:`_SLICE_MEANINGS` for ``n`` players and ``t`` tricks, then
    the observation's length."""
    _, played, trick, voids, trump = card_slice_starts(n)
    trump_card = trump + N_SUITS
    face_up = trump_card + CARD_SLICE
    known = face_up + CARD_SLICE
    stock_left = known + CARD_SLICE * n
    exchanged = stock_left + 1
    dealer = exchanged + n
    leader = dealer + n
    trick_number = leader + n
    points = trick_number + t
    tricks_won = points + n
    weis = tricks_won + n
    weis_cards = weis + n
    stoeck = weis_cards + CARD_SLICE * n
    game_score = stoeck + n
    end = game_score + n
    return (0, played, trick, voids, trump, trump_card, face_up, known, stock_left, exchanged, dealer,
            leader, trick_number, points, tricks_won, weis, weis_cards, stoeck, game_score, end)


def _state_extra(spec: GameSpec) -> int:
    """The floats the state adds after the observation: the n hands, then the stock's places."""
    return CARD_SLICE * (spec.players + sidi.STOCK_SIZE)


#: the layout of each spec of the game
LAYOUTS = Layouts(_offsets, _SLICE_MEANINGS, _state_extra)


def obs_slices(spec: GameSpec) -> tuple[tuple[str, int, int, str], ...]:
    """(name, offset, length, meaning) of every slice, in order."""
    return LAYOUTS.of(spec).obs_slices


def obs_dim(spec: GameSpec) -> int:
    return LAYOUTS.of(spec).obs_dim


def state_dim(spec: GameSpec) -> int:
    """Observation, then n hands, then the stock's places."""
    return LAYOUTS.of(spec).state_dim


def observation_bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays of length ``obs_dim(spec)``."""
    spec = rules.spec
    low = np.zeros(obs_dim(spec), dtype=np.float32)
    high = np.ones(obs_dim(spec), dtype=np.float32)
    s = LAYOUTS.of(spec).slices
    high[s["weis"]] = WEIS_HIGH
    high[s["game_score"]] = GAME_SCORE_HIGH
    return low, high


@njit(cache=True)
def encode_observation(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Write the observation of player ``observer`` into ``out`` (float32, at least obs_dim)."""
    n = rp[RP_PLAYERS]
    tricks = rp[RP_TRICKS]
    (_, _, _, _, o_trump, o_trump_card, o_face_up, o_known, o_stock_left, o_exchanged, o_dealer, o_leader,
     o_trick_no, o_points, o_tricks_won, o_weis, o_weis_cards, o_stoeck, o_game, end) = _offsets(n, tricks)
    out[:end] = 0.0
    me = observer
    encode_table(st, me, n, tricks, o_dealer, o_leader, o_trick_no, o_points, o_tricks_won, out)
    out[o_trump + state.contract(st)] = 1.0
    out[o_trump_card + state.trump_card(st)] = 1.0
    face_up = sidi.face_up_card(st)
    if face_up >= 0:
        out[o_face_up + face_up] = 1.0
    out[o_stock_left] = sidi.stock_left(st) / sidi.STOCK_SIZE
    t = sidi.exchange_trick(st)
    if t >= 0:
        exchanger = state.forehand(st) if t == 0 else state.trick_winner_of(st, t - 1)
        out[o_exchanged + relative(exchanger, me, n)] = 1.0
    weis_public = state.trick_number(st) >= 1
    stoeck = state.stoeck_shown_by(st)
    target = rp[RP_TARGET]
    scale = target if target > 0 else ROUND_POINTS * rp[RP_MATCH_ROUNDS]
    for r in range(n):
        p = seat_after(me, r, n)
        set_cards(out, o_known + CARD_SLICE * r, sidi.known_cards(st, p))
        if weis_public:
            out[o_weis + r] = min(state.weis_points_of(st, p) / ROUND_POINTS, WEIS_HIGH)
            set_cards(out, o_weis_cards + CARD_SLICE * r, state.weis_cards_of(st, p))
        if stoeck == p:
            out[o_stoeck + r] = 1.0
        if state.is_match(st):
            out[o_game + r] = min(max(state.match_score_of(st, p) / scale, 0.0), GAME_SCORE_HIGH)


@njit(cache=True)
def encode_state(st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    """Full information for a centralized critic (float32, state_dim): the observer's observation,
    both current hands by relative seat, then the stock still to be drawn, top first."""
    encode_observation(st, observer, rp, out)
    n = rp[RP_PLAYERS]
    base = _offsets(n, rp[RP_TRICKS])[-1]
    encode_hands(st, observer, n, base, out)
    base += CARD_SLICE * n
    out[base:base + CARD_SLICE * sidi.STOCK_SIZE] = 0.0
    drawn = sidi.stock_drawn(st)
    for k in range(sidi.STOCK_SIZE - drawn):
        out[base + CARD_SLICE * k + sidi.stock_place(st, drawn + k)] = 1.0


def observation_slice(obs: np.ndarray, spec: GameSpec, name: str) -> np.ndarray:
    """View of one named slice of a Sidi observation (or batch, last axis)."""
    return named_slice(obs, LAYOUTS.of(spec), name)
