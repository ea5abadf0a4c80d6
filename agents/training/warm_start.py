"""The behaviour-cloning warm start (``bc_decisions`` > 0): before PPO's iteration 0 the policy
imitates the heuristic bot, which plays every seat, and the value function learns that play's
returns. It runs once; the checkpoint counts it (``bc_decisions_done``), so a resumed run does
not repeat it."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.envs.encoding import obs_dim, state_dim

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from ..batched import bot_actions
from ..network import PolicyNet
from .config import TrainConfig
from .networks import ADAM_EPS, CriticNet, value_of
from .ppo import bc_minibatch_loss, minibatch_means, minibatch_update
from .rollout import Rollout, bootstrap_values, make_env
from .run_folder import WARM_START_DIR
from .timing import hms

#: what the warm start reports per batch (``bc/<name>`` in TensorBoard); ``accuracy`` over the
#: first pass only, on decisions not yet trained on
BC_STATS = ("loss", "value_loss", "accuracy")
#: a progress line every this many batches (and after the last)
PRINT_EVERY = 20


def warm_start(cfg: TrainConfig, policy: PolicyNet, critic: CriticNet | None, device: torch.device,
               writer: Any = None) -> dict[str, float]:
    """Behaviour-cloning warm start: imitate the heuristic bot for ``cfg.bc_rounds`` batches.

    Its own batched env (the trainer's settings, ``num_envs`` games, seed ``cfg.seed + 1``) plays
    ``rollout_steps`` steps per batch with the heuristic in every seat; then ``bc_epochs`` passes
    of ``num_minibatches`` Adam steps (``bc_lr``, its own optimizer; gradient norm clipped at
    ``max_grad_norm``) minimise, over every decision, the cross-entropy of the masked policy to
    the heuristic's action plus ``vf_coef`` x the squared error of the value (critic, or the
    policy's value head) to the TD(lambda) returns of that play (per-seat GAE with
    ``gamma``/``gae_lambda``). Deterministic; uses no global RNG, so the PPO that follows draws
    exactly what it would without the warm start. Logs ``bc/loss``, ``bc/value_loss`` and
    ``bc/accuracy`` at step = warm-start decisions so far to ``writer`` (the trainer's is in
    ``RUN_DIR/warm_start``, apart from PPO's steps). Returns the last batch's stats and
    ``decisions`` (env decisions played).
    """
    N, T = cfg.num_envs, cfg.rollout_steps
    central = critic is not None
    env = make_env(cfg)
    rules = env.rules
    P, A = rules.spec.players, rules.spec.n_actions
    D = state_dim(rules) if central else obs_dim(rules)
    gen = np.random.default_rng(cfg.seed + 1)                 # minibatch order
    params = list(policy.parameters()) + (list(critic.parameters()) if central else [])
    opt = torch.optim.Adam(params, lr=cfg.bc_lr, eps=ADAM_EPS)

    r = env.reset(seed=cfg.seed + 1)
    obs, mask, seat = r.obs, r.mask, r.seat                   # (N, obs_dim), (N, A), (N,)
    state = env.states() if central else None                 # (N, state_dim)
    buf = Rollout.zeros(T, N, D, A, P)
    buf.train[:] = True                                       # every seat's decision is a target
    decisions = 0
    stats: dict[str, float] = {}
    start = time.monotonic()
    for rnd in range(cfg.bc_rounds):
        for t in range(T):
            buf.x[t] = state if central else obs
            buf.mask[t], buf.seat[t] = mask, seat
            actions = bot_actions("heuristic", rules, obs, mask, None)                    # (N,)
            buf.act[t] = actions
            out = env.step(actions)
            buf.rew[t], buf.done[t] = out.rewards, out.done
            obs, mask, seat, state = out.obs, out.mask, out.seat, out.states
        decisions += N * T
        with torch.inference_mode():
            policy.eval()
            x = torch.from_numpy(buf.x.reshape(T * N, D)).to(device)                     # (T*N, D)
            buf.val[:] = value_of(policy, critic, x).float().cpu().numpy().reshape(T, N)
            boot = bootstrap_values(policy, critic, env, buf.boot_x, device)             # (N, P)
        batch = buf.batch(boot, cfg.gamma, cfg.gae_lambda, device)                        # T*N rows
        minibatches = minibatch_update(bc_minibatch_loss, batch, policy, critic, opt, cfg, cfg.bc_epochs, gen)
        stats = minibatch_means(minibatches, BC_STATS, first_pass=("accuracy",))
        if writer is not None:
            for k, v in stats.items():
                writer.add_scalar(f"bc/{k}", v, decisions)
        if cfg.progress and (rnd + 1 == cfg.bc_rounds or (rnd + 1) % PRINT_EVERY == 0):
            print(f"{cfg.name} warm start {rnd + 1}/{cfg.bc_rounds} {decisions / 1e6:.2f}M dec "
                  f"loss {stats['loss']:.3f} accuracy {stats['accuracy']:.3f} "
                  f"elapsed {hms(time.monotonic() - start)}", file=sys.stderr, flush=True)
    policy.eval()
    return {**stats, "decisions": float(decisions)}


def run_warm_start(cfg: TrainConfig, policy: PolicyNet, critic: CriticNet | None, device: torch.device,
                   writer: Any) -> int:
    """:func:`warm_start` in a run whose TensorBoard ``writer`` logs PPO's scalars: its own events go
    into ``RUN_DIR/warm_start`` (its steps, warm-start decisions, are not PPO's, and a resume's
    purge of PPO's steps must not touch them); ``time/warm_start_s`` into ``writer``. Returns the
    env decisions it played."""
    from torch.utils.tensorboard import SummaryWriter  # heavy import: only when training

    t0 = time.perf_counter()
    with SummaryWriter(log_dir=str(Path(writer.log_dir) / WARM_START_DIR)) as bc_writer:
        decisions = int(warm_start(cfg, policy, critic, device, bc_writer)["decisions"])
    writer.add_scalar("time/warm_start_s", time.perf_counter() - t0, 0)
    return decisions
