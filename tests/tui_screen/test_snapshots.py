"""The opening table of every game at 100x32, compared with a stored SVG snapshot
(``pytest-textual-snapshot``; ``pytest --snapshot-update`` stores new ones on purpose)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import kibitz
from kibitz.history import History
from kibitz.tui.screen.app import TableApp

SLUGS = [info.slug for info in kibitz.games()]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_opening_table_looks_as_stored(slug: str, snap_compare: Callable[..., Any]) -> None:
    app = TableApp(History.new(kibitz.game(slug), 5), now=lambda: 0.0)   # the clock stands at 0:00
    assert snap_compare(app, terminal_size=(100, 32))
