"""What a game tells the policy-guided search (:mod:`agents.search.search`): its worlds.

A **world** is an engine state of the round in progress with the cards the searching seat has not
seen dealt so that they fit everything that seat knows (its hand, the cards played, the voids it
saw, the cards shown, the draws made public), at the decision being searched:

* the players of a world are the seats *relative to the searcher*: the searcher is player 0,
  the next seat in play order player 1, and so on; player 0 is to move;
* the world holds the round as far as it went, so that applying any legal action of the
  searcher's observation and then playing the round to its end through the engine scores that
  world's round;
* what the searcher cannot know is sampled (other hands, hidden predictions); what it knows is
  the real value.

A game offers the search by naming a :class:`WorldModel` subclass in its ``BOTS`` fact under the
key :data:`WORLDS_KEY` (``"module:Class"``, or ``("module:Class", spec names)`` for some of its
specs only); :mod:`agents.registry` then offers ``search:`` for it. The subclass implements
:meth:`WorldModel.worlds`; the rollout observations (:meth:`WorldModel.encode`) and the
searcher's result (:meth:`WorldModel.results`) have defaults that fit a game whose worlds are
complete (every feature of an observation can be computed from the world state) and whose
objective is the game's own score of the searcher's side (:attr:`jass_env.games.base.Game.sign`
times :func:`jass_env.engine.state.score_of` of side 0, the searcher's side).
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Callable, Mapping
from functools import cache

import numpy as np
from numba import njit

from jass_env.engine import hooks
from jass_env.engine.state import PHASE_OVER, hand_of, phase, score_of, state_size, to_move
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import legal_set, write_legal_mask
from jass_env.games import REGISTRY, game_of, make_rules, presets_of

from ..registry import WORLDS_KEY, bot_path

#: log-probabilities of actions under the search's policy: (obs float32[B, obs_dim], mask
#: int8[B, n_actions], actions int64[B]) -> float64[B]; given to a world model that weights its
#: worlds by how likely they make what the other seats did (Schieber's bidding inference)
ActionLikelihood = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@njit(cache=True)
def encode_to_move(game: int, states: np.ndarray, rp: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
    """Observation (float32[B, obs_dim]) and action mask (int8[B, n_actions]) of the player to
    move in each world of ``states`` (int64[B, state size]) of the game numbered ``game``; a
    finished world gets an all-zero mask."""
    for i in range(states.shape[0]):
        st = states[i]
        if phase(st) == PHASE_OVER:
            mask[i, :] = 0
            continue
        hooks.encode_observation(game, st, to_move(st), rp, obs[i])
        bits, block = legal_set(game, st, rp)
        write_legal_mask(bits, block, mask[i])


@njit(cache=True)
def side_zero_scores(states: np.ndarray, sign: int, out: np.ndarray) -> None:
    """``out[i]`` = ``sign`` x the round score of side 0 (the searcher's) in the finished world
    ``states[i]``."""
    for i in range(states.shape[0]):
        out[i] = sign * score_of(states[i], 0)


@njit(cache=True)
def side_difference_scores(states: np.ndarray, sign: int, out: np.ndarray) -> None:
    """``out[i]`` = ``sign`` x (side 0's round score − side 1's) in the finished world ``states[i]``:
    the result of a game of two sides whose scores do not add up to a constant (Weis, Stöck, a
    bonus), where the searcher's own score alone would not count what the other side gains."""
    for i in range(states.shape[0]):
        out[i] = sign * (score_of(states[i], 0) - score_of(states[i], 1))


@cache
def compiled_encode(game: int) -> Callable[..., None]:
    """:func:`encode_to_move` for the game numbered ``game`` (its rules compiled in):
    (states, rp, obs, mask)."""

    @njit(cache=True)
    def encode(states, rp, obs, mask):  # noqa: ANN001, ANN202
        encode_to_move(game, states, rp, obs, mask)

    return encode


class WorldModel(abc.ABC):
    """A game's worlds for the policy-guided search (module docstring).

    Args:
        rules: the rules played.
        likelihood: the search policy's action log-probabilities (:data:`ActionLikelihood`), for
            a model that weights its worlds by the other seats' decisions; None = no weighting.
        oversample: worlds sampled per world returned when weighting (1 = none).
    """

    #: whether the model weights its worlds by :data:`ActionLikelihood` (``oversample`` > 1 means
    #: something to it)
    weights_worlds = False

    def __init__(self, rules: Rules, likelihood: ActionLikelihood | None = None, oversample: int = 1) -> None:
        self.rules = rules
        self.rp = rules.params
        self.game = game_of(rules)
        self.size = state_size(rules.spec)
        self.likelihood = likelihood
        self.oversample = oversample
        self._encode = compiled_encode(self.game.kind)

    @abc.abstractmethod
    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Worlds at the decision of ``obs`` (the searcher's observation and action mask), drawn
        from the compiled generator ``rng`` (int64[1], :func:`agents.search.worlds.next_rand`).

        Returns (states int64[m, state size], counts int64[m]): m distinct worlds and how many of
        the ``n_worlds`` draws each stands for (counts sum to ``n_worlds``; all ones unless the
        model resamples by weight); None where the game's worlds are not built at this kind of
        decision (the search then leaves it to the policy)."""

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """Observation (float32[B, obs_dim]) and action mask (int8[B, n_actions]) of the player
        to move in each world (finished worlds: all-zero mask), for the rollout policy. ``root``
        is the searcher's real observation (float32[obs_dim]), for a model whose worlds leave out
        public features it must copy in; the default encodes the world as it is."""
        self._encode(states, self.rp, obs, mask)

    def results(self, states: np.ndarray) -> np.ndarray:
        """The searcher's result in each finished world (float64[B], higher is better, in the
        game's score units): by default the game's sign x side 0's round score."""
        out = np.zeros(len(states), dtype=np.float64)
        side_zero_scores(states, self.game.sign, out)
        return out

    def side_differences(self, states: np.ndarray) -> np.ndarray:
        """The game's sign x (side 0's round score − side 1's) in each finished world (float64[B]):
        :meth:`results` for a two-sided game that scores the difference."""
        out = np.zeros(len(states), dtype=np.float64)
        side_difference_scores(states, self.game.sign, out)
        return out

    @classmethod
    def has_heuristic_play_out(cls, rules: Rules) -> bool:
        """Whether :meth:`play_out` plays the worlds of ``rules`` out with the game's own heuristic
        play-out (its PIMC's ``rollout=heuristic``), for the search's ``rollout="heuristic"``; by
        default no game has one."""
        return False

    def play_out(self, states: np.ndarray) -> None:
        """Play every world of ``states`` (int64[B, state size]) to the round's end, every seat
        with the game's heuristic play-out (:meth:`has_heuristic_play_out`); ValueError where the
        game has none."""
        raise ValueError(f"{self.rules.game}'s search worlds have no heuristic play-out; "
                         f"rollout=policy or rollout=random plays them out")

    def cards_left(self, states: np.ndarray) -> int:
        """Cards still to play in the first world of ``states`` (every world of a decision holds as
        many): what a world's rollout costs, for the search's ``plays`` budget."""
        st = states[0]
        return sum(bin(int(hand_of(st, p))).count("1") for p in range(self.rules.spec.players))


def world_model_class(rules: Rules) -> type[WorldModel]:
    """The :class:`WorldModel` the game of ``rules`` names in its ``BOTS`` fact (:data:`WORLDS_KEY`);
    ValueError when it names none for these rules' spec."""
    path = bot_path(WORLDS_KEY, rules)
    if path is None:
        offered = [spec for game in REGISTRY.values() for spec in game.specs
                   if bot_path(WORLDS_KEY, make_rules(presets_of(spec)[0])) is not None]
        raise ValueError(f"the policy-guided search does not play {rules.game}: its game builds no search "
                         f"worlds for it (it plays {', '.join(offered) or 'no game'})")
    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)


__all__ = ["WorldModel", "world_model_class", "ActionLikelihood", "encode_to_move", "side_zero_scores",
           "side_difference_scores",
           "compiled_encode"]
