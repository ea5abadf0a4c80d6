"""Bots for Sidi-Jass for two (agents/bots/sidi.py, docs/bots.md): the random bot, the heuristic and
PIMC play whole rounds legally; the heuristic's rules in chosen positions; PIMC's sampled worlds
agree with what the seat saw; the seat-rotation evaluation (each deal twice, seats swapped)."""

from __future__ import annotations

import numpy as np
import pytest
from test_sidi import ALL_TRICKS_H0, ALL_TRICKS_H1, ALL_TRICKS_STOCK, H0, H1, sidi_round

from agents.bots.sidi import SidiHeuristic, SidiPIMC, decode
from agents.evaluation.rotation import evaluate_rotation
from agents.random_bot import RandomAgent
from agents.registry import make_agent
from jass_env import Round
from jass_env.engine.cards import card_id, card_name
from jass_env.engine.state import StateView
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of

EXCHANGE = 36


def observation(r: Round) -> dict[str, np.ndarray]:
    """The observation dict of the player to move (as the environments build it)."""
    obs = np.zeros(obs_dim(r.rules), dtype=np.float32)
    game_of(r.rules).observation.encode_observation(r.state, r.to_move, r.rp, obs)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    for_game(r.spec.kind).action_mask(r.state, r.rp, mask)
    return {"observation": obs, "action_mask": mask}


def act(bot, r: Round) -> str:  # noqa: ANN001 (any agent)
    return r.spec.action_names[bot.act(observation(r))]


@pytest.mark.parametrize("spec", ["random", "heuristic", "pimc:worlds=4"])
def test_registered_bots_play_whole_rounds_legally(spec: str) -> None:
    bots = [make_agent(spec, "sidi", seed=1), make_agent("random", "sidi", seed=2)]
    assert isinstance(bots[1], RandomAgent)
    assert isinstance(make_agent("heuristic", "sidi"), SidiHeuristic)
    assert isinstance(make_agent("pimc", "sidi"), SidiPIMC)
    for seed in range(3):
        r = Round("sidi", seed=seed)
        while not r.is_over:
            r.step(bots[r.to_move].act(observation(r)))     # step() refuses an illegal action


def test_the_bots_exchange_the_trump_6_when_allowed() -> None:
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    assert act(SidiHeuristic(), r) == "exchange trump 6"
    assert act(SidiPIMC(worlds=2, seed=0), r) == "exchange trump 6"


def test_heuristic_keeps_trumps_and_wins_points_cheaply_while_the_stock_lasts() -> None:
    """Trump ♥. Player 1 leads his cheapest plain card (♣7 or ♠7: 0 points, not a trump); player
    0 wins a ♦K lead with the ♦A (the plain winner), and trumps nothing worth less than 10."""
    bot = SidiHeuristic()
    assert act(bot, sidi_round(H0, H1, face_up="H10")) in {"C7", "S7"}
    r = sidi_round(["DA", "D8", "S6", "S8", "C6", "C8", "D10", "S10"],
                   ["DK", "SA", "CA", "DQ", "HK", "H7", "C7", "S7"], face_up="H10")
    r.step("DK")
    assert act(bot, r) == "DA"
    r2 = sidi_round(["D6", "D8", "S6", "S8", "C6", "C8", "HJ", "H6"], H1, face_up="H10")
    r2.step("DK")                                    # 4 points: no trump for it, the cheapest plain card
    assert act(bot, r2) in {"D6", "D8", "S6", "S8", "C6", "C8"}
    r3 = sidi_round(["D6", "D8", "S6", "S8", "C6", "C8", "HJ", "H6"], H1, face_up="H10")
    r3.step("DA")                                    # 11 points: the cheapest trump takes it
    assert act(bot, r3) == "H6"


def test_pimc_worlds_agree_with_what_the_seat_saw() -> None:
    """After the exchange the opponent is known to hold the ♥A: every world gives it to him; my
    hand, the played cards and the stock's size are the real ones."""
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA")
    r.step("exchange trump 6")
    r.step("HK")                                     # player 0 to move
    bot = SidiPIMC(worlds=2, seed=3)
    t = decode(observation(r), bot.rules)
    assert t.known_opponent == 1 << card_id("HA") and t.stock_left == 20 and t.face_up == card_id("H6")
    for _ in range(5):
        w = StateView(bot._world(t), bot.rp)
        assert w.hands[0] == r.view.hands[0] and w.hands[1] >> card_id("HA") & 1
        assert bin(w.hands[1]).count("1") == 7 and w.trick == [card_id("HK")]
        assert (w.hands[0] | w.hands[1]) & (r.view.played[0] | r.view.played[1]) == 0
    assert act(bot, r) in {card_name(c) for c in r.legal_actions()}


def test_heuristic_beats_random_by_seat_rotation() -> None:
    res = evaluate_rotation("heuristic", "random", "sidi", deals=20, seed=5)
    assert len(res.deals) == 20 and all(len(d.penalties) == 2 for d in res.deals)   # seats swapped
    assert np.mean([d.diff for d in res.deals]) > 0
