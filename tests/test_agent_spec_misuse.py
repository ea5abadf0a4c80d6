"""Agent specs used wrongly get clear errors, and a spec that quietly plays something other than
it says is flagged: seeds, parameters given twice, a parameter naming a file, and ``policy`` for a
spec whose trained policy is not there."""

from __future__ import annotations

import json
import warnings

import pytest

from agents.evaluation.cli import main
from agents.registry import AgentSpecError, UntrainedPolicyWarning, make_agent, parse_spec
from jass_env.games import PRESETS, REGISTRY, make_rules

pytest.importorskip("torch")

#: the shipped Schieber policy (the Schieber game's CHECKPOINTS fact)
SCHIEBER_POLICY = "agents/checkpoints/default.pt"
#: every game spec and whether its game ships a trained policy for it
SHIPS_A_POLICY = {spec: spec in game.checkpoints for game in REGISTRY.values() for spec in game.specs}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_negative_seed_is_refused_like_the_environments_do(preset):
    """The environments refuse negative seeds with a ValueError; so do agents, wherever the seed
    comes from (make_agent's seed, the spec's seed, reset), naming the seed."""
    with pytest.raises(AgentSpecError, match=r"agent spec 'random': seed must be a non-negative integer "
                                             r"or None, got -1"):
        make_agent("random", preset, seed=-1)
    with pytest.raises(AgentSpecError, match=r"bad value for seed: expected a non-negative integer seed, "
                                             r"got '-1'"):
        make_agent("heuristic:seed=-1", preset)
    agent = make_agent("heuristic", preset, seed=3)
    for bad in (-1, True, 2.5):
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer or None, got "):
            agent.reset(seed=bad)
    agent.reset(seed=4)                                   # the agent is still usable


def test_a_parameter_given_twice_is_named():
    with pytest.raises(AgentSpecError, match=r"parameter 'worlds' is given twice; give each once"):
        parse_spec("pimc:worlds=10,worlds=20")
    with pytest.raises(AgentSpecError, match=r"parameter 'greedy' is given twice"):
        parse_spec(f"{SCHIEBER_POLICY}:greedy=true,greedy=false")


def test_a_spec_that_starts_with_an_agent_name_is_that_agent_though_a_parameter_names_a_file():
    """The README's ``search:worlds=30,checkpoint=PATH``: the spec ends in ``.pt`` but is the search
    agent, not a checkpoint file called ``search:worlds=...``."""
    assert parse_spec(f"search:worlds=30,checkpoint={SCHIEBER_POLICY}") == (
        "search", {"worlds": 30, "checkpoint": SCHIEBER_POLICY})
    assert parse_spec(f"policy:checkpoint={SCHIEBER_POLICY},greedy=false") == (
        "policy", {"checkpoint": SCHIEBER_POLICY, "greedy": False})
    assert parse_spec(f"{SCHIEBER_POLICY}:seed=2") == ("policy", {"checkpoint": SCHIEBER_POLICY, "seed": 2})
    agent = make_agent(f"search:worlds=30,checkpoint={SCHIEBER_POLICY}", "schieber")
    assert type(agent).__name__ == "SearchAgent"


@pytest.fixture
def no_shipped_files(monkeypatch, tmp_path):
    """A checkpoint folder without the shipped files: every spec's policy is missing, as in an
    installation that left ``agents/checkpoints`` out."""
    import agents.policy

    monkeypatch.setattr(agents.policy, "CHECKPOINT_DIR", tmp_path)


@pytest.mark.parametrize("spec", sorted(SHIPS_A_POLICY))
def test_policy_warns_exactly_where_no_trained_policy_is_shipped(spec):
    rules = make_rules(spec)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agent = make_agent("policy", rules)
    untrained = [w for w in caught if issubclass(w.category, UntrainedPolicyWarning)]
    if SHIPS_A_POLICY[spec]:
        assert not untrained and agent.spec_warning is None
    else:
        assert len(untrained) == 1 and "random-weights" in agent.name


@pytest.mark.parametrize("spec", ["schieber", "molotow5"])
def test_policy_without_its_checkpoint_file_warns_that_it_plays_random_weights(spec, no_shipped_files):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agent = make_agent("policy", spec)
    untrained = [w for w in caught if issubclass(w.category, UntrainedPolicyWarning)]
    assert len(untrained) == 1 and "random-weights" in agent.name
    assert str(untrained[0].message) == agent.spec_warning
    assert f"RANDOM WEIGHTS under {spec}" in agent.spec_warning
    assert "policy:checkpoint=PATH" in agent.spec_warning


def test_the_rotation_summary_says_when_policy_plays_random_weights(tmp_path, capsys, no_shipped_files):
    """Without its checkpoint file, ``policy`` is an untrained network, and the evaluation says so
    on stderr, on its summary line and in its summary files."""
    out = tmp_path / "out"
    rc = main(["policy", "random", "--rules", "molotow5", "--deals", "2", "--matches", "0", "--out", str(out),
               "--quiet"])
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    assert "warning: policy: 'policy' plays a network with RANDOM WEIGHTS under molotow5" in printed.err
    line = printed.out.splitlines()[0]
    assert line.startswith("policy vs random: ") and "; WARNING A: 'policy' plays a network with RANDOM " \
                                                         "WEIGHTS under molotow5" in line
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["warnings"]) == 1 and summary["warnings"][0].startswith("A: 'policy' plays")
    assert "**WARNING** A: 'policy' plays" in (out / "summary.md").read_text()


def test_a_rotation_with_trained_agents_has_no_warning(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["policy", "random", "--rules", "molotow", "--deals", "2", "--matches", "0", "--out", str(out),
               "--quiet"])
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    assert "warning" not in printed.err.lower() and "WARNING" not in printed.out
    assert json.loads((out / "summary.json").read_text())["warnings"] == []
