"""Card play, the same in every game: which cards may be played, which card wins a trick, what a
play shows, and what a card is worth (docs/rules.md "Legal moves").

This is where legal card play is decided: :func:`legal_cards` (follow suit, trump instead of
following, the under-trump rules, the Puur exception) for a hand on a trick, and
:func:`legal_given_winner` for the engine's hot path, which keeps the winning card of the current
trick. A game may allow more (Sidi's free play while the stock lasts) in its own ``legal_actions``,
and otherwise plays these rules. ``rp`` is the rules' parameter array
(:meth:`jass_env.engine.switches.Rules.params`).
"""

from __future__ import annotations

import numpy as np

from .cards import ALL_CARDS, JACK, N_CARDS, N_RANKS, N_SUITS, OBENABE, SUIT_MASK, UNDENUFE
from .jit import engine_inline, engine_jit
from .spec import TEAMS_NONE
from .switches import (
    RP_PUUR_EXCEPTION,
    RP_TEAMS,
    RP_TRUMP_INSTEAD,
    RP_UNDERTRUMP,
    RP_VALUES,
    UT_ALLOWED,
    UT_OFFICIAL,
    UT_ONLY_IF_VOID,
)

#: trump order by rank offset (A K Q J 10 9 8 7 6): J 8, 9 7, A 6, K 5, Q 4, 10 3, 8 2, 7 1, 6 0
TRUMP_ORDER = np.array([6, 5, 4, 8, 3, 7, 2, 1, 0], dtype=np.int64)
#: TRUMP_ABOVE[c]: the trump cards of c's suit that rank above c when that suit is trump
TRUMP_ABOVE = np.zeros(N_CARDS, dtype=np.int64)
for _c in range(N_CARDS):
    for _r in range(N_RANKS):
        if TRUMP_ORDER[_r] > TRUMP_ORDER[_c % 9]:
            TRUMP_ABOVE[_c] |= 1 << (9 * (_c // 9) + _r)


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
