"""Card points, last trick, Stöck, Match and multipliers (docs/rules.md, "The
deck", "Stöck", "Match and the round score").

The full-round tests deal chosen hands (``conftest.new_round``: the cards a test does not name are
dealt so that they form no Weis and no Stöck) and play them out: scripted players play their
listed cards in order, the others their first legal card.
"""

from __future__ import annotations

import pytest
from conftest import ALL_CARDS, new_round, play_out, position

from jass_env import Round, make_rules
from jass_env.engine.cards import CONTRACTS, card_values
from jass_env.engine.state import StateView

# the deck: card values

RANK_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")  # card-id order within a suit
TABLE = {  # docs/rules.md "The deck", points by rank: trump suit, plain suit, Obenabe, Undenufe
    "trump": {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 0, "7": 0, "6": 0},
    "plain": {"J": 2, "9": 0, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 0, "7": 0, "6": 0},
    "obenabe": {"J": 2, "9": 0, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 8, "7": 0, "6": 0},
    "undenufe": {"J": 2, "9": 0, "A": 0, "K": 4, "Q": 3, "10": 10, "8": 8, "7": 0, "6": 11},
}


@pytest.mark.parametrize("contract", range(6))
def test_card_values_follow_the_table_of_the_deck(contract):
    """The deck, its table: trump J 20, 9 14; plain J 2; Obenabe 8 = 8; Undenufe 6 = 11, A = 0."""
    values = card_values(contract)
    for suit in range(4):
        if contract < 4:
            kind = "trump" if suit == contract else "plain"
        else:
            kind = CONTRACTS[contract]
        assert [int(v) for v in values[9 * suit:9 * suit + 9]] == [TABLE[kind][r] for r in RANK_ORDER]
    assert values.sum() == 152, "The deck, totals: 62 + 3 × 30 = 152; Obenabe and Undenufe 4 × 38 = 152"


def trick_points(contract: str, cards: list[str], rules="schieber", last: bool = False) -> tuple[int, int]:
    """Play ``cards`` as one trick (leader 0) and return (winner, points of the trick).

    ``last``: as trick 9 (1-card hands), else as trick 8 (2-card hands)."""
    hand = [cards[3]]
    if not last:  # the mover keeps a card of another suit (not led, not trump) for the last trick
        avoid = {cards[0][0], contract}
        hand.append(next(c for c in ALL_CARDS if c not in cards and c[0] not in avoid))
    r = position(contract, hand, cards[:3], rules=rules)
    r.step(cards[3])
    t = 8 if last else 7
    view = StateView(r.state, r.rp)
    return view.trick_winner(t), view.trick_points(t)


@pytest.mark.nojit_sample
@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_eights_count_8_in_obenabe_and_undenufe(contract):
    """The deck: "Obenabe/Undenufe values (8 = 8 ...)"; in a trump game a plain 8 counts 0."""
    assert trick_points(contract, ["D9", "D8", "D7", "C7"])[1] == 8
    assert trick_points("H", ["D9", "D8", "D7", "C7"])[1] == 0


@pytest.mark.nojit_sample
def test_undenufe_six_counts_11_and_ace_counts_0():
    """The deck: Undenufe "6 = 11, A = 0" (the 6 also takes the trick)."""
    assert trick_points("undenufe", ["DA", "D6", "DK", "D10"]) == (1, 0 + 11 + 4 + 10)
    assert trick_points("obenabe", ["DA", "D6", "DK", "D10"]) == (0, 11 + 0 + 4 + 10)


def test_off_suit_six_in_undenufe_counts_11_for_the_tricks_winner():
    """The deck: "Off-suit cards keep their value (an off-suit 6 in Undenufe counts 11 for the trick's
    winner)": ♦7 wins (7 is 2nd in Undenufe, above the ♦8) and takes ♥6 and ♠6."""
    assert trick_points("undenufe", ["D8", "D7", "H6", "S6"]) == (1, 8 + 0 + 11 + 11)


def test_ou_card_values_off_gives_plain_values_in_obenabe_and_undenufe():
    """`ou_card_values=False`: 8 counts 0, the Undenufe 6 counts 0 and the Ace 11."""
    rules = make_rules("schieber", ou_card_values=False)
    assert trick_points("obenabe", ["D9", "D8", "D7", "C7"], rules=rules)[1] == 0
    assert trick_points("undenufe", ["DA", "D6", "DK", "D10"], rules=rules) == (1, 11 + 0 + 4 + 10)


def test_the_last_trick_adds_5():
    """The deck: "The last trick adds 5" (the same cards as trick 8: 25 points, as trick 9: 30)."""
    cards = ["SA", "SK", "S6", "S10"]
    assert trick_points("H", cards) == (0, 25)
    assert trick_points("H", cards, last=True) == (0, 30)


@pytest.mark.nojit_sample
@pytest.mark.parametrize("contract", CONTRACTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_round_is_worth_157(contract, seed):
    """The deck: "every round is worth 157": 152 card points + 5 for the last trick, in every contract."""
    r = Round("tournament", seed=seed)
    r.step(contract)
    play_out(r)
    assert sum(r.points) == 157
    assert sum(t["points"] for t in r.tricks) == 157
    assert r.tricks[-1]["points"] >= 5


def test_without_ou_card_values_obenabe_rounds_are_worth_125():
    """`ou_card_values=False` in Obenabe: 4 × 30 = 120 card points + 5 (The deck: switch `ou_card_values`)."""
    r = Round(make_rules("tournament", ou_card_values=False), seed=3)
    r.step("obenabe")
    play_out(r)
    assert sum(r.points) == 125


# deals used below


def match_deal(trump: str) -> dict[int, list[str]]:
    """Player 0 holds seven trumps (J 9 A 10 8 7 6: a 6-sequence Weis) and two plain Aces; player 1
    holds the trump K and Q (Stöck). Player 0 leads J, 9, A, ...: player 1 must give up K and Q in
    tricks 1 and 2, and player 0 takes every trick (a Match)."""
    others = [s for s in "DHSC" if s != trump]
    p0 = [trump + r for r in ("J", "9", "A", "10", "8", "7", "6")] + [others[0] + "A", others[1] + "A"]
    return {0: p0, 1: [trump + "K", trump + "Q"]}


def play_match_deal(trump: str, rules="schieber") -> Round:
    hands = match_deal(trump)
    r = new_round(hands, trump, rules=rules)
    return play_out(r, {0: hands[0]})


# Match


@pytest.mark.nojit_sample
def test_match_all_nine_tricks_scores_257_and_the_other_team_keeps_its_stoeck():
    """Match and the round score: "one team takes all 9 tricks and scores 157 + 100 = 257 ... The other
    team keeps its Weis and Stöck"; Stöck counts when the team "suffers a Match"."""
    r = play_match_deal("H")
    assert r.match_team == 0 and r.tricks_won == [9, 0] and r.points == [157, 0]
    assert r.weis_points == [150, 0]
    assert r.stoeck_player == 1 and r.stoeck_shown
    assert r.score == [157 + 100 + 150, 20]


def test_a_zero_point_trick_taken_by_the_opponents_prevents_the_match():
    """Match and the round score: "A Match is 'one team won all 9 tricks', not '157 card points': a
    0-point trick won by the opponents prevents it." Trick 1 is ♠6 ♠7 ♠8 ♠9 (0 points) taken by player
    3; team 0 takes the other eight tricks and all 157 points, without the bonus."""
    p0 = ["S6", "HJ", "H9", "HA", "H10", "H8", "H7", "H6", "CA"]
    r = new_round({0: p0, 1: ["S7", "HK", "HQ"], 2: ["S8"], 3: ["S9"]}, "H")
    play_out(r, {0: p0, 1: ["S7"], 2: ["S8"], 3: ["S9"]})
    assert r.tricks[0]["winner"] == 3 and r.tricks[0]["points"] == 0
    assert r.tricks_won == [8, 1] and r.points == [157, 0]
    assert r.match_team is None
    assert r.score == [157 + 150, 20]


def test_kontermatsch_by_the_non_declaring_team_gets_the_same_bonus():
    """Match and the round score: "A Kontermatsch (by the non-declaring team) is worth the same 257".
    Player 1 is forehand (dealer 0) and names ♥, but team 0 holds the trumps and takes all 9 tricks."""
    hands = match_deal("H")
    r = new_round(hands, "H", dealer=0)
    assert r.declarer == 1
    play_out(r, {0: hands[0]})
    assert r.match_team == 0 and r.tricks_won == [9, 0]
    assert r.score == [157 + 100 + 150, 20]


def test_tournament_match_counts_157_without_bonus():
    """Match and the round score: "In tournament or Preisjass play without Weis, a Match counts 157 with
    no bonus"; `tournament` also has no Weis and no Stöck."""
    r = play_match_deal("H", rules="tournament")
    assert r.match_team == 0
    assert r.weis_points == [0, 0] and r.stoeck_player is None
    assert r.score == [157, 0]


# multipliers


@pytest.mark.nojit_sample
def test_schieber_2500_multiplies_cards_match_weis_and_stoeck():
    """Match and the round score: "Multipliers apply to everything scored in the round: cards, last
    trick, Match bonus, Weis and Stöck". `schieber_2500`: ♠ × 2."""
    r = play_match_deal("S", rules="schieber_2500")
    assert r.score == [(157 + 100 + 150) * 2, 20 * 2]


def test_seed_nl_match_with_multiplier_diamonds_times_3():
    """`seed_nl` multipliers "H ×2, D ×3"; its sequences are capped at 100 (the 6-sequence counts
    100) and "Match +100 before the multiplier" (Match and the round score)."""
    r = play_match_deal("D", rules="seed_nl")
    assert r.weis_points == [100, 0]
    assert r.score == [(157 + 100 + 100) * 3, 20 * 3]


def test_seed_nl_hearts_times_2():
    """`seed_nl`: "H ×2" on the whole score (both teams)."""
    r = play_match_deal("H", rules="seed_nl")
    assert r.score == [(157 + 100 + 100) * 2, 20 * 2]


@pytest.mark.parametrize("contract, factor", [("obenabe", 3), ("undenufe", 3), ("D", 1), ("C", 2)])
def test_schieber_2500_card_points_and_last_trick_are_multiplied(contract, factor):
    """`schieber_2500` multipliers "1 1 2 2 3 3" (D H S C O U) on card points incl. the last trick
    (a deal with no Weis and no Stöck)."""
    r = new_round({}, contract, rules="schieber_2500")
    assert r.weis_points == [0, 0] and r.stoeck_player is None
    play_out(r)
    bonus = [100 if r.match_team == t else 0 for t in (0, 1)]
    assert sum(r.points) == 157
    assert r.score == [(p + b) * factor for p, b in zip(r.points, bonus, strict=True)]


def test_multipliers_switch_merges_a_dict_on_top_of_the_preset():
    """Switch `multipliers` given as a dict changes only the named contracts."""
    rules = make_rules("schieber", multipliers={"obenabe": 5})
    r = new_round({}, "obenabe", rules=rules)
    play_out(r)
    bonus = [100 if r.match_team == t else 0 for t in (0, 1)]
    assert r.score == [(p + b) * 5 for p, b in zip(r.points, bonus, strict=True)]


# Stöck


@pytest.mark.nojit_sample
def test_stoeck_is_credited_when_the_second_card_is_played_not_before():
    """Stöck: "Announced when the second of the two cards is played"; "credited automatically"."""
    r = new_round({0: ["HK", "HQ"]}, "H")
    assert r.stoeck_player == 0 and not r.stoeck_shown
    r.step("HK")
    while r.trick_number < 1:
        r.step(int(r.legal_actions()[0]))
    assert not r.stoeck_shown
    while r.to_move != 0:
        r.step(int(r.legal_actions()[0]))
    before = r.score
    assert before[0] == r.points[0], "no Stöck in the score before the second card"
    r.step("HQ")
    assert r.stoeck_shown
    assert r.score[0] == r.points[0] + 20


def test_stoeck_counts_when_the_team_loses_the_weis_contest():
    """Stöck: "Stöck always counts: independent of the Weis contest". Team 1 wins the Weis with a
    4-sequence; team 0 still scores its Stöck."""
    r = new_round({0: ["HK", "HQ"], 1: ["S6", "S7", "S8", "S9"]}, "H")
    assert r.weis_team == 1 and r.weis_points == [0, 50]
    play_out(r)
    assert r.score == [r.points[0] + 20, r.points[1] + 50]


def test_stoeck_counts_with_weis_switched_off():
    """Stöck: "Stöck is its own switch (`stoeck` = 20 or 0): it would still count with Weis off"."""
    r = new_round({0: ["HK", "HQ"], 1: ["S6", "S7", "S8", "S9"]}, "H",
                  rules=make_rules("schieber", weis=False, stoeck=20))
    assert r.weis_team is None and r.weis_points == [0, 0]
    play_out(r)
    assert r.score == [r.points[0] + 20, r.points[1]]


def test_stoeck_counts_when_king_and_queen_are_part_of_a_sequence():
    """Stöck: "The cards may also belong to a sequence Weis": ♥J ♥Q ♥K is a 3-sequence (20) and
    Stöck (20); both count."""
    r = new_round({0: ["HJ", "HQ", "HK"]}, "H")
    assert r.weis() == [{"player": 0, "cards": ["HK", "HQ", "HJ"], "points": 20}]
    play_out(r)
    assert r.stoeck_shown
    assert r.score == [r.points[0] + 20 + 20, r.points[1]]


def test_stoeck_counts_against_a_match():
    """Stöck: "even with no trick, even against a Match" (player 1 holds ♥K ♥Q and takes no trick)."""
    r = play_match_deal("H")
    assert r.tricks_won[1] == 0 and r.score[1] == 20


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_no_stoeck_in_obenabe_or_undenufe(contract):
    """Stöck: "There is no Stöck in Obenabe or Undenufe." """
    r = new_round({0: ["HK", "HQ"]}, contract)
    assert r.stoeck_player is None
    play_out(r)
    assert not r.stoeck_shown and r.score == r.points


def test_stoeck_only_for_the_trump_king_and_queen():
    """Stöck: "The K and Q of trump in one hand": K+Q of a plain suit is no Stöck."""
    r = new_round({0: ["SK", "SQ"]}, "H")
    assert r.stoeck_player is None
    play_out(r)
    assert r.score == r.points


def test_tournament_has_no_stoeck():
    """`tournament`: "Stöck off"."""
    r = new_round({0: ["HK", "HQ"]}, "H", rules="tournament")
    assert r.stoeck_player is None
    play_out(r)
    assert r.score == r.points


def test_stoeck_value_switch():
    """Switch `stoeck` (Stöck value; 0 = off) on top of schieber."""
    """`stoeck` is the Stöck value; 0 switches it off."""
    for value in (0, 40):
        r = new_round({0: ["HK", "HQ"]}, "H", rules=make_rules("schieber", stoeck=value))
        play_out(r)
        assert r.score == [r.points[0] + value, r.points[1]]


# the round score


def test_score_is_points_plus_match_bonus_plus_weis_plus_stoeck_times_multiplier():
    """Match and the round score: "score[t] = (points[t] + Match bonus + Weis[t] + Stöck[t]) *
    multiplier, for both teams" (seed_nl, ♥ × 2, no Match: team 1 has a 4-sequence Weis, team 0
    Stöck)."""
    r = new_round({0: ["HK", "HQ"], 1: ["S6", "S7", "S8", "S9"]}, "H", rules="seed_nl")
    play_out(r)
    assert r.match_team is None
    assert r.score == [(r.points[0] + 20) * 2, (r.points[1] + 50) * 2]
