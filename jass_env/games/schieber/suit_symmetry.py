"""Suit symmetry of a Schieber round: renaming the suits gives an equivalent position.

In Schieber the four suits play the same part: a position whose suits are renamed by a
permutation σ of D H S C (every card ``9 s + r`` becomes ``9 σ(s) + r``, a trump contract in suit
``s`` becomes the trump contract in ``σ(s)``, Obenabe, Undenufe and the push stay) is played the
same way and scores the same, as long as the rules treat the renamed suits alike. They do unless
a rule names a suit:

* ``multipliers``: trump ``s`` and trump ``σ(s)`` must have the same multiplier;
* ``contracts``: trump ``σ(s)`` must be allowed where trump ``s`` is;
* ``weis_comparison="vaud"`` ranks equal Weis by suit (H > C > S > D): then no suit may move.

(The match's first forehand, the holder of ♦7 under ``first_forehand="D7"``, is fixed before any
position exists and does not enter a round's play.)

For a learner this is free data: a labelled decision is also a labelled decision of each renamed
position (``agents.search.distill``'s ``augment``). The tables here rename an observation of
:mod:`jass_env.games.schieber.observation` (Schieber's layout, 529 features, or Schieber for
six's, 758) and the 43 actions:

* :func:`suit_permutations` (m, 4): the permutations the rules allow, the identity first;
* :func:`observation_index` (m, obs_dim): ``renamed_obs = obs[index[i]]`` under permutation i;
* :func:`action_index` (m, N_ACTIONS): ``renamed_action = index[i][action]``, and its inverse
  :func:`action_source` for renaming a mask or logits: ``renamed_mask = mask[source[i]]``.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from jass_env.engine.cards import CONTRACTS, N_SUITS
from jass_env.engine.switches import Rules

from .. import _suit_renaming as renaming
from .._suit_renaming import SymmetryError, card_permutation
from .observation import layout_slices, obs_dim
from .rules import CONTRACT_OFFSET, N_ACTIONS

#: the game whose observation layouts the tables rename
GAME = "schieber"
#: observation slices indexed by card id (36 per seat, or 36 for my hand)
CARD_SLICES = ("hand", "played", "trick", "weis_public")
#: observation slices of (seat x suit) flags
SUIT_SLICES = ("voids",)
#: observation slices of one flag per contract (D H S C Obenabe Undenufe) -> their length
CONTRACT_SLICES = {"contract": len(CONTRACTS)}


def _check(rules: Rules) -> None:
    if rules.spec.game != GAME:
        raise SymmetryError(f"Schieber's suit symmetry is defined for the {GAME} layouts only "
                            f"(schieber, schieber6), not {rules.game!r}")


def suit_permutations(rules: Rules) -> np.ndarray:
    """The suit renamings under which ``rules`` play the same (int64[m, 4]: row i maps suit s to
    ``row[s]``), the identity first; every one of the 24 for the ``schieber`` and ``schieber6``
    presets."""
    _check(rules)
    weis_ranks_suits = rules.weis and rules.weis_comparison == "vaud"
    allowed = [CONTRACTS[s] in rules.contracts for s in range(N_SUITS)]
    keep = [p for p in permutations(range(N_SUITS))
            if all(rules.multipliers[p[s]] == rules.multipliers[s] and allowed[p[s]] == allowed[s]
                   for s in range(N_SUITS))
            and not (weis_ranks_suits and p != tuple(range(N_SUITS)))]
    return np.array(keep, dtype=np.int64)


def action_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Renamed action of each action (int64[m, 43]) under each permutation of ``perms`` (m, 4): a
    card takes its renamed id, a trump contract the renamed trump's, Obenabe, Undenufe and the push
    stay."""
    _check(rules)
    return renaming.action_index(perms, N_ACTIONS, (CONTRACT_OFFSET,))


def action_source(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """The inverse of :func:`action_index` (int64[m, 43]): the action each renamed slot comes from."""
    return renaming.action_source(action_index(perms, rules))


def observation_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Gather index (int64[m, obs_dim]) of the renamed observation: feature j of the position
    renamed by ``perms[i]`` is feature ``index[i, j]`` of the original."""
    _check(rules)
    spec = rules.spec
    return renaming.observation_index(perms, obs_dim(spec), layout_slices(spec.players, spec.tricks),
                                      CARD_SLICES, SUIT_SLICES, CONTRACT_SLICES)


__all__ = ["suit_permutations", "card_permutation", "action_index", "action_source", "observation_index",
           "SymmetryError", "CARD_SLICES", "SUIT_SLICES", "CONTRACT_SLICES"]
