"""Coiffeur's worlds for the policy-guided search (agents.bots.coiffeur.CoiffeurWorlds).

A world is the deal in progress as the searching seat may imagine it: the searcher is player 0
and to move, its hand and everything public (the cards played, the voids shown, both sheets, who
pushed) are the real ones, and the cards it has not seen are dealt again: every card exactly once,
each other seat as many as it holds, none of a suit it has shown void in (trump: but the Puur,
which need not follow trump). Positions are taken from whole games of every sheet (six, eight and
ten rows; with Weis and Stöck too), early and late in the game (rows written), at card play and at
the declaration (the first choice, after pushes, and when every candidate pushed).

A deal is worth to the searcher what it writes: its team's row above the row's average (factor x
half the deal's 157 points), or minus the opponents' row above its average.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from agents.bots.coiffeur import CoiffeurWorlds
from jass_env import Match, Round, make_rules
from jass_env.engine import state
from jass_env.engine.cards import ALL_CARDS, N_RANKS, RANKS, popcount
from jass_env.engine.transitions import for_game
from jass_env.games import game_of
from jass_env.games.coiffeur.observation import OBS_DIM, SLICES
from jass_env.games.coiffeur.rules import ROW_LABELS, SHEET_ROWS, declared_game, declared_row, sheets_of
from jass_env.games.schieber.observation import SLICES as SCHIEBER_SLICES

PLAYERS = 4
PUSH = 42
#: how often the random declarer of the test games pushes where he may
PUSH_CHANCE = 0.6
WORLDS = 3
DEAL_POINTS = 157
#: the Puur: the trump Jack (its rank offset within a suit)
JACK = RANKS.index("J")
#: what a card-play world leaves out and the search copies from the real observation
CARD_PLAY_COPIED = (SLICES["pushes"], SCHIEBER_SLICES["weis_points"], SCHIEBER_SLICES["stoeck"],
                    SCHIEBER_SLICES["round_score"])
RULES = {"coiffeur": make_rules("coiffeur"), "coiffeur6": make_rules("coiffeur6"),
         "coiffeur10": make_rules("coiffeur10"),
         "coiffeur+weis": make_rules("coiffeur").replace(coiffeur_weis="except_joker")}


def seen(st: np.ndarray, rules) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    """The observation and action mask of the player to move."""
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    game_of(rules).observation.encode_observation(st, state.to_move(st), rules.params, obs)
    mask = np.zeros(rules.spec.n_actions, dtype=np.int8)
    for_game(rules.spec.kind).action_mask(st, rules.params, mask)
    return obs, mask


def game_positions(rules, seed: int, every: int) -> list[np.ndarray]:  # noqa: ANN001
    """Every ``every``-th decision with a choice and every declaration of a whole game (random
    cards and declarations from ``seed``, the push where legal with probability PUSH_CHANCE), as
    states."""
    rng = np.random.default_rng(seed)
    m = Match(rules, seed=seed)
    out, k = [], 0
    while not m.is_over:
        legal = m.legal_actions()
        if len(legal) > 1 and (legal[0] >= 36 or k % every == 0):
            out.append(m.state.copy())
        k += 1
        push = PUSH in legal and rng.random() < PUSH_CHANCE
        m.step(PUSH if push else int(rng.choice(legal)))
    return out


@pytest.fixture(scope="module")
def positions() -> list[tuple[str, np.ndarray]]:
    out = []
    for i, (name, rules) in enumerate(RULES.items()):
        out += [(name, st) for st in game_positions(rules, 40 + i, 9)]
    return out


def worlds_of(name: str, st: np.ndarray, seed: int = 7) -> tuple[CoiffeurWorlds, np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    rules = RULES[name]
    model = CoiffeurWorlds(rules)
    obs, mask = seen(st, rules)
    states, counts = model.worlds({"observation": obs, "action_mask": mask}, WORLDS,
                                  np.array([seed], dtype=np.int64))
    assert states.shape == (WORLDS, len(st)) and list(counts) == [1] * WORLDS
    return model, states, obs, mask


def is_card_play(st: np.ndarray) -> bool:
    return state.phase(st) == state.PHASE_PLAY


def test_the_positions_cover_every_kind_of_decision(positions):
    """Cards and declarations, by every seat, after pushes, when the one to move must declare, and
    late in a game: rows of both sheets written, one sheet full."""
    assert {name for name, _ in positions} == set(RULES)
    assert {state.to_move(st) for _, st in positions} == set(range(PLAYERS))
    assert any(is_card_play(st) for _, st in positions)
    declaring = [st for _, st in positions if not is_card_play(st)]
    assert any(not state.pushed(st) for st in declaring) and any(state.pushed(st) for st in declaring)
    assert any(seen(st, RULES[name])[0][SLICES["must_declare"]][0] == 1 for name, st in positions)
    sheets = [sheets_of(st, SHEET_ROWS[RULES[name].game]) for name, st in positions]
    assert any(all(sum(v is not None for v in sheet.values()) >= 3 for sheet in pair) for pair in sheets)
    assert any(any(all(v is not None for v in sheet.values()) for sheet in pair) for pair in sheets)


def test_every_world_puts_the_searcher_to_move_with_the_real_hand_and_choices(positions):
    for name, st in positions:
        me = state.to_move(st)
        _, states, _, mask = worlds_of(name, st)
        for world in states:
            assert state.to_move(world) == 0
            _, world_mask = seen(world, RULES[name])
            np.testing.assert_array_equal(world_mask, mask)
            assert state.hand_of(world, 0) == state.hand_of(st, me)


def test_the_unseen_cards_are_dealt_again_consistently(positions):
    """Each card once across the hands and the cards played; each seat as many cards as it holds,
    the cards it played; none of a suit it showed void in, but the Puur of the trump suit."""
    for name, st in positions:
        me = state.to_move(st)
        _, states, _, _ = worlds_of(name, st)
        trump = declared_game(st) if is_card_play(st) and declared_game(st) < 4 else -1
        for world in states:
            cards = [state.hand_of(world, r) | state.played_by(world, r) for r in range(PLAYERS)]
            assert sum(popcount(c) for c in cards) == 36
            assert np.bitwise_or.reduce(cards) == ALL_CARDS
            for r in range(PLAYERS):
                real = (me + r) % PLAYERS
                assert popcount(state.hand_of(world, r)) == popcount(state.hand_of(st, real))
                assert state.played_by(world, r) == state.played_by(st, real)
                for suit in range(4):
                    if state.voids_of(st, real) >> suit & 1:
                        held = state.hand_of(world, r) >> (N_RANKS * suit) & ((1 << N_RANKS) - 1)
                        allowed = 1 << JACK if suit == trump else 0
                        assert held & ~allowed == 0, (name, r, suit)


def test_every_world_holds_both_real_sheets_turned_to_the_searcher(positions):
    """World team 0 is the searcher's: its sheet is the searcher's team's, row by row, value by value."""
    for name, st in positions:
        me = state.to_move(st)
        rows = SHEET_ROWS[RULES[name].game]
        real = sheets_of(st, rows)
        _, states, _, _ = worlds_of(name, st)
        for world in states:
            assert sheets_of(world, rows) == [real[me % 2], real[1 - me % 2]]


def test_the_world_shows_the_searcher_its_real_observation(positions):
    """Encoded for the searcher, every world shows exactly the real observation: as it is for a
    declaration; in card play after the search copies in what such a world leaves out (who pushed,
    Weis points, shown Stöck, the round score, written only with the row), and the rest as it is."""
    for name, st in positions:
        model, states, obs, mask = worlds_of(name, st)
        as_is = np.zeros(OBS_DIM, dtype=np.float32)
        for world in states:
            game_of(model.rules).observation.encode_observation(world, 0, model.rp, as_is)
            keep = np.ones(OBS_DIM, dtype=bool)
            if is_card_play(st):
                for s in CARD_PLAY_COPIED:
                    keep[s] = False
            np.testing.assert_array_equal(as_is[keep], obs[keep])
        encoded = np.zeros((WORLDS, OBS_DIM), dtype=np.float32)
        masks = np.zeros((WORLDS, len(mask)), dtype=np.int8)
        model.encode(states, obs, encoded, masks)
        for i in range(WORLDS):
            np.testing.assert_array_equal(encoded[i], obs)
            np.testing.assert_array_equal(masks[i], mask)


def test_card_play_worlds_show_the_next_seat_the_public_facts_from_its_side(positions):
    """After my card the next seat to move sees who pushed and the shown Stöck by its relative seats,
    the Weis points and the round score (0 until the row is written) own team first: in every world
    as in the real deal (positions from trick 2 on, where the Weis are public, and a card that shows
    no Stöck)."""
    rules = RULES["coiffeur+weis"]
    compared = []
    for name, st in positions:
        if name != "coiffeur+weis" or not is_card_play(st) or state.trick_number(st) < 1:
            continue
        model, states, obs, mask = worlds_of(name, st)
        card = int(np.flatnonzero(mask)[0])
        real = Round(rules, state=st.copy())
        real.step(card)
        truth, _ = seen(real.state, rules)
        turn = (state.to_move(real.state) - state.to_move(st)) % PLAYERS
        stoeck = SCHIEBER_SLICES["stoeck"]
        if real.is_over or np.roll(truth[stoeck], turn).sum() != obs[stoeck].sum():
            continue
        encoded = np.zeros((WORLDS, OBS_DIM), dtype=np.float32)
        for world in states:
            for_game(rules.spec.kind).apply_action(world, card, rules.params)
            assert state.to_move(world) == turn
        model.encode(states, obs, encoded, np.zeros((WORLDS, len(mask)), dtype=np.int8))
        for i in range(WORLDS):
            for s in CARD_PLAY_COPIED:
                np.testing.assert_array_equal(encoded[i][s], truth[s])
        compared.append(truth)
    assert any(t[SLICES["pushes"]].any() for t in compared)
    assert any(t[SCHIEBER_SLICES["weis_points"]].any() for t in compared)
    assert any(t[SCHIEBER_SLICES["stoeck"]].any() for t in compared)


def row_written(before: list[dict], after: list[dict]) -> tuple[int, str, int]:
    """(team, row label, value) of the one row written between two readings of the sheets."""
    new = [(t, label, after[t][label]) for t in range(2) for label in after[t]
           if before[t][label] is None and after[t][label] is not None]
    assert len(new) == 1
    return new[0]


def test_every_choice_then_any_play_finishes_the_deal_and_scores_the_row_above_its_average(positions):
    """From every world, each legal action and random play to the end finish the deal; its result
    is the row written, minus the row's factor x 157 / 2, for the searcher's team, or minus that for
    the opponents' (the default, side 0's score, would see 0 in every deal the opponents declare)."""
    teams = set()
    for n, (name, st) in enumerate(positions[::3]):
        rules = RULES[name]
        factor = dict(zip(SHEET_ROWS[rules.game], rules.row_factors))
        model, states, _, mask = worlds_of(name, st)
        rng = np.random.default_rng(n)
        for world in states:
            for action in np.flatnonzero(mask):
                r = Round(rules, state=world.copy())
                before = sheets_of(r.state, SHEET_ROWS[rules.game])
                r.step(int(action))
                while not r.is_over:
                    r.step(int(rng.choice(r.legal_actions())))
                team, label, value = row_written(before, sheets_of(r.state, SHEET_ROWS[rules.game]))
                assert ROW_LABELS[declared_row(r.state)] == label
                sign = 1 if team == 0 else -1
                expected = sign * (value - factor[label] * DEAL_POINTS / 2)
                assert model.results(r.state[None])[0] == pytest.approx(expected)
                teams.add(team)
    assert teams == {0, 1}


def test_the_same_seed_draws_the_same_worlds(positions):
    for name, st in positions[::5]:
        _, a, _, _ = worlds_of(name, st, seed=11)
        _, b, _, _ = worlds_of(name, st, seed=11)
        np.testing.assert_array_equal(a, b)
    name, st = next((name, st) for name, st in positions if is_card_play(st) and state.trick_number(st) < 3)
    _, a, _, _ = worlds_of(name, st, seed=11)
    _, b, _, _ = worlds_of(name, st, seed=12)
    assert not np.array_equal(a, b)


def test_the_game_names_its_worlds_and_refuses_what_is_not_coiffeur():
    for name in ("coiffeur", "coiffeur6", "coiffeur10"):
        module, _, cls = game_of(make_rules(name)).bots["worlds"].partition(":")
        assert getattr(importlib.import_module(module), cls) is CoiffeurWorlds
    with pytest.raises(ValueError, match="for Coiffeur, not schieber"):
        CoiffeurWorlds(make_rules("schieber"))
    model = CoiffeurWorlds(make_rules("coiffeur"))
    with pytest.raises(ValueError, match="598 floats and 55 actions"):
        model.worlds({"observation": np.zeros(529, np.float32), "action_mask": np.zeros(43, np.int8)}, 2,
                     np.array([1], dtype=np.int64))
    with pytest.raises(ValueError, match="no legal action"):
        model.worlds({"observation": np.zeros(OBS_DIM, np.float32), "action_mask": np.zeros(55, np.int8)}, 2,
                     np.array([1], dtype=np.int64))
