"""Bots in Schieber for six: the random bot, the Schieber heuristic, PIMC and the policy-guided
search read the six-seat observation (team-mates two and four seats on, opponents one, three and
five), play legally and are evaluated on duplicate deals with teams of three.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import deal

from agents.bots.schieber import HeuristicAgent, PIMCAgent, SeatView
from agents.evaluation.deals import make_deal
from agents.evaluation.duplicate import evaluate_pair, seating
from agents.random_bot import RandomAgent
from agents.registry import make_agent
from jass_env import Round
from jass_env.engine.cards import card_id
from jass_env.engine.transitions import for_game
from jass_env.envs import encoding
from jass_env.games.schieber.observation import encode_observation

GAME = "schieber6"
PLAYERS = 6


def obs_for(r: Round) -> dict[str, np.ndarray]:
    """The observation dict of the player to move."""
    o = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    m = np.zeros(r.spec.n_actions, dtype=np.int8)
    encode_observation(r.state, r.to_move, r.rp, o)
    for_game(r.spec.kind).action_mask(r.state, r.rp, m)
    return {"observation": o, "action_mask": m}


@pytest.mark.parametrize("spec", ["random", "heuristic", "pimc:worlds=2", "pimc:worlds=2,rollout=random",
                                  "search:worlds=2,candidates=3",
                                  "search:worlds=2,oversample=2,contract=search,rollout=random"])
def test_every_bot_plays_legally(spec: str) -> None:
    bot = make_agent(spec, GAME, seed=1)
    for seed in range(3 if spec.startswith(("pimc", "search")) else 12):
        r = Round(GAME, seed=seed)
        while not r.is_over:
            obs = obs_for(r)
            a = bot.act(obs)
            assert obs["action_mask"][a] == 1, (spec, seed, a)
            r.step(a)


def test_the_seat_view_has_six_seats() -> None:
    r = Round(GAME, seed=3, dealer=5)
    for a in ("H", "H6" if "H6" in r.hand(0) else r.hand(0)[0]):
        r.step(a)
    v = SeatView.from_obs(obs_for(r), players=PLAYERS)
    assert len(v.played) == PLAYERS and v.played[5] != 0 and v.trick_leader == 5
    assert v.hand_size(5) == 5 and v.hand_size(0) == 6 and bin(v.unseen).count("1") == 36 - 6 - 1


def test_the_heuristic_smears_to_a_team_mate_four_seats_on() -> None:
    """♥ trump, forehand 0 leads ♠6; player 3 wins with the ♠A, and player 5 (his team-mate, last to
    play) smears his ♠10 instead of trumping."""
    hands = deal({0: ["S6"], 1: ["S7"], 2: ["S8"], 3: ["SA"], 4: ["S9"], 5: ["S10", "SQ", "H6"]},
                 players=PLAYERS, hand_size=6)
    r = Round(GAME, hands=hands, dealer=5)
    for a in ("H", "S6", "S7", "S8", "SA", "S9"):
        r.step(a)
    assert r.to_move == 5
    assert HeuristicAgent(GAME).act(obs_for(r)) == card_id("S10")


def test_the_heuristic_trumps_an_opponents_trick_as_last_player() -> None:
    """♥ trump, forehand 0 leads ♠6; player 2 wins with the ♠A, and player 5 (an opponent of
    player 2, last to play) takes the 11-point trick with his cheapest winner, the trump ♥6."""
    hands = deal({0: ["S6"], 1: ["S7"], 2: ["SA"], 3: ["S8"], 4: ["S9"], 5: ["S10", "SQ", "H6"]},
                 players=PLAYERS, hand_size=6)
    r = Round(GAME, hands=hands, dealer=5)
    for a in ("H", "S6", "S7", "SA", "S8", "S9"):
        r.step(a)
    assert HeuristicAgent(GAME).act(obs_for(r)) == card_id("H6")


def test_pimc_is_deterministic_given_the_seed() -> None:
    def play(seed: int) -> list[int]:
        bot = PIMCAgent(GAME, worlds=3, seed=seed)
        r = Round(GAME, seed=11)
        out = []
        while not r.is_over:
            a = bot.act(obs_for(r))
            out.append(a)
            r.step(a)
        return out
    assert play(4) == play(4)


def test_duplicate_deals_seat_teams_of_three() -> None:
    a, b = ["a0", "a1", "a2"], ["b0", "b1", "b2"]
    assert seating(a, b, 0, PLAYERS) == ["a0", "b0", "a1", "b1", "a2", "b2"]
    assert seating(a, b, 1, PLAYERS) == ["b0", "a0", "b1", "a1", "b2", "a2"]
    d = make_deal(7, 3, GAME)
    assert len(d.hands) == PLAYERS and all(bin(h).count("1") == 6 for h in d.hands) and d.dealer == 3
    res = evaluate_pair("heuristic", lambda: RandomAgent(seed=3), GAME, deals=4, seed=2)
    assert len(res.deals) == 4 and res.summary["deals"] == 4
