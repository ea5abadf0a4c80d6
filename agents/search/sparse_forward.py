"""Greedy actions of a policy network for large batches of sparse observations (search rollouts).

A Schieber observation has 529 features, of which about 47 are nonzero in a rollout (measured
over the rollouts of 2 rounds of ``search:worlds=100,candidates=4,plays=9000``): card one-hots,
the contract, a few scores. :class:`GreedyForward` runs the network in one of two
:data:`PRECISIONS`:

- ``"float32"``: the first layer as a sum of weight rows over the nonzero features only
  (compiled, :func:`sparse_first_layer`), the dense layers after it in torch. The result equals
  :meth:`agents.network.PolicyNet.masked_logits` up to the order of float summation.
- ``"bfloat16"``: the whole MLP as dense matrix products in torch's bfloat16 (weights and
  activations rounded to 8 significant bits, sums kept in float32 by the matrix units). On a CPU
  with bfloat16 matrix units (Intel AMX, Xeon 4th generation and later) this is about twice
  as fast as the float32 path; elsewhere it may be slower. Its greedy action differs from the
  float32 network's only where two logits are within bfloat16 rounding of each other.
"""

from __future__ import annotations

import copy

import numpy as np
from numba import njit

from ..extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.search.sparse_forward (the search bot's rollout network)") from None

from ..network import PolicyNet

#: the number formats :class:`GreedyForward` can run the network in (the first is the network's own)
PRECISIONS = ("float32", "bfloat16")
#: the bfloat16 path pads its batches to a multiple of this many rows: the CPU's matrix library
#: prepares its kernels once per batch shape, and a rollout's batch shrinks step by step (measured
#: on 600 batches of 1 to 1,250 rows with the shapes prepared: 1.2 us a row padded to 32,
#: 1.6 to 16, 2.6 to 128; 17 us a row unpadded, every batch a new shape)
BATCH_QUANTUM = 32


@njit(cache=True, fastmath=True)
def sparse_first_layer(obs: np.ndarray, weight_t: np.ndarray, bias: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = relu(bias + sum over j with obs[i, j] != 0 of obs[i, j] * weight_t[j])``.

    Shapes: ``obs`` float32 (B, obs_dim); ``weight_t`` float32 (obs_dim, width), the first
    ``nn.Linear``'s weight transposed; ``bias`` float32 (width,); ``out`` float32 (B, width).
    Each row's nonzero features are gathered first without a branch (every index is written and
    the count moves on only past a nonzero one), then summed into a local accumulator (twice as
    fast as accumulating into ``out`` directly, which the compiler cannot keep apart from
    ``weight_t``)."""
    obs_dim, width = weight_t.shape
    index = np.empty(obs_dim + 1, dtype=np.int64)
    acc = np.empty(width, dtype=np.float32)
    for i in range(obs.shape[0]):
        row = obs[i]
        n = 0
        for j in range(obs_dim):
            index[n] = j
            n += row[j] != 0.0
        acc[:] = bias
        for t in range(n):
            x = row[index[t]]
            w = weight_t[index[t]]
            for k in range(width):
                acc[k] += x * w[k]
        o = out[i]
        for k in range(width):
            o[k] = max(acc[k], np.float32(0.0))


class GreedyForward:
    """The greedy (highest masked logit) action of ``net`` for each row of a batch.

    Args:
        net: a :class:`PolicyNet` with at least one hidden layer, one view (``net.single_view()``
            of a suit-averaged network). Its weights are copied here (later changes to them are
            not seen).
        precision: one of :data:`PRECISIONS` (module docstring).
    """

    def __init__(self, net: PolicyNet, precision: str = "float32") -> None:
        if not net.hidden:
            raise ValueError("GreedyForward needs a network with at least one hidden layer")
        if net.suit_renamings is not None:
            raise ValueError("GreedyForward computes one view of the MLP; give net.single_view() of a "
                             "suit-averaged network")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        self.precision = precision
        if precision == "bfloat16":
            # obs (B, obs_dim) -> logits (B, n_actions), every layer in bfloat16
            self.mlp = copy.deepcopy(nn.Sequential(net.trunk, net.policy_head)).to(torch.bfloat16).eval()
            return
        first: nn.Linear = net.trunk[0]
        self.weight_t = np.ascontiguousarray(first.weight.detach().cpu().numpy().T, dtype=np.float32)
        self.bias = first.bias.detach().cpu().numpy().astype(np.float32)
        # hidden (B, width) -> logits (B, n_actions): the layers after the first Linear and its ReLU
        self.rest = copy.deepcopy(nn.Sequential(net.trunk[2:], net.policy_head)).eval()

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked logits float32 (B, n_actions) of observations float32 (B, obs_dim)."""
        with torch.inference_mode():
            if self.precision == "bfloat16":
                n = obs.shape[0]
                rows = -(-n // BATCH_QUANTUM) * BATCH_QUANTUM
                padded = torch.zeros((rows, obs.shape[1]), dtype=torch.bfloat16)
                padded[:n] = torch.from_numpy(obs)
                return self.mlp(padded)[:n].float().numpy()
            hidden = np.empty((obs.shape[0], self.bias.shape[0]), dtype=np.float32)
            sparse_first_layer(obs, self.weight_t, self.bias, hidden)
            return self.rest(torch.from_numpy(hidden)).numpy()

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Greedy actions int64 (B,) for observations float32 (B, obs_dim) and masks (B, n_actions)
        (nonzero = legal; a row with no legal action gets action 0)."""
        return np.where(mask != 0, self.logits(obs), -np.inf).argmax(axis=1).astype(np.int64)


__all__ = ["GreedyForward", "sparse_first_layer", "PRECISIONS", "BATCH_QUANTUM"]
