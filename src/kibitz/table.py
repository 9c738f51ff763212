"""Where a game's piles lie on the table: plain data declared with each game, beside its rules.

The unit is the card slot. A column is a card's width and the gap beside it; a row is a
card's height, the gap below it and the band above it where the pile's name is written.
A client scales slots to its screen (the browser player, the terminal player); the core
only declares them. Fractions are allowed (a row at 2.15 leaves a little more space
above it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Fan(enum.Enum):
    """Which way a pile's cards are spread, each one a little past the one under it."""

    NONE = "none"
    """Squared: only the top card shows (a stock, a foundation, a cell, a squared column)."""
    DOWN = "down"
    RIGHT = "right"


@dataclass(frozen=True)
class Place:
    """Where one pile lies: its first card's slot, its fan and the room the fan may take."""

    pile: str
    column: float
    row: float
    fan: Fan = Fan.NONE
    room: float = 1.0
    """The pile's length along its fan, in slots, its first card's slot included (1: no fan).
    A pile whose room reaches the table's bottom (or right) edge may grow past it: below
    it there is nothing to cover."""
    builds_to: int = 0
    """The longest building can make the pile, which a client keeps room for from a round's
    start (0: nothing is built on it; what the stock deals it is foreseen from the rules:
    :mod:`kibitz.foresight`)."""

    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in slots, the fan's room included."""
        width = self.room if self.fan is Fan.RIGHT else 1.0
        height = self.room if self.fan is Fan.DOWN else 1.0
        return self.column, self.row, self.column + width, self.row + height


@dataclass(frozen=True)
class Table:
    """A game's table: its size in slots and the place of every pile, in drawing order."""

    columns: float
    rows: float
    places: tuple[Place, ...]

    def __post_init__(self) -> None:
        names = [place.pile for place in self.places]
        if len(set(names)) != len(names):
            raise ValueError(f"a pile placed twice: {sorted(n for n in names if names.count(n) > 1)}")
        for place in self.places:
            left, top, right, bottom = place.box()
            if place.room < 1 or (place.fan is Fan.NONE and place.room != 1):
                raise ValueError(f"{place.pile}: room {place.room} for fan {place.fan.value}")
            if place.builds_to < 0 or (place.fan is Fan.NONE and place.builds_to):
                raise ValueError(f"{place.pile}: builds to {place.builds_to} cards with fan {place.fan.value}")
            if left < 0 or top < 0 or right > self.columns + 1e-9 or bottom > self.rows + 1e-9:
                raise ValueError(f"{place.pile}: off the table of {self.columns} x {self.rows} slots")

    def place(self, pile: str) -> Place:
        """The place of pile ``pile``; raises :class:`KeyError` if the table has none."""
        for place in self.places:
            if place.pile == pile:
                return place
        raise KeyError(pile)

    def pile_names(self) -> list[str]:
        """The piles in drawing order."""
        return [place.pile for place in self.places]


def side_by_side(prefix: str, first: int, last: int, *, column: float, row: float, spacing: float = 1.0,
                 fan: Fan = Fan.NONE, room: float = 1.0, builds_to: int = 0) -> tuple[Place, ...]:
    """Piles ``prefix``\\ ``first`` .. ``prefix``\\ ``last`` in a row from ``column``, ``spacing`` columns apart."""
    return tuple(Place(f"{prefix}{n}", column + k * spacing, row, fan, room, builds_to)
                 for k, n in enumerate(range(first, last + 1)))


def one_below_another(prefix: str, first: int, last: int, *, column: float, row: float,
                      spacing: float = 1.0) -> tuple[Place, ...]:
    """Squared piles ``prefix``\\ ``first`` .. ``prefix``\\ ``last`` in a column from ``row``, ``spacing`` rows apart."""
    return tuple(Place(f"{prefix}{n}", column, row + k * spacing) for k, n in enumerate(range(first, last + 1)))
