"""Whole-game duplicate evaluation (agents/evaluation/whole_games.py): Coiffeur is evaluated over
whole games, each deal sequence played twice with the teams swapped."""

from __future__ import annotations

import json

import pytest

from agents.evaluation.cli import main
from agents.evaluation.lineups import build_team
from agents.evaluation.protocol import WHOLE_GAME, protocol_for
from agents.evaluation.seeds import match_seed
from agents.evaluation.whole_games import evaluate_games, play_sequence
from jass_env.engine.state import StateView, rounds_done
from jass_env.games import make_rules
from jass_env.round import Match


def _dealt_hands_of_a_game(rules, seed, pick):
    """Play a whole game choosing ``pick(legal actions)`` everywhere; the hands of every deal."""
    m = Match(rules, seed=seed)
    hands, current = [], -1
    while not m.is_over:
        if int(rounds_done(m.state)) != current:
            current = int(rounds_done(m.state))
            hands.append(tuple(StateView(m.state, rules.params).dealt))
        m.step(int(pick(m.legal_actions())))
    return hands


def test_coiffeur_is_evaluated_by_whole_games_and_schieber_is_not():
    assert protocol_for(make_rules("coiffeur")) == WHOLE_GAME
    assert protocol_for(make_rules("coiffeur10")) == WHOLE_GAME
    assert protocol_for(make_rules("schieber")) != WHOLE_GAME
    assert protocol_for(make_rules("differenzler")) != WHOLE_GAME
    with pytest.raises(ValueError, match="schieber is evaluated deal by deal"):
        evaluate_games("random", "random", "schieber", games=2)


def test_both_games_of_a_sequence_deal_the_same_hands_whatever_is_played():
    """The duplicate rests on this: the engine deals the game from its own generator only."""
    rules = make_rules("coiffeur6")
    seed = match_seed(0, 0)
    first = _dealt_hands_of_a_game(rules, seed, lambda legal: legal[0])
    assert len(first) == 12
    assert first == _dealt_hands_of_a_game(rules, seed, lambda legal: legal[-1])


def test_an_agent_against_itself_nets_zero_on_every_sequence():
    res = evaluate_games("random", "random", "coiffeur6", games=2, seed=3)
    assert [p.diff for p in res.pairs] == [0.0, 0.0]
    assert res.summary["game_score_diff"] == 0.0 and res.summary["game_win_rate"] == 0.5
    assert res.summary["deals_per_game"] == [12]          # six rows on each of two sheets


def test_a_sequence_is_its_two_games_with_the_teams_swapped():
    rules = make_rules("coiffeur6")
    a, b = build_team("heuristic", rules), build_team("random", rules)
    pair = play_sequence(rules, 0, a, b, 5)
    assert (pair.first.a_seats, pair.second.a_seats) == ("0&2", "1&3")
    assert pair.first.seed == pair.second.seed == match_seed(5, 0)
    assert pair.diff == ((pair.first.score_A - pair.first.score_B)
                         + (pair.second.score_A - pair.second.score_B)) / 2


def test_the_command_line_evaluates_coiffeur_by_whole_games(tmp_path, capsys):
    assert main(["heuristic", "random", "--rules", "coiffeur6", "--deals", "2", "--quiet",
                 "--out", str(tmp_path)]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["sequences"] == 2 and s["games"] == 4 and s["rules"] == "coiffeur6"
    assert (tmp_path / "games.csv").read_text().count("\n") == 3
    assert "deal sequences" in capsys.readouterr().out
    assert main(["heuristic", "random", "--rules", "coiffeur6", "--matches", "4",
                 "--out", str(tmp_path)]) == 2
    assert "coiffeur6 is evaluated by whole games" in capsys.readouterr().err
