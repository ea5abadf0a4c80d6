"""Rules as data: the switches every game shares, the game's own switches, and their compiled form.

A :class:`Rules` object is an immutable set of switches for one game of the family (``Rules.game``
names its :class:`~jass_env.engine.spec.GameSpec`). Its fields are the switches of card play,
Weis, Stöck and match end that the games share; a game's own switches (Coiffeur's row factors,
Differenzler's predictions, ...) are declared by the game (``GameSpec.switches``), stored in
``Rules.own`` and read as attributes like the others (``rules.row_factors``). Unknown switches and
bad values raise :class:`RulesError`, whose message lists what is valid. The presets and
``make_rules`` are the registry's (:mod:`jass_env.games`).

The compiled engine never sees this class: :meth:`Rules.params` packs every switch, the card values
and multipliers per contract and the game's shape into one ``int64`` array (offsets ``RP_*``
below, then the game's own switches from ``RP_GAME`` on, in the order of ``GameSpec.pack``) that
the compiled rules read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .cards import CONTRACTS, N_CARDS, N_CONTRACTS, NATURAL_RANKS, RANKS, card_values
from .spec import SPECS, GameSpec, game_spec


class RulesError(ValueError):
    """An unknown preset or switch, or a bad switch value."""


UNDERTRUMP_RULES = ("official", "unless_partner_winning", "allowed", "only_if_void")
UT_OFFICIAL, UT_UNLESS_PARTNER_WINNING, UT_ALLOWED, UT_ONLY_IF_VOID = range(4)
WEIS_COMPARISONS = ("standard", "vaud", "no_top_card")
WEIS_CMP_STANDARD, WEIS_CMP_VAUD, WEIS_CMP_NO_TOP_CARD = range(3)
MATCH_FINISHES = ("official", "round_end")
FINISH_OFFICIAL, FINISH_ROUND_END = range(2)
FIRST_FOREHANDS = ("random", "D7")
FIRST_FOREHAND_RANDOM, FIRST_FOREHAND_D7 = range(2)
LEADERS_AFTER_PUSH = ("forehand", "declarer")
LEADER_FOREHAND, LEADER_DECLARER = range(2)

OFFICIAL_QUADS = {"6": 100, "7": 100, "8": 100, "9": 150, "10": 100, "J": 200, "Q": 100,
                  "K": 100, "A": 100}
#: the switches that are not a game's switches (its name and its game)
_NOT_SWITCHES = ("name", "game", "own")


@dataclass(frozen=True)
class Rules:
    """Every switch the games share (docs/rules.md), defaults = Schieber's; the game's own
    switches in ``own``, read as attributes."""

    #: the preset these rules come from (or were made from)
    name: str
    #: the game these rules are for (a spec name, see :mod:`jass_env.games`)
    game: str
    #: contracts the chooser may name, a subset of D H S C obenabe undenufe
    contracts: tuple[str, ...] = CONTRACTS
    #: forehand may push the choice to the partner (who must then choose; no push-back)
    push: bool = True
    #: who leads trick 1 after a push: "forehand" (official) or "declarer" (house rule)
    leader_after_push: str = "forehand"
    #: Obenabe/Undenufe card values: 8 counts 8; in Undenufe 6 counts 11 and A 0
    ou_card_values: bool = True
    #: a player holding the led plain suit may trump instead of following
    may_trump_instead_of_following: bool = True
    #: "official" (no under-trump unless only trumps), "unless_partner_winning", "allowed",
    #: "only_if_void" (the ban holds only for a player who holds the led suit)
    undertrump_rule: str = "official"
    #: on a trump lead, a player whose only trump is the Puur may play any card
    puur_exception: bool = True
    #: Weis are declared (automatically) and scored
    weis: bool = True
    #: points of a sequence of 3, 4, 5, 6, 7, 8, 9 cards
    sequence_values: tuple[int, ...] = (20, 50, 100, 150, 200, 250, 300)
    #: points of four of a kind by rank ("6" ... "A"); 0 = not a Weis
    quad_values: tuple[tuple[str, int], ...] = tuple(OFFICIAL_QUADS.items())
    #: "standard" (points, cards, top card, trump, position), "vaud" (quads first, ..., suit
    #: order H > C > S > D), "no_top_card" (standard without the top-card step, as Swisslos)
    weis_comparison: str = "standard"
    #: a card may belong to a sequence and a four of a kind at once
    kreuzweis: bool = True
    #: in Undenufe the top-card step of the Weis comparison is reversed (6-7-8 best)
    undenufe_reverse_weis_rank: bool = True
    #: Stöck value (trump K+Q in one hand), 0 = off
    stoeck: int = 20
    #: bonus for taking every trick
    match_bonus: int = 100
    #: multiplier per contract, in CONTRACTS order (D H S C obenabe undenufe)
    multipliers: tuple[int, ...] = (1, 1, 1, 1, 1, 1)
    #: match target score (0 = no target; then `match_rounds` ends the match)
    target: int = 1000
    #: fixed number of rounds of a match (tournament play); 0 = play to the target
    match_rounds: int = 0
    #: "official": a side reaching the target wins at that moment (Stöck - Weis - tricks);
    #: "round_end": at the end of a round the higher total wins, an exact tie plays one more round
    match_finish: str = "official"
    #: who is forehand in the first round of a match: "random" or "D7" (holder of the ♦7)
    first_forehand: str = "random"
    #: Bergpreis bonus for the first team past half the target (0 = off)
    bergpreis: int = 0
    #: the game's own switches, (name, value) in the order the game declares them
    own: tuple[tuple[str, Any], ...] = ()

    # construction
    def replace(self, **switches: Any) -> Rules:
        """A copy with some switches changed; each value is validated."""
        spec = self.spec
        shared = shared_switch_names()
        known = set(shared) | {s.name for s in spec.switches}
        unknown = sorted(set(switches) - known)
        for key in unknown:     # another game's own switch: say whose
            owners = " and ".join(f"{title}'s" for title in _owners_of(key))
            if owners:
                raise RulesError(f"rule switch {key!r} is {owners} and does not apply to {self.game}, "
                                 f"got {switches[key]!r}")
        if unknown:
            raise RulesError(f"unknown rule switch(es) {', '.join(map(repr, unknown))}; "
                             f"valid switches: {', '.join(sorted(known))}")
        values = {k: _coerce(k, v, self) for k, v in switches.items() if k in shared}
        own = dict(self.own)
        for s in spec.switches:
            if s.name in switches:
                value = switches[s.name]
                own[s.name] = s.coerce(value, own[s.name]) if s.coerce else value
        return dataclasses.replace(self, **values, own=tuple(own.items()))

    def renamed(self, name: str) -> Rules:
        """The same switches under another name (a preset made from another)."""
        return dataclasses.replace(self, name=name)

    def __post_init__(self) -> None:
        _validate(self)

    def __getattr__(self, name: str) -> Any:
        """A game's own switch by name (``rules.row_factors``)."""
        if name.startswith("__") or name in _NOT_SWITCHES:
            raise AttributeError(name)
        for key, value in object.__getattribute__(self, "own"):
            if key == name:
                return value
        game = object.__getattribute__(self, "game")
        raise AttributeError(f"{name!r} is not a switch of {game}; its switches: "
                             f"{', '.join(self.switches())}")

    # views
    def switches(self) -> dict[str, Any]:
        """All switches of this game as plain JSON-able values (for records, configs and printing):
        the shared ones, then the game's own."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name in _NOT_SWITCHES:
                continue
            out[f.name] = _plain(f.name, getattr(self, f.name))
        for key, value in self.own:
            out[key] = _plain(key, value)
        return out

    def multiplier(self, contract: int) -> int:
        return self.multipliers[contract]

    @property
    def spec(self) -> GameSpec:
        """The game these rules are for."""
        return game_spec(self.game)

    @cached_property
    def params(self) -> np.ndarray:
        """The compiled form read by the engine (int64; RP_GAME + the game's own params); do not
        modify."""
        return _params(self)


def _owners_of(switch: str) -> list[str]:
    """The titles of the games (their first registered spec's) that have ``switch`` as their own."""
    owners: dict[str, str] = {}
    for spec in SPECS.values():
        if spec.own_switch(switch) is not None:
            owners.setdefault(spec.game, spec.title)
    return list(owners.values())


def shared_switch_names() -> tuple[str, ...]:
    """The switches every game has (the fields of :class:`Rules`), in order."""
    return tuple(f.name for f in dataclasses.fields(Rules) if f.name not in _NOT_SWITCHES)


def rules_for(spec: GameSpec, name: str, **switches: Any) -> Rules:
    """A game's rules named ``name``: every shared switch at Rules' default or the game's fixed
    value, the game's own switches at their defaults, with ``switches`` (in their stored form:
    tuples, not lists or dicts) set on top; validated. RulesError names an unknown switch."""
    shared = dict(spec.fixed)
    own = {s.name: s.default for s in spec.switches}
    for key, value in switches.items():
        if key in own:
            own[key] = value
        elif key in shared_switch_names():
            shared[key] = value
        else:
            raise RulesError(f"unknown rule switch {key!r} for {spec.name}")
    return Rules(name=name, game=spec.name, own=tuple(own.items()), **shared)


def _plain(key: str, value: Any) -> Any:
    if key == "quad_values":
        return dict(value)
    if key == "multipliers":
        return dict(zip(CONTRACTS, value))
    if isinstance(value, tuple):
        return list(value)
    return value


# validation
_CONTRACTS_ALLOWED = f"a non-empty list without repeats from {', '.join(CONTRACTS)}"
_SEQUENCES_ALLOWED = "7 integers 0..1000: the points of sequences of 3, 4, 5, 6, 7, 8, 9 cards"
_MULTIPLIERS_ALLOWED = f"an integer 1..100 for each of {', '.join(CONTRACTS)}"
#: the integer switches and their largest value
_INT_LIMITS = {"stoeck": 1000, "match_bonus": 1000, "target": 100_000, "match_rounds": 10_000,
               "bergpreis": 10_000}
_BOOLEANS = ("push", "ou_card_values", "may_trump_instead_of_following", "puur_exception", "weis",
             "kreuzweis", "undenufe_reverse_weis_rank")
_CHOICES = {"undertrump_rule": UNDERTRUMP_RULES, "weis_comparison": WEIS_COMPARISONS,
            "match_finish": MATCH_FINISHES, "first_forehand": FIRST_FOREHANDS,
            "leader_after_push": LEADERS_AFTER_PUSH}


def is_int(v: Any) -> bool:
    """An integer that is not a bool (numpy integers included)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def as_tuple(key: str, value: Any, allowed: str) -> tuple:
    """A list or tuple value as a tuple; RulesError saying what is allowed otherwise."""
    if not isinstance(value, (list, tuple)):
        raise bad_value(key, value, allowed)
    return tuple(value)


def bad_value(key: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"bad value {value!r} for rule switch {key!r}; allowed: {allowed}")


def _coerce(key: str, value: Any, rules: Rules) -> Any:
    """Bring a user value into the field's stored form (lists to tuples, dicts merged)."""
    if key == "contracts":
        if isinstance(value, str):
            value = (value,)
        return as_tuple(key, value, _CONTRACTS_ALLOWED)
    if key == "sequence_values":
        return as_tuple(key, value, _SEQUENCES_ALLOWED)
    if key == "quad_values":
        if not isinstance(value, Mapping):
            raise RulesError(f"quad_values must be a mapping of rank to points, e.g. "
                             f"{{'9': 100}}; ranks: {', '.join(NATURAL_RANKS)}")
        merged = dict(rules.quad_values)
        for rank, pts in value.items():
            if str(rank) not in merged:
                raise RulesError(f"quad_values: unknown rank {rank!r}; ranks: "
                                 f"{', '.join(NATURAL_RANKS)}")
            merged[str(rank)] = pts
        return tuple((r, merged[r]) for r in NATURAL_RANKS)
    if key == "multipliers":
        if isinstance(value, Mapping):
            merged = dict(zip(CONTRACTS, rules.multipliers))
            for c, m in value.items():
                if c not in merged:
                    raise RulesError(f"multipliers: unknown contract {c!r}; contracts: "
                                     f"{', '.join(CONTRACTS)}")
                merged[c] = m
            return tuple(merged[c] for c in CONTRACTS)
        return as_tuple(key, value, _MULTIPLIERS_ALLOWED)
    return value


def _validate(r: Rules) -> None:
    for key in _BOOLEANS:
        if not isinstance(getattr(r, key), (bool, np.bool_)):
            raise bad_value(key, getattr(r, key), "True or False")
    for key, allowed in _CHOICES.items():
        if getattr(r, key) not in allowed:
            raise bad_value(key, getattr(r, key), ", ".join(allowed))
    if (not isinstance(r.contracts, tuple) or not r.contracts
            or any(c not in CONTRACTS for c in r.contracts) or len(set(r.contracts)) != len(r.contracts)):
        raise bad_value("contracts", r.contracts, _CONTRACTS_ALLOWED)
    if len(r.sequence_values) != 7 or not all(is_int(v) and 0 <= v <= 1000 for v in r.sequence_values):
        raise bad_value("sequence_values", r.sequence_values, _SEQUENCES_ALLOWED)
    if (len(r.quad_values) != 9 or [k for k, _ in r.quad_values] != list(NATURAL_RANKS)
            or not all(is_int(v) and 0 <= v <= 1000 for _, v in r.quad_values)):
        raise bad_value("quad_values", dict(r.quad_values), "points 0..1000 for each rank 6 7 8 9 10 J Q K A")
    if len(r.multipliers) != N_CONTRACTS or not all(is_int(m) and 1 <= m <= 100 for m in r.multipliers):
        raise bad_value("multipliers", r.multipliers, _MULTIPLIERS_ALLOWED)
    for key, hi in _INT_LIMITS.items():
        v = getattr(r, key)
        if not is_int(v) or not 0 <= v <= hi:
            raise bad_value(key, v, f"an integer 0..{hi}")
    if r.target == 0 and r.match_rounds == 0:
        raise RulesError("a match needs an end: set target > 0 or match_rounds > 0")
    try:
        spec = game_spec(r.game)
    except ValueError as e:
        raise RulesError(str(e)) from None
    _validate_for_game(r, spec)


def _validate_for_game(r: Rules, spec: GameSpec) -> None:
    """Switches the game does not have keep their fixed value; its own switches are valid."""
    for key, fixed in spec.fixed.items():
        if getattr(r, key) != fixed:
            raise RulesError(f"rule switch {key!r} does not apply to {r.game} (it is fixed at {fixed!r} "
                             f"there), got {getattr(r, key)!r}")
    names = [key for key, _ in r.own]
    declared = [s.name for s in spec.switches]
    if names != declared:
        raise RulesError(f"the own switches of {r.game} are {', '.join(declared) or 'none'}; got "
                         f"{', '.join(names) or 'none'}")
    for s, (_, value) in zip(spec.switches, r.own):
        if not s.check(value):
            raise bad_value(s.name, value, s.allowed)
    if spec.check_rules is not None:
        spec.check_rules(r)


# compiled form
# Offsets into the int64 parameter array read by the compiled engine.
RP_CONTRACTS = 0        # bitmask of allowed contracts (bit c for contract c)
RP_PUSH = 1
RP_LEADER_AFTER_PUSH = 2  # 0 forehand, 1 declarer
RP_TRUMP_INSTEAD = 3
RP_UNDERTRUMP = 4       # index into UNDERTRUMP_RULES
RP_PUUR_EXCEPTION = 5
RP_WEIS = 6
RP_WEIS_CMP = 7         # index into WEIS_COMPARISONS
RP_KREUZWEIS = 8
RP_UND_REVERSE = 9
RP_STOECK = 10
RP_MATCH_BONUS = 11
RP_TARGET = 12
RP_MATCH_ROUNDS = 13
RP_FINISH = 14          # index into MATCH_FINISHES
RP_BERGPREIS = 15
RP_FIRST_FOREHAND = 16  # index into FIRST_FOREHANDS
RP_SEQ = 17             # 7: sequence values for 3..9 cards
RP_QUAD = 24            # 9: quad value by rank offset (A K Q J 10 9 8 7 6)
RP_MULT = 33            # 6: multiplier per contract
RP_VALUES = 39          # 6 * 36: card points per contract and card id
# the game's shape (its GameSpec)
RP_KIND = RP_VALUES + N_CONTRACTS * N_CARDS   # the game's number (spec.kind)
RP_PLAYERS = RP_KIND + 1
RP_TEAMS = RP_KIND + 2        # index into spec.TEAM_MODES
RP_HAND_SIZE = RP_KIND + 3
RP_TRICKS = RP_KIND + 4
RP_DECK = RP_KIND + 5         # 36-bit mask; the deal skips the cards not in it
#: the game's own switches start here (GameSpec.pack)
RP_GAME = RP_KIND + 6


def _params(r: Rules) -> np.ndarray:
    spec = r.spec
    own = list(spec.pack(r)) if spec.pack is not None else []
    p = np.zeros(RP_GAME + len(own), dtype=np.int64)
    p[RP_CONTRACTS] = sum(1 << CONTRACTS.index(c) for c in r.contracts)
    p[RP_PUSH] = int(r.push)
    p[RP_LEADER_AFTER_PUSH] = LEADERS_AFTER_PUSH.index(r.leader_after_push)
    p[RP_TRUMP_INSTEAD] = int(r.may_trump_instead_of_following)
    p[RP_UNDERTRUMP] = UNDERTRUMP_RULES.index(r.undertrump_rule)
    p[RP_PUUR_EXCEPTION] = int(r.puur_exception)
    p[RP_WEIS] = int(r.weis)
    p[RP_WEIS_CMP] = WEIS_COMPARISONS.index(r.weis_comparison)
    p[RP_KREUZWEIS] = int(r.kreuzweis)
    p[RP_UND_REVERSE] = int(r.undenufe_reverse_weis_rank)
    p[RP_STOECK] = r.stoeck
    p[RP_MATCH_BONUS] = r.match_bonus
    p[RP_TARGET] = r.target
    p[RP_MATCH_ROUNDS] = r.match_rounds
    p[RP_FINISH] = MATCH_FINISHES.index(r.match_finish)
    p[RP_BERGPREIS] = r.bergpreis
    p[RP_FIRST_FOREHAND] = FIRST_FOREHANDS.index(r.first_forehand)
    p[RP_SEQ:RP_SEQ + 7] = r.sequence_values
    quads = dict(r.quad_values)
    p[RP_QUAD:RP_QUAD + 9] = [quads[rank] for rank in RANKS]
    p[RP_MULT:RP_MULT + N_CONTRACTS] = r.multipliers
    for c in range(N_CONTRACTS):
        p[RP_VALUES + N_CARDS * c:RP_VALUES + N_CARDS * (c + 1)] = card_values(c, r.ou_card_values)
    p[RP_KIND] = spec.kind
    p[RP_PLAYERS] = spec.players
    p[RP_TEAMS] = spec.teams
    p[RP_HAND_SIZE] = spec.hand_size
    p[RP_TRICKS] = spec.tricks
    p[RP_DECK] = spec.deck
    p[RP_GAME:] = own
    return p
