"""Bots and evaluations over batches of games, for the trainer (``train.py``).

The trainer steps hundreds of games at once (:class:`jass_env.envs.vector.VectorJassEnv`); its
opponents and its evaluations decide whole batches of observations in one call:

* :func:`bot_actions` — the batch form of the bots ``random`` (:func:`agents.random_bot.random_actions`,
  the one random bot) and ``heuristic`` (the game's heuristic agent of :mod:`agents.registry`:
  its compiled batch form ``act_batch`` where it has one, else row by row), the same decisions
  their :class:`~agents.base.Agent` classes make for each row.
* :func:`evaluate_vs_bot` — the greedy policy against a bot under the evaluation tool's protocol
  of the game (``python -m agents.evaluate``, docs/bots.md), played as one batch; the protocol
  and the statistic are the game's (:func:`agents.evaluation.protocol.protocol_for`,
  :func:`~agents.evaluation.protocol.statistic_for`). The bot is one of :data:`BATCH_BOTS` or any
  agent spec of :mod:`agents.registry` (``pimc:worlds=10``, ``search:worlds=30``, a checkpoint):
  such an agent decides the batch's rows one by one from each row's observation and mask
  (:class:`SpecBot`). Seeds: :mod:`agents.evaluation.seeds`.

  - team games (Schieber): **duplicate** — deal ``i`` of the set ``seed`` (seed
    ``deal_seed(seed, i)``, dealer ``i % 4``) played twice, the policy in seats 0 & 2, then in
    1 & 3 on the same cards; per deal the mean of (policy team's score − bot team's). Statistic
    ``points_per_hand`` (higher is better).
  - whole-game games (Coiffeur): **duplicate deal sequences** — the game started from seed
    ``match_seed(seed, k)`` (match episodes: every deal of the game comes from that seed, dealers
    by the preset's rule) played twice, the policy's team in seats 0 & 2, then in 1 & 3; per
    sequence the mean of (policy team's game score − bot team's). Statistic ``game_score_diff``
    (higher is better).
  - games played alone (Differenzler, Mittlere, Molotow, Sidi): **seat rotation** — deal ``i``
    (dealer ``i % n``) played once per rotation ``k`` with the policy in seat ``k`` and the bot in
    the other seats; per deal the policy's mean score minus the bots' mean. Statistic: the game's
    (``penalty_diff`` in Differenzler, ``score_diff`` in Molotow: lower is better).

  Against the (deterministic) heuristic the figures equal the evaluation tool's on the same deal
  set (tests/test_batched.py checks it); against ``random`` the bot's dice differ from the tool's
  (here one generator seeded by ``seed`` draws for the whole batch).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import torch

from jass_env.engine.switches import Rules
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import make_rules
from jass_env.games.base import Statistic

from .base import Agent
from .evaluation.protocol import DUPLICATE, WHOLE_GAME, protocol_for, statistic_for
from .evaluation.seeds import deal_seed, match_seed
from .evaluation.stats import mean_ci
from .network import PolicyNet
from .random_bot import random_actions
from .registry import make_agent

#: the bots that decide batches (the trainer's bot opponents and evaluation opponents)
BATCH_BOTS = ("random", "heuristic")


def bot_actions(bot: str, rules: Rules, obs: np.ndarray, mask: np.ndarray,
                rng: np.random.Generator | None) -> np.ndarray:
    """The actions (N,) int64 of ``bot`` (one of :data:`BATCH_BOTS`) for a batch of observations
    (N, obs_dim) and masks (N, n_actions) of the game of ``rules``; ``rng`` feeds the random bot
    (the heuristic draws nothing: None will do)."""
    if bot == "random":
        if rng is None:
            raise ValueError("the random bot needs a generator (rng)")
        return random_actions(obs, mask, rules, rng)
    if bot == "heuristic":
        return _heuristic(rules).actions(obs, mask)
    raise ValueError(f"unknown batch bot {bot!r}; allowed: {', '.join(BATCH_BOTS)}")


class SpecBot:
    """An agent of the registry deciding a batch: ``actions(obs, mask)`` asks the agent built from
    ``spec`` (:func:`agents.registry.make_agent`, seeded by ``seed``) for each row's action, from
    that row's observation and mask only (what its seat may know); an agent with a batch form of
    its decisions (``act_batch(obs, mask)``, the compiled heuristics) decides the batch at once."""

    def __init__(self, spec: str, rules: Rules, seed: int) -> None:
        self.spec = spec
        self.agent: Agent = make_agent(spec, rules, seed=seed)

    def actions(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions (N,) int64 for observations (N, obs_dim) and masks (N, n_actions)."""
        act_batch = getattr(self.agent, "act_batch", None)
        if act_batch is not None:
            return act_batch(obs, mask)
        return np.array([self.agent.act({"observation": o, "action_mask": m}) for o, m in zip(obs, mask)],
                        dtype=np.int64)


@cache
def _heuristic(rules: Rules) -> SpecBot:
    """The game's heuristic: it decides from a row's observation alone (no memory between
    decisions), so one instance serves every game of a batch."""
    return SpecBot("heuristic", rules, seed=0)


#: a bot deciding a batch: ``decide(obs (N, obs_dim), mask (N, n_actions)) -> actions (N,)``
Decide = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _decider(bot: str, rules: Rules, rng: np.random.Generator, seed: int) -> Decide:
    """How ``bot`` decides a batch: a batch bot (``rng`` feeds the random one), or a
    :class:`SpecBot` seeded by ``seed``."""
    if bot in BATCH_BOTS:
        return lambda obs, mask: bot_actions(bot, rules, obs, mask, rng)
    return SpecBot(bot, rules, seed).actions


def greedy_actions(policy: PolicyNet, obs: np.ndarray, mask: np.ndarray, device: torch.device) -> np.ndarray:
    """The policy's highest-logit legal action (N,) int64 for observations (N, obs_dim) and masks."""
    x = torch.from_numpy(obs).to(device)
    m = torch.from_numpy(mask).to(device)
    return policy.masked_logits(x, m).argmax(-1).cpu().numpy()


def _play(env: VectorJassEnv, policy: PolicyNet, bot: Decide, policy_side: np.ndarray,
          dealers: np.ndarray | None, seeds: list[int], device: torch.device) -> np.ndarray:
    """Play one episode (a round, or in match episodes the whole game) in each game of ``env``:
    the policy in the seats of side ``policy_side[i]`` of game ``i``, ``bot`` elsewhere; ``dealers``
    as :meth:`VectorJassEnv.reset` takes them. Returns the episode's final scores (games, sides)
    int64."""
    rules = env.rules
    side_of_seat = np.array([rules.spec.side_of(p) for p in range(rules.spec.players)])
    n = env.num_envs
    obs, mask, seat = env.reset(seeds=seeds, dealers=dealers)
    finished = np.zeros(n, dtype=bool)
    scores = np.zeros((n, rules.spec.sides), dtype=np.int64)
    policy.eval()
    with torch.inference_mode():
        while not finished.all():
            is_policy = side_of_seat[seat] == policy_side
            actions = np.empty(n, dtype=np.int64)
            rows = np.flatnonzero(is_policy)
            if rows.size:
                actions[rows] = greedy_actions(policy, obs[rows], mask[rows], device)
            rows = np.flatnonzero(~is_policy)
            if rows.size:
                actions[rows] = bot(obs[rows], mask[rows])
            out = env.step(actions)
            new = out.done & ~finished
            scores[new] = out.final_score[new]
            finished |= out.done
            obs, mask, seat = out.obs, out.mask, out.seat
    return scores


def _duplicate(scores: np.ndarray, team: np.ndarray, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Duplicate play's figures from the scores (2 * deals, 2) of games whose policy team is
    ``team`` (2 * deals,), game ``i`` and ``i + deals`` on the same cards: per deal the mean of
    (policy team's score − bot team's) (deals,), and per game 1 / 0.5 / 0 for a policy team's
    higher / equal / lower score (2 * deals,)."""
    idx = np.arange(team.size)
    diff = (scores[idx, team] - scores[idx, 1 - team]).astype(np.float64)
    wins = np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))
    return (diff[:deals] + diff[deals:]) / 2.0, wins


def _result(stat: Statistic, per_deal: np.ndarray, win_key: str, wins: np.ndarray,
            deals: int) -> dict[str, float]:
    ci = mean_ci(per_deal)
    return {stat.key: ci.mean, "ci_low": ci.low, "ci_high": ci.high, win_key: float(np.mean(wins)),
            "deals": deals}


def evaluate_vs_bot(policy: PolicyNet, bot: str, rules: str | Rules, deals: int, seed: int,
                    device: torch.device) -> dict[str, float]:
    """The greedy ``policy`` against ``bot`` (a batch bot or an agent spec) on ``deals`` deals
    (whole-game games: deal sequences) of the evaluation tool's set ``seed`` (module docstring).
    Returns the game's statistic (:func:`~agents.evaluation.protocol.statistic_for`: key ``points_per_hand``,
    ``game_score_diff``, ``penalty_diff``, ``result_diff`` or ``score_diff``) with its 95 %
    t-interval (``ci_low``, ``ci_high``), ``deals``, and Schieber's ``round_win_rate`` (share of
    plays the policy's team scored more, ties half), whole-game games' ``game_win_rate`` (share of
    games the policy's team won, draws half) or the games played alone's ``deal_better_rate``
    (share of deals where its mean score was better than the bots', ties half)."""
    rules = make_rules(rules)
    stat = statistic_for(rules)
    protocol = protocol_for(rules)
    decide = _decider(bot, rules, np.random.default_rng(seed), seed)
    team = np.repeat(np.array([0, 1], dtype=np.int64), deals)     # (2 * deals,) duplicate: the policy's team
    if protocol == WHOLE_GAME:
        # the game's winner is the team with the higher game score (a draw when equal)
        env = VectorJassEnv(2 * deals, rules=rules, episode="match", reward="points", check_actions=False)
        seeds = [match_seed(seed, k) for k in range(deals)]
        scores = _play(env, policy, decide, team, None, seeds * 2, device)
        per_sequence, wins = _duplicate(scores, team, deals)
        return _result(stat, per_sequence, "game_win_rate", wins, deals)
    seeds = [deal_seed(seed, i) for i in range(deals)]
    if protocol == DUPLICATE:
        n = 2 * deals
        env = VectorJassEnv(n, rules=rules, episode="round", reward="points", check_actions=False)
        scores = _play(env, policy, decide, team, np.arange(n) % deals % 4, seeds * 2, device)
        per_deal, wins = _duplicate(scores, team, deals)
        return _result(stat, per_deal, "round_win_rate", wins, deals)
    players = rules.spec.players
    n = players * deals                                           # game k * deals + i: deal i, rotation k
    env = VectorJassEnv(n, rules=rules, episode="round", reward="points", check_actions=False)
    seat = np.repeat(np.arange(players, dtype=np.int64), deals)  # (n,) the policy's seat per game
    scores = _play(env, policy, decide, seat, np.arange(n) % deals % players, seeds * players, device)
    pen = scores.reshape(players, deals, players).astype(np.float64)     # [rotation, deal, seat]
    own = pen[np.arange(players), :, np.arange(players)]                # [rotation, deal]
    a = own.mean(axis=0)                                                 # (deals,) policy's mean
    b = (pen.sum(axis=2) - own).sum(axis=0) / (players * (players - 1))  # (deals,) the bots' mean
    diff = a - b
    better = diff > 0 if stat.higher_is_better else diff < 0
    wins = np.where(better, 1.0, np.where(diff == 0, 0.5, 0.0))
    return _result(stat, diff, "deal_better_rate", wins, deals)


__all__ = ["BATCH_BOTS", "SpecBot", "bot_actions", "greedy_actions", "evaluate_vs_bot"]
