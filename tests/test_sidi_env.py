"""The Sidi environments: PettingZoo API, the 37-action layout and its mask, the documented
observation (jass_env/games/sidi/observation.py: open trump card, face-up card, stock size, the cards a
seat is known to hold), state() with the stock order, zero-sum rewards for the two players,
rendering, the Gymnasium wrapper and the batched environment (its step-by-step equality with the
AEC one is in test_vector.py).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test
from test_sidi import ALL_TRICKS_H0, ALL_TRICKS_H1, ALL_TRICKS_STOCK, H0, H1, losing_card, sidi_round

from jass_env import Round
from jass_env.engine.cards import card_id
from jass_env.engine.spec import SPECS
from jass_env.engine.state import StateView
from jass_env.envs import encoding
from jass_env.envs.aec import env, game_env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.envs.vector import VectorJassEnv
from jass_env.games.sidi.observation import LAYOUTS, obs_dim, state_dim
from jass_env.render import render_table

SPEC = SPECS["sidi"]
S = LAYOUTS.of(SPEC).slices
EXCHANGE = 36


def _observe(r, observer: int) -> np.ndarray:
    out = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    r.game.observation.encode_observation(r.state, observer, r.rp, out)
    return out


def _cards(o: np.ndarray, name: str) -> set[int]:
    return set(np.flatnonzero(o[S[name]]).tolist())


def test_pettingzoo_api_seed_and_render() -> None:
    api_test(env(game="sidi"), num_cycles=300)
    api_test(env(game="sidi", episode="match", reward="win"), num_cycles=300)
    seed_test(lambda: env(game="sidi"), num_cycles=300)
    render_test(lambda render_mode=None: env(game="sidi", render_mode=render_mode))


def test_spaces_names_and_the_exchange_action() -> None:
    e = raw_env(game="sidi")
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.action_space("player_0").n == 37 and SPEC.action_names[EXCHANGE] == "exchange trump 6"
    assert e.observation_space("player_0")["observation"].shape == (obs_dim(SPEC),)
    assert e.state_space.shape == (state_dim(SPEC),) == (obs_dim(SPEC) + 36 * 2 + 36 * 20,)
    assert e.metadata["name"] == "sidi_v0" and game_env("sidi").unwrapped.rules.game == "sidi"
    assert set(raw_env(game="sidi", reward="tricks").rules.switches()) == set(e.rules.switches())


def test_the_mask_offers_the_exchange_only_to_the_leading_holder_of_the_6() -> None:
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    e = raw_env(game="sidi")
    e.set_state(r.state)
    mask = e.observe("player_1")["action_mask"]
    assert mask[EXCHANGE] == 1 and mask.sum() == 9          # 8 cards + the exchange
    assert not e.observe("player_0")["action_mask"].any()   # not to move
    e.step(EXCHANGE)
    assert e.observe("player_1")["action_mask"][EXCHANGE] == 0


def test_the_observation_reads_like_the_table() -> None:
    """Player 1 exchanges the ♥6 for the face-up ♥A: both see the ♥A in his hand as known and the
    ♥6 face up; after ten tricks the ♥6 is drawn by player 0 (known to player 1)."""
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    o = _observe(r, 0)
    assert _cards(o, "trump_card") == _cards(o, "face_up") == {card_id("HA")}
    assert list(o[S["trump"]]) == [0, 1, 0, 0] and o[S["stock_left"]][0] == 1.0
    assert _cards(o, "hand") == {card_id(c) for c in ALL_TRICKS_H0}
    assert list(o[S["dealer"]]) == [1, 0] and list(o[S["leader"]]) == [0, 1]
    r.step("exchange trump 6")
    o = _observe(r, 0)                                        # relative seat 1 = player 1
    assert _cards(o, "face_up") == {card_id("H6")} and list(o[S["exchanged"]]) == [0, 1]
    assert not o[S["known"]][:36].any() and set(np.flatnonzero(o[S["known"]][36:])) == {card_id("HA")}
    r.step("HA")
    r.step(losing_card(r))
    o = _observe(r, 0)
    assert not o[S["known"]].any()                            # the ♥A is played
    np.testing.assert_allclose(o[S["weis"]], [0, 250 / 157], rtol=1e-6)   # public after trick 1
    assert o[S["stock_left"]][0] == pytest.approx(18 / 20)
    leads = ["HK", "HQ", "HJ", "H10", "H9", "H8", "DA", "SA", "CA"]
    for lead in leads:
        r.step(lead)
        r.step(losing_card(r))
    o1 = _observe(r, 1)                                       # player 1: relative seat 1 = player 0
    assert o1[S["stock_left"]][0] == 0 and not o1[S["face_up"]].any()
    assert set(np.flatnonzero(o1[S["known"]][36:])) == {card_id("H6")}
    assert o1[S["stoeck"]][0] == 1.0                          # his own Stöck is shown


def test_state_holds_both_hands_and_the_stock_still_to_draw_top_first() -> None:
    r = sidi_round(H0, H1, top=["CK", "CJ"], face_up="H10")
    e = raw_env(game="sidi")
    e.set_state(r.state)
    base = obs_dim(SPEC)
    state = e.state()
    hands = state[base:base + 72].reshape(2, 36)              # from the mover's seat (player 1)
    assert set(np.flatnonzero(hands[0])) == {card_id(c) for c in H1}
    stock = state[base + 72:].reshape(20, 36)
    assert [int(np.flatnonzero(row)[0]) for row in stock] == [card_id(c) for c in r.stock]
    e.step(card_id("DA"))
    e.step(card_id("D6"))                                     # both drew: 18 left, from the third card
    stock = e.state()[base + 72:].reshape(20, 36)
    assert [int(np.flatnonzero(row)[0]) for row in stock[:18]] == [card_id(c) for c in r.stock[2:]]
    assert not stock[18:].any()


@pytest.mark.parametrize("reward", ["points", "tricks", "win"])
def test_rewards_are_zero_sum_and_pay_the_score_difference(reward: str) -> None:
    e = raw_env(game="sidi", reward=reward)
    rng = np.random.default_rng(4)
    for seed in range(3):
        e.reset(seed=seed)
        total = np.zeros(2)
        while not all(e.terminations.values()):
            obs = e.observe(e.agent_selection)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += [e.rewards[a] for a in e.possible_agents]
        score = StateView(e.core_state, e.rules.params).score
        diff = score[0] - score[1]
        expected = np.sign(diff) if reward == "win" else diff / 157
        np.testing.assert_allclose(total, [expected, -expected], atol=1e-6)


def test_render_shows_the_stock_the_exchange_and_known_cards() -> None:
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    r.step("exchange trump 6")
    text = render_table(r.state, r.rules, show_hands=0)
    assert "Trump: ♥, turned card ♥A; stock 20 cards on ♥6 (face up)" in text
    assert "player_1 exchanged the trump 6 before trick 1" in text
    assert "player_1 : 8 cards (hidden) | known to hold ♥A" in text
    assert "♥K ♥Q ♥J" not in text                             # Weis hidden until trick 1 is over


def test_gym_wrapper() -> None:
    g = JassGymEnv(seat=1, game="sidi")
    check_env(g, skip_render_check=True)
    g.reset(seed=0)
    done = False
    while not done:
        mask = g.action_masks()
        assert mask.shape == (37,) and mask.any()
        _, _, done, _, _ = g.step(int(np.flatnonzero(mask)[0]))
    assert gymnasium.make("jass_env/Sidi-v0").unwrapped.rules.game == "sidi"


def test_vector_env_shapes_and_zero_sum_rewards() -> None:
    v = VectorJassEnv(4, rules="sidi", episode="round", reward="win")
    obs, mask, _ = v.reset(seed=1)
    assert obs.shape == (4, obs_dim(SPEC)) and mask.shape == (4, 37)
    done = 0
    for _ in range(3 * 37):
        out = v.step(v.sample_actions())
        np.testing.assert_allclose(out.rewards.sum(axis=1), 0, atol=1e-6)
        done += int(out.done.sum())
    assert done >= 4


@pytest.mark.parametrize("seed", range(4))
def test_a_seat_does_not_see_which_hidden_cards_are_the_opponents_and_which_the_stocks(seed: int) -> None:
    """The hidden cards are the opponent's hand and the stock under the face-up card: exchanging a
    card of the opponent's hand with one still in the stock leaves the mover's observation as it
    was."""
    r = Round("sidi", seed=seed)
    me = r.to_move
    opp = 1 - me
    hidden_stock = r.stock[:-1]                    # the last card lies face up
    a, b = r.hand(opp)[0], hidden_stock[seed]
    hands = [r.hand(p) for p in (0, 1)]
    hands[opp] = [b if c == a else c for c in hands[opp]]
    swapped = Round("sidi", hands=hands, dealer=r.dealer)
    swapped.set_stock([a if c == b else c for c in r.stock])
    assert swapped.to_move == me and swapped.hand(me) == r.hand(me)
    np.testing.assert_array_equal(_observe(swapped, me), _observe(r, me))
