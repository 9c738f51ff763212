"""The families of games: games whose rules share one shape (declared with each game, in its
:class:`~kibitz.rules.GameInfo`). Plain data that names no rule, so that any part of kibitz
may read it: the solver keeps one search policy per family, the agents a node budget."""

from __future__ import annotations

from enum import Enum


class Family(Enum):
    """Games whose rules share one shape, which an algorithm may rely on (the solver has one
    search policy per family). Each is named after the game that founded it."""

    GRAND_DUCHESS = "grand-duchess"
    """Dealt in rounds of six onto a tableau and a face-down reserve, redealt by gathering."""
    DUCHESS = "duchess"
    """Reserve fans and a base rank chosen by the first reserve card played."""
    TOURNAMENT = "tournament"
    """Cells and columns of four refilled from the stock, redealt by gathering the columns."""
    CICELY = "cicely"
    """Cells and columns built in suit, the stock dealt in passes over the columns."""
    KINGSDOWN_EIGHTS = "kingsdown-eights"
    """Columns built down in alternating colours and reserve fans fed from the stock."""
