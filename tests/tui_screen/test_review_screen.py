"""The full-screen table's review (``v``), analysis mode (``A``) and clock of active play."""

from __future__ import annotations

from pathlib import Path

import kibitz
from kibitz.history import History
from kibitz.tui.screen.app import ANALYSIS, TableApp
from kibitz.tui.screen.review import ReviewScreen
from kibitz.tui.screen.screens import HelpScreen
from kibitz.tui.screen.stored import GameKeeper
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerState

from .pilot import Scenario, drive
from .pilot import status as status_line

OPENING = ["r1>f4", "deal", "deal"]
"""Three moves of Duchess deal 3."""
LONG_LINE = (
    "r1>f4 deal deal r2>t1 deal deal r2>t3 deal deal r4>t4 deal deal deal deal deal deal deal deal deal deal deal "
    "deal deal deal deal deal deal w>f2 deal deal t2>f2 deal deal r1>t2 deal deal deal deal deal w>t2").split()
"""Duchess deal 3 played on through the stock: long enough for a review to take a while."""


def run(scenario: Scenario, app: TableApp) -> TableApp:
    return drive(app, scenario)


def duchess(moves: list[str] = OPENING) -> History:
    history = History.new(kibitz.game("duchess"), 3)
    for move in moves:
        history.play(move)
    return history


def text(app: TableApp, selector: str) -> str:
    return " ".join(str(app.screen.query_one(selector, Static).render()).split())


def status(app: TableApp) -> str:
    return " ".join(status_line(app).split())


def clock(app: TableApp) -> str:
    return str(app.query_one("#clock", Static).render())


async def settled(app: TableApp, pilot: Pilot[None]) -> None:
    """Wait for every search under way (the table's and the review page's), then for the screen."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_v_opens_the_review_with_a_chart_and_esc_closes_it() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("v")
        await settled(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        report = text(app, "#review-text")
        assert "Review of deal #3 (standard rules): 3 moves, not finished." in report
        assert "100% |" in report and "Accuracy:" in report and "Luck:" in report
        assert "Seeing every card (the solver)" not in report   # during a game: the fair part only
        assert "shown once the game has ended" in report
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)
        assert app.reviewed is not None and app.reviewed.moves == app.history.moves
        assert not app.is_assisted()
        await pilot.press("v")   # the same moves: the review made is shown at once
        assert isinstance(app.screen, ReviewScreen) and app.screen.review is app.reviewed
        assert "Accuracy:" in text(app, "#review-text")
        await pilot.press("escape")

    run(scenario, TableApp(duchess()))


def test_no_review_before_the_first_move() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("v")
        assert not isinstance(app.screen, ReviewScreen)
        assert "Review: no move played yet." in status(app)

    run(scenario, TableApp(duchess([])))


def test_closing_a_review_in_progress_stops_it() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.worker is not None
        await pilot.press("escape")
        await settled(app, pilot)
        assert screen.worker.state is WorkerState.CANCELLED
        assert not screen.review.complete and len(screen.review.entries) < len(LONG_LINE)
        assert app.reviewed is None

    run(scenario, TableApp(duchess(LONG_LINE)))


def test_analysis_mode_hint_is_the_solvers_labelled_and_marks_the_game_assisted(tmp_path: Path) -> None:
    keeper = GameKeeper(tmp_path)
    play = keeper.start(duchess([]), True)

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")   # the fair hint: no assist
        await settled(app, pilot)
        assert ANALYSIS not in status(app) and not play.assisted and "assisted" not in clock(app)
        await pilot.press("A")
        assert "Analysis mode on" in status(app) and clock(app).startswith("analysis")
        await pilot.press("h")
        await settled(app, pilot)
        said = status(app).lower()
        assert said.startswith(f"duchess · #3 · 0 moves · round 1 of 2 │ {ANALYSIS}: the ")
        assert "(the first move of a winning line)" in said and "this game is assisted" in said
        assert app.table.hint is not None and app.table.hint in app.history.state.legal_moves
        assert play.assisted and app.is_assisted() and "assisted" in clock(app)
        await pilot.press("c")
        await settled(app, pilot)
        assert f"{ANALYSIS}: the game can still be won." in status(app).lower()
        await pilot.press("A")
        assert "Analysis mode off" in status(app) and clock(app).startswith("assisted")

    try:
        run(scenario, TableApp(play.history, keeper=keeper))
    finally:
        keeper.close()
    again = GameKeeper(tmp_path)
    try:
        assert again.referee.get(keeper.game_id or "").assisted   # the store keeps it
    finally:
        again.close()


def test_the_review_in_analysis_mode_shows_the_solvers_part_and_assists() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("A", "v")
        await settled(app, pilot)
        report = text(app, "#review-text")
        assert "Seeing every card (the solver): the deal could be won from its opening" in report
        assert "counts as assisted" in text(app, "#review-title")
        assert app.is_assisted()
        await pilot.press("escape")
        assert "assisted" in clock(app)

    run(scenario, TableApp(duchess()))


def test_the_clock_ticks_during_play_and_stops_under_a_page() -> None:
    now = [100.0]
    app = TableApp(duchess([]), now=lambda: now[0])

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        assert clock(app) == "0:00"
        now[0] += 65.4
        app.tick_clock()
        assert clock(app) == "1:05"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        now[0] += 600
        app.tick_clock()
        assert clock(app) == "1:05"   # the help page was open: not play
        await pilot.press("escape")
        now[0] += 1
        app.tick_clock()
        assert clock(app) == "1:06"
        now[0] += 3600
        app.tick_clock()
        assert clock(app) == "1:01:06"

    run(scenario, app)


def test_a_tick_while_the_table_closes_is_no_error() -> None:
    # The timer's last tick can come after the app's widgets are gone.
    now = [100.0]
    app = TableApp(duchess([]), now=lambda: now[0])

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await app.query_one("#status-line").remove()
        now[0] += 5
        app.tick_clock()
        assert app.clock.words() == "0:05"

    run(scenario, app)


def test_the_clock_is_the_stored_games_clock(tmp_path: Path) -> None:
    keeper = GameKeeper(tmp_path)
    play = keeper.start(duchess([]), True)
    play.active = 125.0
    now = [0.0]

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        assert clock(app) == "2:05"
        now[0] += 0.5
        app.tick_clock()
        assert play.active >= 125.0 and clock(app) == "2:05"

    try:
        run(scenario, TableApp(play.history, keeper=keeper, now=lambda: now[0]))
    finally:
        keeper.close()
