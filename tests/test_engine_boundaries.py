"""The engine's boundaries (issue 12): what the engine and the environments may import, that
nothing outside the engine reads a state array by its raw offsets, and that nothing imports the
trainer script.

* The engine (the game specs, rules, trick kernel, the games' rules, the compiled entry points,
  Round/Match, cards, records, observations) imports no RL library, no torch and no agent.
* The environments (PettingZoo, Gymnasium wrapper, batched env, observations, rewards,
  rendering) import no agent: bots sit on top of the environments, never under them.
* Outside the engine, a state array is read through the kernel's accessors (compiled code) or
  ``core.StateView`` (Python) and built with core functions, never indexed with the kernel's
  ``S_*`` offsets.
* ``train.py`` is a script (``python train.py``): no module of the package, the benchmarks, the
  examples or the tests imports it; what they share with it lives in ``agents.training``.

The import rules are checked in a fresh interpreter whose ``sys.meta_path`` refuses (and records)
every import of a blocked package, so even an ``import`` inside ``try``/``except ImportError``
shows up.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jass_env import kernel

ROOT = Path(__file__).resolve().parents[1]
OBSERVATION_MODULES = sorted(f"jass_env.{p.stem}" for p in (ROOT / "jass_env").glob("observation*.py"))

#: the engine: the game specs, rules, the trick kernel, each game's rules, the entry points, the
#: checked Round/Match API, cards and records (plus the observation encoding)
ENGINE_MODULES = ["jass_env.spec", "jass_env.rules", "jass_env.kernel", "jass_env.schieber",
                  "jass_env.differenzler", "jass_env.core", "jass_env.game", "jass_env.cards",
                  "jass_env.records", *OBSERVATION_MODULES]
#: the environments built on the engine
ENVIRONMENT_MODULES = ["jass_env.aec", "jass_env.vector", "jass_env.wrappers", *OBSERVATION_MODULES,
                       "jass_env.rewards", "jass_env.render"]
#: RL libraries, the deep-learning library and the bots
RL_AND_AGENTS = ["torch", "gymnasium", "pettingzoo", "ray", "stable_baselines3", "sb3_contrib",
                 "tianshou", "agents"]

_BLOCKED_IMPORT = """
import importlib, importlib.abc, json, sys
blocked = set(sys.argv[1].split(","))
attempts, failures = [], {}

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            attempts.append(name)
            raise ModuleNotFoundError(f"blocked by the test: {name}")
        return None

sys.meta_path.insert(0, Refuse())
for module in sys.argv[2].split(","):
    try:
        importlib.import_module(module)
    except Exception as e:
        failures[module] = repr(e)
print(json.dumps({"attempted": sorted(set(attempts)), "failed": failures}))
"""


def blocked_import(modules: list[str], blocked: list[str]) -> dict:
    """Import ``modules`` in a fresh interpreter that refuses the ``blocked`` packages.

    Returns ``{"attempted": blocked modules something tried to import, "failed": {module:
    error}}``.
    """
    proc = subprocess.run([sys.executable, "-c", _BLOCKED_IMPORT, ",".join(blocked), ",".join(modules)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_blocker_sees_an_import_of_a_blocked_package() -> None:
    """The check itself: a module that imports a blocked package is caught."""
    result = blocked_import(["jass_env.aec"], ["pettingzoo"])
    assert result["attempted"] == ["pettingzoo"] and list(result["failed"]) == ["jass_env.aec"]


def test_the_engine_imports_no_rl_library_no_torch_and_no_agent() -> None:
    assert blocked_import(ENGINE_MODULES, RL_AND_AGENTS) == {"attempted": [], "failed": {}}


def test_the_environments_import_no_agent() -> None:
    assert blocked_import(ENVIRONMENT_MODULES, ["agents"]) == {"attempted": [], "failed": {}}


# ---------------------------------------------------------------------------------- raw offsets
#: the kernel's state offsets (and the layout's size), taken from the kernel itself
#: the kernel's field offsets (S_SIZE, the array's length, is public: states are allocated with it)
STATE_OFFSETS = sorted(n for n in vars(kernel) if re.fullmatch(r"S_[A-Z][A-Z_]*", n) and n != "S_SIZE")
_NAMES = "|".join(STATE_OFFSETS)
#: ``core.S_HANDS``, ``kernel.S_TRICK`` (any module or alias)
_ATTRIBUTE = re.compile(rf"\.({_NAMES})\b")
#: ``from jass_env.core import S_HANDS``, ``from .kernel import (\n    S_PHASE, ...)``
_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)
_NAME = re.compile(rf"\b({_NAMES})\b")

#: every consumer of the engine outside it: agents, the trainer, benchmarks, examples, the tests,
#: and the environment, records, seat-view and demo modules of jass_env
CONSUMERS = ["agents", "train.py", "benchmarks", "examples", "jass_env/aec.py", "jass_env/vector.py",
             "jass_env/wrappers.py", "jass_env/observation*.py", "jass_env/encoding.py",
             "jass_env/rewards.py", "jass_env/render.py", "jass_env/records*.py", "jass_env/demo.py",
             "jass_env/seat_view.py", "jass_env/jasskit_map.py", "tests/test_*.py"]
#: the test of this rule names offsets in its own examples
NOT_CONSUMERS = {"test_engine_boundaries.py"}


def raw_offsets(source: str) -> list[str]:
    """The kernel state offsets a module's source text uses (attribute access or import)."""
    found = _ATTRIBUTE.findall(source)
    for names in _IMPORT.findall(source):
        found += _NAME.findall(names)
    return sorted(set(found))


def consumer_files() -> list[Path]:
    files: list[Path] = []
    for entry in CONSUMERS:
        path = ROOT / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else sorted(ROOT.glob(entry))
    return [f for f in files if f.name not in NOT_CONSUMERS]


def test_the_offset_check_finds_offsets_where_the_engine_uses_them() -> None:
    """The check itself: the engine's own modules index states with offsets, and both forms of
    use are recognised."""
    assert "S_HANDS" in STATE_OFFSETS and "S_PREDICTIONS" in STATE_OFFSETS
    assert "S_HANDS" in raw_offsets((ROOT / "jass_env" / "core.py").read_text(encoding="utf-8"))
    assert raw_offsets("x = st[core.S_TO_MOVE]") == ["S_TO_MOVE"]
    assert raw_offsets("from jass_env.kernel import (\n    S_PHASE,\n    popcount,\n)\n") == ["S_PHASE"]
    assert raw_offsets("from jass_env.observation import OBS_DIM\nn = OBS_DIM") == []


@pytest.mark.parametrize("path", consumer_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_the_engine_reads_a_state_by_raw_offsets(path: Path) -> None:
    used = raw_offsets(path.read_text(encoding="utf-8"))
    assert used == [], (f"{path.relative_to(ROOT)} uses the kernel's state offsets {used}; read a "
                        f"state through the kernel's accessors or core.StateView")


# ---------------------------------------------------------------------------------- the trainer script
#: where no module may import ``train.py``
TRAIN_SCRIPT_FREE = ["jass_env", "agents", "benchmarks", "examples", "tests"]
#: the functions that import a module named by a string
IMPORT_CALLS = ("import_module", "__import__")


def imported_modules(source: str) -> set[str]:
    """The absolute module names a source text imports: ``import a.b`` and ``from a.b import c``
    give ``a.b``; ``importlib.import_module("a")`` and ``__import__("a")`` with a literal name
    give ``a``. Relative imports are left out (they stay inside a package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in IMPORT_CALLS and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def imports_train_script(source: str) -> bool:
    return any(m == "train" or m.startswith("train.") for m in imported_modules(source))




def test_the_train_script_check_finds_every_form_of_import() -> None:
    """The check itself: each way of importing train.py is seen; modules that only share the
    word are not."""
    for source in ("import train", "import train as t", "from train import main",
                   "import importlib\nimportlib.import_module('train')", "__import__('train')"):
        assert imports_train_script(source), source
    for source in ("from examples.tianshou_ppo import train", "from train_speed import measure",
                   "import agents.training", "from .train import x", "runpy.run_path('train.py')"):
        assert not imports_train_script(source), source


def test_nothing_imports_the_train_script() -> None:
    files = [f for folder in TRAIN_SCRIPT_FREE for f in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 100
    importers = [f.relative_to(ROOT).as_posix() for f in files if imports_train_script(f.read_text("utf-8"))]
    assert importers == [], f"{importers} import train.py, a script; take what it shares from agents.training"
