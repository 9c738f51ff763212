"""Duchess (Glenwood): one pack, a base rank chosen by the first move, one redeal."""

from __future__ import annotations

from kibitz.cards import IDENTITY
from kibitz.deals import shuffle
from kibitz.piles import FROM_BASE, PileKind, layout
from kibitz.rules import (DOWN_ALTERNATE_WRAP, FACE_UP, Game, GameInfo, Rules, Unit,
                          builds_down_alternate, builds_on, deal_cards,
                          empty_piles_take_any, foundations_take_next,
                          gather_face_down, stock_bytes, top_cards)
from kibitz.state import State
from kibitz.table import Fan, Place, Table, side_by_side

INFO = GameInfo(
    slug="duchess", name="Duchess", aliases=("Glenwood",),
    packs=1, redeals=1, pysolfc_id=282,
    description="One pack; the first reserve card played sets the foundations' base rank; one redeal.")

LAYOUT = layout(foundations=FROM_BASE, tableau=4, reserve=4, waste=True)
TABLE = Table(columns=7.2, rows=5.65, places=(
    *side_by_side("r", 1, 4, column=0, row=0, spacing=1.8, fan=Fan.RIGHT, room=1.8),
    Place("s", 0, 1.1), Place("w", 1, 1.1),
    *side_by_side("f", 1, 4, column=3.2, row=1.1),
    *side_by_side("t", 1, 4, column=3.2, row=2.25, fan=Fan.DOWN, room=3.4),
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


def tableau_whole_piles(game: Game, state: State, units: list[Unit]) -> None:
    """PySolFC: the top card (to a foundation) and the whole pile when it is one sequence."""
    for i in game.tableau:
        pile = state.piles[i]
        if pile:
            units.append((i, 1, -1, pile[-1]))
            if len(pile) > 1 and run_length(pile) == len(pile):
                units.append((i, len(pile), -1, pile[0]))


def stock_top(game: Game, state: State, units: list[Unit]) -> None:
    """Standard: the stock's top card may fill a space (``permits`` says when)."""
    stock = state.piles[game.stock]
    if stock:
        units.append((game.stock, 1, -1, stock[-1] & IDENTITY))


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


def choose_base(game: Game, piles: list[bytes], source: int, target: int, base: int | None) -> int | None:
    """The first card played to a foundation sets the base rank."""
    if base is None and game.kinds[target] is FOUNDATION:
        return piles[target][-1] % 13
    return base


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


STANDARD = Rules(
    layout=LAYOUT,
    opening=opening,
    sources=(top_cards(RESERVE, WASTE), tableau_runs, stock_top),
    targets=(foundations_take_next, builds_on(TABLEAU, DOWN_ALTERNATE_WRAP),
             empty_piles_take_any(TABLEAU)),
    permits=permits_standard,
    deal=stock_click,
    table=TABLE,
    after_move=choose_base,
)

PYSOLFC = STANDARD.but(
    sources=(top_cards(RESERVE, WASTE), tableau_whole_piles),
    permits=permits_pysolfc,
)

