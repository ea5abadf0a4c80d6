"""Schieber for six (docs/games/schieber.md "Schieber for six", the project's own rules): six players
in two teams of three, {0, 2, 4} against {1, 3, 5}, 6 cards each, 6 tricks, everything else as
Schieber.

Expected values come from the rules text: forehand names the contract or pushes to the next
player of his team (forehand + 2), who must name it, and forehand leads; Weis from the 6-card
hands, each team's best single Weis compared (position counted from forehand around six seats),
the winning team scoring all its players' Weis; Stöck 20; all 6 tricks: the Match bonus 100; a
round is worth 157 card points; a match goes to 1000.
"""

from __future__ import annotations

import pytest
from conftest import ALL_CARDS, deal, play, play_out
from hypothesis import given, settings
from hypothesis import strategies as st

from jass_env import Match, Round, make_rules
from jass_env.engine.cards import CONTRACTS

PLAYERS = HAND = TRICKS = 6
TEAM = {0: (0, 2, 4), 1: (1, 3, 5)}
ROUND_POINTS = 157
MATCH_BONUS = 100
STOECK = 20
TARGET = 1000
#: the six top trumps (J 9 A K Q 10) of hearts: a run of six (150) holding the Stöck
TOP_HEARTS = ["HJ", "H9", "HA", "HK", "HQ", "H10"]


def six_round(partial: dict[int, list[str]], dealer: int = 5, rules: str = "schieber6", **switches) -> Round:
    """A Round of Schieber for six from chosen cards (the rest dealt so as to add no Weis and no
    Stöck); dealer 5 makes player 0 forehand."""
    hands = deal(partial, players=PLAYERS, hand_size=HAND)
    return Round(make_rules(rules, **switches), hands=hands, dealer=dealer)


def team_of(player: int) -> int:
    return next(t for t, members in TEAM.items() if player in members)


# deal, teams
def test_six_players_get_six_cards_each_and_the_whole_deck_is_dealt() -> None:
    for seed in range(10):
        r = Round("schieber6", seed=seed)
        hands = [r.hand(p) for p in range(PLAYERS)]
        assert [len(h) for h in hands] == [HAND] * PLAYERS
        assert sorted(c for h in hands for c in h) == sorted(ALL_CARDS)
        assert r.forehand == (r.dealer + 1) % PLAYERS
        assert r.phase == "contract" and r.to_move == r.forehand


def test_the_teams_alternate_around_the_table() -> None:
    spec = make_rules("schieber6").spec
    assert spec.players == PLAYERS and spec.tricks == TRICKS and spec.n_actions == 43
    assert {t: tuple(p for p in range(PLAYERS) if spec.side_of(p) == t) for t in (0, 1)} == TEAM


# contract
@pytest.mark.parametrize("dealer", range(PLAYERS))
def test_a_push_goes_to_forehands_next_team_mate_who_must_name_and_forehand_leads(dealer: int) -> None:
    r = Round("schieber6", seed=dealer, dealer=dealer)
    forehand = (dealer + 1) % PLAYERS
    names = r.spec.action_names
    assert {names[a] for a in r.legal_actions()} == {f"choose {c}" for c in CONTRACTS} | {"push"}
    r.step("push")
    mate = (forehand + 2) % PLAYERS
    assert r.pushed and r.to_move == mate and team_of(mate) == team_of(forehand)
    assert {names[a] for a in r.legal_actions()} == {f"choose {c}" for c in CONTRACTS}, "no push back"
    r.step("S")
    assert r.declarer == mate and r.contract == "S"
    assert r.phase == "play" and r.leader == forehand and r.to_move == forehand


def test_without_a_push_forehand_names_and_leads() -> None:
    r = Round("schieber6", seed=1, dealer=2)
    r.step("obenabe")
    assert r.declarer == 3 and r.leader == 3 and r.to_move == 3


def test_the_declarer_leads_after_a_push_under_the_house_rule() -> None:
    r = Round(make_rules("schieber6", leader_after_push="declarer"), seed=1, dealer=2)
    play(r, "push", "H")
    assert r.declarer == 5 and r.leader == 5 and r.to_move == 5


# tricks and points
def test_a_trick_has_six_cards_and_its_points_go_to_the_winners_team() -> None:
    """Forehand 0 leads ♠6; player 3 takes it with the trump ♥6 (♥ trump): the ♠6 ♠7 ♠8 ♠9 ♠10 are
    worth 10, the ♥6 0, so team 1 ({1, 3, 5}) has 10 points and the lead passes to player 3."""
    r = six_round({0: ["S6"], 1: ["S7"], 2: ["S8"], 3: ["H6", "C6"], 4: ["S9"], 5: ["S10"]},
                  weis=False)
    r.step("H")
    play(r, "S6", "S7", "S8", "H6", "S9", "S10")
    assert r.tricks[0]["winner"] == 3 and r.tricks[0]["points"] == 10
    assert r.points == [0, 10] and r.tricks_won == [0, 1]
    assert r.leader == 3 and r.to_move == 3 and r.trick_number == 1


def test_a_round_is_worth_157_card_points() -> None:
    for seed in range(6):
        r = Round(make_rules("schieber6", weis=False, stoeck=0), seed=seed)
        r.step("D")
        play_out(r)
        assert sum(r.points) == ROUND_POINTS and sum(r.tricks_won) == TRICKS
        if r.match_team is None:
            assert r.score == r.points


# Match
def test_all_six_tricks_are_a_match_worth_157_plus_100() -> None:
    """Player 0 holds the six top hearts and leads every trick with them."""
    r = six_round({0: TOP_HEARTS}, weis=False, stoeck=0)
    r.step("H")
    play_out(r, {0: TOP_HEARTS})
    assert r.tricks_won == [TRICKS, 0] and r.match_team == 0
    assert r.score == [ROUND_POINTS + MATCH_BONUS, 0]


def test_a_match_scores_its_weis_and_stoeck_times_the_multiplier() -> None:
    """The six top hearts are a run of six (150) holding the Stöck (20); hearts count double."""
    r = six_round({0: TOP_HEARTS}, multipliers={"H": 2})
    r.step("H")
    play_out(r, {0: TOP_HEARTS})
    assert r.weis_points == [150, 0] and r.stoeck_player == 0
    assert r.score == [2 * (ROUND_POINTS + MATCH_BONUS + 150 + STOECK), 0]


def test_a_kontermatsch_gets_the_same_bonus() -> None:
    """Forehand 0 names ♥ and leads; player 1, holding the six top hearts, trumps and wins all six."""
    r = six_round({1: TOP_HEARTS, 0: ["S6"]}, weis=False, stoeck=0)
    r.step("H")
    play_out(r, {0: ["S6"], 1: TOP_HEARTS})
    assert r.match_team == 1 and r.score == [0, ROUND_POINTS + MATCH_BONUS]


def test_one_trick_to_the_other_team_is_no_match() -> None:
    r = six_round({0: TOP_HEARTS[1:] + ["S6"], 1: ["HJ"], 3: ["SA"]}, weis=False, stoeck=0)
    r.step("H")
    play_out(r)
    assert 0 < r.tricks_won[0] < TRICKS and r.match_team is None and r.score == r.points


# Weis and Stöck
def test_the_best_weis_of_a_team_wins_and_all_that_teams_weis_count() -> None:
    """Team 0: player 2 ♠6-7-8 (20), player 4 ♣6…♣10 (100); team 1: player 1 ♥6…♥9 (50), player 3
    ♠10-J-Q (20). Team 0's 100 beats team 1's 50: team 0 scores 20 + 100, team 1 nothing."""
    r = six_round({1: ["H6", "H7", "H8", "H9"], 2: ["S6", "S7", "S8"],
                   3: ["S10", "SJ", "SQ"], 4: ["C6", "C7", "C8", "C9", "C10"]})
    r.step("D")
    assert r.weis_team == 0 and r.weis_points == [120, 0]
    assert sorted((w["player"], w["points"]) for w in r.weis()) == [(2, 20), (4, 100)]
    assert r.score == [0, 0], "Weis are written with trick 1"
    for _ in range(PLAYERS):
        r.step(int(r.legal_actions()[0]))
    assert r.score[0] == r.points[0] + 120 and r.score[1] == r.points[1]


@pytest.mark.parametrize(("dealer", "winner"), [(5, 2), (2, 5), (0, 2), (3, 5)])
def test_equal_weis_go_to_the_player_first_after_forehand(dealer: int, winner: int) -> None:
    """Player 2 ♥6-7-8 and player 5 ♠6-7-8: equal points, cards and top card, neither in trump (♦):
    the one who comes first in play order from forehand wins, counted around six seats."""
    r = six_round({2: ["H6", "H7", "H8"], 5: ["S6", "S7", "S8"]}, dealer=dealer)
    r.step("D")
    assert r.weis_team == team_of(winner)
    assert r.weis_points[team_of(winner)] == 20 and sum(r.weis_points) == 20


def test_a_weis_in_trump_beats_an_equal_one() -> None:
    r = six_round({2: ["H6", "H7", "H8"], 5: ["S6", "S7", "S8"]})
    r.step("S")
    assert r.weis_team == 1


def test_stoeck_counts_20_for_the_holders_team() -> None:
    """Player 3 holds trump ♥K and ♥Q: 20 for team 1 once both are played, Weis or not."""
    r = six_round({3: ["HK", "HQ"]}, weis=False)
    r.step("H")
    assert r.stoeck_player == 3
    play_out(r)
    bonus = [MATCH_BONUS if r.match_team == t else 0 for t in (0, 1)]
    assert r.stoeck_shown
    assert r.score == [r.points[0] + bonus[0], r.points[1] + bonus[1] + STOECK]


# card play
@pytest.mark.parametrize(("rule", "mate_may", "opponent_may"),
                         [("official", False, False), ("unless_partner_winning", True, False)])
def test_the_under_trump_ban_reads_team_mates_around_six_seats(rule: str, mate_may: bool,
                                                               opponent_may: bool) -> None:
    """♥ trump; forehand 0 leads ♠6, player 1 trumps with ♥A, player 2 follows. Player 3 (player
    1's team-mate) may under-trump with ♥6 only where a winning partner lifts the ban; player 4
    (an opponent of player 1) never with ♥7."""
    r = six_round({0: ["S6"], 1: ["HA"], 2: ["S7"], 3: ["H6", "S8"], 4: ["H7", "S9"]},
                  undertrump_rule=rule)
    play(r, "H", "S6", "HA", "S7")
    assert ("H6" in {r.spec.action_names[a] for a in r.legal_actions()}) == mate_may
    r.step("S8")
    assert ("H7" in {r.spec.action_names[a] for a in r.legal_actions()}) == opponent_may


# match
def test_a_match_goes_to_1000_and_the_dealer_rotates() -> None:
    """The first team to reach 1000 wins; no round before the last left a team at 1000."""
    m = Match("schieber6", seed=4)
    while not m.is_over:
        m.step(int(m.legal_actions()[0]))
    assert m.winner in (0, 1) and m.scores[m.winner] >= TARGET
    assert all(max(r.view.match_score) < TARGET for r in m.finished_rounds[:-1])
    dealers = [r.dealer for r in m.finished_rounds]
    assert dealers[1:] == [(d + 1) % PLAYERS for d in dealers[:-1]]


# properties
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choices=st.lists(st.integers(0, 1000), min_size=40, max_size=40),
       mult=st.integers(1, 4))
def test_every_round_follows_the_rules(seed: int, choices: list[int], mult: int) -> None:
    """Any legal play: 6 tricks of 6 cards in seat order from the leader, each led by the last
    winner; 157 points; every score is (points + Match bonus + Weis + Stöck) times the multiplier;
    every hand is played out."""
    rules = make_rules("schieber6", multipliers=[mult] * 6)
    r = Round(rules, seed=seed)
    k = 0
    while not r.is_over:
        legal = r.legal_actions()
        assert len(legal) > 0
        r.step(int(legal[choices[k % len(choices)] % len(legal)]))
        k += 1
    assert k == r.pushed + 1 + PLAYERS * TRICKS, "a push or not, the contract, six cards each"
    assert r.declarer == ((r.forehand + 2) % PLAYERS if r.pushed else r.forehand)
    leader = r.forehand
    for t in r.tricks:
        assert t["leader"] == leader
        assert [p for p, _ in t["plays"]] == [(leader + i) % PLAYERS for i in range(PLAYERS)]
        leader = t["winner"]
    assert len(r.tricks) == TRICKS and sum(r.points) == ROUND_POINTS
    for team in (0, 1):
        assert r.points[team] == sum(t["points"] for t in r.tricks if team_of(t["winner"]) == team)
        extra = (MATCH_BONUS if r.match_team == team else 0) + r.weis_points[team]
        if r.stoeck_player is not None and team_of(r.stoeck_player) == team:
            extra += STOECK
        assert r.score[team] == mult * (r.points[team] + extra)
    assert (r.match_team is not None) == (TRICKS in r.tricks_won)
    assert all(r.hand(p) == [] for p in range(PLAYERS))
    assert all(len(r.dealt_hand(p)) == HAND for p in range(PLAYERS))
