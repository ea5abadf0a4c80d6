"""PPO's arithmetic: the masked policy distribution, the clipped loss, the behaviour-cloning loss,
per-seat GAE for the batched environment, and the one minibatch update that both PPO and the
warm start run.

* :func:`sample_actions` / :func:`log_prob_entropy`: illegal actions have probability exactly 0
  and are left out of the entropy.
* :func:`seat_gae`: in the batched env one seat acts per game and step, and a seat's reward can
  arrive at a step where another seat acts. Each (game, seat) pair is its own trajectory: the
  rewards paid to a seat between two of its decisions belong to the first one, the seat's next
  decision is its next state, and an episode end terminates every seat's trajectory.
* :func:`minibatch_update`: ``epochs`` passes over a :class:`Batch` of M decisions in
  ``num_minibatches`` shuffled minibatches, one Adam step each (gradient norm clipped), the loss
  given by :func:`ppo_minibatch_loss` or :func:`bc_minibatch_loss`.

Every game of the family trains with the same pieces: sizes come from the game (``P`` players,
``D`` columns per stored row, ``A`` actions), never from Schieber's constants.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training.ppo (the trainer)") from None

from ..network import apply_mask
from .config import TrainConfig
from .networks import policy_and_value

#: the parts of the PPO loss that :func:`ppo_minibatch_loss` reports per minibatch
LOSS_PARTS = ("loss", "pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac")
#: what an iteration's update reports (``losses/<name>`` in TensorBoard)
PPO_STATS = (*LOSS_PARTS, "grad_norm")
#: smallest uniform draw of the Gumbel noise (keeps log(-log(u)) finite)
GUMBEL_MIN_U = 1e-20
#: added to the advantages' standard deviation when they are normalised
ADV_STD_EPS = 1e-8


# distribution
def gumbel(gen: torch.Generator, shape: tuple[int, ...]) -> torch.Tensor:
    """Gumbel(0, 1) noise from a CPU generator: argmax(logits + noise) samples softmax(logits)."""
    u = torch.rand(shape, generator=gen).clamp_(min=GUMBEL_MIN_U)
    return -torch.log(-torch.log(u))


def sample_actions(logits: torch.Tensor, mask: np.ndarray,
                   gen: torch.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One action per row of the masked softmax of ``logits`` (N, A) (CPU; ``mask`` (N, A) bool),
    drawn with Gumbel noise from ``gen``: the actions (N,) int64 and their log-probabilities (N,)
    float32."""
    masked = apply_mask(logits, torch.from_numpy(mask))
    actions = (masked + gumbel(gen, tuple(logits.shape))).argmax(-1)             # (N,)
    logp = torch.log_softmax(masked, -1).gather(1, actions[:, None])[:, 0]       # (N,)
    return actions.numpy(), logp.numpy()


def log_prob_entropy(masked_logits: torch.Tensor, mask: torch.Tensor,
                     actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probability of ``actions`` (B,) and entropy (B,) of the masked softmax.

    ``masked_logits`` (B, n_actions) already carry ``apply_mask``; illegal actions (``mask`` False)
    have probability 0 and contribute nothing to the entropy.
    """
    logp_all = torch.log_softmax(masked_logits, dim=-1)
    p = logp_all.exp()
    entropy = -(p * logp_all).masked_fill(~mask.bool(), 0.0).sum(-1)
    return logp_all.gather(1, actions.long().unsqueeze(1)).squeeze(1), entropy


# losses
@dataclass
class LossOut:
    """The PPO loss of one minibatch and its parts (scalars)."""

    loss: torch.Tensor
    pg_loss: torch.Tensor
    v_loss: torch.Tensor
    entropy: torch.Tensor
    approx_kl: torch.Tensor
    clipfrac: torch.Tensor


def ppo_loss(new_logp: torch.Tensor, entropy: torch.Tensor, new_values: torch.Tensor,
             old_logp: torch.Tensor, old_values: torch.Tensor, advantages: torch.Tensor,
             returns: torch.Tensor, clip_eps: float, vf_coef: float, ent_coef: float,
             clip_vloss: bool = True, norm_adv: bool = True) -> LossOut:
    """Clipped PPO objective (all inputs (B,)).

    pg = mean(max(-A·r, -A·clip(r, 1-eps, 1+eps))) with r = exp(new_logp - old_logp) and A the
    (optionally minibatch-normalised) advantages; value loss = 0.5·mean((V - R)²), or with
    ``clip_vloss`` 0.5·mean(max((V - R)², (V_old + clip(V - V_old, ±eps) - R)²));
    loss = pg - ent_coef·mean(entropy) + vf_coef·v_loss.
    """
    logratio = new_logp - old_logp
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > clip_eps).float().mean()
    adv = advantages
    if norm_adv and adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + ADV_STD_EPS)
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    if clip_vloss:
        v_clipped = old_values + torch.clamp(new_values - old_values, -clip_eps, clip_eps)
        v_loss = 0.5 * torch.max((new_values - returns) ** 2, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((new_values - returns) ** 2).mean()
    ent = entropy.mean()
    loss = pg_loss - ent_coef * ent + vf_coef * v_loss
    return LossOut(loss, pg_loss, v_loss, ent, approx_kl, clipfrac)


def bc_loss(masked_logits: torch.Tensor, targets: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Behaviour-cloning loss: mean cross-entropy (scalar) of the masked policy (B, n_actions) (after
    ``apply_mask``) against the teacher's actions ``targets`` (B,), and the share (scalar, no
    gradient) of rows where the policy's greedy action equals the teacher's."""
    loss = torch.nn.functional.cross_entropy(masked_logits, targets.long())
    with torch.no_grad():
        acc = (masked_logits.argmax(-1) == targets).float().mean()
    return loss, acc


# advantages
@njit(cache=True)
def seat_gae(seat: np.ndarray, values: np.ndarray, rewards: np.ndarray, done: np.ndarray,
             boot: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """GAE advantages (T, N) float32 of every decision of a rollout of the batched env.

    seat (T, N) int64: the seat that acted at step t in game i; values (T, N): its value
    estimate; rewards (T, N, P): what each of the P seats got for step t; done (T, N): the
    episode ended at step t (the next step belongs to a new episode); boot (N, P): the value of
    each seat's state at the end of the rollout (its next decision, not yet taken).

    Each (game, seat) is its own trajectory: a decision's reward is the sum of that seat's
    rewards from its step up to (excluding) its next decision, its next state is that next
    decision (value ``values``), and ``done`` makes it terminal (next value 0). Discounting and
    λ apply per decision of the seat. Returns = advantages + values.
    """
    T, N = seat.shape
    P = rewards.shape[2]
    adv = np.zeros((T, N), dtype=np.float32)
    nv = np.zeros(P, dtype=np.float64)     # value of each seat's next decision
    na = np.zeros(P, dtype=np.float64)     # advantage of each seat's next decision
    acc = np.zeros(P, dtype=np.float64)    # rewards since the seat's decision
    for i in range(N):
        for s in range(P):
            nv[s] = boot[i, s]
            na[s] = 0.0
            acc[s] = 0.0
        for t in range(T - 1, -1, -1):
            if done[t, i]:                 # the episode ended here: every seat's trajectory ends
                for s in range(P):
                    nv[s] = 0.0
                    na[s] = 0.0
                    acc[s] = 0.0
            for s in range(P):
                acc[s] += rewards[t, i, s]
            s = seat[t, i]
            delta = acc[s] + gamma * nv[s] - values[t, i]
            a = delta + gamma * lam * na[s]
            adv[t, i] = a
            nv[s] = values[t, i]
            na[s] = a
            acc[s] = 0.0
    return adv


# update
@dataclass
class Batch:
    """The trained decisions of one rollout, flattened to M rows on the training device."""

    x: torch.Tensor       #: (M, D) float32: the observation, or the state with a central critic
    mask: torch.Tensor    #: (M, A) bool: the legal actions
    act: torch.Tensor     #: (M,) int64: the action taken
    logp: torch.Tensor    #: (M,) float32: its log-probability under the policy of the rollout
    val: torch.Tensor     #: (M,) float32: the value estimate of the decision
    adv: torch.Tensor     #: (M,) float32: its GAE advantage
    ret: torch.Tensor     #: (M,) float32: the value target, adv + val

    @property
    def size(self) -> int:
        return int(self.x.shape[0])


#: a minibatch's loss: (policy, critic, batch, row indices (B,), config) -> (the scalar to
#: minimise, the statistics to report)
MinibatchLoss = Callable[[nn.Module, nn.Module | None, Batch, torch.Tensor, TrainConfig],
                         tuple[torch.Tensor, dict[str, float]]]


def ppo_minibatch_loss(policy: nn.Module, critic: nn.Module | None, batch: Batch, idx: torch.Tensor,
                       cfg: TrainConfig) -> tuple[torch.Tensor, dict[str, float]]:
    """The clipped PPO loss (:func:`ppo_loss`) of the rows ``idx`` (B,) of ``batch``, and its parts."""
    mask = batch.mask[idx]                                                      # (B, A)
    logits, v = policy_and_value(policy, critic, batch.x[idx])                  # (B, A), (B,)
    new_logp, ent = log_prob_entropy(apply_mask(logits, mask), mask, batch.act[idx])
    lo = ppo_loss(new_logp, ent, v, batch.logp[idx], batch.val[idx], batch.adv[idx], batch.ret[idx],
                  cfg.clip_eps, cfg.vf_coef, cfg.ent_coef, cfg.clip_vloss, cfg.norm_adv)
    return lo.loss, {name: float(getattr(lo, name).detach()) for name in LOSS_PARTS}


def bc_minibatch_loss(policy: nn.Module, critic: nn.Module | None, batch: Batch, idx: torch.Tensor,
                      cfg: TrainConfig) -> tuple[torch.Tensor, dict[str, float]]:
    """The warm start's loss of the rows ``idx`` (B,): the cross-entropy to the teacher's actions
    plus ``vf_coef`` x half the squared error of the value to the return; reports ``loss`` (the
    cross-entropy), ``value_loss`` and ``accuracy`` (greedy action = the teacher's)."""
    logits, v = policy_and_value(policy, critic, batch.x[idx])                  # (B, A), (B,)
    ce, hit = bc_loss(apply_mask(logits, batch.mask[idx]), batch.act[idx])
    v_loss = 0.5 * ((v - batch.ret[idx]) ** 2).mean()
    return ce + cfg.vf_coef * v_loss, {"loss": float(ce.detach()), "value_loss": float(v_loss.detach()),
                                       "accuracy": float(hit)}


def minibatch_update(loss_fn: MinibatchLoss, batch: Batch, policy: nn.Module, critic: nn.Module | None,
                     optimizer: torch.optim.Optimizer, cfg: TrainConfig, epochs: int,
                     rng: np.random.Generator, target_kl: float | None = None) -> list[dict[str, float]]:
    """``epochs`` passes over ``batch``, each in a new order (``rng.permutation``) cut into
    ``cfg.num_minibatches`` minibatches of ceil(M / num_minibatches) rows: per minibatch
    ``loss_fn``, backward, the gradient's norm over the optimizer's parameters clipped to
    ``cfg.max_grad_norm``, one optimizer step. With ``target_kl``, stops after the first
    minibatch whose ``approx_kl`` exceeds it. Returns per minibatch its statistics, its
    ``grad_norm`` (before clipping) and its ``epoch``."""
    params = [p for group in optimizer.param_groups for p in group["params"]]
    policy.train()
    m = batch.size
    size = max(1, math.ceil(m / cfg.num_minibatches))
    rows: list[dict[str, float]] = []
    for epoch in range(epochs):
        perm = torch.from_numpy(rng.permutation(m)).to(batch.x.device)         # (M,)
        for start in range(0, m, size):
            loss, stats = loss_fn(policy, critic, batch, perm[start:start + size], cfg)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
            optimizer.step()
            rows.append({**stats, "grad_norm": float(grad_norm), "epoch": epoch})
            if target_kl is not None and stats["approx_kl"] > target_kl:
                return rows
    return rows


def minibatch_means(rows: list[dict[str, float]], names: Sequence[str],
                    first_pass: Sequence[str] = ()) -> dict[str, float]:
    """The mean of each of ``names`` over the minibatches of :func:`minibatch_update` (the names
    in ``first_pass`` over the first pass only: decisions not yet trained on); {} for none."""
    if not rows:
        return {}
    return {name: float(np.mean([r[name] for r in rows if name not in first_pass or r["epoch"] == 0]))
            for name in names}
