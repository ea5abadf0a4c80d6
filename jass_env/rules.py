"""Rules as data: the rule switches, the presets of every game, and their compiled form.

A :class:`Rules` object is an immutable set of switches for one game of the family (``Rules.game``
names its :class:`~jass_env.spec.GameSpec`). ``Rules.preset("seed_nl")`` gives a preset,
``make_rules("schieber", stoeck=0)`` a preset with switches changed on top. Unknown presets or
switches and bad values raise :class:`RulesError`, whose message lists what is valid.

The compiled core never sees this class: :meth:`Rules.params` packs every switch, and the card
values and multipliers per contract, into one ``int64`` array (offsets ``RP_*`` below) that the
numba functions in :mod:`jass_env.core` read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .cards import CONTRACTS, NATURAL_RANKS, RANKS
from .spec import COIFFEUR_ROW_LABELS, KIND_COIFFEUR, KIND_SCHIEBER, KIND_SIDI, SPECS, GameSpec


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
#: how trump is fixed: "chosen" (Schieber's contract phase), "bottom_card" (the suit of a card of
#: the dealer's hand, shown to all), "random_suit" (drawn, no card shown)
TRUMP_MODES = ("chosen", "bottom_card", "random_suit")
TRUMP_CHOSEN, TRUMP_BOTTOM_CARD, TRUMP_RANDOM_SUIT = range(3)
# --- Mittlere and Molotow (issue 17): "first_discard" = the suit of the first card played by a
# player who cannot follow (jass_env.first_discard); appended, the numbers above are unchanged
TRUMP_MODES = TRUMP_MODES + ("first_discard",)
TRUMP_FIRST_DISCARD = 3
#: Mittlere/Molotow, a hand in which nobody ever discards: "obenabe" (it counts with Obenabe
#: ranking and values) or "annul" (every player scores 0 for it)
NO_TRUMP_HANDS = ("obenabe", "annul")
NO_TRUMP_OBENABE, NO_TRUMP_ANNUL = range(2)
# --- end Mittlere and Molotow
# --- Sidi (project rules): "open_card" = the suit of the card turned face up under the stock
TRUMP_MODES = TRUMP_MODES + ("open_card",)
TRUMP_OPEN_CARD = 4
# --- end Sidi
#: Differenzler predictions: "hidden" until the round ends, or "open" once made
PREDICTIONS = ("hidden", "open")
#: Differenzler's -10 for an exact 0: "never", or "zero_point_trick" (with a trick won)
ZERO_BID_BONUSES = ("never", "zero_point_trick")
ZERO_BID_NEVER, ZERO_BID_ZERO_POINT_TRICK = range(2)
# ---- Coiffeur (issue 15)
#: Coiffeur Weis and Stöck: "off" (Swisslos), or "except_joker" (scored, times the row factor,
#: in every row but the Joker rows)
COIFFEUR_WEIS = ("off", "except_joker")
CO_WEIS_OFF, CO_WEIS_EXCEPT_JOKER = range(2)
#: Slalom and Guschti card values: those of the "starting" direction for every trick, or "per_trick"
SLALOM_VALUES = ("starting", "per_trick")
SLALOM_VALUES_STARTING, SLALOM_VALUES_PER_TRICK = range(2)
#: the switches only Coiffeur has (left out of other games' switches())
COIFFEUR_SWITCHES = ("row_factors", "kontermatsch_penalty", "match_premium", "coiffeur_weis", "slalom_values")

_OFFICIAL_QUADS = {"6": 100, "7": 100, "8": 100, "9": 150, "10": 100, "J": 200, "Q": 100,
                   "K": 100, "A": 100}


@dataclass(frozen=True)
class Rules:
    """Every rule switch (docs/rules.md, docs/differenzler.md). Field docs give the allowed values;
    defaults = ``schieber``."""

    name: str = "schieber"
    #: the game these rules are for (a name in :data:`jass_env.spec.SPECS`)
    game: str = "schieber"
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
    quad_values: tuple[tuple[str, int], ...] = tuple(_OFFICIAL_QUADS.items())
    #: "standard" (points, cards, top card, trump, position), "vaud" (quads first, ..., suit
    #: order H > C > S > D), "no_top_card" (standard without the top-card step, as Swisslos)
    weis_comparison: str = "standard"
    #: a card may belong to a sequence and a four of a kind at once
    kreuzweis: bool = True
    #: in Undenufe the top-card step of the Weis comparison is reversed (6-7-8 best)
    undenufe_reverse_weis_rank: bool = True
    #: Stöck value (trump K+Q in one hand), 0 = off
    stoeck: int = 20
    #: bonus for taking all 9 tricks
    match_bonus: int = 100
    #: multiplier per contract, in CONTRACTS order (D H S C obenabe undenufe)
    multipliers: tuple[int, ...] = (1, 1, 1, 1, 1, 1)
    #: match target score (0 = no target; then `match_rounds` ends the match)
    target: int = 1000
    #: fixed number of rounds of a match (tournament play); 0 = play to the target
    match_rounds: int = 0
    #: "official": a team reaching the target wins at that moment (Stöck - Weis - tricks);
    #: "round_end": at the end of a round the higher total wins, an exact tie plays one more round
    match_finish: str = "official"
    #: who is forehand in the first round of a match: "random" or "D7" (holder of the ♦7)
    first_forehand: str = "random"
    #: Bergpreis bonus for the first team past half the target (0 = off)
    bergpreis: int = 0
    #: how trump is fixed: "chosen" (Schieber), "bottom_card" or "random_suit" (Differenzler)
    trump_mode: str = "chosen"
    #: Differenzler: predictions "hidden" until the round ends, or "open" once made
    predictions: str = "hidden"
    #: Differenzler: "never", or "zero_point_trick" (an exact 0 with a trick won also gets -10)
    zero_bid_bonus: str = "never"
    # ---- Coiffeur (issue 15)
    #: Coiffeur: the factor of each row of the game's sheet, in the spec's row order
    row_factors: tuple[int, ...] = ()
    #: Coiffeur: a Kontermatsch (the defenders take all 9 tricks) writes -penalty x factor
    kontermatsch_penalty: int = 0
    #: Coiffeur: added, unmultiplied, to the row of a declaring team that took all 9 tricks
    match_premium: int = 0
    #: Coiffeur Weis and Stöck: "off" or "except_joker"
    coiffeur_weis: str = "off"
    #: Coiffeur Slalom and Guschti card values: "starting" direction's, or "per_trick"
    slalom_values: str = "starting"
    #: Mittlere/Molotow: a hand without any discard counts with Obenabe values ("obenabe") or
    #: scores 0 for everyone ("annul")
    no_trump_hand: str = "obenabe"

    # ------------------------------------------------------------------ construction
    @staticmethod
    def preset(name: str) -> Rules:
        """A preset by name: schieber, schieber_2500, tournament, seed_nl, seed_vaud (Schieber),
        differenzler, differenzler3, coiffeur, coiffeur6, coiffeur10, mittlere, molotow, molotow3,
        sidi, schieber6, molotow5, molotow6."""
        if name not in PRESETS:
            raise RulesError(f"unknown rules preset {name!r}; valid presets: {', '.join(PRESETS)}")
        return PRESETS[name]

    def replace(self, **switches: Any) -> Rules:
        """A copy with some switches changed; each value is validated."""
        known = {f.name for f in dataclasses.fields(self)} - {"name", "game"}
        unknown = sorted(set(switches) - known)
        if unknown:
            raise RulesError(f"unknown rule switch(es) {', '.join(map(repr, unknown))}; "
                             f"valid switches: {', '.join(sorted(known))}")
        values = {k: _coerce(k, v, self) for k, v in switches.items()}
        return dataclasses.replace(self, **values)

    def __post_init__(self) -> None:
        _validate(self)

    # ------------------------------------------------------------------ views
    def switches(self) -> dict[str, Any]:
        """All switches as plain JSON-able values (for records, configs and printing)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name in ("name", "game"):
                continue
            if f.name in COIFFEUR_SWITCHES and self.spec.kind != KIND_COIFFEUR:
                continue              # Coiffeur's own switches exist only in Coiffeur
            v = getattr(self, f.name)
            if f.name == "quad_values":
                v = dict(v)
            elif f.name == "multipliers":
                v = dict(zip(CONTRACTS, v))
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out

    def overrides(self) -> dict[str, Any]:
        """The switches that differ from the preset named by ``self.name`` (if it is a preset)."""
        base = PRESETS.get(self.name, SCHIEBER).switches()
        return {k: v for k, v in self.switches().items() if base[k] != v}

    def multiplier(self, contract: int) -> int:
        return self.multipliers[contract]

    @property
    def spec(self) -> GameSpec:
        """The game these rules are for."""
        return SPECS[self.game]

    @cached_property
    def params(self) -> np.ndarray:
        """The compiled form read by :mod:`jass_env.core` (int64, length ``RP_SIZE``); do not modify."""
        return _params(self)


def make_rules(rules: str | Rules | None = None, *, players: int | None = None, **switches: Any) -> Rules:
    """A preset name (default ``schieber``) or a Rules object, with switches changed on top.

    ``players`` picks the game of the same family for that many players, for the games offered
    for several player counts (:data:`PLAYER_COUNT_GAMES`: Molotow for 3, 4, 5 or 6): e.g.
    ``make_rules("molotow", players=5)`` is the ``molotow5`` preset, with the switches that
    ``rules`` changed from its own preset kept.
    """
    if players is not None:
        rules = with_players(make_rules(rules), players)
    if rules is None:
        base = SCHIEBER
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, str):
        base = Rules.preset(rules)
    else:
        raise RulesError(f"rules must be a preset name ({', '.join(PRESETS)}) or a Rules object, "
                         f"not {type(rules).__name__}")
    return base.replace(**switches) if switches else base


# ---------------------------------------------------------------------- validation
_CONTRACTS_ALLOWED = f"a non-empty list without repeats from {', '.join(CONTRACTS)}"
_SEQUENCES_ALLOWED = "7 integers 0..1000: the points of sequences of 3, 4, 5, 6, 7, 8, 9 cards"
_MULTIPLIERS_ALLOWED = f"an integer 1..100 for each of {', '.join(CONTRACTS)}"


def _as_tuple(key: str, value: Any, allowed: str) -> tuple:
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"bad value {value!r} for rule switch {key!r}; allowed: {allowed}")
    return tuple(value)


def _coerce(key: str, value: Any, rules: Rules) -> Any:
    """Bring a user value into the field's stored form (lists to tuples, dicts merged)."""
    if key == "contracts":
        if isinstance(value, str):
            value = (value,)
        return _as_tuple(key, value, _CONTRACTS_ALLOWED)
    if key == "sequence_values":
        return _as_tuple(key, value, _SEQUENCES_ALLOWED)
    if key == "row_factors":          # Coiffeur: a list in row order, or {label: factor} merged
        if isinstance(value, Mapping):
            merged = dict(zip(rules.spec.rows, rules.row_factors))
            for label, f in value.items():
                if label not in merged:
                    raise RulesError(f"row_factors: unknown row {label!r}; rows of {rules.game}: "
                                     f"{', '.join(rules.spec.rows) or 'none'}")
                merged[label] = f
            return tuple(merged[label] for label in rules.spec.rows)
        return _as_tuple(key, value, _row_factors_allowed(rules.spec))
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
        return _as_tuple(key, value, _MULTIPLIERS_ALLOWED)
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _validate(r: Rules) -> None:
    def bad(key: str, value: Any, allowed: str) -> RulesError:
        return RulesError(f"bad value {value!r} for rule switch {key!r}; allowed: {allowed}")

    for key in ("push", "ou_card_values", "may_trump_instead_of_following", "puur_exception",
                "weis", "kreuzweis", "undenufe_reverse_weis_rank"):
        if not isinstance(getattr(r, key), (bool, np.bool_)):
            raise bad(key, getattr(r, key), "True or False")
    choices = {"undertrump_rule": UNDERTRUMP_RULES, "weis_comparison": WEIS_COMPARISONS,
               "match_finish": MATCH_FINISHES, "first_forehand": FIRST_FOREHANDS,
               "leader_after_push": LEADERS_AFTER_PUSH, "trump_mode": TRUMP_MODES,
               "predictions": PREDICTIONS, "zero_bid_bonus": ZERO_BID_BONUSES,
               "coiffeur_weis": COIFFEUR_WEIS, "slalom_values": SLALOM_VALUES,
               "no_trump_hand": NO_TRUMP_HANDS}
    for key, allowed in choices.items():
        if getattr(r, key) not in allowed:
            raise bad(key, getattr(r, key), ", ".join(allowed))
    if (not isinstance(r.contracts, tuple) or not r.contracts
            or any(c not in CONTRACTS for c in r.contracts) or len(set(r.contracts)) != len(r.contracts)):
        raise bad("contracts", r.contracts, _CONTRACTS_ALLOWED)
    if len(r.sequence_values) != 7 or not all(_is_int(v) and 0 <= v <= 1000 for v in r.sequence_values):
        raise bad("sequence_values", r.sequence_values, _SEQUENCES_ALLOWED)
    if (len(r.quad_values) != 9 or [k for k, _ in r.quad_values] != list(NATURAL_RANKS)
            or not all(_is_int(v) and 0 <= v <= 1000 for _, v in r.quad_values)):
        raise bad("quad_values", dict(r.quad_values), "points 0..1000 for each rank 6 7 8 9 10 J Q K A")
    if len(r.multipliers) != 6 or not all(_is_int(m) and 1 <= m <= 100 for m in r.multipliers):
        raise bad("multipliers", r.multipliers, _MULTIPLIERS_ALLOWED)
    for key, hi in (("stoeck", 1000), ("match_bonus", 1000), ("target", 100_000),
                    ("match_rounds", 10_000), ("bergpreis", 10_000), ("kontermatsch_penalty", 1000),
                    ("match_premium", 1000)):
        v = getattr(r, key)
        if not _is_int(v) or not 0 <= v <= hi:
            raise bad(key, v, f"an integer 0..{hi}")
    if r.target == 0 and r.match_rounds == 0:
        raise RulesError("a match needs an end: set target > 0 or match_rounds > 0")
    if r.game not in SPECS:
        raise RulesError(f"unknown game {r.game!r}; games: {', '.join(SPECS)}")
    _validate_for_game(r)


#: switches a game does not have, with the one value they must keep there
_FIXED_IN_GAME: dict[str, dict[str, Any]] = {
    "schieber": {"predictions": "hidden", "zero_bid_bonus": "never", "no_trump_hand": "obenabe"},
    "differenzler": {"contracts": ("D", "H", "S", "C"), "push": False, "weis": False, "stoeck": 0,
                     "match_bonus": 0, "multipliers": (1, 1, 1, 1, 1, 1), "target": 0,
                     "bergpreis": 0, "first_forehand": "random", "leader_after_push": "forehand",
                     "no_trump_hand": "obenabe"},
}
_FIXED_IN_GAME["differenzler3"] = _FIXED_IN_GAME["differenzler"]
#: the trump modes each game allows
_TRUMP_MODES_OF_GAME = {"schieber": ("chosen",), "differenzler": ("bottom_card", "random_suit"),
                        "differenzler3": ("bottom_card", "random_suit")}
# ---- Coiffeur (issue 15): the declarer leads; the rows' factors replace the multipliers; Weis
# and Stöck only through coiffeur_weis; a game is one deal per row of both sheets
for _game in ("coiffeur", "coiffeur6", "coiffeur10"):
    _FIXED_IN_GAME[_game] = {"predictions": "hidden", "zero_bid_bonus": "never", "contracts": CONTRACTS,
                             "push": True, "leader_after_push": "declarer", "weis": False,
                             "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0,
                             "first_forehand": "random", "match_finish": "official",
                             "match_rounds": 2 * len(SPECS[_game].rows)}
    _TRUMP_MODES_OF_GAME[_game] = ("chosen",)


def _row_factors_allowed(spec: GameSpec) -> str:
    return (f"one integer 1..100 per row of {spec.name} ({', '.join(spec.rows)}), as a list in that "
            f"order or a dict {{row: factor}}")


_RULES_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _validate_coiffeur(r: Rules) -> None:
    """Coiffeur's switches: a factor per row in Coiffeur, their defaults in every other game."""
    if r.spec.kind != KIND_COIFFEUR:
        for key in COIFFEUR_SWITCHES:
            default = _RULES_FIELDS[key].default
            if getattr(r, key) != default:
                raise RulesError(f"rule switch {key!r} is Coiffeur's and does not apply to {r.game}, "
                                 f"got {getattr(r, key)!r}")
        return
    rows = r.spec.rows
    if (not isinstance(r.row_factors, tuple) or len(r.row_factors) != len(rows)
            or not all(_is_int(f) and 1 <= f <= 100 for f in r.row_factors)):
        raise RulesError(f"bad value {r.row_factors!r} for rule switch 'row_factors'; allowed: "
                         f"{_row_factors_allowed(r.spec)}")
# --- Mittlere and Molotow (issue 17): no contract phase, no predictions; Obenabe values before
# trump is fixed (8 = 8); Mittlere has no Weis and no Stöck, Molotow keeps both (hand Weis minus,
# table Weis plus, Stöck minus: jass_env.molotow)
_FIXED_IN_DISCARD_GAMES = {"contracts": ("D", "H", "S", "C"), "push": False, "match_bonus": 0,
                           "multipliers": (1, 1, 1, 1, 1, 1), "target": 0, "bergpreis": 0,
                           "first_forehand": "random", "leader_after_push": "forehand",
                           "predictions": "hidden", "zero_bid_bonus": "never", "ou_card_values": True}
_FIXED_IN_GAME["mittlere"] = {**_FIXED_IN_DISCARD_GAMES, "weis": False, "stoeck": 0}
_FIXED_IN_GAME["molotow"] = _FIXED_IN_GAME["molotow3"] = _FIXED_IN_DISCARD_GAMES
for _game in ("mittlere", "molotow", "molotow3"):
    _TRUMP_MODES_OF_GAME[_game] = ("first_discard",)
# --- end Mittlere and Molotow


def _validate_for_game(r: Rules) -> None:
    """Switches that do not exist in ``r.game`` must keep their fixed value there."""
    for key, fixed in _FIXED_IN_GAME[r.game].items():
        if getattr(r, key) != fixed:
            raise RulesError(f"rule switch {key!r} does not apply to {r.game} (it is fixed at {fixed!r} "
                             f"there), got {getattr(r, key)!r}")
    if r.trump_mode not in _TRUMP_MODES_OF_GAME[r.game]:
        raise RulesError(f"bad value {r.trump_mode!r} for rule switch 'trump_mode' in {r.game}; "
                         f"allowed: {', '.join(_TRUMP_MODES_OF_GAME[r.game])}")
    _validate_coiffeur(r)
    if r.spec.kind not in (KIND_SCHIEBER, KIND_SIDI) and r.match_rounds == 0:   # Sidi: to a target
        raise RulesError(f"bad value 0 for rule switch 'match_rounds' in {r.game}: a game is a fixed "
                         f"number of rounds; allowed: an integer 1..10000")


# ---------------------------------------------------------------------- presets
SCHIEBER = Rules()
PRESETS: dict[str, Rules] = {
    "schieber": SCHIEBER,
    "schieber_2500": dataclasses.replace(SCHIEBER, name="schieber_2500", multipliers=(1, 1, 2, 2, 3, 3),
                                         target=2500),
    "tournament": dataclasses.replace(SCHIEBER, name="tournament", weis=False, stoeck=0, match_bonus=0,
                                      target=0, match_rounds=12),
    "seed_nl": dataclasses.replace(
        SCHIEBER, name="seed_nl", may_trump_instead_of_following=False,
        undertrump_rule="unless_partner_winning", sequence_values=(20, 50, 100, 100, 100, 100, 100),
        quad_values=tuple({**_OFFICIAL_QUADS, "6": 0, "7": 0, "8": 0, "9": 100}.items()),
        multipliers=(3, 2, 1, 1, 3, 4), match_finish="round_end"),
    "seed_vaud": dataclasses.replace(
        SCHIEBER, name="seed_vaud", contracts=("D", "H", "S", "C"),
        sequence_values=(20, 50, 100, 100, 100, 100, 100), weis_comparison="vaud", first_forehand="D7"),
}
# Differenzler: everyone alone predicts his own points; trump from the dealer's bottom card; the
# under-trump ban only for a player who holds the led suit; no Weis, Stöck or Match bonus; a game
# is 12 rounds (lowest total penalty wins, a tie plays one more round).
DIFFERENZLER = dataclasses.replace(
    SCHIEBER, name="differenzler", game="differenzler", **_FIXED_IN_GAME["differenzler"],
    undertrump_rule="only_if_void", match_rounds=12, trump_mode="bottom_card")
PRESETS["differenzler"] = DIFFERENZLER
PRESETS["differenzler3"] = dataclasses.replace(DIFFERENZLER, name="differenzler3", game="differenzler3")
# ---- Coiffeur (issue 15): each row's factor is its place on the sheet (S 1, C 2, D 3, H 4, ...)
for _game in ("coiffeur", "coiffeur6", "coiffeur10"):
    PRESETS[_game] = dataclasses.replace(SCHIEBER, name=_game, game=_game, **_FIXED_IN_GAME[_game],
                                         row_factors=tuple(range(1, len(SPECS[_game].rows) + 1)))
# --- Mittlere and Molotow (issue 17): trump by the first discard, the under-trump ban only for a
# player who holds the led suit; Mittlere: 12 hands a game (each of the 3 players deals four
# times); Molotow: 8 hands, with hand Weis (all of them, Kreuzweis) and Stöck 20
MITTLERE = dataclasses.replace(
    SCHIEBER, name="mittlere", game="mittlere", **_FIXED_IN_GAME["mittlere"],
    undertrump_rule="only_if_void", match_rounds=12, trump_mode="first_discard")
PRESETS["mittlere"] = MITTLERE
MOLOTOW = dataclasses.replace(
    SCHIEBER, name="molotow", game="molotow", **_FIXED_IN_GAME["molotow"],
    undertrump_rule="only_if_void", match_rounds=8, trump_mode="first_discard")
PRESETS["molotow"] = MOLOTOW
PRESETS["molotow3"] = dataclasses.replace(MOLOTOW, name="molotow3", game="molotow3")
# --- end Mittlere and Molotow
# --- Sidi-Jass for two (project rules, docs/sidi.md): trump by the open card; card play, Weis,
# Stöck, the bonus for all 18 tricks (match_bonus) and the game to the target (1000, official
# finish) as Schieber's switches say; what has no meaning for two players alone stays fixed
_FIXED_IN_GAME["sidi"] = {"contracts": ("D", "H", "S", "C"), "push": False, "leader_after_push": "forehand",
                          "multipliers": (1, 1, 1, 1, 1, 1), "bergpreis": 0, "first_forehand": "random",
                          "predictions": "hidden", "zero_bid_bonus": "never", "no_trump_hand": "obenabe",
                          "ou_card_values": True}
_TRUMP_MODES_OF_GAME["sidi"] = ("open_card",)
PRESETS["sidi"] = dataclasses.replace(SCHIEBER, name="sidi", game="sidi", **_FIXED_IN_GAME["sidi"],
                                      trump_mode="open_card")
# --- end Sidi
# ---- Schieber for six (docs/schieber6.md): Schieber's rules and every Schieber switch, for six
# players in two teams of three; its own preset, so SCHIEBER_PRESETS stays the 4-player game's
_FIXED_IN_GAME["schieber6"] = _FIXED_IN_GAME["schieber"]
_TRUMP_MODES_OF_GAME["schieber6"] = _TRUMP_MODES_OF_GAME["schieber"]
PRESETS["schieber6"] = dataclasses.replace(SCHIEBER, name="schieber6", game="schieber6")
# ---- end Schieber for six
# ---- Molotow for five and six (issue 17): Molotow's rules; five play without the ♠7
for _game in ("molotow5", "molotow6"):
    _FIXED_IN_GAME[_game] = _FIXED_IN_DISCARD_GAMES
    _TRUMP_MODES_OF_GAME[_game] = ("first_discard",)
    PRESETS[_game] = dataclasses.replace(MOLOTOW, name=_game, game=_game)
#: the games offered for several player counts: {family: {players: game}}; each game's preset
#: has the game's name. make_rules(..., players=n) moves between them.
PLAYER_COUNT_GAMES: dict[str, dict[int, str]] = {
    "molotow": {3: "molotow3", 4: "molotow", 5: "molotow5", 6: "molotow6"}}
# ---- end Molotow for five and six


def with_players(rules: Rules, players: int) -> Rules:
    """``rules`` for the game of its family played by ``players`` (see :data:`PLAYER_COUNT_GAMES`):
    that game's preset with every switch set as in ``rules``. RulesError when the game has no
    player-count choice or the count is not offered."""
    family = next((f for f, games in PLAYER_COUNT_GAMES.items() if rules.game in games.values()), None)
    if family is None:
        offered = "; ".join(f"{f}: {', '.join(map(str, games))} players"
                            for f, games in PLAYER_COUNT_GAMES.items())
        raise RulesError(f"the 'players' switch does not apply to {rules.game} (it is played by "
                         f"{rules.spec.players} players only); games with a choice of players: {offered}")
    games = PLAYER_COUNT_GAMES[family]
    if not _is_int(players) or players not in games:
        raise RulesError(f"bad value {players!r} for rule switch 'players' in {family}; allowed: "
                         f"{', '.join(map(str, games))}")
    target = Rules.preset(games[players])
    preset_switches = target.switches()
    return target.replace(**{k: v for k, v in rules.switches().items() if preset_switches[k] != v})


def presets_of(game: str) -> tuple[str, ...]:
    """The names of the presets for one game."""
    return tuple(name for name, r in PRESETS.items() if r.game == game)


SCHIEBER_PRESETS = presets_of("schieber")


# ---------------------------------------------------------------------- compiled form
# Offsets into the int64 parameter array read by the compiled core.
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
# the game's facts (from its GameSpec) and the variant switches
RP_KIND = RP_VALUES + 6 * 36  # rules family, spec.KIND_*
RP_PLAYERS = RP_KIND + 1
RP_TEAMS = RP_KIND + 2        # index into spec.TEAM_MODES
RP_HAND_SIZE = RP_KIND + 3
RP_TRICKS = RP_KIND + 4
RP_TRUMP_MODE = RP_KIND + 5   # index into TRUMP_MODES
RP_PREDICTIONS_OPEN = RP_KIND + 6
RP_ZERO_BID = RP_KIND + 7     # index into ZERO_BID_BONUSES
# ---- Coiffeur (issue 15), appended
RP_CO_FACTOR = RP_KIND + 8    # 10: factor per Coiffeur row id (spec.COIFFEUR_ROW_LABELS), 0 = no such row
RP_CO_KONTER_PENALTY = RP_CO_FACTOR + len(COIFFEUR_ROW_LABELS)
RP_CO_MATCH_PREMIUM = RP_CO_KONTER_PENALTY + 1
RP_CO_WEIS = RP_CO_KONTER_PENALTY + 2         # index into COIFFEUR_WEIS
RP_CO_SLALOM_VALUES = RP_CO_KONTER_PENALTY + 3  # index into SLALOM_VALUES
# --- Mittlere and Molotow (issue 17)
RP_NO_TRUMP_HAND = RP_CO_KONTER_PENALTY + 4  # index into NO_TRUMP_HANDS
# --- end Mittlere and Molotow
# ---- Molotow for five (issue 17): the cards of the deck (spec.GameSpec.deck), appended
RP_DECK = RP_NO_TRUMP_HAND + 1  # 36-bit mask; the deal skips the cards not in it
RP_SIZE = RP_DECK + 1

# Card points by rank offset (A K Q J 10 9 8 7 6), docs/rules.md "The deck".
TRUMP_POINTS = (11, 4, 3, 20, 10, 14, 0, 0, 0)
PLAIN_POINTS = (11, 4, 3, 2, 10, 0, 0, 0, 0)
OBENABE_POINTS = (11, 4, 3, 2, 10, 0, 8, 0, 0)
UNDENUFE_POINTS = (0, 4, 3, 2, 10, 0, 8, 0, 11)


def card_values(contract: int, ou_card_values: bool = True) -> np.ndarray:
    """Points of each card id (length 36) under a contract (0..5)."""
    out = np.zeros(36, dtype=np.int64)
    for s in range(4):
        if contract < 4:
            table = TRUMP_POINTS if s == contract else PLAIN_POINTS
        elif not ou_card_values:
            table = PLAIN_POINTS
        else:
            table = OBENABE_POINTS if contract == 4 else UNDENUFE_POINTS
        out[9 * s:9 * s + 9] = table
    return out


def _params(r: Rules) -> np.ndarray:
    p = np.zeros(RP_SIZE, dtype=np.int64)
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
    p[RP_MULT:RP_MULT + 6] = r.multipliers
    for c in range(6):
        p[RP_VALUES + 36 * c:RP_VALUES + 36 * (c + 1)] = card_values(c, r.ou_card_values)
    spec = r.spec
    p[RP_KIND] = spec.kind
    p[RP_PLAYERS] = spec.players
    p[RP_TEAMS] = spec.teams
    p[RP_HAND_SIZE] = spec.hand_size
    p[RP_TRICKS] = spec.tricks
    p[RP_TRUMP_MODE] = TRUMP_MODES.index(r.trump_mode)
    p[RP_PREDICTIONS_OPEN] = PREDICTIONS.index(r.predictions)
    p[RP_ZERO_BID] = ZERO_BID_BONUSES.index(r.zero_bid_bonus)
    # ---- Coiffeur (issue 15)
    for label, factor in zip(spec.rows, r.row_factors):
        p[RP_CO_FACTOR + COIFFEUR_ROW_LABELS.index(label)] = factor
    p[RP_CO_KONTER_PENALTY] = r.kontermatsch_penalty
    p[RP_CO_MATCH_PREMIUM] = r.match_premium
    p[RP_CO_WEIS] = COIFFEUR_WEIS.index(r.coiffeur_weis)
    p[RP_CO_SLALOM_VALUES] = SLALOM_VALUES.index(r.slalom_values)
    p[RP_NO_TRUMP_HAND] = NO_TRUMP_HANDS.index(r.no_trump_hand)
    p[RP_DECK] = spec.deck
    return p


__all__ = ["Rules", "RulesError", "make_rules", "PRESETS", "SCHIEBER_PRESETS", "presets_of", "card_values",
           "PLAYER_COUNT_GAMES", "with_players"]
