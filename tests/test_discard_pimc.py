"""PIMC for Mittlere and Molotow (agents/bots/_first_discard.py, docs/bots.md): legal play, determinism,
worlds consistent with the seat's view, the game's own objective, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots import _first_discard as dp
from agents.bots.mittlere import MittlereHeuristic
from agents.bots.molotow import MolotowHeuristic
from agents.registry import AgentSpecError, make_agent
from jass_env import Round
from jass_env.engine.cards import ALL_CARDS, SUIT_MASK, card_id
from jass_env.engine.positions import set_play_position
from jass_env.engine.spec import MAX_PLAYERS, MAX_TRICKS
from jass_env.engine.state import PHASE_OVER, StateView, new_state, state_size
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of, make_rules

GAMES = ("mittlere", "molotow", "molotow3", "molotow5", "molotow6")


def observation(st: np.ndarray, player: int, rules) -> dict[str, np.ndarray]:
    """The observation dict of ``player`` (as the environments build it)."""
    obs = np.zeros(obs_dim(rules), dtype=np.float32)
    game_of(rules).observation.encode_observation(st, player, rules.params, obs)
    mask = np.zeros(36, dtype=np.int8)
    for_game(rules.spec.kind).action_mask(st, rules.params, mask)
    return {"observation": obs, "action_mask": mask}


def mask(cards: list[str]) -> int:
    return sum(1 << card_id(c) for c in cards)


def heuristic(game: str):
    return MittlereHeuristic(game) if game == "mittlere" else MolotowHeuristic(game)


@pytest.mark.parametrize("game", GAMES)
def test_pimc_plays_whole_hands_legally_through_the_registry(game: str) -> None:
    pimc = make_agent("pimc:worlds=3", game, seed=1)
    assert isinstance(pimc, dp.DiscardPIMC)
    other = heuristic(game)
    for seed in range(2):
        r = Round(game, seed=seed)
        while not r.is_over:
            bot = pimc if r.to_move == seed else other
            r.step(bot.act(observation(r.state, r.to_move, r.rules)))   # step() refuses an illegal card
        assert sum(r.points) == 157


@pytest.mark.parametrize("game", ["mittlere", "molotow"])
def test_pimc_is_deterministic_given_its_seed(game: str) -> None:
    """Two agents with one seed choose the same cards along a hand; another seed may differ but
    plays legally too."""
    r = Round(game, seed=3)
    a, b = dp.DiscardPIMC(game, worlds=4, seed=7), dp.DiscardPIMC(game, worlds=4, seed=7)
    other = heuristic(game)
    while not r.is_over:
        obs = observation(r.state, r.to_move, r.rules)
        if r.to_move == 0:
            card = a.act(obs)
            assert b.act(obs) == card
        else:
            card = other.act(obs)
        r.step(card)


def void_position() -> tuple[Round, int]:
    """Mittlere, forehand 0: ♠ led twice; player 2 holds no ♠ and discards the ♥6 on the first
    (♥ trump, player 2 shown void in ♠). Player 0 to move in trick 2 (♦ lead)."""
    hands = [["SA", "S6", "D6", "D7", "D8", "C6", "C7", "C8", "C9", "C10", "CJ", "CQ"],
             ["SK", "S7", "S8", "S9", "S10", "SJ", "SQ", "D9", "D10", "DJ", "DQ", "DK"],
             ["H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA", "DA", "CK", "CA"]]
    r = Round("mittlere", hands=hands, dealer=2)
    for c in ("SA", "SK", "H6"):            # player 2 trumps and wins; he leads
        r.step(c)
    r.step("DA")
    return r, card_id("H6")


def test_worlds_never_give_a_shown_void_suit_and_keep_each_seats_card_count() -> None:
    """Player 0 (to move, after ♦A) sees player 2 (relative seat 2) void in ♠: in every sampled
    world seat 2 holds no ♠, each seat holds its 11 cards and the hidden cards are dealt once."""
    r, _ = void_position()
    rules = make_rules("mittlere")
    assert r.to_move == 0
    v = dp.decode_view(observation(r.state, 0, rules), rules)
    assert v[dp.W_VOIDS + 2] == 1 << 2 and v[dp.W_TRUMP] == 1          # ♠ void, ♥ trump
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    rng = np.array([12345], dtype=np.int64)
    played = mask(["SA", "SK", "H6", "DA"])
    spades_hidden = SUIT_MASK[2] & ~played & ~v[dp.W_HAND]
    assert spades_hidden                                        # player 1 really holds ♠ to place
    for _ in range(300):
        dp.sample_world(v, rules.params, rng, hands, plays, winners)
        assert hands[2] & SUIT_MASK[2] == 0
        assert [int(hands[r]).bit_count() for r in range(3)] == [11, 11, 10]
        assert hands[0] | hands[1] | hands[2] | played == ALL_CARDS
        assert hands[1] & hands[2] == 0


def test_world_with_the_true_hands_plays_out_as_the_real_hand() -> None:
    """Mittlere, no trump yet after two ♦ tricks (♦A ♦7 ♦8 to player 0, ♦6 ♦K ♦9 to player 1);
    the world built from player 1's view with the true hands, when the rest of the hand is played
    as in the real one, ends with every player's points and score of the real hand: the two
    finished tricks are recounted with the trump values when the first discard fixes trump.
    (Points decide the split: ♦A ♦7 ♦9 / ♦6 ♦K ♦8 would give player 0 11 Obenabe points, not 19.)"""
    hands = [["DA", "D6", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA", "S6"],
             ["DK", "D7", "C6", "C7", "C8", "C9", "C10", "CJ", "CQ", "CK", "CA", "S7"],
             ["D8", "D9", "D10", "DJ", "DQ", "S8", "S9", "S10", "SJ", "SQ", "SK", "SA"]]
    rules = make_rules("mittlere")
    r = Round(rules, hands=hands, dealer=2)
    for c in ("DA", "D7", "D8", "D6", "DK", "D9"):
        r.step(c)
    assert r.to_move == 1 and r.trump is None
    v = dp.decode_view(observation(r.state, 1, rules), rules)
    world = np.zeros(state_size(rules.spec), dtype=np.int64)
    true_hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for rel in range(3):
        true_hands[rel] = StateView(r.state, rules.params).hands[(1 + rel) % 3]
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    assert dp.sample_history(v, rules.params, np.array([99], dtype=np.int64), plays, winners)
    dp.build_world(v, true_hands, plays, winners, 2, rules.params, world)
    bots = [MittlereHeuristic("mittlere") for _ in range(3)]
    while not r.is_over:
        card = bots[r.to_move].act(observation(r.state, r.to_move, rules))
        r.step(card)
        for_game(rules.spec.kind).apply_action(world, card, rules.params)
    real = StateView(r.state, rules.params)
    got = StateView(world, rules.params)
    assert got.phase == PHASE_OVER and real.declarer is not None
    assert [got.points[(p - 1) % 3] for p in range(3)] == list(real.points[:3])
    assert [got.score[(p - 1) % 3] for p in range(3)] == list(real.score[:3])


def molotow_duck_position(mine: tuple[str, str] = ("HA", "H6")) -> np.ndarray:
    """Molotow, ♣ trump, trick 8 of 9: player 1 led ♥K, then ♥10 and ♥8; player 0, last, holds
    ``mine`` (♥A and ♥6); the others hold one trump each (♣6 ♣7 ♣8). The ♥A takes 25 points (K 4
    + 10 + 8 0 + A 11), the ♥6 ducks under the ♥K; either way the last trick goes to a trump."""
    rules = make_rules("molotow")
    rp = rules.params
    n = MAX_PLAYERS
    rest = [c for c in range(36) if not (mask([*mine, "HK", "H10", "H8", "C6", "C7", "C8"]) >> c) & 1]
    hands = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)
    for p, (hand, trick_card) in enumerate(((list(mine), None), (["C6"], "HK"), (["C7"], "H10"),
                                            (["C8"], "H8"))):
        hands[p] = mask(hand)
        played[p] = sum(1 << c for c in rest[7 * p:7 * p + 7]) | (mask([trick_card]) if trick_card else 0)
    trick = np.full(n, -1, dtype=np.int64)
    trick[:3] = [card_id("HK"), card_id("H10"), card_id("H8")]
    zeros = np.zeros(n, dtype=np.int64)
    tricks_won = zeros.copy()
    tricks_won[1] = 7
    st = new_state(rules.spec)
    clubs, fixer = 3, 2
    set_play_position(st, hands, played, zeros, zeros, trick, 3, 1, 1, 0, fixer, clubs, 7, zeros,
                      tricks_won, 0, rp)
    return st


@pytest.mark.parametrize("rollout", dp.ROLLOUTS)
def test_molotow_pimc_ducks_the_trick_full_of_points(rollout: str) -> None:
    """Lowest wins in Molotow: PIMC ducks with the ♥6 (the ♥A would add 25 points to its score)."""
    rules = make_rules("molotow")
    obs = observation(molotow_duck_position(), 0, rules)
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted([card_id("HA"), card_id("H6")])
    assert dp.DiscardPIMC("molotow", worlds=3, rollout=rollout, seed=0).act(obs) == card_id("H6")


@pytest.mark.parametrize(("mine", "expected"), [(("HA", "H6"), "H6"), (("DA", "D6"), "DA"),
                                                (("HA", "C9"), "HA")])
def test_avoidance_play_out_ducks_dumps_points_and_wins_cheaply(mine, expected) -> None:
    """The Molotow play-out on ♥K ♥10 ♥8 (♣ trump): with ♥A ♥6 the highest card that does not take
    the trick, the ♥6; void in ♥ with ♦A ♦6 it dumps the ♦A (11 points; the trick is lost anyway);
    with ♥A and ♣9 both take it: the ♥A, 11 points against the trump 9's 14."""
    st = molotow_duck_position(mine)
    rules = make_rules("molotow")
    assert dp.compiled_pimc(rules.spec.kind).avoid_card(st, rules.params) == card_id(expected)


@pytest.mark.parametrize("game", ["molotow", "molotow3", "molotow6"])
def test_search_with_the_heuristic_play_out_over_every_card_is_molotows_pimc(game: str) -> None:
    """The search's rollout=heuristic plays its worlds out with the PIMC's avoidance play: searching
    every legal card with the same seed, it samples the PIMC's worlds, and each card's mean is the
    PIMC's sum for it over those worlds, divided by their number."""
    from agents.search.pimc import decision_generator
    from agents.search.search import SearchAgent

    rules = make_rules(game)
    pimc = dp.compiled_pimc(rules.spec.kind).scores
    for deal in range(3):
        r = Round(game, seed=deal)
        for _ in range(4 * deal):                      # the first trick, the fifth or the ninth card
            r.step(int(r.legal_actions()[0]))
        while len(r.legal_actions()) < 2:
            r.step(int(r.legal_actions()[0]))
        obs = observation(r.state, r.to_move, rules)
        search = SearchAgent(game, worlds=8, rollout="heuristic", seed=3)
        options, means = search.option_values(obs)
        assert options.tolist() == r.legal_actions().tolist()
        sums = np.zeros(36, dtype=np.int64)
        pimc(dp.decode_view(obs, rules), rules.params, state_size(rules.spec), 8, game_of(rules).sign,
             dp.ROLLOUTS.index("heuristic"), decision_generator(np.random.default_rng(3)), sums)
        assert means.tolist() == (sums[options] / 8).tolist()
    assert search.name == "search8-heuristic"


def test_the_heuristic_play_out_is_only_where_the_game_has_one() -> None:
    """Mittlere's PIMC plays out at random only (the avoidance play aims at the fewest points, and
    Mittlere's aim is not the fewest): the search and the distillation config refuse it there."""
    from agents.search.distill import load_distill_config
    from agents.search.search import SearchAgent
    from agents.training.yaml_config import ConfigError

    with pytest.raises(ValueError, match="rollout=heuristic: mittlere's search has no heuristic play-out; "
                                         "allowed: rollout=policy or rollout=random"):
        SearchAgent("mittlere", rollout="heuristic")
    with pytest.raises(AgentSpecError, match="mittlere's search has no heuristic play-out"):
        make_agent("search:worlds=2,rollout=heuristic", "mittlere")
    with pytest.raises(ConfigError, match="config key 'rollout': mittlere's search has no heuristic"):
        load_distill_config(None, ["rules=mittlere", "rollout=heuristic"])
    assert load_distill_config(None, ["rules=molotow", "rollout=heuristic"]).rollout == "heuristic"


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"worlds": 0}, "worlds must be an integer >= 1"),
    ({"worlds": 2.5}, "worlds must be an integer >= 1"),
    ({"time_limit": -1}, "time_limit must be a positive number"),
    ({"rollout": "policy"}, "rollout=random or heuristic, got 'policy'"),
])
def test_bad_parameters_are_named(kwargs, words) -> None:
    with pytest.raises(ValueError, match=words):
        dp.DiscardPIMC("molotow", **kwargs)


def test_other_games_and_bad_specs_are_refused() -> None:
    every_game = "mittlere, molotow, molotow3, molotow5, molotow6"
    with pytest.raises(ValueError, match=f"DiscardPIMC plays {every_game}, not 'schieber'"):
        dp.DiscardPIMC("schieber")
    with pytest.raises(AgentSpecError, match="mittlere PIMC plays out with rollout=random, got 'heuristic'"):
        make_agent("pimc:rollout=heuristic", "mittlere")
    assert make_agent("pimc", "molotow3").rollout == "heuristic"
    assert make_agent("pimc", "mittlere").rollout == "random"
    with pytest.raises(AgentSpecError, match="expected a positive integer"):
        make_agent("pimc:worlds=0", "molotow")


def test_time_limit_stops_adding_worlds() -> None:
    r, _ = void_position()
    rules = make_rules("mittlere")
    bot = dp.DiscardPIMC("mittlere", worlds=10_000, time_limit=0.01, seed=1)
    bot.act(observation(r.state, 0, rules))
    assert 1 <= bot.last_worlds < 10_000
