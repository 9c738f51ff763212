"""Cicely."""

from __future__ import annotations

from kibitz.rules import Game
from kibitz.solver.policies.common import CanonicalPolicy, always, when_stock_empty


class CicelyPolicy(CanonicalPolicy):
    """Cells are interchangeable; columns once the stock is empty (deals go round-robin)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=when_stock_empty, reserve=always)
