"""Mittlere's rules (docs/games/mittlere.md "Rules"; docs/rules.md "Trump by the first discard"): trump
by the first discard and the hand's score.

Expected values come from the rules text: the five cases of the score table in their order
(80/50/27 → +1/−2/+1; 104/38/15 → −2/+1/+1; 100/57/0 with a trick → −1/+2/−1; 90/67/0 without
a trick → +1/+1/−2; 157/0/0 with all tricks → +2/−1/−1), the tie rule (52/52/53 → 0/0/+1), the
first discard fixing trump from that card on, trump values for every trick of the hand, and the
hand without any discard (Obenabe values, or 0 for all under ``no_trump_hand="annul"``).
"""

from __future__ import annotations

import itertools

import pytest
from conftest import play, play_out
from hypothesis import given, settings
from hypothesis import strategies as st

from jass_env import IllegalActionError, Match, Round, make_rules
from jass_env.engine.switches import RulesError
from jass_env.games.mittlere.rules import hand_result

TRICKS = 12


# the score table
@pytest.mark.parametrize(("points", "tricks", "expected"), [
    ((80, 50, 27), (5, 4, 3), [1, -2, 1]),          # otherwise: highest +1, lowest +1, middle -2
    ((104, 38, 15), (7, 3, 2), [-2, 1, 1]),         # one player >= 100: he -2
    ((100, 57, 0), (8, 3, 1), [-1, 2, -1]),         # >= 100 and another 0 (with a trick): middle +2
    ((90, 67, 0), (8, 4, 0), [1, 1, -2]),           # one player took no trick: he -2
    ((157, 0, 0), (12, 0, 0), [2, -1, -1]),         # one player took all 12 tricks: he +2
])
def test_the_five_cases_of_the_score_table(points, tricks, expected) -> None:
    assert hand_result(list(points), list(tricks)) == expected


def test_over_100_with_another_at_0_comes_before_the_no_trick_case() -> None:
    """100/57/0 where the 0-point player took no trick: the second case decides, not the fourth."""
    assert hand_result([100, 57, 0], [9, 3, 0]) == [-1, 2, -1]


def test_tied_players_share_a_place_and_get_0() -> None:
    """52/52/53 → the 53 player +1, the others 0; the tie rule in the middle-player case too."""
    assert hand_result([52, 52, 53], [4, 4, 4]) == [0, 0, 1]
    assert hand_result([60, 37, 60], [4, 4, 4]) == [0, 1, 0]
    assert hand_result([157, 0, 0], [11, 1, 0]) == [-1, 0, 0]   # >= 100 and two at 0: they share


# (points, tricks) -> score of hands with a tie on points; 157 points a hand
TIED_HANDS = [
    ((52, 52, 53), (4, 4, 4), [0, 0, 1]),           # the rules' example: the 53 player alone +1
    ((60, 60, 37), (5, 4, 3), [0, 0, 1]),           # tied for highest and middle: 0; the lowest +1
    ((57, 50, 50), (5, 4, 3), [1, 0, 0]),           # the highest +1; tied for middle and lowest: 0
    ((157, 0, 0), (11, 1, 0), [-1, 0, 0]),          # >= 100 and another at 0: the two 0s share the middle
    ((105, 26, 26), (6, 3, 3), [-2, 1, 1]),         # one player >= 100: places do not matter
    ((157, 0, 0), (12, 0, 0), [2, -1, -1]),         # all tricks: places do not matter
]
SEATINGS = list(itertools.permutations(range(3)))


@pytest.mark.parametrize(("points", "tricks", "expected"), TIED_HANDS)
@pytest.mark.parametrize("seating", SEATINGS)
def test_ties_score_the_same_in_every_seating(points, tricks, expected, seating) -> None:
    """Tied players share the places they cover and get 0, the untied player is scored by his
    place, whichever seats they sit in; ties change nothing where the score does not depend on
    the place."""
    seated = [points[i] for i in seating], [tricks[i] for i in seating]
    assert hand_result(*seated) == [expected[i] for i in seating]


def score_by_the_rules(points: list[int], tricks: list[int]) -> list[int]:
    """The score table of docs/games/mittlere.md, the first case that fits, with its tie rule."""
    if TRICKS in tricks:                             # one player took all 12 tricks
        return [2 if t == TRICKS else -1 for t in tricks]
    high = [p for p in range(3) if points[p] >= 100]
    if high and 0 in points:                         # >= 100 and another at 0: the middle +2
        return by_place(points, (-1, 2, -1))
    if high:                                         # >= 100: he -2, the others +1
        return [-2 if p in high else 1 for p in range(3)]
    if 0 in tricks:                                  # no trick: he -2, the others +1
        return [-2 if t == 0 else 1 for t in tricks]
    return by_place(points, (1, -2, 1))              # highest +1, lowest +1, middle -2


def by_place(points: list[int], place_scores: tuple[int, int, int]) -> list[int]:
    """Highest, middle, lowest by ``place_scores``; a player tied with another gets 0."""
    return [0 if points.count(pts) > 1 else place_scores[sorted(points, reverse=True).index(pts)]
            for pts in points]


def test_played_hands_with_ties_are_scored_by_the_rules() -> None:
    """Seeded hands played out (each player his highest legal card, then his lowest) until a tie
    for the highest, a tie for the lowest and a tie in a case without places have been scored."""
    seen = set()
    for seed in range(2000):
        for pick in (-1, 0):
            r = Round("mittlere", seed=seed)
            while not r.is_over:
                r.step(int(r.legal_actions()[pick]))
            points, tricks = r.points, r.tricks_won
            if len(set(points)) == 3:
                continue
            assert r.result == score_by_the_rules(points, tricks), (seed, points, tricks)
            tied = next(pts for pts in points if points.count(pts) > 1)
            if max(points) >= 100 and 0 not in points:   # he -2, the others +1: no places
                seen.add("no places")
            elif max(points) < 100 and 0 not in tricks:   # the last case: scored by place
                seen.add("highest" if tied == max(points) else "lowest")
        if seen == {"highest", "lowest", "no places"}:
            return
    raise AssertionError(f"only these kinds of tie in 2000 seeds: {seen}")


def test_a_hand_result_needs_three_players() -> None:
    with pytest.raises(ValueError, match="3 players"):
        hand_result([100, 57], [6, 6])


# first discard
def deal_b() -> list[list[str]]:
    """Dealer 0, forehand 1 leads; player 2 holds no spade, player 0 one spade and high hearts."""
    s = [f"S{r}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K")]
    return [["SA", "H9", "H10", "HJ", "HQ", "HK", "HA", "D10", "DJ", "DQ", "DK", "DA"],   # player 0
            s + ["D6", "D7", "D8", "D9"],                                                  # player 1
            ["H6", "H7", "H8"] + [f"C{r}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]]


def test_no_trump_before_the_first_discard_and_everyone_follows_suit() -> None:
    r = Round("mittlere", hands=deal_b(), dealer=0)
    assert r.phase == "play" and r.to_move == 1 and r.trump is None and r.trump_fixed is None
    assert len(r.legal_actions()) == 12              # the leader plays any of his 12 cards
    r.step("S6")
    # player 2 cannot follow: any card
    assert len(r.legal_actions()) == 12


def test_trump_fixed_at_the_first_follower_the_next_player_plays_under_trump_rules() -> None:
    """The discard ♥6 makes hearts trump from that card on: player 0, who holds the led spade,
    may now trump instead of following (every heart of his is above ♥6), which he could not
    without trump; the ♥6 wins the trick over the ♠A."""
    r = Round("mittlere", hands=deal_b(), dealer=0)
    play(r, "S6", "H6")
    assert r.trump == "H"
    assert r.trump_fixed == {"player": 2, "card": "H6", "trick": 1, "position": 1}
    legal = {r.spec.action_names[a] for a in r.legal_actions()}
    assert legal == {"SA", "H9", "H10", "HJ", "HQ", "HK", "HA"}
    r.step("SA")
    trick = r.tricks[0]
    assert trick["winner"] == 2 and trick["points"] == 11    # S6 0 + H6 0 + SA 11


def test_trump_fixed_at_the_last_position_wins_its_trick() -> None:
    """Player 0 is void in spades and discards ♣6 last: clubs are trump and the ♣6 wins."""
    h = deal_b()
    hands = [h[2], h[1], h[0]]
    r = Round("mittlere", hands=hands, dealer=0)
    play(r, "S6", "SA", "C6")
    assert r.trump == "C" and r.trump_fixed == {"player": 0, "card": "C6", "trick": 1, "position": 2}
    assert r.tricks[0]["winner"] == 0 and r.tricks[0]["points"] == 11


def test_a_lead_never_fixes_trump() -> None:
    r = Round("mittlere", hands=deal_b(), dealer=0)
    play(r, "D6")                                    # player 1 leads a diamond: no discard
    assert r.trump is None


def deal_recount() -> list[list[str]]:
    return [["DJ", "D7", "D9", "D10", "DQ", "DK", "S9", "S10", "SJ", "SQ", "SK", "SA"],   # player 0
            ["DA", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA", "S6", "S7"],     # player 1
            ["D8", "D6", "C6", "C7", "C8", "C9", "C10", "CJ", "CQ", "CK", "CA", "S8"]]     # player 2


def test_a_trick_before_the_fix_keeps_its_winner_and_counts_with_the_trump_values() -> None:
    """Trick 1 ♦A ♦8 ♦J without trump: the ♦A wins (Obenabe ranking), 21 points (♦8 = 8). The
    discard ♦6 in trick 2 makes diamonds trump: trick 1 stays player 1's and now counts
    11 + 0 + 20 = 31 (trump 8 = 0, Puur 20)."""
    r = Round("mittlere", hands=deal_recount(), dealer=0)
    play(r, "DA", "D8", "DJ")
    assert r.tricks[0]["winner"] == 1 and r.tricks[0]["points"] == 21 and r.points == [0, 21, 0]
    play(r, "H6", "D6")
    assert r.trump == "D" and r.trump_fixed["trick"] == 2
    assert r.tricks[0]["winner"] == 1 and r.tricks[0]["points"] == 31 and r.points == [0, 31, 0]
    r.step("D7")                                     # ♦7 beats the ♦6 (trump order)
    assert r.tricks[1]["winner"] == 0


def test_after_the_fix_the_under_trump_ban_holds_only_for_a_player_holding_the_led_suit() -> None:
    """only_if_void: player 0 holds the led spade, so after the discard ♥A he may follow or play a
    heart above the ♥A (trump order J 9 A K Q 10 8 7 6: ♥J, ♥9), not ♥K ♥Q ♥10 ♥6."""
    hands = deal_b()
    hands[0] = ["SA", "H9", "H10", "HJ", "HQ", "HK", "H6", "D10", "DJ", "DQ", "DK", "DA"]
    hands[2] = ["HA", "H7", "H8"] + hands[2][3:]
    r = Round("mittlere", hands=hands, dealer=0)
    play(r, "S6", "HA")
    legal = {r.spec.action_names[a] for a in r.legal_actions()}
    assert legal == {"SA", "HJ", "H9"}


# no trump ever fixed
def deal_three_of_each() -> list[list[str]]:
    """Every player holds 3 cards of each suit: everyone can always follow, nobody discards."""
    return [[s + r for s in "DHSC" for r in ("Q", "K", "A")],       # player 0
            [s + r for s in "DHSC" for r in ("6", "7", "8")],       # player 1
            [s + r for s in "DHSC" for r in ("9", "10", "J")]]      # player 2


def test_a_hand_without_a_discard_counts_with_obenabe_values() -> None:
    """No trump is ever fixed: Obenabe ranking, so player 0 (Q K A of each suit) takes every
    trick: 152 + 5 = 157 with 8 = 8, and all 12 tricks: +2, the others −1 each."""
    r = play_out(Round("mittlere", hands=deal_three_of_each(), dealer=0))
    assert r.trump is None and r.trump_fixed is None
    assert r.points == [157, 0, 0] and r.tricks_won == [12, 0, 0]
    assert r.result == [2, -1, -1]
    eights = [t for t in r.tricks if any(c.endswith("8") for _, c in t["plays"])]
    assert all(t["points"] >= 8 for t in eights)


def test_no_trump_hand_annul_scores_0_for_everyone() -> None:
    rules = make_rules("mittlere", no_trump_hand="annul")
    r = play_out(Round(rules, hands=deal_three_of_each(), dealer=0))
    assert r.result == [0, 0, 0]


# switches, game
def test_mittlere_has_no_weis_no_stoeck_and_only_the_first_discard() -> None:
    for key, value in (("weis", True), ("stoeck", 20), ("trump_mode", "bottom_card")):
        with pytest.raises(RulesError, match=key):
            make_rules("mittlere", **{key: value})
    with pytest.raises(RulesError, match="no_trump_hand"):
        make_rules("mittlere", no_trump_hand="replay")


def test_bad_actions_are_refused_saying_what_is_allowed() -> None:
    r = Round("mittlere", hands=deal_b(), dealer=0)
    r.step("S6")
    with pytest.raises(IllegalActionError, match="actions are integers 0..35.*card names"):
        r.step("predict 3")
    with pytest.raises(IllegalActionError, match="player 2 may not play SA.*legal: "):
        r.step("SA")


def test_a_game_is_12_hands_and_the_highest_total_wins() -> None:
    m = Match("mittlere", seed=5)
    totals = [0, 0, 0]
    hands = 0
    while not m.is_over:
        before = len(m.finished_rounds)
        m.step(int(m.legal_actions()[0]))
        if len(m.finished_rounds) > before:
            hands += 1
            totals = [a + b for a, b in zip(totals, m.finished_rounds[-1].result)]
    assert m.scores == totals and hands >= 12 and m.rounds_done == hands
    best = max(totals)
    assert totals.count(best) == 1 and m.winner == totals.index(best)
    if hands > 12:                                   # tie-break hands only after a tie for the best
        before_last = [a - b for a, b in zip(totals, m.finished_rounds[-1].result)]
        assert before_last.count(max(before_last)) > 1


# properties
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choice=st.integers(0, 2**31 - 1))
def test_every_hand_is_157_points_and_results_sum_to_0_without_ties(seed: int, choice: int) -> None:
    r = Round("mittlere", seed=seed)
    k = choice
    while not r.is_over:
        legal = r.legal_actions()
        r.step(int(legal[k % len(legal)]))
        k //= 3
        k += seed % 7
    assert sum(r.points) == 157 and sum(r.tricks_won) == TRICKS
    assert sum(t["points"] for t in r.tricks) == 157
    if len(set(r.points)) == 3:
        assert sum(r.result) == 0
    if r.trump is not None:
        assert r.contract == r.trump
