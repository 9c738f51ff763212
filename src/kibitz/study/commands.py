"""The ``kibitz study``, ``kibitz report``, ``kibitz odds`` and ``kibitz results`` commands, and
what they share (the odds' own: :mod:`kibitz.study.odds_commands`; the results':
:mod:`kibitz.study.archive_commands`)."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kibitz import compiled, native
from kibitz.arguments import positive_seconds, whole_number
from kibitz.deals import check_deal_number, parse_deal_number
from kibitz.errors import KibitzError, quoted
from kibitz.files import write_atomically
from kibitz.printable import printable
from kibitz.registry import game as find_game

if TYPE_CHECKING:
    from kibitz.study.loss_check import Check
    from kibitz.study.ray_backend import RayRunner
    from kibitz.study.report import Alike, Line
    from kibitz.study.store import Store

DEFAULT_DB = "kibitz-study.db"
DEFAULT_TIMEOUT = 10.0

STUDY_EPILOG = f"""\
GAME may be several games (or comma-separated), or 'all'; --ruleset may be
several rulesets (comma-separated), or 'all'. Each game is studied in each
ruleset in turn, into the same results file; a game whose two rulesets have
the same rules is solved once, its results stored as standard and counted for
both.

Results go to an SQLite file (default {DEFAULT_DB}), one row per deal with the
outcome, moves, nodes, time, solver version and rules version. --timeout counts
the processor time of the worker that solves the deal (--clock cpu), so a study
that shares the machine with other work gets the same seconds per deal; --clock
wall counts the time that passes, as 'kibitz solve' does. Rerunning skips
deals already decided by the same solver and rules versions, and deals that
solver version left unknown within limits as long, so an interrupted study
(Ctrl-C, or kill PID in the background) resumes where it stopped. A longer
--timeout (or --nodes) solves the unknown deals again, as --retry-unknown does.
With --undecided it also skips deals decided by earlier solver versions: a cheap
way to deepen a study (a longer --timeout) after a solver upgrade.

examples:
  kibitz study duchess --deals 1-10000
  kibitz study cicely --deals 1-500,1000-2000 --timeout 30 --workers 2
  kibitz study tournament --deals 1-10000 --timeout 60 --undecided
  kibitz study tournament --deals 1-100000 --backend ray --address auto
  kibitz study all --ruleset all --deals 1-10000 --timeout 10 --db results/winnability.db"""

REPORT_EPILOG = """\
Per game and ruleset: deals, won, lost, unknown; the winnable share of decided
deals with its 95% Wilson interval; a conservative 95% interval that counts
every unknown deal once as won and once as lost; time per deal; the solver
versions and time limits of the rows counted (with "(cpu)" where they counted
processor time, --clock cpu). A deal decided by any solver version counts as
decided (a win is replayed, a loss is proved), with the time of the newest run
that decided it; --by-version keeps the versions apart.

With --markdown FILE the table replaces the lines between the marker lines
  <!-- begin kibitz report: written by 'kibitz report --markdown FILE' -->
  <!-- end kibitz report -->
of FILE (each once), and the rest of FILE is kept; --markdown alone prints the
table as those lines would hold it.

With --pages DOCS it writes, from the rows kept under DOCS (DOCS/winnability/,
DOCS/odds/, DOCS/benchmarks/core-speed.csv), every generated table of the
reference pages (the text between a line <!-- begin generated NAME --> and a
line <!-- end generated NAME -->) and the figures in DOCS/figures/; with
--check it writes nothing and fails when a table disagrees with the rows.
--figures DIR writes the figures of the results file instead (needs
matplotlib: pip install 'kibitz[figures]').

examples:
  kibitz report
  kibitz report --pages docs
  kibitz report --pages docs --check
  kibitz report --figures figures/
  kibitz report --db results/cicely.db --json
  kibitz report --db results/winnability.db --markdown docs/winnability.md
  kibitz report --by-version
  kibitz report --game kingsdown-eights --deals 1-2000"""


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``1-100,250,300-400`` (inclusive ranges), in order, without repeats."""
    numbers: dict[int, None] = {}
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        start = parse_deal_number(first)
        end = parse_deal_number(last) if dash else start
        if end < start:
            raise KibitzError(f"deal range {quoted(part.strip())}: the end is before the start")
        if end - start >= 10_000_000:
            raise KibitzError(f"deal range {quoted(part.strip())}: at most 10,000,000 deals at a time")
        numbers.update(dict.fromkeys(range(start, end + 1)))
    return list(numbers)


MAX_WORKERS = 1000
"""The most workers ``--workers`` asks for (far more than a machine has cores)."""
MAX_BATCH_OPTION = 1_000_000
"""The largest ``--batch``."""
MAX_NODES = 10**15
"""The largest ``--nodes`` (years of search; the results file stores it as a 64-bit integer)."""
MAX_TABLE = 10**11
"""The largest table limit ``kibitz study --table`` takes (positions)."""
NATIVE_TABLE_WORDS = "32,000,000"
"""The native build's own table limit, as the help says it (``kibitz.solver.result.NATIVE_TABLE``,
not imported here: the help does not load the solver)."""
TABLE_BYTES = 55
"""About the most memory the native table takes per position it may hold, growth included
(32,000,000 positions: 1.7 GB)."""


def open_store(path: str) -> Store:
    """The results file at ``path``; :class:`KibitzError` when it cannot be opened or is no database."""
    from kibitz.study.store import Store
    if Path(path).exists() and not Path(path).is_file():  # SQLite would put its journal beside a device
        raise KibitzError(f"{path} is a folder or a device, not a results file")
    try:
        return Store(path)
    except (sqlite3.Error, OSError) as error:
        raise KibitzError(f"cannot open the results file {path}: {error}") from None


def add_runner_options(parser: argparse.ArgumentParser, batch_default: str) -> None:
    """The options of the study's runners that ``study`` and ``odds`` share: workers, batch,
    backend, Ray address and the results file."""
    parser.add_argument("--workers", type=whole_number(0, MAX_WORKERS), default=0, metavar="K",
                        help="parallel workers (default: one per core)")
    parser.add_argument("--batch", type=whole_number(0, MAX_BATCH_OPTION), default=0, metavar="N",
                        help=f"deals per task (default: chosen from {batch_default})")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local process pool (default) or a Ray cluster")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="Ray cluster address ('auto' for a running one); a new local cluster without it")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="FILE", help=f"results file (default {DEFAULT_DB})")


def add_commands(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                 formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``study``, ``report``, ``odds`` and ``results`` to the ``kibitz`` parser."""
    study = commands.add_parser("study", help="solve a range of deals in parallel into a results file",
                                description="Solve many deals of each GAME in each ruleset and store "
                                "one row per deal.",
                                epilog=STUDY_EPILOG, formatter_class=formatter)
    study.add_argument("games", metavar="GAME", nargs="+",
                       help="game names, slugs or aliases (several, or comma-separated), or 'all'")
    study.add_argument("--deals", required=True, metavar="RANGES", help="deal numbers, e.g. 1-10000 or 1-50,99")
    study.add_argument("--ruleset", metavar="R", default="standard",
                       help="standard or pysolfc; several: comma-separate, or 'all' (default: standard)")
    study.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="S",
                       help=f"seconds per deal (default {DEFAULT_TIMEOUT:g})")
    study.add_argument("--nodes", type=whole_number(1, MAX_NODES), default=None, metavar="N",
                       help="also stop each deal after N nodes (reproducible on any machine)")
    study.add_argument("--table", type=whole_number(1, MAX_TABLE), default=None, metavar="POSITIONS",
                       help="the most positions each search's table may hold (default: the build's own, "
                       f"{NATIVE_TABLE_WORDS} in the native kernel); the native table takes up to about "
                       f"{TABLE_BYTES} bytes a position, so a long --timeout needs a larger one, or its "
                       "searches stop when the table is full (unknown: memory limit)")
    study.add_argument("--clock", choices=("cpu", "wall"), default="cpu",  # kibitz.solver.result.CLOCKS
                       help="what --timeout counts: the worker's processor time (cpu, the default: "
                       "other work on the machine changes nothing) or the time that passes (wall)")
    study.add_argument("--undecided", action="store_true",
                       help="skip deals decided by any solver version (default: only by this one)")
    study.add_argument("--retry-unknown", action="store_true",
                       help="solve again the deals this solver version left unknown within these "
                       "limits (default: skip them)")
    add_runner_options(study, "the range and the timeout, at most 200")
    study.set_defaults(run=run_study_command)

    report = commands.add_parser("report", help="the winnability table of a results file",
                                 description="Print the winnability table of the deals in a results file.",
                                 epilog=REPORT_EPILOG, formatter_class=formatter)
    report.add_argument("--db", default=DEFAULT_DB, metavar="FILE", help=f"results file (default {DEFAULT_DB})")
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the table as JSON")
    form.add_argument("--markdown", nargs="?", const="", default=None, metavar="FILE",
                      help="write the Markdown table between the marker lines of FILE (see below); "
                      "without FILE, print only the table")
    form.add_argument("--pages", default=None, metavar="DOCS",
                      help="write every generated table of the reference pages in DOCS (docs), and their "
                      "figures in DOCS/figures, from the results kept in DOCS (not from --db)")
    form.add_argument("--figures", default=None, metavar="DIR",
                      help="write the figures of the results file (--db) into DIR as SVG")
    report.add_argument("--check", action="store_true",
                        help="with --pages: write nothing, list the tables that disagree with the kept "
                        "results and fail if any does")
    report.add_argument("--by-version", action="store_true",
                        help="one line per solver version (default: a deal decided by any version counts)")
    report.add_argument("--game", default=None, metavar="GAME", help="only this game (default: all)")
    report.add_argument("--deals", default=None, metavar="RANGES",
                        help="only these deal numbers, e.g. 1-2000 (default: all)")
    report.set_defaults(run=run_report)

    from kibitz.study.odds_commands import add_command as add_odds_command
    add_odds_command(commands, formatter)

    from kibitz.study.archive_commands import add_commands as add_results_commands
    add_results_commands(commands, formatter, DEFAULT_DB)


def run_study_command(args: argparse.Namespace) -> int:
    """``kibitz study GAME... --deals RANGES [--ruleset R,...]``: each game in each ruleset, in turn."""
    from kibitz.study.runner import BatchRunner, StudyPlan, run_local, run_study
    pairs = [(slug, ruleset) for slug in chosen_games(args.games) for ruleset in chosen_rulesets(args.ruleset)]
    if not pairs:
        raise KibitzError("name a GAME (or several, or 'all')")
    deals = parse_deals(args.deals)
    for number in deals[:1] + deals[-1:]:
        check_deal_number(number)
    ray = choose_backend(args.backend, args.address)
    backend: BatchRunner = ray or run_local
    plans = [StudyPlan(slug, ruleset, deals, args.timeout, args.workers, args.batch, args.nodes,
                       undecided_only=args.undecided, retry_unknown=args.retry_unknown, clock=args.clock,
                       table=args.table)
             for slug, ruleset in studied_once(pairs)]
    store = open_store(args.db)
    db = printable(args.db)
    sys.stderr.write(f"compiled solver: {compiled.STATUS}\nnative rules: {native.STATUS}\n")
    solved = skipped = 0
    from kibitz.solver import interrupts  # loads the solver: only when a study runs
    try:
        with interrupts.terminate_as_interrupt():  # `kill PID` stops it as Ctrl-C does
            for plan in plans:
                if len(plans) > 1:
                    sys.stderr.write(f"{plan.game} ({plan.ruleset}):\n")
                progress = run_study(plan, store, backend, sys.stderr)
                solved += progress.done
                skipped += progress.skipped
    except KeyboardInterrupt:
        return interrupted(store, db, "results")
    finally:
        if ray is not None:
            ray.close()   # Ray ran every plan: it stops once, after the last
    store.close()
    studied = "" if len(plans) == 1 else f" of {len(plans)} games and rulesets"
    sys.stderr.write(f"done: {solved:,} deals solved ({skipped:,} skipped){studied} into {db}; "
                     f"see: kibitz report --db {db}\n")
    return 0


def registered_alike() -> Alike:
    """:func:`~kibitz.registry.rulesets_alike`, remembered per game and ruleset, and a ruleset
    alone when the results file names a game or ruleset that is not registered."""
    from functools import cache

    from kibitz.errors import UnknownGameError
    from kibitz.registry import rulesets_alike

    @cache
    def alike(slug: str, ruleset: str) -> tuple[str, ...]:
        try:
            return rulesets_alike(slug, ruleset)
        except UnknownGameError:
            return (ruleset,)
    return alike


def studied_once(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The games and rulesets to study, each ruleset that has the rules of another replaced by
    the first ruleset with those rules, and studied once (each change said on stderr)."""
    from kibitz.registry import rulesets_alike
    chosen: dict[tuple[str, str], None] = {}
    for slug, ruleset in pairs:
        first = rulesets_alike(slug, ruleset)[0]
        if first != ruleset:
            once = "studied once, as" if (slug, first) in chosen or (slug, first) in pairs else "solved as"
            sys.stderr.write(f"{slug} ({ruleset}): the same rules as {first}: {once} {first}; "
                             "its results count for both\n")
        chosen[(slug, first)] = None
    return list(chosen)


def choose_backend(backend: str, address: str | None) -> RayRunner | None:
    """The Ray runner for ``--backend ray``; ``None`` for the local one."""
    if backend == "ray":
        from kibitz.study.ray_backend import ray_runner
        return ray_runner(address)
    if address is not None:
        raise KibitzError("--address is for the ray backend (add --backend ray)")
    return None


def interrupted(store: Store, db: str, what: str) -> int:
    """A run stopped by Ctrl-C or ``kill PID``: say what it stored and how to go on, close the
    results file; the exit status."""
    sys.stderr.write(f"\ninterrupted: {store.written:,} new {what} are stored in {db}; "
                     "run the same command again to continue\n")
    store.close()
    return 130


def run_report(args: argparse.Namespace) -> int:
    """``kibitz report``."""
    from kibitz.study.loss_check import from_record
    from kibitz.study.report import format_speeds, format_table, latest_checks, summarize
    if args.check and args.pages is None:
        raise KibitzError("--check goes with --pages DOCS")
    if args.pages is not None:
        from kibitz.study.pages.commands import run_pages
        return run_pages(Path(args.pages), check=args.check)
    if not Path(args.db).exists():
        raise KibitzError(f"no results file {args.db} (run 'kibitz study' first, or give --db FILE)")
    slug = None if args.game is None else find_game(args.game).slug
    wanted = None if args.deals is None else set(parse_deals(args.deals))
    with open_store(args.db) as store:
        rows = [row for row in store.rows(slug, moves=False) if wanted is None or row.deal in wanted]
        speeds = format_speeds(store.speed_records(slug))
        checks = latest_checks(from_record(record) for record in store.check_records(slug))
    lines = summarize(rows, by_version=args.by_version, alike=registered_alike())
    if args.figures is not None:
        from kibitz.study.pages.commands import run_figures
        return run_figures(args, Path(args.figures), rows)
    if args.markdown is not None:
        return report_markdown(args, lines, speeds, checks)
    if args.json:
        sys.stdout.write(json.dumps([line.as_dict() for line in lines]) + "\n")
        return 0
    if not lines:
        sys.stdout.write(printable(no_results(args)) + "\n")
        return 0
    sys.stdout.write(with_speeds(format_table(lines, checks), speeds) + "\n")
    return 0


def with_speeds(table: str, speeds: str) -> str:
    """The table, and below it the machine's speed during the runs when it was measured."""
    return table + ("\n\n" + speeds if speeds else "")


def no_results(args: argparse.Namespace) -> str:
    """What ``kibitz report`` says when the results file holds no row for its choice."""
    chosen = "".join(f" {flag} {value}" for flag, value in (("--game", args.game), ("--deals", args.deals))
                     if value is not None)
    return f"{args.db} holds no results{' for' + chosen if chosen else ' yet'}"


def report_markdown(args: argparse.Namespace, lines: list[Line], speeds: str = "",
                    checks: dict[tuple[str, str, int], Check] | None = None) -> int:
    """``kibitz report --markdown [FILE]``: the table printed, or written between the marker
    lines of FILE (the rest of FILE kept); never an empty table."""
    from kibitz.study.report import embed_table, format_table
    if not lines:
        raise KibitzError(f"{no_results(args)}: no table to write")
    table = with_speeds(format_table(lines, checks), speeds)
    if not args.markdown:
        sys.stdout.write(table + "\n")
        return 0
    path = Path(args.markdown)
    name = printable(args.markdown)
    try:
        document = path.read_text(encoding="utf-8")
    except OSError as error:
        raise KibitzError(f"cannot read {name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise KibitzError(f"cannot read {name}: it is not UTF-8 text") from None
    try:
        rewritten = embed_table(document, table)
    except ValueError as error:
        raise KibitzError(f"{name}: {error}") from None
    if rewritten != document:
        try:
            write_atomically(path, rewritten, newline="")
        except OSError as error:
            raise KibitzError(f"cannot write {name}: {error.strerror or error}") from None
    state = "written into" if rewritten != document else "already up to date in"
    sys.stderr.write(f"the table of {len(lines):,} lines {state} {name}\n")
    return 0


def chosen_games(names: list[str]) -> list[str]:
    """The slugs the GAME arguments name (``all``: every game), in order, without repeats."""
    from kibitz.registry import find, games
    slugs: dict[str, None] = {}
    for name in (part.strip() for argument in names for part in argument.split(",")):
        if not name:
            continue
        if name.lower() == "all":
            slugs.update(dict.fromkeys(info.slug for info in games()))
        else:
            slugs[find(name).slug] = None
    return list(slugs)


def chosen_rulesets(text: str) -> list[str]:
    """The rulesets ``--ruleset`` names: one, several comma-separated, or ``all`` (every
    ruleset), in the order of the rules, without repeats."""
    from kibitz.rules import RULESETS
    chosen: set[str] = set()
    for name in (part.strip() for part in text.split(",")):
        if name.lower() == "all":
            chosen.update(RULESETS)
        elif name in RULESETS:
            chosen.add(name)
        else:
            raise KibitzError(f"unknown ruleset {quoted(name)}; choose {', '.join(RULESETS)} "
                              "(several: comma-separate) or all")
    return [ruleset for ruleset in RULESETS if ruleset in chosen]
