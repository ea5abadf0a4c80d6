"""A pool of worker processes for evaluations of agent specs: each worker builds its context (its
own agents) once, then plays the chunks of indices it is given against it.

Functions and arguments travel to the workers by pickling (the ``spawn`` start method: a fresh
interpreter per worker, safe with numba and torch), so ``build`` and every chunk function must be
module-level functions.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: this process's context while it is a pool worker: set once by the pool's initializer, in the
#: worker only (the parent never sets it). A pool's initializer can hand state to the tasks only
#: through the worker's globals; this is the module's one piece of mutable state.
_context: Any = None


def _initialize(build: Callable[..., Any], args: tuple[Any, ...]) -> None:
    global _context
    _context = build(*args)


def _run(task: tuple[Callable[[Any, list[int]], list[Any]], list[int]]) -> list[Any]:
    play, chunk = task
    return play(_context, chunk)


def chunks(items: Sequence[int], size: int) -> list[list[int]]:
    """``items`` in consecutive chunks of ``size`` (the last one shorter)."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


class Pool:
    """``workers`` processes, each with the context ``build(*args)``; a context manager."""

    def __init__(self, workers: int, build: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.pool = mp.get_context("spawn").Pool(workers, initializer=_initialize, initargs=(build, args))

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.terminate()

    def play(self, play: Callable[[Any, list[int]], list[Any]],
             chunked: Sequence[list[int]]) -> Iterator[list[Any]]:
        """``play(context, chunk)`` for every chunk, on the workers; results as they finish."""
        return self.pool.imap_unordered(_run, [(play, c) for c in chunked])


__all__ = ["Pool", "chunks"]
