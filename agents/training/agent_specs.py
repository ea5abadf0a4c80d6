"""The agents a config names, checked against the run's game before any work starts.

``eval_opponents`` and ``opponent_agent`` are agent specs of :mod:`agents.registry`, and
``init_policy`` is a policy checkpoint. A spec that parses may still not play the run's game: a
checkpoint of another game (whose observation and action layout is not this game's), a bot the
game does not have, a file that is not there. Each is built for the run's rules before the run
folder is written, so that such a spec is a :class:`~agents.training.yaml_config.ConfigError`
naming the config key, the spec and why, instead of an error at the run's first evaluation.
"""

from __future__ import annotations

from jass_env.commands import shown_command
from jass_env.engine.switches import Rules
from jass_env.games import make_rules

from ..network import CheckpointError
from ..registry import AgentSpecError, make_agent
from .config import EVAL_OPPONENTS, TrainConfig, best_opponent
from .yaml_config import ConfigError


def spec_error(key: str, spec: str, rules: Rules, why: object) -> ConfigError:
    """The error for the agent ``spec`` of config key ``key`` (``eval_opponents[1]``) that cannot
    play the game of ``rules``, the run's, for the reason ``why`` (the registry's or the
    checkpoint's error, or a message)."""
    return ConfigError(f"config key {key!r}: {spec!r} cannot play {rules.game}, the game this run trains "
                       f"(rules {rules.name}): {why}")


def check_eval_opponents(cfg: TrainConfig, resumed: bool) -> None:
    """Build every agent spec of ``cfg.eval_opponents`` (the batch bots need nothing) for the run's
    rules; ConfigError (:func:`spec_error`) for the first that cannot play them. ``resumed``: the
    run goes on from a checkpoint, so the message says how to leave the opponent out."""
    rules = make_rules(cfg.rules)
    for i, spec in enumerate(cfg.eval_opponents):
        if spec in EVAL_OPPONENTS:
            continue
        try:
            make_agent(spec, rules, seed=0)
        except (AgentSpecError, CheckpointError) as e:
            raise ConfigError(f"{spec_error(f'eval_opponents[{i}]', spec, rules, e)}"
                              f"{_resume_hint(cfg, spec) if resumed else ''}") from None


def _resume_hint(cfg: TrainConfig, spec: str) -> str:
    """How a resumed run goes on without the eval opponent ``spec``: leave it out, unless it is
    the one that picks ``best.pt`` (which a resumed run keeps)."""
    if best_opponent(cfg.eval_opponents) == spec:
        return "; this run picks best.pt against it, so it must play: make it available again to resume"
    rest = [s for s in cfg.eval_opponents if s != spec]
    return (f"; resume without it: {shown_command('python')} train.py --resume {cfg.run_dir} "
            f"'eval_opponents=[{', '.join(rest)}]'")
