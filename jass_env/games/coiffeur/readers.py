"""Coiffeur's readers of a round: the sheets, the pushes, the declared row and its score.

Made by :class:`jass_env.round.Round` for a Coiffeur round; read as the round's own attributes
(``round.sheets``, ``round.row``, ``round.set_sheets(...)``).
"""

from __future__ import annotations

from typing import Any

from . import rules


class CoiffeurReaders:
    """The Coiffeur part of a :class:`jass_env.round.Round` (``round`` is that round)."""

    def __init__(self, round: Any) -> None:  # noqa: A002 (the round it reads)
        self.round = round

    @property
    def rows(self) -> tuple[str, ...]:
        """The rows of this game's sheet, in sheet order."""
        return rules.SHEET_ROWS[self.round.spec.name]

    def set_sheets(self, sheets: Any) -> None:
        """Start this deal from given sheets (``{"0": {row: value}, "1": {...}}`` or a list of two
        such dicts; rows not named are open), before anyone declared or pushed."""
        r = self.round
        if r.phase != "contract" or r.view.pushed or r.view.declarer >= 0:
            raise ValueError("set_sheets goes before the declaration: nobody may have pushed or declared")
        rules.set_sheets(r.state, sheets, r.rp, self.rows)

    @property
    def sheets(self) -> list[dict[str, int | None]]:
        """Both teams' sheets, {row label: value written, None while open}."""
        return rules.sheets_of(self.round.state, self.rows)

    @property
    def pushes(self) -> list[int]:
        """The players who pushed this deal, in order."""
        return rules.pushes_of(self.round.state, self.round.spec.players)

    @property
    def row(self) -> str | None:
        """The label of the row declared this deal (None before)."""
        row = int(rules.declared_row(self.round.state))
        return None if row < 0 else rules.ROW_LABELS[row]

    @property
    def factor(self) -> int | None:
        """The declared row's factor (None before)."""
        row = self.row
        return None if row is None else self.round.rules.row_factors[self.rows.index(row)]

    @property
    def declared_game(self) -> str | None:
        """What the declared row plays, in the record format's names ("H", "obenabe", "slalom_U",
        ...; a Joker row its chosen contract); None before."""
        return rules.game_name(int(rules.declared_game(self.round.state)))

    @property
    def row_score(self) -> int | None:
        """What the declaring team wrote in its row (None before the deal ends)."""
        r = self.round
        return r.score[r.declarer % 2] if r.is_over and r.declarer >= 0 else None
