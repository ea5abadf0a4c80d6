"""Train one shared policy for all four seats with RLlib's PPO (new API stack, action masking).

For users who outgrow one machine: the same script runs on a laptop (Ray started locally) and,
unchanged, on a Ray cluster (``--address auto`` or the ``RAY_ADDRESS`` environment variable),
with as many parallel env runners as ``--num-env-runners`` asks for.

Install the optional extra (Ray pins its own gymnasium, so a separate virtual environment is the
simplest; ``.ci/rllib`` builds one)::

    pip install torch==2.13.0 -e ".[rllib]"
    python examples/rllib_ppo.py --iterations 20 --num-env-runners 2 --checkpoint-dir runs/rllib

What it wires together
    * :class:`JassMultiAgentEnv`: a thin, turn-based RLlib ``MultiAgentEnv`` around the PettingZoo
      AEC environment (:class:`jass_env.envs.aec.raw_env`). Only the agent to move appears in the
      observation dict. It renames the observation keys to the ones RLlib's
      ``ActionMaskingTorchRLModule`` expects: ``{"observations": float32[OBS_DIM],
      "action_mask": float32[43]}`` (ours are ``"observation"`` and an int8 mask). Rewards of every
      step (all four seats, :mod:`jass_env.envs.rewards`) are held back per seat and handed to a seat
      with its next observation, or with the final observations when the round ends, so each
      seat's return is exactly its reward sum.
    * Random opponents (``--random-opponents F``, env config ``random_opponents``; default 0:
      pure self-play): at each reset the env draws, from its own generator (seeded by the reset's
      seed), whether the round has random opponents (probability ``F``) and which team learns
      (1/2 each). The other team's seats are then played inside the env by the project's random
      bot (:func:`agents.random_bot.random_actions`), so RLlib sees, and counts as env steps, only
      the learning team's turns; the tricks the random seats close reach the learning seats'
      held-back rewards like any other step's.
    * One RLModule ``"shared"``: ``policy_mapping_fn`` maps all four seats to it (self-play with
      parameter sharing). The module is RLlib's ``ActionMaskingTorchRLModule`` (PPO), which adds
      ``log(mask)`` (clamped) to the logits, so illegal actions get probability 0.
    * :class:`TeamReturnCallback`: the game is zero-sum between the teams, so RLlib's
      ``episode_return_mean`` (the sum over all seats) is always 0. The callback logs
      ``team_0_return`` (the return of each partner of team 0: seats 0 and 2 get the same reward)
      and ``seat_<i>_return`` per seat as env-runner metrics of the self-play rounds, and
      ``vs_random_return``, the learning team's return in the rounds against the random bot.

Printed per iteration: team-0 mean return, per-seat mean returns, the return against random
(reward ``points``: (own team's round score - opponents') / 157; ``win``: +1/-1/0) and env
steps/s (sampling and learning together, i.e. env steps sampled this iteration / wall time of the
iteration). ``--lr-schedule linear`` lets the learning rate fall from ``--lr`` to 0 over
``--iterations`` x ``--train-batch-size`` env steps.

At the end of a run the checkpoint it wrote is reloaded and played greedily against ``random`` on
``--eval-deals`` duplicate deals (:func:`agents.evaluation.duplicate.evaluate_pair`); the points per hand with
their 95 % interval are the strength figure (the self-play returns above stay near 0 by design).

On a Ray cluster (docs/integrations.md, "On a Ray cluster", has the commands) every node
that hosts env runners must import this package and its engine's dependencies (numba, gymnasium,
pettingzoo): submit with ``ray job submit --working-dir .`` from the repository root, which ships
the source to every node, or install the project on every node. Before building the algorithm the
script checks each node (:func:`check_nodes_can_import`) and stops with the fix when one cannot.
Run as a job, ``--checkpoint-dir`` must be absolute: a relative one would land in the job's
temporary copy of the working dir. The driver hosts the learner and runs torch at
``--torch-threads`` (default 1), as do the env runners.

Reload a trained policy with :func:`load_shared_module` and pick actions with
:func:`greedy_action`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

try:
    import gymnasium as gym
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
except ImportError as exc:  # the optional extra is missing
    if __name__ == "__main__":
        sys.exit(f"error: {exc.name} is not installed; RLlib support is an optional extra: "
                 "pip install torch==2.13.0 -e '.[rllib]' (see docs/integrations.md, section RLlib)")
    raise

from agents.base import Agent, Observation
from agents.evaluation.duplicate import evaluate_pair
from agents.random_bot import check_random_opponents, draw_random_team, random_actions
from jass_env.envs.aec import raw_env
from jass_env.games import PRESETS, make_rules
from jass_env.games.schieber.rules import N_ACTIONS

#: the AEC env's agents in Schieber (four seats, teams 0 & 2 against 1 & 3)
AGENTS = tuple(f"player_{p}" for p in range(4))

#: name under which the environment is registered with Ray (``config.environment(ENV_NAME)``)
ENV_NAME = "jass_rllib_v0"
#: id of the one RLModule every seat plays with
MODULE_ID = "shared"
#: env-runner metric keys logged by :class:`TeamReturnCallback`
TEAM_0_RETURN = "team_0_return"
SEAT_RETURNS = tuple(f"seat_{i}_return" for i in range(4))
VS_RANDOM_RETURN = "vs_random_return"
#: what every node that hosts env runners must import: this project and its engine's dependencies
RUNNER_IMPORTS = ("jass_env", "numba", "gymnasium", "pettingzoo")
#: seconds to wait for each node's import check (a node may first unpack the job's working dir)
NODE_CHECK_TIMEOUT_S = 120.0
#: env steps of the longest Schieber round: a trump choice, maybe a push, 36 cards
ROUND_STEPS = 38
#: the opponent of the strength figure at the end of a run (an agent spec of agents.registry)
EVAL_OPPONENT = "random"


# environment
class JassMultiAgentEnv(MultiAgentEnv):
    """Turn-based RLlib multi-agent view of :class:`jass_env.envs.aec.raw_env`.

    ``config`` (RLlib's ``env_config``) takes the keywords of ``raw_env``: ``rules`` (preset name),
    ``rule_overrides`` (dict), ``episode`` ("round" or "match"), ``reward`` ("points", "win",
    "tricks"); unknown keys raise TypeError naming the valid ones.

    Observations: ``{agent_to_move: {"observations": float32[OBS_DIM], "action_mask":
    float32[43]}}``; when the episode ends, the final observations of all four seats (their masks
    are all zero) with ``terminateds`` True for all. Rewards: each seat's rewards since its last
    observation, delivered with its next observation (zero-sum between the teams).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.random_opponents = check_random_opponents(float(config.pop("random_opponents", 0.0)))
        self.aec = raw_env(**config)
        if self.random_opponents and self.aec.rules.spec.team_mode != "pairs":
            raise ValueError(f"random_opponents is for the two-team games of four seats; the "
                             f"{self.aec.rules.spec.name} rules have no teams to play against")
        self.rng = np.random.default_rng()
        self.random_seats: frozenset[str] = frozenset()
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        inner = self.aec.observation_space(AGENTS[0])["observation"]
        space = gym.spaces.Dict({
            "observations": inner,
            "action_mask": gym.spaces.Box(0.0, 1.0, (N_ACTIONS,), np.float32),
        })
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = {a: self.aec.action_space(a) for a in AGENTS}
        self._pending = dict.fromkeys(AGENTS, 0.0)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        o = self.aec.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.aec.reset(seed=seed, options=options)
        self._pending = dict.fromkeys(AGENTS, 0.0)
        self.random_seats = draw_random_team(self.rng, self.random_opponents, AGENTS)
        self._play_random_seats()
        agent = self.aec.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.aec.agent_selection
        if agent not in action_dict:
            raise ValueError(f"{agent} is to move, but the action dict holds actions for "
                             f"{sorted(action_dict)}; give exactly one action, for {agent}")
        self._step_aec(int(action_dict[agent]))   # raises IllegalActionError naming the legal actions
        self._play_random_seats()
        if all(self.aec.terminations.values()):
            learners = [a for a in AGENTS if a not in self.random_seats]
            obs = {a: self._observe(a) for a in learners}
            rewards = {a: self._pending[a] for a in learners}
            self._pending = dict.fromkeys(AGENTS, 0.0)
            terminateds = dict.fromkeys(learners, True)
            terminateds["__all__"] = True
            return obs, rewards, terminateds, {"__all__": False}, {}
        nxt = self.aec.agent_selection
        reward = self._pending[nxt]
        self._pending[nxt] = 0.0
        return ({nxt: self._observe(nxt)}, {nxt: reward}, {"__all__": False}, {"__all__": False}, {})

    def _step_aec(self, action: int) -> None:
        """One AEC step; every seat's reward of it is added to what the seat is owed."""
        self.aec.step(action)
        for a, r in self.aec.rewards.items():
            self._pending[a] += r

    def _play_random_seats(self) -> None:
        """Let the random bot play the random seats' turns until a learning seat is to move or the
        round is over (their rewards accumulate for the learning seats like any other step's)."""
        while (self.aec.agent_selection in self.random_seats
               and not all(self.aec.terminations.values())):
            o = self.aec.observe(self.aec.agent_selection)
            action = random_actions(o["observation"][None], o["action_mask"][None], self.aec.rules,
                                    self.rng)[0]
            self._step_aec(int(action))


# metrics
class TeamReturnCallback(RLlibCallback):
    """Logs per-team and per-seat episode returns (the all-seat sum is 0 in this zero-sum game).

    Metrics (env-runner results, mean over the last 100 episodes of each env runner). Self-play
    rounds: ``team_0_return``, team 0's return, i.e. the mean of seats 0 and 2, which get the same
    reward (team 1's is its negative); ``seat_0_return`` … ``seat_3_return``. Rounds against the
    random bot (``random_opponents``; only the learning team's two seats act in the episode):
    ``vs_random_return``, the learning team's return, the figure that shows learning.
    """

    def on_episode_end(self, *, episode: Any, prev_episode_chunks: list | None = None,
                       metrics_logger: Any = None, **kwargs: Any) -> None:
        returns: dict[str, float] = {}
        for chunk in [*(prev_episode_chunks or []), episode]:
            for aid, sa_episode in chunk.agent_episodes.items():
                returns[aid] = returns.get(aid, 0.0) + float(sa_episode.get_return())
        if len(returns) < len(AGENTS):               # one team against the random bot
            metrics_logger.log_value(VS_RANDOM_RETURN, float(np.mean(list(returns.values()))),
                                     reduce="mean", window=100)
            return
        seats = [returns[a] for a in AGENTS]
        team_0 = 0.5 * (seats[0] + seats[2])         # partners get the same reward: the team's
        metrics_logger.log_value(TEAM_0_RETURN, team_0, reduce="mean", window=100)
        for key, value in zip(SEAT_RETURNS, seats):
            metrics_logger.log_value(key, value, reduce="mean", window=100)


# config
def _make_env(config: dict[str, Any]) -> JassMultiAgentEnv:
    return JassMultiAgentEnv(dict(config))


def _map_to_shared(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """policy_mapping_fn: every seat plays with the one shared module."""
    return MODULE_ID


def build_config(*, rules: str = "schieber", reward: str = "points", episode: str = "round",
                 num_env_runners: int = 2, num_envs_per_env_runner: int = 8,
                 train_batch_size: int = 4000, minibatch_size: int = 256,
                 num_epochs: int = 4, lr: float = 3e-4, lr_decay_steps: int = 0,
                 hiddens: Sequence[int] = (256, 256), random_opponents: float = 0.0,
                 seed: int | None = None) -> PPOConfig:
    """The PPO configuration (new API stack, torch): one shared masked module for all four seats.

    ``train_batch_size`` and ``minibatch_size`` count env steps (one action of one seat each).
    ``lr_decay_steps`` > 0: the learning rate falls linearly from ``lr`` to 0 over that many env
    steps (RLlib's piecewise schedule); 0 keeps it constant. ``random_opponents``: the share of
    rounds (0 to 1) in which the random bot plays one team inside the env (:class:`JassMultiAgentEnv`).
    Each env runner steps ``num_envs_per_env_runner`` games at once (one batched forward pass per
    step). Sampling is cut into fragments of at most 250 steps per game: RLlib 2.60 converts every
    finished episode of a ``sample()`` call to numpy again after each step, so long fragments cost
    time quadratic in their length (measured: 67 env steps/s with one game and 4000-step
    fragments, 346 with 8 games and 250-step fragments, on 2 loaded cores).
    """
    register_env(ENV_NAME, _make_env)
    fragment = min(250, -(-train_batch_size // (max(num_env_runners, 1) * num_envs_per_env_runner)))
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .framework("torch")
        # RLlib's env pre-check steps with unmasked random actions, which are mostly illegal here
        .environment(ENV_NAME, env_config={"rules": rules, "reward": reward, "episode": episode,
                                           "random_opponents": random_opponents},
                     disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_cpus_per_env_runner=1,
                     num_envs_per_env_runner=num_envs_per_env_runner, rollout_fragment_length=fragment)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=_map_to_shared)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            MODULE_ID: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={
                "fcnet_hiddens": list(hiddens), "fcnet_activation": "relu",
                "head_fcnet_hiddens": [], "vf_share_layers": False})}))
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=[[0, lr], [lr_decay_steps, 0.0]] if lr_decay_steps else lr,
                  gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .callbacks(TeamReturnCallback)
        .debugging(seed=seed)
    )


class ClusterSetupError(RuntimeError):
    """The Ray cluster cannot run this script as set up; the message says what to change."""


#: what to do when a cluster refuses the connection (Ray >= 2.52 token authentication)
AUTH_HINT = ("if the cluster uses Ray's token authentication (RAY_AUTH_MODE=token on its nodes), "
             "set RAY_AUTH_MODE=token here too, with the cluster's token in RAY_AUTH_TOKEN, in the file "
             "RAY_AUTH_TOKEN_PATH names, or in ~/.ray/auth_token (`ray get-auth-token` on the head "
             "prints it); Ray sends the token on its own only for --address auto")


def init_ray(address: str | None, num_cpus: int | None = None) -> None:
    """Connect to the Ray cluster at ``address`` ("auto" or "HOST:PORT" / "ray://HOST:10001"), or
    start a local Ray (``None`` or "local", ``num_cpus`` CPUs, no dashboard). Raises
    ClusterSetupError, with the token-authentication settings to check, when the cluster cannot be
    reached."""
    if ray.is_initialized():
        return
    if address in (None, "", "local"):
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        return
    try:
        ray.init(address=address, log_to_driver=False)
    except (ConnectionError, ray.exceptions.AuthenticationError) as exc:
        raise ClusterSetupError(f"cannot connect to the Ray cluster at {address!r} ({exc}); "
                                f"{AUTH_HINT}") from None


def _node_imports(modules: Sequence[str]) -> tuple[str, str, list[str]]:
    """On one Ray node: (its IP, the Python that runs Ray's workers there, the names in
    ``modules`` that Python cannot import). Needs nothing but the standard library and Ray, so it
    runs where this project is missing."""
    return (ray.util.get_node_ip_address(), sys.executable,
            [m for m in modules if importlib.util.find_spec(m) is None])


def check_nodes_can_import(modules: Sequence[str] = RUNNER_IMPORTS,
                           timeout_s: float = NODE_CHECK_TIMEOUT_S) -> list[str]:
    """Check that every alive node with a CPU (where env runners can go) imports ``modules``.

    Runs one zero-CPU task pinned to each such node, in the job's runtime environment (with
    ``ray job submit --working-dir .`` that includes the shipped source). Without this check a
    node lacking the project fails inside RLlib with ``IndexError: list index out of range``.
    Returns the IPs of the nodes checked; raises ClusterSetupError naming each node that cannot
    import one of them and the two ways to fix it.
    """
    probe = ray.remote(num_cpus=0, max_retries=0)(_node_imports)
    nodes = [n for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU", 0) >= 1]
    refs = [(n["NodeManagerAddress"], probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        n["NodeID"], soft=False)).remote(tuple(modules))) for n in nodes]
    checked, problems = [], []
    for ip, ref in refs:
        try:
            ip, python, missing = ray.get(ref, timeout=timeout_s)
        except ray.exceptions.RayError as exc:
            problems.append(f"node {ip}: the check failed: {str(exc).strip().splitlines()[-1]}")
            continue
        checked.append(ip)
        if missing:
            problems.append(f"node {ip} ({python}) cannot import {', '.join(missing)}")
    if problems:
        raise ClusterSetupError(
            "; ".join(problems) + ". Every node that hosts env runners needs this project and its "
            "dependencies: submit from the repository root with `ray job submit --working-dir . -- "
            "python examples/rllib_ppo.py ...` (ships the source to every node; numba, gymnasium "
            "and pettingzoo must be installed there, e.g. with --runtime-env-json '{\"pip\": "
            "[\"numba>=0.59\", \"pettingzoo>=1.24\"]}'), or install the project on every node "
            "(pip install torch==2.13.0 -e \".[rllib]\")")
    return checked


def checkpoint_folder(path: str | os.PathLike) -> Path:
    """``path`` as an absolute folder on the driver. Raises ClusterSetupError for a relative path
    in a job whose runtime environment has a ``working_dir`` (``ray job submit --working-dir``):
    the job runs in Ray's temporary copy of that folder, where a checkpoint would be lost."""
    if not Path(path).is_absolute() and ray.is_initialized():
        working_dir = ray.get_runtime_context().runtime_env.get("working_dir")
        if working_dir:
            raise ClusterSetupError(
                f"{str(path)!r} is a relative path, and this job runs in Ray's temporary copy of its "
                f"working dir ({working_dir}), which Ray deletes; give --checkpoint-dir and "
                f"--restore as absolute paths on the node that runs the driver (the head for ray "
                f"job submit), or on storage every node shares")
    return Path(path).resolve()


def set_torch_threads(algo: Any, threads: int) -> list[int]:
    """Run torch at ``threads`` intra-op threads in this process (the driver, which hosts the
    learner) and in every remote env runner; returns the thread counts then in force, driver
    first. More threads than cores starve the env runners (2 driver threads on a busy 2-core
    node: ~100 env steps/s instead of ~1,000)."""
    def apply(_runner: Any = None) -> int:
        torch.set_num_threads(threads)
        return torch.get_num_threads()

    return [apply(), *algo.env_runner_group.foreach_env_runner(apply, local_env_runner=False)]


# results
def summarize(result: dict[str, Any]) -> dict[str, float]:
    """Iteration summary: ``team_0_return``, ``seat_<i>_return``, ``vs_random_return`` (NaN before
    the first finished episode of its kind), ``env_steps`` (sampled this iteration),
    ``env_steps_per_s`` (sampled env steps / wall time of the iteration, sampling + learning)."""
    runners = result.get("env_runners", {})
    out = {k: float(runners.get(k, float("nan"))) for k in (TEAM_0_RETURN, *SEAT_RETURNS, VS_RANDOM_RETURN)}
    steps = float(np.nan_to_num(runners.get("num_env_steps_sampled", 0.0)))
    seconds = float(result.get("time_this_iter_s", 0.0))
    out["env_steps"] = steps
    out["env_steps_per_s"] = steps / seconds if seconds > 0 else float("nan")
    return out


def module_path(checkpoint_dir: str | os.PathLike) -> Path:
    """Folder of the shared RLModule inside an Algorithm checkpoint."""
    return (Path(checkpoint_dir) / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE
            / MODULE_ID)


def load_shared_module(checkpoint_dir: str | os.PathLike) -> RLModule:
    """The trained shared module from an Algorithm checkpoint written by this script (no Ray
    cluster needed). Raises FileNotFoundError naming the expected folder."""
    path = module_path(checkpoint_dir)
    if not path.is_dir():
        raise FileNotFoundError(f"no RLlib module checkpoint at {path}; expected the folder that "
                                f"Algorithm.save_to_path() writes (--checkpoint-dir of this script)")
    return RLModule.from_checkpoint(path)


def greedy_action(module: RLModule, obs: dict[str, np.ndarray]) -> int:
    """The most likely legal action of ``module`` for one observation of
    :class:`JassMultiAgentEnv` (``{"observations": float32[OBS_DIM], "action_mask": float32[43]}``)."""
    batch = {Columns.OBS: {"observations": torch.as_tensor(obs["observations"])[None],
                           "action_mask": torch.as_tensor(obs["action_mask"])[None]}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(torch.argmax(logits[0]).item())


class RLlibPolicyAgent(Agent):
    """An :class:`agents.base.Agent` that plays :func:`greedy_action` of a trained shared module, for
    :mod:`agents.evaluation` (its observation ``{"observation", "action_mask"}`` is encoded as the
    env's; only the key names and the mask's dtype differ)."""

    def __init__(self, module: RLModule, name: str = "rllib-ppo") -> None:
        super().__init__()
        self.module = module
        self.name = name

    def act(self, obs: Observation) -> int:
        return greedy_action(self.module, {
            "observations": np.asarray(obs["observation"], dtype=np.float32),
            "action_mask": np.asarray(obs["action_mask"], dtype=np.float32)})


def evaluate_vs_random(module: RLModule, rules: str, deals: int, seed: int = 0) -> dict[str, Any]:
    """Duplicate evaluation (:func:`agents.evaluation.duplicate.evaluate_pair`) of ``module`` (greedy, both
    seats of its team) against :data:`EVAL_OPPONENT` on ``deals`` deals of deal set ``seed``;
    returns the evaluation summary (``points_per_hand``, ``ci95``, ``share_of_deals_won``, ...)."""
    return evaluate_pair(RLlibPolicyAgent(module), EVAL_OPPONENT, rules=rules, deals=deals,
                         seed=seed).summary


def strength_line(summary: dict[str, Any]) -> str:
    """One line: points per hand against the opponent with the 95 % interval."""
    low, high = summary["ci95"]
    return (f"strength: {summary['points_per_hand']:+.1f} points per hand [{low:+.1f}, {high:+.1f}] "
            f"(95 % CI) vs {summary['agents']['B']} on {summary['deals']} duplicate deals (deal set "
            f"{summary['seed']}); deals won {summary['share_of_deals_won']:.3f}, evaluated in "
            f"{summary['elapsed_seconds']:.0f} s")


# CLI
def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--iterations", type=_positive, default=10, help="training iterations")
    p.add_argument("--max-minutes", type=float, default=0.0,
                   help="stop after the iteration that passes this much training time (0: no limit)")
    p.add_argument("--num-env-runners", type=_non_negative, default=2,
                   help="parallel sampling workers (1 CPU each); 0 samples in the driver process")
    p.add_argument("--address", default=os.environ.get("RAY_ADDRESS") or "local",
                   help="Ray cluster: 'auto', HOST:PORT or ray://HOST:10001; 'local' starts Ray here "
                        "(default: $RAY_ADDRESS, else local)")
    p.add_argument("--num-envs-per-runner", type=_positive, default=8,
                   help="games each env runner steps at once (batched forward passes)")
    p.add_argument("--num-cpus", type=_positive, default=None,
                   help="CPUs of a local Ray (default: all); ignored on a cluster")
    p.add_argument("--checkpoint-dir", default="runs/rllib_ppo",
                   help="where the Algorithm checkpoint is written (after the last iteration and every "
                        "--checkpoint-every iterations)")
    p.add_argument("--checkpoint-every", type=_non_negative, default=0, help="0: only at the end")
    p.add_argument("--restore", default=None, help="continue from this Algorithm checkpoint")
    p.add_argument("--rules", default="schieber", choices=sorted(PRESETS), help="rules preset")
    p.add_argument("--reward", default="points", choices=("points", "win", "tricks"))
    p.add_argument("--episode", default="round", choices=("round", "match"))
    p.add_argument("--train-batch-size", type=_positive, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=_positive, default=256)
    p.add_argument("--num-epochs", type=_positive, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--lr-schedule", choices=("constant", "linear"), default="constant",
                   help="linear: the learning rate falls to 0 over --iterations x --train-batch-size "
                        "env steps")
    p.add_argument("--random-opponents", type=float, default=0.0, metavar="F",
                   help="share of rounds (0 to 1) in which the random bot plays one team inside the "
                        "env, so the policy also learns against it; 0: pure self-play")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--torch-threads", type=_positive, default=1,
                   help="torch threads of the driver (which hosts the learner) and of each env runner")
    p.add_argument("--eval-deals", type=_non_negative, default=200,
                   help=f"duplicate deals of the strength figure vs {EVAL_OPPONENT} at the end (0: none)")
    p.add_argument("--eval-seed", type=_non_negative, default=0, help="deal set of that evaluation")
    args = p.parse_args(argv)
    if args.max_minutes < 0:
        p.error(f"--max-minutes must be >= 0, got {args.max_minutes}")
    if args.eval_deals == 1:
        p.error("--eval-deals must be 0 (no evaluation) or >= 2 (an interval needs two deals)")
    if args.eval_deals and make_rules(args.rules).spec.team_mode != "pairs":
        p.error(f"--rules {args.rules}: the duplicate evaluation is for the team games "
                f"({', '.join(r for r in sorted(PRESETS) if make_rules(r).spec.team_mode == 'pairs')}); "
                f"pass --eval-deals 0")
    try:
        check_random_opponents(args.random_opponents)
    except ValueError as exc:
        p.error(f"--random-opponents: {exc}")
    if args.random_opponents and make_rules(args.rules).spec.team_mode != "pairs":
        p.error(f"--rules {args.rules}: --random-opponents is for the team games")
    if args.minibatch_size > args.train_batch_size:
        p.error(f"--minibatch-size ({args.minibatch_size}) must not exceed --train-batch-size "
                f"({args.train_batch_size})")
    if args.restore is not None and not Path(args.restore).is_dir():
        p.error(f"--restore {args.restore!r} is not a folder (give a --checkpoint-dir of an earlier run)")
    return args


def _fmt(x: float) -> str:
    return "   nan" if np.isnan(x) else f"{x:+.3f}"


def train(args: argparse.Namespace) -> tuple[Path, list[dict[str, float]], dict[str, Any] | None]:
    """Run the training loop of the CLI (starts or joins Ray, leaves it running); returns the
    checkpoint folder, the :func:`summarize` of every iteration and the summary of the evaluation
    against :data:`EVAL_OPPONENT` of the checkpoint written (None with ``--eval-deals 0``).
    Raises ClusterSetupError when the cluster cannot run it (see :func:`check_nodes_can_import`)."""
    torch.set_num_threads(args.torch_threads)
    init_ray(args.address, args.num_cpus)
    ckpt = checkpoint_folder(args.checkpoint_dir)
    restore = checkpoint_folder(args.restore) if args.restore else None
    if args.num_env_runners:
        nodes = check_nodes_can_import()
        print(f"Ray nodes that can host env runners, each imports {', '.join(RUNNER_IMPORTS)}: "
              f"{', '.join(nodes)}", flush=True)
    config = build_config(rules=args.rules, reward=args.reward, episode=args.episode,
                          num_env_runners=args.num_env_runners,
                          num_envs_per_env_runner=args.num_envs_per_runner,
                          train_batch_size=args.train_batch_size,
                          minibatch_size=args.minibatch_size, num_epochs=args.num_epochs, lr=args.lr,
                          lr_decay_steps=(args.iterations * args.train_batch_size
                                          if args.lr_schedule == "linear" else 0),
                          random_opponents=args.random_opponents, seed=args.seed)
    algo = config.build_algo()
    if restore:
        algo.restore_from_path(str(restore))
        print(f"restored {restore}", flush=True)
    threads = set_torch_threads(algo, args.torch_threads)
    games = max(args.num_env_runners, 1) * args.num_envs_per_runner
    print(f"Ray: {args.address}, {args.num_env_runners} env runner(s) x {args.num_envs_per_runner} "
          f"games, {config.rollout_fragment_length} steps per game and sample; torch threads: driver "
          f"{threads[0]}, env runners {threads[1:]}; rules {args.rules}, reward {args.reward}, "
          f"random opponents in {args.random_opponents:.0%} of the rounds; "
          f"checkpoint {ckpt}", flush=True)
    if games * ROUND_STEPS > args.train_batch_size:
        print(f"note: {games} games share {args.train_batch_size} steps per iteration, less than one "
              f"round ({ROUND_STEPS} steps) each; --train-batch-size {games * ROUND_STEPS} or more "
              f"gives every game a full round", flush=True)
    print("iter  team0_ret  seat0   seat1   seat2   seat3   vs_rand  env_steps  steps/s", flush=True)
    t0 = time.perf_counter()
    history = []
    for it in range(1, args.iterations + 1):
        s = summarize(algo.train())
        history.append(s)
        seats = " ".join(_fmt(s[k]) for k in SEAT_RETURNS)
        print(f"{it:4d}  {_fmt(s[TEAM_0_RETURN]):>9}  {seats}  {_fmt(s[VS_RANDOM_RETURN])}  "
              f"{int(s['env_steps']):9d}  "
              f"{s['env_steps_per_s']:7.0f}", flush=True)
        if args.max_minutes and time.perf_counter() - t0 >= 60.0 * args.max_minutes:
            print(f"stopping after iteration {it}: --max-minutes {args.max_minutes:g} reached", flush=True)
            break
        if args.checkpoint_every and it % args.checkpoint_every == 0 and it < args.iterations:
            algo.save_to_path(str(ckpt))
    algo.save_to_path(str(ckpt))
    print(f"done in {time.perf_counter() - t0:.0f} s; wrote the checkpoint to {ckpt} on node "
          f"{ray.util.get_node_ip_address()} (policy module: {module_path(ckpt)})", flush=True)
    algo.stop()
    strength = None
    if args.eval_deals:
        strength = evaluate_vs_random(load_shared_module(ckpt), args.rules, args.eval_deals,
                                      args.eval_seed)
        print(strength_line(strength), flush=True)
    return ckpt, history, strength


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        train(args)
    except ClusterSetupError as exc:
        sys.exit(f"error: {exc}")
    finally:
        if ray.is_initialized():
            ray.shutdown()


if __name__ == "__main__":
    main()
