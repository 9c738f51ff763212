"""Tournament and Napoleon's Flank."""

from __future__ import annotations

from kibitz.rules import Game
from kibitz.solver.policies.common import CanonicalPolicy, always, when_no_deal_remains


class TournamentPolicy(CanonicalPolicy):
    """Cells are interchangeable; columns only once nothing will be dealt or refilled."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=when_no_deal_remains, reserve=always)
