"""The result store, one SQLite file with four tables: ``results``, one row per deal solved
(game, ruleset, deal, solver version, rules version); ``plays``, one row per deal played
by an agent for the odds (game, ruleset, agent, setting, seed, deal and the versions);
``speeds``, the machine's speed at the start and end of each study run
(:mod:`kibitz.study.speed`); and ``checks``, the independent check of each proved loss
(:mod:`kibitz.study.loss_check`)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from kibitz.solver.result import NATIVE_TABLE
from kibitz.solver.search import MEMORY_LIMIT
from kibitz.study.speed import Speed

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    deal TEXT NOT NULL,            -- deal numbers reach 20 digits: kept as text, ordered by (length, text)
    outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'unknown')),
    reason TEXT,                   -- why unknown: time limit, node limit, memory limit
    moves TEXT NOT NULL,           -- the winning moves, space-separated ('' unless won)
    nodes INTEGER NOT NULL,
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,         -- solver time for this deal
    timeout REAL,                  -- the time limit it ran under (seconds)
    node_limit INTEGER,            -- the node limit it ran under, if any
    clock TEXT NOT NULL DEFAULT 'wall' CHECK (clock IN ('wall', 'cpu')),  -- what the time limit counted
    table_limit INTEGER,           -- the most positions its search's table could hold, if set (NULL: the build's own)
    solver_version INTEGER NOT NULL,
    rules_version INTEGER NOT NULL,
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (game, ruleset, deal, solver_version, rules_version)
);
CREATE TABLE IF NOT EXISTS plays (
    game TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    agent TEXT NOT NULL,
    setting TEXT NOT NULL,         -- the agent's search setting ('-' for an agent that has none)
    seed INTEGER NOT NULL,         -- the run's seed: with the deal number it seeds the agent's generator
    deal TEXT NOT NULL,            -- as in results
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    ending TEXT NOT NULL,          -- how the game ended: won, no move left, repeated position, stalled, move limit
    moves INTEGER NOT NULL,        -- moves played
    cpu_seconds REAL NOT NULL,     -- processor time of the game (the agent's and the referee's)
    agent_version INTEGER NOT NULL,
    solver_version INTEGER NOT NULL,  -- of the solver the agent searches with (0: it does not search)
    rules_version INTEGER NOT NULL,
    kibitz_version TEXT NOT NULL,
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (game, ruleset, agent, setting, seed, deal, agent_version, solver_version, rules_version)
);
CREATE TABLE IF NOT EXISTS speeds (
    game TEXT NOT NULL,            -- the study run's game and ruleset
    ruleset TEXT NOT NULL,
    moment TEXT NOT NULL CHECK (moment IN ('start', 'end')),
    nodes INTEGER NOT NULL,        -- nodes the fixed workload searched
    seconds REAL NOT NULL,         -- processor seconds they took
    build TEXT NOT NULL,           -- native or python
    solver_version INTEGER NOT NULL,
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (game, ruleset, moment, recorded, build, solver_version)
);
CREATE TABLE IF NOT EXISTS checks (
    game TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    deal TEXT NOT NULL,            -- as in results
    verdict TEXT NOT NULL CHECK (verdict IN ('lost', 'won', 'unknown')),
    positions INTEGER NOT NULL,    -- distinct positions visited
    seconds REAL NOT NULL,         -- processor seconds
    position_limit INTEGER NOT NULL,
    checker_version INTEGER NOT NULL,
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (game, ruleset, deal, checker_version)
);
"""


@dataclass(frozen=True)
class Row:
    """The result of solving one deal."""

    game: str
    ruleset: str
    deal: int
    outcome: str
    reason: str | None
    moves: tuple[str, ...]
    nodes: int
    states: int
    seconds: float
    timeout: float | None
    solver_version: int
    rules_version: int
    node_limit: int | None = None
    clock: str = "wall"
    """What ``timeout`` and ``seconds`` count: ``wall`` or ``cpu`` (``kibitz.solver.Limits.clock``)."""
    table_limit: int | None = None
    """The most positions the search's transposition table could hold, where the run set it
    (``kibitz.solver.Limits.table``); ``None``: the build's own limit."""

    def as_dict(self) -> dict[str, object]:
        return {"game": self.game, "ruleset": self.ruleset, "deal": self.deal, "outcome": self.outcome,
                "reason": self.reason, "moves": list(self.moves), "nodes": self.nodes,
                "states": self.states, "seconds": self.seconds, "timeout": self.timeout,
                "solver_version": self.solver_version, "rules_version": self.rules_version,
                "node_limit": self.node_limit, "clock": self.clock, "table_limit": self.table_limit}


@dataclass(frozen=True)
class Play:
    """One deal played by an agent from the opening to the end."""

    game: str
    ruleset: str
    agent: str
    setting: str
    seed: int
    deal: int
    won: bool
    ending: str
    moves: int
    cpu_seconds: float
    agent_version: int
    solver_version: int
    rules_version: int
    kibitz_version: str

    @property
    def outcome(self) -> str:
        """``won`` or ``lost`` (the progress line counts outcomes)."""
        return "won" if self.won else "lost"

    def as_dict(self) -> dict[str, object]:
        return {"game": self.game, "ruleset": self.ruleset, "agent": self.agent, "setting": self.setting,
                "seed": self.seed, "deal": self.deal, "won": self.won, "ending": self.ending,
                "moves": self.moves, "cpu_seconds": self.cpu_seconds, "agent_version": self.agent_version,
                "solver_version": self.solver_version, "rules_version": self.rules_version,
                "kibitz_version": self.kibitz_version}


RECORD_COLUMNS = ("game", "ruleset", "deal", "outcome", "reason", "nodes", "states", "seconds", "timeout",
                  "node_limit", "clock", "table_limit", "solver_version", "rules_version", "recorded", "moves")
"""The columns of a result row as :meth:`Store.records` gives them and :meth:`Store.merge` takes them."""

SPEED_COLUMNS = ("game", "ruleset", "moment", "nodes", "seconds", "build", "solver_version", "recorded")
"""The columns of a speed measure as :meth:`Store.speed_records` gives them and
:meth:`Store.merge_speeds` takes them."""

CHECK_COLUMNS = ("game", "ruleset", "deal", "verdict", "positions", "seconds", "position_limit", "checker_version",
                 "recorded")
"""The columns of a loss check as :meth:`Store.check_records` gives them and
:meth:`Store.merge_checks` takes them."""

ADDED_COLUMNS = (("clock", "TEXT NOT NULL DEFAULT 'wall' CHECK (clock IN ('wall', 'cpu'))"),
                 ("table_limit", "INTEGER"))
"""Columns of ``results`` that a file written before them lacks, added when it is opened: a
file written before time limits had a clock counted wall-clock time, and one written before
the table limit was recorded used the build's own."""


def _table(value: str) -> str:
    """SQL for the positions a search's table held, given its ``table_limit`` column (or
    parameter) ``value``: a missing one is the native build's own,
    :data:`~kibitz.solver.result.NATIVE_TABLE`."""
    return f"coalesce({value}, {NATIVE_TABLE})"


PLAY_COLUMNS = ("game, ruleset, agent, setting, seed, deal, won, ending, moves, cpu_seconds, agent_version,"
                " solver_version, rules_version, kibitz_version")

PLAY_RECORD_COLUMNS = (*PLAY_COLUMNS.split(", "), "recorded")
"""The columns of a played deal as :meth:`Store.play_records` gives them and
:meth:`Store.merge_plays` takes them."""


class Store:
    """A study database. Writes come from one process (the coordinator of a study or odds run)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True)
        self.connection = sqlite3.connect(str(self.path), timeout=30)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self.connection.executescript(SCHEMA)
        for column, definition in ADDED_COLUMNS:
            if column not in self._columns():
                try:
                    with self.connection:
                        self.connection.execute(f"ALTER TABLE results ADD COLUMN {column} {definition}")
                except sqlite3.OperationalError:
                    if column not in self._columns():  # not another process adding it at the same time
                        raise
        self.written = 0
        """Rows (results or plays) this store has written: other processes may write the
        same file, and a new row may replace an old one, so counting the file tells less."""

    def _columns(self) -> set[str]:
        """The names of the columns of ``results``."""
        return {name for (_, name, *_) in self.connection.execute("PRAGMA table_info(results)")}

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def decided(self, game: str, ruleset: str, solver_version: int | None, rules_version: int) -> set[int]:
        """Deals already won or lost under these versions (a rerun skips them); with
        ``solver_version`` ``None``, by any solver version."""
        query = ("SELECT DISTINCT deal FROM results WHERE game=? AND ruleset=? AND rules_version=?"
                 " AND outcome != 'unknown'")
        parameters: tuple[object, ...] = (game, ruleset, rules_version)
        if solver_version is not None:
            query += " AND solver_version=?"
            parameters += (solver_version,)
        return {int(deal) for (deal,) in self.connection.execute(query, parameters)}

    def tried(self, game: str, ruleset: str, solver_version: int, rules_version: int, timeout: float | None,
              node_limit: int | None, clock: str = "wall", table_limit: int | None = None) -> set[int]:
        """Deals these versions left unknown under limits at least as long as ``timeout`` on
        ``clock`` and ``node_limit`` (``None``: no limit of that kind): the same search would
        stop there again. A processor-time limit gives a search at least what a wall-clock
        limit of as many seconds does, so its rows count for both clocks; a wall-clock row
        counts only for a wall-clock limit (other work may have slowed it). A search stopped
        by its full table counts only for a table limit no larger than its own (``None``: the
        native build's own, :data:`~kibitz.solver.result.NATIVE_TABLE`)."""
        query = ("SELECT DISTINCT deal FROM results WHERE game=? AND ruleset=? AND rules_version=?"
                 " AND solver_version=? AND outcome = 'unknown' AND coalesce(reason, '') != 'interrupted'"
                 " AND (timeout IS NULL OR (? IS NOT NULL AND timeout >= ? AND (clock = 'cpu' OR ? = 'wall')))"
                 " AND (node_limit IS NULL OR (? IS NOT NULL AND node_limit >= ?))"
                 f" AND (coalesce(reason, '') != '{MEMORY_LIMIT}' OR {_table('table_limit')} >= {_table('?')})")
        parameters = (game, ruleset, rules_version, solver_version, timeout, timeout, clock, node_limit, node_limit,
                      table_limit)
        return {int(deal) for (deal,) in self.connection.execute(query, parameters)}

    def add(self, rows: Iterable[Row]) -> int:
        """Store rows (a new result replaces an older one for the same deal and versions)."""
        data = [(r.game, r.ruleset, str(r.deal), r.outcome, r.reason, " ".join(r.moves), r.nodes, r.states,
                 r.seconds, r.timeout, r.node_limit, r.clock, r.table_limit, r.solver_version, r.rules_version)
                for r in rows]
        with self.connection:
            self.connection.executemany(
                "INSERT OR REPLACE INTO results (game, ruleset, deal, outcome, reason, moves, nodes, states,"
                " seconds, timeout, node_limit, clock, table_limit, solver_version, rules_version)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", data)
        self.written += len(data)
        return len(data)

    @staticmethod
    def _where(game: str | None, ruleset: str | None) -> tuple[str, list[str]]:
        """The WHERE clause (or nothing) selecting one game and ruleset, and its parameters."""
        conditions, parameters = [], []
        if game is not None:
            conditions.append("game=?")
            parameters.append(game)
        if ruleset is not None:
            conditions.append("ruleset=?")
            parameters.append(ruleset)
        return (" WHERE " + " AND ".join(conditions) if conditions else ""), parameters

    def count(self, game: str | None = None, ruleset: str | None = None) -> int:
        """How many rows are stored, optionally of one game and ruleset."""
        where, parameters = self._where(game, ruleset)
        (count,) = self.connection.execute("SELECT count(*) FROM results" + where, parameters).fetchone()
        return int(count)

    def rows(self, game: str | None = None, ruleset: str | None = None, *, moves: bool = True) -> Iterator[Row]:
        """Every stored row, optionally of one game and ruleset, in deal order; with
        ``moves=False`` the rows leave out the winning moves (for tables of many rows)."""
        where, parameters = self._where(game, ruleset)
        column = "moves" if moves else "''"
        query = (f"SELECT game, ruleset, deal, outcome, reason, {column}, nodes, states,"
                 " seconds, timeout, solver_version, rules_version, node_limit, clock, table_limit FROM results"
                 + where
                 + " ORDER BY game, ruleset, length(deal), deal, solver_version, rules_version")
        for row in self.connection.execute(query, parameters):
            (game_, ruleset_, deal, outcome, reason, line, nodes, states, seconds, timeout,
             solver_version, rules_version, node_limit, clock, table_limit) = row
            yield Row(game_, ruleset_, int(deal), outcome, reason, tuple(line.split()), nodes, states,
                      seconds, timeout, solver_version, rules_version, node_limit, clock, table_limit)

    def records(self, game: str | None = None, ruleset: str | None = None) -> Iterator[tuple[object, ...]]:
        """Every stored row as its columns (:data:`RECORD_COLUMNS`, with the time it was
        recorded), optionally of one game and ruleset, in deal order: what an export keeps."""
        where, parameters = self._where(game, ruleset)
        query = (f"SELECT {', '.join(RECORD_COLUMNS)} FROM results" + where
                 + " ORDER BY game, ruleset, length(deal), deal, solver_version, rules_version")
        yield from self.connection.execute(query, parameters)

    def merge(self, records: Iterable[tuple[object, ...]]) -> tuple[int, int]:
        """Add rows given as their columns (:data:`RECORD_COLUMNS`), in one transaction:
        a row of a deal and versions the store lacks is added; one it holds undecided is
        replaced by a decided row, or by an undecided one under longer limits (a
        processor-time limit counting as longer than a wall-clock one of as many seconds, and
        a larger table than the one a search stopped by its full table had); any other is
        kept. Returns (rows added, rows replaced)."""
        longer = ("coalesce(excluded.{0}, 1e300) > coalesce(results.{0}, 1e300)")
        larger_table = (f"(results.reason = '{MEMORY_LIMIT}'"
                        f" AND {_table('excluded.table_limit')} > {_table('results.table_limit')})")
        return self._upsert("results", RECORD_COLUMNS, "solver_version, rules_version",
                            "results.outcome = 'unknown' AND (excluded.outcome != 'unknown' OR "
                            + longer.format("timeout") + " OR " + longer.format("node_limit")
                            + " OR " + larger_table
                            + " OR (excluded.clock = 'cpu' AND results.clock = 'wall' AND NOT "
                            + longer.format("timeout").replace(" > ", " < ") + "))", list(records))

    def _upsert(self, table: str, columns: tuple[str, ...], key: str, replace_when: str,
                records: list[tuple[object, ...]]) -> tuple[int, int]:
        """Add ``records`` (the values of ``columns``) to ``table``, in one transaction: a row
        whose game, ruleset, deal and ``key`` columns the table lacks is added; one it holds is
        replaced where ``replace_when`` holds. Returns (rows added, rows replaced)."""
        (before,) = self.connection.execute(f"SELECT count(*) FROM {table}").fetchone()
        changes = self.connection.total_changes
        with self.connection:
            self.connection.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                f" ON CONFLICT (game, ruleset, deal, {key}) DO UPDATE SET"
                + ", ".join(f" {name}=excluded.{name}" for name in columns[3:]) + f" WHERE {replace_when}",
                records)
        (after,) = self.connection.execute(f"SELECT count(*) FROM {table}").fetchone()
        added = int(after) - int(before)
        replaced = self.connection.total_changes - changes - added
        self.written += added + replaced
        return added, replaced

    def add_speed(self, game: str, ruleset: str, moment: str, speed: Speed, solver_version: int) -> None:
        """Store the machine's speed at the ``start`` or ``end`` of a study run."""
        with self.connection:
            self.connection.execute(
                "INSERT OR REPLACE INTO speeds (game, ruleset, moment, nodes, seconds, build, solver_version)"
                " VALUES (?,?,?,?,?,?,?)", (game, ruleset, moment, speed.nodes, speed.seconds, speed.build,
                                             solver_version))

    def speed_records(self, game: str | None = None, ruleset: str | None = None) -> list[tuple[object, ...]]:
        """Every stored speed measure as its columns (:data:`SPEED_COLUMNS`), optionally of
        one game and ruleset, in the order they were taken."""
        where, parameters = self._where(game, ruleset)
        query = (f"SELECT {', '.join(SPEED_COLUMNS)} FROM speeds" + where
                 + " ORDER BY recorded, game, ruleset, moment DESC")
        return list(self.connection.execute(query, parameters))

    def merge_speeds(self, records: Iterable[tuple[object, ...]]) -> tuple[int, int]:
        """Add speed measures given as their columns (:data:`SPEED_COLUMNS`), keeping those
        already stored; returns (measures added, 0)."""
        return self._insert_new("speeds", SPEED_COLUMNS, list(records))

    def _insert_new(self, table: str, columns: tuple[str, ...], records: list[tuple[object, ...]]) -> tuple[int, int]:
        """Add the ``records`` (the values of ``columns``) that ``table`` lacks, in one
        transaction, keeping the rows it holds; returns (rows added, 0)."""
        changes = self.connection.total_changes
        with self.connection:
            self.connection.executemany(
                f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                records)
        added = self.connection.total_changes - changes
        self.written += added
        return added, 0

    def check_records(self, game: str | None = None, ruleset: str | None = None) -> list[tuple[object, ...]]:
        """Every stored loss check as its columns (:data:`CHECK_COLUMNS`), optionally of one
        game and ruleset, in deal order."""
        where, parameters = self._where(game, ruleset)
        query = (f"SELECT {', '.join(CHECK_COLUMNS)} FROM checks" + where
                 + " ORDER BY game, ruleset, length(deal), deal, checker_version")
        return list(self.connection.execute(query, parameters))

    def merge_checks(self, records: Iterable[tuple[object, ...]]) -> tuple[int, int]:
        """Add loss checks given as their columns (:data:`CHECK_COLUMNS`): one of a deal and
        checker version the store lacks is added; one it holds unknown is replaced by a
        verdict, or by an unknown one under a higher limit; any other is kept. Returns
        (checks added, checks replaced)."""
        return self._upsert("checks", CHECK_COLUMNS, "checker_version",
                            "checks.verdict = 'unknown' AND (excluded.verdict != 'unknown'"
                            " OR excluded.position_limit > checks.position_limit)",
                            [(game, ruleset, str(deal), *rest) for game, ruleset, deal, *rest in records])

    def add_plays(self, plays: Iterable[Play]) -> int:
        """Store played deals (a new row replaces an older one for the same deal, agent, seed and versions)."""
        data = [(p.game, p.ruleset, p.agent, p.setting, p.seed, str(p.deal), int(p.won), p.ending, p.moves,
                 p.cpu_seconds, p.agent_version, p.solver_version, p.rules_version, p.kibitz_version)
                for p in plays]
        with self.connection:
            self.connection.executemany(
                f"INSERT OR REPLACE INTO plays ({PLAY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", data)
        self.written += len(data)
        return len(data)

    def played(self, game: str, ruleset: str, agent: str, setting: str, seed: int, agent_version: int,
               solver_version: int, rules_version: int) -> set[int]:
        """Deals this agent has played with this setting, seed and versions (a rerun skips them)."""
        query = ("SELECT deal FROM plays WHERE game=? AND ruleset=? AND agent=? AND setting=? AND seed=?"
                 " AND agent_version=? AND solver_version=? AND rules_version=?")
        parameters = (game, ruleset, agent, setting, seed, agent_version, solver_version, rules_version)
        return {int(deal) for (deal,) in self.connection.execute(query, parameters)}

    def count_plays(self, game: str | None = None, ruleset: str | None = None) -> int:
        """How many played deals are stored, optionally of one game and ruleset."""
        where, parameters = self._where(game, ruleset)
        (count,) = self.connection.execute("SELECT count(*) FROM plays" + where, parameters).fetchone()
        return int(count)

    def plays(self, game: str | None = None, ruleset: str | None = None) -> Iterator[Play]:
        """Every played deal stored, optionally of one game and ruleset, in deal order."""
        where, parameters = self._where(game, ruleset)
        query = (f"SELECT {PLAY_COLUMNS} FROM plays" + where
                 + " ORDER BY game, ruleset, agent, setting, seed, length(deal), deal,"
                   " agent_version, solver_version, rules_version")
        for row in self.connection.execute(query, parameters):
            (game_, ruleset_, agent, setting, seed, deal, won, ending, moves, cpu_seconds, agent_version,
             solver_version, rules_version, kibitz_version) = row
            yield Play(game_, ruleset_, agent, setting, seed, int(deal), bool(won), ending, moves, cpu_seconds,
                       agent_version, solver_version, rules_version, kibitz_version)

    def play_records(self, game: str | None = None, ruleset: str | None = None) -> list[tuple[object, ...]]:
        """Every played deal stored as its columns (:data:`PLAY_RECORD_COLUMNS`), optionally
        of one game and ruleset, in the order of :meth:`plays`: what an export keeps."""
        where, parameters = self._where(game, ruleset)
        query = (f"SELECT {', '.join(PLAY_RECORD_COLUMNS)} FROM plays" + where
                 + " ORDER BY game, ruleset, agent, setting, seed, length(deal), deal,"
                   " agent_version, solver_version, rules_version")
        return list(self.connection.execute(query, parameters))

    def merge_plays(self, records: Iterable[tuple[object, ...]]) -> tuple[int, int]:
        """Add played deals given as their columns (:data:`PLAY_RECORD_COLUMNS`), in one
        transaction: a deal this agent, setting, seed and versions have not played in the
        store is added; one they have is kept as it is. Returns (deals added, 0)."""
        return self._insert_new("plays", PLAY_RECORD_COLUMNS,
                                [(*record[:5], str(record[5]), *record[6:]) for record in records])

    def export_json(self) -> str:
        return json.dumps([row.as_dict() for row in self.rows()])
