"""Suit symmetry of a Differenzler round: renaming the suits gives an equivalent position.

No rule of Differenzler names a suit. Trump is the suit of the card shown from the dealer's hand
(``trump_mode="bottom_card"``) or a suit drawn at random (``"random_suit"``); every suit is trump
with the same card values, the four trump suits all count once (multiplier 1), and the card play,
the under-trump ban, the predictions and the penalty name no suit. So a deal whose suits are
renamed by a permutation σ of D H S C (every card ``9 s + r`` becomes ``9 σ(s) + r``), with its
trump draw renamed too (the shown card ``c`` becomes the renamed card, so trump ``s`` becomes
``σ(s)``; a drawn suit ``s`` becomes ``σ(s)``), is played the same way and scores the same. All
24 renamings are exact, in both player counts and under every switch of the game.

For a learner this is free data (``agents.search.distill``'s augmentation, suit-averaged policies).
The tables here rename an observation of :mod:`jass_env.games.differenzler.observation` (the
layout of the rules' spec: 423 features for four players, 343 for three) and the 194 actions (the
36 cards renamed, the 158 predictions unchanged):

* :func:`suit_permutations` (m, 4): the permutations the rules allow, the identity first;
* :func:`observation_index` (m, obs_dim): ``renamed_obs = obs[index[i]]`` under permutation i;
* :func:`action_index` (m, n_actions): ``renamed_action = index[i][action]``, and its inverse
  :func:`action_source` for renaming a mask or logits: ``renamed_mask = mask[source[i]]``.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from jass_env.engine.cards import N_SUITS
from jass_env.engine.switches import Rules

from .. import _suit_renaming as renaming
from .._suit_renaming import SymmetryError
from .observation import LAYOUTS

#: the game whose observation layout the tables rename
GAME = "differenzler"
#: observation slices indexed by card id (36 per relative seat, or 36 for my hand or the shown card)
CARD_SLICES = ("hand", "played", "trick", "trump_card")
#: observation slices of suit flags (4 per relative seat, or 4 for the trump suit)
SUIT_SLICES = ("voids", "trump")


def _check(rules: Rules) -> None:
    if rules.spec.game != GAME:
        raise SymmetryError(f"Differenzler's suit symmetry is defined for the {GAME} layouts only "
                            f"(differenzler, differenzler3), not {rules.game!r}")


def suit_permutations(rules: Rules) -> np.ndarray:
    """The suit renamings under which ``rules`` play the same (int64[m, 4]: row i maps suit s to
    ``row[s]``), the identity first: all 24 (module docstring)."""
    _check(rules)
    return np.array(list(permutations(range(N_SUITS))), dtype=np.int64)


def action_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Renamed action of each action (int64[m, n_actions]) under each permutation of ``perms``
    (m, 4): a card takes its renamed id, a prediction stays."""
    _check(rules)
    return renaming.action_index(perms, rules.spec.n_actions)


def action_source(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """The inverse of :func:`action_index` (int64[m, n_actions]): the action each renamed slot
    comes from."""
    return renaming.action_source(action_index(perms, rules))


def observation_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Gather index (int64[m, obs_dim]) of the renamed observation: feature j of the position
    renamed by ``perms[i]`` is feature ``index[i, j]`` of the original."""
    _check(rules)
    layout = LAYOUTS.of(rules.spec)
    return renaming.observation_index(perms, layout.obs_dim, layout.slices, CARD_SLICES, SUIT_SLICES)


__all__ = ["suit_permutations", "action_index", "action_source", "observation_index", "CARD_SLICES",
           "SUIT_SLICES"]
