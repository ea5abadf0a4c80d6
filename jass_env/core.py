"""The compiled core: Schieber rules as pure functions over bitboards and a flat state array.

Every rule of RULES.md lives here once; the round/match API (:mod:`jass_env.game`), the AEC and
batched environments and the bots all call these functions. They are compiled with numba
(``cache=True``, so the compile cost is paid once per machine) and run unchanged as plain Python
under ``NUMBA_DISABLE_JIT=1``.

Conventions
-----------
* A card is an id 0..35 (see :mod:`jass_env.cards`); a set of cards is an int64 bitboard.
* ``rp`` is the rules parameter array of :meth:`jass_env.rules.Rules.params` (offsets ``RP_*``).
* A game is one int64 array of length ``S_SIZE`` (offsets ``S_*`` below); a batch of games is a
  ``(num_envs, S_SIZE)`` array. Functions that change a game take its array and mutate it in place.
* Players are 0..3 in play order, team = player % 2, partner = (player + 2) % 4.
* Only integer arithmetic below 2**62 is used, so Python ints and numba int64 agree exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    RP_BERGPREIS,
    RP_CONTRACTS,
    RP_FINISH,
    RP_FIRST_FOREHAND,
    RP_KREUZWEIS,
    RP_LEADER_AFTER_PUSH,
    RP_MATCH_BONUS,
    RP_MATCH_ROUNDS,
    RP_MULT,
    RP_PUSH,
    RP_PUUR_EXCEPTION,
    RP_QUAD,
    RP_SEQ,
    RP_STOECK,
    RP_TARGET,
    RP_TRUMP_INSTEAD,
    RP_UND_REVERSE,
    RP_UNDERTRUMP,
    RP_VALUES,
    RP_WEIS,
    RP_WEIS_CMP,
)

# ---------------------------------------------------------------------------------- state layout
S_HANDS = 0          # 4  cards each player still holds
S_DEALT = 4          # 4  the hands as dealt (Weis and Stöck are read from these)
S_PLAYED = 8         # 4  cards each player has played so far (public)
S_DEALER = 12
S_FOREHAND = 13      # (dealer + 1) % 4: chooses or pushes, leads trick 1
S_PHASE = 14         # PHASE_CONTRACT, PHASE_PLAY, PHASE_OVER
S_PUSHED = 15        # 1 after forehand pushed
S_DECLARER = 16      # who named the contract, -1 before
S_CONTRACT = 17      # 0..5, -1 before
S_TO_MOVE = 18       # the player who acts next
S_TRICK_NO = 19      # 0..8 during play, 9 when all tricks are played
S_LEADER = 20        # leader of the current trick
S_N_IN_TRICK = 21    # cards in the current trick, 0..3
S_TRICK = 22         # 4  cards of the current trick by position (leader first), -1 = empty
S_POINTS = 26        # 2  card points taken per team (last trick +5 included, no Match bonus)
S_TRICKS_WON = 28    # 2  tricks taken per team
S_WEIS_POINTS = 30   # 2  Weis points each team scores (before the multiplier), set at contract
S_WEIS_CARDS = 32    # 4  cards of each player's scoring Weis (public after trick 1); 0 for losers
S_WEIS_TEAM = 36     # team that won the Weis contest, -1 if nobody has a Weis
S_STOECK_PLAYER = 37 # player dealt trump K+Q (trump contracts, Stöck on), -1 otherwise
S_STOECK_SHOWN = 38  # 1 once the second of the two cards was played (Stöck credited)
S_MATCH_TEAM = 39    # team that took all 9 tricks, -1 otherwise (set at round end)
S_SCORE = 40         # 2  the round's score so far per team, multiplier applied
S_RNG = 42           # xorshift32 state used to deal this game's next hands
S_MATCH = 43         # 1 when the game is a match to a target, 0 for single rounds
S_MATCH_SCORE = 44   # 2  match totals per team
S_MATCH_WINNER = 46  # -1 undecided, 0/1 the winning team, 2 a draw (fixed number of rounds)
S_BERG_TEAM = 47     # team that got the Bergpreis, -1
S_ROUND_NO = 48      # rounds completed in this match
S_PLAYS = 49         # 36 cards in the order played, -1 = not yet
S_TRICK_WINNER = 85  # 9  winner of each trick, -1
S_TRICK_POINTS = 94  # 9  card points of each trick (+5 on the last), -1
S_PLAYER_WEIS = 103  # 4  Weis points each player declared (before the contest)
S_VOIDS = 107        # 4  public voids: bit s set = the player showed he holds no card of suit s
                     #    (for the trump suit with the Puur exception: no trump but maybe the Puur)
S_WIN_POS = 111      # position in the current trick of the card winning it so far
S_WIN_STRENGTH = 112 # that card's strength (see card_strength)
S_SIZE = 113

PHASE_CONTRACT = 0
PHASE_PLAY = 1
PHASE_OVER = 2

PUSH = 42
CONTRACT_OFFSET = 36
OBENABE = 4
UNDENUFE = 5

# ---------------------------------------------------------------------------------- card tables
SUIT_MASK = np.array([0x1FF << (9 * s) for s in range(4)], dtype=np.int64)
#: trump order by rank offset (A K Q J 10 9 8 7 6): J 8, 9 7, A 6, K 5, Q 4, 10 3, 8 2, 7 1, 6 0
TRUMP_ORDER = np.array([6, 5, 4, 8, 3, 7, 2, 1, 0], dtype=np.int64)
#: TRUMP_ABOVE[c]: the trump cards of c's suit that rank above c when that suit is trump
TRUMP_ABOVE = np.zeros(36, dtype=np.int64)
for _c in range(36):
    for _r in range(9):
        if TRUMP_ORDER[_r] > TRUMP_ORDER[_c % 9]:
            TRUMP_ABOVE[_c] |= 1 << (9 * (_c // 9) + _r)
#: QUAD_MASK[r]: the four cards of rank offset r
QUAD_MASK = np.array([sum(1 << (9 * s + r) for s in range(4)) for r in range(9)], dtype=np.int64)
#: RUNS[bits] for the 9 bits of one suit: (start, length) of its first and second maximal run of
#: >= 3 adjacent cards (length 0 = none); a suit of 9 cards holds at most two such runs
RUNS = np.zeros((512, 4), dtype=np.int64)
for _bits in range(512):
    _k, _r = 0, 0
    while _r < 9:
        if not (_bits >> _r) & 1:
            _r += 1
            continue
        _r0 = _r
        while _r < 9 and (_bits >> _r) & 1:
            _r += 1
        if _r - _r0 >= 3:
            RUNS[_bits, 2 * _k] = _r0
            RUNS[_bits, 2 * _k + 1] = _r - _r0
            _k += 1
#: seed_vaud suit order for Weis ties, H > C > S > D
VAUD_SUIT_ORDER = np.array([0, 3, 1, 2], dtype=np.int64)
JACK = 3
KING = 1
QUEEN = 2
D7 = 7


# ---------------------------------------------------------------------------------- bit helpers
@njit(cache=True, error_model="numpy", inline="always")
def popcount(x: int) -> int:
    """Number of set bits of a non-negative mask (SWAR, no multiplication, so no overflow)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, error_model="numpy", inline="always")
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return popcount((x & -x) - 1)


@njit(cache=True, error_model="numpy", inline="always")
def nth_bit(x: int, n: int) -> int:
    """Index of the n-th (0-based) set bit of x, counting from bit 0."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


@njit(cache=True, error_model="numpy", inline="always")
def xorshift32(x: int) -> int:
    """Marsaglia's xorshift32 on a non-zero state < 2**32; returns the next state."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


@njit(cache=True, error_model="numpy", inline="always")
def random_below(st: np.ndarray, n: int) -> int:
    """Advance the game's generator and return an integer in [0, n) (n < 2**30).

    Multiply-shift instead of a modulo (Lemire): no division, bias below n / 2**32.
    """
    x = xorshift32(st[S_RNG])
    st[S_RNG] = x
    return (x * n) >> 32


# ---------------------------------------------------------------------------------- card play
def _strength(card: int, lead_suit: int, contract: int) -> int:
    s, r = card // 9, card % 9
    if contract < 4 and s == contract:
        return 20 + int(TRUMP_ORDER[r])
    if s != lead_suit:
        return -1
    return r if contract == UNDENUFE else 8 - r   # Undenufe: 6 (offset 8) highest; else A highest


#: STRENGTH[contract, lead_suit, card]: how strongly a card contends for a trick, -1 cannot win;
#: trumps 20 + trump order, cards of the led suit their rank in the contract's order
STRENGTH = np.array([[[_strength(c, ls, k) for c in range(36)] for ls in range(4)] for k in range(6)],
                    dtype=np.int64)


@njit(cache=True, error_model="numpy")
def card_strength(card: int, lead_suit: int, contract: int) -> int:
    """How strongly ``card`` contends for a trick led in ``lead_suit``: -1 cannot win."""
    return STRENGTH[contract, lead_suit, card]


@njit(cache=True, error_model="numpy")
def trick_winner_position(trick: np.ndarray, n: int, contract: int) -> int:
    """Position (0 = leader) of the card winning the first ``n`` cards of ``trick``."""
    lead_suit = trick[0] // 9
    best = 0
    for i in range(1, n):
        if STRENGTH[contract, lead_suit, trick[i]] > STRENGTH[contract, lead_suit, trick[best]]:
            best = i
    return best


@njit(cache=True, error_model="numpy")
def legal_cards(hand: int, trick: np.ndarray, n: int, contract: int, rp: np.ndarray) -> int:
    """The cards of ``hand`` that may be played on the first ``n`` cards of ``trick`` (RULES §2.3).

    Never empty for a non-empty hand.
    """
    if n == 0:
        return hand
    win_pos = trick_winner_position(trick, n, contract)
    return _legal(hand, trick[0] // 9, n, trick[win_pos], win_pos, contract, rp)


@njit(cache=True, error_model="numpy", inline="always")
def _legal(hand: int, lead_suit: int, n: int, win_card: int, win_pos: int, contract: int,
           rp: np.ndarray) -> int:
    """:func:`legal_cards` given the led suit and the card (and its position) winning so far."""
    if n == 0:
        return hand                                   # the leader plays any card
    follow = hand & SUIT_MASK[lead_suit]
    if contract >= 4:                                 # Obenabe / Undenufe: follow if possible
        return follow if follow else hand
    trump_mask = SUIT_MASK[contract]
    trumps = hand & trump_mask
    if lead_suit == contract:                         # trump led: any trump, Puur exception
        must = trumps
        if rp[RP_PUUR_EXCEPTION]:
            must = trumps & ~(np.int64(1) << (9 * contract + JACK))
        return trumps if must else hand
    # plain suit led: which trumps may be played (the under-trump ban)
    allowed_trumps = trumps
    rule = rp[RP_UNDERTRUMP]
    if rule != 2 and trumps and (hand & ~trump_mask) and win_card // 9 == contract:
        # a trump is in the trick. official: always banned; unless_partner_winning: banned while
        # an opponent wins (the partner played n - 2 positions earlier)
        if rule == 0 or win_pos != n - 2:
            allowed_trumps = trumps & TRUMP_ABOVE[win_card]
    if follow:
        if rp[RP_TRUMP_INSTEAD]:
            return follow | allowed_trumps
        return follow
    return (hand & ~trump_mask) | allowed_trumps


@njit(cache=True, error_model="numpy")
def card_points(card: int, contract: int, rp: np.ndarray) -> int:
    """Points of one card under a contract (RULES §2.1, with the rules' O/U values switch)."""
    return rp[RP_VALUES + 36 * contract + card]


# ---------------------------------------------------------------------------------- Weis
@njit(cache=True, error_model="numpy", inline="always")
def weis_key(points: int, ncards: int, height: int, suit: int, is_quad: bool, position: int,
             contract: int, rp: np.ndarray) -> int:
    """An integer that orders Weis as the rules compare them (larger wins).

    ``height`` is the natural rank index 0 (6) .. 8 (A) of the top card (of the rank for a quad);
    ``position`` is the owner's seat counted from forehand (0 wins ties).
    """
    cmp = rp[RP_WEIS_CMP]
    if contract == UNDENUFE and rp[RP_UND_REVERSE]:
        height = 8 - height
    if cmp == 2:
        height = 0
    trump = 1 if (contract < 4 and not is_quad and suit == contract) else 0
    if cmp == 1:  # vaud: quads above sequences, then points, cards, height, trump, suit order
        k = 1 if is_quad else 0
        k = k * 1024 + points
        k = k * 16 + ncards
        k = k * 16 + height
        k = k * 2 + trump
        return k * 4 + (0 if is_quad else VAUD_SUIT_ORDER[suit])
    k = points * 16 + ncards
    k = k * 16 + height
    k = k * 2 + trump
    return k * 4 + (3 - position)


@njit(cache=True, error_model="numpy", inline="always")
def _sequences(hand: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray, start: int) -> int:
    """Append each maximal run of >= 3 cards of ``hand`` to ``out`` rows from ``start``.

    Row = (points, cards mask, key). Returns the new row count.
    """
    k = start
    for s in range(4):
        bits = (hand >> (9 * s)) & 0x1FF
        for j in range(2):
            length = RUNS[bits, 2 * j + 1]
            if length == 0:
                break
            points = rp[RP_SEQ + length - 3]
            if points > 0:
                r0 = RUNS[bits, 2 * j]
                out[k, 0] = points
                out[k, 1] = (((np.int64(1) << length) - 1) << r0) << (9 * s)
                out[k, 2] = weis_key(points, length, 8 - r0, s, False, position, contract, rp)
                k += 1
    return k


@njit(cache=True, error_model="numpy", inline="always")
def player_weis(hand: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray) -> int:
    """The Weis a player declares from a 9-card ``hand`` (RULES §5), written to ``out``.

    ``out`` is an (at least 8, 3) int64 array; each row is (points, cards mask, key). Returns the
    number of Weis. With Kreuzweis allowed: every maximal run and every counting quad. Without: the
    choice of quads that gives the most points, then the best single Weis.
    """
    nq = 0
    q0 = q1 = 0                                       # a 9-card hand holds at most two quads
    for r in range(9):
        if (hand & QUAD_MASK[r]) == QUAD_MASK[r] and rp[RP_QUAD + r] > 0:
            if nq == 0:
                q0 = r
            else:
                q1 = r
            nq += 1
    if rp[RP_KREUZWEIS] or nq == 0:
        k = _sequences(hand, contract, position, rp, out, 0)
        if nq > 0:
            k = _add_quad(q0, contract, position, rp, out, k)
        if nq > 1:
            k = _add_quad(q1, contract, position, rp, out, k)
        return k
    # Kreuzweis off: try every subset of quads, keep the best (total points, best key)
    trial = np.zeros((8, 3), dtype=np.int64)
    best_total = -1
    best_key = -1
    best_n = 0
    for subset in range(1 << nq):
        rest = hand
        k = 0
        for i in range(nq):
            if (subset >> i) & 1:
                r = q0 if i == 0 else q1
                rest &= ~QUAD_MASK[r]
                k = _add_quad(r, contract, position, rp, trial, k)
        k = _sequences(rest, contract, position, rp, trial, k)
        total = 0
        top = -1
        for i in range(k):
            total += trial[i, 0]
            top = max(top, trial[i, 2])
        if total > best_total or (total == best_total and top > best_key):
            best_total = total
            best_key = top
            best_n = k
            out[:k, :] = trial[:k, :]
    return best_n


@njit(cache=True, error_model="numpy", inline="always")
def _add_quad(r: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray, k: int) -> int:
    out[k, 0] = rp[RP_QUAD + r]
    out[k, 1] = QUAD_MASK[r]
    out[k, 2] = weis_key(rp[RP_QUAD + r], 4, 8 - r, 0, True, position, contract, rp)
    return k + 1


@njit(cache=True, error_model="numpy", inline="always")
def _decide_weis(st: np.ndarray, rp: np.ndarray) -> None:
    """Compare the teams' best single Weis; the winner scores all Weis of both its players."""
    contract = st[S_CONTRACT]
    buf = np.empty((8, 3), dtype=np.int64)
    best0 = best1 = -1
    for p in range(4):
        n = player_weis(st[S_DEALT + p], contract, (p - st[S_FOREHAND]) % 4, rp, buf)
        total = 0
        best = -1
        cards = np.int64(0)
        for i in range(n):
            total += buf[i, 0]
            cards |= buf[i, 1]
            best = max(best, buf[i, 2])
        st[S_PLAYER_WEIS + p] = total
        st[S_WEIS_CARDS + p] = cards                  # cleared below for the losing team
        if p % 2 == 0:
            best0 = max(best0, best)
        else:
            best1 = max(best1, best)
    if best0 < 0 and best1 < 0:
        for p in range(4):
            st[S_WEIS_CARDS + p] = 0
        return
    team = 0 if best0 > best1 else 1
    st[S_WEIS_TEAM] = team
    st[S_WEIS_POINTS + team] = st[S_PLAYER_WEIS + team] + st[S_PLAYER_WEIS + team + 2]
    st[S_WEIS_CARDS + 1 - team] = 0
    st[S_WEIS_CARDS + 3 - team] = 0


# ---------------------------------------------------------------------------------- scoring
@njit(cache=True, error_model="numpy", inline="always")
def _credit(st: np.ndarray, team: int, amount: int, rp: np.ndarray) -> None:
    """Write ``amount`` (before the multiplier) to a team's round score and, in a match, its total.

    Under the official finish a team reaching the target wins at this moment, so the order of
    the calls (Stöck, then Weis, then trick points) is the Ausmachregel.
    """
    if amount == 0:
        return
    value = amount * rp[RP_MULT + st[S_CONTRACT]]
    st[S_SCORE + team] += value
    if not st[S_MATCH]:
        return
    st[S_MATCH_SCORE + team] += value
    target = rp[RP_TARGET]
    if rp[RP_BERGPREIS] > 0 and target > 0 and st[S_BERG_TEAM] < 0 and 2 * st[S_MATCH_SCORE + team] >= target:
        st[S_BERG_TEAM] = team
        st[S_MATCH_SCORE + team] += rp[RP_BERGPREIS]
    if rp[RP_FINISH] == 0 and target > 0 and st[S_MATCH_WINNER] < 0 and st[S_MATCH_SCORE + team] >= target:
        st[S_MATCH_WINNER] = team


@njit(cache=True, error_model="numpy", inline="always")
def _end_of_round(st: np.ndarray, rp: np.ndarray) -> None:
    """Round over: decide the match where the rules say so."""
    st[S_PHASE] = PHASE_OVER
    if not st[S_MATCH] or st[S_MATCH_WINNER] >= 0:
        return
    st[S_ROUND_NO] += 1
    a = st[S_MATCH_SCORE]
    b = st[S_MATCH_SCORE + 1]
    target = rp[RP_TARGET]
    if rp[RP_FINISH] == 1 and target > 0 and max(a, b) >= target and a != b:
        st[S_MATCH_WINNER] = 0 if a > b else 1
    elif rp[RP_MATCH_ROUNDS] > 0 and st[S_ROUND_NO] >= rp[RP_MATCH_ROUNDS]:
        st[S_MATCH_WINNER] = 0 if a > b else (1 if b > a else 2)


# ---------------------------------------------------------------------------------- transitions
@njit(cache=True, error_model="numpy", inline="always")
def start_round(st: np.ndarray, hands: np.ndarray, dealer: int, rp: np.ndarray) -> None:
    """Begin a round with the given 4 hands and dealer; match fields are kept."""
    for p in range(4):
        st[S_HANDS + p] = hands[p]
        st[S_DEALT + p] = hands[p]
        st[S_PLAYED + p] = 0
        st[S_WEIS_CARDS + p] = 0
        st[S_PLAYER_WEIS + p] = 0
        st[S_VOIDS + p] = 0
        st[S_TRICK + p] = -1
    st[S_DEALER] = dealer
    st[S_FOREHAND] = (dealer + 1) % 4
    st[S_PHASE] = PHASE_CONTRACT
    st[S_PUSHED] = 0
    st[S_DECLARER] = -1
    st[S_CONTRACT] = -1
    st[S_TO_MOVE] = (dealer + 1) % 4
    st[S_TRICK_NO] = 0
    st[S_LEADER] = (dealer + 1) % 4
    st[S_N_IN_TRICK] = 0
    st[S_WIN_POS] = 0
    st[S_WIN_STRENGTH] = -1
    for t in range(2):
        st[S_POINTS + t] = 0
        st[S_TRICKS_WON + t] = 0
        st[S_WEIS_POINTS + t] = 0
        st[S_SCORE + t] = 0
    st[S_WEIS_TEAM] = -1
    st[S_STOECK_PLAYER] = -1
    st[S_STOECK_SHOWN] = 0
    st[S_MATCH_TEAM] = -1
    for i in range(36):
        st[S_PLAYS + i] = -1
    for i in range(9):
        st[S_TRICK_WINNER + i] = -1
        st[S_TRICK_POINTS + i] = -1


@njit(cache=True, error_model="numpy", inline="always")
def deal(st: np.ndarray, hands: np.ndarray) -> None:
    """Deal the 36 cards at random into ``hands`` (4 bitboards) with the game's generator.

    Each card in turn goes to a player with probability proportional to the room left in that
    player's hand, which gives every deal the same probability.
    """
    h0 = h1 = h2 = h3 = np.int64(0)
    c0 = c1 = c2 = 9
    left = 36
    for c in range(36):
        k = random_below(st, left)
        bit = np.int64(1) << c
        if k < c0:
            h0 |= bit
            c0 -= 1
        elif k < c0 + c1:
            h1 |= bit
            c1 -= 1
        elif k < c0 + c1 + c2:
            h2 |= bit
            c2 -= 1
        else:
            h3 |= bit
        left -= 1
    hands[0] = h0
    hands[1] = h1
    hands[2] = h2
    hands[3] = h3


@njit(cache=True, error_model="numpy", inline="always")
def deal_round(st: np.ndarray, dealer: int, rp: np.ndarray) -> None:
    """Deal from the game's generator and start a round.

    ``dealer`` < 0 means: the first round of a match (or a single round) under the preset's
    ``first_forehand`` rule: a random dealer, or the dealer whose forehand holds the ♦7.
    """
    hands = np.zeros(4, dtype=np.int64)
    deal(st, hands)
    if dealer < 0:
        if rp[RP_FIRST_FOREHAND] == 1:
            for p in range(4):
                if (hands[p] >> D7) & 1:
                    dealer = (p + 3) % 4
        else:
            dealer = random_below(st, 4)
    start_round(st, hands, dealer, rp)


@njit(cache=True, error_model="numpy")
def reset_match(st: np.ndarray, is_match: bool) -> None:
    st[S_MATCH] = 1 if is_match else 0
    st[S_MATCH_SCORE] = 0
    st[S_MATCH_SCORE + 1] = 0
    st[S_MATCH_WINNER] = -1
    st[S_BERG_TEAM] = -1
    st[S_ROUND_NO] = 0


@njit(cache=True, error_model="numpy")
def sync_trick_winner(st: np.ndarray) -> None:
    """Recompute the derived fields S_WIN_POS / S_WIN_STRENGTH from the current trick's cards.

    :func:`apply_action` keeps them up to date; call this after building a state by hand
    (e.g. a sampled world in a search bot) with cards already on the table.
    """
    n = st[S_N_IN_TRICK]
    st[S_WIN_POS] = 0
    st[S_WIN_STRENGTH] = -1
    if n > 0 and st[S_CONTRACT] >= 0:
        pos = trick_winner_position(st[S_TRICK:S_TRICK + 4], n, st[S_CONTRACT])
        st[S_WIN_POS] = pos
        st[S_WIN_STRENGTH] = STRENGTH[st[S_CONTRACT], st[S_TRICK] // 9, st[S_TRICK + pos]]


@njit(cache=True, error_model="numpy", inline="always")
def legal_actions_mask(st: np.ndarray, rp: np.ndarray) -> int:
    """The legal actions of the player to move as a 43-bit mask (bit a = action a legal)."""
    phase = st[S_PHASE]
    if phase == PHASE_PLAY:
        p = st[S_TO_MOVE]
        n = st[S_N_IN_TRICK]
        win_pos = st[S_WIN_POS]
        return _legal(st[S_HANDS + p], st[S_TRICK] // 9, n, st[S_TRICK + win_pos], win_pos,
                      st[S_CONTRACT], rp)
    if phase == PHASE_CONTRACT:
        m = rp[RP_CONTRACTS] << CONTRACT_OFFSET
        if rp[RP_PUSH] and not st[S_PUSHED]:
            m |= np.int64(1) << PUSH
        return m
    return 0


@njit(cache=True, error_model="numpy")
def legal_actions(st: np.ndarray, rp: np.ndarray) -> np.ndarray:
    """The legal action ids of the player to move, ascending (empty when the round is over)."""
    m = legal_actions_mask(st, rp)
    out = np.empty(popcount(m), dtype=np.int64)
    k = 0
    for a in range(43):
        if (m >> a) & 1:
            out[k] = a
            k += 1
    return out


@njit(cache=True, error_model="numpy", inline="always")
def _choose_contract(st: np.ndarray, contract: int, rp: np.ndarray) -> None:
    st[S_CONTRACT] = contract
    st[S_DECLARER] = st[S_TO_MOVE]
    st[S_PHASE] = PHASE_PLAY
    leader = st[S_FOREHAND]
    if st[S_PUSHED] and rp[RP_LEADER_AFTER_PUSH] == 1:
        leader = st[S_DECLARER]
    st[S_LEADER] = leader
    st[S_TO_MOVE] = leader
    if rp[RP_WEIS]:
        _decide_weis(st, rp)
    if contract < 4 and rp[RP_STOECK] > 0:
        kq = (np.int64(1) << (9 * contract + KING)) | (np.int64(1) << (9 * contract + QUEEN))
        for p in range(4):
            if (st[S_DEALT + p] & kq) == kq:
                st[S_STOECK_PLAYER] = p


@njit(cache=True, error_model="numpy", inline="always")
def _play_card(st: np.ndarray, card: int, rp: np.ndarray) -> None:
    p = st[S_TO_MOVE]
    bit = np.int64(1) << card
    st[S_HANDS + p] &= ~bit
    st[S_PLAYED + p] |= bit
    n = st[S_N_IN_TRICK]
    contract = st[S_CONTRACT]
    if n > 0:
        lead_suit = st[S_TRICK] // 9
        suit = card // 9
        # failing to follow shows a void; trumping a plain lead does so only where following is a must
        if suit != lead_suit and (contract >= 4 or lead_suit == contract or suit != contract
                                  or not rp[RP_TRUMP_INSTEAD]):
            st[S_VOIDS + p] |= np.int64(1) << lead_suit
    st[S_TRICK + n] = card
    st[S_PLAYS + 4 * st[S_TRICK_NO] + n] = card
    strength = STRENGTH[contract, st[S_TRICK] // 9, card]
    if n == 0 or strength > st[S_WIN_STRENGTH]:
        st[S_WIN_POS] = n
        st[S_WIN_STRENGTH] = strength
    if st[S_STOECK_PLAYER] == p and not st[S_STOECK_SHOWN] and card // 9 == contract:
        kq = (np.int64(1) << (9 * contract + KING)) | (np.int64(1) << (9 * contract + QUEEN))
        if (st[S_PLAYED + p] & kq) == kq:            # the second of K and Q: Stöck
            st[S_STOECK_SHOWN] = 1
            _credit(st, p % 2, rp[RP_STOECK], rp)
    n += 1
    if n < 4:
        st[S_N_IN_TRICK] = n
        st[S_TO_MOVE] = (p + 1) % 4
    else:
        _finish_trick(st, rp)
    if st[S_MATCH_WINNER] >= 0 and st[S_MATCH]:
        st[S_PHASE] = PHASE_OVER                      # the match was decided during the round


@njit(cache=True, error_model="numpy", inline="always")
def _finish_trick(st: np.ndarray, rp: np.ndarray) -> None:
    contract = st[S_CONTRACT]
    t = st[S_TRICK_NO]
    winner = (st[S_LEADER] + st[S_WIN_POS]) % 4
    base = RP_VALUES + 36 * contract
    points = (rp[base + st[S_TRICK]] + rp[base + st[S_TRICK + 1]] + rp[base + st[S_TRICK + 2]]
              + rp[base + st[S_TRICK + 3]])
    if t == 8:
        points += 5
    team = winner % 2
    st[S_TRICK_WINNER + t] = winner
    st[S_TRICK_POINTS + t] = points
    st[S_POINTS + team] += points
    st[S_TRICKS_WON + team] += 1
    if t == 0 and st[S_WEIS_TEAM] >= 0:               # Weis are written after trick 1
        _credit(st, st[S_WEIS_TEAM], st[S_WEIS_POINTS + st[S_WEIS_TEAM]], rp)
    _credit(st, team, points, rp)
    for i in range(4):
        st[S_TRICK + i] = -1
    st[S_N_IN_TRICK] = 0
    st[S_TRICK_NO] = t + 1
    st[S_LEADER] = winner
    st[S_TO_MOVE] = winner
    if t == 8:
        if st[S_TRICKS_WON + team] == 9:
            st[S_MATCH_TEAM] = team
            _credit(st, team, rp[RP_MATCH_BONUS], rp)
        _end_of_round(st, rp)


@njit(cache=True, error_model="numpy", inline="always")
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Apply a *legal* action of the player to move (check with :func:`legal_actions_mask`)."""
    if action < CONTRACT_OFFSET:
        _play_card(st, action, rp)
    elif action == PUSH:
        st[S_PUSHED] = 1
        st[S_TO_MOVE] = (st[S_FOREHAND] + 2) % 4
    else:
        _choose_contract(st, action - CONTRACT_OFFSET, rp)


@njit(cache=True, error_model="numpy", inline="always")
def random_legal_action(st: np.ndarray, rp: np.ndarray) -> int:
    """A uniformly random legal action, drawn with the game's own generator."""
    m = legal_actions_mask(st, rp)
    return nth_bit(m, random_below(st, popcount(m)))


@njit(cache=True, error_model="numpy")
def next_round(st: np.ndarray, rp: np.ndarray) -> None:
    """In a match: deal the next round with the next dealer in play order."""
    deal_round(st, (st[S_DEALER] + 1) % 4, rp)


@njit(cache=True, error_model="numpy")
def start_episode(st: np.ndarray, rp: np.ndarray, is_match: bool, dealer: int) -> None:
    """Begin an episode from the game's own generator: a single round, or a match's first round.

    ``dealer`` 0..3 deals the first round from that seat; -1 applies the preset's
    ``first_forehand`` rule (see :func:`deal_round`).
    """
    reset_match(st, is_match)
    deal_round(st, dealer, rp)


@njit(cache=True, error_model="numpy")
def episode_over(st: np.ndarray, rp: np.ndarray) -> bool:
    """After an action: True when the episode (the round, or the match in match mode) has ended.

    In a match whose round ended without deciding it, the next round is dealt here.
    """
    if st[S_PHASE] != PHASE_OVER:
        return False
    if st[S_MATCH] and st[S_MATCH_WINNER] < 0:
        next_round(st, rp)
        return False
    return True


@njit(cache=True, error_model="numpy")
def play_random_rounds(n_rounds: int, seed: int, rp: np.ndarray) -> np.ndarray:
    """Deal and play ``n_rounds`` full rounds with random legal actions (benchmark and tests).

    Returns the summed score per team, so nothing is optimised away.
    """
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_RNG] = (seed % 0xFFFFFFFE) + 1
    reset_match(st, False)
    total = np.zeros(2, dtype=np.int64)
    for _ in range(n_rounds):
        deal_round(st, -1, rp)
        while st[S_PHASE] != PHASE_OVER:
            apply_action(st, random_legal_action(st, rp), rp)
        total[0] += st[S_SCORE]
        total[1] += st[S_SCORE + 1]
    return total
