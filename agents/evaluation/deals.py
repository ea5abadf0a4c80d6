"""Deal sets: frozen deals every agent of an evaluation is measured on, and their SHA-256.

* Team games (:class:`Deal`): deal ``i`` of the set ``S`` is shuffled by the engine
  (:func:`jass_env.engine.deal.deal`) from the generator state ``seed_to_rng_state(deal_seed(S, i))``;
  the dealer is ``i % players``. Each play starts a Round from the hands and the dealer.
* Games played alone (:class:`RotationDeal`): deal ``i`` is dealt by the engine
  (:func:`jass_env.engine.transitions.deal_round`, which also fixes trump: the shown bottom card)
  from the same
  generator state with dealer ``i % players``; the dealt state is kept and every play starts from a
  copy, so all plays of a deal have the same hands and trump.

A set's hash covers the rules' switches and every deal's index, seed, dealer and hands (games
played alone: and the trump); the reports print it, so two reports can be seen to share a set.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from jass_env.engine.deal import deal, seed_to_rng_state
from jass_env.engine.spec import game_spec
from jass_env.engine.state import StateView, new_state
from jass_env.engine.switches import Rules
from jass_env.engine.transitions import for_game
from jass_env.games import make_rules

from .seeds import deal_seed


@dataclass(frozen=True)
class Deal:
    """One frozen deal of a team game: its index in the set, seed, dealer (index % players) and
    the hand bitboards (4 in Schieber, 6 in Schieber for six)."""

    index: int
    seed: int
    dealer: int
    hands: tuple[int, ...]


def make_deal(set_seed: int, index: int, game: str | None = None) -> Deal:
    """Deal ``index`` of the set ``set_seed`` for the game ``game`` (a spec name: its players,
    hand size and deck; None: the default preset's): hands shuffled by the engine from the deal
    seed."""
    s = deal_seed(set_seed, index)
    spec = make_rules().spec if game is None else game_spec(game)
    st = new_state(spec, seed_to_rng_state(s))
    hands = np.zeros(spec.players, dtype=np.int64)
    deal(st, hands, spec.players, spec.hand_size, spec.deck)
    return Deal(index, s, index % spec.players, tuple(int(h) for h in hands[:spec.players]))


def make_deal_set(n: int, set_seed: int, game: str | None = None) -> list[Deal]:
    """The first ``n`` deals of the set ``set_seed``."""
    return [make_deal(set_seed, i, game) for i in range(n)]


def deal_set_hash(deals: Sequence[Deal], rules: Rules) -> str:
    """SHA-256 over the rules' switches and every deal's index, seed, dealer and hands."""
    return _set_hash(rules, (f"{d.index},{d.seed},{d.dealer},{','.join(map(str, d.hands))}" for d in deals))


@dataclass(frozen=True)
class RotationDeal:
    """One frozen deal of a game played alone: its index, seed, dealer and the dealt state every
    play starts from."""

    index: int
    seed: int
    dealer: int
    start: np.ndarray = field(repr=False, compare=False)


def make_rotation_deal(rules: Rules, set_seed: int, index: int) -> RotationDeal:
    """Deal ``index`` of the set ``set_seed`` (dealer ``index % n``), hands and trump fixed."""
    s = deal_seed(set_seed, index)
    st = new_state(rules.spec, seed_to_rng_state(s))
    engine = for_game(rules.spec.kind)
    engine.reset_match(st, False, rules.params)
    dealer = index % rules.spec.players
    engine.deal_round(st, dealer, rules.params)
    return RotationDeal(index, s, dealer, st)


def rotation_deal_set_hash(deals: Sequence[RotationDeal], rules: Rules) -> str:
    """SHA-256 over the rules' switches and every deal's index, seed, dealer, hands and trump."""
    views = ((d, StateView(d.start, rules.params)) for d in deals)
    return _set_hash(rules, (f"{d.index},{d.seed},{d.dealer},{','.join(map(str, v.hands))},{v.contract},"
                             f"{v.trump_card}" for d, v in views))


def _set_hash(rules: Rules, deal_lines: Iterable[str]) -> str:
    """SHA-256 over the rules' switches (JSON, sorted keys), then each deal's line and ``;``."""
    h = hashlib.sha256(json.dumps(rules.switches(), sort_keys=True, default=str).encode())
    for line in deal_lines:
        h.update(f"{line};".encode())
    return h.hexdigest()


__all__ = ["Deal", "make_deal", "make_deal_set", "deal_set_hash", "RotationDeal", "make_rotation_deal",
           "rotation_deal_set_hash"]
