"""The PettingZoo AEC environment (jass_env.envs.aec): API conformance, observations, masks, rewards,
illegal actions, both episode modes, rendering."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from jass_env.engine.cards import card_id
from jass_env.engine.positions import exchange_cards
from jass_env.engine.state import PHASE_OVER, StateView
from jass_env.engine.switches import RulesError
from jass_env.engine.transitions import for_game
from jass_env.envs.aec import env, raw_env
from jass_env.games import SCHIEBER_PRESETS, make_rules
from jass_env.games.schieber.observation import (
    OBS_DIM,
    SLICES,
    STATE_DIM,
    encode_observation,
    observation_high,
)
from jass_env.round import IllegalActionError, Round

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SCHIEBER = make_rules("schieber").spec
#: Schieber's agents, in play order
AGENTS = tuple(f"player_{p}" for p in range(SCHIEBER.players))
ENGINE = for_game(SCHIEBER.kind)


def _view(st: np.ndarray, rules=None) -> StateView:
    """Named reads of a state (Schieber unless ``rules`` say otherwise)."""
    return StateView(st, make_rules(rules).params)


def random_play(e, rng: np.random.Generator, max_steps: int = 10**9):
    """Drive an AEC env with random legal actions; yields (agent, obs) before each live step."""
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        yield agent, obs
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if steps >= max_steps:
            return


# PettingZoo tests
@pytest.mark.parametrize("kwargs", [
    {}, {"episode": "match", "reward": "win"}, {"reward": "tricks", "rules": "seed_nl"},
    {"rules": "schieber_2500", "episode": "match", "reward": "points"},
])
def test_pettingzoo_api(kwargs):
    api_test(env(**kwargs), num_cycles=300)


def test_pettingzoo_api_raw_env():
    api_test(raw_env(episode="match", rules="tournament"), num_cycles=600)


def test_pettingzoo_seed():
    seed_test(lambda: env(), num_cycles=200)
    seed_test(lambda: env(episode="match", reward="tricks"), num_cycles=200)


def test_pettingzoo_render():
    render_test(lambda render_mode=None: env(render_mode=render_mode),
                custom_tests={"ansi": lambda s: isinstance(s, str) and "player_0" in s
                              and any(sym in s for sym in "♦♥♠♣")})


def test_max_cycles_equivalent():
    """PettingZoo's max_cycles_test needs ``mod.parallel_env(max_cycles=...)`` and an env that
    truncates after max_cycles; jass_v0 is AEC-only (is_parallelizable False) and a round has a
    fixed length, so it has no max_cycles. The equivalent here: a round episode takes exactly 36
    card actions (9 per agent) plus 1 or 2 contract actions, then each agent gets exactly one
    dead step and agent_iter stops."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        e = env()
        e.reset(seed=seed)
        live = dict.fromkeys(AGENTS, 0)
        dead = dict.fromkeys(AGENTS, 0)
        cards = dict.fromkeys(AGENTS, 0)
        for agent in e.agent_iter(1000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                dead[agent] += 1
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            a = int(legal[rng.integers(len(legal))])
            live[agent] += 1
            cards[agent] += a < 36
            e.step(a)
        assert not e.agents
        assert all(cards[a] == 9 for a in AGENTS)
        assert sum(live.values()) - 36 in (1, 2)
        assert all(d == 1 for d in dead.values())


def test_metadata_agents_spaces():
    e = raw_env()
    assert e.metadata["name"] == "jass_v0"
    assert e.metadata["render_modes"] == ["human", "ansi"]
    assert e.metadata["is_parallelizable"] is False
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    e.reset(seed=0)
    for a in AGENTS:
        assert e.action_space(a).n == 43
        sp = e.observation_space(a)
        assert sp["observation"].shape == (OBS_DIM,) and sp["observation"].dtype == np.float32
        assert sp["action_mask"].shape == (43,) and sp["action_mask"].dtype == np.int8
        assert e.observation_space(a) is sp
    assert e.state_space.shape == (STATE_DIM,)
    assert pickle.loads(pickle.dumps(e)).rules == e.rules


# arguments
def test_bad_arguments_list_what_is_valid():
    valid = "valid keywords: rules, rule_overrides, episode, reward, render_mode"
    with pytest.raises(TypeError, match=valid):
        env(episodes="round")
    with pytest.raises(TypeError, match="valid keywords"):
        raw_env(max_cycles=4)
    with pytest.raises(ValueError, match="valid episodes: round, match"):
        env(episode="game")
    with pytest.raises(ValueError, match="valid rewards: points, win, tricks"):
        env(reward="score")
    with pytest.raises(ValueError, match="human, ansi"):
        env(render_mode="rgb_array")
    with pytest.raises(RulesError, match="valid presets"):
        env(rules="bogus")
    with pytest.raises(RulesError, match="valid switches"):
        env(rule_overrides={"stock": 0})
    with pytest.raises(RulesError, match="allowed"):
        env(rule_overrides={"stoeck": -5})
    with pytest.raises(RulesError, match="dict"):
        env(rule_overrides=[("stoeck", 0)])


def test_rule_overrides_apply():
    e = raw_env("schieber", rule_overrides={"stoeck": 0, "push": False})
    assert e.rules.stoeck == 0 and not e.rules.push
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"][42] == 0 and obs["action_mask"][36:42].sum() == 6
    assert raw_env(make_rules("seed_vaud")).rules.name == "seed_vaud"


# a hand-built position
HANDS = [
    ["DA", "DQ", "D10", "D8", "H6", "H8", "H10", "SA", "CA"],   # player 0, forehand
    ["DK", "DJ", "D9", "D7", "H7", "H9", "SK", "SJ", "CK"],     # player 1
    ["S6", "S7", "S8", "HK", "HQ", "D6", "C6", "C8", "C10"],    # player 2: Weis S6-S7-S8, Stöck (hearts)
    ["HA", "HJ", "SQ", "S10", "S9", "CQ", "CJ", "C9", "C7"],    # player 3
]
MOVES = ["push", "H",                     # player 0 pushes, player 2 names hearts trump
         "D8", "DK", "HQ", "C7",          # trick 1: 2 trumps instead of following, 3 shows a ♦ void
         "HK", "HA"]                      # trick 2: player 2 leads HK (Stöck shown), player 3 follows


def built_position() -> Round:
    r = Round("schieber", hands=HANDS, dealer=3)
    for m in MOVES:
        r.step(m)
    return r


def cards(*names: str) -> set[int]:
    return {card_id(n) for n in names}


def test_position_is_as_intended():
    r = built_position()
    assert r.pushed and r.declarer == 2 and r.contract == "H"
    assert r.trick_number == 1 and r.to_move == 0 and r.leader == 2
    assert r.weis_team == 0 and r.weis_points == [20, 0]
    assert r.stoeck_player == 2 and r.stoeck_shown
    assert r.points == [7, 0] and r.score == [47, 0]


def test_observation_slices_on_built_position():
    r = built_position()
    e = raw_env()
    e.set_state(r.state)
    assert e.agent_selection == "player_0"
    obs = e.observe("player_1")["observation"]          # observer 1: rel seat r = (p - 1) % 4
    rel = {1: 0, 2: 1, 3: 2, 0: 3}

    def expect_cards(name: str, per_seat: dict[int, set[int]] | set[int]) -> None:
        got = obs[SLICES[name]]
        if isinstance(per_seat, set):
            want = np.zeros(36, np.float32)
            want[list(per_seat)] = 1
        else:
            want = np.zeros((4, 36), np.float32)
            for p, cs in per_seat.items():
                want[rel[p], list(cs)] = 1
            want = want.ravel()
        np.testing.assert_array_equal(got, want, err_msg=name)

    def expect(name: str, values: list[float]) -> None:
        np.testing.assert_allclose(obs[SLICES[name]], np.array(values, np.float32), rtol=1e-6, err_msg=name)

    expect_cards("hand", cards("DJ", "D9", "D7", "H7", "H9", "SK", "SJ", "CK"))
    expect_cards("played", {1: cards("DK"), 2: cards("HQ", "HK"), 3: cards("C7", "HA"), 0: cards("D8")})
    expect_cards("trick", {2: cards("HK"), 3: cards("HA")})
    voids = np.zeros((4, 4))
    voids[rel[3], 0] = 1                                  # player 3 showed no ♦
    expect("voids", list(voids.ravel()))
    expect_cards("weis_public", {2: cards("S6", "S7", "S8")})
    expect("contract", [0, 1, 0, 0, 0, 0])
    expect("phase", [0, 0, 1])
    expect("pushed", [1])
    expect("declarer", [0, 1, 0, 0])                     # player 2 = rel 1
    expect("forehand", [0, 0, 0, 1])                     # player 0 = rel 3
    expect("leader", [0, 1, 0, 0])
    expect("trick_number", [0, 1, 0, 0, 0, 0, 0, 0, 0])
    expect("card_points", [0, 7 / 157])
    expect("weis_points", [0, 20 / 157])
    expect("stoeck", [0, 1, 0, 0])
    expect("round_score", [0, 47 / 157])
    expect("match", [0, 0, 0])
    expect("multiplier", [1 / 4])
    assert sum(n for _, n in [(k, s.stop - s.start) for k, s in SLICES.items()]) == OBS_DIM
    # not to move: empty mask; to move: exactly the legal trumps on a trump lead
    assert e.observe("player_1")["action_mask"].sum() == 0
    mask = e.observe("player_0")["action_mask"]
    assert set(mask.nonzero()[0]) == cards("H6", "H8", "H10")
    # the same vector as the encoder called directly
    direct = np.empty(OBS_DIM, np.float32)
    encode_observation(r.state, 1, r.rp, direct)
    np.testing.assert_array_equal(obs, direct)


def test_observation_ignores_hidden_cards():
    r = built_position()
    st2 = r.state.copy()
    # swap unplayed, non-public cards: player 0's SA <-> player 3's SQ, player 0's CA <-> player 2's C10
    for (p, a), (q, b) in [((0, "SA"), (3, "SQ")), ((0, "CA"), (2, "C10"))]:
        exchange_cards(st2, p, card_id(a), q, card_id(b))
    e1, e2 = raw_env(), raw_env()
    e1.set_state(r.state)
    e2.set_state(st2)
    for p in (1,):
        o1, o2 = e1.observe(AGENTS[p]), e2.observe(AGENTS[p])
        np.testing.assert_array_equal(o1["observation"], o2["observation"])
        np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"])
    # the swap is real: the hidden hands differ, so observer 0 and the full state see it
    assert not np.array_equal(e1.observe("player_0")["observation"], e2.observe("player_0")["observation"])
    assert not np.array_equal(e1.state(), e2.state())


def test_state_is_full_information_and_not_in_observation():
    r = built_position()
    e = raw_env()
    e.set_state(r.state)
    s = e.state()
    assert s.shape == (STATE_DIM,) and s.dtype == np.float32 and e.state_space.contains(s)
    np.testing.assert_array_equal(s[:OBS_DIM], e.observe("player_0")["observation"])
    hands = s[OBS_DIM:].reshape(4, 36)
    for rel_seat in range(4):
        want = np.zeros(36, np.float32)
        want[[card_id(c) for c in r.hand(rel_seat)]] = 1      # agent to move is player 0
        np.testing.assert_array_equal(hands[rel_seat], want)
    obs = e.observe("player_0")
    assert set(obs) == {"observation", "action_mask"} and obs["observation"].shape == (OBS_DIM,)


def test_set_state_errors():
    e = raw_env()
    with pytest.raises(ValueError, match="shape"):
        e.set_state(np.zeros(5, np.int64))
    with pytest.raises(ValueError, match="episode='match'"):
        raw_env(episode="match").set_state(built_position().state)


# masks
@pytest.mark.parametrize("preset", list(SCHIEBER_PRESETS))
def test_masks_equal_engine_legal_sets(preset):
    rng = np.random.default_rng(1)
    e = raw_env(preset, episode="match" if preset == "tournament" else "round")
    e.reset(seed=5)
    steps = 0
    while steps < 2500:
        for agent, obs in random_play(e, rng):
            legal = ENGINE.legal_actions(e.core_state, e.rules.params)
            assert agent == AGENTS[StateView(e.core_state, e.rules.params).to_move]
            assert obs["action_mask"].dtype == np.int8
            assert list(obs["action_mask"].nonzero()[0]) == list(legal)
            other = AGENTS[(AGENTS.index(agent) + 1) % 4]
            assert e.observe(other)["action_mask"].sum() == 0
            assert e.observation_space(agent).contains(obs)
            steps += 1
        e.reset()


# rewards
@pytest.mark.parametrize("reward", ["points", "win", "tricks"])
@pytest.mark.parametrize("episode", ["round", "match"])
def test_rewards_zero_sum(reward, episode):
    rng = np.random.default_rng(2)
    e = raw_env(episode=episode, reward=reward)
    e.reset(seed=3)
    nonzero = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[rng.integers(len(legal))]))
        r = e.rewards
        assert set(r) == set(AGENTS)
        assert r["player_0"] == r["player_2"] == -r["player_1"] == -r["player_3"]
        assert sum(r.values()) == 0
        nonzero += r["player_0"] != 0
    assert nonzero >= 1


def collect_returns(reward: str, seed: int, episode: str = "round") -> tuple[dict[str, float], np.ndarray]:
    """Play a seeded episode with a seeded policy; sum every agent's rewards via last()."""
    rng = np.random.default_rng(seed)
    e = raw_env(episode=episode, reward=reward)
    e.reset(seed=seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, rew, term, trunc, _ = e.last()
        returns[agent] += rew
        if term or trunc:
            final = e.core_state.copy()
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[rng.integers(len(legal))]))
    return returns, final


@pytest.mark.parametrize("seed", range(5))
def test_tricks_total_equals_points_total(seed):
    points, st = collect_returns("points", seed)
    tricks, st2 = collect_returns("tricks", seed)
    np.testing.assert_array_equal(st, st2)                   # the same deal and play
    score = (_view(st).score[0] - _view(st).score[1]) / 157
    for p, a in enumerate(AGENTS):
        sign = 1 if p % 2 == 0 else -1
        assert points[a] == pytest.approx(sign * score)
        assert tricks[a] == pytest.approx(points[a])


def test_win_reward_round_and_match():
    returns, st = collect_returns("win", 4)
    diff = _view(st).score[0] - _view(st).score[1]
    assert returns["player_0"] == np.sign(diff) and returns["player_1"] == -np.sign(diff)
    returns, st = collect_returns("win", 4, episode="match")
    w = _view(st).match_winner
    assert w in (0, 1)
    assert returns["player_0"] == (1.0 if w == 0 else -1.0) and returns["player_3"] == -returns["player_0"]


# episodes
def test_round_episode_terminates_all_at_round_end():
    e = raw_env()
    e.reset(seed=9)
    for _ in random_play(e, np.random.default_rng(0)):
        pass
    assert _view(e.core_state).phase == PHASE_OVER and not e.agents


@pytest.mark.parametrize("preset", ["schieber", "tournament", "seed_nl"])
def test_match_episode_plays_rounds_until_decided(preset):
    e = raw_env(preset, episode="match", reward="points")
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    rounds_seen = set()
    terminated_while_undecided = False
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        st = _view(e.core_state, e.rules)
        if term:
            terminated_while_undecided |= st.match_winner is None
            e.step(None)
            continue
        rounds_seen.add(st.rounds_done)
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[rng.integers(len(legal))]))
    rules = e.rules
    st = _view(e.core_state, rules)
    assert not terminated_while_undecided
    assert st.match_winner >= 0
    assert len(rounds_seen) > 1 or preset == "seed_nl"      # seed_nl (×4) can end in one round
    if rules.match_rounds:
        assert st.rounds_done == rules.match_rounds
    else:
        assert max(st.match_score) >= rules.target
    high = observation_high(rules)
    assert np.all(high >= 1.0) and np.all(np.isfinite(high))


def test_reset_without_seed_continues_the_stream():
    a, b = raw_env(), raw_env()
    a.reset(seed=7)
    b.reset(seed=7)
    a.reset()
    b.reset()
    np.testing.assert_array_equal(a.core_state, b.core_state)
    c = raw_env()
    c.reset(seed=7)
    assert not np.array_equal(a.core_state[:4], c.core_state[:4])


# illegal actions
def test_raw_env_illegal_action_raises_naming_agent_action_and_legal():
    e = raw_env()
    e.set_state(built_position().state)
    with pytest.raises(IllegalActionError) as err:
        e.step(card_id("DA"))
    msg = str(err.value)
    assert "player_0" in msg and "DA (action 0)" in msg
    assert "H10 (13)" in msg and "H8 (15)" in msg and "H6 (17)" in msg
    with pytest.raises(IllegalActionError, match="integers 0..42"):
        e.step(43)
    with pytest.raises(IllegalActionError, match="integers 0..42"):
        e.step("H6")
    e.step(np.int32(card_id("H8")))                          # numpy integers are fine
    assert e.agent_selection == "player_1"


def test_env_illegal_action_terminates_offender_with_penalty():
    e = env()
    e.reset(seed=3)
    offender = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e._cumulative_rewards[offender] == -1
    assert all(e._cumulative_rewards[a] == 0 for a in AGENTS if a != offender)
    seen = []
    for agent in e.agent_iter():
        _, rew, term, _, _ = e.last()
        assert term
        seen.append((agent, rew))
        e.step(None)
    assert sorted(a for a, _ in seen) == sorted(AGENTS)
    assert dict(seen)[offender] == -1


def test_env_illegal_action_warning_names_the_action_and_the_legal_actions():
    e = env()
    e.reset(seed=3)
    offender = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match=rf"{offender} may not play .* \(action {illegal}\) now; "
                                         rf"legal actions: .*the episode ends, {offender} gets -1"):
        e.step(illegal)


@pytest.mark.parametrize("action", [43, -1, np.int64(99), 2**70])
def test_env_refuses_an_action_outside_the_space_before_anything_changes(action):
    """Not PettingZoo's bare assertion (gone under ``python -O``, then an IndexError): the wrapped
    env names the action, the allowed range and the legal actions, and stays usable."""
    e = env()
    e.reset(seed=0)
    before = e.unwrapped.core_state.copy()
    agent = e.agent_selection
    with pytest.raises(IllegalActionError, match=rf"{agent}: action {int(action)} is out of range; actions "
                                                 r"are integers 0..42; legal actions now: .*push \(42\)"):
        e.step(action)
    assert np.array_equal(e.unwrapped.core_state, before) and not any(e.terminations.values())
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))      # and a legal action still plays
    assert not np.array_equal(e.unwrapped.core_state, before)



@pytest.mark.parametrize("make", [raw_env, env])
def test_a_bool_is_not_an_action(make):
    e = make()
    e.reset(seed=3)
    before = e.unwrapped.core_state.copy()
    for flag in (True, np.True_):
        with pytest.raises(IllegalActionError, match=r"is a bool, not an action; actions are integers 0..42"):
            e.step(flag)
    assert np.array_equal(e.unwrapped.core_state, before) and not any(e.terminations.values())


def test_step_and_last_outside_an_episode_are_named_errors():
    e = raw_env()
    for call in (lambda: e.step(0), e.last):
        with pytest.raises(RuntimeError, match=r"before reset\(\); call reset\(\)"):
            call()
    e.reset(seed=2)
    for _ in random_play(e, np.random.default_rng(0)):
        pass
    assert e.agents == []                               # the episode is over
    for call in (lambda: e.step(0), lambda: e.step(None), e.last):
        with pytest.raises(RuntimeError, match=r"after the episode ended .*call reset\(\)"):
            call()
    e.reset(seed=2)                                     # and a new episode starts normally
    assert e.last()[0]["action_mask"].any()


@pytest.mark.parametrize("make", [raw_env, env])
def test_views_before_reset_say_to_call_reset(make):
    """observe(), state() and render() before the first reset() deal nothing to look at: a
    RuntimeError saying so (not an AttributeError, nor PettingZoo's AssertionError)."""
    e = make(render_mode="ansi")
    for call in (lambda: e.observe("player_0"), e.state, e.render):
        with pytest.raises(RuntimeError, match=r"before reset\(\); call reset\(\)"):
            call()
    e.reset(seed=1)
    assert e.observe("player_0")["observation"].shape == (e.unwrapped._obs_dim,)
    assert e.state().shape == e.unwrapped.state_space.shape and "To move: " in e.render()


@pytest.mark.parametrize("make", [raw_env, env])
def test_an_unknown_agent_is_named_with_the_agents(make):
    e = make()
    e.reset(seed=1)
    for agent in ("player_4", "player0", 0, ["player_0"]):
        for call in (e.observe, e.action_space, e.observation_space):
            with pytest.raises(ValueError, match=r"unknown agent .*player_0, player_1, player_2, player_3"):
                call(agent)
    assert e.observe("player_3")["action_mask"].shape == (43,)


def test_the_wrapped_env_names_step_and_last_after_the_episode_too():
    e = env()
    e.reset(seed=2)
    for _ in random_play(e, np.random.default_rng(0)):
        pass
    assert e.agents == []
    for call in (lambda: e.step(0), e.last):
        with pytest.raises(RuntimeError, match=r"after the episode ended .*call reset\(\)"):
            call()
    e.reset(seed=2)
    assert e.last()[0]["action_mask"].any()


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_reset_rejects_a_seed_that_is_not_a_non_negative_integer(seed):
    with pytest.raises(ValueError, match=r"seed must be a non-negative integer or None, got "):
        raw_env().reset(seed=seed)

# rendering
def test_render_ansi_shows_table():
    e = raw_env(render_mode="ansi")
    e.set_state(built_position().state)
    text = e.render()
    assert "♥ trump" in text and "declared by player_2" in text and "pushed by player_0" in text
    assert "♠6" in text and "(20)" in text                   # the scoring Weis
    assert "Stöck: player_2 (+20, shown)" in text
    assert "player_2 ♥K · player_3 ♥A" in text              # the current trick
    assert "team 0 7" in text and "round score 47 : 0" in text
    assert "To move: player_0" in text
    for card in ("♦A", "♦J", "♠6"):
        assert card in text


def test_render_human_prints(capsys):
    e = raw_env(render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    assert "player_0" in capsys.readouterr().out
