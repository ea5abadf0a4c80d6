"""Game records (docs/records.md): write the rounds the engine plays, check records written by anyone.

A record is one dealt hand (deal, bidding, every play) as one JSON object, a file of records JSON
Lines (format ``jass-record/1``). The modules:

    format.py    the format; :func:`record_of` (the record of a finished round), :func:`record_line`,
                 :func:`write_records`
    check.py     :func:`check_records`: the structure of each record, then its replay with the
                 engine; every problem one :class:`Finding` of a :class:`CheckReport`
    replay.py    the engine started on a record's deal (writing and checking share it)
    jasskit.py   jass-kit's game logs converted into records
    cli.py       ``python -m jass_env.records check FILE [--rules PRESET]`` and ``convert``

What differs between games (their deal, bidding and end-of-round fields) is each game's
``jass_env.games.<game>.records`` module (:mod:`jass_env.games._records` lists its names).
"""

from .check import CheckReport, Finding, check_records
from .cli import main
from .format import FORMAT, record_line, record_of, write_records

__all__ = ["FORMAT", "record_of", "record_line", "write_records", "check_records", "CheckReport",
           "Finding", "main"]
