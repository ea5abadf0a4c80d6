"""Who plays which seat, and their decisions: every game draws a line-up when its episode starts.

The learner plays the seats of one side (a team in Schieber, where the learner's partner is the
learner too; one player in Differenzler) and the other seats are played by one opponent kind of
:data:`~agents.training.config.OPPONENT_KINDS`, drawn by the config's weights: the current
policy itself (then every seat is training data), a frozen earlier snapshot, the random bot, the
heuristic bot, or the agent spec ``opponent_agent`` (kind ``agent``, deciding row by row from
each row's observation). Arrays are over the ``N`` = ``num_envs`` games.
"""

from __future__ import annotations

import numpy as np

from jass_env.engine.switches import Rules

from ..extras import missing_extra

try:
    import torch
except ModuleNotFoundError as exc:  # torch comes with the "train" extra
    raise missing_extra(exc, "agents.training (the trainer)") from None

from ..batched import SpecBot, bot_actions
from ..evaluation.protocol import statistic_for
from ..network import CheckpointError
from ..registry import AgentSpecError
from .agent_specs import spec_error
from .config import OPPONENT_KINDS, TrainConfig
from .networks import Learner, policy_and_value
from .ppo import sample_actions

SELF, SNAPSHOT, RANDOM, HEURISTIC, AGENT = (OPPONENT_KINDS.index(k)
                                            for k in ("self", "snapshot", "random", "heuristic", "agent"))
#: the opponent kinds played by a batch bot of :mod:`agents.batched`, with its name there
BATCH_BOT_KINDS = ((RANDOM, "random"), (HEURISTIC, "heuristic"))


class Lineups:
    """Who plays each of the ``num_envs`` games this episode, drawn when an episode starts.

    The learner plays the seats of side ``learner_side[i]`` (a team in Schieber, one player in
    Differenzler); the other seats are played by ``opp_kind[i]`` (an index into OPPONENT_KINDS:
    the learner itself, the frozen snapshot ``opp_slot[i]``, the random or the heuristic bot,
    the agent). All arrays are (num_envs,) int64.
    """

    def __init__(self, num_envs: int, rules: Rules) -> None:
        self.sides = rules.spec.sides
        #: (players,) the side of each seat
        self.side_of_seat = np.array([rules.spec.side_of(p) for p in range(rules.spec.players)])
        self.learner_side = np.zeros(num_envs, dtype=np.int64)
        self.opp_kind = np.zeros(num_envs, dtype=np.int64)
        self.opp_slot = np.zeros(num_envs, dtype=np.int64)

    def draw(self, games: np.ndarray, weights: np.ndarray, snap_filled: int,
             rng: np.random.Generator) -> None:
        """New line-ups for ``games`` (indices): opponent kinds by ``weights``, a snapshot slot among
        the ``snap_filled`` filled ones (none filled: the learner instead), a learner side."""
        k = rng.choice(len(OPPONENT_KINDS), size=games.size, p=weights)
        slot = rng.integers(0, max(snap_filled, 1), size=games.size)
        side = rng.integers(0, self.sides, size=games.size)
        if snap_filled == 0:
            k[k == SNAPSHOT] = SELF
        self.opp_kind[games], self.opp_slot[games], self.learner_side[games] = k, slot, side

    def deciders(self, seat: np.ndarray) -> np.ndarray:
        """(num_envs,) who decides at this step of each game: SELF in the learner's seats, else the
        game's opponent kind (``seat``: the seat to act per game)."""
        return np.where(self.side_of_seat[seat] == self.learner_side, SELF, self.opp_kind)

    def record_margins(self, games: np.ndarray, final_score: np.ndarray, rules: Rules,
                       into: dict[int, list[float]]) -> None:
        """Append to ``into[kind]`` how much better the learner's side did in the finished
        episodes of ``games`` (k,) (:func:`episode_margins` of their final scores (k, sides)),
        ``kind`` being each game's opponent kind."""
        margins = episode_margins(final_score, self.learner_side[games], rules)
        for k, d in zip(self.opp_kind[games], margins, strict=True):
            into.setdefault(int(k), []).append(float(d))

    def state(self) -> dict[str, torch.Tensor]:
        return {"learner_side": torch.from_numpy(self.learner_side.copy()),
                "opp_kind": torch.from_numpy(self.opp_kind.copy()),
                "opp_slot": torch.from_numpy(self.opp_slot.copy())}

    def set_state(self, env_state: dict[str, torch.Tensor]) -> None:
        self.learner_side[:] = env_state["learner_side"].numpy()
        self.opp_kind[:] = env_state["opp_kind"].numpy()
        self.opp_slot[:] = env_state["opp_slot"].numpy()


def episode_margins(final_score: np.ndarray, side: np.ndarray, rules: Rules) -> np.ndarray:
    """How much better the learner's side did in finished episodes, (k,) int64 or float64 from
    their scores (k, sides) and the learner's sides (k,): a team game its team's score minus the
    other's; a game played alone the difference of its own score and the others' mean, signed so
    that positive is better (Mittlere's higher result; Differenzler's and Molotow's lower score)."""
    idx = np.arange(side.size)
    own = final_score[idx, side]
    if rules.spec.team_mode != "none":
        return own - final_score[idx, 1 - side]
    margin = own - (final_score.sum(axis=1) - own) / (rules.spec.sides - 1)
    return margin if statistic_for(rules).higher_is_better else -margin


def opponent_agent(cfg: TrainConfig, rules: Rules, rng: np.random.Generator) -> SpecBot | None:
    """The agent playing the opponents of kind "agent", drawing from ``rng``; None when neither
    opponent mix gives that kind a weight."""
    mixes = (cfg.opponents, cfg.opponents_final or {})
    if not any(m.get("agent", 0.0) > 0 for m in mixes):
        return None
    try:
        bot = SpecBot(cfg.opponent_agent, rules, seed=0)
    except (AgentSpecError, CheckpointError) as e:     # a bot or checkpoint of another game, a bad parameter
        raise spec_error("opponent_agent", cfg.opponent_agent, rules, e) from None
    bot.agent.rng = rng
    return bot


def policy_actions(kind: np.ndarray, x: np.ndarray, obs: np.ndarray, mask: np.ndarray, slot: np.ndarray,
                   learner: Learner, device: torch.device, gen: torch.Generator,
                   values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The networks' decisions at one step of the N games: the learning policy decides the games
    whose decider ``kind`` (N,) is SELF, from their stored rows ``x`` (N, D) (their values go into
    ``values`` (N,)); the frozen snapshot ``slot`` (N,) of each game of kind SNAPSHOT decides from
    its observation ``obs`` (N, obs_dim). Actions are drawn from the masked softmax (``mask``
    (N, A)) with Gumbel noise from ``gen`` for every game; in the bots' games (logits 0) the draw
    is uniform over the legal actions and :func:`bots_act` replaces it. Returns the actions (N,)
    and their log-probabilities (N,). Call under ``torch.inference_mode()``."""
    logits = torch.zeros(mask.shape)                                            # (N, A)
    rows = np.flatnonzero(kind == SELF)
    if rows.size:
        lg, v = policy_and_value(learner.policy, learner.critic, torch.from_numpy(x[rows]).to(device))
        logits[torch.from_numpy(rows)] = lg.float().cpu()
        values[rows] = v.float().cpu().numpy()
    snap_rows = np.flatnonzero(kind == SNAPSHOT)
    for s in np.unique(slot[snap_rows]):
        mine = snap_rows[slot[snap_rows] == s]
        lg, _ = learner.snapshots[s](torch.from_numpy(obs[mine]).to(device))
        logits[torch.from_numpy(mine)] = lg.float().cpu()
    return sample_actions(logits, mask, gen)


def bots_act(kind: np.ndarray, rules: Rules, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
             agent: SpecBot | None, actions: np.ndarray) -> None:
    """Write into ``actions`` (N,) the bots' actions in the games whose decider ``kind`` (N,) is a
    batch bot (the random bot drawing from ``rng``) or the agent, from ``obs`` (N, obs_dim) and
    ``mask`` (N, A)."""
    for bot_kind, bot in BATCH_BOT_KINDS:
        rows = np.flatnonzero(kind == bot_kind)
        if rows.size:
            actions[rows] = bot_actions(bot, rules, obs[rows], mask[rows], rng)
    rows = np.flatnonzero(kind == AGENT)
    if rows.size:
        actions[rows] = agent.actions(obs[rows], mask[rows])
