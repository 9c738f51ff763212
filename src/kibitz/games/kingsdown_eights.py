"""Kingsdown Eights: two packs, eight squared columns, eight reserve fans fed by the stock."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.counterparts import Deal, counterpart
from kibitz.deals import shuffle
from kibitz.piles import TWICE_UP, PileKind, Spread, layout
from kibitz.facts import Facts
from kibitz.reach import Reach
from kibitz.rules import (DOWN_ALTERNATE, Game, GameInfo, Rules, builds_on, deal_cards, deal_while_stock_lasts,
                          empty_piles_take_any, foundations_take_next, stock_bytes, stock_has_cards, top_cards)
from kibitz.state import State
from kibitz.table import Fan, Place, Table, side_by_side

INFO = GameInfo(
    slug="kingsdown-eights", name="Kingsdown Eights", aliases=(),
    packs=2, redeals=0, pysolfc_id=386, family=Family.KINGSDOWN_EIGHTS,
    description="Two packs; eight up foundations, columns built down in alternate colours, "
                "reserve fans fed four at a time.")

LAYOUT = layout(foundations=TWICE_UP, tableau=8, reserve=8, tableau_spread=Spread.SQUARED)
TABLE = Table(columns=9, rows=5.15, places=(
    Place("s", 0, 0),
    *side_by_side("f", 1, 8, column=1, row=0),
    *side_by_side("t", 1, 8, column=1, row=1),
    *side_by_side("r", 1, 8, column=1, row=2.15, fan=Fan.DOWN, room=3),
))
"""The stock and the foundations, the squared columns, the reserve fans below them."""
TABLEAU, RESERVE, FOUNDATION = PileKind.TABLEAU, PileKind.RESERVE, PileKind.FOUNDATION
PACKET = 4


def deal_reserve(game: Game, piles: list[bytes]) -> None:
    """Four cards onto each reserve fan in turn, as far as the stock goes."""
    for i in game.reserve:
        dealt, piles[game.stock] = deal_cards(piles[game.stock], PACKET)
        piles[i] += dealt


counterpart(deal_reserve, Deal((RESERVE,), packet=PACKET))


def opening(game: Game, number: int) -> State:
    """One card to each column, then four to each reserve fan."""
    piles = [b""] * len(game.piles)
    piles[game.stock] = stock_bytes(shuffle(number, game.info.packs)[0])
    for i in game.tableau:
        piles[i], piles[game.stock] = deal_cards(piles[game.stock], 1)
    deal_reserve(game, piles)
    return State(game, tuple(piles))


REACH = Reach(sources=(PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE),
              targets=(PileKind.FOUNDATION, PileKind.TABLEAU))
"""Every top card may go to a foundation or a column."""


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening,
    sources=(top_cards(TABLEAU, RESERVE, FOUNDATION),),
    targets=(foundations_take_next, builds_on(TABLEAU, DOWN_ALTERNATE),
             empty_piles_take_any(TABLEAU)),
    deal=deal_while_stock_lasts(deal_reserve),
    table=TABLE,
    reach=REACH,
    facts=Facts(foundations_final=False, foundation_transfers=True),
    can_deal=stock_has_cards,
)
PYSOLFC = STANDARD
