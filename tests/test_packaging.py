"""Packaging: ``pip install jass-env`` gives the engine, the environments and the bots without
torch, TensorBoard, PyYAML or matplotlib; those come with the ``train`` extra, and a module that
needs them says which extra to install when they are missing (README "Install", pyproject.toml).

The import checks run in a fresh interpreter whose import system refuses the extra's packages, as
on a machine where only the core dependencies are installed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE_DEPENDENCIES = {"numpy", "numba", "gymnasium", "pettingzoo"}
TRAIN_EXTRA_PACKAGES = {"torch", "tensorboard", "pyyaml", "matplotlib"}
BLOCKED_IMPORTS = ("torch", "tensorboard", "yaml", "matplotlib")   # import names of the train extra

BLOCKER = textwrap.dedent(f"""
    import sys

    class RefuseTrainExtra:
        '''Behave as if the train extra's packages were not installed.'''
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {BLOCKED_IMPORTS!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, RefuseTrainExtra())
""")


def run_without_train_extra(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter from the repository root with the extra's imports refused."""
    return subprocess.run([sys.executable, "-c", BLOCKER + textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_engine_environments_and_bots_import_and_run_without_the_train_extra():
    proc = run_without_train_extra("""
        import jass_env, jass_env.envs.aec, jass_env.envs.vector, jass_env.envs.gym, jass_env.records
        from agents.registry import make_agent

        env = jass_env.env()
        env.reset(seed=0)
        bot = make_agent("heuristic", "schieber")
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else bot.act(obs))
        venv = jass_env.VectorJassEnv(4)
        venv.reset(seed=0)
        venv.step(venv.sample_actions())
        leaked = sorted(m for m in sys.modules if m.partition(".")[0] in {blocked!r})
        print("leaked:", leaked)
    """.replace("{blocked!r}", repr(BLOCKED_IMPORTS)))
    assert proc.returncode == 0, proc.stderr
    assert "leaked: []" in proc.stdout


def test_the_blocker_really_refuses_torch():
    """Guard for the test above: in the blocked interpreter ``import torch`` fails."""
    proc = run_without_train_extra("import torch")
    assert proc.returncode != 0
    assert "No module named 'torch'" in proc.stderr


@pytest.mark.parametrize("module", ["agents.network", "agents.policy", "agents.training.ppo",
                                    "agents.export"])
def test_a_module_that_needs_torch_names_the_train_extra(module):
    proc = run_without_train_extra(f"""
        from agents.extras import MissingExtraError
        try:
            import {module}
        except MissingExtraError as exc:
            print("error:", exc)
    """)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"error: .*needs torch.*'train' extra.*\.\[train\]", proc.stdout), proc.stdout


def test_the_trainer_without_torch_says_which_extra_to_install_instead_of_a_traceback():
    proc = run_without_train_extra("""
        import runpy, sys
        sys.argv = ["train.py", "--help"]
        runpy.run_path("train.py", run_name="__main__")
    """)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert re.search(r"train\.py needs torch.*'train' extra", proc.stderr), proc.stderr


def test_asking_for_a_policy_agent_without_torch_is_a_clear_agent_error():
    proc = run_without_train_extra("""
        from agents.registry import AgentSpecError, make_agent
        try:
            make_agent("policy")
        except AgentSpecError as exc:
            print("error:", exc)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "agent 'policy' is not available" in proc.stdout
    assert "'train' extra" in proc.stdout


def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def test_pyproject_core_dependencies_and_extras():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert _requirement_names(project["dependencies"]) == CORE_DEPENDENCIES
    assert _requirement_names(extras["train"]) == TRAIN_EXTRA_PACKAGES
    assert any(r.startswith("jass-env[") and "train" in r for r in extras["dev"])
    assert {"jass-kit", "pettingzoo", "open-spiel"} <= _requirement_names(extras["bench"])
    assert "pettingzoo[classic]" in " ".join(extras["bench"])


def test_asking_for_the_search_bot_without_torch_is_a_clear_agent_error():
    proc = run_without_train_extra("""
        from agents.registry import AgentSpecError, make_agent
        try:
            make_agent("search", "schieber")
        except AgentSpecError as exc:
            print("error:", exc)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "agent 'search' is not available" in proc.stdout
    assert "'train' extra" in proc.stdout
