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
      AEC environment (:class:`jass_env.aec.raw_env`). Only the agent to move appears in the
      observation dict. It renames the observation keys to the ones RLlib's
      ``ActionMaskingTorchRLModule`` expects: ``{"observations": float32[OBS_DIM],
      "action_mask": float32[43]}`` (ours are ``"observation"`` and an int8 mask). Rewards of every
      step (all four seats, :mod:`jass_env.rewards`) are held back per seat and handed to a seat
      with its next observation, or with the final observations when the round ends, so each
      seat's return is exactly its reward sum.
    * One RLModule ``"shared"``: ``policy_mapping_fn`` maps all four seats to it (self-play with
      parameter sharing). The module is RLlib's ``ActionMaskingTorchRLModule`` (PPO), which adds
      ``log(mask)`` (clamped) to the logits, so illegal actions get probability 0.
    * :class:`TeamReturnCallback`: the game is zero-sum between the teams, so RLlib's
      ``episode_return_mean`` (the sum over all seats) is always 0. The callback logs
      ``team_0_return`` (the return of each partner of team 0: seats 0 and 2 get the same reward)
      and ``seat_<i>_return`` per seat as env-runner metrics.

Printed per iteration: team-0 mean return, per-seat mean returns (reward ``points``: (own team's
round score - opponents') / 157; ``win``: +1/-1/0) and env steps/s (sampling and learning
together, i.e. env steps sampled this iteration / wall time of the iteration).

On a cluster every node needs this package and its dependencies (numba, gymnasium, pettingzoo) in
the Python environment Ray's workers use, e.g. ``pip install torch==2.13.0 -e ".[rllib]"`` in the
cluster image, or submit with the code shipped along::

    ray job submit --address http://HEAD:8265 --working-dir . \\
        --runtime-env-json '{"pip": ["numba>=0.59", "pettingzoo>=1.24"]}' -- \\
        python examples/rllib_ppo.py --num-env-runners 32 --iterations 500 --checkpoint-dir /shared/jass

Reload a trained policy with :func:`load_shared_module` and pick actions with
:func:`greedy_action`.
"""

from __future__ import annotations

import argparse
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
except ImportError as exc:  # the optional extra is missing
    if __name__ == "__main__":
        sys.exit(f"error: {exc.name} is not installed; RLlib support is an optional extra: "
                 "pip install torch==2.13.0 -e '.[rllib]' (see README, section RLlib)")
    raise

from jass_env.aec import AGENTS, raw_env
from jass_env.cards import N_ACTIONS
from jass_env.rules import PRESETS

#: name under which the environment is registered with Ray (``config.environment(ENV_NAME)``)
ENV_NAME = "jass_rllib_v0"
#: id of the one RLModule every seat plays with
MODULE_ID = "shared"
#: env-runner metric keys logged by :class:`TeamReturnCallback`
TEAM_0_RETURN = "team_0_return"
SEAT_RETURNS = tuple(f"seat_{i}_return" for i in range(4))


# ---------------------------------------------------------------------------------- environment
class JassMultiAgentEnv(MultiAgentEnv):
    """Turn-based RLlib multi-agent view of :class:`jass_env.aec.raw_env`.

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
        self.aec = raw_env(**dict(config or {}))
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
        self.aec.reset(seed=seed, options=options)
        self._pending = dict.fromkeys(AGENTS, 0.0)
        agent = self.aec.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.aec.agent_selection
        if agent not in action_dict:
            raise ValueError(f"{agent} is to move, but the action dict holds actions for "
                             f"{sorted(action_dict)}; give exactly one action, for {agent}")
        self.aec.step(int(action_dict[agent]))   # raises IllegalActionError naming the legal actions
        for a, r in self.aec.rewards.items():
            self._pending[a] += r
        if all(self.aec.terminations.values()):
            obs = {a: self._observe(a) for a in AGENTS}
            rewards, self._pending = self._pending, dict.fromkeys(AGENTS, 0.0)
            terminateds = dict.fromkeys(AGENTS, True)
            terminateds["__all__"] = True
            return obs, rewards, terminateds, {"__all__": False}, {}
        nxt = self.aec.agent_selection
        reward = self._pending[nxt]
        self._pending[nxt] = 0.0
        return ({nxt: self._observe(nxt)}, {nxt: reward}, {"__all__": False}, {"__all__": False}, {})


# ---------------------------------------------------------------------------------- metrics
class TeamReturnCallback(RLlibCallback):
    """Logs per-team and per-seat episode returns (the all-seat sum is 0 in this zero-sum game).

    Metrics (env-runner results, mean over the last 100 episodes of each env runner):
    ``team_0_return``: team 0's return, i.e. the mean of seats 0 and 2, which get the same reward
    (team 1's is its negative); ``seat_0_return`` … ``seat_3_return``.
    """

    def on_episode_end(self, *, episode: Any, prev_episode_chunks: list | None = None,
                       metrics_logger: Any = None, **kwargs: Any) -> None:
        returns = dict.fromkeys(AGENTS, 0.0)
        for chunk in [*(prev_episode_chunks or []), episode]:
            for aid, sa_episode in chunk.agent_episodes.items():
                returns[aid] += float(sa_episode.get_return())
        seats = [returns[a] for a in AGENTS]
        team_0 = 0.5 * (seats[0] + seats[2])         # partners get the same reward: the team's
        metrics_logger.log_value(TEAM_0_RETURN, team_0, reduce="mean", window=100)
        for key, value in zip(SEAT_RETURNS, seats):
            metrics_logger.log_value(key, value, reduce="mean", window=100)


# ---------------------------------------------------------------------------------- config
def _make_env(config: dict[str, Any]) -> JassMultiAgentEnv:
    return JassMultiAgentEnv(dict(config))


def _map_to_shared(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """policy_mapping_fn: every seat plays with the one shared module."""
    return MODULE_ID


def build_config(*, rules: str = "schieber", reward: str = "points", episode: str = "round",
                 num_env_runners: int = 2, num_envs_per_env_runner: int = 8,
                 train_batch_size: int = 4000, minibatch_size: int = 256,
                 num_epochs: int = 4, lr: float = 3e-4, hiddens: Sequence[int] = (256, 256),
                 seed: int | None = None) -> PPOConfig:
    """The PPO configuration (new API stack, torch): one shared masked module for all four seats.

    ``train_batch_size`` and ``minibatch_size`` count env steps (one action of one seat each).
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
        .environment(ENV_NAME, env_config={"rules": rules, "reward": reward, "episode": episode},
                     disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_cpus_per_env_runner=1,
                     num_envs_per_env_runner=num_envs_per_env_runner, rollout_fragment_length=fragment)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=_map_to_shared)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            MODULE_ID: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={
                "fcnet_hiddens": list(hiddens), "fcnet_activation": "relu",
                "head_fcnet_hiddens": [], "vf_share_layers": False})}))
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=lr, gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .callbacks(TeamReturnCallback)
        .debugging(seed=seed)
    )


def init_ray(address: str | None, num_cpus: int | None = None) -> None:
    """Connect to the Ray cluster at ``address`` ("auto" or "HOST:PORT" / "ray://HOST:10001"), or
    start a local Ray (``None`` or "local", ``num_cpus`` CPUs, no dashboard)."""
    if ray.is_initialized():
        return
    if address in (None, "", "local"):
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)


# ---------------------------------------------------------------------------------- results
def summarize(result: dict[str, Any]) -> dict[str, float]:
    """Iteration summary: ``team_0_return``, ``seat_<i>_return`` (NaN before the first finished
    episode), ``env_steps`` (sampled this iteration), ``env_steps_per_s`` (sampled env steps / wall
    time of the iteration, sampling + learning)."""
    runners = result.get("env_runners", {})
    out = {k: float(runners.get(k, float("nan"))) for k in (TEAM_0_RETURN, *SEAT_RETURNS)}
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


# ---------------------------------------------------------------------------------- CLI
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
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    if args.minibatch_size > args.train_batch_size:
        p.error(f"--minibatch-size ({args.minibatch_size}) must not exceed --train-batch-size "
                f"({args.train_batch_size})")
    if args.restore is not None and not Path(args.restore).is_dir():
        p.error(f"--restore {args.restore!r} is not a folder (give a --checkpoint-dir of an earlier run)")
    return args


def _fmt(x: float) -> str:
    return "   nan" if np.isnan(x) else f"{x:+.3f}"


def train(args: argparse.Namespace) -> tuple[Path, list[dict[str, float]]]:
    """Run the training loop of the CLI (starts or joins Ray, leaves it running); returns the
    checkpoint folder and the :func:`summarize` of every iteration."""
    init_ray(args.address, args.num_cpus)
    config = build_config(rules=args.rules, reward=args.reward, episode=args.episode,
                          num_env_runners=args.num_env_runners,
                          num_envs_per_env_runner=args.num_envs_per_runner,
                          train_batch_size=args.train_batch_size,
                          minibatch_size=args.minibatch_size, num_epochs=args.num_epochs, lr=args.lr,
                          seed=args.seed)
    algo = config.build_algo()
    if args.restore:
        algo.restore_from_path(os.path.abspath(args.restore))
    ckpt = Path(args.checkpoint_dir).resolve()
    print(f"Ray: {args.address}, {args.num_env_runners} env runner(s); rules {args.rules}, reward "
          f"{args.reward}; checkpoint {ckpt}", flush=True)
    print("iter  team0_ret  seat0   seat1   seat2   seat3   env_steps  steps/s", flush=True)
    t0 = time.perf_counter()
    history = []
    for it in range(1, args.iterations + 1):
        s = summarize(algo.train())
        history.append(s)
        seats = " ".join(_fmt(s[k]) for k in SEAT_RETURNS)
        print(f"{it:4d}  {_fmt(s[TEAM_0_RETURN]):>9}  {seats}  {int(s['env_steps']):9d}  "
              f"{s['env_steps_per_s']:7.0f}", flush=True)
        if args.checkpoint_every and it % args.checkpoint_every == 0 and it < args.iterations:
            algo.save_to_path(str(ckpt))
    algo.save_to_path(str(ckpt))
    print(f"done in {time.perf_counter() - t0:.0f} s; checkpoint: {ckpt} "
          f"(policy module: {module_path(ckpt)})", flush=True)
    algo.stop()
    return ckpt, history


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        train(args)
    finally:
        if ray.is_initialized():
            ray.shutdown()


if __name__ == "__main__":
    main()
