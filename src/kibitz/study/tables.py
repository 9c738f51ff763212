"""The tables a results file keeps beside its results, written to CSV and read back like
them (:mod:`kibitz.study.archive`): the machine's speed at the start and end of each study run
(:data:`SPEEDS`, :mod:`kibitz.study.speed`), the independent checks of proved losses
(:data:`CHECKS`, :mod:`kibitz.study.loss_check`) and the deals played by agents for the odds
(:data:`PLAYS`, :mod:`kibitz.study.odds`). A CSV file's header line tells which it holds:
each table has a column no other has."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Callable

from kibitz.agents import AGENTS
from kibitz.agents.play import ENDINGS
from kibitz.errors import KibitzError
from kibitz.study import fields as field
from kibitz.study.loss_check import VERDICTS
from kibitz.study.odds import MAX_SEED
from kibitz.study.speed import MOMENTS
from kibitz.study.store import CHECK_COLUMNS, PLAY_RECORD_COLUMNS, SPEED_COLUMNS, Store

if TYPE_CHECKING:
    from kibitz.study.archive import Written

Records = list[tuple[object, ...]]


@dataclass(frozen=True)
class Table:
    """A table kept beside the results: its columns, the column that marks its CSV files,
    how a row is checked, and how the store gives and takes its rows."""

    name: str
    """What a message calls its rows (``speed measures``)."""
    columns: tuple[str, ...]
    marker: str
    parse: Callable[[dict[str, str]], tuple[object, ...]]
    records: Callable[[Store, str | None, str | None], Records]
    merge: Callable[[Store, Records], tuple[int, int]]
    seconds: str = "seconds"
    """The column of processor seconds, written to 0.1 ms."""

    def write(self, store: Store, out: IO[str], *, game: str | None = None, ruleset: str | None = None,
              moves: bool = False, only: Mapping[str, str] | None = None) -> Written:
        """Write the table's rows (of one game and ruleset, if given) to ``out`` as CSV with a
        header line (``moves`` is for results: these rows have none); ``only``: just the rows
        with these values in these columns."""
        from kibitz.study.archive import Written
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        records = self.records(store, game, ruleset)
        for column, value in (only or {}).items():
            if column not in self.columns:
                raise KibitzError(f"the {self.name} have no column {column}")
            index = self.columns.index(column)
            records = [record for record in records if str(record[index]) == value]
        seconds = self.columns.index(self.seconds)
        lines = dict[tuple[str, str], None]()
        for record in records:
            row = list(record)
            row[seconds] = f"{float(row[seconds]):.4f}"  # type: ignore[arg-type]
            writer.writerow(row)
            lines[(str(record[0]), str(record[1]))] = None
        return Written(len(records), tuple(lines))

    def read(self, reader: csv.DictReader[str], header: Sequence[str], name: str) -> Iterator[tuple[object, ...]]:
        """The rows of a CSV reader past its header line; :class:`KibitzError` naming ``name``
        and the line of the first bad row."""
        missing = [column for column in self.columns if column not in header]
        if missing:
            raise KibitzError(f"{name} is not a kibitz export of {self.name}: its header line lacks "
                              f"{', '.join(missing)}")
        try:
            for fields in reader:
                if None in fields or any(value is None for value in fields.values()):
                    raise ValueError(f"the line has {len(header)} fields in its header but not in the line")
                yield self.parse(fields)
        except (ValueError, csv.Error) as error:
            raise KibitzError(f"{name}, line {reader.line_num}: {error}") from None


def parse_speed(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV speed measure checked and turned into the store's columns."""
    game, ruleset = field.slugs(fields)
    moment = field.one_of(fields, "moment", MOMENTS)
    build = field.one_of(fields, "build", ("native", "python"))
    return (game, ruleset, moment, field.whole(fields["nodes"], "nodes"), field.seconds(fields["seconds"], "seconds"),
            build, field.whole(fields["solver_version"], "solver_version"), field.recorded(fields))


def parse_check(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV loss check checked and turned into the store's columns."""
    game, ruleset = field.slugs(fields)
    deal = field.deal(fields)
    verdict = field.one_of(fields, "verdict", VERDICTS)
    return (game, ruleset, str(deal), verdict, field.whole(fields["positions"], "positions"),
            field.seconds(fields["seconds"], "seconds"), field.whole(fields["position_limit"], "position_limit"),
            field.whole(fields["checker_version"], "checker_version"), field.recorded(fields))


def parse_play(fields: dict[str, str]) -> tuple[object, ...]:
    """One CSV played deal checked and turned into the store's columns."""
    game, ruleset = field.slugs(fields)
    agent = field.one_of(fields, "agent", AGENTS)
    won = field.flag(fields, "won")
    ending = field.one_of(fields, "ending", ENDINGS)
    if won != (ending == "won"):
        raise ValueError(f"won is {int(won)} but the game ended as {ending!r}")
    seed = field.whole(fields["seed"], "seed")
    if seed > MAX_SEED:
        raise ValueError(f"seed is {seed}: seeds run from 0 to {MAX_SEED}")
    return (game, ruleset, agent, field.setting(fields), seed, str(field.deal(fields)),
            int(won), ending, field.whole(fields["moves"], "moves"), field.seconds(fields["cpu_seconds"], "cpu_seconds"),
            field.whole(fields["agent_version"], "agent_version"), field.whole(fields["solver_version"], "solver_version"),
            field.whole(fields["rules_version"], "rules_version"), field.version(fields, "kibitz_version"),
            field.recorded(fields))


SPEEDS = Table("speed measures", SPEED_COLUMNS, "moment", parse_speed, Store.speed_records, Store.merge_speeds)
CHECKS = Table("loss checks", CHECK_COLUMNS, "checker_version", parse_check, Store.check_records,
               Store.merge_checks)
PLAYS = Table("games played by agents", PLAY_RECORD_COLUMNS, "agent_version", parse_play, Store.play_records,
              Store.merge_plays, seconds="cpu_seconds")
TABLES = (SPEEDS, CHECKS, PLAYS)


def table_of(header: Iterable[str] | None) -> Table | None:
    """The table whose CSV files have this header line (``None``: results, or no header)."""
    names = set(header or ())
    return next((table for table in TABLES if table.marker in names), None)
