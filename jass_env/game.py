"""The round and match API: a thin, checked Python face over the compiled core.

>>> from jass_env import Round
>>> r = Round(seed=7)                 # deal with a seed (schieber rules)
>>> r.legal_actions()                  # forehand: the six contracts and push
>>> r.step(36 + 1)                     # choose hearts as trump
>>> while not r.is_over: r.step(r.legal_actions()[0])
>>> r.score                            # [team0, team1], multiplier applied

Every game of the family (:mod:`jass_env.spec`) uses the same classes; the rules decide the game:

>>> r = Round("differenzler", seed=3)   # 4 players alone; trump from the dealer's bottom card
>>> r.trump_card, r.contract           # e.g. ("H9", "H")
>>> r.step("predict 40")               # forehand predicts 40 points (action 36 + 40)

>>> r = Round("mittlere", seed=3)       # 3 players alone; the first discard fixes trump
>>> r.trump, r.trump_fixed              # None, None until a player cannot follow suit

All state lives in one int64 array (``Round.state``, layout in :mod:`jass_env.kernel`); the
properties below read it through :class:`jass_env.core.StateView`. Per-side lists (``points``,
``score``, ``tricks_won``) have one entry per team in team games and one per player when
everyone plays alone. :class:`Match` plays rounds to the rules' end with a rotating dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import coiffeur, core, differenzler, first_discard, kernel, molotow, sidi
from .cards import CONTRACTS, N_CARDS, SUITS, card_id, card_name, mask_of, names_of
from .kernel import MAX_PLAYERS, MAX_WEIS
from .rules import Rules, make_rules
from .spec import COIFFEUR_ROW_LABELS, KIND_COIFFEUR, KIND_MOLOTOW, KIND_SIDI, ROUND_POINTS


class IllegalActionError(ValueError):
    """An action that is not legal for the player to move."""


def seed_to_rng_state(seed: int | None) -> int:
    """A non-zero 32-bit generator state from any integer seed (None = fresh entropy)."""
    x = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint32)[0])
    return x or 1


def _parse_hands(hands: Sequence[Any], rules: Rules) -> np.ndarray:
    """The dealt hands (bitboards or lists of card names/ids), one per player, as int64
    bitboards; checks the count, the hand size and that no card is dealt twice."""
    spec = rules.spec
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
        if core.popcount(int(out[p])) != spec.hand_size:
            raise ValueError(f"hand {p} has {core.popcount(int(out[p]))} cards; each {spec.name} hand "
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
    n_deck = core.popcount(deck)
    if spec.players * spec.hand_size == n_deck and union != deck:  # Sidi: a stock
        raise ValueError(f"the {spec.players} hands must hold each of the {n_deck} cards of the deck "
                         f"exactly once")
    return out


class Round:
    """One dealt hand of any game of the family: its bidding phase, then the tricks.

    Build it from a seed (``Round(rules, seed=3)``) or from explicit hands
    (``Round(hands=[["H9", ...], ...], dealer=0)``). ``rules`` is a preset name or Rules object.
    Without a dealer, a seeded deal draws one at random and explicit hands get dealer 0; under
    ``first_forehand="D7"`` (seed_vaud) the holder of the ♦7 is forehand in both cases.
    Differenzler with explicit hands: ``trump_card="H9"`` (a card of the dealer's hand, under
    ``trump_mode="bottom_card"``) or ``trump="H"`` (``random_suit``) fixes trump; without them
    it is drawn from the seed.
    """

    def __init__(self, rules: str | Rules | None = None, *, seed: int | None = None,
                 hands: Sequence[Any] | None = None, dealer: int | None = None,
                 state: np.ndarray | None = None, trump_card: str | None = None,
                 trump: str | None = None) -> None:
        self.rules = make_rules(rules)
        self.spec = self.rules.spec
        self.rp = self.rules.params
        if state is not None:
            self.state = state
            self.view = core.StateView(state, self.rp)
            return
        n = self.spec.players
        if dealer is not None and (not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < n):
            raise ValueError(f"dealer must be a player 0..{n - 1}, got {dealer!r}")
        self.state = core.new_state(seed_to_rng_state(seed))
        self.view = core.StateView(self.state, self.rp)
        core.reset_match(self.state, False)
        if hands is None:
            if trump_card is not None or trump is not None:
                raise ValueError("trump_card and trump go with explicit hands")
            core.deal_round(self.state, -1 if dealer is None else dealer, self.rp)
            return
        parsed = _parse_hands(hands, self.rules)
        if dealer is None:   # the preset's first-forehand rule (holder of the ♦7), else dealer 0
            dealer = max(0, int(core.d7_dealer(parsed, self.rp)))
        core.start_round(self.state, parsed, dealer, self.rp)
        if trump_card is not None or trump is not None:
            self._fix_trump(trump_card, trump)

    def _fix_trump(self, trump_card: str | None, trump: str | None) -> None:
        """Differenzler: replace the drawn trump by the given one (checked against the switches)."""
        if self.spec.bidding != "prediction":
            how = ("chosen in the contract phase" if self.spec.bidding == "contract"
                   else "fixed by the first card played by a player who cannot follow suit")
            raise ValueError(f"trump_card and trump are for Differenzler; in {self.spec.name} trump is "
                             f"{how}")
        if self.rules.trump_mode == "bottom_card":
            if trump is not None or trump_card is None:
                raise ValueError("under trump_mode='bottom_card' give trump_card (a card of the dealer's "
                                 "hand), not trump")
            card = card_id(trump_card)
            if not self.view.dealt[self.dealer] >> card & 1:
                raise ValueError(f"trump_card {trump_card!r} is not in the dealer's (player {self.dealer}) "
                                 f"hand {self.dealt_hand(self.dealer)}")
            differenzler.set_trump(self.state, card // 9, card)
        else:
            if trump_card is not None or trump not in SUITS:
                raise ValueError(f"under trump_mode='random_suit' give trump as a suit letter "
                                 f"{' '.join(SUITS)}, not a card; got trump={trump!r}, "
                                 f"trump_card={trump_card!r}")
            differenzler.set_trump(self.state, SUITS.index(trump), -1)

    # ------------------------------------------------------------------ acting
    def legal_actions(self) -> np.ndarray:
        """Legal action ids of the player to move, ascending; empty when the round is over."""
        return core.legal_actions(self.state, self.rp)

    def legal_mask(self) -> int:
        """The legal actions as an integer bitboard (bit a set = action a legal); Differenzler's
        prediction actions (36..193) are included while predicting."""
        bits = int(core.legal_actions_mask(self.state, self.rp))
        block = int(core.legal_block(self.state, self.rp))
        return bits | (((1 << block) - 1) << core.PHASE_ACTION_OFFSET)

    def step(self, action: int | str) -> None:
        """Apply an action id, a card name (``"H9"``), a contract name or ``"push"`` (Schieber),
        or ``"predict K"`` (Differenzler).

        Raises IllegalActionError naming the player, the action and the legal actions.
        """
        a = self.parse_action(action)
        if not core.is_legal(self.state, self.rp, a):
            raise IllegalActionError(self.illegal_message(a))
        core.apply_action(self.state, a, self.rp)

    def illegal_message(self, action: int) -> str:
        """The one message for an illegal action: who may not play what, and what is legal."""
        names = self.spec.action_names
        legal = [int(x) for x in self.legal_actions()]
        if len(legal) > 12 and self.spec.bidding == "prediction" and self.phase == "prediction":
            shown = f"predict 0 .. predict {ROUND_POINTS} ({legal[0]}..{legal[-1]})"
        else:
            shown = ", ".join(f"{names[x]} ({x})" for x in legal) or "none, the round is over"
        return f"player {self.to_move} may not play {names[action]} (action {action}) now; legal: {shown}"

    def parse_action(self, action: int | str) -> int:
        """An action id of this game from an id or a name; IllegalActionError says what is allowed."""
        names = self.spec.action_names
        n = len(names)
        if isinstance(action, str):
            text = action.strip()
            if text in names:
                return names.index(text)
            if self.spec.bidding == "contract" and text in CONTRACTS:
                return core.CONTRACT_OFFSET + CONTRACTS.index(text)
            try:
                return card_id(text)
            except ValueError:
                pass
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < n:
            return int(action)
        forms = {"contract": "card names, contract names or push",
                 "prediction": f"card names or 'predict K' (K = 0..{ROUND_POINTS})"}.get(self.spec.bidding,
                                                                                         "card names")
        raise IllegalActionError(f"not a {self.spec.name} action: {action!r}; actions are integers "
                                 f"0..{n - 1} ({names[0]} .. {names[-1]}), {forms}")

    def copy(self) -> Round:
        return Round(self.rules, state=self.state.copy())

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> str:
        """"contract", "prediction", "play" or "over"."""
        return _PHASE_NAMES[self.view.phase]

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
        """The contract (Schieber) or trump suit (Differenzler), None before it is fixed."""
        c = self.view.contract
        return None if c < 0 else CONTRACTS[c]

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
        out, leader = [], int(core.first_leader(self.state, self.rp))
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

    # Differenzler
    @property
    def trump_card(self) -> str | None:
        """Differenzler ``bottom_card``: the dealer's card that shows trump (None otherwise)."""
        c = self.view.trump_card
        return None if c is None else card_name(c)

    @property
    def predictions(self) -> list[int | None]:
        """Differenzler: each player's prediction (None before he made it). Full information:
        with hidden predictions a seat sees only its own (the environments enforce that)."""
        return self.view.predictions

    @property
    def penalties(self) -> list[int] | None:
        """Differenzler: each player's penalty once the round is over, else None."""
        return self.score if self.is_over and self.spec.bidding == "prediction" else None

    # ---- Coiffeur (issue 15)
    def set_sheets(self, sheets: Any) -> None:
        """Coiffeur: start this deal from given sheets (``{"0": {row: value}, "1": {...}}`` or a
        list of two such dicts; rows not named are open), before anyone declared or pushed."""
        self._need_coiffeur("set_sheets")
        if self.phase != "contract" or self.view.pushed or self.view.declarer >= 0:
            raise ValueError("set_sheets goes before the declaration: nobody may have pushed or declared")
        coiffeur.set_sheets(self.state, sheets, self.rp, self.spec.rows)

    def _need_coiffeur(self, what: str) -> None:
        if self.spec.bidding != "declaration":
            raise ValueError(f"{what} is for Coiffeur; this round plays {self.spec.name}")

    @property
    def sheets(self) -> list[dict[str, int | None]]:
        """Coiffeur: both teams' sheets, {row label: value written, None while open}."""
        self._need_coiffeur("sheets")
        return coiffeur.sheets_of(self.state, self.spec.rows)

    @property
    def pushes(self) -> list[int]:
        """Coiffeur: the players who pushed this deal, in order."""
        self._need_coiffeur("pushes")
        return coiffeur.pushes_of(self.state, self.spec.players)

    @property
    def row(self) -> str | None:
        """Coiffeur: the label of the row declared this deal (None before)."""
        self._need_coiffeur("row")
        r = int(kernel.co_row(self.state))
        return None if r < 0 else COIFFEUR_ROW_LABELS[r]

    @property
    def factor(self) -> int | None:
        """Coiffeur: the declared row's factor (None before)."""
        row = self.row
        return None if row is None else self.rules.row_factors[self.spec.rows.index(row)]

    @property
    def declared_game(self) -> str | None:
        """Coiffeur: what the declared row plays, in RECORDS.md's names ("H", "obenabe",
        "slalom_U", ...; a Joker row its chosen contract); None before."""
        self._need_coiffeur("declared_game")
        return coiffeur.game_name(int(kernel.co_game(self.state)))

    @property
    def row_score(self) -> int | None:
        """Coiffeur: what the declaring team wrote in its row (None before the deal ends)."""
        self._need_coiffeur("row_score")
        return self.score[self.declarer % 2] if self.is_over and self.declarer >= 0 else None

    def weis(self) -> list[dict[str, Any]]:
        """The Weis that score: [{"player", "cards", "points"}] (points before the multiplier)."""
        team = self.weis_team
        if team is None:
            return []
        return [w for p in range(self.spec.players) if self.spec.side_of(p) == team
                for w in self.declared_weis(p)]

    def declared_weis(self, player: int) -> list[dict[str, Any]]:
        """Every Weis the player declares from the dealt hand (scoring or not)."""
        c = self.view.contract
        coiffeur_weis = self.rules.spec.kind == KIND_COIFFEUR and self.view.weis_team is not None
        if c < 0 or not (self.rules.weis or coiffeur_weis):
            return []
        buf = np.zeros((MAX_WEIS, 3), dtype=np.int64)
        n = core.player_weis(self.view.dealt[player], c, (player - self.forehand) % self.spec.players,
                             self.rp, buf)
        return [{"player": player, "cards": names_of(int(buf[i, 1])), "points": int(buf[i, 0])}
                for i in range(n)]

    def public_weis_cards(self, player: int) -> list[str]:
        """The player's Weis cards that are public (the Weis winners' cards, after trick 1)."""
        if self.trick_number < 1:
            return []
        return names_of(self.view.weis_cards[player])

    # --- Mittlere and Molotow (issue 17): trump by the first discard (jass_env.first_discard)
    @property
    def discards_fix_trump(self) -> bool:
        """Whether trump is fixed by the first card that does not follow suit (Mittlere, Molotow)."""
        return self.rules.trump_mode == "first_discard"

    @property
    def trump(self) -> str | None:
        """The trump suit (D H S C), None while none is fixed (or in Obenabe/Undenufe)."""
        if self.discards_fix_trump and self.view.declarer < 0:
            return None
        c = self.view.contract
        return CONTRACTS[c] if 0 <= c < len(SUITS) else None

    @property
    def trump_fixed(self) -> dict[str, int] | None:
        """Where trump was fixed by a discard: {"player", "card", "trick", "position"} with the
        trick counted from 1 and the position from 0 (the leader), as in records; None before."""
        if not self.discards_fix_trump or self.view.declarer < 0:
            return None
        trick, position = first_discard.fix_position(self.state, self.rp)
        return {"player": self.view.declarer, "card": card_name(self.view.trump_card),
                "trick": int(trick) + 1, "position": int(position)}

    @property
    def result(self) -> list[int] | None:
        """Mittlere: each player's Striche − Nullen of the finished hand; Molotow: his hand score
        (points + table Weis − hand Weis − Stöck); None while the hand goes on (or other games)."""
        return self.score if self.is_over and self.discards_fix_trump else None

    def hand_weis(self) -> list[dict[str, Any]]:
        """Molotow: every Weis of every dealt hand [{"player", "cards", "points"}] (they count
        minus for their holder; public after trick 1). Empty in other games."""
        if self.spec.kind != KIND_MOLOTOW:
            return []
        return [{"player": p, "cards": names_of(mask), "points": pts} for p in range(self.spec.players)
                for pts, mask in molotow.hand_weis_list(self.view.dealt[p], self.rp)]

    def table_weis(self) -> list[dict[str, Any]]:
        """Molotow: the table Weis of the finished tricks [{"player" (the trick's winner), "trick"
        (from 1), "cards", "points"}] (they count plus for the winner). Empty in other games."""
        if self.spec.kind != KIND_MOLOTOW:
            return []
        fixed = self.trump_fixed
        out = []
        for t in range(self.trick_number):
            trump = None if fixed is None or fixed["trick"] > t + 1 else SUITS.index(self.trump)
            for pts, mask in molotow.table_weis_list(mask_of(self.view.trick_cards(t)), trump, self.rp):
                out.append({"player": self.view.trick_winner(t), "trick": t + 1, "cards": names_of(mask),
                            "points": pts})
        return out
    # --- end Mittlere and Molotow

    # --- Sidi (project rules, jass_env.sidi): the stock under the open trump card
    def _need_sidi(self, what: str) -> None:
        if self.spec.kind != KIND_SIDI:
            raise ValueError(f"{what} is for Sidi; this round plays {self.spec.name}")

    def set_stock(self, stock: Sequence[str | int]) -> None:
        """Sidi: deal this round's stock as given (the 20 cards not dealt, names or ids, top first,
        the face-up trump card last) before the first action; trump, Weis and Stöck follow."""
        self._need_sidi("set_stock")
        cards = [card_id(c) if isinstance(c, str) else int(c) for c in stock]
        core.set_sidi_stock(self.state, cards, self.rp)

    @property
    def stock(self) -> list[str]:
        """Sidi: the stock as dealt, top first, the face-up trump card last (full information)."""
        self._need_sidi("stock")
        return [card_name(int(kernel.stock_card(self.state, i))) for i in range(sidi.STOCK_SIZE)]

    @property
    def stock_left(self) -> int:
        """Sidi: cards still in the stock (the face-up one included)."""
        self._need_sidi("stock_left")
        return int(sidi.stock_left(self.state))

    @property
    def face_up_card(self) -> str | None:
        """Sidi: the card lying face up under the stock (the trump 6 after the exchange), None once
        drawn."""
        self._need_sidi("face_up_card")
        c = int(kernel.face_up_card(self.state))
        return None if c < 0 else card_name(c)

    @property
    def exchange(self) -> dict[str, int] | None:
        """Sidi: {"player", "trick"} of the exchange of the trump 6 (trick counted from 1, the
        trick he then led), None while nobody exchanged."""
        self._need_sidi("exchange")
        t = int(kernel.exchange_trick(self.state))
        if t < 0:
            return None
        leader = int(core.first_leader(self.state, self.rp)) if t == 0 else self.view.trick_winner(t - 1)
        return {"player": leader, "trick": t + 1}
    # --- end Sidi

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
        state = core.new_state(seed_to_rng_state(seed))
        core.reset_match(state, True)
        core.deal_round(state, -1, self.rules.params)
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
        """Schieber: 0 or 1 once a team has won, 2 for a draw (fixed number of rounds);
        Differenzler: the player with the lowest total; None while going on."""
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
            core.next_round(self.state, self.rules.params)
        elif self.is_over:
            self.finished_rounds.append(self.round.copy())


_PHASE_NAMES = {core.PHASE_CONTRACT: "contract", core.PHASE_PLAY: "play", core.PHASE_OVER: "over",
                core.PHASE_PREDICT: "prediction"}


__all__ = ["Round", "Match", "IllegalActionError", "seed_to_rng_state"]
