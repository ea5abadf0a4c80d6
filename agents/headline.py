"""The headline statistic of each game's evaluation, as the evaluation tool reports it.

Team games (Schieber) are evaluated on duplicate deals: **points per hand**, the policy's team
score minus the other team's (higher is better). Games played alone (Differenzler) are
evaluated by seat rotation: **penalty difference**, the evaluated agent's mean penalty per round
minus its opponents' (lower is better). The trainer logs the statistic as
``eval/<key>_vs_<bot>`` (:mod:`agents.curves` plots it) and picks ``best.pt`` by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jass_env.rules import Rules, make_rules


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
STATISTICS = (POINTS_PER_HAND, PENALTY_DIFF)


def statistic(rules: str | Rules | None) -> Statistic:
    """The statistic of the game of ``rules``: team games points per hand, games played alone the
    penalty difference."""
    return POINTS_PER_HAND if make_rules(rules).spec.team_mode != "none" else PENALTY_DIFF


__all__ = ["Statistic", "POINTS_PER_HAND", "PENALTY_DIFF", "STATISTICS", "statistic"]
