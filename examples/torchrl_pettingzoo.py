"""TorchRL on the Jass AEC environment: PettingZooWrapper with masks, groups by side, a masked policy.

    pip install -e ".[torchrl]"            # torchrl, tensordict (and torch)
    python examples/torchrl_pettingzoo.py --rules schieber --steps 40
    python examples/torchrl_pettingzoo.py --rules molotow5 --groups all
    python examples/torchrl_pettingzoo.py --rules schieber --train-rounds 800 --eval-deals 200

The project's PettingZoo environment (:func:`jass_env.envs.aec.env`, any preset) goes through
``torchrl.envs.libs.pettingzoo.PettingZooWrapper(env, use_mask=True, group_map=...)``. An AEC
environment needs ``use_mask=True`` (TorchRL refuses it otherwise): one seat acts per step and the
group's ``"mask"`` marks it.

Groups (``--groups``): TorchRL stacks the seats of a group into one tensordict, so one network runs
over a group at once and each group can have its own policy.

* ``side`` (:func:`agents.torchrl_adapter.side_group_map`, the default here): the game's scoring
  sides. Team games get ``team_0`` (seats 0, 2, ...) and ``team_1`` (seats 1, 3, ...), the partners
  who share a reward (``GameSpec.side_of``); games played alone get one group per seat. A learning
  team against a fixed opponent is then one group against another.
* ``all``: every seat in one group ``agents`` (``MarlGroupMapType.ALL_IN_ONE_GROUP``), for one
  policy shared by every seat (self-play).
* ``seat``: one group per seat (``ONE_GROUP_PER_AGENT``), TorchRL's default for AEC environments.

The tensordict of one step, per group ``g`` of ``k`` seats (``A`` = the game's actions, 43 in
Schieber; ``O`` = its observation length, 529 in Schieber)::

    td[g, "observation", "observation"]  float32 [k, O]   every seat's observation, every step
    td[g, "action_mask"]                 bool [k, A]      the legal actions of the seat to move;
                                                          all True for the other seats
    td[g, "mask"]                        bool [k]         True for the seat to move
    td[g, "action"]                      int64 [k]        only the seat to move's entry is played
    td["next", g, "reward"]              float32 [k, 1]   every seat's reward of this step
    td["next", g, "done"]                bool [k, 1]      (and terminated, truncated)
    td["next", "done"]                   bool [1]         the round is over (all seats done)

A rollout of ``T`` steps stacks these to ``[T, k, ...]``. Rewards reach every seat at every step
(a trick closed by another seat, the round's score at its last step), so a seat's return for a
decision at step t is the sum of its rewards from t to the round's end, over every step, its own or
not (:func:`returns_to_go`); the group's ``mask`` says at which steps it decided.

At the step that ends a round, ``("next", g, "mask")`` still marks the seat the environment names
to move, with an all-False ``action_mask``: TorchRL resets before a policy sees it, but code that
runs a masked distribution on the final ``"next"`` observations must leave those rows out.

``--train-rounds N`` trains a small masked policy network by REINFORCE with a learned baseline for
the seats of side 0 (one group) against the random bot in every other seat (:func:`train`), then
plays it greedily against ``random`` with the game's evaluation protocol (``agents.evaluate``;
duplicate deals in team games).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.base import Agent, Observation, choose_from_logits  # noqa: E402
from agents.evaluation.cli import IMPLEMENTATIONS  # noqa: E402
from agents.evaluation.protocol import protocol_for, statistic_for  # noqa: E402
from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.envs.aec import env as aec_env  # noqa: E402
from jass_env.envs.rewards import reward_kinds  # noqa: E402
from jass_env.games import PRESETS, make_rules  # noqa: E402

try:
    from tensordict import TensorDictBase
    from tensordict.nn import InteractionType, TensorDictModule, TensorDictSequential
    from torch import nn
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import ExplorationType, MarlGroupMapType, set_exploration_type
    from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor

    from agents.torchrl_adapter import side_group_map
except ImportError as e:  # pragma: no cover - exercised only without the library
    raise ImportError(f"this example needs TorchRL ({e}); install it with pip install -e '.[torchrl]' "
                      "(or pip install 'torchrl>=0.14,<0.15' 'tensordict>=0.14,<0.15')") from None

GROUPINGS = ("side", "all", "seat")
#: where a group's observation vector lies in its tensordict: TorchRL keeps the Dict space's
#: "observation" entry under the group's "observation" (the "action_mask" entry becomes the
#: group's "action_mask")
OBSERVATION = ("observation", "observation")
#: more steps than one round of any game of the family takes (at most 36 cards played plus the
#: phase actions before card play); a round that does not end by then is an error
ROUND_STEP_CAP = 256
#: weights of the value's squared error and of the policy's entropy in the training loss
VALUE_COEF, ENTROPY_COEF = 0.5, 0.01


def group_map(rules: str | Rules, grouping: str) -> dict[str, list[str]] | MarlGroupMapType:
    """The ``group_map`` for PettingZooWrapper of one of :data:`GROUPINGS`."""
    if grouping == "side":
        return side_group_map(rules)
    if grouping == "all":
        return MarlGroupMapType.ALL_IN_ONE_GROUP
    if grouping == "seat":
        return MarlGroupMapType.ONE_GROUP_PER_AGENT
    raise ValueError(f"unknown grouping {grouping!r}; valid: {', '.join(GROUPINGS)}")


def make_env(rules: str | Rules = "schieber", grouping: str = "side", seed: int | None = None,
             reward: str = "points", episode: str | None = None) -> PettingZooWrapper:
    """The AEC environment of ``rules`` in TorchRL (``use_mask=True``, categorical actions).

    ``seed`` deals the first round at construction (TorchRL resets the environment there);
    every later ``reset()`` deals the next round of that stream, and ``reset(seed=s)`` restarts it.
    """
    base = aec_env(rules=rules, reward=reward, episode=episode)
    with warnings.catch_warnings():
        # TorchRL names the PettingZoo version it was tested with (1.24.3); the tests of this
        # example run it with the installed one
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(base, use_mask=True, group_map=group_map(rules, grouping), seed=seed,
                                 categorical_actions=True)


class UniformLogits(nn.Module):
    """Zero logits over ``n_actions``: a masked categorical over them is the random bot (uniform
    over the legal actions)."""

    def __init__(self, n_actions: int) -> None:
        super().__init__()
        self.n_actions = n_actions

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return obs.new_zeros((*obs.shape[:-1], self.n_actions))


def masked_actor(net: nn.Module, group: str,
                 observation: tuple[str, ...] = OBSERVATION) -> ProbabilisticActor:
    """An actor for group ``group``: ``net`` maps the group's observations ``[..., k, O]`` (at
    ``(group, *observation)``) to logits ``[..., k, A]``; the action is drawn from the masked
    categorical over ``(group, "action_mask")`` (illegal actions have probability 0), its
    log-probability written to ``(group, "log_prob")``. Sampled under ``ExplorationType.RANDOM``,
    the most probable legal action under ``DETERMINISTIC``."""
    module = TensorDictModule(net, in_keys=[(group, *observation)], out_keys=[(group, "logits")])
    return ProbabilisticActor(module, in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
                              out_keys=[(group, "action")], distribution_class=MaskedCategorical,
                              return_log_prob=True, log_prob_key=(group, "log_prob"),
                              default_interaction_type=InteractionType.RANDOM)


def policy_net(obs_dim: int, n_actions: int, hidden: Sequence[int] = (128,)) -> nn.Module:
    """A small MLP from an observation (float32 [O]) to action logits ([A])."""
    return MLP(in_features=obs_dim, out_features=n_actions, num_cells=list(hidden), activation_class=nn.ReLU)


def group_policy(nets: dict[str, nn.Module],
                 observation: tuple[str, ...] = OBSERVATION) -> TensorDictSequential:
    """One masked actor per group (``nets``: group -> its network; one network may serve several)."""
    return TensorDictSequential(*(masked_actor(net, group, observation) for group, net in nets.items()))


def acting_seats(td: TensorDictBase, group: str) -> tuple[torch.Tensor, torch.Tensor]:
    """(steps, index in the group) of every decision of the group's seats in a rollout ``[T, ...]``."""
    return torch.nonzero(td[group, "mask"], as_tuple=True)


def returns_to_go(rewards: torch.Tensor, done: torch.Tensor) -> torch.Tensor:
    """Each seat's return from every step to the end of its round.

    Args:
        rewards: float32 [T, k] every seat's reward of each step.
        done: bool [T] whether the round ended with that step.
    Returns:
        float32 [T, k]: ``G[t] = rewards[t] + G[t + 1]``, restarting after every ``done``.
    """
    out = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in range(rewards.shape[0] - 1, -1, -1):
        running = rewards[t] + running * (~done[t]).to(rewards.dtype)
        out[t] = running
    return out


def play_rounds(env: PettingZooWrapper, policy: TensorDictSequential, rounds: int) -> TensorDictBase:
    """``rounds`` whole rounds, each from a fresh reset: the steps concatenated, ``[T, ...]``."""
    parts = []
    for _ in range(rounds):
        td = env.rollout(ROUND_STEP_CAP, policy, break_when_any_done=True)
        if not bool(td["next", "done"][-1]):
            raise RuntimeError(f"a round took more than {ROUND_STEP_CAP} steps")
        parts.append(td)
    return torch.cat(parts)


def describe_rollout(rules: str | Rules = "schieber", grouping: str = "side", steps: int = 40,
                     seed: int = 0) -> dict[str, Any]:
    """A rollout of ``steps`` steps with TorchRL's masked random actions (``env.rand_action``
    draws from the action spec, whose mask the wrapper sets to the legal actions at every step):
    the groups, the shapes and the checks of the masks."""
    env = make_env(rules, grouping, seed=seed)
    torch.manual_seed(seed)
    td = env.rollout(steps, break_when_any_done=False)
    shapes = {".".join(k if isinstance(k, tuple) else (k,)): str(list(v.shape))
              for k, v in td.items(include_nested=True, leaves_only=True)}
    legal = True
    for group in env.group_map:
        t, i = acting_seats(td, group)
        legal &= bool(td[group, "action_mask"][t, i, td[group, "action"][t, i]].all())
    return {"group_map": env.group_map, "steps": td.shape[0], "rounds_ended": int(td["next", "done"].sum()),
            "actions_legal": legal, "shapes": shapes}


class TorchRLPolicyAgent(Agent):
    """An :class:`agents.base.Agent` that plays a trained policy network: the most probable legal
    action (``greedy``) or a sample from the masked softmax with the agent's generator."""

    def __init__(self, net: nn.Module, greedy: bool = True, seed: int | None = None,
                 name: str = "torchrl-reinforce") -> None:
        super().__init__(seed)
        self.net = net
        self.greedy = bool(greedy)
        self.name = name

    def act(self, obs: Observation) -> int:
        mask = np.asarray(obs["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("no legal action in the action mask (is it this seat's turn?)")
        x = torch.as_tensor(np.asarray(obs["observation"], dtype=np.float32))
        with torch.inference_mode():
            logits = self.net(x).double().numpy()
        return choose_from_logits(np.where(mask, logits, -np.inf), mask, self.greedy, self.rng)


def train(rules: str | Rules = "schieber", rounds: int = 1200, rounds_per_update: int = 4, lr: float = 1e-3,
          hidden: Sequence[int] = (128,), seed: int = 0) -> dict[str, Any]:
    """REINFORCE with a learned baseline for the seats of side 0 (one group, one policy network)
    against the random bot in every other seat.

    Every update plays ``rounds_per_update`` rounds through TorchRL. Each decision of a learning
    seat gets its return to the round's end (:func:`returns_to_go`); its advantage is that return
    minus the value network's estimate for the observation, divided by the batch's standard
    deviation. Loss: policy gradient + ``VALUE_COEF`` x the value's squared error -
    ``ENTROPY_COEF`` x the masked policy's entropy. The reward is ``tricks`` where the game has it
    (paid as tricks are won: the same round total as ``points`` with less noise), else ``points``.
    Returns the policy and value networks, the reward kind, the learners' mean round return per
    update and the seconds taken.
    """
    rules = make_rules(rules)
    torch.manual_seed(seed)
    reward = "tricks" if "tricks" in reward_kinds(rules) else "points"
    env = make_env(rules, "side", seed=seed, reward=reward, episode="round")
    learner = next(g for g, seats in env.group_map.items() if "player_0" in seats)   # side 0
    obs_dim = env.observation_spec[(learner, *OBSERVATION)].shape[-1]
    n_actions = env.full_action_spec[learner, "action"].space.n
    net, value = policy_net(obs_dim, n_actions, hidden), policy_net(obs_dim, 1, hidden)
    policy = group_policy({g: (net if g == learner else UniformLogits(n_actions)) for g in env.group_map})
    optim = torch.optim.Adam([*net.parameters(), *value.parameters()], lr=lr)
    curve = []
    t0 = time.perf_counter()
    for _ in range(max(1, rounds // rounds_per_update)):
        with torch.no_grad(), set_exploration_type(ExplorationType.RANDOM):
            td = play_rounds(env, policy, rounds_per_update)
        t, i = acting_seats(td, learner)
        ret = returns_to_go(td["next", learner, "reward"][..., 0], td["next", "done"][:, 0])[t, i]
        obs = td[(learner, *OBSERVATION)][t, i]
        v = value(obs)[:, 0]
        adv = (ret - v).detach()
        adv = adv / (adv.std() + 1e-8)
        dist = MaskedCategorical(logits=net(obs), mask=td[learner, "action_mask"][t, i])
        loss = (-(dist.log_prob(td[learner, "action"][t, i]) * adv).mean()
                + VALUE_COEF * ((v - ret) ** 2).mean() - ENTROPY_COEF * dist.entropy().mean())
        optim.zero_grad()
        loss.backward()
        optim.step()
        # the learners' return per round: their side's rewards summed over the batch's steps
        curve.append(float(td["next", learner, "reward"][:, 0, 0].sum()) / rounds_per_update)
    return {"net": net, "value": value, "reward": reward, "curve": curve,
            "train_s": time.perf_counter() - t0}


def evaluate(net: nn.Module, rules: str | Rules = "schieber", deals: int = 200,
             seed: int = 0) -> dict[str, Any]:
    """The greedy policy against ``random`` with the game's evaluation protocol (``agents.evaluate``):
    its summary (headline statistic, interval and the rest)."""
    rules = make_rules(rules)
    protocol = IMPLEMENTATIONS[protocol_for(rules)]
    result = protocol.evaluate(TorchRLPolicyAgent(net), "random", rules, deals, seed, 0, 1, False)
    return {"statistic": statistic_for(rules).key, "line": protocol.summary_line(result.summary),
            "summary": result.summary}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="schieber", choices=list(PRESETS), help="the preset (default schieber)")
    p.add_argument("--groups", default="side", choices=GROUPINGS,
                   help="how TorchRL groups the seats in the rollout shown (training groups by side)")
    p.add_argument("--steps", type=int, default=40, help="steps of the random rollout shown")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--train-rounds", type=int, default=0,
                   help="rounds of REINFORCE training of side 0 against random (0: none)")
    p.add_argument("--rounds-per-update", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--eval-deals", type=int, default=200,
                   help="deals of the evaluation against random after training")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    for name, least in (("steps", 1), ("rounds_per_update", 1), ("train_rounds", 0), ("seed", 0)):
        if getattr(args, name) < least:
            _parser().error(f"--{name.replace('_', '-')} must be at least {least}, got {getattr(args, name)}")
    torch.set_num_threads(1)
    out: dict[str, Any] = {"rollout": describe_rollout(args.rules, args.groups, args.steps, args.seed)}
    if args.train_rounds:
        if args.eval_deals < 2:
            _parser().error("--eval-deals must be at least 2")
        trained = train(args.rules, args.train_rounds, args.rounds_per_update, args.lr, seed=args.seed)
        curve = trained["curve"]
        tenth = max(1, len(curve) // 10)
        out["train"] = {"reward": trained["reward"], "updates": len(curve),
                        "train_s": round(trained["train_s"], 1),
                        "return_first_tenth": float(np.mean(curve[:tenth])),
                        "return_last_tenth": float(np.mean(curve[-tenth:]))}
        out["eval_vs_random"] = evaluate(trained["net"], args.rules, args.eval_deals, args.seed)["line"]
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
