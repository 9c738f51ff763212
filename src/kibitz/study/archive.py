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
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, TypeVar

from kibitz.deals import MAX_DEAL_NUMBER
from kibitz.errors import KibitzError
from kibitz.solver.result import CLOCKS
from kibitz.study.speed import MOMENTS
from kibitz.study.store import RECORD_COLUMNS, SPEED_COLUMNS, Store

Number = TypeVar("Number", int, float)
OUTCOMES = ("won", "lost", "unknown")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
SLUG = re.compile(r"[a-z][a-z0-9-]*\Z")


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


def write_speeds(store: Store, out: IO[str], *, game: str | None = None, ruleset: str | None = None,
                 moves: bool = False) -> Written:
    """Write the store's speed measures (of one game and ruleset, if given) to ``out`` as CSV
    with a header line (``moves`` is ignored: a measure has none)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SPEED_COLUMNS)
    lines = dict[tuple[str, str], None]()
    records = store.speed_records(game, ruleset)
    seconds = SPEED_COLUMNS.index("seconds")
    for record in records:
        row = list(record)
        row[seconds] = f"{float(row[seconds]):.4f}"  # type: ignore[arg-type]
        writer.writerow(row)
        lines[(str(record[0]), str(record[1]))] = None
    return Written(len(records), tuple(lines))


def export_rows(store: Store, path: Path, *, game: str | None = None, ruleset: str | None = None,
                moves: bool = False, write: Callable[..., Written] = write_rows) -> Written:
    """Write the store's rows to the file ``path`` (see :func:`write_rows`; or its speed
    measures with ``write=write_speeds``), replacing it in one step: an interrupted export
    leaves the old file whole."""
    temporary = path.with_name(path.name + ".kibitz.tmp" + (".gz" if path.suffix == ".gz" else ""))
    try:
        with _open_text(temporary, "w") as out:
            written = write(store, out, game=game, ruleset=ruleset, moves=moves)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return written


def _at_least_zero(text: str, what: str, convert: Callable[[str], Number], kind: str) -> Number:
    """A field read by ``convert`` as a finite ``kind`` of 0 or more."""
    try:
        value = convert(text)
    except ValueError:
        raise ValueError(f"{what} is {text!r}, not a {kind}") from None
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{what} is {text!r}: it must be a {kind}, 0 or more")
    return value


def _whole(text: str, what: str) -> int:
    """A field read as a whole number of 0 or more."""
    return _at_least_zero(text, what, int, "whole number")


def _seconds(text: str, what: str) -> float:
    """A field read as a finite number of seconds, 0 or more."""
    return _at_least_zero(text, what, float, "number of seconds")


def parse_row(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV row (header name to text) checked and turned into the store's columns;
    :class:`ValueError` saying which field is wrong."""
    game, ruleset, outcome = fields["game"], fields["ruleset"], fields["outcome"]
    for what, name in (("game", game), ("ruleset", ruleset)):
        if not SLUG.match(name):
            raise ValueError(f"{what} is {name!r}, not a slug such as 'duchess' or 'standard'")
    deal = _whole(fields["deal"], "deal")
    if not deal or deal > MAX_DEAL_NUMBER:
        raise ValueError(f"deal is {fields['deal']!r}: deal numbers run from 1 to {MAX_DEAL_NUMBER}")
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome is {outcome!r}, not one of {', '.join(OUTCOMES)}")
    reason = fields["reason"] or None
    if reason is not None and outcome != "unknown":
        raise ValueError(f"a {outcome} deal has a reason ({reason!r}); only an unknown one has")
    moves = fields.get("moves") or ""
    if moves and outcome != "won":
        raise ValueError(f"a {outcome} deal has winning moves")
    clock = fields.get("clock") or "wall"  # exports written before limits had a clock: wall-clock
    if clock not in CLOCKS:
        raise ValueError(f"clock is {clock!r}, not one of {', '.join(CLOCKS)}")
    recorded = fields["recorded"]
    if not TIMESTAMP.match(recorded):
        raise ValueError(f"recorded is {recorded!r}, not a time such as 2026-12-03T12:00:00Z")
    return (game, ruleset, str(deal), outcome, reason,
            _whole(fields["nodes"], "nodes"), _whole(fields["states"], "states"),
            _seconds(fields["seconds"], "seconds"),
            _seconds(fields["timeout"], "timeout") if fields["timeout"] else None,
            _whole(fields["node_limit"], "node_limit") if fields["node_limit"] else None, clock,
            _whole(fields["solver_version"], "solver_version"),
            _whole(fields["rules_version"], "rules_version"), recorded, moves)


def parse_speed(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV speed measure (header name to text) checked and turned into the store's
    columns; :class:`ValueError` saying which field is wrong."""
    game, ruleset, moment, build = fields["game"], fields["ruleset"], fields["moment"], fields["build"]
    for what, name in (("game", game), ("ruleset", ruleset)):
        if not SLUG.match(name):
            raise ValueError(f"{what} is {name!r}, not a slug such as 'duchess' or 'standard'")
    if moment not in MOMENTS:
        raise ValueError(f"moment is {moment!r}, not one of {', '.join(MOMENTS)}")
    if build not in ("native", "python"):
        raise ValueError(f"build is {build!r}, not native or python")
    recorded = fields["recorded"]
    if not TIMESTAMP.match(recorded):
        raise ValueError(f"recorded is {recorded!r}, not a time such as 2026-12-03T12:00:00Z")
    return (game, ruleset, moment, _whole(fields["nodes"], "nodes"), _seconds(fields["seconds"], "seconds"),
            build, _whole(fields["solver_version"], "solver_version"), recorded)


def is_speeds(header: Iterable[str] | None) -> bool:
    """Whether a CSV header line is that of speed measures (:func:`write_speeds`)."""
    return header is not None and "moment" in header


def read_rows(lines: Iterable[str], name: str) -> Iterator[tuple[object, ...]]:
    """The rows of CSV ``lines`` (with their header line) as the store's columns, results or
    speed measures as the header says; :class:`KibitzError` naming ``name`` and the line of
    the first bad row."""
    reader = csv.DictReader(lines)
    header = reader.fieldnames
    if header is None:
        raise KibitzError(f"{name} is empty: a results file in CSV starts with a header line")
    if is_speeds(header):
        yield from _read_speeds(reader, header, name)
        return
    missing = [column for column in RECORD_COLUMNS[:-1] if column not in header and column != "clock"]
    if missing:
        raise KibitzError(f"{name} is not a kibitz results export: its header line lacks {', '.join(missing)}")
    try:
        for fields in reader:
            if None in fields or any(value is None for value in fields.values()):
                raise ValueError(f"the line has {len(header)} fields in its header but not in the line")
            yield parse_row(fields)
    except (ValueError, csv.Error) as error:
        raise KibitzError(f"{name}, line {reader.line_num}: {error}") from None


def _read_speeds(reader: csv.DictReader[str], header: Sequence[str], name: str) -> Iterator[tuple[object, ...]]:
    """The speed measures of a CSV reader past its header line (see :func:`read_rows`)."""
    missing = [column for column in SPEED_COLUMNS if column not in header]
    if missing:
        raise KibitzError(f"{name} is not a kibitz speed export: its header line lacks {', '.join(missing)}")
    try:
        for fields in reader:
            if None in fields or any(value is None for value in fields.values()):
                raise ValueError(f"the line has {len(header)} fields in its header but not in the line")
            yield parse_speed(fields)
    except (ValueError, csv.Error) as error:
        raise KibitzError(f"{name}, line {reader.line_num}: {error}") from None


@dataclass(frozen=True)
class Read:
    """A CSV file read: its rows as the store's columns, and whether they are speed measures."""

    rows: list[tuple[object, ...]]
    speeds: bool

    def merge_into(self, store: Store) -> tuple[int, int]:
        """Add the rows to ``store`` (:meth:`Store.merge` or :meth:`Store.merge_speeds`)."""
        return store.merge_speeds(self.rows) if self.speeds else store.merge(self.rows)


def read_file(path: Path) -> Read:
    """The rows of the CSV file ``path`` (gzipped when its name ends in ``.gz``) as the
    store's columns; :class:`KibitzError` when it cannot be read or a row is bad."""
    try:
        with _open_text(path, "r") as lines:
            first = lines.readline()
            lines.seek(0)
            return Read(list(read_rows(lines, str(path))), is_speeds(next(csv.reader([first]), None)))
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise KibitzError(f"cannot read {path}: {error}") from None
