"""One conformance suite over every registered game (as PettingZoo runs its shared tests over all
environments): a game added to the registry gets these tests without new test code.

For every spec of :data:`jass_env.games.REGISTRY`: PettingZoo's ``api_test``, ``seed_test`` and
``render_test``; the batched env steps as the AEC env does; records written for random rounds
check clean; random play keeps the invariants of docs/rules.md "The deck" (a round's card points
are 157, every card of the game's deck is played once, a live turn always has a legal action); a
seat's observation does not change when two other players exchange hidden cards; every bot of
the game plays only legal actions. And the registry itself: every game declares its facts, the
compiled hooks know every game, every id is registered.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from agents.registry import agents_of, make_agent
from jass_env import REGISTRY, Round, VectorJassEnv, make_rules
from jass_env.engine import hooks
from jass_env.engine.cards import ROUND_POINTS
from jass_env.engine.positions import exchange_cards
from jass_env.engine.state import PHASE_PLAY, StateView
from jass_env.envs.aec import env, raw_env
from jass_env.envs.gym import JassGymEnv
from jass_env.games import PRESETS, game_of, presets_of
from jass_env.records import check_records, record_line, record_of

SPECS = [spec for game in REGISTRY.values() for spec in game.specs]


def _preset(spec: str) -> str:
    """The default preset of a game spec."""
    return presets_of(spec)[0]


def _random_action(obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    assert len(legal) > 0, "a live turn without a legal action"
    return int(rng.choice(legal))


# the registry
def test_every_game_has_a_preset_per_spec_and_its_statistic_follows_its_better_score() -> None:
    for game in REGISTRY.values():
        assert game.statistic.higher_is_better == (game.better == "higher")
        assert set(game.env_ids) == set(game.specs)
        for spec in game.specs:
            assert presets_of(spec), f"{spec} has no preset"
        for name, rules in game.presets.items():
            assert PRESETS[name] is rules and rules.spec.game == game.name


def test_the_compiled_hooks_know_every_registered_game_and_no_other() -> None:
    assert hooks.registered() == {game.kind: game.name for game in REGISTRY.values()}


@pytest.mark.parametrize("spec", SPECS)
def test_every_id_is_registered_with_pettingzoo_and_gymnasium(spec: str) -> None:
    aec_id, gym_id = game_of(spec).env_ids[spec]
    aec = pettingzoo.make("aec", aec_id)
    assert aec.unwrapped.rules.game == spec
    aec.close()
    e = gymnasium.make(gym_id)
    assert isinstance(e.unwrapped, JassGymEnv) and e.unwrapped.rules.game == spec
    e.close()


# environments
@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api(spec: str) -> None:
    api_test(env(game=spec), num_cycles=200)


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_seed(spec: str) -> None:
    seed_test(lambda: env(game=spec), num_cycles=100)


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_render(spec: str) -> None:
    render_test(lambda render_mode=None: env(game=spec, render_mode=render_mode))


@pytest.mark.parametrize("spec", SPECS)
def test_the_batched_env_steps_as_the_aec_env(spec: str) -> None:
    """Game i of the batched env, seeded as the AEC env, gives the same observation, mask and
    rewards at every step of the same actions, across auto-reset."""
    seeds = [11, 12]
    rules = make_rules(_preset(spec))
    vec = VectorJassEnv(len(seeds), rules=rules)
    out = vec.reset(seeds=seeds)
    aecs = [raw_env(rules=rules) for _ in seeds]
    for e, s in zip(aecs, seeds):
        e.reset(seed=s)
    rng = np.random.default_rng(0)
    players = rules.spec.players
    for _ in range(3 * rules.spec.tricks * players):
        actions = np.zeros(len(seeds), dtype=np.int64)
        for i, e in enumerate(aecs):
            agent = e.agent_selection
            obs = e.observe(agent)
            np.testing.assert_array_equal(out.obs[i], obs["observation"])
            np.testing.assert_array_equal(out.mask[i], obs["action_mask"].astype(bool))
            actions[i] = _random_action(obs, rng)
        step = vec.step(actions)
        for i, e in enumerate(aecs):
            e.step(int(actions[i]))
            np.testing.assert_allclose(step.rewards[i], [e.rewards[a] for a in e.possible_agents], rtol=1e-6)
            if step.done[i]:
                assert all(e.terminations.values())
                e.reset()
        out = step


# rounds
def _random_round(preset: str, seed: int) -> Round:
    r = Round(preset, seed=seed)
    rng = np.random.default_rng(seed)
    while not r.is_over:
        legal = r.legal_actions()
        assert len(legal) > 0, "a live turn without a legal action"
        r.step(int(rng.choice(legal)))
    return r


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_rounds_keep_the_invariants_of_the_deck(preset: str) -> None:
    """docs/rules.md "The deck": a round's cards are worth 157 points with the last trick's 5, and
    every card of the game's deck is played once."""
    spec = make_rules(preset).spec
    for seed in range(5):
        r = _random_round(preset, seed)
        played = [c for t in r.tricks for _, c in t["plays"]]
        assert len(played) == len(set(played)) == spec.tricks * spec.players
        assert sum(t["points"] for t in r.tricks) == sum(r.points) == ROUND_POINTS
        dealt = 0
        for p in range(spec.players):
            dealt |= r.view.dealt[p]
        assert bin(dealt).count("1") == spec.players * spec.hand_size


@pytest.mark.parametrize("preset", list(PRESETS))
def test_records_of_random_rounds_check_clean(preset: str) -> None:
    lines = [record_line(record_of(_random_round(preset, seed), id=seed)) for seed in range(4)]
    report = check_records(lines)
    assert report.records == 4 and report.disagreeing == 0, [str(f) for f in report.findings]


@pytest.mark.parametrize("spec", [s for s in SPECS if game_of(s).specs[s].players >= 3])
def test_a_seat_does_not_see_other_players_exchange_hidden_cards(spec: str) -> None:
    """At the first card of a round (after the bidding), two other players exchange a card each:
    the observation of the player to move is the same. (With two players there is one other hand:
    its cards are the complement of what the seat sees, or change places with a stock, which the
    game's own tests exchange, as Sidi's do.)"""
    for seed in range(3):
        e = raw_env(rules=_preset(spec))
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        view = StateView(e.core_state, e.rules.params)
        while view.phase != PHASE_PLAY or view.trick_number or view.cards_in_trick:
            e.step(_random_action(e.observe(e.agent_selection), rng))
        me = view.to_move
        others = [p for p in range(view.players) if p != me][:2]
        shown = -1 if view.trump_card is None else view.trump_card
        a = next(c for c in range(36) if view.hands[others[0]] >> c & 1 and c != shown)
        b = next(c for c in range(36) if view.hands[others[1]] >> c & 1 and c != shown)
        before = e.observe(e.agent_selection)["observation"].copy()
        exchange_cards(e.core_state, others[0], a, others[1], b)
        np.testing.assert_array_equal(e.observe(e.agent_selection)["observation"], before)


# bots
def _bot_specs(spec: str, folder: Path) -> list[str]:
    """Every agent that plays the game, small where it searches (the ONNX agent needs a file); the
    search rolls out with the shipped policy, or a random-weights one where the spec ships none."""
    search = "search:worlds=2,candidates=2"
    if spec not in game_of(spec).checkpoints:
        from agents.policy import write_random_checkpoint

        search += f",checkpoint={write_random_checkpoint(folder / 'random.pt', game=spec)}"
    small = {"pimc": "pimc:worlds=2", "search": search, "ismcts": "ismcts:simulations=2"}
    return [small.get(n, n) for n in agents_of(_preset(spec)) if n != "onnx"]


@pytest.mark.parametrize("spec", SPECS)
def test_every_bot_of_the_game_plays_whole_rounds_legally(spec: str, tmp_path: Path) -> None:
    preset = _preset(spec)
    for bot in _bot_specs(spec, tmp_path):
        agents = [make_agent(bot, preset, seed=p) for p in range(make_rules(preset).spec.players)]
        e = env(rules=preset)
        e.reset(seed=3)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            action = None if term or trunc else agents[int(agent.split("_")[1])].act(obs)
            assert action is None or obs["action_mask"][action], f"{bot} chose the illegal action {action}"
            e.step(action)
