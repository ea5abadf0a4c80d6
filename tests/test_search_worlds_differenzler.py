"""Differenzler's worlds for the policy-guided search (agents.bots.differenzler.DifferenzlerWorlds).

A world is the round as the searching seat knows it, the cards it has not seen dealt at random
within what it knows: its own hand, the cards played, the voids shown, each seat's card count, the
shown trump card (in the dealer's hand until he plays it) and the predictions it may see (its own;
everyone's under ``predictions="open"``). The searcher is player 0 of every world and to move, at
a card or at its own prediction. Rules: docs/games/differenzler.md.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from agents.bots.differenzler import DifferenzlerWorlds
from jass_env import Match, Round, make_rules
from jass_env.engine import hooks
from jass_env.engine.cards import ALL_CARDS, N_SUITS, PHASE_ACTION_OFFSET, SUIT_MASK, popcount
from jass_env.engine.state import (
    contract,
    dealer,
    hand_of,
    phase,
    played_by,
    points_of,
    to_move,
    trump_card,
    voids_of,
)
from jass_env.engine.transitions import for_game
from jass_env.games import game_of
from jass_env.games.differenzler.observation import LAYOUTS, encode_observation, obs_dim
from jass_env.games.differenzler.rules import predictions_of

#: both player counts, the open predictions and the drawn trump suit (no card shown)
VARIANTS = [("differenzler", {}), ("differenzler3", {}), ("differenzler", {"predictions": "open"}),
            ("differenzler3", {"trump_mode": "random_suit", "predictions": "open"})]
WORLDS = 4
#: the two kinds of decision
PREDICTION, CARD = "prediction", "play"


def rules_of(game: str, switches: dict):
    return make_rules(game).replace(**switches) if switches else make_rules(game)


def seen(st: np.ndarray, rules, seat: int) -> dict[str, np.ndarray]:
    """The observation dict of ``seat`` in the real state ``st``."""
    obs = np.zeros(obs_dim(rules.spec), dtype=np.float32)
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    encode_observation(st, seat, rules.params, obs)
    if to_move(st) == seat:
        for_game(rules.spec.kind).action_mask(st, rules.params, mask)
    return {"observation": obs, "action_mask": mask}


def world_mask(world: np.ndarray, rules) -> np.ndarray:
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    for_game(rules.spec.kind).action_mask(world, rules.params, mask)
    return mask


def decisions(rules, seed: int, every: int = 3):
    """(state copy, seat, kind) at every prediction and every ``every``-th card decision of a
    round of random legal actions dealt by ``seed``."""
    rng = np.random.default_rng(seed)
    r = Round(rules, seed=seed)
    k = 0
    while not r.is_over:
        kind = r.phase
        if kind == PREDICTION or k % every == 0:
            yield r.state.copy(), r.to_move, kind
        if kind == CARD:
            k += 1
        r.step(int(rng.choice(r.legal_actions())))


def generator(seed: int) -> np.ndarray:
    return np.array([seed], dtype=np.int64)


@pytest.mark.parametrize("game,switches", VARIANTS)
def test_every_world_fits_what_the_seat_knows(game, switches):
    rules = rules_of(game, switches)
    n = rules.spec.players
    model = DifferenzlerWorlds(rules)
    open_predictions = rules.predictions == "open"
    for seed in (1, 2):
        for st, seat, _ in decisions(rules, seed):
            obs = seen(st, rules, seat)
            states, counts = model.worlds(obs, WORLDS, generator(seed + 7))
            assert states.shape == (WORLDS, len(st)) and list(counts) == [1] * WORLDS
            real_predictions = predictions_of(st, n)
            for world in states:
                # the searcher is player 0, to move, at the same kind of decision
                assert to_move(world) == 0 and phase(world) == phase(st)
                np.testing.assert_array_equal(world_mask(world, rules), obs["action_mask"])
                assert hand_of(world, 0) == hand_of(st, seat)
                assert contract(world) == contract(st) and trump_card(world) == trump_card(st)
                assert dealer(world) == (dealer(st) - seat) % n
                held = 0
                for r in range(n):
                    p = (seat + r) % n
                    assert popcount(hand_of(world, r)) == popcount(hand_of(st, p))
                    assert played_by(world, r) == played_by(st, p)
                    assert points_of(world, r) == points_of(st, p)
                    assert not (held & (hand_of(world, r) | played_by(world, r)))
                    held |= hand_of(world, r) | played_by(world, r)
                    for s in range(N_SUITS):
                        if voids_of(st, p) >> s & 1:
                            assert not hand_of(world, r) & SUIT_MASK[s], f"seat {r} shown void in suit {s}"
                assert held == ALL_CARDS
                card = trump_card(st)
                if card >= 0 and not any(played_by(st, p) >> card & 1 for p in range(n)):
                    assert hand_of(world, dealer(world)) >> card & 1, "the dealer holds the shown trump card"
                # predictions: made exactly by the seats that made them; mine and the visible ones as made
                world_predictions = predictions_of(world, n)
                for r in range(n):
                    made = real_predictions[(seat + r) % n]
                    assert (world_predictions[r] is None) == (made is None)
                    if made is not None and (r == 0 or open_predictions):
                        assert world_predictions[r] == made
                    if world_predictions[r] is not None:
                        assert 0 <= world_predictions[r] <= 157
                # player 0's observation of the world is the seat's own
                out = np.zeros(obs_dim(rules.spec), dtype=np.float32)
                hooks.encode_observation(rules.spec.kind, world, 0, rules.params, out)
                np.testing.assert_array_equal(out, obs["observation"])


@pytest.mark.parametrize("game", ["differenzler", "differenzler3"])
def test_every_legal_action_then_playing_on_finishes_the_round(game):
    """At a prediction (all 158 predictions) and at card decisions: the round played on to its end
    from each world after each legal action, the later predictions and cards at random."""
    rules = make_rules(game)
    n = rules.spec.players
    model = DifferenzlerWorlds(rules)
    rng = np.random.default_rng(5)
    kinds = set()
    for st, seat, kind in decisions(rules, 3, every=4):
        if kind in kinds and kind == PREDICTION:
            continue
        kinds.add(kind)
        obs = seen(st, rules, seat)
        states, _ = model.worlds(obs, 2, generator(11))
        for world in states:
            for action in np.flatnonzero(obs["action_mask"]):
                r = Round(rules, state=world.copy())
                r.step(int(action))
                while not r.is_over:
                    r.step(int(rng.choice(r.legal_actions())))
                assert sum(points_of(r.state, p) for p in range(n)) == 157
                assert all(p is not None for p in predictions_of(r.state, n))
    assert kinds == {PREDICTION, CARD}


def test_the_result_is_minus_the_searchers_penalty():
    """The search maximises its result: the searcher's penalty |prediction - points|, or -10 for an
    exact hit above 0, with the sign turned (lower penalties are better)."""
    rules = make_rules("differenzler")
    n = rules.spec.players
    model = DifferenzlerWorlds(rules)
    rng = np.random.default_rng(0)
    finished = []
    for st, seat, _ in decisions(rules, 4, every=5):
        for world in model.worlds(seen(st, rules, seat), 3, generator(3))[0]:
            r = Round(rules, state=world.copy())
            while not r.is_over:
                r.step(int(rng.choice(r.legal_actions())))
            finished.append(r.state)
    # one world where player 0 hits his prediction exactly
    exact = Round(rules, seed=9)
    for _ in range(n):
        exact.step(PHASE_ACTION_OFFSET + 40)
    while not exact.is_over:
        exact.step(int(exact.legal_actions()[0]))
    hit = points_of(exact.state, 0)
    exact = Round(rules, seed=9)
    for _ in range(n):
        exact.step(PHASE_ACTION_OFFSET + hit)
    while not exact.is_over:
        exact.step(int(exact.legal_actions()[0]))
    finished.append(exact.state)
    results = model.results(np.array(finished))
    for st, result in zip(finished, results):
        prediction, points = predictions_of(st, n)[0], points_of(st, 0)
        penalty = -10 if prediction == points and prediction > 0 else abs(prediction - points)
        assert result == -penalty
    assert results[-1] == (10 if hit > 0 else 0)


def test_in_a_match_the_totals_seen_are_the_real_ones():
    """A world is a single round; the rollout observations still show the match totals and rounds
    left, each acting seat seeing them from its own seat as it does in the real match."""
    rules = make_rules("differenzler3")
    n = rules.spec.players
    model = DifferenzlerWorlds(rules)
    rng = np.random.default_rng(2)
    m = Match(rules, seed=2)
    while m.rounds_done < 2:
        m.step(int(rng.choice(m.legal_actions())))
    totals = LAYOUTS.of(rules.spec).slices["game_penalty"]
    for _ in range(6):                                  # the predictions and the first cards of round 3
        st, seat = m.state, m.round.to_move
        obs = seen(st, rules, seat)
        assert obs["observation"][totals].any()
        states, _ = model.worlds(obs, 2, generator(5))
        enc = np.zeros((2, obs_dim(rules.spec)), dtype=np.float32)
        mask = np.zeros((2, rules.spec.n_actions), dtype=np.int8)
        model.encode(states, obs["observation"], enc, mask)
        for i in range(2):
            np.testing.assert_array_equal(enc[i], obs["observation"])
            np.testing.assert_array_equal(mask[i], obs["action_mask"])
        # after my action, the next player of a world sees the totals as his real seat sees them
        action = int(rng.choice(m.legal_actions()))
        for world in states:
            Round(rules, state=world).step(action)
        model.encode(states, obs["observation"], enc, mask)
        q = to_move(states[0])
        m.step(action)
        real = seen(m.state, rules, (seat + q) % n)["observation"]
        np.testing.assert_array_equal(enc[0][totals], real[totals])
    assert m.rounds_done == 2


def test_the_same_seed_gives_the_same_worlds():
    rules = make_rules("differenzler")
    model = DifferenzlerWorlds(rules)
    st, seat, _ = next(decisions(rules, 6))
    obs = seen(st, rules, seat)
    a, _ = model.worlds(obs, 5, generator(42))
    b, _ = model.worlds(obs, 5, generator(42))
    c, _ = model.worlds(obs, 5, generator(43))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_the_game_names_its_worlds_and_refuses_bad_requests():
    rules = make_rules("differenzler")
    module, name = game_of(rules).bots["worlds"].split(":")
    assert getattr(importlib.import_module(module), name) is DifferenzlerWorlds
    model = DifferenzlerWorlds(rules)
    st, seat, _ = next(decisions(rules, 1))
    obs = seen(st, rules, seat)
    with pytest.raises(ValueError, match="n_worlds must be an integer >= 1"):
        model.worlds(obs, 0, generator(1))
    over = Round(rules, seed=1)
    while not over.is_over:
        over.step(int(over.legal_actions()[0]))
    with pytest.raises(ValueError, match="no legal action"):
        model.worlds(seen(over.state, rules, 0), 1, generator(1))
    with pytest.raises(ValueError, match="differenzler or differenzler3"):
        DifferenzlerWorlds("schieber")
