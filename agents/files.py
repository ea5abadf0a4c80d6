"""Small file helpers shared by checkpoints and exports (no torch here)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

TMP_SUFFIX = ".tmp"


def _tmp_prefix(path: Path) -> str:
    """Name prefix of :func:`atomic_write`'s temporary files for ``path`` (hidden, same folder)."""
    return f".{path.name}."


def atomic_write(path: str | os.PathLike[str], write: Callable[[BinaryIO], None]) -> Path:
    """Write a file so that readers see the old file or the complete new one, never a part.

    ``write(f)`` fills a temporary file in the same folder, which is synced and renamed over
    ``path``; on any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def remove_stale_temp_files(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files that :func:`atomic_write` of ``path`` left behind when its
    process was killed half-way (``.NAME.*.tmp`` next to ``path``); returns the removed paths.
    Call it only while no other process writes ``path``."""
    path = Path(path)
    stale = sorted(path.parent.glob(f"{_tmp_prefix(path)}*{TMP_SUFFIX}")) if path.parent.is_dir() else []
    for p in stale:
        p.unlink(missing_ok=True)
    return stale


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file (checkpoint hashes in evaluation reports)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
