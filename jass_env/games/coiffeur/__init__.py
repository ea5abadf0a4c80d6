"""Coiffeur: each team fills every row of its score sheet once, each row times its factor.

Four players in two partnerships (as Schieber's). Each deal one player declares one of his team's
open rows (a contract, a Joker row with any contract, Slalom or Guschti with a starting direction)
or pushes to the next candidate; the declarer leads; only the declaring team writes, ``factor ×
(card points + the Match bonus)``; a Kontermatsch may cost a penalty. A game is one deal per row of
both sheets; the higher sheet total wins. The rules: docs/games/coiffeur.md.
"""

from collections.abc import Mapping
from typing import Any

from jass_env.engine.cards import CARD_ACTION_NAMES, CONTRACTS
from jass_env.engine.spec import TEAMS_PAIRS, GameSpec, Switch, register_spec
from jass_env.engine.switches import RulesError, as_tuple, is_int, rules_for

from .. import base
from . import observation, readers, records, render, rules, suit_symmetry
from .rules import COIFFEUR_WEIS, SHEET_ROWS, SLALOM_VALUES

TITLE = "Coiffeur"
KIND = 2
#: the cards, 36 + c declares contract row c, 42 pushes; 43 + 6 j + c declares Joker row j as
#: contract c; 55..58 Slalom / Guschti from Obenabe / Undenufe
ACTIONS_6 = CARD_ACTION_NAMES + tuple(f"declare {c}" for c in CONTRACTS) + ("push",)
ACTIONS_8 = ACTIONS_6 + tuple(f"declare Joker-{j + 1} as {c}" for j in range(2) for c in CONTRACTS)
ACTIONS_10 = ACTIONS_8 + ("declare Slalom from obenabe", "declare Slalom from undenufe",
                          "declare Guschti from obenabe", "declare Guschti from undenufe")


def _row_factors(game: str) -> Switch:
    """The ``row_factors`` switch of one sheet: one factor 1..100 per row, in the sheet's order."""
    rows = SHEET_ROWS[game]
    allowed = (f"one integer 1..100 per row of {game} ({', '.join(rows)}), as a list in that order or a "
               f"dict {{row: factor}}")

    def coerce(value: Any, current: tuple[int, ...]) -> tuple[int, ...]:
        if isinstance(value, Mapping):
            merged = dict(zip(rows, current))
            for label, factor in value.items():
                if label not in merged:
                    raise RulesError(f"row_factors: unknown row {label!r}; rows of {game}: {', '.join(rows)}")
                merged[label] = factor
            return tuple(merged[label] for label in rows)
        return as_tuple("row_factors", value, allowed)

    def check(value: Any) -> bool:
        return (isinstance(value, tuple) and len(value) == len(rows)
                and all(is_int(f) and 1 <= f <= 100 for f in value))

    return Switch("row_factors", tuple(range(1, len(rows) + 1)), allowed, check,
                  "the factor of each row of the game's sheet, in the sheet's order", coerce)


def _points_0_1000(value: Any) -> bool:
    return is_int(value) and 0 <= value <= 1000


def _switches(game: str) -> tuple[Switch, ...]:
    return (
        _row_factors(game),
        Switch("kontermatsch_penalty", 0, "an integer 0..1000", _points_0_1000,
               "a Kontermatsch (the defenders take all 9 tricks) writes -penalty x factor"),
        Switch("match_premium", 0, "an integer 0..1000", _points_0_1000,
               "added, unmultiplied, to the row of a declaring team that took all 9 tricks"),
        Switch("coiffeur_weis", "off", ", ".join(COIFFEUR_WEIS), COIFFEUR_WEIS.__contains__,
               "Weis and Stöck: \"off\" (Swisslos), or \"except_joker\" (scored, times the row factor, in "
               "every row but the Joker rows)"),
        Switch("slalom_values", "starting", ", ".join(SLALOM_VALUES), SLALOM_VALUES.__contains__,
               "Slalom and Guschti card values: those of the \"starting\" direction for every trick, or "
               "\"per_trick\""),
    )


def _fixed(game: str) -> dict[str, Any]:
    """The shared switches Coiffeur does not have: the declarer leads; the rows' factors replace the
    multipliers; Weis and Stöck only through ``coiffeur_weis``; a game is one deal per row of both
    sheets."""
    return {"contracts": CONTRACTS, "push": True, "leader_after_push": "declarer", "weis": False,
            "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0, "first_forehand": "random",
            "match_finish": "official", "match_rounds": 2 * len(SHEET_ROWS[game])}


def _spec(name: str, title: str, actions: tuple[str, ...]) -> GameSpec:
    return GameSpec(name, title, "coiffeur", KIND, players=rules.PLAYERS, teams=TEAMS_PAIRS, hand_size=9,
                    tricks=9, bidding="declaration", action_names=actions, default_episode="match",
                    switches=_switches(name), fixed=_fixed(name), pack=rules.pack,
                    state_fields=rules.STATE_FIELDS, state_ranges=rules.STATE_RANGES,
                    check_state=rules.check_state)


SPECS = {"coiffeur": _spec("coiffeur", "Coiffeur", ACTIONS_8),
         "coiffeur6": _spec("coiffeur6", "Coiffeur (six rows)", ACTIONS_6),
         "coiffeur10": _spec("coiffeur10", "Coiffeur with Slalom and Guschti", ACTIONS_10)}
for _spec_ in SPECS.values():
    register_spec(_spec_)

#: each row's factor is its place on the sheet (S 1, C 2, D 3, H 4, ...)
PRESETS = {name: rules_for(spec, name) for name, spec in SPECS.items()}

BETTER = "higher"
PROTOCOL = "whole_game"
STATISTIC = base.Statistic("game_score_diff", "game score per game (policy team - bot team)",
                           "game score per game (duplicate deal sequences)", True)
REWARDS = ("points", "win")


def REWARD_SCALE(rules_: base.Rules) -> float:  # noqa: N802 (the fact's name)
    """157 x the largest row factor: the "points" reward's divisor (a Match in the top row is about
    +1.6)."""
    return 157.0 * max(rules_.row_factors)


ENV_IDS = {"coiffeur": ("coiffeur_v0", "jass_env/Coiffeur-v0"),
           "coiffeur6": ("coiffeur6_v0", "jass_env/Coiffeur6-v0"),
           "coiffeur10": ("coiffeur10_v0", "jass_env/Coiffeur10-v0")}
BOTS = {"heuristic": "agents.bots.coiffeur:CoiffeurHeuristic", "pimc": "agents.bots.coiffeur:CoiffeurPIMC",
        "worlds": "agents.bots.coiffeur:CoiffeurWorlds"}
CHECKPOINTS = {"coiffeur": "coiffeur.pt", "coiffeur6": "coiffeur6.pt", "coiffeur10": "coiffeur10.pt"}
SCORE_RANGE = rules.score_range
MAX_PHASE_ACTIONS = rules.max_phase_actions
READERS = readers.CoiffeurReaders

__all__ = ["TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
           "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS",
           "SCORE_RANGE", "MAX_PHASE_ACTIONS", "rules", "observation", "records", "render", "suit_symmetry"]
