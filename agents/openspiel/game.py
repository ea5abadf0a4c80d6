"""The OpenSpiel games: one round of any preset on the compiled engine, as a ``pyspiel.Game``.

:class:`JassGame` plays one round (one deal, its bidding and its tricks) of a preset's rules;
:class:`JassState` holds a :class:`jass_env.round.Round` once the deal is complete (a clone copies
its state array). The chance nodes are the deal (:mod:`agents.openspiel.deal`); the players' actions
are the engine's (cards 0..35, then the game's phase actions), legal as the engine says.

Returns (terminal only): every player gets his side's round score (:attr:`Round.score`, the team's
in team games, his own when everyone plays alone) in the direction of the game's ``BETTER``:
as it is where a higher score is better, negated where a lower one is (Differenzler's penalty,
Molotow's points). The units are the game's: card points with Weis, Stöck, bonus and multiplier
(Schieber, Sidi, Coiffeur's row), points of the penalty (Differenzler), Striche − Nullen
(Mittlere). The utility type follows the game's ``SCORE_SUM``: where the sides' scores add up to
a constant it is ``CONSTANT_SUM`` (``ZERO_SUM`` for 0) with that utility sum (Schieber's
``tournament`` preset: no Weis, Stöck or bonus, the teams share 157 points, 314 over the four
players); everywhere else ``GENERAL_SUM`` (Weis, Stöck, bonuses and multipliers in the team games,
penalties and ties in the others vary the sum).

Observations (the game's default observers):

* observation tensor: exactly the project's observation of the seat (the AEC environment's
  ``observe(agent)["observation"]``, float32 of the game's ``obs_dim``); all zero while dealing.
* information-state tensor: that observation, then one slot per player move
  (``max_game_length`` slots, zero after the moves made): the mover (one-hot of the players), the
  action (one-hot of the game's actions, or the extra last entry when it is hidden from the
  observer, such as a hidden Differenzler prediction) and the observer's hand before the move (36
  card bits, so the cards he drew are remembered).
* strings: the project's text table from the seat (:func:`jass_env.render.render_table`, other
  hands hidden); the information-state string adds the moves and the cards that came into the
  observer's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from jass_env.engine.cards import N_CARDS, PHASE_ACTION_OFFSET, names_of
from jass_env.engine.spec import MAX_PLAYERS
from jass_env.engine.switches import Rules
from jass_env.engine.validate import SCORE_BOUND
from jass_env.envs.aec import compiled_steps
from jass_env.envs.encoding import obs_dim
from jass_env.games import DEFAULT_PRESET, PRESETS, game_of, make_rules
from jass_env.games._text import player_name
from jass_env.render import render_table
from jass_env.round import Round

from ..table import hidden_from, indistinguishable
from .deal import MAX_CHANCE_OUTCOMES, Deal, Dealing, outcomes_of, round_of
from .resample import resample_deal

#: the parametrized game's short name; each preset's game is "python_jass_<preset>"
GAME_NAME = "python_jass"
#: the players of any game the engine holds (the parametrized game's range)
MIN_PLAYERS = 2


def game_name(preset: str) -> str:
    """The short name of a preset's game."""
    return f"{GAME_NAME}_{preset}"


def game_type(short_name: str, long_name: str, min_players: int, max_players: int,
              parameters: dict[str, Any], total: float | None = None) -> pyspiel.GameType:
    """The OpenSpiel facts of a Jass game (module docstring); ``total``: the utilities' constant
    sum, None when they have none."""
    kinds = pyspiel.GameType.Utility
    utility = kinds.GENERAL_SUM if total is None else kinds.ZERO_SUM if total == 0 else kinds.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players, min_num_players=min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)


#: the parametrized game: rules=<preset>
PARAMETRIZED_TYPE = game_type(GAME_NAME, "Jass (a preset's rules, one round)", MIN_PLAYERS, MAX_PLAYERS,
                              {"rules": DEFAULT_PRESET})


def preset_type(preset: str) -> pyspiel.GameType:
    """The game type of ``python_jass_<preset>`` (no parameters)."""
    players = PRESETS[preset].spec.players
    return game_type(game_name(preset), f"Jass {preset} (one round)", players, players, {},
                     utility_sum(PRESETS[preset]))


def utility_sum(rules: Rules) -> float | None:
    """What the players' utilities add up to in every terminal state, None when not a constant:
    the game's ``SCORE_SUM`` of the sides, each side's score counted once per player of it."""
    score_sum = game_of(rules).score_sum
    total = score_sum(rules) if score_sum is not None else None
    if total is None:
        return None
    spec = rules.spec
    return float(game_of(rules).sign * total * spec.players // spec.sides)


@dataclass(frozen=True)
class Facts:
    """What every state of one game shares (never copied with a state)."""

    rules: Rules
    #: +1 when a higher score is better, -1 when a lower one is
    sign: int
    obs_dim: int
    #: the most player moves in a round
    max_moves: int

    def __deepcopy__(self, memo: dict) -> Facts:
        return self

    @classmethod
    def of(cls, rules: Rules) -> Facts:
        spec = rules.spec
        game = game_of(rules)
        if game.max_phase_actions is None:
            raise ValueError(f"game {game.name!r} does not declare MAX_PHASE_ACTIONS (jass_env.games.base), "
                             f"which an OpenSpiel game needs for its length")
        max_moves = spec.tricks * spec.players + game.max_phase_actions(rules)
        return cls(rules, game.sign, obs_dim(rules), max_moves)

    def utility_range(self) -> tuple[float, float]:
        """(min, max) utility: the game's round score range (SCORE_RANGE) in the direction of BETTER."""
        score_range = game_of(self.rules).score_range
        low, high = score_range(self.rules) if score_range is not None else (-SCORE_BOUND, SCORE_BOUND)
        return (float(low), float(high)) if self.sign > 0 else (float(-high), float(-low))


class JassGame(pyspiel.Game):
    """One round of Jass under a preset's rules (module docstring).

    ``params``: OpenSpiel's; the parametrized game ``python_jass`` reads ``rules`` (a preset name).
    ``preset``: the preset of a ``python_jass_<preset>`` game. ``rules``: a Rules object instead
    (Python use only; a game string names only ``rules.name``, so it reloads only for a preset).
    """

    def __init__(self, params: dict[str, Any] | None = None, *, preset: str | None = None,
                 rules: Rules | None = None) -> None:
        params = dict(params or {})
        if preset is not None:
            if params:
                raise ValueError(f"{game_name(preset)} takes no parameters (got {sorted(params)}); "
                                 f"use {GAME_NAME}(rules={preset}) for the parametrized game")
            gtype, resolved = preset_type(preset), PRESETS[preset]
        else:
            if rules is None:
                name = params.get("rules", DEFAULT_PRESET)
                if name not in PRESETS:
                    raise ValueError(f"{GAME_NAME}: unknown rules {name!r}; presets: {', '.join(PRESETS)}")
                resolved = PRESETS[name]
            else:
                resolved = make_rules(rules)
            params = {"rules": resolved.name}
            gtype = game_type(GAME_NAME, PARAMETRIZED_TYPE.long_name, MIN_PLAYERS, MAX_PLAYERS,
                              {"rules": DEFAULT_PRESET}, utility_sum(resolved))
        self.facts = Facts.of(resolved)
        low, high = self.facts.utility_range()
        info = pyspiel.GameInfo(num_distinct_actions=resolved.spec.n_actions,
                                max_chance_outcomes=MAX_CHANCE_OUTCOMES, num_players=resolved.spec.players,
                                min_utility=low, max_utility=high, utility_sum=utility_sum(resolved),
                                max_game_length=self.facts.max_moves)
        super().__init__(gtype, info, params)

    @property
    def rules(self) -> Rules:
        return self.facts.rules

    def new_initial_state(self) -> JassState:
        """The state before the deal (a chance node)."""
        return JassState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> JassObserver:
        """The observer of the observation (``perfect_recall=False``) or information state
        (``perfect_recall=True``) of one seat: its private information and the public."""
        return JassObserver(self.facts, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            params)


_PRESET_CLASSES: dict[str, type[JassGame]] = {}


def preset_game_class(preset: str) -> type[JassGame]:
    """The game class OpenSpiel registers for ``python_jass_<preset>``: :class:`JassGame` with the
    preset fixed (a class: a ``functools.partial`` registered instead aborts the interpreter at
    exit, freed by OpenSpiel's registry after Python has shut down)."""
    if preset not in _PRESET_CLASSES:
        def init(self: JassGame, params: dict[str, Any] | None = None) -> None:
            JassGame.__init__(self, params, preset=preset)

        _PRESET_CLASSES[preset] = type(f"JassGame_{preset}", (JassGame,), {"__init__": init})
    return _PRESET_CLASSES[preset]


class _Table:
    """The dealt round of a state; a copy copies its state array."""

    __slots__ = ("round",)

    def __init__(self, rnd: Round) -> None:
        self.round = rnd

    def __deepcopy__(self, memo: dict) -> _Table:
        return _Table(self.round.copy())

    def __reduce__(self) -> tuple[Any, tuple[Rules, np.ndarray]]:
        """Pickled as its rules and state array (OpenSpiel's serialization pickles a state's fields)."""
        return _table_of, (self.round.rules, self.round.state)


def _table_of(rules: Rules, state: np.ndarray) -> _Table:
    return _Table(Round(rules, state=np.array(state, dtype=np.int64)))


class JassState(pyspiel.State):
    """A state of :class:`JassGame`: the deal so far, then the round and its moves."""

    def __init__(self, game: JassGame) -> None:
        super().__init__(game)
        facts = game.facts
        self._facts = facts
        self._dealing = Dealing.start(facts.rules)
        self._table: _Table | None = None
        players = facts.rules.spec.players
        #: the player moves: action, mover, every hand before it, and from whom it was hidden
        self._moves = np.full(facts.max_moves, -1, dtype=np.int64)
        self._movers = np.full(facts.max_moves, -1, dtype=np.int64)
        self._hands = np.zeros((facts.max_moves, players), dtype=np.int64)
        self._hidden = np.zeros((facts.max_moves, players), dtype=bool)
        self._n_moves = 0

    # reading
    @property
    def round(self) -> Round | None:
        """The dealt round (None while dealing); read it, never step it."""
        return None if self._table is None else self._table.round

    @property
    def deal(self) -> Deal | None:
        """The deal (None while dealing)."""
        return self._dealing.deal if self._table is not None else None

    @property
    def moves(self) -> list[int]:
        """The player moves so far (engine action ids), in order."""
        return self._moves[:self._n_moves].tolist()

    def current_player(self) -> int:
        rnd = self.round
        if rnd is None:
            return pyspiel.PlayerId.CHANCE
        if rnd.is_over:
            return pyspiel.PlayerId.TERMINAL
        return int(rnd.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        rnd = self.round
        if rnd is None or rnd.is_over or player != rnd.to_move:
            return []
        return rnd.legal_actions().tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        _, outcomes = self._dealing.next()
        if self._table is not None or not outcomes:
            return []
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _apply_action(self, action: int) -> None:
        rnd = self.round
        if rnd is None:
            self._dealing = self._dealing.after(int(action))
            if self._dealing.complete:
                self._table = _Table(round_of(self._facts.rules, self._dealing.deal))
            return
        k = self._n_moves
        mover = int(rnd.to_move)
        if action >= PHASE_ACTION_OFFSET and rnd.legal_mask() >> action & 1:   # cards are played face up
            for seat in range(rnd.spec.players):
                self._hidden[k, seat] = seat != mover and hidden_from(rnd, int(action), seat)
        hands = rnd.view.hands
        for p in range(rnd.spec.players):
            self._hands[k, p] = hands[p]
        rnd.step(int(action))
        self._moves[k] = action
        self._movers[k] = mover
        self._n_moves = k + 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._dealing.outcome_name(int(action))
        names = self._facts.rules.spec.action_names
        return names[action] if 0 <= action < len(names) else f"action {action}"

    def is_terminal(self) -> bool:
        rnd = self.round
        return rnd is not None and rnd.is_over

    def returns(self) -> list[float]:
        """Each player's side's round score, in the direction of BETTER, once over; 0 before."""
        rnd = self.round
        n = self._facts.rules.spec.players
        if rnd is None or not rnd.is_over:
            return [0.0] * n
        score = rnd.score
        return [float(self._facts.sign * score[rnd.spec.side_of(p)]) for p in range(n)]

    def __str__(self) -> str:
        rnd = self.round
        if rnd is None:
            return dealing_text(self._dealing, None)
        return render_table(rnd.state, rnd.rules, show_hands="all")

    # resampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> JassState:
        """A state drawn uniformly among those ``player_id`` cannot tell from this one (same
        own hand, same public information, the same moves he saw): :func:`agents.openspiel.resample.
        resample_deal` with a generator seeded from ``probability_sampler()`` (a float in [0, 1)),
        and each move hidden from him (another player's hidden prediction) drawn uniformly among the
        moves he could not tell from it."""
        if self._table is None:
            raise ValueError("resample_from_infostate needs a dealt round; this state is still dealing")
        seed = int(float(probability_sampler()) * 2**53)
        rng = np.random.default_rng(seed)
        deal = resample_deal(self._facts.rules, self._dealing.deal, self.moves, int(player_id), rng)
        state = self.get_game().new_initial_state()
        for outcome in outcomes_of(self._facts.rules, deal):
            state.apply_action(outcome)
        for k, action in enumerate(self.moves):
            if self._hidden[k, player_id]:        # another player's hidden prediction: any he might have made
                action = int(rng.choice(indistinguishable(state.round, action, int(player_id))))
            state.apply_action(action)
        return state


def dealing_text(dealing: Dealing, player: int | None) -> str:
    """A state while dealing: how far the deal is, with every hand (``player`` None) or one."""
    n = dealing.rules.spec.players
    kind, _ = dealing.next()
    lines = [f"Dealing ({dealing.rules.name}): {dealing.dealt} of {n * dealing.rules.spec.hand_size} cards "
             f"dealt, next a {kind}"]
    if dealing.dealer is not None:
        lines.append(f"Dealer: {player_name(dealing.dealer)}")
    for p in range(n):
        if player is None or p == player:
            lines.append(f"{player_name(p)} : {' '.join(names_of(dealing.hands[p])) or '-'}")
    return "\n".join(lines)


class JassObserver:
    """OpenSpiel's PyObserver of one seat (module docstring): ``tensor`` and its named parts
    ``dict`` ("observation"; with perfect recall also "movers", "actions", "hands" of shape
    (max_game_length, ...))."""

    def __init__(self, facts: Facts, iig_obs_type: pyspiel.IIGObservationType,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the Jass observers take no parameters; got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("the Jass games observe from one seat: its private information and the public "
                             "(IIGObservationType with private_info=SINGLE_PLAYER, public_info=True)")
        self.facts = facts
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        spec = facts.rules.spec
        pieces = [("observation", (facts.obs_dim,))]
        if self.perfect_recall:
            m = facts.max_moves
            pieces += [("movers", (m, spec.players)), ("actions", (m, spec.n_actions + 1)),
                       ("hands", (m, N_CARDS))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + n].reshape(shape)
            at += n
        self._observe = compiled_steps(spec.kind).observe
        self._mask = np.zeros(spec.n_actions, dtype=np.int8)

    def set_from(self, state: JassState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        self.tensor.fill(0.0)
        rnd = state.round
        if rnd is not None:
            self._observe(rnd.state, player, rnd.rules.params, False, self.dict["observation"], self._mask)
        if not self.perfect_recall:
            return
        n = state._n_moves
        rows = np.arange(n)
        self.dict["movers"][rows, state._movers[:n]] = 1.0
        hidden = state._hidden[:n, player]
        self.dict["actions"][rows, np.where(hidden, self.facts.rules.spec.n_actions, state._moves[:n])] = 1.0
        hands = state._hands[:n, player]
        bits = (hands[:, None] >> np.arange(N_CARDS)[None, :]) & 1
        self.dict["hands"][:n] = bits

    def string_from(self, state: JassState, player: int) -> str:
        """``player``'s view as text: the table from his seat; with perfect recall also the moves
        (hidden ones as such) and each card that came into his hand."""
        rnd = state.round
        if rnd is None:
            return dealing_text(state._dealing, player)
        text = render_table(rnd.state, rnd.rules, show_hands=player)
        if not self.perfect_recall:
            return text
        names = rnd.spec.action_names
        dealt = int(rnd.view.dealt[player])
        lines = [text, f"Dealt: {' '.join(names_of(dealt))}", "Moves:"]
        before = dealt
        for k in range(state._n_moves):
            hand = int(state._hands[k, player])
            if hand & ~before:
                lines.append(f"  {player_name(player)} gets {' '.join(names_of(hand & ~before))}")
            before = hand
            shown = "(hidden)" if state._hidden[k, player] else names[int(state._moves[k])]
            lines.append(f"  {player_name(int(state._movers[k]))}: {shown}")
        return "\n".join(lines)


__all__ = ["GAME_NAME", "JassGame", "JassState", "JassObserver", "Facts", "game_name", "game_type",
           "preset_type", "preset_game_class", "utility_sum", "PARAMETRIZED_TYPE", "dealing_text"]
