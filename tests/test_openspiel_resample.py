"""Resampling a deal from a player's information (agents/openspiel/resample.py), for every preset.

What the player knows is what he observes at every step: his observation (the game's observation
encoding) after the deal and after each action. The tests replay every sampled deal themselves with
the public API (``Round.step``, which refuses an illegal action, and the game's
``encode_observation``): a sample must replay the history legally and show the player exactly
what the true deal showed him, at every step. On small variants (a few cards each) every deal is
enumerated, the consistent ones kept by that same replay, and the sampler's frequencies compared
with the uniform distribution over them: every consistent deal equally likely (a chi-square test),
the true deal no more often than the others.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")     # agents.openspiel is the openspiel extra's

from agents.openspiel.deal import Deal, deal_of, outcomes_of, round_of  # noqa: E402
from agents.openspiel.resample import MAX_PROPOSALS, Information, ResampleError, resample_deal  # noqa: E402
from agents.openspiel.small import small_rules  # noqa: E402
from jass_env.engine.cards import PHASE_ACTION_OFFSET, cards_of, mask_of  # noqa: E402
from jass_env.engine.switches import Rules  # noqa: E402
from jass_env.envs.encoding import obs_dim  # noqa: E402
from jass_env.games import PRESETS, game_of, make_rules  # noqa: E402
from jass_env.round import IllegalActionError, Round  # noqa: E402

#: random positions per preset, and samples drawn at each
POSITIONS = 12
SAMPLES = 3
#: the lowest share of proposals accepted over those positions that still leaves the cap on
#: proposals (MAX_PROPOSALS) out of reach by orders of magnitude
LOWEST_ACCEPTANCE = 0.05
#: a chi-square statistic this far out has probability below 1e-4 under the uniform distribution
#: (Wilson-Hilferty); the seeds are fixed, so the test is deterministic
Z_1E4 = 3.72


def random_position(rules: Rules, seed: int, cut: int | None = None) -> tuple[Deal, list[int], Round]:
    """A seeded deal and a history of random legal actions (``cut`` of them, or a random number),
    with the round after them."""
    rng = np.random.default_rng(seed)
    rnd = Round(rules, seed=seed)
    deal = deal_of(rnd)
    n = rnd.spec.players * rnd.spec.tricks + 8 if cut is None else cut
    stop = int(rng.integers(0, n + 1)) if cut is None else cut
    actions: list[int] = []
    while not rnd.is_over and len(actions) < stop:
        legal = rnd.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        rnd.step(a)
        actions.append(a)
    return deal, actions, rnd


def observations(rules: Rules, deal: Deal, actions: Sequence[int], player: int) -> list[np.ndarray] | None:
    """The player's observation after the deal and after each action, or None when an action is
    not legal in this deal."""
    rnd = round_of(rules, deal)
    encode = game_of(rules).observation.encode_observation
    seen = []

    def look() -> None:
        out = np.zeros(obs_dim(rules), dtype=np.float32)
        encode(rnd.state, player, rnd.rp, out)
        seen.append(out)

    look()
    for a in actions:
        try:
            rnd.step(a)
        except IllegalActionError:
            return None
        look()
    return seen


def same_information(rules: Rules, deal: Deal, actions: Sequence[int], player: int,
                     truth: list[np.ndarray]) -> bool:
    seen = observations(rules, deal, actions, player)
    return seen is not None and all(np.array_equal(a, b) for a, b in zip(seen, truth))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_samples_replay_the_history_and_show_the_player_the_same(preset: str) -> None:
    rules = make_rules(preset)
    rng = np.random.default_rng(11)
    proposals = accepted = 0
    for k in range(POSITIONS):
        deal, actions, _ = random_position(rules, 100 + k)
        player = k % rules.spec.players
        truth = observations(rules, deal, actions, player)
        info = Information(rules, deal, actions, player)
        for _ in range(SAMPLES):
            sample = info.sample(rng)
            outcomes_of(rules, sample)               # a deal the rules can make (ValueError if not)
            assert sample.dealer == deal.dealer
            assert sample.hands[player] == deal.hands[player]
            assert same_information(rules, sample, actions, player, truth), (preset, k, sample)
        proposals += info.proposals
        accepted += info.accepted
    assert accepted / proposals >= LOWEST_ACCEPTANCE, f"{preset}: {accepted} of {proposals} proposals kept"
    assert LOWEST_ACCEPTANCE * MAX_PROPOSALS >= 1000


def test_a_sidi_position_after_an_exchange_of_the_trump_6() -> None:
    """The opponent exchanged the trump 6 for the face-up card: it changed hands other than by
    play; the samples still show the player everything he saw (the stock's cards he drew, the
    face-up card, the exchange)."""
    rules = make_rules("sidi")
    exchange = rules.spec.action_names.index("exchange trump 6")
    for seed in range(200):
        deal, actions, rnd = random_position(rules, seed, cut=30)
        if exchange in actions:
            break
    else:
        pytest.fail("no seed among 200 plays the exchange")
    exchanger = rnd.exchange["player"]
    player = 1 - exchanger
    truth = observations(rules, deal, actions, player)
    rng = np.random.default_rng(5)
    samples = [resample_deal(rules, deal, actions, player, rng) for _ in range(20)]
    for sample in samples:
        assert same_information(rules, sample, actions, player, truth)
    assert len({s for s in samples}) > 1, "the hidden cards are dealt again"


def all_deals(rules: Rules, truth: Deal, player: int) -> Iterator[Deal]:
    """Every deal with the player's own hand (he sees it) and the true dealer (public): the other
    cards split among the others in every way, with every sequence of the game's draws."""
    spec = rules.spec
    others = [q for q in range(spec.players) if q != player]
    draws = game_of(rules).draws

    def splits(cards: list[int], players: list[int]) -> Iterator[dict[int, int]]:
        if not players:
            yield {}
            return
        for hand in itertools.combinations(cards, spec.hand_size):
            for rest in splits([c for c in cards if c not in hand], players[1:]):
                yield {players[0]: mask_of(hand), **rest}

    def sequences(hands: tuple[int, ...], before: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        outcomes = draws.outcomes(rules, truth.dealer, hands, before)
        if not outcomes:
            yield before
        for o in outcomes:
            yield from sequences(hands, before + (o,))

    for split in splits(cards_of(spec.deck & ~truth.hands[player]), others):
        hands = tuple(truth.hands[player] if q == player else split[q] for q in range(spec.players))
        for seq in sequences(hands, ()):
            yield Deal(truth.dealer, hands, seq)


def chi_square_bound(categories: int) -> float:
    """The chi-square value with ``categories`` - 1 degrees of freedom exceeded with probability
    about 1e-4 (Wilson-Hilferty)."""
    k = categories - 1
    return k * (1 - 2 / (9 * k) + Z_1E4 * math.sqrt(2 / (9 * k))) ** 3


#: (preset, cards a player, seed, actions, player): small variants at positions with several
#: consistent deals and facts to respect (shown voids, trump by the first discard, Differenzler's
#: bottom card shown and hidden predictions, Schieber's contract and teams, a Weis that was not shown)
SMALL_POSITIONS = [
    ("molotow3", 4, 1, 4, 0),
    ("molotow3", 4, 2, 4, 1),
    ("differenzler3", 4, 2, 6, 1),
    ("schieber", 3, 2, 6, 3),
]
SMALL_SAMPLES = 1500


@pytest.mark.parametrize(("preset", "cards", "seed", "cut", "player"), SMALL_POSITIONS)
def test_small_variants_sample_every_consistent_deal_equally_often(preset: str, cards: int, seed: int,
                                                                   cut: int, player: int) -> None:
    rules = small_rules(preset, cards)
    truth_deal, actions, _ = random_position(rules, seed, cut=cut)
    truth = observations(rules, truth_deal, actions, player)
    consistent = [d for d in all_deals(rules, truth_deal, player)
                  if same_information(rules, d, actions, player, truth)]
    assert truth_deal in consistent and len(consistent) >= 4, "a position with a choice to make"
    rng = np.random.default_rng(seed)
    counts = Counter(resample_deal(rules, truth_deal, actions, player, rng) for _ in range(SMALL_SAMPLES))
    assert set(counts) <= set(consistent), "every sample is consistent"
    expected = SMALL_SAMPLES / len(consistent)
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in consistent)
    assert chi2 < chi_square_bound(len(consistent)), (chi2, len(consistent), counts.most_common(3))
    p = 1 / len(consistent)
    assert counts[truth_deal] / SMALL_SAMPLES <= p + 4 * math.sqrt(p * (1 - p) / SMALL_SAMPLES), \
        "the true deal comes out no more often than any other consistent deal"


def test_bad_input_and_the_cap_on_proposals() -> None:
    rules = make_rules("schieber")
    deal, actions, _ = random_position(rules, 3, cut=10)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="player must be a player of schieber, 0..3"):
        resample_deal(rules, deal, actions, 4, rng)
    with pytest.raises(ValueError, match="action 0 of the history does not fit the deal"):
        resample_deal(rules, deal, [actions[0] + 100], 0, rng)
    info = Information(rules, deal, actions, 0)
    info.consistent = lambda d: False        # as if no proposal ever matched what the player saw
    with pytest.raises(ResampleError, match="no deal consistent with player 0's information after 10 "):
        info.sample(rng, max_proposals=5)


def test_sidi_agrees_with_a_plain_rejection_sampler() -> None:
    """Sidi's stock cannot be enumerated; at a position two tricks in, the sampler is compared with
    a plain one that deals everything the player has not seen at random (his hand, the stock's
    places he drew and the face-up card kept) and keeps the consistent deals: for each card, how
    often it lies in the opponent's dealt hand must agree (the opponent played his first card from
    his dealt hand, his second from it or from the stock's card he drew after trick 1)."""
    rules = make_rules("sidi")
    deal, actions, _ = random_position(rules, 4, cut=4)
    player = 0
    opponent = 1 - player
    truth = observations(rules, deal, actions, player)
    rnd = round_of(rules, deal)
    seen_places = {len(deal.draws) - 1}                      # the face-up card
    held = deal.hands[player]
    for a in actions:
        rnd.step(a)
        now = mask_of(rnd.hand(player))
        seen_places |= {deal.draws.index(c) for c in cards_of(now & ~held & ~(1 << a))}
        held |= now
    kept = deal.hands[player] | mask_of(deal.draws[k] for k in seen_places)
    hidden = cards_of(rules.spec.deck & ~kept)
    open_places = [k for k in range(len(deal.draws)) if k not in seen_places]
    rng = np.random.default_rng(9)
    n = 500
    plain = []
    while len(plain) < n:
        cards = [hidden[i] for i in rng.permutation(len(hidden))]
        draws = list(deal.draws)
        for k, c in zip(open_places, cards[rules.spec.hand_size:]):
            draws[k] = c
        hands = [0, 0]
        hands[player] = deal.hands[player]
        hands[opponent] = mask_of(cards[:rules.spec.hand_size])
        candidate = Deal(deal.dealer, tuple(hands), tuple(draws))
        if same_information(rules, candidate, actions, player, truth):
            plain.append(candidate)
    ours = [resample_deal(rules, deal, actions, player, rng) for _ in range(n)]
    for c in hidden:
        p = sum(d.hands[opponent] >> c & 1 for d in plain) / n
        q = sum(d.hands[opponent] >> c & 1 for d in ours) / n
        pooled = (p + q) / 2
        if 0 < pooled < 1:
            z = abs(p - q) / math.sqrt(2 * pooled * (1 - pooled) / n)
            assert z < 4.5, (c, p, q)


@pytest.mark.parametrize("preset", ["schieber", "differenzler", "sidi"])
def test_openspiel_states_resample_within_the_information_state(preset: str) -> None:
    """``state.resample_from_infostate(player, sampler)``: a state of the same game the player
    cannot tell from this one (same information-state string and tensor, same observation), with
    the same cards played; the hidden cards differ from one sample to the next."""
    game = pyspiel.load_game(f"python_jass_{preset}")
    rng = np.random.default_rng(17)
    state = game.new_initial_state()
    while state.is_chance_node() or (not state.is_terminal() and len(state.history()) < 60):
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    for player in range(game.num_players()):
        others = set()
        for _ in range(3):
            new = state.resample_from_infostate(player, rng.random)
            assert new.information_state_string(player) == state.information_state_string(player)
            assert new.information_state_tensor(player) == state.information_state_tensor(player)
            assert new.observation_tensor(player) == state.observation_tensor(player)
            assert [m for m in new.moves if m < PHASE_ACTION_OFFSET] == [
                m for m in state.moves if m < PHASE_ACTION_OFFSET]     # hidden predictions may differ
            others.add(tuple(new.history()))
        assert len(others) > 1
