"""The shape of a game: who plays, with how many cards and tricks, and its actions.

A :class:`GameSpec` holds the facts of one game of the family that never change with a rule
switch: players, teams, hand size, tricks, the deck, the phase before card play and the action
layout, and the game's own switches (:class:`Switch`). Each game declares its specs at the top of
its package (``jass_env/games/<game>/__init__.py``) and the registry (:mod:`jass_env.games`)
hands them to the engine with :func:`register_spec`; the engine sizes everything by them and
names no game itself.

Every game's actions begin with the 36 card actions (``id = 9 * suit + rank offset``, see
:mod:`jass_env.engine.cards`), so card masks, embeddings and heads are shared across the family;
the phase actions follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import ALL_CARDS_MASK, mask_of

#: how seats form sides: "pairs" (p and p + 2 partners), "alternate" ({0, 2, 4} vs {1, 3, 5}),
#: "none" (everyone alone: each player is his own side)
TEAM_MODES = ("none", "pairs", "alternate")
TEAMS_NONE, TEAMS_PAIRS, TEAMS_ALTERNATE = range(3)
#: the phases before card play a game may have (``GameSpec.bidding``)
BIDDINGS = ("contract", "prediction", "declaration", "none")
#: a state's episode: one dealt round, or a match of rounds to its end
EPISODES = ("round", "match")
#: what the engine's state holds room for: players (and so sides) and tricks of a round
MAX_PLAYERS = 6
MAX_SIDES = MAX_PLAYERS
MAX_TRICKS = 18


@dataclass(frozen=True)
class Switch:
    """One of a game's own rule switches (the switches every game shares are the fields of
    :class:`jass_env.engine.switches.Rules`).

    ``check(value)`` says whether a (coerced) value is allowed, ``allowed`` says in words what is;
    ``coerce(value, current)`` brings a user's value into the stored form (a list to a tuple, a
    dict merged into the current value), given the switch's current value.
    """

    name: str
    default: Any
    allowed: str
    check: Callable[[Any], bool]
    doc: str
    coerce: Callable[[Any, Any], Any] | None = None


@dataclass(frozen=True)
class GameSpec:
    """The fixed facts of one game of the family (one spec per player count or sheet)."""

    name: str
    title: str
    #: the package of ``jass_env.games`` whose rules play this spec
    game: str
    #: that game's number in the compiled engine (:mod:`jass_env.engine.hooks`)
    kind: int
    players: int
    #: index into TEAM_MODES
    teams: int
    hand_size: int
    tricks: int
    #: the phase before card play (one of :data:`BIDDINGS`)
    bidding: str
    #: every action's name, index = action id (cards first)
    action_names: tuple[str, ...] = field(repr=False, default=())
    #: the environments' episode unless told otherwise: "round" (one deal) or "match"
    default_episode: str = "round"
    #: names of the cards not in this game's deck; () = all 36
    removed: tuple[str, ...] = ()
    #: the game's own switches, in order
    switches: tuple[Switch, ...] = field(repr=False, default=())
    #: the shared switches (fields of Rules) that do not apply in this game, with their one value
    fixed: Mapping[str, Any] = field(repr=False, default_factory=dict)
    #: checks that concern several switches at once; raises RulesError naming the switch
    check_rules: Callable[[Any], None] | None = field(repr=False, default=None)
    #: the game's own switches as integers, in the order its compiled rules read them
    #: (appended to the shared parameters at RP_GAME)
    pack: Callable[[Any], Sequence[int]] | None = field(repr=False, default=None)
    #: the game's tail of the state array: (field, slots) in order
    state_fields: tuple[tuple[str, int], ...] = ()
    #: the values each field of the tail may hold: field -> (lowest, highest), every field of
    #: ``state_fields`` (:mod:`jass_env.engine.validate` checks every state from outside by them)
    state_ranges: Mapping[str, tuple[int, int]] = field(repr=False, default_factory=dict)
    #: checks of a batch of states that concern the game's own rules (its tail's consistency, how
    #: it uses the shared fields), called with a :class:`jass_env.engine.validate.StateChecks`
    #: after the shared checks; raises StateError naming the field
    check_state: Callable[[Any], None] | None = field(repr=False, default=None)

    @property
    def deck(self) -> int:
        """The cards of this game's deck (36-bit mask): all 36 but the ``removed`` ones."""
        return ALL_CARDS_MASK & ~mask_of(self.removed)

    @property
    def n_actions(self) -> int:
        return len(self.action_names)

    @property
    def sides(self) -> int:
        """Scoring sides: 2 teams, or one per player when everyone plays alone."""
        return self.players if self.teams == TEAMS_NONE else 2

    @property
    def team_mode(self) -> str:
        return TEAM_MODES[self.teams]

    @property
    def tail_size(self) -> int:
        """Slots of the game's own tail of the state array."""
        return sum(n for _, n in self.state_fields)

    def side_of(self, player: int) -> int:
        """The side (team, or the player himself) that ``player`` scores for."""
        return player if self.teams == TEAMS_NONE else player % 2

    def own_switch(self, name: str) -> Switch | None:
        return next((s for s in self.switches if s.name == name), None)


#: every registered spec by name (filled by :mod:`jass_env.games`)
SPECS: dict[str, GameSpec] = {}


def register_spec(spec: GameSpec) -> None:
    """Make ``spec`` known to the engine (the registry calls this for every spec of every game).
    ValueError when the engine has no room for it or another spec has its name."""
    if not (2 <= spec.players <= MAX_PLAYERS and 1 <= spec.tricks <= MAX_TRICKS
            and spec.players * spec.hand_size <= bin(spec.deck).count("1")):
        raise ValueError(f"game spec {spec.name!r}: the engine holds 2..{MAX_PLAYERS} players, up to "
                         f"{MAX_TRICKS} tricks and hands dealt from the deck; got {spec.players} players, "
                         f"{spec.tricks} tricks, {spec.hand_size} cards each")
    names = [name for name, _ in spec.state_fields]
    if sorted(spec.state_ranges) != sorted(names):
        raise ValueError(f"game spec {spec.name!r}: state_ranges must give (lowest, highest) for each field "
                         f"of its state tail ({', '.join(names) or 'none'}); got "
                         f"{', '.join(spec.state_ranges) or 'none'}")
    if spec.name in SPECS and SPECS[spec.name] != spec:
        raise ValueError(f"a different game spec named {spec.name!r} is registered already")
    SPECS[spec.name] = spec


def game_spec(name: str) -> GameSpec:
    """The spec of a game by name; ValueError lists the games."""
    if name not in SPECS:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(SPECS)}")
    return SPECS[name]


def tail_offsets(state_fields: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Each field of a game's state tail at its offset from the tail's start."""
    out, offset = {}, 0
    for name, n in state_fields:
        out[name] = offset
        offset += n
    return out
