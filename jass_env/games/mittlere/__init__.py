"""Mittlere: three players alone, trump by the first discard; don't end in the middle.

Three players with 12 cards each. There is no bidding: the first card played by a player who
cannot follow suit fixes trump. A hand scores Striche (+1) and Nullen (−1) by the players' points
and tricks (whoever takes every trick +2, ≥ 100 points −2, no trick −2, otherwise the middle
−2); a game is 12 hands, the highest total wins. The rules: docs/games/mittlere.md.
"""

from jass_env.engine.cards import CARD_ACTION_NAMES
from jass_env.engine.spec import TEAMS_NONE, GameSpec, register_spec
from jass_env.engine.switches import rules_for

from .. import base
from .._alone import check_match_rounds
from .._first_discard import rules as first_discard
from .._first_discard import suit_symmetry
from .._first_discard.readers import FirstDiscardReaders
from . import observation, records, render, rules

TITLE = "Mittlere"
KIND = 3
SPECS = {"mittlere": GameSpec("mittlere", "Mittlere", "mittlere", KIND, players=3, teams=TEAMS_NONE,
                              hand_size=12, tricks=12, bidding="none", action_names=CARD_ACTION_NAMES,
                              switches=(first_discard.NO_TRUMP_HAND,),
                              fixed={**first_discard.FIXED, "weis": False, "stoeck": 0},
                              check_rules=check_match_rounds, pack=first_discard.pack,
                              state_fields=rules.STATE_FIELDS, check_state=first_discard.check_state)}
register_spec(SPECS["mittlere"])
#: 12 hands a game (each of the 3 players deals four times); the under-trump ban only for a player
#: who holds the led suit
PRESETS = {"mittlere": rules_for(SPECS["mittlere"], "mittlere", undertrump_rule="only_if_void",
                                 match_rounds=12)}

BETTER = "higher"
PROTOCOL = "rotation"
STATISTIC = base.Statistic("result_diff", "result per hand (Striche - Nullen), policy - bots",
                           "result per hand, policy - bots", True)
REWARDS = ("points", "win")
#: the "points" reward's divisor: a hand's score is −2..+2 Striche − Nullen
REWARD_SCALE = 2.0
ENV_IDS = {"mittlere": ("mittlere_v0", "jass_env/Mittlere-v0")}
BOTS = {"heuristic": "agents.bots.mittlere:MittlereHeuristic",
        "pimc": "agents.bots._first_discard:DiscardPIMC",
        "worlds": "agents.bots._first_discard:FirstDiscardWorlds"}
CHECKPOINTS = {"mittlere": "mittlere.pt"}
SCORE_RANGE = rules.score_range
MAX_PHASE_ACTIONS = rules.max_phase_actions
READERS = FirstDiscardReaders

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "MAX_PHASE_ACTIONS", "rules", "observation", "records", "render",
           "suit_symmetry"]
