"""Rule-based bots for the first-discard games: Mittlere and Molotow (docs/bots.md).

Both read only their seat's observation (:mod:`jass_env.observation_discard`) and the legal mask.

:class:`MittlereHeuristic` picks a role after the deal: **high** (a strong hand: A, K, Q count
and long suits) aims to end on top but below 100 points, **low** takes one trick early (so it is
not the player without a trick) and then ducks. Both duck with their highest losing card, dump
points on the player in the middle (when he wins the trick), and choose the trump suit by their
discard: the high role discards into its strongest trump suit (J, 9, A, length), the low role into
its shortest suit without J or 9.

:class:`MolotowHeuristic` avoids points: it leads its lowest card, ducks with its highest losing
card (preferring one that gives the trick's winner a table Weis, then the most points), wins a
forced trick as cheaply as possible, and discards into a suit where its own J and 9 are safe (a
suit without them, the shortest, with its card worth the fewest points), so its J and 9 do not
become the top trumps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from jass_env.kernel import STRENGTH
from jass_env.molotow import table_weis_list
from jass_env.observation_discard import SLICES
from jass_env.rules import Rules, card_values, make_rules
from jass_env.spec import ROUND_POINTS

from .base import Agent, legal_actions

OBENABE = 4
ACE, KING, QUEEN, JACK, TEN, NINE = 0, 1, 2, 3, 4, 5       # rank offsets (jass_env.cards)
#: high-card weight of A K Q J for the Mittlere role, and the length bonus per card beyond 4
HIGH_CARD_WEIGHT = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}
LONG_SUIT = 4
HIGH_ROLE_STRENGTH = 22
#: Mittlere's high role stops taking tricks at this many points (100 would lose)
HIGH_ROLE_CAP = 60


@dataclass
class Table:
    """What a seat sees of the current hand, decoded from its observation (relative seats)."""

    hand: list[int]
    dealt: list[int]             # the hand as dealt: ``hand`` and the cards this seat has played
    trick: list[int]             # cards on the table, leader first
    leader: int                  # relative seat of the trick's leader
    trump: int | None            # None while no trump is fixed
    points: list[int]            # per relative seat
    tricks_won: list[int]
    n: int

    @property
    def contract(self) -> int:
        return OBENABE if self.trump is None else self.trump

    def winner_seat(self) -> int | None:
        """The relative seat winning the trick so far (None on an empty trick)."""
        if not self.trick:
            return None
        lead = self.trick[0] // 9
        best = max(range(len(self.trick)), key=lambda i: STRENGTH[self.contract, lead, self.trick[i]])
        return (self.leader + best) % self.n

    def would_win(self, card: int) -> bool:
        """Whether ``card`` would win the trick against the cards already in it (a card that does
        not follow while no trump is fixed becomes trump)."""
        if not self.trick:
            return True
        lead = self.trick[0] // 9
        contract = self.contract
        if self.trump is None and card // 9 != lead:
            contract = card // 9
        return STRENGTH[contract, lead, card] > max(STRENGTH[contract, lead, c] for c in self.trick)

    def fixes_trump(self, card: int) -> bool:
        return self.trump is None and bool(self.trick) and card // 9 != self.trick[0] // 9


def decode(obs: Mapping[str, np.ndarray], rules: Rules) -> Table:
    """The :class:`Table` of an observation of ``rules``' game."""
    o = np.asarray(obs["observation"])
    s = SLICES[rules.game]
    n, tricks = rules.spec.players, rules.spec.tricks
    hand = [int(c) for c in np.flatnonzero(o[s["hand"]])]
    own_played = [int(c) for c in np.flatnonzero(o[s["played"]][:36])]     # relative seat 0 first
    trick_rows = o[s["trick"]].reshape(n, 36)
    leaders = np.flatnonzero(o[s["leader"]])
    leader = int(leaders[0]) if leaders.size else 0
    trick = []
    for i in range(n):
        cards = np.flatnonzero(trick_rows[(leader + i) % n])
        if not cards.size:
            break
        trick.append(int(cards[0]))
    trumps = np.flatnonzero(o[s["trump"]])
    return Table(hand, sorted(hand + own_played), trick, leader, int(trumps[0]) if trumps.size else None,
                 [int(round(x * ROUND_POINTS)) for x in o[s["points"]]],
                 [int(round(x * tricks)) for x in o[s["tricks_won"]]], n)


class _DiscardBot(Agent):
    """Shared: the rules, the card values under a contract, the strength of a card in a trick."""

    game_kind: tuple[str, ...] = ()

    def __init__(self, rules: str | Rules | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        if self.rules.game not in self.game_kind:
            raise ValueError(f"{type(self).__name__} plays {', '.join(self.game_kind)}, "
                             f"not {self.rules.game}")
        self.values = [card_values(c) for c in range(5)]

    def points_of(self, card: int, t: Table) -> int:
        return int(self.values[t.contract][card])

    def strength(self, card: int, t: Table) -> int:
        """How high a card ranks in the trick (or, leading, in its own suit)."""
        lead = t.trick[0] // 9 if t.trick else card // 9
        contract = card // 9 if t.fixes_trump(card) else t.contract
        return int(STRENGTH[contract, lead, card])

    def duck(self, legal: list[int], t: Table, key=None) -> int | None:  # noqa: ANN001 (a sort key)
        """The highest losing card (ties broken by ``key``), None when every card wins."""
        losing = [c for c in legal if not t.would_win(c)]
        if not losing:
            return None
        return max(losing, key=lambda c: (key(c) if key else 0, self.strength(c, t), self.points_of(c, t)))

    def cheapest_win(self, legal: list[int], t: Table) -> int | None:
        winning = [c for c in legal if t.would_win(c)]
        if not winning:
            return None
        return min(winning, key=lambda c: (self.points_of(c, t), self.strength(c, t)))


class MittlereHeuristic(_DiscardBot):
    """Role after the deal, then duck / take one trick / dump points on the middle player."""

    name = "mittlere-heuristic"
    game_kind = ("mittlere",)

    def __init__(self, rules: str | Rules | None = "mittlere", seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self.role = "low"

    @staticmethod
    def role_of(hand: list[int]) -> str:
        """"high" for a hand of many high cards and long suits, else "low"."""
        strength = sum(HIGH_CARD_WEIGHT.get(c % 9, 0) for c in hand)
        for s in range(4):
            strength += max(sum(1 for c in hand if c // 9 == s) - LONG_SUIT, 0)
        return "high" if strength >= HIGH_ROLE_STRENGTH else "low"

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        legal = [int(a) for a in legal_actions(obs)]
        t = decode(obs, self.rules)
        self.role = self.role_of(t.dealt)     # the dealt hand's role (decided anew each time: no memory)
        if len(legal) == 1:
            return legal[0]
        if t.trick and t.trump is None and all(c // 9 != t.trick[0] // 9 for c in legal):
            return self.discard(legal, t)
        if not t.trick:
            return self.lead(legal, t)
        middle = self.middle_seat(t)
        if t.winner_seat() == middle and middle != 0:          # feed the middle player points
            card = self.duck(legal, t, key=lambda c: self.points_of(c, t))
            if card is not None:
                return card
        wants_trick = (self.role == "low" and t.tricks_won[0] == 0) or (
            self.role == "high" and t.points[0] < HIGH_ROLE_CAP)
        if wants_trick:
            card = self.cheapest_win(legal, t)
            if card is not None:
                return card
        card = self.duck(legal, t)
        return card if card is not None else self.cheapest_win(legal, t)

    @staticmethod
    def middle_seat(t: Table) -> int:
        """The relative seat with the middle points so far."""
        order = sorted(range(t.n), key=lambda r: t.points[r])
        return order[t.n // 2]

    def lead(self, legal: list[int], t: Table) -> int:
        """High role below the cap, or low role without a trick: its strongest card; otherwise its
        lowest card."""
        if (self.role == "high" and t.points[0] < HIGH_ROLE_CAP) or (
                self.role == "low" and t.tricks_won[0] == 0):
            return max(legal, key=lambda c: self.strength(c, t))
        return min(legal, key=lambda c: (self.strength(c, t), -self.points_of(c, t)))

    def discard(self, legal: list[int], t: Table) -> int:
        """The discard fixes trump: the high role into its strongest trump suit (its lowest card of
        it), the low role into its shortest suit without J or 9 (its highest card)."""
        suits = sorted({c // 9 for c in legal})
        hand = set(t.hand)

        def trump_strength(s: int) -> int:
            return (3 * (9 * s + JACK in hand) + 2 * (9 * s + NINE in hand) + (9 * s + ACE in hand)
                    + sum(1 for c in hand if c // 9 == s))
        if self.role == "high":
            suit = max(suits, key=trump_strength)
            return min((c for c in legal if c // 9 == suit), key=lambda c: STRENGTH[suit, suit, c])
        suit = min(suits, key=trump_strength)
        return max((c for c in legal if c // 9 == suit), key=lambda c: STRENGTH[suit, suit, c])


class MolotowHeuristic(_DiscardBot):
    """Avoid points: low leads, highest losing card, table Weis fed to the winner, safe discards."""

    name = "molotow-heuristic"
    game_kind = ("molotow", "molotow3", "molotow5", "molotow6")

    def __init__(self, rules: str | Rules | None = "molotow", seed: int | None = None) -> None:
        super().__init__(rules, seed)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        legal = [int(a) for a in legal_actions(obs)]
        if len(legal) == 1:
            return legal[0]
        t = decode(obs, self.rules)
        if not t.trick:
            return min(legal, key=lambda c: (c // 9 == t.trump, self.strength(c, t)))
        if t.trump is None and all(c // 9 != t.trick[0] // 9 for c in legal):
            return self.discard(legal, t)
        card = self.duck(legal, t, key=lambda c: (self.table_weis_with(c, t), self.points_of(c, t)))
        if card is not None:
            return card
        return min(legal, key=lambda c: (self.points_of(c, t) + self.table_weis_with(c, t),
                                         -self.strength(c, t)))

    def table_weis_with(self, card: int, t: Table) -> int:
        """The table Weis points the trick's cards form with ``card`` added."""
        mask = sum(1 << c for c in [*t.trick, card])
        return sum(p for p, _ in table_weis_list(mask, t.trump, self.rules.params))

    def discard(self, legal: list[int], t: Table) -> int:
        """Into a suit where its own J and 9 are safe: a suit without them, the shortest; its card
        worth the fewest points as trump."""
        hand = set(t.hand)

        def danger(s: int) -> tuple[int, int]:
            return ((9 * s + JACK in hand) + (9 * s + NINE in hand), sum(1 for c in hand if c // 9 == s))
        suit = min(sorted({c // 9 for c in legal}), key=danger)
        # the discard becomes the trick's only trump: give it as few points as the suit allows
        return min((c for c in legal if c // 9 == suit),
                   key=lambda c: (self.values[suit][c], STRENGTH[suit, suit, c]))


__all__ = ["MittlereHeuristic", "MolotowHeuristic", "decode", "Table"]
