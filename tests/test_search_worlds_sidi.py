"""The policy-guided search's worlds of Sidi-Jass for two (agents.bots.sidi.SidiWorlds,
docs/games/sidi.md "Search worlds"): at every decision of real rounds (card decisions and the exchange
of the trump 6, while the stock has cards and after) each world shows the searcher its real position:
its hand, the played cards, the stock's size and face-up card, its legal actions and its whole
observation; the opponent holds as many cards as he really does, among them every card he is known
to hold, and each card lies exactly once in a hand, on the played cards or in the stock. Once the
stock is empty nothing is hidden: the one world is the true position. A world plays on to the end
from every legal action, and the searcher's result is its round score minus the opponent's.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np
import pytest
from test_sidi import ALL_TRICKS_H0, ALL_TRICKS_H1, ALL_TRICKS_STOCK, sidi_round
from test_sidi_bots import observation

from agents.bots.sidi import SidiHeuristic, SidiWorlds
from agents.random_bot import RandomAgent
from jass_env import Round, make_rules
from jass_env.engine.state import PHASE_OVER, PHASE_PLAY, StateView
from jass_env.engine.transitions import for_game
from jass_env.games import game_of
from jass_env.games.sidi import rules as sidi
from jass_env.games.sidi.observation import LAYOUTS

RULES = make_rules("sidi")
EXCHANGE = 36
STOCK = 20
ROUND_POINTS = 157
WORLDS = 3
#: what a world set after trick 1 does not hold and the search copies from the real observation
COPIED = ("weis", "stoeck", "game_score")
SLICES = LAYOUTS.of(RULES.spec).slices
ENGINE = for_game(RULES.spec.kind)


@dataclass
class Position:
    """A decision of a real round: the round there and the observation of the seat to move."""

    round: Round
    obs: dict[str, np.ndarray]

    @property
    def me(self) -> int:
        return self.round.to_move

    @property
    def opponent(self) -> int:
        return 1 - self.me


def play_positions(r: Round, bots: list, into: list[Position]) -> Round:  # noqa: ANN001 (agents)
    """Play ``r`` to its end with ``bots`` (per player), keeping every decision."""
    while not r.is_over:
        obs = observation(r)
        into.append(Position(r.copy(), obs))
        r.step(bots[r.to_move].act(obs))
    return r


def rounds_and_positions() -> tuple[list[Round], list[Position]]:
    """Rounds where the heuristic (which exchanges the trump 6 whenever allowed) plays a random
    player, in either seat; and the all-trumps deal, its forehand holding the trump 6 and the
    trump K and Q (a Weis of eight trumps and the Stöck), dealt by either player."""
    positions: list[Position] = []
    rounds = []
    for seed in range(4):
        heuristic, rand = SidiHeuristic(seed=seed), RandomAgent(seed=seed + 10)
        bots = [heuristic, rand] if seed % 2 else [rand, heuristic]
        rounds.append(play_positions(Round("sidi", seed=seed), bots, positions))
    for dealer in (0, 1):
        hands = (ALL_TRICKS_H0, ALL_TRICKS_H1) if dealer == 0 else (ALL_TRICKS_H1, ALL_TRICKS_H0)
        r = sidi_round(*hands, top=ALL_TRICKS_STOCK, face_up="HA", dealer=dealer)
        rounds.append(play_positions(r, [SidiHeuristic(seed=dealer), RandomAgent(seed=dealer)], positions))
    return rounds, positions


@pytest.fixture(scope="module")
def model() -> SidiWorlds:
    return SidiWorlds(RULES)


@pytest.fixture(scope="module")
def played() -> tuple[list[Round], list[Position]]:
    return rounds_and_positions()


def worlds_of(model: SidiWorlds, pos: Position, n: int = WORLDS,
              seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    states, counts = model.worlds(pos.obs, n, np.array([seed], dtype=np.int64))
    assert states.shape == (len(counts), model.size) and counts.sum() == n and (counts >= 1).all()
    return states, counts


def stock_cards(st: np.ndarray) -> list[int]:
    """The cards still in the stock, top first (the face-up one last)."""
    return [int(sidi.stock_place(st, i)) for i in range(int(sidi.stock_drawn(st)), STOCK)]


def relative(values: list[int], me: int) -> list[int]:
    """Per-player values turned to the seats relative to ``me``."""
    return [values[(me + r) % 2] for r in range(2)]


def excluding(obs: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    keep = np.ones(obs.shape[-1], dtype=bool)
    for name in names:
        keep[SLICES[name]] = False
    return obs[keep]


def test_the_positions_cover_every_kind_of_decision(played) -> None:  # noqa: ANN001
    """The checks below meet: the exchange offered, an exchange made by forehand before the first
    lead and one by the dealer later, Weis and Stöck shown before the decision, decisions while
    the stock has cards and after it is empty, in both seats."""
    _, positions = played
    kinds = set()
    for pos in positions:
        r = pos.round
        ex = r.exchange
        kinds.add(("stock", r.stock_left > 0))
        kinds.add(("seat", pos.me))
        if pos.obs["action_mask"][EXCHANGE]:
            kinds.add("exchange offered")
        if ex and ex["trick"] == 1 and r.trick_number == 0:
            kinds.add(("first trick, exchanged by", "me" if ex["player"] == pos.me else "opponent"))
        if ex and ex["player"] == r.dealer and r.trick_number >= 1:
            kinds.add("exchanged by the dealer")
        if r.trick_number >= 1 and r.weis:
            kinds.add("Weis shown")
        if r.view.stoeck_shown:
            kinds.add("Stöck shown")
    assert kinds >= {("stock", True), ("stock", False), ("seat", 0), ("seat", 1), "exchange offered",
                     ("first trick, exchanged by", "me"), ("first trick, exchanged by", "opponent"),
                     "exchanged by the dealer", "Weis shown", "Stöck shown"}


def test_every_world_shows_the_searcher_its_real_position(model: SidiWorlds, played) -> None:  # noqa: ANN001
    """In every world the searcher is player 0 and to move, with its real hand and legal actions
    (the exchange included), the real played cards of both seats, the opponent's real hand size,
    the real stock size under the real face-up card, every card once; and its observation in the
    world is its real one (the engine's encoding of the world: all but the copied public features;
    the model's encoding: all)."""
    _, positions = played
    encode = game_of(RULES).observation.encode_observation
    for pos in positions:
        r, me, opp = pos.round, pos.me, pos.opponent
        states, _ = worlds_of(model, pos)
        obs = np.zeros((len(states), pos.obs["observation"].size), dtype=np.float32)
        mask = np.zeros((len(states), RULES.spec.n_actions), dtype=np.int8)
        model.encode(states, pos.obs["observation"], obs, mask)
        for i, st in enumerate(states):
            w = StateView(st, RULES.params)
            assert w.phase == PHASE_PLAY and w.to_move == 0
            world = observation(Round(RULES, state=st.copy()))
            assert np.array_equal(world["action_mask"], pos.obs["action_mask"])
            assert w.hands[0] == r.view.hands[me]
            assert bin(w.hands[1]).count("1") == bin(r.view.hands[opp]).count("1")
            assert list(w.played[:2]) == relative(list(r.view.played[:2]), me)
            stock = stock_cards(st)
            assert len(stock) == r.stock_left and sidi.face_up_card(st) == sidi.face_up_card(r.state)
            cards = [*stock]
            for m in (*w.hands[:2], *w.played[:2]):
                cards += [c for c in range(36) if m >> c & 1]
            assert sorted(cards) == list(range(36))
            real = pos.obs["observation"]
            raw = np.zeros_like(real)
            encode(st, 0, RULES.params, raw)
            assert np.array_equal(excluding(raw, COPIED), excluding(real, COPIED))
            assert np.array_equal(obs[i], real) and np.array_equal(mask[i], pos.obs["action_mask"])


def test_the_opponent_holds_every_card_he_is_known_to_hold(model: SidiWorlds, played) -> None:  # noqa: ANN001
    """The face-up card he took by the exchange or drew last, and his scoring Weis cards he has not
    played (the trump 6 he gave by the exchange excepted), are in his hand in every world."""
    _, positions = played
    checked = 0
    for pos in positions:
        r, opp = pos.round, pos.opponent
        known = int(sidi.known_cards(r.state, opp))
        if r.trick_number >= 1:
            known |= int(r.view.weis_cards[opp]) & int(r.view.hands[opp])
        for st in worlds_of(model, pos)[0]:
            assert StateView(st, RULES.params).hands[1] & known == known
        checked += known != 0
    assert checked


def test_once_the_stock_is_empty_the_one_world_is_the_true_position(model: SidiWorlds, played) -> None:  # noqa: ANN001
    """Nothing is hidden after trick 10: all draws give the real opponent's hand, counted once
    with all draws; the voids he showed are his (he holds no card of them)."""
    _, positions = played
    voids_seen = 0
    for pos in positions:
        if pos.round.stock_left:
            continue
        states, counts = worlds_of(model, pos, n=5)
        assert len(states) == 1 and list(counts) == [5]
        w = StateView(states[0], RULES.params)
        real = pos.round.view
        assert w.hands[1] == real.hands[pos.opponent]
        voids = int(real.voids[pos.opponent])
        assert int(w.voids[1]) == voids
        for suit in range(4):
            if voids >> suit & 1:
                voids_seen += 1
                assert w.hands[1] >> (9 * suit) & 0x1FF == 0
    assert voids_seen


def test_while_the_stock_has_cards_the_worlds_differ_and_a_seed_gives_the_same_worlds(
        model: SidiWorlds, played) -> None:  # noqa: ANN001
    """The same generator state draws the same worlds; while the opponent's hand and the stock
    are hidden different worlds are drawn."""
    _, positions = played
    for pos in positions[:: 5]:
        a, ca = worlds_of(model, pos, n=6, seed=11)
        b, cb = worlds_of(model, pos, n=6, seed=11)
        assert np.array_equal(a, b) and np.array_equal(ca, cb)
        if pos.round.stock_left >= 4:
            assert len(a) > 1
            assert len({tuple(stock_cards(st)) for st in a}) > 1


def test_every_legal_action_then_a_random_playout_finishes_every_world(model: SidiWorlds, played) -> None:  # noqa: ANN001
    """From the worlds of every third decision, each legal action and random legal actions to the
    end finish the round; the searcher's result is its round score minus the opponent's."""
    _, positions = played
    rng = np.random.default_rng(3)
    for pos in positions[:: 3]:
        states, _ = worlds_of(model, pos)
        for st in states:
            for action in np.flatnonzero(pos.obs["action_mask"]):
                w = st.copy()
                ENGINE.apply_action(w, int(action), RULES.params)
                while StateView(w, RULES.params).phase != PHASE_OVER:
                    legal = ENGINE.legal_actions(w, RULES.params)
                    ENGINE.apply_action(w, int(rng.choice(legal)), RULES.params)
                scores = StateView(w, RULES.params).score
                assert model.results(w[None]).tolist() == [scores[0] - scores[1]]


def test_the_result_is_my_score_minus_the_opponents(model: SidiWorlds, played) -> None:  # noqa: ANN001
    """Weis, Stöck and the bonus for all 18 tricks make the round's two scores add up to more
    than 157: the result counts what the opponent scores too (the ``points`` reward, PIMC's aim)."""
    rounds, _ = played
    above = [r for r in rounds if sum(r.view.score[:2]) != ROUND_POINTS]
    assert above
    for r in above:
        assert model.results(r.state[None]).tolist() == [r.view.score[0] - r.view.score[1]]


def test_in_the_first_trick_a_world_is_the_round_dealt_with_its_cards(model: SidiWorlds) -> None:
    """Before trick 1 is over nothing of the Weis is shown: a world is the round dealt with its
    own cards (the trump 6 back with the one who exchanged it) and its stock, then the exchange
    and the lead replayed: the same Weis and Stöck, and played on with the same cards the same
    scores. The searcher's own Weis are its real ones (eight trumps from the ♥6 and the Stöck,
    when it exchanged the 6 for the face-up ♥A before its first lead)."""
    own = sidi_round(ALL_TRICKS_H1, ALL_TRICKS_H0, top=ALL_TRICKS_STOCK, face_up="HA", dealer=1)
    own.step("exchange trump 6")                       # player 0, forehand, leads next
    theirs = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA", dealer=0)
    theirs.step("exchange trump 6")                    # player 1, forehand
    theirs.step("HK")                                  # player 0, the dealer, to move
    rng = np.random.default_rng(5)
    for r, replay in ((own, ["exchange trump 6"]), (theirs, ["exchange trump 6", "HK"])):
        pos = Position(r.copy(), observation(r))
        for st in worlds_of(model, pos)[0]:
            world = Round(RULES, state=st.copy())
            assert world.view.player_weis[0] == r.view.player_weis[0]
            assert "H6" in world.dealt_hand(world.forehand) and "HA" not in world.dealt_hand(world.forehand)
            dealt = Round(RULES, hands=[world.dealt_hand(0), world.dealt_hand(1)], dealer=world.dealer)
            dealt.set_stock(world.stock)
            for action in replay:
                dealt.step(action)
            assert (dealt.view.player_weis, dealt.view.weis_team, dealt.view.stoeck_player) == (
                world.view.player_weis, world.view.weis_team, world.view.stoeck_player)
            assert dealt.hand(0) == world.hand(0) and dealt.hand(1) == world.hand(1)
            while not world.is_over:
                action = int(rng.choice(world.legal_actions()))
                world.step(action)
                dealt.step(action)
            assert list(world.view.score[:2]) == list(dealt.view.score[:2])
    assert own.view.player_weis[0] > 0 and own.view.stoeck_player == 0


def test_the_match_totals_are_copied_from_the_real_observation(model: SidiWorlds) -> None:
    """In a game to 1000 at 900 : 850 the world (a single round) shows the real totals."""
    r = sidi_round(ALL_TRICKS_H0, ALL_TRICKS_H1, top=ALL_TRICKS_STOCK, face_up="HA", match_scores=[900, 850])
    r.step("exchange trump 6")
    r.step("HK")
    pos = Position(r.copy(), observation(r))
    assert pos.obs["observation"][SLICES["game_score"]].any()
    states, _ = worlds_of(model, pos)
    obs = np.zeros((len(states), pos.obs["observation"].size), dtype=np.float32)
    mask = np.zeros((len(states), RULES.spec.n_actions), dtype=np.int8)
    model.encode(states, pos.obs["observation"], obs, mask)
    assert (obs == pos.obs["observation"]).all()


def test_a_rollout_costs_the_cards_in_the_hands_and_the_stock(model: SidiWorlds, played) -> None:  # noqa: ANN001
    _, positions = played
    for pos in positions[:: 7]:
        r = pos.round
        states, _ = worlds_of(model, pos)
        assert model.cards_left(states) == sum(len(r.hand(p)) for p in (0, 1)) + r.stock_left


def test_bad_input_is_refused_with_a_reason(model: SidiWorlds, played) -> None:  # noqa: ANN001
    _, positions = played
    pos = positions[3]
    rng = np.array([1], dtype=np.int64)
    with pytest.raises(ValueError, match="n_worlds"):
        model.worlds(pos.obs, 0, rng)
    with pytest.raises(ValueError, match="no legal action"):
        model.worlds({**pos.obs, "action_mask": np.zeros_like(pos.obs["action_mask"])}, 2, rng)
    lost = pos.obs["observation"].copy()
    lost[SLICES["hand"].start + int(np.flatnonzero(lost[SLICES["hand"]])[0])] = 0.0
    with pytest.raises(ValueError, match="inconsistent Sidi view"):
        model.worlds({**pos.obs, "observation": lost}, 2, rng)
    with pytest.raises(ValueError, match="Sidi"):
        SidiWorlds(make_rules("schieber"))


def test_sidi_names_its_worlds_for_the_search() -> None:
    module, _, name = game_of(RULES).bots["worlds"].partition(":")
    assert getattr(importlib.import_module(module), name) is SidiWorlds
