"""The full-screen table driven by Textual's test pilot: keys, the mouse, undo, refusals, quitting."""

from __future__ import annotations


import kibitz
from kibitz.cards import parse_card
from kibitz.history import History
from kibitz.tui.screen.app import QuitScreen, TableApp
from textual.pilot import Pilot

from .pilot import Scenario, drive, status


def run(scenario: Scenario, size: tuple[int, int] = (120, 40)) -> TableApp:
    """Run ``scenario`` on Duchess deal 3 (reserve tops 7♦, J♥, 9♦, J♠) and return the app."""
    app = TableApp(History.new(kibitz.game("duchess"), 3))

    return drive(app, scenario, size)




def test_a_move_by_keys() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        assert app.table.cursor == "r1"
        await pilot.press("enter", "down", "right", "right", "right", "right", "right")
        assert app.table.cursor == "f4"
        await pilot.press("enter")
        assert app.history.state.pile("f4") == bytes([parse_card("7D")])
        assert "The 7♦ from reserve 1 to foundation 4." in status(app)

    assert run(scenario).history.move_count == 1


def test_a_move_by_mouse() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        layout = app.table.layout_now
        jack = layout.pile_cards("r2")[-1]
        assert jack.index == "J♥"
        await pilot.click("#table", offset=(jack.rect.x + 1, jack.rect.y))
        assert app.picked is not None and app.picked.pile == "r2"
        f3 = layout.place("f3").slot
        await pilot.click("#table", offset=(f3.x + 2, f3.y + 1))
        assert app.history.state.pile("f3") == bytes([parse_card("JH")])

    assert run(scenario).history.move_count == 1


def test_undo_and_redo() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("colon")
        await pilot.press(*"r3>f4", "enter")
        assert app.history.move_count == 1
        await pilot.press("u")
        assert app.history.move_count == 0 and app.history.state.pile("f4") == b""
        await pilot.press("r")
        assert app.history.move_count == 1 and app.history.state.pile("f4") == bytes([parse_card("9D")])
        await pilot.press("r")
        assert "Nothing to redo" in status(app)

    run(scenario)


def test_a_refused_move_says_why_in_the_players_words() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("enter", "down", "right", "right", "right", "enter")
        assert app.history.move_count == 0
        assert "The 7♦ can't go to foundation 2: it takes only spades." in status(app)
        await pilot.press("d")
        assert "base rank" in status(app) and app.history.move_count == 0

    run(scenario, size=(80, 24))


def test_quit_asks_during_a_game() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("colon", *"r1>f4", "enter")
        assert app.history.move_count == 1
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running

    run(scenario)


def test_quit_leaves_at_once_before_a_move() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    run(scenario)


def test_a_run_of_cards_moves_without_typing() -> None:
    """+ takes the card under the picked-up one too (a run moves whole); - gives one back."""
    from kibitz.solver import Limits, solve

    game = kibitz.game("duchess")
    state = game.deal(3)
    line = solve(state, Limits(seconds=None, nodes=1_000_000)).moves
    history = History.new(game, 3)
    for move in line:
        if "/" in str(move):
            break
        history.play(move)
    run_move = next(str(move) for move in history.state.legal_moves if "/" in str(move))
    source, rest = run_move.split(">")
    target, size = rest.split("/")
    app = TableApp(history)

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        layout = app.table.layout_now
        top = layout.pile_cards(source)[-1]
        await pilot.click("#table", offset=(top.rect.x + 1, top.rect.y))
        for _ in range(int(size)):
            await pilot.press("plus")
        assert "No more cards" in status(app) or int(size) == len(history.state.pile(source))
        await pilot.press("minus")
        assert app.picked is not None
        assert app.picked.position == len(history.state.pile(source)) - int(size) + 1
        await pilot.press("plus")
        assert app.picked.position == len(history.state.pile(source)) - int(size)
        assert f"and the {int(size) - 1} card" in status(app)
        slot = layout.place(target).slot
        await pilot.click("#table", offset=(slot.x + 2, slot.y + 1))

    before = history.move_count
    drive(app, scenario)
    assert app.history.move_count == before + 1 and str(app.history.moves[-1]) == run_move


def test_the_stocks_top_card_moves_by_keys_even_where_a_deal_is_possible() -> None:
    """Duchess with the reserve used up: the stock's top card may fill an empty column while a
    deal is possible too; Enter on the stock picks it up, and Enter on the stock again deals."""
    from kibitz.solver import Limits, solve

    game = kibitz.game("duchess")
    line = solve(game.deal(3), Limits(seconds=None, nodes=1_000_000)).moves
    history = History.new(game, 3)
    for move in line:
        if str(move).startswith("s>"):
            break
        history.play(move)
    legal = {str(move) for move in history.state.legal_moves}
    assert "deal" in legal and "s>t1" in legal
    before = history.move_count

    async def on_stock(app: TableApp, pilot: Pilot[None]) -> None:
        stock = app.table.layout_now.place("s").slot
        await pilot.click("#table", offset=(stock.x + 2, stock.y + 1))

    async def to_tableau(app: TableApp, pilot: Pilot[None]) -> None:
        await on_stock(app, pilot)
        assert app.picked is not None and app.picked.pile == "s"
        assert "the stock again deals" in status(app)
        while app.table.cursor != "t1":
            await pilot.press("down" if app.table.cursor in ("s", "w") else "left")
        await pilot.press("enter")

    async def deal(app: TableApp, pilot: Pilot[None]) -> None:
        await on_stock(app, pilot)
        await pilot.press("enter")

    cases: list[tuple[Scenario, str]] = [(to_tableau, "s>t1"), (deal, "deal")]
    for scenario, played in cases:
        app = TableApp(History.new(game, 3))
        for move in line[:before]:
            app.history.play(move)
        drive(app, scenario)
        assert app.history.move_count == before + 1 and str(app.history.moves[-1]) == played
