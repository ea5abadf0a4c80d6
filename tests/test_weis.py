"""Weis: what a player declares, how two Weis compare, who scores (docs/rules.md "Weis").

``weis_of(hand, contract, rules)`` is what the engine's ``player_weis`` declares from a 9-card hand, as
sorted (points, cards). ``contest(...)`` deals the given cards (the rest form no Weis) and returns
the Round after the contract is named: the Weis contest is decided then.
"""

from __future__ import annotations

import pytest
from conftest import ALL_CARDS, best_key, new_round, patterns, play_out, suit_cards, weis_of

from jass_env import make_rules

FILL = ["D6", "D8", "D10", "DQ", "S6", "S8"]  # no run, no quad, no K+Q: fills a hand up to 9 cards


def hand_with(*cards: str, fill=FILL) -> list[str]:
    cards = list(cards)
    return cards + [c for c in fill if c not in cards][:9 - len(cards)]


def contest(hands: dict[int, list[str]], contract: str, rules="schieber", dealer: int = 3):
    return new_round(hands, contract, rules=rules, dealer=dealer)


# declaring


@pytest.mark.nojit_sample
@pytest.mark.parametrize("preset", ["seed_nl", "seed_vaud"])
def test_a_maximal_run_is_never_split_8_run_is_one_100(preset):
    """Weis: "A run is never split, even where capped values would make splitting pay (seed_nl/
    seed_vaud: an 8-run is one 100, not 5+3 = 120)"."""
    run = suit_cards("H", "6 7 8 9 10 J Q K")
    assert weis_of(run + ["C6"], "S", preset) == [(100, sorted(run))]


def test_a_run_of_7_is_one_7_sequence():
    """Weis: "a run of 7 is one 7-sequence" (200, not 4 + 3 cards)."""
    run = suit_cards("C", "8 9 10 J Q K A")
    assert weis_of(run + ["D6", "H6"], "H") == [(200, sorted(run))]


SCHIEBER_SEQ = (20, 50, 100, 150, 200, 250, 300)
CAPPED_SEQ = (20, 50, 100, 100, 100, 100, 100)


@pytest.mark.parametrize("preset, values", [("schieber", SCHIEBER_SEQ), ("schieber_2500", SCHIEBER_SEQ),
                                            ("seed_nl", CAPPED_SEQ), ("seed_vaud", CAPPED_SEQ)])
@pytest.mark.parametrize("length", range(3, 10))
def test_sequence_values_per_preset(preset, values, length):
    """Preset table "sequence values 3/4/5/6/7/8/9": schieber 20/50/100/150/200/250/300,
    seed_nl and seed_vaud 20/50/100/100/100/100/100."""
    run = suit_cards("H", " ".join(("6", "7", "8", "9", "10", "J", "Q", "K", "A")[:length]))
    hand = hand_with(*run)
    assert weis_of(hand, "C", preset) == [(values[length - 3], sorted(run))]


def test_sequence_values_switch_vorarlberg_values():
    """Weis: "Variants to support as switches: ... Vorarlberg values 120/140/160/180" for 6..9."""
    rules = make_rules("schieber", sequence_values=[20, 50, 100, 120, 140, 160, 180])
    run = suit_cards("S", "6 7 8 9 10 J")
    assert weis_of(run + ["D6", "D8", "H10"], "H", rules) == [(120, sorted(run))]


def test_tournament_has_no_weis():
    """`tournament`: "Weis off": nobody declares, nobody scores."""
    r = contest({0: suit_cards("H", "6 7 8 9 10")}, "C", rules="tournament")
    assert r.declared_weis(0) == [] and r.weis_team is None and r.weis_points == [0, 0]


def test_sequences_use_natural_order_also_in_the_trump_suit():
    """Weis: "Sequences always use the natural order 6 7 8 9 10 J Q K A, in every contract including
    trump" ("Il n'y a pas de tierce Under, Neuf, As"): trump J-9-A is no sequence, 9-10-J is."""
    assert weis_of(hand_with("HJ", "H9", "HA"), "H") == []
    assert weis_of(hand_with("H9", "H10", "HJ"), "H") == [(20, ["H10", "H9", "HJ"])]
    assert weis_of(hand_with("H9", "H10", "HJ"), "undenufe") == [(20, ["H10", "H9", "HJ"])]


def quad(rank: str) -> list[str]:
    return [s + rank for s in "DHSC"]


def quad_hand(rank: str) -> list[str]:
    """Four of ``rank`` plus five cards that form no other Weis (nor K+Q)."""
    hand = quad(rank)
    for c in ALL_CARDS:
        if len(hand) < 9 and c not in hand and patterns(hand + [c]) == {("quad", rank)}:
            hand.append(c)
    return hand


@pytest.mark.parametrize("rank, points", [("6", 100), ("7", 100), ("8", 100), ("9", 150), ("10", 100),
                                          ("J", 200), ("Q", 100), ("K", 100), ("A", 100)])
def test_four_of_a_kind_values_schieber(rank, points):
    """Weis: "four of a kind: A, K, Q, 10, 8, 7, 6 100; four 9s (Nell) 150; four Js (Puur) 200"."""
    assert weis_of(quad_hand(rank), "H") == [(points, sorted(quad(rank)))]


@pytest.mark.parametrize("rank, points", [("6", 0), ("7", 0), ("8", 0), ("9", 100), ("10", 100),
                                          ("J", 200), ("Q", 100), ("K", 100), ("A", 100)])
def test_four_of_a_kind_values_seed_nl(rank, points):
    """Presets (schieber.md): "seed_nl values: quads of 10, Q, K, A 100, four 9s 100, four Js 200; quads
    of 6, 7, 8 are no Weis"."""
    expected = [(points, sorted(quad(rank)))] if points else []
    assert weis_of(quad_hand(rank), "H", "seed_nl") == expected


@pytest.mark.parametrize("rank, points", [("6", 100), ("7", 100), ("8", 100), ("9", 150), ("J", 200),
                                          ("A", 100)])
def test_four_of_a_kind_values_seed_vaud(rank, points):
    """Presets (schieber.md): "seed_vaud quad values: 100 for every rank including 6, 7, 8; four 9s 150;
    four Js 200"."""
    assert weis_of(quad_hand(rank), "H", "seed_vaud") == [(points, sorted(quad(rank)))]


@pytest.mark.parametrize("contract, rank, points", [("undenufe", "A", 100), ("obenabe", "6", 100),
                                                    ("obenabe", "9", 150), ("undenufe", "9", 150),
                                                    ("obenabe", "J", 200), ("undenufe", "J", 200)])
def test_quads_count_in_every_contract(contract, rank, points):
    """Weis: "Quads count in every contract: four Aces count in Undenufe, four 6s in Obenabe. Four
    9s and four Js keep 150 and 200 in Obenabe and Undenufe"."""
    assert weis_of(quad_hand(rank), contract) == [(points, sorted(quad(rank)))]


def test_quad_values_switch_merges_into_the_preset():
    """Switch `quad_values` as a dict changes the named ranks only (four 9s 100, four Js stay 200)."""
    rules = make_rules("schieber", quad_values={"9": 100})
    assert weis_of(quad_hand("9"), "H", rules) == [(100, sorted(quad("9")))]
    assert weis_of(quad_hand("J"), "H", rules) == [(200, sorted(quad("J")))]


KREUZ = quad("10") + suit_cards("D", "J Q K A") + ["C6"]   # ♦10-A is a 5-run through the quad


@pytest.mark.nojit_sample
def test_kreuzweis_a_card_in_a_sequence_and_a_quad_counts_in_both():
    """Weis: "Kreuzweis (one card used in a sequence and a quad): allowed" (every preset): ♦10 is in
    the four 10s (100) and in ♦10-J-Q-K-A (100)."""
    assert weis_of(KREUZ, "H") == [(100, sorted(quad("10"))), (100, sorted(suit_cards("D", "10 J Q K A")))]


def test_kreuzweis_off_the_player_picks_the_best_choice():
    """Weis: "Kreuzweis off: the player picks which quads to declare; the cards of those quads are
    removed and the maximal runs of the rest are his sequences; he picks the choice with the most
    total points". Four 10s (100) + ♦J-Q-K-A (50) = 150 beats the 5-sequence alone (100)."""
    rules = make_rules("schieber", kreuzweis=False)
    assert weis_of(KREUZ, "H", rules) == [(50, sorted(suit_cards("D", "J Q K A"))),
                                          (100, sorted(quad("10")))]


def test_kreuzweis_off_equal_totals_go_to_the_best_single_weis():
    """Weis: Kreuzweis off: "... the most total points, then the best single Weis". ♦6-J (150) or four
    10s (100) + ♦6-7-8-9 (50): both 150, the 6-sequence is the better single Weis."""
    rules = make_rules("schieber", kreuzweis=False)
    hand = suit_cards("D", "6 7 8 9 10 J") + ["H10", "S10", "C10"]
    assert weis_of(hand, "H", rules) == [(150, sorted(suit_cards("D", "6 7 8 9 10 J")))]
    assert [p for p, _ in weis_of(hand, "H")] == [100, 150], "with Kreuzweis both count"


# comparison


def test_comparison_1_points():
    """Weis: comparison "1. points": player 1's 4-sequence (50) beats forehand's 3-sequence (20)."""
    r = contest({0: suit_cards("H", "Q K A"), 1: suit_cards("S", "6 7 8 9")}, "C")
    assert r.weis_team == 1 and r.weis_points == [0, 50]


@pytest.mark.nojit_sample
@pytest.mark.parametrize("run, quad_rank", [
    ("6 7 8 9 10", "A"),          # "a 5-sequence beats a 100-point quad"
    ("6 7 8 9 10 J", "9"),        # "a 6-sequence beats four 9s"
    ("6 7 8 9 10 J Q", "J"),      # "a 7-sequence beats four Js"
])
def test_comparison_2_more_cards(run, quad_rank):
    """Weis: comparison "2. more cards (so a 5-sequence beats a 100-point quad, a 6-sequence beats
    four 9s, a 7-sequence beats four Js)". Compared as the contest does, by each Weis' key: the
    quad belongs to forehand (position 0), the sequence to the last seat (position 3). (Two
    players cannot hold these at once: the sequence would need a card of the quad.)"""
    seq = hand_with(*suit_cards("C", run))
    assert weis_of(seq, "obenabe")[0][0] == weis_of(quad_hand(quad_rank), "obenabe")[0][0]
    assert best_key(seq, "obenabe", position_=3) > best_key(quad_hand(quad_rank), "obenabe", position_=0)


def test_comparison_2_more_cards_in_a_dealt_contest():
    """The same step in a deal: player 3's ♣6-7-8-9-10 (100) beats forehand's four Aces (100)."""
    r = contest({0: quad("A"), 3: suit_cards("C", "6 7 8 9 10")}, "obenabe")
    assert r.weis_team == 1 and r.weis_points == [0, 100]


def test_comparison_3_higher_top_card():
    """Weis: comparison "3. the higher top card" (player 3's ♠10-J-Q beats forehand's ♦8-9-10)."""
    r = contest({0: suit_cards("D", "8 9 10"), 3: suit_cards("S", "10 J Q")}, "C")
    assert r.weis_team == 1


@pytest.mark.parametrize("better, worse", [("A", "K"), ("K", "Q"), ("Q", "10"), ("10", "8"), ("8", "7"),
                                          ("7", "6")])
def test_comparison_3_quad_top_card_is_its_rank(better, worse):
    """Weis: "among 100-quads A > K > Q > 10 > 8 > 7 > 6" (the better quad held by player 3)."""
    r = contest({0: quad(worse), 3: quad(better)}, "H")
    assert r.weis_team == 1


def test_seed_nl_four_9s_rank_between_8_and_10():
    """Weis: "in seed_nl the 100-point four 9s rank between 8 and 10": they lose to four 10s and,
    where four 8s are made to count (`quad_values`), beat them."""
    assert contest({0: quad("9"), 3: quad("10")}, "H", rules="seed_nl").weis_team == 1
    assert contest({0: quad("10"), 3: quad("9")}, "H", rules="seed_nl").weis_team == 0
    rules = make_rules("seed_nl", quad_values={"8": 100})
    assert contest({0: quad("8"), 3: quad("9")}, "H", rules=rules).weis_team == 1


def test_comparison_4_a_trump_sequence_beats_a_non_trump_one():
    """Weis: comparison "4. a Weis in the trump suit beats a non-trump one" (♥ trump: player 3's
    ♥6-7-8 beats forehand's ♠6-7-8)."""
    r = contest({0: suit_cards("S", "6 7 8"), 3: suit_cards("H", "6 7 8")}, "H")
    assert r.weis_team == 1


@pytest.mark.parametrize("dealer, winner", [(3, 0), (1, 1), (2, 1)])
def test_comparison_5_position_from_forehand(dealer, winner):
    """Weis: comparison "5. the player who comes earlier in play order starting from Vorhand wins";
    "Position = (player - forehand) % 4". Player 0's ♠6-7-8 against player 3's ♦6-7-8 (♣ trump):
    forehand 0 → player 0 wins; forehand 2 or 3 → player 3 comes first."""
    r = contest({0: suit_cards("S", "6 7 8"), 3: suit_cards("D", "6 7 8")}, "C", dealer=dealer)
    assert r.weis_team == winner


def test_no_trump_step_in_obenabe_undenufe():
    """Weis: "in Obenabe/Undenufe the trump step is skipped": equal sequences in any suits are decided
    by position (forehand 0 beats player 3, whichever suits)."""
    for contract in ("obenabe", "undenufe"):
        for s0, s3 in (("S", "H"), ("H", "S")):
            r = contest({0: suit_cards(s0, "6 7 8"), 3: suit_cards(s3, "6 7 8")}, contract)
            assert r.weis_team == 0


@pytest.mark.nojit_sample
def test_undenufe_reverses_the_top_card_6_7_8_is_the_best_3_sequence():
    """Weis: "In Undenufe the lower cards rank higher: 6-7-8 is the best 3-sequence"; in Obenabe the
    Q-K-A wins."""
    hands = {0: suit_cards("S", "Q K A"), 3: suit_cards("H", "6 7 8")}
    assert contest(hands, "undenufe").weis_team == 1
    assert contest(hands, "obenabe").weis_team == 0


def test_undenufe_lower_run_wins_7_8_9_beats_9_10_J():
    """Weis: "For sequences of equal length this equals 'the lower run wins'" (S5: in Undenufe 7-8-9
    beats 9-10-J)."""
    hands = {0: suit_cards("S", "9 10 J"), 3: suit_cards("H", "7 8 9")}
    assert contest(hands, "undenufe").weis_team == 1


@pytest.mark.nojit_sample
def test_undenufe_four_6s_are_the_best_100_quad():
    """Weis: "four 6s are the best 100-quad" in Undenufe (they beat four Aces); Obenabe: the Aces."""
    hands = {0: quad("A"), 3: quad("6")}
    assert contest(hands, "undenufe").weis_team == 1
    assert contest(hands, "obenabe").weis_team == 0


def test_seed_nl_undenufe_four_9s_beat_four_aces():
    """Weis: "in seed_nl four 9s beat four As" in Undenufe (both are worth 100 there)."""
    assert contest({0: quad("A"), 3: quad("9")}, "undenufe", rules="seed_nl").weis_team == 1


def test_undenufe_reverse_weis_rank_off_uses_natural_order():
    """Switch `undenufe_reverse_weis_rank=False`: the Undenufe top-card step uses natural order."""
    rules = make_rules("schieber", undenufe_reverse_weis_rank=False)
    assert contest({0: quad("A"), 3: quad("6")}, "undenufe", rules=rules).weis_team == 0


def test_no_top_card_comparison_skips_step_3():
    """`weis_comparison="no_top_card"` ("Swisslos skips step 3"): of two 3-sequences the higher top
    card no longer wins; position decides; the trump step still counts."""
    rules = make_rules("schieber", weis_comparison="no_top_card")
    hands = {0: suit_cards("D", "6 7 8"), 3: suit_cards("S", "Q K A")}
    assert contest(hands, "C", rules=rules).weis_team == 0
    assert contest(hands, "C").weis_team == 1
    assert contest(hands, "S", rules=rules).weis_team == 1


# seed_vaud key


@pytest.mark.nojit_sample
def test_seed_vaud_any_quad_beats_any_sequence():
    """Weis: "seed_vaud key: any quad beats any sequence" (four 6s beat an 8-sequence; under schieber
    the 8-sequence, 250, wins)."""
    hands = {0: suit_cards("S", "7 8 9 10 J Q K A"), 3: quad("6")}
    assert contest(hands, "H", rules="seed_vaud").weis_team == 1
    assert contest(hands, "H").weis_team == 0


def test_seed_vaud_points_then_cards_6_sequence_beats_5_sequence():
    """Weis: seed_vaud: "then number of cards (a 6-sequence beats a 5-sequence although both are
    'cent')" (the 6-sequence held by player 3)."""
    hands = {0: suit_cards("S", "10 J Q K A"), 3: suit_cards("D", "6 7 8 9 10 J")}
    r = contest(hands, "H", rules="seed_vaud")
    assert r.weis_team == 1 and r.weis_points == [0, 100]


def test_seed_vaud_quads_by_points_four_js_beat_four_9s_beat_other_quads():
    """Weis: seed_vaud: "then points (4 Js 200 > 4 9s 150 > other quads 100 ...)"."""
    assert contest({0: quad("9"), 3: quad("J")}, "H", rules="seed_vaud").weis_team == 1
    assert contest({0: quad("A"), 3: quad("9")}, "H", rules="seed_vaud").weis_team == 1


@pytest.mark.parametrize("contract, s0, s3", [("D", "S", "C"), ("D", "C", "H"), ("H", "D", "S")])
def test_seed_vaud_suit_order_h_c_s_d_decides_and_position_is_never_reached(contract, s0, s3):
    """Weis: seed_vaud: "then trump; then suit order H > C > S > D ... Position is never reached":
    player 3's sequence in the higher suit beats forehand's equal one in the lower suit."""
    r = contest({0: suit_cards(s0, "6 7 8"), 3: suit_cards(s3, "6 7 8")}, contract, rules="seed_vaud")
    assert r.weis_team == 1


def test_seed_vaud_trump_beats_suit_order():
    """seed_vaud: "then trump" comes before the suit order (♦ trump beats ♥)."""
    r = contest({0: suit_cards("H", "6 7 8"), 3: suit_cards("D", "6 7 8")}, "D", rules="seed_vaud")
    assert r.weis_team == 1


def test_seed_vaud_height_before_trump():
    """seed_vaud: "then height (top card, natural order); then trump"."""
    r = contest({0: suit_cards("D", "6 7 8"), 3: suit_cards("S", "7 8 9")}, "D", rules="seed_vaud")
    assert r.weis_team == 1


# scoring


@pytest.mark.nojit_sample
def test_winning_team_scores_all_weis_of_both_players_including_weaker_ones():
    """Weis: "The team holding the best single Weis scores all Weis of both its players, including
    ones weaker than the opponents' best; the other team scores none." Player 0: 4-sequence (50);
    player 2: ♦6-7-8 (20), weaker than player 1's ♠Q-K-A (20)."""
    r = contest({0: suit_cards("H", "6 7 8 9"), 2: suit_cards("D", "6 7 8"),
                 1: suit_cards("S", "Q K A")}, "C")
    assert r.weis_team == 0 and r.weis_points == [70, 0]
    assert {w["player"] for w in r.weis()} == {0, 2}
    assert r.declared_weis(1) == [{"player": 1, "cards": ["SA", "SK", "SQ"], "points": 20}]
    play_out(r)
    assert r.score == [r.points[0] + 70 + (100 if r.match_team == 0 else 0),
                       r.points[1] + (100 if r.match_team == 1 else 0)]


def test_weis_count_even_when_the_team_takes_no_trick_and_suffers_a_match():
    """Weis: "Weis count regardless of tricks and of a Match or Kontermatsch against the team": player
    1's 5-sequence wins the Weis; team 0 takes all 9 tricks."""
    p0 = ["HJ", "H9", "HA", "HK", "H7", "H6", "SA", "CA", "DK"]
    r = contest({0: p0, 1: suit_cards("S", "6 7 8 9 10"), 2: ["HQ", "H10", "H8", "DA"]}, "H")
    assert r.weis_team == 1 and r.weis_points == [0, 100]
    play_out(r, {0: p0})
    assert r.match_team == 0 and r.tricks_won == [9, 0]
    assert r.score == [257, 100]


def test_weis_are_written_after_trick_1_and_their_cards_become_public():
    """Weis: "The winning team's Weis cards are shown after trick 1"; the Weis are credited then
    (the losing team's cards stay hidden)."""
    r = contest({0: suit_cards("H", "6 7 8 9"), 1: suit_cards("S", "Q K A")}, "C")
    assert r.public_weis_cards(0) == [] and r.score == [0, 0]
    while r.trick_number < 1:
        r.step(int(r.legal_actions()[0]))
    assert r.public_weis_cards(0) == ["H9", "H8", "H7", "H6"]
    assert r.public_weis_cards(1) == []
    first = r.tricks[0]
    assert r.score[0] == 50 + (first["points"] if first["winner"] % 2 == 0 else 0)
