"""Mittlere's lines of the text table (:mod:`jass_env.games._first_discard.render`)."""

from __future__ import annotations

from typing import Any

from .._first_discard.render import discard_lines
from .._text import ShowHands


def lines(round: Any, show_hands: ShowHands) -> list[str]:  # noqa: A002 (the round shown)
    return discard_lines(round, show_hands, molotow=False)
