"""The evaluation protocols: which one a game uses, which statistic it reports, and what every
protocol provides.

A game is evaluated by one of three protocols (docs/bots.md):

* ``duplicate`` (:mod:`agents.evaluation.duplicate`): team games (Schieber, Schieber for six);
  every deal played twice with the teams' seats swapped.
* ``rotation`` (:mod:`agents.evaluation.rotation`): games played alone (Differenzler, Mittlere,
  Molotow, Sidi); every deal played once per seat rotation.
* ``whole_game`` (:mod:`agents.evaluation.whole_games`): games whose unit is the whole game
  (Coiffeur); every deal sequence played twice with the teams' seats swapped.

:func:`protocol_for` and :func:`statistic_for` read, for a game, its protocol and its headline
statistic from the game's facts (``PROTOCOL`` and ``STATISTIC``, :mod:`jass_env.games.base`).
Nothing else decides them. :class:`Protocol` is what each protocol module provides
(its ``PROTOCOL``); the command line (:mod:`agents.evaluation.cli`) uses nothing else.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jass_env.engine.switches import Rules
from jass_env.games import REGISTRY, game_of, make_rules
from jass_env.games.base import PROTOCOLS, Statistic

DUPLICATE, ROTATION, WHOLE_GAME = PROTOCOLS
#: what each protocol plays, for a table's caption ("on 1,000 <this>")
PLAYS = {DUPLICATE: "duplicate deals",
         ROTATION: "deals, each played in every seat rotation",
         WHOLE_GAME: "whole games (duplicate deal sequences: each played twice, the teams swapped)"}
#: the headline statistic of every registered game
STATISTICS: tuple[Statistic, ...] = tuple(dict.fromkeys(game.statistic for game in REGISTRY.values()))


def protocol_for(rules: str | Rules | None) -> str:
    """The protocol (one of :data:`PROTOCOLS`) the game of ``rules`` is evaluated by: its
    ``PROTOCOL`` fact."""
    return game_of(make_rules(rules)).protocol


def statistic_for(rules: str | Rules | None) -> Statistic:
    """The headline statistic of the game of ``rules``: its ``STATISTIC`` fact."""
    return game_of(make_rules(rules)).statistic


class Evaluation(typing.Protocol):
    """What an evaluation of agent A against agent B returns: their labels and the JSON-ready
    summary (the protocol's own results besides)."""

    agent_a: str
    agent_b: str
    summary: dict[str, Any]


class Evaluate(typing.Protocol):
    """Play the deal set and summarize: A against B (agent specs, zero-argument factories or
    agents) on ``deals`` deals (whole games: deal sequences) of the set ``seed``, plus ``matches``
    matches or games, on ``workers`` processes, with a progress bar when ``progress``."""

    def __call__(self, agent_a: Any, agent_b: Any, rules: Rules, deals: int, seed: int, matches: int,
                 workers: int, progress: bool) -> Evaluation: ...


@dataclass(frozen=True)
class Protocol:
    """What every evaluation protocol provides: how to play it, report it and which options of
    the command line it takes."""

    name: str                                          #: one of PROTOCOLS
    files: tuple[str, ...]                             #: what write_outputs writes, summary.json first
    evaluate: Evaluate
    summary_markdown: Callable[[dict[str, Any]], str]  #: the summary as Markdown
    summary_line: Callable[[dict[str, Any]], str]      #: the summary as one line for the terminal
    write_outputs: Callable[[Path, Any], None]         #: every file of ``files`` into a folder
    takes_matches: bool                                #: whether --matches means something
    takes_workers: bool                                #: whether --workers > 1 is possible
    takes_round_robin: bool                            #: whether --round-robin is possible
    refusal: str = ""                                  #: why not, with ``{game}`` for the game

    def refuses(self, rules: Rules, round_robin: bool, workers: int, matches: int | None) -> str | None:
        """Why the command line's options cannot be used with this protocol, or None."""
        if ((round_robin and not self.takes_round_robin) or (workers != 1 and not self.takes_workers)
                or (matches is not None and not self.takes_matches)):
            return self.refusal.format(game=rules.game)
        return None


__all__ = ["DUPLICATE", "ROTATION", "WHOLE_GAME", "PROTOCOLS", "PLAYS", "STATISTICS", "protocol_for",
           "statistic_for",
           "Evaluation", "Evaluate", "Protocol"]
