"""The state of one game: a flat int64 array, its layout, and the readers of it.

A game is one int64 array: the fields every game shares (the layout below, sized for the largest
game the engine holds, :data:`~jass_env.engine.spec.MAX_PLAYERS` players and
:data:`~jass_env.engine.spec.MAX_TRICKS` tricks; a game uses the first ``players`` slots of a
per-player field), then the game's own fields from :data:`S_TAIL` on (``GameSpec.state_fields``:
Coiffeur's score sheets, Sidi's stock, Differenzler's predictions; Schieber has none). So a
state's length is ``S_TAIL`` + its game's tail (:func:`state_size`), and a batch of games is a
``(num_envs, state_size)`` array. Functions that change a game mutate its array in place.

Players are 0..n-1 in play order. A *side* is what scores: a team (``side = player % 2``) in
team games, the player himself when everyone plays alone (:func:`side_of`).

Only the compiled rules (:mod:`jass_env.engine` and each game's ``rules.py``) write a state, by
the ``S_*`` offsets; every other module reads it through the compiled accessors below or the
Python :class:`StateView`, and builds positions through :mod:`jass_env.engine.positions`.
"""

from __future__ import annotations

import numpy as np

from .cards import N_CARDS
from .jit import engine_inline
from .spec import MAX_PLAYERS, MAX_SIDES, MAX_TRICKS, TEAMS_NONE, GameSpec
from .switches import RP_PLAYERS, RP_TEAMS, RP_TRICKS


# state layout
class _Layout:
    """Hands out consecutive offsets; ``take(name, n)`` reserves ``n`` slots for the field ``name``
    and records it in ``fields``."""

    def __init__(self) -> None:
        self.size = 0
        self.fields: list[tuple[str, int, int]] = []

    def take(self, name: str, n: int = 1) -> int:
        offset = self.size
        self.fields.append((name, offset, n))
        self.size += n
        return offset


_L = _Layout()
S_HANDS = _L.take("S_HANDS", MAX_PLAYERS)              # cards each player still holds
S_DEALT = _L.take("S_DEALT", MAX_PLAYERS)              # the hands as dealt (Weis, Stöck read these)
S_PLAYED = _L.take("S_PLAYED", MAX_PLAYERS)            # cards each player has played so far (public)
S_DEALER = _L.take("S_DEALER")
S_FOREHAND = _L.take("S_FOREHAND")                     # (dealer + 1) % n: bids first, leads trick 1
S_PHASE = _L.take("S_PHASE")                           # PHASE_*
S_PUSHED = _L.take("S_PUSHED")                         # Schieber: 1 after forehand pushed
S_DECLARER = _L.take("S_DECLARER")                     # Schieber: who named the contract, -1 before
S_CONTRACT = _L.take("S_CONTRACT")                     # 0..5 (D H S C obenabe undenufe), -1 before
                                                       # it is fixed
S_TO_MOVE = _L.take("S_TO_MOVE")                       # the player who acts next
S_TRICK_NO = _L.take("S_TRICK_NO")                     # 0..tricks-1 during play, tricks when all are played
S_LEADER = _L.take("S_LEADER")                         # leader of the current trick
S_N_IN_TRICK = _L.take("S_N_IN_TRICK")                 # cards in the current trick
S_TRICK = _L.take("S_TRICK", MAX_PLAYERS)              # cards of the current trick by position
                                                       # (leader first), -1
S_POINTS = _L.take("S_POINTS", MAX_SIDES)              # card points taken per side (last trick +5,
                                                       # no Match bonus)
S_TRICKS_WON = _L.take("S_TRICKS_WON", MAX_SIDES)      # tricks taken per side
S_WEIS_POINTS = _L.take("S_WEIS_POINTS", MAX_SIDES)    # Weis points each side scores (before the multiplier)
S_WEIS_CARDS = _L.take("S_WEIS_CARDS", MAX_PLAYERS)    # cards of each player's scoring Weis (public
                                                       # after trick 1)
S_WEIS_TEAM = _L.take("S_WEIS_TEAM")                   # side that won the Weis contest, -1 if nobody
                                                       # has a Weis
S_STOECK_PLAYER = _L.take("S_STOECK_PLAYER")           # player dealt trump K+Q (Stöck on), -1 otherwise
S_STOECK_SHOWN = _L.take("S_STOECK_SHOWN")             # 1 once the second of the two cards was played
S_MATCH_TEAM = _L.take("S_MATCH_TEAM")                 # side that took every trick, -1 otherwise (at
                                                       # round end)
S_SCORE = _L.take("S_SCORE", MAX_SIDES)                # the round's score per side (Schieber: points
                                                       # with the multiplier; Differenzler: the penalty)
S_RNG = _L.take("S_RNG")                               # xorshift32 state used to deal this game's next hands
S_MATCH = _L.take("S_MATCH")                           # 1 when the game is a match (rounds to an end),
                                                       # 0 one round
S_MATCH_SCORE = _L.take("S_MATCH_SCORE", MAX_SIDES)    # match totals per side
S_MATCH_WINNER = _L.take("S_MATCH_WINNER")             # -1 undecided; the winning side; Schieber: 2 a draw
S_BERG_TEAM = _L.take("S_BERG_TEAM")                   # team that got the Bergpreis, -1
S_ROUND_NO = _L.take("S_ROUND_NO")                     # rounds completed in this match
S_PLAYS = _L.take("S_PLAYS", N_CARDS)                  # cards in the order played, -1 = not yet
S_TRICK_WINNER = _L.take("S_TRICK_WINNER", MAX_TRICKS)  # winner of each trick, -1
S_TRICK_POINTS = _L.take("S_TRICK_POINTS", MAX_TRICKS)  # card points of each trick (+5 on the last), -1
S_PLAYER_WEIS = _L.take("S_PLAYER_WEIS", MAX_PLAYERS)  # Weis points each player declared (before the contest)
S_VOIDS = _L.take("S_VOIDS", MAX_PLAYERS)              # public voids: bit s = the player showed no card
                                                       # of suit s (trump suit with the Puur exception:
                                                       # maybe the Puur)
S_WIN_POS = _L.take("S_WIN_POS")                       # position in the current trick of the card
                                                       # winning it so far
S_WIN_STRENGTH = _L.take("S_WIN_STRENGTH")             # that card's strength (see card_strength)
S_TRUMP_CARD = _L.take("S_TRUMP_CARD")                 # Differenzler bottom_card: the shown card,
                                                       # -1 otherwise
#: the game's own fields start here (GameSpec.state_fields)
S_TAIL = _L.size
#: every shared field as (name, offset, slots), in layout order
FIELDS: tuple[tuple[str, int, int], ...] = tuple(_L.fields)

PHASE_CONTRACT = 0
PHASE_PLAY = 1
PHASE_OVER = 2
PHASE_PREDICT = 3
PHASE_NAMES = {PHASE_CONTRACT: "contract", PHASE_PLAY: "play", PHASE_OVER: "over",
               PHASE_PREDICT: "prediction"}


def state_size(spec: GameSpec) -> int:
    """The length of a state of the game of ``spec``: the shared fields and its own tail."""
    return S_TAIL + spec.tail_size


def new_state(spec: GameSpec, rng_state: int = 1) -> np.ndarray:
    """A zeroed state array of the game of ``spec`` whose deal generator starts at ``rng_state``."""
    st = np.zeros(state_size(spec), dtype=np.int64)
    st[S_RNG] = rng_state
    return st


# seats
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


# accessors
# What compiled code outside the engine may read of a game (Python code uses StateView).
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
def seed_generator(st: np.ndarray, rng_state: int) -> None:
    """Set the game's deal generator (a non-zero 32-bit xorshift32 state)."""
    st[S_RNG] = rng_state


@engine_inline
def generator_state(st: np.ndarray) -> int:
    return st[S_RNG]


@engine_inline
def trick_winner_of(st: np.ndarray, t: int) -> int:
    """The winner of finished trick ``t`` (from 0), -1 while it is not finished."""
    return st[S_TRICK_WINNER + t]


@engine_inline
def player_weis_of(st: np.ndarray, player: int) -> int:
    """The Weis points a player declared from his dealt hand."""
    return st[S_PLAYER_WEIS + player]


# Python reader
class StateView:
    """Named, read-only access to one state array (int64, the game's state size) for Python code.

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
