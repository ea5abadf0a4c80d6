"""Baseline bots: legal play in every preset, no peeking at hidden cards, heuristic rules, PIMC.

Rounds are driven with :class:`jass_env.Round`; each bot sees only the observation and action mask
of the player to move, encoded by the game's observation module as the environments encode it, with
the engine's ``action_mask``.
"""

from __future__ import annotations

import functools
import itertools
import operator

import numpy as np
import pytest
from conftest import position

from agents.bots.schieber import (
    V_CONTRACT,
    V_DECLARER,
    V_HAND,
    V_LEGAL,
    V_PHASE,
    V_PLAYED,
    V_SIZE,
    V_VOIDS,
    V_WEIS,
    HeuristicAgent,
    PIMCAgent,
    SeatView,
    choose_contract,
    decode,
    graf_scores,
    heuristic_card,
    possible_cards,
    sample_world,
)
from agents.random_bot import RandomAgent, check_random_opponents, draw_random_team
from agents.search.worlds import MAX_TRIES
from jass_env import PRESETS, SCHIEBER_PRESETS, Round
from jass_env.engine.cards import card_id, mask_of, names_of, suit_of
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.state import StateView, new_state, state_size
from jass_env.engine.transitions import for_game
from jass_env.envs import encoding
from jass_env.games import game_of
from jass_env.games.schieber.observation import OBS_DIM, layout_slices
from jass_env.games.schieber.rules import PUSH

PRESET_NAMES = SCHIEBER_PRESETS


def obs_for(r: Round) -> dict[str, np.ndarray]:
    """The observation dict of the player to move, as the environments build it."""
    o = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    m = np.zeros(r.spec.n_actions, dtype=np.int8)
    game_of(r.rules).observation.encode_observation(r.state, r.to_move, r.rp, o)
    for_game(r.spec.kind).action_mask(r.state, r.rp, m)
    return {"observation": o, "action_mask": m}


def make_bots(rules: str) -> dict[str, object]:
    return {"random": RandomAgent(seed=1), "heuristic": HeuristicAgent(rules),
            "pimc": PIMCAgent(rules, worlds=3, seed=1),
            "pimc_random": PIMCAgent(rules, worlds=2, rollout="random", seed=1)}


# legality
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_every_bot_plays_legally_in_every_preset(rules: str) -> None:
    bots = make_bots(rules)
    rounds = {"random": 30, "heuristic": 60, "pimc": 6, "pimc_random": 4}
    for name, bot in bots.items():
        for seed in range(rounds[name]):
            bot.reset(seed)
            r = Round(rules, seed=1000 * seed + 7)
            while not r.is_over:
                obs = obs_for(r)
                a = bot.act(obs)
                assert obs["action_mask"][a] == 1, (name, rules, seed, a)
                r.step(a)                       # raises IllegalActionError if illegal


def test_mixed_table_plays_legally_with_restricted_presets() -> None:
    """Heuristic and PIMC at one table under a preset without Obenabe/Undenufe and no trump-instead."""
    for rules in ("seed_vaud", "seed_nl"):
        bots = [HeuristicAgent(rules), PIMCAgent(rules, worlds=2, seed=3)] * 2
        for seed in range(8):
            r = Round(rules, seed=seed)
            while not r.is_over:
                r.step(bots[r.to_move].act(obs_for(r)))
            assert sum(r.points) == 157


# hidden cards
def _history_position(rules: str, seed: int, n_actions: int) -> tuple[Round, list[int]]:
    """A round after ``n_actions`` heuristic actions, with its action history."""
    bot = HeuristicAgent(rules)
    r = Round(rules, seed=seed)
    hist: list[int] = []
    while len(hist) < n_actions and not r.is_over:
        a = bot.act(obs_for(r))
        r.step(a)
        hist.append(a)
    return r, hist


def _swapped_positions(rules: str, seed: int, n_actions: int, limit: int = 4):
    """Pairs of rounds that differ only in which other player holds which unplayed card.

    Every swap of two unplayed cards between two other players is tried; kept are those whose
    history replays legally and whose observation for the player to move is identical.
    """
    r1, hist = _history_position(rules, seed, n_actions)
    if r1.is_over or r1.phase != "play":
        return
    me = r1.to_move
    others = [p for p in range(4) if p != me]
    found = 0
    for q1, q2 in itertools.combinations(others, 2):
        for c1, c2 in itertools.product(r1.hand(q1), r1.hand(q2)):
            dealt = [set(r1.dealt_hand(p)) for p in range(4)]
            dealt[q1] = (dealt[q1] - {c1}) | {c2}
            dealt[q2] = (dealt[q2] - {c2}) | {c1}
            r2 = Round(rules, hands=[sorted(h) for h in dealt], dealer=r1.dealer)
            try:
                for a in hist:
                    r2.step(a)
            except ValueError:
                continue
            o1, o2 = obs_for(r1), obs_for(r2)
            if np.array_equal(o1["observation"], o2["observation"]) and \
                    np.array_equal(o1["action_mask"], o2["action_mask"]):
                assert r1.hand(q1) != r2.hand(q1)
                yield r1, r2
                found += 1
                if found >= limit:
                    return


@pytest.mark.parametrize("rules", ("schieber", "tournament", "seed_nl"))
def test_choices_do_not_depend_on_hidden_cards(rules: str) -> None:
    checked = 0
    for seed, n_actions in ((1, 6), (2, 11), (3, 17), (4, 24), (5, 30)):
        for r1, r2 in _swapped_positions(rules, seed, n_actions):
            for name, bot in make_bots(rules).items():
                bot.reset(seed)
                a1 = bot.act(obs_for(r1))
                bot.reset(seed)
                a2 = bot.act(obs_for(r2))
                assert a1 == a2, (name, rules, seed, n_actions)
            checked += 1
    assert checked >= 5


# view
def test_seat_view_matches_the_round() -> None:
    r, _ = _history_position("schieber", 11, 15)
    me = r.to_move
    v = SeatView.from_obs(obs_for(r))
    assert names_of(v.hand) == r.hand(me)
    assert v.phase == 2 and v.phase_name == "play"
    assert v.contract_name == r.contract
    assert v.declarer == (r.declarer - me) % 4
    assert v.forehand == (r.forehand - me) % 4
    assert v.leader == (r.leader - me) % 4 == v.trick_leader
    assert v.trick_number == r.trick_number
    assert [names_of(1 << c)[0] for c in v.trick] == [c for _, c in r.current_trick]
    assert v.card_points == (r.points[me % 2], r.points[1 - me % 2])
    for rel in range(4):
        p = (me + rel) % 4
        assert v.played[rel] == StateView(r.state, r.rp).played[p]
        assert v.voids[rel] == StateView(r.state, r.rp).voids[p]
        assert v.hand_size(rel) == len(r.hand(p))
    assert v.legal_actions() == list(r.legal_actions())
    assert v.unseen == sum(mask_of(r.hand(p)) for p in range(4) if p != me)


def test_decode_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        decode(np.zeros(10, dtype=np.float32), np.zeros(43))
    with pytest.raises(ValueError, match="action_mask"):
        decode({"observation": np.zeros(OBS_DIM, dtype=np.float32)})
    with pytest.raises(ValueError, match="worlds"):
        PIMCAgent("schieber", worlds=0)
    with pytest.raises(ValueError, match="rollout"):
        PIMCAgent("schieber", rollout="minimax")


# heuristic
def _contract_action(hand: list[str], legal: int) -> int:
    return int(choose_contract(mask_of(hand), legal))


ALL_CONTRACTS_AND_PUSH = sum(1 << a for a in range(36, 43))


def test_heuristic_pushes_a_weak_hand_and_picks_a_strong_trump() -> None:
    weak = ["D9", "D10", "H9", "H8", "SQ", "S8", "C9", "CJ", "C8"]
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(mask_of(weak), scores)
    assert scores.max() < 68
    assert _contract_action(weak, ALL_CONTRACTS_AND_PUSH) == 42
    # after a push the partner must choose: the best Graf contract
    assert _contract_action(weak, ALL_CONTRACTS_AND_PUSH & ~(1 << 42)) == 36 + int(np.argmax(scores))
    strong = ["HJ", "H9", "HA", "HK", "H10", "SA", "D6", "C7", "C8"]
    assert _contract_action(strong, ALL_CONTRACTS_AND_PUSH) == 36 + 1          # hearts
    aces = ["DA", "DK", "HA", "HK", "SA", "SQ", "CA", "CK", "C10"]
    assert _contract_action(aces, ALL_CONTRACTS_AND_PUSH) == 36 + 4            # Obenabe
    sixes = ["D6", "D7", "H6", "H7", "S6", "S8", "C6", "C7", "C9"]
    assert _contract_action(sixes, ALL_CONTRACTS_AND_PUSH) == 36 + 5           # Undenufe
    # a contract the rules forbid is never chosen
    assert _contract_action(aces, sum(1 << a for a in range(36, 40))) in range(36, 40)


def test_heuristic_agent_contract_phase_via_observation() -> None:
    r = Round("schieber", seed=5)
    a = HeuristicAgent("schieber").act(obs_for(r))
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(mask_of(r.hand(r.to_move)), scores)
    assert a == (42 if scores.max() < 68 else 36 + int(np.argmax(scores)))


def _act(r: Round) -> str:
    return names_of(1 << HeuristicAgent(r.rules).act(obs_for(r)))[0]


def test_heuristic_smears_to_a_winning_partner_as_last_player() -> None:
    # hearts trump; leader 0 (opponent of mover 3); partner 1 wins with the spade Ace
    r = position("H", ["D10", "D6", "CK", "H6"], ["S7", "SA", "S8"], leader=0)
    assert r.to_move == 3
    assert _act(r) == "D10"
    # Obenabe: any suit may be smeared, the 10 again
    r = position("obenabe", ["D10", "D6", "CK", "C7"], ["S7", "SA", "S8"], leader=0)
    assert _act(r) == "D10"


def test_heuristic_takes_a_trick_cheaply_as_last_player() -> None:
    # an opponent wins with the spade King; the Ace takes it (a trump would be dearer)
    r = position("H", ["SA", "DA", "H6", "C7"], ["SK", "S6", "S10"], leader=0)
    assert _act(r) == "SA"
    # only trumps win: the lowest trump, not the Puur
    r = position("H", ["HJ", "H6", "C7", "S6"], ["D10", "D6", "DA"], leader=0)
    assert _act(r) == "H6"
    # partner already winning: no need to overtake, smear instead
    r = position("H", ["SA", "DK", "H6", "C7"], ["S9", "SK", "S6"], leader=1)
    assert _act(r) == "SA"


def test_heuristic_pulls_trumps_when_its_team_declared() -> None:
    hand = ["HJ", "H9", "HA", "SA", "SK", "D6", "D7", "C8", "C9"]
    r = position("H", hand, [], leader=0)        # mover 0 is the declarer
    assert _act(r) == "HJ"
    # without the Bock but with three trumps: a low trump
    hand = ["H9", "H7", "H6", "SA", "SK", "D6", "D7", "C8", "C9"]
    assert _act(position("H", hand, [], leader=0)) == "H6"
    # opponents declared: lead the side-suit Bock instead
    r = position("H", ["HJ", "H9", "HA", "SA", "SK", "D6", "D7", "C8", "C9"], [], leader=0, declarer=1)
    assert _act(r) == "SA"


def test_heuristic_leads_bocks_in_obenabe_and_undenufe() -> None:
    assert _act(position("obenabe", ["DA", "DK", "S7", "S8", "S9"], [], leader=2)) == "DA"
    assert _act(position("undenufe", ["D6", "DK", "S10", "SA", "SK"], [], leader=2)) == "D6"
    # no Bock: low from the longest suit
    assert _act(position("obenabe", ["DK", "S7", "S8", "S10", "CQ"], [], leader=2)) == "S7"


def test_heuristic_discards_cheaply_and_uses_known_voids() -> None:
    # an opponent wins, the trick is worth nothing and we cannot beat it: discard the cheapest,
    # keeping the trump and the diamond Bock
    r = position("H", ["DA", "C6", "CK", "H7"], ["S6", "S9"], leader=1)
    assert _act(r) == "C6"
    # possible_cards: a seat void in spades may hold no spade; with the Puur exception a trump
    # void may still hold the Puur
    rp = PRESETS["schieber"].params
    voids = np.array([0, 1 << 2 | 1 << 1, 0, 0], dtype=np.int64)
    known = np.zeros(4, dtype=np.int64)
    unseen = (1 << 36) - 1
    m = possible_cards(1, unseen, voids, known, 1, rp)
    assert m & (0x1FF << 18) == 0
    assert m & (0x1FF << 9) == 1 << card_id("HJ")


def test_heuristic_card_respects_a_given_legal_mask() -> None:
    rp = PRESETS["schieber"].params
    trick = np.full(4, -1, dtype=np.int64)
    z = np.zeros(4, dtype=np.int64)
    hand = mask_of(["DA", "DK", "S7", "C6"])
    for card in ("DK", "S7", "C6"):
        c = heuristic_card(hand, 0, trick, 0, 0, 0, 1, 0, z, z, rp, 1 << card_id(card))
        assert names_of(1 << c) == [card]


# PIMC
def played_actions(bot, seed: int, deals: int) -> list[int]:
    """Every action of ``bot`` in four seats over Schieber deals 0..deals-1, reset with seed + deal."""
    out = []
    for deal in range(deals):
        bot.reset(seed + deal)
        r = Round("schieber", seed=deal)
        while not r.is_over:
            a = bot.act(obs_for(r))
            out.append(a)
            r.step(a)
    return out


def test_pimc_is_deterministic_given_the_seed() -> None:
    def run(seed: int) -> list[int]:
        return played_actions(PIMCAgent("schieber", worlds=4, seed=0), seed, 3)

    assert run(10) == run(10)
    # a time limit that is never reached gives the same choices
    bot = PIMCAgent("schieber", worlds=4, seed=3)
    timed = PIMCAgent("schieber", worlds=4, time_limit=60, seed=3)
    r = Round("schieber", seed=9)
    while not r.is_over:
        o = obs_for(r)
        a = bot.act(o)
        assert timed.act(o) == a
        r.step(a)
    # a tiny time limit still evaluates at least one world
    tiny = PIMCAgent("schieber", worlds=50, time_limit=1e-9, seed=3)
    r = Round("schieber", seed=4)
    while r.phase != "play" or len(r.legal_actions()) < 2:
        r.step(HeuristicAgent("schieber").act(obs_for(r)))
    tiny.act(obs_for(r))
    assert tiny.last_worlds == 1


def _check_world(v: np.ndarray, hands: np.ndarray, rules: str) -> None:
    played = [int(v[V_PLAYED + r]) for r in range(4)]
    all_played = played[0] | played[1] | played[2] | played[3]
    assert int(hands[0]) == int(v[V_HAND])
    union = 0
    for r in range(4):
        h = int(hands[r])
        assert union & h == 0
        union |= h
        assert bin(h).count("1") == 9 - bin(played[r]).count("1")          # hand sizes
        weis = int(v[V_WEIS + r]) & ~all_played
        assert h & weis == weis                                          # public Weis stay
        for s in range(4):
            if int(v[V_VOIDS + r]) >> s & 1:                                  # voids
                suit = h & (0x1FF << (9 * s))
                contract = int(v[V_CONTRACT])
                if s == contract and PRESETS[rules].puur_exception:
                    suit &= ~(1 << (9 * s + 3))
                assert suit == 0
    assert union | all_played == (1 << 36) - 1


def test_sampled_worlds_respect_voids_hand_sizes_and_public_weis() -> None:
    rules = "schieber"
    rp = PRESETS[rules].params
    rng = np.array([12345], dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    seen_voids = seen_weis = 0
    for seed in range(40):
        bots = [PIMCAgent(rules, worlds=2, seed=seed), HeuristicAgent(rules)] * 2
        r = Round(rules, seed=seed)
        while not r.is_over:
            o = obs_for(r)
            if r.phase == "play":
                v = decode(o)
                seen_voids += int(v[V_VOIDS + 1:V_VOIDS + 4].any())
                seen_weis += int(any(int(v[V_WEIS + k]) & ~int(v[V_PLAYED + k]) for k in range(1, 4)))
                for _ in range(3):
                    tries = sample_world(v, rp, rng, hands)
                    assert tries <= MAX_TRIES
                    _check_world(v, hands, rules)
            r.step(bots[r.to_move].act(o))
    assert seen_voids > 20 and seen_weis > 5


def test_sampling_relaxes_impossible_constraints_without_hanging() -> None:
    rp = PRESETS["schieber"].params
    r = Round("schieber", seed=2)
    r.step("obenabe" if (r.legal_mask() >> 40) & 1 else r.legal_actions()[0])
    v = decode(obs_for(r))
    v2 = v.copy()
    v2[V_VOIDS + 1:V_VOIDS + 4] = 0b1111                   # every other seat "void" in every suit
    hands = np.zeros(4, dtype=np.int64)
    tries = sample_world(v2, rp, np.array([7], dtype=np.int64), hands)
    assert tries == MAX_TRIES + 1
    assert int(hands[0] | hands[1] | hands[2] | hands[3]) == (1 << 36) - 1
    assert all(bin(int(h)).count("1") == 9 for h in hands)
    assert v.shape == (V_SIZE,)


def test_pimc_plays_the_only_legal_card_and_uses_graf_for_the_contract() -> None:
    bot = PIMCAgent("schieber", worlds=5, seed=0)
    r = Round("schieber", seed=5)
    assert bot.act(obs_for(r)) == HeuristicAgent("schieber").act(obs_for(r))
    r = position("H", ["D6"], ["D7", "D8", "D9"], leader=1)
    bot.last_worlds = -1
    assert bot.act(obs_for(r)) == card_id("D6")
    assert bot.last_worlds == -1                   # no search was run


def test_a_world_built_from_the_true_hands_finishes_the_trick_as_the_engine_does() -> None:
    """PIMC's world state, given the real hidden hands, must resolve the current trick exactly as
    the live game does (the trick's winner so far is derived state the world must rebuild)."""
    from agents.bots.schieber import build_world_state

    for seed in range(40):
        r = Round("schieber", seed=seed)
        r.step("H")
        for _ in range(4 + seed % 3 + 1):          # stop inside trick 2 with 1..3 cards down
            r.step(int(r.legal_actions()[0]))
        me = r.to_move
        v = decode(obs_for(r))
        held = StateView(r.state, r.rp).hands
        hands = np.array([held[(me + k) % 4] for k in range(4)], dtype=np.int64)
        world = new_state(r.spec)
        build_world_state(v, hands, r.rp, world)
        live = r.state.copy()
        engine = for_game(r.spec.kind)
        while StateView(live, r.rp).cards_in_trick != 0:
            a = int(engine.legal_actions(live, r.rp)[0])
            card_index = engine.legal_actions(world, r.rp).tolist().index(a)
            engine.apply_action(live, a, r.rp)
            engine.apply_action(world, int(engine.legal_actions(world, r.rp)[card_index]), r.rp)
        t = StateView(live, r.rp).trick_number - 1
        world_winner = StateView(world, r.rp).trick_winner(t)
        live_winner = StateView(live, r.rp).trick_winner(t)
        assert (world_winner - live_winner) % 4 == (-me) % 4


def test_an_illegal_bot_action_gets_the_one_message_naming_the_bot_and_the_legal_actions():
    from agents.base import AgentActionError, checked_action

    mask = np.zeros(43, dtype=np.int8)
    mask[[3, 7]] = 1
    assert checked_action(7, mask, "heuristic") == 7
    for legal in (mask, (1 << 3) | (1 << 7)):        # a mask or a bitboard
        with pytest.raises(AgentActionError, match=r"heuristic chose action 5, which is not legal here "
                                                   r"\(legal: \[3, 7\]\)"):
            checked_action(5, legal, "heuristic")


# policy search
def _search(worlds: int = 3, **kw):
    from agents.search.search import SearchAgent

    return SearchAgent("schieber", worlds=worlds, **kw)


def _first_search_position(seed: int) -> Round:
    """A Schieber round at the first card decision with more than one legal card."""
    r = Round("schieber", seed=seed)
    while r.phase != "play" or len(r.legal_actions()) < 2:
        r.step(HeuristicAgent("schieber").act(obs_for(r)))
    return r


def test_search_choices_do_not_depend_on_hidden_cards() -> None:
    """Two rounds that differ only in which other player holds which unplayed card look the same
    to the seat to move, so the search bot (same seed) must choose the same card in both."""
    checked = 0
    for bot in (_search(worlds=3, seed=0), _search(worlds=3, oversample=4, margin=2, seed=0)):
        for seed, n_actions in ((1, 6), (2, 11), (3, 17), (4, 24), (5, 30)):
            for r1, r2 in _swapped_positions("schieber", seed, n_actions, limit=2):
                bot.reset(seed)
                a1 = bot.act(obs_for(r1))
                bot.reset(seed)
                a2 = bot.act(obs_for(r2))
                assert a1 == a2, (bot.name, seed, n_actions)
                checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", ["schieber", "schieber6"])
def test_search_rollout_observations_are_the_seats_real_observations(game: str) -> None:
    """From trick 2 on (when the Weis are public), a world built from the true hidden hands, after
    the card actually played, must give the next player exactly the observation the real game
    gives it (Weis points, Stöck and the round score included, which the world state itself leaves
    out), with four players and with six."""
    from agents.bots.schieber import build_world_state, world_kernels

    with_weis = 0
    for seed in range(30):
        r = Round(game, seed=seed)
        n = r.spec.players
        bot = HeuristicAgent(game)
        while r.phase != "play" or r.trick_number < 1:  # past trick 1: the Weis are public
            r.step(bot.act(obs_for(r)))
        for _ in range(seed % (n + 4)):
            r.step(bot.act(obs_for(r)))
        if r.phase != "play":
            continue
        me = r.to_move
        o_me = obs_for(r)
        v = decode(o_me, players=n)
        held = StateView(r.state, r.rp).hands
        hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
        hands[:n] = [held[(me + k) % n] for k in range(n)]
        world = np.zeros((1, state_size(r.spec)), dtype=np.int64)
        build_world_state(v, hands, r.rp, world[0])
        a = bot.act(o_me)
        stoeck_before = StateView(r.state, r.rp).stoeck_shown
        r.step(a)
        if StateView(r.state, r.rp).stoeck_shown != stoeck_before or r.phase != "play":
            continue                                     # Stöck shown by this very card, or the end
        for_game(r.spec.kind).apply_action(world[0], a, r.rp)
        obs = np.zeros((1, encoding.obs_dim(r.rules)), dtype=np.float32)
        mask = np.zeros((1, 43), dtype=np.int8)
        world_kernels(r.spec.kind).encode_rows(world, r.rp, o_me["observation"], obs, mask)
        real = obs_for(r)
        np.testing.assert_allclose(obs[0], real["observation"], atol=1e-6, err_msg=f"seed {seed}")
        assert np.array_equal(mask[0], real["action_mask"])
        with_weis += int(real["observation"][layout_slices(n, r.spec.tricks)["weis_points"]].any())
    assert with_weis >= 3


@pytest.mark.parametrize("game", ["schieber", "schieber6"])
def test_search_contract_worlds_give_the_chooser_its_real_observation(game: str) -> None:
    """A world at a contract choice (forehand's, or his partner's after a push) deals the cards I
    do not hold, a full hand to every other seat, keeps mine, and puts me to move with exactly the
    observation and legal actions the real round gives me."""
    from agents.bots.schieber import world_kernels

    seen = {0: 0, 1: 0}
    for seed in range(24):
        r = Round(game, seed=seed)
        n, hand_size = r.spec.players, r.spec.tricks
        if seed % 2 and r.legal_actions()[-1] == PUSH:
            r.step(PUSH)                                     # the partner's choice after a push
        o_me = obs_for(r)
        v = decode(o_me, players=n)
        worlds = np.zeros((5, state_size(r.spec)), dtype=np.int64)
        world_kernels(r.spec.kind).contract_worlds(v, r.rp, np.array([seed + 1], dtype=np.int64), worlds)
        obs = np.zeros((5, encoding.obs_dim(r.rules)), dtype=np.float32)
        mask = np.zeros((5, 43), dtype=np.int8)
        world_kernels(r.spec.kind).encode_rows(worlds, r.rp, o_me["observation"], obs, mask)
        for w in range(5):
            hands = StateView(worlds[w], r.rp).hands
            assert hands[0] == v[V_HAND] and StateView(worlds[w], r.rp).to_move == 0
            assert [bin(h).count("1") for h in hands] == [hand_size] * n
            assert functools.reduce(operator.or_, hands) == (1 << 36) - 1
            np.testing.assert_array_equal(obs[w], o_me["observation"], err_msg=f"seed {seed}")
            np.testing.assert_array_equal(mask[w], o_me["action_mask"])
        seen[int(v[V_PHASE])] += 1
    assert min(seen.values()) >= 3


def _bid_and_play(seed: int, cards: int, game: str = "schieber", push: bool = True
                  ) -> tuple[Round, list[tuple[int, dict[str, np.ndarray], int]]]:
    """A round of ``game`` bid by the heuristic and played ``cards`` cards into card play, and its
    contract decisions as (player, observation dict, action); with ``push`` False forehand names
    the heuristic's best contract where it would push."""
    r = Round(game, seed=seed)
    bot = HeuristicAgent(game)
    bids = []
    while r.phase != "play":
        o = obs_for(r)
        a = bot.act(o)
        if a == PUSH and not push:
            v = decode(o, players=r.spec.players)
            a = int(choose_contract(int(v[V_HAND]), int(v[V_LEGAL]) & ~(1 << PUSH)))
        bids.append((r.to_move, o, a))
        r.step(a)
    for _ in range(cards):
        r.step(bot.act(obs_for(r)))
    return r, bids


@pytest.mark.parametrize("game", ["schieber", "schieber6"])
def test_search_bidding_rows_are_the_bidders_real_observations(game: str) -> None:
    """Built from the true hidden hands, the contract decisions the search infers from are
    exactly the ones the other seats faced (same observation, same mask, the action they took);
    my own decisions are left out, and the choice after a push only exists after a push."""
    from agents.bots.schieber import world_kernels

    seen = {"push": 0, "no push": 0, "mine": 0}
    for seed in range(40):
        r, bids = _bid_and_play(seed, seed % 7, game, push=seed % 3 > 0)
        n = r.spec.players
        me = r.to_move
        o_me = obs_for(r)
        held = StateView(r.state, r.rp).hands
        hands = np.zeros((1, MAX_PLAYERS), dtype=np.int64)
        hands[0, :n] = [held[(me + k) % n] for k in range(n)]
        obs = np.zeros((2, encoding.obs_dim(r.rules)), dtype=np.float32)
        mask = np.zeros((2, 43), dtype=np.int8)
        taken = np.full(2, 7, dtype=np.int64)
        world_kernels(r.spec.kind).encode_bidding_rows(decode(o_me, players=n), r.rp, state_size(r.spec),
                                                       hands, o_me["observation"], obs, mask, taken)
        seen["push" if len(bids) == 2 else "no push"] += 1
        if len(bids) == 1:
            assert taken[1] == -1                              # no push: no second decision
        for row, (player, o, a) in enumerate(bids):
            if player == me:
                assert taken[row] == -1
                seen["mine"] += 1
                continue
            assert taken[row] == a, seed
            np.testing.assert_array_equal(obs[row], o["observation"], err_msg=f"seed {seed}")
            np.testing.assert_array_equal(mask[row], o["action_mask"])
    assert min(seen.values()) >= 3


def test_search_inference_draws_worlds_that_fit_the_bidding() -> None:
    """With oversample, the worlds searched are drawn (counts summing to the world budget) in
    favour of deals where the others' bidding was likely: a partner or opponent who named a trump
    suit holds more of it than in uniformly sampled worlds."""
    from agents.search.search import SearchAgent

    def trumps(hand: int, suit: int) -> int:
        return sum((hand >> c) & 1 for c in range(36) if suit_of(c) == suit)

    uniform = SearchAgent("schieber", worlds=200, seed=0)
    inferring = SearchAgent("schieber", worlds=40, oversample=8, seed=0)
    more = fewer = 0
    for seed in range(30):
        r, _ = _bid_and_play(seed, 1)
        v = decode(obs_for(r))
        declarer, contract = int(v[V_DECLARER]), int(v[V_CONTRACT])
        if declarer == 0 or contract >= 4:                 # I named it, or no trump suit
            continue
        root = obs_for(r)["observation"]
        rng = np.array([seed + 1], dtype=np.int64)
        hands, counts = inferring.model._world_hands(v, root, 40, rng)
        assert counts.sum() == 40 and len(hands) == len(counts) and (counts >= 1).all()
        weighted = sum(trumps(int(h[declarer]), contract) * k for h, k in zip(hands, counts)) / 40
        hu, cu = uniform.model._world_hands(v, root, 200, rng)
        assert (cu == 1).all()
        plain = np.mean([trumps(int(h[declarer]), contract) for h in hu])
        more += weighted > plain
        fewer += weighted < plain
    assert more >= 10 and fewer <= more // 4


def test_search_margin_keeps_the_policys_card_unless_clearly_beaten() -> None:
    """margin=M plays the policy's greedy card unless a searched mean beats it by more than M:
    a huge margin always plays the policy's card; margin 0 is the plain search."""
    from agents.policy import PolicyAgent

    policy = PolicyAgent(rules="schieber")
    keep, plain = _search(worlds=4, margin=1000, seed=2), _search(worlds=4, seed=2)
    differ = 0
    for seed in range(12):
        o = obs_for(_first_search_position(seed))
        assert keep.act(o) == policy.act(o)
        plain.reset(seed)
        zero = _search(worlds=4, margin=0, seed=2)
        zero.reset(seed)
        a = plain.act(o)
        assert zero.act(o) == a
        differ += a != policy.act(o)
    assert differ >= 1                                     # the search does overrule the policy


def test_search_prune_drops_the_options_clearly_behind_and_never_the_policys() -> None:
    """prune=Z: an option is out when its mean trails the best mean, or the policy's greedy choice
    plus the margin, by more than Z standard errors of the per-world difference; the greedy choice
    stays, however far behind."""
    bot = _search(worlds=30, prune=2, margin=2, seed=0)
    options = np.array([3, 5, 8, 13, 21])                   # 21 is the policy's greedy choice
    noise = np.array([1.0, -1.0] * 10)                      # 20 worlds, mean 0, standard deviation ~1
    results = np.column_stack([
        40 + 0 * noise,              # the best: 40 in every world
        39 + noise,                  # 1 behind the best, about 4.4 standard errors: out
        39 + 10 * noise,             # 1 behind, but 0.44 standard errors: stays
        31 + 0 * noise,              # 9 behind the best and 1 behind greedy's 30 + margin 2: out
        30 + 0 * noise,              # greedy, 10 behind the best: stays
    ])
    keep = bot._survivors(options, results, np.ones(20), greedy=21)
    assert keep.tolist() == [True, False, True, False, True]
    no_margin = _search(worlds=30, prune=2, seed=0)
    assert not no_margin._survivors(options, results, np.ones(20), greedy=21)[3]     # 9 behind the best
    close = np.column_stack([results[:, 4] + 2.5 + noise, results[:, 4]])   # 0.5 over greedy + margin
    assert bot._survivors(np.array([3, 21]), close, np.ones(20), greedy=21).all()


def test_search_prune_races_the_same_plays_over_more_worlds() -> None:
    """With prune the options race in rounds of a third of the worlds: every option plays the first
    round, each next round's new worlds are played by the options still in, and the race stops once
    the budget's rollouts (worlds x options) are spent or only the policy's choice is left. An
    unreachable threshold drops nothing and is the plain search, world for world; a budget too small
    to race is not raced."""
    from agents.search.search import PRUNE_MIN_WORLDS

    raced = 0
    for seed in range(6):
        o = obs_for(_first_search_position(seed))
        plain = _search(worlds=60, candidates=5, seed=1)
        options, means = plain.option_values(o)
        never = _search(worlds=60, candidates=5, prune=1e9, seed=1)
        same_options, same_means = never.option_values(o)
        assert same_options.tolist() == options.tolist() and np.allclose(same_means, means)
        bot = _search(worlds=60, candidates=5, prune=1, seed=1)
        rounds: list[tuple[list[int], int]] = []
        rollouts = bot._rollouts

        def spy(obs, root, playing, n_worlds, rng, rollouts=rollouts, rounds=rounds):  # noqa: ANN001, ANN202
            rounds.append((playing.tolist(), n_worlds))
            return rollouts(obs, root, playing, n_worlds, rng)

        bot._rollouts = spy
        kept, kept_means = bot.option_values(o)
        assert bot.policy.act(o) in kept and set(kept) <= set(options)
        assert rounds[0] == (options.tolist(), 20)                  # a third of the 60 worlds, every option
        for (before, _), (after, n) in zip(rounds, rounds[1:]):
            assert set(after) <= set(before) and n <= 20
        spent = sum(len(playing) * n for playing, n in rounds)
        assert spent <= 60 * len(options)
        assert len(kept) == 1 or 60 * len(options) - spent < len(kept)  # spent unless one is left
        assert bot.last_worlds == sum(n for _, n in rounds)              # the options kept played every round
        raced += len(kept) < len(options)
        small = _search(worlds=3 * PRUNE_MIN_WORLDS - 1, candidates=5, prune=1, seed=1)
        assert len(small.option_values(o)[0]) == len(options)
    assert raced >= 3                                          # most decisions drop an option


def test_search_is_deterministic_given_the_seed() -> None:
    def run(seed: int) -> list[int]:
        return played_actions(_search(worlds=3, seed=0), seed, 2)

    first = run(10)
    assert run(10) == first
    assert all(0 <= a < 43 for a in first)


def test_search_respects_its_world_and_time_budget() -> None:
    import time

    from agents.search.search import TIMED_BATCH

    o = obs_for(_first_search_position(4))
    bot = _search(worlds=5, seed=1)
    bot.act(o)
    assert bot.last_worlds == 5                                   # the world budget, exactly
    timed = _search(worlds=5, time_limit=60, seed=1)
    timed.act(o)
    assert timed.last_worlds == 5                                 # a limit never reached
    legal, left = int(o["action_mask"][:36].sum()), 36 - int(o["observation"][36:180].sum())
    plays = 5 * legal * left + legal                              # room for 5 worlds, not 6
    capped_plays = _search(worlds=50, plays=plays, seed=1)
    capped_plays.act(o)
    assert capped_plays.last_worlds == 5                          # worlds x cards x cards left <= plays
    floor = _search(worlds=50, plays=1, seed=1)
    floor.act(o)
    assert floor.last_worlds == 1                                 # at least one world
    tiny = _search(worlds=50, time_limit=1e-9, seed=1)
    tiny.act(o)
    assert tiny.last_worlds == TIMED_BATCH                        # one batch, then stop
    limit = 0.3
    capped = _search(worlds=100_000, time_limit=limit, seed=1)
    t = time.perf_counter()
    capped.act(o)
    elapsed = time.perf_counter() - t
    assert TIMED_BATCH <= capped.last_worlds < 100_000
    assert elapsed < limit + 2.0                                  # stops about at the limit


def test_search_contract_and_single_cards_are_the_policys_choice() -> None:
    from agents.policy import PolicyAgent

    bot = _search(worlds=3, seed=0)
    r = Round("schieber", seed=5)
    assert bot.act(obs_for(r)) == PolicyAgent(rules="schieber").act(obs_for(r))
    r = position("H", ["D6"], ["D7", "D8", "D9"], leader=1)
    bot.last_worlds = -1
    assert bot.act(obs_for(r)) == card_id("D6")
    assert bot.last_worlds == -1                                  # no search was run


def test_search_spec_plays_where_the_game_builds_worlds_and_checks_its_budget() -> None:
    """Schieber builds search worlds for four players and for six; worlds are not weighted by the
    bidding in a game without one."""
    from agents.registry import AgentSpecError, make_agent

    bot = make_agent("search:worlds=4,candidates=3,seed=2", "schieber")
    assert (bot.worlds, bot.candidates) == (4, 3)
    assert make_agent("search:worlds=2,oversample=2", "schieber6").model.players == 6
    with pytest.raises(AgentSpecError, match="oversample=1"):
        make_agent("search:oversample=4", "mittlere")
    with pytest.raises(AgentSpecError, match="worlds"):
        make_agent("search:worlds=0", "schieber")
    with pytest.raises(ValueError, match="candidates"):
        _search(candidates=0)
    with pytest.raises(AgentSpecError, match="oversample"):
        make_agent("search:oversample=0", "schieber")
    with pytest.raises(AgentSpecError, match="margin"):
        make_agent("search:margin=-1", "schieber")
    with pytest.raises(ValueError, match="margin"):
        _search(margin=float("nan"))
    assert make_agent("search:oversample=8,margin=2.5", "schieber").name == "search30-margin2.5-infer8"
    assert make_agent("search:margin=2,prune=2", "schieber").name == "search30-margin2-prune2"
    with pytest.raises(AgentSpecError, match="prune"):
        make_agent("search:prune=0", "schieber")
    with pytest.raises(ValueError, match="prune"):
        _search(prune=True)
    with pytest.raises(ValueError, match="one of prune and time_limit"):
        _search(prune=2, time_limit=1)
    with pytest.raises(AgentSpecError, match="precision must be one of float32, bfloat16"):
        make_agent("search:precision=half", "schieber")


def test_search_rollout_checkpoint_must_fit_the_game_and_the_policy_rollouts(tmp_path) -> None:
    """rollout_checkpoint names the network that plays the worlds out: a network of another game
    is refused, as is one with rollouts that are not the policy's; the agent's name says which."""
    from agents.policy import write_random_checkpoint
    from agents.registry import AgentSpecError, agent_description, make_agent

    mine = write_random_checkpoint(tmp_path / "mine.pt", game="schieber")
    theirs = write_random_checkpoint(tmp_path / "theirs.pt", game="mittlere")
    bot = make_agent(f"search:worlds=3,rollout_checkpoint={mine}", "schieber")
    assert bot.name == "search3-rollnet(mine.pt)"
    assert bot.rollout_checkpoint == str(mine) and len(bot.rollout_checkpoint_sha256) == 64
    described = agent_description(bot)
    assert described["rollout_checkpoint_sha256"] == bot.rollout_checkpoint_sha256
    with pytest.raises(AgentSpecError, match="trained for game 'mittlere'.* plays game 'schieber'"):
        make_agent(f"search:worlds=3,rollout_checkpoint={theirs}", "schieber")
    with pytest.raises(AgentSpecError, match="allowed with rollout=policy"):
        make_agent(f"search:worlds=3,rollout=random,rollout_checkpoint={mine}", "schieber")


def test_search_in_bfloat16_plays_legal_cards_deterministically() -> None:
    from agents.registry import make_agent

    def run(seed: int) -> list[int]:
        bot = make_agent("search:worlds=3,precision=bfloat16,seed=0", "schieber")
        assert bot.name == "search3-bfloat16"
        return played_actions(bot, seed, 2)

    first = run(10)
    assert run(10) == first
    assert all(0 <= a < 43 for a in first)


def test_search_contract_choice_depends_only_on_the_own_hand() -> None:
    """contract=search: the forehand's choice is a legal contract action and the same whichever
    way the other 27 cards are dealt (it sees only its hand), with exactly ``worlds`` worlds."""
    r1 = Round("schieber", seed=3)
    me = r1.to_move
    others = [r1.dealt_hand(p) for p in range(4) if p != me]
    hands = [list(h) for h in (r1.dealt_hand(p) for p in range(4))]
    rotated = others[1:] + others[:1]
    for p, h in zip([p for p in range(4) if p != me], rotated):
        hands[p] = h
    r2 = Round("schieber", hands=hands, dealer=r1.dealer)
    bot = _search(worlds=4, contract="search", seed=5)
    bot.reset(5)
    a1 = bot.act(obs_for(r1))
    assert bot.last_worlds == 4
    bot.reset(5)
    assert bot.act(obs_for(r2)) == a1
    assert 36 <= a1 < 43 and obs_for(r1)["action_mask"][a1] == 1
    with pytest.raises(ValueError, match="contract must be one of"):
        _search(contract="graf")


def test_contract_worlds_size_the_contract_search_and_leave_the_cards_alone() -> None:
    """contract_worlds=W: a trump decision is searched in exactly W worlds, however few ``plays``
    allow; a card decision keeps ``worlds`` cut by ``plays``; without contract=search it is refused."""
    from agents.registry import AgentSpecError, make_agent

    trump = obs_for(Round("schieber", seed=3))
    bot = _search(worlds=4, plays=1, contract="search", contract_worlds=9, seed=5)
    bot.act(trump)
    assert bot.last_worlds == 9
    card = obs_for(_first_search_position(4))
    bot.act(card)
    assert bot.last_worlds == 1                                   # plays=1 leaves one world
    assert make_agent("search:contract=search,contract_worlds=300", "schieber").name == "search30-contract300"
    with pytest.raises(AgentSpecError, match="contract=search"):
        make_agent("search:contract_worlds=300", "schieber")
    with pytest.raises(AgentSpecError, match="contract_worlds"):
        make_agent("search:contract=search,contract_worlds=0", "schieber")


SEATS = ("player_0", "player_1", "player_2", "player_3")


def test_the_random_team_of_a_training_round_is_one_whole_team_in_a_share_of_the_rounds() -> None:
    rng = np.random.default_rng(0)
    draws = [draw_random_team(rng, 0.25, SEATS) for _ in range(2000)]
    teams = [d for d in draws if d]
    assert 400 <= len(teams) <= 600                                    # a quarter of 2,000 rounds
    assert set(teams) == {frozenset(SEATS[0::2]), frozenset(SEATS[1::2])}  # partners, both teams
    assert not any(draw_random_team(rng, 0.0, SEATS) for _ in range(100))
    assert all(draw_random_team(rng, 1.0, SEATS) for _ in range(100))
    assert check_random_opponents(0.5) == 0.5
    for bad in (-0.01, 1.01, float("nan")):
        with pytest.raises(ValueError, match="a number from 0 to 1"):
            check_random_opponents(bad)


@pytest.mark.parametrize(("game", "seed", "rollout_net"),
                         [("schieber", 3, False), ("schieber", 8, False), ("mittlere", 4, False),
                          ("schieber", 3, True)])
def test_search_rollouts_are_the_greedy_policy_playing_every_world_out(game: str, seed: int,
                                                                        rollout_net: bool, tmp_path) -> None:
    """An option's value is the mean, over the worlds searched, of the searcher's result once the
    round is played to its end from the world after that option, every action by the policy's
    greedy choice (one view of the MLP) for the player to move, or with ``rollout_checkpoint`` by
    that network's. The search applies an only legal action without the network; one world at a
    time, the network chooses every action here."""
    import torch

    from agents.network import load_policy
    from agents.policy import write_random_checkpoint
    from agents.search.search import SearchAgent
    from jass_env.engine import state

    r = Round(game, seed=seed)
    while r.phase != "play" or len(r.legal_actions()) < 2:
        r.step(int(r.legal_actions()[0]))
    o = obs_for(r)
    rollout_checkpoint = None
    if rollout_net:
        rollout_checkpoint = write_random_checkpoint(tmp_path / "other.pt", seed=5, game=game)
    bot = SearchAgent(game, worlds=5, seed=seed, rollout_checkpoint=rollout_checkpoint)
    drawn = []
    model_worlds = bot.model.worlds
    bot.model.worlds = lambda *a: drawn.append(model_worlds(*a)) or drawn[-1]
    options, values = bot.option_values(o)
    (worlds, counts), = drawn
    one_view = (load_policy(rollout_checkpoint)[0] if rollout_net else bot.net).single_view()
    engine = for_game(r.spec.kind)
    root = o["observation"].astype(np.float32)
    obs = np.zeros((1, len(root)), dtype=np.float32)
    mask = np.zeros((1, r.spec.n_actions), dtype=np.int8)
    forced = 0
    expected = np.zeros(len(options))
    for world, count in zip(worlds, counts):
        for k, option in enumerate(options):
            st = world.copy()
            engine.apply_action(st, int(option), r.rp)
            while state.phase(st) != state.PHASE_OVER:
                bot.model.encode(st[None], root, obs, mask)
                legal = torch.from_numpy(mask.astype(bool))
                with torch.inference_mode():
                    logits = one_view.masked_logits(torch.from_numpy(obs), legal)
                forced += int(mask.sum() == 1)
                engine.apply_action(st, int(logits.argmax()), r.rp)
            expected[k] += count * bot.model.results(st[None])[0]
    assert forced > 0
    np.testing.assert_allclose(values, expected / counts.sum(), rtol=0, atol=1e-9)
    if rollout_net:
        assert not np.allclose(values, SearchAgent(game, worlds=5, seed=seed).option_values(o)[1])


def test_search_with_random_rollouts_values_options_without_the_policy(tmp_path) -> None:
    """rollout=random plays every world out with uniformly random legal cards: with every legal card
    searched, the values are the same whichever policy the agent holds (PIMC over the same worlds),
    and they differ from the policy's own rollouts."""
    from agents.policy import write_random_checkpoint
    from agents.search.search import SearchAgent

    random_weights = write_random_checkpoint(tmp_path / "random.pt", game="mittlere")
    r = Round("mittlere", seed=4)
    while len(r.legal_actions()) < 3:
        r.step(int(r.legal_actions()[0]))
    o = obs_for(r)
    shipped = SearchAgent("mittlere", worlds=6, rollout="random", seed=3)
    other = SearchAgent("mittlere", checkpoint=random_weights, worlds=6, rollout="random", seed=3)
    by_policy = SearchAgent("mittlere", worlds=6, seed=3)
    options, values = shipped.option_values(o)
    options2, values2 = other.option_values(o)
    assert np.array_equal(options, options2) and np.array_equal(values, values2)
    assert not np.array_equal(values, by_policy.option_values(o)[1])
    assert shipped.name == "search6-random"
    with pytest.raises(ValueError, match="rollout must be one of policy, random, heuristic"):
        SearchAgent("mittlere", rollout="avoid")
