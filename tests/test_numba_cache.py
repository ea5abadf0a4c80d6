"""The compiled-code cache (jass_env.engine.jit): the first compilation is announced once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from numba.core import event

from jass_env.engine.jit import AnnounceCompilation

ROOT = Path(__file__).resolve().parents[1]
SAYS = "jass_env: compiling the game once, 10-20 s (cached afterwards in "


def _fresh_function(module: str):
    """A new numba function attributed to ``module`` (never compiled, no disk cache)."""
    def twice(x):
        return 2 * x
    twice.__module__ = module
    return numba.njit(cache=False)(twice)


@pytest.fixture
def listener(tmp_path):
    it = AnnounceCompilation(str(tmp_path / "cache"))
    event.register("numba:compile", it)
    yield it
    event.unregister("numba:compile", it)


def test_a_cold_compilation_is_announced_once_on_stderr(listener, capsys) -> None:
    assert _fresh_function("jass_env.probe")(3) == 6          # a cache miss: compiles
    mine = SAYS + listener.folder + ")\n"                       # (the module's own listener may speak too)
    assert capsys.readouterr().err.count(mine) == 1
    assert _fresh_function("agents.probe")(4) == 8            # a second compilation: no repeat
    assert mine not in capsys.readouterr().err


def test_other_libraries_compilations_are_not_announced(listener, capsys) -> None:
    assert _fresh_function("someone_elses_code")(1) == 2
    assert listener.folder not in capsys.readouterr().err and not listener.announced


def test_a_warm_cache_says_nothing() -> None:
    # this process has filled the cache of this source tree (conftest and imports compile the
    # engine), so a new process loads everything from it and prints nothing
    code = "from jass_env import Round; r = Round(seed=1); r.step(int(r.legal_actions()[0]))"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=600,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})      # fills it if it is still cold
    warm = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert warm.returncode == 0, warm.stderr
    assert warm.stderr == ""


def test_an_edit_of_a_bot_keeps_the_engine_cache_and_an_engine_edit_renews_both(tmp_path,
                                                                                 monkeypatch) -> None:
    from jass_env.engine import jit as cache

    for package, source in (("jass_env", "RULE = 1\n"), ("agents", "BOT = 1\n")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "m.py").write_text(source)
    monkeypatch.setattr(cache, "ROOT", tmp_path)

    def folders() -> tuple[str, str]:
        cache._source_hash.cache_clear()
        return cache.cache_folder("jass_env"), cache.cache_folder("agents")

    engine, bots = folders()
    (tmp_path / "agents" / "m.py").write_text("BOT = 2\n")
    engine2, bots2 = folders()
    assert engine2 == engine and bots2 != bots
    (tmp_path / "jass_env" / "m.py").write_text("RULE = 2\n")
    engine3, bots3 = folders()
    assert engine3 != engine2 and bots3 != bots2
    cache._source_hash.cache_clear()


def test_only_the_projects_files_use_the_package_folders() -> None:
    from jass_env.engine import jit as cache

    assert cache._package_of(str(ROOT / "jass_env" / "envs" / "aec.py")) == "jass_env"
    assert cache._package_of(str(ROOT / "agents" / "search" / "pimc.py")) == "agents"
    assert cache._package_of(str(ROOT / "tests" / "conftest.py")) is None
    assert cache._package_of(numba.__file__) is None
