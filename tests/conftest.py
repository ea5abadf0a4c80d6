"""Shared helpers for the rules-engine tests: deals, positions in the middle of a trick, play-outs.

Cards are written as in docs/rules.md (``"H9"``, ``"SJ"``, ``"C10"``); players are 0..3 in play order,
team = player % 2. Every helper goes through the public API (:class:`jass_env.Round`) or, for a
position in the middle of a round, builds it with :mod:`jass_env.engine.positions` and plays it on
with the engine's entry points for the game (:func:`jass_env.engine.transitions.for_game`).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

# the repository root, so `pytest` works without installing the package (python -m pytest adds it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.toy_game  # noqa: E402, F401  (a test game registered with the family: tests/toy_game)
from jass_env import Round, make_rules  # noqa: E402
from jass_env.engine.card_play import legal_cards  # noqa: E402
from jass_env.engine.cards import CONTRACTS, N_CARDS, card_id, card_name, mask_of, names_of  # noqa: E402
from jass_env.engine.positions import set_play_position  # noqa: E402
from jass_env.engine.state import StateView, new_state  # noqa: E402
from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.engine.transitions import for_game  # noqa: E402
from jass_env.engine.weis import MAX_WEIS, player_weis  # noqa: E402

ALL_CARDS: tuple[str, ...] = tuple(card_name(c) for c in range(N_CARDS))
NATURAL = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def pytest_configure(config) -> None:  # noqa: ANN001 (pytest hook)
    config.addinivalue_line(
        "markers",
        "nojit_sample: a representative rule test that test_properties.py also runs with "
        "NUMBA_DISABLE_JIT=1 (the pure-Python engine must agree with the compiled one)")


# card sets
def rank_of(card: str) -> str:
    return card[1:]


def deal(partial: Mapping[int, Sequence[str]], *, seed: int = 0, clean: bool = True, players: int = 4,
         hand_size: int = 9, deck: Sequence[str] = ALL_CARDS) -> list[list[str]]:
    """Complete a deal of the ``deck`` (the 36 cards unless told) to ``players`` hands of
    ``hand_size``: hands given in ``partial`` (all their cards or some of them) are filled up with
    the cards nobody was given.

    With ``clean`` the cards added never make a hand hold a Weis or Stöck that the given cards
    did not already hold (no run of 3, no four of a kind, no K+Q of one suit is created), so the
    test decides every Weis and Stöck of the round. Deterministic for a given ``seed``.
    """
    given = [list(partial.get(p, ())) for p in range(players)]
    used = [c for h in given for c in h]
    if len(set(used)) != len(used):
        raise ValueError(f"a card is given twice: {used}")
    if any(len(h) > hand_size for h in given):
        raise ValueError(f"a hand has more than {hand_size} cards")
    rest = [c for c in deck if c not in used]
    rng = random.Random(seed)
    for _ in range(20000):
        rng.shuffle(rest)
        hands, i = [], 0
        for h in given:
            k = hand_size - len(h)
            hands.append(h + rest[i:i + k])
            i += k
        if not clean or all(_adds_nothing(given[p], hands[p]) for p in range(players)):
            return hands
    raise AssertionError(f"no clean completion of {dict(partial)} found")


def _adds_nothing(given: list[str], hand: list[str]) -> bool:
    """The filler cards create no run/quad/K+Q pattern beyond those in the given cards."""
    if len(given) == len(hand):
        return True
    return patterns(hand) <= patterns(given)


def patterns(hand: Iterable[str]) -> set[tuple]:
    """Every pattern in the hand: maximal runs (suit, low, length), quads (rank), K+Q pairs (suit)."""
    hand = set(hand)
    out: set[tuple] = set()
    for s in "DHSC":
        i = 0
        while i < 9:
            if s + NATURAL[i] not in hand:
                i += 1
                continue
            j = i
            while j < 9 and s + NATURAL[j] in hand:
                j += 1
            if j - i >= 3:
                out.add(("run", s, i, j - i))
            i = j
        if s + "K" in hand and s + "Q" in hand:
            out.add(("kq", s))
    for r in NATURAL:
        if all(s + r in hand for s in "DHSC"):
            out.add(("quad", r))
    return out


# rounds
def new_round(partial: Mapping[int, Sequence[str]], contract: str | None = None, *,
              rules: str | Rules = "schieber", dealer: int = 3, seed: int = 0,
              clean: bool = True) -> Round:
    """A Round dealt from chosen hands (completed by :func:`deal`); forehand = dealer + 1.

    ``dealer=3`` (default) makes player 0 forehand. With ``contract`` forehand names it at once.
    """
    r = Round(rules, hands=deal(partial, seed=seed, clean=clean), dealer=dealer)
    if contract is not None:
        r.step(contract)
    return r


def position(contract: str, hand: Sequence[str], trick: Sequence[str] = (), *,
             rules: str | Rules = "schieber", leader: int = 0,
             others: Mapping[int, Sequence[str]] | None = None, declarer: int | None = None) -> Round:
    """A Round in the play phase, in the middle of a trick.

    ``trick`` lists the cards on the table, played by ``leader``, leader + 1, ...; the player to
    move (leader + len(trick)) holds ``hand``. Hand sizes follow from it: with h cards in the
    mover's hand it is trick number 9 - h; the players already in the trick hold h - 1 cards, the
    others h. Their cards are taken from ``others`` where given, else from the remaining cards in
    card-id order. The trick's cards are played through the engine's ``apply_action`` (unchecked, so a
    position may contain any cards), which keeps the engine's own trick bookkeeping. Earlier
    tricks are not recorded (points and tricks start at 0), so the round's points and tricks
    afterwards are those of the current trick and later ones. No Weis and no Stöck are set up
    (see :func:`new_round` for full rounds). ``declarer`` named the contract (default: ``leader``).
    """
    r_rules = make_rules(rules)
    rp = r_rules.params
    n = len(trick)
    mover = (leader + n) % 4
    h = len(hand)
    if not 1 <= h <= 9 or n > 3:
        raise ValueError("hand must have 1..9 cards and the trick 0..3 cards")
    t = 9 - h
    others = dict(others or {})
    taken = set(hand) | set(trick) | {c for cs in others.values() for c in cs}
    free = [c for c in ALL_CARDS if c not in taken]
    hands = np.zeros(4, dtype=np.int64)
    for p in range(4):
        if p == mover:
            cards = list(hand)
        else:
            pos = (p - leader) % 4
            size = h - 1 if pos < n else h
            cards = list(others.get(p, ()))
            while len(cards) < size:
                cards.append(free.pop(0))
            if len(cards) != size:
                raise ValueError(f"player {p} must hold {size} cards here, got {cards}")
            if pos < n:
                cards.append(trick[pos])      # the card he is about to play into the trick
        hands[p] = mask_of(cards)
    st = new_state(r_rules.spec)
    none = np.zeros(4, dtype=np.int64)          # nothing played, no voids, no Weis cards yet
    no_trick = np.full(4, -1, dtype=np.int64)
    sides = np.zeros(2, dtype=np.int64)         # no points, no tricks won
    set_play_position(st, hands, none, none, none, no_trick, 0, leader, leader, 0,
                      leader if declarer is None else declarer, CONTRACTS.index(contract), t,
                      sides, sides, leader, rp)
    engine = for_game(r_rules.spec.kind)
    for c in trick:
        engine.apply_action(st, card_id(c), rp)
    assert StateView(st, rp).to_move == mover
    return Round(r_rules, state=st)


def legal(contract: str, hand: Sequence[str], trick: Sequence[str] = (), **kw) -> set[str]:
    """Names of the cards the player to move may play in :func:`position`."""
    r = position(contract, hand, trick, **kw)
    cards = {card_name(a) for a in r.legal_actions()}
    # the checked step agrees with the legal set: an illegal card is refused
    assert cards <= set(hand)
    return cards


def legal_core(contract: str, hand: Sequence[str], trick: Sequence[str] = (),
               rules: str | Rules = "schieber") -> set[str]:
    """The same question asked of the engine's ``legal_cards`` directly."""
    arr = np.full(4, -1, dtype=np.int64)
    for i, c in enumerate(trick):
        arr[i] = card_id(c)
    m = legal_cards(mask_of(hand), arr, len(trick), CONTRACTS.index(contract),
                         make_rules(rules).params)
    return set(names_of(int(m)))


def play(r: Round, *cards: str) -> None:
    """Play the cards in order, each by the player to move (checked: illegal cards raise)."""
    for c in cards:
        r.step(c)


def play_out(r: Round, script: Mapping[int, Sequence[str]] | None = None) -> Round:
    """Play to the end of the round: a scripted player plays his listed cards in order; everyone
    else plays his first legal card (lowest card id). Returns ``r``."""
    queues = {p: list(cs) for p, cs in (script or {}).items()}
    while not r.is_over:
        p = r.to_move
        if queues.get(p):
            r.step(queues[p].pop(0))
        else:
            r.step(int(r.legal_actions()[0]))
    return r


def weis_of(hand: Sequence[str], contract: str, rules: str | Rules = "schieber",
            position_: int = 0) -> list[tuple[int, list[str]]]:
    """The Weis a player declares from ``hand``: sorted [(points, card names)]."""
    rp = make_rules(rules).params
    buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
    n = player_weis(mask_of(hand), CONTRACTS.index(contract), position_, rp, buf)
    return sorted((int(buf[i, 0]), sorted(names_of(int(buf[i, 1])))) for i in range(n))


def best_key(hand: Sequence[str], contract: str, rules: str | Rules = "schieber",
             position_: int = 0) -> int:
    """The comparison key of the player's best single Weis (-1 without Weis)."""
    rp = make_rules(rules).params
    buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
    n = player_weis(mask_of(hand), CONTRACTS.index(contract), position_, rp, buf)
    return max((int(buf[i, 2]) for i in range(n)), default=-1)


def suit_cards(suit: str, ranks: str) -> list[str]:
    """``suit_cards("H", "6 7 8")`` -> ["H6", "H7", "H8"]."""
    return [suit + r for r in ranks.split()]


def play_aec_round(agent, seed: int) -> int:  # noqa: ANN001 (any object with act(obs))
    """Play one round of the AEC env (``jass_env.env()``, which raises on an illegal action) with
    ``agent`` in all four seats, checking every action against the mask; returns the number of
    decisions."""
    from jass_env.envs.aec import env as aec_env

    e = aec_env()
    e.reset(seed=seed)
    n = 0
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        a = agent.act(obs)
        assert obs["action_mask"][a] == 1
        e.step(a)
        n += 1
    return n
