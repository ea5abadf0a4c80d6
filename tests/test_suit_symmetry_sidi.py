"""Suit symmetry of Sidi-Jass for two (jass_env/games/sidi/suit_symmetry.py): renaming the suits of a
deal, of its stock card by card (the face-up trump card too, so trump moves with it) and of every card
played gives the renamed round: the same scores, the renamed Weis, and every seat's observation and
legal actions (the exchange of the trump 6 included) are the original's renamed by the tables. No
Sidi rule names a suit (docs/games/sidi.md) except the Vaud Weis comparison, which ranks equal Weis
by suit (H > C > S > D): under it no renaming holds."""

from __future__ import annotations

import numpy as np
import pytest
from _renaming import assert_seen_renamed, renamed_hands
from test_sidi import ALL_TRICKS_H0, ALL_TRICKS_H1, ALL_TRICKS_STOCK, sidi_round

from jass_env import Round, make_rules
from jass_env.engine.cards import N_CARDS, card_id, card_name
from jass_env.engine.state import dealer
from jass_env.games import game_of
from jass_env.games.schieber.suit_symmetry import SymmetryError, card_permutation
from jass_env.games.sidi import suit_symmetry
from jass_env.games.sidi.suit_symmetry import (
    action_index,
    action_source,
    observation_index,
    suit_permutations,
)

SIDI = make_rules("sidi")
EXCHANGE = 36
VAUD = SIDI.replace(weis_comparison="vaud")
RED_SWAP = (1, 0, 2, 3)                    # ♦ <-> ♥


def test_every_one_of_the_24_renamings_identity_first() -> None:
    perms = suit_permutations(SIDI)
    assert len(perms) == 24 and len({tuple(p) for p in perms}) == 24
    assert list(perms[0]) == [0, 1, 2, 3]
    assert game_of(SIDI).suit_symmetry is suit_symmetry
    assert len(suit_permutations(VAUD.replace(weis=False))) == 24       # no Weis: nothing ranks suits


def test_vaud_weis_rank_suits_so_no_renaming_holds() -> None:
    """Equal runs of three, ♦ with forehand and ♥ with the dealer, trump ♠: the standard comparison
    gives the tie to forehand; Vaud's gives it to ♥. With ♦ and ♥ renamed the Vaud winner changes
    seat, so the renamed deal does not play as the renamed round."""
    forehand = ["D6", "D7", "D8", "SA", "C6", "C8", "H10", "HQ"]
    dealer_hand = ["H6", "H7", "H8", "DA", "C10", "CQ", "S6", "S8"]
    swap = card_permutation(np.array(RED_SWAP))

    def weis_winner(rules, hands: list[list[str]]) -> int:  # noqa: ANN001 (rules)
        r = Round(rules, hands=hands, dealer=1)
        r.set_stock([card_name(c) for c in range(N_CARDS)
                     if card_name(c) not in (*hands[0], *hands[1], "S10")] + ["S10"])
        return r.view.weis_team

    def renamed(hand: list[str]) -> list[str]:
        return [card_name(int(swap[card_id(c)])) for c in hand]

    deal = [forehand, dealer_hand]
    assert weis_winner(SIDI, deal) == 0 == weis_winner(SIDI, [renamed(h) for h in deal])
    assert weis_winner(VAUD, deal) == 1 and weis_winner(VAUD, [renamed(h) for h in deal]) == 0
    assert [list(p) for p in suit_permutations(VAUD)] == [[0, 1, 2, 3]]


def test_other_games_layouts_are_refused() -> None:
    with pytest.raises(SymmetryError, match="sidi layout only"):
        suit_permutations(make_rules("schieber"))
    with pytest.raises(SymmetryError, match="not 'molotow'"):
        observation_index(np.array([[0, 1, 2, 3]]), make_rules("molotow"))


def test_a_card_takes_the_new_suit_and_the_exchange_stays() -> None:
    hearts_to_clubs = np.array([[0, 3, 2, 1]])
    actions = action_index(hearts_to_clubs, SIDI)[0]
    assert actions[card_id("H6")] == card_id("C6") and actions[card_id("CA")] == card_id("HA")
    assert actions[card_id("D6")] == card_id("D6") and actions[EXCHANGE] == EXCHANGE
    source = action_source(hearts_to_clubs, SIDI)[0]
    assert all(source[actions[a]] == a for a in range(SIDI.spec.n_actions))


def scoring_weis(r: Round, name: np.ndarray) -> list[tuple[int, int, list[int]]]:
    """(player, points, card ids renamed by ``name``) of every Weis that scores, in order."""
    return sorted((w["player"], w["points"], sorted(int(name[card_id(c)]) for c in w["cards"]))
                  for w in r.weis())


def all_trumps_deal() -> Round:
    """Forehand (player 1) holds the trump 6 to the K under the face-up ♥A: he exchanges."""
    return sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")


@pytest.mark.parametrize("deal", [0, 1, 2, 3, "all trumps"])
def test_the_renamed_deal_plays_as_the_renamed_round(deal) -> None:  # noqa: ANN001
    seed = 7 if deal == "all trumps" else deal
    rng = np.random.default_rng(seed)
    original = all_trumps_deal() if deal == "all trumps" else Round("sidi", seed=seed)
    draws = game_of(SIDI).draws
    perms = suit_permutations(SIDI)
    trump = original.view.contract
    i = int(rng.choice([k for k, p in enumerate(perms) if p[trump] != trump]))     # one that moves trump
    perm, cards = perms[i], card_permutation(perms[i])
    obs_index, act_index = observation_index(perms, SIDI)[i], action_index(perms, SIDI)[i]
    renamed = Round(SIDI, hands=renamed_hands(original, cards), dealer=dealer(original.state))
    stock = tuple(int(cards[c]) for c in draws.of(original))                    # top first, face-up last
    draws.apply(renamed, stock)
    assert renamed.stock == [card_name(c) for c in stock]
    assert renamed.trump_card == card_name(int(cards[card_id(original.trump_card)]))
    assert renamed.view.contract == perm[trump]
    while True:
        assert_seen_renamed(original, renamed, obs_index, act_index)
        if original.is_over:
            break
        legal = original.legal_actions()
        action = EXCHANGE if EXCHANGE in legal else int(rng.choice(legal))
        original.step(action)
        renamed.step(int(act_index[action]))
    assert renamed.is_over and list(renamed.view.score) == list(original.view.score)
    assert scoring_weis(renamed, np.arange(N_CARDS)) == scoring_weis(original, cards)
    assert renamed.view.stoeck_player == original.view.stoeck_player
    assert (renamed.exchange is None) == (original.exchange is None)
    if deal == "all trumps":
        assert original.exchange == {"player": 1, "trick": 1}
        assert original.weis() and original.view.stoeck_shown
