"""Differenzler bots (random, target-tracking heuristic, PIMC) and the seat-rotation evaluation.

Rules: docs/rules.md (Differenzler); protocol: docs/bots.md.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import evaluate as ev
from agents.bots.differenzler import DifferenzlerHeuristic, DifferenzlerPIMC
from agents.evaluation.deals import make_rotation_deal
from agents.evaluation.rotation import evaluate_rotation, play_rotations
from agents.evaluation.table import Table
from agents.random_bot import RandomAgent
from agents.registry import make_agent
from jass_env.engine.cards import card_id
from jass_env.engine.positions import set_play_position
from jass_env.engine.state import StateView, new_state
from jass_env.engine.transitions import for_game
from jass_env.games import make_rules
from jass_env.games.differenzler import KIND
from jass_env.games.differenzler.observation import encode_observation, obs_dim
from jass_env.games.differenzler.rules import predictions_of, set_predictions

GAMES = ("differenzler", "differenzler3")
ENGINE = for_game(KIND)


def predictions(st, rules) -> list[int | None]:
    """Every player's prediction in ``st`` (None before he made it)."""
    return predictions_of(st, rules.spec.players)


def bots(rules):
    return {"random": RandomAgent(seed=1, rules=rules), "heuristic": DifferenzlerHeuristic(rules),
            "pimc": DifferenzlerPIMC(rules, worlds=2, seed=1)}


def mask_of(hand_cards: list[str]) -> int:
    m = 0
    for c in hand_cards:
        m |= 1 << card_id(c)
    return m


def seat_obs(st, rules, player):
    obs = np.zeros(obs_dim(rules.spec), dtype=np.float32)
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    encode_observation(st, player, rules.params, obs)
    ENGINE.action_mask(st, rules.params, mask)
    return {"observation": obs, "action_mask": mask}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["random", "heuristic", "pimc"])
def test_every_bot_plays_only_legal_actions(game, name):
    """Each bot in every seat for many rounds; the table checks every action with the engine."""
    rules = make_rules(game)
    n = rules.spec.players
    rounds = 3 if name == "pimc" else 40
    table = Table(rules)
    for i in range(rounds):
        deal = make_rotation_deal(rules, 11, i)
        seats = [bots(rules)[name] for _ in range(n)]
        st = table.play_round(deal.start, seats)
        v = StateView(st, rules.params)
        assert v.is_over and sum(v.points) == 157
        assert all(p is not None and 0 <= p <= 157 for p in predictions(st, rules))


def test_random_prediction_is_the_rule_of_thumb():
    """2 x the card points of the trump cards + 11 per side Ace: the dealer holds all nine hearts,
    so hearts are trump whichever card is shown; forehand holds no trump and three side Aces."""
    rules = make_rules("differenzler")
    forehand = ["DA", "SA", "CA", "DK", "SK", "CK", "DQ", "SQ", "CQ"]
    dealer = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6"]
    rest = [c for c in (s + r for s in "DHSC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6"))
            if c not in forehand + dealer]
    hands = np.array([mask_of(forehand), mask_of(rest[:9]), mask_of(rest[9:]), mask_of(dealer)],
                     dtype=np.int64)
    st = new_state(rules.spec, 5)
    ENGINE.start_round(st, hands, 3, rules.params)
    bot = RandomAgent(seed=0, rules=rules)
    made = []
    for _ in range(4):
        a = bot.act(seat_obs(st, rules, int(StateView(st, rules.params).to_move)))
        made.append(a - 36)
        ENGINE.apply_action(st, a, rules.params)
    # forehand: no trump, 3 side Aces = 33; dealer: trumps A 11 + K 4 + Q 3 + J 20 + 10 10 + 9 14 = 62
    assert made[0] == 3 * 11
    assert made[3] == 2 * 62


def test_random_bot_needs_the_rules_to_predict():
    rules = make_rules("differenzler")
    st = new_state(rules.spec, 9)
    ENGINE.reset_match(st, False, rules.params)
    ENGINE.deal_round(st, 0, rules.params)
    with pytest.raises(ValueError, match="needs the rules"):
        RandomAgent(seed=0).act(seat_obs(st, rules, 1))


def ducking_position(prediction: int):
    """Trick 1, hearts trump: player 0 led the spade 10; player 1 holds SA, S9, S7 (and no trump)."""
    rules = make_rules("differenzler")
    me = ["SA", "S9", "S7", "D6", "D7", "D8", "C6", "C7", "C8"]
    p0 = ["S10", "HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7"]
    rest = [c for c in (s + r for s in "DHSC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6"))
            if c not in me + p0]
    hands = np.array([mask_of(p0[1:]), mask_of(me), mask_of(rest[:9]), mask_of(rest[9:]), 0, 0],
                     dtype=np.int64)
    played = np.array([mask_of(["S10"]), 0, 0, 0, 0, 0], dtype=np.int64)
    zeros = np.zeros(6, dtype=np.int64)
    trick = np.array([card_id("S10"), -1, -1, -1, -1, -1], dtype=np.int64)
    st = new_state(rules.spec, 1)
    set_play_position(st, hands, played, zeros, zeros, trick, 1, 0, 0, 0, -1, 1, 0, zeros, zeros, 1,
                      rules.params)
    set_predictions(st, np.array([40, prediction, 40, 40, -1, -1], dtype=np.int64), rules.params)
    return rules, st


def test_heuristic_ducks_at_target_and_wins_while_behind():
    # at target (prediction 0 = points 0): the highest spade that does not beat the 10 is the 9
    rules, st = ducking_position(0)
    assert DifferenzlerHeuristic(rules).act(seat_obs(st, rules, 1)) == card_id("S9")
    # behind (prediction 60): the Ace wins the trick and nobody can beat it
    rules, st = ducking_position(60)
    assert DifferenzlerHeuristic(rules).act(seat_obs(st, rules, 1)) == card_id("SA")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["random", "pimc"])
def test_bots_are_deterministic_for_a_seed(game, name):
    rules = make_rules(game)
    table = Table(rules)
    deal = make_rotation_deal(rules, 2, 0)
    finals = []
    for _ in range(2):
        seats = [bots(rules)[name] for _ in range(rules.spec.players)]
        for s, a in enumerate(seats):
            a.reset(seed=100 + s)
        finals.append(table.play_round(deal.start, seats))
    assert np.array_equal(finals[0], finals[1])


def rebuilt(st, rules, swap=None, new_predictions=None):
    """The card-play position of ``st`` rebuilt with set_play_position, optionally with two cards
    swapped between hands and other predictions."""
    v = StateView(st, rules.params)
    pad = lambda xs: np.array(list(xs) + [0] * (6 - len(xs)), dtype=np.int64)  # noqa: E731
    hands = v.hands
    if swap:
        (p, a), (q, b) = swap
        hands[p] = hands[p] & ~(1 << a) | (1 << b)
        hands[q] = hands[q] & ~(1 << b) | (1 << a)
    trick = pad(v.trick + [-1] * 6)
    out = new_state(rules.spec, 1)
    set_play_position(out, pad(hands), pad(v.played), pad(v.voids), pad([0] * 6), trick,
                      v.cards_in_trick, v.leader, v.forehand, 0, -1, v.contract, v.trick_number,
                      pad(v.points), pad(v.tricks_won), v.to_move, rules.params)
    set_predictions(out, pad(new_predictions or predictions(st, rules)), rules.params)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_hidden_hands_and_predictions_do_not_change_an_action(game):
    """Swap a card between two other hands and change another seat's hidden prediction: the
    observation and every bot's action of the seat to move stay the same."""
    rules = make_rules(game)
    n = rules.spec.players
    table = Table(rules)
    deal = make_rotation_deal(rules, 4, 1)
    st = deal.start.copy()
    h = [DifferenzlerHeuristic(rules) for _ in range(n)]
    for _ in range(n + 2):                           # predictions, then two cards
        ENGINE.apply_action(st, table.act(h[int(StateView(st, rules.params).to_move)], st), rules.params)
    v = StateView(st, rules.params)
    me = v.to_move
    p, q = (me + 1) % n, (me + 2) % n
    a = next(c for c in range(36) if v.hands[p] >> c & 1)
    q_cards = [c for c in range(36) if v.hands[q] >> c & 1]
    b = next((c for c in q_cards if c // 9 == a // 9), q_cards[0])     # same suit where possible
    preds = list(predictions(st, rules))
    preds[p] = (preds[p] + 37) % 158
    base = rebuilt(st, rules)
    changed = rebuilt(st, rules, swap=((p, a), (q, b)), new_predictions=preds)
    assert StateView(base, rules.params).hands != StateView(changed, rules.params).hands
    o1, o2 = seat_obs(base, rules, me), seat_obs(changed, rules, me)
    assert np.array_equal(o1["observation"], o2["observation"])
    for name in ("random", "heuristic", "pimc"):
        x, y = bots(rules)[name], bots(rules)[name]
        assert x.act(o1) == y.act(o2), name


@pytest.mark.parametrize("game", GAMES)
def test_rotation_plays_each_deal_once_per_seat_for_every_agent(game):
    rules = make_rules(game)
    n = rules.spec.players
    a = DifferenzlerHeuristic(rules)
    lineup = [a] + [RandomAgent(seed=s, rules=rules) for s in range(n - 1)]
    keep = []
    deal = make_rotation_deal(rules, 3, 5)
    res = play_rotations(Table(rules), deal, lineup, 3, keep)
    assert len(keep) == n and len(res.penalties) == n
    start = StateView(deal.start, rules.params)
    for _, st in keep:                     # the same hands and trump in every play
        v = StateView(st, rules.params)
        assert v.dealt == start.hands and v.contract == start.contract
    for agent in lineup:                             # every agent in every seat once
        assert sorted(seats.index(agent) for seats, _ in keep) == list(range(n))
    assert [seats.index(a) for seats, _ in keep] == list(range(n))


@pytest.mark.parametrize("game", GAMES)
def test_mirror_rotation_is_exactly_zero(game):
    res = evaluate_rotation("random", "random", game, deals=4, seed=1)
    assert res.summary["difference_A_minus_B"]["mean"] == 0.0
    assert all(r.diff == 0.0 for r in res.deals)


def test_registry_resolves_by_game():
    assert isinstance(make_agent("heuristic", "differenzler3"), DifferenzlerHeuristic)
    assert isinstance(make_agent("pimc:worlds=3", "differenzler"), DifferenzlerPIMC)
    assert type(make_agent("heuristic", "schieber")).__name__ == "HeuristicAgent"
    assert make_agent("random", "differenzler").rules.game == "differenzler"


def test_cli_rotation_end_to_end(tmp_path, capsys):
    out = tmp_path / "ev"
    rc = ev.main(["heuristic", "random", "--rules", "differenzler3", "--deals", "3", "--matches", "1",
                  "--out", str(out), "--quiet"])
    assert rc == 0
    s = json.loads((out / "summary.json").read_text())
    assert s["mode"] == "rotation" and s["deals"] == 3 and s["plays_per_deal"] == 3 and s["games"] == 3
    assert s["game_win_chance_level"] == pytest.approx(1 / 3)
    assert len((out / "deals.csv").read_text().splitlines()) == 1 + 3 * 3
    assert "A − B" in capsys.readouterr().out


def test_bad_input_is_a_named_error():
    from agents.registry import AgentSpecError

    with pytest.raises(AgentSpecError, match="heuristic only"):
        make_agent("pimc:rollout=random", "differenzler")
    with pytest.raises(ValueError, match="differenzler or differenzler3"):
        DifferenzlerHeuristic("schieber")
    rules = make_rules("differenzler3")
    obs = {"observation": np.zeros(obs_dim(make_rules("differenzler").spec), dtype=np.float32),
           "action_mask": np.ones(194, dtype=np.int8)}
    with pytest.raises(ValueError, match="an observation of 343"):
        DifferenzlerHeuristic(rules).act(obs)


def test_pimc_time_limit_stops_adding_worlds():
    rules = make_rules("differenzler")
    deal = make_rotation_deal(rules, 1, 0)
    bot = DifferenzlerPIMC(rules, worlds=10**6, time_limit=0.01, seed=1)
    st = deal.start.copy()
    a = bot.act(seat_obs(st, rules, int(StateView(st, rules.params).to_move)))
    assert 36 <= a < 194 and 1 <= bot.last_worlds < 10**6


def test_heuristic_minds_the_last_tricks_five():
    """Next-to-last trick, hearts trump, at target: player 0 led the diamond 6; player 1 holds the
    diamond Ace and the Puur (the highest trump). Both win this trick; keeping the Puur would also
    win the last trick and its 5, so the Puur goes now and the Ace is kept (a trump is still out,
    so the Ace cannot be sure of the last trick)."""
    rules = make_rules("differenzler")
    held = {0: ["C7"], 1: ["DA", "HJ"], 2: ["H6", "C8"], 3: ["S6", "S7"]}
    every = [s + r for s in "DHSC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6")]
    rest = [c for c in every if c != "D6" and all(c not in h for h in held.values())]
    played = [rest[7 * p:7 * p + 7] + (["D6"] if p == 0 else []) for p in range(4)]
    hands = np.array([mask_of(held[p]) for p in range(4)] + [0, 0], dtype=np.int64)
    played_m = np.array([mask_of(played[p]) for p in range(4)] + [0, 0], dtype=np.int64)
    zeros = np.zeros(6, dtype=np.int64)
    trick = np.array([card_id("D6"), -1, -1, -1, -1, -1], dtype=np.int64)
    points = np.array([40, 30, 40, 42, 0, 0], dtype=np.int64)
    tricks = np.array([2, 2, 2, 1, 0, 0], dtype=np.int64)
    st = new_state(rules.spec, 1)
    set_play_position(st, hands, played_m, zeros, zeros, trick, 1, 0, 0, 0, -1, 1, 7, points, tricks, 1,
                      rules.params)
    set_predictions(st, np.array([40, 30, 40, 40, -1, -1], dtype=np.int64), rules.params)
    obs = seat_obs(st, rules, 1)
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted([card_id("DA"), card_id("HJ")])
    assert DifferenzlerHeuristic(rules).act(obs) == card_id("HJ")


def test_pimc_decides_a_batch_by_its_own_search_not_by_the_heuristic():
    """Batched evaluation (the trainer's and the distillation's, agents.batched) asks a bot for a
    batch of decisions: PIMC's must be its search, row by row, as its act() decides them, not the
    heuristic's batch form it would otherwise inherit."""
    from agents.batched import SpecBot
    from jass_env import Round

    rules = make_rules("differenzler")
    rows = []
    for seed in range(12):
        r = Round(rules, seed=seed)
        bot = RandomAgent(rules=rules, seed=seed)
        while not r.is_over:
            obs = np.zeros(obs_dim(rules.spec), dtype=np.float32)
            encode_observation(r.state, r.to_move, rules.params, obs)
            mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
            mask[r.legal_actions()] = 1
            if mask[:36].sum() >= 3:
                rows.append((obs, mask))
            r.step(bot.act({"observation": obs, "action_mask": mask}))
    obs, mask = np.stack([o for o, _ in rows]), np.stack([m for _, m in rows])
    batch = SpecBot("pimc:worlds=30", rules, seed=4).actions(obs, mask)
    one_by_one = make_agent("pimc:worlds=30", rules, seed=4)
    assert batch.tolist() == [one_by_one.act({"observation": o, "action_mask": m}) for o, m in rows]
    assert (batch != SpecBot("heuristic", rules, seed=4).actions(obs, mask)).any()


@pytest.mark.parametrize("game", GAMES)
def test_search_with_the_heuristic_play_out_over_every_card_is_the_pimc(game):
    """The search's rollout=heuristic plays its worlds out as the PIMC does (every seat toward its
    prediction): searching every legal card with the same seed, each card's mean is minus the
    PIMC's penalty sum for it over the same worlds, divided by their number."""
    from agents.bots.differenzler import ViewDecoder, compiled_pimc
    from agents.search.pimc import decision_generator
    from agents.search.search import SearchAgent
    from jass_env import Round
    from jass_env.engine.state import state_size

    rules = make_rules(game)
    for deal in range(3):
        r = Round(rules, seed=deal)
        while not r.legal_actions()[0] < 36:                  # everyone predicts 50 points
            r.step(36 + 50)
        for _ in range(4 * deal):                            # the first trick, the fifth or the ninth card
            r.step(int(r.legal_actions()[0]))
        while len(r.legal_actions()) < 2:
            r.step(int(r.legal_actions()[0]))
        obs = seat_obs(r.state, rules, r.to_move)
        search = SearchAgent(rules, worlds=8, rollout="heuristic", seed=3)
        options, means = search.option_values(obs)
        assert options.tolist() == r.legal_actions().tolist()
        penalties = np.zeros(36, dtype=np.int64)
        pimc = compiled_pimc(rules.spec.kind).penalties
        pimc(ViewDecoder(rules)(obs), rules.params, state_size(rules.spec), 8,
             decision_generator(np.random.default_rng(3)), penalties)
        assert means.tolist() == (-penalties[options] / 8).tolist()


def test_the_heuristic_play_out_predicts_for_the_seats_still_to_predict():
    """At the forehand's prediction (contract=search) the worlds hold three seats still to predict:
    the play-out predicts the heuristic's estimate of each one's hand and plays the round out, so
    every world ends with four predictions and the round's 157 card points taken."""
    from agents.bots.differenzler import DifferenzlerWorlds, estimate_points
    from jass_env import Round
    from jass_env.engine.state import PHASE_OVER, contract, hand_of, phase, points_of

    rules = make_rules("differenzler")
    r = Round(rules, seed=5)
    model = DifferenzlerWorlds(rules)
    worlds, _ = model.worlds(seat_obs(r.state, rules, r.to_move), 6, np.array([12345], dtype=np.int64))
    dealt = [[int(hand_of(w, p)) for p in range(4)] for w in worlds]
    for w in worlds:
        ENGINE.apply_action(w, 36 + 40, rules.params)                # the searcher predicts 40
    model.play_out(worlds)
    for w, hands in zip(worlds, dealt):
        assert phase(w) == PHASE_OVER and sum(int(points_of(w, p)) for p in range(4)) == 157
        assert predictions_of(w, 4) == [40] + [estimate_points(hands[p], contract(w), 4, rules.params)
                                              for p in (1, 2, 3)]
