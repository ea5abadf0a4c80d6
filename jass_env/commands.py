"""Command-line helpers: print commands the user can run as shown; stop quietly on a closed pipe.

Help texts, usage lines and hints name the interpreter that is running now, relative to the
working directory when it lies inside it (``.venv/bin/python -m agents.evaluate`` after the
README's set-up), so that a printed command works when pasted.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def shown_command(name: str = "python") -> str:
    """How to call ``name`` ("python", or a script installed beside it such as "tensorboard")
    of the interpreter that runs this: its path, relative to the working directory when inside it."""
    exe = Path(sys.executable)
    path = exe if name == "python" else exe.with_name(name)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def module_command(module: str) -> str:
    """``<interpreter> -m <module>``, e.g. ``.venv/bin/python -m agents.evaluate``."""
    return f"{shown_command()} -m {module}"


@contextmanager
def quiet_broken_pipe() -> Iterator[None]:
    """Printing inside this block stops quietly when the reader goes away (``| head``), as Unix
    tools do: no traceback, and no error when Python flushes standard output at exit."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


__all__ = ["shown_command", "module_command", "quiet_broken_pipe"]
