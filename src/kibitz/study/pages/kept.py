"""The results kept in the repository, read back for the reference pages.

The long runs keep their rows as CSV under ``docs/`` (``kibitz results export``), so that
anyone can check, rerun or extend them: the winnability studies, one file per game and
ruleset with the machine's speed and the independent checks of the losses, in
``docs/winnability/``; the odds' games in ``docs/odds/``; the builds' speed in
``docs/benchmarks/core-speed.csv``. :func:`load` reads every one of them (through a
temporary results file, checked as ``kibitz results import`` checks them) into a
:class:`Kept`, from which the pages' tables and figures are made.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from kibitz.study.pages.figures import BuildSpeed, read_build_speeds
from kibitz.study.loss_check import Check, from_record
from kibitz.study.store import Play, Row, Store

WINNABILITY = "winnability"
"""The folder (under ``docs/``) of the winnability rows, speed measures and loss checks."""
ODDS = "odds"
"""The folder of the odds' games."""
BUILD_SPEEDS = "benchmarks/core-speed.csv"
"""The file of the builds' speed (``benchmarks/core_speed.py --csv``)."""
RUNS = "benchmarks"
"""The folder of the benchmark runs kept as printed (``benchmarks/record.py NAME -- COMMAND``)."""


@dataclass(frozen=True)
class Run:
    """A benchmark run kept as it printed: ``docs/benchmarks/NAME.txt``."""

    name: str
    command: str
    measured: str
    """The day (UTC) of the run."""
    machine: str
    load: str
    """The machine's load when the run began."""
    output: str

    @classmethod
    def read(cls, path: Path) -> Run:
        """The run kept in ``path``; :class:`~kibitz.errors.KibitzError` when its header is not
        a kept run's (the lines ``command:``, ``measured:``, ``machine:`` and ``load:``, then ``---``)."""
        from kibitz.errors import KibitzError
        header, rule, output = path.read_text(encoding="utf-8").partition("\n---\n")
        fields = dict(line.partition(": ")[::2] for line in header.splitlines())
        if not rule or set(fields) != {"command", "measured", "machine", "load"}:
            raise KibitzError(f"{path} is not a kept benchmark run: it starts with the lines command:, "
                              "measured:, machine: and load:, then a line ---")
        return cls(path.stem, fields["command"], fields["measured"], fields["machine"], fields["load"],
                   output.rstrip("\n"))


@dataclass(frozen=True)
class Kept:
    """Every kept row, by kind."""

    rows: tuple[Row, ...] = ()
    """The winnability rows (without their moves)."""
    checks: tuple[Check, ...] = ()
    speeds: tuple[tuple[object, ...], ...] = ()
    """The machine's speed at the start and end of each study run (the store's columns)."""
    plays: tuple[Play, ...] = ()
    build_speeds: tuple[BuildSpeed, ...] = ()
    """The builds' speed."""
    runs: tuple[Run, ...] = ()
    """The benchmark runs kept as printed."""
    files: tuple[str, ...] = ()
    """The files read, relative to the folder given to :func:`load`."""


def kept_files(docs: Path) -> list[Path]:
    """The CSV files of kept rows under ``docs``, in a fixed order (an earlier study's rows,
    kept in a folder below, are not among them)."""
    found: list[Path] = []
    for folder in (WINNABILITY, ODDS):
        found.extend(sorted(path for path in (docs / folder).glob("*.csv*") if path.is_file()))
    return found


def load(docs: Path) -> Kept:
    """Every row kept under ``docs`` (:class:`~kibitz.errors.KibitzError` naming the file and
    line of a bad one)."""
    from kibitz.study.archive import read_file
    paths = kept_files(docs)
    with tempfile.TemporaryDirectory(prefix="kibitz-kept-") as folder:
        with Store(Path(folder) / "kept.db") as store:
            for path in paths:
                read_file(path).merge_into(store)
            rows = tuple(store.rows(moves=False))
            checks = tuple(from_record(record) for record in store.check_records())
            speeds = tuple(store.speed_records())
            plays = tuple(store.plays())
    builds: tuple[BuildSpeed, ...] = ()
    build_file = docs / BUILD_SPEEDS
    if build_file.exists():
        builds = tuple(read_build_speeds(build_file))
        paths.append(build_file)
    run_files = sorted((docs / RUNS).glob("*.txt"))
    runs = tuple(Run.read(path) for path in run_files)
    paths.extend(run_files)
    return Kept(rows, checks, speeds, plays, builds, runs, tuple(path.relative_to(docs).as_posix() for path in paths))
