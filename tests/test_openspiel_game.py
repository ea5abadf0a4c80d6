"""The OpenSpiel games of every preset (agents.openspiel): OpenSpiel's own checks, the stored
playthroughs, seeded games replayed against the AEC environment, the chance nodes of the deal, the
information state, serialization and OpenSpiel's RL environment.

The stored playthroughs (tests/data/openspiel/<preset>.txt) are written by
``python -m agents.openspiel.playthrough --write tests/data/openspiel``.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import agents.openspiel  # noqa: E402,F401  (registers the games)
from agents.openspiel.deal import (  # noqa: E402
    Deal,
    chance_kind,
    chance_outcomes,
    deal_from_outcomes,
    deal_of,
    outcomes_of,
    round_of,
)
from agents.openspiel.game import JassGame  # noqa: E402
from agents.openspiel.playthrough import playthrough  # noqa: E402
from jass_env.engine.cards import PHASE_ACTION_OFFSET, card_id, cards_of, mask_of  # noqa: E402
from jass_env.engine.state import seed_generator  # noqa: E402
from jass_env.envs.aec import raw_env  # noqa: E402
from jass_env.games import PRESETS, game_of, make_rules  # noqa: E402
from jass_env.games.base import NO_DRAWS, OUTSIDE_KINDS  # noqa: E402
from jass_env.records import record_of  # noqa: E402
from jass_env.round import Round  # noqa: E402

DATA = Path(__file__).parent / "data" / "openspiel"
#: seeded games replayed against the AEC environment, spread over the presets
N_REPLAYED = 500
#: the presets of the family's own games (a test's game, such as tests/toy_game, has no stored
#: playthrough)
FAMILY = [p for p, r in PRESETS.items() if game_of(r).kind < OUTSIDE_KINDS]


def load(preset: str) -> pyspiel.Game:
    return pyspiel.load_game(f"python_jass_{preset}")


def deal_state(game: pyspiel.Game, outcomes: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for o in outcomes:
        state.apply_action(o)
    return state


def random_terminal(game: pyspiel.Game, rng: np.random.Generator) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


# OpenSpiel's own checks and the stored playthroughs
@pytest.mark.parametrize("preset", list(PRESETS))
def test_openspiel_random_simulation_with_serialization(preset: str) -> None:
    pyspiel.random_sim_test(load(preset), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", FAMILY)
def test_the_playthrough_is_the_stored_one(preset: str) -> None:
    stored = (DATA / f"{preset}.txt").read_text(encoding="utf-8")
    assert playthrough(preset) == stored, (
        f"the {preset} playthrough changed; if deliberate, write the files again with "
        f"`python -m agents.openspiel.playthrough --write tests/data/openspiel`")


# seeded games: OpenSpiel and the AEC environment play the same round
def test_seeded_games_replay_identically_through_openspiel_and_the_aec_env() -> None:
    presets = list(PRESETS)
    envs = {p: raw_env(rules=p, episode="round", reward="points") for p in presets}
    games = {p: load(p) for p in presets}
    for i in range(N_REPLAYED):
        preset = presets[i % len(presets)]
        env, game = envs[preset], games[preset]
        rules = env.rules
        spec = rules.spec
        env.reset(seed=i)
        dealt = Round(rules, state=env.core_state.copy())
        state = deal_state(game, outcomes_of(rules, deal_of(dealt)))
        rng = np.random.default_rng(i)
        moves = 0
        while True:
            for p in range(spec.players):
                seen = env.observe(f"player_{p}")
                assert np.array_equal(np.asarray(state.observation_tensor(p), dtype=np.float32),
                                      seen["observation"]), (preset, i, moves, p)
            if state.is_terminal():
                break
            player = state.current_player()
            assert env.agent_selection == f"player_{player}"
            legal = state.legal_actions()
            assert legal == np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
            a = legal[int(rng.integers(len(legal)))]
            state.apply_action(a)
            env.step(a)
            moves += 1
        assert all(env.terminations.values())
        assert moves <= game.max_game_length()
        aec_round = Round(rules, state=env.core_state.copy())
        assert record_of(state.round) == record_of(aec_round)
        game_facts = game_of(rules)
        returns = state.returns()
        score = aec_round.score
        # every player gets his side's round score, negated where a lower score is better
        assert returns == [game_facts.sign * score[spec.side_of(p)] for p in range(spec.players)]
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        # the AEC "points" reward (docs: jass_env/envs/rewards.py) from the same returns: two sides
        # get their difference, players alone their distance from the table's mean; / REWARD_SCALE
        scale = game_facts.points_scale(rules)
        for p in range(spec.players):
            if spec.sides == 2:
                other = next(q for q in range(spec.players) if spec.side_of(q) != spec.side_of(p))
                expected = (returns[p] - returns[other]) / scale
            else:
                expected = (returns[p] - np.mean(returns)) / scale
            assert env.rewards[f"player_{p}"] == pytest.approx(expected, abs=1e-9)


# the utility
@pytest.mark.parametrize("preset", FAMILY)
def test_the_declared_utility_type_is_the_one_random_rounds_show(preset: str) -> None:
    """A constant sum where one is declared; otherwise two rounds whose utilities add up to
    different sums (Weis, Stöck, bonuses and multipliers in team games, penalties and ties in the
    games alone)."""
    game = load(preset)
    rng = np.random.default_rng(1)
    if game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        assert all(sum(random_terminal(game, rng).returns()) == game.utility_sum() for _ in range(20))
        return
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    sums = set()
    for _ in range(300):
        sums.add(sum(random_terminal(game, rng).returns()))
        if len(sums) > 1:
            return
    pytest.fail(f"{preset}: 300 random rounds all had the utility sum {sums}")


def test_schieber_tournament_is_constant_sum_and_the_other_presets_are_not() -> None:
    """Tournament rules: no Weis, Stöck or Match bonus, multiplier 1, so the two teams share the
    157 card points; each of the four players gets his team's score: 2 x 157."""
    tournament = load("tournament")
    assert tournament.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert tournament.utility_sum() == 314.0
    for preset in ("schieber", "sidi", "differenzler", "coiffeur", "mittlere", "molotow"):
        assert load(preset).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    without_ou_values = JassGame(rules=make_rules("tournament", ou_card_values=False))   # O/U: 125
    assert without_ou_values.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_a_game_whose_scores_add_to_a_constant_is_constant_sum() -> None:
    """The test game Zwei (tests/toy_game): two players share the 157 card points."""
    game = load("zwei")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 157.0
    assert sum(random_terminal(game, np.random.default_rng(2)).returns()) == 157.0


def test_utility_bounds_follow_the_rules_and_the_direction_of_better() -> None:
    # Differenzler: a penalty |prediction - points| up to 157, -10 for an exact hit; lower is better
    differenzler = load("differenzler")
    assert (differenzler.min_utility(), differenzler.max_utility()) == (-157.0, 10.0)
    # Mittlere: Striche - Nullen, -2..+2, higher is better
    mittlere = load("mittlere")
    assert (mittlere.min_utility(), mittlere.max_utility()) == (-2.0, 2.0)
    # Schieber's tournament preset: card points only (157 with the last trick's 5), no bonus
    tournament = load("tournament")
    assert (tournament.min_utility(), tournament.max_utility()) == (0.0, 157.0)


def test_hands_of_fewer_than_three_cards_bound_no_weis() -> None:
    """A run needs three cards and four of a kind four (docs/rules.md), so the utility bounds of a
    game with 2-card hands (a small variant's) count no hand Weis."""
    from jass_env.engine.weis import team_weis_bound

    rules = PRESETS["molotow3"]
    assert team_weis_bound(2, 2, rules.sequence_values, rules.quad_values) == 0
    assert team_weis_bound(3, 2, rules.sequence_values, rules.quad_values) == rules.sequence_values[0]


def test_game_length_counts_the_moves_of_players() -> None:
    # Schieber: 36 cards, forehand's push and his partner's contract
    assert load("schieber").max_game_length() == 36 + 2
    # Differenzler: 36 cards and one prediction a player
    assert load("differenzler").max_game_length() == 36 + 4
    # Sidi: 18 tricks of 2 cards and at most one exchange of the trump 6
    assert load("sidi").max_game_length() == 36 + 1
    # Molotow for five: 7 tricks of 5 cards, no bidding
    assert load("molotow5").max_game_length() == 35


# the deal's chance nodes
def test_schieber_deals_the_dealer_then_each_card_uniformly_to_the_players_in_turn() -> None:
    first = chance_outcomes("schieber", [])
    assert first == [(p, 0.25) for p in range(4)]
    assert chance_kind("schieber", [2]) == "card"
    after_two_cards = chance_outcomes("schieber", [2, card_id("H9"), card_id("SA")])
    assert len(after_two_cards) == 34 and all(p == pytest.approx(1 / 34) for _, p in after_two_cards)
    assert card_id("H9") not in dict(after_two_cards)
    cards = list(range(36))
    deal = deal_from_outcomes("schieber", [2, *cards])
    assert deal.dealer == 2 and deal.draws == ()
    assert deal.hands == tuple(mask_of(cards[p::4]) for p in range(4))   # card k to player k % 4


def test_under_the_d7_rule_no_dealer_is_drawn_and_the_d7_holder_is_forehand() -> None:
    assert chance_kind("seed_vaud", []) == "card"
    cards = list(range(36))
    deal = deal_from_outcomes("seed_vaud", cards)
    holder = next(p for p in range(4) if deal.hands[p] >> card_id("D7") & 1)
    assert round_of("seed_vaud", deal).forehand == holder


def test_differenzler_trump_card_is_drawn_from_the_dealers_hand() -> None:
    cards = list(range(36))
    partial = [1, *cards]
    hands = deal_from_outcomes("schieber", partial).hands   # the same cards to the same players
    assert chance_kind("differenzler", partial) == "draw"
    assert chance_outcomes("differenzler", partial) == [(c, pytest.approx(1 / 9)) for c in cards_of(hands[1])]
    bottom = cards_of(hands[1])[3]
    rnd = round_of("differenzler", deal_from_outcomes("differenzler", [*partial, bottom]))
    assert rnd.view.trump_card == bottom and rnd.view.contract == bottom // 9
    random_suit = make_rules("differenzler", trump_mode="random_suit")
    assert chance_outcomes(random_suit, partial) == [(s, 0.25) for s in range(4)]


def test_sidi_draws_its_stock_one_card_at_a_time_the_last_face_up() -> None:
    cards = list(range(36))
    partial = [0, *cards[:16]]
    assert chance_kind("sidi", partial) == "draw"
    stock = cards[16:][::-1]
    for k in range(len(stock)):
        outcomes = chance_outcomes("sidi", partial + stock[:k])
        assert sorted(o for o, _ in outcomes) == sorted(stock[k:])
        assert all(p == pytest.approx(1 / (20 - k)) for _, p in outcomes)
    deal = deal_from_outcomes("sidi", partial + stock)
    rnd = round_of("sidi", deal)
    assert [card_id(c) for c in rnd.stock] == stock
    assert rnd.view.trump_card == stock[-1] and rnd.view.contract == stock[-1] // 9


def test_molotow_for_five_never_deals_the_spade_seven() -> None:
    outcomes = {o for o, _ in chance_outcomes("molotow5", [0])}
    assert card_id("S7") not in outcomes and len(outcomes) == 35


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_deal_of_a_seeded_round_deals_the_same_round(preset: str) -> None:
    seeded = Round(preset, seed=11)
    deal = deal_of(seeded)
    assert deal_from_outcomes(preset, outcomes_of(preset, deal)) == deal
    again = round_of(preset, deal)
    seed_generator(again.state, seeded.view.rng_state)   # the generator's state is not part of the deal
    assert np.array_equal(again.state, seeded.state)


def test_an_outcome_that_cannot_come_is_refused_with_what_can() -> None:
    with pytest.raises(ValueError, match="outcome 7 cannot come now in schieber: the next dealer is one of"):
        chance_outcomes("schieber", [7])
    with pytest.raises(ValueError, match="the next card is one of"):
        chance_outcomes("schieber", [0, 5, 5])
    with pytest.raises(ValueError, match="do not complete a schieber deal: a card comes next"):
        deal_from_outcomes("schieber", [0, 5])


def test_a_game_without_draws_refuses_draws() -> None:
    assert game_of("schieber").draws is NO_DRAWS
    deal = deal_of(Round("schieber", seed=1))
    with pytest.raises(ValueError, match="schieber draws nothing"):
        round_of("schieber", Deal(deal.dealer, deal.hands, (3,)))


# observations and information states
def test_while_dealing_a_seat_sees_only_its_own_cards_and_a_zero_tensor() -> None:
    game = load("schieber")
    state = deal_state(game, [0, card_id("H9"), card_id("SA")])
    assert not any(state.observation_tensor(1))
    assert "SA" in state.observation_string(1) and "H9" not in state.observation_string(1)
    assert "H9" in str(state) and "SA" in str(state)


def _after_first_prediction(game: pyspiel.Game, prediction: int) -> pyspiel.State:
    rnd = Round(game.rules, seed=5)
    state = deal_state(game, outcomes_of(game.rules, deal_of(rnd)))
    assert state.current_player() == rnd.forehand
    state.apply_action(36 + prediction)
    return state


def test_a_hidden_prediction_is_hidden_from_the_others_in_the_information_state() -> None:
    """Differenzler's predictions are hidden until the round ends (switch predictions="hidden")."""
    game = load("differenzler")
    a, b = _after_first_prediction(game, 47), _after_first_prediction(game, 50)
    predictor = Round(game.rules, seed=5).forehand
    other = (predictor + 1) % 4
    assert a.information_state_string(other) == b.information_state_string(other)
    assert a.information_state_tensor(other) == b.information_state_tensor(other)
    assert a.information_state_string(predictor) != b.information_state_string(predictor)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(a, other)
    assert observer.dict["actions"][0, game.num_distinct_actions()] == 1      # "hidden"
    observer.set_from(a, predictor)
    assert observer.dict["actions"][0, 36 + 47] == 1
    assert observer.dict["movers"][0, predictor] == 1


def test_a_resampled_state_does_not_keep_a_prediction_hidden_from_the_player() -> None:
    """Another player's hidden prediction is part of what the player does not know: a state
    resampled from his information state holds any prediction the predictor could have made (he
    cannot tell them apart), not the true one; the predictor's own resample keeps his."""
    game = load("differenzler")
    state = _after_first_prediction(game, 47)
    predictor = Round(game.rules, seed=5).forehand
    other = (predictor + 1) % 4
    draws = iter(np.random.default_rng(0).random(60))
    samples = [state.resample_from_infostate(other, lambda: next(draws)) for _ in range(30)]
    assert all(s.information_state_string(other) == state.information_state_string(other) for s in samples)
    assert len({s.moves[0] for s in samples}) > 10
    own = [state.resample_from_infostate(predictor, lambda: next(draws)) for _ in range(5)]
    assert {s.moves[0] for s in own} == {36 + 47}


def test_an_open_prediction_is_seen_by_everyone() -> None:
    game = JassGame(rules=make_rules("differenzler", predictions="open"))
    a, b = _after_first_prediction(game, 47), _after_first_prediction(game, 50)
    predictor = Round(game.rules, seed=5).forehand
    other = (predictor + 1) % 4
    assert a.information_state_tensor(other) != b.information_state_tensor(other)
    assert "predict 47" in a.information_state_string(other)


def test_sidi_information_state_remembers_which_cards_were_dealt_and_which_drawn() -> None:
    """Player 0 dealt x who draws y, or dealt y who draws x: the same hand and table after trick 1,
    so the observation cannot tell them apart, but he saw different hands before: the information
    state (perfect recall) does."""
    game = load("sidi")
    base = deal_of(Round("sidi", seed=2, dealer=1))          # player 0 leads trick 1
    for x in cards_of(base.hands[0]):
        y = base.draws[0]                                   # the top of the stock
        swapped = Deal(1, (base.hands[0] & ~(1 << x) | (1 << y), base.hands[1]), (x, *base.draws[1:]))
        a = deal_state(game, outcomes_of("sidi", base))
        b = deal_state(game, outcomes_of("sidi", swapped))
        for lead in a.legal_actions():
            if lead in (x, y, 36) or lead not in b.legal_actions():
                continue
            for answer in a.round.hand(1):
                a2, b2 = a.clone(), b.clone()
                for s in (a2, b2):
                    s.apply_action(lead)
                    s.apply_action(card_id(answer))
                if a2.round.trick_number == 1 and a2.round.tricks[0]["winner"] == 0 and (
                        a2.observation_tensor(0) == b2.observation_tensor(0)):
                    assert a2.information_state_string(0) != b2.information_state_string(0)
                    assert a2.information_state_tensor(0) != b2.information_state_tensor(0)
                    return
    pytest.fail("no deal found where the observation alone cannot tell the two apart")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_state_resampled_from_an_information_state_shows_the_player_the_same(preset: str) -> None:
    """resample_from_infostate draws a state the player cannot tell from this one: the same
    information-state string and tensor, the same cards played; another deal of the hidden cards."""
    game = load(preset)
    rng = np.random.default_rng(6)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state, moves, checked = game.new_initial_state(), 0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        if moves in (1, game.max_game_length() // 2):
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert len(other.moves) == len(state.moves)       # moves hidden from him may differ
            assert [m for m in other.moves if m < PHASE_ACTION_OFFSET] == [
                m for m in state.moves if m < PHASE_ACTION_OFFSET]
            checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        moves += 1
    assert checked == 2
    with pytest.raises(ValueError, match="still dealing"):
        game.new_initial_state().resample_from_infostate(0, sampler)


def test_a_seats_text_before_trick_1_does_not_tell_whether_anyone_has_a_weis() -> None:
    """Weis are shown after trick 1 (docs/rules.md); before, a seat's view is the same whether
    another team holds one or not."""
    game = load("schieber")
    hands = [Round("schieber", seed=31).dealt_hand(p) for p in range(4)]
    assert {"SQ", "SJ", "S10", "S9", "S8"} <= set(hands[0]) and "D10" in hands[1]   # ♠8-Q: a Weis of 100
    # player 0 gives ♠10 for player 1's ♦10: nobody holds a Weis then
    swapped = [[c for c in hands[0] if c != "S10"] + ["D10"], [c for c in hands[1] if c != "D10"] + ["S10"],
               *hands[2:]]
    views = []
    for cards in (hands, swapped):
        deal = deal_of(Round("schieber", hands=cards, dealer=3))
        state = deal_state(game, outcomes_of("schieber", deal))
        state.apply_action(36 + 1)                                     # forehand (0) names hearts
        views.append(state.observation_string(3))
        weis_team = state.round.weis_team
    assert weis_team is None                                            # the swapped deal: no Weis
    assert "Weis: shown after trick 1" in views[0]
    assert views[0] == views[1]


# serialization, parameters, errors
def test_serialized_states_load_back_and_pickle() -> None:
    game = pyspiel.load_game("python_jass", {"rules": "differenzler"})
    state = random_terminal(game, np.random.default_rng(4))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == "python_jass(rules=differenzler)"
    assert state2.history() == state.history() and state2.returns() == state.returns()
    assert state2.information_state_string(2) == state.information_state_string(2)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.information_state_tensor(1) == state.information_state_tensor(1)


def test_a_clone_does_not_share_the_round() -> None:
    state = deal_state(load("mittlere"), outcomes_of("mittlere", deal_of(Round("mittlere", seed=3))))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.round.trick_number == 0 and len(state.round.current_trick) == 0
    assert len(clone.round.current_trick) == 1


def test_the_parametrized_game_is_the_presets_game() -> None:
    for preset in ("schieber", "molotow5", "sidi"):
        named, parametrized = load(preset), pyspiel.load_game("python_jass", {"rules": preset})
        assert parametrized.num_players() == named.num_players() == PRESETS[preset].spec.players
        assert parametrized.max_game_length() == named.max_game_length()
        assert parametrized.information_state_tensor_shape() == named.information_state_tensor_shape()
    assert str(pyspiel.load_game("python_jass")) == "python_jass(rules=schieber)"


def test_bad_parameters_and_illegal_actions_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(Exception, match="unknown rules 'jass'; presets: schieber, "):
        pyspiel.load_game("python_jass", {"rules": "jass"})
    game = load("schieber")
    state = deal_state(game, outcomes_of("schieber", deal_of(Round("schieber", seed=1))))
    with pytest.raises(ValueError, match=r"may not play .* legal: "):
        state.apply_action(0 if 0 not in state.legal_actions() else 35)


def test_observation_tensor_shape_is_the_projects_observation() -> None:
    from jass_env.envs.encoding import obs_dim

    for preset in PRESETS:
        game = load(preset)
        dim = obs_dim(PRESETS[preset])
        assert game.observation_tensor_shape() == [dim]
        spec = PRESETS[preset].spec
        assert game.information_state_tensor_shape() == [
            dim + game.max_game_length() * (spec.players + spec.n_actions + 1 + 36)]


# OpenSpiel's RL environment
@pytest.mark.parametrize("preset", ["coiffeur", "differenzler3"])
def test_rl_environment_plays_with_random_agents(preset: str) -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    env = rl_environment.Environment(f"python_jass_{preset}",
                                     chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    n, n_actions = env.num_players, env.action_spec()["num_actions"]
    players = [random_agent.RandomAgent(player_id=p, num_actions=n_actions) for p in range(n)]
    for _ in range(2):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            step = env.step([players[p].step(step).action])
        assert step.rewards == env.get_state.returns()
        assert len(step.observations["info_state"][0]) == env.observation_spec()["info_state"][0]


def test_the_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from examples.openspiel_games import main

    main(["--rules", "differenzler3", "--rounds", "1"])
    out = capsys.readouterr().out
    assert "python_jass_differenzler3(): 3 players" in out and "the same observations at all 39 moves" in out
