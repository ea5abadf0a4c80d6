"""Where a run's wall time goes: :class:`Timers` (seconds per category), logged per PPO iteration
as ``time/<category>_s`` and ``time/<category>_share`` (of the iteration's wall time), and read
back from a run's TensorBoard events by :func:`iteration_times` (``benchmarks/train_speed.py``).

Categories: ``env`` (stepping the games), ``bots`` (the bot opponents), ``inference`` (the
networks during the rollout and the bootstrap values), ``update`` (the PPO minibatches),
``other`` (copies, GAE, logging); ``eval`` is logged where it happens, outside the iterations
(``time/eval_s``), as is the warm start (``time/warm_start_s``).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..curves import read_events

#: the categories timed outside the iterations (not in an iteration's ``time/<category>_s``)
OUTSIDE_ITERATIONS = ("eval",)


class Timers:
    """Wall time per category, in seconds (``total``); ``with timers("env"): ...`` adds to one."""

    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)
        self.last: dict[str, float] = {}        #: the seconds of each category's latest timing

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.last[name] = time.perf_counter() - t0
            self.total[name] += self.last[name]

    def since(self, before: dict[str, float]) -> dict[str, float]:
        """Seconds per category since ``before`` (a copy of ``total`` taken earlier)."""
        return {k: self.total[k] - before.get(k, 0.0) for k in self.total}


def hms(seconds: float) -> str:
    """``seconds`` as h:mm:ss ("?" when not finite)."""
    if not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


@dataclass
class IterationTime:
    """One PPO iteration of a run, from its TensorBoard events."""

    decisions: int                 #: env decisions played (every seat)
    trained_decisions: int         #: of which the learning policy's
    wall_s: float                  #: the iteration's wall time
    seconds: dict[str, float]      #: per timer category


def iteration_times(run_dir: str | Path) -> list[IterationTime]:
    """Every PPO iteration of the run in ``run_dir``, in order (read from ``charts/decisions_per_s``,
    ``charts/trained_decisions`` and ``time/<category>_s`` of the categories with a share of the
    iteration's time, at each iteration's step)."""
    acc = read_events(Path(run_dir))
    scalars = {t: {e.step: e.value for e in acc.Scalars(t)} for t in acc.Tags()["scalars"]}
    rate, trained = scalars["charts/decisions_per_s"], scalars["charts/trained_decisions"]
    categories = {t[len("time/"):-len("_share")]: scalars[t[:-len("_share")] + "_s"] for t in scalars
                  if t.startswith("time/") and t.endswith("_share")}
    out, before, trained_before = [], 0, 0.0
    for step in sorted(rate):
        decisions = step - before
        out.append(IterationTime(decisions, int(trained[step] - trained_before), decisions / rate[step],
                                 {k: v[step] for k, v in categories.items() if step in v}))
        before, trained_before = step, trained[step]
    return out
