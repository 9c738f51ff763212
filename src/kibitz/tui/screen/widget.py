"""The table widget: the painted layout in colour, with a cursor, a picked-up card and a hint.

It redraws from the player's view whenever its size or what it shows changes, and posts
:class:`TableWidget.Clicked` when a card or place is clicked, :class:`TableWidget.Dragged`
when a card is dragged onto a place and :class:`TableWidget.DoubleClicked` for a double click.
A column too long for its room scrolls its covered cards with the mouse wheel or PageUp/PageDown.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
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

    BINDINGS = [
        Binding("pageup", "scroll_column(1)", "Scroll", show=False),
        Binding("pagedown", "scroll_column(-1)", "Scroll", show=False),
    ]

    class Clicked(Message):
        """A click on a card (``position`` set) or on a place (``position`` ``None``)."""

        def __init__(self, pile: str, position: int | None) -> None:
            super().__init__()
            self.pile = pile
            self.position = position

    class Dragged(Message):
        """The card at ``position`` of ``pile`` (with those on it) dragged onto place ``target``."""

        def __init__(self, pile: str, position: int, target: str) -> None:
            super().__init__()
            self.pile = pile
            self.position = position
            self.target = target

    class DoubleClicked(Message):
        """A double click on the card at ``position`` of ``pile``: send it to a foundation."""

        def __init__(self, pile: str, position: int) -> None:
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
        self.scroll: dict[str, int] = {}
        """How far each crowded column's covered cards are scrolled up (see :func:`fan_steps`)."""
        self._layout: Layout | None = None
        self._pressed: tuple[str, int] | None = None
        self._dragged = False

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
            layout = self._layout = lay_out(self.game, self.view, max(1, width), max(1, height), self.scroll)
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
        styles: dict[tuple[str, Style | None], Style] = {}
        for y, row in enumerate(grid.rows):
            run: list[str] = []
            key: tuple[str, Style | None] | None = None
            for x, cell in enumerate(row):
                here = (cell.role, marks.get((x, y)))
                if here != key and run and key is not None:
                    text.append("".join(run), self._style(key, styles))
                    run = []
                key = here
                run.append(cell.char)
            if run and key is not None:
                text.append("".join(run), self._style(key, styles))
            if y < grid.height - 1:
                text.append("\n")
        return text

    @staticmethod
    def _style(key: tuple[str, Style | None], styles: dict[tuple[str, Style | None], Style]) -> Style:
        """The style of a role with a mark (cursor, picked-up, hint) over it, made once per render."""
        style = styles.get(key)
        if style is None:
            role, mark = key
            style = ROLE_STYLES.get(role, Style())
            style = styles[key] = style + mark if mark is not None else style
        return style

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

    def scroll_column(self, pile: str, amount: int) -> bool:
        """Scroll ``pile``'s covered cards ``amount`` places up (down when negative); whether
        anything moved."""
        layout = self.layout_now
        before = tuple(card.rect for card in layout.pile_cards(pile))
        old = self.scroll.get(pile, 0)
        self.scroll[pile] = max(0, old + amount)
        self._layout = None
        if tuple(card.rect for card in self.layout_now.pile_cards(pile)) == before:
            self.scroll[pile] = old
            self._layout = None
            return False
        self.refresh()
        return True

    def action_scroll_column(self, amount: int) -> None:
        self.scroll_column(self.cursor, amount)

    def _scroll_at(self, event: events.MouseEvent, amount: int) -> None:
        place = self.layout_now.place_at(event.x, event.y)
        if place is not None and (place.hidden or self.scroll.get(place.pile)):
            event.stop()
            self.scroll_column(place.pile, amount)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll_at(event, 1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll_at(event, -1)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        card = self.layout_now.card_at(event.x, event.y)
        self._pressed = None if card is None or card.card is None else (card.pile, card.position)
        self._dragged = False

    def on_mouse_up(self, event: events.MouseUp) -> None:
        pressed, self._pressed = self._pressed, None
        if pressed is None:
            return
        place = self.layout_now.place_at(event.x, event.y)
        if place is not None and place.pile != pressed[0]:
            self._dragged = True
            self.post_message(self.Dragged(pressed[0], pressed[1], place.pile))

    def on_click(self, event: events.Click) -> None:
        if self._dragged:
            self._dragged = False
            return
        layout = self.layout_now
        card = layout.card_at(event.x, event.y)
        if card is not None:
            if event.chain >= 2 and card.card is not None:
                self.post_message(self.DoubleClicked(card.pile, card.position))
            else:
                self.post_message(self.Clicked(card.pile, card.position))
            return
        place = layout.place_at(event.x, event.y)
        if place is not None:
            self.post_message(self.Clicked(place.pile, None))


def _cells(rect: Rect) -> list[tuple[int, int]]:
    return [(x, y) for y in range(rect.y, rect.bottom) for x in range(rect.x, rect.right)]
