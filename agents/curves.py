"""Strength against training time of a ``train.py`` run, read from its TensorBoard events.

    .venv/bin/python -m agents.curves RUN_DIR [--out strength.png]

The trainer logs, at every periodic evaluation, its game's statistic (its ``STATISTIC`` fact,
:mod:`jass_env.games.base`:
``eval/points_per_hand_vs_<bot>`` in Schieber, ``eval/penalty_diff_vs_<bot>`` in Differenzler) with its 95 %
interval (``eval/ci95_low_vs_<bot>``, ``eval/ci95_high_vs_<bot>``) and ``time/elapsed_s``, the
training time so far (warm start included, resumes accounted for). Runs written before
``time/elapsed_s`` existed fall back to the events' wall-clock times since the run's first event.
An evaluation whose events are incomplete (a process killed while logging it, or events
TensorBoard purged) is left out. When the run has its final evaluation (``results.json``), the
plot marks it at the end: the figures of ``results.md`` for ``latest.pt``, the headline figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jass_env.commands import module_command
from jass_env.games.base import Statistic

from .evaluation.protocol import STATISTICS
from .extras import missing_extra


def _prefix(stat: Statistic) -> str:
    return f"eval/{stat.key}_vs_"


@dataclass
class Curve:
    """One opponent's evaluation points, in training order; arrays of shape (n_evals,)."""

    opponent: str
    stat: Statistic            # what ``points`` are (points per hand, or the penalty difference)
    decisions: np.ndarray      # env decisions of PPO at the evaluation
    minutes: np.ndarray        # training time at the evaluation, in minutes
    points: np.ndarray         # the statistic of the policy against ``opponent``
    low: np.ndarray            # 95 % interval, lower end
    high: np.ndarray           # 95 % interval, upper end


def read_events(run_dir: Path):
    """The TensorBoard events of ``run_dir`` (an ``EventAccumulator``, every scalar loaded)."""
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
    acc = read_events(Path(run_dir))
    scalars = {t: acc.Scalars(t) for t in acc.Tags()["scalars"]}     # a purged tag has no events

    def by_step(tag: str) -> dict[int, float]:
        return {e.step: e.value for e in scalars.get(tag, [])}

    elapsed = by_step("time/elapsed_s")
    first = min((e.wall_time for events in scalars.values() for e in events), default=0.0)
    curves = []
    tags = sorted((t, stat) for stat in STATISTICS for t in scalars if t.startswith(_prefix(stat)))
    for tag, stat in tags:
        bot = tag[len(_prefix(stat)):]
        low, high = by_step(f"eval/ci95_low_vs_{bot}"), by_step(f"eval/ci95_high_vs_{bot}")
        # in training order: event files of one process and second sort by a counter as text
        # (".10" before ".9"), so a resumed run's events may be read before the earlier ones
        pts = sorted((e for e in scalars[tag] if e.step in low and e.step in high
                      and (e.step in elapsed or "time/elapsed_s" not in scalars)), key=lambda e: e.step)
        if not pts:
            continue
        seconds = [elapsed[e.step] if elapsed else e.wall_time - first for e in pts]
        curves.append(Curve(bot, stat, np.array([e.step for e in pts], dtype=np.int64),
                            np.array(seconds, dtype=np.float64) / 60.0,
                            np.array([e.value for e in pts], dtype=np.float64),
                            np.array([low[e.step] for e in pts], dtype=np.float64),
                            np.array([high[e.step] for e in pts], dtype=np.float64)))
    return curves


def final_figures(run_dir: str | Path) -> tuple[dict[str, dict[str, float]], int] | None:
    """The final evaluation of ``latest.pt`` from ``run_dir/results.json``: (per opponent its
    statistic, ``ci_low``, ``ci_high``; the number of deals), or None without one."""
    path = Path(run_dir) / "results.json"
    if not path.is_file():
        return None
    res = json.loads(path.read_text())
    rows = [r for r in res.get("rows", []) if str(r.get("checkpoint", "")).endswith("latest.pt")]
    if not rows:
        return None
    return {b: rows[0][b] for b in res["opponents"] if b in rows[0]}, int(res["deals"])


def strength_figure(run_dir: str | Path, title: str | None = None):
    """A matplotlib Figure of the evaluation statistic (points per hand, or the penalty difference)
    against training minutes: per evaluated opponent
    the periodic evaluations (line) with their 95 % interval (shaded band) and, when the run has
    ``results.json``, the final evaluation of ``latest.pt`` (diamond with error bar, the figures
    of ``results.md``) at the end. The end label is the final figure, or else the last periodic
    one, and the legend says which. Raises ValueError if the run has no evaluation yet."""
    try:
        import matplotlib
    except ModuleNotFoundError as exc:  # matplotlib comes with the "train" extra
        raise missing_extra(exc, "agents.curves (the strength plot)") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    curves = read_curves(run_dir)
    if not curves:
        raise ValueError(f"{run_dir}: the run has no evaluation events yet "
                         f"({' or '.join(_prefix(s) + '*' for s in STATISTICS)})")
    final = final_figures(run_dir)
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for c in curves:
        line, = ax.plot(c.minutes, c.points, marker="o", ms=3, label=f"vs {c.opponent}, periodic evaluations")
        color = line.get_color()
        ax.fill_between(c.minutes, c.low, c.high, color=color, alpha=0.2, lw=0)
        end = c.points[-1]
        if final is not None and c.opponent in final[0]:
            f = final[0][c.opponent]
            end = f[c.stat.key]
            ax.errorbar([c.minutes[-1]], [end], yerr=[[end - f["ci_low"]], [f["ci_high"] - end]], fmt="D",
                        ms=5, color=color, capsize=3,
                        label=f"vs {c.opponent}, final evaluation ({final[1]:,} deals, results.md)")
        ax.annotate(f"{end:+.1f}", (c.minutes[-1], end), textcoords="offset points", xytext=(8, -3),
                    fontsize=8, color=color)
    ax.margins(x=0.1)                  # room for the end labels
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xlabel("training time (minutes, warm start included)")
    stat = curves[0].stat
    ax.set_ylabel(stat.axis + ("" if stat.higher_is_better else "\n(seat rotation; lower is better)"))
    ax.set_title(title or f"{Path(run_dir).name}: strength during training")
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    band = Patch(color="grey", alpha=0.3, label="shaded: 95% interval")
    end_note = "end labels: final evaluation" if final is not None else "end labels: last periodic evaluation"
    ax.legend(handles + [band], labels + [f"{band.get_label()}; {end_note}"],
              loc="lower right" if stat.higher_is_better else "upper right", fontsize=7)
    fig.tight_layout()
    return fig


def plot_strength(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """Write :func:`strength_figure` of ``run_dir`` as a PNG to ``out``; returns ``out``. Raises
    ValueError if the run has no evaluation yet."""
    fig = strength_figure(run_dir, title)       # sets the Agg backend before pyplot is imported here
    import matplotlib.pyplot as plt

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=module_command("agents.curves"), description=__doc__.split("\n")[0])
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
        print(f"vs {c.opponent}: {len(c.points)} periodic evaluations, last {c.points[-1]:+.1f} "
              f"[{c.low[-1]:+.1f}, {c.high[-1]:+.1f}] after {c.minutes[-1]:.1f} min")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
