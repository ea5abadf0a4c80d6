"""Coiffeur's rules (docs/games/coiffeur.md "Rules"): sheets, the declaration cycle, rows, schedules.

Expected values come from the rules text: the H row (x4) with 97 points writes 388 and the
defenders nothing; a Match in the U row (x6) writes 257 x 6 = 1542; a Kontermatsch in the O row
(x5) writes 0, or -500 with ``kontermatsch_penalty=100``; in Slalom from Undenufe trick 2 is ranked
as Obenabe and its cards count with Undenufe's values (a ♠6 counts 11); the forced declaration;
with ``coiffeur_weis="except_joker"`` the declaring team's Weis (if it wins the contest) and Stöck
count times the factor, a defender's never, and neither in a Joker row; a game of 2 x rows deals
in which each team fills each row once. Card values are the rules' table
(docs/rules.md "The deck"), written out here.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import deal

from jass_env import IllegalActionError, Match, Round, make_rules
from jass_env.engine.cards import ALL_CARDS_MASK, card_id, mask_of, names_of
from jass_env.engine.switches import RulesError
from jass_env.games.coiffeur.rules import SHEET_ROWS

# docs/rules.md "The deck": points by rank under each kind of contract
TRUMP_SUIT = {"6": 0, "7": 0, "8": 0, "9": 14, "10": 10, "J": 20, "Q": 3, "K": 4, "A": 11}
PLAIN = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
OBENABE = {**PLAIN, "8": 8}
UNDENUFE = {**OBENABE, "6": 11, "A": 0}

DECLARE = {c: 36 + i for i, c in enumerate(("D", "H", "S", "C", "obenabe", "undenufe"))}
PUSH = 42
SLALOM_FROM_U = 56
GUSCHTI_FROM_O = 57


def joker(j: int, contract: str) -> int:
    """Action: Joker row j (0, 1) played as ``contract``."""
    return 43 + 6 * j + DECLARE[contract] - 36


def card_value(card: str, contract: str) -> int:
    suit, rank = card[0], card[1:]
    if contract == "obenabe":
        return OBENABE[rank]
    if contract == "undenufe":
        return UNDENUFE[rank]
    return TRUMP_SUIT[rank] if suit == contract else PLAIN[rank]


def deal_with(required: list[list[str]]) -> list[list[str]]:
    """Four hands of 9: each holds its ``required`` cards, the rest of the deck fills them in order."""
    used = mask_of([card_id(c) for hand in required for c in hand])
    rest = names_of(ALL_CARDS_MASK & ~used)
    hands = []
    for need in required:
        k = 9 - len(need)
        hands.append(list(need) + rest[:k])
        rest = rest[k:]
    return hands


def play_lowest(r: Round) -> Round:
    while not r.is_over:
        r.step(int(r.legal_actions()[0]))
    return r


def team_points_by_rules(r: Round, team: int, contract: str) -> int:
    """The card points a team took, counted from the tricks with the rules' table (+5 last trick)."""
    total = 0
    for t, trick in enumerate(r.tricks):
        if trick["winner"] % 2 == team:
            total += sum(card_value(c, contract) for _, c in trick["plays"]) + (5 if t == 8 else 0)
    return total


# presets
@pytest.mark.parametrize("preset, rows, factors, n_actions", [
    ("coiffeur", ("S", "C", "D", "H", "Obenabe", "Undenufe", "Joker-1", "Joker-2"), range(1, 9), 55),
    ("coiffeur6", ("S", "C", "D", "H", "Obenabe", "Undenufe"), range(1, 7), 43),
    ("coiffeur10", ("S", "C", "D", "H", "Obenabe", "Undenufe", "Slalom", "Guschti", "Joker-1", "Joker-2"),
     range(1, 11), 59),
])
def test_presets_rows_factors_and_actions(preset, rows, factors, n_actions) -> None:
    rules = make_rules(preset)
    assert SHEET_ROWS[rules.game] == rows
    assert rules.row_factors == tuple(factors)
    assert rules.spec.n_actions == n_actions
    assert rules.match_rounds == 2 * len(rows)          # deals in a game


def test_coiffeur6_uses_schiebers_43_action_layout() -> None:
    names = make_rules("coiffeur6").spec.action_names
    assert names[36:42] == tuple(f"declare {c}" for c in ("D", "H", "S", "C", "obenabe", "undenufe"))
    assert names[42] == "push"


def test_coiffeur_switches_are_checked_and_belong_to_coiffeur_only() -> None:
    assert make_rules("coiffeur", row_factors={"H": 10}).row_factors[3] == 10
    with pytest.raises(RulesError, match="row_factors"):
        make_rules("coiffeur", row_factors=[1, 2, 3])
    with pytest.raises(RulesError, match="Coiffeur"):
        make_rules("schieber", kontermatsch_penalty=100)
    with pytest.raises(RulesError, match="slalom_values"):
        make_rules("coiffeur10", slalom_values="sometimes")
    assert "row_factors" not in make_rules("schieber").switches()


# row scores
def test_h_row_with_97_points_writes_388_and_the_defenders_nothing() -> None:
    for seed in range(3000):
        r = Round("coiffeur", seed=seed)
        declarer = r.to_move
        r.step(DECLARE["H"])
        play_lowest(r)
        team = declarer % 2
        if team_points_by_rules(r, team, "H") != 97 or r.match_team is not None:
            continue
        assert r.row == "H" and r.factor == 4
        assert r.row_score == 388
        assert r.score[team] == 388 and r.score[1 - team] == 0
        assert r.sheets[team]["H"] == 388
        assert all(v is None for v in r.sheets[1 - team].values())
        return
    raise AssertionError("no deal with 97 points for the declarers in 3000 seeds")


def _declarer_takes_everything() -> list[list[str]]:
    """Player 0 holds the 6, 7 and 8 of D, H and S: in Undenufe each of his leads wins."""
    return deal_with([["D6", "D7", "D8", "H6", "H7", "H8", "S6", "S7", "S8"], [], [], []])


def test_a_match_in_the_u_row_writes_257_times_6() -> None:
    r = Round("coiffeur", hands=_declarer_takes_everything(), dealer=3)
    assert r.to_move == 0
    r.step(DECLARE["undenufe"])
    play_lowest(r)
    assert r.match_team == 0 and r.points == [157, 0]
    assert r.row_score == 257 * 6 == 1542


def test_match_premium_is_added_unmultiplied() -> None:
    r = Round(make_rules("coiffeur", match_premium=500), hands=_declarer_takes_everything(), dealer=3)
    r.step(DECLARE["undenufe"])
    play_lowest(r)
    assert r.row_score == 257 * 6 + 500


def _kontermatsch(penalty: int) -> Round:
    """Player 0 declares Obenabe holding 6 7 8 of three suits; player 1 holds their A K Q."""
    hands = deal_with([["D6", "D7", "D8", "H6", "H7", "H8", "S6", "S7", "S8"],
                       ["DA", "DK", "DQ", "HA", "HK", "HQ", "SA", "SK", "SQ"], [], []])
    r = Round(make_rules("coiffeur", kontermatsch_penalty=penalty), hands=hands, dealer=3)
    r.step(DECLARE["obenabe"])
    return play_lowest(r)


def test_kontermatsch_in_the_o_row_writes_0_or_minus_500_with_penalty_100() -> None:
    r = _kontermatsch(0)
    assert r.match_team == 1 and r.tricks_won == [0, 9]
    assert r.row == "Obenabe" and r.factor == 5
    assert r.row_score == 0 and r.sheets[0]["Obenabe"] == 0   # written: the row is filled
    assert r.score == [0, 0]
    assert _kontermatsch(100).row_score == -500


# declaring
def test_forced_declaration_after_both_opponents_pushed() -> None:
    rules = make_rules("coiffeur")
    r = Round(rules, seed=5, dealer=3)                    # forehand: player 0
    r.set_sheets({"0": {row: 100 for row in r.rows}})
    assert r.to_move == 1                                 # player 0's team has no open row
    r.step(PUSH)
    assert r.to_move == 3                                 # player 2 is skipped as well
    r.step(PUSH)
    assert r.to_move == 1 and r.pushes == [1, 3]
    assert not r.legal_mask() >> PUSH & 1                 # push masked
    with pytest.raises(IllegalActionError):
        r.step(PUSH)
    r.step(DECLARE["S"])
    assert r.declarer == 1 == r.pushes[0]
    assert r.leader == 1                                  # the declarer leads trick 1


def test_push_goes_round_the_table_then_forehand_must_declare() -> None:
    r = Round("coiffeur", seed=9, dealer=0)               # forehand: player 1
    order = []
    for _ in range(4):
        order.append(r.to_move)
        r.step(PUSH)
    assert order == [1, 2, 3, 0] and r.pushes == order
    assert r.to_move == 1 and not r.legal_mask() >> PUSH & 1


def test_only_ones_own_teams_open_rows_may_be_declared() -> None:
    rules = make_rules("coiffeur")
    r = Round(rules, seed=2, dealer=3)
    r.set_sheets({"0": {"H": 40, "Joker-1": 70}, "1": {"S": 10}})
    legal = set(int(a) for a in r.legal_actions())
    assert r.to_move == 0
    assert DECLARE["H"] not in legal and DECLARE["S"] in legal
    assert not any(joker(0, c) in legal for c in DECLARE)
    assert all(joker(1, c) in legal for c in DECLARE)
    assert PUSH in legal
    r.step(PUSH)
    legal = set(int(a) for a in r.legal_actions())     # player 1, the other team
    assert DECLARE["S"] not in legal and DECLARE["H"] in legal and joker(0, "D") in legal


def test_a_joker_row_plays_a_contract_whose_own_row_is_full() -> None:
    rules = make_rules("coiffeur")
    r = Round(rules, seed=4, dealer=3)
    r.set_sheets({"0": {"H": 40}})
    r.step(joker(0, "H"))
    assert r.row == "Joker-1" and r.factor == 7 and r.declared_game == "H" and r.contract == "H"
    play_lowest(r)
    points = team_points_by_rules(r, 0, "H")
    expected = 7 * (points + (100 if r.match_team == 0 else 0)) if r.match_team != 1 else 0
    assert r.row_score == expected
    assert r.sheets[0]["H"] == 40 and r.sheets[0]["Joker-1"] == expected


def test_sheets_given_from_outside_hold_values_a_row_can_hold() -> None:
    r = Round(make_rules("coiffeur"), seed=4, dealer=3)
    for value in (2**63, -(2**63) - 1, 10**8):
        with pytest.raises(ValueError, match=r"team 0's row 'H' holds .*; a row holds"):
            r.set_sheets({"0": {"H": value}})
    assert r.sheets[0]["H"] is None                   # nothing was written


# Slalom, Guschti
def _slalom_from_undenufe(slalom_values: str) -> Round:
    """Trick 1 (Undenufe): 0 leads D6 on D7 D8 D9; trick 2 (Obenabe): 0 leads SK on S6 S7 S9."""
    hands = deal_with([["D6", "SK"], ["D7", "S6"], ["D8", "S7"], ["D9", "S9"]])
    r = Round(make_rules("coiffeur10", slalom_values=slalom_values), hands=hands, dealer=3)
    r.step(SLALOM_FROM_U)
    assert r.row == "Slalom" and r.factor == 7 and r.declared_game == "slalom_U"
    for card in ("D6", "D7", "D8", "D9", "SK", "S6", "S7", "S9"):
        r.step(card)
    return r


def test_slalom_from_undenufe_ranks_trick_2_as_obenabe_with_undenufe_values() -> None:
    r = _slalom_from_undenufe("starting")
    first, second = r.tricks
    assert first["winner"] == 0                           # Undenufe: the 6 is highest
    assert second["winner"] == 0                          # Obenabe: the K beats the 6
    assert second["points"] == 4 + 11 + 0 + 0             # Undenufe values: the ♠6 counts 11
    assert r.contract == "undenufe"                       # trick 3 is Undenufe again


def test_slalom_values_per_trick_counts_trick_2_with_obenabe_values() -> None:
    assert _slalom_from_undenufe("per_trick").tricks[1]["points"] == 4 + 0 + 0 + 0


def test_guschti_plays_five_tricks_one_way_then_four_the_other() -> None:
    r = Round("coiffeur10", seed=11)
    r.step(GUSCHTI_FROM_O)
    directions = []
    while not r.is_over:
        if r.view.cards_in_trick == 0:
            directions.append(r.contract)
        r.step(int(r.legal_actions()[0]))
    assert directions == ["obenabe"] * 5 + ["undenufe"] * 4
    assert r.row == "Guschti" and r.factor == 8


def test_slalom_trick_values_total_157_in_the_starting_direction() -> None:
    r = Round("coiffeur10", seed=12)
    r.step(SLALOM_FROM_U)
    play_lowest(r)
    assert sum(r.points) == 157
    assert all(t["points"] == sum(card_value(c, "undenufe") for _, c in t["plays"]) + (5 if i == 8 else 0)
               for i, t in enumerate(r.tricks))


# Weis and Stöck: with coiffeur_weis = "except_joker" the declaring team adds its Weis (if it wins
# the Weis contest) and its Stöck to its card points before the factor, in every row but the Joker rows
ROW_FACTOR = {"S": 1, "H": 4, "Joker-1": 7, "Joker-2": 8}


def declared_and_played(hands: list[list[str]], row: str, trump: str, **switches) -> Round:
    """Player 0 (forehand, dealer 3) declares ``row`` (a trump row, or a Joker row played as
    ``trump``); every card the lowest legal."""
    r = Round(make_rules("coiffeur", **switches), hands=hands, dealer=3)
    r.step(joker(int(row[-1]) - 1, trump) if row.startswith("Joker") else DECLARE[row])
    assert r.row == row and r.factor == ROW_FACTOR[row] and r.contract == trump
    return play_lowest(r)


def card_row(r: Round) -> int:
    """The row as the card points alone write it: factor x (points + the Match bonus)."""
    assert r.match_team != 1                              # no Kontermatsch in these deals
    bonus = 100 if r.match_team == 0 else 0
    return r.factor * (team_points_by_rules(r, 0, r.contract) + bonus)


def _weis_hands() -> list[list[str]]:
    """Player 0 holds the run H6 H7 H8 (20) and four Jacks (200); the others get every third card
    of the rest, so no run of three and no four of a kind (no Weis)."""
    mine = ["H6", "H7", "H8", "DJ", "HJ", "SJ", "CJ", "D6", "S8"]
    rest = names_of(ALL_CARDS_MASK & ~mask_of([card_id(c) for c in mine]))
    return [mine, rest[0::3], rest[1::3], rest[2::3]]


@pytest.mark.parametrize(("weis", "row", "counted"), [
    ("except_joker", "S", 220),
    ("off", "S", 0),
    ("except_joker", "Joker-1", 0),
    ("except_joker", "Joker-2", 0),                       # no Joker row counts Weis, the second neither
])
def test_coiffeur_weis_except_joker_counts_the_declarers_weis_times_the_factor(weis, row, counted) -> None:
    r = declared_and_played(_weis_hands(), row, "S", coiffeur_weis=weis)
    assert r.row_score == card_row(r) + r.factor * counted


def test_the_defenders_weis_win_the_contest_and_the_declarers_write_no_weis() -> None:
    """Defender 1 holds four Jacks (200), declarer 0 only the run H6 H7 H8 (20): the defenders'
    Weis are better, the declaring team adds none and the defenders write nothing."""
    hands = deal({0: ["H6", "H7", "H8"], 1: ["DJ", "HJ", "SJ", "CJ"]}, seed=2)
    r = declared_and_played(hands, "S", "S", coiffeur_weis="except_joker")
    assert r.weis_team == 1
    assert r.row_score == card_row(r)
    assert all(v is None for v in r.sheets[1].values())


@pytest.mark.parametrize(("holder", "row", "counted"), [
    (0, "H", 20),                                         # the declarer's own Stöck
    (2, "H", 20),                                         # his partner's: the declaring team's
    (1, "H", 0),                                          # a defender's Stöck: the defenders write nothing
    (3, "H", 0),
    (0, "Joker-1", 0),                                    # no Stöck in the Joker rows
    (0, "Joker-2", 0),
])
def test_only_the_declaring_teams_stoeck_counts_and_not_in_a_joker_row(holder, row, counted) -> None:
    """Trump ♥; ``holder`` is dealt ♥K ♥Q, nobody holds a Weis. The same deal played the same way
    with Stöck worth 20 and worth 0 writes rows that differ by the factor x the declaring team's
    Stöck only (the H row x4: 80)."""
    hands = deal({holder: ["HK", "HQ"]}, seed=holder)
    with_stoeck = declared_and_played(hands, row, "H", coiffeur_weis="except_joker", stoeck=20)
    without = declared_and_played(hands, row, "H", coiffeur_weis="except_joker", stoeck=0)
    assert with_stoeck.tricks == without.tricks and with_stoeck.weis_team is None
    assert without.row_score == card_row(without)
    assert with_stoeck.row_score == without.row_score + with_stoeck.factor * counted
    assert all(v is None for v in with_stoeck.sheets[1].values())


# the game
@pytest.mark.parametrize("preset", ["coiffeur", "coiffeur6", "coiffeur10"])
def test_a_game_fills_every_row_of_both_sheets_exactly_once(preset: str) -> None:
    rules = make_rules(preset)
    m = Match(rules, seed=21)
    rng = np.random.default_rng(0)
    written: list[tuple[int, str]] = []
    while not m.is_over:
        m.step(int(rng.choice(m.legal_actions())))
    for finished in m.finished_rounds:
        written.append((finished.declarer % 2, finished.row))
    rows = SHEET_ROWS[rules.game]
    assert len(m.finished_rounds) == 2 * len(rows)
    assert sorted(written) == sorted((t, row) for t in range(2) for row in rows)
    sheets = m.round.sheets
    assert all(v is not None for t in range(2) for v in sheets[t].values())
    assert m.scores == [sum(sheets[t].values()) for t in range(2)]
    expected = 0 if m.scores[0] > m.scores[1] else (1 if m.scores[1] > m.scores[0] else 2)
    assert m.winner == expected
