"""The round and match API: a thin, checked Python face over the compiled engine, for every game.

>>> from jass_env import Round
>>> r = Round(seed=7)                 # deal with a seed (schieber rules)
>>> r.legal_actions()                  # forehand: the six contracts and push
>>> r.step(36 + 1)                     # choose hearts as trump
>>> while not r.is_over: r.step(r.legal_actions()[0])
>>> r.score                            # [team0, team1], multiplier applied

Every game of the registry (:mod:`jass_env.games`) uses the same classes; the rules decide the game:

>>> r = Round("differenzler", seed=3)   # 4 players alone; trump from the dealer's bottom card
>>> r.trump_card, r.contract           # e.g. ("H9", "H")
>>> r.step("predict 40")               # forehand predicts 40 points (action 36 + 40)

>>> r = Round("mittlere", seed=3)       # 3 players alone; the first discard fixes trump
>>> r.trump, r.trump_fixed              # None, None until a player cannot follow suit

All state lives in one int64 array (``Round.state``, layout in :mod:`jass_env.engine.state`); the
properties below read it through :class:`~jass_env.engine.state.StateView`. What only one game has
(Differenzler's predictions, Coiffeur's sheets, Sidi's stock, the trump fixed by a discard) its
package's readers provide (``READERS``, :mod:`jass_env.games.base`), read as the round's own
attributes. Per-side lists (``points``, ``score``, ``tricks_won``) have one entry per team in team
games and one per player when everyone plays alone. :class:`Match` plays rounds to the rules' end
with a rotating dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .engine.cards import (
    CONTRACTS,
    N_CARDS,
    N_SUITS,
    PHASE_ACTION_OFFSET,
    ROUND_POINTS,
    card_id,
    card_name,
    mask_of,
    names_of,
    popcount,
)
from .engine.deal import d7_dealer, seed_to_rng_state
from .engine.spec import MAX_PLAYERS, GameSpec
from .engine.state import PHASE_NAMES, StateView, new_state
from .engine.switches import Rules
from .engine.transitions import for_game, in_legal_set
from .engine.weis import MAX_WEIS, player_weis
from .games import game_of, make_rules


class IllegalActionError(ValueError):
    """An action that is not legal for the player to move."""


#: how actions may be named besides their ids, by the game's bidding
_NAMED_ACTIONS = {"contract": "card names, contract names or push",
                  "prediction": f"card names or 'predict K' (K = 0..{ROUND_POINTS})"}
#: runs of consecutive legal actions longer than this (Differenzler's 158 predictions) are shown
#: as "first … last"; no hand (at most 12 cards) makes a longer run of cards
RUN_SHOWN = 12


def legal_actions_text(legal: int, names: tuple[str, ...]) -> str:
    """The legal actions of ``legal`` (bit a = action a) as "name (id), ...", long runs shortened
    ("predict 0 (36) … predict 157 (193)"); "none" for the empty set."""
    ids = [a for a in range(len(names)) if (legal >> a) & 1]
    parts: list[str] = []
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        if j - i + 1 > RUN_SHOWN:
            parts.append(f"{names[ids[i]]} ({ids[i]}) … {names[ids[j]]} ({ids[j]})")
        else:
            parts.extend(f"{names[a]} ({a})" for a in ids[i:j + 1])
        i = j + 1
    return ", ".join(parts) or "none"


def parse_hands(hands: Sequence[Any], spec: GameSpec) -> np.ndarray:
    """The dealt hands (bitboards or lists of card names/ids), one per player, as int64
    bitboards; checks the count, the hand size and that no card is dealt twice."""
    if len(hands) != spec.players:
        raise ValueError(f"a {spec.name} deal has {spec.players} hands, got {len(hands)}")
    out = np.zeros(2 * MAX_PLAYERS, dtype=np.int64)
    for p, h in enumerate(hands):
        if isinstance(h, (int, np.integer)):
            out[p] = int(h)
        else:
            cards = [card_id(c) if isinstance(c, str) else int(c) for c in h]
            if len(set(cards)) != len(cards):
                raise ValueError(f"hand {p} lists a card twice: {list(h)}")
            out[p] = mask_of(cards)
        if popcount(int(out[p])) != spec.hand_size:
            raise ValueError(f"hand {p} has {popcount(int(out[p]))} cards; each {spec.name} hand "
                             f"has {spec.hand_size}")
    union = 0
    deck = spec.deck
    for p in range(spec.players):
        if union & int(out[p]):
            raise ValueError(f"the {spec.players} hands must hold each card at most once")
        if int(out[p]) & ~deck:
            raise ValueError(f"hand {p} holds {' '.join(names_of(int(out[p]) & ~deck))}, which is not in "
                             f"the {spec.name} deck (the {N_CARDS} cards without "
                             f"{' '.join(spec.removed)})")
        union |= int(out[p])
    n_deck = popcount(deck)
    if spec.players * spec.hand_size == n_deck and union != deck:  # Sidi: a stock
        raise ValueError(f"the {spec.players} hands must hold each of the {n_deck} cards of the deck "
                         f"exactly once")
    return out


class Round:
    """One dealt hand of any game of the family: its bidding phase, then the tricks.

    Build it from a seed (``Round(rules, seed=3)``) or from explicit hands
    (``Round(hands=[["H9", ...], ...], dealer=0)``). ``rules`` is a preset name or Rules object.
    Without a dealer, a seeded deal draws one at random and explicit hands get dealer 0; under
    ``first_forehand="D7"`` (seed_vaud) the holder of the ♦7 is forehand in both cases. A game
    may take options of its own for a deal of explicit hands (Differenzler: ``trump_card="H9"``
    or ``trump="H"`` fixes trump); an option the game does not have raises ValueError.
    """

    def __init__(self, rules: str | Rules | None = None, *, seed: int | None = None,
                 hands: Sequence[Any] | None = None, dealer: int | None = None,
                 state: np.ndarray | None = None, **deal_options: Any) -> None:
        self.rules = make_rules(rules)
        self.spec = self.rules.spec
        self.rp = self.rules.params
        self.game = game_of(self.rules)
        self.engine = for_game(self.spec.kind)
        self.readers = self.game.readers(self) if self.game.readers is not None else None
        if state is not None:
            self.state = state
            self.view = StateView(state, self.rp)
            return
        n = self.spec.players
        if dealer is not None and (not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < n):
            raise ValueError(f"dealer must be a player 0..{n - 1}, got {dealer!r}")
        options = {k: v for k, v in deal_options.items() if v is not None}
        self.state = new_state(self.spec, seed_to_rng_state(seed))
        self.view = StateView(self.state, self.rp)
        self.engine.reset_match(self.state, False, self.rp)
        if hands is None:
            if options:
                raise ValueError(f"{' and '.join(options)} go with explicit hands")
            self.engine.deal_round(self.state, -1 if dealer is None else dealer, self.rp)
            return
        parsed = parse_hands(hands, self.spec)
        if dealer is None:   # the preset's first-forehand rule (holder of the ♦7), else dealer 0
            dealer = max(0, int(d7_dealer(parsed, self.rp)))
        self.engine.start_round(self.state, parsed, dealer, self.rp)
        if options:
            self._deal_options(options)

    def _deal_options(self, options: dict[str, Any]) -> None:
        accept = getattr(self.readers, "deal_options", None)
        if accept is None:
            how = "chosen in the bidding" if self.spec.bidding == "contract" else "fixed by its rules"
            raise ValueError(f"{' and '.join(options)}: {self.spec.name} takes no options for a deal "
                             f"(trump is {how})")
        try:
            accept(**options)
        except TypeError:
            raise ValueError(f"{self.spec.name} takes no deal option(s) {', '.join(options)}") from None

    def __getattr__(self, name: str) -> Any:
        """What only this round's game has (its readers: ``predictions``, ``sheets``, ``stock``, ...)."""
        readers = self.__dict__.get("readers")
        if readers is not None and not name.startswith("_") and hasattr(readers, name):
            return getattr(readers, name)
        game = self.__dict__.get("spec")
        raise AttributeError(f"{name!r} is not a reader of a {game.name if game else ''} round")

    # acting
    def legal_actions(self) -> np.ndarray:
        """Legal action ids of the player to move, ascending; empty when the round is over."""
        return self.engine.legal_actions(self.state, self.rp)

    def legal_mask(self) -> int:
        """The legal actions as an integer bitboard (bit a set = action a legal); Differenzler's
        prediction actions (36..193) are included while predicting."""
        bits, block = self.engine.legal_set(self.state, self.rp)
        return int(bits) | (((1 << int(block)) - 1) << PHASE_ACTION_OFFSET)

    def step(self, action: int | str) -> None:
        """Apply an action id or its name: a card (``"H9"``), Schieber's contract name or
        ``"push"``, ``"predict K"`` (Differenzler), any name of the game's actions.

        Raises IllegalActionError naming the player, the action and the legal actions.
        """
        a = self.parse_action(action)
        bits, block = self.engine.legal_set(self.state, self.rp)
        if not in_legal_set(int(bits), int(block), a):
            raise IllegalActionError(self.illegal_message(a))
        self.engine.apply_action(self.state, a, self.rp)

    def illegal_message(self, action: int) -> str:
        """The one message for an illegal action: who may not play what, and what is legal."""
        names = self.spec.action_names
        shown = legal_actions_text(self.legal_mask(), names)
        shown = "none, the round is over" if shown == "none" else shown
        return f"player {self.to_move} may not play {names[action]} (action {action}) now; legal: {shown}"

    def parse_action(self, action: int | str) -> int:
        """An action id of this game from an id or a name; IllegalActionError says what is allowed."""
        names = self.spec.action_names
        n = len(names)
        if isinstance(action, str):
            text = action.strip()
            if text in names:
                return names.index(text)
            if f"choose {text}" in names:
                return names.index(f"choose {text}")
            try:
                return card_id(text)
            except ValueError:
                pass
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < n:
            return int(action)
        raise IllegalActionError(f"not a {self.spec.name} action: {action!r}; actions are integers "
                                 f"0..{n - 1} ({names[0]} .. {names[-1]}), "
                                 f"{_NAMED_ACTIONS.get(self.spec.bidding, 'card names')}")

    def copy(self) -> Round:
        return Round(self.rules, state=self.state.copy())

    # reading
    @property
    def phase(self) -> str:
        """"contract", "prediction", "play" or "over"."""
        return PHASE_NAMES[self.view.phase]

    is_over = property(lambda self: self.view.is_over)
    to_move = property(lambda self: self.view.to_move)
    dealer = property(lambda self: self.view.dealer)
    forehand = property(lambda self: self.view.forehand)
    pushed = property(lambda self: self.view.pushed)
    declarer = property(lambda self: self.view.declarer)
    leader = property(lambda self: self.view.leader)
    trick_number = property(lambda self: self.view.trick_number)

    @property
    def contract(self) -> str | None:
        """The contract (Schieber, Coiffeur's current trick) or trump suit (games played alone),
        None before it is fixed."""
        c = self.view.contract
        return None if c < 0 else CONTRACTS[c]

    @property
    def trump(self) -> str | None:
        """The trump suit (D H S C), None while none is fixed (or in Obenabe/Undenufe); a game
        whose trump is fixed during play says when (its readers' ``trump``)."""
        if self.readers is not None and hasattr(self.readers, "trump"):
            return self.readers.trump
        c = self.view.contract
        return CONTRACTS[c] if 0 <= c < N_SUITS else None

    @property
    def trump_card(self) -> str | None:
        """The card that shows trump, if one does (Differenzler's bottom card, Sidi's open card,
        the first discard); None otherwise."""
        c = self.view.trump_card
        return None if c is None else card_name(c)

    def hand(self, player: int) -> list[str]:
        """Cards the player still holds."""
        return names_of(self.view.hands[player])

    def dealt_hand(self, player: int) -> list[str]:
        return names_of(self.view.dealt[player])

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """(player, card) of the cards on the table, leader first."""
        n, lead = self.spec.players, self.leader
        return [((lead + i) % n, card_name(c)) for i, c in enumerate(self.view.trick)]

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """Completed tricks: leader, plays [(player, card)], winner, points."""
        n = self.spec.players
        out, leader = [], int(self.engine.first_leader(self.state, self.rp))
        for t in range(self.trick_number):
            winner = self.view.trick_winner(t)
            plays = [((leader + i) % n, card_name(c)) for i, c in enumerate(self.view.trick_cards(t))]
            out.append({"leader": leader, "plays": plays, "winner": winner,
                        "points": self.view.trick_points(t)})
            leader = winner
        return out

    points = property(lambda self: self.view.points)
    score = property(lambda self: self.view.score)
    tricks_won = property(lambda self: self.view.tricks_won)

    @property
    def match_team(self) -> int | None:
        return self.view.match_team

    @property
    def stoeck_player(self) -> int | None:
        """The player credited (or, before the second card, to be credited) with Stöck."""
        return self.view.stoeck_player

    stoeck_shown = property(lambda self: self.view.stoeck_shown)
    weis_team = property(lambda self: self.view.weis_team)
    weis_points = property(lambda self: self.view.weis_points)

    def weis(self) -> list[dict[str, Any]]:
        """The Weis that score: [{"player", "cards", "points"}] (points before the multiplier)."""
        team = self.weis_team
        if team is None:
            return []
        return [w for p in range(self.spec.players) if self.spec.side_of(p) == team
                for w in self.declared_weis(p)]

    def declared_weis(self, player: int) -> list[dict[str, Any]]:
        """Every Weis the player declares from the dealt hand (scoring or not): none before the
        contract is fixed, or when neither the rules nor the round's game scored Weis."""
        c = self.view.contract
        if c < 0 or not (self.rules.weis or self.view.weis_team is not None):
            return []
        buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
        position = (player - self.forehand) % self.spec.players
        n = player_weis(self.view.dealt[player], c, position, self.rp, buf)
        return [{"player": player, "cards": names_of(int(buf[i, 1])), "points": int(buf[i, 0])}
                for i in range(n)]

    def public_weis_cards(self, player: int) -> list[str]:
        """The player's Weis cards that are public (the Weis winners' cards, after trick 1)."""
        if self.trick_number < 1:
            return []
        return names_of(self.view.weis_cards[player])

    def __repr__(self) -> str:
        return (f"Round(rules={self.rules.name!r}, phase={self.phase}, contract={self.contract}, "
                f"trick={self.trick_number}, to_move={self.to_move}, score={self.score})")


class Match:
    """Rounds played to the rules' end (target, or number of rounds), the dealer rotating.

    ``step`` acts in the current round; when a round ends and the match goes on, the next round
    is dealt at once (the finished round is kept in ``finished_rounds``).
    """

    def __init__(self, rules: str | Rules | None = None, *, seed: int | None = None) -> None:
        self.rules = make_rules(rules)
        self.engine = for_game(self.rules.spec.kind)
        state = new_state(self.rules.spec, seed_to_rng_state(seed))
        self.engine.reset_match(state, True, self.rules.params)
        self.engine.deal_round(state, -1, self.rules.params)
        self.round = Round(self.rules, state=state)
        self.finished_rounds: list[Round] = []

    @property
    def state(self) -> np.ndarray:
        return self.round.state

    @property
    def scores(self) -> list[int]:
        """Match totals per side (Differenzler: total penalty per player)."""
        return self.round.view.match_score

    @property
    def winner(self) -> int | None:
        """The winning side once decided (Schieber: 0 or 1, or 2 for a draw after a fixed number of
        rounds; games played alone: the player with the best total); None while going on."""
        return self.round.view.match_winner

    is_over = property(lambda self: self.winner is not None)
    bergpreis_team = property(lambda self: self.round.view.bergpreis_team)
    rounds_done = property(lambda self: self.round.view.rounds_done)

    def legal_actions(self) -> np.ndarray:
        return self.round.legal_actions()

    def step(self, action: int | str) -> None:
        if self.is_over:
            raise IllegalActionError(f"the match is over (winner: {self.winner}); no action is legal")
        self.round.step(action)
        if self.round.is_over and not self.is_over:
            self.finished_rounds.append(self.round.copy())
            self.engine.next_round(self.state, self.rules.params)
        elif self.is_over:
            self.finished_rounds.append(self.round.copy())


__all__ = ["Round", "Match", "IllegalActionError", "parse_hands", "legal_actions_text", "seed_to_rng_state"]
