"""The laid-out table painted into a grid of characters, each with a role that a client colours.

Pure, like :mod:`kibitz.tui.screen.layout`: what the widget shows and what the tests read
are one grid. Roles: ``label``, ``face`` (a face-up card's frame), ``red`` and ``black``
(suits; :data:`FOUR_COLOURS` splits them in four), ``back``, ``empty``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kibitz.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_SYMBOLS, is_red, suit_of
from kibitz.tui.screen.layout import Layout, LaidCard, LaidPlace, Rect

SUIT_ROLES = {CLUBS: "clubs", SPADES: "spades", HEARTS: "hearts", DIAMONDS: "diamonds"}
"""The role of each suit's ink with the four-colour option."""
BACK_FILL = "░"
COVERING_EDGE = "┄"
"""The top edge of a card lying on face-up cards covered for want of room."""


@dataclass
class Cell:
    """One character on the screen and its role (blank: ``""``)."""

    char: str = " "
    role: str = ""


class Grid:
    """A ``width`` x ``height`` grid of cells; writes outside it are dropped."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.rows = [[Cell() for _ in range(width)] for _ in range(height)]

    def put(self, x: int, y: int, text: str, role: str) -> None:
        """Write ``text`` from cell (``x``, ``y``) rightwards in ``role``."""
        if not 0 <= y < self.height:
            return
        for k, char in enumerate(text):
            if 0 <= x + k < self.width:
                self.rows[y][x + k] = Cell(char, role)

    def text(self, x: int, y: int, length: int) -> str:
        """The characters of ``length`` cells from (``x``, ``y``)."""
        if not 0 <= y < self.height:
            return ""
        return "".join(cell.char for cell in self.rows[y][max(0, x):x + length])

    def lines(self) -> list[str]:
        """The grid as plain text lines."""
        return ["".join(cell.char for cell in row) for row in self.rows]


def ink(card: int, four_colours: bool) -> str:
    """The role a card's index is written in."""
    if four_colours:
        return SUIT_ROLES[suit_of(card)]
    return "red" if is_red(card) else "black"


def _box(grid: Grid, rect: Rect, corners: str, edge: str, side: str, role: str, fill: str = " ") -> None:
    """A frame: corners ``╭╮╰╯`` (in that order), horizontal ``edge``, vertical ``side``."""
    top_left, top_right, bottom_left, bottom_right = corners[0], corners[1], corners[2], corners[3]
    inner = max(0, rect.width - 2)
    grid.put(rect.x, rect.y, top_left + edge * inner + top_right, role)
    for y in range(rect.y + 1, rect.bottom - 1):
        grid.put(rect.x, y, side + fill * inner + side, role)
    if rect.height > 1:
        grid.put(rect.x, rect.bottom - 1, bottom_left + edge * inner + bottom_right, role)


def _centre(grid: Grid, rect: Rect, text: str, role: str) -> None:
    """``text`` on the card's middle line (its top line when it has no other)."""
    if not text:
        return
    y = rect.y + rect.height // 2 if rect.height > 2 else rect.y
    x = rect.x + max(1, (rect.width - len(text)) // 2)
    grid.put(x, y, text[:max(0, rect.width - 2)], role)


def paint_card(grid: Grid, card: LaidCard, count: str, four_colours: bool, covers: bool = False) -> None:
    """One card: a face with its index on the top line (and its suit in the middle), or a back.
    A card that ``covers`` face-up cards laid at its very place (a crowded column) has a dashed top edge."""
    rect = card.rect
    if card.card is None:
        _box(grid, rect, "╭╮╰╯", "─", "│", "back", BACK_FILL)
        _centre(grid, rect, count, "back")
        return
    _box(grid, rect, "╭╮╰╯", "─", "│", "face")
    if covers:
        grid.put(rect.x + 1, rect.y, COVERING_EDGE * max(0, rect.width - 2), "face")
    role = ink(card.card, four_colours)
    grid.put(rect.x + 1, rect.y, card.index, role)
    if card.strip:
        return   # the next card of a right fan covers all but its left strip: the index says it all
    if rect.height >= 3:
        _centre(grid, rect, SUIT_SYMBOLS[suit_of(card.card)], role)
    if rect.height >= 5:
        grid.put(rect.right - 1 - len(card.index), rect.bottom - 2, card.index, role)


def paint_place(grid: Grid, place: LaidPlace, empty: bool) -> None:
    """A place's label, and for an empty one a dashed frame saying what it takes."""
    grid.put(place.label_at[0], place.label_at[1], place.label, "label")
    if empty:
        _box(grid, place.slot, "┌┐└┘", "╌", "┆", "empty")
        _centre(grid, place.slot, place.empty, "empty")


def paint(layout: Layout, four_colours: bool = False) -> Grid:
    """The whole table: places, then cards bottom to top, each pile in the table's order."""
    grid = Grid(layout.width, layout.height)
    laid = {place.pile for place in layout.places if layout.pile_cards(place.pile)}
    for place in layout.places:
        paint_place(grid, place, place.pile not in laid)
    counts = {place.pile: place.count for place in layout.places}
    below: LaidCard | None = None
    for card in layout.cards:
        covers = (below is not None and below.pile == card.pile and below.rect.x == card.rect.x
                  and below.rect.y == card.rect.y and below.card is not None)
        paint_card(grid, card, counts[card.pile], four_colours, covers)
        below = card
    return grid
