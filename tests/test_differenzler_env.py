"""The Differenzler environments (4 players, and 3 in differenzler3): PettingZoo API, seeding and
rendering, masks equal to the engine's legal set, per-player rewards that sum to zero, the
documented observation, hidden predictions that stay hidden, the Gymnasium wrapper and the batched
environment step for step."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from jass_env.engine.cards import ROUND_POINTS
from jass_env.engine.spec import SPECS
from jass_env.engine.state import PHASE_PLAY, PHASE_PREDICT, StateView
from jass_env.engine.switches import RulesError
from jass_env.engine.transitions import for_game
from jass_env.envs.aec import env, game_env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games.differenzler import observation as observation_differenzler
from jass_env.games.differenzler.observation import LAYOUTS, obs_slices
from jass_env.games.differenzler.rules import N_PREDICTIONS, predictions_of
from jass_env.round import IllegalActionError

GAMES = ("differenzler", "differenzler3")
#: each game's observation slices by name
SLICES = {game: LAYOUTS.of(SPECS[game]).slices for game in GAMES}
ENGINE = for_game(SPECS["differenzler"].kind)
PREDICT = 36          # action 36 + k predicts k points (docs/games/differenzler.md "Actions")
EXACT_HIT = -10       # the penalty of an exact hit above 0


def _penalty(pred: int, pts: int) -> int:
    return EXACT_HIT if pred == pts and pred > 0 else abs(pred - pts)


def _play(e, rng: np.random.Generator, until=None) -> None:
    """Random legal actions until the episode ends (or ``until(e)`` holds)."""
    for _agent in e.agent_iter():
        if until is not None and until(e):
            return
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# PettingZoo
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_seed_and_render(game):
    api_test(env(game=game), num_cycles=300)
    api_test(env(game=game, episode="match", reward="win"), num_cycles=300)
    seed_test(lambda: env(game=game), num_cycles=300)
    render_test(lambda render_mode=None: env(game=game, render_mode=render_mode))


@pytest.mark.parametrize("game", GAMES)
def test_spaces_follow_the_game(game):
    spec = SPECS[game]
    e = raw_env(game=game)
    assert e.possible_agents == [f"player_{p}" for p in range(spec.players)]
    assert e.action_space("player_0").n == 36 + N_PREDICTIONS == 194
    box = e.observation_space("player_0")["observation"]
    assert box.shape == (observation_differenzler.obs_dim(spec),)
    assert box.low[SLICES[game]["game_penalty"]].min() < 0      # documented: may be negative
    assert e.state_space.shape == (box.shape[0] + 37 * spec.players,)
    assert e.metadata["name"] == f"{game}_v0"


def test_registered_names_and_game_keyword():
    import jass_env

    for game in GAMES:
        assert game_env(game).unwrapped.rules.game == game
        assert pettingzoo.make("aec", f"{game}_v0").unwrapped.rules.game == game
        assert jass_env.env(game=game).unwrapped.rules.name == game
    assert jass_env.env(rules="differenzler").unwrapped.rules.game == "differenzler"
    assert raw_env(game="differenzler", rule_overrides={"predictions": "open"}).rules.predictions == "open"
    with pytest.raises(RulesError, match="not for game='differenzler3'"):
        raw_env(rules="differenzler", game="differenzler3")
    with pytest.raises(RulesError, match="unknown game 'bieter'; games: ") as err:
        raw_env(game="bieter")                  # not a game of this project
    assert all(name in str(err.value) for name in SPECS)
    with pytest.raises(ValueError, match="valid rewards: points, win"):
        raw_env(game="differenzler", reward="tricks")


# masks
@pytest.mark.parametrize("game", GAMES)
def test_mask_is_the_engine_legal_set(game):
    e = raw_env(game=game, episode="match")
    e.reset(seed=4)
    rng = np.random.default_rng(1)
    predicting = playing = 0
    for _ in range(400):
        obs = e.observe(e.agent_selection)
        legal = ENGINE.legal_actions(e.core_state, e.rules.params)
        np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]), legal)
        view = StateView(e.core_state, e.rules.params)
        if view.phase == PHASE_PREDICT:
            predicting += 1
            assert list(legal) == list(range(PREDICT, PREDICT + N_PREDICTIONS))
        else:
            playing += 1
            assert set(legal) <= set(np.flatnonzero([view.hands[view.to_move] >> c & 1 for c in range(36)]))
        e.step(int(rng.choice(legal)))
    assert predicting and playing


def test_illegal_action_names_the_legal_predictions_briefly():
    e = raw_env(game="differenzler")
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"predict 0 \(36\) … predict 157 \(193\)"):
        e.step(0)                            # a card while predicting
    with pytest.raises(IllegalActionError, match="integers 0..193"):
        e.step(194)


# rewards
@pytest.mark.parametrize("game", GAMES)
def test_points_reward_is_minus_penalty_above_the_mean(game):
    n = SPECS[game].players
    e = raw_env(game=game)
    for seed in range(5):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for _agent in e.agent_iter():
            obs, _, term, _, _ = e.last()
            if term:
                e.step(None)
                continue
            e.step(int(np.random.default_rng(seed).choice(np.flatnonzero(obs["action_mask"]))))
            for a in e.possible_agents:
                totals[a] += e.rewards[a]
        view = StateView(e.core_state, e.rules.params)
        predictions = predictions_of(e.core_state, n)
        pen = [_penalty(predictions[p], view.points[p]) for p in range(n)]
        assert sum(view.points) == ROUND_POINTS
        expected = [-(pen[p] - sum(pen) / n) / ROUND_POINTS for p in range(n)]
        np.testing.assert_allclose([totals[a] for a in e.possible_agents], expected, atol=1e-12)
        assert abs(sum(totals.values())) < 1e-12


@pytest.mark.parametrize("game", GAMES)
def test_win_reward_in_a_game_pays_the_winner_only_at_the_end(game):
    n = SPECS[game].players
    e = raw_env(game=game, episode="match", reward="win")
    e.reset(seed=3)
    paid = []
    for _agent in e.agent_iter():
        obs, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        e.step(int(np.random.default_rng(len(paid)).choice(np.flatnonzero(obs["action_mask"]))))
        r = [e.rewards[a] for a in e.possible_agents]
        if any(r):
            paid.append(r)
    view = StateView(e.core_state, e.rules.params)
    w = view.match_winner
    assert view.rounds_done >= e.rules.match_rounds and w == int(np.argmin(view.match_score))
    assert paid == [[1.0 if p == w else -1.0 / (n - 1) for p in range(n)]]


# observation
@pytest.mark.parametrize("game", GAMES)
def test_slice_table_matches_the_documentation(game):
    doc = observation_differenzler.__doc__
    four = game == "differenzler"
    for name, offset, _, _ in obs_slices(SPECS[game]):
        row = next(line for line in doc.splitlines() if line.startswith(name + " "))
        documented = row.split()[1:4]                      # "offset4", "/", "offset3"
        assert int(documented[0 if four else 2]) == offset, name
    assert SLICES[game]["rounds_left"].stop == observation_differenzler.obs_dim(SPECS[game])


def _rel(player: int, me: int, n: int) -> int:
    return (player - me) % n


@pytest.mark.parametrize("game", GAMES)
def test_observation_reads_like_the_table(game):
    spec = SPECS[game]
    n = spec.players
    e = raw_env(game=game, episode="match")
    e.reset(seed=7)
    rng = np.random.default_rng(2)
    for _ in range(3 * n + 5):                  # predictions, then some cards
        me = int(e.agent_selection[-1])
        obs = e.observe(e.agent_selection)["observation"]
        view = StateView(e.core_state, e.rules.params)
        predictions = predictions_of(e.core_state, n)
        sl = {k: obs[v] for k, v in SLICES[game].items()}
        assert list(np.flatnonzero(sl["hand"])) == [c for c in range(36) if view.hands[me] >> c & 1]
        assert np.flatnonzero(sl["trump"]).tolist() == [view.contract]
        assert np.flatnonzero(sl["trump_card"]).tolist() == [view.trump_card]
        assert view.trump_card // 9 == view.contract and view.dealt[view.dealer] >> view.trump_card & 1
        assert np.flatnonzero(sl["dealer"]).tolist() == [_rel(view.dealer, me, n)]
        made = [p for p in range(n) if predictions[p] is not None]
        assert sorted(np.flatnonzero(sl["predicted"]).tolist()) == sorted(_rel(p, me, n) for p in made)
        if view.phase == PHASE_PREDICT:
            assert sl["phase"].tolist() == [1, 0] and not sl["leader"].any() and not sl["to_go"].any()
        else:
            assert sl["phase"].tolist() == [0, 1]
            assert np.flatnonzero(sl["leader"]).tolist() == [_rel(view.leader, me, n)]
            assert np.flatnonzero(sl["trick_number"]).tolist() == [view.trick_number]
            pred, pts = predictions[me], view.points[me]
            np.testing.assert_allclose(sl["to_go"], [max(pred - pts, 0) / 157, max(pts - pred, 0) / 157],
                                       rtol=1e-6)
            np.testing.assert_allclose(sl["my_prediction"], [pred / 157], rtol=1e-6)
        for i, c in enumerate(view.trick):
            assert sl["trick"][36 * _rel((view.leader + i) % n, me, n) + c] == 1
        assert sl["trick"].sum() == len(view.trick)
        assert sl["rounds_left"][0] == 1.0             # the first of 12 rounds is being played
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def _predicted_pair(game: str, owner: int, predictions: str):
    """Two raw_envs dealt alike in which every seat predicts the same except ``owner`` (10 vs
    90 points), then the same cards are played until the middle of trick 2."""
    envs = [raw_env(game=game, rule_overrides={"predictions": predictions}) for _ in range(2)]
    n = SPECS[game].players
    for k, e in enumerate(envs):
        e.reset(seed=21)
        rng = np.random.default_rng(5)
        for _ in range(n + n + 2):
            p = int(e.agent_selection[-1])
            view = StateView(e.core_state, e.rules.params)
            if view.phase == PHASE_PREDICT:
                e.step(PREDICT + ((10, 90)[k] if p == owner else 40 + p))
            else:
                e.step(int(rng.choice(ENGINE.legal_actions(e.core_state, e.rules.params))))
    return envs


@pytest.mark.parametrize("game", GAMES)
def test_a_hidden_prediction_never_shows_in_another_seats_observation(game):
    n = SPECS[game].players
    for owner in range(n):
        a, b = _predicted_pair(game, owner, "hidden")
        for p in range(n):
            oa, ob = (x.observe(f"player_{p}")["observation"] for x in (a, b))
            if p == owner:
                assert not np.array_equal(oa, ob)
            else:
                np.testing.assert_array_equal(oa, ob)
        assert not np.array_equal(a.state(), b.state())   # the critic's state holds it


@pytest.mark.parametrize("game", GAMES)
def test_open_predictions_show_in_every_observation(game):
    n = SPECS[game].players
    a, b = _predicted_pair(game, 0, "open")
    for p in range(n):
        oa, ob = (x.observe(f"player_{p}")["observation"] for x in (a, b))
        diff = np.flatnonzero(oa != ob)
        s = SLICES[game]
        where = {name for name, sl in s.items() for i in diff if sl.start <= i < sl.stop}
        assert "predictions" in where and where <= {"predictions", "my_prediction", "to_go"}


@pytest.mark.parametrize("game", GAMES)
def test_state_holds_every_hand_and_prediction(game):
    n = SPECS[game].players
    e = raw_env(game=game)
    e.reset(seed=2)
    _play(e, np.random.default_rng(0), until=lambda e: StateView(e.core_state, e.rules.params).phase
          == PHASE_PLAY)
    view = StateView(e.core_state, e.rules.params)
    predictions = predictions_of(e.core_state, n)
    me = view.to_move
    st = e.state()
    d = observation_differenzler.obs_dim(SPECS[game])
    np.testing.assert_array_equal(st[:d], e.observe(e.agent_selection)["observation"])
    for r in range(n):
        p = (me + r) % n
        assert np.flatnonzero(st[d + 36 * r:d + 36 * r + 36]).tolist() == \
            [c for c in range(36) if view.hands[p] >> c & 1]
        assert st[d + 36 * n + r] == np.float32(predictions[p] / 157)
    assert e.state_space.contains(st)


def test_random_suit_shows_no_trump_card():
    e = raw_env(game="differenzler3", rule_overrides={"trump_mode": "random_suit"})
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)["observation"]
    s = SLICES["differenzler3"]
    assert not obs[s["trump_card"]].any() and obs[s["trump"]].sum() == 1


def test_game_penalty_and_rounds_left_in_a_game():
    game = "differenzler3"
    e = raw_env(game=game, episode="match")
    e.reset(seed=8)
    rng = np.random.default_rng(3)
    seen_second_round = False
    for agent in e.agent_iter():
        obs, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        view = StateView(e.core_state, e.rules.params)
        if view.rounds_done == 1 and not seen_second_round:
            seen_second_round = True
            me = int(agent[-1])
            o = obs["observation"]
            np.testing.assert_allclose(o[SLICES[game]["rounds_left"]], [11 / 12], rtol=1e-6)
            expected = [view.match_score[(me + r) % 3] / (157 * 12) for r in range(3)]
            np.testing.assert_allclose(o[SLICES[game]["game_penalty"]], expected, rtol=1e-6)
        assert e.observation_space(agent)["observation"].contains(obs["observation"])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_second_round


# rendering
def test_render_shows_trump_card_predictions_and_penalties():
    e = raw_env(game="differenzler", render_mode="ansi")
    e.reset(seed=5)
    e.step(PREDICT + 33)
    text = e.render(show_hands=1)
    view = StateView(e.core_state, e.rules.params)
    assert "bottom card" in text and f"held by player_{view.dealer}" in text
    first = view.forehand
    assert f"player_{first} : 9 cards (hidden) | prediction hidden" in text
    assert "prediction 33" in e.render(show_hands="all")
    _play(e, np.random.default_rng(0))
    text = e.render(show_hands=None)
    assert "prediction 33" in text and "Penalties: " in text and "Round over" in text


# gymnasium
@pytest.mark.parametrize("game", GAMES)
def test_gym_wrapper(game):
    n = SPECS[game].players
    g = JassGymEnv(seat=n - 1, game=game)
    check_env(g, skip_render_check=True)
    obs, _ = g.reset(seed=0)
    total, done = 0.0, False
    while not done:
        mask = g.action_masks()
        assert mask.shape == (194,) and mask.any()
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        obs, r, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
        total += r
    view = StateView(g.aec.core_state, g.rules.params)
    predictions = predictions_of(g.aec.core_state, n)
    pen = [_penalty(predictions[p], view.points[p]) for p in range(n)]
    assert total == pytest.approx(-(pen[n - 1] - sum(pen) / n) / 157)
    with pytest.raises(ValueError, match="no partners"):
        JassGymEnv(game=game, partner=lambda o: 0)
    with pytest.raises(ValueError, match=f"sequence of {n - 1}"):
        JassGymEnv(game=game, opponents=[None, None, None, None])


# batched
@pytest.mark.parametrize("game", GAMES)
def test_vector_env_shapes_and_samples(game):
    spec = SPECS[game]
    n = spec.players
    v = VectorJassEnv(8, rules=game, episode="round", reward="win")
    obs, mask, seat = v.reset(seed=1)
    assert obs.shape == (8, observation_differenzler.obs_dim(spec)) and mask.shape == (8, 194)
    done = 0
    for _ in range(3 * (n + 36)):
        a = v.sample_actions()
        assert mask[np.arange(8), a].all()
        out = v.step(a)
        assert out.rewards.shape == (8, n) and out.final_score.shape == (8, n)
        np.testing.assert_allclose(out.rewards.sum(axis=1), 0, atol=1e-6)
        for i in np.flatnonzero(out.done):
            pen = out.final_score[i]
            lowest = np.flatnonzero(pen == pen.min())
            assert out.winner[i] == (lowest[0] if len(lowest) == 1 else n)     # n = a tie
            done += 1
        mask = out.mask
    assert done >= 16
    bad = v.sample_actions().copy()
    bad[0] = 194
    with pytest.raises(IllegalActionError, match="game 0"):
        v.step(bad)
    assert v.bytes_per_game <= 4096
