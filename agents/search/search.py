"""Policy-guided determinized search (PIMC with network rollouts), every game that builds search
worlds: ``search:``.

For a decision with more than one legal action:

1. **Options**: the legal actions, or (``candidates=K``) the K with the highest prior probability
   under the policy network (the masked softmax of the root observation).
2. **Worlds**: ``worlds`` engine states of the round with the hidden cards dealt to fit what the
   seat knows, built by the game's world model (:mod:`agents.search.world_model`; the game names it
   in its ``BOTS`` fact): the searcher is player 0 of every world. A model may weight its worlds
   (``oversample=K``: Schieber infers from the bidding, drawing the worlds searched from K x
   ``worlds`` sampled ones by the policy's probability of the other seats' contract decisions;
   a world drawn twice is rolled out once and counted twice).
3. **Rollouts**: in every world, each option is played and the round is finished by the greedy
   policy network for every seat (``rollout="policy"``; ``rollout="random"``: uniformly random
   legal actions drawn from the decision's generator, PIMC's play-out, for a teacher that does not
   lean on a weak policy; ``rollout="heuristic"``: the game's own heuristic play-out, where its world
   model has one (:meth:`~agents.search.world_model.WorldModel.has_heuristic_play_out`: its PIMC's
   play-out, Molotow's avoidance play and Differenzler's play toward the predictions)), each seat
   acting on the observation of its own seat in that world
   (the world model's :meth:`~agents.search.world_model.WorldModel.encode`, so no rollout player
   sees another's hand). All worlds x options advance together: one batched forward pass per
   action still to play, over the rows (worlds x options) whose player to move has a choice (an
   only legal action is applied without the network), its first layer summed over the nonzero
   features only (:class:`agents.search.sparse_forward.GreedyForward`; with
   ``precision="bfloat16"`` the whole MLP in bfloat16 instead, dense, which matrix units such as
   Intel's AMX run about twice as fast, the greedy action then differing from the float32
   one only where two logits are within bfloat16 rounding). A suit-averaged network
   (:class:`agents.network.PolicyNet`) rolls out with its single view, one MLP pass per row; the
   prior and the world weights use the average. ``rollout_checkpoint`` names another network to
   roll out with, such as a smaller MLP fitted to play like the average
   (:mod:`agents.search.rollout_net`), which costs less per row.
4. **Pick** the option with the best mean of the searcher's result over the worlds (the world
   model's :meth:`~agents.search.world_model.WorldModel.results`: the game's score of the
   searcher's side in the direction where higher is better; Schieber's is own team − opponents);
   ties go to the lower action id. With ``margin=M`` (in the game's score units) the policy's own
   greedy choice is kept unless another option's mean beats its mean by more than M: a sampled
   mean is noisy, and the policy's choice is the better prior.

Card decisions are searched; the decisions before or beside card play (a contract, a push, a
prediction, a row, an exchange) are the policy's greedy choice (``contract="policy"``) or, with
``contract="search"``, searched the same way wherever the game's world model builds worlds for them.
A decision whose worlds the model does not build is the policy's.

Budget: ``worlds`` worlds per decision, cut with ``plays=P`` so that worlds x options x cards
still to play stays within P card plays (a deterministic bound on the slowest decisions, the first
tricks'). With ``contract_worlds=W`` (and ``contract="search"``) each searched decision that is not
a card gets W worlds instead, not cut by ``plays``: those decisions are few (in Schieber a seat
chooses trump or pushes in about one hand of four) and decide the most, so a search can spend on
them what a card decision would not get. With ``time_limit`` (seconds per decision) a first batch
of :data:`TIMED_BATCH` worlds is timed, each next batch is sized to fill the time left at the
measured time per world, and no new batch starts once the limit is passed (at least one batch
always runs; ``last_worlds`` says how many were searched). Without a time limit the bot is
deterministic for a seed: each decision draws one 32-bit seed from ``self.rng`` for the compiled
world sampler, and the rollouts are greedy.

Racing: with ``prune=Z`` the options race (successive elimination) in rounds of
:data:`PRUNE_ROUND_SHARE` of the decision's worlds. Every option plays the first round; each next
round's new worlds are played by the options still in. After every round, an option whose mean
over the worlds so far trails the best one's, or the policy's greedy choice's plus ``margin``, by
more than Z standard errors of the per-world difference (the worlds are shared, so the difference
is paired) is out. The race ends when the budget's rollouts (worlds x options) are spent or only
the policy's choice is left: the close options get more worlds than the budget's, and a decision
whose other options all fall behind ends early. ``last_worlds`` is then the worlds each option
still in was played in. A budget whose round is under :data:`PRUNE_MIN_WORLDS` worlds is not
raced.

The compiled functions that change a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`kernels` makes them for one game for Python. Leaf values come
from rollouts to the end of the round, not from the network's value head.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.search.search (the policy-guided search bot)") from None

from jass_env.engine import state
from jass_env.engine.cards import N_CARDS, popcount
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import apply_action, legal_set, pick_legal
from jass_env.games import game_of, make_rules

from ..base import Agent
from ..policy import PolicyAgent
from .pimc import decision_generator
from .sparse_forward import GreedyForward
from .world_model import WorldModel, world_model_class
from .worlds import next_rand

#: worlds of the first, timed batch when a time limit is set (the limit is checked between batches)
TIMED_BATCH = 2
#: default worlds per decision
DEFAULT_WORLDS = 30
#: with ``prune``: the share of a decision's worlds in each round of the race (the first is every option's)
PRUNE_ROUND_SHARE = 1 / 3
#: with ``prune``: the fewest worlds of a round (a smaller budget is not raced)
PRUNE_MIN_WORLDS = 10
#: how the decisions that are not cards are chosen
CONTRACT_MODES = ("policy", "search")
#: how a world is played to its end after each option
ROLLOUTS = ("policy", "random", "heuristic")


@njit(cache=True)
def play_forced(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    """Apply the only legal action as long as the player to move of ``st`` has exactly one (the
    greedy policy would play it anyway; no forward pass is spent on it)."""
    while state.phase(st) != state.PHASE_OVER:
        bits, block = legal_set(game, st, rp)
        if popcount(bits) + block != 1:
            return
        apply_action(game, st, pick_legal(bits, block, 0), rp)


@njit(cache=True)
def build_rows(game: int, worlds: np.ndarray, options: np.ndarray, rp: np.ndarray,
               states: np.ndarray, live: np.ndarray) -> int:
    """Fill ``states`` (int64[len(worlds) * len(options), state size]) with every world of
    ``worlds`` once per option, that option applied and the forced actions after it
    (:func:`play_forced`): row ``w * len(options) + k`` is world ``w`` after ``options[k]``. Write
    the unfinished rows' indices to the front of ``live`` (int64[len(states)], ascending) and
    return how many there are."""
    nc = options.shape[0]
    n = 0
    for w in range(worlds.shape[0]):
        for k in range(nc):
            i = w * nc + k
            row = states[i]
            row[:] = worlds[w]
            apply_action(game, row, options[k], rp)
            play_forced(game, row, rp)
            if state.phase(row) != state.PHASE_OVER:
                live[n] = i
                n += 1
    return n


@njit(cache=True)
def step_rows(game: int, states: np.ndarray, live: np.ndarray, n: int, actions: np.ndarray,
              rp: np.ndarray) -> int:
    """Apply ``actions[j]`` in row ``states[live[j]]`` for each j < ``n`` (the unfinished rows),
    then the forced actions after it (:func:`play_forced`); keep the indices of the rows still
    unfinished at the front of ``live`` (in order) and return how many there are."""
    kept = 0
    for j in range(n):
        i = live[j]
        apply_action(game, states[i], actions[j], rp)
        play_forced(game, states[i], rp)
        if state.phase(states[i]) != state.PHASE_OVER:
            live[kept] = i
            kept += 1
    return kept


@njit(cache=True)
def play_out_uniform(game: int, states: np.ndarray, rp: np.ndarray, rng: np.ndarray) -> None:
    """Play every world of ``states`` to the round's end, each action drawn uniformly from the
    legal ones with the compiled generator ``rng``."""
    for i in range(states.shape[0]):
        st = states[i]
        while state.phase(st) != state.PHASE_OVER:
            bits, block = legal_set(game, st, rp)
            apply_action(game, st, pick_legal(bits, block, next_rand(rng, popcount(bits) + block)), rp)


class Kernels(NamedTuple):
    """The compiled functions of this module that change a world, made for one game
    (:func:`kernels`): each takes the arguments of the function it is named after, without the
    game's number."""

    build_rows: object
    step_rows: object
    play_out_uniform: object


@cache
def kernels(game: int) -> Kernels:
    """The search's compiled functions for the game numbered ``game`` (its rules compiled in)."""

    @njit(cache=True)
    def build_rows_(worlds, options, rp, states, live):  # noqa: ANN001, ANN202
        return build_rows(game, worlds, options, rp, states, live)

    @njit(cache=True)
    def step_rows_(states, live, n, actions, rp):  # noqa: ANN001, ANN202
        return step_rows(game, states, live, n, actions, rp)

    @njit(cache=True)
    def play_out_uniform_(states, rp, rng):  # noqa: ANN001, ANN202
        play_out_uniform(game, states, rp, rng)

    return Kernels(build_rows_, step_rows_, play_out_uniform_)


def _budget_int(name: str, value: object) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


class SearchAgent(Agent):
    """PIMC whose rollouts are played by a trained policy network (module docstring).

    Args:
        rules: the rules to play (preset name or Rules), of a game that builds search worlds.
        checkpoint: a ``jass-policy/1`` checkpoint of a policy for these rules; None = the game's
            shipped policy (an error where it ships none).
        worlds: sampled worlds per decision (>= 1).
        candidates: search only the K legal actions the policy rates highest (None = every legal
            action); the others are never played unless fewer than K are legal.
        time_limit: seconds per decision (None = none); see the module doc.
        plays: the most card plays the rollouts of one decision may simulate (None = no cap):
            fewer worlds where many options and many cards are left (the first tricks), so the
            slowest decisions are bounded, deterministically.
        contract: "policy" (the policy's greedy choice of every decision that is not a card) or
            "search" (those searched too, where the game's world model builds worlds for them).
        contract_worlds: worlds for each searched decision that is not a card (None = as a card:
            ``worlds`` cut by ``plays``); needs ``contract="search"``.
        oversample: worlds sampled per world searched, weighted by the policy's probability of the
            other seats' decisions, where the game's world model weights its worlds (1 = none).
        margin: how much (in the game's score units) another option's mean must beat the policy's
            greedy choice by to be played instead (0 = plain argmax of the means).
        rollout: "policy" (the greedy policy plays every world out), "random" (uniformly random
            legal actions) or "heuristic" (the game's heuristic play-out, where its world model has
            one); with either of the last two the policy still gives the prior, the candidates and
            the margin's choice.
        precision: the number format of the rollouts' network, one of
            :data:`~agents.search.sparse_forward.PRECISIONS`: "float32" (the policy's own greedy
            action) or "bfloat16" (on a CPU with bfloat16 matrix units, Intel AMX, a Schieber
            search decision takes about 0.6 times as long; the greedy action differs where two
            logits are within bfloat16 rounding).
            The prior, the candidates and the margin's choice are always the float32 policy's.
        rollout_checkpoint: a ``jass-policy/1`` checkpoint whose network plays the worlds out
            (its single view) instead of the single view of ``checkpoint``'s, with
            ``rollout="policy"``; None = ``checkpoint``'s. A rollout plays one MLP view, which
            under suit symmetry is weaker than the suit average that ``checkpoint`` plays; an MLP
            fitted to that average (``python -m agents.search.rollout_net``) plays closer to it,
            and one with narrower layers costs less per row (in Schieber the shipped one, two
            layers of 128, plays as well as a fitted view of the policy's 256 at about half a
            rollout's cost). The prior, the candidates and the margin's choice stay ``checkpoint``'s.
        prune: race the options (None = no race): in rounds of :data:`PRUNE_ROUND_SHARE` of a
            decision's worlds, drop after each round every option that trails the best mean, or
            the policy's greedy choice plus ``margin``, by more than ``prune`` standard errors of
            the paired difference; the rounds go on among the others until the budget's rollouts
            are spent or only the policy's choice is left: at most the budget's card plays, more
            worlds for the close options. Not with ``time_limit``.
        seed: generator seed (reseeded by :meth:`reset`).
    """

    def __init__(self, rules: str | Rules | None = None, checkpoint: str | os.PathLike[str] | None = None,
                 worlds: int = DEFAULT_WORLDS, candidates: int | None = None,
                 time_limit: float | None = None, contract: str = "policy",
                 plays: int | None = None, margin: float = 0.0, oversample: int = 1,
                 rollout: str = "policy", contract_worlds: int | None = None,
                 precision: str = "float32", rollout_checkpoint: str | os.PathLike[str] | None = None,
                 prune: float | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        if contract not in CONTRACT_MODES:
            raise ValueError(f"contract must be one of {', '.join(CONTRACT_MODES)}, got {contract!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        self.contract = contract
        self.rollout = rollout
        self.rules = make_rules(rules)
        model_class = world_model_class(self.rules)
        if rollout == "heuristic" and not model_class.has_heuristic_play_out(self.rules):
            raise ValueError(f"rollout=heuristic: {self.rules.game}'s search has no heuristic play-out; "
                             f"allowed: rollout=policy or rollout=random")
        self.worlds = _budget_int("worlds", worlds)
        self.candidates = None if candidates is None else _budget_int("candidates", candidates)
        self.plays = None if plays is None else _budget_int("plays", plays)
        self.contract_worlds = (None if contract_worlds is None
                                else _budget_int("contract_worlds", contract_worlds))
        if self.contract_worlds is not None and contract != "search":
            raise ValueError(f"contract_worlds sizes the search of the decisions that are not cards, which "
                             f"contract={contract!r} leaves to the policy; allowed with contract=search")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
        self.time_limit = time_limit
        if not isinstance(margin, (int, float)) or isinstance(margin, bool) or not margin >= 0:
            raise ValueError(f"margin must be a number >= 0 (the game's score units), got {margin!r}")
        self.margin = float(margin)
        if prune is not None and (not isinstance(prune, (int, float)) or isinstance(prune, bool)
                                  or not prune > 0):
            raise ValueError(f"prune must be a positive number of standard errors or None, got {prune!r}")
        if prune is not None and time_limit is not None:
            raise ValueError("prune shares a budget of worlds among the options and time_limit has none; "
                             "allowed: one of prune and time_limit")
        self.prune = None if prune is None else float(prune)
        self.oversample = _budget_int("oversample", oversample)
        if self.oversample > 1 and not model_class.weights_worlds:
            raise ValueError(f"oversample: {self.rules.game}'s search worlds are not weighted by the other "
                             f"seats' decisions; allowed: oversample=1")
        if checkpoint is None and self.rules.game not in game_of(self.rules).checkpoints:
            raise ValueError(f"the search rolls out with a trained policy and {self.rules.game} ships none; "
                             f"give one as checkpoint=PATH")
        self.rp = self.rules.params
        self.policy = PolicyAgent(checkpoint, greedy=True, threads=1, rules=self.rules)
        self.net = self.policy.net
        self.checkpoint = self.policy.checkpoint
        self.checkpoint_sha256 = self.policy.checkpoint_sha256
        self.rollout_checkpoint = self.rollout_checkpoint_sha256 = None
        rollout_net = self.net
        if rollout_checkpoint is not None:
            if rollout != "policy":
                raise ValueError(f"rollout_checkpoint names the network that plays the worlds out, which "
                                 f"rollout={rollout!r} does not use; allowed with rollout=policy")
            player = PolicyAgent(rollout_checkpoint, greedy=True, threads=1, rules=self.rules)
            rollout_net = player.net
            self.rollout_checkpoint = player.checkpoint
            self.rollout_checkpoint_sha256 = player.checkpoint_sha256
        # greedy actions (B,) of obs (B, obs_dim), masks (B, n_actions): one MLP pass, not the suit average
        self._greedy = GreedyForward(rollout_net.single_view(), precision)
        self.name = (f"search{self.worlds}" + (f"-top{self.candidates}" if self.candidates else "")
                     + (f"-plays{self.plays}" if self.plays else "")
                     + ("-contract" if contract == "search" else "")
                     + (f"{self.contract_worlds}" if self.contract_worlds else "")
                     + (f"-margin{margin:g}" if margin else "")
                     + ("" if prune is None else f"-prune{prune:g}")
                     + (f"-infer{self.oversample}" if self.oversample > 1 else "")
                     + ("" if rollout == "policy" else f"-{rollout}")
                     + ("" if precision == "float32" else f"-{precision}")
                     + ("" if rollout_checkpoint is None else f"-rollnet({Path(rollout_checkpoint).name})"))
        self.last_worlds = 0   # worlds searched in the last searched decision
        self.model: WorldModel = model_class(self.rules, self._log_likelihood, self.oversample)
        self._kernels = kernels(self.rules.spec.kind)
        self._n_actions = self.rules.spec.n_actions

    def _log_likelihood(self, obs: np.ndarray, mask: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Log-probabilities (float64[B]) of ``actions`` (B,) under the policy (its suit average,
        where it is one) at ``obs`` (B, obs_dim) with ``mask`` (B, n_actions)."""
        with torch.inference_mode():
            logits = self.net.masked_logits(torch.from_numpy(obs), torch.from_numpy(mask.astype(bool)))
            logp = torch.log_softmax(logits, 1)[torch.arange(len(actions)), torch.from_numpy(actions)]
        return logp.numpy().astype(np.float64)

    def _options(self, obs: Mapping[str, np.ndarray], legal: np.ndarray) -> np.ndarray:
        """The legal actions to search (int64, ascending): all, or the ``candidates`` best by prior."""
        if self.candidates is None or len(legal) <= self.candidates:
            return legal
        prior = self.policy.action_probabilities(obs)
        order = np.argsort(-prior[legal], kind="stable")[: self.candidates]
        return np.sort(legal[order])

    def _rollouts(self, obs: Mapping[str, np.ndarray], root: np.ndarray, options: np.ndarray, n_worlds: int,
                  rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Each option's rollout result in ``n_worlds`` new worlds: (results float64[D, len(options)],
        one row per distinct world, and counts float64[D], how often each was drawn, summing to
        ``n_worlds``); None where the game's model builds no worlds at this decision."""
        built = self.model.worlds(obs, n_worlds, rng)
        if built is None:
            return None
        worlds, counts = built
        nc = len(options)
        states = np.zeros((len(worlds) * nc, worlds.shape[1]), dtype=np.int64)
        live = np.empty(len(states), dtype=np.int64)       # indices of the unfinished rows, at the front
        n = self._kernels.build_rows(worlds, options, self.rp, states, live)
        if self.rollout == "random":
            self._kernels.play_out_uniform(states, self.rp, rng)
            n = 0
        elif self.rollout == "heuristic":
            self.model.play_out(states)
            n = 0
        obs_rows = np.zeros((n, len(root)), dtype=np.float32)
        mask = np.zeros((n, self._n_actions), dtype=np.int8)
        while n:          # one forward pass over the n unfinished rows, each with a choice to make
            self.model.encode(states[live[:n]], root, obs_rows[:n], mask[:n])
            n = self._kernels.step_rows(states, live, n, self._greedy(obs_rows[:n], mask[:n]), self.rp)
        return self.model.results(states).reshape(-1, nc).astype(np.float64), counts.astype(np.float64)

    def _world_budget(self, obs: Mapping[str, np.ndarray], n_options: int, cards: bool,
                      rng: np.ndarray) -> int | None:
        """Worlds to search for a decision among ``n_options`` (``cards``: a card decision):
        ``contract_worlds`` for a decision that is not a card where it is set, else ``worlds``, cut
        (to at least 1) so that worlds x options x cards still to play stays within ``plays``; None
        where the probe finds that the game's model builds no worlds at this decision. With
        ``plays`` a world drawn from a copy of ``rng`` (the worlds searched are not moved) tells the
        cards still to play."""
        if not cards and self.contract_worlds is not None:
            return self.contract_worlds
        if self.plays is None:
            return self.worlds
        probe = self.model.worlds(obs, 1, rng.copy())
        if probe is None:
            return None
        cards_left = self.model.cards_left(probe[0])
        return max(1, min(self.worlds, self.plays // (n_options * max(cards_left, 1))))

    def option_values(self, obs: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
        """Search one decision: the options searched (int64[k] actions, ascending, k >= 2) and
        each one's mean rollout result (float64[k], the game's score units, higher is better)
        over the worlds searched; None where the decision is not searched (one legal option, a
        decision that is not a card with ``contract="policy"``, or one whose worlds the game's model
        does not build): then the policy plays it."""
        legal = np.flatnonzero(np.asarray(obs["action_mask"])).astype(np.int64)
        if len(legal) == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        cards = bool(legal[-1] < N_CARDS)
        if len(legal) == 1 or (not cards and self.contract == "policy"):
            return None
        rng = decision_generator(self.rng)
        options = self._options(obs, legal)
        root = np.asarray(obs["observation"], dtype=np.float32)
        budget = self._world_budget(obs, len(options), cards, rng)
        if budget is None:
            return None
        if self.time_limit is not None:
            return self._timed(obs, root, options, budget, rng)
        if self.prune is not None and budget * PRUNE_ROUND_SHARE >= PRUNE_MIN_WORLDS:
            return self._raced(obs, root, options, budget, rng)
        built = self._rollouts(obs, root, options, budget, rng)
        if built is None:
            return None
        results, counts = built
        self.last_worlds = budget
        return options, counts @ results / budget

    def _timed(self, obs: Mapping[str, np.ndarray], root: np.ndarray, options: np.ndarray, budget: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """:meth:`option_values` under ``time_limit``: batches of new worlds until the budget or
        the time is spent (module doc)."""
        deadline = time.perf_counter() + self.time_limit
        sums = np.zeros(len(options))
        done, n = 0, min(TIMED_BATCH, budget)
        while True:
            started = time.perf_counter()
            built = self._rollouts(obs, root, options, n, rng)
            if built is None:
                return None
            results, counts = built
            sums += counts @ results
            done += n
            now = time.perf_counter()
            if done >= budget or now >= deadline:
                break
            per_world = (now - started) / n          # the next batch fills the time left
            n = int(min(budget - done, max(1, (deadline - now) / per_world)))
        self.last_worlds = done
        return options, sums / done

    def _raced(self, obs: Mapping[str, np.ndarray], root: np.ndarray, options: np.ndarray, budget: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """:meth:`option_values` with ``prune``: rounds of :data:`PRUNE_ROUND_SHARE` of the
        ``budget`` worlds, each new round's worlds played by the options still in the race; after
        every round the options out (:meth:`_survivors`, over all the worlds so far) are dropped.
        The race ends when the rollouts of the budget (``budget`` x the options) are spent or only
        one option is left. Returns the options still in (the policy's greedy choice always among
        them) and each one's mean over every world it was played in."""
        per_round = max(1, int(np.ceil(budget * PRUNE_ROUND_SHARE)))
        rollouts_left = budget * len(options)
        greedy = self.policy.act(obs)
        results = np.zeros((0, len(options)))
        counts = np.zeros(0)
        while len(options) > 1 and rollouts_left >= len(options):
            n = min(per_round, rollouts_left // len(options))
            built = self._rollouts(obs, root, options, n, rng)
            if built is None:
                return None
            results, counts = np.concatenate([results, built[0]]), np.concatenate([counts, built[1]])
            rollouts_left -= n * len(options)
            keep = self._survivors(options, results, counts, greedy)
            options, results = options[keep], results[:, keep]
        self.last_worlds = int(counts.sum())
        return options, counts @ results / counts.sum()

    def _survivors(self, options: np.ndarray, results: np.ndarray, counts: np.ndarray,
                   greedy: int) -> np.ndarray:
        """Which of ``options`` stay in the race after a round (bool[len(options)]), from their
        ``results`` (float64[D, len(options)]) in the D worlds so far, drawn ``counts`` times:
        an option is out when, by more than ``prune`` standard errors of the difference over the
        worlds, its mean trails the best mean, or trails the mean of the policy's ``greedy`` choice
        plus ``margin`` (it could not be played instead). The greedy choice is never out."""
        n = counts.sum()
        means = counts @ results / n

        def behind(reference: np.ndarray, by: float) -> np.ndarray:
            gap = reference[:, None] + by - results                 # (D, options): per world
            mean_gap = counts @ gap / n
            spread = np.sqrt(counts @ (gap - mean_gap) ** 2 / max(n - 1, 1))
            return mean_gap > self.prune * spread / np.sqrt(n)

        out = behind(results[:, int(np.argmax(means))], 0.0)
        is_greedy = options == greedy
        if is_greedy.any():
            out |= behind(results[:, int(np.flatnonzero(is_greedy)[0])], self.margin)
        return ~out | is_greedy

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        searched = self.option_values(obs)
        if searched is None:              # one legal action is played without a forward pass
            legal = np.flatnonzero(obs["action_mask"])
            return int(legal[0]) if len(legal) == 1 else self.policy.act(obs)
        options, means = searched
        best = int(np.argmax(means))
        if self.margin:
            greedy = np.flatnonzero(options == self.policy.act(obs))
            if len(greedy) and means[best] - means[greedy[0]] <= self.margin:
                return int(options[greedy[0]])
        return int(options[best])


__all__ = ["SearchAgent", "play_forced", "build_rows", "step_rows", "play_out_uniform", "Kernels", "kernels",
           "TIMED_BATCH", "PRUNE_ROUND_SHARE", "PRUNE_MIN_WORLDS", "CONTRACT_MODES", "ROLLOUTS",
           "DEFAULT_WORLDS"]
