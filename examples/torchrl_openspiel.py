"""TorchRL on the project's OpenSpiel games: OpenSpielEnv("python_jass_<preset>") with masks and a policy.

    pip install -e ".[torchrl]"            # torchrl, tensordict, open_spiel
    python examples/torchrl_openspiel.py --rules schieber --steps 40
    python examples/torchrl_openspiel.py --rules differenzler3 --parametrized --seed 3

Importing :mod:`agents.openspiel` registers every preset with OpenSpiel as ``python_jass_<preset>``
and the parametrized ``python_jass(rules=<preset>)``; ``torchrl.envs.libs.openspiel.OpenSpielEnv``
loads either by name (:func:`make_env`), ``OpenSpielWrapper`` wraps a state you made
(``pyspiel.load_game(...).new_initial_state()``). An episode is one round.

What differs from the PettingZoo route (examples/torchrl_pettingzoo.py):

* The deal is OpenSpiel's chance nodes, which the wrapper resolves itself between the players'
  moves, with its own generator: ``env.set_seed(s)`` seeds it, and ``chance_sampler=`` replaces it
  (:class:`RecordingChanceSampler` keeps the outcomes, so a round can be replayed with
  ``agents.openspiel.deal.deal_from_outcomes``).
* The wrapper keeps the legal actions only in its action spec (``env.rand_action`` respects them)
  and names the seat to move only by ``"current_player"``; :class:`agents.torchrl_adapter.OpenSpielMasks`
  writes both masks into the tensordict as PettingZooWrapper does, so the same masked policy
  (:func:`examples.torchrl_pettingzoo.group_policy`) plays here.
* Rewards: the wrapper writes ``state.returns()`` as every step's reward. The games pay only at
  the end (``RewardModel.TERMINAL``), so every reward is 0 but the last step's: each player's
  side's round score in the game's units (card points in Schieber, not divided by 157 as the AEC
  environment's ``points``; negated where a lower score is better). The scores do not sum to zero.
* TorchRL's defaults: one group ``agents`` for all seats (``ALL_IN_ONE_GROUP``) and one-hot
  actions; :func:`make_env` passes the seats grouped by side and ``categorical_actions=True``.
* ``OpenSpielEnv("python_jass", parameters={"rules": ...})`` fails in torchrl 0.14 (it hands
  ``parameters`` to ``pyspiel.load_game`` as a keyword that function does not take): name the
  parameter in the game string, ``"python_jass(rules=differenzler3)"``, or use the preset's game.

The tensordict of one step, per group ``g`` of ``k`` seats (``A`` actions, ``O`` observation
length, ``I`` information-state length: 43, 529 and 3,721 in Schieber)::

    td[g, "observation"]          float32 [k, O]   the AEC environment's observation of each seat
    td[g, "information_state"]    float32 [k, I]   that, then every move so far
    td[g, "action_mask"]          bool [k, A]      (OpenSpielMasks) legal actions of the seat to move;
                                                   only action 0 for the other seats
    td[g, "mask"]                 bool [k]         (OpenSpielMasks) True for the seat to move
    td[g, "action"]               int64 [k]        only the seat to move's entry is played
    td["current_player"]          int32 []         the seat to move (OpenSpiel's -4 once it is over)
    td["next", g, "reward"]       float32 [k, 1]   0, the round's scores at its last step
    td["next", "done"]            bool [1]         (and terminated; no per-seat flags, no truncated)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.games import PRESETS, make_rules, overrides  # noqa: E402

try:
    from tensordict import TensorDictBase
    from torchrl.envs import TransformedEnv
    from torchrl.envs.libs.openspiel import OpenSpielEnv
    from torchrl.envs.utils import ExplorationType, set_exploration_type

    import agents.openspiel  # noqa: F401  (registers the games with OpenSpiel)
    from agents.openspiel.game import GAME_NAME, game_name
    from agents.torchrl_adapter import OpenSpielMasks, side_group_map
    from examples.torchrl_pettingzoo import group_policy, policy_net
except ImportError as e:  # pragma: no cover - exercised only without the libraries
    raise ImportError(f"this example needs TorchRL and OpenSpiel ({e}); install them with "
                      "pip install -e '.[torchrl]'") from None

#: where a group's observation lies in the OpenSpiel wrapper's tensordict
OBSERVATION = ("observation",)


class RecordingChanceSampler:
    """A ``chance_sampler`` for the OpenSpiel wrapper: draws each chance outcome with its own
    seeded generator, by the probabilities OpenSpiel gives, and keeps the outcomes in ``outcomes``
    (the deal of the rounds dealt so far, in order; clear it to start a new record)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.outcomes: list[int] = []

    def __call__(self, actions: Sequence[int], probabilities: Sequence[float]) -> int:
        outcome = int(self.rng.choice(actions, p=probabilities))
        self.outcomes.append(outcome)
        return outcome


def make_env(rules: str | Rules = "schieber", seed: int | None = None, parametrized: bool = False,
             chance_sampler: Callable[[Sequence[int], Sequence[float]], int] | None = None) -> TransformedEnv:
    """The OpenSpiel game of the preset ``rules`` in TorchRL: seats grouped by side, categorical
    actions, :class:`OpenSpielMasks`. ``parametrized`` loads ``python_jass(rules=<preset>)`` instead of
    ``python_jass_<preset>`` (the same game); ``seed`` seeds the wrapper's chance generator (unless
    ``chance_sampler`` replaces it)."""
    resolved = make_rules(rules)
    preset = resolved.name
    if preset not in PRESETS:
        raise ValueError(f"the OpenSpiel games are the presets ({', '.join(PRESETS)}); got rules {preset!r}")
    if PRESETS[preset] != resolved:
        raise ValueError(f"the OpenSpiel games play the presets as they are; rules {preset!r} come with "
                         f"switches changed: {overrides(resolved)}")
    name = f"{GAME_NAME}(rules={preset})" if parametrized else game_name(preset)
    env = OpenSpielEnv(name, group_map=side_group_map(preset), categorical_actions=True,
                       chance_sampler=chance_sampler)
    if seed is not None:
        env.set_seed(seed)
    return TransformedEnv(env, OpenSpielMasks())


def describe_rollout(rules: str | Rules = "schieber", steps: int = 40, seed: int = 0,
                     parametrized: bool = False) -> dict[str, Any]:
    """A rollout of ``steps`` steps with TorchRL's masked random actions: the groups, the shapes,
    whether every action was legal, and the scores of the rounds that ended."""
    env = make_env(rules, seed=seed, parametrized=parametrized)
    torch.manual_seed(seed)
    td = env.rollout(steps, break_when_any_done=False)
    shapes = {".".join(k if isinstance(k, tuple) else (k,)): str(list(v.shape))
              for k, v in td.items(include_nested=True, leaves_only=True)}
    legal = True
    for group in env.group_map:
        t, i = torch.nonzero(td[group, "mask"], as_tuple=True)
        legal &= bool(td[group, "action_mask"][t, i, td[group, "action"][t, i]].all())
    ends = td["next", "done"][:, 0]
    scores = {group: td["next", group, "reward"][ends, :, 0].tolist() for group in env.group_map}
    return {"game": env.base_env.game_string, "group_map": env.group_map, "steps": td.shape[0],
            "actions_legal": legal, "round_scores": scores, "shapes": shapes}


def play_round(env: TransformedEnv, policy: Any, greedy: bool = False) -> TensorDictBase:
    """One whole round from a fresh deal with ``policy`` (e.g. :func:`group_policy` of masked
    actors over ``OBSERVATION``): its steps ``[T, ...]``."""
    exploration = ExplorationType.DETERMINISTIC if greedy else ExplorationType.RANDOM
    with torch.no_grad(), set_exploration_type(exploration):
        td = env.rollout(10_000, policy, break_when_any_done=True)
    if not bool(td["next", "done"][-1]):
        raise RuntimeError("the round did not end within 10,000 steps")
    return td


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="schieber", choices=list(PRESETS), help="the preset (default schieber)")
    p.add_argument("--steps", type=int, default=40, help="steps of the random rollout shown")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--parametrized", action="store_true",
                   help="load python_jass(rules=<preset>) instead of python_jass_<preset>")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.steps < 1 or args.seed < 0:
        _parser().error(f"--steps must be at least 1 and --seed at least 0; got {args.steps}, {args.seed}")
    torch.set_num_threads(1)
    out: dict[str, Any] = {"rollout": describe_rollout(args.rules, args.steps, args.seed, args.parametrized)}
    # one round with an untrained masked policy network, one network for every group
    env = make_env(args.rules, seed=args.seed, parametrized=args.parametrized)
    group = next(iter(env.group_map))
    obs_dim = env.observation_spec[group, "observation"].shape[-1]
    n_actions = env.full_action_spec[group, "action"].space.n
    torch.manual_seed(args.seed)
    net = policy_net(obs_dim, n_actions, (64,))
    td = play_round(env, group_policy(dict.fromkeys(env.group_map, net), OBSERVATION))
    out["policy_round"] = {"steps": td.shape[0],
                           "scores": {g: td["next", g, "reward"][-1, :, 0].tolist() for g in env.group_map}}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
