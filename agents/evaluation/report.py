"""How an evaluation's files are written: ``summary.json``, a Markdown table of metrics, CSV rows
and PNG figures. Each protocol (and the round robin) writes its own files with these.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

#: resolution of the PNG figures
FIGURE_DPI = 100


def write_json(path: Path, data: Any) -> None:
    """``data`` as indented JSON with a final newline."""
    path.write_text(json.dumps(data, indent=2) + "\n")


def write_csv(path: Path, fields: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
    """A CSV file with the header ``fields`` and one line per row (a dict keyed by the fields)."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def metric_table(rows: Iterable[tuple[str, Any]]) -> str:
    """A two-column Markdown table ``| metric | value |``, one line per (metric, value)."""
    return "| metric | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows) + "\n"


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend. matplotlib is imported here, not at the
    top: it is a heavy optional dependency (the train extra) only the figures need."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> None:
    """Save a matplotlib Figure as PNG and close it."""
    fig.savefig(path, dpi=FIGURE_DPI)
    pyplot().close(fig)


__all__ = ["FIGURE_DPI", "write_json", "write_csv", "metric_table", "pyplot", "save_figure"]
