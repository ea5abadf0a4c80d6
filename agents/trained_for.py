"""The game and rules a policy was trained for, and the checks when it is played.

A policy checkpoint (``agents.network``) and an exported ONNX file (``agents.export``, as JSON in
the metadata entry ``trained_for``) carry::

    {"game": "schieber",        # the game spec (jass_env.engine.spec.SPECS: schieber, molotow5, ...)
     "obs_version": 1, "obs_dim": 529, "n_actions": 43,   # observation and action layout
     "rules": "seed_vaud", "switches": {...}}              # the rules preset and all its switches

(``rules`` and ``switches`` are absent when the policy was not trained, e.g. random weights).
Files written before this field existed are read as Schieber with the file's own observation
layout and the preset they carry in ``rules``, if any (:func:`stored_trained_for`).

A policy for another game or layout cannot play: :func:`layout_problem` names the difference and
the agents refuse it (a Differenzler policy cannot play Schieber, nor one of an older observation
version). Other rules only weaken its play: :func:`warn_if_rules_differ` warns
(:class:`RulesMismatchWarning`) naming the switches that differ. No torch import here (the ONNX
agent uses it too).
"""

from __future__ import annotations

import warnings
from typing import Any

from jass_env.engine.spec import SPECS
from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim, obs_version
from jass_env.games import PRESETS, make_rules, preset, presets_of

#: the game of policy files written before ``trained_for`` existed (Schieber was the only game)
LEGACY_GAME = "schieber"
LAYOUT_KEYS = ("game", "obs_version", "obs_dim", "n_actions")


class RulesMismatchWarning(UserWarning):
    """A policy plays under rules other than those it was trained for."""




def game_layout(rules: str | Rules | None) -> dict[str, Any]:
    """This code's observation and action layout of the game of ``rules`` (a preset name or
    Rules; None: the default preset)."""
    r = make_rules(rules)
    return {"game": r.game, "obs_version": obs_version(r), "obs_dim": obs_dim(r),
            "n_actions": r.spec.n_actions}


def trained_for(rules: str | Rules | None, game: str | None = None) -> dict[str, Any]:
    """The ``trained_for`` field for a policy of this code trained under ``rules``; with ``rules``
    None an untrained network of ``game`` (a spec name; default: the default preset's): its
    layout, no rules recorded."""
    if rules is None:
        return game_layout(None if game is None else presets_of(game)[0])
    r = make_rules(rules)
    return {**game_layout(r), "rules": r.name, "switches": r.switches()}


def legacy_layout() -> dict[str, Any]:
    """The layout of :data:`LEGACY_GAME`, read for files that predate ``trained_for``."""
    return trained_for(None, LEGACY_GAME)


def stored_trained_for(fields: dict[str, Any]) -> dict[str, Any]:
    """The ``trained_for`` of a checkpoint dict (or of ONNX metadata already parsed into one); for
    an older file without it: :data:`LEGACY_GAME`, the file's ``obs_version`` and ``net`` layout
    (that game's where the file lacks them), and its ``rules`` preset if it names one."""
    stored = fields.get("trained_for")
    if isinstance(stored, dict):
        return stored
    net = fields.get("net") if isinstance(fields.get("net"), dict) else {}
    legacy = legacy_layout()
    out = {"game": LEGACY_GAME, "obs_version": fields.get("obs_version", legacy["obs_version"]),
           "obs_dim": net.get("obs_dim", legacy["obs_dim"]),
           "n_actions": net.get("n_actions", legacy["n_actions"])}
    if isinstance(fields.get("rules"), str):
        out["rules"] = fields["rules"]
    return out


def _layout(tf: dict[str, Any]) -> str:
    return (f"game {tf.get('game')!r} (observation version {tf.get('obs_version')}, "
            f"{tf.get('obs_dim')} inputs, {tf.get('n_actions')} actions)")


def layout_problem(tf: dict[str, Any], what: str, rules: str | Rules | None = None) -> str | None:
    """Why the policy ``what`` (e.g. "policy checkpoint 'x.pt'") cannot play under ``rules``, or
    None when the observation/action layout of that game in this code is the policy's. Without
    ``rules`` the policy plays the game it names, if this code has that game with its layout (the
    message then lists every game's layout)."""
    if rules is not None:
        here = [game_layout(rules)]
    else:
        # the games of the registry's presets (a spec registered at run time, such as a small
        # variant for tabular work, has no preset and no policy)
        games = [game for game in SPECS if presets_of(game)]
        here = [trained_for(None, game) for game in games]
        if tf.get("game") in games:
            mine = trained_for(None, tf["game"])
            if all(tf.get(k) == mine[k] for k in LAYOUT_KEYS):
                return None
    if all(tf.get(k) == here[0][k] for k in LAYOUT_KEYS):
        return None
    return (f"{what} was trained for {_layout(tf)}, but this code plays "
            f"{', '.join(_layout(h) for h in here)}; a policy cannot play another game's observations "
            "and actions (train one for this game)")


def rules_difference(tf: dict[str, Any], rules: str | Rules) -> list[str] | None:
    """The switches in which ``rules`` differ from those the policy was trained for ([] = none);
    None when the trained-for rules are unknown (not recorded, or an unknown preset name)."""
    trained = tf.get("switches")
    if not isinstance(trained, dict):
        named = PRESETS.get(tf.get("rules"))   # type: ignore[arg-type]
        if named is None:
            return None
        trained = named.switches()
    r = make_rules(rules)
    playing = r.switches()
    # a switch newer than the checkpoint was trained at its default value
    defaults = preset(presets_of(r.game)[0]).switches()
    return [k for k in playing if trained.get(k, defaults[k]) != playing[k]]


def warn_if_rules_differ(tf: dict[str, Any], rules: str | Rules, what: str) -> None:
    """Warn (RulesMismatchWarning) when ``rules`` are not those the policy was trained for."""
    differ = rules_difference(tf, rules)
    if differ:
        warnings.warn(f"{what} was trained for rules {tf.get('rules')!r} but plays under "
                      f"{make_rules(rules).name!r}, which differ in {', '.join(differ)}; expect "
                      "weaker play", RulesMismatchWarning, stacklevel=3)


__all__ = ["LEGACY_GAME", "legacy_layout", "game_layout", "RulesMismatchWarning", "trained_for",
           "stored_trained_for", "layout_problem", "rules_difference", "warn_if_rules_differ"]
