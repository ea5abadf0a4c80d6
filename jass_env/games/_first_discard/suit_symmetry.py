"""Suit symmetry of Mittlere and Molotow: renaming the suits gives an equivalent position.

In the games of trump by the first discard no rule names a suit but the deck's: a deal whose
suits are renamed by a permutation σ of D H S C (every card ``9 s + r`` becomes ``9 σ(s) + r``) is
played the same way and scores the same. Before trump is fixed every suit ranks and counts as in
Obenabe; the first discard fixes its own suit as trump, so the renamed discard fixes trump ``σ(s)``
(the observation's trump flag is renamed with it), every trump suit has the same card values, and
the following, trumping and under-trumping rules and the Puur's exception read only whether a card
is of the led suit or of trump. Mittlere's Striche and Nullen count points and tricks. Molotow's
hand Weis and table Weis are runs within a suit and fours of a kind, whose points name no suit;
where a card may count in one Weis only (``kreuzweis`` off) the fours of a kind are chosen by their
points and ranks, never by a suit (``weis_comparison="vaud"`` orders suits only between runs,
and a choice with a four of a kind ranks above every choice without), so the renamed hand declares
the renamed Weis. The Stöck are the trump K and Q, renamed with trump.

The deck names a suit in Molotow for five, which deals without the ♠7: only the renamings that map
the deck to itself are exact there, those that keep ♠ (6 of the 24). Every other spec of both games
(``mittlere``, ``molotow``, ``molotow3``, ``molotow6``) allows all 24, under every switch.

For a learner this is free data (``agents.search.distill``'s augmentation, suit-averaged policies).
The tables here rename an observation of :mod:`jass_env.games._first_discard.observation` (the
layout of the rules' spec) and the 36 card actions:

* :func:`suit_permutations` (m, 4): the permutations the rules allow, the identity first;
* :func:`observation_index` (m, obs_dim): ``renamed_obs = obs[index[i]]`` under permutation i;
* :func:`action_index` (m, 36): ``renamed_action = index[i][action]``, and its inverse
  :func:`action_source` for renaming a mask or logits: ``renamed_mask = mask[source[i]]``.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from jass_env.engine.cards import N_CARDS, N_SUITS
from jass_env.engine.switches import RP_DECK, Rules

from .. import _suit_renaming as renaming
from .._suit_renaming import SymmetryError, card_permutation
from .observation import LAYOUTS

#: the games whose observation layout the tables rename
GAMES = ("mittlere", "molotow")
#: observation slices indexed by card id (36 per relative seat, or 36 for my hand)
CARD_SLICES = ("hand", "played", "trick", "hand_weis_cards")
#: observation slices of suit flags (4 per relative seat, or 4 for the trump suit)
SUIT_SLICES = ("voids", "trump")


def _check(rules: Rules) -> None:
    if rules.spec.game not in GAMES:
        raise SymmetryError(f"the suit symmetry of trump by the first discard is defined for the layout "
                            f"of {' and '.join(GAMES)} only, not {rules.game!r}")


def suit_permutations(rules: Rules) -> np.ndarray:
    """The suit renamings under which ``rules`` play the same (int64[m, 4]: row i maps suit s to
    ``row[s]``), the identity first: those that map the spec's deck to itself (module docstring)."""
    _check(rules)
    deck = int(rules.params[RP_DECK])
    cards = np.arange(N_CARDS)
    in_deck = (deck >> cards) & 1
    keep = [p for p in permutations(range(N_SUITS))
            if np.array_equal(in_deck[card_permutation(np.array(p))], in_deck)]
    return np.array(keep, dtype=np.int64)


def action_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Renamed action of each action (int64[m, 36]) under each permutation of ``perms`` (m, 4):
    every action is a card, which takes its renamed id."""
    _check(rules)
    return renaming.action_index(perms, rules.spec.n_actions)


def action_source(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """The inverse of :func:`action_index` (int64[m, 36]): the action each renamed slot comes from."""
    return renaming.action_source(action_index(perms, rules))


def observation_index(perms: np.ndarray, rules: Rules) -> np.ndarray:
    """Gather index (int64[m, obs_dim]) of the renamed observation: feature j of the position
    renamed by ``perms[i]`` is feature ``index[i, j]`` of the original."""
    _check(rules)
    layout = LAYOUTS.of(rules.spec)
    return renaming.observation_index(perms, layout.obs_dim, layout.slices, CARD_SLICES, SUIT_SLICES)


__all__ = ["suit_permutations", "action_index", "action_source", "observation_index", "GAMES", "CARD_SLICES",
           "SUIT_SLICES"]
