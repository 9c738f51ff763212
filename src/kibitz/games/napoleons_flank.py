"""Napoleon's Flank (La Nivernaise): Tournament with squared columns."""

from __future__ import annotations

from kibitz.games import tournament
from kibitz.piles import UP_AND_DOWN, Spread, layout
from kibitz.rules import GameInfo

INFO = GameInfo(
    slug="napoleons-flank", name="Napoleon's Flank", aliases=("La Nivernaise", "Nivernaise"),
    packs=2, redeals=2, pysolfc_id=304,
    description="Tournament with squared columns: only each column's top card is seen.")

LAYOUT = layout(foundations=UP_AND_DOWN, tableau=6, reserve=8, reserve_cells=True,
                tableau_spread=Spread.SQUARED)

STANDARD = tournament.STANDARD.but(layout=LAYOUT)
PYSOLFC = tournament.PYSOLFC.but(layout=LAYOUT)
