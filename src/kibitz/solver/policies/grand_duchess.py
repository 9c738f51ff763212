"""Grand Duchess and Parisienne."""

from __future__ import annotations

from kibitz.rules import Game
from kibitz.solver.policies.common import CanonicalPolicy, never, when_no_deal_remains


class GrandDuchessPolicy(CanonicalPolicy):
    """Tableau piles are interchangeable only once nothing will be dealt again; the two
    reserve piles never are (they are dealt and gathered in a fixed order)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=when_no_deal_remains, reserve=never)
