"""What the trainer prints: the progress line while it trains (stderr, with ``progress``), and at
the end the summary, the final table and every output file (stdout)."""

from __future__ import annotations

import sys
import time

from jass_env.commands import shown_command

from .checkpoint import Counters
from .config import TrainConfig
from .results import Evaluation, RunSummary, results_table
from .run_folder import output_files
from .timing import hms

#: width of the progress bar, in characters
BAR_WIDTH = 20
#: seconds between progress lines: redrawn in place on a terminal, else appended
PRINT_EVERY_S_TTY, PRINT_EVERY_S_LOG = 0.5, 10.0


class ProgressLine:
    """The progress line on stderr (when ``cfg.progress``): the iteration, decisions, speed, the
    policy's entropy, the last evaluation, time elapsed and left. Created when PPO's iterations
    start (the time left is estimated from theirs); ``start``: when the run's process started
    (``time.monotonic()``)."""

    def __init__(self, cfg: TrainConfig, first_iteration: int, last_iteration: int, start: float) -> None:
        self.name, self.enabled, self.total = cfg.name, cfg.progress, cfg.iterations
        self.first, self.last = first_iteration, last_iteration
        self.start, self.ppo_start = start, time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last_print = 0.0

    def update(self, run: Counters, decisions_per_s: float, entropy: float, last_eval: Evaluation,
               stat_key: str) -> None:
        """Print the line after iteration ``run.iteration`` when it is due (always after the last)."""
        now = time.monotonic()
        final = run.iteration == self.last
        if not self.enabled or not (final or now - self.last_print >= (PRINT_EVERY_S_TTY if self.tty
                                                                       else PRINT_EVERY_S_LOG)):
            return
        self.last_print = now
        per_it = (now - self.ppo_start) / max(1, run.iteration - self.first)
        filled = int(BAR_WIDTH * (run.iteration / self.total))
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        ev = " ".join(f"vs {k} {v[stat_key]:+.1f}" for k, v in last_eval.items())
        line = (f"{self.name} [{bar}] it {run.iteration}/{self.total} {run.env_decisions / 1e6:.2f}M dec "
                f"{decisions_per_s:,.0f} dec/s ent {entropy:.2f} "
                f"{ev} elapsed {hms(now - self.start)} left {hms(per_it * (self.last - run.iteration))}")
        print(("\r" if self.tty else "") + line, end="\n" if (not self.tty or final) else "",
              file=sys.stderr, flush=True)


def print_outputs(summary: RunSummary) -> None:
    """The results table, every output file, and how to look at the curves."""
    if summary.results:
        print("\n" + results_table(summary.results) + "\n")
    print(f"outputs in {summary.run_dir}:")
    for path in output_files(summary.run_dir):
        print(f"  {path}")
    if (summary.run_dir / "strength.png").exists():
        print(f"curves: {shown_command('python')} -m agents.curves {summary.run_dir}  or  "
              f"{shown_command('tensorboard')} --logdir {summary.run_dir}")


def print_summary(s: RunSummary) -> None:
    """The end of ``train.py``: what was done, how to continue a stopped run, the outputs."""
    if s.already_finished:
        print(f"run {s.run_dir} is already finished ({s.iterations} iterations, "
              f"{s.env_decisions:,} decisions); nothing left to train")
        print_outputs(s)
        return
    ev = "; last periodic evaluation " + " ".join(
        f"vs {k}: {v[s.statistic]:+.1f} [{v['ci_low']:+.1f}, {v['ci_high']:+.1f}]"
        for k, v in s.eval.items()) if s.eval else ""
    bc = f" after a {s.bc_decisions:,}-decision warm start" if s.bc_decisions else ""
    print(f"done: {s.iterations} iterations, {s.env_decisions:,} decisions{bc} "
          f"({s.trained_decisions:,} trained) in {hms(s.wall_s)} "
          f"(CPU time {hms(s.cpu_s)}){ev}; checkpoint {s.checkpoint}")
    if s.iterations < s.total_iterations:
        print(f"stopped at iteration {s.iterations}/{s.total_iterations}; continue with "
              f"{shown_command('python')} train.py --resume {s.run_dir}")
    print_outputs(s)
