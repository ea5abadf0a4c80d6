"""PolicyAgent: plays a trained ``jass-policy/1`` checkpoint (see :mod:`agents.network`).

    agent = PolicyAgent("runs/ppo/latest.pt")              # argmax over the legal actions
    agent = PolicyAgent("runs/ppo/latest.pt", greedy=False, seed=1)   # sample, seeded per deal
    agent = PolicyAgent()   # agents/checkpoints/default.pt if shipped, else seeded random weights
    agent = PolicyAgent(rules="differenzler")   # the shipped Differenzler policy (differenzler.pt)

Write a random-weights checkpoint (plumbing, tests)::

    python -m agents.policy --write-random PATH [--hidden 256 256] [--seed 0] [--game differenzler]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from jass_env.commands import module_command

from .extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.policy (the policy agent)") from None

from jass_env.engine.spec import SPECS
from jass_env.engine.switches import Rules
from jass_env.games import DEFAULT_PRESET, REGISTRY, game_of, make_rules

from .base import Agent, Observation, choose_from_logits
from .files import file_sha256
from .network import DEFAULT_HIDDEN, CheckpointError, PolicyNet, load_policy, save_policy
from .trained_for import layout_problem, stored_trained_for, trained_for, warn_if_rules_differ

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
DEFAULT_CHECKPOINT = CHECKPOINT_DIR / "default.pt"
#: the PPO self-play Schieber policy (configs/default.yaml), a plain MLP: the start that
#: configs/distill.yaml distilled into DEFAULT_CHECKPOINT
SELFPLAY_CHECKPOINT = CHECKPOINT_DIR / "schieber-selfplay.pt"
#: the shipped policy of each game spec that has one (each game's CHECKPOINTS fact)
SHIPPED_CHECKPOINTS = {spec: CHECKPOINT_DIR / name for game in REGISTRY.values()
                       for spec, name in game.checkpoints.items()}


def default_checkpoint(rules: str | Rules | None) -> Path | None:
    """The shipped checkpoint for the game of ``rules`` (None: Schieber), if there is one."""
    r = make_rules(rules)
    name = game_of(r).checkpoints.get(r.game)
    path = CHECKPOINT_DIR / name if name else None
    return path if path is not None and path.exists() else None


class PolicyAgent(Agent):
    """Acts with a policy network on the observation vector.

    Args:
        checkpoint: path of a ``jass-policy/1`` file; None = the shipped policy of the game of
            ``rules`` (:data:`SHIPPED_CHECKPOINTS`; Schieber ``agents/checkpoints/default.pt``) if it
            exists, else a network with random weights seeded by ``seed`` (0 if None), which the
            name says.
        greedy: argmax over the legal actions' logits; False samples from the masked softmax with
            the agent's generator (reseeded by :meth:`reset`, so duplicate deals replay alike).
        seed: generator seed.
        threads: torch intra-op threads to use (a process-wide torch setting); None leaves it.
        rules: the rules it will play under (preset name or Rules; None: not checked). A
            checkpoint trained for another game or observation/action layout raises
            CheckpointError; one trained under other rules warns (RulesMismatchWarning); see
            :mod:`agents.trained_for`.
    """

    def __init__(self, checkpoint: str | os.PathLike[str] | None = None, greedy: bool = True,
                 seed: int | None = None, threads: int | None = 1, rules: str | Rules | None = None) -> None:
        super().__init__(seed)
        if threads is not None and torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        self.greedy = bool(greedy)
        mode = "greedy" if self.greedy else "sampled"
        if checkpoint is None:
            checkpoint = default_checkpoint(rules)
        if checkpoint is None:
            init_seed = 0 if seed is None else int(seed)
            self.trained_for = trained_for(None, make_rules(rules).game)
            self.net = PolicyNet(DEFAULT_HIDDEN, obs_dim=self.trained_for["obs_dim"],
                                 n_actions=self.trained_for["n_actions"], seed=init_seed,
                                 game=self.trained_for["game"]).eval()
            self.checkpoint: str | None = None
            self.checkpoint_sha256: str | None = None
            self.info: dict = {}
            self.name = f"policy(random-weights seed={init_seed}, {mode})"
        else:
            self.net, ckpt = load_policy(checkpoint)
            what = f"policy checkpoint {str(checkpoint)!r}"
            self.trained_for = stored_trained_for(ckpt)
            problem = layout_problem(self.trained_for, what, rules)
            if problem:
                raise CheckpointError(problem)
            if rules is not None:
                warn_if_rules_differ(self.trained_for, rules, what)
            self.checkpoint = str(checkpoint)
            self.checkpoint_sha256 = file_sha256(checkpoint)
            self.info = {k: v for k, v in ckpt.items() if k not in ("model",)}
            self.name = f"policy({Path(checkpoint).name}, {mode})"
        for p in self.net.parameters():
            p.requires_grad_(False)

    def action_probabilities(self, obs: Observation) -> np.ndarray:
        """Probabilities (n_actions,) of the masked softmax; 0 for illegal actions."""
        x = torch.from_numpy(np.asarray(obs["observation"], dtype=np.float32))[None]
        m = torch.from_numpy(np.asarray(obs["action_mask"]).astype(bool))[None]
        with torch.inference_mode():
            return torch.softmax(self.net.masked_logits(x, m), dim=-1)[0].double().numpy()

    def act(self, obs: Observation) -> int:
        mask = np.asarray(obs["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("PolicyAgent.act: the action mask has no legal action")
        x = torch.from_numpy(np.asarray(obs["observation"], dtype=np.float32))[None]
        with torch.inference_mode():
            logits = self.net.masked_logits(x, torch.from_numpy(mask)[None])[0].double().numpy()
        return choose_from_logits(logits, mask, self.greedy, self.rng)


def write_random_checkpoint(path: str | os.PathLike[str], hidden: Sequence[int] = DEFAULT_HIDDEN,
                            seed: int = 0, game: str = DEFAULT_PRESET) -> Path:
    """Save a seeded random-weights network for ``game`` as a ``jass-policy/1`` checkpoint."""
    tf = trained_for(None, game)
    net = PolicyNet(hidden, obs_dim=tf["obs_dim"], n_actions=tf["n_actions"], seed=seed, game=tf["game"])
    return save_policy(path, net, note="random weights", seed=int(seed), trained_for=tf)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=module_command("agents.policy"), description=__doc__.split("\n")[0])
    ap.add_argument("--write-random", metavar="PATH", required=True,
                    help="write a random-weights jass-policy/1 checkpoint to PATH")
    ap.add_argument("--hidden", type=int, nargs="+", default=list(DEFAULT_HIDDEN), help="hidden sizes")
    ap.add_argument("--seed", type=int, default=0, help="weight initialisation seed")
    ap.add_argument("--game", choices=list(SPECS), default=DEFAULT_PRESET, help="the game's observation and "
                    f"action layout (default {DEFAULT_PRESET})")
    args = ap.parse_args(argv)
    try:
        path = write_random_checkpoint(args.write_random, args.hidden, args.seed, args.game)
    except (OSError, ValueError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path} (random weights, hidden={args.hidden}, seed={args.seed})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
