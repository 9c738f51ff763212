"""SQLite storage of the browser player: games in progress and finished games.

A game in progress is kept as its verified record text (:mod:`kibitz.records`,
the moves up to the current position) plus the undone moves that may still be
redone, so it survives a server restart. A game counts in the statistics the
first time it ends (won, or no legal move left); undoing afterwards does not
change its result.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.moves import Move, parse_move
from kibitz.records import format_record, parse_record, record_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    deal TEXT NOT NULL,
    record TEXT NOT NULL,
    redo TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    slug TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    deal TEXT NOT NULL,
    record TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    finished REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_game ON results (slug, ruleset, finished);
"""

DATABASE_NAME = "kibitz-web.db"


class StoredGameError(KibitzError):
    """A saved game that can no longer be resumed (corrupt, or made under other rules)."""


@dataclass
class Play:
    """A game in progress: its history and when it was started."""

    history: History
    created: float
    result: str | None = None


@dataclass(frozen=True)
class Result:
    """A finished game as the statistics see it."""

    slug: str
    ruleset: str
    deal: str
    result: str
    seconds: float
    moves: int
    finished: float


class Store:
    """The SQLite file of the browser player. Safe to share between threads."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / DATABASE_NAME
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, parameters).fetchall()

    # -- games in progress ----------------------------------------------------

    def save(self, game_id: str, play: Play) -> None:
        """Write (or overwrite) a game in progress."""
        history = play.history
        record = format_record(record_of(history))
        redo = " ".join(str(m) for m in _redo_line(history))
        self._run("INSERT INTO games (id, slug, ruleset, deal, record, redo, created, updated) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                  "record = excluded.record, redo = excluded.redo, updated = excluded.updated",
                  (game_id, history.game.slug, history.game.ruleset, str(history.deal_number),
                   record, redo, play.created, time.time()))

    def load(self, game_id: str) -> Play | None:
        """The saved game ``game_id``, or ``None`` when there is none."""
        rows = self._run("SELECT record, redo, created FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        record_text, redo_text, created = rows[0]
        try:
            history = parse_record(record_text).history()
            redo = [parse_move(text) for text in redo_text.split()]
            for move in redo:
                history.play(move)
            for _ in redo:
                history.undo()
        except KibitzError as error:
            raise StoredGameError(f"this saved game cannot be resumed: {error}") from None
        results = self._run("SELECT result FROM results WHERE game_id = ?", (game_id,))
        return Play(history, float(created), results[0][0] if results else None)

    def open_games(self, limit: int = 50) -> list[dict[str, Any]]:
        """The games not yet finished, most recently played first."""
        rows = self._run(
            "SELECT id, slug, ruleset, deal, record, updated FROM games "
            "WHERE id NOT IN (SELECT game_id FROM results) ORDER BY updated DESC LIMIT ?", (limit,))
        return [{"id": r[0], "game": r[1], "ruleset": r[2], "deal": r[3],
                 "moves": _move_count(r[4]), "updated": r[5]} for r in rows]

    # -- finished games ----------------------------------------------------------

    def finish(self, game_id: str, play: Play, result: str) -> None:
        """Count a game that has just ended, unless it was counted already."""
        history = play.history
        now = time.time()
        self._run("INSERT OR IGNORE INTO results (game_id, slug, ruleset, deal, record, result, "
                  "seconds, moves, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (game_id, history.game.slug, history.game.ruleset, str(history.deal_number),
                   format_record(record_of(history)), result, max(0.0, now - play.created),
                   len(history.moves), now))

    def results(self) -> list[Result]:
        """Every finished game, oldest first."""
        rows = self._run("SELECT slug, ruleset, deal, result, seconds, moves, finished "
                         "FROM results ORDER BY finished, rowid")
        return [Result(*row) for row in rows]


def _redo_line(history: History) -> list[Move]:
    """The undone moves that redo would play again, in order (the history is left as it was)."""
    moves: list[Move] = []
    while history.can_redo:
        history.redo()
        moves.append(history.moves[-1])
    for _ in moves:
        history.undo()
    return moves


def _move_count(record: str) -> int:
    for line in record.splitlines():
        if line.startswith("moves:"):
            value = line.removeprefix("moves:").strip()
            return int(value) if value.isdigit() else 0
    return 0


def statistics(results: list[Result]) -> list[dict[str, Any]]:
    """Per game and ruleset: played, won, win rate, current and best streak, best time, fewest moves."""
    groups: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        groups.setdefault((result.slug, result.ruleset), []).append(result)
    table = []
    for (slug, ruleset), rows in groups.items():
        won = [r for r in rows if r.result == "won"]
        best = current = 0
        for r in rows:
            current = current + 1 if r.result == "won" else 0
            best = max(best, current)
        table.append({
            "game": slug, "ruleset": ruleset, "played": len(rows), "won": len(won),
            "win_rate": len(won) / len(rows), "current_streak": current, "best_streak": best,
            "best_time": min((r.seconds for r in won), default=None),
            "fewest_moves": min((r.moves for r in won), default=None),
        })
    return table
