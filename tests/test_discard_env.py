"""The Mittlere and Molotow environments: PettingZoo API, spaces, the documented observation
(jass_env/games/_first_discard/observation.py), state, rewards summing to 0, rendering, the Gymnasium wrapper
and the batched environment (its step-by-step equality with the AEC one is in test_vector.py).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from jass_env import Round
from jass_env.engine.spec import SPECS
from jass_env.engine.state import StateView
from jass_env.envs import encoding
from jass_env.envs.aec import env, game_env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games._first_discard.observation import LAYOUTS, obs_dim

GAMES = ("mittlere", "molotow", "molotow3", "molotow5", "molotow6")
#: each game's observation slices by name
SLICES = {game: LAYOUTS.of(SPECS[game]).slices for game in GAMES}


def _play(e, rng: np.random.Generator) -> dict[str, float]:
    """Random legal actions until the episode ends; every agent's summed reward."""
    total = dict.fromkeys(e.possible_agents, 0.0)
    while not all(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, x in e.rewards.items():
            total[a] += x
    return total


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_seed_and_render(game):
    api_test(env(game=game), num_cycles=200)
    api_test(env(game=game, episode="match", reward="win"), num_cycles=200)
    seed_test(lambda: env(game=game), num_cycles=200)
    render_test(lambda render_mode=None: env(game=game, render_mode=render_mode))


@pytest.mark.parametrize("game", GAMES)
def test_spaces_and_names_follow_the_game(game):
    spec = SPECS[game]
    e = raw_env(game=game)
    assert e.possible_agents == [f"player_{p}" for p in range(spec.players)]
    assert e.action_space("player_0").n == 36
    assert e.observation_space("player_0")["observation"].shape == (obs_dim(spec),)
    assert e.state_space.shape == (obs_dim(spec) + 36 * spec.players,)
    assert e.metadata["name"] == f"{game}_v0" and game_env(game).unwrapped.rules.game == game
    with pytest.raises(ValueError, match="valid rewards: points, win"):
        raw_env(game=game, reward="tricks")


@pytest.mark.parametrize("game", GAMES)
def test_the_points_reward_is_the_score_against_the_mean_and_sums_to_0(game):
    """Mittlere: (score − mean) / 2; Molotow: −(score − mean) / 157 (lower is better)."""
    e = raw_env(game=game)
    rng = np.random.default_rng(3)
    for seed in range(4):
        e.reset(seed=seed)
        rewards = []
        for _agent in e.agent_iter():
            obs, _, term, _, _ = e.last()
            if term:
                break
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            rewards.append([e.rewards[a] for a in e.possible_agents])
        total = np.sum(rewards, axis=0)
        score = np.array(StateView(e.core_state, e.rules.params).score, dtype=float)
        expected = ((score - score.mean()) / 2 if game == "mittlere"
                    else -(score - score.mean()) / 157)
        np.testing.assert_allclose(total, expected, atol=1e-6)
        assert abs(total.sum()) < 1e-6


@pytest.mark.parametrize("game", GAMES)
def test_the_win_reward_in_a_game_goes_to_the_winner_at_the_end(game):
    e = raw_env(game=game, episode="match", reward="win")
    e.reset(seed=5)
    total = _play(e, np.random.default_rng(0))
    n = SPECS[game].players
    winner = StateView(e.core_state, e.rules.params).match_winner
    assert total[f"player_{winner}"] == pytest.approx(1.0)
    assert all(total[f"player_{p}"] == pytest.approx(-1 / (n - 1)) for p in range(n) if p != winner)


def _observe(r: Round, observer: int) -> np.ndarray:
    out = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    r.game.observation.encode_observation(r.state, observer, r.rp, out)
    return out


def test_the_observation_reads_like_the_table_molotow() -> None:
    """The rules' table-run deal (tests/test_molotow.py): ♣ fixed by player 0 in trick 2 at
    position 3; hand Weis public after trick 1; table Weis per seat."""
    from test_molotow import deal_table_run

    r = Round("molotow", hands=deal_table_run(), dealer=0)
    s = SLICES["molotow"]
    o = _observe(r, 1)                               # player 1 observes: relative seat r = p − 1
    assert not o[s["trump"]].any() and not o[s["trump_fixer"]].any() and not o[s["hand_weis"]].any()
    for c in ("SA", "S6", "S8", "SJ", "DA", "D6", "D7", "CQ"):
        r.step(c)
    o = _observe(r, 1)
    assert list(o[s["trump"]]) == [0, 0, 0, 1]                   # D H S C: clubs
    assert list(o[s["trump_fixer"]]) == [0, 0, 0, 1]             # player 0 = relative seat 3
    assert np.flatnonzero(o[s["trump_trick"]]).tolist() == [1]   # trick 2 (from 0: 1)
    assert np.flatnonzero(o[s["trump_position"]]).tolist() == [3]
    # hand Weis (public after trick 1): player 0 200, player 1 100 (four Aces), player 3 20
    np.testing.assert_allclose(o[s["hand_weis"]], np.array([100, 0, 20, 200]) / 157, rtol=1e-6)
    weis_cards = o[s["hand_weis_cards"]].reshape(4, 36)
    assert weis_cards[0].sum() == 4 and weis_cards[3].sum() == 7
    # points with the trump values: trick 1 (SA S6 S8 SJ) 11 + 2 = 13 to player 1; trick 2
    # (DA D6 D7 CQ) 11 + 3 = 14 to player 0
    np.testing.assert_allclose(o[s["points"]], np.array([13, 0, 0, 14]) / 157, rtol=1e-6)
    np.testing.assert_allclose(o[s["tricks_won"]], np.array([1, 0, 0, 1]) / 9, rtol=1e-6)
    for c in ("C7", "CA", "D8", "D9", "SK", "S10", "SQ", "S9", "H7", "H8", "H9", "C6"):
        r.step(c)
    o = _observe(r, 1)
    np.testing.assert_allclose(o[s["table_weis"]], np.array([0, 0, 0, 20]) / 157, rtol=1e-6)


def test_mittlere_has_no_weis_in_its_observation_and_state_holds_every_hand() -> None:
    e = raw_env(game="mittlere")
    e.reset(seed=2)
    rng = np.random.default_rng(1)
    s = SLICES["mittlere"]
    for _ in range(10):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    o = e.observe("player_0")["observation"]
    assert not o[s["hand_weis"]].any() and not o[s["table_weis"]].any()
    state = e.state()
    view = StateView(e.core_state, e.rules.params)
    me = int(e.agent_selection.split("_")[1])
    hands = state[obs_dim(SPECS["mittlere"]):].reshape(3, 36)
    for r in range(3):
        assert set(np.flatnonzero(hands[r])) == {c for c in range(36) if view.hands[(me + r) % 3] >> c & 1}


def test_render_shows_trump_fixing_and_molotow_weis() -> None:
    from test_molotow import deal_table_run

    r = Round("molotow", hands=deal_table_run(), dealer=0)
    for c in ("SA", "S6", "S8", "SJ", "DA", "D6", "D7", "CQ"):
        r.step(c)
    from jass_env.render import render_table

    text = render_table(r.state, r.rules)
    assert "fixed by player_0's ♣Q (trick 2, position 3)" in text
    assert "Hand Weis (minus): player_0 200 · player_1 100" in text


@pytest.mark.parametrize("game", ["mittlere", "molotow", "molotow5", "molotow6"])
def test_gym_wrapper(game):
    n = SPECS[game].players
    g = JassGymEnv(seat=n - 1, game=game)
    check_env(g, skip_render_check=True)
    obs, _ = g.reset(seed=0)
    done = False
    while not done:
        mask = g.action_masks()
        assert mask.shape == (36,) and mask.any()
        obs, _, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(ValueError, match="no partners"):
        JassGymEnv(game=game, partner=lambda o: 0)
    title = {"mittlere": "Mittlere", "molotow": "Molotow", "molotow5": "Molotow5",
             "molotow6": "Molotow6"}[game]
    assert gymnasium.make(f"jass_env/{title}-v0").unwrapped.rules.game == game


@pytest.mark.parametrize("game", GAMES)
def test_vector_env_rewards_sum_to_0_and_the_winner_follows_the_game(game):
    n = SPECS[game].players
    v = VectorJassEnv(6, rules=game, episode="round", reward="win")
    obs, mask, seat = v.reset(seed=1)
    assert obs.shape == (6, obs_dim(SPECS[game])) and mask.shape == (6, 36)
    done = 0
    for _ in range(3 * 36):
        out = v.step(v.sample_actions())
        np.testing.assert_allclose(out.rewards.sum(axis=1), 0, atol=1e-6)
        for i in np.flatnonzero(out.done):
            score = out.final_score[i]
            best = score.max() if game == "mittlere" else score.min()
            top = np.flatnonzero(score == best)
            assert out.winner[i] == (top[0] if len(top) == 1 else n)      # n = a tie
            done += 1
    assert done >= 6
