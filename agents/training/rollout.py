"""The rollout: the batched environment of a config, the storage of ``T`` steps of ``N`` games
(one decision per game and step), every seat's value at the rollout's end, and the trained
decisions flattened into a :class:`~agents.training.ppo.Batch` with their GAE advantages.

Shapes: ``T`` = ``rollout_steps``, ``N`` = ``num_envs``, ``P`` seats, ``A`` actions, ``D`` the
stored row (the observation, or with a central critic the state, whose first ``obs_dim`` columns
are the observation). The storage is numpy on the CPU; the batch lives on the training device.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jass_env.envs.vector import VectorJassEnv

from ..extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from .config import TrainConfig
from .networks import value_of
from .ppo import Batch, seat_gae


def make_env(cfg: TrainConfig) -> VectorJassEnv:
    """The config's ``num_envs`` batched games (its rules, episode and reward; the state of every
    step too when a central critic needs it)."""
    return VectorJassEnv(cfg.num_envs, rules=cfg.rules, episode=cfg.episode, reward=cfg.reward,
                         check_actions=False, state_obs=cfg.central_critic, parallel=cfg.env_parallel)


@dataclass
class Rollout:
    """Storage of one rollout, step ``t`` of game ``i`` at ``[t, i]``."""

    x: np.ndarray        #: (T, N, D) float32: observation or state of the acting seat
    mask: np.ndarray     #: (T, N, A) bool: its legal actions
    seat: np.ndarray     #: (T, N) int64: the acting seat, 0..P-1
    train: np.ndarray    #: (T, N) bool: decided by the learning policy, so training data
    act: np.ndarray      #: (T, N) int64: the action taken
    logp: np.ndarray     #: (T, N) float32: its log-probability (rows of the learning policy)
    val: np.ndarray      #: (T, N) float32: the value estimate (rows of the learning policy)
    rew: np.ndarray      #: (T, N, P) float32: what every seat got for the step
    done: np.ndarray     #: (T, N) bool: the episode ended at the step
    boot_x: np.ndarray   #: (N, P, D) float32: every seat's row at the rollout's end

    @classmethod
    def zeros(cls, steps: int, games: int, width: int, actions: int, players: int) -> Rollout:
        """Empty storage for ``steps`` (T) x ``games`` (N) decisions of ``width`` (D) columns."""
        t, n = steps, games
        return cls(x=np.zeros((t, n, width), np.float32), mask=np.zeros((t, n, actions), bool),
                   seat=np.zeros((t, n), np.int64), train=np.zeros((t, n), bool),
                   act=np.zeros((t, n), np.int64), logp=np.zeros((t, n), np.float32),
                   val=np.zeros((t, n), np.float32), rew=np.zeros((t, n, players), np.float32),
                   done=np.zeros((t, n), bool), boot_x=np.zeros((n, players, width), np.float32))

    def batch(self, boot: np.ndarray, gamma: float, lam: float, device: torch.device) -> Batch:
        """The rows with ``train`` set, flattened in (t, i) order to M rows on ``device``, with
        their per-seat GAE advantages (:func:`~agents.training.ppo.seat_gae`, bootstrapped from
        ``boot`` (N, P)) and value targets."""
        adv = seat_gae(self.seat, self.val, self.rew, self.done, boot, gamma, lam)      # (T, N)
        sel = self.train.reshape(-1)                                                    # (T*N,)
        val, adv_m = _rows(self.val, sel, device), _rows(adv, sel, device)              # (M,)
        return Batch(x=_rows(self.x, sel, device), mask=_rows(self.mask, sel, device),
                     act=_rows(self.act, sel, device), logp=_rows(self.logp, sel, device),
                     val=val, adv=adv_m, ret=adv_m + val)


def _rows(a: np.ndarray, sel: np.ndarray, device: torch.device) -> torch.Tensor:
    """The rows ``sel`` (T*N,) bool of ``a`` (T, N, ...) as a tensor (M, ...) on ``device``."""
    return torch.from_numpy(a.reshape(sel.size, *a.shape[2:])[sel]).to(device)


def bootstrap_values(policy: nn.Module, critic: nn.Module | None, env: VectorJassEnv, out: np.ndarray,
                     device: torch.device) -> np.ndarray:
    """Every seat's value (N, P) at the end of a rollout, for GAE's bootstrap: every seat's row
    is encoded into ``out`` (N, P, D; the state when there is a critic, else the observation)
    and valued as :func:`~agents.training.networks.value_of` does. Call under
    ``torch.inference_mode()``."""
    n, players, d = out.shape
    env.every_seat(out, want_state=critic is not None)
    rows = torch.from_numpy(out.reshape(n * players, d)).to(device)               # (N*P, D)
    return value_of(policy, critic, rows).float().cpu().numpy().reshape(n, players)
