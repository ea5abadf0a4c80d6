"""Suit symmetry of Differenzler (jass_env/games/differenzler/suit_symmetry.py): renaming the suits of
a deal, of its trump draw (the shown card, or the drawn suit) and of every card played gives the
renamed round: the same predictions score the same penalties, and every seat's observation and
legal actions are the original's renamed by the tables. No Differenzler rule names a suit
(docs/games/differenzler.md), so all 24 renamings hold."""

from __future__ import annotations

import numpy as np
import pytest
from _renaming import assert_seen_renamed, renamed_hands

from jass_env import Round, make_rules
from jass_env.engine.cards import N_CARDS, card_id
from jass_env.engine.state import dealer
from jass_env.games import game_of
from jass_env.games.differenzler import suit_symmetry
from jass_env.games.differenzler.suit_symmetry import (
    action_index,
    action_source,
    observation_index,
    suit_permutations,
)
from jass_env.games.schieber.suit_symmetry import SymmetryError, card_permutation

VARIANTS = [("differenzler", {}), ("differenzler3", {}),
            ("differenzler", {"trump_mode": "random_suit", "predictions": "open"}),
            ("differenzler3", {"predictions": "open"})]


def rules_of(game: str, switches: dict):
    return make_rules(game).replace(**switches) if switches else make_rules(game)


@pytest.mark.parametrize("game,switches", VARIANTS)
def test_every_one_of_the_24_renamings_identity_first(game, switches):
    perms = suit_permutations(rules_of(game, switches))
    assert len(perms) == 24 and len({tuple(p) for p in perms}) == 24
    assert list(perms[0]) == [0, 1, 2, 3]
    assert game_of(make_rules(game)).suit_symmetry is suit_symmetry


def test_other_games_layouts_are_refused():
    with pytest.raises(SymmetryError, match="differenzler layouts only"):
        suit_permutations(make_rules("schieber"))
    with pytest.raises(SymmetryError, match="not 'molotow'"):
        observation_index(np.array([[0, 1, 2, 3]]), make_rules("molotow"))


def test_a_card_takes_the_new_suit_and_a_prediction_stays():
    rules = make_rules("differenzler")
    hearts_to_clubs = np.array([[0, 3, 2, 1]])
    actions = action_index(hearts_to_clubs, rules)[0]
    assert actions[card_id("H9")] == card_id("C9") and actions[card_id("CA")] == card_id("HA")
    assert actions[card_id("D6")] == card_id("D6") and actions[card_id("S10")] == card_id("S10")
    assert list(actions[N_CARDS:]) == list(range(N_CARDS, 194))        # "predict 0" .. "predict 157"
    source = action_source(hearts_to_clubs, rules)[0]
    assert all(source[actions[a]] == a for a in range(194))


@pytest.mark.parametrize("game,switches", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_the_renamed_deal_plays_as_the_renamed_round(game, switches, seed):
    rules = rules_of(game, switches)
    draws = game_of(rules).draws
    rng = np.random.default_rng(seed)
    original = Round(rules, seed=seed)
    perms = suit_permutations(rules)
    trump = original.view.contract
    i = int(rng.choice([k for k, p in enumerate(perms) if p[trump] != trump]))     # one that moves trump
    perm, cards = perms[i], card_permutation(perms[i])
    obs_index, act_index = observation_index(perms, rules)[i], action_index(perms, rules)[i]
    renamed = Round(rules, hands=renamed_hands(original, cards), dealer=dealer(original.state))
    (drawn,) = draws.of(original)
    # the trump draw renamed: the shown card is the renamed card, a drawn suit the renamed suit
    renamed_draw = int(cards[drawn]) if rules.trump_mode == "bottom_card" else int(perm[drawn])
    draws.apply(renamed, (renamed_draw,))
    assert draws.of(renamed) == (renamed_draw,)
    assert renamed.view.contract == perm[trump]
    while True:
        assert_seen_renamed(original, renamed, obs_index, act_index)
        if original.is_over:
            break
        action = int(rng.choice(original.legal_actions()))
        original.step(action)
        renamed.step(int(act_index[action]))
    assert renamed.is_over and renamed.score == original.score
    assert renamed.predictions == original.predictions
