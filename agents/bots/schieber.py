"""Schieber's rule-based bots: the seat view they read, the heuristic, and PIMC's objective.

Played in Schieber and in Schieber for six (their observations share one layout, sized by the
seats and tricks: :func:`jass_env.games.schieber.observation.layout_offsets`); Coiffeur's bots
play their cards with the heuristic and the PIMC rollouts below.

**The seat view.** What one seat knows, decoded from its observation vector (and action mask).
Bots decide from this only (plus the Rules, which are public). Two forms share one decoder:
:func:`decode_view` (compiled) writes a compact ``int64[V_SIZE]`` array (offsets ``V_*`` below),
which the compiled bots read directly (decoding costs about a microsecond); :class:`SeatView` is
the same information as a readable dataclass (``SeatView.from_obs``). All seats are *relative to
the observer*: 0 me, 1 next player (opponent), 2 partner, 3 previous (opponent); with six players
2 and 4 are my team-mates, 1, 3, 5 the opponents. Card sets are 36-bit masks (bit = card id, see
:mod:`jass_env.engine.cards`). Compact layout (per-seat fields have room for MAX_PLAYERS seats,
the game's ``players`` are used):

==================  ===  =================================================================
V_HAND              1    my cards
V_PLAYED            6    cards each relative seat has played this round (current trick too)
V_TRICK             6    cards of the current trick in play order (leader first), -1 = empty
V_N_TRICK           1    number of cards in the current trick, 0..players-1
V_VOIDS             6    per relative seat: bit s = shown void in suit s (trump: maybe the Puur)
V_WEIS              6    per relative seat: public Weis cards (played ones included)
V_CONTRACT          1    0..5, -1 before the contract is chosen
V_PHASE             1    0 choosing, 1 choosing after a push, 2 card play, -1 none (round over)
V_PUSHED            1    1 if forehand pushed
V_DECLARER          1    relative seat of the declarer, -1 before
V_FOREHAND          1    relative seat of forehand
V_LEADER            1    relative seat leading the current trick (card play), -1 otherwise
V_TRICK_NO          1    current trick 0..tricks-1 (card play), -1 otherwise
V_POINTS            2    card points taken so far: own team, opponents
V_LEGAL             1    the legal actions as a 43-bit mask (from the action mask)
V_PLAYERS           1    the game's players (4, or 6 in Schieber for six)
==================  ===  =================================================================

**The heuristic** (:class:`HeuristicAgent`): Graf trump choice and the card-play rules of
docs/bots.md, compiled. Contract choice (:func:`graf_scores`, :func:`choose_contract`): every
allowed contract is scored by summing Graf's per-card values over the hand (tables below); the
best is chosen, or the choice is pushed when the best score is below :data:`PUSH_THRESHOLD` (68)
and pushing is legal. Card play (:func:`heuristic_card`), from the seat's own hand and public
information only:

1. Card counting: ``played`` (every card played so far, the current trick included), the known
   voids per seat and the public Weis cards not yet played give, per other seat, the set of cards
   it may still hold (:func:`possible_cards`). The **Bock** of a suit is its highest card not yet
   played (trump order for the trump suit, reversed order in Undenufe).
2. Leading: when our team declared trump and an opponent may still hold a trump, pull trumps (the
   highest trump if it is the Bock, else a low trump when holding 3 or more); else lead a side-suit
   Bock, most points first (not into a suit an opponent may ruff); else low from the longest side
   suit. Obenabe/Undenufe: Bocks, then low from the longest suit.
3. Partner winning and safe (no opponent still to play may hold a card that beats it): smear the
   most valuable non-trump card.
4. Opponent winning: as last player take the trick with the cheapest winning card; otherwise take
   it with a winner no later opponent can beat (a trump only for a trick worth >= 10), or with the
   strongest winner if the trick is worth >= 10; else discard the cheapest card, keeping trumps
   and Bocks. Partner winning but not safe: overtake with a safe winner if the trick is worth
   >= 10, else discard.
5. Only one legal card: play it.

The compiled functions take plain ints and int64 arrays so that the PIMC rollouts call them from
compiled code. Legal cards always come from :func:`jass_env.engine.card_play.legal_cards`, card
strength from :func:`~jass_env.engine.card_play.card_strength`, trick winners from
:func:`~jass_env.engine.card_play.trick_winner_position` and card points from the rules array.

**PIMC** (:class:`PIMCAgent`, rungs L3/L4 of the baseline ladder; the generic driver:
:mod:`agents.search.pimc`). For a card decision with more than one legal card:

1. **Sample** ``worlds`` deals of the unseen cards consistent with what the seat knows
   (:func:`sample_world`: :func:`agents.search.worlds.deal_seat_view`): each other seat gets
   exactly as many cards as it still holds; a seat's public Weis cards that are not yet played
   stay with it; a seat shown void in a suit gets none of it (a trump void still allows the Puur
   under the Puur exception).
2. **Evaluate** each legal card in every world: build the world's state with
   :func:`jass_env.engine.positions.set_play_position` (seats relative to the searcher, who is
   player 0), apply the card and play the round out with the rollout policy: the compiled
   heuristic (:func:`heuristic_card`, each player using only its own hand of the world plus public
   information) or uniformly random legal cards.
3. **Pick** the card with the best mean of (own team − opponents) final round score over the
   worlds. The world's score counts the remaining card points, the last-trick 5 and the Match
   bonus, with the contract multiplier; Weis and Stöck are left out because no card choice changes
   them (they are fixed by the deal).

Contract choice uses the heuristic's Graf table (no search), as does any decision with a single
legal action. Sampling is deterministic given the agent's seed and the observations
(:func:`agents.search.pimc.decision_generator`).

The compiled functions that play a world take the game's number first (a compile-time constant:
:mod:`jass_env.engine.hooks`); :func:`compiled_pimc` makes the search of one game for Python.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from jass_env.engine import state
from jass_env.engine.card_play import card_strength, legal_cards, possible_holding, trick_winner_position
from jass_env.engine.cards import ALL_CARDS, CONTRACTS, ROUND_POINTS, SUIT_MASK, lowest_bit, popcount
from jass_env.engine.positions import set_play_position
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.switches import RP_HAND_SIZE, RP_MULT, RP_PLAYERS, RP_TRICKS, RP_VALUES, Rules
from jass_env.engine.transitions import apply_action, legal_set, start_round, write_legal_mask
from jass_env.games import make_rules
from jass_env.games.schieber import SPECS
from jass_env.games.schieber.observation import OBS_SLICES, encode_observation, layout_offsets
from jass_env.games.schieber.rules import CONTRACT_OFFSET, N_ACTIONS, PUSH, PUSH_TO

from ..base import Agent, checked_action
from ..search.pimc import check_search_params, decision_generator, search_worlds
from ..search.world_model import WorldModel
from ..search.worlds import deal_seat_view, next_rand, play_out_random

#: the observation's card points are divided by a round's card points
_POINTS_SCALE = float(ROUND_POINTS)
#: the Schieber games whose observation the view decodes: players -> tricks
TRICKS_OF = {spec.players: spec.tricks for spec in SPECS.values()}

# seat view
V_HAND = 0
V_PLAYED = V_HAND + 1
V_TRICK = V_PLAYED + MAX_PLAYERS
V_N_TRICK = V_TRICK + MAX_PLAYERS
V_VOIDS = V_N_TRICK + 1
V_WEIS = V_VOIDS + MAX_PLAYERS
V_CONTRACT = V_WEIS + MAX_PLAYERS
V_PHASE = V_CONTRACT + 1
V_PUSHED = V_PHASE + 1
V_DECLARER = V_PUSHED + 1
V_FOREHAND = V_DECLARER + 1
V_LEADER = V_FOREHAND + 1
V_TRICK_NO = V_LEADER + 1
V_POINTS = V_TRICK_NO + 1
V_LEGAL = V_POINTS + 2
V_PLAYERS = V_LEGAL + 1
V_SIZE = V_PLAYERS + 1

PHASE_NAMES = ("choosing", "choosing after push", "play")


@njit(cache=True)
def mask36(obs: np.ndarray, off: int) -> int:
    """The 36-bit card mask of the 36 floats of ``obs`` from ``off`` on (a card is in it where its
    float is above 0.5)."""
    m = np.int64(0)
    for c in range(36):
        if obs[off + c] > 0.5:
            m |= np.int64(1) << c
    return m


@njit(cache=True)
def one_hot(obs: np.ndarray, off: int, n: int) -> int:
    """The index (0..n-1) of the first of the ``n`` floats of ``obs`` from ``off`` on that is above
    0.5 (a one-hot slice), -1 where none is."""
    for i in range(n):
        if obs[off + i] > 0.5:
            return i
    return -1


@njit(cache=True)
def decode_view(obs: np.ndarray, action_mask: np.ndarray, out: np.ndarray, players: int = 4,
                tricks: int = 9) -> None:
    """Decode an observation (float32, the Schieber layout for ``players`` seats and ``tricks``
    tricks) and action mask (length 43) into ``out`` (V_SIZE)."""
    (o_hand, o_played, o_trick, o_voids, o_weis, o_contract, o_phase, o_pushed, o_declarer, o_forehand,
     o_leader, o_trick_no, o_points, _, _, _, _, _, _) = layout_offsets(players, tricks)
    out[V_HAND] = mask36(obs, o_hand)
    out[V_PLAYERS] = players
    for r in range(MAX_PLAYERS):
        out[V_PLAYED + r] = 0
        out[V_WEIS + r] = 0
        out[V_VOIDS + r] = 0
    for r in range(players):
        out[V_PLAYED + r] = mask36(obs, o_played + 36 * r)
        out[V_WEIS + r] = mask36(obs, o_weis + 36 * r)
        v = 0
        for s in range(4):
            if obs[o_voids + 4 * r + s] > 0.5:
                v |= 1 << s
        out[V_VOIDS + r] = v
    out[V_CONTRACT] = one_hot(obs, o_contract, 6)
    out[V_PHASE] = one_hot(obs, o_phase, 3)
    out[V_PUSHED] = 1 if obs[o_pushed] > 0.5 else 0
    out[V_DECLARER] = one_hot(obs, o_declarer, players)
    out[V_FOREHAND] = one_hot(obs, o_forehand, players)
    leader = one_hot(obs, o_leader, players)
    out[V_LEADER] = leader
    out[V_TRICK_NO] = one_hot(obs, o_trick_no, tricks)
    out[V_POINTS] = np.int64(np.round(obs[o_points] * _POINTS_SCALE))
    out[V_POINTS + 1] = np.int64(np.round(obs[o_points + 1] * _POINTS_SCALE))
    # current trick: the seats from the leader on, as long as each has a card on the table
    for i in range(MAX_PLAYERS):
        out[V_TRICK + i] = -1
    n = 0
    if leader >= 0:
        for i in range(players):
            r = (leader + i) % players
            card = one_hot(obs, o_trick + 36 * r, 36)
            if card < 0:
                break
            out[V_TRICK + i] = card
            n += 1
    out[V_N_TRICK] = n
    legal = np.int64(0)
    for a in range(43):
        if action_mask[a] != 0:
            legal |= np.int64(1) << a
    out[V_LEGAL] = legal


def decode(obs: Mapping[str, np.ndarray] | np.ndarray, action_mask: np.ndarray | None = None,
           players: int = 4) -> np.ndarray:
    """The compact view (int64[V_SIZE]) of an observation dict or an observation vector + mask,
    of Schieber (``players`` 4) or Schieber for six (6).

    Raises ValueError on a wrong shape or a missing action mask.
    """
    if players not in TRICKS_OF:
        raise ValueError(f"players must be one of {sorted(TRICKS_OF)} (Schieber, Schieber for six), "
                         f"got {players!r}")
    tricks = TRICKS_OF[players]
    obs_dim = layout_offsets(players, tricks)[-1]
    if isinstance(obs, Mapping):
        if "observation" not in obs or "action_mask" not in obs:
            raise ValueError(f"an observation dict needs the keys 'observation' and 'action_mask', "
                             f"got {sorted(obs)}")
        action_mask = obs["action_mask"]
        vec = obs["observation"]
    else:
        vec = obs
        if action_mask is None:
            raise ValueError("decode(vector) needs the action mask too: decode(vector, mask)")
    vec = np.asarray(vec, dtype=np.float32)
    mask = np.asarray(action_mask)
    if vec.shape != (obs_dim,):
        raise ValueError(f"observation must have shape ({obs_dim},), got {vec.shape}")
    if mask.shape != (N_ACTIONS,):
        raise ValueError(f"action mask must have shape ({N_ACTIONS},), got {mask.shape}")
    out = np.empty(V_SIZE, dtype=np.int64)
    decode_view(vec, mask.astype(np.int8, copy=False), out, players, tricks)
    return out


@dataclass(frozen=True)
class SeatView:
    """What the observing seat knows. Seats are relative (0 me, 1 next, 2 partner, 3 previous;
    six players: 0 me, 2 and 4 team-mates)."""

    hand: int                          #: my cards (36-bit mask)
    played: tuple[int, ...]            #: cards played this round per relative seat
    trick: tuple[int, ...]             #: current trick cards in play order (leader first)
    trick_leader: int                  #: relative seat that led the current trick (-1 outside play)
    voids: tuple[int, ...]             #: per relative seat, bit s = void in suit s (trump: maybe Puur)
    weis_public: tuple[int, ...]       #: public Weis cards per relative seat
    contract: int | None               #: 0..5 (see jass_env.engine.cards.CONTRACTS) or None
    phase: int                         #: 0 choosing, 1 choosing after push, 2 play, -1 round over
    pushed: bool
    declarer: int | None               #: relative seat of the declarer
    forehand: int                      #: relative seat of forehand
    leader: int | None                 #: relative seat leading the current trick
    trick_number: int                  #: 0..tricks-1 during play, -1 otherwise
    card_points: tuple[int, int]       #: card points so far (own team, opponents)
    legal: int                         #: legal actions as a 43-bit mask
    compact: np.ndarray                #: the int64[V_SIZE] form the compiled bots read

    @classmethod
    def from_obs(cls, obs: Mapping[str, np.ndarray] | np.ndarray,
                 action_mask: np.ndarray | None = None, players: int = 4) -> SeatView:
        """Decode an observation dict (or vector + action mask) of ``players`` seats."""
        return cls.from_compact(decode(obs, action_mask, players))

    @classmethod
    def from_compact(cls, v: np.ndarray) -> SeatView:
        n = int(v[V_N_TRICK])
        players = int(v[V_PLAYERS])
        return cls(
            hand=int(v[V_HAND]),
            played=tuple(int(x) for x in v[V_PLAYED:V_PLAYED + players]),
            trick=tuple(int(x) for x in v[V_TRICK:V_TRICK + n]),
            trick_leader=int(v[V_LEADER]),
            voids=tuple(int(x) for x in v[V_VOIDS:V_VOIDS + players]),
            weis_public=tuple(int(x) for x in v[V_WEIS:V_WEIS + players]),
            contract=None if v[V_CONTRACT] < 0 else int(v[V_CONTRACT]),
            phase=int(v[V_PHASE]),
            pushed=bool(v[V_PUSHED]),
            declarer=None if v[V_DECLARER] < 0 else int(v[V_DECLARER]),
            forehand=int(v[V_FOREHAND]),
            leader=None if v[V_LEADER] < 0 else int(v[V_LEADER]),
            trick_number=int(v[V_TRICK_NO]),
            card_points=(int(v[V_POINTS]), int(v[V_POINTS + 1])),
            legal=int(v[V_LEGAL]),
            compact=v,
        )

    # derived
    @property
    def played_all(self) -> int:
        """Every card played this round (the current trick included)."""
        out = 0
        for cards in self.played:
            out |= cards
        return out

    @property
    def unseen(self) -> int:
        """Cards neither in my hand nor played: held by the other seats."""
        return ((1 << 36) - 1) & ~self.hand & ~self.played_all

    @property
    def contract_name(self) -> str | None:
        return None if self.contract is None else CONTRACTS[self.contract]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase] if self.phase >= 0 else "over"

    def hand_size(self, seat: int) -> int:
        """Cards the relative seat still holds (the dealt 9, or 6, minus what it has played)."""
        return TRICKS_OF[len(self.played)] - bin(self.played[seat]).count("1")

    def legal_actions(self) -> list[int]:
        return [a for a in range(N_ACTIONS) if self.legal >> a & 1]


# heuristic
#: forehand pushes (where he may) when no contract's Graf score reaches this
PUSH_THRESHOLD = 68

#: Graf's per-card values by rank offset (A K Q J 10 9 8 7 6)
GRAF_TRUMP = np.array([15, 10, 7, 25, 6, 19, 5, 5, 5], dtype=np.int64)
GRAF_SIDE = np.array([9, 7, 5, 2, 1, 0, 0, 0, 0], dtype=np.int64)
GRAF_OBENABE = np.array([14, 10, 8, 7, 5, 0, 5, 0, 0], dtype=np.int64)
GRAF_UNDENUFE = np.array([0, 2, 1, 1, 5, 5, 7, 9, 11], dtype=np.int64)


# heuristic: contract
@njit(cache=True)
def graf_scores(hand: int, out: np.ndarray) -> None:
    """Graf's score of each contract 0..5 for a hand (36-bit mask), written to ``out`` (int64[6])."""
    for c in range(6):
        out[c] = 0
    for card in range(36):
        if not (hand >> card) & 1:
            continue
        s = card // 9
        r = card % 9
        for c in range(4):
            out[c] += GRAF_TRUMP[r] if s == c else GRAF_SIDE[r]
        out[4] += GRAF_OBENABE[r]
        out[5] += GRAF_UNDENUFE[r]


@njit(cache=True)
def choose_contract(hand: int, legal: int) -> int:
    """Action (36..41 or 42 = push) for the contract phase; ``legal`` is the 43-bit legal mask.

    Picks the best-scoring legal contract; pushes when pushing is legal and the best is < 68.
    """
    scores = np.zeros(6, dtype=np.int64)
    graf_scores(hand, scores)
    best = -1
    best_score = -1
    for c in range(6):
        if (legal >> (36 + c)) & 1 and scores[c] > best_score:
            best = c
            best_score = scores[c]
    if (legal >> 42) & 1 and (best < 0 or best_score < PUSH_THRESHOLD):
        return 42
    if best < 0:                      # no contract legal (should not happen): any legal action
        for a in range(43):
            if (legal >> a) & 1:
                return a
        return -1
    return 36 + best


# heuristic: card helpers
@njit(cache=True)
def rank_strength(card: int, contract: int) -> int:
    """Order of a card within its own suit under a contract (larger = higher)."""
    return card_strength(card, card // 9, contract)


@njit(cache=True)
def highest(mask: int, contract: int) -> int:
    """The highest card of a mask (within-suit order; trumps above all), -1 if empty."""
    best = -1
    best_s = -1000
    m = mask
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        s = rank_strength(c, contract)
        if s > best_s:
            best_s = s
            best = c
    return best


@njit(cache=True)
def lowest(mask: int, contract: int, rp: np.ndarray) -> int:
    """The lowest card of a mask: fewest points, then lowest rank; -1 if empty."""
    best = -1
    best_k = 1 << 30
    m = mask
    base = RP_VALUES + 36 * contract
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        k = rp[base + c] * 64 + rank_strength(c, contract)
        if k < best_k:
            best_k = k
            best = c
    return best


@njit(cache=True)
def possible_cards(p: int, unseen: int, voids: np.ndarray, known: np.ndarray, contract: int,
                   rp: np.ndarray) -> int:
    """Cards seat ``p`` may hold: unseen cards minus its void suits and others' known cards.

    ``unseen`` = cards not played and not in the observer's hand; ``voids[q]`` bit s = q is void in
    suit s (what a void allows: :func:`jass_env.engine.card_play.possible_holding`); ``known[q]`` = cards
    known to be in q's hand (public Weis cards not yet played).
    """
    others = np.int64(0)
    for q in range(known.shape[0]):
        if q != p:
            others |= known[q]
    m = unseen & ~others & possible_holding(voids[p], contract, rp)
    return m | (known[p] & unseen)


@njit(cache=True)
def _max_strength(mask: int, lead_suit: int, contract: int) -> int:
    best = -1
    m = mask
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        s = card_strength(c, lead_suit, contract)
        if s > best:
            best = s
    return best


@njit(cache=True)
def _is_bock(card: int, played: int, contract: int) -> bool:
    return highest(SUIT_MASK[card // 9] & ~played, contract) == card


# heuristic: card play
@njit(cache=True)
def heuristic_card(hand: int, played: int, trick: np.ndarray, n: int, me: int, leader: int,
                   contract: int, declarer: int, voids: np.ndarray, known: np.ndarray,
                   rp: np.ndarray, legal_mask: int) -> int:
    """The heuristic's card for seat ``me`` (card id 0..35).

    hand: my cards (mask); played: every card played this round, current trick included (mask);
    trick/n: the current trick's cards in play order and their count; me/leader/declarer: seats
    (any consistent numbering, absolute or relative, of the game's players: 4, or 6 in Schieber
    for six, whose teams alternate as in Schieber); voids/known: int64 per seat, at least players
    long (see :func:`possible_cards`); legal_mask: the legal cards if known (0 = compute them here).
    """
    legal = legal_cards(hand, trick, n, contract, rp)
    if legal_mask:
        both = legal & legal_mask
        legal = both if both else legal_mask
    if popcount(legal) == 1:
        return lowest_bit(legal)
    c = _choose_card(hand, legal, played, trick, n, me, leader, contract, declarer, voids, known, rp)
    if c < 0 or not (legal >> c) & 1:
        return lowest(legal, contract, rp)
    return c


@njit(cache=True)
def _choose_card(hand: int, legal: int, played: int, trick: np.ndarray, n: int, me: int, leader: int,
                 contract: int, declarer: int, voids: np.ndarray, known: np.ndarray,
                 rp: np.ndarray) -> int:
    """The rules of :func:`heuristic_card` once the legal cards (more than one) are known: what
    the opponents may hold, then :func:`_lead_card` or :func:`_follow_card`."""
    trump_game = contract < 4
    tmask = SUIT_MASK[contract] if trump_game else np.int64(0)
    remaining = ALL_CARDS & ~played            # not yet played (mine included)
    unseen = remaining & ~hand
    players = rp[RP_PLAYERS]
    lead_suit = trick[0] // 9 if n > 0 else -1
    # the opponents (the seats an odd number after me: teams alternate): what they may hold
    # together, the suits one of them may ruff (void there, maybe holding trumps), and the
    # strongest card one still to play in this trick may hold
    poss_opp = np.int64(0)
    ruff_suits = 0
    opp_max = -1
    for k in range(1, players, 2):
        poss = possible_cards((me + k) % players, unseen, voids, known, contract, rp)
        poss_opp |= poss
        if trump_game and (poss & tmask):
            for s in range(4):
                if (poss & SUIT_MASK[s]) == 0:
                    ruff_suits |= 1 << s
        if n > 0 and k < players - n:
            opp_max = max(opp_max, _max_strength(poss, lead_suit, contract))
    if n == 0:
        return _lead_card(hand, remaining, poss_opp, ruff_suits, me, declarer, contract, rp)
    return _follow_card(legal, played, trick, n, me, leader, contract, opp_max, rp)


@njit(cache=True)
def _lead_card(hand: int, remaining: int, poss_opp: int, ruff_suits: int, me: int, declarer: int,
               contract: int, rp: np.ndarray) -> int:
    """The card to lead: the declaring team draws trumps; else the highest card of a suit
    (a Bock) no opponent can ruff, the most valuable first; else low from the longest side suit."""
    base = RP_VALUES + 36 * contract
    trump_game = contract < 4
    tmask = SUIT_MASK[contract] if trump_game else np.int64(0)
    if trump_game:
        my_trumps = hand & tmask
        if declarer % 2 == me % 2 and (poss_opp & tmask) and my_trumps:
            top = highest(my_trumps, contract)
            if top == highest(remaining & tmask, contract):
                return top
            if popcount(my_trumps) >= 3:
                return lowest(my_trumps, contract, rp)
    best = -1
    best_k = -1
    for s in range(4):
        if trump_game and s == contract:
            continue
        if not (hand & SUIT_MASK[s]):
            continue
        b = highest(remaining & SUIT_MASK[s], contract)
        if not (hand >> b) & 1:
            continue
        if (ruff_suits >> s) & 1:        # an opponent void in s who may hold trumps ruffs
            continue
        k = rp[base + b] * 64 + rank_strength(b, contract)
        if k > best_k:
            best_k = k
            best = b
    if best >= 0:
        return best
    # low from the longest side suit (any suit in Obenabe/Undenufe)
    best_s = -1
    best_len = 0
    for s in range(4):
        if trump_game and s == contract:
            continue
        ln = popcount(hand & SUIT_MASK[s])
        if ln > best_len:
            best_len = ln
            best_s = s
    if best_s >= 0:
        return lowest(hand & SUIT_MASK[best_s], contract, rp)
    # only trumps left
    top = highest(hand, contract)
    if top == highest(remaining & tmask, contract):
        return top
    return lowest(hand, contract, rp)


@njit(cache=True)
def _follow_card(legal: int, played: int, trick: np.ndarray, n: int, me: int, leader: int, contract: int,
                 opp_max: int, rp: np.ndarray) -> int:
    """The card to play to a trick led by another (``opp_max``: the strongest card an opponent
    still to play may hold, -1 for none): smear to a partner who wins safely, win cheaply and
    safely where the trick is worth it, else discard the cheapest card keeping trumps and Bocks."""
    base = RP_VALUES + 36 * contract
    trump_game = contract < 4
    players = rp[RP_PLAYERS]
    lead_suit = trick[0] // 9
    wpos = trick_winner_position(trick, n, contract)
    best_str = card_strength(trick[wpos], lead_suit, contract)
    winner = (leader + wpos) % players
    tp = 0
    for i in range(n):
        tp += rp[base + trick[i]]
    # my winning cards: cheapest (non-trump first, fewest points, lowest), safest
    cheap_win = -1
    cheap_k = 1 << 30
    cheap_safe = -1
    cheap_safe_k = 1 << 30
    strong_win = -1
    strong_s = -1
    m = legal
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        s = card_strength(c, lead_suit, contract)
        if s <= best_str:
            continue
        is_trump = trump_game and c // 9 == contract
        k = (10000 if is_trump else 0) + rp[base + c] * 64 + s
        if k < cheap_k:
            cheap_k = k
            cheap_win = c
        if s > opp_max and k < cheap_safe_k:
            cheap_safe_k = k
            cheap_safe = c
        if s > strong_s:
            strong_s = s
            strong_win = c

    if winner % 2 == me % 2:                   # a team-mate wins (I have not played yet)
        if best_str > opp_max:
            # smear: the most valuable non-trump card (never a Bock of equal value first)
            best = -1
            best_k = -1
            m = legal
            while m:
                low = m & -m
                c = lowest_bit(low)
                m ^= low
                if trump_game and c // 9 == contract:
                    continue
                k = rp[base + c] * 64 + (0 if _is_bock(c, played, contract) else 32) \
                    - rank_strength(c, contract)
                if k > best_k:
                    best_k = k
                    best = c
            if best >= 0:
                return best
        elif cheap_safe >= 0 and tp >= 10:
            return cheap_safe
    else:
        if n == players - 1 and cheap_win >= 0:
            return cheap_win
        if cheap_safe >= 0:
            if not (trump_game and cheap_safe // 9 == contract) or tp >= 10:
                return cheap_safe
        if tp >= 10 and strong_win >= 0:
            return strong_win

    # discard the cheapest card, keeping trumps and Bocks
    best = -1
    best_k = 1 << 40
    m = legal
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        k = rp[base + c] * 64 + rank_strength(c, contract)
        if trump_game and c // 9 == contract:
            k += 100000
        if _is_bock(c, played, contract):
            k += 50000
        if k < best_k:
            best_k = k
            best = c
    return best


@njit(cache=True)
def heuristic_action(v: np.ndarray, rp: np.ndarray) -> int:
    """The heuristic's action for a compact seat view (int64[V_SIZE], see :func:`decode_view`)."""
    legal = v[V_LEGAL]
    if popcount(legal) == 1:
        return lowest_bit(legal)
    phase = v[V_PHASE]
    if phase == 0 or phase == 1:
        return choose_contract(v[V_HAND], legal)
    played = np.int64(0)
    for r in range(MAX_PLAYERS):
        played |= v[V_PLAYED + r]
    voids = np.empty(MAX_PLAYERS, dtype=np.int64)
    known = np.empty(MAX_PLAYERS, dtype=np.int64)
    for r in range(MAX_PLAYERS):
        voids[r] = v[V_VOIDS + r]
        known[r] = v[V_WEIS + r] & ~played
    trick = v[V_TRICK:V_TRICK + MAX_PLAYERS]
    return heuristic_card(v[V_HAND], played, trick, v[V_N_TRICK], 0, v[V_LEADER], v[V_CONTRACT],
                          v[V_DECLARER], voids, known, rp, legal & ALL_CARDS)


@njit(cache=True)
def heuristic_actions(obs: np.ndarray, mask: np.ndarray, rp: np.ndarray) -> np.ndarray:
    """The heuristic's action for each row of a batch, decided from the observation only.

    obs: (N, obs_dim) float32 observations (Schieber's or Schieber for six's, as ``rp`` says);
    mask: (N, 43) bool/int legal-action masks (every row
    needs a legal action); rp: the rules' params. Returns (N,) int64 actions (what
    :meth:`HeuristicAgent.act` returns for each row), e.g. for bot seats in a batched env.
    """
    n = obs.shape[0]
    out = np.empty(n, dtype=np.int64)
    v = np.empty(V_SIZE, dtype=np.int64)
    for i in range(n):
        decode_view(obs[i], mask[i], v, rp[RP_PLAYERS], rp[RP_TRICKS])
        out[i] = heuristic_action(v, rp)
    return out


class HeuristicAgent(Agent):
    """Graf trump choice + rule-based card play (docs/bots.md). Deterministic; ``seed`` is unused."""

    name = "heuristic"

    def __init__(self, rules: str | Rules | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rules = make_rules(rules)
        self.rp = self.rules.params

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode(obs, players=self.rules.spec.players)
        if v[V_LEGAL] == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        return checked_action(int(heuristic_action(v, self.rp)), int(v[V_LEGAL]), self.name)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """:meth:`act` for every row of a batch at once (:func:`heuristic_actions`)."""
        return heuristic_actions(obs, mask, self.rp)


# PIMC
ROLLOUTS = ("heuristic", "random")


@njit(cache=True)
def sample_world(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> int:
    """Deal the unseen cards of a compact seat view ``v`` to relative seats 1..players-1 (into
    ``hands``).

    ``hands`` (int64, at least players long) receives every hand by relative seat (``hands[0]`` =
    my hand). Returns the number of restarts used; more than
    :data:`agents.search.worlds.MAX_TRIES` means the voids had to be relaxed.
    """
    return deal_seat_view(v[V_HAND], v[V_PLAYED:V_PLAYED + MAX_PLAYERS], v[V_VOIDS:V_VOIDS + MAX_PLAYERS],
                          v[V_WEIS:V_WEIS + MAX_PLAYERS], rp[RP_PLAYERS], rp[RP_HAND_SIZE], v[V_CONTRACT],
                          rp, rng, hands)


@njit(cache=True)
def build_world_state(v: np.ndarray, hands: np.ndarray, rp: np.ndarray, st: np.ndarray) -> None:
    """Write into ``st`` (an engine state array) the sampled world: the seat view ``v`` with the
    hands ``hands`` (int64, one per player), players = relative seats (I am player 0, to move).

    Built by :func:`jass_env.engine.positions.set_play_position` (Weis and Stöck left out: fixed by the deal,
    they never change a card choice). Tricks won per team are reconstructed from the card points
    for the Match bonus: a team with 0 points is taken to have won no trick.
    """
    own = v[V_POINTS]
    opp = v[V_POINTS + 1]
    trick_no = v[V_TRICK_NO]
    tricks_won = np.zeros(2, dtype=np.int64)
    if opp == 0:
        tricks_won[0] = trick_no
    elif own == 0:
        tricks_won[1] = trick_no
    else:
        tricks_won[0] = 1
        tricks_won[1] = trick_no - 1
    set_play_position(st, hands, v[V_PLAYED:V_PLAYED + MAX_PLAYERS], v[V_VOIDS:V_VOIDS + MAX_PLAYERS],
                      v[V_WEIS:V_WEIS + MAX_PLAYERS], v[V_TRICK:V_TRICK + MAX_PLAYERS], v[V_N_TRICK],
                      v[V_LEADER], v[V_FOREHAND], v[V_PUSHED], v[V_DECLARER], v[V_CONTRACT], trick_no,
                      v[V_POINTS:V_POINTS + 2], tricks_won, 0, rp)


@njit(cache=True)
def rollout(game: int, st: np.ndarray, rp: np.ndarray, policy: int, rng: np.ndarray,
            known: np.ndarray) -> int:
    """Play the world ``st`` of the game numbered ``game`` (a compile-time constant) to the end
    (policy 0 heuristic, 1 random); return team 0 − team 1. ``known`` (int64, at least players
    long) is scratch space. The heuristic reads the contract ranking the current trick
    (Coiffeur's Slalom and Guschti change it trick by trick)."""
    if policy != 0:
        play_out_random(game, st, rp, rng)
        return state.score_of(st, 0) - state.score_of(st, 1)
    players = state.n_players(rp)
    while state.phase(st) == state.PHASE_PLAY:
        p = state.to_move(st)
        played = np.int64(0)
        for q in range(players):
            played |= state.played_by(st, q)
        for q in range(players):
            known[q] = state.weis_cards_of(st, q) & ~played if state.trick_number(st) >= 1 else 0
        card = heuristic_card(state.hand_of(st, p), played, state.current_trick(st), state.cards_in_trick(st),
                              p, state.leader(st), state.contract(st), state.declarer(st), state.voids(st),
                              known, rp, 0)
        apply_action(game, st, card, rp)
    return state.score_of(st, 0) - state.score_of(st, 1)


@njit(cache=True)
def card_sums(game: int, world: np.ndarray, legal: int, rp: np.ndarray, policy: int, rng: np.ndarray,
              sums: np.ndarray) -> None:
    """Add each card of ``legal`` (36-bit mask) played in the world state ``world`` (the searcher,
    player 0, to move) and the rollout's result (:func:`rollout`) to ``sums[card]``."""
    st = np.zeros(world.shape[0], dtype=np.int64)
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    m = legal
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        st[:] = world
        apply_action(game, st, c, rp)
        sums[c] += rollout(game, st, rp, policy, rng, known)


@njit(cache=True)
def pimc_worlds(game: int, v: np.ndarray, rp: np.ndarray, size: int, n_worlds: int, policy: int,
                rng: np.ndarray, sums: np.ndarray) -> None:
    """Add, for ``n_worlds`` sampled worlds (states of ``size``), each legal card's rollout result
    to ``sums[card]``."""
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    world = np.zeros(size, dtype=np.int64)
    for _ in range(n_worlds):
        sample_world(v, rp, rng, hands)
        build_world_state(v, hands, rp, world)
        card_sums(game, world, v[V_LEGAL] & ALL_CARDS, rp, policy, rng, sums)


@cache
def compiled_pimc(game: int) -> Callable[..., None]:
    """The PIMC search of the game numbered ``game`` for Python: ``search(v, rp, size, n_worlds,
    policy, rng, sums)`` is :func:`pimc_worlds` with that game's rules compiled in."""

    @njit(cache=True)
    def search(v, rp, size, n_worlds, policy, rng, sums):  # noqa: ANN001, ANN202
        pimc_worlds(game, v, rp, size, n_worlds, policy, rng, sums)

    return search


@njit(cache=True)
def best_card(v: np.ndarray, sums: np.ndarray) -> int:
    """The legal card with the largest sum (ties: the lowest card id)."""
    legal = v[V_LEGAL] & ALL_CARDS
    best = -1
    best_s = -(1 << 60)
    for c in range(36):
        if (legal >> c) & 1 and sums[c] > best_s:
            best_s = sums[c]
            best = c
    return best


class PIMCAgent(Agent):
    """PIMC search: ``worlds`` sampled deals per decision, ``rollout`` "heuristic" or "random".

    ``time_limit`` (seconds per decision, None = none) stops adding worlds once exceeded (at least
    one world is always evaluated). Contract choice: the heuristic's Graf table.
    """

    def __init__(self, rules: str | Rules | None = None, worlds: int = 10, rollout: str = "heuristic",
                 time_limit: float | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.worlds = check_search_params(worlds, time_limit)
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout policy {rollout!r}; valid: {', '.join(ROLLOUTS)}")
        self.rules = make_rules(rules)
        self.rp = self.rules.params
        self.rollout = rollout
        self.policy = ROLLOUTS.index(rollout)
        self.time_limit = time_limit
        self.name = f"pimc{self.worlds}" + ("" if rollout == "heuristic" else f"-{rollout}")
        self.last_worlds = 0   # worlds evaluated in the last searched decision
        self._search = compiled_pimc(self.rules.spec.kind)
        self._size = state.state_size(self.rules.spec)

    def act(self, obs: Mapping[str, np.ndarray]) -> int:
        v = decode(obs, players=self.rules.spec.players)
        legal = int(v[V_LEGAL])
        if legal == 0:
            raise ValueError("no legal action in the action mask (the round is over?)")
        if v[V_PHASE] != 2 or popcount(legal) == 1:
            return checked_action(int(heuristic_action(v, self.rp)), legal, self.name)
        rng = decision_generator(self.rng)
        sums = np.zeros(36, dtype=np.int64)

        def step(k: int) -> None:
            self._search(v, self.rp, self._size, k, self.policy, rng, sums)

        self.last_worlds = search_worlds(step, self.worlds, self.time_limit)
        return checked_action(int(best_card(v, sums)), legal, self.name)


# the policy-guided search's worlds
#: resolution of the random offset of systematic resampling
RESAMPLE_GRID = 1 << 30
#: the slices a world's rows take from the real observation, by their index in
#: :data:`jass_env.games.schieber.observation.OBS_SLICES` (and so in :func:`layout_offsets`)
I_CONTRACT, I_POINTS, I_WEIS_POINTS, I_STOECK, I_SCORE, I_MATCH = (
    [row[0] for row in OBS_SLICES].index(name)
    for name in ("contract", "card_points", "weis_points", "stoeck", "round_score", "match"))


@njit(cache=True, inline="always")
def world_offsets(rp: np.ndarray) -> tuple:
    """The starts of the slices a world's rows take from the real observation, for the game's seats
    and tricks (:func:`jass_env.games.schieber.observation.layout_offsets`): (contract,
    card_points, weis_points, stoeck, round_score, match)."""
    o = layout_offsets(rp[RP_PLAYERS], rp[RP_TRICKS])
    return o[I_CONTRACT], o[I_POINTS], o[I_WEIS_POINTS], o[I_STOECK], o[I_SCORE], o[I_MATCH]


@njit(cache=True)
def sample_worlds(v: np.ndarray, rp: np.ndarray, rng: np.ndarray, hands: np.ndarray) -> None:
    """Fill ``hands`` (int64[n_worlds, MAX_PLAYERS], by relative seat) with ``n_worlds`` deals of
    the unseen cards of the seat view ``v`` (:func:`sample_world`)."""
    for w in range(hands.shape[0]):
        sample_world(v, rp, rng, hands[w])


@njit(cache=True)
def build_world_states(v: np.ndarray, rp: np.ndarray, hands: np.ndarray, states: np.ndarray) -> None:
    """Fill ``states`` (int64[len(hands), state size]) with the card-play worlds ``hands`` (from
    :func:`sample_worlds`) of the seat view ``v`` (:func:`build_world_state`)."""
    for w in range(hands.shape[0]):
        states[w, :] = 0
        build_world_state(v, hands[w], rp, states[w])


@njit(cache=True)
def encode_world_seat(game: int, st: np.ndarray, p: int, rp: np.ndarray, root: np.ndarray, obs: np.ndarray,
                      mask: np.ndarray) -> None:
    """Observation (float32[obs_dim], the game's layout) and action mask (int8[43]) of player
    ``p`` in the world state ``st``, with the match totals (which a world leaves out) from my real
    observation ``root``, turned to ``p``'s team."""
    encode_observation(st, p, rp, obs)
    bits, block = legal_set(game, st, rp)
    write_legal_mask(bits, block, mask)
    o_match = world_offsets(rp)[5]
    own = p % 2
    for k in range(2):
        obs[o_match + k] = root[o_match + (own + k) % 2]
    obs[o_match + 2] = root[o_match + 2]


@njit(cache=True)
def encode_bidding_rows(game: int, v: np.ndarray, rp: np.ndarray, size: int, hands: np.ndarray,
                        root: np.ndarray, obs: np.ndarray, mask: np.ndarray, taken: np.ndarray) -> None:
    """The round's contract decisions as each world ``hands[w]`` would have seen them, for
    weighting the worlds by how likely they make the bidding that happened (card play only).

    A world's hands at the deal are its hands now plus the cards each seat has played; its state
    has ``size`` entries. Row ``2w`` of ``obs`` (float32[2 n, obs_dim]) and ``mask`` (int8[2 n,
    43]) is forehand's first decision, row ``2w + 1`` the choice after a push; ``taken[row]`` is
    the action that was played there, or -1 where the decision was mine (the same in every world)
    or never came (no push). The match totals come from my real observation ``root``, turned to
    the acting seat."""
    players = rp[RP_PLAYERS]
    start = np.zeros(size, dtype=np.int64)
    dealt = np.zeros(players, dtype=np.int64)
    forehand = v[V_FOREHAND]
    chosen = CONTRACT_OFFSET + v[V_CONTRACT]
    for w in range(hands.shape[0]):
        for p in range(players):
            dealt[p] = hands[w, p] | v[V_PLAYED + p]
        start[:] = 0
        start_round(game, start, dealt, (forehand + players - 1) % players, rp)
        for j in range(2):
            i = 2 * w + j
            taken[i] = -1
            if j == 1:
                if not v[V_PUSHED]:
                    break
                apply_action(game, start, PUSH, rp)
            p = state.to_move(start)
            if p == 0:
                continue
            taken[i] = PUSH if j == 0 and v[V_PUSHED] else chosen
            encode_world_seat(game, start, p, rp, root, obs[i], mask[i])


@njit(cache=True)
def contract_worlds(game: int, v: np.ndarray, rp: np.ndarray, rng: np.ndarray, states: np.ndarray) -> None:
    """Fill ``states`` (int64[n_worlds, state size]) with worlds at the contract choice of the
    seat view ``v``: deals of the cards I do not hold (a hand to each other seat, uniformly: 27
    cards in 9s with four players, 30 in 6s with six), each started with
    :func:`jass_env.engine.transitions.start_round` (so its Weis and Stöck are the world's own)
    and, when ``v`` is the choice after a push, forehand's push applied."""
    players = rp[RP_PLAYERS]
    hand_size = rp[RP_HAND_SIZE]
    hands = np.zeros(players, dtype=np.int64)
    unseen = np.empty(36, dtype=np.int64)
    k = 0
    for c in range(36):
        if not (v[V_HAND] >> c) & 1:
            unseen[k] = c
            k += 1
    after_push = v[V_PHASE] == 1
    # forehand is me, or after a push the seat PUSH_TO before me; the dealer sits before forehand
    dealer = (players - 1 - (PUSH_TO if after_push else 0)) % players
    for w in range(states.shape[0]):
        for i in range(k - 1, 0, -1):
            j = next_rand(rng, i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        hands[0] = v[V_HAND]
        for r in range(1, players):
            hands[r] = 0
            for i in range(hand_size * (r - 1), hand_size * r):
                hands[r] |= np.int64(1) << unseen[i]
        world = states[w]
        world[:] = 0
        start_round(game, world, hands, dealer, rp)
        if after_push:
            apply_action(game, world, PUSH, rp)


@njit(cache=True)
def encode_rows(game: int, states: np.ndarray, rp: np.ndarray, root: np.ndarray, obs: np.ndarray,
                mask: np.ndarray) -> None:
    """Observation (float32[B, obs_dim]) and action mask (int8[B, 43]) of the player to move in
    each world state of ``states`` (int64[B, state size]); a finished row gets an all-zero mask.

    The searcher is player 0 and ``root`` its real observation. The match totals come from
    ``root``; in card play (a world built by :func:`build_world_state`, which leaves Weis and
    Stöck out) so do the Weis points, the shown Stöck and their part of the round score, turned
    to the acting seat's view."""
    players = rp[RP_PLAYERS]
    o_contract, o_points, o_weis_points, o_stoeck, o_score, _ = world_offsets(rp)
    root_contract = -1
    for c in range(6):
        if root[o_contract + c] > 0.5:
            root_contract = c
    card_play_world = root_contract >= 0
    # the round score the real observation has beyond card points x multiplier, per world team
    extra = np.zeros(2, dtype=np.float32)
    if card_play_world:
        mult = rp[RP_MULT + root_contract] / ROUND_POINTS
        for t in range(2):
            extra[t] = root[o_score + t] - root[o_points + t] * ROUND_POINTS * mult
    for i in range(states.shape[0]):
        st = states[i]
        if state.phase(st) == state.PHASE_OVER:
            mask[i, :] = 0
            continue
        p = state.to_move(st)
        o = obs[i]
        encode_world_seat(game, st, p, rp, root, o, mask[i])
        own = p % 2
        if not card_play_world:
            continue
        for k in range(2):
            t = (own + k) % 2
            o[o_weis_points + k] = root[o_weis_points + t]
            o[o_score + k] += extra[t]
        for r in range(players):
            if root[o_stoeck + r] > 0.5:
                o[o_stoeck + (r - p) % players] = 1.0


class WorldKernels(NamedTuple):
    """The compiled world functions of this module that play the rules, made for one game
    (:func:`world_kernels`): each takes the arguments of the function it is named after, without the
    game's number."""

    encode_bidding_rows: object
    contract_worlds: object
    encode_rows: object


@cache
def world_kernels(game: int) -> WorldKernels:
    """The world functions for the game numbered ``game`` (its rules compiled in)."""

    @njit(cache=True)
    def encode_bidding_rows_(v, rp, size, hands, root, obs, mask, taken):  # noqa: ANN001, ANN202
        encode_bidding_rows(game, v, rp, size, hands, root, obs, mask, taken)

    @njit(cache=True)
    def contract_worlds_(v, rp, rng, states):  # noqa: ANN001, ANN202
        contract_worlds(game, v, rp, rng, states)

    @njit(cache=True)
    def encode_rows_(states, rp, root, obs, mask):  # noqa: ANN001, ANN202
        encode_rows(game, states, rp, root, obs, mask)

    return WorldKernels(encode_bidding_rows_, contract_worlds_, encode_rows_)


class SchieberWorlds(WorldModel):
    """Schieber's worlds for the policy-guided search (:mod:`agents.search.world_model`), for four
    players and for six.

    * **Card play**: deals of the unseen cards consistent with what the seat knows, sampled
      exactly as the PIMC bot samples them (:func:`sample_world`: hand sizes, shown voids, public
      Weis cards) and built with :func:`build_world_state`. With ``oversample=K`` the bidding is
      inferred from: K x ``n_worlds`` deals are sampled, each weighted by the policy's probability
      of the contract decisions the other seats made (forehand's push or contract, the choice
      after a push) had they held that deal's cards (:func:`encode_bidding_rows`), and the worlds
      returned are drawn by weight (systematic resampling; a deal drawn twice is returned once and
      counted twice).
    * **Contract and push**: uniform deals of the 27 cards the seat does not hold, started by the
      engine (:func:`contract_worlds`).

    A card-play world leaves out the Weis and the Stöck (they are fixed by the deal and do not
    change what the cards score), and every world the match totals: :meth:`encode` copies them from
    the real observation (:func:`encode_rows`). :meth:`results` is the team difference (own team −
    opponents, card points, last-trick 5 and Match bonus, multiplied).
    """

    weights_worlds = True

    def __init__(self, rules: Rules, likelihood=None, oversample: int = 1) -> None:  # noqa: ANN001
        super().__init__(rules, likelihood, oversample)
        self.players = rules.spec.players
        self.obs_dim = layout_offsets(self.players, rules.spec.tricks)[-1]
        self._kernels = world_kernels(self.game.kind)

    def worlds(self, obs: Mapping[str, np.ndarray], n_worlds: int,
               rng: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        v = decode(obs, players=self.players)
        if v[V_PHASE] == 2 and v[V_CONTRACT] >= 0:
            root = np.asarray(obs["observation"], dtype=np.float32)
            hands, counts = self._world_hands(v, root, n_worlds, rng)
            states = np.zeros((len(hands), self.size), dtype=np.int64)
            build_world_states(v, self.rp, hands, states)
            return states, counts
        if v[V_PHASE] in (0, 1):
            states = np.zeros((n_worlds, self.size), dtype=np.int64)
            self._kernels.contract_worlds(v, self.rp, rng, states)
            return states, np.ones(n_worlds, dtype=np.int64)
        return None

    def _world_hands(self, v: np.ndarray, root: np.ndarray, n_worlds: int,
                     rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hands of one batch of card-play worlds: distinct hands (int64[m, MAX_PLAYERS]) and
        how many of the ``n_worlds`` draws each stands for (int64[m], summing to ``n_worlds``)."""
        m = n_worlds * self.oversample
        hands = np.zeros((m, MAX_PLAYERS), dtype=np.int64)
        sample_worlds(v, self.rp, rng, hands)
        if self.oversample == 1 or self.likelihood is None:
            return hands, np.ones(m, dtype=np.int64)
        obs = np.zeros((2 * m, self.obs_dim), dtype=np.float32)
        mask = np.zeros((2 * m, N_ACTIONS), dtype=np.int8)
        taken = np.full(2 * m, -1, dtype=np.int64)
        self._kernels.encode_bidding_rows(v, self.rp, self.size, hands, root, obs, mask, taken)
        rows = np.flatnonzero(taken >= 0)
        if len(rows) == 0:                      # I made every contract decision: nothing to infer
            return hands[:n_worlds], np.ones(n_worlds, dtype=np.int64)
        loglik = np.zeros(m)
        np.add.at(loglik, rows // 2, self.likelihood(obs[rows], mask[rows], taken[rows]))
        weights = np.exp(loglik - loglik.max())
        cdf = np.cumsum(weights) / weights.sum()
        u = (next_rand(rng, RESAMPLE_GRID) / RESAMPLE_GRID + np.arange(n_worlds)) / n_worlds
        picks = np.minimum(np.searchsorted(cdf, u), m - 1)
        distinct, counts = np.unique(picks, return_counts=True)
        return hands[distinct], counts.astype(np.int64)

    def encode(self, states: np.ndarray, root: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        self._kernels.encode_rows(states, self.rp, root, obs, mask)

    def results(self, states: np.ndarray) -> np.ndarray:
        return self.side_differences(states)


__all__ = ["SeatView", "decode", "decode_view", "mask36", "one_hot", "V_SIZE", "V_PLAYERS", "TRICKS_OF",
           "HeuristicAgent", "graf_scores", "choose_contract", "heuristic_card", "heuristic_action",
           "heuristic_actions", "possible_cards", "PUSH_THRESHOLD",
           "PIMCAgent", "ROLLOUTS", "sample_world", "build_world_state", "rollout", "card_sums",
           "pimc_worlds", "compiled_pimc", "best_card", "SchieberWorlds", "sample_worlds",
           "build_world_states", "encode_world_seat", "encode_bidding_rows", "contract_worlds", "encode_rows",
           "world_kernels", "WorldKernels"]
