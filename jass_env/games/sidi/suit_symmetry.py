"""Suit symmetry of a Sidi round: renaming the suits gives an equivalent position.

No rule of Sidi names a suit, except one Weis comparison. Trump is the suit of the card turned face
up under the stock; every suit is trump with the same card values and counts once (the multipliers
are fixed at 1, the four suits are the only contracts); the free play while the stock lasts, the
Schieber card play once it is empty, the exchange of the trump 6 (the 6 of whatever suit is trump),
the drawing, Stöck and the bonus for all tricks name no suit. So a deal whose suits are renamed by a
permutation σ of D H S C (every card ``9 s + r`` becomes ``9 σ(s) + r``), with its stock renamed
card by card (the face-up card too, so trump ``s`` becomes ``σ(s)``), is played the same way and
scores the same: all 24 renamings are exact, except under ``weis_comparison="vaud"`` with Weis,
which ranks equal Weis by suit (H > C > S > D): then no suit may move.

For a learner this is free data (``agents.search.distill``'s augmentation, suit-averaged policies).
The tables here rename an observation of :mod:`jass_env.games.sidi.observation` (443 features) and
the 37 actions (the 36 cards renamed, the exchange of the trump 6 unchanged):

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
GAME = "sidi"
#: observation slices indexed by card id (36 per relative seat, or 36 for my hand or one card)
CARD_SLICES = ("hand", "played", "trick", "trump_card", "face_up", "known", "weis_cards")
#: observation slices of suit flags (4 per relative seat, or 4 for the trump suit)
SUIT_SLICES = ("voids", "trump")
#: the Weis comparison that ranks equal Weis by suit
SUIT_RANKED_WEIS = "vaud"


def _check(rules: Rules) -> None:
    if rules.spec.game != GAME:
        raise SymmetryError(f"Sidi's suit symmetry is defined for the {GAME} layout only, not {rules.game!r}")


def suit_permutations(rules: Rules) -> np.ndarray:
    """The suit renamings under which ``rules`` play the same (int64[m, 4]: row i maps suit s to
    ``row[s]``), the identity first: all 24, or the identity alone when Weis are ranked by suit
    (module docstring)."""
    _check(rules)
    perms = list(permutations(range(N_SUITS)))
    if rules.weis and rules.weis_comparison == SUIT_RANKED_WEIS:
        perms = perms[:1]
    return np.array(perms, dtype=np.int64)


def action_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Renamed action of each action (int64[m, n_actions]) under each permutation of ``perms``
    (m, 4): a card takes its renamed id, the exchange of the trump 6 stays."""
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
