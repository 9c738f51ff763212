"""The mouse at the full-screen table: dragging a card, double-clicking it home, scrolling a crowded column."""

from __future__ import annotations


import kibitz
from kibitz.cards import parse_card
from kibitz.history import History
from kibitz.solver import Limits, solve
from kibitz.table import Fan
from kibitz.tui.screen.app import TableApp
from textual import events
from textual.pilot import Pilot

from .pilot import Scenario, drive, status
LINE_LIMITS = Limits(seconds=None, nodes=1_000_000)
"""A solver's winning line, found by nodes and not by time: the same on any machine, loaded or not."""


def run(app: TableApp, scenario: Scenario, size: tuple[int, int] = (120, 40)) -> TableApp:
    return drive(app, scenario, size)


def duchess() -> TableApp:
    """Duchess deal 3: reserve tops 7♦, J♥, 9♦, J♠."""
    return TableApp(History.new(kibitz.game("duchess"), 3))


async def drag(pilot: Pilot[None], start: tuple[int, int], end: tuple[int, int]) -> None:
    await pilot.mouse_down("#table", offset=start)
    await pilot.mouse_up("#table", offset=end)
    await pilot.pause()


def test_dragging_a_card_onto_a_place_plays_the_move() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        layout = app.table.layout_now
        jack = layout.pile_cards("r2")[-1]
        assert jack.index == "J♥"
        f3 = layout.place("f3").slot
        await drag(pilot, (jack.rect.x + 1, jack.rect.y + 1), (f3.x + 2, f3.y + 1))
        assert app.history.state.pile("f3") == bytes([parse_card("JH")])
        assert app.picked is None
        nine = app.table.layout_now.pile_cards("r3")[-1]
        t1 = app.table.layout_now.pile_cards("t1")[-1]
        await drag(pilot, (nine.rect.x + 2, nine.rect.y + 2), (t1.rect.x + 2, t1.rect.y + 1))
        assert app.history.move_count == 1 and app.picked is None
        assert "9♦" in status(app) and "J♥" not in status(app)

    assert run(duchess(), scenario).history.move_count == 1


def test_a_double_click_sends_a_card_to_a_foundation_where_it_can_go() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        jack = app.table.layout_now.pile_cards("r2")[-1]
        await pilot.double_click("#table", offset=(jack.rect.x + 1, jack.rect.y + 1))
        assert app.history.state.pile("f3") == bytes([parse_card("JH")]) and app.picked is None
        nine = app.table.layout_now.pile_cards("r3")[-1]
        await pilot.double_click("#table", offset=(nine.rect.x + 1, nine.rect.y + 1))
        assert app.history.move_count == 1 and "cannot go to a foundation" in status(app)
        spades = app.table.layout_now.pile_cards("r4")[-1]
        assert spades.index == "J♠"
        await pilot.double_click("#table", offset=(spades.rect.x + 1, spades.rect.y + 1))
        assert app.history.state.pile("f2") == bytes([parse_card("JS")])

    assert run(duchess(), scenario).history.move_count == 2


def crowded_grand_duchess() -> TableApp:
    """Grand Duchess deal 11, played along a winning line to where its longest column is longest."""
    game = kibitz.game("grand-duchess")
    history = History.new(game, 11)
    fanned = [place.pile for place in game.table.places if place.fan is Fan.DOWN]
    line = solve(history.state, LINE_LIMITS).moves
    best, longest, state = 0, 0, history.state
    for number, move in enumerate(line, 1):
        state = state.apply(move)
        length = max(len(state.pile(pile)) for pile in fanned)
        if length > longest:
            best, longest = number, length
    for move in line[:best]:
        history.play(move)
    return TableApp(history)


def test_at_80x24_a_crowded_column_scrolls_with_keys_and_the_wheel() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        table = app.table
        crowded = [place for place in table.layout_now.places if place.hidden]
        assert crowded
        pile = crowded[0].pile
        before = table.layout_now.pile_cards(pile)
        table.cursor = pile
        await pilot.press("pageup")
        after = table.layout_now.pile_cards(pile)
        assert [card.rect for card in after] != [card.rect for card in before]
        assert after[-1].rect == before[-1].rect
        area = table.layout_now.place(pile).area
        table.post_message(events.MouseScrollDown(table, area.x + 1, area.y + 2, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert [card.rect for card in table.layout_now.pile_cards(pile)] == [card.rect for card in before]
        await pilot.press("pagedown")
        assert [card.rect for card in table.layout_now.pile_cards(pile)] == [card.rect for card in before]
        assert app.history.move_count > 0

    run(crowded_grand_duchess(), scenario, size=(80, 24))
