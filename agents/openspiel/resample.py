"""Resampling a deal from what one player knows: OpenSpiel's ``resample_from_infostate``, for every game.

A player's information after some actions is what he has observed at every step: his observation
(the game's observation encoding, :mod:`jass_env.envs.encoding`) after the deal and after each
action. A deal is *consistent* for him when the actions replay legally from it and give him the
same observation at every step as the true deal does. :func:`resample_deal` draws a deal uniformly
(by its chance probability, the same for every deal the rules can make) among the consistent ones:
his own hand and the dealer stay, every public fact holds (voids shown, Weis shown, Stöck, the card
that shows trump, the stock's cards he drew), and everything hidden from him is dealt again (the
others' hands, the stock still face down, a draw he has not seen).

How: a proposal, then a check. The proposal deals uniformly among a superset of the consistent
deals that is cheap to describe, read from the true deal's replay with the engine's shared state
(hands, cards played, shown voids, public Weis cards, the card that shows trump) and the game's
draws (its ``DRAWS``: a draw whose outcomes follow the cards is a card, either a place of its own,
as a stock's, or a pointer into a hand, as a bottom card; any other draw is drawn again from its
outcomes):

* the cards the player has held where he saw them (his hand, the stock's cards he drew), the card
  that shows trump where it lies, the ♦7 with forehand under ``first_forehand="D7"``, the public
  Weis cards in their owner's dealt hand;
* each other player's places (his dealt hand, then the stock's cards he drew, by the step they came)
  hold the cards he played, each in a place he had before playing it; the remaining places of every
  player, the stock still face down and the cards nobody was dealt take the unseen cards, a player's
  places only cards his shown voids allow (:func:`jass_env.engine.card_play.possible_holding`);
  a card that changed hands other than by play (Sidi's exchanged trump 6) may take any of them.

Unseen cards are grouped into classes by the places that may take them; the number of ways to
split them is counted exactly (a dynamic programme over the classes with multinomial weights), the
split drawn in proportion, then each player's places are filled uniformly (the cards he played,
most constrained first). Every deal of the superset is equally likely; the check (replay and
compare every observation) keeps exactly the consistent ones, so accepted deals are uniform among
them. The proposal is a superset because each fact it fixes is one the player sees, given two
facts of the family's rules: who draws which of the stock's places follows from what everyone
sees (its order of drawing), and a void shown holds for the cards the player holds then. The check
decides the rest (a losing Weis, Stöck, a card that must have been held to play an under-trump or
an exchange, the trump suit drawn).

Actions stay as they were, including a prediction hidden from the player (Differenzler's
``predictions="hidden"``): only chance is resampled.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from math import factorial

import numpy as np

from jass_env.engine.card_play import possible_holding
from jass_env.engine.cards import D7, cards_of, mask_of, popcount
from jass_env.engine.deal import d7_dealer
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import in_legal_set
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of, make_rules

from .deal import Deal, round_of

#: proposals tried for one sample before :class:`ResampleError`; the acceptance rate of a real
#: position is far above 1 / MAX_PROPOSALS (tests/test_openspiel_resample.py)
MAX_PROPOSALS = 20_000
#: what the information of the last few (rules, deal, actions, player) is kept for (IS-MCTS asks
#: the same information state many times)
CACHED_INFORMATION = 16

#: how a draw of the game is resampled: a card in a place of its own (a stock's card), a card of
#: a hand (a bottom card shown), anything else (drawn again from its outcomes)
PLACE, POINTER, OTHER = "place", "pointer", "other"
#: the stage-1 bucket of the stock's places still face down, and of the cards nobody was dealt
UNDRAWN, UNDEALT = -1, -2


class ResampleError(RuntimeError):
    """No consistent deal was found within the proposals allowed."""


def _cards(mask: int) -> list[int]:
    return cards_of(int(mask))


def _union(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= int(m)
    return out


def _rand_below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in [0, n) for any Python int n >= 1 (exact for counts beyond int64)."""
    bits = n.bit_length()
    nbytes = (bits + 7) // 8
    while True:
        r = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - bits)
        if r < n:
            return r


class Information:
    """What ``player`` knows after ``actions`` of the round dealt ``deal``: read once from the true
    deal's replay, then :meth:`sample` draws consistent deals (``proposals`` and ``accepted``
    count the proposals made and kept so far).

    ValueError when the player is not one of the game's, the deal is not one of the rules' deals,
    or an action is not legal where it comes (the message names the action and what was legal).
    """

    def __init__(self, rules: str | Rules, deal: Deal, actions: Sequence[int], player: int) -> None:
        self.rules = make_rules(rules)
        self.spec = self.rules.spec
        self.game = game_of(self.rules)
        n = self.spec.players
        if not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise ValueError(f"player must be a player of {self.rules.name}, 0..{n - 1}; got {player!r}")
        if not isinstance(deal, Deal):
            raise ValueError(f"deal must be an agents.openspiel.deal.Deal (deal_of a round), got {deal!r}")
        self.player = int(player)
        self.deal = deal
        self.actions = tuple(int(a) for a in actions)
        self._encode = self.game.observation.encode_observation
        self._replay_true()
        self._read_draws()
        self._read_places()
        self._read_cards()
        self._read_classes()
        self._count_cache: dict[tuple[int, tuple[int, ...]], int] = {}
        self._split_cache: dict[tuple[int, tuple[int, ...]], list] = {}
        self.proposals = 0
        self.accepted = 0

    # the true deal
    def _replay_true(self) -> None:
        """Replay the true deal: the player's observation, every hand and every player's cards
        played and shown voids, at every step (state i is after i actions)."""
        rnd = round_of(self.rules, self.deal)
        rp, eng, st = rnd.rp, rnd.engine, rnd.state
        n = self.spec.players
        steps = len(self.actions) + 1
        self.obs = np.zeros((steps, obs_dim(self.rules)), dtype=np.float32)
        self.hands = np.zeros((steps, n), dtype=np.int64)
        self.played = np.zeros((steps, n), dtype=np.int64)
        self.voids = np.zeros((steps, n), dtype=np.int64)
        self.contract = np.zeros(steps, dtype=np.int64)
        self.trump_card = rnd.view.trump_card
        self.forehand = rnd.forehand
        for i in range(steps):
            if i > 0:
                a = self.actions[i - 1]
                bits, block = eng.legal_set(st, rp)
                if not in_legal_set(int(bits), int(block), a):
                    why = (rnd.illegal_message(a) if 0 <= a < self.spec.n_actions
                           else f"actions are 0..{self.spec.n_actions - 1}, got {a}")
                    raise ValueError(f"action {i - 1} of the history does not fit the deal: {why}")
                eng.apply_action(st, a, rp)
            self._encode(st, self.player, rp, self.obs[i])
            self.hands[i] = rnd.view.hands[:n]
            self.played[i] = rnd.view.played[:n]
            self.voids[i] = rnd.view.voids[:n]
            self.contract[i] = rnd.view.contract
        self.public_weis = [mask_of(rnd.public_weis_cards(q)) for q in range(n)]

    def _read_draws(self) -> None:
        """Which of the game's draws are cards (their outcomes follow a relabelling of the cards),
        and of those, which lie in a place of their own and which point into a hand."""
        deal = self.deal
        deck = _cards(self.spec.deck)
        shift = {c: deck[(i + 1) % len(deck)] for i, c in enumerate(deck)}   # moves every card

        def moved(mask: int) -> int:
            return sum(1 << shift[c] for c in _cards(mask))

        outcomes = self.game.draws.outcomes
        hands = tuple(deal.hands)
        moved_hands = tuple(moved(h) for h in hands)
        self.draw_kind: list[str] = []
        for k, v in enumerate(deal.draws):
            before = deal.draws[:k]
            outs = set(outcomes(self.rules, deal.dealer, hands, before))
            moved_before = tuple(shift[d] if self.draw_kind[j] != OTHER else d for j, d in enumerate(before))
            outs_moved = set(outcomes(self.rules, deal.dealer, moved_hands, moved_before))
            is_card = v in shift and outs <= set(shift) and outs_moved == {shift[o] for o in outs}
            in_hand = is_card and any(h >> v & 1 for h in hands)
            self.draw_kind.append(OTHER if not is_card else POINTER if in_hand else PLACE)

    def _read_places(self) -> None:
        """Who drew which of the stock's places at which step, and which cards changed hands other
        than by play."""
        n, steps = self.spec.players, len(self.actions) + 1
        self.place_of = {v: k for k, v in enumerate(self.deal.draws) if self.draw_kind[k] == PLACE}
        self.delivered: dict[int, tuple[int, int]] = {}     # draw index -> (player, arrival step)
        self.moved_between_hands = 0                        # cards that changed hands other than by play
        seen = 0
        for q in range(n):
            seen |= int(self.hands[0, q])
        for i in range(1, steps):
            for q in range(n):
                gained = int(self.hands[i, q]) & ~int(self.hands[i - 1, q])
                newly_played = int(self.played[i, q]) & ~int(self.played[i - 1, q])
                lost = int(self.hands[i - 1, q]) & ~int(self.hands[i, q]) & ~newly_played
                self.moved_between_hands |= lost
                for c in _cards(gained):
                    if c in self.place_of and not seen >> c & 1:
                        self.delivered[self.place_of[c]] = (q, i)
                    else:
                        self.moved_between_hands |= 1 << c
                seen |= gained

    def _read_cards(self) -> None:
        """Sort every card of the deck: fixed where it lies, known in a player's dealt hand,
        changed hands other than by play (floating), played by a player, or unseen."""
        n, me, deal = self.spec.players, self.player, self.deal
        # the places the player saw filled (his hand, the stock's cards he drew), and the card that
        # shows trump where it lies
        self.fixed_place = {k: deal.draws[k] for k, (q, _) in self.delivered.items() if q == me}
        fixed = int(deal.hands[me]) | mask_of(self.fixed_place.values())
        known = [0] * n
        tc = self.trump_card
        if tc is not None and tc in self.place_of:
            self.fixed_place[self.place_of[tc]] = tc
            fixed |= 1 << tc
        elif tc is not None:
            known = [h & (1 << tc) for h in deal.hands]
        hands = np.zeros(2 * MAX_PLAYERS, dtype=np.int64)
        hands[:n] = deal.hands
        if d7_dealer(hands, self.rules.params) >= 0:       # the ♦7 lies with forehand
            known[self.forehand] |= 1 << D7
        self.known = [(k | w) & ~fixed for k, w in zip(known, self.public_weis)]
        all_known = _union(self.known)
        self.fixed = fixed
        self.floating = self.moved_between_hands & ~fixed & ~all_known
        # each other player's places beyond his dealt hand: the stock's places he drew whose card is
        # not fixed, as (arrival, draw index) with arrival the first state that shows the card in
        # his hand; and the cards he played, each with the action that played it
        self.drawn: dict[int, list[tuple[int, int]]] = {}
        self.played_by: dict[int, list[tuple[int, int]]] = {}
        for q in range(n):
            if q == me:
                continue
            self.drawn[q] = sorted((i, k) for k, (p, i) in self.delivered.items()
                                   if p == q and k not in self.fixed_place)
            played = int(self.played[-1, q]) & ~fixed & ~all_known & ~self.floating
            self.played_by[q] = [(c, int(np.argmax(self.played[:, q] >> c & 1)) - 1) for c in _cards(played)]
        # the stock's places nobody drew and the cards nobody was dealt
        self.undrawn = [k for k, kind in enumerate(self.draw_kind)
                        if kind == PLACE and k not in self.delivered and k not in self.fixed_place]
        self.undealt = int(self.spec.deck) & ~(_union(deal.hands) | mask_of(self.place_of)) & ~fixed

    def _read_classes(self) -> None:
        """Stage 1 of the proposal: the buckets (each other player's open places, the stock's
        places face down, the cards nobody was dealt) with their free room, and the cards that go
        into them grouped into classes by the buckets that may take them."""
        self.buckets: list[int] = []
        self.capacity: list[int] = []
        for q, drawn in self.drawn.items():
            self.buckets.append(q)
            self.capacity.append(self.spec.hand_size + len(drawn) - popcount(self.known[q])
                                 - len(self.played_by[q]))
        self.buckets += [UNDRAWN, UNDEALT]
        self.capacity += [len(self.undrawn), popcount(self.undealt)]
        allowed = self._allowed_by_voids()
        open_buckets = sum(1 << b for b, cap in enumerate(self.capacity) if cap > 0)
        placed = self.fixed | _union(self.known) | mask_of(c for p in self.played_by.values() for c, _ in p)
        classes: dict[int, list[int]] = {}
        for c in _cards(int(self.spec.deck) & ~placed):
            eligible = open_buckets
            if not self.floating >> c & 1:        # an unseen card: only where the voids allow it
                eligible &= sum(1 << b for b, q in enumerate(self.buckets) if q < 0 or allowed[q] >> c & 1)
            classes.setdefault(eligible, []).append(c)
        if min(self.capacity) < 0 or sum(len(v) for v in classes.values()) != sum(self.capacity):
            raise ValueError(f"the deal's cards do not fill its places: {self.deal} is not a deal of "
                             f"{self.rules.name}")
        # most constrained classes first: the count's table stays small
        self.classes = sorted(classes.items(), key=lambda kv: (popcount(kv[0]), len(kv[1])))

    def _allowed_by_voids(self) -> dict[int, int]:
        """Per other player: the cards his shown voids allow him to hold now. A void counts when
        nothing came to his hand from the stock after he showed it (then everything he holds now
        he held then); each under the contract of the trick that showed it."""
        allowed = {}
        for q in self.drawn:
            last_arrival = max((i for p, i in self.delivered.values() if p == q), default=0)
            m = int(self.spec.deck)
            for i in range(len(self.actions)):
                new = int(self.voids[i + 1, q]) & ~int(self.voids[i, q])
                if new and last_arrival <= i:
                    m &= int(possible_holding(new, int(self.contract[i]), self.rules.params))
            allowed[q] = m
        return allowed

    # the proposal
    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        """The ways to put the cards of classes i.. into buckets with ``caps`` free places (cards
        distinguished, places of a bucket not: multinomial weights)."""
        if i == len(self.classes):
            return 1 if not any(caps) else 0
        key = (i, caps)
        if key not in self._count_cache:
            self._count_cache[key] = sum(w * self._count(i + 1, rest) for w, _, rest in self._splits(i, caps))
        return self._count_cache[key]

    def _splits(self, i: int, caps: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Every split of class i's cards over its buckets within ``caps``: (multinomial weight,
        cards per bucket, caps left)."""
        key = (i, caps)
        if key in self._split_cache:
            return self._split_cache[key]
        eligible, cards = self.classes[i]
        bs = [b for b in range(len(caps)) if eligible >> b & 1 and caps[b] > 0]
        out = []

        def rec(j: int, left: int, ks: list[int]) -> None:
            if j == len(bs):
                if left == 0:
                    emit(ks)
            elif j == len(bs) - 1:
                if left <= caps[bs[j]]:
                    emit(ks + [left])
            else:
                for k in range(min(left, caps[bs[j]]) + 1):
                    rec(j + 1, left - k, ks + [k])

        def emit(ks: list[int]) -> None:
            per = [0] * len(caps)
            for b, k in zip(bs, ks):
                per[b] = k
            w = factorial(len(cards))
            for k in ks:
                w //= factorial(k)
            out.append((w, tuple(per), tuple(c - k for c, k in zip(caps, per))))

        rec(0, len(cards), [])
        self._split_cache[key] = out
        return out

    def _pick_split(self, i: int, caps: tuple[int, ...], rng: np.random.Generator) -> tuple[tuple[int, ...],
                                                                                            tuple[int, ...]]:
        """One split of class i's cards within ``caps``, drawn in proportion to the ways it can be
        completed: (cards per bucket, caps left)."""
        r = _rand_below(rng, self._count(i, caps))
        for w, split, rest in self._splits(i, caps):
            weight = w * self._count(i + 1, rest)
            if r < weight:
                return split, rest
            r -= weight
        raise AssertionError("the splits' weights add up to the count")

    def propose(self, rng: np.random.Generator) -> Deal:
        """A deal drawn uniformly from the superset (see the module docstring)."""
        caps = tuple(self.capacity)
        into: list[list[int]] = [[] for _ in self.buckets]
        for i, (_, cards) in enumerate(self.classes):
            split, caps = self._pick_split(i, caps, rng)
            shuffled = [cards[j] for j in rng.permutation(len(cards))]
            for b, k in enumerate(split):
                into[b] += shuffled[:k]
                shuffled = shuffled[k:]
        hands = [0] * self.spec.players
        hands[self.player] = int(self.deal.hands[self.player])
        draws: list[int] = [-1] * len(self.deal.draws)
        for k, c in self.fixed_place.items():
            draws[k] = c
        for b, q in enumerate(self.buckets):
            if q == UNDRAWN:
                for k, j in zip(self.undrawn, rng.permutation(len(into[b]))):
                    draws[k] = into[b][j]
            elif q >= 0:
                hands[q] = self._fill(q, into[b], rng, draws)
        for k, kind in enumerate(self.draw_kind):
            if kind == PLACE:
                continue
            if kind == POINTER and self.deal.draws[k] == self.trump_card:
                draws[k] = self.deal.draws[k]      # the card shown stays where it lies
            else:
                outs = self.game.draws.outcomes(self.rules, self.deal.dealer, tuple(hands), tuple(draws[:k]))
                draws[k] = int(outs[int(rng.integers(len(outs)))])
        return Deal(self.deal.dealer, tuple(hands), tuple(draws))

    def _fill(self, q: int, extra: list[int], rng: np.random.Generator, draws: list[int]) -> int:
        """Player q's places filled uniformly (his dealt hand, returned; the stock's places he
        drew, written into ``draws``): his known dealt cards in his hand, each card he played in a
        place he had before playing it, the cards stage 1 gave him anywhere; most constrained
        first, each uniformly among the open places it may take (the places it may take are
        nested, so every filling is equally likely)."""
        size = self.spec.hand_size
        arrivals = [0] * size + [i for i, _ in self.drawn[q]]       # the hand's places first
        draw_at = [-1] * size + [k for _, k in self.drawn[q]]
        wanted = [(size, c) for c in _cards(self.known[q])]
        wanted += [(sum(1 for a in arrivals if a <= step), c) for c, step in self.played_by[q]]
        wanted += [(len(arrivals), c) for c in extra]
        wanted.sort(key=lambda t: t[0])
        open_places = list(range(len(arrivals)))
        hand = 0
        for reach, c in wanted:
            within = [s for s in open_places if s < reach]
            place = within[int(rng.integers(len(within)))]
            open_places.remove(place)
            if draw_at[place] < 0:
                hand |= 1 << c
            else:
                draws[draw_at[place]] = c
        return hand

    # the check
    def consistent(self, deal: Deal) -> bool:
        """Whether the actions replay legally from ``deal`` and give the player the same
        observation at every step as the true deal."""
        rnd = round_of(self.rules, deal)
        rp, eng, st = rnd.rp, rnd.engine, rnd.state
        out = np.empty(self.obs.shape[1], dtype=np.float32)
        self._encode(st, self.player, rp, out)
        if not np.array_equal(out, self.obs[0]):
            return False
        for i, a in enumerate(self.actions):
            bits, block = eng.legal_set(st, rp)
            if not in_legal_set(int(bits), int(block), a):
                return False
            eng.apply_action(st, a, rp)
            self._encode(st, self.player, rp, out)
            if not np.array_equal(out, self.obs[i + 1]):
                return False
        return True

    def sample(self, rng: np.random.Generator, max_proposals: int = MAX_PROPOSALS) -> Deal:
        """A consistent deal, uniformly; ResampleError after ``max_proposals`` rejected proposals."""
        for _ in range(max_proposals):
            deal = self.propose(rng)
            self.proposals += 1
            if self.consistent(deal):
                self.accepted += 1
                return deal
        raise ResampleError(f"no deal consistent with player {self.player}'s information after "
                            f"{len(self.actions)} actions of {self.rules.name} in {max_proposals} proposals")


_INFORMATION: OrderedDict[tuple, Information] = OrderedDict()


def information(rules: str | Rules, deal: Deal, actions: Sequence[int], player: int) -> Information:
    """The :class:`Information` of ``player`` after ``actions`` of ``deal`` (the last few are kept)."""
    rules = make_rules(rules)
    if isinstance(deal, Deal):        # the same deal whatever sequences it was made of
        deal = Deal(int(deal.dealer), tuple(int(h) for h in deal.hands), tuple(int(d) for d in deal.draws))
    key = (rules, deal, tuple(int(a) for a in actions), player)
    info = _INFORMATION.get(key)
    if info is None:
        info = Information(rules, deal, actions, player)
        _INFORMATION[key] = info
        if len(_INFORMATION) > CACHED_INFORMATION:
            _INFORMATION.popitem(last=False)
    else:
        _INFORMATION.move_to_end(key)
    return info


def resample_deal(rules: str | Rules, deal: Deal, actions: Sequence[int], player: int,
                  rng: np.random.Generator) -> Deal:
    """A deal drawn uniformly among those that give ``player`` exactly the information he has after
    ``actions`` (player actions, in order) of the round dealt ``deal``: the same dealer, his own
    hand, every public fact; the hidden cards and draws dealt again (module docstring).

    ValueError for a player, deal or history that does not fit the rules; ResampleError when no
    consistent deal turns up within :data:`MAX_PROPOSALS` proposals.
    """
    return information(rules, deal, actions, player).sample(np.random.default_rng(rng))


__all__ = ["MAX_PROPOSALS", "ResampleError", "Information", "information", "resample_deal"]
