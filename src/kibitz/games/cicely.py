"""Cicely: two packs, eight cells, eight columns built up or down by suit, no redeal."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.counterparts import Deal, counterpart
from kibitz.deals import shuffle
from kibitz.piles import UP_AND_DOWN, PileKind, layout
from kibitz.facts import Facts
from kibitz.reach import Reach
from kibitz.rules import (UP_OR_DOWN_IN_SUIT, Game, GameInfo, Rules, builds_on, deal_cards, deal_while_stock_lasts,
                          empty_piles_take_any, foundations_take_next, stock_bytes, stock_has_cards, top_cards)
from kibitz.state import State
from kibitz.table import Fan, Place, Table, side_by_side

INFO = GameInfo(
    slug="cicely", name="Cicely", aliases=(),
    packs=2, redeals=0, pysolfc_id=341, family=Family.CICELY,
    description="Two packs; eight cells and eight columns built up or down by suit; no redeal.")

LAYOUT = layout(foundations=UP_AND_DOWN, tableau=8, reserve=8, reserve_cells=True)
TABLE = Table(columns=9, rows=5.35, places=(
    Place("s", 0, 0),
    *side_by_side("r", 1, 8, column=1, row=0),
    *side_by_side("f", 1, 8, column=1, row=1),
    *side_by_side("t", 1, 8, column=1, row=2.15, fan=Fan.DOWN, room=3.2, builds_to=16),
))
"""The stock, the cells above the foundations, the columns below them."""
TABLEAU, RESERVE, FOUNDATION = PileKind.TABLEAU, PileKind.RESERVE, PileKind.FOUNDATION
PASSES = 4


def deal_passes(game: Game, piles: list[bytes]) -> None:
    """Four round-robin passes of one card to each column, as far as the stock goes."""
    for _ in range(PASSES):
        for i in game.tableau:
            dealt, piles[game.stock] = deal_cards(piles[game.stock], 1)
            piles[i] += dealt


counterpart(deal_passes, Deal((TABLEAU,), passes=PASSES))


def opening(game: Game, number: int) -> State:
    """One card to each cell, then four passes over the columns."""
    piles = [b""] * len(game.piles)
    piles[game.stock] = stock_bytes(shuffle(number, game.info.packs)[0])
    for i in game.reserve:
        piles[i], piles[game.stock] = deal_cards(piles[game.stock], 1)
    deal_passes(game, piles)
    return State(game, tuple(piles))


REACH = Reach(sources=(PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE),
              targets=(PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE))
"""Every top card may go to a foundation, a column or an empty cell."""


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening,
    sources=(top_cards(TABLEAU, RESERVE, FOUNDATION),),
    targets=(foundations_take_next, builds_on(TABLEAU, UP_OR_DOWN_IN_SUIT),
             empty_piles_take_any(TABLEAU), empty_piles_take_any(RESERVE)),
    deal=deal_while_stock_lasts(deal_passes),
    table=TABLE,
    reach=REACH,
    facts=Facts(foundations_final=False, foundation_transfers=True),
    can_deal=stock_has_cards,
)
PYSOLFC = STANDARD
