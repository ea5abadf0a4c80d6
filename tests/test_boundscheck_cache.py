"""Code compiled with numba's bounds checks (``NUMBA_BOUNDSCHECK=1``, as CI's ``.ci/boundscheck``
runs the conformance tests) is cached apart from the normal build: numba's own cache does not tell
the two apart, so a shared folder would serve one build for the other (jass_env.engine.jit)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("from jass_env.engine.jit import cache_folder; "
           "print(cache_folder('jass_env')); print(cache_folder('agents'))")


def cache_folders(tmp_path: Path, boundscheck: bool) -> list[str]:
    """The cache folders of both packages in a fresh process under ``NUMBA_CACHE_DIR=tmp_path``."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_BOUNDSCHECK"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    if boundscheck:
        env["NUMBA_BOUNDSCHECK"] = "1"
    out = subprocess.run([sys.executable, "-c", FOLDERS], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.split()


def test_bounds_checked_code_has_its_own_cache_folders(tmp_path: Path) -> None:
    normal, checked = cache_folders(tmp_path, False), cache_folders(tmp_path, True)
    apart = tmp_path / "boundscheck"
    for plain, bounded in zip(normal, checked, strict=True):
        assert Path(plain).is_relative_to(tmp_path) and not Path(plain).is_relative_to(apart)
        assert Path(bounded).is_relative_to(apart)
