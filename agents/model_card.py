"""Model cards of policy checkpoints, in the Hugging Face format: YAML front matter (library,
licence, tags, ``model-index`` with the measured results), then Markdown sections.

    python -m agents.model_card --all                      # every agents/checkpoints/*.pt
    python -m agents.model_card sidi                       # agents/checkpoints/sidi.md
    python -m agents.model_card sidi --evaluate random heuristic pimc:worlds=10 --deals 500

A card ``DIR/<name>.md`` is generated, never edited: every figure in it comes from the checkpoint
``DIR/<name>.pt`` (game, layout, network, training config, decisions, SHA-256) or from its
evaluation report ``DIR/evaluations/<name>.json`` (:mod:`agents.card_evaluations`), which
``--evaluate`` fills by running ``python -m agents.evaluate`` against each opponent, one at a time.
The licence and the library name are the installed package's metadata.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jass_env.commands import module_command
from jass_env.games import game_of, make_rules

from .card_evaluations import (
    ROOT,
    SHOWN_PYTHON,
    CardError,
    headline,
    read_report,
    record,
    report_path,
    run_evaluation,
    shown_path,
)
from .evaluation.protocol import PLAYS, protocol_for
from .extras import missing_extra

try:
    import yaml
except ModuleNotFoundError as exc:  # PyYAML comes with the "train" extra
    raise missing_extra(exc, "agents.model_card (model cards)") from None

from .files import file_sha256
from .network import CheckpointError, read_checkpoint
from .policy import CHECKPOINT_DIR, SHIPPED_CHECKPOINTS
from .trained_for import stored_trained_for

PACKAGE = "jass-env"
DEFAULT_DEALS = 500
#: the config keys that say on what the training ran (the checkpoint records no machine)
HARDWARE_KEYS = ("device", "torch_threads", "workers")


@dataclass(frozen=True)
class Method:
    """A way a shipped policy was trained: the checkpoint field holding its config, and its program."""

    field: str         #: the checkpoint's field with the run's config
    text: str          #: what it is, for the card
    tag: str           #: its model-card tag
    program: str       #: how the command runs it, after the interpreter
    config_class: str  #: "module:Class" of its config dataclass


METHODS = (
    Method("trainer_config", "PPO self-play with a behaviour-cloning warm start (`train.py`, "
           "[training](../../docs/training.md#how-it-trains))", "ppo", "train.py",
           "agents.training.config:TrainConfig"),
    Method("distill_config", "expert iteration: the policy-guided search's choices distilled into a "
           "start policy (`agents.distill`, [training](../../docs/training.md"
           "#distilling-the-search-into-the-policy-expert-iteration-every-game))", "expert-iteration",
           "-m agents.distill", "agents.search.distill:DistillConfig"),
)


def training_of(ckpt: dict[str, Any]) -> tuple[Method, dict[str, Any]] | None:
    """How the checkpoint was trained and the run's config (a trainer's own checkpoint holds it in
    ``trainer.config``); None when it records no training."""
    trainer = ckpt.get("trainer") if isinstance(ckpt.get("trainer"), dict) else {}
    for method in METHODS:
        config = ckpt.get(method.field)
        if config is None and method.field == "trainer_config":
            config = trainer.get("config")
        if isinstance(config, dict):
            return method, config
    return None


def training_command(method: Method, config: dict[str, Any]) -> str | None:
    """The command that trains ``config`` now: its program on ``configs/<name>.yaml`` with a
    ``key=value`` for every stored key the file's config (defaults included) gives otherwise. None
    when that file is missing or no longer reads."""
    import importlib

    from .training.yaml_config import ConfigError, build_config, read_config_values

    path = ROOT / "configs" / f"{config.get('name')}.yaml"
    module, cls = method.config_class.split(":")
    try:
        current = vars(build_config(getattr(importlib.import_module(module), cls), read_config_values(path)))
    except (ConfigError, OSError):
        return None
    overrides = [f"{k}={yaml_value(v)}" for k, v in config.items() if k in current and current[k] != v]
    return " ".join([SHOWN_PYTHON, method.program, "--config", shown_path(path),
                     *(quoted(o) for o in overrides)])


def yaml_value(value: Any) -> str:
    """``value`` as a ``key=value`` override writes it (one line of YAML flow style)."""
    return yaml.safe_dump(value, default_flow_style=True, width=1_000).strip().removesuffix("\n...").strip()


def quoted(word: str) -> str:
    """A shell word that a POSIX shell reads back as ``word``: as it is when it holds nothing the
    shell reads; else in single quotes (as the docs write overrides such as ``'hidden=[64, 64]'``),
    or in double quotes when it holds a single quote (a quoted YAML string) and nothing that is
    special between double quotes."""
    if not any(c in word for c in " {}[]'\"$`\\!*?;&|<>()#~"):
        return word
    if "'" not in word:
        return f"'{word}'"
    if not any(c in word for c in '"$`\\!'):
        return f'"{word}"'
    return shlex.quote(word)


def number(x: float) -> str:
    """A statistic with its sign and two decimals."""
    return f"{x:+.2f}"


def _front_matter(name: str, game: Any, rules: str, method: Method | None,
                  rows: list[tuple[dict[str, Any], Any]]) -> str:
    """The YAML front matter: library, licence, tags and the model-index of the measured results."""
    meta = importlib.metadata.metadata(PACKAGE)
    stat = game.statistic
    metrics = [{"type": stat.key, "name": f"{stat.text}, against {entry['opponent']}",
                "value": round(h.value, 2),
                "args": {"opponent": entry["opponent"], "ci95": [round(h.ci95[0], 2), round(h.ci95[1], 2)],
                         "deals": h.deals, "deal_set_seed": entry["summary"]["seed"],
                         "protocol": protocol_for(rules), "higher_is_better": stat.higher_is_better},
                "verified": False}
               for entry, h in rows]
    tags = ["reinforcement-learning", "deep-reinforcement-learning", "multi-agent-reinforcement-learning",
            "card-game", "jass", game.name, *([method.tag] if method else []), "pytorch"]
    front = {"library_name": meta["Name"], "license": meta["License"].lower(),
             "tags": list(dict.fromkeys(tags)), "pipeline_tag": "reinforcement-learning",
             "model-index": [{"name": name, "results": [{
                 "task": {"type": "reinforcement-learning", "name": "reinforcement-learning"},
                 "dataset": {"name": f"{game.title} ({rules} rules)", "type": f"{PACKAGE}/{rules}"},
                 "metrics": metrics}]}]}
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000) + "---\n"


def _model_section(checkpoint: Path, ckpt: dict[str, Any], rules: str) -> list[str]:
    net = ckpt["net"]
    tf = stored_trained_for(ckpt)
    params = sum(int(v.numel()) for v in ckpt["model"].values())
    shape = " → ".join(str(w) for w in [net["obs_dim"], *net["hidden"]])
    size = checkpoint.stat().st_size
    rows = [("file", f"`{shown_path(checkpoint)}` ({size:,} bytes, format `{ckpt['format']}`)"),
            ("SHA-256", f"`{file_sha256(checkpoint)}`"),
            ("game", f"{game_of(make_rules(rules)).title} (spec `{tf['game']}`, "
                     f"{make_rules(rules).spec.players} players), rules preset `{rules}`"),
            ("observation", f"version {tf['obs_version']}, {tf['obs_dim']} floats"),
            ("actions", f"{tf['n_actions']} (illegal ones masked to probability 0)"),
            ("network", f"MLP {shape} (ReLU), a policy head of {net['n_actions']} logits and a value head"),
            ("parameters", f"{params:,}")]
    if net.get("suit_renamings"):
        rows.append(("plays as", f"the suit average: its logits averaged over {len(net['suit_renamings'])} "
                                 "renamings of the suits ([bots.md](../../docs/bots.md#the-policy-agent))"))
    return ["## Model", "", "| | |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows), ""]


def _training_section(ckpt: dict[str, Any], training: tuple[Method, dict[str, Any]] | None) -> list[str]:
    lines = ["## Training", ""]
    if training is None:
        made_by = ckpt.get("command")
        if not isinstance(made_by, str):
            return lines + ["The checkpoint records no training (no run config).", ""]
        lines += [f"{ckpt.get('note', 'Made by a command')}. The command that made it:", "", "```bash",
                  made_by, "```", ""]
        if ckpt.get("seconds") is not None:
            lines.append(f"- time: {float(ckpt['seconds']) / 60:.1f} min")
        if ckpt.get("source"):
            lines.append(f"- made from: `{ckpt['source']}`")
        return lines + [""]
    method, config = training
    trainer = ckpt.get("trainer") if isinstance(ckpt.get("trainer"), dict) else {}
    command = training_command(method, config)
    lines += [f"Method: {method.text}.", ""]
    if command:
        lines += ["The command that trains the stored config: its file in `configs/` as it is now, with the "
                  "keys in which the stored config differs:", "", "```bash", command, "```", ""]
    else:
        lines += [f"`configs/{config.get('name')}.yaml` is not here or no longer reads; the stored config is "
                  "below.", ""]
    decisions = ckpt.get("env_decisions", trainer.get("env_decisions"))
    if decisions is not None:
        warm = f" (after a warm start of {int(config['bc_decisions']):,})" if "bc_decisions" in config else ""
        lines.append(f"- environment decisions played in PPO: {int(decisions):,}{warm}")
    elapsed = trainer.get("elapsed")
    lines.append(f"- training time: {elapsed / 60:.1f} min" if elapsed is not None else
                 "- training time: not stored in the checkpoint (the runs' times are in "
                 "[the table of configs](../../docs/training.md#the-configs))")
    if ckpt.get("source"):
        lines.append(f"- made from: `{ckpt['source']}`")
    dump = yaml.safe_dump(config, sort_keys=False, default_flow_style=None, width=100).rstrip()
    return lines + ["", "<details><summary>The stored config</summary>", "", "```yaml", dump, "```", "",
                    "</details>", ""]


def _evaluation_section(game: Any, rules: str, rows: list[tuple[dict[str, Any], Any]]) -> list[str]:
    stat = game.statistic
    protocol = protocol_for(rules)
    page = ROOT / "docs" / "games" / f"{game.name}.md"
    more = (f"; the game's own figures are in [its page](../../docs/games/{game.name}.md"
            "#trained-policy-and-strength)") if page.is_file() else ""
    better = "higher" if stat.higher_is_better else "lower"
    lines = ["## Evaluation", "",
             f"The game's statistic is the {stat.text}; {better} is better. Each figure comes with its "
             f"t-based 95 % interval, played by the evaluator's `{protocol}` protocol on {PLAYS[protocol]} "
             f"([the protocol](../../docs/bots.md#the-evaluation-protocol){more}). The policy plays "
             "greedily. Wall time: the whole command, start-up included.", "",
             "| opponent | statistic [95 % interval] | played | share of deals the policy did better | "
             "deal set (seed / SHA-256) | wall time |", "|---|---|---|---|---|---|"]
    for entry, h in rows:
        s = entry["summary"]
        set_hash = f"`{s['deal_set_hash'][:12]}`" if "deal_set_hash" in s else "—"
        stat_ci = f"{number(h.value)} [{number(h.ci95[0])}, {number(h.ci95[1])}]"
        lines.append(f"| `{entry['opponent']}` | {stat_ci} | {h.deals:,} {h.unit} | {h.better_share:.3f} | "
                     f"{s['seed']} / {set_hash} | {entry['wall_seconds']:.0f} s |")
    return lines + ["", "The commands (their output folders hold every deal):", "", "```bash",
                    *(entry["command"] for entry, _ in rows), "```", ""]


def _hardware_section(training: tuple[Method, dict[str, Any]] | None,
                      rows: list[tuple[dict[str, Any], Any]]) -> list[str]:
    lines = ["## Hardware", "", "| evaluation | date | machine | load average (1 min) at the start |",
             "|---|---|---|---|"]
    for entry, _ in rows:
        m = entry["machine"]
        what = (f"{m['cpu']}, {m['logical_cpus']} logical CPUs, {m['memory_gib']} GiB, "
                f"{m['gpu'] or 'no GPU'}; Python {m['python']}, torch {m['torch']}, numba {m['numba']}")
        lines.append(f"| `{entry['opponent']}` | {entry['date']} | {what} | {m['load_average_1min']} |")
    if training is not None:
        _, config = training
        asked = ", ".join(f"`{k}: {yaml_value(config[k])}`" for k in HARDWARE_KEYS if k in config)
        asked = f"; its config asked for {asked}" if asked else ""
        lines += ["", f"Training: the checkpoint records no machine{asked}."]
    return lines + [""]


def rules_of(checkpoint: Path, ckpt: dict[str, Any]) -> str:
    """The rules preset the checkpoint was trained for; CardError when it records none."""
    rules = stored_trained_for(ckpt).get("rules")
    if not isinstance(rules, str):
        raise CardError(f"{shown_path(checkpoint)} records no rules it was trained for (an untrained "
                        "network?); a card and its evaluations need them")
    return rules


def card_text(checkpoint: Path) -> str:
    """The model card of ``checkpoint`` (Markdown with YAML front matter); CardError when the
    checkpoint or its evaluation report cannot be used."""
    try:
        ckpt = read_checkpoint(checkpoint)
    except CheckpointError as e:
        raise CardError(str(e)) from None
    rules = rules_of(checkpoint, ckpt)
    game = game_of(make_rules(rules))
    report = read_report(checkpoint)
    rows = [(entry, headline(entry["summary"], rules)) for entry in report["evaluations"]]
    training = training_of(ckpt)
    name = checkpoint.stem
    plays = [spec for spec, path in SHIPPED_CHECKPOINTS.items() if path.resolve() == checkpoint.resolve()]
    shipped = (f" It is the shipped policy of `{plays[0]}`: the agent spec `policy` plays it under "
               f"`--rules {plays[0]}`." if plays else "")
    intro = (f"A policy network for **{game.title}** under the `{rules}` rules preset, an agent of "
             f"[{PACKAGE}](../../README.md).{shipped} This card is generated from the checkpoint and its "
             f"evaluation report `{shown_path(report_path(checkpoint))}` by "
             f"`{SHOWN_PYTHON} -m agents.model_card {name}`; do not edit it by hand.")
    use = ["## Use", "", "```python", "from agents.policy import PolicyAgent", "",
           f'agent = PolicyAgent("{shown_path(checkpoint)}", rules="{rules}")   # argmax over the legal '
           "actions", 'action = agent.act(observation)   # an observation dict: "observation", "action_mask"',
           "```", ""]
    meta = importlib.metadata.metadata(PACKAGE)
    licence = ["## Licence", "", f"{meta['License']}, as the rest of `{meta['Name']}` (its package "
               "metadata).", ""]
    body = [f"# {name}: {game.title}", "", intro, "", *_model_section(checkpoint, ckpt, rules), *use,
            *_training_section(ckpt, training), *_evaluation_section(game, rules, rows),
            *_hardware_section(training, rows), *licence]
    return _front_matter(name, game, rules, training[0] if training else None, rows) + "\n" + "\n".join(body)


def card_path(checkpoint: Path) -> Path:
    """Where the card of ``checkpoint`` goes: beside it, ``<name>.md``."""
    return checkpoint.with_suffix(".md")


def shipped_checkpoints() -> list[Path]:
    """Every checkpoint shipped in ``agents/checkpoints/``, by name."""
    return sorted(CHECKPOINT_DIR.glob("*.pt"))


def resolve(name: str) -> Path:
    """A shipped checkpoint by name (``sidi``, ``sidi.pt``) or a path to a checkpoint file."""
    for candidate in (CHECKPOINT_DIR / f"{name}.pt", CHECKPOINT_DIR / name, Path(name)):
        if candidate.suffix == ".pt" and candidate.is_file():
            return candidate
    names = ", ".join(p.stem for p in shipped_checkpoints())
    raise CardError(f"no checkpoint {name!r}: give a shipped one ({names}) or the path of a .pt file")


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; 0 when every card was written, 2 on a bad checkpoint, report or evaluation."""
    ap = argparse.ArgumentParser(prog=module_command("agents.model_card"), description=__doc__.split("\n")[0])
    ap.add_argument("checkpoints", nargs="*", metavar="CHECKPOINT",
                    help="shipped checkpoint names (sidi, default, ...) or paths of .pt files")
    ap.add_argument("--all", action="store_true", help="every checkpoint in agents/checkpoints/")
    ap.add_argument("--evaluate", nargs="+", metavar="AGENT",
                    help="first evaluate each checkpoint against these agent specs (one at a time) and "
                         "store the results in its evaluation report")
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                    help=f"deals (whole games: deal sequences) per evaluation (default {DEFAULT_DEALS})")
    ap.add_argument("--seed", type=int, default=0, help="deal-set seed of the evaluations (default 0)")
    args = ap.parse_args(argv)
    if bool(args.all) == bool(args.checkpoints):
        ap.error("give checkpoint names or --all (one of the two)")
    if args.deals < 2 or args.seed < 0:
        ap.error("need --deals >= 2 and --seed >= 0")
    try:
        paths = shipped_checkpoints() if args.all else [resolve(n) for n in args.checkpoints]
        for path in paths:
            for opponent in args.evaluate or ():
                entry = run_evaluation(path, rules_of(path, read_checkpoint(path)), opponent, args.deals,
                                       args.seed)
                print(f"  {entry['wall_seconds']:.0f} s; stored in {shown_path(record(path, entry))}")
            card_path(path).write_text(card_text(path))
            print(f"wrote {shown_path(card_path(path))}")
    except (CardError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
