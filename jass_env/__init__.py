"""jass-env: the Swiss Jass family for reinforcement learning.

Every game of the family (Schieber and Schieber for six, Differenzler, Coiffeur, Mittlere,
Molotow, Sidi-Jass) on one exact compiled rules engine, with PettingZoo AEC and Gymnasium
environments and a batched environment for training.

Where things live:
    engine/        what every game shares: cards, legal card play, Weis, dealing, the state, the
                   shared switches (Rules), the compiled transitions and the hooks into each game
    games/         one package per game (its facts, rules, observation, records, rendering) and
                   the registry of games (make_rules, PRESETS)
    envs/          the PettingZoo AEC env, the Gymnasium wrapper, the batched env, rewards
    records/       game records: write, check, convert jass-kit logs
    round.py       Round and Match, the checked Python API over the engine
    render.py      the text picture of a table

The engine modules import no RL library; ``env``, ``raw_env``, ``JassGymEnv`` and
``VectorJassEnv`` are loaded on first use.
"""

from .engine import jit  # noqa: F401, I001  (first: sets the compiled-code cache folders)
from .engine.cards import CONTRACTS, card_id, card_name
from .engine.switches import Rules, RulesError
from .games import PRESETS, REGISTRY, SCHIEBER_PRESETS, make_rules
from .round import IllegalActionError, Match, Round

__version__ = "0.1.0"

_LAZY = {"env": "envs.aec", "raw_env": "envs.aec", "JassGymEnv": "envs.gym", "VectorJassEnv": "envs.vector"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'jass_env' has no attribute {name!r}")


__all__ = ["CONTRACTS", "card_id", "card_name", "IllegalActionError", "Match", "Round", "PRESETS", "REGISTRY",
           "SCHIEBER_PRESETS", "Rules", "RulesError", "make_rules", "env", "raw_env", "JassGymEnv",
           "VectorJassEnv"]
