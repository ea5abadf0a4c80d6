"""Molotow for five and six players (docs/games/molotow.md "Rules"), and the player count as a switch.

Expected values come from the rules text: five players take the ♠7 out of the deck and get 7 cards
each (35 cards, 7 tricks), six get 6 each (36 cards, 6 tricks); a hand has 157 points (the ♠7
counts 0 in every contract); a table run of 5 scores 100 and of 6 scores 150 for the trick's
winner; with 5 or 6 players trump is always fixed (no suit of 9 cards, or 8 spades, splits evenly
among them). The deals of the other games are those the engine gave before the deck became a
switch (recorded on the commit before it, 7f87a01).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ALL_CARDS, deal, play
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.bots import _first_discard as dp
from agents.evaluation.deals import make_deal
from jass_env import Round
from jass_env.engine.cards import CONTRACTS, card_id, card_values, names_of
from jass_env.engine.spec import MAX_PLAYERS, MAX_TRICKS
from jass_env.engine.switches import RP_DECK, RulesError
from jass_env.envs import encoding
from jass_env.envs.aec import env
from jass_env.games import make_rules, overrides, preset
from jass_env.records import check_records, record_line, record_of

SPADE_7 = "S7"
DECK_5 = tuple(c for c in ALL_CARDS if c != SPADE_7)
ROUND_POINTS = 157
#: players -> (cards per hand = tricks, cards dealt)
DEALS = {"molotow5": (5, 7, 35), "molotow6": (6, 6, 36)}


def play_out(r: Round, seed: int) -> Round:
    """Random legal cards (seeded) to the end of the hand."""
    rng = np.random.default_rng(seed)
    while not r.is_over:
        r.step(int(rng.choice(r.legal_actions())))
    return r


# the deal
@pytest.mark.parametrize("game", DEALS)
def test_the_deal_gives_each_player_his_cards_from_the_games_deck(game: str) -> None:
    players, size, dealt = DEALS[game]
    for seed in range(40):
        r = Round(game, seed=seed)
        hands = [r.dealt_hand(p) for p in range(players)]
        assert [len(h) for h in hands] == [size] * players
        cards = [c for h in hands for c in h]
        assert len(set(cards)) == dealt
        if game == "molotow5":
            assert SPADE_7 not in cards and set(cards) == set(DECK_5)
        else:
            assert set(cards) == set(ALL_CARDS)


@pytest.mark.parametrize("game", DEALS)
def test_a_hand_is_played_in_as_many_tricks_as_cards_and_has_157_points(game: str) -> None:
    players, size, _ = DEALS[game]
    for seed in range(10):
        r = play_out(Round(game, seed=seed), seed)
        assert r.trick_number == size
        assert sum(r.points) == ROUND_POINTS


def test_the_spade_7_counts_0_in_every_contract() -> None:
    assert all(card_values(c)[card_id(SPADE_7)] == 0 for c in range(len(CONTRACTS)))


def test_the_deck_is_declared_once_and_reaches_the_engine() -> None:
    assert make_rules("molotow5").spec.removed == (SPADE_7,)
    assert make_rules("molotow5").params[RP_DECK] == (1 << 36) - 1 - (1 << card_id(SPADE_7))
    for game in ("schieber", "molotow", "molotow6", "sidi", "schieber6"):
        assert make_rules(game).params[RP_DECK] == (1 << 36) - 1


@pytest.mark.parametrize(("game", "seed", "dealer", "hands"), [
    ("schieber", 7, 2, [19370420225, 42970908420, 1946685538, 4431462552]),
    ("molotow", 7, 2, [19370420225, 42970908420, 1946685538, 4431462552]),
    ("molotow3", 11, 2, [403632706, 54859399553, 13456444476]),
    ("differenzler", 3, 2, [1075939890, 26667393032, 6476547141, 34499596672]),
    ("schieber6", 5, 2, [2637988, 17922392064, 8606720770, 1375732816, 9539592, 40802453505]),
    ("sidi", 2, 1, [49773, 15762]),
    ("mittlere", 4, 2, [56106779666, 10402030177, 2210666892]),
])
def test_the_other_games_deal_exactly_as_before(game, seed, dealer, hands) -> None:
    """Recorded on 7f87a01, before the deck switch: skipping no card draws the same numbers."""
    r = Round(game, seed=seed)
    assert r.dealer == dealer and [int(h) for h in r.view.dealt[:r.spec.players]] == hands


def test_the_evaluation_deal_sets_are_unchanged() -> None:
    assert make_deal(0, 3).hands == (19333683210, 39997424688, 9353298500, 35070337)


def test_explicit_hands_holding_the_spade_7_are_refused_in_molotow5() -> None:
    hands = deal({0: [SPADE_7]}, players=5, hand_size=7)
    with pytest.raises(ValueError, match="hand 0 holds S7, which is not in the molotow5 deck"):
        Round("molotow5", hands=hands)
    Round("molotow5", hands=deal({}, players=5, hand_size=7, deck=DECK_5))


# table runs
@pytest.mark.parametrize(("game", "run", "points"), [
    ("molotow5", ["H6", "H7", "H8", "H9", "H10"], 100),
    ("molotow6", ["H6", "H7", "H8", "H9", "H10", "HJ"], 150),
])
def test_a_table_run_of_5_scores_100_and_of_6_scores_150_for_the_tricks_winner(game, run, points) -> None:
    """Forehand (player 0) leads the ♥6 and everyone follows with the next heart: no trump yet, so
    the highest heart (Obenabe ranking), the last player's, wins the run."""
    players, size, _ = DEALS[game]
    deck = DECK_5 if game == "molotow5" else ALL_CARDS
    hands = deal({p: [card] for p, card in enumerate(run)}, players=players, hand_size=size, deck=deck)
    r = Round(game, hands=hands, dealer=players - 1)
    play(r, *run)
    winner = players - 1
    assert r.table_weis() == [{"player": winner, "trick": 1, "cards": run[::-1], "points": points}]
    play_out(r, 0)
    assert r.table_weis()[0]["points"] == points
    assert r.score[winner] == (r.points[winner] + sum(w["points"] for w in r.table_weis()
                                                       if w["player"] == winner)
                               - sum(w["points"] for w in r.hand_weis() if w["player"] == winner)
                               - (20 if r.stoeck_shown and r.stoeck_player == winner else 0))


# trump
@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(list(DEALS)), seed=st.integers(0, 2**31 - 1))
def test_trump_is_always_fixed_with_five_or_six_players(game: str, seed: int) -> None:
    r = play_out(Round(game, seed=seed), seed)
    assert r.trump is not None and sum(r.points) == ROUND_POINTS


# PIMC worlds
def test_pimc_worlds_of_molotow5_never_hold_the_spade_7() -> None:
    rules = make_rules("molotow5")
    r = Round(rules, seed=9)
    for _ in range(8):                       # into trick 2: some cards played
        r.step(int(r.legal_actions()[0]))
    obs = np.zeros(encoding.obs_dim(rules), dtype=np.float32)
    me = r.to_move
    r.game.observation.encode_observation(r.state, me, rules.params, obs)
    mask = np.zeros(36, dtype=np.int8)
    rp = rules.params
    r.engine.action_mask(r.state, rp, mask)
    v = dp.decode_view({"observation": obs, "action_mask": mask}, rules)
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    rng = np.array([4242], dtype=np.int64)
    played = 0
    for p in range(5):
        played |= int(r.view.played[p])
    for _ in range(300):
        dp.sample_world(v, rules.params, rng, hands, plays, winners)
        held = 0
        for rel in range(5):
            assert not hands[rel] >> card_id(SPADE_7) & 1
            held |= int(hands[rel])
        assert sorted(names_of(held | played)) == sorted(DECK_5)


# records
@pytest.mark.parametrize("game", DEALS)
def test_records_of_five_and_six_players_check_clean(game: str) -> None:
    players, size, _ = DEALS[game]
    records = [record_of(play_out(Round(game, seed=s), s), id=s) for s in range(6)]
    for rec in records:
        assert rec["rules"] == game and len(rec["hands"]) == players and len(rec["tricks"]) == size
        assert all(len(t["plays"]) == players for t in rec["tricks"]) and sum(rec["points"]) == ROUND_POINTS
    report = check_records([record_line(rec) for rec in records])
    assert report.ok and report.summary() == "6 records, 0 disagree"


def test_a_molotow5_record_with_the_spade_7_in_a_hand_is_refused() -> None:
    rec = record_of(play_out(Round("molotow5", seed=1), 1))
    swapped = rec["hands"][0][0]                      # that card becomes the ♠7 everywhere
    line = record_line(rec).replace(f'"{swapped}"', f'"{SPADE_7}"')
    lines = check_records([line]).lines()
    assert any("hands[0] holds S7, which is not in the molotow5 deck" in line for line in lines), lines


# the switch
def test_the_players_switch_picks_the_molotow_game_for_3_to_6() -> None:
    assert {n: make_rules("molotow", players=n).game for n in (3, 4, 5, 6)} == {
        3: "molotow3", 4: "molotow", 5: "molotow5", 6: "molotow6"}
    assert make_rules("molotow", players=5) == preset("molotow5")
    five = make_rules("molotow", players=5, stoeck=0)
    assert five.name == "molotow5" and overrides(five) == {"stoeck": 0}
    assert overrides(make_rules(five, players=6)) == {"stoeck": 0}      # the changed switch is kept
    assert make_rules("molotow5", players=4) == preset("molotow")


def test_the_players_switch_picks_the_spec_of_schieber_and_differenzler_too() -> None:
    assert {n: make_rules("schieber", players=n).game for n in (4, 6)} == {4: "schieber", 6: "schieber6"}
    assert {n: make_rules("differenzler", players=n).game for n in (3, 4)} == {
        3: "differenzler3", 4: "differenzler"}


@pytest.mark.parametrize(("rules", "players", "words"), [
    ("molotow", 7, "bad value 7 for rule switch 'players' in molotow; allowed: 3, 4, 5, 6"),
    ("molotow", 2, "allowed: 3, 4, 5, 6"),
    ("molotow", "5", "bad value '5'"),
    ("coiffeur", 6, "the 'players' switch does not apply to coiffeur (it is played by 4 players only)"),
    ("mittlere", 4, "does not apply to mittlere"),
])
def test_other_player_counts_and_games_are_refused(rules, players, words) -> None:
    with pytest.raises(RulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        make_rules(rules, players=players)


def test_a_game_chosen_by_the_switch_records_and_plays_as_its_preset(tmp_path) -> None:
    e = env(rules="molotow", rule_overrides={"players": 5})
    assert e.unwrapped.rules.game == "molotow5" and len(e.possible_agents) == 5
    rec = record_of(play_out(Round(make_rules("molotow", players=5), seed=3), 3))
    assert rec["rules"] == "molotow5" and "rule_overrides" not in rec
    rec_switch = {**rec, "rules": "molotow", "rule_overrides": {"players": 5}}
    assert check_records([record_line(rec), record_line(rec_switch)]).ok
