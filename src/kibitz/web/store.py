"""SQLite storage of the browser player: games in progress and finished games.

A game is kept as its line of moves, one row per move, and the number of them that
are played (the rest are undone moves that redo may play again). A move played costs
one small transaction, whatever the length of the game: the undone moves it replaces
are deleted, the move is appended and the position updated together. Undo, redo and
restart only change the position. Loading a game replays its whole line through the
rules, so a move that is not legal is caught. A game counts in the statistics the
first time it ends (won, or no legal move left), with its record (:mod:`kibitz.records`);
undoing afterwards does not change its result. Finished games are deleted from the
games in progress some days after their last move (their results stay).

Each game and result also keeps whether its deal was chosen by number (a random deal's
number is not shown while it is played) and whether it was *assisted*: the solver, which
sees every card, was asked about it before it ended. A *practice* game (a deal replayed from
a position of an earlier game) never counts: it has no result row, and how it ended is kept
with the game itself. A game opened from a record file is a practice game too: anyone can
write a record, so it is never a result of the player's (:meth:`Store.create` keeps how it
ended when it was opened finished). A *deal of the day* (:mod:`kibitz.daily`) keeps its date
with its game and its result: the statistics count the days won in a row.

A game in which no move was ever played (none stored, played or undone) is *untouched*: it is
never listed among the games in progress, and it is not kept once another game starts
(:meth:`Store.drop_untouched`). Resetting the statistics deletes every result; the games stay,
and a finished game keeps how it ended with itself (:meth:`Store.reset_statistics`).

A game's complete reviews are kept with it (one per kind: the fair part only, or seeing
every card), keyed by what makes their figures: the moves reviewed, the seed, the review's
version and the build. A finished game's review, once made, adds its accuracy, blunders and
whether the deal could be won at the start to the game's result.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.moves import parse_move
from kibitz.records import format_record, parse_record, record_of
from kibitz.registry import game as find_game

SCHEMA_VERSION = 6
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    deal TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    problem TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    active REAL NOT NULL DEFAULT 0,
    chosen INTEGER NOT NULL DEFAULT 1,
    assisted INTEGER NOT NULL DEFAULT 0,
    practice INTEGER NOT NULL DEFAULT 0,
    ended TEXT,
    daily TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    slug TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    deal TEXT NOT NULL,
    record TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    finished REAL NOT NULL,
    abandoned INTEGER NOT NULL DEFAULT 0,
    chosen INTEGER NOT NULL DEFAULT 1,
    assisted INTEGER NOT NULL DEFAULT 0,
    reviewed INTEGER NOT NULL DEFAULT 0,
    accuracy REAL,
    blunders INTEGER,
    winnable_at_start INTEGER,
    daily TEXT
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT NOT NULL,
    sees_every_card INTEGER NOT NULL,
    digest TEXT NOT NULL,
    seed TEXT NOT NULL,
    version INTEGER NOT NULL,
    build TEXT NOT NULL,
    moves INTEGER NOT NULL,
    review TEXT NOT NULL,
    made REAL NOT NULL,
    PRIMARY KEY (game_id, sees_every_card)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_by_game ON results (slug, ruleset, finished);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated);
"""

NEW_COLUMNS = (("games", "active", "REAL NOT NULL DEFAULT 0"),
               ("results", "abandoned", "INTEGER NOT NULL DEFAULT 0"),
               ("games", "chosen", "INTEGER NOT NULL DEFAULT 1"),
               ("games", "assisted", "INTEGER NOT NULL DEFAULT 0"),
               ("results", "chosen", "INTEGER NOT NULL DEFAULT 1"),
               ("results", "assisted", "INTEGER NOT NULL DEFAULT 0"),
               ("games", "practice", "INTEGER NOT NULL DEFAULT 0"),
               ("games", "ended", "TEXT"),
               ("results", "reviewed", "INTEGER NOT NULL DEFAULT 0"),
               ("results", "accuracy", "REAL"),
               ("results", "blunders", "INTEGER"),
               ("results", "winnable_at_start", "INTEGER"),
               ("games", "daily", "TEXT"),
               ("results", "daily", "TEXT"))
"""Columns that schemas 3 to 6 added to the tables of earlier schemas. A game of an earlier
schema counts as chosen by number (its number was shown), not assisted, not practice, not
reviewed and not a deal of the day."""

DATABASE_NAME = "kibitz-web.db"
DEFAULT_KEEP_FINISHED_DAYS = 30.0
"""Days a finished game stays resumable after its last move; its result is kept for good."""
UNTOUCHED_KEEP_SECONDS = 3600.0
"""How long an untouched game that another page may still show outlives the start of another game."""
PRUNE_EVERY_SECONDS = 3600.0


class StoredGameError(KibitzError):
    """A saved game that can no longer be resumed (corrupt, or made under other rules)."""


@dataclass
class Play:
    """A game in progress: its history, when it was started, its clock and its result."""

    history: History
    created: float
    result: str | None = None
    active: float = 0.0
    """Seconds of active play so far (the clock the player sees and the statistics keep)."""
    clock_at: float = 0.0
    """When the clock was last advanced (wall time)."""
    chosen: bool = True
    """Whether the deal was chosen by number (else it is a random deal, whose number is
    withheld until the game ends)."""
    assisted: bool = False
    """Whether the solver, which sees every card, was asked about this game."""
    practice: bool = False
    """A practice game: a deal replayed from a position of an earlier game, never counted."""
    daily: str | None = None
    """The date (``YYYY-MM-DD``) whose deal of the day this is (:mod:`kibitz.daily`), if it is one."""

    @property
    def is_deal_shown(self) -> bool:
        """Whether the player may be told the deal number: chosen by number, or the game has
        ended (won, lost or given up)."""
        return self.chosen or self.result is not None


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
    abandoned: bool = False
    """Given up mid-game (counted as lost)."""
    assisted: bool = False
    """The solver, which sees every card, was asked about it before it ended."""
    chosen: bool = True
    """Its deal was chosen by number (else it was a random deal)."""
    review: ReviewSummary | None = None
    """What the review of the finished game found (``None``: not reviewed)."""
    game_id: str = ""
    kept: bool = False
    """Whether the game itself is still stored (its table can be shown), not only its result."""
    daily: str | None = None
    """The date whose deal of the day it was, if it was one."""


@dataclass(frozen=True)
class ReviewSummary:
    """The figures of a finished game's review that the statistics keep."""

    accuracy: float
    """0 to 100."""
    blunders: int
    winnable_at_start: bool | None
    """Whether the deal could be won from its opening, seeing every card (``None``: undecided)."""

    @classmethod
    def of(cls, review: dict[str, Any]) -> ReviewSummary:
        """The summary of a review (:meth:`kibitz.analysis.Review.as_dict`)."""
        labels = review.get("labels") or {}
        winnable = review.get("winnable_at_start")
        return cls(float(review["accuracy"]), int(labels.get("blunder", 0)),
                   winnable if isinstance(winnable, bool) else None)


@dataclass(frozen=True)
class ReviewKey:
    """What makes a review's figures: the game, whether it sees every card, the moves reviewed
    (:func:`moves_digest`), the seed, the review's version and the build."""

    game_id: str
    sees_every_card: bool
    digest: str
    seed: int
    version: int
    build: str


def moves_digest(moves: Sequence[str]) -> str:
    """A digest of a line of moves (in notation)."""
    return hashlib.sha256(" ".join(moves).encode("ascii")).hexdigest()


class Store:
    """The SQLite file of the browser player. Safe to share between threads.

    ``keep_finished_days``: how long a finished game stays resumable (``None``: for ever).
    """

    def __init__(self, directory: Path, keep_finished_days: float | None = DEFAULT_KEEP_FINISHED_DAYS) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / DATABASE_NAME
        self.keep_finished_days = keep_finished_days
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # A committed move is in the log before it is acknowledged, so the server's crash or
        # kill loses none; the log is flushed to disk at checkpoints, not at every move (a
        # power cut may lose the last moves, never the database's soundness).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=10000")
        with self._transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            first = version < 2 and _columns(db, "games") >= {"record", "redo"}
            if first:
                db.execute("ALTER TABLE games RENAME TO old_games")
            for table, column, declaration in NEW_COLUMNS:   # added by schemas 3 and 4
                if _columns(db, table) and column not in _columns(db, table):
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
            for statement in _statements(SCHEMA):   # executescript would commit the transaction
                db.execute(statement)
            if first:
                _migrate(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._pruned = 0.0
        self.prune()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, parameters).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside one write transaction, committed at the end (rolled back on error)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- games in progress ----------------------------------------------------

    def create(self, game_id: str, play: Play) -> None:
        """Write a new game; its moves so far (usually none) with it, and how it ended when it
        is a practice game that has ended already (opened from a finished record)."""
        history = play.history
        game = history.game
        ended = play.result if play.practice else None
        with self._transaction() as db:
            db.execute("INSERT INTO games (id, slug, ruleset, rules_version, deal, position, created, updated, "
                       "chosen, assisted, practice, ended) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                       (game_id, game.slug, game.ruleset, game.info.rules_version, str(history.deal_number),
                        play.created, time.time(), int(play.chosen), int(play.assisted), int(play.practice), ended))
            if play.daily is not None:
                db.execute("UPDATE games SET daily = ? WHERE id = ?", (play.daily, game_id))
            _append(db, game_id, history, 0)

    def played(self, game_id: str, play: Play, since: int) -> None:
        """Record the moves played from position ``since`` to the current one: they replace the
        undone moves that were stored from there on. Costs the new and replaced moves only."""
        with self._transaction() as db:
            _append(db, game_id, play.history, since)
            db.execute("UPDATE games SET active = ? WHERE id = ?", (play.active, game_id))

    def moved(self, game_id: str, play: Play) -> None:
        """Record a change of position along the stored line (undo, redo, restart)."""
        self._run("UPDATE games SET position = ?, active = ?, updated = ? WHERE id = ?",
                  (play.history.move_count, play.active, time.time(), game_id))

    def clocked(self, game_id: str, play: Play) -> None:
        """Record the game's clock of active play."""
        self._run("UPDATE games SET active = ?, updated = ? WHERE id = ?", (play.active, time.time(), game_id))

    def assisted(self, game_id: str) -> None:
        """Record that the solver was asked about a game."""
        self._run("UPDATE games SET assisted = 1 WHERE id = ?", (game_id,))

    def load(self, game_id: str) -> Play | None:
        """The saved game ``game_id``, its moves replayed, or ``None`` when there is none."""
        rows = self._run("SELECT slug, ruleset, rules_version, deal, position, problem, created, updated, active, "
                         "chosen, assisted, practice, ended, daily FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        (slug, ruleset, rules_version, deal, position, problem, created, updated, active, chosen, assisted,
         practice, ended, daily) = rows[0]
        if problem:
            raise StoredGameError(f"this saved game cannot be resumed: {problem}")
        line = [row[0] for row in self._run("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        try:
            game = find_game(slug, ruleset)
            if game.info.rules_version != rules_version:
                raise KibitzError(f"it was played under rules version {rules_version} of {game.name}; "
                                  f"this kibitz plays version {game.info.rules_version}")
            history = History.replay(game.deal(int(deal)), (parse_move(text) for text in line), int(deal))
            if not 0 <= position <= len(line):
                raise KibitzError(f"its position {position} is not on its line of {len(line)} moves")
            for _ in range(len(line) - position):
                history.undo()
        except (KibitzError, ValueError) as error:
            raise StoredGameError(f"this saved game cannot be resumed: {error}") from None
        results = self._run("SELECT result FROM results WHERE game_id = ?", (game_id,))
        return Play(history, float(created), results[0][0] if results else ended, float(active), float(updated),
                    chosen=bool(chosen), assisted=bool(assisted), practice=bool(practice), daily=daily)

    def open_games(self, limit: int = 50) -> list[dict[str, Any]]:
        """The games not yet finished and not untouched (a move is stored), most recently played
        first, with their clock of active play (``seconds``) and the date of a deal of the day
        (``daily``); a random deal's number is withheld (``None``, and ``random_deal`` true)."""
        rows = self._run(
            "SELECT id, slug, ruleset, deal, position, updated, chosen, assisted, practice, active, daily FROM games "
            "WHERE id NOT IN (SELECT game_id FROM results) AND ended IS NULL "
            "AND EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id) ORDER BY updated DESC LIMIT ?", (limit,))
        return [{"id": r[0], "game": r[1], "ruleset": r[2], "deal": r[3] if r[6] else None, "random_deal": not r[6],
                 "moves": r[4], "updated": r[5], "assisted": bool(r[7]), "practice": bool(r[8]),
                 "seconds": round(r[9], 1), "daily": r[10]} for r in rows]

    def drop_untouched(self, started: str, leaving: str | None = None, now: float | None = None) -> list[str]:
        """Delete the untouched games (no move stored, played or undone; no result; not ended)
        once game ``started`` has started: the game ``leaving`` that the player's page left for
        it, and any other not played for :data:`UNTOUCHED_KEEP_SECONDS` (another page may still
        show a newer one). A game with a move or a result is never deleted. Returns their ids."""
        clock = time.time() if now is None else now
        untouched = ("SELECT id FROM games WHERE id != ? AND (id = ? OR updated < ?) AND ended IS NULL "
                     "AND id NOT IN (SELECT game_id FROM results) "
                     "AND NOT EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id)")
        parameters = (started, leaving or "", clock - UNTOUCHED_KEEP_SECONDS)
        with self._transaction() as db:
            ids = [row[0] for row in db.execute(untouched, parameters)]
            db.execute(f"DELETE FROM games WHERE id IN ({untouched})", parameters)
        return ids

    def open_daily(self, slug: str, ruleset: str, day: str) -> str | None:
        """The game in progress (not finished, not given up) of the deal of the day ``day`` of
        ``slug`` and ``ruleset``, most recently played, if there is one."""
        rows = self._run("SELECT id FROM games WHERE slug = ? AND ruleset = ? AND daily = ? AND ended IS NULL "
                         "AND practice = 0 AND id NOT IN (SELECT game_id FROM results) "
                         "ORDER BY updated DESC LIMIT 1", (slug, ruleset, day))
        return str(rows[0][0]) if rows else None

    def line(self, game_id: str) -> tuple[list[str], int] | None:
        """The stored line of moves of a game (as text) and how many of them are played."""
        rows = self._run("SELECT position FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        moves = [r[0] for r in self._run("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        return moves, rows[0][0]

    def stamp(self, game_id: str) -> tuple[list[str], int, str | None] | None:
        """What tells whether a copy of a game is current: its stored line of moves, how many
        of them are played, and its result (None while it goes on; None for no such game)."""
        line = self.line(game_id)
        if line is None:
            return None
        rows = self._run("SELECT COALESCE((SELECT result FROM results WHERE game_id = games.id), ended) "
                         "FROM games WHERE id = ?", (game_id,))
        return line[0], line[1], rows[0][0] if rows else None

    # -- finished games ----------------------------------------------------------

    def finish(self, game_id: str, play: Play, result: str, abandoned: bool = False) -> None:
        """Count a game that has just ended (or was given up), unless it was counted already;
        its time is its clock of active play, and it is assisted if the game was."""
        history = play.history
        self._run("INSERT OR IGNORE INTO results (game_id, slug, ruleset, deal, record, result, "
                  "seconds, moves, finished, abandoned, chosen, assisted, daily) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (game_id, history.game.slug, history.game.ruleset, str(history.deal_number),
                   format_record(record_of(history)), result, play.active, history.move_count,
                   time.time(), int(abandoned), int(play.chosen), int(play.assisted), play.daily))

    def practice_ended(self, game_id: str, result: str) -> None:
        """Record how a practice game ended (it is never counted: no result row)."""
        self._run("UPDATE games SET ended = ?, updated = ? WHERE id = ?", (result, time.time(), game_id))

    def results(self) -> list[Result]:
        """Every finished game, oldest first."""
        rows = self._run("SELECT slug, ruleset, deal, result, seconds, moves, finished, abandoned, assisted, chosen, "
                         "reviewed, accuracy, blunders, winnable_at_start, game_id, "
                         "game_id IN (SELECT id FROM games), daily FROM results ORDER BY finished, rowid")
        return [Result(slug, ruleset, deal, result, seconds, moves, finished, bool(abandoned), bool(assisted),
                       bool(chosen), ReviewSummary(accuracy, blunders, None if winnable is None else bool(winnable))
                       if reviewed else None, game_id, bool(kept), daily)
                for (slug, ruleset, deal, result, seconds, moves, finished, abandoned, assisted, chosen,
                     reviewed, accuracy, blunders, winnable, game_id, kept, daily) in rows]

    def reset_statistics(self) -> int:
        """Delete every result (the statistics start again from nothing); returns how many. The
        games stay: each finished one keeps how it ended with itself, so that it is still shown
        ended, is not listed among the games in progress, and never counts again. Its reviews stay."""
        with self._transaction() as db:
            db.execute("UPDATE games SET ended = (SELECT result FROM results WHERE game_id = games.id) "
                       "WHERE ended IS NULL AND id IN (SELECT game_id FROM results)")
            return db.execute("DELETE FROM results").rowcount

    # -- reviews ---------------------------------------------------------------------

    def review(self, key: ReviewKey) -> dict[str, Any] | None:
        """The complete review kept under ``key``, if any."""
        rows = self._run("SELECT digest, seed, version, build, review FROM reviews "
                         "WHERE game_id = ? AND sees_every_card = ?", (key.game_id, int(key.sees_every_card)))
        if not rows or tuple(rows[0][:4]) != (key.digest, str(key.seed), key.version, key.build):
            return None
        review: dict[str, Any] = json.loads(rows[0][4])
        return review

    def keep_review(self, key: ReviewKey, moves: Sequence[str], review: dict[str, Any]) -> None:
        """Keep a complete review (in place of the game's earlier one of its kind); a review of
        a finished game's whole line, seeing every card, also goes into its result."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO reviews (game_id, sees_every_card, digest, seed, version, build, moves, "
                       "review, made) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (key.game_id, int(key.sees_every_card), key.digest, str(key.seed), key.version, key.build,
                        len(moves), json.dumps(review), time.time()))
            if not key.sees_every_card:
                return
            row = db.execute("SELECT record FROM results WHERE game_id = ?", (key.game_id,)).fetchone()
            try:
                line = [str(move) for move in parse_record(row[0]).moves] if row else None
            except KibitzError:
                line = None
            if line != list(moves):
                return
            summary = ReviewSummary.of(review)
            winnable = None if summary.winnable_at_start is None else int(summary.winnable_at_start)
            db.execute("UPDATE results SET reviewed = 1, accuracy = ?, blunders = ?, winnable_at_start = ? "
                       "WHERE game_id = ?", (summary.accuracy, summary.blunders, winnable, key.game_id))

    def prune(self, now: float | None = None) -> int:
        """Delete the finished games whose last move is older than ``keep_finished_days``
        (their results stay); returns how many. Runs at most once an hour unless ``now`` is given."""
        clock = time.time() if now is None else now
        if self.keep_finished_days is None or (now is None and clock - self._pruned < PRUNE_EVERY_SECONDS):
            return 0
        self._pruned = clock
        cutoff = clock - self.keep_finished_days * 86400.0
        with self._transaction() as db:
            old = ("SELECT id FROM games WHERE updated < ? AND (id IN (SELECT game_id FROM results) "
                   "OR ended IS NOT NULL)")
            db.execute(f"DELETE FROM moves WHERE game_id IN ({old})", (cutoff,))
            db.execute(f"DELETE FROM reviews WHERE game_id IN ({old})", (cutoff,))
            return db.execute(f"DELETE FROM games WHERE id IN ({old})", (cutoff,)).rowcount


def _append(db: sqlite3.Connection, game_id: str, history: History, since: int) -> None:
    """Store the moves of ``history``'s line from ``since`` to its position (inside a transaction)."""
    db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, since))
    db.executemany("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                   ((game_id, ply, str(move)) for ply, move in enumerate(history.moves_since(since), since)))
    db.execute("UPDATE games SET position = ?, updated = ? WHERE id = ?",
               (history.move_count, time.time(), game_id))


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _statements(script: str) -> list[str]:
    return [statement for statement in script.split(";") if statement.strip()]


def _migrate(db: sqlite3.Connection) -> None:
    """Move the games of the first schema (a whole record per game) to lines of moves."""
    for game_id, slug, ruleset, deal, record, redo, created, updated in db.execute(
            "SELECT id, slug, ruleset, deal, record, redo, created, updated FROM old_games").fetchall():
        problem = None
        played: list[str] = []
        undone: list[str] = []
        version = 0
        try:
            parsed = parse_record(record)
            version = parsed.game.info.rules_version
            played = [str(m) for m in parsed.moves]
            undone = [str(parse_move(m)) for m in redo.split()]
        except KibitzError as error:
            problem = str(error)
        moves = played + undone
        db.execute("INSERT INTO games (id, slug, ruleset, rules_version, deal, position, problem, created, updated) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (game_id, slug, ruleset, version, deal, len(played), problem, created, updated))
        db.executemany("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                       ((game_id, ply, move) for ply, move in enumerate(moves)))
    db.execute("DROP TABLE old_games")


def statistics(results: list[Result]) -> list[dict[str, Any]]:
    """Per game and ruleset: played, won, abandoned (counted as lost), assisted (the solver was
    asked), win rate, current and best streak, best time and fewest moves (of the games won
    unassisted); of the reviewed games: how many, their average accuracy, blunders per game,
    and the games that could have been won (lost, though the deal could be won at the start)."""
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
        earned = [r for r in won if not r.assisted]
        reviewed = [(r, r.review) for r in rows if r.review is not None]
        table.append({
            "game": slug, "ruleset": ruleset, "played": len(rows), "won": len(won),
            "abandoned": sum(r.abandoned for r in rows), "assisted": sum(r.assisted for r in rows),
            "win_rate": len(won) / len(rows), "current_streak": current, "best_streak": best,
            "best_time": min((r.seconds for r in earned), default=None),
            "fewest_moves": min((r.moves for r in earned), default=None),
            "reviewed": len(reviewed),
            "accuracy": sum(s.accuracy for _, s in reviewed) / len(reviewed) if reviewed else None,
            "blunders_per_game": sum(s.blunders for _, s in reviewed) / len(reviewed) if reviewed else None,
            "could_have_won": sum(r.result == "lost" and s.winnable_at_start is True for r, s in reviewed),
        })
    return table
