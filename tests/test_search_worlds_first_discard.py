"""The worlds of Mittlere and Molotow for the policy-guided search
(agents.bots._first_discard.FirstDiscardWorlds).

A world is the hand as the searching seat knows it, the cards it has not seen dealt at random
within what it knows: its own hand, the cards played, the voids shown, each seat's card count, the
public hand-Weis cards (Molotow, after trick 1) and the spec's deck (Molotow for five plays without
the ♠7). Every decision of these games is a card; the searcher is player 0 of every world and to
move. The world shows the searcher everything its real seat sees: trump and the card that fixed it,
points and tricks, Molotow's hand Weis, table Weis and shown Stöck. Rules: docs/games/mittlere.md,
docs/games/molotow.md.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from agents.bots._first_discard import FirstDiscardWorlds, build_world, decode_view
from jass_env import Match, Round, make_rules
from jass_env.engine import hooks
from jass_env.engine.cards import JACK, KING_QUEEN, N_SUITS, SUIT_MASK, card_id, popcount
from jass_env.engine.spec import MAX_PLAYERS, MAX_TRICKS
from jass_env.engine.state import (
    PHASE_OVER,
    StateView,
    dealer,
    hand_of,
    phase,
    played_by,
    points_of,
    score_of,
    state_size,
    to_move,
    tricks_won_by,
    voids_of,
)
from jass_env.engine.switches import RP_DECK
from jass_env.engine.transitions import for_game
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of
from jass_env.games._first_discard.observation import LAYOUTS

#: Mittlere, and Molotow for three, four, five (no ♠7) and six players
GAMES = ("mittlere", "molotow3", "molotow", "molotow5", "molotow6")
MOLOTOW = GAMES[1:]
WORLDS = 3


def seen(st: np.ndarray, rules, seat: int) -> dict[str, np.ndarray]:
    """The observation dict of ``seat`` in the real state ``st`` (as the environments build it)."""
    obs = np.zeros(obs_dim(rules), dtype=np.float32)
    game_of(rules).observation.encode_observation(st, seat, rules.params, obs)
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    if phase(st) != PHASE_OVER and to_move(st) == seat:
        for_game(rules.spec.kind).action_mask(st, rules.params, mask)
    return {"observation": obs, "action_mask": mask}


def world_mask(world: np.ndarray, rules) -> np.ndarray:
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    for_game(rules.spec.kind).action_mask(world, rules.params, mask)
    return mask


def decisions(rules, seed: int, every: int = 2):
    """(Round, seat) copies at every ``every``-th card decision of a hand of random legal cards
    dealt by ``seed``."""
    rng = np.random.default_rng(seed)
    r = Round(rules, seed=seed)
    k = 0
    while not r.is_over:
        if k % every == 0:
            yield r.copy(), r.to_move
        k += 1
        r.step(int(rng.choice(r.legal_actions())))


def generator(seed: int) -> np.ndarray:
    return np.array([seed], dtype=np.int64)


def slice_of(rules, name: str) -> slice:
    return LAYOUTS.of(rules.spec).slices[name]


@pytest.mark.parametrize("game", GAMES)
def test_every_world_fits_what_the_seat_knows_and_shows_it_its_observation(game):
    rules = make_rules(game)
    n = rules.spec.players
    deck = int(rules.params[RP_DECK])
    model = FirstDiscardWorlds(rules)
    shown = {"trump fixed in a finished trick": 0, "hand Weis": 0, "table Weis": 0, "Stöck": 0}
    for seed in (1, 2, 3):
        for r, seat in decisions(rules, seed):
            st = r.state
            obs = seen(st, rules, seat)
            o = obs["observation"]
            states, counts = model.worlds(obs, WORLDS, generator(seed + 7))
            assert states.shape == (WORLDS, len(st)) and list(counts) == [1] * WORLDS
            for world in states:
                assert to_move(world) == 0 and phase(world) == phase(st)
                np.testing.assert_array_equal(world_mask(world, rules), obs["action_mask"])
                assert hand_of(world, 0) == hand_of(st, seat)
                assert dealer(world) == (dealer(st) - seat) % n
                held = 0
                for rel in range(n):
                    p = (seat + rel) % n
                    assert popcount(hand_of(world, rel)) == popcount(hand_of(st, p))
                    assert played_by(world, rel) == played_by(st, p)
                    assert points_of(world, rel) == points_of(st, p)
                    assert tricks_won_by(world, rel) == tricks_won_by(st, p)
                    assert not held & (hand_of(world, rel) | played_by(world, rel)), "a card dealt twice"
                    held |= hand_of(world, rel) | played_by(world, rel)
                    for s in range(N_SUITS):
                        if voids_of(st, p) >> s & 1:        # the Puur need not follow a trump lead
                            puur = 1 << (9 * s + JACK) if s == r.view.contract and rules.puur_exception else 0
                            assert not hand_of(world, rel) & SUIT_MASK[s] & ~puur, f"seat {rel} void in {s}"
                assert held == deck, "every card of the spec's deck exactly once"
                # player 0's observation of the world is the seat's own, every feature
                out = np.zeros_like(o)
                hooks.encode_observation(rules.spec.kind, world, 0, rules.params, out)
                np.testing.assert_array_equal(out, o)
            trump_trick = np.flatnonzero(o[slice_of(rules, "trump_trick")])
            earlier = bool(trump_trick.size) and trump_trick[0] < r.trick_number
            shown["trump fixed in a finished trick"] += earlier
            shown["hand Weis"] += bool(o[slice_of(rules, "hand_weis")].any())
            shown["table Weis"] += bool(o[slice_of(rules, "table_weis")].any())
            shown["Stöck"] += bool(o[slice_of(rules, "stoeck")].any())
    assert shown["trump fixed in a finished trick"]
    if game in MOLOTOW:                 # the positions seen had what the worlds must reproduce
        assert shown["hand Weis"] and shown["table Weis"]


def stoeck_lies_in_a_finished_trick(r: Round) -> bool:
    """Whether the Stöck holder (not shown yet) has played one of his trump K and Q in a finished
    trick: then when he played it (before or after trump was fixed) is not public."""
    holder = r.view.stoeck_player
    if holder is None or r.view.stoeck_shown:
        return False
    kq = KING_QUEEN[r.view.contract]
    on_table = sum(1 << c for c in r.view.trick)
    return (r.view.hands[holder] | (r.view.played[holder] & on_table)) & kq != kq


def true_world(r: Round, seat: int) -> np.ndarray:
    """The world of ``seat``'s view with the real hands and, while no trump is fixed, the real
    finished tricks (players relative to ``seat``)."""
    rules = r.rules
    n = rules.spec.players
    v = decode_view(seen(r.state, rules, seat), rules)
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for rel in range(n):
        hands[rel] = r.view.hands[(seat + rel) % n]
    plays = np.zeros((MAX_TRICKS, MAX_PLAYERS), dtype=np.int64)
    winners = np.zeros(MAX_TRICKS, dtype=np.int64)
    history = r.trick_number if r.view.declarer < 0 else 0
    for t in range(history):
        plays[t, :n] = r.view.trick_cards(t)
        winners[t] = (r.view.trick_winner(t) - seat) % n
    world = np.zeros(state_size(rules.spec), dtype=np.int64)
    build_world(v, hands, plays, winners, history, rules.params, world)
    return world


@pytest.mark.parametrize("game", GAMES)
def test_a_world_of_the_real_hands_scores_every_player_as_the_real_hand(game):
    """With the real hands (and, before trump is fixed, the real tricks), the rest of the hand
    played as in the real one gives every player his real score: card points recounted when trump
    is fixed, the last trick's 5, Molotow's hand Weis, table Weis and Stöck. Left out: a Stöck
    holder who has played one of his two cards in a finished trick (the seat cannot tell whether
    before trump was fixed)."""
    rules = make_rules(game)
    n = rules.spec.players
    checked = 0
    for seed in (4, 5, 6):
        rng = np.random.default_rng(seed)
        actions = []
        real = Round(rules, seed=seed)
        while not real.is_over:
            actions.append(int(rng.choice(real.legal_actions())))
            real.step(actions[-1])
        r = Round(rules, seed=seed)
        for k, action in enumerate(actions):
            if k % 3 == 0 and not stoeck_lies_in_a_finished_trick(r):
                seat = r.to_move
                world = Round(rules, state=true_world(r, seat))
                for a in actions[k:]:
                    world.step(a)
                assert world.is_over
                assert [world.score[(p - seat) % n] for p in range(n)] == real.score[:n]
                checked += 1
            r.step(action)
    assert checked >= 10


def stoeck_deal() -> Round:
    """Molotow, forehand 0: player 1 holds no ♠ and discards the ♥6 on the ♠A, so ♥ is trump and
    player 0 holds its K and Q (the Stöck); player 1 takes the trick with it and leads the ♦A,
    player 2 follows, player 3 (no ♦) throws a ♠. Player 0 is to move in trick 2 (♦6 ♦7 ♦8)."""
    hands = [["SA", "HK", "HQ", "D6", "D7", "D8", "C6", "C7", "C8"],
             ["H6", "H9", "H10", "DA", "DK", "DQ", "CA", "CK", "CQ"],
             ["S6", "S7", "S8", "D9", "D10", "DJ", "C9", "C10", "CJ"],
             ["S9", "S10", "SJ", "SQ", "SK", "HJ", "HA", "H7", "H8"]]
    r = Round("molotow", hands=hands, dealer=3)
    for card in ("SA", "H6", "S6", "S9", "DA", "D9", "S10"):
        r.step(card)
    return r


def test_the_player_holding_the_trump_king_and_queen_when_trump_was_fixed_holds_the_stoeck():
    """The Stöck (−20 when its second card is played) goes to whoever held the trump K and Q when
    trump was fixed: the searcher's own in every world, and in a world seen from another seat the
    seat the world deals both to. Played out, the searcher's score carries the −20."""
    r = stoeck_deal()
    rules = r.rules
    hearts = 1
    assert r.to_move == 0 and r.view.contract == hearts and r.view.stoeck_player == 0
    model = FirstDiscardWorlds(rules)
    rng = np.random.default_rng(1)
    for world in model.worlds(seen(r.state, rules, 0), 6, generator(2))[0]:
        assert StateView(world, rules.params).stoeck_player == 0
        w = Round(rules, state=world.copy())
        while not w.is_over:
            w.step(int(rng.choice(w.legal_actions())))
        v = w.view
        assert v.stoeck_shown
        assert v.score[0] == v.points[0] + v.weis_points[0] - v.player_weis[0] - rules.stoeck
    for card, seat in (("D6", 1), ("DK", 2)):   # player 1 leads trick 3, player 2 follows
        r.step(card)
        assert r.to_move == seat                # seen from here the K and Q are hidden cards
        holders = set()
        for world in model.worlds(seen(r.state, rules, seat), 20, generator(3))[0]:
            both = [rel for rel in range(4) if hand_of(world, rel) & KING_QUEEN[hearts] == KING_QUEEN[hearts]]
            holder = StateView(world, rules.params).stoeck_player
            assert [holder] == both if both else holder is None
            holders.add(holder)
        assert len(holders) > 1


@pytest.mark.parametrize("game", ["mittlere", "molotow5"])
def test_every_legal_card_then_playing_on_finishes_the_hand(game):
    rules = make_rules(game)
    n = rules.spec.players
    model = FirstDiscardWorlds(rules)
    rng = np.random.default_rng(5)
    for r, seat in decisions(rules, 3, every=5):
        obs = seen(r.state, rules, seat)
        states, _ = model.worlds(obs, 2, generator(11))
        for world in states:
            for card in np.flatnonzero(obs["action_mask"]):
                w = Round(rules, state=world.copy())
                w.step(int(card))
                while not w.is_over:
                    w.step(int(rng.choice(w.legal_actions())))
                assert sum(points_of(w.state, p) for p in range(n)) == 157


@pytest.mark.parametrize("game", ["mittlere", "molotow"])
def test_the_result_is_the_searchers_hand_score_the_better_the_higher(game):
    """Mittlere counts Striche − Nullen up; in Molotow the lowest score is best, so the search's
    result is the score negated."""
    rules = make_rules(game)
    model = FirstDiscardWorlds(rules)
    rng = np.random.default_rng(0)
    finished = []
    for r, seat in decisions(rules, 7, every=6):
        for world in model.worlds(seen(r.state, rules, seat), 2, generator(3))[0]:
            w = Round(rules, state=world.copy())
            while not w.is_over:
                w.step(int(rng.choice(w.legal_actions())))
            finished.append(w.state)
    sign = 1 if game == "mittlere" else -1
    results = model.results(np.array(finished))
    assert list(results) == [sign * score_of(st, 0) for st in finished]


@pytest.mark.parametrize("game", ["mittlere", "molotow5"])
def test_in_a_game_the_totals_seen_are_the_real_ones(game):
    """A world is a single hand; the rollout observations still show the game's totals and the
    hands left, each acting seat seeing them from its own seat as in the real game."""
    rules = make_rules(game)
    n = rules.spec.players
    model = FirstDiscardWorlds(rules)
    rng = np.random.default_rng(2)
    m = Match(rules, seed=2)
    while m.rounds_done < 1:
        m.step(int(rng.choice(m.legal_actions())))
    totals = slice_of(rules, "game_score")
    for _ in range(4):
        st, seat = m.state, m.round.to_move
        obs = seen(st, rules, seat)
        assert obs["observation"][totals].any()
        states, _ = model.worlds(obs, 2, generator(5))
        enc = np.zeros((2, obs_dim(rules)), dtype=np.float32)
        mask = np.zeros((2, rules.spec.n_actions), dtype=np.int8)
        model.encode(states, obs["observation"], enc, mask)
        for i in range(2):
            np.testing.assert_array_equal(enc[i], obs["observation"])
            np.testing.assert_array_equal(mask[i], obs["action_mask"])
        action = int(rng.choice(m.legal_actions()))
        for world in states:
            Round(rules, state=world).step(action)
        model.encode(states, obs["observation"], enc, mask)
        q = to_move(states[0])
        m.step(action)
        real = seen(m.state, rules, (seat + q) % n)["observation"]
        np.testing.assert_array_equal(enc[0][totals], real[totals])
        assert enc[0][slice_of(rules, "rounds_left")] == real[slice_of(rules, "rounds_left")]


def test_the_same_seed_gives_the_same_worlds():
    rules = make_rules("molotow")
    model = FirstDiscardWorlds(rules)
    r, seat = list(decisions(rules, 6, every=9))[2]
    obs = seen(r.state, rules, seat)
    a, _ = model.worlds(obs, 5, generator(42))
    b, _ = model.worlds(obs, 5, generator(42))
    c, _ = model.worlds(obs, 5, generator(43))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_molotow_for_five_deals_no_spade_7():
    rules = make_rules("molotow5")
    model = FirstDiscardWorlds(rules)
    seven = card_id("S7")
    for r, seat in decisions(rules, 8, every=7):
        for world in model.worlds(seen(r.state, rules, seat), 4, generator(9))[0]:
            assert not any(hand_of(world, p) >> seven & 1 for p in range(5))


@pytest.mark.parametrize("game", ["mittlere", "molotow"])
def test_the_game_names_its_worlds_and_bad_requests_are_refused(game):
    rules = make_rules(game)
    module, name = game_of(rules).bots["worlds"].split(":")
    assert getattr(importlib.import_module(module), name) is FirstDiscardWorlds
    model = FirstDiscardWorlds(rules)
    r, seat = next(decisions(rules, 1))
    obs = seen(r.state, rules, seat)
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="n_worlds must be an integer >= 1"):
            model.worlds(obs, bad, generator(1))
    while not r.is_over:
        r.step(int(r.legal_actions()[0]))
    with pytest.raises(ValueError, match="no legal card"):
        model.worlds(seen(r.state, rules, 0), 1, generator(1))
    with pytest.raises(ValueError, match="mittlere, molotow"):
        FirstDiscardWorlds(make_rules("schieber"))
