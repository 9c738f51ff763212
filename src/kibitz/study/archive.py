"""Results files as text: the rows of a results file written to CSV (gzipped when the name
ends in ``.gz``) and read back into one, so that a study can be kept in a repository,
shared, and continued on another machine.

A row is a deal's result under one solver and rules version: game, ruleset, deal, outcome,
why it stayed unknown, nodes, states, seconds, the limits it ran under, the versions, when
it was recorded and (optionally) the winning moves. Reading checks every field and names
the line of the first bad one; nothing is added to the results file unless the whole file
reads.
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable

from kibitz.errors import KibitzError
from kibitz.solver.result import CLOCKS
from kibitz.study import fields as field
from kibitz.study.store import RECORD_COLUMNS, Store
from kibitz.study.tables import Table, table_of

OUTCOMES = ("won", "lost", "unknown")


@dataclass(frozen=True)
class Written:
    """What an export wrote: rows, and the games and rulesets they belong to."""

    rows: int
    lines: tuple[tuple[str, str], ...]


@contextmanager
def _open_text(path: Path, mode: str) -> Iterator[IO[str]]:
    """``path`` opened as UTF-8 text, through gzip when its name ends in ``.gz`` (written
    without a name or a time in the gzip header, so the same rows give the same bytes)."""
    if path.suffix != ".gz":
        with open(path, mode, encoding="utf-8", newline="") as text:
            yield text
        return
    with open(path, mode + "b") as raw, gzip.GzipFile(filename="", mode=mode + "b", fileobj=raw, mtime=0) as packed, \
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as text:
        yield text


def write_rows(store: Store, out: IO[str], *, game: str | None = None, ruleset: str | None = None,
               moves: bool = False) -> Written:
    """Write the store's rows (of one game and ruleset, if given) to ``out`` as CSV with a
    header line; the winning moves only with ``moves``."""
    columns = RECORD_COLUMNS if moves else RECORD_COLUMNS[:-1]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    count, lines = 0, dict[tuple[str, str], None]()
    seconds = RECORD_COLUMNS.index("seconds")
    for record in store.records(game, ruleset):
        row = list(record[:len(columns)])
        row[seconds] = f"{float(row[seconds]):.4f}"  # type: ignore[arg-type]
        writer.writerow(["" if value is None else value for value in row])
        lines[(str(record[0]), str(record[1]))] = None
        count += 1
    return Written(count, tuple(lines))


def export_rows(store: Store, path: Path, *, game: str | None = None, ruleset: str | None = None,
                moves: bool = False, write: Callable[..., Written] = write_rows) -> Written:
    """Write the store's rows to the file ``path`` (see :func:`write_rows`; or a table kept
    beside them with ``write=TABLE.write``, :mod:`kibitz.study.tables`), replacing it in one
    step: an interrupted export leaves the old file whole."""
    temporary = path.with_name(path.name + ".kibitz.tmp" + (".gz" if path.suffix == ".gz" else ""))
    try:
        with _open_text(temporary, "w") as out:
            written = write(store, out, game=game, ruleset=ruleset, moves=moves)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return written


OPTIONAL_COLUMNS = ("clock", "table_limit")
"""Columns an older export lacks: its time limits counted wall-clock time, its searches had
the build's own table limit."""


def parse_row(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV row (header name to text) checked and turned into the store's columns;
    :class:`ValueError` saying which field is wrong."""
    game, ruleset = field.slugs(fields)
    deal = field.deal(fields)
    outcome = field.one_of(fields, "outcome", OUTCOMES)
    reason = fields["reason"] or None
    if reason is not None and outcome != "unknown":
        raise ValueError(f"a {outcome} deal has a reason ({reason!r}); only an unknown one has")
    moves = fields.get("moves") or ""
    if moves and outcome != "won":
        raise ValueError(f"a {outcome} deal has winning moves")
    clock = field.one_of({"clock": fields.get("clock") or "wall"}, "clock", CLOCKS)  # older exports: wall-clock
    table_limit = fields.get("table_limit")  # older exports: the build's own table limit
    recorded = field.recorded(fields)
    return (game, ruleset, str(deal), outcome, reason,
            field.whole(fields["nodes"], "nodes"), field.whole(fields["states"], "states"),
            field.seconds(fields["seconds"], "seconds"),
            field.seconds(fields["timeout"], "timeout") if fields["timeout"] else None,
            field.whole(fields["node_limit"], "node_limit") if fields["node_limit"] else None, clock,
            field.whole(table_limit, "table_limit") if table_limit else None,
            field.whole(fields["solver_version"], "solver_version"),
            field.whole(fields["rules_version"], "rules_version"), recorded, moves)


def read_rows(lines: Iterable[str], name: str) -> Iterator[tuple[object, ...]]:
    """The rows of CSV ``lines`` (with their header line) as the store's columns, results or
    those of a table kept beside them as the header says (:mod:`kibitz.study.tables`); :class:`KibitzError` naming ``name`` and the line of
    the first bad row."""
    reader = csv.DictReader(lines)
    header = reader.fieldnames
    if header is None:
        raise KibitzError(f"{name} is empty: a results file in CSV starts with a header line")
    table = table_of(header)
    if table is not None:
        yield from table.read(reader, header, name)
        return
    missing = [column for column in RECORD_COLUMNS[:-1] if column not in header and column not in OPTIONAL_COLUMNS]
    if missing:
        raise KibitzError(f"{name} is not a kibitz results export: its header line lacks {', '.join(missing)}")
    try:
        for fields in reader:
            if None in fields or any(value is None for value in fields.values()):
                raise ValueError(f"the line has {len(header)} fields in its header but not in the line")
            yield parse_row(fields)
    except (ValueError, csv.Error) as error:
        raise KibitzError(f"{name}, line {reader.line_num}: {error}") from None


@dataclass(frozen=True)
class Read:
    """A CSV file read: its rows as the store's columns, and the table kept beside the
    results they belong to (``None``: they are results)."""

    rows: list[tuple[object, ...]]
    table: Table | None

    @property
    def what(self) -> str:
        """What a message calls the rows."""
        return "rows" if self.table is None else self.table.name

    def merge_into(self, store: Store) -> tuple[int, int]:
        """Add the rows to ``store``: (rows added, rows replaced)."""
        return store.merge(self.rows) if self.table is None else self.table.merge(store, self.rows)


def read_file(path: Path) -> Read:
    """The rows of the CSV file ``path`` (gzipped when its name ends in ``.gz``) as the
    store's columns; :class:`KibitzError` when it cannot be read or a row is bad."""
    try:
        with _open_text(path, "r") as lines:
            first = lines.readline()
            lines.seek(0)
            return Read(list(read_rows(lines, str(path))), table_of(next(csv.reader([first]), None)))
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise KibitzError(f"cannot read {path}: {error}") from None
