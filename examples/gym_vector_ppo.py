"""PPO on the Gymnasium vector environment (CleanRL's ppo.py, for one learning seat of Jass).

    .venv/bin/python examples/gym_vector_ppo.py                       # about 3 minutes on one core
    .venv/bin/python examples/gym_vector_ppo.py --total-timesteps 200000 --rules differenzler

One file, read top to bottom: a typed :class:`Config`, the actor-critic, the evaluation, the
training loop. The environment is :class:`jass_env.envs.gym_vector.JassVectorEnv` built through
``gymnasium.make_vec`` (the vector entry point): ``num_envs`` games, the learning seat ``seat`` in
each, the other seats uniformly random legal players inside the environment. Its observation is the
game's float32 vector and ``info["action_mask"]`` the learning seat's legal actions; illegal
actions get the logit -inf. Autoreset is SAME_STEP: a step that ends an episode already returns
the next episode's first observation, so ``done`` at step t cuts the bootstrap from step t + 1,
exactly CleanRL's bookkeeping.

Shapes (T = ``num_steps``, N = ``num_envs``, D = the game's observation length, A = its actions;
Schieber: D = 529, A = 43): every rollout buffer is (T, N, ...), flattened to (T * N, ...) for the
minibatches.

At the start and the end the script plays ``eval_games`` games (one episode each, the same deals
from ``eval_seed``, ``reward="points"``) against the random players with the greedy policy, and
with a uniformly random learner for scale, and prints the learner's mean return (points per hand /
the game's scale, with a 95 % interval) and its side's win rate; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import jass_env.envs.gym  # noqa: E402, F401  (registers the ids)
from jass_env.envs.aec import env_ids  # noqa: E402
from jass_env.envs.gym_vector import JassVectorEnv  # noqa: E402
from jass_env.games import make_rules  # noqa: E402

#: a 95 % normal interval is mean ± this many standard errors
Z95 = 1.96


@dataclass
class Config:
    """Everything the run reads; each field is a ``--flag`` (``num_envs`` -> ``--num-envs``)."""

    seed: int = 1
    rules: str = "schieber"
    seat: int = 0
    reward: str = "tricks"          # the training reward; the evaluation reports "points"
    num_envs: int = 256             # N games stepped together
    num_steps: int = 32             # T steps per game and rollout
    total_timesteps: int = 600_000  # learner decisions in all
    learning_rate: float = 1e-3
    anneal_lr: bool = True          # fall linearly to 0 over the run
    gamma: float = 1.0              # episodes are short (a round) and always end
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 256
    eval_games: int = 2000
    eval_seed: int = 12_345

    @property
    def batch_size(self) -> int:
        return self.num_envs * self.num_steps

    @property
    def minibatch_size(self) -> int:
        return self.batch_size // self.num_minibatches

    @property
    def num_iterations(self) -> int:
        return max(1, self.total_timesteps // self.batch_size)


def parse_config(argv: list[str] | None = None) -> Config:
    """A :class:`Config` from ``--field value`` flags (``--anneal-lr false``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for field in dataclasses.fields(Config):
        kind = {"int": int, "float": float, "str": str, "bool": lambda s: s.lower() in ("1", "true", "yes")}
        parser.add_argument(f"--{field.name.replace('_', '-')}", type=kind[field.type], default=field.default)
    return Config(**vars(parser.parse_args(argv)))


def layer(n_in: int, n_out: int, std: float = np.sqrt(2)) -> nn.Linear:
    """A linear layer with CleanRL's orthogonal initialisation."""
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class ActorCritic(nn.Module):
    """Two MLPs on the observation (B, D): the critic's value (B,) and the actor's masked logits (B, A)."""

    def __init__(self, obs_dim: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer(obs_dim, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                    layer(hidden, 1, std=1.0))
        self.actor = nn.Sequential(layer(obs_dim, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                   layer(hidden, n_actions, std=0.01))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def dist(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        """The policy over the legal actions: obs (B, D) float32, mask (B, A) bool."""
        return Categorical(logits=self.actor(obs).masked_fill(~mask, float("-inf")))


def evaluate(cfg: Config, policy: ActorCritic | None) -> dict[str, float]:
    """One episode in each of ``eval_games`` games against the random players, on the deals of
    ``eval_seed``: the learner's mean "points" return with its 95 % interval and its side's win rate.
    ``policy`` None: a uniformly random learner."""
    envs = JassVectorEnv(cfg.eval_games, seat=cfg.seat, rules=cfg.rules, reward="points")
    obs, info = envs.reset(seed=cfg.eval_seed)
    rng = np.random.default_rng(cfg.eval_seed)
    returns = np.zeros(cfg.eval_games)
    won = np.zeros(cfg.eval_games, dtype=bool)
    running = np.ones(cfg.eval_games, dtype=bool)         # still in its first episode
    while running.any():
        mask = info["action_mask"]                        # (E, A) bool
        if policy is None:
            actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        else:
            with torch.no_grad():
                logits = policy.dist(torch.from_numpy(obs), torch.from_numpy(mask)).logits
            actions = logits.argmax(-1).numpy()
        obs, reward, terminated, _, info = envs.step(actions)
        returns[running] += reward[running]
        ended = terminated & running
        if ended.any():
            won[ended] = info["final_info"]["winner"][ended] == envs.side
            running &= ~terminated
    envs.close()
    half = Z95 * returns.std(ddof=1) / np.sqrt(len(returns))
    return {"mean_return": float(returns.mean()), "ci95": float(half), "win_rate": float(won.mean())}


def train(cfg: Config) -> dict[str, object]:
    """Run PPO with ``cfg``; returns the evaluations before and after and the speed."""
    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    np.random.seed(cfg.seed)
    gym_id = env_ids(make_rules(cfg.rules).spec.name)[1]
    envs = gymnasium.make_vec(gym_id, num_envs=cfg.num_envs, vectorization_mode="vector_entry_point",
                              rules=cfg.rules, seat=cfg.seat, reward=cfg.reward)
    obs_dim = envs.single_observation_space.shape[0]      # D
    n_actions = int(envs.single_action_space.n)           # A
    agent = ActorCritic(obs_dim, n_actions, cfg.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)
    result: dict[str, object] = {"config": dataclasses.asdict(cfg), "random_learner": evaluate(cfg, None),
                                 "before": evaluate(cfg, agent)}
    print(f"before training: {result['before']}  (a random learner: {result['random_learner']})")

    T, N = cfg.num_steps, cfg.num_envs
    obs_buf = torch.zeros((T, N, obs_dim))                 # (T, N, D)
    mask_buf = torch.zeros((T, N, n_actions), dtype=torch.bool)   # (T, N, A)
    actions = torch.zeros((T, N), dtype=torch.long)        # (T, N)
    logprobs = torch.zeros((T, N))
    rewards = torch.zeros((T, N))
    dones = torch.zeros((T, N))                            # 1: obs_buf[t] starts a new episode
    values = torch.zeros((T, N))

    start = time.perf_counter()
    env_seconds = 0.0
    next_obs_np, info = envs.reset(seed=cfg.seed)
    next_obs = torch.from_numpy(next_obs_np)               # (N, D)
    next_mask = torch.from_numpy(info["action_mask"])      # (N, A)
    next_done = torch.zeros(N)
    episode_returns: list[float] = []
    running_return = np.zeros(N)
    for iteration in range(1, cfg.num_iterations + 1):
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1.0 - (iteration - 1) / cfg.num_iterations)

        # rollout: T steps of the N games
        for t in range(T):
            obs_buf[t], mask_buf[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                dist = agent.dist(next_obs, next_mask)
                action = dist.sample()                      # (N,)
                logprobs[t], values[t] = dist.log_prob(action), agent.value(next_obs)
            actions[t] = action
            t0 = time.perf_counter()
            next_obs_np, reward, terminated, truncated, info = envs.step(action.numpy())
            env_seconds += time.perf_counter() - t0
            rewards[t] = torch.from_numpy(reward).float()
            next_obs = torch.from_numpy(next_obs_np)
            next_mask = torch.from_numpy(info["action_mask"])
            done = terminated | truncated
            next_done = torch.from_numpy(done).float()
            running_return += reward
            episode_returns.extend(running_return[done].tolist())
            running_return[done] = 0.0

        # generalized advantage estimation, backwards over the rollout
        with torch.no_grad():
            next_value = agent.value(next_obs)              # (N,)
            advantages = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nonterminal = 1.0 - (next_done if t == T - 1 else dones[t + 1])
                following = next_value if t == T - 1 else values[t + 1]
                delta = rewards[t] + cfg.gamma * following * nonterminal - values[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
                advantages[t] = last
            returns = advantages + values

        # PPO update on the flattened batch (T * N, ...)
        b_obs, b_mask = obs_buf.reshape(-1, obs_dim), mask_buf.reshape(-1, n_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        for _ in range(cfg.update_epochs):
            order = torch.randperm(cfg.batch_size)
            for lo in range(0, cfg.batch_size, cfg.minibatch_size):
                mb = order[lo:lo + cfg.minibatch_size]
                dist = agent.dist(b_obs[mb], b_mask[mb])
                ratio = (dist.log_prob(b_actions[mb]) - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped_ratio = ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped_ratio).mean()
                new_value = agent.value(b_obs[mb])
                clipped = b_values[mb] + (new_value - b_values[mb]).clamp(-cfg.clip_coef, cfg.clip_coef)
                v_loss = 0.5 * torch.max((new_value - b_returns[mb]) ** 2,
                                         (clipped - b_returns[mb]) ** 2).mean()
                entropy = dist.entropy().mean()
                loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()

        if iteration % 10 == 0 or iteration == cfg.num_iterations:
            recent = episode_returns[-2000:]
            steps = iteration * cfg.batch_size
            print(f"iteration {iteration}/{cfg.num_iterations}  steps {steps:,}  "
                  f"mean training return (last {len(recent)} episodes) {np.mean(recent):+.3f}  "
                  f"{steps / (time.perf_counter() - start):,.0f} steps/s")

    seconds = time.perf_counter() - start
    envs.close()
    result["after"] = evaluate(cfg, agent)
    result.update({"train_seconds": round(seconds, 1), "env_seconds": round(env_seconds, 1),
                   "steps": cfg.num_iterations * cfg.batch_size,
                   "steps_per_s": round(cfg.num_iterations * cfg.batch_size / seconds)})
    print(f"after training: {result['after']}")
    return result


if __name__ == "__main__":
    print(json.dumps(train(parse_config())))
