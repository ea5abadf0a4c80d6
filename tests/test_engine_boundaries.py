"""The layers' boundaries: what the engine, the games and the environments may import, that nothing
outside the compiled rules reads a state array by its raw offsets, and that no module imports in
a circle.

* The engine (``jass_env/engine/``) names no game: it imports nothing of ``jass_env`` outside
  itself (no game package, no environment), no RL library, no torch and no agent.
* The games (``jass_env/games/``) sit on the engine only: they import nothing from
  ``jass_env.envs``, ``jass_env.records``, ``jass_env.round``, ``jass_env.render``, no agent and
  no RL library.
* The environments (``jass_env/envs/``) import no agent: bots sit on top of the environments,
  never under them.
* Outside the compiled rules (the engine, each game's ``rules.py``, ``jass_env/games/_alone.py``)
  a state array is read through the compiled accessors (compiled code) or
  :class:`jass_env.engine.state.StateView` (Python) and built with
  :mod:`jass_env.engine.positions`, never indexed with the ``S_*`` offsets.
* The modules of ``jass_env`` and ``agents`` import in no circle (top-level and function-level
  imports alike), and nothing imports the training script ``train.py``.

The import rules are checked twice: from the source (every ``import`` statement, wherever it
stands, read with :mod:`ast`), and in a fresh interpreter whose ``sys.meta_path`` refuses (and
records) every import of a blocked module, so that even an ``import`` inside
``try``/``except ImportError`` or through :mod:`importlib` shows up.
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

from jass_env.engine import state
from jass_env.games import REGISTRY, _alone
from jass_env.games._first_discard import rules as first_discard_rules

ROOT = Path(__file__).resolve().parents[1]
#: the packages whose import graph is checked for circles
PACKAGES = ("jass_env", "agents")
#: RL libraries and the deep-learning library
RL_LIBRARIES = ["torch", "gymnasium", "pettingzoo", "ray", "stable_baselines3", "sb3_contrib", "tianshou"]
#: what the games may not import: the layers above them, the bots and the RL libraries
ABOVE_THE_GAMES = ["jass_env.envs", "jass_env.records", "jass_env.round", "jass_env.render", "agents",
                   *RL_LIBRARIES]


# the import graph
def module_name(path: Path) -> str:
    """The dotted name of a source file of the repository (``jass_env/engine/state.py`` ->
    ``jass_env.engine.state``; a package's ``__init__.py`` -> the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(*entries: str) -> list[Path]:
    """The ``.py`` files of the given folders, files or globs (relative to the repository root)."""
    files: list[Path] = []
    for entry in entries:
        path = ROOT / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else sorted(ROOT.glob(entry))
    return files


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, with the line: top-level and function-level statements alike.
    ``from a import b`` names ``a.b`` where that is a module of the repository, else ``a``;
    relative imports are resolved."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.append((sub if _is_repository_module(sub) else source, node.lineno))
    return found


def _is_repository_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def import_graph(packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports (its own package's parents left out: Python
    runs them before any module of theirs, which is no import of the module's making)."""
    graph: dict[str, set[str]] = {}
    for path in source_files(*packages):
        me = module_name(path)
        graph[me] = {name for name, _ in imports_of(path)
                     if name.partition(".")[0] in packages and name != me and not me.startswith(name + ".")}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of an import graph: its strongly connected components of more than one module
    (Tarjan's algorithm), each sorted; sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(cycles)


def forbidden_imports(entries: list[str], forbidden: list[str], allowed: list[str] = ()) -> list[str]:
    """``file:line imports module`` for every import in ``entries`` of a module in (or under) one of
    ``forbidden`` and not in (or under) one of ``allowed``."""
    def under(name: str, roots: list[str]) -> bool:
        return any(name == r or name.startswith(r + ".") for r in roots)

    return [f"{path.relative_to(ROOT)}:{line} imports {name}"
            for path in source_files(*entries) for name, line in imports_of(path)
            if under(name, forbidden) and not under(name, list(allowed))]


def test_the_import_reader_resolves_relative_and_function_level_imports() -> None:
    """The check itself: an import inside a function is seen, ``from . import x`` names the module
    ``x``, and a circle of two modules is found."""
    found = dict(imports_of(ROOT / "jass_env" / "games" / "__init__.py"))
    assert "jass_env.games.schieber" in found and "jass_env.engine.hooks" in found
    assert "importlib" in dict(imports_of(ROOT / "jass_env" / "__init__.py"))       # inside __getattr__
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


# the layers
def test_the_engine_imports_nothing_of_jass_env_outside_itself() -> None:
    """The engine names no game: no game package, no environment, no Round, no record."""
    assert forbidden_imports(["jass_env/engine"], ["jass_env"], allowed=["jass_env.engine"]) == []


def test_the_engine_imports_no_rl_library_no_torch_and_no_agent() -> None:
    assert forbidden_imports(["jass_env/engine"], [*RL_LIBRARIES, "agents"]) == []


def test_the_games_import_nothing_above_them() -> None:
    assert forbidden_imports(["jass_env/games"], ABOVE_THE_GAMES) == []


def test_the_environments_import_no_agent() -> None:
    assert forbidden_imports(["jass_env/envs"], ["agents"]) == []


def test_no_import_circle_in_jass_env_or_agents() -> None:
    """Top-level and function-level imports alike (a function-level import does not hide one)."""
    cycles = import_cycles(import_graph())
    assert cycles == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_nothing_imports_the_training_script() -> None:
    """``train.py`` is the top of the tree: the library, the tools, the examples and the tests never
    import it (its tests and its speed benchmark run it as a script)."""
    assert forbidden_imports(["jass_env", "agents", "benchmarks", "examples", "tests"], ["train"]) == []


# in a fresh interpreter
_BLOCKED_IMPORT = """
import importlib, importlib.abc, json, sys, types
blocked, modules, bare = sys.argv[1].split(","), sys.argv[2].split(","), sys.argv[3] == "bare"
attempts, failures = [], {}

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in blocked):
            attempts.append(name)
            raise ModuleNotFoundError(f"blocked by the test: {name}")
        return None

if bare:  # jass_env as a bare package: its __init__ (which loads every layer) does not run
    package = types.ModuleType("jass_env")
    package.__path__ = [sys.argv[4]]
    sys.modules["jass_env"] = package
sys.meta_path.insert(0, Refuse())
for module in modules:
    try:
        importlib.import_module(module)
    except Exception as e:
        failures[module] = repr(e)
print(json.dumps({"attempted": sorted(set(attempts)), "failed": failures}))
"""


def blocked_import(modules: list[str], blocked: list[str], *, bare: bool = False) -> dict:
    """Import ``modules`` in a fresh interpreter that refuses the ``blocked`` modules (and those
    under them); with ``bare`` the ``jass_env`` package's ``__init__`` is not run.

    Returns ``{"attempted": blocked modules something tried to import, "failed": {module:
    error}}``.
    """
    proc = subprocess.run([sys.executable, "-c", _BLOCKED_IMPORT, ",".join(blocked), ",".join(modules),
                           "bare" if bare else "full", str(ROOT / "jass_env")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


ENGINE_MODULES = [module_name(p) for p in source_files("jass_env/engine")]
GAME_MODULES = [module_name(p) for p in source_files("jass_env/games")]
ENVIRONMENT_MODULES = [module_name(p) for p in source_files("jass_env/envs")]


def test_the_blocker_sees_an_import_of_a_blocked_package() -> None:
    """The check itself: a module that imports a blocked package is caught."""
    result = blocked_import(["jass_env.envs.aec"], ["pettingzoo"])
    assert result["attempted"] == ["pettingzoo"] and list(result["failed"]) == ["jass_env.envs.aec"]
    result = blocked_import(["jass_env.games"], ["jass_env.games.schieber"], bare=True)
    assert result["attempted"] == ["jass_env.games.schieber"]


def test_the_engine_loads_without_games_environments_rl_libraries_or_agents() -> None:
    blocked = ["jass_env.games", "jass_env.envs", "jass_env.records", "jass_env.round", "jass_env.render",
               *RL_LIBRARIES, "agents"]
    assert blocked_import(ENGINE_MODULES, blocked, bare=True) == {"attempted": [], "failed": {}}


def test_the_games_load_without_the_layers_above_them() -> None:
    assert blocked_import(GAME_MODULES, ABOVE_THE_GAMES, bare=True) == {"attempted": [], "failed": {}}


def test_the_environments_load_without_agents() -> None:
    assert blocked_import(ENVIRONMENT_MODULES, ["agents"]) == {"attempted": [], "failed": {}}


# raw offsets
#: the modules that write a state by its offsets: the engine, each game's rules, and what the
#: games played alone share
COMPILED_RULES = {*source_files("jass_env/engine", "jass_env/games/*/rules.py"),
                  ROOT / "jass_env" / "games" / "_alone.py"}
#: the state offsets: the shared fields' and each game's own (its tail), from the modules that define them
_OFFSET_MODULES = [state, first_discard_rules, _alone, *(game.rules for game in REGISTRY.values())]
STATE_OFFSETS = sorted({n for m in _OFFSET_MODULES for n in vars(m) if re.fullmatch(r"S_[A-Z][A-Z_]*", n)})
_NAMES = "|".join(STATE_OFFSETS)
#: ``state.S_HANDS``, ``rules.S_PREDICTIONS`` (any module or alias)
_ATTRIBUTE = re.compile(rf"\.({_NAMES})\b")
#: ``from jass_env.engine.state import S_HANDS``, ``from .state import (\n    S_PHASE, ...)``
_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)
_NAME = re.compile(rf"\b({_NAMES})\b")
#: the test of this rule names offsets in its own examples
NOT_CONSUMERS = {ROOT / "tests" / "test_engine_boundaries.py"}


def raw_offsets(source: str) -> list[str]:
    """The state offsets a module's source text uses (attribute access or import)."""
    found = _ATTRIBUTE.findall(source)
    for names in _IMPORT.findall(source):
        found += _NAME.findall(names)
    return sorted(set(found))


def consumer_files() -> list[Path]:
    """Every module outside the compiled rules: the rest of jass_env, agents, the trainer,
    benchmarks, examples and the tests."""
    files = source_files("jass_env", "agents", "train.py", "benchmarks", "examples", "tests/*.py")
    return [f for f in files if f not in COMPILED_RULES and f not in NOT_CONSUMERS]


def test_the_offset_check_finds_offsets_where_the_compiled_rules_use_them() -> None:
    """The check itself: the compiled rules index states with offsets (the shared ones and a game's
    own), and both forms of use are recognised."""
    assert "S_HANDS" in STATE_OFFSETS and "S_PREDICTIONS" in STATE_OFFSETS and "S_SI_STOCK" in STATE_OFFSETS
    transitions = ROOT / "jass_env" / "engine" / "transitions.py"
    assert "S_HANDS" in raw_offsets(transitions.read_text(encoding="utf-8"))
    assert raw_offsets("x = st[state.S_TO_MOVE]") == ["S_TO_MOVE"]
    assert raw_offsets("from jass_env.engine.state import (\n    S_PHASE,\n    popcount,\n)\n") == ["S_PHASE"]
    assert raw_offsets("from jass_env.games.schieber.observation import OBS_DIM\nn = OBS_DIM") == []
    assert ROOT / "jass_env" / "engine" / "state.py" in COMPILED_RULES
    assert ROOT / "jass_env" / "games" / "_first_discard" / "rules.py" in COMPILED_RULES
    assert ROOT / "jass_env" / "envs" / "aec.py" in consumer_files()


@pytest.mark.parametrize("path", consumer_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_the_compiled_rules_reads_a_state_by_raw_offsets(path: Path) -> None:
    used = raw_offsets(path.read_text(encoding="utf-8"))
    assert used == [], (f"{path.relative_to(ROOT)} uses the state offsets {used}; read a state through "
                        f"the compiled accessors of jass_env.engine.state or StateView, and build one with "
                        f"jass_env.engine.positions")
