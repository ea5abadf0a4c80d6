"""A seat's observations as a history of the round: what an agent that searches through the
OpenSpiel game needs when it is given, as every agent of the project, only its observation vector
and legal mask (:mod:`agents.base`).

:class:`SeatHistory` follows one seat through a round, decision by decision, and keeps a *shadow*
of it: a deal (its chance outcomes, :mod:`agents.openspiel.deal`) and every action taken, in which
the seat is player 0 and each observation and mask it was given is exactly the one the shadow gives
it. What the seat cannot know (the others' cards it has not seen, a hidden prediction) is invented;
everything it sees is kept. Nothing here names a game: the actions come from the engine, and the
observation is read by the slices every layout opens with (``hand``, ``played``, ``trick``: the
card slices of :mod:`jass_env.games._observation`), its card sets are told by their length (36
entries, one per card, or 36 per seat) and otherwise it is only compared, entry by entry.

At each decision the actions since the seat's last one are rebuilt:

* a card play by another seat is the card the observation shows it has played since (the one
  lying in the current trick last); when the shadow does not give that seat the card, or the
  card would not be legal there, cards nobody has seen are swapped between the other hands (and
  the game's undrawn cards) until it is;
* a phase action (a contract, a push, a prediction, an exchange) is searched among the legal ones,
  those whose effect on the seat's observation matches the given one first;
* when the shadow's observation still differs, for instance in what the seat sees of another
  hand (a Weis shown, a trump card, Stöck), the cards named by the differing entries of the
  observation's card sets are moved to the seats they name, then other dealers and draws and
  single swaps of unseen cards are tried, each kept when it brings the observation closer
  (:data:`MAX_TRIALS` deals at most, from :data:`RESTARTS` fresh starts).

:meth:`SeatHistory.observe` returns the shadow's deal and actions. Rarely (a few decisions in a
thousand, where a card's timing matters: Sidi's Stöck of a drawn card, a Weis that needs several
cards moved at once) no exact shadow is found; the closest one that allows every legal action of
the seat is taken then (:attr:`SeatHistory.inexact` counts them), and :class:`SeatHistoryError`
is raised only when none does; the entries it differs in are left out of the comparison for the
rest of the round. In a match the rounds after the first differ from a round alone (the scores so
far, Coiffeur's sheets: rows already played are not offered again), so their shadows are inexact;
a decision at which the seat holds all its cards again while the shadow has it play some is taken
as the first of the match's next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jass_env.engine.cards import ALL_CARDS_MASK, N_CARDS, PHASE_ACTION_OFFSET
from jass_env.engine.state import hand_of, played_by
from jass_env.engine.switches import Rules
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of
from jass_env.round import Round

from ..table import encode, observation
from .deal import Deal, Dealing, deal_from_outcomes, round_of

#: the shadow's own seat
ME = 0
#: changed deals tried at one decision before the closest shadow is taken
MAX_TRIALS = 600
#: searches from a fresh start (new random choices) at one decision before giving up
RESTARTS = 4
#: random ways of moving the cards the observation names to their seats tried at one repair
MOVE_TRIES = 8
#: moves in a row tried from one deal (each on the deal the one before made)
CHAIN = 4
#: dealt rounds kept for replays (a decision replays the same few deals many times)
DEALS_KEPT = 64
#: nodes the search of one decision's actions visits at most
MAX_NODES = 300
#: the same at a round taken as new without a reset (:attr:`SeatHistory.quick`)
QUICK_NODES = 30
#: the slices of an observation every layout opens with, by name
HAND, PLAYED, TRICK = "hand", "played", "trick"
#: the entries of a card set in an observation (one per card id)
CARD_SET = N_CARDS


class SeatHistoryError(RuntimeError):
    """No history of the round shows the seat what it was shown (an observation of another game,
    or of a round that went otherwise than the seat's earlier observations say)."""


@dataclass
class _Fit:
    """A deal (chance outcomes), the actions since the seat's last decision that go with it, and how
    far the seat's observation there is from the given one (differing entries; None: the actions
    do not reach the seat's turn)."""

    outcomes: list[int]
    actions: list[int]
    distance: int | None


class SeatHistory:
    """The shadow of one seat's round (see the module doc). Call :meth:`observe` at each of the
    seat's decisions and :meth:`took` with the action it takes; :meth:`reset` before a new round.

    ``rules``: the round's rules; ``rng``: draws the invented cards and the order of equal choices.
    """

    def __init__(self, rules: Rules, rng: np.random.Generator) -> None:
        self.rules, self.spec, self.rng = rules, rules.spec, rng
        self.n = self.spec.players
        slices = {name: (offset, length) for name, offset, length, _ in
                  game_of(rules).observation.obs_slices(self.spec)}
        missing = [s for s in (HAND, PLAYED) if s not in slices]
        if missing:
            raise ValueError(f"{self.spec.name}'s observation has no slice {' or '.join(missing)}: a seat's "
                             f"history is read from the cards it holds and each seat's played cards")
        self.hand_at = slices[HAND][0]
        self.played_at = slices[PLAYED][0]
        self.trick_at = slices[TRICK][0] if TRICK in slices else None
        #: (offset, seats) of each card set of the layout: seats = 0 for one set, else one set per seat
        self.card_sets = [(off, length // CARD_SET if length > CARD_SET else 0)
                          for off, length in slices.values() if length % CARD_SET == 0]
        #: those that show where cards lie that are not played (a Weis, a trump card), not the
        #: seat's hand and the played cards
        self.shown_sets = [(off, length // CARD_SET if length > CARD_SET else 0)
                           for name, (off, length) in slices.items()
                           if length % CARD_SET == 0 and name not in (HAND, PLAYED, TRICK)]
        #: decisions (since this history was made) at which the shadow showed the seat not quite what
        #: it saw, and rounds it took as new without a reset (a match's next round)
        self.inexact = self.new_rounds = 0
        #: the dealt round of each deal tried lately (None: not a deal), by its chance outcomes
        self.dealt: dict[tuple[int, ...], Round | None] = {}
        self.reset()

    def reset(self) -> None:
        """Forget the round: the next :meth:`observe` is the seat's first decision of a new one."""
        self.outcomes: list[int] | None = None
        self.kinds: list[str] = []
        self.actions: list[int] = []
        #: the seat's own actions among them
        self.mine: list[int] = []
        #: the observation's entries left out of the comparison for the rest of the round: those in
        #: which the closest shadow differed when no exact one was found
        self.ignore = np.zeros(obs_dim(self.rules), dtype=bool)
        #: whether only the quick repairs are tried at this decision, with a small search: at a
        #: round that came without a reset (a match's next round, where what differs from a round
        #: alone is not a card out of place) and for the rest of a round once it was inexact
        self.quick = False
        #: the cards the observation shows with a seat or face up (they stay where they are), and
        #: the changed deals one decision may still try
        self.tied, self.trials = 0, MAX_TRIALS

    def took(self, action: int) -> None:
        """The seat took ``action`` at the decision last observed."""
        self.actions.append(int(action))
        self.mine.append(int(action))

    # the observation
    def _cards(self, obs: np.ndarray, offset: int) -> int:
        """The card set (36-bit mask) at ``offset`` of an observation."""
        row = np.flatnonzero(obs[offset:offset + CARD_SET] > 0)
        return sum(1 << int(c) for c in row)

    def _played(self, obs: np.ndarray, seat: int) -> int:
        return self._cards(obs, self.played_at + CARD_SET * seat)

    def _distance(self, rnd: Round, obs: np.ndarray, mask: np.ndarray) -> int | None:
        """Entries in which the seat's observation (those not left out) and mask in ``rnd`` differ
        from the given ones; None when it is not the seat's turn there."""
        if rnd.is_over or rnd.to_move != ME:
            return None
        seen = observation(rnd)
        return int(np.count_nonzero((seen["observation"] != obs) & ~self.ignore)
                   + np.count_nonzero(seen["action_mask"] != mask))

    # the shadow
    def observe(self, obs: np.ndarray, mask: np.ndarray) -> tuple[Deal, list[int]]:
        """The shadow at the seat's decision with observation ``obs`` and action mask ``mask``:
        its deal and every action of the round so far (the seat is player 0 and to move). When the
        round so far has no continuation that shows it, the decision is taken as the first of a
        new round (the next round of a match, where no reset comes between). SeatHistoryError when
        no shadow is found."""
        obs = np.asarray(obs, dtype=np.float32)
        over = any(a < PHASE_ACTION_OFFSET for a in self.mine) and not self._played(obs, ME)
        if not over:                        # unless the seat's cards are back: a new round
            try:
                return self._observe(obs, mask, bool(self.ignore.any()))
            except SeatHistoryError:
                if self.outcomes is None:
                    raise
        self.reset()
        self.new_rounds += 1
        return self._observe(obs, mask, True)

    def _observe(self, obs: np.ndarray, mask: np.ndarray, quick: bool) -> tuple[Deal, list[int]]:
        """:meth:`observe` within the round followed so far (or from its start after a reset);
        ``quick``: only the quick repairs (:attr:`quick`)."""
        self.quick = quick
        obs, mask = np.asarray(obs, dtype=np.float32), np.asarray(mask).astype(np.int8)
        if self.outcomes is None and self._played(obs, ME):
            raise SeatHistoryError(f"the seat has played cards in this {self.spec.name} round already; its "
                                   f"round is rebuilt from its first decision on (after reset())")
        self.tied = 0
        for offset, seats in self.shown_sets:
            for s in range(max(seats, 1)):
                self.tied |= self._cards(obs, offset + CARD_SET * s)
        best: _Fit | None = None
        self.trials = MAX_TRIALS
        for _ in range(1 if self.quick else RESTARTS):
            fit = self._first_fit(obs, mask) if self.outcomes is None else self._fit(self.outcomes, obs, mask)
            while fit.distance != 0 and self.trials > 0:
                better = self._repair(fit, obs, mask)
                if better is None:
                    break
                fit = better
            if best is None or _closer(fit, best):
                best = fit
            if best.distance == 0 or self.trials <= 0:
                break
        self._accept(best, obs, mask)
        if self.outcomes is None:
            self.kinds = _kinds(self.rules, best.outcomes)
        self.outcomes = best.outcomes
        self.actions += best.actions
        return deal_from_outcomes(self.rules, self.outcomes), list(self.actions)

    def _accept(self, best: _Fit, obs: np.ndarray, mask: np.ndarray) -> None:
        """Take ``best`` as the shadow: exact, or the closest one that allows every legal action of
        the seat (counted in :attr:`inexact`; the entries it differs in are left out for the rest
        of the round); SeatHistoryError when there is none."""
        if best.distance != 0:
            rnd = None if best.distance is None else self._replay(best.outcomes, self.actions + best.actions)
            if rnd is None or np.any(observation(rnd)["action_mask"] < mask):
                raise SeatHistoryError(
                    f"no history of this {self.spec.name} round shows the seat its observation and legal "
                    f"actions (closest: {best.distance} entries differ); is the observation one of "
                    f"{self.spec.name}, given at each of the seat's decisions of one round since reset()?")
            self.inexact += 1
            self.ignore |= encode(rnd, ME) != obs

    def _first_fit(self, obs: np.ndarray, mask: np.ndarray) -> _Fit:
        """The closest shadow at the seat's first decision among deals that give it its hand, one
        per dealer the rules may draw."""
        mine = _cards_of(self._cards(obs, self.hand_at))
        best, best_kinds = None, []
        for dealer in range(self.n):
            dealt = self._deal(mine, dealer)
            if dealt is None:
                continue
            outcomes, self.kinds = dealt
            fit = self._fit(outcomes, obs, mask)
            if best is None or _closer(fit, best):
                best, best_kinds = fit, self.kinds
            if fit.distance == 0:
                break
        if best is None:
            raise SeatHistoryError(f"no {self.spec.name} deal gives the seat the hand its observation shows")
        self.kinds = best_kinds
        return best

    def _deal(self, mine: list[int], dealer: int) -> tuple[list[int], list[str]] | None:
        """Chance outcomes of a deal with the seat's cards ``mine`` (as far as its hand goes), the
        others' at random, ``dealer`` when the rules draw one, random draws, and the kind of each
        outcome; None when the rules cannot deal so."""
        outcomes: list[int] = []
        kinds: list[str] = []
        own = list(mine)
        dealing = Dealing.start(self.rules)
        while True:
            kind, options = dealing.next()
            if not options:
                return outcomes, kinds
            kinds.append(kind)
            if kind == "dealer":
                pick = dealer
            elif kind == "card" and dealing.dealt % self.n == ME and own:
                pick = own.pop(0)
            else:
                pick = int(self.rng.choice([o for o in options if kind != "card" or o not in own]))
            if pick not in options:
                return None
            outcomes.append(pick)
            dealing = dealing.after(pick)

    def _replay(self, outcomes: Sequence[int], actions: Sequence[int]) -> Round | None:
        """The round of ``outcomes`` after ``actions``; None when they are not a deal and actions the
        rules allow."""
        key = tuple(outcomes)
        if key not in self.dealt:
            if len(self.dealt) >= DEALS_KEPT:
                self.dealt.pop(next(iter(self.dealt)))
            try:
                self.dealt[key] = round_of(self.rules, deal_from_outcomes(self.rules, outcomes))
            except ValueError:
                self.dealt[key] = None
        dealt = self.dealt[key]
        if dealt is None:
            return None
        rnd = dealt.copy()
        for a in actions:
            if rnd.is_over or not rnd.legal_mask() >> a & 1:
                return None
            rnd.engine.apply_action(rnd.state, a, rnd.rp)
        return rnd

    def _fit(self, outcomes: list[int], obs: np.ndarray, mask: np.ndarray) -> _Fit:
        """The actions since the seat's last decision that bring the shadow closest to ``obs`` and
        ``mask`` (depth first, the likeliest first; :data:`MAX_NODES` at most), with the deal they
        were played on (cards may be swapped so that the others can play what they played)."""
        rnd = self._replay(outcomes, self.actions)
        if rnd is None:
            return _Fit(outcomes, [], None)
        best = _Fit(outcomes, [], None)
        budget = [QUICK_NODES if self.quick else MAX_NODES]

        def search(outcomes: list[int], rnd: Round, path: list[int]) -> bool:
            nonlocal best
            budget[0] -= 1
            if rnd.is_over or rnd.to_move == ME:
                fit = _Fit(outcomes, list(path), self._distance(rnd, obs, mask))
                if _closer(fit, best):
                    best = fit
                return fit.distance == 0
            if budget[0] <= 0:
                return False
            for a, outcomes2 in self._choices(outcomes, rnd, path, obs):
                after = rnd.copy() if outcomes2 is outcomes else self._replay(outcomes2, self.actions + path)
                if after is None:
                    continue
                after.engine.apply_action(after.state, a, after.rp)
                if search(outcomes2, after, path + [a]):
                    return True
            return False

        search(outcomes, rnd, [])
        return best

    def _choices(self, outcomes: list[int], rnd: Round, path: list[int],
                 obs: np.ndarray) -> list[tuple[int, list[int]]]:
        """The actions to try for the player to move in ``rnd`` (not the seat), each with the deal to
        play it on: the card the observation shows it played next (placed in its hand and made
        legal by swaps where needed), then the legal phase actions, those whose effect on the
        seat's observation agrees with ``obs`` first."""
        player = rnd.to_move
        out: list[tuple[int, list[int]]] = []
        card = self._next_card(rnd, player, obs)
        if card is not None:
            placed = self._make_playable(outcomes, rnd, path, player, card)
            if placed is not None:
                out.append((card, placed))
        legal = rnd.legal_actions()
        phase = [int(a) for a in legal if a >= PHASE_ACTION_OFFSET]
        if phase:
            out += [(a, outcomes) for a in self._by_effect(rnd, phase, obs)]
        return out

    def _next_card(self, rnd: Round, player: int, obs: np.ndarray) -> int | None:
        """The card ``player`` plays next by the observation: one it has played there and not yet in
        the shadow, the one lying in the current trick last (None: none left)."""
        due = self._played(obs, player) & ~int(played_by(rnd.state, player))
        if not due:
            return None
        cards = _cards_of(due)
        if len(cards) > 1 and self.trick_at is not None:
            in_trick = self._cards(obs, self.trick_at + CARD_SET * player)
            cards.sort(key=lambda c: in_trick >> c & 1)
        return cards[0]

    def _by_effect(self, rnd: Round, actions: list[int], obs: np.ndarray) -> list[int]:
        """``actions`` ordered by how many of the seat's observation entries they set as ``obs``
        has them, among the entries where the actions' effects differ (ties in random order)."""
        if len(actions) == 1:
            return actions
        seen = []
        for a in actions:
            after = rnd.copy()
            after.engine.apply_action(after.state, a, after.rp)
            seen.append(encode(after, ME))
        views = np.stack(seen)
        differ = np.flatnonzero((views != views[0]).any(axis=0))
        misses = (views[:, differ] != obs[differ]).sum(axis=1)
        order = np.lexsort((self.rng.random(len(actions)), misses))
        return [actions[i] for i in order]

    # swaps of unseen cards
    def _swap(self, outcomes: list[int], a: int, b: int) -> list[int]:
        """The deal with cards ``a`` and ``b`` trading places (in the hands and the game's draws)."""
        out = list(outcomes)
        for i, (o, kind) in enumerate(zip(outcomes, self.kinds, strict=True)):
            if kind in ("card", "draw") and o in (a, b):
                out[i] = b if o == a else a
        return out

    def _make_playable(self, outcomes: list[int], rnd: Round, path: list[int], player: int,
                       card: int) -> list[int] | None:
        """A deal in which ``player`` holds ``card`` and may play it after the actions so far:
        ``outcomes`` when it may, else with the card swapped into its hand and the cards that keep
        it from playing the card swapped with others' unseen cards (one at a time, each swap
        kept when it leaves the player fewer other legal cards). None when no swap does."""
        if rnd.legal_mask() >> card & 1:
            return outcomes
        done = self.actions + path
        due = 1 << card
        if not int(hand_of(rnd.state, player)) >> card & 1:
            for x in self.rng.permutation(_cards_of(int(hand_of(rnd.state, player)) & ~self.tied)):
                trial = self._swap(outcomes, card, int(x))
                after = self._replay(trial, done)
                if after is not None:
                    outcomes, rnd = trial, after
                    break
            else:
                return None
        unseen = _cards_of(self._unseen(rnd, player) & ~self.tied)
        while not rnd.legal_mask() >> card & 1:
            others = _cards_of(rnd.legal_mask() & ~due & ~self.tied & ALL_CARDS_MASK)
            trials = ((int(y), int(z)) for y in self.rng.permutation(others)
                      for z in self.rng.permutation(unseen))
            for y, z in trials:
                trial = self._swap(outcomes, y, z)
                after = self._replay(trial, done)
                if (after is not None and int(hand_of(after.state, player)) >> card & 1
                        and (after.legal_mask() >> card & 1
                             or len(_cards_of(after.legal_mask() & ~due & ~self.tied & ALL_CARDS_MASK))
                             < len(others))):
                    outcomes, rnd = trial, after
                    break
            else:
                return None
        return outcomes

    def _unseen(self, rnd: Round, player: int) -> int:
        """The cards (mask) neither the seat nor ``player`` holds in the shadow and nobody has played:
        the other seats' and the game's undrawn ones."""
        seen = int(hand_of(rnd.state, ME)) | int(hand_of(rnd.state, player))
        for p in range(self.n):
            seen |= int(played_by(rnd.state, p))
        return self.spec.deck & ~seen

    def _repair(self, fit: _Fit, obs: np.ndarray, mask: np.ndarray) -> _Fit | None:
        """A closer shadow than ``fit`` by changing its deal (None when no change tried is closer):
        first the cards the differing entries of the observation's card sets name, moved together
        to (or away from) the seats they name, again on the deal that makes (:data:`CHAIN` times,
        :data:`MOVE_TRIES` random ways); then other dealers and draws; then single swaps of the
        cards those entries name, then of any two cards nobody has played."""
        for _ in range(MOVE_TRIES):
            moved, named = fit, self._named(fit, obs)
            for _ in range(CHAIN):
                if self.trials <= 0 or named is None or not named[2]:
                    break
                self.trials -= 1
                moved = self._fit(self._move_all(moved.outcomes, named[0], named[2]), obs, mask)
                if _closer(moved, fit):
                    return moved
                named = self._named(moved, obs)
        named = self._named(fit, obs)
        if named is None:
            return None
        for outcomes in self._swaps(fit, *named[:2], obs):
            if self.trials <= 0:
                return None
            self.trials -= 1
            trial = self._fit(outcomes, obs, mask)
            if _closer(trial, fit):
                return trial
        return None

    def _named(self, fit: _Fit, obs: np.ndarray) -> tuple[Round, set[int], dict[int, tuple[int, int]]] | None:
        """The shadow of ``fit`` (at the seat's turn, or as far as its actions go), the unplayed
        cards named by the entries of the observation's card sets in which it differs from
        ``obs``, and of those the ones a seat's set names: card -> (that seat, 1 it should hold
        the card, 0 it should not). None when ``fit``'s actions are not legal on its deal."""
        rnd = self._replay(fit.outcomes, self.actions + fit.actions)
        if rnd is None:
            return None
        seen = encode(rnd, ME)
        played = 0
        for p in range(self.n):
            played |= int(played_by(rnd.state, p))
        named: set[int] = set()
        want: dict[int, tuple[int, int]] = {}
        for offset, seats in self.card_sets:
            end = offset + CARD_SET * max(seats, 1)
            for i in np.flatnonzero((seen[offset:end] != obs[offset:end]) & ~self.ignore[offset:end]):
                card, seat = int(i) % CARD_SET, int(i) // CARD_SET
                if played >> card & 1:
                    continue
                named.add(card)
                if seats and seat != ME:
                    want[card] = (seat, int(obs[offset + i] > 0))
        return rnd, named, want

    def _swaps(self, fit: _Fit, rnd: Round, named: set[int], obs: np.ndarray):  # noqa: ANN202 (deals)
        """Deals near ``fit``'s: each other outcome of its dealer and draws, then (unless
        :attr:`quick`) single swaps of a ``named`` card with any card nobody has played, then of any
        two such cards; the seat's own cards as the observation shows them stay."""
        dealing = Dealing.start(self.rules)
        for i, o in enumerate(fit.outcomes):
            kind, options = dealing.next()
            if kind in ("dealer", "draw"):
                for other in options:
                    if other != o:
                        yield fit.outcomes[:i] + [other] + fit.outcomes[i + 1:]
            dealing = dealing.after(o)
        if self.quick:
            return
        played = 0
        for p in range(self.n):
            played |= int(played_by(rnd.state, p))
        kept = int(hand_of(rnd.state, ME)) & self._cards(obs, self.hand_at)
        free = _cards_of(self.spec.deck & ~played & ~kept)
        for a in sorted(named - set(_cards_of(kept))):
            for b in free:
                if b != a:
                    yield self._swap(fit.outcomes, a, b)
        for i, a in enumerate(free):
            for b in free[i + 1:]:
                yield self._swap(fit.outcomes, a, b)

    def _move_all(self, outcomes: list[int], rnd: Round, want: dict[int, tuple[int, int]]) -> list[int]:
        """The deal with each card of ``want`` moved into the dealt hand of its seat (1) or out of it
        (0): swapped with a card of the receiving side that is not played, not the seat's, named by
        no entry and not shown by the observation, or, where no such swap leaves every action
        before the seat's last decision legal, that card passed on to a third hand whose card
        takes the moved card's place."""
        dealt = deal_from_outcomes(self.rules, outcomes).hands
        holder: dict[int, int | None] = {c: None for c in _cards_of(self._unseen(rnd, ME))}
        holder.update((c, p) for p in range(1, self.n) for c in _cards_of(dealt[p]) if c in holder)
        free = [c for c in holder if c not in want and not self.tied >> c & 1]
        for card, (seat, into) in want.items():
            at = holder.get(card, ME)
            if at == ME or (at == seat) == bool(into):
                continue
            pool = [c for c in free if (holder[c] == seat) == bool(into)]
            thirds = [c for c in free if holder[c] not in (seat, at)]
            for other, third in self._cycles(pool, thirds):
                trial = self._swap(outcomes, card, other)
                if third is not None:
                    trial = self._swap(trial, other, third)
                if self._replay(trial, self.actions) is not None:
                    outcomes = trial
                    if third is None:
                        holder[card], holder[other] = holder[other], at
                    else:
                        holder[card], holder[other], holder[third] = holder[other], holder[third], at
                    break
        return outcomes

    def _cycles(self, pool: list[int], thirds: list[int]):  # noqa: ANN202 (a generator of pairs)
        """(partner, None) for each card of ``pool``, then (partner, third) for each partner and
        card of ``thirds``, in random order."""
        pool = [int(c) for c in self.rng.permutation(pool)]
        yield from ((c, None) for c in pool)
        for c in pool:
            for t in self.rng.permutation(thirds):
                yield c, int(t)


def _kinds(rules: Rules, outcomes: Sequence[int]) -> list[str]:
    """What each of a deal's chance outcomes decides ("dealer", "card" or "draw")."""
    dealing, kinds = Dealing.start(rules), []
    for o in outcomes:
        kinds.append(dealing.next()[0])
        dealing = dealing.after(o)
    return kinds


def _cards_of(mask: int) -> list[int]:
    """The card ids of a 36-bit mask, ascending."""
    return [c for c in range(N_CARDS) if mask >> c & 1]


def _closer(a: _Fit, b: _Fit) -> bool:
    """Whether ``a`` is closer to the given observation than ``b``."""
    return a.distance is not None and (b.distance is None or a.distance < b.distance)


__all__ = ["SeatHistory", "SeatHistoryError", "ME", "MAX_TRIALS", "MAX_NODES"]
