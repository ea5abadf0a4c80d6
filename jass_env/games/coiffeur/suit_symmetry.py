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
529 features, renamed by :mod:`jass_env.games.schieber.suit_symmetry`, then the sheets, whose
trump rows move with their suits) and the actions (cards; ``declare`` a trump row; a Joker row as
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

from ..schieber import PRESETS as SCHIEBER_PRESETS
from ..schieber import suit_symmetry as schieber_symmetry
from ..schieber.observation import OBS_DIM as SCHIEBER_OBS_DIM
from ..schieber.rules import N_ACTIONS as SCHIEBER_ACTIONS
from ..schieber.suit_symmetry import SymmetryError
from .observation import OBS_DIM, SLICES
from .rules import JOKER_OFFSET, MAX_ROWS, N_CONTRACTS, RP_CO_FACTOR, SHEET_ROWS

#: the rules whose observation layout and first actions Coiffeur's begin with (4 seats, 9 tricks)
SCHIEBER_LAYOUT = SCHIEBER_PRESETS["schieber"]
#: observation slices of one flag or value per row, own sheet then the opponents' (row ids: the
#: trump rows D H S C are rows 0..3)
SHEET_SLICES = ("open_rows", "row_values")
#: observation slices of one flag per row (the row declared)
ROW_SLICES = ("row",)
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
    (m, 4): cards and trump rows as in Schieber (whose 43 actions Coiffeur's begin with: a
    contract action declares that contract's row), a Joker row keeps its row and takes the
    renamed trump."""
    _check(rules)
    perms = np.asarray(perms, dtype=np.int64)
    out = np.tile(np.arange(rules.spec.n_actions, dtype=np.int64), (len(perms), 1))
    out[:, :SCHIEBER_ACTIONS] = schieber_symmetry.action_index(perms, SCHIEBER_LAYOUT)
    for j in range(JOKERS if rules.spec.n_actions > SCHIEBER_ACTIONS else 0):
        first = JOKER_OFFSET + N_CONTRACTS * j
        out[:, first:first + N_SUITS] = first + perms
    return out


def action_source(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """The inverse of :func:`action_index` (int64[m, n_actions]): the action each renamed slot
    comes from."""
    index = action_index(perms, rules)
    out = np.empty_like(index)
    rows = np.arange(len(index))[:, None]
    out[rows, index] = np.arange(index.shape[1])
    return out


def observation_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Gather index (int64[m, OBS_DIM]) of the renamed observation: feature j of the position
    renamed by ``perms[i]`` is feature ``index[i, j]`` of the original. Schieber's part as
    Schieber's; each sheet's trump rows and the declared row move with their suits."""
    _check(rules)
    perms = np.asarray(perms, dtype=np.int64)
    out = np.tile(np.arange(OBS_DIM, dtype=np.int64), (len(perms), 1))
    out[:, :SCHIEBER_OBS_DIM] = schieber_symmetry.observation_index(perms, SCHIEBER_LAYOUT)
    inverse = np.argsort(perms, axis=1)
    for name in SHEET_SLICES + ROW_SLICES:
        s = SLICES[name]
        for base in range(s.start, s.stop, MAX_ROWS):
            out[:, base:base + N_SUITS] = base + inverse
    return out


__all__ = ["suit_permutations", "observation_index", "action_index", "action_source", "SymmetryError",
           "SCHIEBER_LAYOUT", "SHEET_SLICES", "ROW_SLICES"]
