"""OpenSpiel games of the Jass family: every preset as a ``pyspiel`` game (the ``openspiel`` extra).

>>> import pyspiel
>>> import agents.openspiel                       # registers the games
>>> game = pyspiel.load_game("python_jass_differenzler")
>>> game = pyspiel.load_game("python_jass", {"rules": "sidi"})   # the same, parametrized

Games
    ``python_jass_<preset>`` for every preset of :data:`jass_env.games.PRESETS` (``python_jass_schieber``,
    ``python_jass_molotow5``, ...), and ``python_jass`` with the parameter ``rules=<preset>``
    (default ``schieber``). An episode is one round: the deal, the bidding (if the game has one)
    and every trick; a match of several rounds is not offered.
Chance
    The deal is a sequence of chance nodes, each uniform over what can come
    (:mod:`agents.openspiel.deal`): the dealer (when the rules draw one), the cards one at a time
    (a card id 0..35 to player ``k % n``), then the game's own draws (Differenzler's trump card,
    Sidi's stock order). :func:`~agents.openspiel.deal.deal_of` and
    :func:`~agents.openspiel.deal.outcomes_of` give the chance outcomes of any dealt round, e.g. a
    seeded AEC environment's, so its game replays here.
Actions
    The engine's actions: 0..35 play that card, then the game's phase actions (contracts and
    push, predictions, declarations, the exchange); ``num_distinct_actions`` is the game's number
    of actions, legal as the engine says.
Observations
    The observation tensor is exactly the project's observation of the seat (what the AEC
    environment and a ``train.py`` policy see); the information-state tensor adds every move
    (mover, action unless hidden from the seat, the seat's hand before it). Strings are the
    project's text table from the seat. See :mod:`agents.openspiel.game`.
Utility
    Terminal only: each player's side's round score in the game's units, negated where a lower
    score is better; bounds from the game's ``SCORE_RANGE``. ``CONSTANT_SUM`` where the sides'
    scores always add up to the same total (the game's ``SCORE_SUM``: Schieber's ``tournament``
    preset: the teams share 157 points, 314 over the four players), else ``GENERAL_SUM``.
Resampling
    ``state.resample_from_infostate(player, sampler)``: :mod:`agents.openspiel.resample`, exactly
    uniform among the deals (and hidden moves) the player cannot tell apart.
Small variants and bots
    :mod:`agents.openspiel.small` (2-3 cards a player, for CFR and other tabular methods);
    :mod:`agents.openspiel.bots` (any agent spec as a ``pyspiel.Bot``; OpenSpiel's IS-MCTS as the
    agent spec ``ismcts``).
"""

from __future__ import annotations

import pyspiel

from jass_env.games import PRESETS

from .game import GAME_NAME, PARAMETRIZED_TYPE, JassGame, JassState, game_name, preset_game_class, preset_type


def register_games() -> list[str]:
    """Register ``python_jass`` and every preset's ``python_jass_<preset>`` with OpenSpiel (the
    ones not registered yet); the names of all of them."""
    known = set(pyspiel.registered_names())
    if GAME_NAME not in known:
        pyspiel.register_game(PARAMETRIZED_TYPE, JassGame)
    names = [GAME_NAME]
    for preset in PRESETS:
        name = game_name(preset)
        if name not in known:
            pyspiel.register_game(preset_type(preset), preset_game_class(preset))
        names.append(name)
    return names


GAME_NAMES = register_games()

__all__ = ["register_games", "GAME_NAMES", "JassGame", "JassState", "game_name"]
