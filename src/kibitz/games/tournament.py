"""Tournament (Maréchal Saxe): two packs, eight cells, six columns refilled from the stock."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.cards import ACE, KING
from kibitz.counterparts import (Backwards, Clause, Deal, Gather, Permits, Redeal, RedealNeeds, Refill, SourceIs,
                                 StockClick, TargetIs, counterpart)
from kibitz.deals import fisher_yates, shuffle
from kibitz.piles import UP_AND_DOWN, PileKind, layout
from kibitz.facts import Facts
from kibitz.reach import Reach
from kibitz.rules import (Game, GameInfo, Rules, deal_cards, empty_piles_take_any,
                          foundations_take_next, gather_face_down, stock_bytes, top_cards)
from kibitz.reasons import Attempt, no_redeal_left, reason_for
from kibitz.state import State
from kibitz.table import Fan, Place, Table, one_below_another, side_by_side

INFO = GameInfo(
    slug="tournament", name="Tournament", aliases=("Maréchal Saxe", "Marechal Saxe"),
    packs=2, redeals=2, pysolfc_id=303, family=Family.TOURNAMENT,
    description="Two packs; eight cells and six columns of four, refilled as they empty; two redeals.")

LAYOUT = layout(foundations=UP_AND_DOWN, tableau=6, reserve=8, reserve_cells=True)
TABLE = Table(columns=8, rows=5.15, places=(
    *one_below_another("r", 1, 4, column=0, row=0),
    *one_below_another("r", 5, 8, column=7, row=0),
    Place("s", 1, 0),
    *side_by_side("f", 1, 4, column=2, row=0),
    *side_by_side("f", 5, 8, column=2, row=1),
    *side_by_side("t", 1, 6, column=1, row=2.15, fan=Fan.DOWN, room=3),
))
"""Four cells on either side, the foundations up then down, the six columns below them."""
TABLEAU, RESERVE, FOUNDATION = PileKind.TABLEAU, PileKind.RESERVE, PileKind.FOUNDATION
COLUMN = 4
"""Cards dealt to a column at a time."""


def has_ace_or_king(cards: list[int]) -> bool:
    return any(i % 13 in (ACE, KING) for i in cards)


def reshuffle_for_reserve(pack: list[int], rng: object) -> list[int]:
    """Standard: shuffle again, the generator continuing, until the cells get an ace or a king."""
    while not has_ace_or_king(pack[-8:]):
        fisher_yates(pack, rng)  # type: ignore[arg-type]
    return pack


def relocate_for_reserve(pack: list[int], rng: object) -> list[int]:
    """PySolFC: move the ace or king nearest the bottom of the stock to its top."""
    if not has_ace_or_king(pack[-8:]):
        k = next(k for k, i in enumerate(pack) if i % 13 in (ACE, KING))
        pack.append(pack.pop(k))
    return pack


def deal_columns(game: Game, piles: list[bytes]) -> None:
    """Four cards onto each column in turn, as far as the stock goes."""
    for i in game.tableau:
        dealt, piles[game.stock] = deal_cards(piles[game.stock], COLUMN)
        piles[i] += dealt


counterpart(deal_columns, Deal((TABLEAU,), packet=COLUMN))


def opening_with(adjust: object) -> object:
    def opening(game: Game, number: int) -> State:
        """One card to each cell, then four to each column."""
        pack, rng = shuffle(number, game.info.packs)
        pack = adjust(pack, rng)  # type: ignore[operator]
        piles = [b""] * len(game.piles)
        piles[game.stock] = stock_bytes(pack)
        for i in game.reserve:
            dealt, piles[game.stock] = deal_cards(piles[game.stock], 1)
            piles[i] = dealt
        deal_columns(game, piles)
        return State(game, tuple(piles))
    return opening


def refill_columns(game: Game, piles: list[bytes], source: int, target: int, base: int | None) -> int | None:
    """A column emptied by a move at once gets up to four cards from the stock."""
    if game.kinds[source] is TABLEAU and not piles[source]:
        piles[source], piles[game.stock] = deal_cards(piles[game.stock], COLUMN)
    return base


counterpart(refill_columns, Refill(TABLEAU, COLUMN))


def stock_click(game: Game, state: State) -> State | None:
    """Deal four to each column; with the stock empty, redeal the columns (needs a card in them)."""
    piles = list(state.piles)
    round = state.round
    if not piles[game.stock]:
        if round > game.info.redeals or not any(piles[i] for i in game.tableau):
            return None
        piles[game.stock] = gather_face_down(piles[i] for i in reversed(game.tableau))
        for i in game.tableau:
            piles[i] = b""
        round += 1
    deal_columns(game, piles)
    return State(game, tuple(piles), round, state.base)


counterpart(stock_click, StockClick(deal_columns, Redeal(Gather((Backwards(TABLEAU),)), RedealNeeds.CARDS_TO_GATHER,
                                                         deal_after=True)))


@reason_for(stock_click)
def no_deal(attempt: Attempt) -> str | None:
    game, state = attempt.game, attempt.state
    if attempt.pile:
        return None
    if state.round > game.info.redeals:
        return no_redeal_left(game)
    return "The stock is empty, and a redeal gathers the tableau piles, which are all empty."


def cells_take_from_tableau(game: Game, state: State, source: int, target: int, count: int) -> bool:
    """Standard: an empty cell takes only a column's top card."""
    return game.kinds[target] is not RESERVE or game.kinds[source] is TABLEAU


counterpart(cells_take_from_tableau, Permits((Clause(when=(TargetIs((RESERVE,)),), then=(SourceIs((TABLEAU,)),)),)))


@reason_for(cells_take_from_tableau)
def cells_from_tableau_only(attempt: Attempt) -> str | None:
    target = attempt.target
    if target is None or cells_take_from_tableau(attempt.game, attempt.state, attempt.source, target, attempt.size):
        return None
    return "An empty cell takes only the top card of a tableau pile."


REACH = Reach(sources=(PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE),
              targets=(PileKind.FOUNDATION, PileKind.RESERVE))
"""Columns, cells and foundations give their top card to the foundations and to empty cells."""


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening_with(reshuffle_for_reserve),  # type: ignore[arg-type]
    sources=(top_cards(TABLEAU, RESERVE, FOUNDATION),),
    targets=(foundations_take_next, empty_piles_take_any(RESERVE)),
    permits=cells_take_from_tableau,
    deal=stock_click,
    table=TABLE,
    reach=REACH,
    facts=Facts(foundations_final=True, foundation_transfers=True),  # cells take column cards only
    after_move=refill_columns,
)

PYSOLFC = STANDARD.but(
    opening=opening_with(relocate_for_reserve),
    permits=None,  # an empty cell also takes a foundation's top card or another cell's card
    facts=Facts(foundations_final=False, foundation_transfers=True),
)
