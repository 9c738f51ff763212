"""Pile kinds and the declaration of a game's piles.

Pile names follow the rules: ``s`` stock, ``w`` waste, ``f1..f8`` foundations,
``t1..t8`` tableau piles, ``r1..r8`` reserve piles or cells.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class PileKind(enum.Enum):
    """What a pile is for; its letter starts the pile's name."""

    STOCK = "s"
    WASTE = "w"
    FOUNDATION = "f"
    TABLEAU = "t"
    RESERVE = "r"


class Spread(enum.Enum):
    """How a pile lies on the table, which decides what a player sees of it."""

    FANNED = "fanned"
    """Every card visible (unless face down)."""
    SQUARED = "squared"
    """Only the top card visible."""


@dataclass(frozen=True)
class Foundation:
    """How a foundation builds: by ``suit``, ``step`` +1 (up) or -1 (down).

    ``first`` is the rank of its first card, or ``None`` when the game chooses a
    base rank during play (Duchess). ``wrap``: ace follows king.
    """

    suit: int
    step: int
    first: int | None
    wrap: bool = False


SPOKEN_KINDS = {PileKind.TABLEAU: "tableau", PileKind.FOUNDATION: "foundation", PileKind.RESERVE: "reserve"}
"""The word before a numbered pile's number, as a player says it."""


@dataclass(frozen=True)
class PileSpec:
    """One pile of a layout: its name, kind, spread and (for foundations) how it builds."""

    name: str
    kind: PileKind
    spread: Spread = Spread.FANNED
    foundation: Foundation | None = None
    cell: bool = False
    """A reserve cell that holds at most one card."""

    @property
    def spoken(self) -> str:
        """The pile as a player says it, not in notation: ``tableau 4``, ``foundation 1``,
        ``reserve 2``, ``cell 3``, ``the stock``, ``the waste``."""
        if self.kind is PileKind.STOCK:
            return "the stock"
        if self.kind is PileKind.WASTE:
            return "the waste"
        word = "cell" if self.cell else SPOKEN_KINDS[self.kind]
        return f"{word} {self.name[1:]}"


# Foundation layouts shared by the games.
UP_AND_DOWN = tuple(Foundation(suit, +1, 0) for suit in range(4)) + tuple(
    Foundation(suit, -1, 12) for suit in range(4))
"""``f1..f4`` up from the ace, ``f5..f8`` down from the king, suits C S H D."""
TWICE_UP = tuple(Foundation(suit, +1, 0) for suit in range(4)) * 2
"""``f1..f8`` all up from the ace, two per suit (Kingsdown Eights)."""
FROM_BASE = tuple(Foundation(suit, +1, None, wrap=True) for suit in range(4))
"""``f1..f4`` up from the game's base rank, ace following king (Duchess)."""


def layout(*, foundations: tuple[Foundation, ...], tableau: int, reserve: int,
           waste: bool = False, tableau_spread: Spread = Spread.FANNED,
           reserve_cells: bool = False) -> tuple[PileSpec, ...]:
    """The piles of a game in state order: stock, waste, foundations, tableau, reserve."""
    piles = [PileSpec("s", PileKind.STOCK, Spread.SQUARED)]
    if waste:
        piles.append(PileSpec("w", PileKind.WASTE, Spread.SQUARED))
    piles += [PileSpec(f"f{i + 1}", PileKind.FOUNDATION, Spread.SQUARED, f)
              for i, f in enumerate(foundations)]
    piles += [PileSpec(f"t{i + 1}", PileKind.TABLEAU, tableau_spread) for i in range(tableau)]
    piles += [PileSpec(f"r{i + 1}", PileKind.RESERVE, Spread.FANNED, cell=reserve_cells)
              for i in range(reserve)]
    return tuple(piles)
