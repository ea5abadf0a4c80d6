"""The evaluation reports a model card is built from (:mod:`agents.model_card`).

Each policy checkpoint ``DIR/<name>.pt`` has one report ``DIR/evaluations/<name>.json``: the
checkpoint's SHA-256 and one entry per opponent, each holding the ``summary.json`` that
``python -m agents.evaluate`` wrote, the exact command that wrote it, its wall time, the date and
the machine it ran on::

    {"format": "jass-card-evaluations/1", "checkpoint": "agents/checkpoints/sidi.pt",
     "checkpoint_sha256": "c78a...", "evaluations": [
        {"opponent": "random", "command": ".venv/bin/python -m agents.evaluate ...",
         "wall_seconds": 14.2, "date": "2026-12-05", "machine": {...}, "summary": {...}}, ...]}

:func:`run_evaluation` runs the evaluator in a fresh process from the repository root and
:func:`record` stores its entry (replacing the opponent's earlier one); :func:`read_report`
refuses a report of other weights than the checkpoint's, so a card is never built from figures
of another file. :func:`headline` reads the game's statistic out of a summary of any protocol.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .evaluation.cli import IMPLEMENTATIONS
from .evaluation.protocol import DUPLICATE, ROTATION, WHOLE_GAME, protocol_for
from .files import file_sha256

REPORT_FORMAT = "jass-card-evaluations/1"
#: the repository root: the evaluator runs here, and paths in commands and cards are relative to it
ROOT = Path(__file__).resolve().parent.parent
#: the interpreter as the docs' commands name it (after the README's set-up)
SHOWN_PYTHON = ".venv/bin/python"
#: where the evaluator's own output folders go (ignored by git)
OUTPUTS = Path("runs") / "model-cards"
BYTES_PER_GIB = 1 << 30


class CardError(ValueError):
    """A checkpoint, evaluation report or card that cannot be used as asked; says what to do."""


def shown_path(path: Path) -> str:
    """``path`` relative to the repository root when inside it (``agents/checkpoints/x.pt``), else
    absolute."""
    p = path.resolve()
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)


def report_path(checkpoint: Path) -> Path:
    """The evaluation report of ``checkpoint``: ``evaluations/<stem>.json`` beside it."""
    return checkpoint.parent / "evaluations" / f"{checkpoint.stem}.json"


def machine() -> dict[str, Any]:
    """The machine this runs on, JSON-ready: CPU model, logical CPUs, memory (GiB), the 1-minute
    load average (other work sharing the machine), and the versions that matter for speed."""
    import numba
    import numpy
    import torch

    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = re.findall(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        cpu = names[0].strip() if names else cpu
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else None
    return {"cpu": cpu, "logical_cpus": os.cpu_count(),
            "memory_gib": round(memory / BYTES_PER_GIB, 1) if memory else None,
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
            "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
            "os": platform.platform(), "python": platform.python_version(), "torch": torch.__version__,
            "numpy": numpy.__version__, "numba": numba.__version__}


def evaluation_argv(checkpoint: Path, rules: str, opponent: str, deals: int, seed: int) -> list[str]:
    """The evaluator's arguments (after ``-m agents.evaluate``): the checkpoint against
    ``opponent`` under ``rules`` on ``deals`` deals of deal set ``seed``, no matches, one process;
    its output folder under ``runs/model-cards/``."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", opponent).strip("-")
    out = OUTPUTS / checkpoint.stem / slug
    argv = [shown_path(checkpoint), opponent, "--rules", rules, "--deals", str(deals), "--seed", str(seed)]
    if IMPLEMENTATIONS[protocol_for(rules)].takes_matches:
        argv += ["--matches", "0"]
    return argv + ["--out", str(out)]


def run_evaluation(checkpoint: Path, rules: str, opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """Evaluate ``checkpoint`` against ``opponent`` with the evaluator (a fresh process from the
    repository root) and return the report's entry; CardError when the evaluator fails."""
    argv = evaluation_argv(checkpoint, rules, opponent, deals, seed)
    command = " ".join(shlex.quote(w) for w in [SHOWN_PYTHON, "-m", "agents.evaluate", *argv])
    print(f"running {command}", flush=True)
    spec = machine()
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "agents.evaluate", *argv, "--quiet"], cwd=ROOT,
                          capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise CardError(f"{command} exited with status {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    summary = json.loads((ROOT / argv[-1] / "summary.json").read_text())
    return {"opponent": opponent, "command": command, "wall_seconds": round(wall, 1),
            "date": datetime.date.today().isoformat(), "machine": spec, "summary": summary}


def record(checkpoint: Path, entry: dict[str, Any]) -> Path:
    """Store ``entry`` in the checkpoint's report, replacing the entry of the same opponent; a
    report of other weights (another SHA-256) is started over. Returns the report's path."""
    path = report_path(checkpoint)
    sha = file_sha256(checkpoint)
    report: dict[str, Any] = {"format": REPORT_FORMAT, "checkpoint": shown_path(checkpoint),
                              "checkpoint_sha256": sha, "evaluations": []}
    if path.is_file():
        old = json.loads(path.read_text())
        if old.get("checkpoint_sha256") == sha:
            report["evaluations"] = old.get("evaluations", [])
    entries = report["evaluations"]
    same = [i for i, e in enumerate(entries) if e.get("opponent") == entry["opponent"]]
    if same:
        entries[same[0]] = entry
    else:
        entries.append(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return path


def read_report(checkpoint: Path) -> dict[str, Any]:
    """The checkpoint's evaluation report; CardError when there is none, when it is not one, or
    when it evaluated other weights than the file's now."""
    path = report_path(checkpoint)
    redo = f"{SHOWN_PYTHON} -m agents.model_card {shown_path(checkpoint)} --evaluate random heuristic"
    if not path.is_file():
        raise CardError(f"{shown_path(checkpoint)} has no evaluation report {shown_path(path)}; make one "
                        f"with {redo}")
    try:
        report = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise CardError(f"evaluation report {shown_path(path)} cannot be read: {e}") from None
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT or not report.get("evaluations"):
        raise CardError(f"evaluation report {shown_path(path)} is not a {REPORT_FORMAT!r} file with "
                        f"evaluations; make it again with {redo}")
    sha = file_sha256(checkpoint)
    if report.get("checkpoint_sha256") != sha:
        raise CardError(f"evaluation report {shown_path(path)} evaluated weights with SHA-256 "
                        f"{report.get('checkpoint_sha256')}, but {shown_path(checkpoint)} now has {sha}; "
                        f"evaluate it again with {redo}")
    return report


@dataclass(frozen=True)
class Headline:
    """The game's statistic in one evaluation summary: A's figure against B."""

    value: float               #: the statistic's mean, A against B
    ci95: tuple[float, float]  #: its t-based 95 % interval
    deals: int                 #: deals (whole games: deal sequences) of the deal set
    unit: str                  #: what ``deals`` counts, in words
    better_share: float        #: share of deals (sequences) on which A did better than B (sign test)


def _duplicate(s: dict[str, Any]) -> Headline:
    return Headline(s["points_per_hand"], (s["ci95"][0], s["ci95"][1]), s["deals"], "duplicate deals",
                    s["share_of_deals_won"])


def _rotation(s: dict[str, Any]) -> Headline:
    d = s["difference_A_minus_B"]
    unit = f"deals × {s['plays_per_deal']} seat rotations"
    return Headline(d["mean"], (d["ci95"][0], d["ci95"][1]), s["deals"], unit, s["share_of_deals_A_better"])


def _whole_game(s: dict[str, Any]) -> Headline:
    return Headline(s["game_score_diff"], (s["ci95"][0], s["ci95"][1]), s["sequences"],
                    f"deal sequences ({s['games']} whole games)", s["share_of_sequences_won"])


#: how each protocol's summary holds the game's statistic
HEADLINES = {DUPLICATE: _duplicate, ROTATION: _rotation, WHOLE_GAME: _whole_game}


def headline(summary: dict[str, Any], rules: str) -> Headline:
    """The statistic of the game of ``rules`` in an evaluator ``summary`` of that game."""
    protocol = protocol_for(rules)
    if protocol not in HEADLINES:
        raise CardError(f"no reader for summaries of the evaluation protocol {protocol!r}; known: "
                        f"{', '.join(HEADLINES)}")
    return HEADLINES[protocol](summary)


__all__ = ["CardError", "Headline", "headline", "machine", "read_report", "record", "report_path",
           "run_evaluation", "evaluation_argv", "shown_path", "REPORT_FORMAT", "ROOT", "SHOWN_PYTHON"]
