"""Schieber: two teams, trump chosen or pushed to the partner, Weis and Stöck, matches to a target.

The Swiss national game for four players in two partnerships (0 & 2 against 1 & 3), and the
project's own Schieber for six (three against three: 0, 2, 4 against 1, 3, 5). Forehand names the
contract (a trump suit, Obenabe or Undenufe) or pushes it to his partner; Weis and Stöck are
declared automatically; a team taking every trick gets the Match bonus; the contract's multiplier
applies to everything; a match is played to a target (1000) or a fixed number of rounds. The
rules: docs/games/schieber.md; the rules every game shares: docs/rules.md.
"""

from jass_env.engine.cards import CARD_ACTION_NAMES, CONTRACTS
from jass_env.engine.spec import TEAMS_ALTERNATE, TEAMS_PAIRS, GameSpec, register_spec
from jass_env.engine.switches import OFFICIAL_QUADS, rules_for

from .. import base
from . import observation, records, render, rules, suit_symmetry

TITLE = "Schieber"
KIND = 0
#: Schieber's 43 actions: the cards, the six contracts, the push
ACTION_NAMES = CARD_ACTION_NAMES + tuple(f"choose {c}" for c in CONTRACTS) + ("push",)
SPECS = {
    "schieber": GameSpec("schieber", "Schieber", "schieber", KIND, players=4, teams=TEAMS_PAIRS, hand_size=9,
                         tricks=9, bidding="contract", action_names=ACTION_NAMES,
                         check_state=rules.check_state),
    "schieber6": GameSpec("schieber6", "Schieber for six", "schieber", KIND, players=6, teams=TEAMS_ALTERNATE,
                          hand_size=6, tricks=6, bidding="contract", action_names=ACTION_NAMES,
                          check_state=rules.check_state),
}
for _spec in SPECS.values():
    register_spec(_spec)

CAPPED_SEQUENCES = (20, 50, 100, 100, 100, 100, 100)
SCHIEBER = rules_for(SPECS["schieber"], "schieber")
PRESETS = {
    "schieber": SCHIEBER,
    "schieber_2500": SCHIEBER.replace(multipliers=(1, 1, 2, 2, 3, 3), target=2500).renamed("schieber_2500"),
    "tournament": SCHIEBER.replace(weis=False, stoeck=0, match_bonus=0, target=0,
                                   match_rounds=12).renamed("tournament"),
    "seed_nl": SCHIEBER.replace(
        may_trump_instead_of_following=False, undertrump_rule="unless_partner_winning",
        sequence_values=CAPPED_SEQUENCES, quad_values={**OFFICIAL_QUADS, "6": 0, "7": 0, "8": 0, "9": 100},
        multipliers=(3, 2, 1, 1, 3, 4), match_finish="round_end").renamed("seed_nl"),
    "seed_vaud": SCHIEBER.replace(contracts=("D", "H", "S", "C"), sequence_values=CAPPED_SEQUENCES,
                                  weis_comparison="vaud", first_forehand="D7").renamed("seed_vaud"),
    "schieber6": rules_for(SPECS["schieber6"], "schieber6"),
}

BETTER = "higher"
PROTOCOL = "duplicate"
STATISTIC = base.Statistic("points_per_hand", "points per hand (policy team - bot team)",
                           "points per hand (duplicate deals)", True)
REWARDS = ("points", "win", "tricks")
REWARD_SCALE = 157.0
ENV_IDS = {"schieber": ("jass_v0", "jass_env/Jass-v0"),
           "schieber6": ("schieber6_v0", "jass_env/Schieber6-v0")}
BOTS = {"heuristic": "agents.bots.schieber:HeuristicAgent", "pimc": "agents.bots.schieber:PIMCAgent",
        "worlds": "agents.bots.schieber:SchieberWorlds"}
CHECKPOINTS = {"schieber": "default.pt", "schieber6": "schieber6.pt"}
SCORE_RANGE = rules.score_range
SCORE_SUM = rules.score_sum
MAX_PHASE_ACTIONS = rules.max_phase_actions
READERS = None

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "SCORE_SUM", "MAX_PHASE_ACTIONS", "rules", "observation", "records", "render",
           "suit_symmetry"]
