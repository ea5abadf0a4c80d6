"""Greedy actions of a policy network for large batches of sparse observations (search rollouts).

A Schieber observation has 529 features, of which about 47 are nonzero in a rollout (measured
over the rollouts of 2 rounds of ``search:worlds=100,candidates=4,plays=9000``): card one-hots,
the contract, a few scores. The network's first layer is two thirds of its multiply-adds, so
:class:`GreedyForward` computes it as a sum of weight rows over the nonzero features only
(compiled, :func:`sparse_first_layer`) and leaves the dense layers after it to torch. The result
equals :meth:`agents.network.PolicyNet.masked_logits` up to the order of float summation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..extras import missing_extra

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.search.sparse_forward (the search bot's rollout network)") from None

from ..network import PolicyNet


@njit(cache=True)
def sparse_first_layer(obs: np.ndarray, weight_t: np.ndarray, bias: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = relu(bias + sum over j with obs[i, j] != 0 of obs[i, j] * weight_t[j])``.

    Shapes: ``obs`` float32 (B, obs_dim); ``weight_t`` float32 (obs_dim, width), the first
    ``nn.Linear``'s weight transposed; ``bias`` float32 (width,); ``out`` float32 (B, width).
    Each row's nonzero features are gathered first and summed into a local accumulator (twice
    as fast as accumulating into ``out`` directly, which the compiler cannot keep apart from
    ``weight_t``)."""
    obs_dim, width = weight_t.shape
    index = np.empty(obs_dim, dtype=np.int64)
    value = np.empty(obs_dim, dtype=np.float32)
    acc = np.empty(width, dtype=np.float32)
    for i in range(obs.shape[0]):
        n = 0
        for j in range(obs_dim):
            if obs[i, j] != 0.0:
                index[n] = j
                value[n] = obs[i, j]
                n += 1
        acc[:] = bias
        for t in range(n):
            x = value[t]
            j = index[t]
            for k in range(width):
                acc[k] += x * weight_t[j, k]
        for k in range(width):
            out[i, k] = max(acc[k], np.float32(0.0))


class GreedyForward:
    """The greedy (highest masked logit) action of ``net`` for each row of a batch.

    Args:
        net: a :class:`PolicyNet` with at least one hidden layer. The first layer's weights
            are copied here (later changes to them are not seen); the layers after it are
            ``net``'s own modules.
    """

    def __init__(self, net: PolicyNet) -> None:
        if not net.hidden:
            raise ValueError("GreedyForward needs a network with at least one hidden layer")
        if net.suit_renamings is not None:
            raise ValueError("GreedyForward computes one view of the MLP; give net.single_view() of a "
                             "suit-averaged network")
        first: nn.Linear = net.trunk[0]
        self.weight_t = np.ascontiguousarray(first.weight.detach().cpu().numpy().T, dtype=np.float32)
        self.bias = first.bias.detach().cpu().numpy().astype(np.float32)
        self.rest = net.trunk[2:]          # after the first Linear and its ReLU (done here)
        self.head = net.policy_head

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Greedy actions int64 (B,) for observations float32 (B, obs_dim) and masks (B, 43)
        (nonzero = legal; a row with no legal action gets action 0)."""
        hidden = np.empty((obs.shape[0], self.bias.shape[0]), dtype=np.float32)
        sparse_first_layer(obs, self.weight_t, self.bias, hidden)
        with torch.inference_mode():
            logits = self.head(self.rest(torch.from_numpy(hidden))).numpy()
        return np.where(mask != 0, logits, -np.inf).argmax(axis=1).astype(np.int64)


__all__ = ["GreedyForward", "sparse_first_layer"]
