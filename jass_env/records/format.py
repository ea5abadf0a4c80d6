"""Writing game records (docs/records.md): the record of a finished round, JSON Lines files.

A record is one dealt hand (deal, bidding, every play) as one JSON object; a file of records is
JSON Lines (one object a line, UTF-8). Cards are written ``"H9"``, ``"C10"``, players are 0..n-1
in play order, contracts are ``D H S C obenabe undenufe``. The ``rules`` preset decides the game
and so how the rest is read. Fields::

    format        "jass-record/1" (optional; any other value is refused)
    rules         preset name (optional, default "schieber"); rule_overrides: switches on top
    id            any JSON value naming the record in messages (optional)
    dealer, forehand, hands[n][hand size]                           (required)
    the game's deal and bidding fields                              (each game's records module)
    tricks        one per trick: {"leader": p, "plays": [[player, card, legal?] x n],
                  "winner"?, "points"?}
    the game's end-of-round fields                                  (optional)

Every number in a record but its ``id`` is an integer within ±:data:`MAX_NUMBER`.

Each game's own fields are written and read by its ``jass_env.games.<game>.records`` module
(the names it declares: :mod:`jass_env.games._records`); docs/records.md lists them all.

:func:`record_of` writes the record of a finished :class:`~jass_env.round.Round`, every optional
field included (``legal`` is the engine's legal card list before each play, found by replaying the
round from its dealt hands). :func:`write_records` writes or appends JSON Lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
from collections.abc import Iterable
from typing import Any

from jass_env.engine.cards import names_of
from jass_env.games import PRESETS, game_of, overrides
from jass_env.round import Round

from .replay import legal_cards, start_replay

FORMAT = "jass-record/1"
#: the preset of a record without a ``rules`` field
DEFAULT_PRESET = "schieber"
#: the largest magnitude of a number in a record (its ``id`` aside): far above every score, point
#: count or sheet value of every game, and small enough that the engine's 64-bit sums of such
#: numbers never overflow
MAX_NUMBER = 2**31 - 1


def record_of(round: Round, id: Any = None) -> dict[str, Any]:  # noqa: A002 (the format's name)
    """The JSON record (a dict) of a finished round, every optional field included.

    ``id`` (any JSON value) is written when not None. Raises ValueError for a round that has not
    played all its tricks (still in play, or cut short because its match was decided mid-round).
    """
    n_tricks = round.spec.tricks
    if not round.is_over or round.trick_number < n_tricks:
        raise ValueError(f"a record needs a finished round (all {n_tricks} tricks played); this round "
                         f"is in phase {round.phase!r} after {round.trick_number} tricks"
                         + (" (its match was decided during the round)" if round.is_over else ""))
    rules = round.rules
    game_records = game_of(rules).records
    record: dict[str, Any] = {"format": FORMAT,
                              "rules": rules.name if rules.name in PRESETS else DEFAULT_PRESET}
    changed = overrides(rules)
    if changed:
        record["rule_overrides"] = changed
    if id is not None:
        record["id"] = id
    hands = [round.dealt_hand(p) for p in range(round.spec.players)]
    record.update(dealer=round.dealer, forehand=round.forehand, hands=hands)
    record.update(game_records.fields(round))

    # the legal sets: replay the round from its dealt hands, reading the legal cards before each play
    deal = game_records.deal(round)
    replay = start_replay(rules, hands, round.dealer, deal)
    tricks = []
    for t, trick in enumerate(round.tricks, 1):
        if t in deal.before_trick:
            replay.step(deal.before_trick[t].action)
        plays = []
        for player, card in trick["plays"]:
            plays.append([player, card, names_of(legal_cards(replay))])
            replay.step(card)
        tricks.append({"leader": trick["leader"], "plays": plays, "winner": trick["winner"],
                       "points": trick["points"]})
    record["tricks"] = tricks
    record.update(game_records.outcome(round))
    return record


def record_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON (UTF-8 text, no trailing newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]], *,
                  append: bool = False) -> int:
    """Write records to a JSON Lines file (``append=True`` adds to its end); returns the count.

    Without ``append`` a file is replaced whole (:func:`write_text_atomically`): an error half-way
    leaves it as it was. A path that is no regular file (a pipe, ``/dev/stdout``) is written to.
    """
    if append or (os.path.exists(path) and not os.path.isfile(path)):
        n = 0
        with open(path, "a" if append else "w", encoding="utf-8") as f:
            for record in records:
                f.write(record_line(record) + "\n")
                n += 1
        return n
    return write_text_atomically(path, (record_line(record) + "\n" for record in records))


def write_text_atomically(path: str | os.PathLike[str], chunks: Iterable[str]) -> int:
    """Write UTF-8 text to ``path`` so that it holds its old content or all of the new, never a part;
    returns the number of chunks written.

    The chunks go to a new hidden file in the same folder (the folder of the file a symbolic link
    points to, whose target is then replaced), which is synced and renamed over ``path``, taking
    the permissions of the file it replaces. On any error the temporary file is removed and
    ``path`` is left as it was.
    """
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    n = 0
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            for chunk in chunks:
                f.write(chunk)
                n += 1
            f.flush()
            os.fsync(f.fileno())
        if os.path.isfile(target):
            shutil.copymode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return n


__all__ = ["FORMAT", "DEFAULT_PRESET", "MAX_NUMBER", "record_of", "record_line", "write_records",
           "write_text_atomically"]
