"""Contract choice and legal card play (docs/games/schieber.md, "Players, deal and contract choice";
docs/rules.md, "Legal moves").

Each test quotes the rule it checks. Positions in the middle of a trick come from
``conftest.position``: ``legal(contract, hand, trick)`` is the set of cards the player to move may
play when ``trick`` lies on the table (leader first) and he holds ``hand``.
"""

from __future__ import annotations

import pytest
from conftest import legal, legal_core, position

from jass_env import IllegalActionError, Round, make_rules
from jass_env.engine.card_play import possible_holding
from jass_env.engine.cards import CONTRACTS, card_id, card_name
from jass_env.engine.state import StateView, voids_of

# legal moves: the lead


@pytest.mark.nojit_sample
@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_leader_plays_any_card(contract):
    """Legal moves: "The leader plays any card." """
    hand = ["HJ", "H9", "SA", "S6", "D10", "DK", "C7", "C8", "CQ"]
    assert legal(contract, hand) == set(hand)


# legal moves: Obenabe and Undenufe


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_obenabe_undenufe_follow_the_led_suit_if_possible(contract):
    """Legal moves: "Obenabe/Undenufe: follow the led suit if possible ..." """
    assert legal(contract, ["S7", "SA", "H6", "D9"], ["S10"]) == {"S7", "SA"}


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_obenabe_undenufe_void_player_plays_anything(contract):
    """Legal moves: "... otherwise play anything." """
    assert legal(contract, ["H6", "D9", "CA"], ["S10", "S6"]) == {"H6", "D9", "CA"}


# legal moves: trump led


def test_trump_led_player_with_a_trump_must_play_a_trump_but_need_not_go_higher():
    """Legal moves: "a player holding any trump other than the Puur must play a trump, and may play any
    trump (no obligation to go higher)". Both trumps rank below the led ♥A."""
    assert legal("H", ["H6", "H10", "S7", "CA"], ["HA"]) == {"H6", "H10"}


def test_trump_led_player_without_trump_may_play_any_card():
    """Legal moves: "A player with no trump ... may play any card"."""
    assert legal("H", ["S7", "CA", "D6"], ["HA"]) == {"S7", "CA", "D6"}


@pytest.mark.nojit_sample
def test_edge_case_lone_puur_on_trump_lead_need_not_be_played():
    """Legal moves, an example: "Trump ♥ led; hand ♥J, ♣6 → both legal (Puur exception)." """
    assert legal("H", ["HJ", "C6"], ["H7"]) == {"HJ", "C6"}
    assert legal_core("H", ["HJ", "C6"], ["H7"]) == {"HJ", "C6"}


@pytest.mark.nojit_sample
def test_edge_case_puur_and_another_trump_must_play_a_trump():
    """Legal moves, an example: "Hand ♥J, ♥7, ♣6 → only ♥J and ♥7." """
    assert legal("H", ["HJ", "H7", "C6"], ["H6"]) == {"HJ", "H7"}


def test_without_puur_exception_a_lone_puur_must_follow_a_trump_lead():
    """`puur_exception=False`: the Puur is an ordinary trump, so the trump lead must be followed."""
    rules = make_rules("schieber", puur_exception=False)
    assert legal("H", ["HJ", "C6"], ["H7"], rules=rules) == {"HJ"}


def test_puur_exception_has_no_effect_on_a_plain_lead_in_schieber():
    """Legal moves: the Puur exception is "trump-lead form only"; on a plain lead the Puur is a trump like
    any other: schieber lets a player holding the led suit trump, so the Puur may be played."""
    assert legal("H", ["SA", "HJ", "C6"], ["S6"]) == {"SA", "HJ"}


def test_a_discard_on_a_trump_lead_still_allows_the_lone_puur():
    """What a shown void tells (``possible_holding``): with the Puur exception a player who
    does not follow a trump lead may still hold the Puur (here he does); every other trump is out."""
    r = position("H", ["HJ", "C6"], ["H7"], leader=1)
    me = r.to_move
    r.step("C6")
    voids = voids_of(r.state, me)
    assert voids == 1 << CONTRACTS.index("H")
    allowed = possible_holding(voids, CONTRACTS.index("H"), r.rp)
    assert [card_name(c) for c in range(36) if allowed >> c & 1 and card_name(c)[0] == "H"] == ["HJ"]
    assert allowed >> card_id("HJ") & 1 and r.hand(me) == ["HJ"]


def test_without_puur_exception_a_trump_void_allows_no_trump_and_a_plain_void_no_card_of_it():
    rules = make_rules("schieber", puur_exception=False)
    hearts, spades = CONTRACTS.index("H"), CONTRACTS.index("S")
    allowed = possible_holding(1 << hearts | 1 << spades, hearts, rules.params)
    assert {card_name(c)[0] for c in range(36) if allowed >> c & 1} == {"D", "C"}
    # a plain-suit void excludes the whole suit, the Jack too, also with the exception
    allowed = possible_holding(1 << spades, hearts, make_rules("schieber").params)
    assert {card_name(c)[0] for c in range(36) if allowed >> c & 1} == {"D", "H", "C"}


@pytest.mark.nojit_sample
def test_seed_nl_holder_of_the_led_plain_suit_may_not_play_the_puur():
    """Legal moves: "in seed_nl (must follow) a player holding the led plain suit may not play the Puur"."""
    assert legal("H", ["SA", "HJ", "C6"], ["S6"], rules="seed_nl") == {"SA"}


# legal moves: plain suit led, under-trumping


@pytest.mark.nojit_sample
def test_edge_case_holder_of_led_suit_may_follow_or_trump():
    """Legal moves, an example: "♠ led; hand ♠7, ♥6, ♣6 with ♥ trump and no trump in the trick → ♠7 and ♥6."
    A plain card of another suit (♣6) is not allowed."""
    assert legal("H", ["S7", "H6", "C6"], ["SK"]) == {"S7", "H6"}


def test_seed_nl_may_not_trump_instead_of_following():
    """`seed_nl`: `may_trump_instead_of_following = False`: "a player holding the led suit must
    follow it" (same position as the edge case above, where schieber also allows ♥6)."""
    assert legal("H", ["S7", "H6", "C6"], ["SK"], rules="seed_nl") == {"S7"}


def test_void_player_may_play_any_card_no_obligation_to_trump():
    """Legal moves: "A player void in the led suit may play any card. There is no obligation to trump"."""
    assert legal("H", ["H6", "C6", "DA"], ["S6"]) == {"H6", "C6", "DA"}


def test_void_player_need_not_over_trump():
    """Legal moves: "... or to over-trump": with a trump in the trick, a void player may still discard."""
    assert legal("H", ["HA", "C6"], ["S6", "H10"]) == {"HA", "C6"}


@pytest.mark.nojit_sample
def test_edge_case_jass_kit_issue_10_no_under_trump_below_the_highest_trump():
    """Legal moves, an example: "♣ led, trump ♦; the trick holds ♣6, ♦J, ♦10; hand ♦A, ♦9, ♦6, ♠10 → only
    ♠10. ♦9 ranks below ♦J, so it would be an under-trump. This is jass-kit issue #10, where
    jass-kit wrongly also allows ♦A and ♦9." """
    hand, trick = ["DA", "D9", "D6", "S10"], ["C6", "DJ", "D10"]
    assert legal("D", hand, trick) == {"S10"}
    assert legal_core("D", hand, trick) == {"S10"}


@pytest.mark.nojit_sample
def test_edge_case_under_trump_ban_leaves_only_the_plain_card():
    """Legal moves, an example: "♠ led, trump ♥; the trick holds ♠6, ♥6, ♥J; hand ♥7, ♥A, ♣6 → only ♣6.
    jass-kit allows ♥7 and ♥A." """
    assert legal("H", ["H7", "HA", "C6"], ["S6", "H6", "HJ"]) == {"C6"}


@pytest.mark.nojit_sample
def test_edge_case_only_trumps_left_any_trump_may_be_played():
    """Legal moves, an example: "Only trumps left, ♠ led, ♥A in the trick; hand ♥6, ♥7, ♥J → all three.
    The schieber engine wrongly allows only ♥J (it forces an over-trump)." """
    assert legal("H", ["H6", "H7", "HJ"], ["S6", "HA"]) == {"H6", "H7", "HJ"}


def test_under_trump_ban_applies_to_the_partners_trump_too():
    """Legal moves: "The ban applies whoever played the trump being under-trumped; no source exempts the
    partner's trump." The partner (player 1, leader 0 → mover 3) trumped with ♥A."""
    r = position("H", ["H6", "H9", "C6"], ["S6", "HA", "S7"])
    assert r.to_move == 3 and r.current_trick[1] == (1, "HA")
    assert {card_name(a) for a in r.legal_actions()} == {"H9", "C6"}


def test_under_trump_ban_applies_to_a_player_who_could_follow():
    """Legal moves: the ban "also applies to a player who could follow but trumps instead (he may follow or
    over-trump, not under-trump)"."""
    assert legal("H", ["S8", "H6", "HA", "C6"], ["S6", "HK"]) == {"S8", "HA"}


def test_under_trump_reference_is_the_highest_trump_in_the_trick():
    """Legal moves: "the reference is the highest trump in the trick" (♥9, not the later, lower ♥10):
    ♥A ranks below the Nell, ♥J above it."""
    assert legal("H", ["HA", "HJ", "C6"], ["S6", "H9", "H10"]) == {"HJ", "C6"}


def test_no_under_trump_rule_on_a_trump_lead():
    """Legal moves: "No under-trump rule on a trump lead." ♥6 below the ♥J in the trick is fine."""
    assert legal("H", ["H6", "C6"], ["H9", "HJ"]) == {"H6"}


def test_illegal_under_trump_is_refused_by_step():
    """The checked API refuses the under-trump of edge case 3 and names the legal cards."""
    r = position("D", ["DA", "D9", "D6", "S10"], ["C6", "DJ", "D10"])
    with pytest.raises(IllegalActionError, match="S10"):
        r.step("D9")


def test_undertrump_rule_allowed_lifts_the_ban():
    """`undertrump_rule="allowed"`: any trump may be played (jass-kit issue #10 position)."""
    rules = make_rules("schieber", undertrump_rule="allowed")
    assert legal("D", ["DA", "D9", "D6", "S10"], ["C6", "DJ", "D10"], rules=rules) == {
        "DA", "D9", "D6", "S10"}


UPW = make_rules("schieber", undertrump_rule="unless_partner_winning")


def test_unless_partner_winning_partner_winning_allows_under_trump():
    """Legal moves, `unless_partner_winning`: "if the partner is winning, any trump may be played"."""
    assert legal("H", ["H6", "HK", "C6"], ["S6", "HA", "S7"], rules=UPW) == {"H6", "HK", "C6"}


def test_unless_partner_winning_opponent_winning_bans_under_trump():
    """Legal moves, `unless_partner_winning`: "the ban applies only while the trick is currently won by an
    opponent" (player 2, an opponent of the mover 3, trumped with ♥A)."""
    assert legal("H", ["H6", "H9", "C6"], ["S6", "S7", "HA"], rules=UPW) == {"H9", "C6"}


def test_unless_partner_winning_partner_trumped_but_opponent_over_trumped():
    """Legal moves: "with a trump in the trick that is the holder of the highest trump": the partner's ♥9
    was over-trumped by the opponent's ♥J, so the ban applies against the ♥J."""
    assert legal("H", ["H6", "HA", "C6"], ["S6", "H9", "HJ"], rules=UPW) == {"C6"}


def test_unless_partner_winning_keeps_the_only_trumps_exception():
    """Legal moves: "the only-trumps exception is kept"."""
    assert legal("H", ["H6", "H7"], ["S6", "S7", "HA"], rules=UPW) == {"H6", "H7"}


def test_seed_nl_void_player_may_trump_subject_to_the_ban():
    """Legal moves: with must-follow, "a void player may play any card subject to this ban" (opponent 1 is
    winning with ♥A; the mover is player 2)."""
    assert legal("H", ["H6", "H9", "C6"], ["S6", "HA"], rules="seed_nl") == {"H9", "C6"}


def test_seed_nl_partner_winning_void_player_may_under_trump():
    """`seed_nl` preset = unless_partner_winning: the partner's ♥A wins, so ♥6 may go under it."""
    assert legal("H", ["H6", "C6"], ["S6", "HA", "S7"], rules="seed_nl") == {"H6", "C6"}


# legal moves: the trick's winner


def trick_winner(contract: str, cards: list[str]) -> int:
    """Play the four cards as the last trick (leader = player 0) and return its winner."""
    r = position(contract, [cards[3]], cards[:3])
    r.step(cards[3])
    return StateView(r.state, r.rp).trick_winner(8)


@pytest.mark.nojit_sample
@pytest.mark.parametrize("contract, cards, winner, why", [
    ("H", ["SA", "H6", "SK", "S10"], 1, "the lowest trump beats the led suit's Ace"),
    ("H", ["S6", "H6", "HJ", "H9"], 2, "the Puur is the highest trump, above the Nell"),
    ("H", ["HA", "H9", "H10", "H6"], 1, "the Nell ranks above the trump Ace"),
    ("H", ["S10", "SJ", "DA", "S6"], 1, "plain suit: J above 10; an off-suit Ace cannot win"),
    ("H", ["S10", "SA", "DA", "S6"], 1, "plain suit: the Ace is highest"),
    ("obenabe", ["D6", "DA", "SA", "D10"], 1, "Obenabe: the Ace of the led suit is highest"),
    ("obenabe", ["D9", "D10", "D8", "DJ"], 3, "Obenabe: natural order, J above 10 above 9"),
    ("undenufe", ["D7", "DA", "D6", "S6"], 2, "Undenufe: the 6 of the led suit is highest"),
    ("undenufe", ["DA", "DK", "C6", "DQ"], 3, "Undenufe: Q above K above A"),
])
def test_trick_winner_highest_trump_else_highest_of_led_suit(contract, cards, winner, why):
    """Legal moves: "Trick winner: the highest trump; otherwise the highest card of the led suit (in
    Undenufe the lowest, so 6 is highest)." """
    assert trick_winner(contract, cards) == winner, why


def test_the_trick_winner_leads_the_next_trick():
    """The player who took the trick leads the next one (player 2 trumps and leads trick 9)."""
    # leader 0 played ♠6, player 1 ♠7; player 2 holds ♠A, ♠8; player 3 must follow with ♠10
    r = position("H", ["SA", "S8"], ["S6", "S7"], others={0: ["D6"], 1: ["C6"], 3: ["S10", "C7"]})
    r.step("SA")
    r.step("S10")
    assert r.leader == 2 and r.to_move == 2 and r.trick_number == 8


# contract choice


def test_forehand_chooses_one_of_six_contracts_or_pushes():
    """Players, deal and contract choice: "Vorhand chooses one of six contracts (♦ ♥ ♠ ♣ trump,
    Obenabe, Undenufe) or pushes." Forehand is the player after the dealer."""
    r = Round(seed=11, dealer=2)
    assert r.phase == "contract" and r.forehand == 3 and r.to_move == 3
    assert list(r.legal_actions()) == list(range(36, 43))


@pytest.mark.nojit_sample
def test_after_a_push_the_partner_must_choose_and_cannot_push_back():
    """Players, deal and contract choice: "After a push the partner must choose and cannot push back"."""
    r = Round(seed=11, dealer=2)
    r.step("push")
    assert r.pushed and r.to_move == 1
    assert list(r.legal_actions()) == list(range(36, 42))
    with pytest.raises(IllegalActionError):
        r.step("push")
    with pytest.raises(IllegalActionError):
        r.step(r.hand(1)[0])  # a card is no contract


def test_forehand_leads_trick_one_even_when_the_partner_chose():
    """Players, deal and contract choice: "Vorhand leads trick 1 even when the partner chose"."""
    r = Round(seed=11, dealer=2)
    r.step("push")
    r.step("S")
    assert r.declarer == 1 and r.contract == "S"
    assert r.phase == "play" and r.leader == 3 and r.to_move == 3


def test_forehand_leads_trick_one_after_choosing_himself():
    """Players, deal and contract choice: without a push forehand is the declarer and leads trick 1."""
    r = Round(seed=11, dealer=2)
    r.step("obenabe")
    assert r.declarer == 3 and r.leader == 3 and r.to_move == 3


def test_leader_after_push_declarer_house_rule():
    """Players, deal and contract choice: "A house rule has the declarer lead"
    (`leader_after_push="declarer"`)."""
    r = Round(make_rules("schieber", leader_after_push="declarer"), seed=11, dealer=2)
    r.step("push")
    r.step("undenufe")
    assert r.declarer == 1 and r.leader == 1 and r.to_move == 1


def test_seed_vaud_offers_only_the_four_trump_contracts():
    """`seed_vaud`: "D H S C trump only" (plus push)."""
    r = Round("seed_vaud", seed=4)
    assert list(r.legal_actions()) == [36, 37, 38, 39, 42]
    with pytest.raises(IllegalActionError):
        r.step("obenabe")
    r.step("push")
    assert list(r.legal_actions()) == [36, 37, 38, 39]


def test_contract_and_push_switches():
    """Switches `contracts` and `push` on their own: only the named contracts, and no push."""
    r = Round(make_rules("schieber", contracts=["H", "obenabe"], push=False), seed=4)
    assert list(r.legal_actions()) == [37, 40]


def test_no_card_may_be_played_before_the_contract_is_named():
    """Contract choice comes first: in the contract phase only contracts (and push) are legal."""
    r = Round(seed=4)
    card = r.hand(r.to_move)[0]
    with pytest.raises(IllegalActionError, match="push"):
        r.step(card)


def test_a_card_not_in_hand_is_refused_with_the_legal_cards_named():
    """Bad input gets "what was wrong + what is allowed": another player's card is refused."""
    r = Round(seed=4)
    r.step("H")
    other = r.hand((r.to_move + 1) % 4)[0]
    with pytest.raises(IllegalActionError, match=r"legal: "):
        r.step(other)
