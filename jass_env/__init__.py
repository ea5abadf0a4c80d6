"""Jass (Schieber) for reinforcement learning: rules engine, records, PettingZoo and batched envs.

Where things live:
    rules.py        the rule switches and presets (rules as data)
    core.py         the compiled rules: legal cards, tricks, points, Weis, Stöck, scoring, match end
    game.py         Round and Match, the checked Python API over the core
    cards.py        card ids, names and the 43-action layout
    records.py      game records (docs/records.md): write and check (python -m jass_env.records check)
    observation.py  the observation vector (versioned) and the full-information state
    rewards.py      the reward kinds
    aec.py          PettingZoo AEC environment (env, raw_env; registers "jass_v0")
    wrappers.py     Gymnasium single-agent wrapper (JassGymEnv)
    vector.py       batched environment for training (VectorJassEnv)
    render.py       text picture of a table

The engine modules import no RL library; ``env``, ``raw_env``, ``JassGymEnv`` and
``VectorJassEnv`` are loaded on first use.
"""

from . import _numba_cache  # noqa: F401, I001  (first: sets the compiled-code cache folder)
from .cards import ACTION_NAMES, CONTRACTS, N_ACTIONS, PUSH_ACTION, card_id, card_name
from .game import IllegalActionError, Match, Round
from .rules import PRESETS, SCHIEBER_PRESETS, Rules, RulesError, make_rules

__version__ = "0.1.0"

_LAZY = {"env": "aec", "raw_env": "aec", "JassGymEnv": "wrappers", "VectorJassEnv": "vector"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'jass_env' has no attribute {name!r}")


__all__ = ["ACTION_NAMES", "CONTRACTS", "N_ACTIONS", "PUSH_ACTION", "card_id", "card_name",
           "IllegalActionError", "Match", "Round", "PRESETS", "SCHIEBER_PRESETS", "Rules", "RulesError",
           "make_rules",
           "env", "raw_env", "JassGymEnv", "VectorJassEnv"]
