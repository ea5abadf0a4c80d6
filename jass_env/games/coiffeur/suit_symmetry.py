"""Suit symmetry of Coiffeur: which renamings of the suits leave the game the same.

Renaming the suits by a permutation σ of D H S C renames every card (``9 s + r`` becomes
``9 σ(s) + r``) and every trump game: the row of trump ``s`` becomes the row of trump ``σ(s)``,
a Joker row played as trump ``s`` is played as trump ``σ(s)``, and both sheets' trump rows move
with their suits (Obenabe, Undenufe, the Joker rows themselves, Slalom, Guschti and the push stay).
Card play, trick winners, card points, Weis and Stöck treat the suits alike, so such a renamed
game plays the same way, card for card. It **scores** the same only where each trump row keeps
its factor: a row writes ``factor x`` its points, so renaming trump ``s`` into a trump row of
another factor changes every value written there. Exactly the renamings with

* ``factor(row σ(s)) == factor(row s)`` for every suit ``s`` (``row_factors``); and
* no suit moved at all when Weis are scored (``coiffeur_weis`` not "off") and
  ``weis_comparison="vaud"`` ranks equal Weis by suit (H > C > S > D)

are exact. The presets give each row its place on the sheet as factor (S 1, C 2, D 3, H 4, ...):
four different trump factors, so **only the identity** is exact for ``coiffeur``, ``coiffeur6``
and ``coiffeur10``; rules whose trump rows share factors (``row_factors``) allow the renamings
within each group of equal factors (all 24 when the four are equal).

The tables rename a Coiffeur observation (:mod:`jass_env.games.coiffeur.observation`: Schieber's
529 features, renamed as in :mod:`jass_env.games.schieber.suit_symmetry`, then the sheets,
whose trump rows move with their suits) and the actions (cards; ``declare`` a trump row; a Joker row as
a trump), for any permutations (a suit-averaged network may average over more than the exact ones):

* :func:`suit_permutations` (m, 4): the exact ones for ``rules``, the identity first;
* :func:`observation_index` (m, OBS_DIM): ``renamed_obs = obs[index[i]]`` under permutation i;
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
from .observation import OBS_DIM, obs_slices
from .rules import DECLARE_OFFSET, JOKER_OFFSET, MAX_ROWS, N_CONTRACTS, RP_CO_FACTOR, SHEET_ROWS

#: observation slices indexed by card id (36 per seat, or 36 for my hand): Schieber's
CARD_SLICES = ("hand", "played", "trick", "weis_public")
#: observation slices of (seat x suit) flags: Schieber's
SUIT_SLICES = ("voids",)
#: observation slices of one flag or value per row, own sheet then the opponents' (row ids: the
#: trump rows D H S C are rows 0..3)
SHEET_SLICES = ("open_rows", "row_values")
#: observation slices of one flag per row (the row declared)
ROW_SLICES = ("row",)
#: observation slices of one flag or value per contract or row, the trump suits D H S C first ->
#: the length of a contract's or row's block: the contract ranking the trick (Schieber's), the sheets
#: and the declared row
CONTRACT_SLICES = {"contract": N_CONTRACTS} | {name: MAX_ROWS for name in SHEET_SLICES + ROW_SLICES}
#: the Joker rows
JOKERS = 2


def _check(rules: Rules) -> None:
    if rules.game not in SHEET_ROWS:
        raise SymmetryError(f"Coiffeur's suit symmetry is defined for the Coiffeur layouts only "
                            f"({', '.join(SHEET_ROWS)}), not {rules.game!r}")


def suit_permutations(rules: Rules) -> np.ndarray:
    """The suit renamings under which ``rules`` play and score the same (int64[m, 4]: row i maps
    suit s to ``row[s]``), the identity first: those that keep every trump row's factor, none but
    the identity where Weis are scored and ranked by suit (module docstring)."""
    _check(rules)
    factors = [int(rules.params[RP_CO_FACTOR + s]) for s in range(N_SUITS)]    # trump row s = suit s
    weis_ranks_suits = rules.coiffeur_weis != "off" and rules.weis_comparison == "vaud"
    identity = tuple(range(N_SUITS))
    keep = [p for p in permutations(range(N_SUITS))
            if all(factors[p[s]] == factors[s] for s in range(N_SUITS))
            and not (weis_ranks_suits and p != identity)]
    return np.array(keep, dtype=np.int64)


def action_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Renamed action of each action (int64[m, n_actions]) under each permutation of ``perms``
    (m, 4): a card takes its renamed id, ``declare`` a trump row the renamed trump's row, a Joker
    row keeps its row and takes the renamed trump; the other rows and the push stay."""
    _check(rules)
    jokers = JOKERS if rules.spec.n_actions > JOKER_OFFSET else 0
    suit_offsets = (DECLARE_OFFSET, *(JOKER_OFFSET + N_CONTRACTS * j for j in range(jokers)))
    return renaming.action_index(perms, rules.spec.n_actions, suit_offsets)


def action_source(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """The inverse of :func:`action_index` (int64[m, n_actions]): the action each renamed slot
    comes from."""
    return renaming.action_source(action_index(perms, rules))


def observation_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Gather index (int64[m, OBS_DIM]) of the renamed observation: feature j of the position
    renamed by ``perms[i]`` is feature ``index[i, j]`` of the original. Schieber's part as in
    Schieber; each sheet's trump rows and the declared row move with their suits."""
    _check(rules)
    slices = {name: slice(offset, offset + n) for name, offset, n, _ in obs_slices(rules.spec)}
    return renaming.observation_index(perms, OBS_DIM, slices, CARD_SLICES, SUIT_SLICES, CONTRACT_SLICES)


__all__ = ["suit_permutations", "observation_index", "action_index", "action_source", "SymmetryError",
           "CARD_SLICES", "SUIT_SLICES", "SHEET_SLICES", "ROW_SLICES", "CONTRACT_SLICES"]
