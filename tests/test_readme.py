"""The README's commands run as printed after its two set-up commands (README, first paragraphs).

The set-up makes a virtual environment ``.venv`` and never activates it, so every command must name
its program through ``.venv/bin/`` (or ``.venv-rllib/bin/`` after the RLlib set-up, or a script
of ``.ci/``): a bare ``python``, ``pip`` or ``tensorboard`` would fail. Commands are the lines of
the ``bash`` code blocks and every inline code span that starts with a program (the tables'
command columns and the text). The cheap ones (``--help`` forms, the demo, the record checker on
the shipped file) are run, with the interpreter running this test standing in for
``.venv/bin/python``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
VENV_PYTHON = ".venv/bin/python"
ALLOWED_PREFIXES = (".venv/bin/", ".venv-rllib/bin/", ".ci/")
SETUP_STEPS = ("python3 -m venv .venv", "python3 -m venv .venv-rllib")
# `export NAME=value ...` sets the environment of the commands after it (the Ray cluster recipe)
EXPORT = re.compile(r"^export( [A-Z_][A-Z0-9_]*=\S+)+$")
# the first word of an inline code span that makes it a command
PROGRAMS = ("python", "python3", "pip", "pip3", "tensorboard", "pytest", "ray", "ruff")
# an upper-case word such as FILE, DIR or CHECKPOINT: a placeholder, which does not run as printed
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{2,}\b")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMAND_TIMEOUT_S = 120
# the options by which a command names a file or folder it writes; every output goes under runs/
OUTPUT_OPTIONS = ("--out", "-o", "--onnx", "--save", "--log", "--record", "--checkpoint-dir")
OUTPUTS_FOLDER = "runs/"
# exit status and last output line the docs promise for the shipped record file (docs/records.md)
RECORDS_CHECK_RESULT = (1, "2 records, 1 disagree")


def bash_blocks() -> list[str]:
    return [body for lang, body in FENCE.findall(README) if lang == "bash"]


def block_commands() -> list[str]:
    lines = [line.strip() for body in bash_blocks() for line in body.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def inline_commands() -> list[str]:
    """Inline code spans (outside fenced blocks) whose first word is a program or a path to one."""
    text = FENCE.sub("", README)
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)]
    return [s for s in spans if s.split()[0] in PROGRAMS or "/bin/" in s.split()[0]
            or s.startswith((".ci/", "./"))]


COMMANDS = list(dict.fromkeys(block_commands() + inline_commands()))


def test_the_readme_has_commands_in_blocks_and_tables():
    assert len(block_commands()) >= 20
    assert any("|" in line and VENV_PYTHON in line for line in README.splitlines())   # a table column
    assert len(inline_commands()) >= 10


def test_the_two_setup_commands_come_first_and_ci_runs_the_test_command():
    main_job, tests = (block.strip() for block in bash_blocks()[:2])
    assert main_job.startswith('python3 -m venv .venv && .venv/bin/pip install torch==2.13.0 -e ".[train]"')
    assert main_job.endswith(".venv/bin/python train.py --config configs/quickstart.yaml")
    assert tests.startswith('python3 -m venv .venv && .venv/bin/pip install -q torch==2.13.0 -e ".[dev]"')
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert tests in ci_lines, ".ci/run must run exactly the README's test command"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_names_its_program_through_the_virtual_environment(command):
    for step in (part.strip() for part in command.split("&&")):
        if EXPORT.match(step):
            continue
        assert step in SETUP_STEPS or step.startswith(ALLOWED_PREFIXES), (
            f"README command {command!r}: {step!r} does not run after the set-up; write it as "
            f"{VENV_PYTHON} ..., .venv/bin/<program> ..., or a .ci/ script")
        assert not PLACEHOLDER.search(step), f"README command {command!r} has a placeholder"
        if step.startswith(".ci/"):
            assert (ROOT / step.split()[0]).is_file(), f"{step!r}: no such script"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_writes_its_outputs_under_runs(command):
    """The README's commands leave nothing in the repository but under ``runs/`` (ignored by git)."""
    words = shlex.split(command)
    outputs = [value for option, value in zip(words, words[1:]) if option in OUTPUT_OPTIONS]
    outputs += [w.split("=", 1)[1] for w in words if w.startswith(("run_dir=", "--out=", "--save="))]
    for path in outputs:
        assert path.startswith(OUTPUTS_FOLDER), (
            f"README command {command!r} writes {path!r}; write outputs under {OUTPUTS_FOLDER}")


def is_cheap(command: str) -> bool:
    return command.startswith(VENV_PYTHON + " ") and (
        command.endswith("--help") or " -m jass_env.demo" in command
        or " -m jass_env.records check tests/data/" in command)


CHEAP = [c for c in COMMANDS if is_cheap(c)]


def test_the_cheap_commands_include_the_demo_the_checker_and_every_help():
    assert any("jass_env.demo --rules" in c for c in CHEAP)
    assert any("jass_env.records check tests/data/records/jasskit_issue10.jsonl" in c for c in CHEAP)
    assert sum(c.endswith("--help") for c in CHEAP) >= 7


@pytest.mark.parametrize("command", CHEAP)
def test_cheap_command_runs_as_printed(command):
    argv = [sys.executable, *shlex.split(command)[1:]]
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S,
                          stdin=subprocess.DEVNULL)
    output = proc.stdout.strip()
    if " -m jass_env.records check tests/data/" in command:
        assert (proc.returncode, output.splitlines()[-1]) == RECORDS_CHECK_RESULT, proc.stderr
    else:
        assert proc.returncode == 0, f"{command!r} exited {proc.returncode}: {proc.stderr[-2000:]}"
        assert output, f"{command!r} printed nothing"
