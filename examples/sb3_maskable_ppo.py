"""Train one Jass seat with sb3-contrib's MaskablePPO, then evaluate it (duplicate deals).

    pip install -e ".[sb3]"        # stable-baselines3 and sb3-contrib
    python examples/sb3_maskable_ppo.py --timesteps 50000 --opponents heuristic --save runs/sb3/jass.zip

The learner plays through :class:`jass_env.envs.gym.JassGymEnv` with ``flat=True``: the observation
is the ``float32[OBS_DIM]`` vector (SB3's ``MlpPolicy``) and the legal actions come from the env's
``action_masks()`` method, which MaskablePPO queries before every step. The other three seats act
*inside* the environment, so one Gymnasium step is one decision of the learner, and its reward is
everything its seat earned since its previous decision (PettingZoo's cumulative reward): the
tricks the other seats close and the round's final score all reach the learner.

Who plays the other seats:

* ``--opponents random|heuristic`` the two opponents are that bot (:mod:`agents.registry`);
  ``--opponents self`` they are frozen copies of the learner.
* ``--partner self|random|heuristic`` (default ``self``): the seat opposite.

A *frozen copy* is a :class:`MaskablePolicyAgent` on a copy of the learner's policy network (one
copy, no gradients, shared by all frozen seats); :class:`SyncFrozenCallback` loads the learner's
weights into it at the start of training and then every ``--sync-every`` rollouts. Each frozen
seat acts from its observation and action mask, sampling from the masked policy with its own
seeded generator.

With ``--envs N`` (default 8) the learner sits in seat ``i % 4`` of env ``i``. After training the
learner (greedy, both seats of its team) is evaluated with :func:`agents.evaluation.duplicate.evaluate_pair`
against the opponent bot (``--opponents self``: against the random and the heuristic bot) on
``--eval-deals`` duplicate deals; the model is saved with ``--save`` (an SB3 ``.zip``; reload it
with ``MaskablePPO.load(path)`` and wrap it in :class:`MaskablePolicyAgent`).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.base import Agent, Observation  # noqa: E402
from agents.evaluation.duplicate import evaluate_pair  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.envs.gym import JassGymEnv  # noqa: E402
from jass_env.games import PRESETS, make_rules  # noqa: E402
from jass_env.games.base import REWARD_KINDS  # noqa: E402

try:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.utils import LinearSchedule
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as e:  # pragma: no cover - exercised only without the libraries
    raise ImportError(f"this example needs Stable-Baselines3 and sb3-contrib ({e}); install them with "
                      "pip install -e '.[sb3]' (or pip install 'stable-baselines3>=2.9' 'sb3-contrib>=2.9')"
                      ) from None

SEAT_KINDS = ("random", "heuristic", "self")
#: the learning rate over a run: fixed, or decaying linearly to 0
LR_SCHEDULES = ("constant", "linear")


class MaskablePolicyAgent(Agent):
    """An :class:`agents.base.Agent` that acts with a MaskablePPO policy on ``{"observation",
    "action_mask"}``.

    Args:
        policy: a :class:`MaskableActorCriticPolicy` (e.g. ``model.policy``) or a MaskablePPO model;
            used as given (not copied; see :meth:`frozen_copy`).
        greedy: the most probable legal action; False samples from the masked softmax with the
            agent's generator (reseeded by :meth:`reset`, so duplicate deals replay alike).
        seed: generator seed.
    """

    def __init__(self, policy: Any, greedy: bool = True, seed: int | None = None, name: str = "sb3") -> None:
        super().__init__(seed)
        if isinstance(policy, MaskablePPO):
            policy = policy.policy
        if not isinstance(policy, MaskableActorCriticPolicy):
            raise TypeError(f"policy must be a MaskablePPO model or its MaskableActorCriticPolicy, "
                            f"got {type(policy).__name__}")
        self.policy = policy
        self.greedy = bool(greedy)
        self.name = name

    @classmethod
    def frozen_copy(cls, model: Any, greedy: bool = False, seed: int | None = None,
                    name: str = "sb3-frozen") -> MaskablePolicyAgent:
        """An agent with its own copy of ``model``'s policy (no gradients; update with
        :meth:`sync_from`)."""
        src = model.policy if isinstance(model, MaskablePPO) else model
        policy = copy.deepcopy(src)
        policy.set_training_mode(False)
        for p in policy.parameters():
            p.requires_grad_(False)
        return cls(policy, greedy=greedy, seed=seed, name=name)

    def sync_from(self, model: Any) -> None:
        """Copy the weights of ``model`` (a MaskablePPO or its policy) into this agent's policy."""
        src = model.policy if isinstance(model, MaskablePPO) else model
        self.policy.load_state_dict(src.state_dict())

    def probabilities(self, obs: Observation) -> np.ndarray:
        """float64[43]: the policy's action probabilities, zero outside the action mask."""
        mask = np.asarray(obs["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("no legal action in the action mask (is it this seat's turn?)")
        policy = self.policy
        x = torch.as_tensor(np.asarray(obs["observation"], dtype=np.float32)).unsqueeze(0)
        with torch.inference_mode():  # what get_distribution computes, without the distribution objects
            features = super(MaskableActorCriticPolicy, policy).extract_features(
                x.to(policy.device), policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
        logits = logits.double().cpu().numpy()
        logits = np.where(mask, logits, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, obs: Observation) -> int:
        p = self.probabilities(obs)
        if self.greedy:
            return int(np.argmax(p))
        return int(self.rng.choice(p.size, p=p))


class SyncFrozenCallback(BaseCallback):
    """Copies the learner's weights into frozen-copy agents at the start of training and then
    every ``every`` rollouts (``every`` >= 1)."""

    def __init__(self, agents: Sequence[MaskablePolicyAgent], every: int = 1, verbose: int = 0) -> None:
        super().__init__(verbose)
        if every < 1:
            raise ValueError(f"every must be >= 1 rollout, got {every}")
        self.agents = list(agents)
        self.every = int(every)
        self.rollouts = 0
        self.syncs = 0

    def _sync(self) -> None:
        done: set[int] = set()
        for a in self.agents:  # agents may share one frozen policy: copy into each policy once
            if id(a.policy) not in done:
                a.sync_from(self.model)
                done.add(id(a.policy))
        self.syncs += 1

    def _on_training_start(self) -> None:
        self._sync()

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.rollouts % self.every == 0:
            self._sync()

    def _on_step(self) -> bool:
        return True


def seat_agent(kind: str, rules: Rules, seed: int, frozen: list[MaskablePolicyAgent],
               frozen_policy: MaskableActorCriticPolicy) -> Any:
    """The agent of one non-learning seat: a bot, or a frozen copy of the learner (an agent on
    ``frozen_policy``, sampling with its own generator; appended to ``frozen``)."""
    if kind == "self":
        agent = MaskablePolicyAgent(frozen_policy, greedy=False, seed=seed, name="sb3-frozen")
        frozen.append(agent)
        return agent
    if kind not in SEAT_KINDS:
        raise ValueError(f"unknown seat kind {kind!r}; valid: {', '.join(SEAT_KINDS)}")
    return make_agent(kind, rules, seed=seed)


def make_vec_env(opponents: str, partner: str, rules: Rules, seed: int, n_envs: int, reward: str,
                 frozen: list[MaskablePolicyAgent], frozen_policy: MaskableActorCriticPolicy) -> DummyVecEnv:
    """``n_envs`` Monitor-wrapped :class:`JassGymEnv` (flat observations), learner in seat ``i % 4``."""

    def factory(i: int) -> Any:
        base = seed * 1000 + 10 * i
        opp = [seat_agent(opponents, rules, base + k, frozen, frozen_policy) for k in (1, 3)]
        part = seat_agent(partner, rules, base + 2, frozen, frozen_policy)
        return lambda: Monitor(JassGymEnv(seat=i % 4, opponents=opp, partner=part, rules=rules,
                                          reward=reward, flat=True, illegal_action="raise"))

    return DummyVecEnv([factory(i) for i in range(n_envs)])


def build_model(opponents: str = "random", partner: str = "self", *, seed: int = 0,
                rules: str | Rules = "schieber", reward: str = "points", n_envs: int = 8,
                n_steps: int = 128, batch_size: int = 256,
                n_epochs: int = 4, learning_rate: float = 3e-4, lr_schedule: str = "constant",
                hidden: Sequence[int] = (256, 256), ent_coef: float = 0.01, sync_every: int = 1,
                verbose: int = 0) -> tuple[MaskablePPO, SyncFrozenCallback]:
    """A MaskablePPO model on the Jass env and the callback that keeps its frozen copies in sync.

    ``n_steps`` is per env (a rollout is ``n_envs * n_steps`` learner decisions); ``gamma`` is 1
    (a round is one episode of about 10 learner decisions; the rewards are bounded).
    ``lr_schedule``: ``"constant"`` keeps ``learning_rate``; ``"linear"`` decays it linearly from
    ``learning_rate`` to 0 over the ``total_timesteps`` of ``model.learn``.
    """
    for what, kind in (("opponents", opponents), ("partner", partner)):
        if kind not in SEAT_KINDS:
            raise ValueError(f"unknown {what} {kind!r}; valid: {', '.join(SEAT_KINDS)}")
    if reward not in REWARD_KINDS:
        raise ValueError(f"unknown reward {reward!r}; valid: {', '.join(REWARD_KINDS)}")
    if n_envs < 1 or n_steps < 2 or batch_size < 2:
        raise ValueError(f"need n_envs >= 1, n_steps >= 2, batch_size >= 2; "
                         f"got {n_envs}, {n_steps}, {batch_size}")
    if lr_schedule not in LR_SCHEDULES:
        raise ValueError(f"unknown lr_schedule {lr_schedule!r}; valid: {', '.join(LR_SCHEDULES)}")
    rules = make_rules(rules)
    policy_kwargs = {"net_arch": list(hidden)}
    # the envs (and their frozen-copy seats) exist before the model: all frozen copies share one
    # policy of the learner's shape, without gradients; the callback loads the learner's weights
    # into it when training starts and after every ``sync_every`` rollouts
    probe = JassGymEnv(rules=rules, flat=True)
    frozen_policy = MaskableActorCriticPolicy(probe.observation_space, probe.action_space, lambda _: 0.0,
                                              **policy_kwargs)
    frozen_policy.set_training_mode(False)
    frozen_policy.requires_grad_(False)
    frozen: list[MaskablePolicyAgent] = []
    env = make_vec_env(opponents, partner, rules, seed, n_envs, reward, frozen, frozen_policy)
    lr = learning_rate if lr_schedule == "constant" else LinearSchedule(learning_rate, 0.0, 1.0)
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
                        learning_rate=lr, gamma=1.0, gae_lambda=0.95, ent_coef=ent_coef,
                        policy_kwargs=policy_kwargs, seed=seed, verbose=verbose, device="cpu")
    return model, SyncFrozenCallback(frozen, every=sync_every)


def evaluate(model: MaskablePPO, opponents: Sequence[str], rules: str | Rules = "schieber", deals: int = 100,
             seed: int = 0) -> dict[str, dict[str, Any]]:
    """Duplicate evaluation of the greedy learner (both seats of its team) against each bot spec."""
    out = {}
    for spec in opponents:
        res = evaluate_pair(MaskablePolicyAgent(model, greedy=True, name="sb3-maskableppo"), spec,
                            rules=rules, deals=deals, seed=seed)
        s = res.summary
        out[spec] = {k: s[k] for k in ("points_per_hand", "ci95", "round_win_rate", "share_of_deals_won")}
    return out


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timesteps", type=int, default=50_000,
                    help="learner decisions to train (default 50000)")
    ap.add_argument("--opponents", choices=SEAT_KINDS, default="random",
                    help="who plays the two opponent seats (self = frozen copies of the learner)")
    ap.add_argument("--partner", choices=SEAT_KINDS, default="self", help="who plays the partner seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, default=None, help="write the trained model here (SB3 .zip)")
    ap.add_argument("--rules", default="schieber", help=f"rules preset ({', '.join(PRESETS)})")
    ap.add_argument("--reward", choices=REWARD_KINDS, default="points")
    ap.add_argument("--envs", type=int, default=8, help="parallel envs (learner in seat i %% 4)")
    ap.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    ap.add_argument("--lr-schedule", choices=LR_SCHEDULES, default="constant",
                    help="keep the learning rate, or decay it linearly to 0 over the run")
    ap.add_argument("--sync-every", type=int, default=1, help="rollouts between frozen-copy updates")
    ap.add_argument("--eval-deals", type=int, default=200, help="duplicate deals per evaluation (0: none)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--verbose", type=int, default=0, choices=(0, 1, 2))
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.timesteps < 1:
        print(f"error: --timesteps must be >= 1, got {args.timesteps}", file=sys.stderr)
        return 2
    if args.eval_deals == 1 or args.eval_deals < 0:
        print(f"error: --eval-deals must be 0 (no evaluation) or >= 2, got {args.eval_deals}",
              file=sys.stderr)
        return 2
    try:
        rules = make_rules(args.rules)
        torch.set_num_threads(args.threads)
        model, callback = build_model(args.opponents, args.partner, seed=args.seed, rules=rules,
                                      reward=args.reward, n_envs=args.envs, n_steps=args.n_steps,
                                      batch_size=args.batch_size, learning_rate=args.lr,
                                      lr_schedule=args.lr_schedule, sync_every=args.sync_every,
                                      verbose=args.verbose)
    except ValueError as e:  # RulesError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=callback)
    wall = time.perf_counter() - t0
    report: dict[str, Any] = {"timesteps": int(model.num_timesteps), "train_s": round(wall, 1),
                              "steps_per_s": round(model.num_timesteps / wall, 1),
                              "frozen_copies": len(callback.agents), "frozen_syncs": callback.syncs}
    if args.save is not None:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        model.save(args.save)
        report["saved"] = str(args.save)
    if args.eval_deals:
        specs = ["random", "heuristic"] if args.opponents == "self" else [args.opponents]
        report["evaluation"] = evaluate(model, specs, rules, deals=args.eval_deals, seed=args.seed)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
