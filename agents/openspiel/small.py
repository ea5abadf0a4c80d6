"""Small variants of the games for tabular methods (CFR, exact exploitability): a reduced deck and 2
or 3 cards a player, derived from any preset.

>>> from agents.openspiel.small import small_rules
>>> rules = small_rules("molotow3", cards_per_player=2)   # ♦A ♦K ♥A ♥K ♠A ♠K, 2 cards each
>>> rules.spec.hand_size, rules.spec.tricks, rules.spec.removed[:3]
(2, 2, ('DQ', 'DJ', 'D10'))

A small variant is the preset's game with the same rules (every switch of the preset, the same
actions, scoring and observation layout), played with fewer cards: its
:class:`~jass_env.engine.spec.GameSpec` is the preset's with ``hand_size`` and ``tricks`` set to
the cards a player holds and the other cards ``removed`` from the deck, registered with the engine
at run time (:func:`jass_env.engine.spec.register_spec`) under a name of its own, and its rules are
the preset's renamed to that spec. Nothing here names a game: only games that deal their whole
deck and play every card dealt (as many tricks as cards in a hand, no stock) have small variants,
and only where the game's rules play a spec of another name (Coiffeur's sheets are looked up by
the spec's name); the others are refused with the reason.

As an OpenSpiel game, registered when this module is imported:
``pyspiel.load_game("python_jass_small(rules=molotow3,cards_per_player=2)")`` (:class:`SmallJassGame`;
parameters ``rules`` a preset, ``cards_per_player``, ``cards`` the deck's
cards, space-separated, "" for the default). Where a variant has at most :data:`MAX_DEALS` deals
its chance is one node with a deal per outcome (its probability the engine's: every deal of hands
equally likely, the dealer and the game's draws as the rules draw them), which keeps the game tree
small for CFR; beyond that the deal is chance node by chance node, as in every Jass game
(:mod:`agents.openspiel.deal`).

The deck, unless given, is the highest cards (A, K, Q, ... of the deck) of the first suits (♦, ♥,
♠, ♣): as many ranks of each suit as it takes to fill the four suits evenly, suit after suit (six
cards: A and K of ♦, ♥ and ♠; eight: A and K of every suit). Card points, Weis and the bonus for
the last trick count as in the preset, so a score's total is what the small deck's cards make.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil, factorial
from typing import Any

import numpy as np
import pyspiel

from jass_env.engine.cards import N_CARDS, N_RANKS, N_SUITS, card_id, card_name, names_of, popcount
from jass_env.engine.spec import MAX_PLAYERS, SPECS, GameSpec, register_spec
from jass_env.engine.switches import Rules, is_int
from jass_env.games import make_rules
from jass_env.round import Round

from .deal import MAX_CHANCE_OUTCOMES, Dealing
from .game import (
    MIN_PLAYERS,
    Facts,
    JassGame,
    JassObserver,
    JassState,
    game_type,
    utility_sum,
)

#: the fewest cards a player of a small variant holds
MIN_CARDS_PER_PLAYER = 1
#: what joins the preset's name and the cards a player holds in a small variant's name
SMALL_TAG = "_small"
#: the OpenSpiel game of the small variants and its parameters (with their defaults)
SMALL_GAME_NAME = "python_jass_small"
SMALL_PARAMETERS = {"rules": "molotow3", "cards_per_player": 2, "cards": ""}
#: the most deals a small game's one chance node lists (more: a chance node per card)
MAX_DEALS = 20_000


def whole_deck_dealt(spec: GameSpec) -> bool:
    """Whether a game deals its whole deck and plays every card dealt: every card of the deck is
    in a hand and a round has as many tricks as a hand has cards (no stock to draw from)."""
    return spec.players * spec.hand_size == popcount(spec.deck) and spec.tricks == spec.hand_size


def default_cards(spec: GameSpec, n_cards: int) -> tuple[int, ...]:
    """The ``n_cards`` highest cards of the first suits of ``spec``'s deck: the top
    ``ceil(n_cards / 4)`` cards of ♦, then of ♥, ♠, ♣, until there are ``n_cards`` (card ids,
    ascending). ValueError when the deck has fewer cards."""
    if n_cards > popcount(spec.deck):
        raise ValueError(f"{spec.name}'s deck has {popcount(spec.deck)} cards, not {n_cards}")
    per_suit = ceil(n_cards / N_SUITS)
    while True:
        chosen: list[int] = []
        for suit in range(N_SUITS):
            in_deck = [c for c in range(N_RANKS * suit, N_RANKS * (suit + 1)) if spec.deck >> c & 1]
            chosen += in_deck[:per_suit][:n_cards - len(chosen)]
        if len(chosen) == n_cards:
            return tuple(sorted(chosen))
        per_suit += 1            # a suit with cards removed from the deck: take one rank more


def _card_ids(cards: Sequence[str | int], spec: GameSpec) -> tuple[int, ...]:
    """Card names or ids as sorted ids of ``spec``'s deck; ValueError says which card is not."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise ValueError(f"cards must be a list of card names or ids (e.g. ['HA', 'HK']), got {cards!r}")
    ids = []
    for c in cards:
        if is_int(c) and 0 <= c < N_CARDS:
            ids.append(int(c))
        elif isinstance(c, str):
            ids.append(card_id(c))           # ValueError names the card and the valid names
        else:
            raise ValueError(f"a card is a name such as 'HA' or an id 0..{N_CARDS - 1}, got {c!r}")
    if len(set(ids)) != len(ids):
        twice = sorted({card_name(c) for c in ids if ids.count(c) > 1})
        raise ValueError(f"each card is given once; given twice: {', '.join(twice)}")
    outside = [card_name(c) for c in ids if not spec.deck >> c & 1]
    if outside:
        raise ValueError(f"{', '.join(outside)} not in the {spec.name} deck (it has no "
                         f"{', '.join(spec.removed)})")
    return tuple(sorted(ids))


def small_name(rules: Rules, cards_per_player: int, cards: Sequence[int] | None = None) -> str:
    """The name of a small variant: the preset's name, ``_small`` and the cards a player holds
    (``molotow3_small2``), then the deck's cards when they are not the default
    (``molotow3_small2_HA.HK.SA.SK.CA.CK``)."""
    name = f"{rules.name}{SMALL_TAG}{cards_per_player}"
    if cards is not None and tuple(sorted(cards)) != default_cards(rules.spec,
                                                                   cards_per_player * rules.spec.players):
        name += "_" + ".".join(card_name(c) for c in sorted(cards))
    return name


def small_rules(rules: str | Rules = "molotow3", cards_per_player: int = 2,
                cards: Sequence[str | int] | None = None) -> Rules:
    """The rules of a small variant of ``rules`` (a preset name or Rules): each player holds
    ``cards_per_player`` cards of a deck of ``cards`` (names or ids; default
    :func:`default_cards`), one trick per card held.

    The variant's spec is registered with the engine on the first call (the same arguments give
    the same spec again). ValueError (RulesError for an unknown preset) when the game keeps cards
    undealt or plays more tricks than a hand holds, ``cards_per_player`` is not an integer from 1
    to one less than the preset's hand, or ``cards`` are not ``players x cards_per_player``
    distinct cards of the preset's deck.
    """
    base = make_rules(rules)
    spec = base.spec
    if not whole_deck_dealt(spec):
        stock = popcount(spec.deck) - spec.players * spec.hand_size
        raise ValueError(f"{spec.name} has no small variants: they are made of games that deal the whole "
                         f"deck and play one trick per card held, and {spec.name} deals "
                         f"{spec.players} x {spec.hand_size} of {popcount(spec.deck)} cards ({stock} left "
                         f"undealt) and plays {spec.tricks} tricks")
    if not is_int(cards_per_player) or not MIN_CARDS_PER_PLAYER <= cards_per_player < spec.hand_size:
        raise ValueError(f"cards_per_player must be an integer from {MIN_CARDS_PER_PLAYER} to "
                         f"{spec.hand_size - 1} (a {spec.name} hand holds {spec.hand_size}), "
                         f"got {cards_per_player!r}")
    k = int(cards_per_player)
    n_cards = spec.players * k
    if cards is None:
        deck = default_cards(spec, n_cards)
    else:
        deck = _card_ids(cards, spec)
        if len(deck) != n_cards:
            raise ValueError(f"a small {spec.name} with {k} cards a player is played with {spec.players} x "
                             f"{k} = {n_cards} cards; {len(deck)} given")
    name = small_name(base, k, deck)
    removed = tuple(card_name(c) for c in range(N_CARDS) if c not in deck)
    title = f"{spec.title}, {k} cards each ({' '.join(card_name(c) for c in deck)})"
    derived = dataclasses.replace(spec, name=name, title=title, hand_size=k, tricks=k, removed=removed)
    if SPECS.get(name) == derived:
        return dataclasses.replace(base, name=name, game=name)
    register_spec(derived)                # ValueError when another spec has the name
    small = dataclasses.replace(base, name=name, game=name)
    try:
        Round(small, seed=0).legal_actions()
    except Exception as e:                # the game's own code reads something of its full spec
        del SPECS[name]
        raise ValueError(f"{spec.name} cannot be played with a reduced deck: its rules need its own spec "
                         f"({type(e).__name__}: {e})") from None
    return small


@dataclass(frozen=True)
class Deals:
    """Every deal of a small variant: its chance outcomes (as :mod:`agents.openspiel.deal` makes
    them, each hand's cards in ascending order) and its probability; shared by every state."""

    outcomes: tuple[tuple[int, ...], ...]
    probabilities: tuple[float, ...]

    def __deepcopy__(self, memo: dict) -> Deals:
        return self

    @classmethod
    def of(cls, rules: Rules, limit: int = MAX_DEALS) -> Deals | None:
        """The deals of ``rules`` in the order of their outcomes; None when there are more than
        ``limit`` (known without listing them when the ways to deal the hands alone are more). A
        deal's probability is that of its chance outcomes times the orders its hands could be dealt
        in (every order of a hand's cards is as likely)."""
        spec = rules.spec
        orders = factorial(spec.hand_size) ** spec.players
        if factorial(spec.players * spec.hand_size) // orders > limit:     # the hands alone are too many
            return None
        found: list[tuple[tuple[int, ...], float]] = []

        def walk(dealing: Dealing, outcomes: tuple[int, ...], p: float) -> bool:
            kind, options = dealing.next()
            if kind == "done":
                found.append((outcomes, p * orders))
                return len(found) <= limit
            for o in options:
                if kind == "card" and dealing.hands[dealing.dealt % spec.players] >> o:
                    continue                      # a hand's cards come in ascending order
                if not walk(dealing.after(o), outcomes + (o,), p / len(options)):
                    return False
            return True

        if not walk(Dealing.start(rules), (), 1.0):
            return None
        return cls(tuple(o for o, _ in found), tuple(p for _, p in found))


#: the game type of python_jass_small (registered; each game states its own utility type)
SMALL_TYPE = game_type(SMALL_GAME_NAME, "Jass with a small deck (a preset's rules, one round)", MIN_PLAYERS,
                       MAX_PLAYERS, SMALL_PARAMETERS)


class SmallJassGame(JassGame):
    """A small variant as an OpenSpiel game (module doc): ``params`` ``rules``, ``cards_per_player``
    and ``cards`` (:data:`SMALL_PARAMETERS`). ValueError names a bad parameter."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(SMALL_PARAMETERS))
        if unknown:
            raise ValueError(f"{SMALL_GAME_NAME}: unknown parameter(s) {', '.join(unknown)}; it takes "
                             f"{', '.join(SMALL_PARAMETERS)}")
        params = {**SMALL_PARAMETERS, **given}
        cards = str(params["cards"]).replace(",", " ").split() or None
        rules = small_rules(params["rules"], params["cards_per_player"], cards)
        self.facts = Facts.of(rules)
        self.deals = Deals.of(rules)
        low, high = self.facts.utility_range()
        total = utility_sum(rules)
        outcomes = max(MAX_CHANCE_OUTCOMES, len(self.deals.outcomes) if self.deals else 0)
        info = pyspiel.GameInfo(num_distinct_actions=rules.spec.n_actions, max_chance_outcomes=outcomes,
                                num_players=rules.spec.players, min_utility=low, max_utility=high,
                                utility_sum=total, max_game_length=self.facts.max_moves)
        gtype = game_type(SMALL_GAME_NAME, SMALL_TYPE.long_name, MIN_PLAYERS, MAX_PLAYERS, SMALL_PARAMETERS,
                          total)
        pyspiel.Game.__init__(self, gtype, info, params)

    def new_initial_state(self) -> JassState:
        """The state before the deal: one chance node listing every deal, or the deal card by card
        when there are more than :data:`MAX_DEALS`."""
        return JassState(self) if self.deals is None else SmallJassState(self, self.deals)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> JassObserver:
        """The Jass observers (:meth:`JassGame.make_py_observer`), with the information-state
        string in short (:class:`SmallObserver`)."""
        return SmallObserver(self.facts, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                             params)


class SmallObserver(JassObserver):
    """The Jass observer, whose information-state string (perfect recall) is short, as tabular
    methods key their tables on it: the seat, the entries of its observation that are set (its
    hand, the dealer, all that is public now) and every move as the seat saw it (mover and action,
    ``?`` when hidden from it). The same information as the text table with the moves
    (:meth:`JassObserver.string_from`): a small variant deals its whole deck, so no card comes into
    a hand after the deal."""

    def string_from(self, state: JassState, player: int) -> str:
        if not self.perfect_recall or state.round is None:
            return super().string_from(state, player)
        self.set_from(state, player)
        seen = " ".join(map(str, np.flatnonzero(self.dict["observation"])))
        moves = " ".join(f"{mover}:{'?' if hidden else action}" for mover, action, hidden in
                         zip(state._movers[:state._n_moves], state._moves[:state._n_moves],
                             state._hidden[:state._n_moves, player], strict=True))
        return f"seat {player} | {seen} | {moves}"


class SmallJassState(JassState):
    """A state of a small game whose deal is one chance node (outcome i = deal i of ``deals``)."""

    def __init__(self, game: SmallJassGame, deals: Deals) -> None:
        super().__init__(game)
        self._deals = deals

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.round is not None:
            return []
        return list(enumerate(self._deals.probabilities))

    def _apply_action(self, action: int) -> None:
        if self.round is None:
            if not 0 <= action < len(self._deals.outcomes):
                raise ValueError(f"deal {action} is not one of the {len(self._deals.outcomes)} deals")
            for outcome in self._deals.outcomes[action]:
                super()._apply_action(outcome)
            return
        super()._apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return super()._action_to_string(player, action)
        if not 0 <= action < len(self._deals.outcomes):
            return f"deal {action}"
        dealing = Dealing.start(self._facts.rules)
        for outcome in self._deals.outcomes[action]:
            dealing = dealing.after(outcome)
        deal = dealing.deal
        hands = " / ".join(" ".join(names_of(h)) for h in deal.hands)
        return f"deal {action}: dealer player_{deal.dealer}, hands {hands}" + (
            f", draws {list(deal.draws)}" if deal.draws else "")


def register_small_game() -> str:
    """Register :data:`SMALL_GAME_NAME` with OpenSpiel (once); its name."""
    if SMALL_GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(SMALL_TYPE, SmallJassGame)
    return SMALL_GAME_NAME


register_small_game()

__all__ = ["MIN_CARDS_PER_PLAYER", "SMALL_TAG", "SMALL_GAME_NAME", "SMALL_PARAMETERS", "MAX_DEALS", "Deals",
           "SmallJassGame", "SmallJassState", "SmallObserver", "register_small_game", "whole_deck_dealt",
           "default_cards", "small_name", "small_rules"]
