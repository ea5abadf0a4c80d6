"""Small variants of the games (agents/openspiel/small.py): a preset's rules with 2 or 3 cards a
player from a reduced deck, as OpenSpiel games that CFR solves.

The example throughout is Molotow for three (docs/games/molotow.md) with 2 cards each: the six
highest cards of the first three suits, ♦A ♦K ♥A ♥K ♠A ♠K.
"""

from __future__ import annotations

from math import factorial

import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from agents.openspiel.game import JassObserver  # noqa: E402
from agents.openspiel.small import (  # noqa: E402
    MAX_DEALS,
    SMALL_GAME_NAME,
    Deals,
    default_cards,
    small_rules,
)
from jass_env.engine.cards import card_id, names_of  # noqa: E402
from jass_env.engine.spec import SPECS  # noqa: E402
from jass_env.engine.switches import RulesError  # noqa: E402
from jass_env.games import PRESETS  # noqa: E402
from jass_env.round import Round  # noqa: E402

SMALL = f"{SMALL_GAME_NAME}(rules=molotow3,cards_per_player=2)"
SIX = ["DA", "DK", "HA", "HK", "SA", "SK"]


def ids(names: list[str]) -> list[int]:
    return sorted(card_id(c) for c in names)


def test_the_default_deck_is_the_highest_cards_of_the_first_suits() -> None:
    assert names_of(sum(1 << c for c in default_cards(PRESETS["molotow3"].spec, 6))) == SIX
    every_ace_and_king = [f"{s}{r}" for s in "DHSC" for r in "AK"]
    assert names_of(sum(1 << c for c in default_cards(PRESETS["schieber"].spec, 8))) == every_ace_and_king
    # 18 cards: five ranks of ♦ ♥ ♠, then three of ♣
    eighteen = [f"{s}{r}" for s in "DHS" for r in ("A", "K", "Q", "J", "10")] + ["CA", "CK", "CQ"]
    assert names_of(sum(1 << c for c in default_cards(PRESETS["molotow6"].spec, 18))) == eighteen


def test_a_small_variant_is_the_preset_with_fewer_cards() -> None:
    rules = small_rules("molotow3", cards_per_player=2)
    spec, preset = rules.spec, PRESETS["molotow3"]
    assert (spec.players, spec.hand_size, spec.tricks) == (3, 2, 2)
    assert names_of(spec.deck) == SIX
    assert spec.game == "molotow" and spec.action_names == preset.spec.action_names
    assert rules.switches() == preset.switches()
    assert rules.name == rules.game == spec.name and SPECS[spec.name] is spec
    assert small_rules("molotow3", 2) == rules                       # registered once, the same again
    given = small_rules("molotow3", 2, cards=["HA", "HK", "SA", "SK", "CA", "CK"])
    assert given.name != rules.name and names_of(given.spec.deck) == ["HA", "HK", "SA", "SK", "CA", "CK"]
    rnd = Round(rules, seed=4)                                        # the engine deals the small deck
    assert sorted(c for p in range(3) for c in rnd.hand(p)) == sorted(SIX)
    assert all(len(rnd.hand(p)) == 2 for p in range(3))


@pytest.mark.parametrize("args, message", [
    (("sidi", 2), "deal the whole deck"),                             # a stock stays undealt
    (("coiffeur", 2), "cannot be played with a reduced deck"),         # its rules read its own spec
    (("molotow3", 0), "from 1 to 11"),
    (("molotow3", 12), "from 1 to 11"),
    (("molotow3", True), "from 1 to 11"),
    (("molotow3", "2"), "from 1 to 11"),
    (("molotow3", 2, ["DA", "DK", "HA"]), "3 x 2 = 6 cards; 3 given"),
    (("molotow3", 2, ["DA", "DA", "HA", "HK", "SA", "SK"]), "given twice: DA"),
    (("molotow5", 2, ["S7", "DA", "HA", "HK", "SA", "SK", "CA", "CK", "DK", "DQ"]), "S7 not in the molotow5"),
    (("molotow3", 2, ["XX", "DA", "HA", "HK", "SA", "SK"]), "XX"),
    (("molotow3", 2, "DA DK HA HK SA SK"), "a list of card names"),
])
def test_bad_variants_are_refused_with_the_reason(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        small_rules(*args)
    assert not any(name.startswith("coiffeur_small") for name in SPECS)    # nothing half registered


def test_an_unknown_preset_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'nope'"):
        small_rules("nope", 2)


def test_the_deal_is_one_chance_node_of_every_deal_once() -> None:
    game = pyspiel.load_game(SMALL)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    deals = 3 * factorial(6) // factorial(2) ** 3                      # a dealer, then 2 cards each
    assert len(outcomes) == deals == game.max_chance_outcomes() == 270
    assert all(p == pytest.approx(1 / deals) for _, p in outcomes)
    seen = set()
    for i, _ in outcomes:
        child = state.child(i)
        assert not child.is_chance_node()
        seen.add((child.deal.dealer, child.deal.hands))
    assert len(seen) == deals
    # a variant with more deals than MAX_DEALS is dealt card by card
    big = pyspiel.load_game(f"{SMALL_GAME_NAME}(rules=molotow3,cards_per_player=5)")
    assert MAX_DEALS < 3 * factorial(15) // factorial(5) ** 3 and Deals.of(small_rules("molotow3", 5)) is None
    first = big.new_initial_state()
    assert [o for o, _ in first.chance_outcomes()] == [0, 1, 2]        # the dealer
    assert len(first.child(0).chance_outcomes()) == 15                 # then each card of the deck


def test_returns_are_the_molotow_scores_of_the_small_deck() -> None:
    """Dealer player_2, so player_0 leads: player_0 ♦A ♦K, player_1 ♥A ♥K, player_2 ♠A ♠K. Trick 1:
    ♦A, ♥K (player_1 cannot follow: the first discard makes ♥ trump), ♠K; the trump ♥K takes it.
    Trick 2: ♥A, ♠A, ♦K to player_1 again. Player_1 has every card point, 11 + 4 + 4 + 11 + 4 + 11,
    and the last trick's 5: 50; no Weis or Stöck can be made of aces and kings alone. Lower is
    better in Molotow, so the returns are the scores negated."""
    game = pyspiel.load_game(SMALL)
    state = game.new_initial_state()
    hands = tuple(sum(1 << c for c in ids(h)) for h in (["DA", "DK"], ["HA", "HK"], ["SA", "SK"]))
    deal = next(i for i, _ in state.chance_outcomes()
                if (state.child(i).deal.dealer, state.child(i).deal.hands) == (2, hands))
    state.apply_action(deal)
    for card in ("DA", "HK", "SK", "HA", "SA", "DK"):
        assert state.current_player() == state.round.to_move
        state.apply_action(card_id(card))
    assert state.is_terminal()
    assert state.returns() == [0.0, -50.0, 0.0]
    assert game.num_players() == 3 and game.max_game_length() == 6


def test_the_short_information_state_names_the_same_states_as_the_text() -> None:
    """Two decision states of a seat have the same short information-state string exactly when they
    have the same text one (the table from the seat with every move)."""
    game = pyspiel.load_game(SMALL)
    text = JassObserver(game.facts, pyspiel.IIGObservationType(perfect_recall=True), None)
    short_to_text: dict[str, set[str]] = {}
    text_to_short: dict[str, set[str]] = {}
    root = game.new_initial_state()
    stack = [root.child(i) for i, _ in root.chance_outcomes()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        p = state.current_player()
        short, long = state.information_state_string(p), text.string_from(state, p)
        short_to_text.setdefault(short, set()).add(long)
        text_to_short.setdefault(long, set()).add(short)
        stack += [state.child(a) for a in state.legal_actions()]
    assert all(len(v) == 1 for v in short_to_text.values())
    assert all(len(v) == 1 for v in text_to_short.values())
    assert len(short_to_text) > 100


def test_cfr_lowers_nash_conv() -> None:
    """CFR+ on the small Molotow: NashConv (the players' summed gains from best responses) after 4
    iterations is a fifth of the first iteration's or less (3.65 and 0.54 on this machine)."""
    game = pyspiel.load_game(SMALL)
    solver = cfr.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(3):
        solver.evaluate_and_update_policy()
    fourth = exploitability.nash_conv(game, solver.average_policy())
    assert 0 < fourth < first / 5


def test_a_small_variant_registered_does_not_disturb_loading_a_policy(tmp_path) -> None:
    """A small variant is a spec without a preset: a policy checkpoint still loads and names the
    games of the presets when it fits none."""
    from agents.network import PolicyNet, load_policy, save_policy

    small_rules("molotow3", 2)
    path = save_policy(tmp_path / "p.pt", PolicyNet((8,), seed=1), config={}, steps=0)
    net, _ = load_policy(path)
    assert net is not None

