"""Differenzler's rules (docs/games/differenzler.md "Rules"), in both player counts.

Expected values come from the rules text: the penalty table (45 → 52 points: 7; an exact 52: −10;
an exact 0: 0, or −10 with ``zero_bid_bonus="zero_point_trick"`` and a trick won; an exact 157:
−10), the 157 card points of a round, the order of predictions, the under-trump ban only for a
player who holds the led suit, and the end of a game (lowest total after the rounds; a tie for
the lowest plays one more round).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass_env import IllegalActionError, Match, Round, make_rules
from jass_env.engine.cards import card_id, mask_of, names_of
from jass_env.engine.weis import MAX_WEIS, player_weis

GAMES = ("differenzler", "differenzler3")
EXACT = -10          # the penalty of an exact hit above 0


def lowest_card_policy(r: Round) -> int:
    return int(r.legal_actions()[0])


def play_round(r: Round, predictions: list[int]) -> Round:
    """Predict (``predictions[p]`` for player p, in the engine's turn order), then play every
    trick with the lowest legal card."""
    while r.phase == "prediction":
        r.step(f"predict {predictions[r.to_move]}")
    while not r.is_over:
        r.step(lowest_card_policy(r))
    return r


def points_after(rules, seed: int) -> list[int]:
    """Each player's card points of the seeded deal played with the lowest-card policy."""
    return play_round(Round(rules, seed=seed), [0] * make_rules(rules).spec.players).points


def find_seed(rules, wanted) -> tuple[int, int]:
    """A seed and a player for which ``wanted(points, tricks_won, player)`` holds."""
    for seed in range(5000):
        r = play_round(Round(rules, seed=seed), [0] * make_rules(rules).spec.players)
        for p in range(r.spec.players):
            if wanted(r.points[p], r.tricks_won[p]):
                return seed, p
    raise AssertionError("no such deal in 5000 seeds")


# the penalty table
@pytest.mark.parametrize("game", GAMES)
def test_predicting_45_and_taking_52_costs_7_and_an_exact_52_gets_minus_10(game: str) -> None:
    seed, p = find_seed(game, lambda pts, _: pts == 52)
    for prediction, penalty in ((45, 7), (52, EXACT)):
        preds = [0] * make_rules(game).spec.players
        preds[p] = prediction
        r = play_round(Round(game, seed=seed), preds)
        assert r.points[p] == 52
        assert r.penalties[p] == penalty


@pytest.mark.parametrize("game", GAMES)
def test_an_exact_zero_is_0_unless_zero_point_trick_and_a_trick_was_won(game: str) -> None:
    seed, p = find_seed(game, lambda pts, tricks: pts == 0 and tricks >= 1)
    assert play_round(Round(game, seed=seed), [0] * make_rules(game).spec.players).penalties[p] == 0
    bonus = make_rules(game, zero_bid_bonus="zero_point_trick")
    r = play_round(Round(bonus, seed=seed), [0] * bonus.spec.players)
    assert r.points[p] == 0 and r.tricks_won[p] >= 1 and r.penalties[p] == EXACT
    # no trick won: an exact 0 stays 0 also with the switch
    seed, p = find_seed(bonus, lambda pts, tricks: tricks == 0)
    assert play_round(Round(bonus, seed=seed), [0] * bonus.spec.players).penalties[p] == 0


def test_an_exact_157_gets_minus_10() -> None:
    """Forehand holds all nine hearts, hearts are trump: he takes every trick, all 157 points."""
    rules = make_rules("differenzler", trump_mode="random_suit")
    hearts = [c for c in names_of((1 << 36) - 1) if c[0] == "H"]
    rest = [c for c in names_of((1 << 36) - 1) if c[0] != "H"]
    hands = [rest[0:9], hearts, rest[9:18], rest[18:27]]
    r = play_round(Round(rules, hands=hands, dealer=0, trump="H"), [0, 157, 0, 0])
    assert r.points == [0, 157, 0, 0] and r.tricks_won[1] == 9
    assert r.penalties == [0, EXACT, 0, 0]


# deal and phases
@pytest.mark.parametrize("game,players,cards", [("differenzler", 4, 9), ("differenzler3", 3, 12)])
def test_the_deal_and_the_bottom_card(game: str, players: int, cards: int) -> None:
    for seed in range(30):
        r = Round(game, seed=seed)
        hands = [mask_of(r.hand(p)) for p in range(players)]
        assert all(len(r.hand(p)) == cards for p in range(players))
        assert sum(hands) == (1 << 36) - 1
        assert r.trump_card in r.hand(r.dealer)             # a card of the dealer's hand ...
        assert r.contract == r.trump_card[0]                # ... whose suit is trump
        assert r.phase == "prediction" and r.to_move == r.forehand == (r.dealer + 1) % players


def test_random_suit_shows_no_card() -> None:
    suits = set()
    for seed in range(40):
        r = Round(make_rules("differenzler", trump_mode="random_suit"), seed=seed)
        assert r.trump_card is None and r.contract in "DHSC"
        suits.add(r.contract)
    assert suits == set("DHSC")


@pytest.mark.parametrize("game", GAMES)
def test_forehand_predicts_first_the_dealer_last_then_forehand_leads(game: str) -> None:
    r = Round(game, seed=5)
    n = r.spec.players
    order = []
    while r.phase == "prediction":
        order.append(r.to_move)
        assert len(r.legal_actions()) == 158                 # every prediction 0..157
        r.step(36 + 10 * len(order))                         # action 36 + k predicts k
    assert order == [(r.dealer + 1 + k) % n for k in range(n)]
    assert r.predictions[order[0]] == 10 and r.predictions[r.dealer] == 10 * n
    assert r.phase == "play" and r.leader == r.to_move == r.forehand
    assert all(a < 36 for a in r.legal_actions())
    with pytest.raises(IllegalActionError, match="may not play predict 3"):
        r.step(39)


def test_a_prediction_outside_0_to_157_is_not_an_action() -> None:
    r = Round("differenzler", seed=1)
    with pytest.raises(IllegalActionError, match="not a differenzler action"):
        r.step(36 + 158)
    with pytest.raises(IllegalActionError, match="not a differenzler action"):
        r.step("predict 158")


def test_no_weis_stoeck_or_match_bonus() -> None:
    """All nine hearts with trump K and Q: still exactly 157 and no Weis or Stöck."""
    rules = make_rules("differenzler", trump_mode="random_suit")
    hearts = [c for c in names_of((1 << 36) - 1) if c[0] == "H"]
    rest = [c for c in names_of((1 << 36) - 1) if c[0] != "H"]
    r = play_round(Round(rules, hands=[rest[0:9], hearts, rest[9:18], rest[18:27]], dealer=0, trump="H"),
                   [0, 0, 0, 0])
    assert sum(r.points) == 157 and r.weis() == [] and r.stoeck_player is None and r.match_team is None


# under-trumping
def _position(void_in_clubs: bool) -> Round:
    """Trump ♦. Forehand (player 1) leads ♣6, player 2 trumps with ♦J; player 3 holds ♦6 and
    either ♣7 (he could follow) or no club at all."""
    rules = make_rules("differenzler", trump_mode="random_suit")
    p1 = ["C6", "C8", "C9", "S6", "S7", "S8", "S9", "S10", "SJ"]
    p2 = ["DJ", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"]
    p3 = ["D6", "HA", "SQ", "SK", "SA", "D7", "D8", "D9"] + (["D10"] if void_in_clubs else ["C7"])
    used = set(p1 + p2 + p3)
    p0 = [c for c in names_of((1 << 36) - 1) if c not in used]
    r = Round(rules, hands=[p0, p1, p2, p3], dealer=0, trump="D")
    for _ in range(4):
        r.step("predict 0")
    r.step("C6")
    r.step("DJ")
    return r


def test_a_player_holding_the_led_suit_may_not_undertrump() -> None:
    r = _position(void_in_clubs=False)
    legal = {names_of(1 << int(a))[0] for a in r.legal_actions()}
    assert "C7" in legal and not legal & {"D6", "D7", "D8", "D9"}


def test_a_player_void_in_the_led_suit_may_undertrump() -> None:
    r = _position(void_in_clubs=True)
    legal = {names_of(1 << int(a))[0] for a in r.legal_actions()}
    assert {"D6", "D7", "D8", "D9", "D10", "HA", "SQ", "SK", "SA"} == legal


# the game
def test_a_game_is_12_rounds_and_a_tie_for_the_lowest_plays_one_more() -> None:
    rules = make_rules("differenzler", match_rounds=1)
    for seed in range(100):   # a deal in which every player takes some points
        learn = Match(rules, seed=seed)
        while learn.round.phase == "prediction":
            learn.step("predict 0")
        while not learn.is_over:
            learn.step(lowest_card_policy(learn.round))
        first_points = learn.finished_rounds[0].points
        if min(first_points) > 0:
            break
    # everybody predicts his exact points: all at -10, a four-way tie: one more round
    m = Match(rules, seed=seed)
    while m.round.phase == "prediction":
        m.step(f"predict {first_points[m.round.to_move]}")
    while m.rounds_done == 0:
        m.step(lowest_card_policy(m.round))
    assert m.scores == [EXACT] * 4 and m.winner is None and not m.is_over
    # the extra round: whoever has the lowest total now wins
    while m.round.phase == "prediction":
        m.step("predict 0")
    while not m.is_over:
        m.step(lowest_card_policy(m.round))
    low = min(m.scores)
    assert m.scores.count(low) == 1 and m.winner == m.scores.index(low)
    assert make_rules("differenzler").match_rounds == 12


# properties
@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1), rnd=st.randoms(use_true_random=False),
       switches=st.fixed_dictionaries({"trump_mode": st.sampled_from(["bottom_card", "random_suit"]),
                                       "zero_bid_bonus": st.sampled_from(["never", "zero_point_trick"])}))
def test_random_rounds_keep_the_rules(game, seed, rnd, switches) -> None:
    rules = make_rules(game, **switches)
    r = Round(rules, seed=seed)
    n = rules.spec.players
    seen = 0
    while not r.is_over:
        legal = [int(a) for a in r.legal_actions()]
        assert legal
        if r.phase == "play":
            hand = mask_of(r.hand(r.to_move))
            assert all(a < 36 and hand >> a & 1 for a in legal)
        a = rnd.choice(legal)
        if a < 36:
            assert not seen >> a & 1
            seen |= 1 << a
        r.step(a)
    assert seen == (1 << 36) - 1                              # every card played once
    assert sum(r.points) == 157 and sum(t["points"] for t in r.tricks) == 157
    assert sum(r.tricks_won) == rules.spec.tricks
    for p in range(n):
        pred, pts = r.predictions[p], r.points[p]
        exact = pred == pts and (pred > 0 or (switches["zero_bid_bonus"] == "zero_point_trick"
                                              and r.tricks_won[p] > 0))
        assert r.penalties[p] == (EXACT if exact else abs(pred - pts))


# Weis of 12 cards
def _weis(hand: list[str], kreuzweis: bool) -> list[int]:
    rules = make_rules("schieber", kreuzweis=kreuzweis)
    buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
    k = player_weis(mask_of(hand), card_id("HA") // 9, 0, rules.params, buf)
    return sorted(int(buf[i, 0]) for i in range(k))


def test_a_12_card_hand_holds_three_quads() -> None:
    """Four Aces, four Kings, four 9s: three quads (100, 100, 150); A-K alone is no sequence."""
    hand = [s + r for s in "DHSC" for r in ("A", "K", "9")]
    assert _weis(hand, kreuzweis=True) == [100, 100, 150]
    assert _weis(hand, kreuzweis=False) == [100, 100, 150]


def test_three_quads_and_four_sequences_with_and_without_kreuzweis() -> None:
    """Q-K-A in every suit: three 100-quads and four 20-sequences with Kreuzweis; without it the
    best choice keeps the three quads (300 > 4 x 20)."""
    hand = [s + r for s in "DHSC" for r in ("A", "K", "Q")]
    assert _weis(hand, kreuzweis=True) == [20, 20, 20, 20, 100, 100, 100]
    assert _weis(hand, kreuzweis=False) == [100, 100, 100]


@pytest.mark.parametrize("game", GAMES)
def test_the_demo_prints_each_players_prediction_points_and_penalty(game: str) -> None:
    import io

    from jass_env.demo import play_and_print
    out = io.StringIO()
    r = play_and_print(game, seed=2, out=out)
    text = out.getvalue()
    assert f"trump {r.contract} (the dealer's" in text and "team" not in text
    for p in range(r.spec.players):
        assert (f"player {p}: predicted {r.predictions[p]}, took {r.points[p]} -> penalty "
                f"{r.penalties[p]}") in text
