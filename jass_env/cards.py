"""Cards, suits, contracts and the 43-action layout.

Card ids follow the layout used by Jass tools (jass-kit, the Swisslos/HSLU challenge):

    id = 9 * suit + rank_offset      suit: D=0 H=1 S=2 C=3
    rank_offset: A=0 K=1 Q=2 J=3 10=4 9=5 8=6 7=7 6=8

so ids 0..8 are DA DK DQ DJ D10 D9 D8 D7 D6, 9..17 the hearts, and so on. A set of cards is a
36-bit integer mask with bit ``id`` set for each card ("bitboard"); the 9 cards of one suit are 9
adjacent bits, in *descending* natural order, so a sequence Weis is a run of adjacent bits.

Actions (``Discrete(43)``):

    0..35   play that card
    36..39  choose trump D, H, S, C
    40      choose Obenabe (top down, no trump)
    41      choose Undenufe (bottom up, no trump)
    42      push the choice to the partner (Schieben)

Contracts are numbered 0..5 in the same order (``action = 36 + contract``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

SUITS = ("D", "H", "S", "C")
SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")  # by rank offset within a suit
NATURAL_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # sequence (Weis) order, low to high

N_CARDS = 36
N_SUITS = 4
N_RANKS = 9
N_PLAYERS = 4
N_TRICKS = 9

# rank offsets of the cards that matter to the rules
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX = range(9)

# contracts
DIAMONDS, HEARTS, SPADES, CLUBS, OBENABE, UNDENUFE = range(6)
CONTRACTS = ("D", "H", "S", "C", "obenabe", "undenufe")
CONTRACT_NAMES = ("♦ trump", "♥ trump", "♠ trump", "♣ trump", "Obenabe", "Undenufe")

# actions
N_ACTIONS = 43
CONTRACT_ACTION_OFFSET = 36
PUSH_ACTION = 42
ACTION_NAMES: tuple[str, ...] = tuple(
    [f"{SUITS[c // 9]}{RANKS[c % 9]}" for c in range(N_CARDS)]
    + [f"choose {name}" for name in CONTRACTS]
    + ["push"]
)

ALL_CARDS_MASK = (1 << N_CARDS) - 1
SUIT_MASKS = np.array([0x1FF << (9 * s) for s in range(N_SUITS)], dtype=np.int64)


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
