"""The table widget: the painted layout in colour, with a cursor, a picked-up card and a hint.

It redraws from the player's view whenever its size or what it shows changes, and posts
:class:`TableWidget.Clicked` when a card or place is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.tui.screen.layout import Layout, Rect, lay_out
from kibitz.tui.screen.paint import paint
from kibitz.view import View

CARD_FACE = "#f4f1e8"
ROLE_STYLES = {
    "label": Style(color="#b8c0cc", bold=True),
    "face": Style(color="#8a8a8a", bgcolor=CARD_FACE),
    "red": Style(color="#c01818", bgcolor=CARD_FACE, bold=True),
    "black": Style(color="#101010", bgcolor=CARD_FACE, bold=True),
    "hearts": Style(color="#c01818", bgcolor=CARD_FACE, bold=True),
    "spades": Style(color="#101010", bgcolor=CARD_FACE, bold=True),
    "clubs": Style(color="#0a7a20", bgcolor=CARD_FACE, bold=True),
    "diamonds": Style(color="#1040c0", bgcolor=CARD_FACE, bold=True),
    "back": Style(color="#8fa8e0", bgcolor="#23386e"),
    "empty": Style(color="#7a8490"),
}
CURSOR = Style(bgcolor="#e0b030", color="#000000", bold=True)
"""The cursor's place: its label, and the edge of its top card."""
SELECTED = Style(bgcolor="#fff07a")
"""A picked-up card and the cards on it."""
HINTED = Style(bgcolor="#40c070", color="#000000", bold=True)
"""A hinted move's source and target labels."""


@dataclass(frozen=True)
class Picked:
    """A card picked up: the card at ``position`` of ``pile`` (with every card on it)."""

    pile: str
    position: int


class TableWidget(Widget):
    """The game's table, drawn from what the player sees."""

    can_focus = True
    DEFAULT_CSS = """
    TableWidget { width: 1fr; height: 1fr; background: #0f4a2a; }
    """

    class Clicked(Message):
        """A click on a card (``position`` set) or on a place (``position`` ``None``)."""

        def __init__(self, pile: str, position: int | None) -> None:
            super().__init__()
            self.pile = pile
            self.position = position

    def __init__(self, game: Game, view: View, *, four_colours: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self.view = view
        self.four_colours = four_colours
        self.cursor: str = game.table.places[0].pile
        self.picked: Picked | None = None
        self.hint: Move | None = None
        self._layout: Layout | None = None

    def show(self, view: View, *, cursor: str | None = None, picked: Picked | None = None,
             hint: Move | None = None) -> None:
        """Show ``view`` with the cursor, picked-up card and hint given, and redraw."""
        self.view = view
        if cursor is not None:
            self.cursor = cursor
        self.picked = picked
        self.hint = hint
        self._layout = None
        self.refresh()

    @property
    def layout_now(self) -> Layout:
        """The layout at the widget's current size."""
        width, height = self.size.width, self.size.height
        layout = self._layout
        if layout is None or (layout.width, layout.height) != (width, height):
            layout = self._layout = lay_out(self.game, self.view, max(1, width), max(1, height))
        return layout

    def on_resize(self, event: events.Resize) -> None:
        self._layout = None
        self.refresh()

    def render(self) -> Text:
        layout = self.layout_now
        grid = paint(layout, self.four_colours)
        marks: dict[tuple[int, int], Style] = {}
        self._mark_place(layout, self.cursor, CURSOR, marks)
        if self.hint is not None and not self.hint.is_deal:
            for pile in (self.hint.source, self.hint.target):
                self._mark_label(layout, pile, HINTED, marks)
        if self.picked is not None:
            for card in layout.pile_cards(self.picked.pile)[self.picked.position:]:
                for x, y in _cells(card.rect):
                    marks[(x, y)] = SELECTED
        text = Text(no_wrap=True, overflow="crop")
        for y, row in enumerate(grid.rows):
            for x, cell in enumerate(row):
                style = ROLE_STYLES.get(cell.role, Style())
                mark = marks.get((x, y))
                text.append(cell.char, style + mark if mark is not None else style)
            if y < grid.height - 1:
                text.append("\n")
        return text

    @staticmethod
    def _mark_label(layout: Layout, pile: str, style: Style, marks: dict[tuple[int, int], Style]) -> None:
        place = layout.place(pile)
        x, y = place.label_at
        for k in range(len(place.label)):
            marks[(x + k, y)] = style

    def _mark_place(self, layout: Layout, pile: str, style: Style, marks: dict[tuple[int, int], Style]) -> None:
        """The label and the frame of the place's top card (or empty slot)."""
        self._mark_label(layout, pile, style, marks)
        cards = layout.pile_cards(pile)
        rect = cards[-1].rect if cards else layout.place(pile).slot
        for x, y in _cells(rect):
            if x in (rect.x, rect.right - 1) or y in (rect.y, rect.bottom - 1):
                marks[(x, y)] = style

    def on_click(self, event: events.Click) -> None:
        layout = self.layout_now
        card = layout.card_at(event.x, event.y)
        if card is not None:
            self.post_message(self.Clicked(card.pile, card.position))
            return
        place = layout.place_at(event.x, event.y)
        if place is not None:
            self.post_message(self.Clicked(place.pile, None))


def _cells(rect: Rect) -> list[tuple[int, int]]:
    return [(x, y) for y in range(rect.y, rect.bottom) for x in range(rect.x, rect.right)]
