"""Grand Duchess (Duchess of Luynes): two packs, four rounds, a face-down reserve."""

from __future__ import annotations

from typing import Callable

from kibitz.families import Family
from kibitz.cards import FACE_DOWN
from kibitz.counterparts import (Deal, DealsByRound, EveryCardOfFaceUpPiles, Gather, Redeal, RedealNeeds, StockClick,
                                 counterpart)
from kibitz.deals import shuffle
from kibitz.piles import UP_AND_DOWN, PileKind, layout
from kibitz.facts import Facts
from kibitz.reach import Reach
from kibitz.rules import (FACE_UP, DealRule, Game, GameInfo, Rules, Unit,
                          deal_cards, foundations_take_next, gather_face_down,
                          stock_bytes, top_cards)
from kibitz.reasons import Attempt, no_redeal_left, reason_for
from kibitz.state import State
from kibitz.table import Fan, Place, Table, side_by_side

INFO = GameInfo(
    slug="grand-duchess", name="Grand Duchess",
    aliases=("Duchess of Luynes", "La Duchesse de Luynes", "One to Six"),
    packs=2, redeals=3, pysolfc_id=557, family=Family.GRAND_DUCHESS,
    description="Two packs; deal six at a time, play to up and down foundations, three redeals.")

LAYOUT = layout(foundations=UP_AND_DOWN, tableau=4, reserve=2)
TABLE = Table(columns=6.5, rows=5.15, places=(
    Place("s", 0, 0),
    *side_by_side("f", 1, 4, column=1.25, row=0),
    *side_by_side("f", 5, 8, column=1.25, row=1),
    Place("r1", 0, 1.15, Fan.DOWN, room=4),
    *side_by_side("t", 1, 4, column=1.25, row=2.15, fan=Fan.DOWN, room=3),
    Place("r2", 5.5, 1.15, Fan.DOWN, room=4),
))
"""The stock top left, the foundations up then down, a reserve on either side of the tableau."""


def deal_round(game: Game, piles: list[bytes], round: int) -> None:
    """One deal: six cards r1, t1..t4, r2 (reserve face down) in rounds 1-3, four in round 4.

    When the deal empties the stock in rounds 1-3 the reserve turns face up.
    """
    with_reserve = round <= game.info.redeals
    order = ((game.reserve[0],) + game.tableau + (game.reserve[1],)) if with_reserve else game.tableau
    dealt, piles[game.stock] = deal_cards(piles[game.stock], len(order))
    for pile, c in zip(order, dealt):
        piles[pile] += bytes((c | FACE_DOWN if game.kinds[pile] is PileKind.RESERVE else c,))
    if with_reserve and not piles[game.stock]:
        for pile in game.reserve:
            piles[pile] = piles[pile].translate(FACE_UP)


counterpart(deal_round, DealsByRound((
    Deal(("r1", PileKind.TABLEAU, "r2"), face_down=(PileKind.RESERVE,),
         face_up_when_stock_empties=(PileKind.RESERVE,)),
    Deal((PileKind.TABLEAU,), from_round=INFO.redeals + 1),
)))


def opening_from(game: Game, pack: list[int]) -> State:
    """The opening: the first deal of six from ``pack`` (creation indices, last on top)."""
    piles = [b""] * len(game.piles)
    piles[game.stock] = stock_bytes(pack)
    deal_round(game, piles, 1)
    return State(game, tuple(piles))


def opening(game: Game, number: int) -> State:
    return opening_from(game, shuffle(number, game.info.packs)[0])


def reserve_cards(game: Game, state: State, units: list[Unit]) -> None:
    """Once the reserve is face up, any of its cards may go to a foundation."""
    for i in game.reserve:
        pile = state.piles[i]
        if pile and not pile[-1] & FACE_DOWN:
            top = len(pile) - 1
            for k, c in enumerate(pile):
                units.append((i, 1, k if k < top else -1, c))


counterpart(reserve_cards, EveryCardOfFaceUpPiles((PileKind.RESERVE,)))


@reason_for(reserve_cards)
def reserve_face_down(attempt: Attempt) -> str | None:
    """The reserve plays only once it is face up, and one card at a time."""
    if attempt.game.kinds[attempt.source] is not PileKind.RESERVE:
        return None
    if attempt.pile[attempt.position] & FACE_DOWN:
        return "That card is face down: the reserve turns face up when a deal empties the stock."
    return "Reserve cards go to the foundations one at a time." if attempt.size > 1 else None


def redeal_order_standard(game: Game, piles: list[bytes]) -> list[bytes]:
    """Piles in gathering order: the tableau t4 dealt first, then r1 and r2 under it."""
    r1, r2 = (piles[i] for i in game.reserve)
    return [r2, r1] + [piles[i] for i in game.tableau]


counterpart(redeal_order_standard, Gather(("r2", "r1", PileKind.TABLEAU)))


def redeal_order_pysolfc(game: Game, piles: list[bytes]) -> list[bytes]:
    """PySolFC gathers the reserve on top of the stock: r2, then r1, then t4 .. t1 dealt."""
    r1, r2 = (piles[i] for i in game.reserve)
    return [piles[i] for i in game.tableau] + [r1, r2]


counterpart(redeal_order_pysolfc, Gather((PileKind.TABLEAU, "r1", "r2")))


GatherOrder = Callable[[Game, list[bytes]], list[bytes]]


def stock_click(gather: GatherOrder) -> DealRule:
    """The stock click: deal six (or four), or redeal gathering the piles in ``gather`` order."""

    def deal(game: Game, state: State) -> State | None:
        piles = list(state.piles)
        round = state.round
        if not piles[game.stock]:
            if round > game.info.redeals or game.is_won(state):
                return None
            piles[game.stock] = gather_face_down(gather(game, piles))
            for i in game.tableau + game.reserve:
                piles[i] = b""
            round += 1
        deal_round(game, piles, round)
        return State(game, tuple(piles), round, state.base)
    counterpart(deal, StockClick(deal_round, Redeal(gather, RedealNeeds.GAME_NOT_WON, deal_after=True)))

    @reason_for(deal)
    def no_deal(attempt: Attempt) -> str | None:
        if attempt.pile:
            return None
        if attempt.game.is_won(attempt.state):
            return "The game is won: there is nothing left to deal."
        return no_redeal_left(attempt.game)
    return deal


REACH = Reach(sources=(PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE), targets=(PileKind.FOUNDATION,), depth=17)
"""Tableau and reserve cards go to the foundations (pysolfc: also from one foundation to
another). The face-down reserve gets one card per deal of six, so it holds at most
ceil(104 / 6) = 18 cards, the first round's: positions 0 to 16 lie under its top."""


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening,
    sources=(top_cards(PileKind.TABLEAU), reserve_cards),
    targets=(foundations_take_next,),
    deal=stock_click(redeal_order_standard),
    table=TABLE,
    reach=REACH,
    facts=Facts(foundations_final=True, foundation_transfers=False),
)

PYSOLFC = STANDARD.but(
    sources=STANDARD.sources + (top_cards(PileKind.FOUNDATION),),
    deal=stock_click(redeal_order_pysolfc),
    facts=Facts(foundations_final=True, foundation_transfers=True),  # a top card to the other lane of its suit
)
