"""Match play: rotating dealer, how a match finishes, Bergpreis, fixed rounds, first forehand
(docs/rules.md, "Matches and their end" and the preset table: target, match end, first
forehand; the Ausmachregel Stöck - Weis - tricks; Bergpreis).

Matches from chosen hands: ``match_from`` builds a :class:`jass_env.Match`, replaces its first deal
with chosen hands (the engine's ``start_round`` keeps the match fields) and sets the match scores
with :func:`jass_env.engine.positions.set_match_scores`, so a round can be played near the target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest
from conftest import deal, new_round, play_out, suit_cards

from jass_env import IllegalActionError, Match, make_rules
from jass_env.engine.cards import mask_of
from jass_env.engine.positions import set_match_scores
from jass_env.engine.state import StateView
from jass_env.games.schieber.rules import PUSH


def match_from(rules, partial: Mapping[int, Sequence[str]], *, dealer: int = 3,
               scores: tuple[int, int] = (0, 0)) -> Match:
    """A Match whose current round is dealt from chosen hands, with the given match scores."""
    m = Match(rules, seed=0)
    hands = np.array([mask_of(h) for h in deal(partial)], dtype=np.int64)
    m.engine.start_round(m.state, hands, dealer, m.rules.params)
    set_match_scores(m.state, scores, m.rules.params)
    return m


def play_round(m: Match, script: Mapping[int, Sequence[str]] | None = None, *,
               until_trick: int = 9) -> None:
    """Play the match's current round (scripted cards first, else the first legal action) until it
    ends, the match ends, or ``until_trick`` tricks are complete."""
    queues = {p: list(c) for p, c in (script or {}).items()}
    done = len(m.finished_rounds)
    while not m.is_over and len(m.finished_rounds) == done and m.round.trick_number < until_trick:
        p = m.round.to_move
        if m.round.phase == "play" and queues.get(p):
            m.step(queues[p].pop(0))
        else:
            m.step(int(m.legal_actions()[0]))


def round_score(rules, partial, contract, *, dealer=3, script=None) -> list[int]:
    """The score the same deal and play give as a single round (to place match scores exactly)."""
    r = new_round(partial, contract, rules=rules, dealer=dealer)
    return play_out(r, script).score


# dealer


@pytest.mark.nojit_sample
def test_the_dealer_rotates_each_round_and_the_match_score_adds_the_round_scores():
    """"random or rotating dealer": after the first deal the next player in play order deals."""
    m = Match("schieber", seed=3)
    first = m.round.dealer
    while len(m.finished_rounds) < 3 and not m.is_over:
        m.step(int(m.legal_actions()[0]))
    assert [r.dealer for r in m.finished_rounds] == [(first + i) % 4 for i in range(3)]
    assert m.round.dealer == (first + 3) % 4 and m.round.phase == "contract"
    assert m.scores == [sum(r.score[t] for r in m.finished_rounds) for t in (0, 1)]


# official finish


def test_official_finish_a_team_reaching_the_target_wins_at_that_moment_mid_round():
    """Preset table: "first to reach the target": team 0 (990) takes trick 1 (♥J, ♥K, ...) and wins
    at once, in the middle of the round; no further action is legal."""
    hands = {0: ["HJ", "H9", "HA", "H10", "H8", "H7", "H6", "SA", "CA"], 1: ["HK", "HQ"]}
    m = match_from(make_rules("schieber", weis=False), hands, scores=(990, 0))
    m.step("H")
    play_round(m, {0: hands[0]})
    assert m.winner == 0 and m.is_over
    assert m.round.trick_number == 1 and m.round.is_over
    assert m.scores[0] >= 1000 and m.scores[1] == 0
    assert len(m.finished_rounds) == 1
    with pytest.raises(IllegalActionError, match="match is over"):
        m.step(int(PUSH))


AUSMACH_WEIS = {1: ["HJ", "H9", "HA"], 0: suit_cards("C", "6 7 8")}


@pytest.mark.nojit_sample
def test_ausmachregel_weis_count_before_the_trick_points():
    """Matches and their end: "the Ausmachregel is 'Stöck – Weis – Stich'": player 1 (forehand, ♥ trump)
    leads the ♥J and team 1 (990) takes trick 1 worth 10 or more; team 0 (980) holds ♣6-7-8 (20). Weis
    are written after trick 1 before its points, so team 0 reaches 1000 first and wins."""
    m = match_from("schieber", AUSMACH_WEIS, dealer=0, scores=(980, 990))
    m.step("H")
    play_round(m, {1: ["HJ"]})
    assert m.round.weis_team == 0
    assert m.finished_rounds[-1].tricks[0]["winner"] % 2 == 1
    assert m.winner == 0 and m.round.trick_number == 1


def test_ausmachregel_control_without_weis_the_trick_points_win():
    """The same deal and scores with Weis off: team 1's trick points decide."""
    m = match_from(make_rules("schieber", weis=False), AUSMACH_WEIS, dealer=0, scores=(980, 990))
    m.step("H")
    play_round(m, {1: ["HJ"]})
    assert m.winner == 1 and m.round.trick_number == 1


# player 1 (forehand) leads ♥A then ♥9; player 0 must follow with ♥K, then ♥Q (the second Stöck
# card) in trick 2, which team 1 takes.
AUSMACH_STOECK = {1: ["HJ", "H9", "HA"], 0: ["HK", "HQ"]}
STOECK_SCRIPT = {1: ["HA", "H9"]}


def _stoeck_match(rules) -> Match:
    r = new_round(AUSMACH_STOECK, "H", rules=rules, dealer=0)
    play_out(r, STOECK_SCRIPT)
    assert [t["winner"] % 2 for t in r.tricks[:2]] == [1, 1]
    assert r.tricks[1]["plays"][-1] == (0, "HQ")
    t1, t2 = r.tricks[0]["points"], r.tricks[1]["points"]
    # team 1 reaches exactly 1000 with the points of trick 2; team 0 needs its Stöck
    m = match_from(rules, AUSMACH_STOECK, dealer=0, scores=(980, 1000 - t1 - t2))
    m.step("H")
    return m


@pytest.mark.nojit_sample
def test_ausmachregel_stoeck_count_before_the_trick_points():
    """Matches and their end: "Stöck are counted first, ... then trick points": player 0 plays his
    second Stöck card as the last card of trick 2, which gives team 1 the 1000 — the Stöck, credited
    with the card, come first and team 0 wins."""
    m = _stoeck_match(make_rules("schieber"))
    assert m.round.weis_team is None
    play_round(m, STOECK_SCRIPT)
    assert m.winner == 0
    assert m.scores[0] == 1000 and m.round.trick_number == 2


def test_ausmachregel_control_without_stoeck_the_trick_points_win():
    """The same deal and scores with Stöck off: team 1's trick points decide."""
    m = _stoeck_match(make_rules("schieber", stoeck=0))
    play_round(m, STOECK_SCRIPT)
    assert m.winner == 1 and m.scores == [980, 1000]


def test_a_match_goes_on_while_nobody_reaches_the_target():
    """Below the target the next round is dealt by the next dealer; the round's score is added."""
    m = match_from("schieber", {}, scores=(100, 200))
    m.step("D")
    play_round(m)
    done = m.finished_rounds[-1]
    assert m.winner is None and m.scores == [100 + done.score[0], 200 + done.score[1]]
    assert m.round.phase == "contract" and m.round.dealer == 0


# round_end finish


def test_seed_nl_round_end_finish_higher_total_wins_at_round_end():
    """`seed_nl`: "at round end the higher total wins": team 0 passes 1000 early in the round but the
    round is played out, and team 1, ahead at its end, wins."""
    s0, s1 = round_score("seed_nl", {}, "D")
    assert s0 > 0
    start = (999, 999 + s0 - s1 + 1)
    m = match_from("seed_nl", {}, scores=start)
    m.step("D")
    play_round(m, until_trick=8)
    assert m.scores[0] >= 1000 and m.winner is None and m.round.phase == "play"
    play_round(m)
    assert m.winner == 1
    assert m.scores == [999 + s0, start[1] + s1] and m.scores[1] > m.scores[0]


def test_seed_nl_exact_tie_plays_one_more_round():
    """`seed_nl`: "an exact tie plays one more round"."""
    s0, s1 = round_score("seed_nl", {}, "D")
    start = (1000 - s0 + 50, 1000 - s1 + 50)
    m = match_from("seed_nl", {}, scores=start)
    m.step("D")
    play_round(m)
    assert m.scores == [1050, 1050]
    assert m.winner is None and len(m.finished_rounds) == 1
    assert m.round.phase == "contract" and m.round.dealer == 0
    assert StateView(m.state, m.rules.params).rounds_done == 1


def test_round_end_finish_switch_on_top_of_schieber():
    """Switch `match_finish="round_end"` alone: reaching the target mid-round does not end the match."""
    s0, s1 = round_score("schieber", {}, "D")
    m = match_from(make_rules("schieber", match_finish="round_end"), {}, scores=(999, 0))
    m.step("D")
    play_round(m)
    assert m.winner == 0 and m.finished_rounds[-1].trick_number == 9
    assert m.scores == [999 + s0, s1]


# Bergpreis


def test_bergpreis_goes_once_to_the_first_team_past_half_the_target():
    """Matches and their end: "Optional Bergpreis at half the target": both teams at 499; team 1's Weis
    (written after trick 1, before any trick points) takes it past 500 first; team 0 passing later gets
    nothing."""
    rules = make_rules("schieber", bergpreis=50)
    hands = {1: suit_cards("S", "6 7 8 9")}
    s0, s1 = round_score("schieber", hands, "D")
    assert s0 > 0 and s1 > 50
    m = match_from(rules, hands, scores=(499, 499))
    m.step("D")
    play_round(m)
    assert m.bergpreis_team == 1
    assert m.scores == [499 + s0, 499 + s1 + 50]


def test_no_bergpreis_by_default():
    """`bergpreis` is 0 (off) in every preset."""
    m = match_from("schieber", {}, scores=(499, 499))
    m.step("D")
    play_round(m)
    s0, s1 = m.finished_rounds[-1].score
    assert m.bergpreis_team is None and m.scores == [499 + s0, 499 + s1]


# fixed rounds


@pytest.mark.nojit_sample
def test_tournament_plays_a_fixed_number_of_rounds():
    """`tournament`: "n/a (fixed number of rounds)": 12 rounds of 157 each, then the higher total
    wins (2 = draw)."""
    m = Match("tournament", seed=8)
    while not m.is_over:
        m.step(int(m.legal_actions()[0]))
    assert len(m.finished_rounds) == 12
    assert sum(m.scores) == 12 * 157
    a, b = m.scores
    assert m.winner == (0 if a > b else 1 if b > a else 2)


def test_match_rounds_switch_and_a_draw():
    """Switch `match_rounds`: after that many rounds equal totals are a draw (winner 2)."""
    rules = make_rules("tournament", match_rounds=1)
    s0, s1 = round_score(rules, {}, "H")
    m = match_from(rules, {}, scores=(s1, s0))
    m.step("H")
    play_round(m)
    assert m.scores == [s0 + s1, s0 + s1]
    assert m.winner == 2 and m.is_over


def test_match_rounds_two_rounds():
    """`match_rounds=2`: two rounds of 157, then the match is over."""
    m = Match(make_rules("tournament", match_rounds=2), seed=1)
    while not m.is_over:
        m.step(int(m.legal_actions()[0]))
    assert len(m.finished_rounds) == 2 and sum(m.scores) == 2 * 157


# first forehand


@pytest.mark.parametrize("seed", range(6))
def test_seed_vaud_the_holder_of_d7_is_forehand_in_the_first_round(seed):
    """`seed_vaud` "first forehand of a match: holder of D7" (Presets, schieber.md: "the holder of a
    fixed card (♦7 in seed 001)"); afterwards the dealer rotates as usual."""
    m = Match("seed_vaud", seed=seed)
    first = m.round
    assert "D7" in first.hand(first.forehand)
    dealer = first.dealer
    while not m.finished_rounds:
        m.step(int(m.legal_actions()[0]))
    assert m.round.dealer == (dealer + 1) % 4


def test_schieber_first_forehand_is_random():
    """`schieber`: first forehand "random": over a few seeds the ♦7 holder is not always forehand."""
    held = [("D7" in m.round.hand(m.round.forehand)) for m in (Match("schieber", seed=s) for s in range(12))]
    assert not all(held)
