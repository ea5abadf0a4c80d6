"""Differenzler: everyone alone predicts the points he will take; the penalty is how far he was off.

Four players (or three with 12 cards each), each alone. Trump is the suit of a card of the
dealer's hand shown to all (or a suit drawn at random); every player predicts his own card points
(0..157) before the cards are played; a round's penalty is |prediction − points|, −10 for an exact
hit. A game is 12 rounds; the lowest total penalty wins. The rules: docs/games/differenzler.md.
"""

from jass_env.engine.cards import CARD_ACTION_NAMES
from jass_env.engine.spec import TEAMS_NONE, GameSpec, Switch, register_spec
from jass_env.engine.switches import rules_for

from .. import base
from .._alone import check_match_rounds
from . import observation, readers, records, render, rules, suit_symmetry
from .rules import N_PREDICTIONS, PREDICTIONS, TRUMP_MODES, ZERO_BID_BONUSES

TITLE = "Differenzler"
KIND = 1
#: the cards, then "predict k" for k = 0..157 (action 36 + k)
ACTION_NAMES = CARD_ACTION_NAMES + tuple(f"predict {k}" for k in range(N_PREDICTIONS))
SWITCHES = (
    Switch("trump_mode", "bottom_card", ", ".join(TRUMP_MODES), TRUMP_MODES.__contains__,
           "how trump is fixed: \"bottom_card\" (the suit of a card of the dealer's hand, shown to all) or "
           "\"random_suit\" (drawn, no card shown)"),
    Switch("predictions", "hidden", ", ".join(PREDICTIONS), PREDICTIONS.__contains__,
           "the predictions are \"hidden\" until the round ends, or \"open\" once made"),
    Switch("zero_bid_bonus", "never", ", ".join(ZERO_BID_BONUSES), ZERO_BID_BONUSES.__contains__,
           "\"never\", or \"zero_point_trick\" (an exact 0 with a trick won also gets -10)"),
)
#: the shared switches Differenzler does not have: no bidding, no Weis, Stöck or Match bonus
FIXED = {"contracts": ("D", "H", "S", "C"), "push": False, "weis": False, "stoeck": 0, "match_bonus": 0,
         "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0, "first_forehand": "random",
         "leader_after_push": "forehand"}
_SHAPE = dict(kind=KIND, teams=TEAMS_NONE, bidding="prediction", action_names=ACTION_NAMES, switches=SWITCHES,
              fixed=FIXED, check_rules=check_match_rounds, pack=rules.pack, state_fields=rules.STATE_FIELDS,
              state_ranges=rules.STATE_RANGES, check_state=rules.check_state)
SPECS = {
    "differenzler": GameSpec("differenzler", "Differenzler", "differenzler", players=4, hand_size=9, tricks=9,
                             **_SHAPE),
    "differenzler3": GameSpec("differenzler3", "Differenzler for three", "differenzler", players=3,
                              hand_size=12, tricks=12, **_SHAPE),
}
for _spec in SPECS.values():
    register_spec(_spec)

PRESETS = {name: rules_for(spec, name, undertrump_rule="only_if_void", match_rounds=12)
           for name, spec in SPECS.items()}

BETTER = "lower"
PROTOCOL = "rotation"
STATISTIC = base.Statistic("penalty_diff", "penalty per round, policy - bots (negative: policy better)",
                           "penalty per round, policy - bots", False, score="penalty", exact_hits=True)
REWARDS = ("points", "win")
REWARD_SCALE = 157.0
ENV_IDS = {"differenzler": ("differenzler_v0", "jass_env/Differenzler-v0"),
           "differenzler3": ("differenzler3_v0", "jass_env/Differenzler3-v0")}
BOTS = {"heuristic": "agents.bots.differenzler:DifferenzlerHeuristic",
        "pimc": "agents.bots.differenzler:DifferenzlerPIMC",
        "random_phase": "agents.bots.differenzler:RANDOM_PREDICTIONS",
        "worlds": "agents.bots.differenzler:DifferenzlerWorlds"}
CHECKPOINTS = {"differenzler": "differenzler.pt", "differenzler3": "differenzler3.pt"}
SCORE_RANGE = rules.score_range
MAX_PHASE_ACTIONS = rules.max_phase_actions
DRAWS = readers.DifferenzlerDraws()
READERS = readers.DifferenzlerReaders

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "MAX_PHASE_ACTIONS", "DRAWS", "rules", "observation", "records", "render",
           "suit_symmetry"]
