"""The rule-based bots, one module per game (named after it): each game's heuristic and its PIMC
(the game's objective and worlds on the generic driver of :mod:`agents.search.pimc`). A game names
its bot classes in its ``BOTS`` fact (:mod:`jass_env.games.base`); :mod:`agents.registry` builds
them from there.
"""
