"""Rules configuration: presets, switches, and errors that say what is valid (docs/rules.md "Presets").

The behaviour behind each preset difference is tested where the rule lives: card play in
test_card_play.py, Weis in test_weis.py, scoring in test_scoring.py, match ends in test_match.py.
Here: every preset loads, each preset differs from `schieber` in exactly the switches of the
table, and bad configuration raises :class:`RulesError` naming the valid choices.
"""

from __future__ import annotations

import dataclasses

import pytest

from jass_env import PRESETS, SCHIEBER_PRESETS, Match, Round, RulesError, make_rules
from jass_env.engine.cards import CONTRACTS
from jass_env.engine.switches import RP_GAME
from jass_env.games import overrides, preset

PRESET_NAMES = ("schieber", "schieber_2500", "tournament", "seed_nl", "seed_vaud")


@pytest.mark.nojit_sample
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_loads_and_plays(name):
    """docs/rules.md names five presets; each loads by name and runs a round and a match."""
    rules = preset(name)
    assert rules.name == name and make_rules(name) == rules and PRESETS[name] is rules
    assert rules.params.shape == (RP_GAME,)     # the shared parameters; Schieber has no own switches
    r = Round(name, seed=5)
    r.step(int(r.legal_actions()[0]))
    assert r.rules is rules or r.rules == rules
    m = Match(name, seed=5)
    assert m.scores == [0, 0] and m.winner is None


def test_the_presets_are_exactly_the_five_of_the_table():
    """The preset table has five columns: schieber, schieber_2500, tournament, seed_nl, seed_vaud."""
    assert SCHIEBER_PRESETS == PRESET_NAMES


def test_default_rules_are_schieber():
    """"`schieber` (default)": official Swiss Schieber."""
    assert make_rules() == PRESETS["schieber"] and Round(seed=1).rules.name == "schieber"


def test_schieber_column_of_the_preset_table():
    """The `schieber` column: six contracts, push (no push-back), forehand leads; O/U card values;
    trumping instead of following; official under-trump rule; Puur exception; Weis 20/50/100/150/
    200/250/300; quads 100 (incl. 6, 7, 8) / 150 / 200; standard comparison; Kreuzweis; Stöck 20;
    Match 100; all ×1; target 1000; random first forehand; official finish."""
    s = PRESETS["schieber"].switches()
    assert s["contracts"] == list(CONTRACTS) and s["push"] and s["leader_after_push"] == "forehand"
    assert s["ou_card_values"] and s["may_trump_instead_of_following"] and s["puur_exception"]
    assert s["undertrump_rule"] == "official"
    assert s["weis"] and s["kreuzweis"] and s["weis_comparison"] == "standard"
    assert s["sequence_values"] == [20, 50, 100, 150, 200, 250, 300]
    assert s["quad_values"] == {"6": 100, "7": 100, "8": 100, "9": 150, "10": 100, "J": 200,
                                "Q": 100, "K": 100, "A": 100}
    assert s["stoeck"] == 20 and s["match_bonus"] == 100
    assert s["multipliers"] == dict.fromkeys(CONTRACTS, 1)
    assert s["target"] == 1000 and s["first_forehand"] == "random" and s["match_finish"] == "official"


CAPPED = [20, 50, 100, 100, 100, 100, 100]
DIFFERENCES = {
    "schieber_2500": {"multipliers": {"D": 1, "H": 1, "S": 2, "C": 2, "obenabe": 3, "undenufe": 3},
                      "target": 2500},
    "tournament": {"weis": False, "stoeck": 0, "match_bonus": 0, "target": 0, "match_rounds": 12},
    "seed_nl": {"may_trump_instead_of_following": False, "undertrump_rule": "unless_partner_winning",
                "sequence_values": CAPPED,
                "quad_values": {"6": 0, "7": 0, "8": 0, "9": 100, "10": 100, "J": 200, "Q": 100,
                                "K": 100, "A": 100},
                "multipliers": {"D": 3, "H": 2, "S": 1, "C": 1, "obenabe": 3, "undenufe": 4},
                "match_finish": "round_end"},
    "seed_vaud": {"contracts": ["D", "H", "S", "C"], "sequence_values": CAPPED,
                  "weis_comparison": "vaud", "first_forehand": "D7"},
}


@pytest.mark.parametrize("name", DIFFERENCES)
def test_each_preset_differs_from_schieber_exactly_as_the_table_says(name):
    """Preset table, column by column: `schieber_2500` (×1 1 2 2 3 3 for D H S C O U, to 2500);
    `tournament` (no Weis, no Stöck, Match 0, fixed rounds); `seed_nl` (must follow, under-trump
    unless partner winning, sequences capped at 100, no 6/7/8 quads and four 9s 100, H ×2 D ×3
    O ×3 U ×4, round-end finish); `seed_vaud` (trump contracts only, capped sequences, Vaud Weis
    key, ♦7 holder first)."""
    base = PRESETS["schieber"].switches()
    got = {k: v for k, v in PRESETS[name].switches().items() if base[k] != v}
    assert got == DIFFERENCES[name]


# errors


def test_unknown_preset_raises_rules_error_listing_the_presets():
    """An unknown preset raises RulesError (a ValueError) naming it and the valid presets."""
    with pytest.raises(RulesError) as e:
        make_rules("schieber_3000")
    msg = str(e.value)
    assert "schieber_3000" in msg and all(n in msg for n in PRESET_NAMES)
    assert isinstance(e.value, ValueError)
    with pytest.raises(RulesError, match="valid presets"):
        Round("nope", seed=1)
    with pytest.raises(RulesError, match="valid presets"):
        Match("nope", seed=1)


def test_unknown_switch_raises_rules_error_listing_the_switches():
    """An unknown (e.g. misspelt) switch raises RulesError naming it and the valid switches."""
    with pytest.raises(RulesError) as e:
        make_rules("schieber", stock=20)
    msg = str(e.value)
    assert "'stock'" in msg and "valid switches" in msg
    assert all(f in msg for f in ("stoeck", "undertrump_rule", "kreuzweis", "multipliers"))


@pytest.mark.parametrize("switch, value, listed", [
    ("undertrump_rule", "sometimes", "official, unless_partner_winning, allowed"),
    ("weis_comparison", "longest", "standard, vaud, no_top_card"),
    ("match_finish", "never", "official, round_end"),
    ("first_forehand", "H7", "random, D7"),
    ("leader_after_push", "partner", "forehand, declarer"),
    ("weis", "yes", "True or False"),
    ("push", 1, "True or False"),
    ("contracts", ["H", "X"], "D, H, S, C, obenabe, undenufe"),
    ("contracts", [], "non-empty"),
    ("sequence_values", [20, 50], "7 integers"),
    ("quad_values", [100] * 9, "mapping of rank to points"),
    ("quad_values", {"B": 100}, "6, 7, 8, 9, 10, J, Q, K, A"),
    ("quad_values", {"9": -1}, "points 0..1000"),
    ("multipliers", {"X": 2}, "D, H, S, C, obenabe, undenufe"),
    ("multipliers", [1, 1, 1, 1, 1, 0], "1..100"),
    ("stoeck", -20, "0..1000"),
    ("stoeck", True, "0..1000"),
    ("match_bonus", 1.5, "0..1000"),
    ("target", -1, "0..100000"),
    # values that are not lists at all must get the same message, not a bare TypeError
    ("contracts", 5, "D, H, S, C, obenabe, undenufe"),
    ("contracts", None, "D, H, S, C, obenabe, undenufe"),
    ("sequence_values", 100, "7 integers"),
    ("multipliers", 2, "1..100"),
])
def test_bad_switch_value_raises_rules_error_listing_the_allowed_values(switch, value, listed):
    """Bad input gets "what was wrong + what is allowed"."""
    with pytest.raises(RulesError) as e:
        make_rules("schieber", **{switch: value})
    assert listed in str(e.value)
    assert switch in str(e.value) or "rank" in str(e.value) or "contract" in str(e.value)


def test_a_match_needs_a_target_or_a_number_of_rounds():
    """A match ends at the target or after `match_rounds`; with neither it could never end."""
    with pytest.raises(RulesError, match="target > 0 or match_rounds > 0"):
        make_rules("schieber", target=0)


def test_rules_must_be_a_preset_name_or_rules_object():
    """`make_rules` takes a preset name or a Rules object; anything else is named in the error."""
    with pytest.raises(RulesError, match="preset name"):
        make_rules(42)


# switches


def test_every_switch_is_settable_on_top_of_a_preset():
    """"Every switch is also settable on its own, on top of a preset": the other switches keep the
    preset's values and ``overrides(rules)`` names what changed."""
    r = make_rules("seed_nl", weis=False, stoeck=0)
    assert r.name == "seed_nl" and not r.weis and r.stoeck == 0
    assert r.may_trump_instead_of_following is False and r.multipliers == (3, 2, 1, 1, 3, 4)
    assert overrides(r) == {"weis": False, "stoeck": 0}


def test_quad_values_dict_merges_into_the_presets_values():
    """`quad_values` as a dict changes the named ranks and keeps the preset's others."""
    r = make_rules("seed_nl", quad_values={"8": 100})
    assert dict(r.quad_values) == {"6": 0, "7": 0, "8": 100, "9": 100, "10": 100, "J": 200,
                                   "Q": 100, "K": 100, "A": 100}


def test_multipliers_dict_merges_into_the_presets_values():
    """`multipliers` as a dict changes the named contracts; a list sets all six (D H S C O U)."""
    r = make_rules("seed_nl", multipliers={"H": 5, "undenufe": 1})
    assert r.multipliers == (3, 5, 1, 1, 3, 1)
    assert make_rules("schieber", multipliers=[1, 2, 3, 4, 5, 6]).multipliers == (1, 2, 3, 4, 5, 6)


def test_switches_stack_on_a_rules_object():
    """Switches apply on top of any Rules object, not only a preset name."""
    base = make_rules("seed_vaud", weis=False)
    r = make_rules(base, stoeck=40)
    assert r.contracts == ("D", "H", "S", "C") and not r.weis and r.stoeck == 40


def test_rules_are_immutable():
    """Rules are a frozen dataclass: a preset cannot be changed by accident."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["schieber"].stoeck = 0  # type: ignore[misc]


def test_contracts_switch_accepts_a_single_name():
    """`contracts="obenabe"` means the one contract, not its letters."""
    assert make_rules("schieber", contracts="obenabe").contracts == ("obenabe",)
