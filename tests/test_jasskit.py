"""jass-kit interop (the optional jasskit extra): conventions, observations both ways, and our bots
playing in jass-kit's own Arena.

The expected values come from jass-kit itself (its constants, its GameSim, its rule, its Arena).
"""

from __future__ import annotations

import glob
import json

import numpy as np
import pytest

jass = pytest.importorskip("jass")

from jass.agents.agent_random_schieber import AgentRandomSchieber  # noqa: E402
from jass.arena.arena import Arena  # noqa: E402
from jass.game import const  # noqa: E402
from jass.game.game_observation import GameObservation  # noqa: E402
from jass.game.game_sim import GameSim  # noqa: E402
from jass.game.game_util import deal_random_hand  # noqa: E402
from jass.game.rule_schieber import RuleSchieber  # noqa: E402

from agents.jasskit import AgentActionError, AsJasskitAgent, FromJasskitAgent  # noqa: E402
from jass_env import Round, make_rules  # noqa: E402
from jass_env.engine.cards import CONTRACTS, card_name  # noqa: E402
from jass_env.games.schieber.jasskit_map import (  # noqa: E402
    PUSH,
    JasskitFormatError,
    action_from_jasskit_trump,
    jasskit_observation_json,
    position_from_jasskit,
    seat_from_jasskit,
    seat_to_jasskit,
)
from jass_env.games.schieber.seat_view import seat_position  # noqa: E402


# conventions
def test_seats_map_jasskit_play_order_to_ours():
    for p in range(4):
        # jass-kit's next player is our next seat; partners and teams stay partners and teams
        assert seat_from_jasskit(const.next_player[p]) == (seat_from_jasskit(p) + 1) % 4
        assert seat_from_jasskit(const.partner_player[p]) == (seat_from_jasskit(p) + 2) % 4
        assert seat_from_jasskit(p) % 2 == const.team[p]
        assert seat_to_jasskit(seat_from_jasskit(p)) == p


def test_cards_and_trumps_share_jasskit_numbers():
    assert [card_name(c) for c in range(36)] == list(const.card_strings)
    names = ("D", "H", "S", "C", "obenabe", "undenufe")
    assert [const.D, const.H, const.S, const.C, const.O, const.U] == [CONTRACTS.index(n) for n in names]
    assert PUSH == const.PUSH
    assert action_from_jasskit_trump(const.PUSH) == action_from_jasskit_trump(const.PUSH_ALT) == 42


# observations both ways
def _random_games(n_games: int, seed: int):
    """Yield (sim, observation) at every decision of jass-kit games played by its random agent."""
    np.random.seed(seed)
    rule = RuleSchieber()
    agent = AgentRandomSchieber()
    agent._rng = np.random.default_rng(seed)
    for g in range(n_games):
        sim = GameSim(rule=rule)
        sim.init_from_cards(hands=deal_random_hand(), dealer=g % 4)
        while sim.state.trump == -1:
            obs = sim.get_observation()
            yield sim, obs
            sim.action_trump(agent.action_trump(obs))
        while not sim.is_done():
            obs = sim.get_observation()
            yield sim, obs
            sim.action_play_card(agent.action_play_card(obs))


def test_position_from_a_jasskit_observation_round_trips_and_agrees_on_legal_cards():
    differ = 0
    rule = RuleSchieber()
    for _, obs in _random_games(60, seed=3):
        pos = position_from_jasskit(obs.to_json())
        assert GameObservation.from_json(jasskit_observation_json(pos)) == obs
        assert seat_to_jasskit(pos.seat) == obs.player
        mask = pos.action_mask()
        if obs.trump == -1:
            continue
        ours = set(np.flatnonzero(mask[:36]))
        theirs = set(np.flatnonzero(rule.get_valid_cards_from_obs(obs)))
        assert ours <= theirs
        if ours != theirs:
            # jass-kit's issue #10: only with two trumps in a plain-suit trick
            trick = [c for c in obs.current_trick if c >= 0]
            assert trick[0] // 9 != obs.trump
            assert sum(c // 9 == obs.trump for c in trick) >= 2
            differ += 1
    assert differ > 0          # these games do reach such tricks (5 of their decisions)


def test_a_bad_jasskit_observation_gets_a_clear_error():
    _, obs = next(_random_games(1, seed=1))
    data = obs.to_json()
    data["dealer"] = 7
    with pytest.raises(JasskitFormatError, match="dealer must be a jass-kit player 0..3"):
        position_from_jasskit(data)
    data = obs.to_json()
    data["player"][obs.player_view]["hand"] = ["XX"]
    with pytest.raises(JasskitFormatError, match="'XX' is not a jass-kit card"):
        position_from_jasskit(data)


# the Arena
def _arena_games(tmp_path, north_south, east_west, n_games: int, seed: int):
    np.random.seed(seed)
    arena = Arena(nr_games_to_play=n_games, save_filename=str(tmp_path / "arena"), print_every_x_games=1000)
    arena.set_players(north_south[0], east_west[0], north_south[1], east_west[1])
    arena.play_all_games()
    entries = [json.loads(line) for f in sorted(glob.glob(str(tmp_path / "arena*.txt")))
               for line in open(f)]
    return arena, entries


def _replay_points(game: dict) -> list[int]:
    """Replay a jass-kit logged game in our engine (hands from its tricks, our seats)."""
    tricks = [t for t in game["tricks"]]
    hands = [[] for _ in range(4)]
    for t in tricks:
        p = seat_from_jasskit(t["first"])
        for card in t["cards"]:
            hands[p].append(card)
            p = (p + 1) % 4
    r = Round("tournament", hands=hands, dealer=seat_from_jasskit(game["dealer"]))
    if game["forehand"] == 0:
        r.step("push")
    r.step(CONTRACTS[game["trump"]])
    for t in tricks:
        for card in t["cards"]:
            r.step(card)
    return r.points


@pytest.mark.filterwarnings("ignore:policy checkpoint")   # trained with Weis; jass-kit has none
def test_our_heuristic_and_policy_play_valid_cards_in_the_arena_and_score_as_our_engine(tmp_path):
    pytest.importorskip("torch")
    rules = make_rules("tournament")
    heuristic = [AsJasskitAgent("heuristic", rules, seed=s) for s in (1, 2)]
    policy = [AsJasskitAgent("policy", rules, seed=s) for s in (3, 4)]
    n_games = 8
    # the Arena asserts every card is valid by jass-kit's rule (check_move_validity)
    arena, entries = _arena_games(tmp_path, heuristic, policy, n_games, seed=5)
    assert arena.nr_games_played == n_games == len(entries)
    for g, entry in enumerate(entries):
        ours = _replay_points(entry["game"])
        assert [arena.points_team_0[g], arena.points_team_1[g]] == ours
        assert sum(ours) == 157


class _RecordingRandom(AgentRandomSchieber):
    """jass-kit's random agent, keeping the observations it was given."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self._rng = np.random.default_rng(seed)
        self.seen: list[GameObservation] = []

    def action_trump(self, obs):
        self.seen.append(obs)
        return super().action_trump(obs)

    def action_play_card(self, obs):
        self.seen.append(obs)
        return super().action_play_card(obs)


def test_a_jasskit_agent_plays_as_ours_and_sees_the_jasskit_observation_of_its_seat():
    rules = make_rules("tournament")
    jk = [_RecordingRandom(seed) for seed in range(4)]
    seats = [FromJasskitAgent(a, rules) for a in jk]
    refused = 0
    for seed in range(30):
        r = Round(rules, seed=seed)
        while not r.is_over:
            p = r.to_move
            history = [c for t in r.tricks for _, c in t["plays"]] + [c for _, c in r.current_trick]
            history = history if r.contract else []
            pos = seat_position(rules, p, r.hand(p), dealer=r.dealer, pushed=r.pushed, contract=r.contract,
                                plays=history)
            try:
                action = seats[p].act(pos.obs_dict())
            except AgentActionError:         # jass-kit's issue #10: an under-trump we forbid
                refused += 1
                obs = jk[p].seen[-1]
                trick = [c for c in obs.current_trick if c >= 0]
                assert sum(c // 9 == obs.trump for c in trick) >= 2
                action = int(r.legal_actions()[0])
            # what the jass-kit agent saw: the seat's jass-kit observation, the seat as its North
            truth = seat_position(rules, 0, r.hand(p), dealer=(r.dealer - p) % 4, pushed=r.pushed,
                                  contract=r.contract, plays=history)
            assert jk[p].seen[-1] == GameObservation.from_json(jasskit_observation_json(truth))
            r.step(action)
        assert sum(r.points) == 157
    assert refused > 0         # and the random agent does under-trump there (twice)


def test_without_jasskit_the_adapters_name_the_extra(monkeypatch):
    import importlib
    import sys

    from agents.extras import MissingExtraError
    monkeypatch.setitem(sys.modules, "jass", None)
    monkeypatch.delitem(sys.modules, "agents.jasskit", raising=False)
    for name in [m for m in sys.modules if m.startswith("jass.")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(MissingExtraError, match=r"needs jass.*'jasskit' extra.*jass-env\[jasskit\]"):
        importlib.import_module("agents.jasskit")


def test_a_jasskit_agent_that_missed_its_seat_s_earlier_decisions_says_so():
    rules = make_rules("tournament")
    r = Round(rules, seed=2)
    r.step("H")
    while r.trick_number < 2:
        r.step(int(r.legal_actions()[0]))
    p = r.to_move
    history = [c for t in r.tricks for _, c in t["plays"]] + [c for _, c in r.current_trick]
    pos = seat_position(rules, p, r.hand(p), dealer=r.dealer, contract="H", plays=history)
    with pytest.raises(JasskitFormatError, match="needs every decision of its seat.*trick 3"):
        FromJasskitAgent(AgentRandomSchieber(), rules).act(pos.obs_dict())
