"""jass_env.games.schieber.seat_view: a seat's position from its hand and the public history alone.

The observation and legal mask rebuilt that way must be exactly the ones the real game gives the
seat; histories with plays the rules forbid (jass-kit's issue-#10 under-trump) are accepted and
those plays listed with their trick and position.
"""

from __future__ import annotations

import numpy as np
import pytest

from jass_env import Match, Round, make_rules
from jass_env.engine.cards import card_id, mask_of
from jass_env.games.schieber.observation import OBS_DIM, encode_observation
from jass_env.games.schieber.seat_view import SeatViewError, seat_position


def _history(r: Round) -> list[str]:
    plays = [card for t in r.tricks for _, card in t["plays"]]
    return plays + [card for _, card in r.current_trick]


def _real(r: Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    encode_observation(r.state, seat, r.rp, obs)
    mask = np.zeros(43, dtype=np.int8)
    r.engine.action_mask(r.state, r.rp, mask)
    return obs, mask


def _rebuilt(r: Round, seat: int, match_scores: list[int] | None = None):
    return seat_position(r.rules, seat, r.hand(seat), dealer=r.dealer, pushed=r.pushed,
                         contract=r.contract, plays=_history(r) if r.contract else (),
                         weis=r.weis(), match_scores=match_scores)


def _check_every_decision(r: Round, rng: np.random.Generator, scores=None, step=None) -> int:
    """Play ``r`` with random legal actions; at each decision compare every seat's rebuilt
    observation, and the mover's mask, with the real ones. Returns the decisions checked."""
    n = 0
    while not r.is_over:
        for seat in range(4):
            pos = _rebuilt(r, seat, scores() if scores else None)
            obs, mask = _real(r, seat)
            np.testing.assert_array_equal(pos.observation(), obs)
            assert pos.disagreements == ()
            if seat == r.to_move:
                np.testing.assert_array_equal(pos.action_mask(), mask)
        (step or r.step)(int(rng.choice(r.legal_actions())))
        n += 1
    return n


@pytest.mark.parametrize("preset,overrides", [
    ("schieber", {}),                                  # Weis, Stöck, multiplier 1
    ("schieber_2500", {}),                             # multipliers 1..3
    ("seed_nl", {}),                                   # follow without trumping, partner exception
    ("schieber", {"leader_after_push": "declarer"}),   # after a push the declarer leads
])
def test_rebuilt_position_equals_the_real_one_at_every_decision(preset, overrides):
    rules = make_rules(preset, **overrides)
    rng = np.random.default_rng(11)
    decisions = 0
    for seed in range(6):
        decisions += _check_every_decision(Round(rules, seed=seed), rng)
    assert decisions >= 6 * 37


def test_rebuilt_position_in_a_match_shows_the_match_totals():
    m = Match("schieber", seed=5)
    rng = np.random.default_rng(2)
    for _ in range(2):                      # two rounds: the totals move during the second
        r = m.round
        _check_every_decision(r, rng, scores=lambda: m.scores, step=m.step)


def test_other_hands_are_not_invented():
    r = Round("schieber", seed=3)
    r.step("H")
    r.step(int(r.legal_actions()[0]))
    pos = _rebuilt(r, 2)
    assert [h for p, h in enumerate(pos.view.hands) if p != 2] == [0, 0, 0]


# rule disagreements
# The deal of tests/data/records/jasskit_issue10.jsonl (docs/rules.md, "Legal moves"): ♦ trump;
# in trick 6 player 0 plays ♦9 on ♣6 ♦J ♦10 holding ♠10 — an under-trump of the ♦J.
HANDS = [["DA", "D9", "D6", "HJ", "H8", "SQ", "S10", "S8", "C9"],
         ["DK", "DQ", "HA", "HK", "HQ", "SA", "SK", "CA", "C6"],
         ["D10", "H9", "H6", "S9", "S6", "CK", "CQ", "C10", "C7"],
         ["DJ", "D8", "D7", "H10", "H7", "SJ", "S7", "CJ", "C8"]]


def _issue10_history() -> list[str]:
    import json
    from pathlib import Path
    line = Path(__file__).parent.joinpath("data/records/jasskit_issue10.jsonl").read_text().splitlines()[1]
    record = json.loads(line)
    return [play[1] for t in record["tricks"] for play in t["plays"]]


def test_a_forbidden_play_is_marked_with_its_trick_and_position_not_refused():
    plays = _issue10_history()
    at = plays.index("D9")                   # trick 6, position 4, player 0
    assert divmod(at, 4) == (5, 3)
    # seat 0 itself: its hand then is known exactly (it still holds S10)
    own = seat_position("schieber", 0, [c for c in HANDS[0] if c not in plays[:at + 1]], dealer=0,
                        contract="D", plays=plays[:at + 1])
    assert [(d.trick, d.position, d.player, d.card) for d in own.disagreements] == [(6, 4, 0, card_id("D9"))]
    assert "trick 6, position 4: player 0 plays D9" in str(own.disagreements[0])
    # seat 1, later: player 0 has since played S10, so he held a plain card when he under-trumped
    later = plays[:at + 5]
    assert "S10" in later[at + 1:]
    pos = seat_position("schieber", 1, [c for c in HANDS[1] if c not in later], dealer=0, contract="D",
                        plays=later)
    assert [(d.trick, d.position) for d in pos.disagreements] == [(6, 4)]
    assert pos.observation().shape == (OBS_DIM,)


def test_an_under_trump_that_a_hand_of_trumps_allows_is_not_marked():
    # right after the ♦9, seat 1 cannot tell: player 0 might hold trumps only
    plays = _issue10_history()
    at = plays.index("D9")
    pos = seat_position("schieber", 1, [c for c in HANDS[1] if c not in plays[:at + 1]], dealer=0,
                        contract="D", plays=plays[:at + 1])
    assert pos.disagreements == ()


def test_the_legal_game_of_the_same_deal_has_no_disagreement():
    r = Round("schieber", hands=HANDS, dealer=0)
    r.step("D")
    while not r.is_over:
        r.step(int(r.legal_actions()[0]))
        if not r.is_over:
            for seat in range(4):
                assert _rebuilt(r, seat).disagreements == ()


# bad input
@pytest.mark.parametrize("kwargs,message", [
    ({"seat": 4}, "seat must be a player 0..3"),
    ({"hand": ["H9", "H9"]}, "lists H9 twice"),
    ({"hand": ["XX"]}, "not a card"),
    ({"contract": "trumpf"}, "unknown contract"),
    ({"contract": None, "plays": ["S6"]}, "no contract is given"),
    ({"plays": ["S6", "S6"]}, "S6 is played twice"),
    ({"plays": ["DA"]}, "in the seat's hand and also played"),
    ({"hand": ["DA"]}, "the hand given has 1"),
    ({"weis": [{"player": 0}]}, "weis[0] must be"),
    ({"match_scores": [10]}, "one total per team"),
    ({"contract": None, "match_scores": [10, 2, 3]}, "one total per team"),
])
def test_bad_input_gets_a_clear_error(kwargs, message):
    args = {"seat": 0, "hand": HANDS[0], "dealer": 0, "contract": "D", "plays": ()}
    args.update(kwargs)
    with pytest.raises(SeatViewError, match=message.replace("[", r"\[").replace(".", r"\.")):
        seat_position("schieber", **args)


def test_differenzler_rules_are_refused():
    with pytest.raises(SeatViewError, match="Schieber positions"):
        seat_position("differenzler", 0, mask_of(HANDS[0]), dealer=0)


def test_the_mask_of_a_seat_not_to_move_is_refused():
    pos = seat_position("schieber", 0, HANDS[0], dealer=0, contract="D")
    with pytest.raises(SeatViewError, match="player 1's turn"):
        pos.action_mask()
