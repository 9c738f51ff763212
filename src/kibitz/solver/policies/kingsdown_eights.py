"""Kingsdown Eights."""

from __future__ import annotations

from kibitz.rules import Game
from kibitz.solver.policies.common import CanonicalPolicy, always, when_stock_empty


class KingsdownEightsPolicy(CanonicalPolicy):
    """Columns are never dealt to, so always interchangeable; the reserve fans once the
    stock is empty; the two foundations of a suit both build up, so their order is dropped."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=always, reserve=when_stock_empty)
