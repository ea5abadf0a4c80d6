"""What TorchRL's wrappers need to play the project's games well (the ``torchrl`` extra).

* :func:`side_group_map`: a ``group_map`` for ``PettingZooWrapper`` or ``OpenSpielWrapper`` that
  groups the seats by scoring side (``team_0``/``team_1`` in team games, one group per seat in
  games played alone), so partners share a tensordict and a side can have its own policy.
* :class:`OpenSpielMasks`: a transform for ``OpenSpielWrapper``/``OpenSpielEnv``, which keeps the
  legal actions only in its action spec (for ``rand_action``) and names the seat to move only by
  ``"current_player"``. It writes, per group of ``k`` seats, ``(group, "action_mask")`` (bool
  ``[k, n_actions]``, the spec's mask: the legal actions of the seat to move) and ``(group,
  "mask")`` (bool ``[k]``, True for the seat to move), the two entries ``PettingZooWrapper(...,
  use_mask=True)`` writes itself, so one masked policy serves both wrappers.

examples/torchrl_pettingzoo.py and examples/torchrl_openspiel.py use both; docs/integrations.md
(TorchRL) lists what else to know about the wrappers.
"""

from __future__ import annotations

import torch
from tensordict import TensorDictBase
from torchrl.data import Categorical, Composite
from torchrl.envs.transforms import Transform

from jass_env.engine.switches import Rules
from jass_env.games import make_rules


def side_group_map(rules: str | Rules) -> dict[str, list[str]]:
    """The seats (``player_0`` ..., as both wrappers name them) grouped by scoring side
    (``GameSpec.side_of``): ``team_0``/``team_1`` in team games, one group per seat named after it
    in games played alone."""
    spec = make_rules(rules).spec
    if spec.sides == spec.players:
        return {f"player_{p}": [f"player_{p}"] for p in range(spec.players)}
    groups: dict[str, list[str]] = {}
    for p in range(spec.players):
        groups.setdefault(f"team_{spec.side_of(p)}", []).append(f"player_{p}")
    return groups


class OpenSpielMasks(Transform):
    """Per group, the legal-action mask and the seat-to-move mask into the tensordict of every reset
    and step of an ``OpenSpielWrapper`` (module docstring); use it as
    ``TransformedEnv(OpenSpielEnv(...), OpenSpielMasks())``.

    ``(group, "action_mask")`` is the wrapper's own action-spec mask: the seat to move's legal
    actions; the other seats', and every seat's once the round is over, hold only action 0 (the
    wrapper's convention). ``(group, "mask")`` is all False once the round is over.
    """

    def __init__(self) -> None:
        super().__init__(in_keys=[], out_keys=[])

    def _wrapper(self):  # noqa: ANN202 (an OpenSpielWrapper; torchrl imports pyspiel lazily)
        env = self.container
        if env is None:
            raise RuntimeError("OpenSpielMasks works only inside an environment: "
                               "TransformedEnv(OpenSpielEnv(...), OpenSpielMasks())")
        base = getattr(env, "base_env", env)
        if not hasattr(base, "agent_names_to_indices_map"):
            raise TypeError(f"OpenSpielMasks needs an OpenSpielWrapper or OpenSpielEnv, not "
                            f"{type(base).__name__}")
        return base

    def _call(self, next_tensordict: TensorDictBase) -> TensorDictBase:
        base = self._wrapper()
        to_move = int(next_tensordict["current_player"])
        for group, seats in base.group_map.items():
            legal = base.full_action_spec[group, "action"].mask.clone()
            next_tensordict.set((group, "action_mask"), legal)
            seat_ids = torch.tensor([base.agent_names_to_indices_map[s] for s in seats])
            next_tensordict.set((group, "mask"), seat_ids == to_move)
            if self.container is not base:
                # the transformed environment keeps its own copy of the action spec, whose mask the
                # wrapper never updates: without this, its rand_action (a rollout without a policy)
                # would draw from the first state's legal actions
                self.container.full_action_spec[group, "action"].update_mask(legal)
        return next_tensordict

    def _reset(self, tensordict: TensorDictBase, tensordict_reset: TensorDictBase) -> TensorDictBase:
        return self._call(tensordict_reset)

    def transform_observation_spec(self, observation_spec: Composite) -> Composite:
        base = self._wrapper()
        for group, seats in base.group_map.items():
            n_actions = base.full_action_spec[group, "action"].space.n
            observation_spec[group]["action_mask"] = Categorical(
                n=2, shape=torch.Size((len(seats), n_actions)), dtype=torch.bool, device=base.device)
            observation_spec[group]["mask"] = Categorical(
                n=2, shape=torch.Size((len(seats),)), dtype=torch.bool, device=base.device)
        return observation_spec


__all__ = ["side_group_map", "OpenSpielMasks"]
