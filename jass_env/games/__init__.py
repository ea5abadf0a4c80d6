"""The games of the Jass family: one registry, from which every layer above the engine takes what
is game-specific.

Each game is a package of this folder declaring its facts at the top of its ``__init__.py``
(:mod:`jass_env.games.base`: specs, presets, which way a score is better, its evaluation protocol,
rewards, environment ids, bots, shipped policy) with its ``rules``, ``observation``, ``records``
and ``render`` modules beside them. :func:`register` reads a package into a
:class:`~jass_env.games.base.Game` and hands its compiled hooks to the engine; the games below are
registered when this package is imported, and a game kept elsewhere (a test's, a user's) is
added with one call of :func:`register`.

Rules by name: :func:`make_rules` (a preset, with switches on top, or for another player count of
the same game), :data:`PRESETS`, :func:`presets_of`, :func:`overrides`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from jass_env.engine import hooks
from jass_env.engine.spec import SPECS, GameSpec
from jass_env.engine.switches import Rules, RulesError, is_int

from . import coiffeur, differenzler, mittlere, molotow, schieber, sidi
from .base import Game, GameContractError, Statistic, load

#: every registered game by name, in registration order
REGISTRY: dict[str, Game] = {}
#: every preset of every registered game by name
PRESETS: dict[str, Rules] = {}


def register(package: ModuleType) -> Game:
    """Add a game package to the registry and its rules to the compiled engine; the Game.
    GameContractError when the package lacks a fact or its names clash with a registered game's."""
    game = load(package)
    clash = (set(game.presets) & set(PRESETS)) if game.name not in REGISTRY else set()
    if clash:
        raise GameContractError(f"game {game.name!r}: preset name(s) {', '.join(sorted(clash))} are taken")
    hooks.register(game.kind, game.name, game.rules, game.observation)
    REGISTRY[game.name] = game
    PRESETS.update(game.presets)
    return game


for _package in (schieber, differenzler, coiffeur, mittlere, molotow, sidi):
    register(_package)

#: the preset played when none is named (by the environments, the records, the command lines)
DEFAULT_PRESET = "schieber"


def game_of(rules: str | Rules | GameSpec) -> Game:
    """The game of a rules object, a spec, or a spec or preset name."""
    if isinstance(rules, Rules):
        name = rules.spec.game
    elif isinstance(rules, GameSpec):
        name = rules.game
    elif rules in PRESETS:
        name = PRESETS[rules].spec.game
    elif rules in SPECS:
        name = SPECS[rules].game
    else:
        name = rules
    if name not in REGISTRY:
        raise ValueError(f"unknown game {rules!r}; games: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def preset(name: str) -> Rules:
    """A preset by name; RulesError lists the presets."""
    if name not in PRESETS:
        raise RulesError(f"unknown rules preset {name!r}; valid presets: {', '.join(PRESETS)}")
    return PRESETS[name]


def make_rules(rules: str | Rules | None = None, *, players: int | None = None, **switches: Any) -> Rules:
    """A preset name (default :data:`DEFAULT_PRESET`) or a Rules object, with switches changed on top.

    ``players`` picks the game's spec for that many players, for the games offered for several
    player counts (Schieber for 4 and 6, Differenzler for 4 and 3, Molotow for 3 to 6): e.g.
    ``make_rules("molotow", players=5)`` is the ``molotow5`` preset, with the switches that
    ``rules`` changed from its own preset kept.
    """
    if players is not None:
        rules = with_players(make_rules(rules), players)
    if rules is None:
        base = PRESETS[DEFAULT_PRESET]
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, str):
        base = preset(rules)
    else:
        raise RulesError(f"rules must be a preset name ({', '.join(PRESETS)}) or a Rules object, "
                         f"not {type(rules).__name__}")
    return base.replace(**switches) if switches else base


def player_counts(game: Game) -> dict[int, str]:
    """The spec of each player count a game is offered for ({} when its specs do not differ by
    player count alone)."""
    counts = {spec.players: name for name, spec in game.specs.items()}
    return counts if len(counts) == len(game.specs) > 1 else {}


def with_players(rules: Rules, players: int) -> Rules:
    """``rules`` for the spec of its game played by ``players``: that spec's preset with every
    switch set as in ``rules``. RulesError when the game has no player-count choice or the count is
    not offered."""
    game = game_of(rules)
    counts = player_counts(game)
    if not counts:
        offered = "; ".join(f"{g.name}: {', '.join(map(str, sorted(player_counts(g))))} players"
                            for g in REGISTRY.values() if player_counts(g))
        raise RulesError(f"the 'players' switch does not apply to {rules.game} (it is played by "
                         f"{rules.spec.players} players only); games with a choice of players: {offered}")
    if not is_int(players) or players not in counts:
        raise RulesError(f"bad value {players!r} for rule switch 'players' in {game.name}; allowed: "
                         f"{', '.join(map(str, sorted(counts)))}")
    target = preset(counts[players])
    preset_switches = target.switches()
    return target.replace(**{k: v for k, v in rules.switches().items() if preset_switches[k] != v})


def presets_of(game: str) -> tuple[str, ...]:
    """The names of the presets for one spec (``presets_of("schieber")``: Schieber's five)."""
    return tuple(name for name, r in PRESETS.items() if r.game == game)


def overrides(rules: Rules) -> dict[str, Any]:
    """The switches that differ from the preset named by ``rules.name`` (if it is a preset; else
    from the default preset of its spec)."""
    base = PRESETS.get(rules.name) or preset(presets_of(rules.game)[0])
    base_switches = base.switches()
    return {k: v for k, v in rules.switches().items() if base_switches.get(k) != v}


#: Schieber's presets, by the name the package exported before the family had a registry
SCHIEBER_PRESETS = presets_of("schieber")

__all__ = ["REGISTRY", "PRESETS", "DEFAULT_PRESET", "SCHIEBER_PRESETS", "Game", "GameContractError",
           "Statistic", "register", "game_of", "preset", "make_rules", "player_counts", "with_players",
           "presets_of", "overrides"]
