"""Agents by name: ``make_agent("pimc:worlds=30,rollout=random", rules)``.

Spec grammar: ``NAME`` or ``NAME:key=value,key=value``, or a checkpoint path (ending in ``.pt`` or an
existing file), optionally followed by ``:key=value,...`` policy parameters
(``runs/x.pt:greedy=false``). A path ending in ``.onnx`` is an exported policy
(``python -m agents.export``) played with onnxruntime, without torch (``runs/x.onnx:greedy=false``).

=========  ================================================  =====================================
name       parameters (defaults)                              agent
=========  ================================================  =====================================
random     seed                                              agents.random_bot.RandomAgent
heuristic  seed                                              agents.heuristic.HeuristicAgent
                                                             (Differenzler: agents.differenzler.
                                                             DifferenzlerHeuristic; Mittlere,
                                                             Molotow: agents.discard_bots; Sidi:
                                                             agents.sidi.SidiHeuristic)
pimc       worlds=10 (Differenzler 20), rollout=heuristic|   agents.pimc.PIMCAgent (Differenzler:
           random (Differenzler: heuristic; Mittlere,        agents.differenzler.DifferenzlerPIMC;
           Molotow: random; Sidi: worlds=20, random;         Mittlere, Molotow: agents.discard_pimc.
           Coiffeur: heuristic only), time_limit (seconds    DiscardPIMC; Sidi: agents.sidi.SidiPIMC;
           per decision), seed                               Coiffeur: agents.coiffeur_pimc.
                                                             CoiffeurPIMC)
policy     checkpoint (default agents/checkpoints/default.pt  agents.policy.PolicyAgent
           or random weights), greedy=true, seed
onnx       path (an exported .onnx file), greedy=true, seed   agents.onnx_policy.OnnxPolicyAgent
search     checkpoint (default agents/checkpoints/default.pt), agents.search.SearchAgent
           worlds=30, candidates (all legal cards),          (Schieber only)
           contract=policy|search, time_limit (seconds per
           decision), plays (card plays per decision),
           margin=0 (points), oversample=1, seed
=========  ================================================  =====================================

``heuristic`` and ``pimc`` resolve by the rules' game: the same spec plays Schieber and Differenzler,
each with its own bot; Schieber for six is played by the Schieber bots themselves (they read the
six-seat observation: :mod:`agents.view`). Bot classes are imported only when asked for, so torch
is loaded only for policy agents.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jass_env.rules import Rules, make_rules

from .base import Agent


class AgentSpecError(ValueError):
    """An agent spec with an unknown name, a bad parameter, or an agent that cannot be built."""


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


def _rollout(v: str) -> str:
    if v not in ("heuristic", "random"):
        raise ValueError(f"expected heuristic or random, got {v!r}")
    return v


@dataclass(frozen=True)
class AgentType:
    """One registry entry: where the class lives, its parameters (name -> parser), whether it
    takes the rules as first argument, or (``checks_rules``) as the keyword ``rules`` (a trained
    policy checks them, the random bot reads the game); ``by_game`` names another (module, class)
    for some games (the same name then plays each game with its own bot)."""

    module: str
    cls: str
    params: dict[str, Callable[[str], Any]]
    takes_rules: bool
    help: str
    checks_rules: bool = False
    by_game: dict[str, tuple[str, str]] = field(default_factory=dict)


def _DIFFERENZLER(cls: str) -> dict[str, tuple[str, str]]:  # noqa: N802 (reads as a table entry)
    """``by_game`` for a bot class of :mod:`agents.differenzler` in both Differenzler games."""
    return {"differenzler": ("agents.differenzler", cls), "differenzler3": ("agents.differenzler", cls)}


# ---- Coiffeur (issue 15)
_COIFFEUR_GAMES = ("coiffeur", "coiffeur6", "coiffeur10")


def _COIFFEUR(cls: str, module: str = "agents.coiffeur") -> dict[str, tuple[str, str]]:  # noqa: N802
    """``by_game`` for a Coiffeur bot class (of :mod:`agents.coiffeur` unless ``module`` says) in
    the three Coiffeur games (reads as a table entry)."""
    return {g: (module, cls) for g in _COIFFEUR_GAMES}

# --- Mittlere and Molotow (issue 17): their rule-based bots
_MOLOTOW_GAMES = ("molotow", "molotow3", "molotow5", "molotow6")      # 4, 3, 5 and 6 players
_DISCARD_HEURISTICS = {"mittlere": ("agents.discard_bots", "MittlereHeuristic"),
                       **{g: ("agents.discard_bots", "MolotowHeuristic") for g in _MOLOTOW_GAMES}}
_DISCARD_PIMC = {g: ("agents.discard_pimc", "DiscardPIMC") for g in ("mittlere", *_MOLOTOW_GAMES)}
# --- end Mittlere and Molotow
# --- Sidi (project rules): agents.sidi
_SIDI_HEURISTIC = {"sidi": ("agents.sidi", "SidiHeuristic")}
_SIDI_PIMC = {"sidi": ("agents.sidi", "SidiPIMC")}
# --- end Sidi

AGENTS: dict[str, AgentType] = {
    "random": AgentType("agents.random_bot", "RandomAgent", {"seed": int}, False,
                        "uniformly random legal actions (Differenzler: rule-of-thumb prediction)",
                        checks_rules=True),
    "heuristic": AgentType("agents.heuristic", "HeuristicAgent", {"seed": int}, True,
                           "Graf trump choice and rule-based card play (Differenzler: target tracking; "
                           "Coiffeur: the row with the largest expected surplus; Mittlere, Molotow: "
                           "their own heuristics)",
                           by_game={**_DIFFERENZLER("DifferenzlerHeuristic"),
                                    **_COIFFEUR("CoiffeurHeuristic"), **_DISCARD_HEURISTICS,
                                    **_SIDI_HEURISTIC}),
    "pimc": AgentType("agents.pimc", "PIMCAgent",
                      {"worlds": _pos_int, "rollout": _rollout, "time_limit": _opt_float, "seed": int},
                      True, "Perfect Information Monte Carlo search",
                      by_game={**_DIFFERENZLER("DifferenzlerPIMC"), **_DISCARD_PIMC, **_SIDI_PIMC,
                               **_COIFFEUR("CoiffeurPIMC", "agents.coiffeur_pimc")}),
    "policy": AgentType("agents.policy", "PolicyAgent",
                        {"checkpoint": str, "greedy": _bool, "seed": int}, False,
                        "a trained policy checkpoint (default: agents/checkpoints/default.pt)",
                        checks_rules=True),
    "onnx": AgentType("agents.onnx_policy", "OnnxPolicyAgent",
                      {"path": str, "greedy": _bool, "seed": int}, False,
                      "an exported ONNX policy (python -m agents.export), run with onnxruntime",
                      checks_rules=True),
    # --- policy-guided search (issue 14): Schieber only
    "search": AgentType("agents.search", "SearchAgent",
                        {"checkpoint": str, "worlds": _pos_int, "candidates": _pos_int,
                         "time_limit": _opt_float, "contract": str, "plays": _pos_int,
                         "margin": _points, "oversample": _pos_int, "seed": int}, True,
                        "PIMC whose rollouts are played by a trained policy (Schieber; default "
                        "agents/checkpoints/default.pt)"),
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
    if _is_path(spec):
        name, params = _path_agent(spec)
    else:
        head, sep, tail = spec.rpartition(":")
        if sep and _is_path(head):
            (name, params), params_text = _path_agent(head), tail
        else:
            name, _, params_text = spec.partition(":")
            params = {}
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

    ``seed`` is used when the spec does not set one. A trained policy is checked against ``rules``
    (:mod:`agents.trained_for`: another game is refused, other rules warn). Raises AgentSpecError
    for unknown names, bad parameters or an agent module that is not available, and
    :class:`agents.network.CheckpointError` for unreadable checkpoints (unreadable ``.onnx`` files
    raise :class:`agents.onnx_policy.OnnxModelError`, an AgentSpecError).
    """
    name, params = parse_spec(spec)
    kind = AGENTS[name]
    if seed is not None:
        params.setdefault("seed", seed)
    rules = make_rules(rules)
    module_name, cls_name = kind.by_game.get(rules.game, (kind.module, kind.cls))
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
    return agent


def agent_description(agent: Any) -> dict[str, Any]:
    """JSON-ready description of an agent for reports: spec, name, class, checkpoint and hash."""
    out = {"spec": getattr(agent, "spec", None), "name": getattr(agent, "name", type(agent).__name__),
           "class": f"{type(agent).__module__}.{type(agent).__qualname__}"}
    for key in ("checkpoint", "checkpoint_sha256", "greedy", "worlds", "rollout", "candidates", "time_limit"):
        v = getattr(agent, key, None)
        if isinstance(v, (str, int, float, bool)):
            out[key] = v
    return out


__all__ = ["make_agent", "parse_spec", "describe_specs", "agent_description", "AgentSpecError", "AGENTS"]
