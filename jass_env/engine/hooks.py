"""The one compiled switch over games: the engine calls a game's rules through these hooks.

Each hook takes the game's number (``GameSpec.kind``) first, then the game's own arguments. The
number is a compile-time constant wherever the engine is compiled: every compiled entry point is
made for one game (:func:`jass_env.engine.transitions.for_game`, and the environments' and bots'
entry points in the same way), so numba compiles into it exactly the rules of that game and no
other. A game registers its rules and its observation once (:func:`register`, called by the
registry in :mod:`jass_env.games`); compiling a hook for a number nobody registered is an error
that names the registered games, and so is calling one with a number that is not a compile-time
constant. With ``NUMBA_DISABLE_JIT=1`` the same hooks dispatch at run time.

The hooks, each with the same name in every game's ``rules.py`` (or ``observation.py``):

=====================  =======================================================================
hook                   when the engine calls it
=====================  =======================================================================
begin_match            a new match (or single round) starts: the game's match fields
begin_round            after the deal: the game's own start (bidding phase, trump, stock, ...)
legal_actions          the legal actions of the player to move: (bitboard of actions below 63,
                       count of a block of phase actions from 36 on, e.g. Differenzler's 158)
apply_action           a legal phase action (not a card): a contract, prediction, declaration, ...
before_card            a card is about to be played (still in the hand): trump by first discard
after_card             a card was put on the trick: Stöck
trick_values           the contract whose card values count a finished trick
after_trick            a trick is finished and its points are the winner's: the game's scoring
end_round              after the last trick: the round's score, the match's totals and end
first_leader           who led trick 1
encode_observation     a seat's observation (float32)
encode_state           the full-information state from a seat (float32)
=====================  =======================================================================

The hooks called on every decision (``legal_actions``, ``before_card``, ``trick_values``,
``encode_observation``) are inlined into their callers; the others stay calls, which keeps a
game's compile time down (``benchmarks/engine.py`` and ``benchmarks/compile.py`` measure both).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
from numba import types
from numba.core import errors
from numba.extending import overload

#: the rules hooks a game's ``rules.py`` defines, and the observation hooks of its ``observation.py``
RULES_HOOKS = ("begin_match", "begin_round", "legal_actions", "apply_action", "before_card", "after_card",
               "trick_values", "after_trick", "end_round", "first_leader")
OBSERVATION_HOOKS = ("encode_observation", "encode_state")

#: game number -> (game name, its rules module, its observation module)
_GAMES: dict[int, tuple[str, ModuleType, ModuleType]] = {}


def register(kind: int, name: str, rules: ModuleType, observation: ModuleType) -> None:
    """Make the game ``name``'s hooks the engine's for game number ``kind``. ValueError when a
    module lacks a hook, or another game has that number."""
    for module, hooks in ((rules, RULES_HOOKS), (observation, OBSERVATION_HOOKS)):
        missing = [h for h in hooks if not hasattr(module, h)]
        if missing:
            raise ValueError(f"game {name!r}: {module.__name__} lacks the hook(s) {', '.join(missing)}")
    if kind in _GAMES and _GAMES[kind][0] != name:
        raise ValueError(f"game {name!r}: number {kind} belongs to {_GAMES[kind][0]!r} already")
    _GAMES[kind] = (name, rules, observation)


def registered() -> dict[int, str]:
    """Game number -> game name of every registered game."""
    return {k: v[0] for k, v in _GAMES.items()}


def _module(game: int, observation: bool) -> ModuleType:
    if game not in _GAMES:
        known = ", ".join(f"{k} ({v[0]})" for k, v in sorted(_GAMES.items())) or "none"
        raise KeyError(f"no game has the number {game}; registered games: {known}")
    return _GAMES[game][2 if observation else 1]


def _hook(game: Any, name: str, observation: bool = False) -> Any:
    """The compiled hook ``name`` of the game whose number is the type ``game`` (a literal)."""
    if not isinstance(game, types.IntegerLiteral):
        raise errors.NumbaTypeError(f"the game's number must be a compile-time constant, got {game}; "
                                    "call the engine through an entry point made for one game "
                                    "(jass_env.engine.transitions.for_game)")
    try:
        return getattr(_module(game.literal_value, observation), name)
    except KeyError as e:
        raise errors.NumbaTypeError(str(e)) from None


# the hooks
def begin_match(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    _module(game, False).begin_match(st, rp)


def begin_round(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    _module(game, False).begin_round(st, rp)


def legal_actions(game: int, st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    return _module(game, False).legal_actions(st, rp)


def apply_action(game: int, st: np.ndarray, action: int, rp: np.ndarray) -> None:
    _module(game, False).apply_action(st, action, rp)


def before_card(game: int, st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    _module(game, False).before_card(st, player, card, rp)


def after_card(game: int, st: np.ndarray, player: int, card: int, rp: np.ndarray) -> None:
    _module(game, False).after_card(st, player, card, rp)


def trick_values(game: int, st: np.ndarray, trick: int, rp: np.ndarray) -> int:
    return _module(game, False).trick_values(st, trick, rp)


def after_trick(game: int, st: np.ndarray, trick: int, winner: int, points: int, rp: np.ndarray) -> None:
    _module(game, False).after_trick(st, trick, winner, points, rp)


def end_round(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    _module(game, False).end_round(st, rp)


def first_leader(game: int, st: np.ndarray, rp: np.ndarray) -> int:
    return _module(game, False).first_leader(st, rp)


def encode_observation(game: int, st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    _module(game, True).encode_observation(st, observer, rp, out)


def encode_state(game: int, st: np.ndarray, observer: int, rp: np.ndarray, out: np.ndarray) -> None:
    _module(game, True).encode_state(st, observer, rp, out)


# compiled forms
@overload(begin_match)
def _begin_match(game, st, rp):  # noqa: ANN001, ANN202 (numba typing)
    impl = _hook(game, "begin_match")
    return lambda game, st, rp: impl(st, rp)


@overload(begin_round)
def _begin_round(game, st, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "begin_round")
    return lambda game, st, rp: impl(st, rp)


@overload(legal_actions, inline="always")
def _legal_actions(game, st, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "legal_actions")
    return lambda game, st, rp: impl(st, rp)


@overload(apply_action)
def _apply_action(game, st, action, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "apply_action")
    return lambda game, st, action, rp: impl(st, action, rp)


@overload(before_card, inline="always")
def _before_card(game, st, player, card, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "before_card")
    return lambda game, st, player, card, rp: impl(st, player, card, rp)


@overload(after_card)
def _after_card(game, st, player, card, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "after_card")
    return lambda game, st, player, card, rp: impl(st, player, card, rp)


@overload(trick_values, inline="always")
def _trick_values(game, st, trick, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "trick_values")
    return lambda game, st, trick, rp: impl(st, trick, rp)


@overload(after_trick)
def _after_trick(game, st, trick, winner, points, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "after_trick")
    return lambda game, st, trick, winner, points, rp: impl(st, trick, winner, points, rp)


@overload(end_round)
def _end_round(game, st, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "end_round")
    return lambda game, st, rp: impl(st, rp)


@overload(first_leader)
def _first_leader(game, st, rp):  # noqa: ANN001, ANN202
    impl = _hook(game, "first_leader")
    return lambda game, st, rp: impl(st, rp)


@overload(encode_observation, inline="always")
def _encode_observation(game, st, observer, rp, out):  # noqa: ANN001, ANN202
    impl = _hook(game, "encode_observation", observation=True)
    return lambda game, st, observer, rp, out: impl(st, observer, rp, out)


@overload(encode_state)
def _encode_state(game, st, observer, rp, out):  # noqa: ANN001, ANN202
    impl = _hook(game, "encode_state", observation=True)
    return lambda game, st, observer, rp, out: impl(st, observer, rp, out)
