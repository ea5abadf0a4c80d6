"""The trainer's batched bots and evaluations (agents/batched.py) decide and measure exactly what
the bots' Agent classes and the evaluation tool do, in every game."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.batched import BATCH_BOTS, SpecBot, bot_actions, evaluate_vs_bot
from agents.bots.differenzler import (
    DV_HAND,
    DV_TRUMP,
    DifferenzlerHeuristic,
    ViewDecoder,
    predicting,
    prediction_action,
    rule_of_thumb_prediction,
)
from agents.evaluation.rotation import evaluate_rotation
from agents.evaluation.whole_games import evaluate_games
from agents.network import load_policy
from agents.policy import PolicyAgent, default_checkpoint, write_random_checkpoint
from agents.random_bot import RandomAgent, random_actions
from agents.registry import make_agent
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import make_rules

CPU = torch.device("cpu")


@pytest.mark.parametrize("game", ["differenzler", "differenzler3"])
def test_the_batched_differenzler_heuristic_decides_as_the_agent(game):
    rules = make_rules(game)
    env = VectorJassEnv(32, rules=rules, check_actions=True)
    obs, mask, _ = env.reset(seed=4)
    agent = DifferenzlerHeuristic(rules)
    predictions_seen = 0
    for _ in range(3 * rules.spec.tricks * rules.spec.players):
        acts = bot_actions("heuristic", rules, obs, mask, None)
        predictions_seen += int(predicting(mask).sum())
        for i in range(0, 32, 5):
            assert acts[i] == agent.act({"observation": obs[i], "action_mask": mask[i]})
        out = env.step(acts)           # check_actions=True: every action is legal
        obs, mask = out.obs, out.mask
    assert predictions_seen > 0


def test_the_random_bot_predicts_by_the_rule_of_thumb_and_plays_uniformly_among_the_legal_cards():
    rules = make_rules("differenzler")
    env = VectorJassEnv(16, rules=rules, check_actions=True)
    obs, mask, _ = env.reset(seed=9)
    decode = ViewDecoder(rules)
    assert predicting(mask).all()                       # every game starts with a prediction
    acts = random_actions(obs, mask, rules, np.random.default_rng(0))
    for i in range(16):
        v = decode({"observation": obs[i], "action_mask": mask[i]})
        thumb = rule_of_thumb_prediction(int(v[DV_HAND]), int(v[DV_TRUMP]), rules.params)
        assert acts[i] == prediction_action(thumb)
    while predicting(mask).any():                       # on to the card play
        out = env.step(random_actions(obs, mask, rules, np.random.default_rng(1)))
        obs, mask = out.obs, out.mask
    legal = np.flatnonzero(mask[0])
    rng = np.random.default_rng(2)
    picks = [int(random_actions(obs[:1], mask[:1], rules, rng)[0]) for _ in range(400)]
    assert set(picks) == set(legal.tolist())           # every legal card, nothing else
    counts = np.bincount(picks, minlength=mask.shape[1])[legal]
    assert counts.min() > 400 / legal.size / 3         # no legal card starved


def test_the_random_agent_is_the_batched_random_bot_on_one_row():
    rules = make_rules("schieber")
    env = VectorJassEnv(1, rules=rules)
    obs, mask, _ = env.reset(seed=5)
    agent = RandomAgent(seed=3, rules=rules)
    rng = np.random.default_rng(3)
    batch = random_actions(obs, mask, rules, rng)
    assert agent.act({"observation": obs[0], "action_mask": mask[0]}) == batch[0]


def test_an_unknown_batch_bot_and_a_missing_generator_are_named():
    rules = make_rules("schieber")
    env = VectorJassEnv(2, rules=rules)
    obs, mask, _ = env.reset(seed=1)
    with pytest.raises(ValueError, match=f"unknown batch bot 'pimc'; allowed: {', '.join(BATCH_BOTS)}"):
        bot_actions("pimc", rules, obs, mask, None)
    with pytest.raises(ValueError, match="random bot needs a generator"):
        bot_actions("random", rules, obs, mask, None)


@pytest.mark.parametrize("game", ["differenzler", "differenzler3"])
def test_the_batched_rotation_equals_the_evaluation_tool_against_the_heuristic(game, tmp_path):
    """Same deals, dealers and seat rotations as ``python -m agents.evaluate --rules GAME``."""
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=[32], seed=7, game=game)
    net, _ = load_policy(path)
    fast = evaluate_vs_bot(net, "heuristic", game, 6, 3, CPU)
    slow = evaluate_rotation(PolicyAgent(path, rules=game), "heuristic", game, deals=6, seed=3).summary
    assert fast["penalty_diff"] == pytest.approx(slow["difference_A_minus_B"]["mean"], abs=1e-9)
    assert [fast["ci_low"], fast["ci_high"]] == pytest.approx(slow["difference_A_minus_B"]["ci95"], abs=1e-9)
    assert fast["deal_better_rate"] == pytest.approx(slow["share_of_deals_A_better"], abs=1e-12)


@pytest.mark.parametrize("game", ["schieber", "differenzler"])
def test_an_agent_spec_decides_a_batch_as_the_batched_bot(game):
    """``SpecBot`` asks the registry's agent for each row: the heuristic spec decides exactly as
    the batched heuristic."""
    rules = make_rules(game)
    env = VectorJassEnv(24, rules=rules, check_actions=True)
    obs, mask, _ = env.reset(seed=9)
    spec_bot = SpecBot("heuristic", rules, seed=0)
    for _ in range(rules.spec.tricks * rules.spec.players):
        acts = spec_bot.actions(obs, mask)
        assert np.array_equal(acts, bot_actions("heuristic", rules, obs, mask, None))
        out = env.step(acts)
        obs, mask = out.obs, out.mask


def test_the_policy_against_itself_as_an_agent_spec_scores_zero_on_duplicate_deals(tmp_path):
    """A duplicate deal swaps the cards between the teams: the greedy policy against the same
    policy (an agent spec naming its checkpoint) plays both halves alike, so every deal nets 0."""
    path = write_random_checkpoint(tmp_path / "p.pt", hidden=[32], seed=5, game="schieber")
    net, _ = load_policy(path)
    result = evaluate_vs_bot(net, str(path), "schieber", 4, 2, CPU)
    assert result["points_per_hand"] == 0.0
    assert result["round_win_rate"] == 0.5


def test_the_evaluation_against_a_search_spec_runs_on_the_batch():
    net, _ = load_policy(default_checkpoint("schieber"))
    result = evaluate_vs_bot(net, "pimc:worlds=2", "schieber", 2, 4, CPU)
    assert result["deals"] == 2 and result["ci_low"] <= result["points_per_hand"] <= result["ci_high"]


@pytest.mark.parametrize("game", ["mittlere", "molotow", "molotow3", "coiffeur", "coiffeur10"])
def test_the_heuristic_of_every_other_game_decides_a_batch_as_its_agent_plays_one_game(game):
    """The heuristic of a game without a compiled batch form decides each row as a fresh agent
    of that game would, one that has played that row's game from its first decision: its
    decisions depend on the observation alone, so one instance serves a whole batch."""
    rules = make_rules(game)
    n = 6
    env = VectorJassEnv(n, rules=rules, episode="round", check_actions=True)
    obs, mask, seat = env.reset(seed=12)
    players = rules.spec.players
    own = [[make_agent("heuristic", rules, seed=0) for _ in range(players)] for _ in range(n)]
    done = np.zeros(n, dtype=bool)
    while not done.all():
        acts = bot_actions("heuristic", rules, obs, mask, None)
        for i in np.flatnonzero(~done):
            assert acts[i] == own[i][seat[i]].act({"observation": obs[i], "action_mask": mask[i]})
        out = env.step(acts)           # check_actions=True: every action is legal
        done |= out.done
        obs, mask, seat = out.obs, out.mask, out.seat


@pytest.mark.parametrize(("game", "key", "higher_is_better"),
                         [("mittlere", "result_diff", True), ("molotow", "score_diff", False)])
def test_the_batched_rotation_equals_the_tool_in_the_first_discard_games(game, key, higher_is_better,
                                                                        tmp_path):
    """Mittlere's result (higher is better) and Molotow's score (lower is better) are measured as
    ``python -m agents.evaluate --rules GAME`` does, and a deal counts for the policy in the
    direction of its game."""
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=[32], seed=7, game=game)
    net, _ = load_policy(path)
    fast = evaluate_vs_bot(net, "heuristic", game, 8, 3, CPU)
    slow = evaluate_rotation(PolicyAgent(path, rules=game), "heuristic", game, deals=8, seed=3).summary
    assert slow["higher_is_better"] is higher_is_better
    assert fast[key] == pytest.approx(slow["difference_A_minus_B"]["mean"], abs=1e-9)
    assert [fast["ci_low"], fast["ci_high"]] == pytest.approx(slow["difference_A_minus_B"]["ci95"], abs=1e-9)
    assert fast["deal_better_rate"] == pytest.approx(slow["share_of_deals_A_better"], abs=1e-12)


def test_the_batched_whole_games_equal_the_evaluation_tool_against_the_heuristic(tmp_path):
    """Coiffeur is evaluated by whole games, as ``python -m agents.evaluate --rules coiffeur6``
    does: the same deal sequences (every hand of game k from the seed of sequence k), each
    played twice with the teams swapped, the same per-sequence differences and games won."""
    game = "coiffeur6"
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=[32], seed=7, game=game)
    net, _ = load_policy(path)
    fast = evaluate_vs_bot(net, "heuristic", game, 3, 5, CPU)
    slow = evaluate_games(PolicyAgent(path, rules=game), "heuristic", game, games=3, seed=5).summary
    assert fast["deals"] == 3
    assert fast["game_score_diff"] == pytest.approx(slow["game_score_diff"], abs=1e-9)
    assert [fast["ci_low"], fast["ci_high"]] == pytest.approx(slow["ci95"], abs=1e-9)
    assert fast["game_win_rate"] == pytest.approx(slow["game_win_rate"], abs=1e-12)


def test_the_policy_against_itself_nets_zero_over_duplicate_deal_sequences(tmp_path):
    """Both games of a sequence deal the same hands with the teams swapped: the greedy policy
    against itself scores the same for either team, so every sequence nets 0."""
    path = write_random_checkpoint(tmp_path / "p.pt", hidden=[32], seed=5, game="coiffeur6")
    net, _ = load_policy(path)
    result = evaluate_vs_bot(net, str(path), "coiffeur6", 2, 1, CPU)
    assert result["game_score_diff"] == 0.0
    assert result["game_win_rate"] == 0.5
