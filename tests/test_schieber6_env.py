"""The Schieber-for-six environments: PettingZoo API, spaces, the documented observation
(jass_env/games/schieber/observation.py, sized for six seats), state, team rewards summing to 0,
rendering, the Gymnasium wrapper and the batched environment (its step-by-step equality with the
AEC one is in test_vector.py).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from conftest import deal
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from jass_env import Round
from jass_env.engine.cards import card_id
from jass_env.engine.spec import SPECS
from jass_env.engine.state import StateView
from jass_env.envs import encoding
from jass_env.envs.aec import env, game_env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games.schieber.observation import layout_slices, obs_dim, state_dim
from jass_env.render import render_table

GAME = "schieber6"
PLAYERS = 6
SPEC = SPECS[GAME]
OBS_DIM, STATE_DIM = obs_dim(SPEC), state_dim(SPEC)
SLICES = layout_slices(SPEC.players, SPEC.tricks)


def _observe(r: Round, observer: int) -> np.ndarray:
    out = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    r.game.observation.encode_observation(r.state, observer, r.rp, out)
    return out


def test_pettingzoo_api_seed_and_render() -> None:
    api_test(env(game=GAME), num_cycles=200)
    api_test(env(game=GAME, episode="match", reward="win"), num_cycles=200)
    seed_test(lambda: env(game=GAME), num_cycles=200)
    render_test(lambda render_mode=None: env(game=GAME, render_mode=render_mode))


def test_six_agents_schiebers_43_actions_and_the_documented_sizes() -> None:
    e = raw_env(game=GAME)
    assert e.possible_agents == [f"player_{p}" for p in range(PLAYERS)]
    assert e.action_space("player_5").n == 43
    assert e.observation_space("player_0")["observation"].shape == (OBS_DIM,) == (758,)
    assert e.state_space.shape == (STATE_DIM,) == (758 + 6 * 36,)
    assert e.metadata["name"] == "schieber6_v0" and game_env(GAME).unwrapped.rules.game == GAME


@pytest.mark.parametrize("reward", ["points", "tricks"])
def test_team_rewards_are_the_score_difference_over_157_for_all_three_players(reward: str) -> None:
    """Players 0, 2, 4 get (team 0's score − team 1's) / 157 in total, players 1, 3, 5 its
    negative: the six rewards sum to 0."""
    e = raw_env(game=GAME, reward=reward)
    rng = np.random.default_rng(3)
    for seed in range(3):
        e.reset(seed=seed)
        total = np.zeros(PLAYERS)
        while not all(e.terminations.values()):
            obs = e.observe(e.agent_selection)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += [e.rewards[a] for a in e.possible_agents]
        score = StateView(e.core_state, e.rules.params).score
        diff = (score[0] - score[1]) / 157
        np.testing.assert_allclose(total, [diff, -diff] * 3, atol=1e-6)


def test_the_observation_reads_like_the_table() -> None:
    """Dealer 5, forehand 0 pushes to player 2, who names ♥; player 0 leads ♥6. Player 1 sees:
    forehand at relative seat 5, the declarer at relative seat 1, forehand's ♥6 in the trick at
    seat 5, his own six cards, trick 1 of 6."""
    hands = deal({0: ["H6"], 1: ["SA"]}, players=PLAYERS, hand_size=6)
    r = Round(GAME, hands=hands, dealer=5)
    o = _observe(r, 1)
    assert np.flatnonzero(o[SLICES["forehand"]]).tolist() == [5]
    assert o[SLICES["phase"]].tolist() == [1, 0, 0]
    for a in ("push", "H", "H6"):
        r.step(a)
    o = _observe(r, 1)
    assert o[SLICES["pushed"]].tolist() == [1]
    assert np.flatnonzero(o[SLICES["declarer"]]).tolist() == [1]
    assert o[SLICES["contract"]].tolist() == [0, 1, 0, 0, 0, 0]
    trick = o[SLICES["trick"]].reshape(PLAYERS, 36)
    assert np.flatnonzero(trick.sum(axis=1)).tolist() == [5] and trick[5, card_id("H6")] == 1
    assert o[SLICES["hand"]].sum() == 6 and o[SLICES["hand"]][card_id("SA")] == 1
    assert np.flatnonzero(o[SLICES["trick_number"]]).tolist() == [0]
    assert np.flatnonzero(o[SLICES["leader"]]).tolist() == [5]
    assert o[SLICES["played"]].reshape(PLAYERS, 36)[5, card_id("H6")] == 1


def test_points_are_seen_by_team_and_the_state_holds_every_hand() -> None:
    e = raw_env(game=GAME)
    e.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(15):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    view = StateView(e.core_state, e.rules.params)
    for p in range(PLAYERS):
        o = e.observe(f"player_{p}")["observation"]
        own, other = view.points[p % 2], view.points[1 - p % 2]
        np.testing.assert_allclose(o[SLICES["card_points"]], np.array([own, other]) / 157, rtol=1e-6)
    state = e.state()
    me = int(e.agent_selection.split("_")[1])
    hands = state[OBS_DIM:].reshape(PLAYERS, 36)
    for r in range(PLAYERS):
        held = view.hands[(me + r) % PLAYERS]
        assert set(np.flatnonzero(hands[r])) == {c for c in range(36) if held >> c & 1}


def test_render_shows_six_seats_in_two_teams() -> None:
    r = Round(GAME, seed=1, dealer=5)
    text = render_table(r.state, r.rules)
    for p in range(PLAYERS):
        assert f"player_{p} (team {p % 2}) : " in text
    assert "forehand player_0" in text and "To move: player_0" in text


def test_gym_wrapper_with_two_team_mates_and_three_opponents() -> None:
    g = JassGymEnv(seat=1, game=GAME)
    check_env(g, skip_render_check=True)
    seen: list[int] = []

    def mate(obs: dict) -> int:
        seen.append(int(g.aec.agent_selection.split("_")[1]))
        return int(np.flatnonzero(obs["action_mask"])[0])

    g = JassGymEnv(seat=1, game=GAME, partner=[mate, mate])
    g.reset(seed=0)
    done = False
    while not done:
        mask = g.action_masks()
        assert mask.shape == (43,) and mask.any()
        _, _, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
    assert set(seen) == {3, 5}
    with pytest.raises(ValueError, match="sequence of 2"):
        JassGymEnv(seat=1, game=GAME, partner=[mate])
    with pytest.raises(ValueError, match="sequence of 3"):
        JassGymEnv(seat=1, game=GAME, opponents=[mate, mate])
    assert gymnasium.make("jass_env/Schieber6-v0").unwrapped.rules.game == GAME


def test_vector_env_rewards_sum_to_0_and_final_scores_are_the_teams() -> None:
    v = VectorJassEnv(6, rules=GAME, episode="round", reward="points")
    obs, mask, seat = v.reset(seed=1)
    assert obs.shape == (6, OBS_DIM) and mask.shape == (6, 43) and v.players == PLAYERS
    done = 0
    for _ in range(3 * 38):
        out = v.step(v.sample_actions())
        np.testing.assert_allclose(out.rewards.sum(axis=1), 0, atol=1e-6)
        np.testing.assert_allclose(out.rewards[:, 0::2], out.rewards[:, [0]].repeat(3, axis=1))
        done += int(out.done.sum())
    assert done >= 6
