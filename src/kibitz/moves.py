"""Moves: small values with one canonical text form.

The forms are those of the PySolFC transcripts: ``deal`` (a click on the stock),
``t3>f5`` (top card), ``t2>t4/3`` (the top three cards as a unit) and
``r1#2>f3`` (the card at index 2 from the bottom, when it is not the top card).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kibitz.errors import InvalidMoveError

PILE_NAME = r"(?:s|w|[ftr][1-8])"
_MOVE = re.compile(rf"({PILE_NAME})(?:#(\d+))?>({PILE_NAME})(?:/(\d+))?")


class Move(NamedTuple):
    """A move: the top ``size`` cards of ``source`` (or the single card at
    ``position``, counted from the bottom from 0) onto ``target``.
    :data:`DEAL` is the stock click."""

    source: str
    target: str
    size: int = 1
    position: int | None = None

    @property
    def is_deal(self) -> bool:
        """True for the stock click (deal or redeal)."""
        return self.target == ""

    def __str__(self) -> str:
        return format_move(self)

    def __repr__(self) -> str:
        return f"Move.parse({format_move(self)!r})"

    @staticmethod
    def parse(text: str) -> Move:
        """Parse the canonical text form; see :func:`parse_move`."""
        return parse_move(text)


DEAL = Move("s", "", 0)
"""Click on the stock: deal, or redeal when the stock is empty."""


def format_move(move: Move) -> str:
    """The canonical text of a move."""
    if move.target == "":
        return "deal"
    if move.position is not None:
        return f"{move.source}#{move.position}>{move.target}"
    if move.size != 1:
        return f"{move.source}>{move.target}/{move.size}"
    return f"{move.source}>{move.target}"


def parse_move(text: str) -> Move:
    """Parse ``deal``, ``t3>f5``, ``t2>t4/3`` or ``r1#2>f3``; raise :class:`InvalidMoveError`."""
    stripped = text.strip()
    if stripped == "deal":
        return DEAL
    match = _MOVE.fullmatch(stripped)
    if match is None:
        raise InvalidMoveError(
            f"move {text!r}: not a move; write 'deal', 't3>f5', 't2>t4/3' or 'r1#2>f3' "
            "(piles s, w, f1-f8, t1-t8, r1-r8)")
    source, index, target, count = match.groups()
    if source == target:
        raise InvalidMoveError(f"move {text!r}: source and target are the same pile")
    if index is not None and count is not None:
        raise InvalidMoveError(f"move {text!r}: a move takes either one card by index (#K) or N cards (/N), not both")
    if count is not None:
        if len(count) > 3:  # before int(): a count of thousands of digits is refused, not converted
            raise InvalidMoveError(f"move {text!r}: card count {count} is out of range")
        n = int(count)
        if n < 1:
            raise InvalidMoveError(f"move {text!r}: the card count must be 1 or more")
        return Move(source, target, n)
    if index is not None:
        if len(index) > 3:
            raise InvalidMoveError(f"move {text!r}: index {index} is out of range")
        return Move(source, target, 1, int(index))
    return Move(source, target)
