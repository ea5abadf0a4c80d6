"""OnnxPolicyAgent: plays a policy exported by ``python -m agents.export``, with onnxruntime and
numpy only (no torch import anywhere on this path).

    agent = OnnxPolicyAgent("runs/ppo/latest.onnx")                      # argmax over legal actions
    agent = OnnxPolicyAgent("runs/ppo/latest.onnx", greedy=False, seed=1)  # sample, seeded per deal

The ONNX graph (see :mod:`agents.export`) takes ``observation`` float32 (B, D) and
``action_mask`` bool (B, A) and returns ``logits`` float32 (B, A), with D and A the layout of the
game the policy was trained for (Schieber: 529 and 43): the policy head's logits with
illegal actions set to ``float32`` min (-3.4028235e38), exactly as the torch
:class:`agents.policy.PolicyAgent` computes them, so both agents choose the same actions.

Registry spec: a path ending in ``.onnx`` (``make_agent("runs/x.onnx:greedy=false")``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from jass_env.commands import module_command
from jass_env.engine.switches import Rules

from .base import Agent, Observation, choose_from_logits
from .files import file_sha256
from .registry import AgentSpecError
from .trained_for import layout_problem, stored_trained_for, warn_if_rules_differ

ONNX_FORMAT = "jass-policy-onnx/1"
INPUT_OBS, INPUT_MASK, OUTPUT_LOGITS = "observation", "action_mask", "logits"


class OnnxModelError(AgentSpecError):
    """An ONNX policy file that is missing, unreadable or does not fit this code (or onnxruntime is
    not installed). A subclass of :class:`agents.registry.AgentSpecError`, so the evaluation and
    play CLIs report it as a bad agent."""


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class OnnxPolicyAgent(Agent):
    """Acts with an exported policy network through onnxruntime (CPU).

    Args:
        path: the ``.onnx`` file written by ``python -m agents.export CHECKPOINT --onnx PATH``.
        greedy: argmax over the legal actions' logits; False samples from the masked softmax with
            the agent's generator (reseeded by :meth:`reset`).
        seed: generator seed.
        threads: onnxruntime intra-op threads (default 1: agents usually run many in parallel).
        rules: the rules it will play under (None: not checked); a policy trained under other
            rules warns (RulesMismatchWarning, :mod:`agents.trained_for`).

    Raises OnnxModelError for a missing or corrupt file, a graph whose inputs/outputs are not those
    of :mod:`agents.export`, an observation-version mismatch or a policy for another game, or a
    missing onnxruntime.
    """

    def __init__(self, path: str | os.PathLike[str], greedy: bool = True, seed: int | None = None,
                 threads: int | None = 1, rules: str | Rules | None = None) -> None:
        super().__init__(seed)
        try:
            import onnxruntime as ort  # noqa: PLC0415 (optional dependency)
        except ImportError as e:
            raise OnnxModelError(f"ONNX policies need onnxruntime, which cannot be imported ({e}); "
                                 "install it with: pip install onnxruntime") from None
        p = Path(path)
        if not p.exists():
            raise OnnxModelError(f"ONNX policy {str(p)!r} does not exist (write one with: "
                                 f"{module_command('agents.export')} CHECKPOINT --onnx FILE)")
        if not p.is_file():
            raise OnnxModelError(f"ONNX policy {str(p)!r} is not a file")
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = int(threads)
            options.inter_op_num_threads = 1
        options.log_severity_level = 3            # errors only; no warnings on stderr
        try:
            self.session = ort.InferenceSession(str(p), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types for bad files
            raise OnnxModelError(
                f"ONNX policy {str(p)!r} cannot be read (corrupt, truncated or not an ONNX model; "
                f"expected a {ONNX_FORMAT!r} file written by {module_command('agents.export')}): "
                f"{type(e).__name__}: {_first_line(e)}") from None
        self.trained_for = self._trained_for(p)
        self.obs_dim, self.n_actions = int(self.trained_for["obs_dim"]), int(self.trained_for["n_actions"])
        self._check_signature(p)
        if rules is not None:
            warn_if_rules_differ(self.trained_for, rules, f"ONNX policy {str(p)!r}")
        self.greedy = bool(greedy)
        self.checkpoint = str(p)
        self.checkpoint_sha256 = file_sha256(p)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.info: dict[str, Any] = dict(meta)
        self.name = f"onnx-policy({p.name}, {'greedy' if self.greedy else 'sampled'})"

    def _check_signature(self, p: Path) -> None:
        """The graph must take (observation, action_mask) of its game's layout and give logits,
        batch-first."""
        inputs = {i.name: i for i in self.session.get_inputs()}
        outputs = [o.name for o in self.session.get_outputs()]
        want = {INPUT_OBS: ("tensor(float)", self.obs_dim), INPUT_MASK: ("tensor(bool)", self.n_actions)}
        for name, (typ, width) in want.items():
            got = inputs.get(name)
            if got is None or got.type != typ or len(got.shape) != 2 or got.shape[1] != width:
                have = ", ".join(f"{i.name} {i.type} {i.shape}" for i in inputs.values())
                raise OnnxModelError(
                    f"ONNX policy {str(p)!r} does not fit: expected inputs {INPUT_OBS} tensor(float) "
                    f"[batch, {self.obs_dim}] and {INPUT_MASK} tensor(bool) [batch, {self.n_actions}] "
                    f"(the layout of {self.trained_for['game']}), got {have or 'none'}")
        if OUTPUT_LOGITS not in outputs:
            raise OnnxModelError(f"ONNX policy {str(p)!r} does not fit: expected an output "
                                 f"{OUTPUT_LOGITS!r}, got {outputs}")

    def _trained_for(self, p: Path) -> dict[str, Any]:
        """The metadata's ``trained_for`` (older files: :func:`agents.trained_for.stored_trained_for`);
        OnnxModelError if its game, observation version or layout is not one this code plays."""
        meta = self.session.get_modelmeta().custom_metadata_map
        fields: dict[str, Any] = {}
        if "obs_version" in meta:
            try:
                fields["obs_version"] = int(meta["obs_version"])
            except ValueError:
                raise OnnxModelError(f"ONNX policy {str(p)!r}: its obs_version metadata "
                                     f"{meta['obs_version']!r} is not a number") from None
        if "trained_for" in meta:
            try:
                fields["trained_for"] = json.loads(meta["trained_for"])
            except json.JSONDecodeError as e:
                raise OnnxModelError(f"ONNX policy {str(p)!r}: its trained_for metadata is not "
                                     f"JSON ({e})") from None
        tf = stored_trained_for(fields)
        problem = layout_problem(tf, f"ONNX policy {str(p)!r}")
        if problem:
            raise OnnxModelError(problem)
        return tf

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits float32 (B, A) for observations (B, D) and masks (B, A) (0/1 or bool);
        illegal actions get float32 min."""
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        mask = np.ascontiguousarray(masks).astype(bool)
        if obs.ndim != 2 or obs.shape[1] != self.obs_dim or mask.shape != (obs.shape[0], self.n_actions):
            raise ValueError(f"expected observations (B, {self.obs_dim}) and masks (B, {self.n_actions}), "
                             f"got {obs.shape} and {mask.shape}")
        return self.session.run([OUTPUT_LOGITS], {INPUT_OBS: obs, INPUT_MASK: mask})[0]

    def action_probabilities(self, obs: Observation) -> np.ndarray:
        """Probabilities (A,) of the masked softmax; 0 for illegal actions."""
        mask = np.asarray(obs["action_mask"]).astype(bool)
        z = self.logits(np.asarray(obs["observation"])[None], mask[None])[0].astype(np.float64)
        p = np.exp(z - z.max())
        return p / p.sum()

    def act(self, obs: Observation) -> int:
        mask = np.asarray(obs["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("OnnxPolicyAgent.act: the action mask has no legal action")
        logits = self.logits(np.asarray(obs["observation"])[None], mask[None])[0].astype(np.float64)
        return choose_from_logits(logits, mask, self.greedy, self.rng)


__all__ = ["OnnxPolicyAgent", "OnnxModelError", "ONNX_FORMAT"]
