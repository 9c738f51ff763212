"""Driving the full-screen table with Textual's test pilot, shared by the table's tests."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Static

from kibitz.tui.screen.app import TableApp

Scenario = Callable[[TableApp, Pilot[None]], Awaitable[None]]
"""What a test does at the table: given the app and its pilot."""


def drive(app: TableApp, scenario: Scenario, size: tuple[int, int] = (120, 40)) -> TableApp:
    """Run ``app`` in a screen of ``size`` (columns, lines), play ``scenario`` once it is drawn,
    and return the app (pytest-asyncio is not needed: the loop is this call's)."""
    async def session() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(session())
    return app


def status(app: TableApp) -> str:
    """The status line as shown."""
    return str(app.query_one("#status", Static).render())
