"""The end of a game played alone (docs/games/differenzler.md "A game", docs/games/mittlere.md and
docs/games/molotow.md "Rules"): each round's score is added to the player's total; after the last
scheduled round the best total wins, the **lowest** in Differenzler (penalties) and Molotow (an
avoidance game), the **highest** in Mittlere (Striche − Nullen); when two or more players share the
best total, one more round is played, and so on until one player alone is best.

Expected winners come from that text: a tie between players who are not the best decides nothing
(penalties 5, 5, 1, 9: player 2 is alone lowest and wins, whatever players 0 and 1 share), and a
tie for the best decides no winner yet.
"""

from __future__ import annotations

import pytest
from conftest import play_out

from jass_env import Match, Round, make_rules
from jass_env.engine.positions import set_match_scores

EXACT = -10              # Differenzler: the penalty of an exact prediction above 0
MAX_PREDICTION = 157


def first_legal(m: Match) -> int:
    return int(m.legal_actions()[0])


def play_round_of(m: Match) -> None:
    """Play the game's current round with the first legal action everywhere (Differenzler:
    predict 0), until it ends or the game ends."""
    done = m.rounds_done
    while not m.is_over and m.rounds_done == done:
        m.step(first_legal(m))


def one_round_game_ending_at(preset: str, totals: list[int], seed: int = 3) -> Match:
    """A game of one scheduled round, played out, whose totals after that round are ``totals``:
    the totals before it are set so that the round's scores (the same deal played the same way
    as a single round first) add up to them."""
    rules = make_rules(preset, match_rounds=1)
    m = Match(rules, seed=seed)
    probe = Round(rules, state=m.state.copy())
    play_out(probe)
    set_match_scores(m.state, [t - s for t, s in zip(totals, probe.score)], rules.params)
    play_round_of(m)
    assert m.rounds_done == 1 and m.scores == totals
    return m


# Differenzler: the lowest total penalty wins
def test_a_one_round_differenzler_game_with_penalties_5_5_1_9_is_won_by_player_2() -> None:
    """Players 0 and 1 tie at 5, but player 2's penalty 1 is alone the lowest: he wins at once.
    Each player predicts his card points (learnt from the same deal played first) off by his
    penalty; the penalty is |prediction − points|."""
    rules = make_rules("differenzler", match_rounds=1)
    penalties = [5, 5, 1, 9]
    m = Match(rules, seed=7)
    probe = Round(rules, state=m.state.copy())
    play_out(probe)                                   # predicts 0 each, then the lowest cards
    points = probe.points
    predictions = [pts + pen if pts + pen <= MAX_PREDICTION else pts - pen
                   for pts, pen in zip(points, penalties)]
    while m.round.phase == "prediction":
        m.step(f"predict {predictions[m.round.to_move]}")
    play_round_of(m)                                  # the card play does not depend on predictions
    assert m.finished_rounds[0].points == points
    assert m.finished_rounds[0].penalties == penalties
    assert m.scores == penalties
    assert m.winner == 2 and m.is_over


LOWEST_WINS = [
    ([5, 5, 1, 9], 2),           # a tie above the best decides nothing
    ([1, 5, 5, 9], 0),
    ([9, 5, 5, 1], 3),           # the best comes after a tie
    ([9, 9, 9, 1], 3),
    ([5, 1, 1, 9], None),        # a tie for the lowest: one more round
    ([1, 9, 9, 1], None),
    ([4, 4, 4, 4], None),
]


@pytest.mark.parametrize(("totals", "winner"), LOWEST_WINS)
def test_differenzler_the_lowest_total_alone_wins(totals: list[int], winner: int | None) -> None:
    m = one_round_game_ending_at("differenzler", totals)
    assert m.winner == winner and m.is_over == (winner is not None)


@pytest.mark.parametrize(("totals", "winner"), [
    *LOWEST_WINS,
    ([-10, -10, -30, 40], 2),    # Molotow scores can be negative
    ([-30, -10, -30, 40], None),
])
def test_molotow_the_lowest_total_alone_wins(totals: list[int], winner: int | None) -> None:
    m = one_round_game_ending_at("molotow", totals)
    assert m.winner == winner and m.is_over == (winner is not None)


@pytest.mark.parametrize(("totals", "winner"), [
    ([5, 5, 9], 2),              # a tie below the best decides nothing
    ([9, 5, 5], 0),
    ([-3, -3, -1], 2),
    ([5, 9, 5], 1),
    ([5, 9, 9], None),           # a tie for the highest: one more hand
    ([9, 5, 9], None),
    ([2, 2, 2], None),
])
def test_mittlere_the_highest_total_alone_wins(totals: list[int], winner: int | None) -> None:
    m = one_round_game_ending_at("mittlere", totals)
    assert m.winner == winner and m.is_over == (winner is not None)


@pytest.mark.parametrize(("preset", "totals", "better"), [
    ("differenzler", [5, 1, 1, 9], min),
    ("molotow", [5, 1, 1, 9], min),
    ("mittlere", [5, 9, 9], max),
])
def test_a_tie_for_the_best_plays_more_rounds_until_one_player_alone_is_best(preset, totals, better) -> None:
    m = one_round_game_ending_at(preset, totals)
    assert not m.is_over and m.round.phase != "over"  # the next round is dealt
    while not m.is_over:
        before = list(m.scores)
        play_round_of(m)
        best = better(m.scores)
        if m.scores.count(best) > 1:                  # still a tie for the best: no winner yet
            assert m.winner is None, (before, m.scores)
    best = better(m.scores)
    assert m.scores.count(best) == 1 and m.winner == m.scores.index(best)
    assert m.rounds_done >= 2
