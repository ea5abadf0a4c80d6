"""The argument checks the environments share (the AEC env, the Gymnasium env, the batched env):
seeds, reset options and actions of ``Discrete(n_actions)``, each with a message that says what
was wrong and what is allowed."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np


def check_seed(seed: Any, what: str = "seed", none_ok: bool = True) -> None:
    """ValueError unless ``seed`` is a non-negative integer (Python or numpy; no bool), or None
    where ``none_ok``; ``what`` names it in the message."""
    if seed is None and none_ok:
        return
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        allowed = "a non-negative integer or None" if none_ok else "a non-negative integer"
        raise ValueError(f"{what} must be {allowed}, got {seed!r}")


def check_options(options: Any) -> None:
    """``options`` of ``reset``: None or a dict (TypeError otherwise). The environments take no
    reset options (the rules, episode and reward are keywords of their constructors), so a
    non-empty dict is ignored with a warning; PettingZoo's and Gymnasium's API checks pass one."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise TypeError(f"reset() options must be None or a dict, got {type(options).__name__} "
                        f"{options!r}; the environments take no reset options")
    if options:
        warnings.warn(f"reset() ignores options {options!r}: the environments take none (the rules, "
                      f"episode and reward are keywords of the constructor)", stacklevel=3)


def action_index(action: Any, n_actions: int) -> int | None:
    """``action`` as an int when it is an action of ``Discrete(n_actions)`` (a Python or numpy
    integer, or a 0-d integer array, in 0..n_actions-1); None for anything else (a bool, a float,
    None, a string, an out-of-range integer)."""
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        a = operator.index(action)
    except TypeError:
        return None
    return a if 0 <= a < n_actions else None


def action_problem(action: Any, n_actions: int) -> str:
    """Why ``action`` is no action of ``Discrete(n_actions)`` (see :func:`action_index`)."""
    allowed = f"actions are integers 0..{n_actions - 1}"
    if action is None:
        return f"None is not an action ({allowed}; None only for an agent that is done)"
    if isinstance(action, (bool, np.bool_)):
        return f"{action!r} is a bool, not an action; {allowed}"
    try:
        a = operator.index(action)
    except TypeError:
        return f"{action!r} is not an action; {allowed}"
    return f"action {a} is out of range; {allowed}"


__all__ = ["check_seed", "check_options", "action_index", "action_problem"]
