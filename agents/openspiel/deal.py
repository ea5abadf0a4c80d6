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
from dataclasses import dataclass

from jass_env.engine.cards import D7, N_CARDS, cards_of
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


@dataclass(frozen=True)
class _Progress:
    """How far a sequence of chance outcomes has dealt a round."""

    dealer: int | None
    hands: tuple[int, ...]
    dealt: int              # cards dealt so far
    draws: tuple[int, ...]


def _draws_dealer_first(rules: Rules) -> bool:
    return rules.first_forehand == "random"


def _d7_dealer(rules: Rules, hands: Sequence[int]) -> int | None:
    """Under first_forehand="D7": the dealer before the holder of the ♦7 (None if nobody holds it)."""
    n = rules.spec.players
    for p, h in enumerate(hands):
        if (h >> D7) & 1:
            return (p - 1) % n
    return None


def _next(rules: Rules, prog: _Progress) -> tuple[str, tuple[int, ...]]:
    """The kind of the next chance node ("dealer", "card", "draw" or "done") and its outcomes."""
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


def _start(rules: Rules) -> _Progress:
    return _Progress(None, (0,) * rules.spec.players, 0, ())


def _advance(rules: Rules, prog: _Progress, outcome: int) -> _Progress:
    """``prog`` after one more chance outcome; ValueError when it cannot come now."""
    kind, outcomes = _next(rules, prog)
    if outcome not in outcomes:
        what = "the deal is complete" if kind == "done" else f"the next {kind} is one of {list(outcomes)}"
        raise ValueError(f"chance outcome {outcome!r} cannot come now in {rules.name}: {what}")
    if kind == "dealer":
        return _Progress(outcome, prog.hands, prog.dealt, prog.draws)
    if kind == "card":
        n = rules.spec.players
        hands = list(prog.hands)
        hands[prog.dealt % n] |= 1 << outcome
        dealer = prog.dealer
        if prog.dealt + 1 == n * rules.spec.hand_size and dealer is None:
            dealer = _d7_dealer(rules, hands)
        return _Progress(dealer, tuple(hands), prog.dealt + 1, prog.draws)
    return _Progress(prog.dealer, prog.hands, prog.dealt, prog.draws + (outcome,))


def _progress(rules: Rules, partial: Sequence[int]) -> _Progress:
    prog = _start(rules)
    for outcome in partial:
        prog = _advance(rules, prog, int(outcome))
    return prog


def chance_outcomes(rules: str | Rules, partial: Sequence[int]) -> list[tuple[int, float]]:
    """The next chance node after the chance outcomes ``partial``: [(outcome, probability)],
    uniform; [] when the deal is complete. ValueError when ``partial`` is not a possible start."""
    rules = make_rules(rules)
    _, outcomes = _next(rules, _progress(rules, partial))
    p = 1.0 / len(outcomes) if outcomes else 0.0
    return [(o, p) for o in outcomes]


def chance_kind(rules: str | Rules, partial: Sequence[int]) -> str:
    """What the next chance node after ``partial`` decides: "dealer", "card", "draw" or "done"."""
    rules = make_rules(rules)
    return _next(rules, _progress(rules, partial))[0]


def deal_from_outcomes(rules: str | Rules, outcomes: Sequence[int]) -> Deal:
    """The deal that a complete sequence of chance outcomes makes; ValueError when it is not one."""
    rules = make_rules(rules)
    prog = _progress(rules, outcomes)
    kind, _ = _next(rules, prog)
    if kind != "done":
        raise ValueError(f"the chance outcomes do not complete a {rules.name} deal: a {kind} comes next")
    assert prog.dealer is not None
    return Deal(prog.dealer, prog.hands, prog.draws)


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


__all__ = ["Deal", "MAX_CHANCE_OUTCOMES", "chance_outcomes", "chance_kind", "deal_from_outcomes",
           "outcomes_of", "round_of", "deal_of"]
