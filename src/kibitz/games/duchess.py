"""Duchess (Glenwood): one pack, a base rank chosen by the first move, one redeal."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.cards import IDENTITY, card_text
from kibitz.counterparts import (BaseUnset, ChooseBase, Clause, Deal, Gather, Never, Not, OneCard, Permits, PilesEmpty,
                                 Redeal, RedealNeeds, Runs, SourceIs, StockClick, StockTop, TargetEmpty, TargetIs,
                                 TopCardAndWholeRun, WholePile, counterpart)
from kibitz.deals import shuffle
from kibitz.piles import FROM_BASE, PileKind, layout
from kibitz.facts import Facts
from kibitz.reach import Reach
from kibitz.rules import (DOWN_ALTERNATE_WRAP, FACE_UP, Game, GameInfo, Rules, Unit,
                          builds_down_alternate, builds_on, deal_cards,
                          empty_piles_take_any, foundations_take_next,
                          covered, gather_face_down, stock_bytes, top_cards)
from kibitz.reasons import Attempt, name_of_pile, no_redeal_left, reason_for
from kibitz.state import State
from kibitz.table import Fan, Place, Table, side_by_side

INFO = GameInfo(
    slug="duchess", name="Duchess", aliases=("Glenwood",),
    packs=1, redeals=1, pysolfc_id=282, family=Family.DUCHESS,
    description="One pack; the first reserve card played sets the foundations' base rank; one redeal.")

LAYOUT = layout(foundations=FROM_BASE, tableau=4, reserve=4, waste=True)
TABLE = Table(columns=7.2, rows=5.65, places=(
    *side_by_side("r", 1, 4, column=0, row=0, spacing=1.8, fan=Fan.RIGHT, room=1.8),
    Place("s", 0, 1.1), Place("w", 1, 1.1),
    *side_by_side("f", 1, 4, column=3.2, row=1.1),
    *side_by_side("t", 1, 4, column=3.2, row=2.25, fan=Fan.DOWN, room=3.4, builds_to=13),
))
"""The reserve fans across the top, the stock and waste, the foundations over the tableau."""
STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE = (
    PileKind.STOCK, PileKind.WASTE, PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE)


def opening(game: Game, number: int) -> State:
    """Three rounds of one card to each reserve fan, then one card to each tableau pile."""
    piles = [b""] * len(game.piles)
    stock = stock_bytes(shuffle(number, game.info.packs)[0])
    for _ in range(3):
        for i in game.reserve:
            dealt, stock = deal_cards(stock, 1)
            piles[i] += dealt
    for i in game.tableau:
        dealt, stock = deal_cards(stock, 1)
        piles[i] += dealt
    piles[game.stock] = stock
    return State(game, tuple(piles))


def run_length(pile: bytes) -> int:
    """How many cards at the top of ``pile`` form a down, alternate-colour sequence."""
    n = 1
    while n < len(pile) and builds_down_alternate(pile[-n - 1], pile[-n], wrap=True):
        n += 1
    return n


def tableau_runs(game: Game, state: State, units: list[Unit]) -> None:
    """Standard: the top card and every longer run at the top of a pile may move."""
    for i in game.tableau:
        pile = state.piles[i]
        if pile:
            for n in range(1, run_length(pile) + 1):
                units.append((i, n, -1, pile[-n]))


counterpart(tableau_runs, Runs(TABLEAU, DOWN_ALTERNATE_WRAP.takes))


@reason_for(tableau_runs)
def not_a_run(attempt: Attempt) -> str | None:
    if attempt.source_kind is not TABLEAU or not attempt.visible:
        return None
    if attempt.by_index:
        return covered(attempt, "a tableau card moves only together with the cards on it")
    return (f"The cards from the {card_text(attempt.card)} up are not in sequence "
            f"({DOWN_ALTERNATE_WRAP.words}), so they can't move together.")


def tableau_whole_piles(game: Game, state: State, units: list[Unit]) -> None:
    """PySolFC: the top card (to a foundation) and the whole pile when it is one sequence."""
    for i in game.tableau:
        pile = state.piles[i]
        if pile:
            units.append((i, 1, -1, pile[-1]))
            if len(pile) > 1 and run_length(pile) == len(pile):
                units.append((i, len(pile), -1, pile[0]))


counterpart(tableau_whole_piles, TopCardAndWholeRun(TABLEAU, DOWN_ALTERNATE_WRAP.takes))


WHOLE_PILE_ONLY = ("In these rules cards move between tableau piles only as a whole pile in sequence; "
                   "a single card from a longer pile goes only to a foundation.")


@reason_for(tableau_whole_piles)
def not_a_whole_pile(attempt: Attempt) -> str | None:
    if attempt.source_kind is not TABLEAU or not attempt.visible:
        return None
    if attempt.size == len(attempt.pile) and not attempt.by_index:
        name = name_of_pile(attempt.game, attempt.source)
        return (f"The cards of {name} are not in sequence ({DOWN_ALTERNATE_WRAP.words}), "
                "so the pile can't move as a whole.")
    return covered(attempt, "in these rules only a whole tableau pile moves onto another pile")


def stock_top(game: Game, state: State, units: list[Unit]) -> None:
    """Standard: the stock's top card may fill a space (``permits`` says when)."""
    stock = state.piles[game.stock]
    if stock:
        units.append((game.stock, 1, -1, stock[-1] & IDENTITY))


counterpart(stock_top, StockTop())


STOCK_TOP_ONLY = ("Only the stock's top card can move: into an empty tableau pile, "
                  "once the reserve and the waste are used up.")


@reason_for(stock_top)
def only_the_stock_top(attempt: Attempt) -> str | None:
    return STOCK_TOP_ONLY if attempt.source_kind is STOCK else None


def reserve_is_empty(game: Game, state: State) -> bool:
    return not any(state.piles[i] for i in game.reserve)


def permits_standard(game: Game, state: State, source: int, target: int, count: int) -> bool:
    """Before the base: only reserve to foundation. Spaces take reserve cards, then waste, then stock."""
    kind, target_kind = game.kinds[source], game.kinds[target]
    if state.base is None:
        return kind is RESERVE and target_kind is FOUNDATION
    if target_kind is FOUNDATION:
        return count == 1 and kind is not STOCK
    if state.piles[target]:
        return kind is not STOCK
    if kind is RESERVE:
        return True
    if not reserve_is_empty(game, state):
        return False
    if kind is WASTE:
        return True
    return kind is STOCK and not state.piles[game.waste or 0]


counterpart(permits_standard, Permits((
    Clause(when=(BaseUnset(),), then=(SourceIs((RESERVE,)), TargetIs((FOUNDATION,)))),
    Clause(when=(TargetIs((FOUNDATION,)),), then=(OneCard(), Not(SourceIs((STOCK,))))),
    Clause(when=(Not(TargetEmpty()),), then=(Not(SourceIs((STOCK,))),)),
    Clause(when=(SourceIs((RESERVE,)),), then=()),
    Clause(when=(Not(PilesEmpty((RESERVE,))),), then=(Never(),)),
    Clause(when=(SourceIs((WASTE,)),), then=()),
    Clause(when=(), then=(SourceIs((STOCK,)), PilesEmpty((WASTE,)))),
)))


FIRST_FROM_RESERVE = "The first card on a foundation must come from the reserve; it sets the base rank."
ONE_AT_A_TIME = "Cards go to a foundation one at a time."
RESERVE_FIRST = "An empty tableau pile takes a reserve card while the reserve has any."


@reason_for(permits_standard)
def standard_refusal(attempt: Attempt) -> str | None:
    game, state, source, target = attempt.game, attempt.state, attempt.source, attempt.target
    if target is None or permits_standard(game, state, source, target, attempt.size):
        return None
    kind, target_kind = game.kinds[source], game.kinds[target]
    if state.base is None:
        if target_kind is FOUNDATION:
            return FIRST_FROM_RESERVE
        return "Nothing else moves until the base rank is set: first play a reserve card to its foundation."
    if kind is STOCK and (target_kind is FOUNDATION or state.piles[target]):
        return STOCK_TOP_ONLY
    if target_kind is FOUNDATION:
        return ONE_AT_A_TIME
    if not reserve_is_empty(game, state):
        return RESERVE_FIRST
    if kind is STOCK:
        return "An empty tableau pile takes the waste's top card before the stock's."
    return ("Once the reserve is used up, an empty tableau pile takes only the waste's top card, "
            "or the stock's when the waste is empty.")


def permits_pysolfc(game: Game, state: State, source: int, target: int, count: int) -> bool:
    """PySolFC: reserve cards may build before the base; piles move whole; no stock to spaces."""
    kind, target_kind = game.kinds[source], game.kinds[target]
    if state.base is None:
        return kind is RESERVE
    if target_kind is FOUNDATION:
        return count == 1
    if kind is TABLEAU:
        return count == len(state.piles[source])
    if state.piles[target] or kind is RESERVE:
        return True
    return kind is WASTE and reserve_is_empty(game, state)


counterpart(permits_pysolfc, Permits((
    Clause(when=(BaseUnset(),), then=(SourceIs((RESERVE,)),)),
    Clause(when=(TargetIs((FOUNDATION,)),), then=(OneCard(),)),
    Clause(when=(SourceIs((TABLEAU,)),), then=(WholePile(),)),
    Clause(when=(Not(TargetEmpty()),), then=()),
    Clause(when=(SourceIs((RESERVE,)),), then=()),
    Clause(when=(), then=(SourceIs((WASTE,)), PilesEmpty((RESERVE,)))),
)))


@reason_for(permits_pysolfc)
def pysolfc_refusal(attempt: Attempt) -> str | None:
    game, state, source, target = attempt.game, attempt.state, attempt.source, attempt.target
    if target is None or permits_pysolfc(game, state, source, target, attempt.size):
        return None
    kind, target_kind = game.kinds[source], game.kinds[target]
    if state.base is None:
        if target_kind is FOUNDATION:
            return FIRST_FROM_RESERVE
        return "Until the base rank is set, only reserve cards move; the first one on a foundation sets it."
    if target_kind is FOUNDATION:
        return ONE_AT_A_TIME
    if kind is TABLEAU:
        return WHOLE_PILE_ONLY
    return "An empty tableau pile takes the waste's top card only once the reserve is used up."


def choose_base(game: Game, piles: list[bytes], source: int, target: int, base: int | None) -> int | None:
    """The first card played to a foundation sets the base rank."""
    if base is None and game.kinds[target] is FOUNDATION:
        return piles[target][-1] % 13
    return base


counterpart(choose_base, ChooseBase())


def stock_click(game: Game, state: State) -> State | None:
    """Turn one card onto the waste; in round 1 an empty stock turns the waste over."""
    if state.base is None:
        return None
    piles = list(state.piles)
    stock, waste = game.stock, game.waste
    assert waste is not None
    if piles[stock]:
        piles[waste] += piles[stock][-1:].translate(FACE_UP)
        piles[stock] = piles[stock][:-1]
        return State(game, tuple(piles), state.round, state.base)
    if state.round <= game.info.redeals and piles[waste]:
        piles[stock] = gather_face_down([piles[waste]])
        piles[waste] = b""
        return State(game, tuple(piles), state.round + 1, state.base)
    return None


counterpart(stock_click, StockClick(Deal(("w",)), Redeal(Gather(("w",)), RedealNeeds.CARDS_TO_GATHER, deal_after=False),
                                    needs_base=True))


@reason_for(stock_click)
def no_deal(attempt: Attempt) -> str | None:
    game, state = attempt.game, attempt.state
    if state.base is None:
        return "The stock can't be dealt before the base rank is set: first play a reserve card to its foundation."
    if attempt.pile:
        return None
    if state.round > game.info.redeals:
        return no_redeal_left(game)
    return "The stock and the waste are both empty: there is nothing to deal or turn over."


REACH = Reach(sources=(PileKind.STOCK, PileKind.WASTE, PileKind.TABLEAU, PileKind.RESERVE),
              targets=(PileKind.FOUNDATION, PileKind.TABLEAU), run=51)
"""Cards go to the foundations and onto the tableau, the stock's top card into a space
(standard); a tableau run or whole pile moves onto another pile. A run holds at most the
pack less the base card, which is on its foundation before anything else moves: 51 cards."""


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening,
    sources=(top_cards(RESERVE, WASTE), tableau_runs, stock_top),
    targets=(foundations_take_next, builds_on(TABLEAU, DOWN_ALTERNATE_WRAP),
             empty_piles_take_any(TABLEAU)),
    permits=permits_standard,
    deal=stock_click,
    table=TABLE,
    reach=REACH,
    facts=Facts(foundations_final=True, foundation_transfers=False),
    after_move=choose_base,
)

PYSOLFC = STANDARD.but(
    sources=(top_cards(RESERVE, WASTE), tableau_whole_piles),
    permits=permits_pysolfc,
    facts=Facts(foundations_final=True, foundation_transfers=False, tableau_order_kept=True),
)

