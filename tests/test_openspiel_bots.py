"""Bots for the OpenSpiel games (agents/openspiel/bots.py): project agents as pyspiel bots, OpenSpiel's
IS-MCTS as the agent spec ``ismcts``, the C++ search bots refused; and the seat's history an agent
rebuilds from its observations alone (agents/openspiel/seat_history.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402

import agents.openspiel  # noqa: E402, F401  (registers the games)
from agents.base import Agent  # noqa: E402
from agents.evaluation.duplicate import evaluate_pair  # noqa: E402
from agents.evaluation.rotation import evaluate_rotation  # noqa: E402
from agents.openspiel.bots import AgentBot, BotError, ISMCTSAgent, check_bots, make_bot, play  # noqa: E402
from agents.openspiel.deal import round_of  # noqa: E402
from agents.openspiel.seat_history import SeatHistory  # noqa: E402
from agents.registry import AgentSpecError, make_agent  # noqa: E402
from agents.table import encode, observation  # noqa: E402
from jass_env import env  # noqa: E402
from jass_env.games import make_rules  # noqa: E402
from jass_env.round import Round  # noqa: E402


class Recorder(Agent):
    """Plays the lowest legal action and keeps every observation dict it was given."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[dict[str, np.ndarray]] = []
        self.resets = 0

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.resets += 1

    def act(self, obs: dict[str, np.ndarray]) -> int:
        self.seen.append(obs)
        return int(np.flatnonzero(obs["action_mask"])[0])


class Watching(AgentBot):
    """An AgentBot that also notes, at each of its steps, the seat's observation and mask as the
    project computes them from the state's round."""

    def step(self, state: pyspiel.State) -> int:
        rnd = state.round
        mask = np.zeros(rnd.spec.n_actions, dtype=np.int8)
        mask[rnd.legal_actions()] = 1
        self.truth = getattr(self, "truth", []) + [(encode(rnd, self.player), mask)]
        return super().step(state)


def test_project_agents_play_through_evaluate_bots() -> None:
    """A Schieber round through OpenSpiel's evaluate_bots with the project's agents: partners get
    their team's score, and each agent is given exactly its seat's observation and legal mask."""
    game = pyspiel.load_game("python_jass_schieber")
    recorder = Recorder()
    bots = [Watching(recorder, game, 0, seed=1)] + [make_bot(spec, game, p, seed=p) for p, spec in
                                                    enumerate(["heuristic", "pimc:worlds=2", "random"], 1)]
    returns = play(game, bots, np.random.default_rng(0))
    assert returns[0] == returns[2] and returns[1] == returns[3]
    assert returns[0] + returns[1] >= 157                         # every card point, Weis and bonus on top
    assert recorder.resets == 1 and len(recorder.seen) == len(bots[0].truth) >= 9
    for given, (obs, mask) in zip(recorder.seen, bots[0].truth, strict=True):
        assert set(given) == {"observation", "action_mask"}
        assert np.array_equal(given["observation"], obs) and np.array_equal(given["action_mask"], mask)


def test_agent_bots_act_only_for_their_seat() -> None:
    game = pyspiel.load_game("python_jass_molotow3")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    other = (state.current_player() + 1) % 3
    with pytest.raises(BotError, match=f"seat {other} was asked to act for player {state.current_player()}"):
        make_bot("random", game, other).step(state)
    with pytest.raises(BotError, match="player must be a seat 0..2"):
        make_bot("random", game, 3)
    with pytest.raises(BotError, match="played by 3 players; got 2 bots"):
        play(game, [make_bot("random", game, p) for p in range(2)], np.random.default_rng(0))


@pytest.mark.parametrize("name", ["mcts", "cpp_ismcts", "ismcts_cpp", "CPP_MCTS:foo=1"])
def test_cpp_search_bots_are_refused_by_name(name: str) -> None:
    game = pyspiel.load_game("python_jass_schieber")
    crash = r"C\+\+ MCTSBot and ISMCTSBot crash the interpreter.*'ismcts:simulations"
    with pytest.raises(BotError, match=crash):
        make_bot(name, game, 0)


def test_cpp_search_bots_are_refused_as_bots() -> None:
    """pyspiel.MCTSBot can be built on a Python game, but its first search crashes the
    interpreter: check_bots and play refuse it before that."""
    game = pyspiel.load_game("python_jass_molotow3")
    cpp = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, 100, False, 0, False)
    bots = [make_bot("random", game, 0), cpp, make_bot("random", game, 2)]
    with pytest.raises(BotError, match="the bot of seat 1: pyspiel.MCTSBot cannot play the Jass games"):
        check_bots(bots)
    with pytest.raises(BotError, match="pyspiel.MCTSBot cannot play"):
        play(game, bots, np.random.default_rng(0))


def test_ismcts_spec_is_checked() -> None:
    spec = "ismcts:simulations=7,uct_c=0.5,rollouts=2,worlds=3,final=max_value,seed=1"
    agent = make_agent(spec, "molotow3")
    assert isinstance(agent, ISMCTSAgent)
    chosen = (agent.simulations, agent.uct_c, agent.rollouts, agent.worlds, agent.final)
    assert chosen == (7, 0.5, 2, 3, "max_value")
    for bad, why in [("simulations=0", "positive integer"), ("uct_c=-1", "positive finite"),
                     ("uct_c=inf", "finite"), ("worlds=0", "positive integer"),
                     ("final=best", "max_visit_count, max_value"),
                     ("depth=3", "unknown parameter 'depth'")]:
        with pytest.raises(AgentSpecError, match=why):
            make_agent(f"ismcts:{bad}", "molotow3")
    with pytest.raises(ValueError, match="simulations must be an integer >= 1"):
        ISMCTSAgent("molotow3", simulations=0)


def test_ismcts_plays_whole_rounds_in_the_duplicate_evaluation() -> None:
    """The spec through the project's evaluation: two Schieber deals, each played twice; every
    action it took was legal (the evaluation raises otherwise) and the deal's result is counted."""
    res = evaluate_pair("ismcts:simulations=4", "random", rules="schieber", deals=2, seed=3)
    assert [r.deal for r in res.deals] == [0, 1]
    assert all(r.score_A_first + r.score_B_first >= 157 for r in res.deals)


def test_ismcts_plays_whole_rounds_of_a_game_played_alone() -> None:
    res = evaluate_rotation("ismcts:simulations=4", "heuristic", "molotow3", deals=2, seed=1, matches=0)
    assert res.summary["deals"] == 2


def test_ismcts_searches_from_its_seat_with_resampled_worlds() -> None:
    """At a decision the agent's search starts from a state in which its seat (player 0 there) sees
    what it was given, and the worlds it searches are resampled from that state."""
    rules = make_rules("molotow")
    rnd = Round(rules, seed=11)
    agent = ISMCTSAgent(rules, simulations=6, seed=2)
    agent.reset(seed=5)
    starts = []
    search = agent.bot.run_search
    agent.bot.run_search = lambda state: starts.append(state.clone()) or search(state)
    while rnd.to_move != 2:
        rnd.step(int(rnd.legal_actions()[0]))
    given = observation(rnd)
    agent.act(given)
    (start,) = starts
    assert start.current_player() == 0
    assert np.array_equal(np.asarray(start.observation_tensor(0), dtype=np.float32), given["observation"])
    world = start.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(0) == start.information_state_string(0)


@pytest.mark.parametrize("preset", ["schieber", "differenzler", "coiffeur", "mittlere", "molotow", "sidi"])
def test_a_seat_rebuilds_its_round_from_its_observations(preset: str) -> None:
    """Every seat of a random round, followed with its observations alone: at each of its decisions
    the rebuilt round shows it exactly the observation and legal actions it was given."""
    rules = make_rules(preset)
    rnd = Round(rules, seed=2)
    rng = np.random.default_rng(2)
    seats = [SeatHistory(rules, np.random.default_rng(p)) for p in range(rules.spec.players)]
    while not rnd.is_over:
        me = rnd.to_move
        given = observation(rnd)
        deal, actions = seats[me].observe(given["observation"], given["action_mask"])
        shadow = round_of(rules, deal)
        for a in actions:
            shadow.step(a)
        assert shadow.to_move == 0
        seen = observation(shadow)
        assert np.array_equal(seen["observation"], given["observation"])
        assert np.array_equal(seen["action_mask"], given["action_mask"])
        action = int(rng.choice(rnd.legal_actions()))
        seats[me].took(action)
        rnd.step(action)
    assert all(s.inexact == 0 for s in seats)


def test_a_seat_follows_a_match_round_by_round() -> None:
    """In a match no reset comes between rounds: when the seat holds all its cards again, its next
    decision starts a new round. Molotow for three, a game of 8 hands: every decision of every
    seat is rebuilt, the rounds after the first taken as new ones."""
    rules = make_rules("molotow3")
    e = env(rules="molotow3", episode="match")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    seats = [SeatHistory(rules, np.random.default_rng(p)) for p in range(3)]
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = seats[int(agent.split("_")[1])]
        seat.observe(obs["observation"], obs["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        seat.took(action)
        e.step(action)
    assert [s.new_rounds for s in seats] == [7, 7, 7]


def test_ismcts_plays_at_random_where_its_round_cannot_be_rebuilt() -> None:
    """Given first an observation in the middle of a round (it has played cards already), the agent
    cannot rebuild the round: it plays a legal action at random and counts it."""
    rnd = Round("molotow", seed=4)
    for _ in range(9):                                  # two tricks and one card
        rnd.step(int(rnd.legal_actions()[0]))
    agent = ISMCTSAgent("molotow", simulations=3, seed=0)
    given = observation(rnd)
    assert given["action_mask"][agent.act(given)] == 1
    assert agent.unsearched == 1
