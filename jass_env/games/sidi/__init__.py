"""Sidi-Jass for two (the project's own rules): an open trump card under a stock, drawing after each
trick, the exchange of the trump 6; Weis, Stöck and a game to 1000.

Two players alone, 8 cards each; the other 20 form the stock, whose last card lies face up and
fixes trump. While the stock lasts any card may be played and after each trick the winner draws,
then the loser; the holder of the trump 6 may exchange it for the face-up card when he leads.
Scoring as Schieber's, one player a side. The rules: docs/games/sidi.md.
"""

from jass_env.engine.cards import CARD_ACTION_NAMES
from jass_env.engine.spec import TEAMS_NONE, GameSpec, register_spec
from jass_env.engine.switches import rules_for

from .. import base
from . import observation, readers, records, render, rules, suit_symmetry
from .rules import HAND_SIZE, PLAYERS

TITLE = "Sidi-Jass for two"
KIND = 5
#: the cards, then action 36: exchange the trump 6 for the face-up trump card
ACTION_NAMES = CARD_ACTION_NAMES + ("exchange trump 6",)
#: what has no meaning for two players alone stays fixed; card play, Weis, Stöck, the bonus for all 18
#: tricks (match_bonus) and the game to the target (1000, official finish) as Schieber's switches say
FIXED = {"contracts": ("D", "H", "S", "C"), "push": False, "leader_after_push": "forehand",
         "multipliers": (1, 1, 1, 1, 1, 1), "bergpreis": 0, "first_forehand": "random",
         "ou_card_values": True}
SPECS = {"sidi": GameSpec("sidi", "Sidi-Jass for two", "sidi", KIND, players=PLAYERS, teams=TEAMS_NONE,
                          hand_size=HAND_SIZE, tricks=18, bidding="none", action_names=ACTION_NAMES,
                          fixed=FIXED,
                          state_fields=rules.STATE_FIELDS, state_ranges=rules.STATE_RANGES,
                          check_state=rules.check_state)}
register_spec(SPECS["sidi"])
PRESETS = {"sidi": rules_for(SPECS["sidi"], "sidi")}

BETTER = "higher"
PROTOCOL = "rotation"
STATISTIC = base.Statistic("points_diff", "points per round, policy - bot", "points per round, policy - bot",
                           True)
REWARDS = ("points", "win", "tricks")
REWARD_SCALE = 157.0
ENV_IDS = {"sidi": ("sidi_v0", "jass_env/Sidi-v0")}
BOTS = {"heuristic": "agents.bots.sidi:SidiHeuristic", "pimc": "agents.bots.sidi:SidiPIMC",
        "worlds": "agents.bots.sidi:SidiWorlds"}
CHECKPOINTS = {"sidi": "sidi.pt"}
SCORE_RANGE = rules.score_range
SCORE_SUM = rules.score_sum
MAX_PHASE_ACTIONS = rules.max_phase_actions
DRAWS = readers.SidiDraws()
READERS = readers.SidiReaders

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "SCORE_SUM", "MAX_PHASE_ACTIONS", "DRAWS", "rules", "observation", "records",
           "render", "suit_symmetry"]
