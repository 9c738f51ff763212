"""Every game and ruleset at the full-screen table, read from what the widget rendered.

One app per game and ruleset: the opening at 80x24 and at 200x50 shows every face-up card's
index (in its suit's colour) and every place's name; the most crowded position of a solver's
winning line shows every face-up index of the fanned columns from 120x40, and at 80x24 still
every top card, with the count of the cards scrolled out of view on the column's label.
"""

from __future__ import annotations


import pytest
from rich.segment import Segment
from textual.pilot import Pilot
from textual.strip import Strip

import kibitz
from kibitz.cards import is_red
from kibitz.history import History
from kibitz.moves import Move
from kibitz.rules import RULESETS
from kibitz.solver import Limits, solve
from kibitz.table import Fan
from kibitz.tui.screen.app import TableApp
from kibitz.tui.screen.layout import CHROME_LINES, index_text, row_lines
from kibitz.tui.screen.widget import ROLE_STYLES, TableWidget

from .pilot import Scenario, drive

GAMES = [(info.slug, ruleset) for info in kibitz.games() for ruleset in RULESETS]
DEAL = 3
"""A deal whose winning lines the solver finds in a fraction of a second in every game."""
LINE_LIMITS = Limits(seconds=None, nodes=1_000_000)
"""A solver's winning line, found by nodes and not by time: the same on any machine, loaded or not."""


def crowded_line(slug: str, ruleset: str) -> tuple[Move, ...]:
    """The moves of a winning line of the deal up to its position with the longest fanned pile
    (half-way, where the game fans no pile)."""
    game = kibitz.game(slug, ruleset)
    fanned = [place.pile for place in game.table.places if place.fan is not Fan.NONE]
    state = game.deal(DEAL)
    moves = solve(state, LINE_LIMITS).moves
    best, longest = 0, -1
    for count, move in enumerate(moves, start=1):
        state = state.apply(move)
        length = max((len(state.pile(pile)) for pile in fanned), default=0)
        if length > longest:
            best, longest = count, length
    return tuple(moves[:best if fanned else len(moves) // 2])


class Screen:
    """The table as the widget rendered it: one strip of styled cells per line."""

    def __init__(self, table: TableWidget) -> None:
        self.table = table
        self.strips: list[Strip] = [table.render_line(y) for y in range(table.size.height)]

    def text(self, x: int, y: int, length: int) -> str:
        """The characters of ``length`` cells from (``x``, ``y``)."""
        return self.strips[y].crop(x, x + length).text

    def segments(self, x: int, y: int, length: int) -> list[Segment]:
        return list(self.strips[y].crop(x, x + length))

    def whole(self) -> str:
        return "\n".join(strip.text for strip in self.strips)


def readable(screen: Screen, pile: str, position: int) -> bool:
    """Whether the card at ``position`` of ``pile`` has its index on screen, uncovered, in its colour."""
    table = screen.table
    layout = table.layout_now
    card = table.view.pile(pile)[position]
    assert card is not None
    laid = [drawn for drawn in layout.pile_cards(pile) if drawn.position == position]
    if not laid:
        return False
    x, y = laid[0].index_cells[0]
    index = index_text(card)
    if not (0 <= y < len(screen.strips) and x + len(index) <= layout.width):
        return False
    if screen.text(x, y, len(index)) != index or layout.card_at(x, y) != laid[0]:
        return False
    if pile == table.cursor and position == len(table.view.pile(pile)) - 1:
        return True   # the cursor's own colours mark the top card's edge
    ink = ROLE_STYLES["red" if is_red(card) else "black"].color
    return all(segment.style is not None and segment.style.color == ink
               for segment in screen.segments(x, y, len(index)))


def assert_table(app: TableApp, size: tuple[int, int], fanned_only: bool = False) -> Screen:
    """Every place named and every face-up index readable (a squared pile's top card only):
    read from the widget, which fills the screen but for the status line (up to three lines) and the footer."""
    table = app.table
    width, height = size
    assert table.size.width == width and height - CHROME_LINES - 2 <= table.size.height <= height - CHROME_LINES
    screen = Screen(table)
    layout = table.layout_now
    view = table.view
    for place in app.history.game.table.places:
        laid = layout.place(place.pile)
        assert screen.text(*laid.label_at, len(place.pile)) == place.pile, (place.pile, size)
        cards = view.pile(place.pile)
        if place.fan is Fan.NONE:
            if fanned_only:
                continue
            wanted = range(max(0, len(cards) - 1), len(cards))
        else:
            wanted = range(len(cards))
        for position in wanted:
            if cards[position] is not None:
                assert readable(screen, place.pile, position), (place.pile, position, size)
    return screen


def run(app: TableApp, scenario: Scenario) -> None:
    drive(app, scenario, (80, 24))



@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_every_face_up_index_and_place_name_is_on_the_screen_from_the_opening_to_a_crowded_column(
        slug: str, ruleset: str) -> None:
    line = crowded_line(slug, ruleset)
    app = TableApp(History.new(kibitz.game(slug, ruleset), DEAL))

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        small = assert_table(app, (80, 24)).table.layout_now.card_height
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        assert assert_table(app, (200, 50)).table.layout_now.card_height > small
        for move in line:
            app.play(move)
        app.say("")   # a one-line status: the table keeps all but two lines
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        screen = assert_table(app, (120, 40), fanned_only=True)
        assert "↕" not in screen.whole()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        screen = Screen(app.table)
        layout = app.table.layout_now
        for place in app.history.game.table.places:
            cards = app.table.view.pile(place.pile)
            if cards and cards[-1] is not None:
                assert readable(screen, place.pile, len(cards) - 1), (place.pile, "top card at 80x24")
            hidden = layout.place(place.pile).hidden
            if hidden:
                laid = layout.place(place.pile)
                assert f"↕{hidden}" in screen.text(*laid.label_at, laid.area.width)

    run(app, scenario)
    assert app.history.move_count == len(line) and len(line) > 10


def test_a_row_a_whole_row_below_keeps_room_for_its_label_and_card_when_rows_between_floor_closer() -> None:
    """Tournament at 120x40: the reserves' rows 2 and 3 with the tableau's row 2.15 between them."""
    lines = row_lines([0, 1, 2, 2.15, 3, 5.15], scale_y=38 / 5.15, unit=7)
    assert lines[3] - lines[2] == 7 and lines[2.15] - lines[2] == 1
    assert lines[5.15] <= 38
