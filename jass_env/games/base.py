"""The game contract: what every game of the family declares, once, at the top of its package.

A game is a package ``jass_env/games/<game>/`` whose ``__init__.py`` declares the facts below (as
OpenSpiel's Python games declare ``_GAME_TYPE`` and ``_GAME_INFO``), followed by four modules with
the same function names in every game:

* ``rules.py``: the compiled hooks the engine calls (:mod:`jass_env.engine.hooks`);
* ``observation.py``: ``OBS_VERSION``, ``obs_slices(spec)``, ``obs_dim(spec)``, ``state_dim(spec)``,
  ``observation_bounds(rules)`` and the compiled ``encode_observation``/``encode_state``;
* ``records.py``: the game's part of a record (docs/records.md; the names are listed in
  :mod:`jass_env.games._records`): ``REQUIRED_FIELDS``, ``fields(round)``, ``deal(round)``,
  ``outcome(round)``, ``parse(...)``, ``parse_outcome(obj, rules)``;
* ``render.py``: ``lines(round, show)``, the game's lines of the text table.

The facts:

==============  ===============================================================================
fact            what it says
==============  ===============================================================================
TITLE           the game's name for people
KIND            its number in the compiled engine (unique; a compile-time constant of every
                compiled entry point made for it)
SPECS           its :class:`~jass_env.engine.spec.GameSpec` per player count or sheet, by name
PRESETS         its named rule sets (:class:`~jass_env.engine.switches.Rules`), the default first
BETTER          "higher" or "lower": which way a score (round, match, game total) is better
PROTOCOL        how agents are evaluated in it: "duplicate" (team games, duplicate deals),
                "rotation" (games played alone, seat rotation) or "whole_game" (duplicate deal
                sequences of whole games)
STATISTIC       the headline statistic of its evaluation (:class:`Statistic`)
REWARDS         its reward kinds, the default first (:mod:`jass_env.envs.rewards`)
REWARD_SCALE    the divisor of its "points" reward (a number, or a function of the rules)
ENV_IDS         spec name -> (PettingZoo id, Gymnasium id)
BOTS            agent name -> "module:Class" of its rule-based bots (imported only when asked for),
                or ("module:Class", spec names) for a bot of some specs only;
                ``"random_phase"``: how the random bot plays the game's phase actions, if not
                uniformly (an ``agents.random_bot.PhaseRule``); ``"worlds"``: the
                ``agents.search.world_model.WorldModel`` of its worlds, which offers the
                policy-guided search ``search:`` for it
CHECKPOINTS     spec name -> file name of its shipped policy under ``agents/checkpoints/``
READERS         the class of its own readers of a round (``round.sheets``, ``round.stock``, ...),
                made with the round (:class:`jass_env.round.Round`), or None
SCORE_RANGE     optional: a function of the rules giving (lowest, highest) of one side's score in a
                round (its units; :attr:`Game.score_range`); default: no bound known
SCORE_SUM       optional: a function of the rules giving the constant that the sides' round scores
                always add up to, or None; default: they do not add up to a constant
MAX_PHASE_ACTIONS  optional: a function of the rules giving the most actions that are not cards
                (contracts, pushes, predictions, declarations, exchanges) in one round;
                default: not known
DRAWS           optional: its own random draws at the start of a round, after the deal
                (:class:`Draws`: Differenzler's trump card, Sidi's stock); default: none
==============  ===============================================================================

A game may also hold a module ``suit_symmetry`` (the renamings of the suits under which its rules
play the same, and how they rename an observation and the actions: ``suit_permutations(rules)``,
``observation_index(perms, rules)``, ``action_index(perms, rules)``, ``action_source(perms, rules)``),
which learners use for data augmentation and suit-averaged policies (:attr:`Game.suit_symmetry`).

:func:`load` reads a package into a :class:`Game` and says which fact is missing or wrong.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from jass_env.engine.spec import GameSpec
from jass_env.engine.switches import Rules

BETTER = ("higher", "lower")
PROTOCOLS = ("duplicate", "rotation", "whole_game")
REWARD_KINDS = ("points", "win", "tricks")
#: the facts every game declares (the module docstring), and the modules beside them
FACTS = ("TITLE", "KIND", "SPECS", "PRESETS", "BETTER", "PROTOCOL", "STATISTIC", "REWARDS", "REWARD_SCALE",
         "ENV_IDS", "BOTS", "CHECKPOINTS", "READERS")
MODULES = ("rules", "observation", "records", "render")


@dataclass(frozen=True)
class Statistic:
    """The headline figure of an evaluation of a game."""

    key: str                 #: its key in an evaluation's result dict
    text: str                #: what it is, for tables
    axis: str                #: what it is, short, for a plot's axis
    higher_is_better: bool
    score: str = "score"     #: the round score it compares, as the seat-rotation report names it
    exact_hits: bool = False  #: whether a round score below 0 is an exact hit (Differenzler)


class Draws:
    """A game's own random draws at the start of a round, after the cards are dealt (the fact
    ``DRAWS``): e.g. the card that shows trump, the order of a stock. Each draw is uniform over its
    outcomes, integers 0..35 (card ids, or another small number the game names). This base class
    is the default: a game without draws of its own."""

    def outcomes(self, rules: Rules, dealer: int, hands: tuple[int, ...],
                 drawn: tuple[int, ...]) -> tuple[int, ...]:
        """The equally likely outcomes of the next draw of a round dealt ``hands`` (36-bit masks,
        one per player) with ``dealer``, after the draws ``drawn``; () once every draw is made."""
        return ()

    def outcome_name(self, rules: Rules, outcome: int) -> str:
        """A draw's outcome in words (a card's name, a suit)."""
        return str(outcome)

    def of(self, round: Any) -> tuple[int, ...]:  # noqa: A002 (the round it reads)
        """The draws of a dealt round (a :class:`jass_env.round.Round`), in the order
        :meth:`outcomes` makes them."""
        return ()

    def apply(self, round: Any, draws: tuple[int, ...]) -> None:  # noqa: A002
        """Make ``draws`` the draws of a round just dealt from explicit hands (no action yet);
        ValueError when they are not a complete sequence of this game's draws."""
        if draws:
            raise ValueError(f"{round.spec.name} draws nothing at the start of a round; got draws {draws}")


#: the draws of a game that declares none
NO_DRAWS = Draws()


@dataclass(frozen=True)
class Game:
    """A registered game: its package's facts and modules (see the module docstring)."""

    name: str
    title: str
    kind: int
    specs: Mapping[str, GameSpec]
    presets: Mapping[str, Rules]
    better: str
    protocol: str
    statistic: Statistic
    rewards: tuple[str, ...]
    reward_scale: Any
    env_ids: Mapping[str, tuple[str, str]]
    bots: Mapping[str, str]
    checkpoints: Mapping[str, str]
    readers: Any
    rules: ModuleType = field(repr=False)
    observation: ModuleType = field(repr=False)
    records: ModuleType = field(repr=False)
    render: ModuleType = field(repr=False)
    draws: Draws = field(repr=False, default=NO_DRAWS)
    #: (rules) -> (lowest, highest) of one side's round score, None when the game gives no bound
    score_range: Callable[[Rules], tuple[int, int]] | None = field(repr=False, default=None)
    #: (rules) -> the constant the sides' round scores add up to (None: not constant), or None
    score_sum: Callable[[Rules], int | None] | None = field(repr=False, default=None)
    #: (rules) -> the most phase actions (not cards) in one round, None when the game does not say
    max_phase_actions: Callable[[Rules], int] | None = field(repr=False, default=None)
    #: the module of its suit renamings (the module docstring), None when it declares none
    suit_symmetry: ModuleType | None = field(repr=False, default=None)

    @property
    def higher_is_better(self) -> bool:
        return self.better == "higher"

    @property
    def sign(self) -> int:
        """+1 when a higher score is better, -1 when a lower one is."""
        return 1 if self.higher_is_better else -1

    def points_scale(self, rules: Rules) -> float:
        """The divisor of the "points" reward under ``rules``."""
        return float(self.reward_scale(rules) if callable(self.reward_scale) else self.reward_scale)


#: the numbers of games kept outside jass_env start here (jass_env's own games are 0..999)
OUTSIDE_KINDS = 1000


def source_kind(init_file: str) -> int:
    """The ``KIND`` of a game package kept outside jass_env (a user's, a test's), from its sources:
    the compile cache is keyed by jass_env's sources only, and a number that changes with the
    game's own sources keeps it from serving code compiled for an older version of the game.
    ``init_file``: the package's ``__file__``."""
    h = hashlib.sha256()
    for path in sorted(Path(init_file).resolve().parent.rglob("*.py")):
        h.update(path.read_bytes())
    return OUTSIDE_KINDS + int(h.hexdigest()[:7], 16)


class GameContractError(ValueError):
    """A game package that does not declare what the contract asks for."""


def load(package: ModuleType) -> Game:
    """The :class:`Game` of a game package; GameContractError names what is missing or wrong."""
    name = package.__name__.rsplit(".", 1)[-1]

    def fail(what: str) -> GameContractError:
        return GameContractError(f"game package {package.__name__}: {what}")

    missing = [f for f in FACTS if not hasattr(package, f)]
    missing += [m for m in MODULES if not isinstance(getattr(package, m, None), ModuleType)]
    if missing:
        raise fail(f"lacks {', '.join(missing)} (see jass_env.games.base)")
    facts: dict[str, Any] = {f: getattr(package, f) for f in FACTS}
    if facts["BETTER"] not in BETTER:
        raise fail(f"BETTER is {facts['BETTER']!r}; allowed: {', '.join(BETTER)}")
    draws = getattr(package, "DRAWS", NO_DRAWS)
    if not isinstance(draws, Draws):
        raise fail(f"DRAWS is {draws!r}; it must be a jass_env.games.base.Draws")
    if facts["PROTOCOL"] not in PROTOCOLS:
        raise fail(f"PROTOCOL is {facts['PROTOCOL']!r}; allowed: {', '.join(PROTOCOLS)}")
    if not facts["REWARDS"] or any(r not in REWARD_KINDS for r in facts["REWARDS"]):
        raise fail(f"REWARDS is {facts['REWARDS']!r}; allowed: some of {', '.join(REWARD_KINDS)}")
    for spec_name, spec in facts["SPECS"].items():
        if spec.name != spec_name or spec.game != name or spec.kind != facts["KIND"]:
            raise fail(f"spec {spec_name!r} must be named so, with game {name!r} and kind {facts['KIND']}")
        if spec_name not in facts["ENV_IDS"]:
            raise fail(f"ENV_IDS lacks spec {spec_name!r}")
    for preset_name, rules in facts["PRESETS"].items():
        if rules.name != preset_name or rules.game not in facts["SPECS"]:
            raise fail(f"preset {preset_name!r} must be named so and be for one of its SPECS")
    return Game(name=name, title=facts["TITLE"], kind=facts["KIND"], specs=facts["SPECS"],
                presets=facts["PRESETS"], better=facts["BETTER"], protocol=facts["PROTOCOL"],
                statistic=facts["STATISTIC"], rewards=tuple(facts["REWARDS"]),
                reward_scale=facts["REWARD_SCALE"],
                env_ids=facts["ENV_IDS"], bots=facts["BOTS"], checkpoints=facts["CHECKPOINTS"],
                readers=facts["READERS"],
                rules=package.rules, observation=package.observation, records=package.records,
                render=package.render, draws=draws, score_range=getattr(package, "SCORE_RANGE", None),
                score_sum=getattr(package, "SCORE_SUM", None),
                max_phase_actions=getattr(package, "MAX_PHASE_ACTIONS", None),
                suit_symmetry=getattr(package, "suit_symmetry", None))
