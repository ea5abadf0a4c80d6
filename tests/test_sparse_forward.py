"""The search bot's rollout network: the sparse first layer, the greedy actions it gives, and the
same network run in bfloat16."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.bots.schieber import HeuristicAgent
from agents.network import PolicyNet
from agents.policy import SELFPLAY_CHECKPOINT, PolicyAgent
from agents.search.sparse_forward import BATCH_QUANTUM, PRECISIONS, GreedyForward, sparse_first_layer
from jass_env import Round
from jass_env.engine.transitions import for_game
from jass_env.games.schieber.observation import OBS_DIM, encode_observation


def _round_observations(n_rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """Every decision's observation (float32[B, OBS_DIM]) and mask (int8[B, 43]) of ``n_rounds``
    Schieber rounds played by the heuristic bot."""
    bot = HeuristicAgent("schieber")
    obs, masks = [], []
    for seed in range(n_rounds):
        r = Round("schieber", seed=seed)
        while not r.is_over:
            o = np.zeros(OBS_DIM, dtype=np.float32)
            m = np.zeros(43, dtype=np.int8)
            encode_observation(r.state, r.to_move, r.rp, o)
            for_game(r.spec.kind).action_mask(r.state, r.rp, m)
            obs.append(o)
            masks.append(m)
            r.step(bot.act({"observation": o, "action_mask": m}))
    return np.stack(obs), np.stack(masks)


def test_the_sparse_first_layer_is_the_dense_linear_layer_and_relu() -> None:
    obs, _ = _round_observations(3)
    obs[::7, 5] = 0.37                  # a few non-binary features as well
    net = PolicyNet((64, 32), seed=3)
    layer = net.trunk[0]
    with torch.no_grad():
        layer.bias.uniform_(-0.5, 0.5, generator=torch.Generator().manual_seed(1))
        expected = torch.relu(layer(torch.from_numpy(obs))).numpy()
    out = np.full((len(obs), 64), np.nan, dtype=np.float32)
    sparse_first_layer(obs, np.ascontiguousarray(layer.weight.detach().numpy().T),
                       layer.bias.detach().numpy(), out)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_greedy_forward_plays_the_shipped_policys_greedy_action() -> None:
    obs, masks = _round_observations(6)
    # the shipped PPO self-play policy, a plain MLP
    policy = PolicyAgent(SELFPLAY_CHECKPOINT, greedy=True, threads=1, rules="schieber")
    expected = [policy.act({"observation": o, "action_mask": m}) for o, m in zip(obs, masks)]
    assert np.array_equal(GreedyForward(policy.net)(obs, masks), expected)
    # the shipped suit average: one view of its MLP, as the search bot's rollouts play it
    view = PolicyAgent(greedy=True, threads=1, rules="schieber").net.single_view()
    with torch.inference_mode():
        logits = view.masked_logits(torch.from_numpy(obs), torch.from_numpy(masks.astype(bool)))
    assert np.array_equal(GreedyForward(view)(obs, masks), logits.argmax(1).numpy())


def test_greedy_forward_gives_action_0_to_a_row_without_legal_actions() -> None:
    obs, masks = _round_observations(1)
    masks[2] = 0
    actions = GreedyForward(PolicyNet((16,), seed=2))(obs[:4], masks[:4])
    assert actions.shape == (4,) and actions.dtype == np.int64 and actions[2] == 0
    assert all(masks[i, actions[i]] for i in (0, 1, 3))


def test_greedy_forward_needs_a_hidden_layer() -> None:
    with pytest.raises(ValueError, match="at least one hidden layer"):
        GreedyForward(PolicyNet((), seed=1))


def test_bfloat16_plays_the_float32_greedy_action_unless_two_logits_are_about_equal() -> None:
    """bfloat16 keeps 8 significant bits: its logits are the network's up to that rounding (a few
    roundings through three layers, within 2^-6 of the largest logit), so its greedy action is the
    float32 one except where two legal logits are within twice that of each other."""
    obs, masks = _round_observations(6)
    view = PolicyAgent(greedy=True, threads=1, rules="schieber").net.single_view()
    exact, rounded = GreedyForward(view), GreedyForward(view, "bfloat16")
    logits = exact.logits(obs)
    assert np.abs(rounded.logits(obs) - logits).max() <= 2 ** -6 * np.abs(logits).max()
    ours, theirs = exact(obs, masks), rounded(obs, masks)
    assert np.mean(ours == theirs) >= 0.98
    assert all(masks[i, theirs[i]] for i in range(len(obs)))


def test_bfloat16_batches_of_any_size_give_each_row_its_own_logits() -> None:
    """Batches are padded to a multiple of BATCH_QUANTUM rows and cut back: a row's logits do not
    depend on the size of the batch it came in."""
    obs, _ = _round_observations(1)
    net = GreedyForward(PolicyAgent(greedy=True, threads=1, rules="schieber").net.single_view(), "bfloat16")
    whole = net.logits(obs[: 2 * BATCH_QUANTUM])
    for n in (1, BATCH_QUANTUM - 1, BATCH_QUANTUM, BATCH_QUANTUM + 1):
        part = net.logits(obs[:n])
        assert part.shape == (n, 43)
        np.testing.assert_array_equal(part, whole[:n])


def test_an_unknown_precision_is_refused_with_the_ones_allowed() -> None:
    assert PRECISIONS == ("float32", "bfloat16")
    with pytest.raises(ValueError, match="precision must be one of float32, bfloat16, got 'float16'"):
        GreedyForward(PolicyNet((16,), seed=2), "float16")
