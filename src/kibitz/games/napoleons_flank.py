"""Napoleon's Flank (La Nivernaise): Tournament with squared columns."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.games import tournament
from kibitz.piles import UP_AND_DOWN, Spread, layout
from kibitz.rules import GameInfo
from kibitz.table import Place, Table, one_below_another, side_by_side

INFO = GameInfo(
    slug="napoleons-flank", name="Napoleon's Flank", aliases=("La Nivernaise", "Nivernaise"),
    packs=2, redeals=2, pysolfc_id=304, family=Family.TOURNAMENT,
    description="Tournament with squared columns: only each column's top card is seen.")

LAYOUT = layout(foundations=UP_AND_DOWN, tableau=6, reserve=8, reserve_cells=True,
                tableau_spread=Spread.SQUARED)
TABLE = Table(columns=8, rows=4, places=(
    *one_below_another("r", 1, 4, column=0, row=0),
    *one_below_another("r", 5, 8, column=7, row=0),
    Place("s", 1, 0),
    *side_by_side("f", 1, 4, column=2, row=0),
    *side_by_side("f", 5, 8, column=2, row=1),
    *side_by_side("t", 1, 6, column=1, row=2.15),
))
"""Tournament's table with the columns squared."""

STANDARD = tournament.STANDARD.but(layout=LAYOUT, table=TABLE)
PYSOLFC = tournament.PYSOLFC.but(layout=LAYOUT, table=TABLE)
