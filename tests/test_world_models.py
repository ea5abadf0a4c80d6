"""The contract of a game's search worlds (agents/search/world_model.py), checked for every spec whose
game builds them, as PettingZoo's API test is run over every environment: a game added later with a
``worlds`` entry in its BOTS fact is checked here without edits.

At a decision of a real round, a world is the round as the seat to move knows it, the cards it has
not seen dealt at random: the searcher is player 0 and to move, holds its real hand, has its real
legal actions, every other seat holds as many cards as its real seat, no card is in two places, and
from the world every legal action and then any play finishes the round. The same generator state
gives the same worlds; ``counts`` say how many draws each world stands for.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.random_bot import RandomAgent
from agents.registry import WORLDS_KEY, bot_path
from agents.search.world_model import WorldModel, world_model_class
from jass_env import Round, make_rules
from jass_env.engine.state import PHASE_OVER, hand_of, phase, played_by, to_move
from jass_env.engine.switches import RP_DECK
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import REGISTRY, game_of, presets_of
from jass_env.games.base import OUTSIDE_KINDS

#: every spec whose game builds search worlds for it
SPECS = [spec for game in REGISTRY.values() for spec in game.specs
         if bot_path(WORLDS_KEY, make_rules(presets_of(spec)[0])) is not None]
WORLDS = 4
#: decisions checked per spec (every third decision of a random round, from the first)
DECISIONS = 8


def seen(r: Round) -> dict[str, np.ndarray]:
    """The seat to move's observation dict, as the environments give it."""
    obs = np.zeros(obs_dim(r.rules), dtype=np.float32)
    game_of(r.rules).observation.encode_observation(r.state, r.to_move, r.rp, obs)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    mask[r.legal_actions()] = 1
    return {"observation": obs, "action_mask": mask}


def decisions(spec: str, seed: int) -> list[tuple[Round, dict[str, np.ndarray]]]:
    """Positions of a round played by random agents: (the round then, the seat's observation)."""
    r = Round(presets_of(spec)[0], seed=seed)
    bot = RandomAgent(rules=r.rules, seed=seed)
    out = []
    k = 0
    while not r.is_over and len(out) < DECISIONS:
        o = seen(r)
        if k % 3 == 0 and o["action_mask"].sum() > 1:
            out.append((r.copy(), o))
        r.step(bot.act(o))
        k += 1
    return out


def finish(engine, st: np.ndarray, rules) -> None:  # noqa: ANN001 (the game's compiled engine)
    """Play the round of ``st`` to its end, every player with its first legal action."""
    while phase(st) != PHASE_OVER:
        engine.apply_action(st, int(engine.legal_actions(st, rules.params)[0]), rules.params)


def test_every_game_of_the_family_builds_search_worlds():
    """The family's own games (a game kept outside jass_env, a test's toy, may build none)."""
    family = {game.name for game in REGISTRY.values() if game.kind < OUTSIDE_KINDS}
    assert family <= {make_rules(s).spec.game for s in SPECS}


@pytest.mark.parametrize("spec", SPECS)
def test_a_world_is_the_round_as_the_searcher_knows_it(spec: str) -> None:
    rules = make_rules(presets_of(spec)[0])
    model = world_model_class(rules)(rules)
    assert isinstance(model, WorldModel)
    n = rules.spec.players
    built = 0
    for real, o in decisions(spec, seed=11):
        me = real.to_move
        mask = o["action_mask"]
        rng = np.array([12345], dtype=np.int64)
        out = model.worlds(o, WORLDS, rng)
        if out is None:                              # a decision this game's worlds leave to the policy
            assert mask.nonzero()[0][-1] >= 36, "card decisions must have worlds"
            continue
        states, counts = out
        assert counts.sum() == WORLDS and len(states) == len(counts) and (counts >= 1).all()
        again = model.worlds(o, WORLDS, np.array([12345], dtype=np.int64))
        np.testing.assert_array_equal(again[0], states)                # the same generator, the same worlds
        engine = for_game(rules.spec.kind)
        for st in states:
            assert phase(st) != PHASE_OVER and to_move(st) == 0
            world_mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
            engine.action_mask(st, rules.params, world_mask)
            np.testing.assert_array_equal(world_mask, mask)
            assert hand_of(st, 0) == hand_of(real.state, me)
            held = [hand_of(st, p) for p in range(n)]
            assert [bin(h).count("1") for h in held] == \
                [bin(hand_of(real.state, (me + p) % n)).count("1") for p in range(n)]
            union = 0
            for h in held:
                assert union & h == 0, "a card in two hands"
                union |= h
            assert union & ~int(rules.params[RP_DECK]) == 0, "a card the game's deck does not hold"
            for p in range(n):
                assert union & played_by(real.state, p) == 0, "a card already played is held"
            finished = []
            for a in np.flatnonzero(mask):
                row = st.copy()
                engine.apply_action(row, int(a), rules.params)
                finish(engine, row, rules)
                finished.append(row)
            results = model.results(np.stack(finished))
            assert results.shape == (len(finished),) and np.isfinite(results).all()
            built += 1
    assert built >= 1


@pytest.mark.parametrize("spec", SPECS)
def test_rollout_observations_are_encoded_for_the_seat_to_move(spec: str) -> None:
    """The world model's encoding gives the mover of each world its legal actions (a finished world
    none), in the observation layout the policy was trained on."""
    rules = make_rules(presets_of(spec)[0])
    model = world_model_class(rules)(rules)
    real, o = decisions(spec, seed=5)[-1]
    out = model.worlds(o, WORLDS, np.array([99], dtype=np.int64))
    assert out is not None
    states = out[0]
    obs = np.zeros((len(states), obs_dim(rules)), dtype=np.float32)
    mask = np.zeros((len(states), rules.spec.n_actions), dtype=np.int8)
    model.encode(states, o["observation"], obs, mask)
    for i in range(len(states)):
        np.testing.assert_array_equal(mask[i], o["action_mask"])
    finished = states.copy()
    engine = for_game(rules.spec.kind)
    for st in finished:
        finish(engine, st, rules)
    model.encode(finished, o["observation"], obs, mask)
    assert not mask.any()
