"""Policy-guided determinized search (PIMC with network rollouts) for Schieber: ``search:``.

For a card decision with more than one legal card:

1. **Candidates**: the legal cards, or (``candidates=K``) the K with the highest prior
   probability under the policy network (the masked softmax of the root observation).
2. **Worlds**: ``worlds`` deals of the unseen cards consistent with what the seat knows, sampled
   exactly as the PIMC bot samples them (:func:`agents.bots.schieber.sample_world`: hand sizes,
   shown voids, public Weis cards) and built with :func:`agents.bots.schieber.build_world_state`
   (the searcher is player 0 of every world). With ``oversample=K`` the bidding is inferred from:
   K x ``worlds`` deals are sampled, each weighted by the policy's probability of the contract
   decisions the other seats made (forehand's push or contract, the choice after a push) had they
   held that deal's cards, and the ``worlds`` searched are drawn by weight (systematic
   resampling; a deal drawn twice is rolled out once and counted twice).
3. **Rollouts**: in every world, each candidate is played and the round is finished by the greedy
   policy network for all four seats, each seat acting on the observation of its own seat in that
   world (:func:`jass_env.games.schieber.observation.encode_observation`, so no rollout player
   sees another's hand). All worlds x candidates advance together: one batched forward pass per
   card still to play (rows = worlds x candidates), its first layer summed over the nonzero
   features only (:class:`agents.search.sparse_forward.GreedyForward`). A suit-averaged network
   (:class:`agents.network.PolicyNet`) rolls out with its single view, one MLP pass per row; the
   prior and the bidding inference use the average. The public features the world state leaves
   out (Weis points, the shown Stöck, the match totals, and their share of the round score) are
   copied from the real observation into every rollout observation, turned to the acting seat's
   view.
4. **Pick** the candidate with the best mean of (own team − opponents) final round score over the
   worlds (the world's score: card points, last-trick 5 and Match bonus, multiplied; Weis and
   Stöck are fixed by the deal and left out, as in PIMC); ties go to the lower card id. With
   ``margin=M`` (points per hand) the policy's own greedy choice is kept unless another option's
   mean beats its mean by more than M: a sampled mean is noisy, and the policy's choice is the
   better prior.

Single-legal-card decisions are played without search. The contract is the policy's greedy
choice (``contract="policy"``), or (``contract="search"``) every legal contract and the push is
valued the same way in ``worlds`` uniform deals of the 27 cards the seat does not hold, each
world started by :func:`jass_env.engine.transitions.start_round` (so its Weis and Stöck are the
world's own), the partner choosing by the policy after a push.

Budget: ``worlds`` worlds per decision, cut with ``plays=P`` so that worlds x options x cards
still to play stays within P card plays (a deterministic bound on the slowest decisions, the first
tricks'). With ``time_limit`` (seconds per decision) a first batch of :data:`TIMED_BATCH` worlds
is timed, each next batch is sized to fill the time left at the measured time per world, and no
new batch starts once the limit is passed (at least one batch always runs; ``last_worlds`` says
how many were searched). Without a time limit the bot is deterministic for a seed: each decision
draws one 32-bit seed from ``self.rng`` for the compiled world sampler, and the rollouts are
greedy.

The compiled functions that change a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`kernels` makes them for one game for Python.

The shipped checkpoint ``agents/checkpoints/default.pt`` comes from a PPO run with a centralized
critic (``central_critic: true``) and a distillation that fits the policy only: its own value head
is still at its initialisation (the seed-1 weights, bias 0), so leaf values come from rollouts to
the end of the round, not from the value head.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.search.search (the policy-guided search bot)") from None

from jass_env.engine import state
from jass_env.engine.cards import N_CARDS, ROUND_POINTS, popcount
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.switches import RP_MULT, Rules
from jass_env.engine.transitions import apply_action, legal_set, start_round, write_legal_mask
from jass_env.games import make_rules
from jass_env.games.schieber.observation import (
    O_CONTRACT,
    O_MATCH,
    O_POINTS,
    O_SCORE,
    O_STOECK,
    O_WEIS_POINTS,
    OBS_DIM,
    encode_observation,
)
from jass_env.games.schieber.rules import CONTRACT_OFFSET, N_ACTIONS, PUSH

from ..base import Agent
from ..bots.schieber import (
    V_CONTRACT,
    V_FOREHAND,
    V_HAND,
    V_LEGAL,
    V_PHASE,
    V_PLAYED,
    V_PUSHED,
    build_world_state,
    decode,
    sample_world,
)
from ..policy import PolicyAgent
from .pimc import decision_generator
from .sparse_forward import GreedyForward
from .worlds import next_rand

#: worlds of the first, timed batch when a time limit is set (the limit is checked between batches)
TIMED_BATCH = 2
#: default worlds per decision
DEFAULT_WORLDS = 30
#: the game this bot plays
GAME = "schieber"
#: how the contract is chosen
CONTRACT_MODES = ("policy", "search")
#: resolution of the random offset of systematic resampling
RESAMPLE_GRID = 1 << 30


@njit(cache=True)
def sample_worlds(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> None:
    """Fill ``hands`` (int64[n_worlds, MAX_PLAYERS], by relative seat) with ``n_worlds`` deals of
    the unseen cards of the seat view ``v`` (:func:`agents.bots.schieber.sample_world`)."""
    for w in range(hands.shape[0]):
        sample_world(v, rp, rng, hands[w])


@njit(cache=True)
def build_rows(game: int, v: np.ndarray, rp: np.ndarray, hands: np.ndarray, cands: np.ndarray,
               states: np.ndarray) -> None:
    """Fill ``states`` (int64[len(hands) * len(cands), state size]) with the worlds ``hands``
    (from :func:`sample_worlds`) of the seat view ``v``, each once per candidate card with that
    card already played: row ``w * len(cands) + k`` is world ``w`` after candidate ``cands[k]``."""
    world = np.zeros(states.shape[1], dtype=np.int64)
    nc = cands.shape[0]
    for w in range(hands.shape[0]):
        build_world_state(v, hands[w], rp, world)
        for k in range(nc):
            row = states[w * nc + k]
            row[:] = world
            apply_action(game, row, cands[k], rp)


@njit(cache=True)
def encode_world_seat(game: int, st: np.ndarray, p: int, rp: np.ndarray, root: np.ndarray, obs: np.ndarray,
                      mask: np.ndarray) -> None:
    """Observation (float32[OBS_DIM]) and action mask (int8[43]) of player ``p`` in the world
    state ``st``, with the match totals (which a world leaves out) from my real observation
    ``root``, turned to ``p``'s team."""
    encode_observation(st, p, rp, obs)
    bits, block = legal_set(game, st, rp)
    write_legal_mask(bits, block, mask)
    own = p % 2
    for k in range(2):
        obs[O_MATCH + k] = root[O_MATCH + (own + k) % 2]
    obs[O_MATCH + 2] = root[O_MATCH + 2]


@njit(cache=True)
def encode_bidding_rows(game: int, v: np.ndarray, rp: np.ndarray, size: int, hands: np.ndarray,
                        root: np.ndarray, obs: np.ndarray, mask: np.ndarray, taken: np.ndarray) -> None:
    """The round's contract decisions as each world ``hands[w]`` would have seen them, for
    weighting the worlds by how likely they make the bidding that happened (card play only).

    A world's hands at the deal are its hands now plus the cards each seat has played; its state
    has ``size`` entries. Row ``2w`` of ``obs`` (float32[2 n, OBS_DIM]) and ``mask`` (int8[2 n,
    43]) is forehand's first decision, row ``2w + 1`` the choice after a push; ``taken[row]`` is
    the action that was played there, or -1 where the decision was mine (the same in every world)
    or never came (no push). The match totals come from my real observation ``root``, turned to
    the acting seat."""
    start = np.zeros(size, dtype=np.int64)
    dealt = np.zeros(4, dtype=np.int64)
    forehand = v[V_FOREHAND]
    chosen = CONTRACT_OFFSET + v[V_CONTRACT]
    for w in range(hands.shape[0]):
        for p in range(4):
            dealt[p] = hands[w, p] | v[V_PLAYED + p]
        start[:] = 0
        start_round(game, start, dealt, (forehand + 3) % 4, rp)
        for j in range(2):
            i = 2 * w + j
            taken[i] = -1
            if j == 1:
                if not v[V_PUSHED]:
                    break
                apply_action(game, start, PUSH, rp)
            p = state.to_move(start)
            if p == 0:
                continue
            taken[i] = PUSH if j == 0 and v[V_PUSHED] else chosen
            encode_world_seat(game, start, p, rp, root, obs[i], mask[i])


@njit(cache=True)
def build_contract_rows(game: int, v: np.ndarray, rp: np.ndarray, n_worlds: int, options: np.ndarray,
                        rng: np.ndarray, states: np.ndarray) -> None:
    """Like :func:`build_rows` for the contract choice: ``n_worlds`` deals of the 27 cards I do not
    hold (9 to each other seat, uniformly), each started with
    :func:`jass_env.engine.transitions.start_round` (after forehand's push when ``v`` is the
    choice after a push) and then once per option of ``options`` (contract actions or the push)
    applied: row ``w * len(options) + k``."""
    hands = np.zeros(4, dtype=np.int64)
    world = np.zeros(states.shape[1], dtype=np.int64)
    unseen = np.empty(27, dtype=np.int64)
    k = 0
    for c in range(36):
        if not (v[V_HAND] >> c) & 1:
            unseen[k] = c
            k += 1
    after_push = v[V_PHASE] == 1
    dealer = 1 if after_push else 3                  # forehand: my partner (2) or me (0)
    nc = options.shape[0]
    for w in range(n_worlds):
        for i in range(26, 0, -1):
            j = next_rand(rng, i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        hands[0] = v[V_HAND]
        for r in range(1, 4):
            hands[r] = 0
            for i in range(9 * (r - 1), 9 * r):
                hands[r] |= np.int64(1) << unseen[i]
        world[:] = 0
        start_round(game, world, hands, dealer, rp)
        if after_push:
            apply_action(game, world, PUSH, rp)
        for k in range(nc):
            row = states[w * nc + k]
            row[:] = world
            apply_action(game, row, options[k], rp)


@njit(cache=True)
def encode_rows(game: int, states: np.ndarray, rp: np.ndarray, root: np.ndarray, card_play_world: bool,
                obs: np.ndarray, mask: np.ndarray) -> None:
    """Observation (float32[B, OBS_DIM]) and action mask (int8[B, 43]) of the player to move in
    each world state of ``states`` (int64[B, state size]); a finished row gets an all-zero mask.

    The searcher is player 0 and ``root`` its real observation. The match totals come from
    ``root``; in a ``card_play_world`` (built by :func:`agents.bots.schieber.build_world_state`,
    which leaves Weis and Stöck out) so do the Weis points, the shown Stöck and their part of the
    round score, turned to the acting seat's view."""
    root_contract = -1
    for c in range(6):
        if root[O_CONTRACT + c] > 0.5:
            root_contract = c
    # the round score the real observation has beyond card points x multiplier, per world team
    extra = np.zeros(2, dtype=np.float32)
    if card_play_world and root_contract >= 0:
        mult = rp[RP_MULT + root_contract] / ROUND_POINTS
        for t in range(2):
            extra[t] = root[O_SCORE + t] - root[O_POINTS + t] * ROUND_POINTS * mult
    for i in range(states.shape[0]):
        st = states[i]
        if state.phase(st) == state.PHASE_OVER:
            mask[i, :] = 0
            continue
        p = state.to_move(st)
        o = obs[i]
        encode_world_seat(game, st, p, rp, root, o, mask[i])
        own = p % 2
        if not card_play_world:
            continue
        for k in range(2):
            t = (own + k) % 2
            o[O_WEIS_POINTS + k] = root[O_WEIS_POINTS + t]
            o[O_SCORE + k] += extra[t]
        for r in range(4):
            if root[O_STOECK + r] > 0.5:
                o[O_STOECK + (r - p) % 4] = 1.0


@njit(cache=True)
def step_rows(game: int, states: np.ndarray, actions: np.ndarray, rp: np.ndarray) -> int:
    """Apply ``actions[i]`` in every unfinished ``states[i]``; return how many rows are still
    unfinished afterwards."""
    live = 0
    for i in range(states.shape[0]):
        if state.phase(states[i]) == state.PHASE_OVER:
            continue
        apply_action(game, states[i], actions[i], rp)
        if state.phase(states[i]) != state.PHASE_OVER:
            live += 1
    return live


@njit(cache=True)
def row_results(states: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = team 0 − team 1 round score of the finished world ``states[i]``."""
    for i in range(states.shape[0]):
        out[i] = state.score_of(states[i], 0) - state.score_of(states[i], 1)


class Kernels(NamedTuple):
    """The compiled functions of this module that change a world, made for one game
    (:func:`kernels`): each takes the arguments of the function it is named after, without the
    game's number."""

    build_rows: object
    encode_bidding_rows: object
    build_contract_rows: object
    encode_rows: object
    step_rows: object


@cache
def kernels(game: int) -> Kernels:
    """The search's compiled functions for the game numbered ``game`` (its rules compiled in)."""

    @njit(cache=True)
    def build_rows_(v, rp, hands, cands, states):  # noqa: ANN001, ANN202
        build_rows(game, v, rp, hands, cands, states)

    @njit(cache=True)
    def encode_bidding_rows_(v, rp, size, hands, root, obs, mask, taken):  # noqa: ANN001, ANN202
        encode_bidding_rows(game, v, rp, size, hands, root, obs, mask, taken)

    @njit(cache=True)
    def build_contract_rows_(v, rp, n_worlds, options, rng, states):  # noqa: ANN001, ANN202
        build_contract_rows(game, v, rp, n_worlds, options, rng, states)

    @njit(cache=True)
    def encode_rows_(states, rp, root, card_play_world, obs, mask):  # noqa: ANN001, ANN202
        encode_rows(game, states, rp, root, card_play_world, obs, mask)

    @njit(cache=True)
    def step_rows_(states, actions, rp):  # noqa: ANN001, ANN202
        return step_rows(game, states, actions, rp)

    return Kernels(build_rows_, encode_bidding_rows_, build_contract_rows_, encode_rows_, step_rows_)


def _budget_int(name: str, value: object) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


class SearchAgent(Agent):
    """PIMC whose rollouts are played by a trained policy network (Schieber only).

    Args:
        rules: the Schieber rules to play (preset name or Rules).
        checkpoint: a ``jass-policy/1`` Schieber checkpoint; None = the shipped
            ``agents/checkpoints/default.pt``.
        worlds: sampled worlds per decision (>= 1).
        candidates: search only the K legal cards the policy rates highest (None = every legal
            card); the others are never played unless fewer than K are legal.
        time_limit: seconds per decision (None = none); see the module doc.
        plays: the most card plays the rollouts of one decision may simulate (None = no cap):
            fewer worlds where many options and many cards are left (the first tricks), so the
            slowest decisions are bounded, deterministically.
        contract: "policy" (the policy's greedy contract or push) or "search" (every legal
            contract and the push valued by rollouts in ``worlds`` deals of the unseen cards).
        oversample: card play infers from the bidding when > 1: each world searched is drawn
            from ``oversample`` sampled ones by the policy's probability of the contract
            decisions the other seats made (1 = no inference; see :meth:`_world_hands`).
        margin: points per hand another option's mean must beat the policy's greedy choice by to
            be played instead (0 = plain argmax of the means).
        seed: generator seed (reseeded by :meth:`reset`).
    """

    def __init__(self, rules: str | Rules | None = None, checkpoint: str | os.PathLike[str] | None = None,
                 worlds: int = DEFAULT_WORLDS, candidates: int | None = None,
                 time_limit: float | None = None, contract: str = "policy",
                 plays: int | None = None, margin: float = 0.0, oversample: int = 1,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        if contract not in CONTRACT_MODES:
            raise ValueError(f"contract must be one of {', '.join(CONTRACT_MODES)}, got {contract!r}")
        self.contract = contract
        self.rules = make_rules(rules)
        if self.rules.game != GAME:
            raise ValueError(f"the search bot plays {GAME} only, not {self.rules.game}")
        self.worlds = _budget_int("worlds", worlds)
        self.candidates = None if candidates is None else _budget_int("candidates", candidates)
        self.plays = None if plays is None else _budget_int("plays", plays)
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
        self.time_limit = time_limit
        if not isinstance(margin, (int, float)) or isinstance(margin, bool) or not margin >= 0:
            raise ValueError(f"margin must be a number of points >= 0, got {margin!r}")
        self.margin = float(margin)
        self.oversample = _budget_int("oversample", oversample)
        self.rp = self.rules.params
        self.policy = PolicyAgent(checkpoint, greedy=True, threads=1, rules=self.rules)
        self.net = self.policy.net
        # greedy actions (B,) of obs (B, OBS_DIM), masks (B, 43): one MLP pass, not the suit average
        self._greedy = GreedyForward(self.net.single_view())
        self.checkpoint = self.policy.checkpoint
        self.checkpoint_sha256 = self.policy.checkpoint_sha256
        self.name = (f"search{self.worlds}" + (f"-top{self.candidates}" if self.candidates else "")
                     + (f"-plays{self.plays}" if self.plays else "")
                     + ("-contract" if contract == "search" else "")
                     + (f"-margin{margin:g}" if margin else "")
                     + (f"-infer{self.oversample}" if self.oversample > 1 else ""))
        self.last_worlds = 0   # worlds searched in the last searched decision
        self._kernels = kernels(self.rules.spec.kind)
        self._size = state.state_size(self.rules.spec)

    def _prior(self, obs: Mapping[str, np.ndarray]) -> np.ndarray:
        """Root policy probabilities (43,) of the masked softmax."""
        return self.policy.action_probabilities(obs)

    def _candidates(self, obs: Mapping[str, np.ndarray], legal: int) -> np.ndarray:
        """The legal cards to search (int64, ascending): all, or the ``candidates`` best by prior."""
        cards = np.array([c for c in range(36) if (legal >> c) & 1], dtype=np.int64)
        if self.candidates is None or len(cards) <= self.candidates:
            return cards
        prior = self._prior(obs)
        order = np.argsort(-prior[cards], kind="stable")[: self.candidates]
        return np.sort(cards[order])

    def _world_hands(self, v: np.ndarray, root: np.ndarray, n_worlds: int,
                     rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The worlds of one batch: distinct hands (int64[m, MAX_PLAYERS]) and how many of the
        ``n_worlds`` draws each stands for (int64[m], summing to ``n_worlds``).

        Without inference (``oversample`` 1) these are ``n_worlds`` sampled worlds, once each.
        With it, ``oversample * n_worlds`` worlds are sampled and weighted by the policy's
        probability of the contract decisions the other seats made (forehand's push or contract,
        the choice after a push), as each would have made them holding that world's cards; the
        ``n_worlds`` draws are then made in proportion to the weights (systematic resampling)."""
        m = n_worlds * self.oversample
        hands = np.zeros((m, MAX_PLAYERS), dtype=np.int64)
        sample_worlds(v, self.rp, rng, hands)
        if self.oversample == 1:
            return hands, np.ones(m, dtype=np.int64)
        obs = np.zeros((2 * m, OBS_DIM), dtype=np.float32)
        mask = np.zeros((2 * m, N_ACTIONS), dtype=np.int8)
        taken = np.full(2 * m, -1, dtype=np.int64)
        self._kernels.encode_bidding_rows(v, self.rp, self._size, hands, root, obs, mask, taken)
        rows = np.flatnonzero(taken >= 0)
        if len(rows) == 0:                      # I made every contract decision: nothing to infer
            return hands[:n_worlds], np.ones(n_worlds, dtype=np.int64)
        with torch.inference_mode():
            logits = self.net.masked_logits(torch.from_numpy(obs[rows]),
                                            torch.from_numpy(mask[rows].astype(bool)))
            logp = torch.log_softmax(logits, 1)[torch.arange(len(rows)), torch.from_numpy(taken[rows])]
        loglik = np.zeros(m)
        np.add.at(loglik, rows // 2, logp.numpy().astype(np.float64))
        weights = np.exp(loglik - loglik.max())
        cdf = np.cumsum(weights) / weights.sum()
        u = (next_rand(rng, RESAMPLE_GRID) / RESAMPLE_GRID + np.arange(n_worlds)) / n_worlds
        picks = np.minimum(np.searchsorted(cdf, u), m - 1)
        distinct, counts = np.unique(picks, return_counts=True)
        return hands[distinct], counts.astype(np.int64)

    def _rollouts(self, v: np.ndarray, root: np.ndarray, options: np.ndarray, n_worlds: int,
                  rng: np.ndarray, card_play: bool) -> np.ndarray:
        """Sum over ``n_worlds`` new worlds of each option's rollout result (float64[len(options)]):
        cards in card play, contract actions (or the push) in the contract choice."""
        nc = len(options)
        if card_play:
            hands, counts = self._world_hands(v, root, n_worlds, rng)
            states = np.zeros((len(hands) * nc, self._size), dtype=np.int64)
            self._kernels.build_rows(v, self.rp, hands, options, states)
        else:
            counts = np.ones(n_worlds, dtype=np.int64)
            states = np.zeros((n_worlds * nc, self._size), dtype=np.int64)
            self._kernels.build_contract_rows(v, self.rp, n_worlds, options, rng, states)
        b = len(states)
        obs = np.zeros((b, OBS_DIM), dtype=np.float32)
        mask = np.zeros((b, N_ACTIONS), dtype=np.int8)
        live = int(sum(state.phase(st) != state.PHASE_OVER for st in states))
        while live:
            self._kernels.encode_rows(states, self.rp, root, card_play, obs, mask)
            live = self._kernels.step_rows(states, self._greedy(obs, mask), self.rp)
        results = np.zeros(b, dtype=np.int64)
        row_results(states, results)
        return (counts[:, None] * results.reshape(-1, nc)).sum(axis=0).astype(np.float64)

    def _world_budget(self, v: np.ndarray, n_options: int) -> int:
        """Worlds to search for a decision among ``n_options``: ``worlds``, cut (to at least 1)
        so that worlds x options x cards still to play stays within ``plays``."""
        if self.plays is None:
            return self.worlds
        cards_left = N_CARDS - sum(popcount(v[V_PLAYED + p]) for p in range(4))
        return max(1, min(self.worlds, self.plays // (n_options * cards_left)))

    def option_values(self, obs: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
        """Search one decision: the options searched (int64[k] actions, ascending, k >= 2) and
        each one's mean rollout score (float64[k], points per hand, own team minus opponents)
        over the worlds searched; None where the decision is not searched (one legal option, or
        a contract decision with ``contract="policy"``): then the policy plays it."""
        v = decode(obs)
        legal = int(v[V_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        card_play = v[V_PHASE] == 2 and v[V_CONTRACT] >= 0
        if card_play:
            options = self._candidates(obs, legal)
        elif v[V_PHASE] in (0, 1) and self.contract == "search":
            options = np.array([a for a in range(36, N_ACTIONS) if (legal >> a) & 1], dtype=np.int64)
        else:
            return None
        if len(options) <= 1:
            return None
        root = np.asarray(obs["observation"], dtype=np.float32)
        rng = decision_generator(self.rng)
        budget = self._world_budget(v, len(options))
        if self.time_limit is None:
            sums = self._rollouts(v, root, options, budget, rng, card_play)
            done = budget
        else:
            deadline = time.perf_counter() + self.time_limit
            sums = np.zeros(len(options))
            done, n = 0, min(TIMED_BATCH, budget)
            while True:
                started = time.perf_counter()
                sums += self._rollouts(v, root, options, n, rng, card_play)
                done += n
                now = time.perf_counter()
                if done >= budget or now >= deadline:
                    break
                per_world = (now - started) / n          # the next batch fills the time left
                n = int(min(budget - done, max(1, (deadline - now) / per_world)))
        self.last_worlds = done
        return options, sums / done

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


__all__ = ["SearchAgent", "sample_worlds", "build_rows", "encode_bidding_rows", "build_contract_rows",
           "encode_rows", "step_rows", "row_results", "Kernels", "kernels", "TIMED_BATCH", "CONTRACT_MODES"]
