"""The table in character cells: where each place and card lies on a screen of a given size.

Pure geometry from the game's declared layout (:mod:`kibitz.table`) and what the player sees
(:class:`kibitz.view.View`): a hidden card is laid out as a back and never as a face. The
drawing itself (:mod:`kibitz.tui.screen.paint`) and the Textual widget build on this.

A card is a box of cells whose top line carries its index (``╭10♥──╮``), so a column fanned
one line per card shows every index. A column longer than its room squeezes its face-down
cards first, then its top card, and only then covers its lowest face-up cards; the player
may scroll which face-up cards those are (never the top card). A right fan's covered cards
show only their left strip, with the index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from kibitz.cards import RANK_SYMBOLS, SUIT_SYMBOLS, Card, rank_of, suit_of
from kibitz.piles import PileKind, PileSpec
from kibitz.rules import Game
from kibitz.table import Fan, Place
from kibitz.view import View

CHROME_LINES = 2
"""Screen lines the app keeps below the table: the status line and the footer."""
MIN_CARD_WIDTH, MAX_CARD_WIDTH = 5, 9
MIN_CARD_HEIGHT, MAX_CARD_HEIGHT = 3, 6


@dataclass(frozen=True)
class Rect:
    """A rectangle of cells: its top-left cell and its size."""

    x: int
    y: int
    width: int
    height: int

    def contains(self, x: int, y: int) -> bool:
        """Whether cell (``x``, ``y``) lies inside."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height


@dataclass(frozen=True)
class LaidCard:
    """One card on the screen: ``card`` is ``None`` for a card the player may not see (a back)."""

    pile: str
    position: int
    """Its place in the pile, from the bottom, from 0."""
    card: Card | None
    rect: Rect
    index: str
    """The index written on its top line (``10♥``); empty for a back."""
    strip: int = 0
    """The columns left in view when the next card of a right fan covers the rest (0: whole)."""

    @property
    def index_cells(self) -> tuple[tuple[int, int], ...]:
        """The cells (x, y) where the index is written, just right of the top-left corner."""
        return tuple((self.rect.x + 1 + k, self.rect.y) for k in range(len(self.index)))


@dataclass(frozen=True)
class LaidPlace:
    """One pile's place: its label line, the slot of its first card and all the room it may take."""

    pile: str
    label: str
    """Its name, then what else a player wants at a glance (the cards in a squared pile)."""
    label_at: tuple[int, int]
    slot: Rect
    area: Rect
    """The label line, the slot and the fan's room: where a click means this place."""
    empty: str
    """What an empty place shows: what it takes (``A♣`` on a foundation) or the redeals left."""
    count: str
    """What the body of its top card says (the stock's size); empty for nothing."""
    hidden: int = 0
    """Face-up cards of a fanned column covered for want of room (the player may scroll them)."""


@dataclass(frozen=True)
class Layout:
    """The whole table at one screen size; cards in drawing order (later ones lie on top)."""

    width: int
    height: int
    card_width: int
    card_height: int
    places: tuple[LaidPlace, ...]
    cards: tuple[LaidCard, ...]

    def place(self, pile: str) -> LaidPlace:
        """The place of ``pile``; raises :class:`KeyError` if none."""
        for place in self.places:
            if place.pile == pile:
                return place
        raise KeyError(pile)

    def pile_cards(self, pile: str) -> tuple[LaidCard, ...]:
        """The cards laid out for ``pile``, bottom to top."""
        return tuple(card for card in self.cards if card.pile == pile)

    def card_at(self, x: int, y: int) -> LaidCard | None:
        """The card seen at cell (``x``, ``y``), the one on top where cards overlap."""
        for card in reversed(self.cards):
            if card.rect.contains(x, y):
                return card
        return None

    def place_at(self, x: int, y: int) -> LaidPlace | None:
        """The place whose area holds cell (``x``, ``y``)."""
        card = self.card_at(x, y)
        if card is not None:
            return self.place(card.pile)
        for place in self.places:
            if place.area.contains(x, y):
                return place
        return None


def index_text(card: Card) -> str:
    """A card's index as printed on it: ``10♥``, ``A♣`` (never ``T``)."""
    return RANK_SYMBOLS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def table_size(screen_width: int, screen_height: int) -> tuple[int, int]:
    """The cells the table gets on a screen of this size (the status line and footer kept)."""
    return screen_width, max(1, screen_height - CHROME_LINES)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def empty_text(game: Game, spec: PileSpec, view: View) -> str:
    """What an empty place shows: a foundation's first card, the stock's redeals left."""
    foundation = spec.foundation
    if foundation is not None:
        first = foundation.first if foundation.first is not None else view.base
        rank = "?" if first is None else RANK_SYMBOLS[first]
        return rank + SUIT_SYMBOLS[foundation.suit]
    if spec.kind is PileKind.STOCK:
        left = game.info.redeals + 1 - view.round
        return f"↺{left}" if left > 0 else "✕"
    return ""


def fan_steps(cards: Sequence[Card | None], room: int, height: int, minimum: int = 1,
              scroll: int = 0) -> tuple[list[int], int]:
    """How far each card but the top lies from the next (``1`` a line or index, ``0`` covered)
    and the top card's height, for ``cards`` fanned within ``room`` cells.

    Face-down cards are squeezed first (a run of them keeps one line), then the top card
    shrinks to its index line, and only then face-up cards are covered: the lowest ones, or
    with ``scroll`` (clamped) that many places further up, never the top card."""
    count = len(cards)
    steps = [minimum] * max(0, count - 1)
    top = height
    excess = sum(steps) + top - room
    hidden = [k for k in range(count - 1) if cards[k] is None]
    for k in hidden[:-1]:
        if excess <= 0:
            break
        excess -= steps[k]
        steps[k] = 0
    while excess > 0 and top > 1:
        top -= 1
        excess -= 1
    open_steps = [k for k in range(count - 1) if steps[k]]
    covered = min(len(open_steps), max(0, -(-excess // max(1, minimum))))
    start = _clamp(scroll, 0, len(open_steps) - covered)
    for k in open_steps[start:start + covered]:
        steps[k] = 0
    return steps, top


def hidden_cards(cards: Sequence[Card | None], steps: Sequence[int]) -> int:
    """The face-up cards a fan covers entirely (their index out of view)."""
    return sum(1 for k, step in enumerate(steps) if step == 0 and cards[k] is not None)


def row_lines(rows: Sequence[float], scale_y: float, unit: int) -> dict[float, int]:
    """The screen line of each table row: in proportion, but never more than ``unit`` lines
    (a label line and a card, and a gap when there is room) per row after the row above it,
    so no blank line is wasted where the room is short; yet a row a whole row below another
    stays ``unit`` lines below it (as far as its proportion allows) when rows between them
    would floor it closer."""
    lines: dict[float, int] = {}
    previous: tuple[float, int] | None = None
    for row in sorted(set(rows)):
        proportional = line = math.floor(row * scale_y + 1e-9)
        if previous is not None:
            line = min(line, previous[1] + max(1, math.floor((row - previous[0]) * unit + 1e-9)))
        for above, above_line in lines.items():
            if row - above >= 1 - 1e-9:
                line = max(line, min(above_line + unit, proportional))
        lines[row] = line
        previous = (row, line)
    return lines


def lay_out(game: Game, view: View, width: int, height: int, scroll: Mapping[str, int] | None = None) -> Layout:
    """The table of ``game`` showing ``view`` in a ``width`` x ``height`` area of cells;
    ``scroll`` says how far up each crowded column's covered cards were scrolled."""
    table = game.table
    scale_x, scale_y = width / table.columns, height / table.rows
    card_height = _clamp(math.floor(scale_y) - 1, MIN_CARD_HEIGHT, MAX_CARD_HEIGHT)
    card_width = min(_clamp(math.floor(scale_x) - 1, MIN_CARD_WIDTH, MAX_CARD_WIDTH), 2 * card_height + 1)
    scale_x = max(min(scale_x, card_width + 3.0), card_width + 1.0)
    scale_y = max(scale_y, card_height + 1.0)
    left = max(0, (width - math.floor(table.columns * scale_x) + 1) // 2)
    unit = card_height + 1 + (1 if scale_y >= card_height + 3 else 0)
    lines = row_lines([place.row for place in table.places]
                      + [place.row + place.room for place in table.places if place.fan is Fan.DOWN], scale_y, unit)
    places: list[LaidPlace] = []
    cards: list[LaidCard] = []
    for place in table.places:
        spec = game.piles[game.pile_index(place.pile)]
        pile = view.pile(place.pile)
        x = left + math.floor(place.column * scale_x + 1e-9)
        y = lines[place.row]
        slot = Rect(x, y + 1, card_width, card_height)
        area = _area(place, slot, table.columns, table.rows, scale_x, lines, left, width, height)
        laid = _pile_cards(place, pile, slot, area, (scroll or {}).get(place.pile, 0))
        hidden = 0
        if place.fan is Fan.DOWN and len(laid) > 1:
            steps = [laid[k + 1].rect.y - laid[k].rect.y for k in range(len(laid) - 1)]
            hidden = hidden_cards(pile, steps)
        label = place.pile
        if spec.kind is not PileKind.FOUNDATION and place.fan is Fan.NONE and len(pile) > 1:
            label += f" {len(pile)}"
        if hidden:
            label += f" ↕{hidden}"
        count = str(len(pile)) if spec.kind is PileKind.STOCK and pile else ""
        places.append(LaidPlace(place.pile, label[:max(len(place.pile), area.width)], (x, y), slot, area,
                                empty_text(game, spec, view), count, hidden))
        cards.extend(laid)
    return Layout(width, height, card_width, card_height, tuple(places), tuple(cards))


def _area(place: Place, slot: Rect, columns: float, rows: float, scale_x: float, lines: Mapping[float, int],
          left: int, width: int, height: int) -> Rect:
    """A place's cells: its label line and slot, and a fan's room (to the screen's edge when
    the room reaches the table's edge: nothing lies beyond it)."""
    right, bottom = slot.right, slot.bottom
    if place.fan is Fan.DOWN:
        end = place.row + place.room
        bottom = height if end >= rows - 1e-9 else lines[end]
    elif place.fan is Fan.RIGHT:
        end = place.column + place.room
        right = width if end >= columns - 1e-9 else left + math.floor(end * scale_x + 1e-9) - 1
    right, bottom = max(right, slot.right), max(bottom, slot.bottom)
    return Rect(slot.x, slot.y - 1, right - slot.x, bottom - slot.y + 1)


def _pile_cards(place: Place, pile: Sequence[Card | None], slot: Rect, area: Rect, scroll: int) -> list[LaidCard]:
    """The cards of one pile laid out in its place: a squared pile shows its top card only."""
    if not pile:
        return []
    if place.fan is Fan.NONE:
        top = len(pile) - 1
        return [_laid(place.pile, top, pile[top], slot)]
    if place.fan is Fan.DOWN:
        steps, top_height = fan_steps(pile, area.bottom - slot.y, slot.height, scroll=scroll)
        laid, y = [], slot.y
        for position, card in enumerate(pile):
            laid.append(_laid(place.pile, position, card, Rect(slot.x, y, slot.width, top_height)))
            y += steps[position] if position < len(steps) else 0
        return laid
    widest = max((len(index_text(card)) for card in pile if card is not None), default=2) + 1
    room = area.right - slot.x
    spare = room - slot.width
    step = _clamp(spare // max(1, len(pile) - 1), 0, slot.width - 1) if len(pile) > 1 else 0
    if step >= widest:
        step = max(widest, min(step, slot.width - 2))
    last = len(pile) - 1
    return [_laid(place.pile, position, card, Rect(slot.x + position * step, slot.y, slot.width, slot.height),
                  step if position < last and step < slot.width else 0)
            for position, card in enumerate(pile)]


def _laid(pile: str, position: int, card: Card | None, rect: Rect, strip: int = 0) -> LaidCard:
    return LaidCard(pile, position, card, rect, "" if card is None else index_text(card), strip)
