"""Zwei: a small member of the family kept as a test of the game contract (not shipped).

Two players alone on a 24-card deck (the 9, 10, J, Q, K and A of each suit), 12 cards each, 12
tricks. Forehand names trump (one of the four suits); card play follows docs/rules.md "Legal
moves" with the official under-trump rule; no Weis, no Stöck. Each player scores the card points
of his tricks (the 24 cards are worth 152, the last trick 5 more: 157). A game is 4 rounds; the
higher total wins, a tie plays one more round.

It registers itself when imported (as OpenSpiel's Python games do): adding it touched only this
folder and one line of ``tests/conftest.py``, which imports it, so every test over the registry
(``tests/test_family.py``) plays it too.
"""

import sys

from jass_env.engine.cards import CARD_ACTION_NAMES, CONTRACTS, ROUND_POINTS
from jass_env.engine.spec import TEAMS_NONE, GameSpec, register_spec
from jass_env.engine.switches import rules_for
from jass_env.games import register
from jass_env.games.base import Statistic, source_kind

from . import observation, records, render, rules

TITLE = "Zwei"
#: a game kept outside jass_env numbers itself from its sources, so the compile cache never serves
#: an older version of it
KIND = source_kind(__file__)
ACTION_NAMES = CARD_ACTION_NAMES + tuple(f"name {c}" for c in CONTRACTS[:4])
#: the 6, 7 and 8 of each suit are not in the deck
REMOVED = tuple(f"{suit}{rank}" for suit in "DHSC" for rank in ("6", "7", "8"))
#: the shared switches Zwei does not have: trump suits only, no push, Weis, Stöck or multiplier
FIXED = {"contracts": ("D", "H", "S", "C"), "push": False, "weis": False, "stoeck": 0, "match_bonus": 0,
         "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0, "first_forehand": "random",
         "leader_after_push": "forehand"}
SPECS = {"zwei": GameSpec("zwei", "Zwei", "toy_game", KIND, players=2, teams=TEAMS_NONE, hand_size=12,
                          tricks=12, bidding="contract", action_names=ACTION_NAMES, removed=REMOVED,
                          fixed=FIXED,
                          state_fields=rules.STATE_FIELDS)}
register_spec(SPECS["zwei"])
PRESETS = {"zwei": rules_for(SPECS["zwei"], "zwei", match_rounds=4)}

BETTER = "higher"
PROTOCOL = "rotation"
STATISTIC = Statistic("points_diff", "points per round, policy - bot", "points per round, policy - bot", True)
REWARDS = ("points", "win", "tricks")
REWARD_SCALE = 157.0
ENV_IDS = {"zwei": ("zwei_v0", "jass_env/Zwei-v0")}
BOTS = {"heuristic": "tests.toy_game.bots:ZweiHeuristic"}
CHECKPOINTS: dict[str, str] = {}
READERS = None


def score_range(rules: object) -> tuple[int, int]:
    """A player's card points: 0 .. 157 (the 24 cards' 152 and the last trick's 5)."""
    return 0, ROUND_POINTS


def score_sum(rules: object) -> int:
    """The two players' card points always add up to 157."""
    return ROUND_POINTS


def max_phase_actions(rules: object) -> int:
    """Forehand names trump."""
    return 1


SCORE_RANGE, SCORE_SUM, MAX_PHASE_ACTIONS = score_range, score_sum, max_phase_actions

register(sys.modules[__name__])

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS", "rules", "observation", "records", "render"]
