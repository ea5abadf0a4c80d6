"""What every game's ``suit_symmetry.py`` shares: the tables that rename a position's suits.

A renaming of the suits is a permutation σ of D H S C, given as ``perm`` (int[4]: suit s becomes
``perm[s]``). It renames every card ``9 s + r`` into ``9 σ(s) + r`` and everything indexed by suit
(a void, the trump suit, a trump contract, a sheet's trump row) from ``s`` into ``σ(s)``. A game's
``suit_symmetry`` module says which renamings its rules play the same and describes its layouts;
the tables are built here from that description:

* :func:`card_permutation` (36,): the renamed id of every card;
* :func:`observation_index` (m, obs_dim): ``renamed_obs = obs[index[i]]`` under permutation i,
  from the names of the observation's slices indexed by card and by suit;
* :func:`action_index` (m, n_actions): ``renamed_action = index[i][action]``, from the offsets of
  the actions indexed by suit (the cards, actions 0..35, always move);
* :func:`action_source` (m, n_actions): its inverse, for renaming a mask or logits:
  ``renamed_mask = mask[source[i]]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from jass_env.engine.cards import N_CARDS, N_RANKS, N_SUITS


class SymmetryError(ValueError):
    """Suit symmetry asked of a game it does not apply to."""


def card_permutation(perm: np.ndarray) -> np.ndarray:
    """The renamed id of every card (int64[36]) under the suit permutation ``perm`` (int[4]); of
    several permutations (int[m, 4]), one row each (int64[m, 36])."""
    cards = np.arange(N_CARDS)
    return np.asarray(perm, dtype=np.int64)[..., cards // N_RANKS] * N_RANKS + cards % N_RANKS


def observation_index(perms: np.ndarray, obs_dim: int, slices: Mapping[str, slice],
                      card_slices: Iterable[str], suit_slices: Iterable[str],
                      contract_slices: Mapping[str, int] | None = None) -> np.ndarray:
    """Gather index (int64[m, obs_dim]) of the observation renamed by each permutation of ``perms``
    (m, 4): feature j of the position renamed by ``perms[i]`` is feature ``index[i, j]`` of the
    original; the features of no slice named here stay.

    ``slices`` maps the layout's slice names to their features. Of the slices named,
    ``card_slices`` hold blocks of 36 features indexed by card id (one per seat, or one for a hand
    or a card), ``suit_slices`` blocks of 4 features indexed by suit (one per seat, or one for the
    trump suit), and ``contract_slices`` (name -> block length) blocks of one feature per contract
    or sheet row, whose first four are the trump suits D H S C.
    """
    perms = np.asarray(perms, dtype=np.int64).reshape(-1, N_SUITS)
    rows = np.arange(len(perms))[:, None]
    cards = card_permutation(perms)
    inverse = np.argsort(perms, axis=1)
    out = np.tile(np.arange(obs_dim, dtype=np.int64), (len(perms), 1))
    for name in card_slices:
        s = slices[name]
        for base in range(s.start, s.stop, N_CARDS):
            out[rows, base + cards] = base + np.arange(N_CARDS)
    suit_blocks = {name: N_SUITS for name in suit_slices} | dict(contract_slices or {})
    for name, length in suit_blocks.items():
        s = slices[name]
        for base in range(s.start, s.stop, length):
            out[:, base:base + N_SUITS] = base + inverse
    return out


def action_index(perms: np.ndarray, n_actions: int, suit_offsets: Iterable[int] = ()) -> np.ndarray:
    """Renamed action of each of ``n_actions`` actions (int64[m, n_actions]) under each permutation
    of ``perms`` (m, 4): a card (actions 0..35) takes its renamed id, the four actions from each
    offset of ``suit_offsets`` (one per trump suit D H S C) take the renamed suit's, the others stay.
    """
    perms = np.asarray(perms, dtype=np.int64).reshape(-1, N_SUITS)
    out = np.tile(np.arange(n_actions, dtype=np.int64), (len(perms), 1))
    out[:, :N_CARDS] = card_permutation(perms)
    for first in suit_offsets:
        out[:, first:first + N_SUITS] = first + perms
    return out


def action_source(index: np.ndarray) -> np.ndarray:
    """The inverse of an :func:`action_index` table ``index`` (int64[m, n_actions]): the action
    each renamed slot comes from."""
    out = np.empty_like(index)
    rows = np.arange(len(index))[:, None]
    out[rows, index] = np.arange(index.shape[1])
    return out


__all__ = ["SymmetryError", "card_permutation", "observation_index", "action_index", "action_source"]
