"""The project's OpenSpiel games: load one, play a round, look at what a seat sees, use OpenSpiel's tools.

    pip install -e ".[openspiel]"
    python examples/openspiel_games.py --rules differenzler --seed 3
    python examples/openspiel_games.py --rules schieber --rounds 20

Importing :mod:`agents.openspiel` registers every preset as ``python_jass_<preset>`` and the
parametrized ``python_jass(rules=<preset>)``. The example plays one round with random moves and
prints the deal's chance nodes, the text a seat is shown and the returns; then it checks that the
observation tensor is the AEC environment's observation, draws a world the player to move cannot
tell from the real one (``resample_from_infostate``) and plays ``--rounds`` rounds through
OpenSpiel's ``rl_environment`` with its random agents.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent

import agents.openspiel  # noqa: F401  (registers the games)
from agents.openspiel.deal import deal_of, outcomes_of
from jass_env.envs.aec import raw_env
from jass_env.games import PRESETS
from jass_env.round import Round


def play_one_round(preset: str, seed: int) -> pyspiel.State:
    """A round of ``python_jass_<preset>`` with random chance outcomes and moves from ``seed``;
    prints the chance nodes' sizes, the first mover's view and the returns."""
    game = pyspiel.load_game(f"python_jass_{preset}")
    print(f"{game}: {game.num_players()} players, {game.num_distinct_actions()} actions, at most "
          f"{game.max_game_length()} moves, utility {game.min_utility():g} .. {game.max_utility():g} "
          f"({game.get_type().utility.name})")
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    chance_sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        chance_sizes.append(len(outcomes))
        state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
    print(f"the deal: {len(chance_sizes)} chance nodes of {chance_sizes[0]}, {chance_sizes[1]}, ... "
          f"{chance_sizes[-1]} equally likely outcomes")
    player = state.current_player()
    print(f"\nwhat player_{player} sees:\n{state.observation_string(player)}\n")
    resampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(player) == state.information_state_string(player)
    print(f"a world player_{player} cannot tell from this one deals the others "
          f"{' '.join(resampled.round.hand((player + 1) % game.num_players()))} instead of "
          f"{' '.join(state.round.hand((player + 1) % game.num_players()))}")
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    print(f"returns (each player's side's round score, negated where a lower score wins): {state.returns()}")
    return state


def same_as_the_aec_env(preset: str, seed: int) -> None:
    """The AEC environment's round of ``seed``, replayed in OpenSpiel: the seat to move sees the
    same observation at every move."""
    env = raw_env(rules=preset)
    env.reset(seed=seed)
    deal = deal_of(Round(env.rules, state=env.core_state.copy()))
    state = pyspiel.load_game(f"python_jass_{preset}").new_initial_state()
    for outcome in outcomes_of(env.rules, deal):
        state.apply_action(outcome)
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        seen = env.observe(f"player_{player}")["observation"]
        assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32), seen)
        action = state.legal_actions()[0]
        state.apply_action(action)
        env.step(action)
        moves += 1
    print(f"the AEC environment's round {seed}: the same observations at all {moves} moves")


def rl_environment_rounds(preset: str, rounds: int, seed: int) -> None:
    """``rounds`` rounds through OpenSpiel's rl_environment with its random agents."""
    env = rl_environment.Environment(f"python_jass_{preset}",
                                     chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    n, n_actions = env.num_players, env.action_spec()["num_actions"]
    np.random.seed(seed)           # OpenSpiel's RandomAgent draws from numpy's global generator
    players = [random_agent.RandomAgent(player_id=p, num_actions=n_actions) for p in range(n)]
    totals = np.zeros(n)
    for _ in range(rounds):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            step = env.step([players[p].step(step).action])
        totals += step.rewards
    print(f"rl_environment, {rounds} rounds of random agents: mean return per player "
          f"{np.round(totals / rounds, 1).tolist()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="schieber", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=5, help="rounds through rl_environment")
    args = parser.parse_args(argv)
    play_one_round(args.rules, args.seed)
    same_as_the_aec_env(args.rules, args.seed)
    rl_environment_rounds(args.rules, args.rounds, args.seed)


if __name__ == "__main__":
    main()
