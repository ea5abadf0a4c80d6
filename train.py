"""PPO self-play for Jass (one loop, read top to bottom in the manner of CleanRL's ppo.py).

    .venv/bin/python train.py --config configs/quickstart.yaml [key=value ...] [--stop-after N]
    .venv/bin/python train.py --resume runs/quickstart-20250101-120000 [progress=false ...]

The config is :class:`agents.training.config.TrainConfig` (one YAML file; a docstring per key).
Every game of the family trains here (``rules``); the sizes come from the game. One iteration:
``rollout_steps`` (T) steps of ``num_envs`` (N) batched games, one decision per game and step,
each game's seats played by its line-up (:mod:`agents.training.lineups`: the learner's side and
an opponent kind drawn when the episode starts); per-seat GAE; ``epochs`` x ``num_minibatches``
PPO minibatches on the decisions of the learning policy (:mod:`agents.training.ppo`); the
iteration's scalars (:mod:`agents.training.scalars`); the periodic evaluation, which keeps
``best.pt``, and ``latest.pt`` (:mod:`agents.training.checkpoint`). With ``bc_decisions`` a
behaviour-cloning warm start (:mod:`agents.training.warm_start`) runs once before iteration 0.
The run folder (:mod:`agents.training.run_folder`) ends with the final evaluation
(:mod:`agents.training.results`). ``--resume`` continues a run exactly as if it had not been
interrupted (:mod:`agents.training.resume`: from ``latest.pt``, else ``best.pt``, else from
iteration 0). Every agent the config names is built for the run's game before the run folder is
written (:mod:`agents.training.agent_specs`). Exit status 2 with one ``error:`` line for a bad
config or checkpoint.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from agents.extras import missing_extra

try:
    import torch
except ModuleNotFoundError as _exc:  # torch, TensorBoard, PyYAML and matplotlib: the "train" extra
    sys.exit(str(missing_extra(_exc, "train.py")))

from agents.evaluation.protocol import statistic_for
from agents.network import CheckpointError
from agents.training.agent_specs import check_eval_opponents
from agents.training.checkpoint import Counters, restore, save_checkpoint
from agents.training.config import TrainConfig, best_opponent, load_config
from agents.training.console import ProgressLine, print_summary
from agents.training.generators import Generators, seed_globals
from agents.training.lineups import SELF, Lineups, bots_act, opponent_agent, policy_actions
from agents.training.networks import configure_torch, new_learner, new_policy
from agents.training.ppo import PPO_STATS, minibatch_means, minibatch_update, ppo_minibatch_loss
from agents.training.results import (
    Evaluation,
    RunSummary,
    evaluate_policy,
    final_outputs,
    finished_run,
    is_new_best,
)
from agents.training.resume import resumed_run
from agents.training.rollout import Rollout, bootstrap_values, make_env
from agents.training.run_folder import fresh_run_dir, open_run
from agents.training.scalars import log_evaluation, log_iteration
from agents.training.timing import Timers
from agents.training.warm_start import run_warm_start
from agents.training.yaml_config import ConfigError
from jass_env.commands import shown_command
from jass_env.envs.encoding import obs_dim, state_dim


def train(cfg: TrainConfig, ckpt: dict[str, Any] | None = None, stop_after: int | None = None,
          overwrite: bool = False) -> RunSummary:
    """Run PPO self-play in the folder ``cfg.run_dir``, or continue there the run of ``ckpt`` (its
    ``latest.pt``); stop after ``stop_after`` iterations in all (checkpointed; the schedule stays).
    ``overwrite``: a fresh run removes the outputs of an earlier run in the folder first."""
    run_dir = Path(cfg.run_dir)
    device = configure_torch(cfg)
    check_eval_opponents(cfg, resumed=ckpt is not None)
    seed_globals(cfg.seed)
    gens = Generators.from_seed(cfg.seed)

    # environment: N games, the acting seat of each changes every step
    N, T = cfg.num_envs, cfg.rollout_steps
    env = make_env(cfg)
    rules, central = env.rules, cfg.central_critic
    P, A = rules.spec.players, rules.spec.n_actions      # seats, actions of the game
    D = state_dim(rules) if central else obs_dim(rules)  # a stored row (the observation is its first part)
    stat = statistic_for(rules)

    # networks, optimizer, frozen snapshots (a ring of snapshot_keep slots), line-ups
    learner = new_learner(cfg, rules, device, from_init_policy=ckpt is None)
    policy, critic, optimizer = learner.policy, learner.critic, learner.optimizer
    lineups = Lineups(N, rules)
    agent_bot = opponent_agent(cfg, rules, gens.agent)
    if ckpt is None:
        run, first = Counters(), env.reset(seed=cfg.seed)
        run.snap_filled = learner.take_snapshot(0, run.snap_filled)
        lineups.draw(np.arange(N), cfg.opponent_weights(0.0), run.snap_filled, gens.draws)
    else:
        run, first = restore(ckpt, cfg, learner, env, lineups, gens)
    obs, mask, seat = first.obs, first.mask, first.seat  # (N, obs_dim), (N, A), (N,)
    state = env.states() if central else None            # (N, state_dim)

    # rollout storage (T steps x N games), the run folder, the warm start
    buf = Rollout.zeros(T, N, D, A, P)
    writer = open_run(cfg, overwrite, ckpt is not None, run.iteration, run.env_decisions)
    timers = Timers()
    last_iter = cfg.iterations if stop_after is None else min(cfg.iterations, stop_after)
    start, cpu_start = time.monotonic(), time.process_time()
    last_eval: Evaluation = {}
    eval_policy = new_policy(cfg, rules).to(device)
    if ckpt is None and cfg.bc_decisions > 0:            # once, before iteration 0
        run.bc_done = run_warm_start(cfg, policy, critic, device, writer)
        learner.take_snapshot(0, run.snap_filled)        # snapshot 0: the warm-started policy
    progress_line = ProgressLine(cfg, run.iteration, last_iter, start)

    while run.iteration < last_iter:
        it_start, t_before = time.perf_counter(), dict(timers.total)
        progress = run.iteration / cfg.iterations
        if cfg.lr_anneal:
            for g in optimizer.param_groups:
                g["lr"] = cfg.lr * (1.0 - progress)
        if run.iteration % cfg.snapshot_every == 0 and run.iteration > 0:
            run.snap_filled = learner.take_snapshot(run.iteration // cfg.snapshot_every, run.snap_filled)
        margins: dict[int, list[float]] = {}                 # per opponent kind, of the episodes that end

        # rollout
        policy.eval()
        for t in range(T):
            with timers("other"):
                buf.x[t] = state if central else obs
                buf.mask[t], buf.seat[t] = mask, seat
                kind = lineups.deciders(seat)                # (N,) who decides each game's step
                buf.train[t] = kind == SELF
            with timers("inference"), torch.inference_mode():
                actions, buf.logp[t] = policy_actions(kind, buf.x[t], obs, mask, lineups.opp_slot, learner,
                                                      device, gens.sample, buf.val[t])     # (N,), (N,)
            with timers("bots"):
                bots_act(kind, rules, obs, mask, gens.bots, agent_bot, actions)
            buf.act[t] = actions
            with timers("env"):
                out = env.step(actions)
            with timers("other"):
                buf.rew[t], buf.done[t] = out.rewards, out.done                     # (N, P), (N,)
                obs, mask, seat, state = out.obs, out.mask, out.seat, out.states
                ended = np.flatnonzero(out.done)
                if ended.size:
                    lineups.record_margins(ended, out.final_score[ended], rules, margins)
                    lineups.draw(ended, cfg.opponent_weights(progress), run.snap_filled, gens.draws)

        # advantages, flatten
        with timers("inference"), torch.inference_mode():
            boot = bootstrap_values(policy, critic, env, buf.boot_x, device)       # (N, P)
        with timers("other"):
            batch = buf.batch(boot, cfg.gamma, cfg.gae_lambda, device)             # M trained decisions

        # update
        with timers("update"):
            minibatches = minibatch_update(ppo_minibatch_loss, batch, policy, critic, optimizer, cfg,
                                           cfg.epochs, gens.draws, cfg.target_kl)
        run.iteration += 1
        run.env_decisions += N * T
        run.trained_decisions += batch.size

        # logging
        with timers("other"):
            it_time = time.perf_counter() - it_start
            losses = minibatch_means(minibatches, PPO_STATS)
            log_iteration(writer, run, losses, batch, optimizer.param_groups[0]["lr"], N * T, it_time,
                          margins, timers.since(t_before))

        # evaluation, checkpoints (either one can be resumed from: best.pt too holds the whole state)
        evaluated = ((cfg.eval_every and run.iteration % cfg.eval_every == 0)
                     or run.iteration == cfg.iterations)
        if evaluated:
            eval_policy.load_state_dict(policy.state_dict())
            with timers("eval"):
                last_eval = evaluate_policy(cfg, eval_policy, device)
            log_evaluation(writer, last_eval, run.env_decisions, timers.last["eval"],
                           run.elapsed_before + time.monotonic() - start)
        writer.flush()                         # all that a checkpoint covers is on disk before it
        elapsed = run.elapsed_before + time.monotonic() - start
        if evaluated and is_new_best(cfg, last_eval, run.best_eval):
            run.best_eval = last_eval[best_opponent(cfg.eval_opponents)][stat.key]
            save_checkpoint("best.pt", cfg, run, learner, env, lineups, gens, elapsed)
        if run.iteration % cfg.checkpoint_every == 0 or run.iteration == last_iter:
            save_checkpoint("latest.pt", cfg, run, learner, env, lineups, gens, elapsed)
        progress_line.update(run, N * T / it_time, losses.get("entropy", math.nan), last_eval, stat.key)

    writer.close()
    wall = time.monotonic() - start
    results = final_outputs(cfg, run_dir, device) if run.iteration == cfg.iterations else None
    return RunSummary(run_dir, run.iteration, cfg.iterations, run.env_decisions, results,
                      trained_decisions=run.trained_decisions, bc_decisions=run.bc_done, wall_s=wall,
                      cpu_s=time.process_time() - cpu_start, eval=last_eval, statistic=stat.key)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=f"{shown_command('python')} train.py",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="YAML config (configs/*.yaml); keys: agents/training/config.py "
                    "TrainConfig")
    ap.add_argument("--resume", metavar="RUN_DIR",
                    help="continue the run in RUN_DIR from checkpoints/latest.pt (else best.pt; a run "
                    "stopped before either starts over from its config.yaml; a finished run: only its "
                    "missing final outputs are written)")
    ap.add_argument("--stop-after", type=int, metavar="N", help="stop after N iterations in total "
                    "(checkpointed; resume later)")
    ap.add_argument("--overwrite", action="store_true", help="start afresh in a run_dir that already holds "
                    "files, removing an earlier run's checkpoints, events, config.yaml and results there "
                    "(other files stay; without it such a run_dir is refused)")
    ap.add_argument("overrides", nargs="*", metavar="key=value", help="config overrides, e.g. lr=1e-4 "
                    "(before or after the options)")
    args = ap.parse_intermixed_args(argv)
    try:
        if args.stop_after is not None and args.stop_after < 1:
            raise ConfigError(f"--stop-after: {args.stop_after} is not allowed; allowed: an integer >= 1")
        if args.resume:
            if args.config:
                raise ConfigError("--resume takes the config stored in the run; do not pass --config too")
            if args.overwrite:
                raise ConfigError("--overwrite starts a run afresh; it cannot go with --resume")
            cfg, ckpt = resumed_run(Path(args.resume), args.overrides)
            overwrite = ckpt is None             # starting over: the earlier process's outputs go
        else:
            if not args.config:
                raise ConfigError("give --config FILE (e.g. configs/quickstart.yaml) or --resume RUN_DIR")
            asked = load_config(args.config, args.overrides)
            cfg, ckpt = replace(asked, run_dir=str(fresh_run_dir(asked, args.overwrite))), None
            overwrite = args.overwrite
        if ckpt is not None and int(ckpt["trainer"]["iteration"]) >= cfg.iterations:
            summary = finished_run(cfg, ckpt)
        else:
            summary = train(cfg, ckpt, stop_after=args.stop_after, overwrite=overwrite)
    except (ConfigError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted; resume from the last checkpoint with --resume RUN_DIR", file=sys.stderr)
        return 130
    print_summary(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
