"""Strength against training time of a ``train.py`` run, read from its TensorBoard events.

    python -m agents.curves RUN_DIR [--out strength.png]

The trainer logs, at every periodic evaluation, ``eval/points_per_hand_vs_<bot>`` with its 95 %
interval (``eval/ci95_low_vs_<bot>``, ``eval/ci95_high_vs_<bot>``) and ``time/elapsed_s``, the
training time so far (warm start included, resumes accounted for). Runs written before
``time/elapsed_s`` existed fall back to the events' wall-clock times since the run's first event.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .extras import missing_extra

PREFIX = "eval/points_per_hand_vs_"


@dataclass
class Curve:
    """One opponent's evaluation points, in training order; arrays of shape (n_evals,)."""

    opponent: str
    decisions: np.ndarray      # env decisions of PPO at the evaluation
    minutes: np.ndarray        # training time at the evaluation, in minutes
    points: np.ndarray         # points per hand (duplicate deals) of the policy against ``opponent``
    low: np.ndarray            # 95 % interval, lower end
    high: np.ndarray           # 95 % interval, upper end


def _events(run_dir: Path):
    try:
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ModuleNotFoundError as exc:  # TensorBoard comes with the "train" extra
        raise missing_extra(exc, "agents.curves (reading a run's events)") from None

    if not any(Path(run_dir).glob("events.out.tfevents.*")):
        raise FileNotFoundError(f"{run_dir}: no TensorBoard event files (events.out.tfevents.*); "
                                "give the run directory that train.py wrote")
    acc = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    acc.Reload()
    return acc


def read_curves(run_dir: str | Path) -> list[Curve]:
    """Every evaluated opponent's curve in ``run_dir`` (empty list if the run has no evaluation)."""
    acc = _events(Path(run_dir))
    tags = set(acc.Tags()["scalars"])
    if "time/elapsed_s" in tags:
        elapsed = {e.step: e.value for e in acc.Scalars("time/elapsed_s")}
    else:
        first = min(e.wall_time for t in tags for e in acc.Scalars(t))
        elapsed = {}
    curves = []
    for tag in sorted(t for t in tags if t.startswith(PREFIX)):
        bot = tag[len(PREFIX):]
        pts = acc.Scalars(tag)
        low = {e.step: e.value for e in acc.Scalars(f"eval/ci95_low_vs_{bot}")}
        high = {e.step: e.value for e in acc.Scalars(f"eval/ci95_high_vs_{bot}")}
        seconds = [elapsed[e.step] if elapsed else e.wall_time - first for e in pts]
        curves.append(Curve(bot, np.array([e.step for e in pts], dtype=np.int64),
                            np.array(seconds, dtype=np.float64) / 60.0,
                            np.array([e.value for e in pts], dtype=np.float64),
                            np.array([low[e.step] for e in pts], dtype=np.float64),
                            np.array([high[e.step] for e in pts], dtype=np.float64)))
    return curves


def plot_strength(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """Write a PNG of points per hand (with 95 % band) against training minutes, one line per
    evaluated opponent; returns ``out``. Raises ValueError if the run has no evaluation yet."""
    try:
        import matplotlib
    except ModuleNotFoundError as exc:  # matplotlib comes with the "train" extra
        raise missing_extra(exc, "agents.curves (the strength plot)") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = read_curves(run_dir)
    if not curves:
        raise ValueError(f"{run_dir}: the run has no evaluation events yet ({PREFIX}*)")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for c in curves:
        line, = ax.plot(c.minutes, c.points, marker="o", ms=3, label=f"vs {c.opponent}")
        ax.fill_between(c.minutes, c.low, c.high, color=line.get_color(), alpha=0.2, lw=0)
        ax.annotate(f"{c.points[-1]:+.1f}", (c.minutes[-1], c.points[-1]), textcoords="offset points",
                    xytext=(4, 4), fontsize=8, color=line.get_color())
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xlabel("training time (minutes, warm start included)")
    ax.set_ylabel("points per hand (duplicate deals)")
    ax.set_title(title or f"{Path(run_dir).name}: strength during training (95% intervals)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agents.curves", description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", help="a run directory written by train.py")
    ap.add_argument("--out", help="PNG to write (default RUN_DIR/strength.png)")
    ap.add_argument("--title", help="plot title")
    args = ap.parse_args(argv)
    try:
        path = plot_strength(args.run_dir, args.out or Path(args.run_dir) / "strength.png", args.title)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for c in read_curves(args.run_dir):
        print(f"vs {c.opponent}: {len(c.points)} evaluations, last {c.points[-1]:+.1f} "
              f"[{c.low[-1]:+.1f}, {c.high[-1]:+.1f}] after {c.minutes[-1]:.1f} min")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
