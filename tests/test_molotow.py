"""Molotow's rules (docs/games/molotow.md "Rules"): first-discard trump, hand Weis minus, table Weis plus
for the trick's winner, Stöck only for a player who holds trump K and Q when trump is fixed, and
the lowest total wins.

Expected values come from the rules text: the table-run example (trump ♣ fixed in trick 2; trick 5
holds ♥7 ♥8 ♥9 ♣6, won by the ♣6: 0 card points + 20), the Weis values (runs 20/50/100/150/200/
250/300, fours of a kind 100, four 9s 150, four Js 200; trump K + Q on the table 20), Stöck −20,
and hand score = card points + table Weis − hand Weis − Stöck. The property test recomputes every
Weis from the cards with the test suite's own pattern finder (conftest.patterns), not the engine's.
"""

from __future__ import annotations

import pytest
from conftest import patterns, play, play_out
from hypothesis import given, settings
from hypothesis import strategies as st

from jass_env import Match, Round, make_rules

RUN_VALUES = (20, 50, 100, 150, 200, 250, 300)
QUAD_VALUES = {"9": 150, "J": 200}          # every other four of a kind: 100
KQ_ON_TABLE = STOECK = 20


def per_player(weis: list[dict], n: int = 4) -> list[int]:
    """The points of a list of Weis entries summed per player."""
    return [sum(w["points"] for w in weis if w["player"] == p) for p in range(n)]


def weis_value(cards, trump: str | None) -> int:
    """The Weis points of a set of cards by the rules' table (K + Q counts for trump only)."""
    total = 0
    for p in patterns(cards):
        if p[0] == "run":
            total += RUN_VALUES[p[3] - 3]
        elif p[0] == "quad":
            total += QUAD_VALUES.get(p[1], 100)
        elif p[0] == "kq" and p[1] == trump:
            total += KQ_ON_TABLE
    return total


# the table run
def deal_table_run() -> list[list[str]]:
    """Dealer 0: player 1 leads; player 0 holds no diamond and no heart."""
    return [["SJ", "CQ", "C7", "S9", "C6", "C8", "C9", "C10", "CJ"],      # player 0
            ["SA", "DA", "CA", "SK", "H7", "CK", "S7", "DK", "HA"],       # player 1
            ["S6", "D6", "D8", "S10", "H8", "D10", "DJ", "H6", "H10"],    # player 2
            ["S8", "D7", "D9", "SQ", "H9", "DQ", "HJ", "HQ", "HK"]]       # player 3


def test_the_table_run_of_the_rules_example() -> None:
    """Trump ♣ is fixed in trick 2; trick 5 holds ♥7 ♥8 ♥9 ♣6 and is won by the ♣6: its winner
    scores 0 card points + 20 for the run ♥7-8-9."""
    r = Round("molotow", hands=deal_table_run(), dealer=0)
    play(r, "SA", "S6", "S8", "SJ")                  # trick 1, no trump: the ♠A wins
    play(r, "DA", "D6", "D7", "CQ")                  # trick 2: player 0 cannot follow: ♣ trump
    assert r.trump == "C" and r.trump_fixed == {"player": 0, "card": "CQ", "trick": 2, "position": 3}
    play(r, "C7", "CA", "D8", "D9")                  # trick 3: player 1 follows trump
    play(r, "SK", "S10", "SQ", "S9")                 # trick 4
    play(r, "H7", "H8", "H9", "C6")                  # trick 5
    t5 = r.tricks[4]
    assert t5["winner"] == 0 and t5["points"] == 0
    assert [w for w in r.table_weis() if w["trick"] == 5] == [
        {"player": 0, "trick": 5, "cards": ["H9", "H8", "H7"], "points": 20}]
    assert r.table_weis() == [w for w in r.table_weis() if w["trick"] == 5]   # the others: none


def test_the_table_run_counts_plus_for_its_trick_winner_in_the_hand_score() -> None:
    """The rules' example played out: no other trick holds a table Weis, so each score is card
    points + 20 for player 0 (the winner of trick 5's ♥7-8-9) − each dealt hand's Weis: player 0
    ♣6…♣Q (a run of 7: 200), player 1 the four Aces (100), player 3 ♥J ♥Q ♥K (20)."""
    r = Round("molotow", hands=deal_table_run(), dealer=0)
    play(r, "SA", "S6", "S8", "SJ")
    play(r, "DA", "D6", "D7", "CQ")                  # ♣ trump from here on
    play(r, "C7", "CA", "D8", "D9")
    play(r, "SK", "S10", "SQ", "S9")
    play(r, "H7", "H8", "H9", "C6")                  # the table run, won by the ♣6
    play_out(r)
    assert [weis_value([c for _, c in t["plays"]], "C") for t in r.tricks] == [0, 0, 0, 0, 20, 0, 0, 0, 0]
    assert r.stoeck_player is None
    table_run, hand_weis = [20, 0, 0, 0], [200, 100, 0, 20]
    assert r.result == [r.points[p] + table_run[p] - hand_weis[p] for p in range(4)]


def test_hand_weis_count_minus_and_the_hand_score_formula() -> None:
    """Player 0 holds ♣6…♣Q (a run of 7: 200), player 1 the four Aces (100), player 3 ♥J ♥Q ♥K
    (20); the score is card points + table Weis − hand Weis."""
    r = play_out(Round("molotow", hands=deal_table_run(), dealer=0))
    by_player = {w["player"]: w["points"] for w in r.hand_weis()}
    assert by_player == {0: 200, 1: 100, 3: 20}
    table = per_player(r.table_weis())
    assert r.result == [r.points[p] + table[p] - by_player.get(p, 0) for p in range(4)]


# the fix position
def deal_fix_at(position: int) -> list[list[str]]:
    """Dealer 0, player 1 leads ♠6; the players at positions 1 .. position−1 hold one spade each,
    the player at ``position`` none."""
    suits = {1: "S", 2: "H", 3: "D", 0: "C"}
    ranks = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
    hands = {p: [suits[p] + r for r in ranks] for p in range(4)}
    for k in range(1, position):
        p = (1 + k) % 4
        spade, low = f"S{ranks[-k]}", hands[p][0]           # swap a high spade for his lowest card
        hands[1].remove(spade)
        hands[1].append(low)
        hands[p].remove(low)
        hands[p].append(spade)
    return [hands[p] for p in range(4)]


@pytest.mark.parametrize("position", [1, 2, 3])
def test_trump_fixed_at_the_first_middle_and_last_follower(position: int) -> None:
    r = Round("molotow", hands=deal_fix_at(position), dealer=0)
    r.step("S6")
    for _ in range(1, position):
        r.step(r.spec.action_names[int(r.legal_actions()[0])])   # his one spade
        assert r.trump is None
    fixer = (1 + position) % 4
    card = r.hand(fixer)[-1]                         # his lowest card (names run A .. 6)
    r.step(card)
    assert r.trump == card[0] and r.trump_fixed == {"player": fixer, "card": card, "trick": 1,
                                                    "position": position}
    while r.trick_number == 0:
        r.step(int(r.legal_actions()[0]))
    assert r.tricks[0]["winner"] == fixer            # the only trump of the trick wins it


# Stöck
def deal_stoeck() -> list[list[str]]:
    """Player 1 holds ♣K ♣Q; player 0 holds no diamond."""
    return [["C8", "C9", "CA", "CJ", "C10", "H6", "H7", "H8", "H9"],      # player 0
            ["CK", "CQ", "DA", "D8", "H10", "HJ", "HQ", "HK", "HA"],      # player 1
            ["C6", "D6", "D9", "D10", "S6", "S7", "S8", "S9", "S10"],     # player 2
            ["C7", "D7", "DJ", "DQ", "DK", "SJ", "SQ", "SK", "SA"]]       # player 3


def test_stoeck_for_the_holder_of_trump_k_and_q_when_trump_is_fixed() -> None:
    """Trump ♣ is fixed in trick 1 while player 1 holds ♣K ♣Q: −20 once he plays the second."""
    r = Round("molotow", hands=deal_stoeck(), dealer=0)
    play(r, "DA", "D6", "D7", "C9")
    assert r.trump == "C" and r.stoeck_player == 1 and not r.stoeck_shown
    play_out(r)
    assert r.stoeck_shown
    table, hand = per_player(r.table_weis()), per_player(r.hand_weis())
    assert r.result == [r.points[p] + table[p] - hand[p] - (STOECK if p == 1 else 0) for p in range(4)]


def test_no_stoeck_for_a_king_played_before_trump_is_fixed() -> None:
    """Player 1 leads ♣K in trick 1 (no trump yet); ♣ becomes trump in trick 2: no Stöck, even
    when he plays the ♣Q later. Trick 1's ♣6 ♣7 ♣8 are a table run for its winner."""
    r = Round("molotow", hands=deal_stoeck(), dealer=0)
    play(r, "CK", "C6", "C7", "C8")
    play(r, "DA", "D6", "D7", "C9")
    assert r.trump == "C" and r.trump_fixed["trick"] == 2 and r.stoeck_player is None
    play_out(r)
    assert r.stoeck_player is None and not r.stoeck_shown
    assert {"player": 1, "trick": 1, "cards": ["C8", "C7", "C6"], "points": 20} in r.table_weis()


def test_trump_k_and_q_in_the_fixing_trick_are_table_weis_for_its_winner() -> None:
    """Player 2 fixes ♣ with the ♣K on the ♦ lead, player 3 (no diamond) adds the ♣Q: the ♣K
    wins, and trump K + Q in one trick (the fixing trick included) score 20 for its winner."""
    hands = [["CA", "CJ", "C9", "S7", "S9", "SJ", "SK", "HK", "HA"],        # player 0
             [f"D{r}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")],
             ["CK", "C6", "C7", "H6", "H7", "H8", "H9", "H10", "HJ"],
             ["CQ", "C8", "C10", "S6", "S8", "S10", "SQ", "SA", "HQ"]]
    r = Round("molotow", hands=hands, dealer=0)
    play(r, "DA", "CK", "CQ", "S7")
    assert r.trump == "C" and r.tricks[0]["winner"] == 2 and r.stoeck_player is None
    assert r.table_weis() == [{"player": 2, "trick": 1, "cards": ["CK", "CQ"], "points": KQ_ON_TABLE}]


# game, switches
def test_a_game_is_8_hands_and_the_lowest_total_wins() -> None:
    m = Match("molotow", seed=4)
    while not m.is_over:
        m.step(int(m.legal_actions()[0]))
    totals = [sum(r.result[p] for r in m.finished_rounds) for p in range(4)]
    assert m.scores == totals and m.rounds_done == len(m.finished_rounds) >= 8
    assert totals.count(min(totals)) == 1 and m.winner == totals.index(min(totals))


def test_molotow_for_three_deals_12_cards_and_switches_are_checked() -> None:
    r = Round("molotow3", seed=2)
    assert r.spec.players == 3 and len(r.hand(0)) == 12
    with pytest.raises(ValueError, match="trump_mode"):
        make_rules("molotow", trump_mode="chosen")


# properties
@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["molotow", "molotow3"]), seed=st.integers(0, 2**31 - 1),
       choice=st.integers(0, 2**31 - 1))
def test_every_hand_is_157_points_and_scores_follow_the_formula(game: str, seed: int, choice: int) -> None:
    r = Round(game, seed=seed)
    k = choice
    while not r.is_over:
        legal = r.legal_actions()
        r.step(int(legal[k % len(legal)]))
        k = k // 3 + seed % 11
    assert sum(r.points) == 157
    fixed = r.trump_fixed
    table = [0] * r.spec.players
    for t, trick in enumerate(r.tricks, 1):
        trump = r.trump if fixed is not None and fixed["trick"] <= t else None
        table[trick["winner"]] += weis_value([c for _, c in trick["plays"]], trump)
    hand = [weis_value(r.dealt_hand(p), None) for p in range(r.spec.players)]
    stoeck = [0] * r.spec.players
    if fixed is not None:                # the hands at the moment the fixing card is played
        fix_trick = r.tricks[fixed["trick"] - 1]["plays"]
        before = {c for t in r.tricks[:fixed["trick"] - 1] for _, c in t["plays"]}
        before |= {c for _, c in fix_trick[:fixed["position"]]}
        for p in range(r.spec.players):
            if {r.trump + "K", r.trump + "Q"} <= set(r.dealt_hand(p)) - before:
                stoeck[p] = STOECK
    assert r.result == [r.points[p] + table[p] - hand[p] - stoeck[p] for p in range(r.spec.players)]
