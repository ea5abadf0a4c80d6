"""The deal of a round as OpenSpiel's chance nodes: who deals, the cards, the game's own draws.

A round starts with a sequence of chance outcomes, each uniform over what can come next:

1. the dealer (outcome = a player 0..n-1), when the rules draw one (``first_forehand="random"``);
2. the cards, one at a time (outcome = a card id 0..35, uniform over the cards of the game's deck
   not dealt yet): the k-th card goes to player ``k % n``, until every hand is full;
3. the dealer, under ``first_forehand="D7"`` only when nobody was dealt the ♦7 (otherwise the
   holder of the ♦7 is forehand, so the player before him deals: no chance node);
4. the game's own draws at the start of the round (its ``DRAWS`` fact,
   :class:`jass_env.games.base.Draws`: Differenzler's trump card, Sidi's stock order), one outcome
   each, as the game declares them.

Every outcome is below :data:`MAX_CHANCE_OUTCOMES`. The same deal with the same probability as
the engine's own dealing (:func:`jass_env.engine.deal.deal`, a seeded :class:`~jass_env.round.Round`):
every deal of hands equally likely, the dealer and the draws as the rules draw them.
:func:`deal_of` reads the deal of any dealt round (a seeded one, an AEC env's), :func:`round_of`
deals it again, :func:`outcomes_of` gives its chance outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from jass_env.engine.cards import D7, N_CARDS, card_name, cards_of
from jass_env.engine.switches import Rules
from jass_env.games import game_of, make_rules
from jass_env.round import Round

#: chance outcomes are integers below this: a card id, a player, or what a game's draw names
MAX_CHANCE_OUTCOMES = N_CARDS


@dataclass(frozen=True)
class Deal:
    """Everything chance decides in a round, before the first action."""

    dealer: int
    #: the dealt hands, one 36-bit mask per player
    hands: tuple[int, ...]
    #: the game's own draws at the start of the round, in the order it draws them; () when none
    draws: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict) -> Deal:
        return self                  # immutable


@dataclass(frozen=True)
class Dealing:
    """How far a sequence of chance outcomes has dealt a round (immutable): :meth:`start`, then
    :meth:`after` each outcome; :meth:`next` is the next chance node."""

    rules: Rules
    dealer: int | None
    #: the cards dealt so far, one 36-bit mask per player
    hands: tuple[int, ...]
    dealt: int              # cards dealt so far
    draws: tuple[int, ...]

    def __deepcopy__(self, memo: dict) -> Dealing:
        return self

    @classmethod
    def start(cls, rules: str | Rules) -> Dealing:
        """Nothing dealt yet."""
        rules = make_rules(rules)
        return cls(rules, None, (0,) * rules.spec.players, 0, ())

    def next(self) -> tuple[str, tuple[int, ...]]:
        """The kind of the next chance node ("dealer", "card", "draw" or "done") and its equally
        likely outcomes (() when done)."""
        return _next(self)

    def after(self, outcome: int) -> Dealing:
        """This dealing after one more chance outcome; ValueError when it cannot come now."""
        return _advance(self, outcome)

    @property
    def complete(self) -> bool:
        return _next(self)[0] == "done"

    @property
    def deal(self) -> Deal:
        """The deal, once complete; ValueError before."""
        kind, _ = _next(self)
        if kind != "done" or self.dealer is None:
            raise ValueError(f"the chance outcomes do not complete a {self.rules.name} deal: a {kind} "
                             f"comes next")
        return Deal(self.dealer, self.hands, self.draws)

    def outcome_name(self, outcome: int) -> str:
        """The next chance node's ``outcome`` in words ("dealer player_2", "card ♥9", the game's
        draw)."""
        kind, _ = _next(self)
        if kind == "dealer":
            return f"dealer player_{outcome}"
        if kind == "card":
            return f"card {card_name(outcome)} to player_{self.dealt % self.rules.spec.players}"
        if kind == "draw":
            return game_of(self.rules).draws.outcome_name(self.rules, outcome)
        return f"chance outcome {outcome}"


def _draws_dealer_first(rules: Rules) -> bool:
    return rules.first_forehand == "random"


def _d7_dealer(rules: Rules, hands: Sequence[int]) -> int | None:
    """Under first_forehand="D7": the dealer before the holder of the ♦7 (None if nobody holds it)."""
    n = rules.spec.players
    for p, h in enumerate(hands):
        if (h >> D7) & 1:
            return (p - 1) % n
    return None


def _next(prog: Dealing) -> tuple[str, tuple[int, ...]]:
    rules = prog.rules
    spec = rules.spec
    n = spec.players
    if prog.dealer is None and _draws_dealer_first(rules):
        return "dealer", tuple(range(n))
    if prog.dealt < n * spec.hand_size:
        taken = 0
        for h in prog.hands:
            taken |= h
        return "card", tuple(cards_of(spec.deck & ~taken))
    if prog.dealer is None:
        return "dealer", tuple(range(n))
    draws = game_of(rules).draws.outcomes(rules, prog.dealer, prog.hands, prog.draws)
    if draws:
        return "draw", tuple(draws)
    return "done", ()


def _advance(prog: Dealing, outcome: int) -> Dealing:
    rules = prog.rules
    kind, outcomes = _next(prog)
    if outcome not in outcomes:
        what = "the deal is complete" if kind == "done" else f"the next {kind} is one of {list(outcomes)}"
        raise ValueError(f"chance outcome {outcome!r} cannot come now in {rules.name}: {what}")
    if kind == "dealer":
        return replace(prog, dealer=outcome)
    if kind == "card":
        n = rules.spec.players
        hands = list(prog.hands)
        hands[prog.dealt % n] |= 1 << outcome
        dealer = prog.dealer
        if prog.dealt + 1 == n * rules.spec.hand_size and dealer is None:
            dealer = _d7_dealer(rules, hands)
        return replace(prog, dealer=dealer, hands=tuple(hands), dealt=prog.dealt + 1)
    return replace(prog, draws=prog.draws + (outcome,))


def _progress(rules: str | Rules, partial: Sequence[int]) -> Dealing:
    prog = Dealing.start(rules)
    for outcome in partial:
        prog = prog.after(int(outcome))
    return prog


def chance_outcomes(rules: str | Rules, partial: Sequence[int]) -> list[tuple[int, float]]:
    """The next chance node after the chance outcomes ``partial``: [(outcome, probability)],
    uniform; [] when the deal is complete. ValueError when ``partial`` is not a possible start."""
    _, outcomes = _progress(rules, partial).next()
    p = 1.0 / len(outcomes) if outcomes else 0.0
    return [(o, p) for o in outcomes]


def chance_kind(rules: str | Rules, partial: Sequence[int]) -> str:
    """What the next chance node after ``partial`` decides: "dealer", "card", "draw" or "done"."""
    return _progress(rules, partial).next()[0]


def deal_from_outcomes(rules: str | Rules, outcomes: Sequence[int]) -> Deal:
    """The deal that a complete sequence of chance outcomes makes; ValueError when it is not one."""
    return _progress(rules, outcomes).deal


def outcomes_of(rules: str | Rules, deal: Deal) -> list[int]:
    """The chance outcomes, in order, that make ``deal`` (the inverse of :func:`deal_from_outcomes`).
    ValueError when the deal is not one of these rules."""
    rules = make_rules(rules)
    spec = rules.spec
    n = spec.players
    if len(deal.hands) != n or not 0 <= deal.dealer < n:
        raise ValueError(f"a {rules.name} deal has {n} hands and a dealer 0..{n - 1}; got {len(deal.hands)} "
                         f"hands and dealer {deal.dealer}")
    cards = [cards_of(h) for h in deal.hands]
    if any(len(c) != spec.hand_size for c in cards):
        raise ValueError(f"each {rules.name} hand has {spec.hand_size} cards; got {[len(c) for c in cards]}")
    out = [deal.dealer] if _draws_dealer_first(rules) else []
    for k in range(n * spec.hand_size):
        out.append(cards[k % n][k // n])
    if not _draws_dealer_first(rules):
        holder_dealer = _d7_dealer(rules, deal.hands)
        if holder_dealer is None:
            out.append(deal.dealer)
        elif holder_dealer != deal.dealer:
            raise ValueError(f"under first_forehand='D7' the dealer is the player before the holder of the "
                             f"♦7, {holder_dealer}; the deal says {deal.dealer}")
    out.extend(deal.draws)
    made = deal_from_outcomes(rules, out)       # checks every outcome
    if made != deal:
        raise ValueError(f"not a {rules.name} deal: {deal}")
    return out


def round_of(rules: str | Rules, deal: Deal) -> Round:
    """The round dealt ``deal``, before its first action (the game's draws applied)."""
    rules = make_rules(rules)
    rnd = Round(rules, hands=list(deal.hands), dealer=deal.dealer)
    game_of(rules).draws.apply(rnd, tuple(deal.draws))
    return rnd


def deal_of(rnd: Round) -> Deal:
    """The deal of a dealt round (seeded or not, at any point of its play): its dealer, its dealt
    hands and the game's draws."""
    hands = tuple(int(h) for h in rnd.view.dealt[:rnd.spec.players])
    return Deal(int(rnd.dealer), hands, tuple(game_of(rnd.rules).draws.of(rnd)))


__all__ = ["Deal", "Dealing", "MAX_CHANCE_OUTCOMES", "chance_outcomes", "chance_kind", "deal_from_outcomes",
           "outcomes_of", "round_of", "deal_of"]
