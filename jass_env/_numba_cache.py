"""Point numba's on-disk cache at a folder keyed by the project's source code.

numba decides whether a cached compiled function is stale from its *own* source file only. Our
compiled functions call each other across modules (``observation.py`` compiles in ``core.py``'s
rules), so after an edit of ``core.py`` the cached ``observation`` code would keep the old rules.
Keying the cache folder by a hash of every ``.py`` file of ``jass_env`` and ``agents`` makes any
edit start a fresh cache. A user's ``NUMBA_CACHE_DIR`` is respected as the parent folder.

Imported by ``jass_env/__init__.py`` before any compiled module.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _source_hash() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in ("jass_env", "agents"):
        for path in sorted((root / package).glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure() -> str:
    """Set numba's cache folder for this source tree and return it."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "jass_env", "numba")
    folder = os.path.join(base, _source_hash())
    numba.config.CACHE_DIR = folder
    return folder


CACHE_DIR = configure()
