"""Cards, suits, ranks and contracts; card sets as bitboards; card points per contract.

Card ids follow the layout used by Jass tools (jass-kit, the Swisslos/HSLU challenge):

    id = 9 * suit + rank_offset      suit: D=0 H=1 S=2 C=3
    rank_offset: A=0 K=1 Q=2 J=3 10=4 9=5 8=6 7=7 6=8

so ids 0..8 are DA DK DQ DJ D10 D9 D8 D7 D6, 9..17 the hearts, and so on. A set of cards is a
36-bit integer mask with bit ``id`` set for each card ("bitboard"); the 9 cards of one suit are 9
adjacent bits, in *descending* natural order, so a sequence Weis is a run of adjacent bits.

Contracts are numbered 0..5: trump D H S C, Obenabe (top down, no trump), Undenufe (bottom up).
Every game's actions begin with the 36 card actions (action = card id); a game's phase actions
(contracts, predictions, declarations, ...) follow from :data:`PHASE_ACTION_OFFSET` on.

The bit helpers and tables at the end are compiled (numba) and run unchanged as plain Python under
``NUMBA_DISABLE_JIT=1``; only integer arithmetic below 2**62 is used, so Python ints and numba
int64 agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .jit import engine_inline

SUITS = ("D", "H", "S", "C")
SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")  # by rank offset within a suit
NATURAL_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # sequence (Weis) order, low to high

N_CARDS = 36
N_SUITS = 4
N_RANKS = 9

# rank offsets of the cards that matter to the rules
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX = range(9)
#: the ♦7 (card id), whose holder is forehand of a match's first round under ``first_forehand="D7"``
D7 = 9 * 0 + SEVEN

# contracts
DIAMONDS, HEARTS, SPADES, CLUBS, OBENABE, UNDENUFE = range(6)
N_CONTRACTS = 6
CONTRACTS = ("D", "H", "S", "C", "obenabe", "undenufe")
CONTRACT_NAMES = ("♦ trump", "♥ trump", "♠ trump", "♣ trump", "Obenabe", "Undenufe")
NO_CONTRACT = -1

#: every game's first phase action (a contract, a prediction, a declaration, an exchange, ...)
PHASE_ACTION_OFFSET = N_CARDS
#: the name of each card action, index = card id
CARD_ACTION_NAMES: tuple[str, ...] = tuple(f"{SUITS[c // 9]}{RANKS[c % 9]}" for c in range(N_CARDS))

ALL_CARDS_MASK = (1 << N_CARDS) - 1


def card_id(text: str) -> int:
    """Parse ``"H9"``, ``"C10"``, ``"SJ"`` (suit letter then rank) into a card id 0..35.

    Raises ValueError naming the text and the valid forms.
    """
    if not isinstance(text, str) or len(text) < 2:
        raise ValueError(f"not a card: {text!r}; cards are a suit letter D H S C then a rank "
                         f"6 7 8 9 10 J Q K A, e.g. 'H9', 'C10'")
    suit, rank = text[0].upper(), text[1:].upper()
    if suit not in SUITS or rank not in RANKS:
        raise ValueError(f"not a card: {text!r}; cards are a suit letter D H S C then a rank "
                         f"6 7 8 9 10 J Q K A, e.g. 'H9', 'C10'")
    return 9 * SUITS.index(suit) + RANKS.index(rank)


def card_name(card: int) -> str:
    """Card id 0..35 to its notation, e.g. ``5 -> "D9"``."""
    if not 0 <= int(card) < N_CARDS:
        raise ValueError(f"card id {card!r} out of range 0..35")
    return f"{SUITS[card // 9]}{RANKS[card % 9]}"


def card_symbol(card: int) -> str:
    """Card id to a display form with the suit symbol, e.g. ``"♦9"``."""
    return f"{SUIT_SYMBOLS[card // 9]}{RANKS[card % 9]}"


def suit_of(card: int) -> int:
    return card // 9


def mask_of(cards: Iterable[int | str]) -> int:
    """Bitboard of a collection of card ids or names."""
    mask = 0
    for c in cards:
        mask |= 1 << (card_id(c) if isinstance(c, str) else int(c))
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids of a bitboard, ascending."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def names_of(mask: int) -> list[str]:
    """Card names of a bitboard, in id order (by suit, high to low)."""
    return [card_name(c) for c in cards_of(mask)]


def contract_id(name: str) -> int:
    """``"H"`` / ``"obenabe"`` ... to a contract number 0..5; ValueError lists the valid names."""
    if name not in CONTRACTS:
        raise ValueError(f"unknown contract {name!r}; valid contracts: {', '.join(CONTRACTS)}")
    return CONTRACTS.index(name)


# card points
# Card points by rank offset (A K Q J 10 9 8 7 6), docs/rules.md "The deck".
TRUMP_POINTS = (11, 4, 3, 20, 10, 14, 0, 0, 0)
PLAIN_POINTS = (11, 4, 3, 2, 10, 0, 0, 0, 0)
OBENABE_POINTS = (11, 4, 3, 2, 10, 0, 8, 0, 0)
UNDENUFE_POINTS = (0, 4, 3, 2, 10, 0, 8, 0, 11)
#: points of one round's cards with the last trick's 5 (docs/rules.md "The deck"), with 36 cards
ROUND_POINTS = 157
LAST_TRICK_BONUS = 5


def card_values(contract: int, ou_card_values: bool = True) -> np.ndarray:
    """Points of each card id (length 36) under a contract (0..5); without ``ou_card_values``
    Obenabe and Undenufe count the plain suits' values."""
    out = np.zeros(N_CARDS, dtype=np.int64)
    for s in range(N_SUITS):
        if contract < N_SUITS:
            table = TRUMP_POINTS if s == contract else PLAIN_POINTS
        elif not ou_card_values:
            table = PLAIN_POINTS
        else:
            table = OBENABE_POINTS if contract == OBENABE else UNDENUFE_POINTS
        out[N_RANKS * s:N_RANKS * (s + 1)] = table
    return out


def card_points_bound(deck: int) -> int:
    """An upper bound of the card points of a round of any game played with ``deck`` (a 36-bit
    mask), whatever values each trick counts with: every card at its highest value in any
    contract, and the last trick's 5."""
    values = np.max([card_values(c) for c in range(N_CONTRACTS)], axis=0)
    return int(sum(int(values[c]) for c in range(N_CARDS) if deck >> c & 1)) + LAST_TRICK_BONUS


# compiled tables
#: SUIT_MASK[s]: the 9 cards of suit s
SUIT_MASK = np.array([0x1FF << (9 * s) for s in range(N_SUITS)], dtype=np.int64)
#: ALL_CARDS as an int64 for compiled code
ALL_CARDS = (np.int64(1) << N_CARDS) - 1
#: the trump K and Q of each suit (Stöck)
KING_QUEEN = np.array([(1 << (9 * s + KING)) | (1 << (9 * s + QUEEN)) for s in range(N_SUITS)],
                      dtype=np.int64)


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
