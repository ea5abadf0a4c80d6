"""Coiffeur's suit symmetry (jass_env/games/coiffeur/suit_symmetry.py).

Renaming the suits of a deal, of both sheets' trump rows and of every action gives the renamed
deal: every seat's observation and legal actions are the original's renamed by the tables, and
(where each trump row keeps its factor) the scores and the rows written are the same. A row writes
``factor x`` its points and the presets give each row its place on the sheet as factor (S 1, C 2,
D 3, H 4, ...), so there only the identity is exact; trump rows of equal factors may swap.
"""

from __future__ import annotations

import numpy as np
import pytest

from jass_env import Round, make_rules
from jass_env.engine.cards import card_id
from jass_env.engine.state import dealer, dealt_hand_of
from jass_env.games import game_of
from jass_env.games.coiffeur import suit_symmetry
from jass_env.games.coiffeur.observation import OBS_DIM, encode_observation
from jass_env.games.coiffeur.rules import SHEET_ROWS
from jass_env.games.coiffeur.suit_symmetry import (
    SymmetryError,
    action_index,
    action_source,
    observation_index,
    suit_permutations,
)
from jass_env.games.schieber.suit_symmetry import card_permutation

SUITS = ("D", "H", "S", "C")
PUSH = 42
IDENTITY = (0, 1, 2, 3)
#: the four trump rows with one factor: every renaming is exact; with Weis and Stöck scored
EQUAL_TRUMPS = make_rules("coiffeur10").replace(row_factors={"S": 3, "C": 3, "D": 3, "H": 3},
                                                coiffeur_weis="except_joker")


def seen(r: Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    encode_observation(r.state, seat, r.rp, obs)
    r.engine.action_mask(r.state, r.rp, mask)
    return obs, mask


def renamed_row(label: str, perm: np.ndarray) -> str:
    """A trump row takes its suit's new name; every other row stays."""
    return SUITS[perm[SUITS.index(label)]] if label in SUITS else label


def test_the_presets_allow_only_the_identity_their_trump_rows_have_four_factors():
    for name in ("coiffeur", "coiffeur6", "coiffeur10"):
        assert [list(p) for p in suit_permutations(make_rules(name))] == [list(IDENTITY)]


def test_trump_rows_of_equal_factors_may_swap_unless_weis_rank_suits():
    """D and H both x5: D and H may swap; all four x2: every renaming; Weis scored under the Vaud
    comparison (equal Weis ranked by suit): none; the Vaud comparison without Weis scored: no matter."""
    coiffeur = make_rules("coiffeur")
    assert {tuple(p) for p in suit_permutations(coiffeur.replace(row_factors={"D": 5, "H": 5}))} == \
        {IDENTITY, (1, 0, 2, 3)}
    equal = coiffeur.replace(row_factors={"S": 2, "C": 2, "D": 2, "H": 2})
    perms = suit_permutations(equal)
    assert len({tuple(p) for p in perms}) == 24 and tuple(perms[0]) == IDENTITY
    assert len(suit_permutations(equal.replace(weis_comparison="vaud"))) == 24
    vaud = equal.replace(weis_comparison="vaud", coiffeur_weis="except_joker")
    assert [tuple(p) for p in suit_permutations(vaud)] == [IDENTITY]
    with pytest.raises(SymmetryError, match="not 'schieber'"):
        suit_permutations(make_rules("schieber"))


def test_the_game_offers_its_suit_symmetry():
    assert game_of(make_rules("coiffeur10")).suit_symmetry is suit_symmetry


def test_a_trump_row_and_a_joker_trump_take_the_new_suit():
    hearts_to_clubs = np.array([[0, 3, 2, 1]])
    rules = make_rules("coiffeur10")
    actions = action_index(hearts_to_clubs, rules)[0]
    names = rules.spec.action_names
    assert actions[card_id("H9")] == card_id("C9") and actions[card_id("D6")] == card_id("D6")
    assert names[actions[names.index("declare H")]] == "declare C"
    assert names[actions[names.index("declare Joker-2 as H")]] == "declare Joker-2 as C"
    kept_names = ("declare D", "declare S", "declare obenabe", "declare undenufe", "push",
                  "declare Joker-1 as undenufe", "declare Slalom from obenabe",
                  "declare Guschti from undenufe")
    for kept in kept_names:
        assert actions[names.index(kept)] == names.index(kept)
    source = action_source(hearts_to_clubs, rules)[0]
    assert all(source[actions[a]] == a for a in range(len(names)))
    assert action_index(hearts_to_clubs, make_rules("coiffeur6")).shape == (1, len(make_rules("coiffeur6")
                                                                                  .spec.action_names))


def scoring_weis(r: Round, name: np.ndarray) -> list[tuple[int, int, list[int]]]:
    """(player, points, card ids renamed by ``name``) of every Weis that scores."""
    return [(w["player"], w["points"], sorted(int(name[card_id(c)]) for c in w["cards"])) for w in r.weis()]


def random_sheets(rules, rng: np.random.Generator) -> list[dict[str, int]]:  # noqa: ANN001
    """Both teams' sheets with about half of the rows written (values 0..600), one row left open each."""
    rows = SHEET_ROWS[rules.game]
    sheets = []
    for _ in range(2):
        written = rng.permutation(len(rows))[:int(rng.integers(0, len(rows)))]
        sheets.append({rows[i]: int(rng.integers(0, 600)) for i in written})
    return sheets


def renamed_round(rules, seed: int, perm: np.ndarray) -> tuple[Round, Round, list[dict]]:  # noqa: ANN001
    """A dealt round with random sheets, and the same round with its suits renamed by ``perm``
    (cards, the sheets' trump rows); the original's sheets."""
    rng = np.random.default_rng(seed)
    original = Round(rules, seed=seed)
    cards = card_permutation(perm)
    hands = [[int(cards[c]) for c in range(36) if dealt_hand_of(original.state, p) >> c & 1]
             for p in range(4)]
    renamed = Round(rules, hands=hands, dealer=dealer(original.state))
    sheets = random_sheets(rules, rng)
    original.set_sheets(sheets)
    renamed.set_sheets([{renamed_row(k, perm): v for k, v in s.items()} for s in sheets])
    return original, renamed, sheets


def replay(original: Round, renamed: Round, index: np.ndarray, act: np.ndarray,
           rng: np.random.Generator) -> None:
    """Play random actions in ``original`` and their renamed actions in ``renamed``; at every step
    every seat's observation and legal actions are the original's renamed."""
    while not original.is_over:
        for seat in range(4):
            obs, mask = seen(original, seat)
            obs2, mask2 = seen(renamed, seat)
            np.testing.assert_array_equal(obs2, obs[index])
            np.testing.assert_array_equal(mask2[act], mask)
        legal = original.legal_actions()
        action = PUSH if PUSH in legal and rng.random() < 0.5 else int(rng.choice(legal))
        original.step(action)
        renamed.step(int(act[action]))


@pytest.mark.parametrize("seed", range(8))
def test_the_renamed_deal_plays_as_the_renamed_round(seed):
    """Trump rows of one factor, Weis and Stöck scored: the renamed deal scores the same, writes the
    same value into the renamed row, and scores the renamed Weis."""
    rng = np.random.default_rng(100 + seed)
    perms = suit_permutations(EQUAL_TRUMPS)
    perm = perms[int(rng.integers(1, len(perms)))]
    original, renamed, _ = renamed_round(EQUAL_TRUMPS, seed, perm)
    replay(original, renamed, observation_index(perm[None], EQUAL_TRUMPS)[0],
           action_index(perm[None], EQUAL_TRUMPS)[0], rng)
    assert renamed.is_over and renamed.score == original.score
    assert renamed.sheets == [{renamed_row(k, perm): v for k, v in s.items()} for s in original.sheets]
    cards = card_permutation(perm)
    assert scoring_weis(renamed, np.arange(36)) == scoring_weis(original, cards)


def test_in_the_preset_a_trump_renamed_into_a_row_of_another_factor_scores_differently():
    """coiffeur: H is x4, C x2. Renamed H <-> C, the deal plays card for card the same, but a
    declared H row becomes a C row that writes half the value: not a symmetry of these rules."""
    rules = make_rules("coiffeur")
    perm = np.array([0, 3, 2, 1])
    act = action_index(perm[None], rules)[0]
    declare_h = rules.spec.action_names.index("declare H")
    for seed in range(40):
        rng = np.random.default_rng(seed)
        original, renamed, _ = renamed_round(rules, seed, perm)
        team = original.to_move % 2
        if original.sheets[team]["H"] is not None:
            continue
        original.step(declare_h)
        renamed.step(int(act[declare_h]))
        while not original.is_over:
            action = int(rng.choice(original.legal_actions()))
            original.step(action)
            renamed.step(int(act[action]))
        if original.sheets[team]["H"] != 0:
            assert renamed.sheets[team]["C"] * 2 == original.sheets[team]["H"]
            assert renamed.score != original.score
            return
    pytest.fail("no deal declared H with points")
