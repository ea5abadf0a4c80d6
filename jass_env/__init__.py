"""Jass (Schieber) for reinforcement learning: rules engine, records, PettingZoo and batched envs.

Where things live:
    rules.py   the rule switches and presets (rules as data)
    core.py    the compiled rules: legal cards, tricks, points, Weis, Stöck, scoring, match end
    game.py    Round and Match, the checked Python API over the core
    cards.py   card ids, names and the 43-action layout
    records.py game records (RECORDS.md): write and check
"""

from .cards import ACTION_NAMES, CONTRACTS, N_ACTIONS, PUSH_ACTION, card_id, card_name
from .game import IllegalActionError, Match, Round
from .rules import PRESETS, Rules, RulesError, make_rules

__version__ = "0.1.0"

__all__ = ["ACTION_NAMES", "CONTRACTS", "N_ACTIONS", "PUSH_ACTION", "card_id", "card_name",
           "IllegalActionError", "Match", "Round", "PRESETS", "Rules", "RulesError", "make_rules"]
