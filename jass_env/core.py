"""The family engine: one compiled entry point for every game of :mod:`jass_env.spec`.

Where things are decided:

* :mod:`jass_env.kernel` — what every game shares: the state layout, legal cards
  (:func:`~jass_env.kernel.legal_cards`, docs/rules.md "Legal moves", with every under-trump
  rule), trick winners, card points, Weis detection, dealing;
* :mod:`jass_env.schieber` — Schieber's contract choice, Weis contest, Stöck, Match, team scoring
  and match end;
* :mod:`jass_env.differenzler` — Differenzler's trump, predictions, penalties and game end;
* this module — the transitions of a round (deal, legal actions, apply an action, finish a
  trick, episodes) that route each phase to its game, and :class:`StateView`, the Python reader
  of a state array. The round/match API (:mod:`jass_env.game`), the environments and the bots
  call these functions and never index a state array themselves.

The game of a state is the one its ``rp`` array (:meth:`jass_env.rules.Rules.params`) describes.

Legal actions are a bitboard of the actions below 63 (:func:`legal_actions_mask`: cards and
Schieber's contracts and push) plus a block of phase actions that is either wholly legal or not
(:func:`legal_block`: Differenzler's 158 predictions, actions 36..193).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import coiffeur, differenzler, first_discard, schieber, sidi
from .kernel import (
    D7,
    MAX_PLAYERS,
    MAX_TRICKS,
    N_CARDS,
    PHASE_CONTRACT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PREDICT,
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
    S_PREDICTIONS,
    S_PUSHED,
    S_RNG,
    S_ROUND_NO,
    S_SCORE,
    S_SI_DRAWN,
    S_SI_EXCHANGE,
    S_SI_STOCK,
    S_SIZE,
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
    STRENGTH,
    card_points,
    card_strength,
    deal,
    engine_inline,
    engine_jit,
    legal_cards,
    legal_given_winner,
    lowest_bit,
    n_players,
    n_sides,
    nth_bit,
    player_weis,
    popcount,
    random_below,
    seat_after,
    shows_void,
    side_of,
    trick_winner_position,
    xorshift32,
)
from .rules import (
    FIRST_FOREHAND_D7,
    RP_DECK,
    RP_FIRST_FOREHAND,
    RP_HAND_SIZE,
    RP_KIND,
    RP_MULT,
    RP_PLAYERS,
    RP_TRICKS,
    RP_TRUMP_MODE,
    RP_VALUES,
    TRUMP_FIRST_DISCARD,
)
from .spec import KIND_COIFFEUR, KIND_DIFFERENZLER, KIND_SCHIEBER, KIND_SIDI, LAST_TRICK_BONUS, MAX_SIDES

#: the first phase action of every game (a contract, or the prediction of 0 points)
PHASE_ACTION_OFFSET = N_CARDS
#: the bitboard form of legal actions covers the actions below this
MASK_BITS = 63
# Schieber's action layout (kept here for the code that predates the family engine)
CONTRACT_OFFSET = schieber.CONTRACT_OFFSET
PUSH = schieber.PUSH


# ---------------------------------------------------------------------------------- round start
@engine_inline
def start_round(st: np.ndarray, hands: np.ndarray, dealer: int, rp: np.ndarray) -> None:
    """Begin a round with the given hands (one bitboard per player) and dealer; match fields
    are kept. The game's own start follows (Schieber: forehand bids; Differenzler: trump is
    fixed from the game's generator, forehand predicts)."""
    n = n_players(rp)
    for p in range(MAX_PLAYERS):
        st[S_HANDS + p] = hands[p] if p < n else 0
        st[S_DEALT + p] = st[S_HANDS + p]
        st[S_PLAYED + p] = 0
        st[S_WEIS_CARDS + p] = 0
        st[S_PLAYER_WEIS + p] = 0
        st[S_VOIDS + p] = 0
        st[S_TRICK + p] = -1
        st[S_PREDICTIONS + p] = -1
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
    kind = rp[RP_KIND]
    if kind == KIND_SCHIEBER:
        schieber.begin_round(st, rp)
    elif kind == KIND_COIFFEUR:            # ---- Coiffeur (issue 15)
        coiffeur.begin_round(st, rp)
    elif kind == KIND_DIFFERENZLER:
        differenzler.begin_round(st, rp)
    elif kind == KIND_SIDI:                # ---- Sidi: the stock and the open trump card
        sidi.begin_round(st, rp)
    else:                                             # Mittlere, Molotow (first_discard)
        first_discard.begin_round(st, rp)


@engine_inline
def deal_round(st: np.ndarray, dealer: int, rp: np.ndarray) -> None:
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
    start_round(st, hands, dealer, rp)


@engine_inline
def d7_dealer(hands: np.ndarray, rp: np.ndarray) -> int:
    """Under ``first_forehand="D7"``: the dealer whose forehand holds the ♦7; -1 under "random"."""
    if rp[RP_FIRST_FOREHAND] != FIRST_FOREHAND_D7:
        return -1
    n = n_players(rp)
    for p in range(n):
        if (hands[p] >> D7) & 1:
            return (p + n - 1) % n
    return -1


@engine_jit
def reset_match(st: np.ndarray, is_match: bool) -> None:
    st[S_MATCH] = 1 if is_match else 0
    for t in range(MAX_SIDES):
        st[S_MATCH_SCORE + t] = 0
    st[S_MATCH_WINNER] = -1
    st[S_BERG_TEAM] = -1
    st[S_ROUND_NO] = 0
    coiffeur.reset_sheets(st)                     # ---- Coiffeur (issue 15): both sheets empty


@engine_jit
def sync_trick_winner(st: np.ndarray) -> None:
    """Recompute the derived fields S_WIN_POS / S_WIN_STRENGTH from the current trick's cards.

    :func:`apply_action` keeps them up to date; :func:`set_play_position` calls this.
    """
    n = st[S_N_IN_TRICK]
    st[S_WIN_POS] = 0
    st[S_WIN_STRENGTH] = -1
    if n > 0 and st[S_CONTRACT] >= 0:
        pos = trick_winner_position(st[S_TRICK:S_TRICK + MAX_PLAYERS], n, st[S_CONTRACT])
        st[S_WIN_POS] = pos
        st[S_WIN_STRENGTH] = STRENGTH[st[S_CONTRACT], st[S_TRICK] // 9, st[S_TRICK + pos]]


@engine_jit
def set_play_position(st: np.ndarray, hands: np.ndarray, played: np.ndarray, voids: np.ndarray,
                      weis_cards: np.ndarray, trick: np.ndarray, n_in_trick: int, leader: int,
                      forehand: int, pushed: int, declarer: int, contract: int, trick_no: int,
                      points: np.ndarray, tricks_won: np.ndarray, to_move: int, rp: np.ndarray) -> None:
    """Overwrite ``st`` with a single round in card play built from a seat's knowledge and
    chosen hands for everyone (a search bot's sampled world).

    Per player (length >= players): ``hands`` the cards still held, ``played`` the cards played,
    ``voids`` the shown voids, ``weis_cards`` the public Weis cards; ``trick`` the current trick's
    first ``n_in_trick`` cards, leader first. Per side: ``points`` and ``tricks_won`` so far (the
    round's score is the points times the contract's multiplier). Weis, Stöck and the match are
    left out: they are fixed by the deal and never change a card choice.
    """
    for i in range(S_SIZE):
        st[i] = 0
    n = n_players(rp)
    for p in range(MAX_PLAYERS):
        st[S_TRICK + p] = -1
        st[S_PREDICTIONS + p] = -1
    for p in range(n):
        st[S_HANDS + p] = hands[p]
        st[S_PLAYED + p] = played[p]
        st[S_DEALT + p] = hands[p] | played[p]
        st[S_VOIDS + p] = voids[p]
        st[S_WEIS_CARDS + p] = weis_cards[p]
    for i in range(n_in_trick):
        st[S_TRICK + i] = trick[i]
    st[S_FOREHAND] = forehand
    st[S_DEALER] = (forehand + n - 1) % n
    st[S_PHASE] = PHASE_PLAY
    st[S_PUSHED] = pushed
    st[S_DECLARER] = declarer
    st[S_CONTRACT] = contract
    st[S_TO_MOVE] = to_move
    st[S_TRICK_NO] = trick_no
    st[S_LEADER] = leader
    st[S_N_IN_TRICK] = n_in_trick
    mult = rp[RP_MULT + contract]
    for t in range(n_sides(rp)):
        st[S_POINTS + t] = points[t]
        st[S_TRICKS_WON + t] = tricks_won[t]
        st[S_SCORE + t] = points[t] * mult
    st[S_WEIS_TEAM] = -1
    st[S_STOECK_PLAYER] = -1
    st[S_MATCH_TEAM] = -1
    st[S_MATCH_WINNER] = -1
    st[S_BERG_TEAM] = -1
    st[S_TRUMP_CARD] = -1
    st[S_RNG] = 1
    for i in range(N_CARDS):
        st[S_PLAYS + i] = -1
    for i in range(MAX_TRICKS):
        st[S_TRICK_WINNER + i] = -1
        st[S_TRICK_POINTS + i] = -1
    sync_trick_winner(st)


@engine_jit
def first_leader(st: np.ndarray, rp: np.ndarray) -> int:
    """Who leads (or led) trick 1: forehand, or in Schieber after a push the declarer when the
    rules say so."""
    if rp[RP_KIND] == KIND_SCHIEBER:
        return schieber.leader_of_trick_one(st, rp)
    if rp[RP_KIND] == KIND_COIFFEUR and st[S_DECLARER] >= 0:   # ---- Coiffeur: the declarer leads
        return st[S_DECLARER]
    return st[S_FOREHAND]


# ---------------------------------------------------------------------------------- legal actions
@engine_inline
def legal_actions_mask(st: np.ndarray, rp: np.ndarray) -> int:
    """The legal actions below 63 of the player to move, as a bitboard (bit a = action a legal):
    the legal cards in card play, Schieber's contracts and push. See :func:`legal_block`."""
    phase = st[S_PHASE]
    if phase == PHASE_PLAY:
        if rp[RP_KIND] == KIND_SIDI:              # ---- Sidi: free play while the stock lasts
            return sidi.legal_actions(st, rp)
        p = st[S_TO_MOVE]
        win_pos = st[S_WIN_POS]
        return legal_given_winner(st[S_HANDS + p], st[S_TRICK] // 9, st[S_N_IN_TRICK],
                                  st[S_TRICK + win_pos], win_pos, st[S_CONTRACT], rp)
    if phase == PHASE_CONTRACT:
        if rp[RP_KIND] == KIND_COIFFEUR:          # ---- Coiffeur (issue 15): declare a row or push
            return coiffeur.legal_declarations(st, rp)
        return schieber.legal_bidding_actions(st, rp)
    return 0


@engine_inline
def legal_block(st: np.ndarray, rp: np.ndarray) -> int:
    """How many phase actions from PHASE_ACTION_OFFSET on are legal as a block (Differenzler's
    predictions while predicting; 0 otherwise)."""
    if rp[RP_KIND] != KIND_DIFFERENZLER:
        return 0
    return differenzler.legal_predictions(st)


@engine_inline
def is_legal(st: np.ndarray, rp: np.ndarray, action: int) -> bool:
    """Whether ``action`` (any integer) is legal for the player to move."""
    if action < 0:
        return False
    if action < MASK_BITS and (legal_actions_mask(st, rp) >> action) & 1:
        return True
    block = legal_block(st, rp)
    return PHASE_ACTION_OFFSET <= action < PHASE_ACTION_OFFSET + block


@engine_jit
def write_legal_mask(bits: int, block: int, out: np.ndarray) -> None:
    """Write a legal set (bitboard ``bits`` and ``block``, as from :func:`legal_actions_mask` and
    :func:`legal_block`) as 0/1 into ``out`` (one entry per action of the game, any dtype)."""
    n = out.shape[0]
    for a in range(min(n, MASK_BITS)):
        out[a] = (bits >> a) & 1
    for a in range(MASK_BITS, n):
        out[a] = 0
    for a in range(PHASE_ACTION_OFFSET, min(n, PHASE_ACTION_OFFSET + block)):
        out[a] = 1


@njit(cache=True, error_model="numpy")
def legal_actions(st: np.ndarray, rp: np.ndarray) -> np.ndarray:
    """The legal action ids of the player to move, ascending (empty when the round is over)."""
    m = legal_actions_mask(st, rp)
    block = legal_block(st, rp)
    out = np.empty(popcount(m) + block, dtype=np.int64)
    k = 0
    for a in range(MASK_BITS):
        if (m >> a) & 1:
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


# ---------------------------------------------------------------------------------- transitions
@engine_inline
def apply_action(st: np.ndarray, action: int, rp: np.ndarray) -> None:
    """Apply a *legal* action of the player to move (check with :func:`is_legal`)."""
    if action < PHASE_ACTION_OFFSET:
        _play_card(st, action, rp)
    elif rp[RP_KIND] == KIND_SCHIEBER:
        schieber.apply_bidding_action(st, action, rp)
    elif rp[RP_KIND] == KIND_COIFFEUR:            # ---- Coiffeur (issue 15)
        coiffeur.apply_declaration(st, action, rp)
    elif rp[RP_KIND] == KIND_SIDI:                # ---- Sidi: the exchange of the trump 6
        sidi.exchange(st, rp)
    else:
        differenzler.predict(st, action - differenzler.PREDICTION_OFFSET, rp)


@engine_inline
def _play_card(st: np.ndarray, card: int, rp: np.ndarray) -> None:
    p = st[S_TO_MOVE]
    n = st[S_N_IN_TRICK]
    schieber_game = rp[RP_KIND] == KIND_SCHIEBER or rp[RP_KIND] == KIND_SIDI   # Sidi scores so too
    # Mittlere, Molotow: the first card that does not follow suit fixes trump from itself on
    if (not schieber_game and n > 0 and rp[RP_TRUMP_MODE] == TRUMP_FIRST_DISCARD
            and first_discard.is_fixing(st, card)):
        first_discard.fix_trump(st, p, card, rp)
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
    # Stöck: the cheap test stays here, outside the call (numba compiles the hot path leaner so);
    # Differenzler has no Stöck holder, Molotow's is known once trump is fixed
    if st[S_STOECK_PLAYER] == p and not st[S_STOECK_SHOWN] and card // 9 == contract:
        if schieber_game:
            schieber.show_stoeck(st, p, rp)
        else:
            first_discard.show_stoeck(st, p)
    n += 1
    if n < players:
        st[S_N_IN_TRICK] = n
        st[S_TO_MOVE] = seat_after(p, 1, players)
    else:
        _finish_trick(st, rp)
    if schieber_game and schieber.match_decided_during_round(st):
        st[S_PHASE] = PHASE_OVER


@engine_inline
def _finish_trick(st: np.ndarray, rp: np.ndarray) -> None:
    contract = st[S_CONTRACT]
    t = st[S_TRICK_NO]
    players = n_players(rp)
    winner = seat_after(st[S_LEADER], st[S_WIN_POS], players)
    base = RP_VALUES + 36 * contract
    if rp[RP_KIND] == KIND_COIFFEUR:              # ---- Coiffeur: Slalom/Guschti count one direction
        base = RP_VALUES + 36 * coiffeur.values_contract(st, t, rp)
    points = 0
    for i in range(players):
        points += rp[base + st[S_TRICK + i]]
    if t == rp[RP_TRICKS] - 1:
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
    kind = rp[RP_KIND]
    if kind == KIND_SCHIEBER:
        schieber.after_trick(st, t, winner, points, rp)
    elif kind == KIND_COIFFEUR:            # ---- Coiffeur (issue 15)
        coiffeur.after_trick(st, t, rp)
    elif kind == KIND_DIFFERENZLER:
        differenzler.after_trick(st, t, rp)
    elif kind == KIND_SIDI:                # ---- Sidi: drawing from the stock, Schieber's scoring
        sidi.after_trick(st, t, winner, points, rp)
    else:                                             # Mittlere, Molotow (first_discard)
        first_discard.after_trick(st, t, winner, rp)


@engine_jit
def next_round(st: np.ndarray, rp: np.ndarray) -> None:
    """In a match: deal the next round with the next dealer in play order."""
    deal_round(st, (st[S_DEALER] + 1) % n_players(rp), rp)


@engine_jit
def start_episode(st: np.ndarray, rp: np.ndarray, is_match: bool, dealer: int) -> None:
    """Begin an episode from the game's own generator: a single round, or a match's first round.

    ``dealer`` 0..n-1 deals the first round from that seat; -1 applies the preset's
    ``first_forehand`` rule (see :func:`deal_round`).
    """
    reset_match(st, is_match)
    deal_round(st, dealer, rp)


@engine_jit
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

    Returns the summed score per side (length MAX_SIDES), so nothing is optimised away.
    """
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_RNG] = (seed % 0xFFFFFFFE) + 1
    total = np.zeros(MAX_SIDES, dtype=np.int64)
    _random_rounds(st, n_rounds, rp, total)
    return total


@engine_jit
def _random_rounds(st: np.ndarray, n_rounds: int, rp: np.ndarray, total: np.ndarray) -> None:
    """:func:`play_random_rounds` on a given state; adds each round's score per side to ``total``."""
    reset_match(st, False)
    sides = n_sides(rp)
    for _ in range(n_rounds):
        if rp[RP_KIND] == KIND_COIFFEUR:     # a deal needs open rows: each one on fresh sheets
            reset_match(st, False)
        deal_round(st, -1, rp)
        while st[S_PHASE] != PHASE_OVER:
            # the legal set as statements, then the pick: numba compiles this form much faster
            bits = legal_actions_mask(st, rp)
            block = legal_block(st, rp)
            apply_action(st, random_pick(st, bits, block), rp)
        for t in range(sides):
            total[t] += st[S_SCORE + t]


@engine_jit
def set_predictions(st: np.ndarray, predictions: np.ndarray, rp: np.ndarray) -> None:
    """Write every player's Differenzler prediction (``predictions[p]``, -1 = not made) into a
    state built by :func:`set_play_position` (a search bot's sampled world), so that the engine
    scores the world's round with the game's penalty."""
    for p in range(n_players(rp)):
        st[S_PREDICTIONS + p] = predictions[p]


# ---------------------------------------------------------------------------------- Python reader
def new_state(rng_state: int = 1) -> np.ndarray:
    """A zeroed state array (int64, S_SIZE) whose deal generator starts at ``rng_state``."""
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_RNG] = rng_state
    return st


def state_size() -> int:
    return S_SIZE


class StateView:
    """Named, read-only access to one state array (int64, ``S_SIZE``) for Python code.

    Per-player and per-side fields are lists of the game's players and sides; ``-1`` in the
    engine becomes ``None`` where a value may be absent.
    """

    def __init__(self, st: np.ndarray, rp: np.ndarray) -> None:
        self.st = st
        self.players = int(rp[RP_PLAYERS])
        self.sides = int(n_sides(rp))
        self.tricks = int(rp[RP_TRICKS])
        self.rp = rp

    def _get(self, i: int) -> int:
        return int(self.st[i])

    def _opt(self, i: int) -> int | None:
        v = int(self.st[i])
        return None if v < 0 else v

    def _per_player(self, base: int) -> list[int]:
        return [int(self.st[base + p]) for p in range(self.players)]

    def _per_side(self, base: int) -> list[int]:
        return [int(self.st[base + s]) for s in range(self.sides)]

    phase = property(lambda self: self._get(S_PHASE))
    is_over = property(lambda self: self._get(S_PHASE) == PHASE_OVER)
    to_move = property(lambda self: self._get(S_TO_MOVE))
    dealer = property(lambda self: self._get(S_DEALER))
    forehand = property(lambda self: self._get(S_FOREHAND))
    pushed = property(lambda self: bool(self._get(S_PUSHED)))
    declarer = property(lambda self: self._get(S_DECLARER))
    contract = property(lambda self: self._get(S_CONTRACT))
    leader = property(lambda self: self._get(S_LEADER))
    trick_number = property(lambda self: self._get(S_TRICK_NO))
    cards_in_trick = property(lambda self: self._get(S_N_IN_TRICK))
    hands = property(lambda self: self._per_player(S_HANDS))
    dealt = property(lambda self: self._per_player(S_DEALT))
    played = property(lambda self: self._per_player(S_PLAYED))
    voids = property(lambda self: self._per_player(S_VOIDS))
    weis_cards = property(lambda self: self._per_player(S_WEIS_CARDS))
    player_weis = property(lambda self: self._per_player(S_PLAYER_WEIS))
    points = property(lambda self: self._per_side(S_POINTS))
    tricks_won = property(lambda self: self._per_side(S_TRICKS_WON))
    weis_points = property(lambda self: self._per_side(S_WEIS_POINTS))
    score = property(lambda self: self._per_side(S_SCORE))
    weis_team = property(lambda self: self._opt(S_WEIS_TEAM))
    stoeck_player = property(lambda self: self._opt(S_STOECK_PLAYER))
    stoeck_shown = property(lambda self: bool(self._get(S_STOECK_SHOWN)))
    match_team = property(lambda self: self._opt(S_MATCH_TEAM))
    is_match = property(lambda self: bool(self._get(S_MATCH)))
    match_score = property(lambda self: self._per_side(S_MATCH_SCORE))
    match_winner = property(lambda self: self._opt(S_MATCH_WINNER))
    bergpreis_team = property(lambda self: self._opt(S_BERG_TEAM))
    rounds_done = property(lambda self: self._get(S_ROUND_NO))
    trump_card = property(lambda self: self._opt(S_TRUMP_CARD))
    rng_state = property(lambda self: self._get(S_RNG))

    @property
    def predictions(self) -> list[int | None]:
        return [None if v < 0 else v for v in self._per_player(S_PREDICTIONS)]

    @property
    def trick(self) -> list[int]:
        """The current trick's cards, leader first."""
        return [int(self.st[S_TRICK + i]) for i in range(self.cards_in_trick)]

    def trick_cards(self, t: int) -> list[int]:
        """The cards of trick ``t`` (0-based) in play order, as far as played."""
        base = S_PLAYS + self.players * t
        return [int(c) for c in self.st[base:base + self.players] if c >= 0]

    def trick_winner(self, t: int) -> int | None:
        return self._opt(S_TRICK_WINNER + t)

    def trick_points(self, t: int) -> int | None:
        return self._opt(S_TRICK_POINTS + t)


def set_match_scores(st: np.ndarray, scores: list[int] | tuple[int, ...], rp: np.ndarray) -> None:
    """Set a match's running totals, one per side (``scores``): resume a match from a known score
    (a match continued, a test played near the target). Raises ValueError on a wrong count."""
    sides = int(n_sides(rp))
    if len(scores) != sides:
        raise ValueError(f"set_match_scores needs one score per side ({sides}), got {list(scores)!r}")
    for s in range(sides):
        st[S_MATCH_SCORE + s] = int(scores[s])


__all__ = ["StateView", "new_state", "start_round", "deal_round", "reset_match", "set_play_position",
           "legal_actions_mask", "legal_block", "is_legal", "write_legal_mask", "legal_actions",
           "random_pick", "apply_action", "next_round", "start_episode", "episode_over",
           "play_random_rounds", "first_leader", "sync_trick_winner", "legal_cards", "card_points",
           "card_strength", "trick_winner_position", "player_weis", "popcount", "lowest_bit",
           "nth_bit", "xorshift32", "pick_legal", "PHASE_CONTRACT", "PHASE_PLAY", "PHASE_PREDICT",
           "PHASE_OVER", "S_SIZE", "side_of", "set_match_scores", "set_predictions"]


def exchange_cards(st: np.ndarray, p: int, card_p: int, q: int, card_q: int) -> None:
    """Player ``p`` gives ``card_p`` to player ``q`` for ``card_q`` (both still held; the dealt
    hands follow): a position that differs only in hidden cards, for information-set tests.
    ValueError when a card is not held by its player."""
    for who, card in ((p, card_p), (q, card_q)):
        if not (int(st[S_HANDS + who]) >> card) & 1:
            raise ValueError(f"player {who} does not hold card {card}")
    bp, bq = 1 << card_p, 1 << card_q
    for off in (S_HANDS, S_DEALT):
        st[off + p] = (int(st[off + p]) & ~bp) | bq
        st[off + q] = (int(st[off + q]) & ~bq) | bp


def set_public_scores(st: np.ndarray, weis_cards: list[int], weis_team: int, weis_points: int,
                      stoeck_player: int, match_scores: list[int] | None, rp: np.ndarray) -> None:
    """Schieber: write the public scoring of a seat's view into a state built by
    :func:`set_play_position` (:mod:`jass_env.seat_view`), and the round's score from it.

    ``weis_cards[p]``: each player's public Weis cards (the Weis-winning team's); ``weis_team``
    the team whose Weis score (-1 none) and ``weis_points`` their total before the multiplier;
    ``stoeck_player`` the player who has shown Stöck (-1 none); ``match_scores`` the match totals
    now (one per team), or None outside a match. The score is (card points + Weis once trick 1
    is over + Stöck) times the contract's multiplier, as :mod:`jass_env.schieber` credits it.
    """
    from .rules import RP_STOECK  # appended helper: its import stays here (core's imports are shared)

    n = int(rp[RP_PLAYERS])
    for p in range(n):
        st[S_WEIS_CARDS + p] = int(weis_cards[p])
    st[S_WEIS_TEAM] = weis_team
    st[S_STOECK_PLAYER] = stoeck_player
    st[S_STOECK_SHOWN] = 1 if stoeck_player >= 0 else 0
    mult = int(rp[RP_MULT + st[S_CONTRACT]])
    for t in range(int(n_sides(rp))):
        st[S_WEIS_POINTS + t] = weis_points if t == weis_team else 0
        extra = (weis_points if t == weis_team and st[S_TRICK_NO] >= 1 else 0)
        extra += int(rp[RP_STOECK]) if stoeck_player >= 0 and int(side_of(stoeck_player, rp)) == t else 0
        st[S_SCORE + t] = (st[S_POINTS + t] + extra) * mult
    reset_match(st, match_scores is not None)
    if match_scores is not None:
        set_match_scores(st, list(match_scores), rp)


# ---- Mittlere and Molotow search worlds (issue 17): the plays record of a built position
@engine_jit
def set_trick_plays(st: np.ndarray, t: int, cards: np.ndarray, n_cards: int, winner: int,
                    rp: np.ndarray) -> None:
    """Record trick ``t``'s first ``n_cards`` cards (leader first) in the plays of a state built
    by :func:`set_play_position`; ``winner`` >= 0 marks it finished, won by that player, with its
    points under the state's contract. The first-discard games read this record: fixing trump
    recounts the finished tricks, Molotow's table Weis looks at the trick's cards."""
    n = n_players(rp)
    points = 0
    for i in range(n_cards):
        st[S_PLAYS + n * t + i] = cards[i]
        points += rp[RP_VALUES + 36 * st[S_CONTRACT] + cards[i]]
    if winner >= 0:
        st[S_TRICK_WINNER + t] = winner
        st[S_TRICK_POINTS + t] = points


# --- Sidi (project rules): a round dealt with a given stock (records, tests)
def set_sidi_stock(st: np.ndarray, stock: list[int] | np.ndarray, rp: np.ndarray) -> None:
    """Replace the stock of a Sidi round that has just started (no action taken) by ``stock``:
    the 20 card ids not dealt, top first, the face-up trump card last. Trump, Weis and the Stöck
    holder follow from it again. ValueError says what is wrong with the stock."""
    if int(rp[RP_KIND]) != KIND_SIDI:
        raise ValueError("set_sidi_stock is for Sidi rounds (rules 'sidi')")
    if st[S_PHASE] != PHASE_PLAY or st[S_TRICK_NO] != 0 or st[S_N_IN_TRICK] != 0 or st[S_SI_DRAWN] != 0:
        raise ValueError("the stock can only be set before the first action of a round")
    cards = [int(c) for c in stock]
    dealt = int(st[S_DEALT]) | int(st[S_DEALT + 1])
    undealt = sorted(c for c in range(N_CARDS) if not (dealt >> c) & 1)
    if len(cards) != sidi.STOCK_SIZE or sorted(cards) != undealt:
        raise ValueError(f"a Sidi stock is the {sidi.STOCK_SIZE} cards not dealt, each once (top first, "
                         f"the face-up trump card last); got {len(cards)} cards {cards}, the undealt "
                         f"cards are {undealt}")
    for i, c in enumerate(cards):
        st[S_SI_STOCK + i] = c
    sidi.open_trump(st, rp)


@engine_jit
def set_sidi_world(st: np.ndarray, stock_rest: np.ndarray, n_rest: int, trump_card: int, exchanged: bool,
                   rp: np.ndarray) -> None:
    """Sidi: complete a state built by :func:`set_play_position` (a search bot's sampled world)
    with the stock: ``n_rest`` cards still to draw, ``stock_rest[0]`` the top and
    ``stock_rest[n_rest - 1]`` the card face up (the trump 6 after an exchange); the turned trump
    card and whether the exchange was made. The Stöck holder follows from the world's hands."""
    drawn = sidi.STOCK_SIZE - n_rest
    for i in range(n_rest - 1):
        st[S_SI_STOCK + drawn + i] = stock_rest[i]
    st[S_SI_STOCK + sidi.STOCK_SIZE - 1] = trump_card
    st[S_SI_DRAWN] = drawn
    st[S_TRUMP_CARD] = trump_card
    st[S_SI_EXCHANGE] = 0 if exchanged else -1
    st[S_STOECK_PLAYER] = -1
    for p in range(n_players(rp)):
        sidi.note_stoeck(st, p, rp)
# --- end Sidi


# ---- Coiffeur search worlds (issue 15): a deal's row and game, a declaration from a seat's view
from .kernel import S_CO_FILLED, S_CO_GAME, S_CO_ROW  # noqa: E402  (appended block)


@engine_jit
def set_coiffeur_deal(st: np.ndarray, row: int, game: int) -> None:
    """Coiffeur: the row declared (``row``, a row id) and its game (0..5 a contract, 6..9 Slalom /
    Guschti from Obenabe / Undenufe) in a card-play state built by :func:`set_play_position`,
    whose ``contract`` is the one ranking the current trick. The declaring team's row is written
    at the deal's end; the sheets and the game are not part of such a world."""
    st[S_CO_ROW] = row
    st[S_CO_GAME] = game


@engine_jit
def set_coiffeur_world(st: np.ndarray, hands: np.ndarray, dealer: int, filled: np.ndarray, pushes: int,
                       rp: np.ndarray) -> None:
    """Coiffeur: a deal in its declaration phase in ``st`` (a state outside a game): the rows
    written per team (``filled[t]`` bitmasks; the values written are not part of it), the hands
    dealt by ``dealer``, then ``pushes`` pushes from the first candidate on (the declaration as a
    seat sees it: who pushed is public)."""
    coiffeur.reset_sheets(st)
    for t in range(2):
        st[S_CO_FILLED + t] = filled[t]
    start_round(st, hands, dealer, rp)
    for _ in range(pushes):
        coiffeur.apply_declaration(st, coiffeur.PUSH, rp)
# --- end Coiffeur search worlds
