"""TorchRL's wrappers on the project's games (examples/torchrl_pettingzoo.py, examples/torchrl_openspiel.py,
agents/torchrl_adapter.py).

Through ``PettingZooWrapper(use_mask=True)`` the AEC environment plays rounds in which only the
seat to move acts, only legal actions are taken, every seat's reward of every step is the
environment's, and the round's end is the wrapper's ``done``. Through ``OpenSpielEnv`` with
``OpenSpielMasks`` a round's deal, masks, observations and actions are the AEC environment's
round, and its end pays each side's round score, the same as the environment's rewards. Both are
checked against the project's environment replayed with the same deal and actions, on Schieber
(four players in two teams) and Differenzler for three (three players alone).

Skipped when torchrl is not installed (``pip install -e ".[torchrl]"``); the OpenSpiel tests also
when open_spiel is not.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torchrl", reason="TorchRL is not installed (pip install -e '.[torchrl]')")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from agents.torchrl_adapter import side_group_map  # noqa: E402
from examples.torchrl_pettingzoo import (  # noqa: E402
    OBSERVATION,
    TorchRLPolicyAgent,
    acting_seats,
    group_policy,
    main,
    make_env,
    policy_net,
    returns_to_go,
    train,
)
from jass_env.envs.aec import raw_env  # noqa: E402
from jass_env.games import make_rules  # noqa: E402

#: (preset, players): a team game and a game played alone, with different player counts
PRESETS = (("schieber", 4), ("differenzler3", 3))
SEED = 11
NO_OPENSPIEL = "OpenSpiel is not installed (pip install -e '.[torchrl]' brings it)"


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_side_groups_are_the_scoring_sides():
    # Schieber: partners sit opposite (seats 0 & 2 against 1 & 3); for six, 0, 2, 4 against 1, 3, 5
    assert side_group_map("schieber") == {"team_0": ["player_0", "player_2"],
                                          "team_1": ["player_1", "player_3"]}
    assert side_group_map("schieber6") == {"team_0": ["player_0", "player_2", "player_4"],
                                           "team_1": ["player_1", "player_3", "player_5"]}
    # Differenzler: everyone plays alone, so every seat is its own side
    assert side_group_map("differenzler3") == {f"player_{p}": [f"player_{p}"] for p in range(3)}


def _seat_columns(td, env) -> dict[str, tuple[str, int]]:
    """Where each seat lives in the tensordict: seat name -> (group, index in the group)."""
    return {seat: (group, i) for group, seats in env.group_map.items() for i, seat in enumerate(seats)}


@pytest.mark.parametrize("preset,players", PRESETS)
@pytest.mark.parametrize("grouping", ["side", "all"])
def test_random_rollout_is_the_environments_rounds(preset, players, grouping):
    """A rollout across a round's end with TorchRL's masked random actions, replayed on raw_env."""
    env = make_env(preset, grouping, seed=SEED)
    torch.manual_seed(0)
    steps = 60                                  # more than a round (36 cards and a few phase actions)
    td = env.rollout(steps, break_when_any_done=False)
    where = _seat_columns(td, env)
    assert len(where) == players
    ref = raw_env(preset)
    ref.reset(seed=SEED)                        # the wrapper's own reset at construction...
    ref.reset()                                 # ...and the rollout's: the next deal of the stream
    rounds_ended = 0
    for t in range(steps):
        # exactly one seat is marked, the one the environment has to move
        marked = [seat for seat, (g, i) in where.items() if td[g, "mask"][t, i]]
        assert marked == [ref.agent_selection]
        g, i = where[ref.agent_selection]
        action = int(td[g, "action"][t, i])
        assert ref.legal_actions_mask() >> action & 1, f"step {t}: illegal action {action}"
        for seat, (gs, js) in where.items():     # what every seat observes before the step
            expected = torch.as_tensor(ref.observe(seat)["observation"])
            assert torch.equal(td[(gs, *OBSERVATION)][t, js], expected)
        ref.step(action)
        round_over = all(ref.terminations.values())
        assert bool(td["next", "done"][t]) == round_over
        for seat, (gs, js) in where.items():
            assert float(td["next", gs, "reward"][t, js]) == pytest.approx(ref.rewards[seat], abs=1e-6)
            assert bool(td["next", gs, "done"][t, js]) == round_over
        if round_over:
            rounds_ended += 1
            ref.reset()
    assert rounds_ended >= 1


@pytest.mark.parametrize("preset,players", PRESETS)
def test_masked_policy_network_plays_whole_rounds_legally_and_rewards_sum_to_zero(preset, players):
    env = make_env(preset, "side", seed=SEED)
    spec = make_rules(preset).spec
    obs_dim = env.observation_spec[(next(iter(env.group_map)), *OBSERVATION)].shape[-1]
    net = policy_net(obs_dim, spec.n_actions, (16,))
    policy = group_policy(dict.fromkeys(env.group_map, net))
    torch.manual_seed(1)
    with torch.no_grad():
        td = env.rollout(200, policy, break_when_any_done=True)
    assert bool(td["next", "done"][-1]) and not td["next", "done"][:-1].any()
    total = 0.0
    for group in env.group_map:
        t, i = acting_seats(td, group)
        assert td[group, "action_mask"][t, i, td[group, "action"][t, i]].all()
        total += float(td["next", group, "reward"].sum())
    # the rewards of a round sum to zero over the players (every game and reward kind)
    assert total == pytest.approx(0.0, abs=1e-5)


def test_illegal_action_ends_the_round_with_the_offenders_penalty():
    """env()'s TerminateIllegalWrapper: an action outside the mask ends the round, offender -1."""
    env = make_env("schieber", "all", seed=SEED)
    td = env.reset()
    seat = int(td["agents", "mask"].nonzero()[0])
    illegal = int((~td["agents", "action_mask"][seat]).nonzero()[0])
    td["agents", "action"] = torch.full((4,), illegal)
    with pytest.warns(UserWarning):
        out = env.step(td)
    assert bool(out["next", "done"])
    expected = torch.zeros(4)
    expected[seat] = -1.0
    assert torch.equal(out["next", "agents", "reward"][:, 0], expected)


def test_returns_to_go_sum_each_seats_rewards_to_its_rounds_end():
    # two seats; a round of three steps, then a round of one step
    rewards = torch.tensor([[1.0, -1.0], [0.0, 0.0], [2.0, -2.0], [5.0, -5.0]])
    done = torch.tensor([False, False, True, True])
    expected = torch.tensor([[3.0, -3.0], [2.0, -2.0], [2.0, -2.0], [5.0, -5.0]])
    assert torch.equal(returns_to_go(rewards, done), expected)


def test_training_updates_the_policy():
    # the same seed deals the same rounds and draws the same initial weights: a learning rate of 0
    # keeps them, a positive one moves them
    kept = train("schieber", rounds=4, rounds_per_update=2, lr=0.0, hidden=(16,), seed=0)
    moved = train("schieber", rounds=4, rounds_per_update=2, lr=1e-2, hidden=(16,), seed=0)
    assert moved["reward"] == "tricks" and len(moved["curve"]) == 2
    assert not all(torch.equal(a, b) for a, b in zip(kept["net"].parameters(), moved["net"].parameters()))


def test_training_plays_single_rounds_of_a_game_whose_episode_is_a_match():
    # Coiffeur's environments play a whole game by default; an update's batch is whole rounds
    out = train("coiffeur", rounds=1, rounds_per_update=1, hidden=(8,), seed=0)
    assert len(out["curve"]) == 1


def test_policy_agent_plays_only_legal_actions():
    net = policy_net(529, 43, (8,))
    mask = np.zeros(43, dtype=np.int8)
    mask[[3, 40]] = 1
    obs = {"observation": np.ones(529, dtype=np.float32), "action_mask": mask}
    sampled = TorchRLPolicyAgent(net, greedy=False, seed=0)
    assert {sampled.act(obs) for _ in range(60)} == {3, 40}
    assert TorchRLPolicyAgent(net, greedy=True).act(obs) in {3, 40}


def test_command_line_rolls_out_trains_and_evaluates(capsys):
    assert main(["--rules", "schieber", "--steps", "5", "--train-rounds", "2", "--rounds-per-update", "1",
                 "--eval-deals", "2"]) == 0
    out = capsys.readouterr().out
    assert '"actions_legal": true' in out and "vs random" in out


# OpenSpiel: OpenSpielEnv("python_jass_<preset>") with agents.torchrl_adapter.OpenSpielMasks
def _aec_rewards_from_scores(preset: str, scores: list[float]) -> list[float]:
    """The AEC environment's "points" rewards of a round from the OpenSpiel returns (each player's
    side's score, higher is better), as jass_env.envs.rewards states them: two sides get the
    difference of their scores / 157; players alone their score minus the table's mean, / 157."""
    if preset == "schieber":
        return [(scores[p] - scores[(p + 1) % 4]) / 157 for p in range(4)]
    mean = sum(scores) / len(scores)
    return [(s - mean) / 157 for s in scores]


@pytest.mark.parametrize("preset,players", PRESETS)
def test_openspiel_rollout_is_the_projects_round(preset, players):
    """A random round through OpenSpielEnv, its deal recorded, replayed on the AEC environment."""
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    from agents.openspiel.deal import deal_from_outcomes, round_of
    from examples.torchrl_openspiel import RecordingChanceSampler, make_env

    sampler = RecordingChanceSampler(seed=SEED)
    env = make_env(preset, chance_sampler=sampler)
    sampler.outcomes.clear()                   # the deal made at construction; the rollout deals anew
    torch.manual_seed(0)
    td = env.rollout(200, break_when_any_done=True)
    assert bool(td["next", "done"][-1]) and not td["next", "done"][:-1].any()
    ref = raw_env(preset)
    ref.set_state(round_of(preset, deal_from_outcomes(preset, sampler.outcomes)).state)
    where = _seat_columns(td, env)
    assert len(where) == players
    for t in range(td.shape[0]):
        seat = ref.agent_selection
        assert int(td["current_player"][t]) == ref.possible_agents.index(seat)
        marked = [s for s, (g, i) in where.items() if td[g, "mask"][t, i]]
        assert marked == [seat]
        g, i = where[seat]
        assert torch.equal(td[g, "action_mask"][t, i], torch.as_tensor(ref.observe(seat)["action_mask"] == 1))
        for s, (gs, js) in where.items():
            assert torch.equal(td[gs, "observation"][t, js], torch.as_tensor(ref.observe(s)["observation"]))
        action = int(td[g, "action"][t, i])
        assert ref.legal_actions_mask() >> action & 1, f"step {t}: illegal action {action}"
        ref.step(action)
        last = t == td.shape[0] - 1
        assert all(ref.terminations.values()) == last
        rewards = [float(td["next", where[s][0], "reward"][t, where[s][1]]) for s in ref.possible_agents]
        if not last:
            assert rewards == [0.0] * players          # OpenSpiel's games pay at the end only
    expected = _aec_rewards_from_scores(preset, rewards)
    assert expected == pytest.approx([ref.rewards[s] for s in ref.possible_agents], abs=1e-6)


def test_openspiel_masks_refuse_another_environment():
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    from torchrl.envs import TransformedEnv

    from agents.torchrl_adapter import OpenSpielMasks

    with pytest.raises(TypeError, match="needs an OpenSpielWrapper"):
        TransformedEnv(make_env("schieber", "side", seed=SEED), OpenSpielMasks()).reset()


def test_openspiel_example_refuses_rules_that_are_no_preset():
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    from examples.torchrl_openspiel import make_env as openspiel_env

    # the game would play the preset, not the rules asked for
    with pytest.raises(ValueError, match="switches changed: {'stoeck': 0}"):
        openspiel_env(make_rules("schieber", stoeck=0))


@pytest.mark.parametrize("preset,parametrized", [("schieber", False), ("differenzler3", True)])
def test_openspiel_command_line_plays_legally(capsys, preset, parametrized):
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    from examples.torchrl_openspiel import main as openspiel_main

    argv = ["--rules", preset, "--steps", "10"] + (["--parametrized"] if parametrized else [])
    assert openspiel_main(argv) == 0
    out = capsys.readouterr().out
    assert '"actions_legal": true' in out
    assert ("python_jass(rules=differenzler3)" if parametrized else '"python_jass_schieber"') in out
