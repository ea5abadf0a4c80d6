"""The headline statistic of each game's evaluation, as the evaluation tool reports it.

Team games (Schieber) are evaluated on duplicate deals: **points per hand**, the policy's team
score minus the other team's (higher is better). Games whose unit is the whole game (Coiffeur,
:func:`agents.whole_games.is_whole_game`) on duplicate deal sequences: **game score difference**,
the policy team's game score minus the other team's, per game (higher is better). Games played
alone are evaluated by seat rotation, the evaluated agent's mean score per hand minus its
opponents': Differenzler's **penalty difference** (lower is better), Mittlere's **result
difference** (Striche − Nullen, higher is better), Molotow's **score difference** (points + table
Weis − hand Weis − Stöck, lower is better), Sidi's **points difference** (the round's score,
higher is better; two players, so each deal is played in both seats). The trainer logs the
statistic as ``eval/<key>_vs_<bot>`` (:mod:`agents.curves` plots it) and picks ``best.pt`` by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jass_env.rules import Rules, make_rules
from jass_env.spec import KIND_DIFFERENZLER, KIND_MITTLERE, KIND_MOLOTOW, KIND_SIDI

from .whole_games import is_whole_game


@dataclass(frozen=True)
class Statistic:
    """The headline figure of an evaluation in one kind of game."""

    key: str                 #: its key in an evaluation's result dict
    text: str                #: what it is, for tables
    axis: str                #: what it is, short, for a plot's axis
    higher_is_better: bool


POINTS_PER_HAND = Statistic("points_per_hand", "points per hand (policy team - bot team)",
                            "points per hand (duplicate deals)", True)
PENALTY_DIFF = Statistic("penalty_diff", "penalty per round, policy - bots (negative: policy better)",
                         "penalty per round, policy - bots", False)
RESULT_DIFF = Statistic("result_diff", "result per hand (Striche - Nullen), policy - bots",
                        "result per hand, policy - bots", True)
SCORE_DIFF = Statistic("score_diff", "score per hand, policy - bots (negative: policy better)",
                       "score per hand, policy - bots", False)
POINTS_DIFF = Statistic("points_diff", "points per round, policy - bot", "points per round, policy - bot",
                        True)
GAME_SCORE_DIFF = Statistic("game_score_diff", "game score per game (policy team - bot team)",
                            "game score per game (duplicate deal sequences)", True)
STATISTICS = (POINTS_PER_HAND, PENALTY_DIFF, RESULT_DIFF, SCORE_DIFF, POINTS_DIFF, GAME_SCORE_DIFF)
#: the statistic of each game played alone, by engine kind
_ALONE = {KIND_DIFFERENZLER: PENALTY_DIFF, KIND_MITTLERE: RESULT_DIFF, KIND_MOLOTOW: SCORE_DIFF,
          KIND_SIDI: POINTS_DIFF}


def statistic(rules: str | Rules | None) -> Statistic:
    """The statistic of the game of ``rules``: whole-game games the game score difference, other
    team games points per hand, games played alone their own score's difference (module docstring)."""
    rules = make_rules(rules)
    if rules.spec.team_mode == "none":
        return _ALONE[rules.spec.kind]
    return GAME_SCORE_DIFF if is_whole_game(rules) else POINTS_PER_HAND


__all__ = ["Statistic", "POINTS_PER_HAND", "PENALTY_DIFF", "RESULT_DIFF", "SCORE_DIFF", "POINTS_DIFF",
           "GAME_SCORE_DIFF", "STATISTICS", "statistic"]
