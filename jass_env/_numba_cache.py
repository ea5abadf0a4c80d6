"""Point numba's on-disk cache at a folder keyed by the project's source code.

numba decides whether a cached compiled function is stale from its *own* source file only. Our
compiled functions call each other across modules (``observation.py`` compiles in ``core.py``'s
rules), so after an edit of ``core.py`` the cached ``observation`` code would keep the old rules.
Keying the cache folder by a hash of every ``.py`` file of ``jass_env`` and ``agents`` makes any
edit start a fresh cache. A user's ``NUMBA_CACHE_DIR`` is respected as the parent folder.

The first use on a cold cache compiles the engine (20 to 30 s, more for the ``parallel=True``
kernels); :class:`AnnounceCompilation` says so once on stderr when the first of the project's
compiled functions misses the cache, and stays silent when everything loads from the cache.

Imported by ``jass_env/__init__.py`` before any compiled module.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import numba
from numba.core import event

PACKAGES = ("jass_env", "agents")   # whose compiled functions are keyed and announced
COMPILING_MESSAGE = "jass_env: compiling the engine once, about 30 s (cached afterwards in {folder})"


def _source_hash() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in PACKAGES:
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


class AnnounceCompilation(event.Listener):
    """numba ``numba:compile`` listener (fired only on a cache miss): prints
    :data:`COMPILING_MESSAGE` on stderr for the first function of :data:`PACKAGES` compiled in this
    process; other libraries' numba functions and later compilations are not announced."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.announced = False

    def on_start(self, ev: event.Event) -> None:
        if self.announced:
            return
        module = getattr(ev.data["dispatcher"].py_func, "__module__", None) or ""
        if module.split(".")[0] in PACKAGES:
            self.announced = True
            print(COMPILING_MESSAGE.format(folder=self.folder), file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


CACHE_DIR = configure()
event.register("numba:compile", AnnounceCompilation(CACHE_DIR))
