"""The trained networks: the policy (:class:`~agents.network.PolicyNet`, seeing its observation),
the optional centralized critic (:class:`CriticNet`, seeing the full state), their optimizer and
the ring of frozen snapshots that play as opponents (:class:`Learner`).

A stored decision row ``x`` (B, D) is the observation (D = ``obs_dim``) or, with a central
critic, the state (D = ``state_dim``), whose first ``obs_dim`` columns are the observation: the
policy reads those, the critic the whole row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim, state_dim
from jass_env.games import make_rules

from ..extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from ..network import PolicyNet, init_linear_layers, load_policy
from ..trained_for import layout_problem, stored_trained_for
from .agent_specs import spec_error
from .config import TrainConfig
from .yaml_config import ConfigError

#: Adam's epsilon, for PPO's optimizer and the warm start's
ADAM_EPS = 1e-5


class CriticNet(nn.Module):
    """Centralized value MLP: perfect-information state (B, state_dim) -> value (B,), with
    ``state_dim`` the game's (``jass_env.envs.encoding.state_dim(rules)``).

    Seen only by the trainer (the state includes the other hands); ``seed`` initialises the
    weights reproducibly (uniform ±1/√fan_in, biases 0) without touching the global torch RNG.
    """

    def __init__(self, hidden: Sequence[int], state_dim: int, seed: int = 0) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = state_dim
        for h in hidden:
            layers += [nn.Linear(width, int(h)), nn.ReLU()]
            width = int(h)
        layers.append(nn.Linear(width, 1))
        self.net = nn.Sequential(*layers)
        init_linear_layers(self, seed)

    def forward(self, state: torch.Tensor) -> torch.Tensor:
        return self.net(state).squeeze(-1)


def policy_and_value(policy: nn.Module, critic: nn.Module | None,
                     x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """For stored rows ``x`` (B, D): the policy's logits (B, n_actions) from the observation part
    (the first ``policy.obs_dim`` columns) and the values (B,): the centralized critic's on the
    whole row (D = the state's length) when there is one, else the policy's value head."""
    logits, v = policy(x[:, :policy.obs_dim])
    return logits, (critic(x) if critic is not None else v)


def value_of(policy: nn.Module, critic: nn.Module | None, x: torch.Tensor) -> torch.Tensor:
    """Values (B,) of stored rows ``x`` (B, D), as :func:`policy_and_value` gives them (without
    running the policy when a critic gives the value)."""
    return critic(x) if critic is not None else policy(x[:, :policy.obs_dim])[1]


def configure_torch(cfg: TrainConfig) -> torch.device:
    """Set torch's CPU threads to ``torch_threads`` and return the config's ``device``: ``auto``
    is cuda when there is one, else cpu; ConfigError for a cuda device that is not there."""
    torch.set_num_threads(cfg.torch_threads)
    if cfg.device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if cfg.device.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"config key 'device': {cfg.device!r} asked for, but no CUDA device is available; "
                          "allowed here: auto, cpu")
    return torch.device(cfg.device)


def new_policy(cfg: TrainConfig, rules: Rules, seed: int | None = None) -> PolicyNet:
    """A policy network of the config's size for the game of ``rules`` (``seed`` None: torch's
    default initialisation, drawing from the global torch RNG)."""
    return PolicyNet(cfg.hidden, obs_dim=obs_dim(rules), n_actions=rules.spec.n_actions, seed=seed,
                     game=rules.game)


def load_initial_policy(cfg: TrainConfig, policy: PolicyNet) -> None:
    """Copy the weights of the checkpoint ``cfg.init_policy`` into ``policy`` (of a suit-averaged
    network its MLP's: ``policy`` stays a single view); CheckpointError for a bad file, ConfigError
    when it is a policy of another game (even one of the same sizes: Mittlere's and Molotow's for
    three) or its network does not fit the config."""
    net, ckpt = load_policy(cfg.init_policy)
    rules = make_rules(cfg.rules)
    problem = layout_problem(stored_trained_for(ckpt), f"policy checkpoint {cfg.init_policy!r}", rules)
    if problem:
        raise spec_error("init_policy", cfg.init_policy, rules, problem)
    have = (net.hidden, net.obs_dim, net.n_actions)
    want = (policy.hidden, policy.obs_dim, policy.n_actions)
    if have != want:
        raise ConfigError(f"config key 'init_policy': {cfg.init_policy!r} holds a network with hidden "
                          f"{net.hidden}, {net.obs_dim} inputs and {net.n_actions} actions; this run needs "
                          f"hidden {policy.hidden}, {policy.obs_dim} inputs and {policy.n_actions} actions "
                          f"(set hidden, or pick a checkpoint of game {cfg.rules!r})")
    policy.load_state_dict(net.state_dict())


@dataclass
class Learner:
    """The trained networks, their optimizer and the ring of frozen snapshots."""

    policy: PolicyNet
    critic: CriticNet | None
    optimizer: torch.optim.Optimizer    #: Adam over the policy's parameters, then the critic's
    snapshots: list[PolicyNet]          #: ``snapshot_keep`` slots, in eval mode

    def take_snapshot(self, k: int, filled: int) -> int:
        """Copy the policy into slot ``k`` mod ``snapshot_keep`` (the ``k``-th snapshot replaces
        the oldest); returns the slots in use, given ``filled`` before."""
        self.snapshots[k % len(self.snapshots)].load_state_dict(self.policy.state_dict())
        return min(filled + 1, len(self.snapshots))


def new_learner(cfg: TrainConfig, rules: Rules, device: torch.device, from_init_policy: bool) -> Learner:
    """The policy (seed ``cfg.seed``; with ``from_init_policy`` the weights of ``init_policy``
    when the config names one), the critic (seed ``cfg.seed + 1``) when ``central_critic``, Adam
    (``lr``) over both, and ``snapshot_keep`` snapshot slots (torch's default initialisation)."""
    policy = new_policy(cfg, rules, seed=cfg.seed)
    if cfg.init_policy is not None and from_init_policy:
        load_initial_policy(cfg, policy)
    policy = policy.to(device)
    critic = (CriticNet(cfg.critic_hidden, state_dim=state_dim(rules), seed=cfg.seed + 1).to(device)
              if cfg.central_critic else None)
    params = list(policy.parameters()) + (list(critic.parameters()) if critic is not None else [])
    return Learner(policy, critic, torch.optim.Adam(params, lr=cfg.lr, eps=ADAM_EPS),
                   [new_policy(cfg, rules).to(device).eval() for _ in range(cfg.snapshot_keep)])
