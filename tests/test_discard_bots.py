"""Bots for Mittlere and Molotow (agents/bots/mittlere.py, agents/bots/molotow.py, docs/bots.md), the
random bot in these games, and the seat-rotation evaluation of them (agents/evaluation/rotation.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.bots._first_discard import decode
from agents.bots.mittlere import MittlereHeuristic
from agents.bots.molotow import MolotowHeuristic
from agents.evaluate import main as evaluate_main
from agents.evaluation.rotation import evaluate_rotation
from agents.random_bot import RandomAgent
from agents.registry import make_agent
from jass_env import Round
from jass_env.engine.cards import card_id
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of


def observation(r: Round) -> dict[str, np.ndarray]:
    """The observation dict of the player to move (as the environments build it)."""
    obs = np.zeros(obs_dim(r.rules), dtype=np.float32)
    game_of(r.rules).observation.encode_observation(r.state, r.to_move, r.rp, obs)
    mask = np.zeros(36, dtype=np.int8)
    for_game(r.spec.kind).action_mask(r.state, r.rp, mask)
    return {"observation": obs, "action_mask": mask}


def name(a: int) -> str:
    return Round("molotow", seed=0).spec.action_names[a]


@pytest.mark.parametrize("game", ["mittlere", "molotow", "molotow3", "molotow5", "molotow6"])
def test_registered_bots_play_whole_hands_legally(game: str) -> None:
    bots = [make_agent("heuristic", game, seed=1), make_agent("random", game, seed=2)]
    assert isinstance(bots[1], RandomAgent)
    for seed in range(6):
        r = Round(game, seed=seed)
        while not r.is_over:
            r.step(bots[r.to_move % 2].act(observation(r)))     # step() refuses an illegal card
        assert sum(r.points) == 157


def test_mittlere_roles_after_the_deal() -> None:
    strong = [card_id(c) for c in ("DA", "DK", "DQ", "HA", "HK", "SA", "SK", "CA", "D10", "D9", "D8", "D7")]
    weak = [card_id(c) for c in ("D6", "D7", "D8", "H6", "H7", "H8", "S6", "S7", "S8", "C6", "C7", "CJ")]
    assert MittlereHeuristic.role_of(strong) == "high" and MittlereHeuristic.role_of(weak) == "low"


def test_mittlere_high_role_fixes_its_strongest_suit_as_trump() -> None:
    """Player 2 (A A A, K K K, Q Q, J: a high-role hand) cannot follow the ♠ lead: he discards the
    ♥6, the lowest card of his strongest trump suit (♥J ♥9 ♥A ♥K ♥6), so hearts become trump."""
    hands = [["H7", "H8", "H10", "HQ", "D9", "DJ", "C6", "C7", "C8", "C9", "C10", "CJ"],
             ["S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "SA", "D6", "D7", "D8"],
             ["HJ", "H9", "HA", "HK", "H6", "DA", "DK", "DQ", "D10", "CA", "CK", "CQ"]]
    r = Round("mittlere", hands=hands, dealer=0)
    r.step("S6")
    bot = MittlereHeuristic("mittlere")
    assert name(bot.act(observation(r))) == "H6" and bot.role == "high"


def test_molotow_ducks_with_its_highest_losing_card_and_feeds_a_table_run() -> None:
    """On ♥A ♥7 ♥8 the last player holds ♥K ♥9 ♥6: every one loses; the ♥9 completes the table
    run ♥7-8-9 (20 for the ♥A's owner), so it goes before the higher ♥K. On ♥A ♥7 ♥Q (no run
    possible) the highest losing card, the ♥K."""
    hands = [["HK", "H9", "H6", "C6", "C7", "C8", "C9", "C10", "CJ"],      # player 0 (last)
             ["HA", "DA", "D6", "D7", "S6", "S7", "S8", "SA", "CQ"],
             ["H7", "DK", "DQ", "DJ", "D10", "S9", "S10", "SJ", "CK"],
             ["H8", "HQ", "HJ", "H10", "D9", "D8", "SQ", "SK", "CA"]]
    bot = MolotowHeuristic("molotow")
    for third, expected in (("H8", "H9"), ("HQ", "HK")):
        r = Round("molotow", hands=hands, dealer=0)
        for c in ("HA", "H7", third):
            r.step(c)
        assert name(bot.act(observation(r))) == expected
        run = bot.table_weis_with(card_id("H9"), decode(observation(r), r.rules))
        assert run == (20 if third == "H8" else 0)


def test_molotow_discards_into_a_suit_without_its_j_and_9() -> None:
    """Player 2 cannot follow the ♠ lead and no trump is fixed: he holds ♥J ♥9, and ♦ and ♣
    without J or 9; he fixes ♦ (the first of the two safe, equally short suits) with a card worth
    0 as trump, the ♦6."""
    hands = [["D10", "D9", "D8", "C9", "C10", "CJ", "CQ", "CK", "CA"],
             ["SA", "SK", "SQ", "SJ", "S10", "S9", "S8", "S7", "S6"],
             ["HJ", "H9", "H6", "D6", "D7", "DA", "C6", "C7", "C8"],
             ["HA", "HK", "HQ", "H10", "H8", "H7", "DK", "DQ", "DJ"]]
    r = Round("molotow", hands=hands, dealer=0)
    r.step("S6")
    assert name(MolotowHeuristic("molotow").act(observation(r))) == "D6"


def test_a_bot_refuses_another_game() -> None:
    with pytest.raises(ValueError, match="plays mittlere"):
        MittlereHeuristic("molotow")


@pytest.mark.parametrize("game", ["mittlere", "molotow"])
def test_seat_rotation_names_the_score_and_its_direction(game: str) -> None:
    res = evaluate_rotation("heuristic", "random", game, deals=3, seed=4, matches=0)
    s = res.summary
    assert s["score_name"] == "score" and s["higher_is_better"] == (game == "mittlere")
    assert s["exact_hits_A"] is None and s["players"] == (3 if game == "mittlere" else 4)
    a_vs_a = evaluate_rotation("random", "random", game, deals=2, seed=4)
    assert a_vs_a.summary["difference_A_minus_B"]["mean"] == 0.0     # the same agent: exactly 0


def test_evaluate_command_line_for_molotow(tmp_path) -> None:
    """Deals and one game (4 seat rotations of it): enough for every part of the report."""
    assert evaluate_main(["heuristic", "random", "--rules", "molotow", "--deals", "3", "--matches", "1",
                          "--seed", "2", "--out", str(tmp_path)]) == 0
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["rules"]["preset"] == "molotow" and s["deals"] == 3 and s["games"] == 4
    assert "mean score per round" in (tmp_path / "summary.md").read_text()
