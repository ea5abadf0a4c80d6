"""The transitions of a round, the same for every game: deal, legal actions, apply an action, play
a card, finish a trick, and the episodes (a single round, or a match of rounds).

Every function takes the game's number first (``GameSpec.kind``, a compile-time constant, see
:mod:`jass_env.engine.hooks`) and calls the game's rules through the hooks at fixed points:

* a round: deal (:func:`deal_round`), the game's ``begin_round`` (its bidding phase), then
  actions until the last trick; the game's ``end_round`` scores it;
* an action: a card (below 36) in card play goes to :func:`play_card`; any other action is a
  phase action of the game (``apply_action``: a contract, a prediction, a declaration, Sidi's
  exchange);
* a card: the game's ``before_card`` (trump by the first discard), then the card is put on the
  trick (hand, played cards, shown voids, the trick's winning card), the game's ``after_card``
  (Stöck), and after the last card of a trick :func:`finish_trick`: the trick's points (by the
  game's ``trick_values``), its winner leads, the game's ``after_trick`` scores it;
* a match decided during a round (a side reaching the target under the official finish) ends the
  round at once.

Legal actions are a bitboard of the actions below 63 (cards, contracts, the push, Coiffeur's
declarations, Sidi's exchange) plus a block of phase actions from 36 on that is either wholly
legal or not (Differenzler's 158 predictions): :func:`legal_set`.

Python code calls these through :func:`for_game`, the compiled entry points of one game.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from . import hooks
from .card_play import STRENGTH, legal_given_winner, shows_void, trick_winner_position
from .cards import LAST_TRICK_BONUS, N_CARDS, PHASE_ACTION_OFFSET, nth_bit, popcount
from .deal import d7_dealer, deal, random_below, xorshift32
from .jit import compiled, engine_inline, engine_jit
from .spec import MAX_PLAYERS, MAX_SIDES, MAX_TRICKS
from .state import (
    PHASE_OVER,
    S_BERG_TEAM,
    S_CONTRACT,
    S_DEALER,
    S_DEALT,
    S_DECLARER,
    S_FOREHAND,
    S_HANDS,
    S_LEADER,
    S_MATCH,
    S_MATCH_SCORE,
    S_MATCH_TEAM,
    S_MATCH_WINNER,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_PLAYER_WEIS,
    S_PLAYS,
    S_POINTS,
    S_PUSHED,
    S_RNG,
    S_ROUND_NO,
    S_SCORE,
    S_STOECK_PLAYER,
    S_STOECK_SHOWN,
    S_TO_MOVE,
    S_TRICK,
    S_TRICK_NO,
    S_TRICK_POINTS,
    S_TRICK_WINNER,
    S_TRICKS_WON,
    S_TRUMP_CARD,
    S_VOIDS,
    S_WEIS_CARDS,
    S_WEIS_POINTS,
    S_WEIS_TEAM,
    S_WIN_POS,
    S_WIN_STRENGTH,
    n_players,
    n_sides,
    seat_after,
    side_of,
)
from .switches import RP_DECK, RP_HAND_SIZE, RP_TRICKS, RP_VALUES

#: the bitboard form of legal actions covers the actions below this
MASK_BITS = 63


# rounds
@engine_inline
def start_round(game: int, st: np.ndarray, hands: np.ndarray, dealer: int, rp: np.ndarray) -> None:
    """Begin a round with the given hands (one bitboard per player) and dealer; match fields are
    kept. The game's own start follows (``begin_round``)."""
    n = n_players(rp)
    for p in range(MAX_PLAYERS):
        st[S_HANDS + p] = hands[p] if p < n else 0
        st[S_DEALT + p] = st[S_HANDS + p]
        st[S_PLAYED + p] = 0
        st[S_WEIS_CARDS + p] = 0
        st[S_PLAYER_WEIS + p] = 0
        st[S_VOIDS + p] = 0
        st[S_TRICK + p] = -1
    st[S_DEALER] = dealer
    st[S_FOREHAND] = (dealer + 1) % n
    st[S_PUSHED] = 0
    st[S_DECLARER] = -1
    st[S_CONTRACT] = -1
    st[S_TO_MOVE] = (dealer + 1) % n
    st[S_TRICK_NO] = 0
    st[S_LEADER] = (dealer + 1) % n
    st[S_N_IN_TRICK] = 0
    st[S_WIN_POS] = 0
    st[S_WIN_STRENGTH] = -1
    for t in range(MAX_SIDES):
        st[S_POINTS + t] = 0
        st[S_TRICKS_WON + t] = 0
        st[S_WEIS_POINTS + t] = 0
        st[S_SCORE + t] = 0
    st[S_WEIS_TEAM] = -1
    st[S_STOECK_PLAYER] = -1
    st[S_STOECK_SHOWN] = 0
    st[S_MATCH_TEAM] = -1
    st[S_TRUMP_CARD] = -1
    for i in range(N_CARDS):
        st[S_PLAYS + i] = -1
    for i in range(MAX_TRICKS):
        st[S_TRICK_WINNER + i] = -1
        st[S_TRICK_POINTS + i] = -1
    hooks.begin_round(game, st, rp)


@engine_inline
def deal_round(game: int, st: np.ndarray, dealer: int, rp: np.ndarray) -> None:
    """Deal from the game's generator and start a round.

    ``dealer`` < 0 means: the first round of a match (or a single round) under the preset's
    ``first_forehand`` rule: a random dealer, or the dealer whose forehand holds the ♦7.
    """
    n = n_players(rp)
    hands = st[S_DEALT:S_DEALT + MAX_PLAYERS]     # dealt into its place (start_round copies it)
    deal(st, hands, n, rp[RP_HAND_SIZE], rp[RP_DECK])
    if dealer < 0:
        dealer = d7_dealer(hands, rp)
        if dealer < 0:
            dealer = random_below(st, n)
    start_round(game, st, hands, dealer, rp)


@engine_jit
def reset_match(game: int, st: np.ndarray, is_match: bool, rp: np.ndarray) -> None:
    """A new match (or, ``is_match`` False, a single round): totals 0, no winner; the game's own
    match fields (``begin_match``)."""
    st[S_MATCH] = 1 if is_match else 0
    for t in range(MAX_SIDES):
        st[S_MATCH_SCORE + t] = 0
    st[S_MATCH_WINNER] = -1
    st[S_BERG_TEAM] = -1
    st[S_ROUND_NO] = 0
    hooks.begin_match(game, st, rp)


@engine_jit
def next_round(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    """In a match: deal the next round with the next dealer in play order."""
    deal_round(game, st, (st[S_DEALER] + 1) % n_players(rp), rp)


@engine_jit
def first_leader(game: int, st: np.ndarray, rp: np.ndarray) -> int:
    """Who leads (or led) trick 1 of the round."""
    return hooks.first_leader(game, st, rp)


# legal actions
@engine_inline
def legal_set(game: int, st: np.ndarray, rp: np.ndarray) -> tuple[int, int]:
    """The legal actions of the player to move: (bitboard of the legal actions below 63, the
    count of legal phase actions from 36 on as a block). (0, 0) once the round is over."""
    if st[S_PHASE] == PHASE_OVER:
        return 0, 0
    return hooks.legal_actions(game, st, rp)


@engine_inline
def legal_in_card_play(st: np.ndarray, rp: np.ndarray) -> int:
    """The cards the player to move may play (docs/rules.md "Legal moves"), from the trick's
    winning card the engine keeps."""
    p = st[S_TO_MOVE]
    win_pos = st[S_WIN_POS]
    return legal_given_winner(st[S_HANDS + p], st[S_TRICK] // 9, st[S_N_IN_TRICK], st[S_TRICK + win_pos],
                              win_pos, st[S_CONTRACT], rp)


@engine_inline
def in_legal_set(bits: int, block: int, action: int) -> bool:
    """Whether ``action`` (any integer) is in the legal set (``bits``, ``block``)."""
    if action < 0:
        return False
    if action < MASK_BITS and (bits >> action) & 1:
        return True
    return PHASE_ACTION_OFFSET <= action < PHASE_ACTION_OFFSET + block


@engine_jit
def write_legal_mask(bits: int, block: int, out: np.ndarray) -> None:
    """Write a legal set (as from :func:`legal_set`) as 0/1 into ``out`` (one entry per action of
    the game, any dtype)."""
    n = out.shape[0]
    for a in range(min(n, MASK_BITS)):
        out[a] = (bits >> a) & 1
    for a in range(MASK_BITS, n):
        out[a] = 0
    for a in range(PHASE_ACTION_OFFSET, min(n, PHASE_ACTION_OFFSET + block)):
        out[a] = 1


@compiled
def legal_actions(game: int, st: np.ndarray, rp: np.ndarray) -> np.ndarray:
    """The legal action ids of the player to move, ascending (empty when the round is over)."""
    bits, block = legal_set(game, st, rp)
    out = np.empty(popcount(bits) + block, dtype=np.int64)
    k = 0
    for a in range(MASK_BITS):
        if (bits >> a) & 1:
            out[k] = a
            k += 1
    for a in range(block):
        out[k] = PHASE_ACTION_OFFSET + a
        k += 1
    return out


@engine_inline
def pick_legal(bits: int, block: int, k: int) -> int:
    """The ``k``-th legal action (0-based, ascending) of the legal set (``bits``, ``block``)."""
    nb = popcount(bits)
    if k < nb:
        return nth_bit(bits, k)
    return PHASE_ACTION_OFFSET + (k - nb)


@engine_inline
def random_pick(st: np.ndarray, bits: int, block: int) -> int:
    """A uniformly random action of the legal set (``bits``, ``block``), drawn with the game's
    own generator."""
    return pick_legal(bits, block, random_below(st, popcount(bits) + block))


# actions
@engine_inline
def apply_action(game: int, st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Apply a *legal* action of the player to move (check with :func:`in_legal_set`)."""
    if action < PHASE_ACTION_OFFSET:
        play_card(game, st, action, rp)
    else:
        hooks.apply_action(game, st, action, rp)


@engine_inline
def play_card(game: int, st: np.ndarray, card: int, rp: np.ndarray) -> None:
    """The player to move plays ``card``; after the trick's last card the trick is finished."""
    p = st[S_TO_MOVE]
    n = st[S_N_IN_TRICK]
    hooks.before_card(game, st, p, card, rp)
    bit = np.int64(1) << card
    st[S_HANDS + p] &= ~bit
    st[S_PLAYED + p] |= bit
    contract = st[S_CONTRACT]
    if n > 0 and shows_void(card, st[S_TRICK] // 9, contract, rp):
        st[S_VOIDS + p] |= np.int64(1) << (st[S_TRICK] // 9)
    st[S_TRICK + n] = card
    players = n_players(rp)
    st[S_PLAYS + players * st[S_TRICK_NO] + n] = card
    strength = STRENGTH[contract, st[S_TRICK] // 9, card]
    if n == 0 or strength > st[S_WIN_STRENGTH]:
        st[S_WIN_POS] = n
        st[S_WIN_STRENGTH] = strength
    hooks.after_card(game, st, p, card, rp)
    n += 1
    if n < players:
        st[S_N_IN_TRICK] = n
        st[S_TO_MOVE] = seat_after(p, 1, players)
    else:
        finish_trick(game, st, rp)
    if st[S_MATCH] != 0 and st[S_MATCH_WINNER] >= 0:     # a match decided during the round ends it
        st[S_PHASE] = PHASE_OVER


@engine_inline
def finish_trick(game: int, st: np.ndarray, rp: np.ndarray) -> None:
    """The trick's last card is down: its points (the last trick +5) are its winner's, who leads
    the next; the game scores it; after the last trick the game ends the round."""
    t = st[S_TRICK_NO]
    players = n_players(rp)
    winner = seat_after(st[S_LEADER], st[S_WIN_POS], players)
    base = RP_VALUES + N_CARDS * hooks.trick_values(game, st, t, rp)
    points = 0
    for i in range(players):
        points += rp[base + st[S_TRICK + i]]
    last = t == rp[RP_TRICKS] - 1
    if last:
        points += LAST_TRICK_BONUS
    side = side_of(winner, rp)
    st[S_TRICK_WINNER + t] = winner
    st[S_TRICK_POINTS + t] = points
    st[S_POINTS + side] += points
    st[S_TRICKS_WON + side] += 1
    for i in range(players):
        st[S_TRICK + i] = -1
    st[S_N_IN_TRICK] = 0
    st[S_TRICK_NO] = t + 1
    st[S_LEADER] = winner
    st[S_TO_MOVE] = winner
    hooks.after_trick(game, st, t, winner, points, rp)
    if last:
        hooks.end_round(game, st, rp)


@engine_jit
def sync_trick_winner(st: np.ndarray) -> None:
    """Recompute the trick's winning card (``S_WIN_POS`` / ``S_WIN_STRENGTH``) from the current
    trick's cards; :func:`play_card` keeps them up to date, a position built from outside needs
    this once."""
    n = st[S_N_IN_TRICK]
    st[S_WIN_POS] = 0
    st[S_WIN_STRENGTH] = -1
    if n > 0 and st[S_CONTRACT] >= 0:
        pos = trick_winner_position(st[S_TRICK:S_TRICK + MAX_PLAYERS], n, st[S_CONTRACT])
        st[S_WIN_POS] = pos
        st[S_WIN_STRENGTH] = STRENGTH[st[S_CONTRACT], st[S_TRICK] // 9, st[S_TRICK + pos]]


# episodes
@engine_jit
def start_episode(game: int, st: np.ndarray, rp: np.ndarray, is_match: bool, dealer: int) -> None:
    """Begin an episode from the game's own generator: a single round, or a match's first round.

    ``dealer`` 0..n-1 deals the first round from that seat; -1 applies the preset's
    ``first_forehand`` rule (see :func:`deal_round`).
    """
    reset_match(game, st, is_match, rp)
    deal_round(game, st, dealer, rp)


@engine_jit
def episode_over(game: int, st: np.ndarray, rp: np.ndarray) -> bool:
    """After an action: True when the episode (the round, or the match in match mode) has ended.

    In a match whose round ended without deciding it, the next round is dealt here.
    """
    if st[S_PHASE] != PHASE_OVER:
        return False
    if st[S_MATCH] and st[S_MATCH_WINNER] < 0:
        next_round(game, st, rp)
        return False
    return True


@engine_jit
def play_random_rounds_into(game: int, st: np.ndarray, n_rounds: int, rp: np.ndarray,
                            total: np.ndarray) -> None:
    """Deal and play ``n_rounds`` single rounds on ``st`` with random legal actions drawn from the
    state's own generator; adds each round's score per side to ``total`` (length MAX_SIDES)."""
    sides = n_sides(rp)
    for _ in range(n_rounds):
        reset_match(game, st, False, rp)
        deal_round(game, st, -1, rp)
        while st[S_PHASE] != PHASE_OVER:
            # the legal set as statements, then the pick: numba compiles this form much faster
            bits, block = legal_set(game, st, rp)
            apply_action(game, st, random_pick(st, bits, block), rp)
        for t in range(sides):
            total[t] += st[S_SCORE + t]


# entry points
class GameEngine(NamedTuple):
    """The engine's compiled entry points for one game (:func:`for_game`); each takes the
    arguments of the function of this module it is named after, without the game's number."""

    start_round: object
    deal_round: object
    reset_match: object
    next_round: object
    first_leader: object
    legal_set: object
    legal_actions: object
    apply_action: object
    start_episode: object
    episode_over: object
    play_random_rounds: object
    action_mask: object


@cache
def for_game(game: int) -> GameEngine:
    """The compiled entry points of the engine for the game numbered ``game``: each is compiled
    (or loaded from the cache) on its first call, with that game's rules and no other's."""

    @compiled
    def start_round_(st, hands, dealer, rp):  # noqa: ANN001, ANN202
        start_round(game, st, hands, dealer, rp)

    @compiled
    def deal_round_(st, dealer, rp):  # noqa: ANN001, ANN202
        deal_round(game, st, dealer, rp)

    @compiled
    def reset_match_(st, is_match, rp):  # noqa: ANN001, ANN202
        reset_match(game, st, is_match, rp)

    @compiled
    def next_round_(st, rp):  # noqa: ANN001, ANN202
        next_round(game, st, rp)

    @compiled
    def first_leader_(st, rp):  # noqa: ANN001, ANN202
        return first_leader(game, st, rp)

    @compiled
    def legal_set_(st, rp):  # noqa: ANN001, ANN202
        return legal_set(game, st, rp)

    @compiled
    def legal_actions_(st, rp):  # noqa: ANN001, ANN202
        return legal_actions(game, st, rp)

    @compiled
    def apply_action_(st, action, rp):  # noqa: ANN001, ANN202
        apply_action(game, st, action, rp)

    @compiled
    def start_episode_(st, rp, is_match, dealer):  # noqa: ANN001, ANN202
        start_episode(game, st, rp, is_match, dealer)

    @compiled
    def episode_over_(st, rp):  # noqa: ANN001, ANN202
        return episode_over(game, st, rp)

    @compiled
    def play_random_rounds_(n_rounds, seed, rp, size):  # noqa: ANN001, ANN202
        """Deal and play ``n_rounds`` rounds with random legal actions on a fresh state of ``size``;
        the summed score per side (length MAX_SIDES)."""
        st = np.zeros(size, dtype=np.int64)
        st[S_RNG] = (seed % 0xFFFFFFFE) + 1
        total = np.zeros(MAX_SIDES, dtype=np.int64)
        play_random_rounds_into(game, st, n_rounds, rp, total)
        return total

    @compiled
    def action_mask_(st, rp, out):  # noqa: ANN001, ANN202
        bits, block = legal_set(game, st, rp)
        write_legal_mask(bits, block, out)

    return GameEngine(start_round_, deal_round_, reset_match_, next_round_, first_leader_, legal_set_,
                      legal_actions_, apply_action_, start_episode_, episode_over_, play_random_rounds_,
                      action_mask_)


__all__ = ["MASK_BITS", "start_round", "deal_round", "reset_match", "next_round", "first_leader", "legal_set",
           "legal_in_card_play", "in_legal_set", "write_legal_mask", "legal_actions", "pick_legal",
           "random_pick", "apply_action", "play_card", "finish_trick", "sync_trick_winner", "start_episode",
           "episode_over", "play_random_rounds_into", "GameEngine", "for_game", "xorshift32"]
