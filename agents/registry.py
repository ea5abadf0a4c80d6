"""Agents by name: ``make_agent("pimc:worlds=30,rollout=random", rules)``.

Spec grammar: ``NAME`` or ``NAME:key=value,key=value``, or a checkpoint path (ending in ``.pt`` or an
existing file), optionally followed by ``:key=value,...`` policy parameters
(``runs/x.pt:greedy=false``). A path ending in ``.onnx`` is an exported policy
(``python -m agents.export``) played with onnxruntime, without torch (``runs/x.onnx:greedy=false``).
A spec that starts with an agent name is that agent, even when a parameter names a file
(``search:worlds=30,checkpoint=runs/x.pt``); a file whose name is an agent's is given as ``./NAME``.
Each parameter is given once; seeds are non-negative integers.

=========  ================================================  =====================================
name       parameters (defaults)                              agent
=========  ================================================  =====================================
random     seed                                              agents.random_bot.RandomAgent
heuristic  seed                                              the game's heuristic (its BOTS fact)
pimc       worlds, rollout=heuristic|random, time_limit      the game's PIMC (its BOTS fact);
           (seconds per decision), seed                      defaults per game
policy     checkpoint (default: the game's shipped policy,   agents.policy.PolicyAgent
           else random weights, with a warning),
           greedy=true, seed
onnx       path (an exported .onnx file), greedy=true, seed   agents.onnx_policy.OnnxPolicyAgent
search     checkpoint, worlds=30, candidates, contract,      agents.search.search.SearchAgent, where
           time_limit, plays, margin, oversample,            the game builds search worlds (the
           rollout=policy|random|heuristic,                  "worlds" key of its BOTS fact)
           contract_worlds, precision=float32|bfloat16,
           rollout_checkpoint, prune, seed
ismcts     simulations=200, uct_c=2 (in points-scale units),  OpenSpiel's Python IS-MCTS through the
           rollouts=1, worlds (default: a new one each        OpenSpiel game, every game
           simulation), final=max_visit_count|max_value|      (agents.openspiel.bots.ISMCTSAgent;
           normalized_visit_count, seed                      the openspiel extra)
=========  ================================================  =====================================

``heuristic`` and ``pimc`` resolve by the rules' game, and ``search`` plays where the game builds
worlds: each game names its bots and its worlds in its ``BOTS`` fact (:mod:`jass_env.games.base`),
so the same spec plays every game with that game's own bot, and a game without such a bot refuses
the spec with the agents it has. Bot classes are
imported only when asked for, so torch is loaded only for policy agents.
"""

from __future__ import annotations

import importlib
import math
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jass_env.engine.switches import Rules
from jass_env.envs.checks import check_seed
from jass_env.games import REGISTRY, game_of, make_rules, presets_of

from .base import Agent


class AgentSpecError(ValueError):
    """An agent spec with an unknown name, a bad parameter, or an agent that cannot be built."""


class UntrainedPolicyWarning(UserWarning):
    """``policy`` without a checkpoint for a game that ships no trained policy: the agent plays a
    network with random weights."""


def _bool(v: str) -> bool:
    t = v.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true/false, got {v!r}")


def _opt_float(v: str) -> float | None:
    if v.strip().lower() in ("none", ""):
        return None
    x = float(v)
    if x <= 0:
        raise ValueError(f"expected a positive number of seconds or none, got {v!r}")
    return x


def _points(v: str) -> float:
    x = float(v)
    if not x >= 0:
        raise ValueError(f"expected a number of points >= 0, got {v!r}")
    return x


def _pos_int(v: str) -> int:
    x = int(v)
    if x <= 0:
        raise ValueError(f"expected a positive integer, got {v!r}")
    return x


def _seed(v: str) -> int:
    x = int(v)
    if x < 0:
        raise ValueError(f"expected a non-negative integer seed, got {v!r}")
    return x


def _pos_float(v: str) -> float:
    x = float(v)
    if not (x > 0 and math.isfinite(x)):
        raise ValueError(f"expected a positive finite number, got {v!r}")
    return x


def _final(v: str) -> str:
    if v not in ISMCTS_FINALS:
        raise ValueError(f"expected one of {', '.join(ISMCTS_FINALS)}, got {v!r}")
    return v


def _rollout(v: str) -> str:
    if v not in ("heuristic", "random"):
        raise ValueError(f"expected heuristic or random, got {v!r}")
    return v


@dataclass(frozen=True)
class AgentType:
    """One registry entry: its parameters (name -> parser) and its help line; where the class lives
    (``module``, ``cls``), or None for the bots each game names in its ``BOTS`` fact; whether it
    takes the rules as first argument (``takes_rules``), or as the keyword ``rules``
    (``checks_rules``: a trained policy checks them, the random bot reads the game)."""

    params: dict[str, Callable[[str], Any]]
    help: str
    module: str | None = None
    cls: str | None = None
    takes_rules: bool = True
    checks_rules: bool = False
    #: the key of a game's ``BOTS`` fact without which this agent does not play that game
    needs: str | None = None


_SEED = {"seed": _seed}
#: the key of a game's ``BOTS`` fact naming its search worlds (:mod:`agents.search.world_model`)
WORLDS_KEY = "worlds"
#: IS-MCTS's choices at the root (agents.openspiel.bots.FINAL_POLICIES; named here, where OpenSpiel
#: is not imported)
ISMCTS_FINALS = ("max_visit_count", "max_value", "normalized_visit_count")
AGENTS: dict[str, AgentType] = {
    "random": AgentType(_SEED, "uniformly random legal actions (phase actions as the game's bots say)",
                        "agents.random_bot", "RandomAgent", takes_rules=False, checks_rules=True),
    "heuristic": AgentType(_SEED, "the game's rule-based bot"),
    "pimc": AgentType({"worlds": _pos_int, "rollout": _rollout, "time_limit": _opt_float, "seed": _seed},
                      "Perfect Information Monte Carlo search with the game's objective"),
    "policy": AgentType({"checkpoint": str, "greedy": _bool, "seed": _seed},
                        "a trained policy checkpoint (default: the game's shipped policy)",
                        "agents.policy", "PolicyAgent", takes_rules=False, checks_rules=True),
    "onnx": AgentType({"path": str, "greedy": _bool, "seed": _seed},
                      "an exported ONNX policy (python -m agents.export), run with onnxruntime",
                      "agents.onnx_policy", "OnnxPolicyAgent", takes_rules=False, checks_rules=True),
    "search": AgentType({"checkpoint": str, "worlds": _pos_int, "candidates": _pos_int,
                         "time_limit": _opt_float,
                         "contract": str, "plays": _pos_int, "margin": _points, "oversample": _pos_int,
                         "rollout": str, "contract_worlds": _pos_int, "precision": str,
                         "rollout_checkpoint": str, "prune": _pos_float, "seed": _seed},
                        "PIMC whose rollouts are played by a trained policy (where the game builds "
                        "search worlds)", "agents.search.search", "SearchAgent", needs=WORLDS_KEY),
    "ismcts": AgentType({"simulations": _pos_int, "uct_c": _pos_float, "rollouts": _pos_int,
                         "worlds": _pos_int, "final": _final, "seed": _seed},
                        "OpenSpiel's Python IS-MCTS with random rollouts, every game (the openspiel extra)",
                        "agents.openspiel.bots", "ISMCTSAgent"),
}


def describe_specs() -> str:
    """One line per agent name with its parameters (for error messages and --help)."""
    lines = [f"  {n}: {t.help}; parameters: {', '.join(t.params) or 'none'}" for n, t in AGENTS.items()]
    lines.append("  PATH.pt[:greedy=false,seed=1]: a policy checkpoint file")
    lines.append("  PATH.onnx[:greedy=false,seed=1]: an exported ONNX policy (onnxruntime, no torch)")
    return "\n".join(lines)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into (name, parsed parameters); checkpoint paths become ("policy", {checkpoint})."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec must be a non-empty string, got {spec!r}; valid:\n"
                             + describe_specs())
    spec = spec.strip()
    name, params_text = spec, ""
    first, _, rest = spec.partition(":")
    if first.strip().lower() in AGENTS:          # an agent name, whose parameters may name a file
        name, params_text, params = first, rest, {}
    elif _is_path(spec):
        name, params = _path_agent(spec)
    else:
        head, sep, tail = spec.rpartition(":")
        if sep and _is_path(head):
            (name, params), params_text = _path_agent(head), tail
        else:
            name, params_text, params = first, rest, {}
    name = name.strip().lower()
    if name not in AGENTS:
        raise AgentSpecError(f"unknown agent {name!r} in spec {spec!r}; valid agents:\n" + describe_specs())
    kind = AGENTS[name]
    for item in filter(None, (p.strip() for p in params_text.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise AgentSpecError(f"agent spec {spec!r}: parameter {item!r} needs the form key=value; "
                                 f"{name} takes: {', '.join(kind.params)}")
        if key not in kind.params:
            raise AgentSpecError(f"agent spec {spec!r}: unknown parameter {key!r} for {name}; "
                                 f"{name} takes: {', '.join(kind.params)}")
        if key in params:
            raise AgentSpecError(f"agent spec {spec!r}: parameter {key!r} is given twice; give each once")
        try:
            params[key] = kind.params[key](value.strip())
        except ValueError as e:
            raise AgentSpecError(f"agent spec {spec!r}: bad value for {key}: {e}") from None
    return name, params


def _is_path(text: str) -> bool:
    return text.endswith((".pt", ".onnx")) or os.path.isfile(text)


def _path_agent(path: str) -> tuple[str, dict[str, Any]]:
    """A file path as (agent name, parameters): ``.onnx`` files are ONNX policies, others checkpoints."""
    if path.lower().endswith(".onnx"):
        return "onnx", {"path": path}
    return "policy", {"checkpoint": path}


def make_agent(spec: str, rules: str | Rules | None = None, seed: int | None = None) -> Agent:
    """Build an agent from a spec (see the module doc) for the given rules.

    ``seed`` (None or a non-negative integer) is used when the spec does not set one. A trained
    policy is checked against ``rules`` (:mod:`agents.trained_for`: another game is refused, other
    rules warn); ``policy`` for a game spec without a shipped policy warns
    (:class:`UntrainedPolicyWarning`) and the agent's ``spec_warning`` says so. Raises
    AgentSpecError for unknown names, bad parameters or seeds, or an agent module that is not
    available, and :class:`agents.network.CheckpointError` for unreadable checkpoints (unreadable
    ``.onnx`` files raise :class:`agents.onnx_policy.OnnxModelError`, an AgentSpecError).
    """
    name, params = parse_spec(spec)
    kind = AGENTS[name]
    try:
        check_seed(seed)
    except ValueError as e:
        raise AgentSpecError(f"agent spec {spec!r}: {e}") from None
    if seed is not None:
        params.setdefault("seed", seed)
    rules = make_rules(rules)
    module_name, cls_name = _class_of(name, kind, rules)
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise AgentSpecError(f"agent {name!r} is not available: cannot import {module_name} ({e})") from None
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise AgentSpecError(f"agent {name!r} is not available: {module_name} has no {cls_name}")
    if kind.takes_rules:
        try:
            agent = cls(rules, **params)
        except ValueError as e:          # a parameter this game's bot does not take (or rules it cannot play)
            raise AgentSpecError(f"agent spec {spec!r} for {rules.game}: {e}") from None
    elif kind.checks_rules:
        agent = cls(rules=rules, **params)
    else:
        agent = cls(**params)
    agent.spec = spec
    agent.spec_warning = untrained_policy_note(name, params, rules)
    if agent.spec_warning:
        warnings.warn(agent.spec_warning, UntrainedPolicyWarning, stacklevel=2)
    return agent


def untrained_policy_note(name: str, params: dict[str, Any], rules: Rules) -> str | None:
    """What to tell the user when agent ``name`` with ``params`` (:func:`parse_spec`) is ``policy``
    without a checkpoint for a game spec that ships none (its game's ``CHECKPOINTS`` fact), or whose
    shipped file is missing: it plays a network with random weights. None otherwise."""
    if name != "policy" or "checkpoint" in params:
        return None
    from .policy import CHECKPOINT_DIR, default_checkpoint  # torch: only where a policy is made

    if default_checkpoint(rules) is not None:
        return None
    file = game_of(rules).checkpoints.get(rules.game)
    if file is not None:
        why = f"its trained policy {CHECKPOINT_DIR / file} is missing"
    else:
        shipped = ", ".join(spec for game in REGISTRY.values() for spec in game.checkpoints)
        why = f"no trained policy is shipped for it (shipped: {shipped})"
    return (f"'policy' plays a network with RANDOM WEIGHTS under {rules.game}: {why}; give a trained "
            f"one as policy:checkpoint=PATH")


def bot_path(name: str, rules: Rules) -> str | None:
    """The game's ``"module:Class"`` of bot ``name`` for the spec of ``rules``, None if it has none
    there (a BOTS entry is that string, or ``("module:Class", specs)`` for some specs only)."""
    entry = game_of(rules).bots.get(name)
    if isinstance(entry, tuple):
        path, specs = entry
        return path if rules.game in specs else None
    return entry


def agents_of(rules: str | Rules | None) -> tuple[str, ...]:
    """The agent names that play the game (the spec) of ``rules``."""
    rules = make_rules(rules)
    return tuple(n for n, t in AGENTS.items() if _plays(n, t, rules))


def _plays(name: str, kind: AgentType, rules: Rules) -> bool:
    """Whether agent ``name`` plays the spec of ``rules``: its game names the bot, or, for an agent
    of its own module, the game declares what the agent needs of it (``needs``)."""
    if kind.module is None:
        return bot_path(name, rules) is not None
    return kind.needs is None or bot_path(kind.needs, rules) is not None


def _class_of(name: str, kind: AgentType, rules: Rules) -> tuple[str, str]:
    """(module, class) of agent ``name`` for the game of ``rules``; AgentSpecError when the game has
    no such bot."""
    if not _plays(name, kind, rules):
        elsewhere = [spec for game in REGISTRY.values() for spec in game.specs
                     if _plays(name, kind, make_rules(presets_of(spec)[0]))]
        where = f" ({name} plays {', '.join(elsewhere)} only)" if elsewhere else ""
        raise AgentSpecError(f"agent {name!r} does not play {rules.game}{where}; agents for {rules.game}: "
                             f"{', '.join(agents_of(rules))}")
    if kind.module is not None:
        return kind.module, kind.cls
    module, _, cls = bot_path(name, rules).partition(":")
    return module, cls


def agent_description(agent: Any) -> dict[str, Any]:
    """JSON-ready description of an agent for reports: spec, name, class, checkpoint and hash, and
    the warning of its spec (:func:`untrained_policy_note`) if it has one."""
    out = {"spec": getattr(agent, "spec", None), "name": getattr(agent, "name", type(agent).__name__),
           "class": f"{type(agent).__module__}.{type(agent).__qualname__}"}
    for key in ("checkpoint", "checkpoint_sha256", "greedy", "worlds", "rollout", "candidates", "time_limit",
                "simulations", "uct_c", "rollouts", "rollout_checkpoint", "rollout_checkpoint_sha256"):
        v = getattr(agent, key, None)
        if isinstance(v, (str, int, float, bool)):
            out[key] = v
    if getattr(agent, "spec_warning", None):
        out["warning"] = agent.spec_warning
    return out


__all__ = ["make_agent", "parse_spec", "describe_specs", "agents_of", "agent_description", "AgentSpecError",
           "UntrainedPolicyWarning", "untrained_policy_note", "AGENTS", "WORLDS_KEY", "bot_path"]
