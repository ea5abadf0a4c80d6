"""The shared trick kernel of the Jass family: state layout, cards, legal moves, tricks, Weis.

Every game of :mod:`jass_env.spec` plays its tricks with these functions; the game modules
(:mod:`jass_env.schieber`, :mod:`jass_env.differenzler`) add their phases and scoring, and
:mod:`jass_env.core` joins them into one engine. Everything here is compiled with numba
(``cache=True``) and runs unchanged as plain Python under ``NUMBA_DISABLE_JIT=1``.

Conventions
-----------
* A card is an id 0..35 (see :mod:`jass_env.cards`); a set of cards is an int64 bitboard.
* ``rp`` is the rules parameter array of :meth:`jass_env.rules.Rules.params` (offsets ``RP_*``):
  it carries the game's facts (players, teams, hand size, tricks) and every switch.
* A game is one int64 array of length ``S_SIZE`` (the layout below, sized for the family's
  largest game; a game uses the first ``players`` slots of a per-player field); a batch of games
  is a ``(num_envs, S_SIZE)`` array. Functions that change a game mutate its array in place.
* Players are 0..n-1 in play order. A *side* is what scores: a team (``side = player % 2``) in
  team games, the player himself when everyone plays alone (:func:`side_of`).
* Only integer arithmetic below 2**62 is used, so Python ints and numba int64 agree exactly.

Modules outside the engine never index the state array: they read it through the accessors at
the end of this module (compiled code) or :class:`jass_env.core.StateView` (Python).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    RP_KREUZWEIS,
    RP_PLAYERS,
    RP_PUUR_EXCEPTION,
    RP_QUAD,
    RP_SEQ,
    RP_TEAMS,
    RP_TRUMP_INSTEAD,
    RP_UND_REVERSE,
    RP_UNDERTRUMP,
    RP_VALUES,
    RP_WEIS_CMP,
    UT_ALLOWED,
    UT_OFFICIAL,
    UT_ONLY_IF_VOID,
    WEIS_CMP_NO_TOP_CARD,
    WEIS_CMP_VAUD,
)
from .spec import COIFFEUR_ROW_LABELS, MAX_PLAYERS, MAX_SIDES, MAX_TRICKS, SPECS, TEAMS_NONE

#: How the engine's state functions are compiled: cached, numpy's error model, and without
#: numba's reference counting (``_nrt=False``). These functions only read and write the arrays
#: they are given and never allocate; with reference counting on, numba wraps every array they
#: pass on in atomic increments and decrements, which cost more than the rules themselves
#: (``benchmarks/engine.py``; docs/measurements.md, "Speed"). A function that allocates
#: (``core.legal_actions``, ``core.play_random_rounds``) uses plain ``njit`` and may call these,
#: not the other way round; a loop over many states is fastest as an ``engine_jit`` function of
#: its own (``core._random_rounds``).
engine_jit = njit(cache=True, error_model="numpy", _nrt=False)
#: The same for the small functions of the hot path, which numba copies into each caller.
engine_inline = njit(cache=True, error_model="numpy", _nrt=False, inline="always")

N_CARDS = 36
N_SUITS = 4
N_RANKS = 9
#: Coiffeur: the most rows a score sheet has
CO_MAX_ROWS = len(COIFFEUR_ROW_LABELS)


# ---------------------------------------------------------------------------------- state layout
class _Layout:
    """Hands out consecutive offsets; ``take(n)`` reserves ``n`` slots."""

    def __init__(self) -> None:
        self.size = 0

    def take(self, n: int = 1) -> int:
        offset = self.size
        self.size += n
        return offset


_L = _Layout()
S_HANDS = _L.take(MAX_PLAYERS)         # cards each player still holds
S_DEALT = _L.take(MAX_PLAYERS)         # the hands as dealt (Weis and Stöck are read from these)
S_PLAYED = _L.take(MAX_PLAYERS)        # cards each player has played so far (public)
S_DEALER = _L.take()
S_FOREHAND = _L.take()                 # (dealer + 1) % n: bids first, leads trick 1
S_PHASE = _L.take()                    # PHASE_*
S_PUSHED = _L.take()                   # Schieber: 1 after forehand pushed
S_DECLARER = _L.take()                 # Schieber: who named the contract, -1 before
S_CONTRACT = _L.take()                 # 0..5 (D H S C obenabe undenufe), -1 before it is fixed
S_TO_MOVE = _L.take()                  # the player who acts next
S_TRICK_NO = _L.take()                 # 0..tricks-1 during play, tricks when all are played
S_LEADER = _L.take()                   # leader of the current trick
S_N_IN_TRICK = _L.take()               # cards in the current trick
S_TRICK = _L.take(MAX_PLAYERS)         # cards of the current trick by position (leader first), -1
S_POINTS = _L.take(MAX_SIDES)          # card points taken per side (last trick +5, no Match bonus)
S_TRICKS_WON = _L.take(MAX_SIDES)      # tricks taken per side
S_WEIS_POINTS = _L.take(MAX_SIDES)     # Weis points each side scores (before the multiplier)
S_WEIS_CARDS = _L.take(MAX_PLAYERS)    # cards of each player's scoring Weis (public after trick 1)
S_WEIS_TEAM = _L.take()                # side that won the Weis contest, -1 if nobody has a Weis
S_STOECK_PLAYER = _L.take()            # player dealt trump K+Q (Stöck on), -1 otherwise
S_STOECK_SHOWN = _L.take()             # 1 once the second of the two cards was played
S_MATCH_TEAM = _L.take()               # side that took every trick, -1 otherwise (at round end)
S_SCORE = _L.take(MAX_SIDES)           # the round's score per side (Schieber: points with the
                                       # multiplier; Differenzler: the penalty)
S_RNG = _L.take()                      # xorshift32 state used to deal this game's next hands
S_MATCH = _L.take()                    # 1 when the game is a match (rounds to an end), 0 one round
S_MATCH_SCORE = _L.take(MAX_SIDES)     # match totals per side
S_MATCH_WINNER = _L.take()             # -1 undecided; the winning side; Schieber: 2 a draw
S_BERG_TEAM = _L.take()                # team that got the Bergpreis, -1
S_ROUND_NO = _L.take()                 # rounds completed in this match
S_PLAYS = _L.take(N_CARDS)             # cards in the order played, -1 = not yet
S_TRICK_WINNER = _L.take(MAX_TRICKS)   # winner of each trick, -1
S_TRICK_POINTS = _L.take(MAX_TRICKS)   # card points of each trick (+5 on the last), -1
S_PLAYER_WEIS = _L.take(MAX_PLAYERS)   # Weis points each player declared (before the contest)
S_VOIDS = _L.take(MAX_PLAYERS)         # public voids: bit s = the player showed no card of suit s
                                       # (trump suit with the Puur exception: maybe the Puur)
S_WIN_POS = _L.take()                  # position in the current trick of the card winning it so far
S_WIN_STRENGTH = _L.take()             # that card's strength (see card_strength)
S_TRUMP_CARD = _L.take()               # Differenzler bottom_card: the shown card, -1 otherwise
S_PREDICTIONS = _L.take(MAX_PLAYERS)   # Differenzler: each player's prediction, -1 = not yet made
# ---- Coiffeur (issue 15), appended: the two score sheets (kept across the deals of a game, zeroed
# by core.reset_match) and the deal's declaration. Row ids: spec.COIFFEUR_ROW_LABELS.
S_CO_SHEET = _L.take(2 * CO_MAX_ROWS)  # value written in each row, team-major (team * 10 + row id)
S_CO_FILLED = _L.take(2)               # per team: bit r = row r written
S_CO_ROW = _L.take()                   # the row declared this deal, -1 before
S_CO_GAME = _L.take()                  # its contract: 0..5, or CO_SLALOM_O.. CO_GUSCHTI_U; -1 before
S_CO_ELIGIBLE = _L.take()              # bit p = player p's team has an open row (fixed at the deal)
S_CO_PUSHERS = _L.take()               # bit p = player p pushed this deal (S_PUSHED counts them)
# --- Sidi (project rules), appended: the stock under the open trump card (jass_env.sidi).
# S_TRUMP_CARD holds the card turned face up at the deal (its suit is trump).
SI_STOCK_SIZE = N_CARDS - SPECS["sidi"].players * SPECS["sidi"].hand_size   # 20: 19 face down
                                       # on the face-up one
SI_SIX = 8                             # rank offset of the 6 (the trump 6 may be exchanged)
S_SI_STOCK = _L.take(SI_STOCK_SIZE)    # the stock as dealt, top first; the face-up trump card last
S_SI_DRAWN = _L.take()                 # cards drawn from the stock so far (0..20)
S_SI_EXCHANGE = _L.take()              # the trick (from 0) before whose lead the trump 6 was
                                       # exchanged for the face-up card, -1 = not exchanged
# --- end Sidi
S_SIZE = _L.size

PHASE_CONTRACT = 0
PHASE_PLAY = 1
PHASE_OVER = 2
PHASE_PREDICT = 3

OBENABE = 4
UNDENUFE = 5
NO_CONTRACT = -1

# ---------------------------------------------------------------------------------- card tables
SUIT_MASK = np.array([0x1FF << (9 * s) for s in range(N_SUITS)], dtype=np.int64)
#: trump order by rank offset (A K Q J 10 9 8 7 6): J 8, 9 7, A 6, K 5, Q 4, 10 3, 8 2, 7 1, 6 0
TRUMP_ORDER = np.array([6, 5, 4, 8, 3, 7, 2, 1, 0], dtype=np.int64)
#: TRUMP_ABOVE[c]: the trump cards of c's suit that rank above c when that suit is trump
TRUMP_ABOVE = np.zeros(N_CARDS, dtype=np.int64)
for _c in range(N_CARDS):
    for _r in range(N_RANKS):
        if TRUMP_ORDER[_r] > TRUMP_ORDER[_c % 9]:
            TRUMP_ABOVE[_c] |= 1 << (9 * (_c // 9) + _r)
#: QUAD_MASK[r]: the four cards of rank offset r
QUAD_MASK = np.array([sum(1 << (9 * s + r) for s in range(N_SUITS)) for r in range(N_RANKS)], dtype=np.int64)
#: RUNS[bits] for the 9 bits of one suit: (start, length) of its first and second maximal run of
#: >= 3 adjacent cards (length 0 = none); a suit of 9 cards holds at most two such runs
RUNS = np.zeros((512, 4), dtype=np.int64)
for _bits in range(512):
    _k, _r = 0, 0
    while _r < N_RANKS:
        if not (_bits >> _r) & 1:
            _r += 1
            continue
        _r0 = _r
        while _r < N_RANKS and (_bits >> _r) & 1:
            _r += 1
        if _r - _r0 >= 3:
            RUNS[_bits, 2 * _k] = _r0
            RUNS[_bits, 2 * _k + 1] = _r - _r0
            _k += 1
#: most quads one hand can hold (12 cards: three) and most Weis a hand declares
MAX_QUADS = 3
MAX_WEIS = 2 * N_SUITS + MAX_QUADS
#: seed_vaud suit order for Weis ties, H > C > S > D
VAUD_SUIT_ORDER = np.array([0, 3, 1, 2], dtype=np.int64)
ACE, KING, QUEEN, JACK = 0, 1, 2, 3
D7 = 7
#: the trump K and Q of each suit (Stöck)
KING_QUEEN = np.array([(1 << (9 * s + KING)) | (1 << (9 * s + QUEEN)) for s in range(N_SUITS)],
                      dtype=np.int64)


# ---------------------------------------------------------------------------------- bit helpers
@engine_inline
def popcount(x: int) -> int:
    """Number of set bits of a non-negative mask (SWAR, no multiplication, so no overflow)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@engine_inline
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return popcount((x & -x) - 1)


@engine_inline
def nth_bit(x: int, n: int) -> int:
    """Index of the n-th (0-based) set bit of x, counting from bit 0."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


@engine_inline
def xorshift32(x: int) -> int:
    """Marsaglia's xorshift32 on a non-zero state < 2**32; returns the next state."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


@engine_inline
def random_below(st: np.ndarray, n: int) -> int:
    """Advance the game's generator and return an integer in [0, n) (n < 2**30).

    Multiply-shift instead of a modulo (Lemire): no division, bias below n / 2**32.
    """
    x = xorshift32(st[S_RNG])
    st[S_RNG] = x
    return (x * n) >> 32


# ---------------------------------------------------------------------------------- seats
@engine_inline
def n_players(rp: np.ndarray) -> int:
    return rp[RP_PLAYERS]


@engine_inline
def seat_after(player: int, k: int, n: int) -> int:
    """The player ``k`` seats after ``player`` (0 <= k < n) in play order: (player + k) % n
    without a division (this runs for every card)."""
    q = player + k
    return q - n if q >= n else q


@engine_inline
def side_of(player: int, rp: np.ndarray) -> int:
    """The side a player scores for: his team (player % 2), or himself when everyone is alone."""
    return player if rp[RP_TEAMS] == TEAMS_NONE else player % 2


@engine_inline
def n_sides(rp: np.ndarray) -> int:
    return rp[RP_PLAYERS] if rp[RP_TEAMS] == TEAMS_NONE else 2


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
STRENGTH = np.array([[[_strength(c, ls, k) for c in range(N_CARDS)] for ls in range(N_SUITS)]
                     for k in range(6)], dtype=np.int64)


@engine_jit
def card_strength(card: int, lead_suit: int, contract: int) -> int:
    """How strongly ``card`` contends for a trick led in ``lead_suit``: -1 cannot win."""
    return STRENGTH[contract, lead_suit, card]


@engine_jit
def trick_winner_position(trick: np.ndarray, n: int, contract: int) -> int:
    """Position (0 = leader) of the card winning the first ``n`` cards of ``trick``."""
    lead_suit = trick[0] // 9
    best = 0
    for i in range(1, n):
        if STRENGTH[contract, lead_suit, trick[i]] > STRENGTH[contract, lead_suit, trick[best]]:
            best = i
    return best


@engine_jit
def legal_cards(hand: int, trick: np.ndarray, n: int, contract: int, rp: np.ndarray) -> int:
    """The cards of ``hand`` that may be played on the first ``n`` cards of ``trick``
    (docs/rules.md, "Legal moves").

    Never empty for a non-empty hand.
    """
    if n == 0:
        return hand
    win_pos = trick_winner_position(trick, n, contract)
    return legal_given_winner(hand, trick[0] // 9, n, trick[win_pos], win_pos, contract, rp)


@engine_inline
def legal_given_winner(hand: int, lead_suit: int, n: int, win_card: int, win_pos: int, contract: int,
                       rp: np.ndarray) -> int:
    """:func:`legal_cards` given the led suit and the card (and its position) winning so far."""
    if n == 0:
        return hand                                   # the leader plays any card
    follow = hand & SUIT_MASK[lead_suit]
    if contract >= OBENABE:                           # Obenabe / Undenufe: follow if possible
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
    if rule != UT_ALLOWED and trumps and (hand & ~trump_mask) and win_card // 9 == contract:
        # a trump is in the trick, and the hand holds more than trumps
        if rule == UT_OFFICIAL:
            banned = True
        elif rule == UT_ONLY_IF_VOID:
            banned = follow != 0
        else:   # UT_UNLESS_PARTNER_WINNING: banned while an opponent wins; seats in a trick
            # alternate teams, so a team-mate's card lies an even number of positions back
            banned = rp[RP_TEAMS] == TEAMS_NONE or (n - win_pos) % 2 != 0
        if banned:
            allowed_trumps = trumps & TRUMP_ABOVE[win_card]
    if follow:
        if rp[RP_TRUMP_INSTEAD]:
            return follow | allowed_trumps
        return follow
    return (hand & ~trump_mask) | allowed_trumps


@engine_inline
def shows_void(card: int, lead_suit: int, contract: int, rp: np.ndarray) -> bool:
    """Whether playing ``card`` on a trick led in ``lead_suit`` shows the player void in that suit.

    Failing to follow shows a void; trumping a plain lead does so only where following is a must.
    """
    suit = card // 9
    return suit != lead_suit and (contract >= OBENABE or lead_suit == contract or suit != contract
                                  or not rp[RP_TRUMP_INSTEAD])


@engine_jit
def card_points(card: int, contract: int, rp: np.ndarray) -> int:
    """Points of one card under a contract (docs/rules.md "The deck", with the rules' O/U values switch)."""
    return rp[RP_VALUES + 36 * contract + card]


# ---------------------------------------------------------------------------------- Weis
@engine_inline
def weis_key(points: int, ncards: int, height: int, suit: int, is_quad: bool, position: int,
             contract: int, rp: np.ndarray) -> int:
    """An integer that orders Weis as the rules compare them (larger wins).

    ``height`` is the natural rank index 0 (6) .. 8 (A) of the top card (of the rank for a quad);
    ``position`` is the owner's seat counted from forehand (0 wins ties).
    """
    cmp = rp[RP_WEIS_CMP]
    if contract == UNDENUFE and rp[RP_UND_REVERSE]:
        height = 8 - height
    if cmp == WEIS_CMP_NO_TOP_CARD:
        height = 0
    trump = 1 if (contract < 4 and not is_quad and suit == contract) else 0
    if cmp == WEIS_CMP_VAUD:  # quads above sequences, then points, cards, height, trump, suit order
        k = 1 if is_quad else 0
        k = k * 1024 + points
        k = k * 16 + ncards
        k = k * 16 + height
        k = k * 2 + trump
        return k * 4 + (0 if is_quad else VAUD_SUIT_ORDER[suit])
    k = points * 16 + ncards
    k = k * 16 + height
    k = k * 2 + trump
    return k * 8 + (MAX_PLAYERS - 1 - position)


@engine_jit
def _run_weis(hand: int, s: int, j: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """The ``j``-th (0 or 1) maximal run of >= 3 cards of suit ``s`` in ``hand`` as a Weis:
    (points, cards mask, key); points 0 when there is no such run or it does not count."""
    bits = (hand >> (9 * s)) & 0x1FF
    length = RUNS[bits, 2 * j + 1]
    if length == 0:
        return 0, np.int64(0), -1
    points = rp[RP_SEQ + length - 3]
    if points <= 0:
        return 0, np.int64(0), -1
    r0 = RUNS[bits, 2 * j]
    mask = (((np.int64(1) << length) - 1) << r0) << (9 * s)
    return points, mask, weis_key(points, length, 8 - r0, s, False, position, contract, rp)


@engine_jit
def _quad_weis(r: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """The four cards of rank offset ``r`` as a Weis: (points, cards mask, key)."""
    points = rp[RP_QUAD + r]
    return points, QUAD_MASK[r], weis_key(points, 4, 8 - r, 0, True, position, contract, rp)


@engine_jit
def _weis_total(hand: int, quads: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """(points, cards mask, best key) of declaring the quads of the rank set ``quads`` (bit r =
    rank offset r) and every counting run of ``hand``; without Kreuzweis the runs only of the
    cards outside those quads. Key -1: no Weis."""
    total = 0
    cards = np.int64(0)
    top = -1
    runs_of = hand
    for r in range(N_RANKS):
        if (quads >> r) & 1:
            points, mask, key = _quad_weis(r, contract, position, rp)
            total += points
            cards |= mask
            top = max(top, key)
            if not rp[RP_KREUZWEIS]:
                runs_of &= ~mask
    for s in range(N_SUITS):
        for j in range(2):
            points, mask, key = _run_weis(runs_of, s, j, contract, position, rp)
            total += points
            cards |= mask
            top = max(top, key)
    return total, cards, top


@engine_jit
def declared_quads(hand: int, contract: int, position: int, rp: np.ndarray) -> int:
    """The fours of a kind a player declares from a dealt ``hand`` (docs/rules.md "Weis"), as a
    set of rank offsets (bit r). A 12-card hand holds up to three. With Kreuzweis allowed: every
    counting quad. Without (a card counts in one Weis only): the choice of quads that gives the
    most points, then the best single Weis, the first such choice in increasing order."""
    quads = 0
    for r in range(N_RANKS):
        if (hand & QUAD_MASK[r]) == QUAD_MASK[r] and rp[RP_QUAD + r] > 0:
            quads |= 1 << r
    if rp[RP_KREUZWEIS] or quads == 0:
        return quads
    best = 0
    best_total = -1
    best_key = -1
    subset = 0
    while True:                                       # every subset of quads, in increasing order
        total, _, top = _weis_total(hand, subset, contract, position, rp)
        if total > best_total or (total == best_total and top > best_key):
            best, best_total, best_key = subset, total, top
        if subset == quads:
            return best
        subset = (subset - quads) & quads


@engine_jit
def weis_summary(hand: int, contract: int, position: int, rp: np.ndarray) -> tuple:
    """What a player declares from a dealt ``hand``: (points, cards mask, key of his best single
    Weis), key -1 when he has none. The sums over the rows of :func:`player_weis`."""
    return _weis_total(hand, declared_quads(hand, contract, position, rp), contract, position, rp)


@engine_inline
def player_weis(hand: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray) -> int:
    """The Weis a player declares from a dealt ``hand`` of any size (docs/rules.md "Weis"),
    written to ``out``, one row each: (points, cards mask, key), the key ordering Weis as the
    rules compare them.

    ``out`` is an (at least MAX_WEIS, 3) int64 array. Returns the number of Weis: the quads of
    :func:`declared_quads` and the counting runs of the cards (without Kreuzweis: of the cards
    outside those quads); with Kreuzweis the runs are listed first.
    """
    quads = declared_quads(hand, contract, position, rp)
    kreuzweis = rp[RP_KREUZWEIS] != 0
    runs_of = hand
    k = 0
    if not kreuzweis:
        k = _write_quads(quads, contract, position, rp, out, k)
        for r in range(N_RANKS):
            if (quads >> r) & 1:
                runs_of &= ~QUAD_MASK[r]
    for s in range(N_SUITS):
        for j in range(2):
            points, mask, key = _run_weis(runs_of, s, j, contract, position, rp)
            if points > 0:
                out[k, 0], out[k, 1], out[k, 2] = points, mask, key
                k += 1
    if kreuzweis:
        k = _write_quads(quads, contract, position, rp, out, k)
    return k


@engine_jit
def _write_quads(quads: int, contract: int, position: int, rp: np.ndarray, out: np.ndarray, k: int) -> int:
    """Append the quads of the rank set ``quads`` to ``out`` rows from ``k``; the new row count."""
    for r in range(N_RANKS):
        if (quads >> r) & 1:
            out[k, 0], out[k, 1], out[k, 2] = _quad_weis(r, contract, position, rp)
            k += 1
    return k


# ---------------------------------------------------------------------------------- dealing
#: bits per player of the room counters packed into one integer while dealing (a hand < 32 cards)
_ROOM_BITS = 5
_ROOM_MASK = (1 << _ROOM_BITS) - 1


@engine_inline
def deal(st: np.ndarray, hands: np.ndarray, players: int, hand_size: int, deck: int) -> None:
    """Deal ``players`` hands of ``hand_size`` cards at random into ``hands[:players]`` (bitboards)
    from the cards of ``deck`` (36-bit mask, ``rp[RP_DECK]``: all 36 but in Molotow for five).

    Each card of the deck in turn goes to a player with probability proportional to the room left
    in that player's hand, which gives every deal the same probability. A card not in the deck is
    skipped without a draw (so a full deck's deals do not depend on this). The cards left over
    when the hands hold fewer cards than the deck are not dealt. The room left per player is kept
    packed in one integer (``_ROOM_BITS`` bits each), so dealing needs no scratch array.
    """
    room = 0
    for p in range(players):
        hands[p] = 0
        room |= hand_size << (_ROOM_BITS * p)
    left = players * hand_size
    for c in range(N_CARDS):
        if left == 0:
            break
        if not (deck >> c) & 1:
            continue
        k = random_below(st, left)
        p = 0
        while k >= (room >> (_ROOM_BITS * p)) & _ROOM_MASK:
            k -= (room >> (_ROOM_BITS * p)) & _ROOM_MASK
            p += 1
        hands[p] |= np.int64(1) << c
        room -= 1 << (_ROOM_BITS * p)
        left -= 1


# ---------------------------------------------------------------------------------- accessors
# What compiled code outside the engine may read of a game (Python code uses core.StateView).
@engine_inline
def phase(st: np.ndarray) -> int:
    return st[S_PHASE]


@engine_inline
def to_move(st: np.ndarray) -> int:
    return st[S_TO_MOVE]


@engine_inline
def hand_of(st: np.ndarray, player: int) -> int:
    return st[S_HANDS + player]


@engine_inline
def dealt_hand_of(st: np.ndarray, player: int) -> int:
    return st[S_DEALT + player]


@engine_inline
def played_by(st: np.ndarray, player: int) -> int:
    return st[S_PLAYED + player]


@engine_inline
def voids_of(st: np.ndarray, player: int) -> int:
    return st[S_VOIDS + player]


@engine_inline
def weis_cards_of(st: np.ndarray, player: int) -> int:
    return st[S_WEIS_CARDS + player]


@engine_inline
def contract(st: np.ndarray) -> int:
    return st[S_CONTRACT]


@engine_inline
def trick_number(st: np.ndarray) -> int:
    return st[S_TRICK_NO]


@engine_inline
def leader(st: np.ndarray) -> int:
    return st[S_LEADER]


@engine_inline
def cards_in_trick(st: np.ndarray) -> int:
    return st[S_N_IN_TRICK]


@engine_inline
def trick_card(st: np.ndarray, position: int) -> int:
    return st[S_TRICK + position]


@engine_inline
def current_trick(st: np.ndarray) -> np.ndarray:
    """View of the current trick's card slots (leader first, -1 = empty), length MAX_PLAYERS."""
    return st[S_TRICK:S_TRICK + MAX_PLAYERS]


@engine_inline
def voids(st: np.ndarray) -> np.ndarray:
    """View of every player's public voids (length MAX_PLAYERS)."""
    return st[S_VOIDS:S_VOIDS + MAX_PLAYERS]


@engine_inline
def dealer(st: np.ndarray) -> int:
    return st[S_DEALER]


@engine_inline
def forehand(st: np.ndarray) -> int:
    return st[S_FOREHAND]


@engine_inline
def pushed(st: np.ndarray) -> int:
    return st[S_PUSHED]


@engine_inline
def declarer(st: np.ndarray) -> int:
    return st[S_DECLARER]


@engine_inline
def points_of(st: np.ndarray, side: int) -> int:
    return st[S_POINTS + side]


@engine_inline
def tricks_won_by(st: np.ndarray, side: int) -> int:
    return st[S_TRICKS_WON + side]


@engine_inline
def weis_points_of(st: np.ndarray, side: int) -> int:
    return st[S_WEIS_POINTS + side]


@engine_inline
def score_of(st: np.ndarray, side: int) -> int:
    return st[S_SCORE + side]


@engine_inline
def stoeck_shown_by(st: np.ndarray) -> int:
    """The player whose Stöck is shown, -1 while none is."""
    return st[S_STOECK_PLAYER] if st[S_STOECK_SHOWN] else -1


@engine_inline
def is_match(st: np.ndarray) -> bool:
    return st[S_MATCH] != 0


@engine_inline
def match_score_of(st: np.ndarray, side: int) -> int:
    return st[S_MATCH_SCORE + side]


@engine_inline
def match_winner(st: np.ndarray) -> int:
    return st[S_MATCH_WINNER]


@engine_inline
def rounds_done(st: np.ndarray) -> int:
    return st[S_ROUND_NO]


@engine_inline
def trump_card(st: np.ndarray) -> int:
    return st[S_TRUMP_CARD]


@engine_inline
def prediction_of(st: np.ndarray, player: int) -> int:
    """A player's prediction, -1 before he made it."""
    return st[S_PREDICTIONS + player]


@engine_inline
def seed_generator(st: np.ndarray, rng_state: int) -> None:
    """Set the game's deal generator (a non-zero 32-bit xorshift32 state)."""
    st[S_RNG] = rng_state


@engine_inline
def generator_state(st: np.ndarray) -> int:
    return st[S_RNG]


# ---------------------------------------------------------------------------------- card counting
ALL_CARDS = (np.int64(1) << N_CARDS) - 1


@engine_inline
def possible_holding(voids: int, contract: int, rp: np.ndarray) -> int:
    """The cards a player whose public voids are ``voids`` (bit s = shown void in suit s, as in
    :func:`voids_of`) may still hold: every card outside those suits, and, where the trump suit is
    a void under the Puur exception, the Puur (he may not have had to follow trumps with it)."""
    m = ALL_CARDS
    for s in range(N_SUITS):
        if (voids >> s) & 1:
            keep = np.int64(0)
            if s == contract and rp[RP_PUUR_EXCEPTION]:
                keep = np.int64(1) << (9 * s + JACK)
            m &= ~(SUIT_MASK[s] & ~keep)
    return m


# ---------------------------------------------------------------------------------- Coiffeur accessors
# ---- Coiffeur (issue 15), appended
@engine_inline
def co_sheet_value(st: np.ndarray, team: int, row: int) -> int:
    """The value ``team`` wrote in row ``row`` (0 while the row is open)."""
    return st[S_CO_SHEET + CO_MAX_ROWS * team + row]


@engine_inline
def co_filled(st: np.ndarray, team: int) -> int:
    """Bit r = ``team`` has written row r."""
    return st[S_CO_FILLED + team]


@engine_inline
def co_row(st: np.ndarray) -> int:
    """The row declared this deal, -1 before."""
    return st[S_CO_ROW]


@engine_inline
def co_game(st: np.ndarray) -> int:
    """The declared game: 0..5 a contract, 6..9 Slalom / Guschti from Obenabe / Undenufe; -1 before."""
    return st[S_CO_GAME]


@engine_inline
def co_pushers(st: np.ndarray) -> int:
    """Bit p = player p pushed this deal."""
    return st[S_CO_PUSHERS]


@engine_inline
def co_eligible(st: np.ndarray) -> int:
    """Bit p = player p's team had an open row when the deal began (the declaration's candidates)."""
    return st[S_CO_ELIGIBLE]
# ---------------------------------------------------------------------------------- Mittlere, Molotow
# --- Mittlere and Molotow (issue 17): accessors appended for the observation
@engine_inline
def player_weis_of(st: np.ndarray, player: int) -> int:
    """The Weis points a player declared from his dealt hand (Molotow: his hand Weis)."""
    return st[S_PLAYER_WEIS + player]
# --- end Mittlere and Molotow
# ---------------------------------------------------------------------------------- Sidi
# --- Sidi (project rules): accessors appended for the observation and the bots
@engine_inline
def stock_card(st: np.ndarray, i: int) -> int:
    """The ``i``-th card of the Sidi stock as dealt (0 = top, SI_STOCK_SIZE - 1 = the face-up
    trump card)."""
    return st[S_SI_STOCK + i]


@engine_inline
def stock_drawn(st: np.ndarray) -> int:
    """How many cards of the Sidi stock have been drawn (0..SI_STOCK_SIZE)."""
    return st[S_SI_DRAWN]


@engine_inline
def exchange_trick(st: np.ndarray) -> int:
    """The trick (from 0) before whose lead the Sidi trump 6 was exchanged, -1 = not exchanged."""
    return st[S_SI_EXCHANGE]


@engine_inline
def face_up_card(st: np.ndarray) -> int:
    """The Sidi card lying face up under the stock (the turned card, or the trump 6 after the
    exchange); -1 once it is drawn."""
    if st[S_SI_DRAWN] >= SI_STOCK_SIZE:
        return -1
    if st[S_SI_EXCHANGE] >= 0:
        return 9 * (st[S_TRUMP_CARD] // 9) + SI_SIX
    return st[S_TRUMP_CARD]


@engine_inline
def trick_winner_of(st: np.ndarray, t: int) -> int:
    """The winner of finished trick ``t`` (from 0), -1 while it is not finished."""
    return st[S_TRICK_WINNER + t]


@engine_inline
def sidi_known_cards(st: np.ndarray, player: int) -> int:
    """The cards ``player`` is publicly known to hold in Sidi: the face-up card if he drew it
    (the loser of trick 10), the face-up card he took by the exchange, unless played since."""
    known = np.int64(0)
    t = st[S_SI_EXCHANGE]
    if t >= 0:
        exchanger = st[S_FOREHAND] if t == 0 else st[S_TRICK_WINNER + t - 1]
        if exchanger == player:
            known |= np.int64(1) << st[S_TRUMP_CARD]
    last = SI_STOCK_SIZE // 2 - 1                       # the trick after which the last card is drawn
    if st[S_SI_DRAWN] >= SI_STOCK_SIZE and st[S_TRICK_WINNER + last] != player:
        six = 9 * (st[S_TRUMP_CARD] // 9) + SI_SIX
        known |= np.int64(1) << (six if t >= 0 else st[S_TRUMP_CARD])
    return known & ~st[S_PLAYED + player]
# --- end Sidi
