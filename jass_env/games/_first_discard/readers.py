"""The readers of a round of trump by the first discard (Mittlere, Molotow): the trump, where the
discard fixed it, and the hand's result.

Made by :class:`jass_env.round.Round` for such a round; read as the round's own attributes
(``round.trump``, ``round.trump_fixed``, ``round.result``).
"""

from __future__ import annotations

from typing import Any

from jass_env.engine.cards import CONTRACTS, SUITS, card_name

from . import rules as first_discard


class FirstDiscardReaders:
    """The first-discard part of a :class:`jass_env.round.Round` (``round`` is that round)."""

    #: trump is fixed by the first card that does not follow suit
    discards_fix_trump = True

    def __init__(self, round: Any) -> None:  # noqa: A002 (the round it reads)
        self.round = round

    @property
    def trump(self) -> str | None:
        """The trump suit (D H S C), None while none is fixed."""
        v = self.round.view
        if v.declarer < 0:
            return None
        c = v.contract
        return CONTRACTS[c] if 0 <= c < len(SUITS) else None

    @property
    def trump_fixed(self) -> dict[str, int] | None:
        """Where trump was fixed by a discard: {"player", "card", "trick", "position"} with the
        trick counted from 1 and the position from 0 (the leader), as in records; None before."""
        r = self.round
        if r.view.declarer < 0:
            return None
        trick, position = first_discard.fix_position(r.state, r.rp)
        return {"player": r.view.declarer, "card": card_name(r.view.trump_card), "trick": int(trick) + 1,
                "position": int(position)}

    @property
    def result(self) -> list[int] | None:
        """Each player's score of the finished hand (Mittlere: Striche − Nullen; Molotow: points +
        table Weis − hand Weis − Stöck); None while the hand goes on."""
        return self.round.score if self.round.is_over else None
