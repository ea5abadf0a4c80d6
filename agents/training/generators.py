"""The run's random generators: besides the global ones (Python's, numpy's, torch's), one per
purpose, each seeded from the config's ``seed`` and saved in every checkpoint, so that a resumed
run draws exactly what the uninterrupted run would have drawn."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

#: the checkpoint's names of the generators' states (:func:`rng_state`)
RNG_KEYS = ("python", "numpy_global", "numpy", "torch", "sample", "bots", "agent")


@dataclass
class Generators:
    """The run's random generators besides the global ones (each checkpointed)."""

    draws: np.random.Generator        #: opponent draws, minibatch order
    sample: torch.Generator           #: action sampling of the policies (CPU)
    bots: np.random.Generator         #: the random bot's dice
    agent: np.random.Generator        #: the dice of the opponent agent (``opponent_agent``)

    @classmethod
    def from_seed(cls, seed: int) -> Generators:
        return cls(np.random.default_rng(seed), torch.Generator().manual_seed(seed + 1),
                   np.random.default_rng(seed + 2), np.random.default_rng(seed + 3))


def seed_globals(seed: int) -> None:
    """Seed Python's, numpy's and torch's global generators with ``seed``."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def rng_state(gens: Generators) -> dict[str, Any]:
    """Every random generator's state (keys :data:`RNG_KEYS`), as checkpoint-safe values
    (``torch.load(weights_only=True)`` reads them)."""
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    return {"python": random.getstate(),
            "numpy_global": {"kind": kind, "keys": torch.from_numpy(keys.astype(np.int64)), "pos": int(pos),
                             "has_gauss": int(has_gauss), "cached": float(cached)},
            "numpy": gens.draws.bit_generator.state,
            "torch": torch.get_rng_state(),
            "sample": gens.sample.get_state(),
            "bots": gens.bots.bit_generator.state,
            "agent": gens.agent.bit_generator.state}


def set_rng_state(state: dict[str, Any], gens: Generators) -> None:
    """Restore what :func:`rng_state` saved into the global generators and ``gens``."""
    py = state["python"]
    random.setstate((py[0], tuple(py[1]), py[2]))
    g = state["numpy_global"]
    np.random.set_state((g["kind"], g["keys"].numpy().astype(np.uint32), g["pos"], g["has_gauss"],
                         g["cached"]))
    gens.draws.bit_generator.state = state["numpy"]
    torch.set_rng_state(state["torch"])
    gens.sample.set_state(state["sample"])
    gens.bots.bit_generator.state = state["bots"]
    gens.agent.bit_generator.state = state["agent"]
