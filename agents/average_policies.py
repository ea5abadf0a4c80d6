"""The weight average of trained policies: ``python -m agents.average_policies A B [C ...] --out OUT``.

Rounds of expert iteration fine-tune each student from the one before, so their weights lie close
together, and the mean of their weights (a "model soup", Wortsman et al. 2022) is one network of
the same size, at the same cost per decision, that can play better than either. Schieber's shipped
``agents/checkpoints/default.pt`` is the average of its third and fourth rounds
(``docs/games/schieber.md``, "The shipped policy").

Every input must be a ``jass-policy/1`` checkpoint of the same network (its ``net`` config: layer
sizes and suit renamings) trained for the same layout (its ``trained_for``). The output keeps the
first input's other fields (its training config, which the model card shows) and says what it
is: ``note`` "the weight average of N policies" and ``source`` every input with its sha256.
Integer buffers, if a network has any, are taken from the first input.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.average_policies") from None

from .files import file_sha256
from .network import CheckpointError, load_policy, save_policy
from .trained_for import stored_trained_for

#: the checkpoint fields save_policy writes itself
WRITTEN_BY_SAVE = ("format", "obs_version", "net", "model")


def average_policies(paths: list[str | os.PathLike[str]], out: str | os.PathLike[str]) -> Path:
    """Write the mean of the weights of the policies at ``paths`` (at least two) to ``out``;
    returns its path. CheckpointError when an input does not load or differs from the first in
    its network or its layout."""
    if len(paths) < 2:
        raise CheckpointError(f"averaging needs at least two policies, got {len(paths)}")
    loaded = [load_policy(p) for p in paths]
    first_net, first = loaded[0]
    for path, (_, ckpt) in zip(paths[1:], loaded[1:]):
        if ckpt["net"] != first["net"]:
            raise CheckpointError(f"{str(path)!r} has the network {ckpt['net']!r}, {str(paths[0])!r} has "
                                  f"{first['net']!r}; only policies of the same network can be averaged")
        theirs, ours = stored_trained_for(ckpt), stored_trained_for(first)
        if theirs != ours:
            raise CheckpointError(f"{str(path)!r} was trained for {theirs.get('game')!r} under rules "
                                  f"{theirs.get('rules')!r}, {str(paths[0])!r} for {ours.get('game')!r} "
                                  f"under {ours.get('rules')!r}; only policies trained for the same rules "
                                  f"can be averaged")
    states = [net.state_dict() for net, _ in loaded]
    mean = {k: (torch.stack([s[k] for s in states]).mean(0) if v.is_floating_point() else v)
            for k, v in states[0].items()}
    first_net.load_state_dict(mean)
    extra = {k: v for k, v in first.items() if k not in WRITTEN_BY_SAVE}
    extra["note"] = f"the weight average of {len(paths)} policies"
    extra["source"] = "the weight average of " + ", ".join(f"{p} (sha256 {file_sha256(p)})" for p in paths)
    return save_policy(out, first_net, **extra)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agents.average_policies",
                                 description="Write the weight average of two or more trained policies "
                                             "of the same network.")
    ap.add_argument("policies", nargs="+", help="jass-policy/1 checkpoints (.pt) of the same network")
    ap.add_argument("--out", required=True, help="the checkpoint to write")
    args = ap.parse_args(argv)
    if len(args.policies) < 2:
        ap.error(f"give at least two policies to average, got {len(args.policies)}")
    try:
        path = average_policies(args.policies, args.out)
    except CheckpointError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {path}: the weight average of {len(args.policies)} policies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
