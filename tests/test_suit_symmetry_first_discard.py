"""Suit symmetry of Mittlere and Molotow (jass_env/games/_first_discard/suit_symmetry.py): renaming the
suits of a deal and of every card played gives the renamed hand: the same scores, the renamed
trump, the renamed Weis, and every seat's observation and legal cards are the original's renamed
by the tables. Molotow for five deals without the ♠7: there only renamings that keep ♠."""

from __future__ import annotations

import numpy as np
import pytest

from jass_env import Round, make_rules
from jass_env.engine.cards import N_CARDS, card_id
from jass_env.engine.state import dealer, dealt_hand_of
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of
from jass_env.games._first_discard import suit_symmetry
from jass_env.games._first_discard.suit_symmetry import (
    action_index,
    action_source,
    observation_index,
    suit_permutations,
)
from jass_env.games.schieber.suit_symmetry import SymmetryError, card_permutation

SPADES = 2
#: (preset, switches): both games, Molotow for 3 to 6, without Kreuzweis under the Vaud Weis order,
#: and the hand without a discard annulled
VARIANTS = [("mittlere", {}), ("molotow", {}), ("molotow3", {}), ("molotow5", {}), ("molotow6", {}),
            ("molotow3", {"kreuzweis": False, "weis_comparison": "vaud"}),
            ("mittlere", {"no_trump_hand": "annul"})]


def rules_of(game: str, switches: dict):
    return make_rules(game).replace(**switches) if switches else make_rules(game)


def seen(r: Round, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(obs_dim(r.rules), dtype=np.float32)
    game_of(r.rules).observation.encode_observation(r.state, seat, r.rp, obs)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    for_game(r.spec.kind).action_mask(r.state, r.rp, mask)
    return obs, mask


def test_both_games_name_the_shared_symmetry():
    assert game_of(make_rules("mittlere")).suit_symmetry is suit_symmetry
    assert game_of(make_rules("molotow")).suit_symmetry is suit_symmetry


@pytest.mark.parametrize("game", ["mittlere", "molotow", "molotow3", "molotow6"])
def test_every_renaming_is_allowed_with_the_whole_deck(game):
    perms = suit_permutations(make_rules(game))
    assert len(perms) == 24 and len({tuple(p) for p in perms}) == 24
    assert list(perms[0]) == [0, 1, 2, 3]


def test_molotow_for_five_keeps_spades_its_deck_has_no_spade_7():
    """Moving ♠ would deal the ♠7 the five-player deck leaves out (and leave out another 7)."""
    perms = suit_permutations(make_rules("molotow5"))
    assert list(perms[0]) == [0, 1, 2, 3]
    assert len(perms) == 6 and all(p[SPADES] == SPADES for p in perms)
    assert all(card_permutation(p)[card_id("S7")] == card_id("S7") for p in perms)


def test_a_card_keeps_its_rank_and_takes_the_new_suit():
    rules = make_rules("molotow")
    hearts_to_clubs = np.array([0, 3, 2, 1])
    actions = action_index(hearts_to_clubs[None], rules)[0]
    assert actions[card_id("H9")] == card_id("C9") and actions[card_id("CA")] == card_id("HA")
    assert actions[card_id("D6")] == card_id("D6")
    source = action_source(hearts_to_clubs[None], rules)[0]
    assert all(source[actions[a]] == a for a in range(N_CARDS))


def test_other_games_are_refused():
    with pytest.raises(SymmetryError, match="mittlere and molotow only, not 'schieber'"):
        suit_permutations(make_rules("schieber"))


def play_renamed(original: Round, perm: np.ndarray, rng: np.random.Generator) -> Round:
    """Play ``original`` (freshly dealt) with random legal cards and, beside it, its deal renamed by
    ``perm`` with every card renamed; every seat's observation and the legal cards of the renamed
    hand must be the original's renamed by the tables. Returns the renamed hand, finished."""
    rules = original.rules
    n = rules.spec.players
    perms = perm[None]
    cards = card_permutation(perm)
    obs_index, act_index = observation_index(perms, rules)[0], action_index(perms, rules)[0]
    hands = [[int(cards[c]) for c in range(N_CARDS) if dealt_hand_of(original.state, p) >> c & 1]
             for p in range(n)]
    renamed = Round(rules, hands=hands, dealer=dealer(original.state))
    while not original.is_over:
        for seat in range(n):
            obs, mask = seen(original, seat)
            obs2, mask2 = seen(renamed, seat)
            np.testing.assert_array_equal(obs2, obs[obs_index])
            np.testing.assert_array_equal(mask2[act_index], mask)
        card = int(rng.choice(original.legal_actions()))
        original.step(card)
        renamed.step(int(act_index[card]))
    return renamed


def assert_renamed_hand(original: Round, renamed: Round, perm: np.ndarray) -> None:
    """Same scores, points and tricks; trump σ(trump); each player's hand Weis the same points on
    the renamed cards."""
    n = original.spec.players
    cards = card_permutation(perm)
    assert renamed.is_over
    assert renamed.score[:n] == original.score[:n] and renamed.points[:n] == original.points[:n]
    assert renamed.tricks_won[:n] == original.tricks_won[:n]
    if original.view.declarer >= 0:                    # trump fixed by a discard: its suit renamed
        assert renamed.view.contract == perm[original.view.contract]
    else:                                               # nobody discarded: Obenabe
        assert renamed.view.contract == original.view.contract
    assert renamed.view.player_weis[:n] == original.view.player_weis[:n]
    for p in range(n):
        weis = original.view.weis_cards[p]
        assert renamed.view.weis_cards[p] == sum(1 << int(cards[c]) for c in range(N_CARDS) if weis >> c & 1)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game,switches", VARIANTS)
def test_the_renamed_deal_plays_as_the_renamed_hand(game, switches, seed):
    rules = rules_of(game, switches)
    rng = np.random.default_rng(seed)
    perms = suit_permutations(rules)
    perm = perms[int(rng.integers(1, len(perms)))]
    original = Round(rules, seed=seed)
    renamed = play_renamed(original, perm, rng)
    assert_renamed_hand(original, renamed, perm)


def test_weis_with_a_card_in_a_run_and_a_four_of_a_kind_rename_under_every_renaming():
    """Molotow without Kreuzweis under the Vaud order: player 0's ♥A is in his four Aces and in his
    run ♥A ♥K ♥Q, and player 1 holds runs of equal length in two suits; every renaming declares
    the renamed Weis and plays the renamed hand."""
    rules = make_rules("molotow").replace(kreuzweis=False, weis_comparison="vaud")
    deal = [["HA", "HK", "HQ", "SA", "DA", "CA", "D6", "C6", "S6"],
            ["D10", "D9", "D8", "C10", "C9", "C8", "H6", "S7", "SK"],
            ["DK", "DQ", "DJ", "CK", "CQ", "CJ", "HJ", "H10", "H9"],
            ["D7", "C7", "H7", "H8", "SQ", "SJ", "S10", "S9", "S8"]]
    for i, perm in enumerate(suit_permutations(rules)):
        rng = np.random.default_rng(i)
        original = Round(rules, hands=deal, dealer=3)
        assert original.view.player_weis[0] == 100         # the four Aces, the run left out
        renamed = play_renamed(original, perm, rng)
        assert_renamed_hand(original, renamed, perm)
