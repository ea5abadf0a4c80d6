"""Engine states from outside are checked before compiled code plays them
(:mod:`jass_env.engine.validate`): a field out of its range, or inconsistent with the others, is
refused with an error naming the field, the player or slot, the value and what is allowed, by
``check_state``, by both environments' ``set_state`` (which then change nothing), by a seat's
view, and by a trainer's ``--resume`` whose checkpoint holds such an env state (before the check,
one bad integer there crashed the process).

Expected values come from the rules: Schieber has 4 players and 36 cards, Molotow for five plays
without the ♠7, a Differenzler prediction is 0..157 points, a Coiffeur sheet has rows 0..9 at
most, a Sidi stock holds cards 0..35.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from test_train import run_train

from agents.network import read_checkpoint
from jass_env import Round, VectorJassEnv
from jass_env.engine.cards import mask_of
from jass_env.engine.state import StateView
from jass_env.engine.validate import StateError, check_state, check_states, column_of
from jass_env.envs.aec import raw_env
from jass_env.games import make_rules
from jass_env.games.schieber.seat_view import seat_position

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
SCHIEBER = make_rules("schieber")
TO_MOVE = column_of(SCHIEBER, "S_TO_MOVE")


def hand(rules: str, player: int) -> int:
    """The column of ``player``'s hand in a state of ``rules``."""
    return column_of(make_rules(rules), "S_HANDS", player)


def in_card_play(rules: str = "schieber", seed: int = 3, cards: int = 2) -> Round:
    """A round of ``rules`` after its bidding (the first legal action each time) and ``cards``
    cards of the first trick."""
    r = Round(rules, seed=seed)
    while r.phase != "play":
        r.step(int(r.legal_actions()[0]))
    for _ in range(cards):
        r.step(int(r.legal_actions()[0]))
    return r


def refused(state: np.ndarray, rules: str) -> StateError:
    with pytest.raises(StateError) as e:
        check_state(state, make_rules(rules))
    return e.value


def test_states_the_engine_plays_pass() -> None:
    for rules in ("schieber", "differenzler", "coiffeur", "molotow5", "sidi"):
        r = in_card_play(rules)
        check_state(r.state, r.rules)
        while not r.is_over:
            r.step(int(r.legal_actions()[-1]))
        check_state(r.state, r.rules)


def test_a_player_out_of_range_is_named_with_the_players_allowed() -> None:
    st = in_card_play().state.copy()
    st[TO_MOVE] = 4                                      # Schieber's players are 0..3
    e = refused(st, "schieber")
    assert (e.field, e.slot, e.value, e.game) == ("S_TO_MOVE", "", 4, None)
    assert str(e) == "engine state: S_TO_MOVE is 4; allowed: a player 0..3 (schieber has 4)"


def test_a_card_beyond_the_36_is_named_with_the_player() -> None:
    st = in_card_play().state.copy()
    st[hand("schieber", 1)] |= 1 << 40
    e = refused(st, "schieber")
    assert (e.field, e.slot) == ("S_HANDS", "player 1")
    assert "allowed: a set of cards (a 36-bit mask, bit c = card c)" in str(e)


def test_a_card_not_in_the_games_deck_is_named() -> None:
    st = in_card_play("molotow5").state.copy()
    st[hand("molotow5", 2)] |= mask_of(["S7"])           # five play without the ♠7
    e = refused(st, "molotow5")
    assert (e.field, e.slot) == ("S_HANDS", "player 2")
    assert "allowed: cards of molotow5's deck only (it has no S7)" in str(e)


def test_a_card_in_two_hands_is_named_with_the_card() -> None:
    r = in_card_play()
    st = r.state.copy()
    card = r.hand(0)[0]
    st[hand("schieber", 3)] |= mask_of([card])
    e = refused(st, "schieber")
    assert (e.field, e.slot) == ("S_HANDS", "player 3")
    assert f"{card} are an earlier player's too" in str(e)


def test_a_player_to_move_out_of_turn_is_refused() -> None:
    r = in_card_play(cards=2)                            # two cards down: the leader's third seat moves
    st = r.state.copy()
    leader = StateView(st, r.rp).leader
    st[TO_MOVE] = leader                                 # a player, but not the one whose turn it is
    e = refused(st, "schieber")
    assert e.field == "S_TO_MOVE" and e.value == leader
    assert f"the player after the trick's 2 cards from the leader {leader}, {(leader + 2) % 4}" in str(e)


@pytest.mark.parametrize("rules, field, slot, value, allowed", [
    ("differenzler", "predictions", 2, 158, "-1..157"),
    ("coiffeur10", "row", 0, 10, "-1..9"),
    ("sidi", "stock", 3, 36, "0..35"),
])
def test_a_games_own_field_out_of_its_range_is_named(rules: str, field: str, slot: int, value: int,
                                                     allowed: str) -> None:
    st = in_card_play(rules).state.copy()
    st[column_of(make_rules(rules), field, slot)] = value
    e = refused(st, rules)
    assert e.field == field and e.value == value and f"allowed: {allowed}" in str(e)


def test_a_batch_names_the_game() -> None:
    states = np.stack([in_card_play(seed=s).state for s in range(3)])
    states[1, TO_MOVE] = -1
    with pytest.raises(StateError) as e:
        check_states(states, make_rules("schieber"))
    assert e.value.game == 1 and str(e.value).startswith("engine state of game 1: S_TO_MOVE is -1;")


def test_a_seat_view_passes_as_partial_and_is_not_a_full_state() -> None:
    r = in_card_play(cards=3)
    mover = StateView(r.state, r.rp).to_move
    plays = [card for trick in r.tricks for _, card in trick["plays"]] + [card for _, card in r.current_trick]
    pos = seat_position("schieber", mover, r.hand(mover), dealer=StateView(r.state, r.rp).dealer,
                        pushed=r.pushed, contract=r.contract, plays=plays)
    check_state(pos.state, r.rules, partial=True)
    with pytest.raises(StateError, match=r"S_HANDS\[player \d\] is 0; allowed: \d cards at trick 0"):
        check_state(pos.state, r.rules)


def test_both_environments_refuse_a_bad_state_and_change_nothing() -> None:
    r = in_card_play()
    bad = r.state.copy()
    bad[TO_MOVE] = 7
    aec = raw_env("schieber")
    aec.reset(seed=1)
    before = aec.core_state.copy()
    with pytest.raises(StateError, match="S_TO_MOVE is 7; allowed: a player 0..3"):
        aec.set_state(bad)
    assert np.array_equal(aec.core_state, before)
    venv = VectorJassEnv(3, rules="schieber")
    venv.reset(seed=1)
    saved = venv.get_state()
    states = saved["game_states"].copy()
    states[2] = bad
    with pytest.raises(StateError, match="engine state of game 2: S_TO_MOVE is 7"):
        venv.set_state(states, saved["sample_rng"])
    assert np.array_equal(venv.get_state()["game_states"], saved["game_states"])


def test_resuming_a_checkpoint_with_a_bad_env_state_names_the_field(tmp_path: Path, capsys) -> None:
    run = tmp_path / "run"
    assert run_train("--config", SMOKE, f"run_dir={run}", "eval_every=0", "final_eval_deals=0",
                     "--stop-after", "1") == 0
    latest = run / "checkpoints" / "latest.pt"
    ckpt = read_checkpoint(latest)
    states = ckpt["trainer"]["env"]["game_states"]
    assert states.shape[0] == 16                         # the smoke config's 16 games
    states[5, TO_MOVE] = 10**9                           # one integer; it read memory far outside the state
    torch.save(ckpt, latest)
    capsys.readouterr()
    assert run_train("--resume", run) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "engine state of game 5: S_TO_MOVE is 1000000000; allowed: a player 0..3" in err

