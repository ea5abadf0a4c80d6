"""How the project's code is compiled with numba: the engine's decorators, and where numba caches
the compiled code.

Cache folders: one per package, keyed by the sources that package's compiled functions are
built from.

numba decides whether a cached compiled function is stale from its *own* source file only. Our
compiled functions call each other across modules (the environments compile in the engine's
rules, the bots compile in both), so after an edit of one module the cached code of another could
keep the old rules. So each package's cache folder is named by a hash of the sources it compiles
in: ``jass_env`` by ``jass_env``'s own sources, ``agents`` by ``agents``' and ``jass_env``'s. An
edit of a bot recompiles the bots only; an edit of the engine recompiles everything. Other
libraries' numba functions keep numba's own cache places. A user's ``NUMBA_CACHE_DIR`` is
respected as the parent folder.

Code compiled with numba's bounds checks (``NUMBA_BOUNDSCHECK=1``: every array index is checked
and an IndexError raised instead of reading or writing outside the array; CI runs the conformance
tests so, ``.ci/boundscheck``) is cached apart, in the ``boundscheck`` subfolder: numba's cache
does not tell the two builds apart, and neither may be served for the other.

The first use of a game on a cold cache compiles what it needs; :class:`AnnounceCompilation` says so once on
stderr when the first of the project's compiled functions misses the cache, and stays silent when
everything loads from the cache.

Imported by ``jass_env/__init__.py`` before any compiled module (the cache locator must be in
place before the first compiled function is made).

The decorators: :data:`engine_jit` compiles the engine's state functions (cached, numpy's error
model, without numba's reference counting: ``_nrt=False``). These functions only read and write
the arrays they are given and never allocate; with reference counting on, numba wraps every array
they pass on in atomic increments and decrements, which cost more than the rules themselves
(``benchmarks/engine.py``). A function that allocates uses :data:`compiled` (plain ``njit`` with
the cache) and may call these, not the other way round. :data:`engine_inline` is
:data:`engine_jit` for the small functions of the hot path, which numba copies into each caller.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

from numba import njit
from numba.core import caching, event
from numba.core import config as numba_config

ROOT = Path(__file__).resolve().parents[2]
#: each package whose compiled functions are cached here, with the packages it compiles in
#: (itself first)
PACKAGES: dict[str, tuple[str, ...]] = {"jass_env": ("jass_env",), "agents": ("agents", "jass_env")}
COMPILING_MESSAGE = "jass_env: compiling the game once, 10-20 s (cached afterwards in {folder})"


#: the subfolder of the code compiled with bounds checks (``NUMBA_BOUNDSCHECK=1``)
BOUNDSCHECK_FOLDER = "boundscheck"


def base_folder() -> str:
    """The parent of every package's cache folder: ``NUMBA_CACHE_DIR``, else the user's cache;
    its :data:`BOUNDSCHECK_FOLDER` when numba checks bounds (``NUMBA_BOUNDSCHECK=1``)."""
    folder = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "jass_env", "numba")
    return os.path.join(folder, BOUNDSCHECK_FOLDER) if numba_config.BOUNDSCHECK else folder


@cache
def _source_hash(packages: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            h.update(str(path.relative_to(ROOT)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_folder(package: str) -> str:
    """The cache folder of one of :data:`PACKAGES`."""
    return os.path.join(base_folder(), package, _source_hash(PACKAGES[package]))


def _package_of(py_file: str) -> str | None:
    """The package of :data:`PACKAGES` that holds ``py_file``, None for any other file."""
    try:
        relative = Path(py_file).resolve().relative_to(ROOT)
    except ValueError:
        return None
    top = relative.parts[0] if relative.parts else ""
    return top if top in PACKAGES else None


# numba's cache classes (public names since numba 0.61, private before)
_UserLocator = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class PackageCacheLocator(_UserLocator):
    """numba's cache locator for the functions of :data:`PACKAGES`: their package's
    :func:`cache_folder`, then numba's usual subfolder for the source file."""

    def __init__(self, py_func, py_file: str) -> None:  # noqa: ANN001 (numba's signature)
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = cache_folder(_package_of(py_file) or "jass_env")
        self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file: str):  # noqa: ANN001, ANN206 (numba's signature)
        if _package_of(py_file) is None:
            return None
        return caching._SourceFileBackedLocatorMixin.from_function.__func__(cls, py_func, py_file)


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


if PackageCacheLocator not in _CacheImpl._locator_classes:
    _CacheImpl._locator_classes.insert(0, PackageCacheLocator)
CACHE_DIR = base_folder()
event.register("numba:compile", AnnounceCompilation(CACHE_DIR))

#: the engine's state functions (see the module docstring)
engine_jit = njit(cache=True, error_model="numpy", _nrt=False)
#: the same for the small functions of the hot path, copied into each caller
engine_inline = njit(cache=True, error_model="numpy", _nrt=False, inline="always")
#: compiled functions that allocate (arrays, tuples of arrays), and the entry points Python calls:
#: numpy's error model there too, since the engine functions inlined into them take the caller's
#: (Python's error model checks every division, about 15 % of a batched step)
compiled = njit(cache=True, error_model="numpy")
#: the same for entry points whose loop numba splits over threads (``prange``)
compiled_parallel = njit(cache=True, error_model="numpy", parallel=True)
