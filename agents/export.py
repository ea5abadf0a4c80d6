"""Export a policy checkpoint as ONNX (observation and mask in, masked action logits out), or
as a small policy-only checkpoint.

    python -m agents.export CHECKPOINT --onnx FILE [--opset 17] [--no-verify]
    python -m agents.export runs/RUN/checkpoints/best.pt --policy small.pt

``--policy`` keeps the weights, the run's config and the source's SHA-256, and drops the trainer
state (optimizer, critic, snapshots, environments): a trainer checkpoint of ``default.yaml`` is
about 12 MB, its policy file under 1 MB (:func:`agents.network.slim_policy`).

The graph has two inputs and one output, all with a dynamic batch axis ``batch``:

    observation  float32 (batch, D)   the game's observation vector (D = obs_dim; Schieber's 529)
    action_mask  bool    (batch, A)   legal actions (A = the game's actions; Schieber's 43)
    logits       float32 (batch, A)   policy logits; illegal actions = float32 min (-3.4028235e38),
                                      as agents.network.apply_mask does in torch

The file carries metadata (``format`` = ``jass-policy-onnx/1``, ``obs_version``, ``hidden``,
``source_sha256`` of the checkpoint, ``trained_for``: the game and rules as JSON,
:mod:`agents.trained_for`). It is written atomically, checked with ``onnx.checker`` and,
unless ``--no-verify``, compared with torch through onnxruntime on random observations and masks
(:func:`compare_logits`: every legal logit within float32 rounding of torch's, ``ATOL + RTOL`` x the
row's largest legal logit; masked entries identical; the same argmax action in every row). Run it
with :class:`agents.onnx_policy.OnnxPolicyAgent` (no torch needed) or the registry spec ``FILE.onnx``.

Uses the TorchScript-based exporter (``dynamo=False``), which needs no ``onnxscript``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from jass_env.commands import module_command

from .extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.export (checkpoint export)") from None

from .files import atomic_write, file_sha256
from .network import DEFAULT_LAYOUT, CheckpointError, PolicyNet, load_policy, slim_policy
from .onnx_policy import INPUT_MASK, INPUT_OBS, ONNX_FORMAT, OUTPUT_LOGITS
from .trained_for import stored_trained_for

DEFAULT_OPSET = 17
VERIFY_INPUTS = 64   # random observations and masks of the onnxruntime-vs-torch check
#: Allowed |onnxruntime - torch| per legal logit: ATOL + RTOL * (the row's largest |legal logit|).
#: Both compute the same float32 network with different kernels (summation order, fused
#: multiply-adds), so they differ by rounding, which scales with the magnitude of the sums, i.e. of
#: the row's logits, not with each (possibly near-zero) logit: float32 keeps 24 bits (epsilon
#: 1.2e-7), and the shipped policy (logits up to about 50) differs by 2.3e-5, 4e-7 of its scale.
#: RTOL = 1e-5 (about 80 epsilons) covers that rounding with room to spare yet fails a real defect
#: (a wrong weight, layer or mask changes logits by a large fraction of their scale); ATOL = 1e-5
#: covers rows whose logits are all close to 0.
RTOL = 1e-5
ATOL = 1e-5


class ExportError(RuntimeError):
    """The export failed (onnx missing, exporter error) or the exported graph disagrees with torch."""


class MaskedPolicy(nn.Module):
    """The exported computation: ``net.masked_logits(observation, action_mask)``."""

    def __init__(self, net: PolicyNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
        return self.net.masked_logits(observation, action_mask)


def export_onnx(checkpoint: str | os.PathLike[str], path: str | os.PathLike[str],
                opset: int = DEFAULT_OPSET) -> Path:
    """Export the policy of a ``jass-policy/1`` checkpoint to ``path`` (atomic write); returns it.

    Raises CheckpointError (from :func:`agents.network.load_policy`) for a bad checkpoint and
    ExportError when onnx is missing or the exporter fails.
    """
    net, ckpt = load_policy(checkpoint)
    return export_net(net, path, opset, source_sha256=file_sha256(checkpoint),
                      trained_for=stored_trained_for(ckpt))


def export_net(net: PolicyNet, path: str | os.PathLike[str], opset: int = DEFAULT_OPSET,
               source_sha256: str | None = None, trained_for: dict | None = None) -> Path:
    """Export a PolicyNet (see :func:`export_onnx`); ``trained_for`` (the checkpoint's, see
    :mod:`agents.trained_for`; default: the default preset's game, untrained) goes into the
    metadata as JSON, and its ``obs_version`` into ``obs_version``."""
    try:
        import onnx  # noqa: PLC0415 (optional dependency)
    except ImportError as e:
        raise ExportError(f"ONNX export needs the onnx package, which cannot be imported ({e}); "
                          "install it with: pip install onnx onnxruntime") from None
    tf = trained_for if trained_for is not None else stored_trained_for({"net": net.config()})
    model = MaskedPolicy(net).eval()
    example = (torch.zeros(2, net.obs_dim), torch.ones(2, net.n_actions, dtype=torch.bool))
    buf = io.BytesIO()
    try:
        with warnings.catch_warnings():   # the TorchScript exporter announces its deprecation
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.simplefilter("ignore", UserWarning)
            warnings.simplefilter("ignore", FutureWarning)
            torch.onnx.export(
                model, example, buf, dynamo=False, opset_version=int(opset),
                input_names=[INPUT_OBS, INPUT_MASK], output_names=[OUTPUT_LOGITS],
                dynamic_axes={INPUT_OBS: {0: "batch"}, INPUT_MASK: {0: "batch"}, OUTPUT_LOGITS: {0: "batch"}})
    except Exception as e:
        raise ExportError(f"torch.onnx.export failed (opset {opset}): {type(e).__name__}: {e}") from e
    proto = onnx.load_from_string(buf.getvalue())
    meta = {"format": ONNX_FORMAT, "obs_version": str(tf["obs_version"]),
            "hidden": ",".join(map(str, net.hidden)), "masked_value": "float32 min",
            "trained_for": json.dumps(tf, sort_keys=True)}
    if source_sha256:
        meta["source_sha256"] = source_sha256
    for k, v in meta.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = k, v
    proto.producer_name = "jass-env agents.export"
    onnx.checker.check_model(proto)
    return atomic_write(path, lambda f: f.write(proto.SerializeToString()))


#: the share of random observation entries that are fractions (the others are 0 or 1)
FRACTION_SHARE = 0.1


def random_inputs(n: int, seed: int = 0, obs_dim: int = DEFAULT_LAYOUT["obs_dim"],
                  n_actions: int = DEFAULT_LAYOUT["n_actions"]) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random observations float32 (n, obs_dim) (0/1 entries, :data:`FRACTION_SHARE` of
    them uniform fractions, like the scalar features) and random masks bool (n, n_actions), the
    last row without any legal action (n >= 2)."""
    rng = np.random.default_rng(seed)
    obs = (rng.random((n, obs_dim)) < 0.2).astype(np.float32)
    fractions = rng.random((n, obs_dim)) < FRACTION_SHARE
    obs[fractions] = rng.random(int(fractions.sum())).astype(np.float32)
    mask = rng.random((n, n_actions)) < 0.4
    mask[np.arange(n), rng.integers(0, n_actions, n)] = True
    if n >= 2:
        mask[-1] = False
    return obs, mask


class LogitComparison(NamedTuple):
    """How closely two (B, A) masked-logit arrays agree (see :func:`compare_logits`)."""

    max_difference: float      #: largest |got - want| over the legal entries
    worst_fraction: float      #: largest |got - want| / allowed (ATOL + RTOL * row scale); <= 1 ok
    masked_equal: bool         #: illegal entries are identical (float32 min in both)
    argmax_disagreements: int  #: rows whose argmax action differs (beyond a float32 tie)

    @property
    def ok(self) -> bool:
        return self.worst_fraction <= 1.0 and self.masked_equal and self.argmax_disagreements == 0

    def describe(self) -> str:
        return (f"max |difference| {self.max_difference:.2g} = {self.worst_fraction:.2g} of the "
                f"allowed float32 rounding (atol {ATOL:g} + rtol {RTOL:g} x the row's largest logit); "
                f"masked entries {'identical' if self.masked_equal else 'DIFFER'}; "
                f"argmax differs in {self.argmax_disagreements} row(s)")


def compare_logits(got: np.ndarray, want: np.ndarray, mask: np.ndarray) -> LogitComparison:
    """Compare masked logits ``got`` (e.g. onnxruntime) with ``want`` (torch), all (B, A), ``mask``
    bool (B, A). A row's argmax may differ only where ``want``'s top two legal logits are within
    the allowed rounding of each other (a tie at float32 precision)."""
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    legal_abs = np.where(mask, np.abs(want64), 0.0)
    allowed = ATOL + RTOL * legal_abs.max(axis=1, keepdims=True)                     # (B, 1)
    diff = np.where(mask, np.abs(got64 - want64), 0.0)
    rows = mask.any(axis=1)
    neg = np.where(mask, want64, -np.inf)[rows]
    top2 = np.sort(neg, axis=1)[:, -2:]
    tie = (top2[:, 1] - top2[:, 0]) <= allowed[rows, 0]
    differ = got64[rows].argmax(axis=1) != want64[rows].argmax(axis=1)
    return LogitComparison(max_difference=float(diff.max(initial=0.0)),
                           worst_fraction=float((diff / allowed).max(initial=0.0)),
                           masked_equal=bool(np.array_equal(got[~mask], want[~mask])),
                           argmax_disagreements=int((differ & ~tie).sum()))


def verify_export(net: PolicyNet, path: str | os.PathLike[str], n: int = VERIFY_INPUTS,
                  seed: int = 0) -> LogitComparison:
    """onnxruntime vs torch on the masked logits of ``n`` :func:`random_inputs` (see
    :func:`compare_logits`). Raises ExportError when onnxruntime is missing."""
    from .onnx_policy import OnnxModelError, OnnxPolicyAgent  # noqa: PLC0415

    try:
        agent = OnnxPolicyAgent(path)
    except OnnxModelError as e:
        raise ExportError(str(e)) from None
    obs, mask = random_inputs(n, seed, net.obs_dim, net.n_actions)
    got = agent.logits(obs, mask)
    with torch.inference_mode():
        want = net.masked_logits(torch.from_numpy(obs), torch.from_numpy(mask)).numpy()
    return compare_logits(got, want, mask)


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; 0 ok, 1 export failed or disagrees with torch, 2 bad arguments/checkpoint."""
    ap = argparse.ArgumentParser(prog=module_command("agents.export"), description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint", help="a jass-policy/1 checkpoint (.pt)")
    ap.add_argument("--onnx", metavar="FILE", help="the ONNX file to write")
    ap.add_argument("--policy", metavar="FILE", help="write a small policy-only checkpoint (weights, "
                    "the run's config; no trainer state)")
    ap.add_argument("--opset", type=int, default=DEFAULT_OPSET, help=f"ONNX opset (default {DEFAULT_OPSET})")
    ap.add_argument("--no-verify", action="store_true",
                    help="skip the onnxruntime-vs-torch comparison on random observations")
    args = ap.parse_args(argv)
    if args.onnx is None and args.policy is None:
        print("error: nothing to write; give --onnx FILE and/or --policy FILE", file=sys.stderr)
        return 2
    if not 9 <= args.opset <= 23:
        print(f"error: --opset must be between 9 and 23, got {args.opset}", file=sys.stderr)
        return 2
    try:
        net, ckpt = load_policy(args.checkpoint)
    except CheckpointError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.policy is not None:
        try:
            small = slim_policy(args.checkpoint, args.policy)
        except OSError as e:
            print(f"error: cannot write {args.policy}: {e}", file=sys.stderr)
            return 1
        print(f"wrote {small} (hidden={net.hidden}, {small.stat().st_size:,} bytes, policy only)")
    if args.onnx is None:
        return 0
    try:
        path = export_net(net, args.onnx, args.opset, source_sha256=file_sha256(args.checkpoint),
                          trained_for=stored_trained_for(ckpt))
    except (ExportError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {path} (hidden={net.hidden}, opset {args.opset}, dynamic batch axis)")
    if not args.no_verify:
        try:
            result = verify_export(net, path)
        except ExportError as e:
            print(f"error: cannot verify {path}: {e}", file=sys.stderr)
            return 1
        if not result.ok:
            print(f"error: onnxruntime disagrees with torch on {VERIFY_INPUTS} random observations: "
                  f"{result.describe()}", file=sys.stderr)
            return 1
        print(f"verified: onnxruntime matches torch on {VERIFY_INPUTS} random observations and masks "
              f"({result.describe()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
