"""Molotow: everyone alone, trump by the first discard; avoid points, hand Weis minus, table Weis plus.

Three to six players alone (4 × 9 cards; 3 × 12; 5 × 7 without the ♠7; 6 × 6). There is no
bidding: the first card played by a player who cannot follow suit fixes trump. A hand's score is
the card points taken + the table Weis of one's tricks − one's hand Weis − Stöck, the lowest
best; a game is 8 hands, the lowest total wins. The rules: docs/games/molotow.md.
"""

from jass_env.engine.cards import CARD_ACTION_NAMES
from jass_env.engine.spec import TEAMS_NONE, GameSpec, register_spec
from jass_env.engine.switches import rules_for

from .. import base
from .._alone import check_match_rounds
from .._first_discard import rules as first_discard
from .._first_discard import suit_symmetry
from . import observation, readers, records, render, rules

TITLE = "Molotow"
KIND = 4
_SHAPE = dict(kind=KIND, teams=TEAMS_NONE, bidding="none", action_names=CARD_ACTION_NAMES,
              switches=(first_discard.NO_TRUMP_HAND,), fixed=first_discard.FIXED,
              check_rules=check_match_rounds,
              pack=first_discard.pack, state_fields=rules.STATE_FIELDS, check_state=first_discard.check_state)
SPECS = {
    "molotow": GameSpec("molotow", "Molotow", "molotow", players=4, hand_size=9, tricks=9, **_SHAPE),
    "molotow3": GameSpec("molotow3", "Molotow for three", "molotow", players=3, hand_size=12, tricks=12,
                         **_SHAPE),
    # five deal 7 each from the deck without the ♠7 (which counts 0 in every contract)
    "molotow5": GameSpec("molotow5", "Molotow for five", "molotow", players=5, hand_size=7, tricks=7,
                         removed=("S7",), **_SHAPE),
    "molotow6": GameSpec("molotow6", "Molotow for six", "molotow", players=6, hand_size=6, tricks=6,
                         **_SHAPE),
}
for _spec in SPECS.values():
    register_spec(_spec)
#: 8 hands a game, with hand Weis (all of them, Kreuzweis) and Stöck 20; the under-trump ban only
#: for a player who holds the led suit
PRESETS = {name: rules_for(spec, name, undertrump_rule="only_if_void", match_rounds=8)
           for name, spec in SPECS.items()}

BETTER = "lower"
PROTOCOL = "rotation"
STATISTIC = base.Statistic("score_diff", "score per hand, policy - bots (negative: policy better)",
                           "score per hand, policy - bots", False)
REWARDS = ("points", "win")
REWARD_SCALE = 157.0
ENV_IDS = {"molotow": ("molotow_v0", "jass_env/Molotow-v0"),
           "molotow3": ("molotow3_v0", "jass_env/Molotow3-v0"),
           "molotow5": ("molotow5_v0", "jass_env/Molotow5-v0"),
           "molotow6": ("molotow6_v0", "jass_env/Molotow6-v0")}
BOTS = {"heuristic": "agents.bots.molotow:MolotowHeuristic", "pimc": "agents.bots._first_discard:DiscardPIMC",
        "worlds": "agents.bots._first_discard:FirstDiscardWorlds"}
CHECKPOINTS = {"molotow": "molotow.pt", "molotow3": "molotow3.pt", "molotow5": "molotow5.pt",
               "molotow6": "molotow6.pt"}
SCORE_RANGE = rules.score_range
MAX_PHASE_ACTIONS = rules.max_phase_actions
READERS = readers.MolotowReaders

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "MAX_PHASE_ACTIONS", "rules", "observation", "records", "render",
           "suit_symmetry"]
