"""The statistics screen (``s``): per game and ruleset, the figures the browser's statistics
show, from the same store (:func:`kibitz.web.store.statistics`)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from kibitz.registry import find

HEADS = ("Game", "Rules", "Played", "Won", "Win rate", "Streak", "Best streak", "Best time", "Fewest moves")
NO_GAMES = "No finished games yet: a game counts when it is won, has no move left, or is given up."
NOT_KEPT = "Statistics are kept only for games kept in the data directory."


def clock_text(seconds: float) -> str:
    """Seconds as the browser's clock shows them: m:ss, or h:mm:ss past the hour."""
    whole = max(0, int(seconds))
    minutes, second = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}:{second:02d}"
    return f"{minutes // 60}:{minutes % 60:02d}:{second:02d}"


def row_cells(row: dict[str, Any]) -> tuple[str, ...]:
    """One game and ruleset's figures, as the table shows them (``–``: none yet)."""
    best_time = row["best_time"]
    fewest = row["fewest_moves"]
    return (find(row["game"]).name, row["ruleset"], str(row["played"]), str(row["won"]),
            f"{round(row['win_rate'] * 100)}%", str(row["current_streak"]), str(row["best_streak"]),
            "–" if best_time is None else clock_text(best_time), "–" if fewest is None else str(fewest))


class StatisticsScreen(ModalScreen[None]):
    """The statistics of every game and ruleset played; Esc, ``s`` or ``q`` closes it.

    ``rows``: :func:`kibitz.web.store.statistics`; ``None`` when no store is kept."""

    DEFAULT_CSS = """
    StatisticsScreen { align: center middle; }
    StatisticsScreen > Vertical { width: 102; max-width: 100%; height: auto; max-height: 100%;
                                  padding: 0 1; border: round $accent; background: $surface; }
    StatisticsScreen #stats-title { text-style: bold; }
    StatisticsScreen DataTable { width: 100%; height: auto; max-height: 20; }
    StatisticsScreen #stats-note, StatisticsScreen #stats-close { color: $text-muted; }
    """
    BINDINGS = [Binding("escape,s,q", "close", "Close")]

    def __init__(self, rows: list[dict[str, Any]] | None) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Statistics", id="stats-title")
            if self.rows:
                table: DataTable[str] = DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
                table.add_columns(*HEADS)
                for row in self.rows:
                    table.add_row(*row_cells(row))
                yield table
                yield Static("Best time and fewest moves: of the games won unassisted. "
                             "The browser's statistics count the same games.", id="stats-note")
            else:
                yield Static(NO_GAMES if self.rows is not None else NOT_KEPT, id="stats-empty")
            yield Static("Esc closes", id="stats-close")

    def action_close(self) -> None:
        self.dismiss(None)
