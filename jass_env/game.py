"""The round and match API: a thin, checked Python face over the compiled core.

>>> from jass_env import Round
>>> r = Round(seed=7)                 # deal with a seed (schieber rules)
>>> r.legal_actions()                  # forehand: the six contracts and push
>>> r.step(36 + 1)                     # choose hearts as trump
>>> while not r.is_over: r.step(r.legal_actions()[0])
>>> r.score                            # [team0, team1], multiplier applied

All state lives in one int64 array (``Round.state``, layout in :mod:`jass_env.core`); the
properties below only read it. :class:`Match` plays rounds to the target with a rotating dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import core
from .cards import ACTION_NAMES, CONTRACTS, N_ACTIONS, card_id, mask_of, names_of
from .rules import Rules, make_rules


class IllegalActionError(ValueError):
    """An action that is not legal for the player to move."""


def seed_to_rng_state(seed: int | None) -> int:
    """A non-zero 32-bit generator state from any integer seed (None = fresh entropy)."""
    x = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint32)[0])
    return x or 1


def _parse_hands(hands: Sequence[Any]) -> np.ndarray:
    """Four hands given as bitboards or lists of card names/ids -> int64[4]; checks a full deal."""
    if len(hands) != 4:
        raise ValueError(f"a deal has 4 hands, got {len(hands)}")
    out = np.zeros(4, dtype=np.int64)
    for p, h in enumerate(hands):
        if isinstance(h, (int, np.integer)):
            out[p] = int(h)
        else:
            cards = [card_id(c) if isinstance(c, str) else int(c) for c in h]
            if len(set(cards)) != len(cards):
                raise ValueError(f"hand {p} lists a card twice: {list(h)}")
            out[p] = mask_of(cards)
        if core.popcount(int(out[p])) != 9:
            raise ValueError(f"hand {p} has {core.popcount(int(out[p]))} cards; each hand has 9")
    if int(out[0] | out[1] | out[2] | out[3]) != (1 << 36) - 1:
        raise ValueError("the four hands must hold each of the 36 cards exactly once")
    return out


class Round:
    """One dealt hand: contract choice (with one push) and 9 tricks.

    Build it from a seed (``Round(rules, seed=3)``) or from explicit hands
    (``Round(hands=[["H9", ...], ...], dealer=0)``). ``rules`` is a preset name or Rules object.
    Without a dealer, a seeded deal draws one at random and explicit hands get dealer 0; under
    ``first_forehand="D7"`` (seed_vaud) the holder of the ♦7 is forehand in both cases.
    """

    def __init__(self, rules: str | Rules | None = None, *, seed: int | None = None,
                 hands: Sequence[Any] | None = None, dealer: int | None = None,
                 state: np.ndarray | None = None) -> None:
        self.rules = make_rules(rules)
        self.rp = self.rules.params
        if state is not None:
            self.state = state
            return
        if dealer is not None and dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a player 0..3, got {dealer!r}")
        self.state = np.zeros(core.S_SIZE, dtype=np.int64)
        self.state[core.S_RNG] = seed_to_rng_state(seed)
        core.reset_match(self.state, False)
        if hands is None:
            core.deal_round(self.state, -1 if dealer is None else dealer, self.rp)
        else:
            parsed = _parse_hands(hands)
            if dealer is None:   # the preset's first-forehand rule: holder of the ♦7, else dealer 0
                d7 = [p for p in range(4) if parsed[p] >> core.D7 & 1][0]
                dealer = (d7 + 3) % 4 if self.rules.first_forehand == "D7" else 0
            core.start_round(self.state, parsed, dealer, self.rp)

    # ------------------------------------------------------------------ acting
    def legal_actions(self) -> np.ndarray:
        """Legal action ids (0..42) of the player to move, ascending; empty when the round is over."""
        return core.legal_actions(self.state, self.rp)

    def legal_mask(self) -> int:
        """The legal actions as a 43-bit integer (bit a set = action a legal)."""
        return int(core.legal_actions_mask(self.state, self.rp))

    def step(self, action: int | str) -> None:
        """Apply an action id, a card name (``"H9"``), a contract name, or ``"push"``.

        Raises IllegalActionError naming the player, the action and the legal actions.
        """
        a = self.parse_action(action)
        legal = core.legal_actions_mask(self.state, self.rp)
        if not (legal >> a) & 1:
            raise IllegalActionError(
                f"player {self.to_move} may not play {ACTION_NAMES[a]} (action {a}) now; legal: "
                + (", ".join(f"{ACTION_NAMES[x]} ({x})" for x in _bits(legal)) or "none, the round is over"))
        core.apply_action(self.state, a, self.rp)

    @staticmethod
    def parse_action(action: int | str) -> int:
        if isinstance(action, str):
            if action == "push":
                return core.PUSH
            if action in CONTRACTS:
                return core.CONTRACT_OFFSET + CONTRACTS.index(action)
            return card_id(action)
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < N_ACTIONS:
            return int(action)
        raise IllegalActionError(f"not an action: {action!r}; actions are integers 0..42 "
                                 f"(36 cards, 6 contracts, push), card names or contract names")

    def copy(self) -> Round:
        return Round(self.rules, state=self.state.copy())

    # ------------------------------------------------------------------ reading
    def _get(self, i: int) -> int:
        return int(self.state[i])

    phase = property(lambda self: ("contract", "play", "over")[self._get(core.S_PHASE)])
    is_over = property(lambda self: self._get(core.S_PHASE) == core.PHASE_OVER)
    to_move = property(lambda self: self._get(core.S_TO_MOVE))
    dealer = property(lambda self: self._get(core.S_DEALER))
    forehand = property(lambda self: self._get(core.S_FOREHAND))
    pushed = property(lambda self: bool(self._get(core.S_PUSHED)))
    declarer = property(lambda self: self._get(core.S_DECLARER))
    leader = property(lambda self: self._get(core.S_LEADER))
    trick_number = property(lambda self: self._get(core.S_TRICK_NO))

    @property
    def contract(self) -> str | None:
        c = self._get(core.S_CONTRACT)
        return None if c < 0 else CONTRACTS[c]

    def hand(self, player: int) -> list[str]:
        """Cards the player still holds."""
        return names_of(self._get(core.S_HANDS + player))

    def dealt_hand(self, player: int) -> list[str]:
        return names_of(self._get(core.S_DEALT + player))

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """(player, card) of the cards on the table, leader first."""
        n, lead = self._get(core.S_N_IN_TRICK), self.leader
        return [((lead + i) % 4, names_of(1 << self._get(core.S_TRICK + i))[0]) for i in range(n)]

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """Completed tricks: leader, plays [(player, card)], winner, points."""
        out, leader = [], self.forehand
        if self.pushed and self.rules.leader_after_push == "declarer" and self.declarer >= 0:
            leader = self.declarer
        for t in range(self.trick_number):
            cards = [self._get(core.S_PLAYS + 4 * t + i) for i in range(4)]
            winner = self._get(core.S_TRICK_WINNER + t)
            out.append({"leader": leader,
                        "plays": [((leader + i) % 4, names_of(1 << c)[0]) for i, c in enumerate(cards)],
                        "winner": winner, "points": self._get(core.S_TRICK_POINTS + t)})
            leader = winner
        return out

    points = property(lambda self: [self._get(core.S_POINTS), self._get(core.S_POINTS + 1)])
    score = property(lambda self: [self._get(core.S_SCORE), self._get(core.S_SCORE + 1)])
    tricks_won = property(lambda self: [self._get(core.S_TRICKS_WON), self._get(core.S_TRICKS_WON + 1)])

    @property
    def match_team(self) -> int | None:
        t = self._get(core.S_MATCH_TEAM)
        return None if t < 0 else t

    @property
    def stoeck_player(self) -> int | None:
        """The player credited (or, before the second card, to be credited) with Stöck."""
        p = self._get(core.S_STOECK_PLAYER)
        return None if p < 0 else p

    stoeck_shown = property(lambda self: bool(self._get(core.S_STOECK_SHOWN)))

    @property
    def weis_team(self) -> int | None:
        t = self._get(core.S_WEIS_TEAM)
        return None if t < 0 else t

    @property
    def weis_points(self) -> list[int]:
        return [self._get(core.S_WEIS_POINTS), self._get(core.S_WEIS_POINTS + 1)]

    def weis(self) -> list[dict[str, Any]]:
        """The Weis that score: [{"player", "cards", "points"}] (points before the multiplier)."""
        team = self.weis_team
        if team is None:
            return []
        return [w for p in (team, team + 2) for w in self.declared_weis(p)]

    def declared_weis(self, player: int) -> list[dict[str, Any]]:
        """Every Weis the player declares from the dealt hand (scoring or not)."""
        c = self._get(core.S_CONTRACT)
        if c < 0 or not self.rules.weis:
            return []
        buf = np.zeros((8, 3), dtype=np.int64)
        n = core.player_weis(self._get(core.S_DEALT + player), c, (player - self.forehand) % 4, self.rp, buf)
        return [{"player": player, "cards": names_of(int(buf[i, 1])), "points": int(buf[i, 0])}
                for i in range(n)]

    def public_weis_cards(self, player: int) -> list[str]:
        """The player's Weis cards that are public (the Weis winners' cards, after trick 1)."""
        if self.trick_number < 1:
            return []
        return names_of(self._get(core.S_WEIS_CARDS + player))

    def __repr__(self) -> str:
        return (f"Round(rules={self.rules.name!r}, phase={self.phase}, contract={self.contract}, "
                f"trick={self.trick_number}, to_move={self.to_move}, score={self.score})")


class Match:
    """Rounds played to the rules' target (or fixed number of rounds), the dealer rotating.

    ``step`` acts in the current round; when a round ends and the match goes on, the next round
    is dealt at once (the finished round is kept in ``finished_rounds``).
    """

    def __init__(self, rules: str | Rules | None = None, *, seed: int | None = None) -> None:
        self.rules = make_rules(rules)
        state = np.zeros(core.S_SIZE, dtype=np.int64)
        state[core.S_RNG] = seed_to_rng_state(seed)
        core.reset_match(state, True)
        core.deal_round(state, -1, self.rules.params)
        self.round = Round(self.rules, state=state)
        self.finished_rounds: list[Round] = []

    @property
    def state(self) -> np.ndarray:
        return self.round.state

    @property
    def scores(self) -> list[int]:
        return [int(self.state[core.S_MATCH_SCORE]), int(self.state[core.S_MATCH_SCORE + 1])]

    @property
    def winner(self) -> int | None:
        """0 or 1 once a team has won, 2 for a draw (fixed number of rounds), None while going on."""
        w = int(self.state[core.S_MATCH_WINNER])
        return None if w < 0 else w

    is_over = property(lambda self: self.winner is not None)
    bergpreis_team = property(lambda self: None if self.state[core.S_BERG_TEAM] < 0
                              else int(self.state[core.S_BERG_TEAM]))

    def legal_actions(self) -> np.ndarray:
        return self.round.legal_actions()

    def step(self, action: int | str) -> None:
        if self.is_over:
            raise IllegalActionError(f"the match is over (winner: team {self.winner}); no action is legal")
        self.round.step(action)
        if self.round.is_over and not self.is_over:
            self.finished_rounds.append(self.round.copy())
            core.next_round(self.state, self.rules.params)
        elif self.is_over:
            self.finished_rounds.append(self.round.copy())


def _bits(mask: int) -> list[int]:
    """Action ids set in a 43-bit mask."""
    return [a for a in range(N_ACTIONS) if mask >> a & 1]


__all__ = ["Round", "Match", "IllegalActionError", "seed_to_rng_state"]
