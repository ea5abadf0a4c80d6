"""Property tests over random rounds and matches, for every preset and for random rule switches.

Random seeds deal, random legal actions play. After every action and at the end of each round
the invariants of the rules (docs/rules.md) must hold: the legal set is never empty and lies within
the hand, every card is played once, card points sum to 157, the two teams' tricks sum to 9, and
``score = (points + Match bonus + Weis + Stöck) × multiplier`` ("Match and the round score").
Where cheap, the engine is also compared with small reference implementations written from the
rules' text (legal cards and trick winner: "Legal moves"; card values: "The deck"; "Weis").

The module ends with a test that reruns the tests marked ``nojit_sample`` with
``NUMBA_DISABLE_JIT=1``: the pure-Python engine must follow the same rules as the compiled one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NATURAL, weis_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jass_env import SCHIEBER_PRESETS, Match, Round, make_rules
from jass_env.engine.cards import CONTRACTS, card_name
from jass_env.engine.state import StateView
from jass_env.engine.switches import Rules
from jass_env.games.schieber.rules import PUSH

TRUMP_ORDER = {r: i for i, r in enumerate(("6", "7", "8", "10", "Q", "K", "A", "9", "J"))}
NAT = {r: i for i, r in enumerate(NATURAL)}
VALUES = {  # docs/rules.md, "The deck"
    "trump": {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 0, "7": 0, "6": 0},
    "plain": {"J": 2, "9": 0, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 0, "7": 0, "6": 0},
    "obenabe": {"J": 2, "9": 0, "A": 11, "K": 4, "Q": 3, "10": 10, "8": 8, "7": 0, "6": 0},
    "undenufe": {"J": 2, "9": 0, "A": 0, "K": 4, "Q": 3, "10": 10, "8": 8, "7": 0, "6": 11},
}
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# references
def ref_value(card: str, contract: str, rules: Rules) -> int:
    """Card points ("The deck")."""
    suit, rank = card[0], card[1:]
    if contract in "DHSC":
        return VALUES["trump" if suit == contract else "plain"][rank]
    return VALUES[contract if rules.ou_card_values else "plain"][rank]


def ref_strength(card: str, lead: str, contract: str) -> int:
    suit, rank = card[0], card[1:]
    if contract in "DHSC" and suit == contract:
        return 100 + TRUMP_ORDER[rank]
    if suit != lead:
        return -1
    return 8 - NAT[rank] if contract == "undenufe" else NAT[rank]


def ref_winner(trick: list[str], contract: str) -> int:
    """Legal moves: "the highest trump; otherwise the highest card of the led suit (in Undenufe the
    lowest)" — the position in the trick."""
    s = [ref_strength(c, trick[0][0], contract) for c in trick]
    return s.index(max(s))


def ref_legal(hand: set[str], trick: list[str], contract: str, rules: Rules) -> set[str]:
    """Legal moves, with their switches (trump instead, under-trump rule, Puur exception)."""
    if not trick:
        return set(hand)
    lead = trick[0][0]
    follow = {c for c in hand if c[0] == lead}
    if contract not in "DHSC":
        return follow or set(hand)
    trumps = {c for c in hand if c[0] == contract}
    if lead == contract:
        needed = trumps - ({contract + "J"} if rules.puur_exception else set())
        return trumps if needed else set(hand)
    allowed = set(trumps)
    w = ref_winner(trick, contract)
    top = trick[w]
    if top[0] == contract and trumps != hand and rules.undertrump_rule != "allowed":
        opponent_wins = w != len(trick) - 2
        if rules.undertrump_rule == "official" or opponent_wins:
            allowed = {c for c in trumps if TRUMP_ORDER[c[1:]] > TRUMP_ORDER[top[1:]]}
    if follow:
        return follow | allowed if rules.may_trump_instead_of_following else follow
    return (hand - trumps) | allowed


def ref_runs(hand: set[str]) -> list[list[str]]:
    out = []
    for s in "DHSC":
        run: list[str] = []
        for r in NATURAL + ("",):
            if r and s + r in hand:
                run.append(s + r)
                continue
            if len(run) >= 3:
                out.append(run)
            run = []
    return out


def ref_weis(hand: set[str], rules: Rules) -> list[tuple[int, list[str]]]:
    """Weis: "what a player declares": maximal runs and counting quads; without Kreuzweis the choice of
    quads with the most points (ties: the best single Weis, by points then cards)."""
    quads = [r for r in NATURAL if all(s + r in hand for s in "DHSC") and dict(rules.quad_values)[r] > 0]

    def declare(qs: list[str]) -> list[tuple[int, list[str]]]:
        used = {s + r for r in qs for s in "DHSC"} if not rules.kreuzweis else set()
        ws = [(dict(rules.quad_values)[r], sorted(s + r for s in "DHSC")) for r in qs]
        for run in ref_runs(hand - used):
            pts = rules.sequence_values[len(run) - 3]
            if pts:
                ws.append((pts, sorted(run)))
        return sorted(ws)

    if rules.kreuzweis:
        return declare(quads)
    choices = [declare([q for i, q in enumerate(quads) if m >> i & 1]) for m in range(1 << len(quads))]
    return max(choices, key=lambda ws: (sum(p for p, _ in ws), max(((p, len(c)) for p, c in ws),
                                                                    default=(0, 0))))


VAUD_SUIT = {"H": 3, "C": 2, "S": 1, "D": 0}


def ref_key(points: int, cards: list[str], player: int, forehand: int, contract: str,
            rules: Rules) -> tuple:
    """Weis: the comparison key of one Weis (larger wins)."""
    is_quad = len({c[0] for c in cards}) == 4
    height = max(NAT[c[1:]] for c in cards)
    if contract == "undenufe" and rules.undenufe_reverse_weis_rank:
        height = 8 - height
    trump = int(not is_quad and contract in "DHSC" and cards[0][0] == contract)
    if rules.weis_comparison == "vaud":
        return (int(is_quad), points, len(cards), height, trump, 0 if is_quad else VAUD_SUIT[cards[0][0]])
    if rules.weis_comparison == "no_top_card":
        height = 0
    return (points, len(cards), height, trump, -((player - forehand) % 4))


# playing
def play_random_round(r: Round, rnd, check_reference: bool = True) -> None:
    """Play ``r`` to its end with random legal actions, checking the per-step invariants."""
    rules = r.rules
    while not r.is_over:
        legal = [int(a) for a in r.legal_actions()]
        assert legal, "the legal set is never empty while the round goes on"
        if r.phase == "play":
            hand = set(r.hand(r.to_move))
            names = {card_name(a) for a in legal}
            assert all(a < 36 for a in legal) and names <= hand, "legal cards lie within the hand"
            if check_reference:
                trick = [c for _, c in r.current_trick]
                assert names == ref_legal(hand, trick, r.contract, rules), (hand, trick, r.contract)
        else:
            allowed = {36 + CONTRACTS.index(c) for c in rules.contracts}
            if rules.push and not r.pushed:
                allowed.add(PUSH)
            assert set(legal) == allowed
        r.step(rnd.choice(legal))


def check_round(r: Round) -> None:
    """The end-of-round invariants."""
    rules = r.rules
    contract = r.contract
    tricks = r.tricks
    # every card is played once, each by the player who was dealt it
    view = StateView(r.state, r.rp)
    plays = [c for t in range(9) for c in view.trick_cards(t)]
    assert sorted(plays) == list(range(36))
    for p in range(4):
        assert sorted(c for t in tricks for q, c in t["plays"] if q == p) == sorted(r.dealt_hand(p))
        assert r.hand(p) == []
    # tricks: winner and points by the reference rules
    assert len(tricks) == 9 and sum(r.tricks_won) == 9
    for i, t in enumerate(tricks):
        cards = [c for _, c in t["plays"]]
        assert t["winner"] == t["plays"][ref_winner(cards, contract)][0]
        assert t["points"] == sum(ref_value(c, contract, rules) for c in cards) + (5 if i == 8 else 0)
        if i:
            assert t["leader"] == tricks[i - 1]["winner"]
    per_team = [sum(t["points"] for t in tricks if t["winner"] % 2 == team) for team in (0, 1)]
    assert r.points == per_team
    total = 125 if (contract in ("obenabe", "undenufe") and not rules.ou_card_values) else 157
    assert sum(r.points) == total
    # Match
    winners = {t["winner"] % 2 for t in tricks}
    assert r.match_team == (winners.pop() if len(winners) == 1 else None)
    # Weis: the declared Weis follow the reference; the winning team scores all its Weis
    if rules.weis:
        for p in range(4):
            assert sorted((w["points"], sorted(w["cards"])) for w in r.declared_weis(p)) == \
                ref_weis(set(r.dealt_hand(p)), rules)
        best = [max((ref_key(w["points"], w["cards"], p, r.forehand, contract, rules)
                     for p in (team, team + 2) for w in r.declared_weis(p)), default=None)
                for team in (0, 1)]
        if best != [None, None]:
            expected_team = 0 if best[1] is None or (best[0] is not None and best[0] > best[1]) else 1
            assert r.weis_team == expected_team, "the team holding the best single Weis wins"
        if r.weis_team is not None:
            t = r.weis_team
            for p in range(4):
                public = sorted({c for w in r.declared_weis(p) for c in w["cards"]}) if p % 2 == t else []
                assert sorted(r.public_weis_cards(p)) == public
            assert r.weis_points[t] == sum(w["points"] for p in (t, t + 2) for w in r.declared_weis(p))
            assert r.weis_points[1 - t] == 0
        else:
            assert all(r.declared_weis(p) == [] for p in range(4))
    else:
        assert r.weis_points == [0, 0] and r.weis_team is None
    # Stöck: the player dealt trump K+Q, trump contracts only
    kq = {contract + "K", contract + "Q"}
    holder = [p for p in range(4) if contract in "DHSC" and kq <= set(r.dealt_hand(p))]
    expected_holder = holder[0] if holder and rules.stoeck > 0 else None
    assert r.stoeck_player == expected_holder
    # score = (points + Match bonus + Weis + Stöck) * multiplier
    mult = rules.multipliers[CONTRACTS.index(contract)]
    for team in (0, 1):
        bonus = rules.match_bonus if r.match_team == team else 0
        stoeck = rules.stoeck if expected_holder is not None and expected_holder % 2 == team else 0
        assert r.score[team] == (r.points[team] + bonus + r.weis_points[team] + stoeck) * mult


@pytest.mark.parametrize("preset", list(SCHIEBER_PRESETS))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), rnd=st.randoms(use_true_random=False))
def test_random_rounds_keep_the_rules_invariants(preset, seed, rnd):
    """Every preset, random deals and random legal actions: legal sets, 157 points, 9 tricks, each
    card once, and the score formula ("Match and the round score")."""
    r = Round(preset, seed=seed)
    play_random_round(r, rnd)
    check_round(r)


SWITCHES = st.fixed_dictionaries({
    "undertrump_rule": st.sampled_from(["official", "unless_partner_winning", "allowed"]),
    "may_trump_instead_of_following": st.booleans(),
    "puur_exception": st.booleans(),
    "kreuzweis": st.booleans(),
    "ou_card_values": st.booleans(),
    "weis": st.booleans(),
    "stoeck": st.sampled_from([0, 20, 40]),
    "match_bonus": st.sampled_from([0, 100]),
    "leader_after_push": st.sampled_from(["forehand", "declarer"]),
    "multipliers": st.lists(st.integers(1, 7), min_size=6, max_size=6),
})


@SETTINGS
@given(preset=st.sampled_from(list(SCHIEBER_PRESETS)), switches=SWITCHES, seed=st.integers(0, 2**32 - 1),
       rnd=st.randoms(use_true_random=False))
def test_random_rounds_with_random_switches(preset, switches, seed, rnd):
    """"Every switch is also settable on its own, on top of a preset": the invariants hold for
    any combination (with `ou_card_values=False` an Obenabe/Undenufe round is worth 125)."""
    r = Round(make_rules(preset, **switches), seed=seed)
    play_random_round(r, rnd)
    check_round(r)
    if r.pushed:
        expected = r.declarer if switches["leader_after_push"] == "declarer" else r.forehand
        assert r.tricks[0]["leader"] == expected
    else:
        assert r.tricks[0]["leader"] == r.forehand


@SETTINGS
@given(hand=st.lists(st.sampled_from([card_name(c) for c in range(36)]), min_size=9, max_size=9,
                     unique=True),
       preset=st.sampled_from(["schieber", "seed_nl", "seed_vaud"]), kreuzweis=st.booleans(),
       contract=st.sampled_from(CONTRACTS))
def test_declared_weis_match_the_reference(hand, preset, kreuzweis, contract):
    """Weis: "what a player declares", for any 9-card hand (runs never split, counting quads)."""
    rules = make_rules(preset, kreuzweis=kreuzweis)
    assert weis_of(hand, contract, rules) == ref_weis(set(hand), rules)


@pytest.mark.parametrize("preset", list(SCHIEBER_PRESETS))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rnd=st.randoms(use_true_random=False))
def test_random_matches_end_by_the_presets_rule(preset, seed, rnd):
    """Whole matches: the dealer rotates, the match score is the sum of the round scores, and the
    match ends as the preset says (target reached / higher total at round end / fixed rounds)."""
    m = Match(preset, seed=seed)
    rules = m.rules
    dealer = m.round.dealer
    if rules.first_forehand == "D7":
        assert "D7" in m.round.hand(m.round.forehand)
    while not m.is_over:
        m.step(rnd.choice([int(a) for a in m.legal_actions()]))
    rounds = m.finished_rounds
    assert [r.dealer for r in rounds] == [(dealer + i) % 4 for i in range(len(rounds))]
    assert m.scores == [sum(r.score[t] for r in rounds) for t in (0, 1)]
    for r in rounds[:-1]:
        check_round(r)
    w, (a, b) = m.winner, m.scores
    if rules.match_rounds:
        assert len(rounds) == rules.match_rounds and w == (0 if a > b else 1 if b > a else 2)
    elif rules.match_finish == "round_end":
        assert rounds[-1].is_over and rounds[-1].trick_number == 9
        assert max(a, b) >= rules.target and m.scores[w] > m.scores[1 - w]
    else:
        # reached at a moment when the other team had not: the loser was below the target when
        # the last round began (he may pass it after the winner, within the same trick)
        assert m.scores[w] >= rules.target
        assert m.scores[1 - w] - rounds[-1].score[1 - w] < rules.target


# no JIT
ROOT = Path(__file__).resolve().parents[1]
RULE_TEST_FILES = ["test_rules_config.py", "test_card_play.py", "test_scoring.py", "test_weis.py",
                   "test_match.py"]


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="already running without JIT")
def test_rule_sample_passes_with_numba_jit_disabled():
    """The engine "run[s] unchanged as plain Python under NUMBA_DISABLE_JIT=1": the tests marked
    ``nojit_sample`` pass there too."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    files = [str(ROOT / "tests" / f) for f in RULE_TEST_FILES]
    cmd = [sys.executable, "-m", "pytest", "-q", "-m", "nojit_sample", "-p", "no:cacheprovider", *files]
    res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert " passed" in res.stdout and " failed" not in res.stdout
