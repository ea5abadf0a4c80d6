"""Coiffeur bots: the heuristic's exact planning of a sheet's last rows, and Coiffeur PIMC.

The planning's expected values are worked out here from the objective docs/bots.md states (a row
is worth ``factor x`` the hand's Graf surplus in it; later declarations are made with random
hands), on an independent sample of random deals, never read from the bot: a Joker row left alone
is worth ``8 x E[max of the six surpluses]`` of a random hand, a plain row alone 0 (each contract's
surplus averages 0); when only one team still declares, its two candidates pass a hand to the
other by the thresholds ``T1 = E[X | X >= P2]``, ``P2 = E[X | X < T1]``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from test_sidi_bots import observation  # the observation dict of the player to move

from agents.bots.coiffeur import CoiffeurPIMC, graf_average
from agents.bots.schieber import V_CONTRACT, build_world_state, decode, graf_scores
from agents.registry import make_agent
from jass_env import Round
from jass_env.engine.cards import card_id, mask_of
from jass_env.engine.positions import exchange_cards
from jass_env.engine.state import StateView, new_state
from jass_env.engine.transitions import for_game
from jass_env.games.coiffeur import KIND
from jass_env.games.coiffeur.observation import SLICES
from jass_env.games.coiffeur.rules import ROW_LABELS, game_of_action, set_deal, set_world

PUSH = 42
DECLARE_H = 37
FACTOR = {"H": 4, "Joker-2": 8}
ENGINE = for_game(KIND)


@njit(cache=True)
def set_declaration_world(st, hands, dealer, filled, pushes, rp):  # noqa: ANN001, ANN201
    """:func:`jass_env.games.coiffeur.rules.set_world` for Coiffeur (its number a compile-time constant)."""
    set_world(KIND, st, hands, dealer, filled, pushes, rp)


def joker2(contract: int) -> int:
    """Action: Joker row 2 (x8) played as contract 0..5 (D H S C O U)."""
    return 43 + 6 + contract


def surplus(cards: list[str]) -> np.ndarray:
    """Graf score minus the random hand's average, per contract D H S C O U."""
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(mask_of([card_id(c) for c in cards]), scores)
    return scores - graf_average()


@pytest.fixture(scope="module")
def random_surpluses() -> np.ndarray:
    """The six surpluses of 12,000 random hands (3,000 deals of four hands; seed 99)."""
    rng = np.random.default_rng(99)
    out = []
    for _ in range(3000):
        deck = rng.permutation(36)
        for k in range(4):
            scores = np.zeros(6, dtype=np.int64)
            graf_scores(sum(1 << int(c) for c in deck[9 * k:9 * k + 9]), scores)
            out.append(scores - graf_average())
    return np.array(out)


def position(my_cards: list[str], open_rows: tuple[str, ...], opponents_open: bool, dealer: int = 3,
             pushes: int = 0) -> Round:
    """Player 0 holds ``my_cards``; his team's sheet has only ``open_rows`` open, the opponents'
    sheet is full or empty; ``pushes`` candidates pushed before player 0's turn."""
    rest = [c for c in range(36) if c not in {card_id(x) for x in my_cards}]
    hands = [my_cards] + [rest[9 * k:9 * k + 9] for k in range(3)]
    r = Round("coiffeur", hands=[[c if isinstance(c, str) else int(c) for c in h] for h in hands],
              dealer=dealer)
    rows = r.rows
    r.set_sheets({"0": {row: 100 for row in rows if row not in open_rows},
                  "1": {} if opponents_open else {row: 100 for row in rows}})
    for _ in range(pushes):
        r.step(PUSH)
    assert r.to_move == 0
    return r


def thresholds(x: np.ndarray) -> tuple[float, float]:
    t1 = x.mean()
    for _ in range(200):
        p2 = x[x < t1].mean()
        t1 = x[x >= p2].mean()
    return t1, p2


WEAK_BEST = ["DQ", "H9", "H6", "SK", "SQ", "SJ", "C9", "C7", "C6"]      # best surplus +5.75 (C)
STRONG_S = ["DA", "HK", "H8", "H6", "SA", "SJ", "S9", "S7", "C6"]      # S +37.75, H -2.25
H_PLUS = ["DJ", "H9", "H8", "H6", "S8", "CA", "CQ", "C9", "C7"]        # H +2.75
H_BEST = ["DA", "HA", "HJ", "H9", "H7", "S9", "S8", "C8", "C7"]        # H +30.75, its best


def test_a_joker_row_left_alone_is_kept_for_a_hand_better_than_a_random_ones_best(random_surpluses):
    bot = make_agent("heuristic", "coiffeur")
    best_of_random = random_surpluses.max(axis=1).mean()         # E[max], about 18: a later hand's worth
    assert surplus(WEAK_BEST).max() == pytest.approx(5.75)
    assert surplus(WEAK_BEST).max() < best_of_random - 5
    assert bot.act(observation(position(WEAK_BEST, ("Joker-2",), opponents_open=True))) == PUSH
    assert surplus(STRONG_S).max() == pytest.approx(37.75)
    assert surplus(STRONG_S).max() > best_of_random + 5
    assert bot.act(observation(position(STRONG_S, ("Joker-2",), opponents_open=True))) == joker2(2)


def test_a_plain_row_left_alone_is_declared_iff_the_hand_is_above_average_while_the_opponents_declare():
    bot = make_agent("heuristic", "coiffeur")
    assert bot.act(observation(position(H_PLUS, ("H",), opponents_open=True))) == DECLARE_H
    assert bot.act(observation(position(STRONG_S, ("H",), opponents_open=True))) == PUSH     # H -2.25


def test_the_last_row_of_the_only_team_still_declaring_uses_the_two_candidates_thresholds(random_surpluses):
    bot = make_agent("heuristic", "coiffeur")
    t1, p2 = thresholds(FACTOR["H"] * random_surpluses[:, 1])
    # first candidate: a small surplus is passed to the partner (whose pass brings it back)
    assert 0 < FACTOR["H"] * surplus(H_PLUS)[1] < t1 - 5
    assert bot.act(observation(position(H_PLUS, ("H",), opponents_open=False))) == PUSH
    # second candidate (the partner, forehand, pushed): pushing forces the partner's weak hand
    assert p2 + 5 < FACTOR["H"] * surplus(STRONG_S)[1] < 0
    r = position(STRONG_S, ("H",), opponents_open=False, dealer=1, pushes=1)
    assert bot.act(observation(r)) == DECLARE_H


def test_a_hand_good_in_a_plain_row_keeps_the_joker_row_for_later(random_surpluses):
    """Rows H (x4) and Joker-2 (x8) open: H now plus a random hand's Joker later beats the
    Joker now (as H) plus a random hand's H later (worth 0), and the push (both rows later)."""
    bot = make_agent("heuristic", "coiffeur")
    s = surplus(H_BEST)
    assert s.argmax() == 1 and s[1] == pytest.approx(30.75)
    later_joker = FACTOR["Joker-2"] * random_surpluses.max(axis=1).mean()
    h_now = FACTOR["H"] * s[1] + later_joker
    joker_now = FACTOR["Joker-2"] * s[1]
    both_later = np.maximum(FACTOR["H"] * random_surpluses[:, 1] + later_joker,
                            FACTOR["Joker-2"] * random_surpluses.max(axis=1)).mean()
    assert h_now > max(joker_now, both_later) + 10
    assert bot.act(observation(position(H_BEST, ("H", "Joker-2"), opponents_open=True))) == DECLARE_H


# Coiffeur PIMC
SLALOM_FROM_U, GUSCHTI_FROM_O = 56, 57
#: (game, declaration): plain rows, a Joker row, Slalom and Guschti (their schedules)
DECLARED = (("coiffeur", DECLARE_H), ("coiffeur", 43 + 4), ("coiffeur10", SLALOM_FROM_U),
            ("coiffeur10", GUSCHTI_FROM_O))


def _relative(hands: list[int], me: int) -> np.ndarray:
    return np.array([hands[(me + k) % 4] for k in range(4)], dtype=np.int64)


@pytest.mark.parametrize(("game", "declaration"), DECLARED)
def test_a_world_built_from_the_true_hands_writes_the_row_the_deal_writes(game, declaration):
    """PIMC's card-play world, given the real hidden hands, scores the deal as the engine does:
    the same row, factor, direction schedule and Match bonus (seats relative to the searcher)."""
    heuristic = make_agent("heuristic", game)
    for seed in range(6):
        r = Round(game, seed=seed)
        r.step(declaration)                               # every row is open: the first may declare it
        for _ in range(seed % 4):                         # 0..3 cards of trick 1 down
            r.step(heuristic.act(observation(r)))
        me = r.to_move
        o = observation(r)
        v = decode(o["observation"][:529], o["action_mask"][:43])
        row = int(np.argmax(o["observation"][SLICES["row"]]))
        starts_undenufe = bool(o["observation"][SLICES["schedule"]][0] > 0.5)
        game_id = CoiffeurPIMC.game_of(row, int(v[V_CONTRACT]), starts_undenufe)
        assert game_id == game_of_action(declaration)
        world = new_state(r.spec)
        build_world_state(v, _relative(StateView(r.state, r.rp).hands, me), r.rp, world)
        set_deal(world, row, game_id)
        while not r.is_over:                              # the same cards in both
            a = heuristic.act(observation(r))
            r.step(a)
            ENGINE.apply_action(world, a, r.rp)
        team = r.declarer % 2
        assert StateView(world, r.rp).score[(team - me) % 2] == r.row_score


def _positions(game: str):
    """Coiffeur deals (some rows written) at the declaration, after a push, and in card play."""
    heuristic = make_agent("heuristic", game)
    for seed, n_actions in ((1, 0), (2, 1), (3, 3), (4, 9), (5, 17), (6, 26)):
        r = Round(game, seed=seed)
        rows = r.rows
        r.set_sheets({"0": {rows[seed % len(rows)]: 150}, "1": {rows[(seed + 3) % len(rows)]: 300}})
        if n_actions == 1:
            r.step(PUSH)
        for _ in range(n_actions if n_actions != 1 else 0):
            r.step(heuristic.act(observation(r)))
        yield r


@pytest.mark.parametrize("game", ("coiffeur", "coiffeur10"))
def test_coiffeur_pimc_choices_do_not_depend_on_hidden_cards(game):
    """Swap an unplayed card between two other players: the seat to move sees the same
    observation, so Coiffeur PIMC (same seed) chooses the same action, declaring or playing."""
    checked = 0
    for r in _positions(game):
        me = r.to_move
        p, q = (me + 1) % 4, (me + 2) % 4
        held = StateView(r.state, r.rp).hands
        a = next(c for c in range(36) if held[p] >> c & 1)
        b = next(c for c in range(36) if held[q] >> c & 1)
        swapped = r.state.copy()
        exchange_cards(swapped, p, a, q, b)
        o1 = observation(r)
        r.state[:] = swapped
        o2 = observation(r)
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        x, y = make_agent("pimc:worlds=3", game, seed=7), make_agent("pimc:worlds=3", game, seed=7)
        assert x.act(o1) == y.act(o2)
        checked += o1["action_mask"].sum() > 1
    assert checked >= 4                                  # positions with a real choice


def test_coiffeur_pimc_is_deterministic_for_a_seed_and_searches_its_worlds():
    searched = 0
    for r in _positions("coiffeur"):
        o = observation(r)
        bots = [make_agent("pimc:worlds=5", "coiffeur", seed=3) for _ in range(2)]
        assert isinstance(bots[0], CoiffeurPIMC)
        assert bots[0].act(o) == bots[1].act(o)
        assert o["action_mask"][bots[0].act(o)] == 1
        if o["action_mask"].sum() > 1:                   # a single legal action is played unsearched
            assert bots[0].last_worlds == 5
            searched += 1
    assert searched >= 4


@pytest.mark.parametrize("game", ("coiffeur", "coiffeur6", "coiffeur10"))
def test_pimc_spec_plays_coiffeur_with_the_heuristic_rollout_only(game):
    from agents.registry import AgentSpecError

    assert isinstance(make_agent("pimc:worlds=2", game), CoiffeurPIMC)
    with pytest.raises(AgentSpecError, match="rollout=heuristic"):
        make_agent("pimc:rollout=random", game)


def test_a_declaration_world_is_the_deal_as_the_seat_sees_it():
    """Rebuilt from the true hands, the sheets' written rows, the dealer and the pushes, the world
    gives the seat to move (player 0) the real deal's legal declarations."""
    for r in _positions("coiffeur"):
        if r.phase != "contract":
            continue
        me = r.to_move
        view = StateView(r.state, r.rp)
        filled = np.array([sum(1 << i for i, label in enumerate(ROW_LABELS)
                               if r.sheets[(me + k) % 2].get(label) is not None) for k in range(2)],
                          dtype=np.int64)
        world = new_state(r.spec)
        set_declaration_world(world, _relative(view.hands, me), (view.dealer - me) % 4, filled,
                              len(r.pushes), r.rp)
        assert StateView(world, r.rp).to_move == 0
        assert ENGINE.legal_set(world, r.rp)[0] == ENGINE.legal_set(r.state, r.rp)[0]
