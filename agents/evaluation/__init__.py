"""Evaluation of Jass agents with confidence intervals (docs/bots.md), run as
``python -m agents.evaluate A B --deals N --out DIR``.

Modules, each importing only modules listed before it:

    seeds.py        the seeds of deals, matches and the agents' resets
    stats.py        t and Wilson intervals, the sign test, Bradley-Terry / Elo
    progress.py     the progress bar
    protocol.py     protocol_for(rules) and statistic_for(rules), from the game's facts; the one
                    protocol interface (Protocol)
    deals.py        deal sets of team games and of games played alone, and their SHA-256
    lineups.py      a side's agents from a spec, a factory or an instance
    table.py        agents at the table: observation, mask, checked action; EvaluationError
    report.py       writing summary.json, Markdown tables, CSV files and PNG figures
    workers.py      the process pool
    duplicate.py    team games: duplicate deals and matches (a Protocol)
    rotation.py     games played alone: seat rotation (a Protocol)
    whole_games.py  games whose unit is the whole game, Coiffeur (a Protocol)
    round_robin.py  every pair of team-game agents on one deal set, Elo
    timing.py       the cost of each decision: a timing wrapper around an agent
    cli.py          the command line (agents/evaluate.py runs it)
    ladder.py       every pair of agents of any game on one deal set by its protocol (cli.py's
                    IMPLEMENTATIONS), Elo, the cost per decision (agents/ladder.py runs it)
"""
