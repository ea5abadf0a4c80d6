"""Sidi-Jass for two (docs/games/sidi.md "Rules", the project's own rules): 8 cards each, a stock of 20 under
the open trump card, the winner of a trick draws first, free play while the stock lasts and the
Schieber card-play rules once it is empty, the exchange of the trump 6, Weis from the dealt hands
compared between the two players, Stöck, 157 points with the last trick, +100 for all 18 tricks,
and the game to 1000 with the official finish (Stöck – Weis – tricks).

Expected values come from the rules text: card values (trump J 20, 9 14, A 11, 10 10, K 4, Q 3;
plain A 11, 10 10, K 4, Q 3, J 2), Weis values (runs of 3/4/…/8: 20/50/100/150/200/250, four Aces
100), Stöck 20, the bonus for all tricks 100, the target 1000.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import ALL_CARDS, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jass_env import Match, Round, make_rules
from jass_env.engine.cards import card_id
from jass_env.engine.positions import set_match_scores
from jass_env.round import IllegalActionError

EXCHANGE = 36
STOCK = 20
FREE_TRICKS = 10
TRICKS = 18
ROUND_POINTS = 157
ALL_TRICKS_BONUS = 100
STOECK = 20
TARGET = 1000
PLAIN_ORDER = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")    # a plain suit, low to high
TRUMP_ORDER = ("6", "7", "8", "10", "Q", "K", "A", "9", "J")    # the trump suit, low to high


def sidi_round(hand0: Sequence[str], hand1: Sequence[str], top: Sequence[str] = (), face_up: str = "H10",
               dealer: int = 0, match_scores: Sequence[int] | None = None) -> Round:
    """A Sidi round from chosen hands; the stock is ``top`` (its first cards, top first), then
    the other undealt cards in card order, then the face-up ``face_up``. With ``match_scores``
    the round is the current round of a game to 1000 at that score."""
    rest = [c for c in ALL_CARDS if c not in (*hand0, *hand1, *top, face_up)]
    r = Round("sidi", hands=[list(hand0), list(hand1)], dealer=dealer)
    r.set_stock([*top, *rest, face_up])
    if match_scores is not None:
        r.engine.reset_match(r.state, True, r.rp)
        set_match_scores(r.state, list(match_scores), r.rp)
    return r


def legal_names(r: Round) -> set[str]:
    return {r.spec.action_names[a] for a in r.legal_actions()}


def rank(card: str) -> str:
    return card[1:]


# the deal
def test_the_deal_eight_cards_each_and_a_stock_of_twenty_under_the_open_trump_card() -> None:
    r = Round("sidi", seed=5, dealer=0)
    assert [len(r.hand(p)) for p in (0, 1)] == [8, 8]
    assert len(r.stock) == STOCK and r.stock_left == STOCK
    assert set(r.stock) | set(r.hand(0)) | set(r.hand(1)) == set(ALL_CARDS)
    assert r.trump_card == r.stock[-1] == r.face_up_card
    assert r.trump == r.trump_card[0]
    assert r.to_move == r.leader == 1              # the non-dealer leads trick 1


def test_explicit_stock_must_be_the_undealt_cards() -> None:
    r = Round("sidi", hands=[ALL_CARDS[:8], ALL_CARDS[8:16]], dealer=0)
    with pytest.raises(ValueError, match="the 20 cards not dealt"):
        r.set_stock(ALL_CARDS[16:35])              # 19 cards
    with pytest.raises(ValueError, match="the 20 cards not dealt"):
        r.set_stock([*ALL_CARDS[17:36], ALL_CARDS[0]])   # a dealt card
    r.step(int(r.legal_actions()[0]))
    with pytest.raises(ValueError, match="before the first action"):
        r.set_stock(ALL_CARDS[16:])


# drawing and play
H0 = ["D6", "D8", "S6", "S8", "C6", "C8", "D10", "S10"]
H1 = ["DA", "SA", "CA", "DK", "HK", "H7", "C7", "S7"]


def test_the_winner_draws_the_top_card_then_the_loser() -> None:
    """Player 1 leads ♦A, player 0 plays ♦6: player 1 wins and draws the top card (♣K), player
    0 the next (♣J)."""
    r = sidi_round(H0, H1, top=["CK", "CJ"], face_up="H10")
    play(r, "DA", "D6")
    assert r.tricks[0]["winner"] == 1 and r.tricks[0]["points"] == 11
    assert "CK" in r.hand(1) and "CJ" in r.hand(0)
    assert [len(r.hand(p)) for p in (0, 1)] == [8, 8]
    assert r.stock_left == STOCK - 2 and r.to_move == 1


def test_any_card_may_be_played_while_the_stock_lasts() -> None:
    """♦ led, player 0 holds diamonds and no trump: he may still play a spade or a club."""
    r = sidi_round(H0, H1, face_up="H10")
    play(r, "DA")
    assert legal_names(r) == set(H0)
    play(r, "S6")                                   # not following: allowed, shows no void
    assert r.view.voids[0] == 0


def test_the_face_up_trump_card_is_drawn_last_and_then_suit_must_be_followed() -> None:
    """After ten tricks the stock is empty, the loser of trick 10 holds the face-up card, and the
    card-play rules apply: holding the led suit, only that suit or a trump."""
    r = sidi_round(H0, H1, face_up="H10")
    for _ in range(FREE_TRICKS):
        assert r.stock_left > 0
        r.step(int(r.legal_actions()[0]))
        r.step(int(r.legal_actions()[0]))
    assert r.stock_left == 0 and r.face_up_card is None
    loser = 1 - r.tricks[FREE_TRICKS - 1]["winner"]
    assert "H10" in r.hand(loser)
    assert [len(r.hand(p)) for p in (0, 1)] == [8, 8]
    lead = next(c for c in r.hand(r.to_move) if c[0] != "H")
    r.step(lead)
    hand = r.hand(r.to_move)
    follow = {c for c in hand if c[0] == lead[0]}
    trumps = {c for c in hand if c[0] == "H"}
    assert legal_names(r) == ((follow | trumps) if follow else set(hand))


# the exchange
def test_the_holder_of_the_trump_6_may_exchange_it_when_he_leads() -> None:
    """Trump ♥ (the ♥A face up); player 1 (leader) holds the ♥6: the exchange is legal for him,
    once; he then holds the ♥A and the ♥6 lies face up."""
    r = sidi_round(["D6", "D8", "S6", "S8", "C6", "C8", "D10", "S10"],
                   ["H6", "SA", "CA", "DK", "HK", "H7", "C7", "S7"], face_up="HA")
    assert EXCHANGE in r.legal_actions()
    r.step("exchange trump 6")
    assert "HA" in r.hand(1) and "H6" not in r.hand(1) and len(r.hand(1)) == 8
    assert r.face_up_card == "H6" and r.trump_card == "HA"
    assert r.exchange == {"player": 1, "trick": 1}
    assert EXCHANGE not in r.legal_actions()        # once
    play(r, "SA", "S6")
    assert EXCHANGE not in r.legal_actions()


def test_no_exchange_for_the_other_player_nor_when_following() -> None:
    """Player 0 holds the ♥6 but player 1 leads: not his turn to lead, so no exchange; it
    becomes legal when he leads trick 2."""
    r = sidi_round(["H6", "D8", "S6", "S8", "C6", "C8", "D10", "S10"],
                   ["DA", "SA", "CA", "DK", "HK", "H7", "C7", "S7"], face_up="HA")
    assert EXCHANGE not in r.legal_actions()        # player 1 leads, he has no ♥6
    play(r, "C7")
    assert EXCHANGE not in r.legal_actions()        # player 0 follows
    with pytest.raises(IllegalActionError, match="player 0 may not play exchange trump 6"):
        r.step(EXCHANGE)
    play(r, "C8")                                    # player 0 wins trick 1 and leads trick 2
    assert r.to_move == 0 and EXCHANGE in r.legal_actions()


def test_no_exchange_once_the_stock_is_empty_and_none_when_the_6_is_turned() -> None:
    r = sidi_round(H0, H1, face_up="H6")             # the face-up card is the 6 itself
    for _ in range(TRICKS):
        assert EXCHANGE not in r.legal_actions()
        r.step(int(r.legal_actions()[0]))
    assert r.exchange is None


# a whole round
# Player 1 holds the trumps ♥6..♥K, exchanges the ♥6 for the face-up ♥A and draws only honours;
# player 0 never wins a trick: all 18 tricks, 157 points, +100, the 8-run Weis 250, Stöck 20.
ALL_TRICKS_H0 = ["D6", "D8", "D10", "S6", "S8", "S10", "C6", "C8"]
ALL_TRICKS_H1 = ["H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"]
ALL_TRICKS_STOCK = ["DA", "D7", "SA", "D9", "CA", "S7", "DK", "S9", "DQ", "SJ", "DJ", "C7", "SK", "C9",
                    "SQ", "C10", "CK", "CJ", "CQ"]
ALL_TRICKS_LEADS = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "DA", "SA", "CA", "H7",
                    "DK", "DQ", "DJ", "SK", "SQ", "CK", "CQ"]


def losing_card(r: Round) -> str:
    """A legal card for player 0 that does not beat the lead."""
    lead = r.current_trick[0][1]
    for c in sorted(legal_names(r)):
        if c[0] == "H" and lead[0] != "H":
            continue
        if c[0] == lead[0]:
            order = TRUMP_ORDER if c[0] == "H" else PLAIN_ORDER
            if order.index(rank(c)) > order.index(rank(lead)):
                continue
        return c
    raise AssertionError(f"player 0 has no losing card on {lead}: {r.hand(0)}")


def test_all_eighteen_tricks_drawing_exchange_weis_and_stoeck() -> None:
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    assert r.weis() == [{"player": 1, "cards": ["HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6"],
                         "points": 250}]
    r.step("exchange trump 6")
    stock = [*ALL_TRICKS_STOCK, "H6"]                # the 6 lies face up after the exchange
    for t, lead in enumerate(ALL_TRICKS_LEADS):
        before = [set(r.hand(p)) for p in (0, 1)]
        r.step(lead)
        r.step(losing_card(r))
        drawn = [set(r.hand(p)) - before[p] for p in (0, 1)]
        if t < FREE_TRICKS:                          # the winner (1) draws first, then the loser
            assert drawn == [{stock[2 * t + 1]}, {stock[2 * t]}]
        else:
            assert drawn == [set(), set()]
    assert len(r.tricks) == TRICKS and all(len(t["plays"]) == 2 for t in r.tricks)
    assert r.tricks[FREE_TRICKS]["plays"] == [(1, "H7"), (0, "H6")]   # the 6 drawn last, by player 0
    assert r.tricks_won == [0, TRICKS] and r.points == [0, ROUND_POINTS]
    assert r.stoeck_player == 1 and r.stoeck_shown
    assert r.score == [0, ROUND_POINTS + ALL_TRICKS_BONUS + 250 + STOECK]


# Weis
def test_the_better_players_weis_all_count_the_others_none() -> None:
    """Player 1: four Aces (100) and ♣7-8-9 (20); player 0: ♦6-7-8-9 (50) and ♠6-7-8 (20)."""
    r = sidi_round(["D6", "D7", "D8", "D9", "S6", "S7", "S8", "H7"],
                   ["DA", "HA", "SA", "CA", "C7", "C8", "C9", "HJ"], face_up="H10")
    assert r.weis_team == 1 and r.weis_points == [0, 120]
    play(r, "C7", "D6")                              # Weis are written after trick 1
    assert r.score == [0, 120]


def test_a_weis_tie_goes_to_the_non_dealer() -> None:
    """♣6-7-8 against ♠6-7-8 (no trump, same top card): the player after the dealer wins."""
    for dealer in (0, 1):
        r = sidi_round(["C6", "C7", "C8", "DA", "H7", "D10", "SJ", "HJ"],
                       ["S6", "S7", "S8", "DK", "H8", "D9", "CJ", "H9"], face_up="H10", dealer=dealer)
        assert r.weis_team == 1 - dealer and r.weis_points[1 - dealer] == 20


def test_weis_come_from_the_dealt_cards_only() -> None:
    """Drawing ♥Q ♥K to ♥J gives no new Weis; the dealt hands have none."""
    r = sidi_round(["D6", "D8", "S6", "S8", "C6", "C8", "D10", "S10"],
                   ["DA", "HJ", "CA", "DK", "SK", "H7", "C7", "S7"], top=["HQ", "C9", "HK", "CJ"],
                   face_up="H10")
    play(r, "DA", "D6", "DK", "D8")                  # player 1 wins both and draws ♥Q, ♥K
    assert {"HQ", "HK", "HJ"} <= set(r.hand(1)) and r.weis_team is None and r.weis_points == [0, 0]


# Stöck
NO_WEIS = ["D6", "D8", "D10", "S6", "S8", "S10", "C6", "C8"]


def test_stoeck_for_holding_trump_k_and_q_at_once_after_a_draw() -> None:
    """Player 1 holds ♥K and draws ♥Q: Stöck, 20 when the second of them is played."""
    r = sidi_round(H0, H1, top=["HQ", "CJ"], face_up="H10")
    play(r, "DA", "D6")
    assert r.stoeck_player == 1 and not r.stoeck_shown
    before = r.score[1]
    play(r, "HK", "S6")
    assert r.score[1] == before + 4                  # the trick only
    play(r, "HQ", "S8")
    assert r.stoeck_shown and r.score[1] == before + 4 + 3 + STOECK


def test_no_stoeck_when_one_was_played_before_the_other_was_drawn() -> None:
    r = sidi_round(H0, H1, top=["HQ", "CJ"], face_up="H10")
    play(r, "HK", "D6")                              # ♥K played, then ♥Q drawn
    assert "HQ" in r.hand(1) and r.stoeck_player is None


def test_stoeck_for_the_exchange_that_completes_trump_k_and_q() -> None:
    """Player 1 (he leads trick 1) holds the ♥6 and the ♥Q, the ♥K lies face up: he exchanges the
    6 for the K and holds trump K and Q at once: Stöck, 20 when the second of them is played."""
    r = sidi_round(NO_WEIS, ["H6", "HQ", "SA", "CA", "C7", "S7", "DA", "C9"], face_up="HK")
    assert r.stoeck_player is None
    r.step("exchange trump 6")
    assert {"HK", "HQ"} <= set(r.hand(1))
    assert r.stoeck_player == 1 and not r.stoeck_shown
    play(r, "HK", "S6")                              # the trump K takes the ♠6: 4 points
    before = r.score[1]
    play(r, "HQ", "S8")
    assert r.stoeck_shown and r.score[1] == before + 3 + STOECK


def test_no_stoeck_when_the_q_was_played_before_the_exchange_brought_the_k() -> None:
    """Player 1 wins trick 1 with the ♥Q, then leads trick 2 and exchanges the ♥6 for the face-up
    ♥K: he never held K and Q at once, no Stöck."""
    r = sidi_round(NO_WEIS, ["H6", "HQ", "SA", "CA", "C7", "S7", "DA", "C9"], face_up="HK")
    play(r, "HQ", "S6")
    assert r.to_move == 1
    r.step("exchange trump 6")
    assert "HK" in r.hand(1) and r.stoeck_player is None
    play(r, "HK", "S8")
    assert r.stoeck_player is None and not r.stoeck_shown


# the game to 1000
def test_the_game_ends_the_moment_a_player_reaches_1000_weis_before_tricks() -> None:
    """990 : 990. Player 1 (Weis 20) leads ♦A; player 0 wins with a trump (♥J, 20 + 11 points),
    but the Weis are counted first: player 1 reaches 1010 and wins."""
    r = sidi_round(["HJ", "D8", "S6", "S8", "C6", "C10", "D10", "S10"],
                   ["DA", "C7", "C9", "C8", "HK", "H7", "D7", "S9"], face_up="H10",
                   match_scores=[990, 990])
    play(r, "DA", "HJ")
    assert r.view.match_winner == 1 and r.is_over and r.view.match_score[1] == 1010


STOECK_HAND = ["HQ", "HK", "SA", "CA", "C7", "S7", "DA", "C9"]


@pytest.mark.parametrize(("score1", "winner"), [(975, None), (980, 1)])
def test_stoeck_count_the_moment_the_second_card_is_played(score1: int, winner: int | None) -> None:
    """Player 1 wins trick 1 with ♥Q (3 points), then leads ♥K: the Stöck's 20 count with that
    card, before the trick is over: from 980 he reaches 1003 and wins at once, from 975 998."""
    r = sidi_round(NO_WEIS, STOECK_HAND, face_up="H10", match_scores=[995, score1])
    play(r, "HQ", "S6", "HK")
    assert r.view.match_score[1] == score1 + 3 + STOECK and r.view.match_winner == winner
    assert r.is_over == (winner is not None) and len(r.tricks) == 1


def test_a_game_is_played_to_1000() -> None:
    m = Match("sidi", seed=11)
    rng = random.Random(0)
    while not m.is_over:
        m.step(int(rng.choice(list(m.legal_actions()))))
    assert max(m.scores) >= TARGET and m.scores[m.winner] >= TARGET
    assert make_rules("sidi", target=1500).target == 1500


# properties
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expected_legal(r: Round) -> set[str]:
    """The legal actions as the rules state them (docs/games/sidi.md "Drawing and card play")."""
    hand = r.hand(r.to_move)
    if r.stock_left > 0:
        out = set(hand)
        six = r.trump + "6"
        if not r.current_trick and r.exchange is None and six in hand:
            out.add("exchange trump 6")
        return out
    if not r.current_trick:
        return set(hand)
    lead = r.current_trick[0][1]
    trumps = {c for c in hand if c[0] == r.trump}
    if lead[0] == r.trump:                           # trump led: a trump, unless only the Puur
        return trumps if trumps - {r.trump + "J"} else set(hand)
    follow = {c for c in hand if c[0] == lead[0]}
    return (follow | trumps) if follow else set(hand)   # two cards: no under-trump possible


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), rnd=st.randoms(use_true_random=False))
def test_random_legal_play_follows_the_rules_and_adds_up(seed: int, rnd: random.Random) -> None:
    r = Round("sidi", seed=seed)
    while not r.is_over:
        assert legal_names(r) == expected_legal(r)
        if not r.current_trick:                      # hand sizes at each lead
            held = 8 if r.trick_number < FREE_TRICKS else TRICKS - r.trick_number
            assert [len(r.hand(p)) for p in (0, 1)] == [held, held]
        r.step(int(rnd.choice(list(r.legal_actions()))))
    assert len(r.tricks) == TRICKS and sum(r.points) == ROUND_POINTS
    assert sum(t["points"] for t in r.tricks) == ROUND_POINTS
    played = [card_id(c) for t in r.tricks for _, c in t["plays"]]
    assert sorted(played) == list(range(36))
    for p in (0, 1):
        weis = r.weis_points[p] if r.weis_team == p else 0
        stoeck = STOECK if r.stoeck_player == p and r.stoeck_shown else 0
        bonus = ALL_TRICKS_BONUS if r.tricks_won[p] == TRICKS else 0
        assert r.score[p] == r.points[p] + weis + stoeck + bonus
    assert set(r.dealt_hand(0)) | set(r.dealt_hand(1)) | set(r.stock) == set(ALL_CARDS)
