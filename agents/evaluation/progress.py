"""The progress bar of a long evaluation: done/total, the rate and an estimate of the time left."""

from __future__ import annotations

import math
import sys
import time
from typing import TextIO

#: seconds between redraws on a terminal (the line is redrawn in place)
TTY_INTERVAL_S = 0.2
#: seconds between lines when the stream is not a terminal (a log file)
LOG_INTERVAL_S = 10.0
#: characters of the bar itself
BAR_WIDTH = 24


class Progress:
    """A small progress bar with the rate and an estimate of the time left, on ``stream``
    (default stderr).

    On a terminal the line is redrawn in place (at most every 0.2 s); otherwise a line is
    printed every 10 s and at the end. ``enabled=False`` (or ``total`` 0) draws nothing.
    """

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.total, self.label, self.done = max(0, total), label, 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and total > 0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self.last = time.monotonic()

    def update(self, n: int = 1) -> None:
        """Count ``n`` more units done; redraw when it is time to."""
        self.done = min(self.total, self.done + n)
        now = time.monotonic()
        interval = TTY_INTERVAL_S if self.tty else LOG_INTERVAL_S
        if self.enabled and (now - self.last >= interval or self.done == self.total):
            self.last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The bar as one line: label, bar, done/total, percent, rate per second, times."""
        now = time.monotonic() if now is None else now
        elapsed = now - self.start
        frac = self.done / self.total if self.total else 1.0
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.nan
        filled = int(BAR_WIDTH * frac)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        return (f"{self.label} [{bar}] {self.done}/{self.total} {100 * frac:3.0f}% "
                f"{rate:.1f}/s elapsed {_hms(elapsed)} left {_hms(eta)}")

    def _draw(self, now: float) -> None:
        if self.tty:
            self.stream.write("\r" + self.line(now) + ("\n" if self.done == self.total else ""))
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the line on a terminal when the bar stopped before its total (an error)."""
        if self.enabled and self.tty and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()


def _hms(seconds: float) -> str:
    """``h:mm:ss``, or ``?`` for an unknown (infinite or NaN) time."""
    if not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


__all__ = ["Progress"]
