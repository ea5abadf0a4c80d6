"""Self-play PPO for all four Jass seats with Tianshou's multi-agent on-policy setup.

    pip install -e ".[tianshou]"   # tianshou 2.x
    python examples/tianshou_ppo.py --timesteps 100000 --save runs/tianshou/jass.pt

The PettingZoo AEC environment (:func:`jass_env.envs.aec.env`) is wrapped in Tianshou's
``PettingZooEnv``; Tianshou's ``MultiAgentOnPolicyAlgorithm`` holds one PPO learner per seat and
dispatches every transition to the learner of the seat that acted. The four learners share one
actor and one critic network (one policy for the whole table), so every seat's experience trains
the same network.

Action masking: the observation Tianshou stores is ``{agent_id, obs, mask}``; the actor
(:class:`MaskedActor`) sets the logits of illegal actions to a large negative number, so sampling,
the log-probabilities of the PPO ratio and the entropy bonus only ever see legal actions.

Credit assignment in an interleaved four-player buffer (what :class:`SeatPPO` adds to PPO):

* Each seat's transition gets the reward its team earns from that step up to the seat's next
  decision (:meth:`SeatPPO.seat_steps`): Tianshou's per-step reward (column ``seat`` of the
  environment's reward vector) summed over the other seats' steps in between, so a trick the
  partner or an opponent closes, and the round's end on another seat's step, count for every
  seat.
* GAE runs over each seat's own decisions: the value after a transition is the value of the
  seat's *next decision* (0 when the round ends first), so the returns telescope along the seat's
  chain. The critic (:class:`SeatCritic`) values an observation for the seat's own team: the
  shared value network estimates the observer's team's future reward, and the rewards are
  zero-sum between teams, so the value of an opponent's observation is negated (a partner's is
  taken as is); the one place it meets another seat's observation is where a collection stops in
  the middle of a round before the seat acts again (the chain bootstraps from the last stored
  step).

Random opponents (``--random-opponents F``, ``train(random_opponents=F)``; default 0: pure
self-play): at the start of each round every training env draws, from its own seeded generator,
whether the round has random opponents (probability ``F``) and, if so, which team learns (each
with probability 1/2). The other team's two seats are then played inside the env by the project's
random bot (:func:`agents.random_bot.random_actions`, same generator); Tianshou sees only the
learning team's decisions, so the random seats' moves never reach the buffer or a learner, and
the env steps counted are the learning seats' decisions. The rewards of the random seats' steps
(tricks they close, the round's end on their step) are added to the reward vector of the
learning seat's step before them, so :meth:`SeatPPO.seat_steps` still gives each transition what
its team earns until the seat acts again. Nothing is earned before the learning team's first
decision (no trick ends before all four seats have played), so the random moves at a round's
start (contract, push, first card) carry no reward. The wrapper is :class:`RandomOpponentsEnv`.

After training the shared policy plays greedily in both seats of one team against the random and
the heuristic bot (:func:`agents.evaluation.duplicate.evaluate_pair`, duplicate deals). ``--save`` writes the
actor and critic weights (``torch.save``); :func:`load_agent` turns such a file into an
:class:`agents.base.Agent`.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.base import Agent, Observation  # noqa: E402
from agents.evaluation.duplicate import evaluate_pair  # noqa: E402
from agents.random_bot import check_random_opponents, draw_random_team, random_actions  # noqa: E402
from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.envs.aec import env as aec_env  # noqa: E402
from jass_env.games import PRESETS, make_rules  # noqa: E402
from jass_env.games.base import REWARD_KINDS  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM  # noqa: E402
from jass_env.games.schieber.rules import N_ACTIONS  # noqa: E402

#: the AEC env's agents in Schieber (four seats, teams 0 & 2 against 1 & 3)
AGENTS = tuple(f"player_{p}" for p in range(4))

try:
    from tianshou.algorithm import PPO
    from tianshou.algorithm.algorithm_base import _gae
    from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOnPolicyAlgorithm
    from tianshou.algorithm.optim import AdamOptimizerFactory, LRSchedulerFactoryLinear
    from tianshou.data import Collector, ReplayBuffer, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv
    from tianshou.trainer import OnPolicyTrainerParams
except ImportError as e:  # pragma: no cover - exercised only without the library
    raise ImportError(f"this example needs Tianshou 2.x ({e}); install it with "
                      "pip install -e '.[tianshou]' (or pip install 'tianshou>=2.0.1,<3')") from None

CHECKPOINT_FORMAT = "jass-tianshou-ppo/1"
#: the learning rate over a run: fixed, or decaying linearly to 0
LR_SCHEDULES = ("constant", "linear")
_MASKED = -1e9  # logit of an illegal action (finite: an all-zero mask gives no NaN)


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])  # no activation after the last layer


def _obs_tensor(obs: Any) -> torch.Tensor:
    """The float32 observation vectors (B, OBS_DIM) of a Tianshou obs batch ``{agent_id, obs, mask}``."""
    return torch.as_tensor(np.asarray(obs.obs), dtype=torch.float32)


def _seat_team(agent_ids: Any) -> np.ndarray:
    """int[B]: the team (0 or 1) of each ``player_i`` id."""
    return np.fromiter((int(str(a)[-1]) % 2 for a in np.asarray(agent_ids).reshape(-1)), dtype=np.int64)


class MaskedActor(nn.Module):
    """Observation (B, OBS_DIM) -> masked logits (B, 43): illegal actions get ``-1e9``."""

    def __init__(self, hidden: Sequence[int] = (256, 256)) -> None:
        super().__init__()
        self.net = _mlp([OBS_DIM, *hidden, N_ACTIONS])

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        logits = self.net(_obs_tensor(obs))
        mask = torch.as_tensor(np.asarray(obs.mask, dtype=bool))
        return logits.masked_fill(~mask, _MASKED), state


class SeatCritic(nn.Module):
    """The value of an observation for the team of ``seat`` (shared ``value_net``; see the module doc).

    ``value_net`` maps (B, OBS_DIM) to (B, 1): the expected future reward of the *observer's* team.
    For an observation of a seat of the other team the value is negated (zero-sum rewards).
    """

    def __init__(self, value_net: nn.Module, seat: int) -> None:
        super().__init__()
        self.value_net = value_net
        self.team = seat % 2

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> torch.Tensor:
        v = self.value_net(_obs_tensor(obs))
        same = torch.as_tensor(_seat_team(obs.agent_id) == self.team).unsqueeze(-1)
        return torch.where(same, v, -v)


class SeatPPO(PPO):
    """PPO for one seat of a shared-buffer four-player game: each transition's reward is what the
    seat's team earns until the seat's next decision, and GAE runs over the seat's own decisions
    (see the module doc)."""

    def __init__(self, *, seat: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.agent_id = AGENTS[seat]

    def seat_steps(self, buffer: ReplayBuffer, indices: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Walk each of this seat's transitions (buffer ``indices``) to the seat's next decision.

        Returns, each of length ``len(indices)``:

        * ``reward`` (float): the seat's reward summed from its own step up to, not including, its
          next decision (the trick an opponent closes, the round's end on another seat's step);
        * ``next_index`` (int): the buffer index of the seat's next decision in the episode, -1
          where there is none;
        * ``terminal`` (bool): the episode ends before the seat acts again;
        * ``cut`` (int): where the buffer stops inside an unfinished episode before the seat acts
          again, the index of that last stored step (to bootstrap from), else -1.

        ``buffer.rew`` is this seat's column while Tianshou's multi-agent dispatcher runs this
        seat's ``process_fn``.
        """
        j = np.asarray(indices).copy()
        reward = np.asarray(buffer.rew[j], dtype=np.float64).copy()
        next_index = np.full(len(j), -1, dtype=np.int64)
        terminal = np.zeros(len(j), dtype=bool)
        cut = np.full(len(j), -1, dtype=np.int64)
        open_ = np.ones(len(j), dtype=bool)
        agent_ids = buffer.obs.agent_id
        while open_.any():  # another seat acts at most a few times in between
            done = open_ & buffer.done[j]
            nxt = buffer.next(j)
            stuck = open_ & ~done & (nxt == j)  # last stored step of an unfinished episode
            terminal |= done
            cut[stuck] = j[stuck]
            open_ &= ~(done | stuck)
            mine = open_ & (agent_ids[nxt] == self.agent_id)
            next_index[mine] = nxt[mine]
            open_ &= ~mine
            j = np.where(open_, nxt, j)
            reward[open_] += buffer.rew[j[open_]]
        return reward, next_index, terminal, cut

    def compute_episodic_return(self, batch: Any, buffer: ReplayBuffer, indices: np.ndarray,
                                v_s_: Any = None, v_s: Any = None, gamma: float = 0.99,
                                gae_lambda: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        indices = np.asarray(indices)
        v_now = np.asarray(v_s, dtype=np.float64).reshape(-1)
        reward, next_index, terminal, cut = self.seat_steps(buffer, indices)
        # V of the seat's next decision: from this batch's values where it holds that step, else
        # (and after a cut) from the critic on the stored observation
        position = np.full(buffer.maxsize, -1, dtype=np.int64)
        position[indices] = np.arange(len(indices))
        v_next = np.zeros(len(indices))
        has_next = next_index >= 0
        in_batch = has_next & (position[np.maximum(next_index, 0)] >= 0)
        v_next[in_batch] = v_now[position[next_index[in_batch]]]
        elsewhere = has_next & ~in_batch
        if elsewhere.any():
            v_next[elsewhere] = self._critic_values(buffer.obs[next_index[elsewhere]])
        if (cut >= 0).any():
            v_next[cut >= 0] = self._critic_values(buffer.obs_next[cut[cut >= 0]])
        end_flag = ~has_next        # the seat's chain ends: terminal, or cut (bootstrapped above)
        advantage = _gae(v_now, v_next, reward, end_flag, gamma, gae_lambda)
        return advantage + v_now, advantage

    def _critic_values(self, obs: Any) -> np.ndarray:
        """float64[B]: this seat's critic on a batch of stored observations."""
        with torch.no_grad():
            return self.critic(obs).reshape(-1).double().numpy()


class RandomOpponentsEnv(PettingZooEnv):
    """A ``PettingZooEnv`` in which, in a fraction ``random_opponents`` of the rounds, one team's
    seats are played by the random bot inside the env (see the module doc): ``reset`` and ``step``
    return only the learning seats' turns, and ``step``'s reward vector (one float per seat) adds
    the rewards of the random seats' steps that followed the action.

    ``random_seats``: the agent ids the random bot plays in the current round (empty: self-play).
    ``seed`` seeds the generator of the per-round draw and of the random bot's actions.
    """

    def __init__(self, env: Any, rules: Rules, random_opponents: float, seed: int) -> None:
        self.rules = rules
        self.random_opponents = random_opponents
        self.rng = np.random.default_rng(seed)
        self.random_seats: frozenset[str] = frozenset()
        super().__init__(env)  # resets (the first round's draw)

    def reset(self, *args: Any, **kwargs: Any) -> tuple[dict, dict]:
        obs, info = super().reset(*args, **kwargs)
        self.random_seats = draw_random_team(self.rng, self.random_opponents, AGENTS)
        obs, _, _, _, info = self._play_random_seats(obs, [0.0] * len(AGENTS), False, False, info)
        return obs, info

    def step(self, action: Any) -> tuple[dict, list[float], bool, bool, dict]:
        obs, reward, term, trunc, info = super().step(action)
        return self._play_random_seats(obs, list(reward), term, trunc, info)

    def _play_random_seats(self, obs: dict, reward: list[float], term: bool, trunc: bool, info: dict
                           ) -> tuple[dict, list[float], bool, bool, dict]:
        """Play the random seats' turns from ``obs`` on, adding their steps' rewards to ``reward``;
        the result is the next learning seat's turn (or the round's end)."""
        while not (term or trunc) and obs["agent_id"] in self.random_seats:
            action = random_actions(np.asarray(obs["obs"])[None], np.asarray(obs["mask"])[None],
                                    self.rules, self.rng)[0]
            obs, rew, term, trunc, info = super().step(int(action))
            reward = [r + x for r, x in zip(reward, rew, strict=True)]
        return obs, reward, term, trunc, info


def make_env(rules: Rules, reward: str, seed: int, random_opponents: float = 0.0) -> PettingZooEnv:
    """The AEC env (PettingZoo wrappers) as a Tianshou ``PettingZooEnv``; its deals are the stream
    seeded by ``seed``. ``random_opponents`` > 0: a :class:`RandomOpponentsEnv` (its generator also
    seeded by ``seed``)."""
    e = aec_env(rules=rules, reward=reward)
    e.reset(seed=seed)  # PettingZooEnv's own reset() continues this stream
    if random_opponents > 0:
        return RandomOpponentsEnv(e, rules, random_opponents, seed)
    return PettingZooEnv(e)


def build(*, seed: int = 0, rules: str | Rules = "schieber", reward: str = "points", n_envs: int = 16,
          hidden: Sequence[int] = (256, 256), lr: float = 3e-4, gamma: float = 1.0,
          gae_lambda: float = 0.95, ent_coef: float = 0.01, lr_decay_updates: int = 0,
          random_opponents: float = 0.0
          ) -> tuple[MultiAgentOnPolicyAlgorithm, DummyVectorEnv, MaskedActor, nn.Module]:
    """The multi-agent algorithm (four SeatPPO learners, one shared actor, critic and optimizer),
    its training envs, the actor and the value network.

    ``lr_decay_updates`` > 0: the learning rate decays linearly from ``lr`` to 0 over that many
    updates (one update per collection); 0 keeps it constant. ``random_opponents``: the fraction
    of the training rounds (0 to 1) in which the random bot plays one team (see the module doc).
    """
    if reward not in REWARD_KINDS:
        raise ValueError(f"unknown reward {reward!r}; valid: {', '.join(REWARD_KINDS)}")
    if n_envs < 1 or not hidden or min(hidden) < 1:
        raise ValueError(f"need n_envs >= 1 and positive hidden sizes; got {n_envs}, {list(hidden)}")
    if lr_decay_updates < 0:
        raise ValueError(f"need lr_decay_updates >= 0 (0: a constant rate); got {lr_decay_updates}")
    check_random_opponents(random_opponents)
    rules = make_rules(rules)
    torch.manual_seed(seed)
    optim = AdamOptimizerFactory(lr=lr)
    if lr_decay_updates:
        optim = optim.with_lr_scheduler_factory(LRSchedulerFactoryLinear(1, lr_decay_updates, 1))
    envs = DummyVectorEnv([lambda i=i: make_env(rules, reward, seed * 1000 + i, random_opponents)
                           for i in range(n_envs)])
    proto = make_env(rules, reward, seed)
    actor = MaskedActor(hidden)
    value_net = _mlp([OBS_DIM, *hidden, 1])
    algorithms = []
    for seat in range(len(AGENTS)):
        policy = DiscreteActorPolicy(actor=actor, action_space=proto.action_space,
                                     observation_space=proto.observation_space)
        algorithms.append(SeatPPO(seat=seat, policy=policy, critic=SeatCritic(value_net, seat),
                                  optim=optim, gamma=gamma, gae_lambda=gae_lambda,
                                  ent_coef=ent_coef, max_grad_norm=0.5))
    for a in algorithms[1:]:  # one optimizer (one Adam state) for the shared parameters
        a.optim = algorithms[0].optim
    marl = MultiAgentOnPolicyAlgorithm(algorithms=algorithms, env=proto)
    # the multi-agent algorithm steps its own schedulers once per update (its seats' are never
    # stepped): it gets the schedule of the one shared optimizer
    marl.lr_schedulers.extend(algorithms[0].lr_schedulers)
    return marl, envs, actor, value_net


def _team0_return(returns: np.ndarray) -> np.ndarray:
    """Episode returns (n_episodes, 4 seats) -> the return of seat 0 (its team's round result)."""
    return returns[:, 0]


def train(timesteps: int, *, seed: int = 0, rules: str | Rules = "schieber", reward: str = "points",
          n_envs: int = 16, steps_per_collect: int = 1024, batch_size: int = 256, repeat: int = 4,
          hidden: Sequence[int] = (256, 256), lr: float = 3e-4, lr_schedule: str = "constant",
          random_opponents: float = 0.0) -> dict[str, Any]:
    """Train for about ``timesteps`` environment steps (decisions of the learning seats: all four,
    except in rounds with random opponents).
    ``lr_schedule``: ``"constant"`` keeps ``lr``; ``"linear"`` decays it to 0 over the run's updates.
    ``random_opponents``: the fraction of rounds (0 to 1) in which one team is the random bot.

    Returns ``{"actor", "value_net", "env_steps", "train_s", "algorithm"}``.
    """
    if timesteps < 1 or steps_per_collect < 1 or batch_size < 1 or repeat < 1:
        raise ValueError(f"need timesteps, steps_per_collect, batch_size, repeat >= 1; got "
                         f"{timesteps}, {steps_per_collect}, {batch_size}, {repeat}")
    if lr_schedule not in LR_SCHEDULES:
        raise ValueError(f"unknown lr_schedule {lr_schedule!r}; valid: {', '.join(LR_SCHEDULES)}")
    check_random_opponents(random_opponents)
    # the collector summarises the per-seat episode returns (n, 4) flattened and logs a warning each time
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    per_collect = min(steps_per_collect, timesteps)
    updates = math.ceil(timesteps / per_collect) if lr_schedule == "linear" else 0
    algorithm, envs, actor, value_net = build(seed=seed, rules=rules, reward=reward, n_envs=n_envs,
                                              hidden=hidden, lr=lr, lr_decay_updates=updates,
                                              random_opponents=random_opponents)
    buffer = VectorReplayBuffer(max(per_collect, n_envs) + n_envs, n_envs)
    collector = Collector(algorithm, envs, buffer)
    collector.reset(reset_buffer=True)
    params = OnPolicyTrainerParams(training_collector=collector, max_epochs=1, epoch_num_steps=timesteps,
                                   collection_step_num_env_steps=per_collect, batch_size=batch_size,
                                   update_step_num_repetitions=repeat, test_collector=None,
                                   verbose=False, show_progress=False,
                                   multi_agent_return_reduction=_team0_return)
    t0 = time.perf_counter()
    stats = algorithm.run_training(params)
    wall = time.perf_counter() - t0
    envs.close()
    return {"actor": actor, "value_net": value_net, "env_steps": int(stats.train_step), "train_s": wall,
            "algorithm": algorithm}


class TianshouPolicyAgent(Agent):
    """An :class:`agents.base.Agent` that acts with a :class:`MaskedActor`: the most probable legal
    action (``greedy``) or a sample from the masked softmax with the agent's generator."""

    def __init__(self, actor: MaskedActor, greedy: bool = True, seed: int | None = None,
                 name: str = "tianshou-ppo") -> None:
        super().__init__(seed)
        self.actor = actor
        self.greedy = bool(greedy)
        self.name = name

    def act(self, obs: Observation) -> int:
        mask = np.asarray(obs["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("no legal action in the action mask (is it this seat's turn?)")
        x = torch.as_tensor(np.asarray(obs["observation"], dtype=np.float32)).unsqueeze(0)
        with torch.inference_mode():
            logits = self.actor.net(x)[0].double().numpy()
        logits = np.where(mask, logits, -np.inf)
        if self.greedy:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        return int(self.rng.choice(p.size, p=p / p.sum()))


def evaluate(actor: MaskedActor, opponents: Sequence[str], rules: str | Rules = "schieber", deals: int = 100,
             seed: int = 0) -> dict[str, dict[str, Any]]:
    """Duplicate evaluation of the greedy shared policy (both seats of its team) against each bot spec:
    ``{spec: {points_per_hand, ci95, round_win_rate, share_of_deals_won}}``."""
    agent = TianshouPolicyAgent(actor, greedy=True)
    out = {}
    for spec in opponents:
        s = evaluate_pair(agent, spec, rules=rules, deals=deals, seed=seed).summary
        out[spec] = {k: s[k] for k in ("points_per_hand", "ci95", "round_win_rate", "share_of_deals_won")}
    return out


def save(path: Path, actor: MaskedActor, value_net: nn.Module, hidden: Sequence[int],
         meta: dict[str, Any]) -> None:
    """Write the actor and value network weights with their shapes (``torch.save``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"format": CHECKPOINT_FORMAT, "hidden": list(hidden), "obs_dim": OBS_DIM,
                "actor": actor.state_dict(), "value_net": value_net.state_dict(), "meta": meta}, path)


def load_agent(path: str | Path, greedy: bool = True, seed: int | None = None) -> TianshouPolicyAgent:
    """A :class:`TianshouPolicyAgent` from a file written by :func:`save`; ValueError names what is
    wrong with any other file."""
    try:
        ck = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # any unreadable file gets the same clear message
        raise ValueError(f"{path}: not a readable torch checkpoint ({type(e).__name__}: {e})") from None
    if not isinstance(ck, dict) or ck.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: not a {CHECKPOINT_FORMAT} checkpoint "
                         "(written by examples/tianshou_ppo.py)")
    if ck.get("obs_dim") != OBS_DIM:
        raise ValueError(f"{path}: observation size {ck.get('obs_dim')} but this jass_env has "
                         f"OBS_DIM={OBS_DIM}")
    actor = MaskedActor(ck["hidden"])
    actor.load_state_dict(ck["actor"])
    actor.eval()
    return TianshouPolicyAgent(actor, greedy=greedy, seed=seed)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timesteps", type=int, default=100_000,
                    help="environment steps (decisions of all four seats) to train")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, default=None, help="write the actor/critic weights here (.pt)")
    ap.add_argument("--rules", default="schieber", help=f"rules preset ({', '.join(PRESETS)})")
    ap.add_argument("--reward", choices=REWARD_KINDS, default="points")
    ap.add_argument("--envs", type=int, default=16,
                    help="parallel environments in this process (more envs batch the network calls)")
    ap.add_argument("--steps-per-collect", type=int, default=1024, help="env steps per PPO update")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=4, help="passes over each batch")
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--lr-schedule", choices=LR_SCHEDULES, default="constant",
                    help="keep the learning rate, or decay it linearly to 0 over the run")
    ap.add_argument("--random-opponents", type=float, default=0.0, metavar="F",
                    help="fraction of the training rounds (0 to 1) in which the random bot plays one "
                         "team and only the other team learns (default 0: pure self-play)")
    ap.add_argument("--eval-deals", type=int, default=200,
                    help="duplicate deals against the random and the heuristic bot (0: none)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.eval_deals == 1 or args.eval_deals < 0:
        print(f"error: --eval-deals must be 0 (no evaluation) or >= 2, got {args.eval_deals}",
              file=sys.stderr)
        return 2
    try:
        rules = make_rules(args.rules)
        torch.set_num_threads(args.threads)
        out = train(args.timesteps, seed=args.seed, rules=rules, reward=args.reward, n_envs=args.envs,
                    steps_per_collect=args.steps_per_collect, batch_size=args.batch_size, repeat=args.repeat,
                    hidden=args.hidden, lr=args.lr, lr_schedule=args.lr_schedule,
                    random_opponents=args.random_opponents)
    except ValueError as e:  # RulesError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {"env_steps": out["env_steps"], "train_s": round(out["train_s"], 1),
                              "steps_per_s": round(out["env_steps"] / out["train_s"], 1)}
    if args.save is not None:
        save(args.save, out["actor"], out["value_net"], args.hidden,
             {"seed": args.seed, "rules": rules.name, "reward": args.reward, "env_steps": out["env_steps"]})
        report["saved"] = str(args.save)
    if args.eval_deals:
        report["evaluation"] = evaluate(out["actor"], ("random", "heuristic"), rules, deals=args.eval_deals,
                                        seed=args.seed)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
