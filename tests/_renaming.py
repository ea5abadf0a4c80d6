"""Helpers of the suit-symmetry tests: what a seat sees of a round, a deal's hands renamed, and the
check that every seat of a renamed round sees the original's position renamed by a game's tables
(its ``suit_symmetry`` module: ``renamed_obs = obs[obs_index]``, ``renamed_action =
act_index[action]``)."""

from __future__ import annotations

import numpy as np

from jass_env import Round
from jass_env.engine.cards import N_CARDS
from jass_env.engine.state import dealt_hand_of
from jass_env.engine.transitions import for_game


def seen(r: Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The observation of ``seat`` (float32[obs_dim]) and its action mask (int8[n_actions]; all 0
    unless ``seat`` is to move in a round not over)."""
    observation = r.game.observation
    obs = np.zeros(observation.obs_dim(r.spec), dtype=np.float32)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    observation.encode_observation(r.state, seat, r.rp, obs)
    if r.to_move == seat and not r.is_over:
        for_game(r.spec.kind).action_mask(r.state, r.rp, mask)
    return obs, mask


def renamed_hands(original: Round, cards: np.ndarray) -> list[list[int]]:
    """Every player's dealt hand of ``original`` (card ids), each card renamed by ``cards``
    (int[36]: the renamed id of every card)."""
    return [[int(cards[c]) for c in range(N_CARDS) if dealt_hand_of(original.state, p) >> c & 1]
            for p in range(original.spec.players)]


def assert_seen_renamed(original: Round, renamed: Round, obs_index: np.ndarray,
                        act_index: np.ndarray) -> None:
    """Every seat of ``renamed`` sees its observation of ``original`` gathered by ``obs_index``
    (int[obs_dim]) and its legal actions renamed by ``act_index`` (int[n_actions])."""
    for seat in range(original.spec.players):
        obs, mask = seen(original, seat)
        obs2, mask2 = seen(renamed, seat)
        np.testing.assert_array_equal(obs2, obs[obs_index])
        np.testing.assert_array_equal(mask2[act_index], mask)
