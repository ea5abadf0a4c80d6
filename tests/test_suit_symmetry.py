"""Suit symmetry (jass_env/games/schieber/suit_symmetry.py): renaming the suits of a Schieber deal
(four players or six) and of every action gives the renamed round: the same scores, and every
seat's observation and legal actions are the original's renamed by the tables."""

from __future__ import annotations

import numpy as np
import pytest

from jass_env import Round, make_rules
from jass_env.engine.cards import card_id
from jass_env.engine.state import dealer, dealt_hand_of
from jass_env.envs.encoding import obs_dim
from jass_env.games.schieber.observation import encode_observation
from jass_env.games.schieber.rules import CONTRACT_OFFSET, N_ACTIONS
from jass_env.games.schieber.suit_symmetry import (
    SymmetryError,
    action_index,
    action_source,
    card_permutation,
    observation_index,
    suit_permutations,
)

SCHIEBER = make_rules("schieber")


def seen(r: Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(obs_dim(r.rules), dtype=np.float32)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    encode_observation(r.state, seat, r.rp, obs)
    r.engine.action_mask(r.state, r.rp, mask)
    return obs, mask


@pytest.mark.parametrize("game", ["schieber", "schieber6"])
def test_schieber_allows_all_24_renamings_identity_first(game):
    perms = suit_permutations(make_rules(game))
    assert len(perms) == 24 and len({tuple(p) for p in perms}) == 24
    assert list(perms[0]) == [0, 1, 2, 3]


def test_renaming_keeps_multipliers_and_vaud_weis_order():
    """schieber_2500 multiplies ♦ ♥ by 1 and ♠ ♣ by 2, seed_nl ♦ by 3, ♥ by 2 and ♠ ♣ by 1
    (docs/rules.md, presets): only renamings within those classes. seed_vaud ranks equal Weis by
    suit: no renaming at all."""
    allowed = {tuple(p) for p in suit_permutations(make_rules("schieber_2500"))}
    assert allowed == {(0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2)}
    assert {tuple(p) for p in suit_permutations(make_rules("seed_nl"))} == {(0, 1, 2, 3), (0, 1, 3, 2)}
    only_red = make_rules("schieber").replace(contracts=["D", "H", "obenabe"])
    assert {tuple(p) for p in suit_permutations(only_red)} == {(0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2),
                                                               (1, 0, 3, 2)}
    assert [list(p) for p in suit_permutations(make_rules("seed_vaud"))] == [[0, 1, 2, 3]]
    with pytest.raises(SymmetryError, match="schieber layouts only"):
        suit_permutations(make_rules("differenzler"))


def test_a_card_keeps_its_rank_and_takes_the_new_suit():
    hearts_to_clubs = np.array([0, 3, 2, 1])
    cards = card_permutation(hearts_to_clubs)
    assert cards[card_id("H9")] == card_id("C9") and cards[card_id("CA")] == card_id("HA")
    assert cards[card_id("D6")] == card_id("D6")
    actions = action_index(hearts_to_clubs[None], SCHIEBER)[0]
    assert actions[CONTRACT_OFFSET + 1] == CONTRACT_OFFSET + 3      # trump H -> trump C
    assert list(actions[40:]) == [40, 41, 42]                                   # Obenabe, Undenufe, push
    source = action_source(hearts_to_clubs[None], SCHIEBER)[0]
    assert all(source[actions[a]] == a for a in range(N_ACTIONS))


def scoring_weis(r: Round, name: np.ndarray) -> list[tuple[int, int, list[int]]]:
    """(player, points, card ids renamed by ``name``) of every Weis that scores."""
    return [(w["player"], w["points"], sorted(int(name[card_id(c)]) for c in w["cards"])) for w in r.weis()]


@pytest.mark.parametrize("game", ["schieber", "schieber6"])
@pytest.mark.parametrize("seed", range(6))
def test_the_renamed_deal_plays_as_the_renamed_round(game, seed):
    rules = make_rules(game)
    players = rules.spec.players
    rng = np.random.default_rng(seed)
    perms = suit_permutations(rules)
    i = int(rng.integers(1, len(perms)))
    cards = card_permutation(perms[i])
    obs_index, act_index = observation_index(perms, rules)[i], action_index(perms, rules)[i]
    original = Round(game, seed=seed)
    hands = [[int(cards[c]) for c in range(36) if dealt_hand_of(original.state, p) >> c & 1]
             for p in range(players)]
    renamed = Round(game, hands=hands, dealer=dealer(original.state))
    while not original.is_over:
        for seat in range(players):
            obs, mask = seen(original, seat)
            obs2, mask2 = seen(renamed, seat)
            np.testing.assert_array_equal(obs2, obs[obs_index])
            np.testing.assert_array_equal(mask2[act_index], mask)
        action = int(rng.choice(original.legal_actions()))
        original.step(action)
        renamed.step(int(act_index[action]))
    assert renamed.is_over and renamed.score == original.score
    assert scoring_weis(renamed, np.arange(36)) == scoring_weis(original, cards)
