"""The Coiffeur environments: the whole game by default (2 x rows deals), one deal as an option,
masks equal to the declaration rules, team rewards that sum to zero, both sheets in the
observation, rendering, the Gymnasium wrapper, the batched environment step for step, records."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from jass_env import Match, Round, make_rules
from jass_env.engine.cards import card_id, mask_of
from jass_env.engine.state import StateView
from jass_env.envs.aec import env, game_env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games.coiffeur.observation import OBS_DIM, SLICES, STATE_DIM
from jass_env.records import check_records, record_line, record_of

PUSH = 42
DECLARE_H = 37
#: the largest factor of coiffeur (Joker-2 x8) times the 157 points of a deal: the reward scale
SCALE = 157 * 8


#: memory the batched env may hold per Coiffeur game (state, observation, mask, scores)
COIFFEUR_BYTES_PER_GAME_MAX = 4608


def _step_random(e, rng) -> None:
    obs, _, term, trunc, _ = e.last()
    e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _play(e, rng) -> dict[str, float]:
    """Random legal actions to the end; the total reward of each agent."""
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        total[agent] += e.last()[1]
        _step_random(e, rng)
    return total


def test_pettingzoo_api():
    api_test(env(game="coiffeur"), num_cycles=200)
    api_test(env(game="coiffeur10", episode="round", reward="win"), num_cycles=200)


@pytest.mark.parametrize("game, deals, n_actions", [("coiffeur", 16, 55), ("coiffeur6", 12, 43),
                                                    ("coiffeur10", 20, 59)])
def test_the_whole_game_is_the_default_episode(game, deals, n_actions):
    e = raw_env(game=game)
    assert e.episode == "match" and e.metadata["name"] == f"{game}_v0"
    assert e.action_space("player_0").n == n_actions
    e.reset(seed=3)
    total = _play(e, np.random.default_rng(1))
    view = StateView(e.core_state, e.rules.params)
    assert view.rounds_done == deals and view.match_winner is not None
    a, b = view.match_score
    assert total["player_0"] == pytest.approx((a - b) / (157 * max(e.rules.row_factors)), abs=1e-9)
    assert total["player_0"] == total["player_2"] == -total["player_1"] == -total["player_3"]


def test_a_single_deal_and_its_reward():
    e = raw_env(game="coiffeur", episode="round")
    e.reset(seed=8)
    total = _play(e, np.random.default_rng(2))
    view = StateView(e.core_state, e.rules.params)
    assert view.rounds_done == 0 and view.is_over
    assert total["player_0"] == pytest.approx((view.score[0] - view.score[1]) / SCALE)


def test_win_reward_comes_once_at_the_end_of_the_game():
    e = raw_env(game="coiffeur6", reward="win")
    e.reset(seed=5)
    rng = np.random.default_rng(3)
    paid = []
    for agent in e.agent_iter():
        r = e.last()[1]
        if r:
            paid.append((agent, r))
        _step_random(e, rng)
    winner = StateView(e.core_state, e.rules.params).match_winner
    expected = {0: 1.0, 1: -1.0, 2: 0.0}[winner]
    assert all(r == (expected if int(a[-1]) % 2 == 0 else -expected) for a, r in paid)
    assert len(paid) == (0 if winner == 2 else 4)


def test_mask_has_only_the_teams_open_rows_and_no_push_when_forced():
    rules = make_rules("coiffeur")
    r = Round(rules, seed=1, dealer=3)
    r.set_sheets({"0": {"D": 30, "H": 80, "Joker-2": 400}, "1": {row: 50 for row in r.rows}})
    e = raw_env(rules=rules, episode="round")
    e.reset(seed=0)
    e.set_state(r.state)
    assert e.agent_selection == "player_0"
    mask = e.observe("player_0")["action_mask"]
    legal = set(np.flatnonzero(mask))
    assert legal == {38, 39, 40, 41, PUSH} | set(range(43, 49))   # S C O U, push, Joker-1 as any
    e.step(PUSH)                                                     # to player 2 (1 and 3 skipped)
    assert e.agent_selection == "player_2"
    e.step(PUSH)
    assert e.agent_selection == "player_0"
    obs = e.observe("player_0")
    assert not obs["action_mask"][PUSH] and obs["observation"][SLICES["must_declare"]][0] == 1.0
    np.testing.assert_array_equal(obs["observation"][SLICES["pushes"]], [1, 0, 1, 0])


def test_observation_shows_both_sheets_row_factor_and_schedule():
    rules = make_rules("coiffeur10", kontermatsch_penalty=100)
    r = Round(rules, seed=2, dealer=3)
    r.set_sheets({"0": {"H": 388}, "1": {"Undenufe": -600}})    # -600: a Kontermatsch in U (x6)
    e = raw_env(rules=rules, episode="round")
    e.reset(seed=0)
    e.set_state(r.state)
    e.step(56)                                                       # player 0: Slalom from Undenufe
    o1 = e.observe("player_1")["observation"]                       # seen by an opponent
    assert o1.shape == (OBS_DIM,)
    rows = ("D", "H", "S", "C", "Obenabe", "Undenufe", "Joker-1", "Joker-2", "Slalom", "Guschti")
    own, opp = o1[SLICES["row_values"]][:10], o1[SLICES["row_values"]][10:]
    assert own[rows.index("Undenufe")] == pytest.approx(-600 / (157 * 6))
    assert opp[rows.index("H")] == pytest.approx(388 / (157 * 4))
    assert o1[SLICES["open_rows"]][10 + rows.index("H")] == 0.0
    assert o1[SLICES["open_rows"]].sum() == 18                        # 20 rows, 2 written
    assert o1[SLICES["row"]][rows.index("Slalom")] == 1.0
    assert o1[SLICES["factor"]][0] == pytest.approx(7 / 10)
    np.testing.assert_array_equal(o1[SLICES["schedule"]], [1, 0, 1, 0, 1, 0, 1, 0, 1])
    assert o1[SLICES["values_undenufe"]][0] == 1.0
    assert o1[SLICES["deals_left"]][0] == pytest.approx(18 / 20)
    assert e.state().shape == (STATE_DIM,)
    box = e.observation_space("player_1")["observation"]
    assert (o1 >= box.low).all() and (o1 <= box.high).all()


def test_render_shows_both_sheets():
    e = game_env("coiffeur10", render_mode="ansi")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        _step_random(e, rng)
    text = e.render()
    for label in ("S ×1", "Slalom ×7", "Guschti ×8", "Joker-2 ×10", "Total"):
        assert label in text
    assert "team 0" in text and "team 1" in text


def test_gym_wrapper_plays_one_seat_through_the_game():
    g = JassGymEnv(seat=1, game="coiffeur6")
    check_env(g, skip_render_check=True)
    obs, _ = g.reset(seed=0)
    total, done = 0.0, False
    while not done:
        mask = g.action_masks()
        obs, r, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
        total += r
    view = StateView(g.aec.core_state, g.rules.params)
    assert view.rounds_done == 12
    assert total == pytest.approx((view.match_score[1] - view.match_score[0]) / (157 * 6))


@pytest.mark.parametrize("episode", ["round", "match"])
def test_vector_env_equals_the_aec_env(episode):
    seeds = [5, 77]
    venv = VectorJassEnv(len(seeds), rules="coiffeur10", episode=episode)
    envs = [raw_env(rules="coiffeur10", episode=episode) for _ in seeds]
    obs, mask, seat = venv.reset(seeds=seeds)
    for e, s in zip(envs, seeds, strict=True):
        e.reset(seed=s)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(900 if episode == "match" else 120):
        actions = np.zeros(len(seeds), dtype=np.int64)
        for i, e in enumerate(envs):
            o = e.observe(e.agent_selection)
            assert seat[i] == int(e.agent_selection[-1])
            np.testing.assert_array_equal(obs[i], o["observation"])
            np.testing.assert_array_equal(mask[i], o["action_mask"].astype(bool))
            actions[i] = int(rng.choice(np.flatnonzero(mask[i])))
        out = venv.step(actions)
        obs, mask, seat = out.obs, out.mask, out.seat
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            expected = np.array([e.rewards[a] for a in e.possible_agents], dtype=np.float32)
            np.testing.assert_array_equal(out.rewards[i], expected)
            if all(e.terminations.values()):
                view = StateView(e.core_state, e.rules.params)
                assert list(out.final_score[i]) == (view.match_score if episode == "match" else view.score)
                if episode == "match":
                    assert out.winner[i] == view.match_winner
                finished += 1
                e.reset()
    assert finished >= 2
    # under 4.5 KB a game (the state now has room for 6 players and 18 tricks; coiffeur10: 4,076)
    assert venv.bytes_per_game <= COIFFEUR_BYTES_PER_GAME_MAX


# records
def _game_records(seed: int) -> list[dict]:
    m = Match("coiffeur10", seed=seed)
    rng = np.random.default_rng(seed)
    while not m.is_over:
        m.step(int(rng.choice(m.legal_actions())))
    return [record_of(deal, id=k) for k, deal in enumerate(m.finished_rounds)]


def test_records_of_a_whole_game_are_written_and_check():
    records = _game_records(6)
    assert len(records) == 20
    first, last = records[0], records[-1]
    assert first["sheets_before"] == {"0": {}, "1": {}}
    assert sum(len(s) for s in last["sheets_before"].values()) == 19
    for rec in records:
        assert {"pushes", "declarer", "row", "factor", "contract", "row_score", "match_team"} <= set(rec)
        assert "pushed" not in rec
    report = check_records([record_line(r) for r in records])
    assert report.ok, report.lines()


def test_a_wrong_row_score_or_an_impossible_declaration_is_reported():
    rec = _game_records(9)[10]
    wrong = dict(rec, row_score=rec["row_score"] + 1)
    report = check_records([json.dumps(wrong)])
    assert not report.ok and "row_score" in report.lines()[0]
    team = rec["declarer"] % 2
    full = {**rec["sheets_before"], str(team): {**rec["sheets_before"][str(team)], rec["row"]: 0}}
    report = check_records([json.dumps(dict(rec, sheets_before=full))])
    assert not report.ok and "not legal" in report.lines()[0]


# bots
def test_the_random_bot_plays_a_whole_game():
    from agents.registry import make_agent

    bots = [make_agent("random", "coiffeur", seed=p) for p in range(4)]
    e = env(game="coiffeur")
    e.reset(seed=12)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else bots[int(agent[-1])].act(obs))
    view = StateView(e.unwrapped.core_state, e.unwrapped.rules.params)
    assert view.rounds_done == 16 and view.match_winner is not None


def test_the_heuristic_declares_the_row_with_the_largest_surplus_and_pushes_a_poor_hand():
    from agents.bots.coiffeur import choose_declaration, graf_average
    from agents.registry import make_agent

    bot = make_agent("heuristic", "coiffeur")
    hearts = sum(1 << (9 + r) for r in range(9))                   # all nine hearts
    every = sum(1 << a for a in range(36, 55))                      # every row open, and the push
    # Graf: nine hearts score 97 as trump against an average hand's (97 + 3 x 24) / 4 = 42.25;
    # the largest factor (Joker-2, x8) with H is the largest surplus
    assert graf_average()[1] == pytest.approx(42.25)
    assert choose_declaration(hearts, every, bot.factors) == 43 + 6 + 1
    no_jokers = every & ~(0xFFF << 43)                              # Joker-1 and Joker-2 written
    assert choose_declaration(hearts, no_jokers, bot.factors) == DECLARE_H
    # Graf 29 34 40 38 (D H S C), 46 (Obenabe), 38 (Undenufe): below every average (42.25, 49, 41)
    weak = mask_of([card_id(c) for c in ("D10", "D8", "HK", "HQ", "H10", "H8", "SQ", "S9", "C9")])
    assert choose_declaration(weak, every, bot.factors) == PUSH
    forced = every & ~(1 << PUSH)
    assert choose_declaration(weak, forced, bot.factors) != PUSH
    e = env(game="coiffeur6", episode="round")
    e.reset(seed=1)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else bot.act(obs))
