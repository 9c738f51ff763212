"""``kibitz results export`` and ``kibitz results import``: a results file's rows as CSV."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from kibitz.arguments import whole_number
from kibitz.errors import KibitzError
from kibitz.printable import printable

if TYPE_CHECKING:
    from kibitz.study.store import Row

RESULTS_EPILOG = """\
export writes the rows of a results file (one per deal, solver version and rules
version) as CSV with a header line, gzipped when FILE ends in .gz, to FILE or to
standard output (-); the winning moves only with --moves. A file is replaced in
one step, so a stopped export leaves the old one whole. Instead of the rows it
writes, with --speeds, the machine's speed measured at the start and end of each
study run (nodes per processor second on a fixed workload), so that runs of
different days compare; with --checks, the independent checks of proved losses;
with --plays, the deals played by agents for the odds (kibitz odds), one row per
deal, agent, setting, seed and versions.

import reads such files into a results file (made if missing): all of them or,
when a line of any is bad, nothing (the error names the file and the line). A
row of a deal and versions the results file lacks is added; one it holds
unknown is replaced by a decided row, or by an unknown one under a longer limit;
any other row is kept. A file of speed measures, loss checks or played deals is
told by its header line; a played deal the results file holds for the same
agent, setting, seed and versions is kept as it is. A study then skips the deals
imported as decided, and the odds the deals imported as played, so a run kept as
CSV (in a repository, say) continues on another machine.

examples:
  kibitz results export --db results/winnability.db --game kingsdown-eights kingsdown-eights.csv.gz
  kibitz results export --db kibitz-study.db --moves - | head
  kibitz results export --db results/winnability.db --speeds speeds.csv
  kibitz results export --db results/odds.db --plays --game duchess --ruleset standard duchess-standard.csv.gz
  kibitz results import --db results/winnability.db docs/winnability/*.csv.gz
  kibitz results import --db results/odds.db docs/odds/*.csv.gz"""


def add_commands(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                 formatter: type[argparse.HelpFormatter], default_db: str) -> None:
    """Add ``results`` (``export`` and ``import``) to the ``kibitz`` parser."""
    results = commands.add_parser("results", help="write a results file's rows as CSV, or read them back",
                                  description="Export the rows of a results file (the study's results, or "
                                  "the speed measures, loss checks or games played by agents kept beside them) "
                                  "as CSV, import them, or check its proved losses.",
                                  epilog=RESULTS_EPILOG, formatter_class=formatter)
    actions = results.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser("export", help="write the rows (or a table kept beside them) as CSV",
                                description="Write the rows of a results file, or with --speeds, --checks or "
                                "--plays a table kept beside them, as CSV.", epilog=RESULTS_EPILOG,
                                formatter_class=formatter)
    export.add_argument("file", metavar="FILE", help="the CSV file (.gz: gzipped), or - for standard output")
    export.add_argument("--game", default=None, metavar="GAME", help="only this game (default: all)")
    export.add_argument("--ruleset", default=None, metavar="R", help="only this ruleset (default: all)")
    export.add_argument("--moves", action="store_true", help="with the winning moves (default: without)")
    table = export.add_mutually_exclusive_group()
    table.add_argument("--speeds", action="store_true",
                       help="write the machine's speed at the start and end of each study run instead of the rows")
    table.add_argument("--checks", action="store_true",
                       help="write the independent checks of proved losses instead of the rows (see check-losses)")
    table.add_argument("--plays", action="store_true",
                       help="write the deals played by agents (kibitz odds) instead of the rows")
    export.add_argument("--agent", default=None, metavar="NAME", help="with --plays: only this agent's games")
    export.add_argument("--setting", default=None, metavar="S",
                        help="with --plays: only the games of this setting, as stored (study, study*10)")
    export.add_argument("--db", default=default_db, metavar="DB", help=f"results file (default {default_db})")
    export.set_defaults(run=run_export)
    check = actions.add_parser("check-losses", help="check every proved loss with an independent exhaustive search",
                               description="Check each deal the results file holds as proved lost with an "
                               "independent search (kibitz.study.loss_check): every reachable position visited "
                               "through the pure-Python rules, with none of the solver's pruning. The checks are "
                               "stored in the results file (export them with 'export --checks'); 'kibitz report' "
                               "gives both verdicts for each lost deal.", formatter_class=formatter)
    check.add_argument("--db", default=default_db, metavar="DB", help=f"results file (default {default_db})")
    check.add_argument("--game", default=None, metavar="GAME", help="only this game (default: all)")
    check.add_argument("--limit", type=whole_number(1, 10**12), default=None, metavar="N",
                       help="positions a check may visit before it gives up (default 10,000,000: about 3 GB "
                       "of memory a worker)")
    check.add_argument("--workers", type=whole_number(1, 1024), default=1, metavar="K", help="parallel workers (default 1)")
    check.set_defaults(run=run_check_losses)
    load = actions.add_parser("import", help="read CSV rows into a results file",
                              description="Read CSV files written by export (rows, speed measures, loss checks "
                              "or games played by agents, told by the header line) into a results file.",
                              epilog=RESULTS_EPILOG,
                              formatter_class=formatter)
    load.add_argument("files", metavar="FILE", nargs="+", help="CSV files written by export (.gz: gzipped)")
    load.add_argument("--db", default=default_db, metavar="DB", help=f"results file (default {default_db})")
    load.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    """``kibitz results export FILE``."""
    from kibitz.registry import find
    from kibitz.study.archive import export_rows, write_rows
    from kibitz.study.tables import CHECKS, PLAYS, SPEEDS
    from kibitz.study.commands import open_store
    from kibitz.study.odds_commands import odds_ruleset
    only = {column: value for column, value in (("agent", args.agent), ("setting", args.setting)) if value is not None}
    if only and not args.plays:
        raise KibitzError("--agent and --setting choose games played by agents: they go with --plays")
    if not Path(args.db).is_file():
        raise KibitzError(f"there is no results file {printable(args.db)}")
    game = find(args.game).slug if args.game is not None else None
    odds_ruleset(args.ruleset)  # one known ruleset, or none
    with open_store(args.db) as store:
        table = SPEEDS if args.speeds else CHECKS if args.checks else PLAYS if args.plays else None
        write = write_rows if table is None else partial(table.write, only=only)
        if args.file == "-":
            written = write(store, sys.stdout, game=game, ruleset=args.ruleset, moves=args.moves)
        else:
            try:
                written = export_rows(store, Path(args.file), game=game, ruleset=args.ruleset, moves=args.moves,
                                      write=write)
            except OSError as error:
                raise KibitzError(f"cannot write {printable(args.file)}: {error}") from None
    where = "standard output" if args.file == "-" else printable(args.file)
    lines = ", ".join(f"{slug} ({ruleset})" for slug, ruleset in written.lines) or "no game"
    what = "rows" if table is None else table.name
    sys.stderr.write(f"{written.rows:,} {what} written to {where}: {lines}\n")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """``kibitz results import FILE...``."""
    from kibitz.study.archive import read_file
    from kibitz.study.commands import open_store
    for name in args.files:
        if not Path(name).is_file():
            raise KibitzError(f"there is no file {printable(name)} to import")
    files = [(name, read_file(Path(name))) for name in args.files]  # every file read before any is added
    with open_store(args.db) as store:
        for name, read in files:
            added, replaced = read.merge_into(store)
            kept = len(read.rows) - added - replaced
            if read.table is not None:
                sys.stderr.write(f"{printable(name)}: {len(read.rows):,} {read.what} read, {added:,} added, "
                                 f"{replaced:,} replaced, {kept:,} kept as they were, into {printable(args.db)}\n")
                continue
            sys.stderr.write(f"{printable(name)}: {len(read.rows):,} rows read, {added:,} added, {replaced:,} replaced "
                             f"(unknown before), {kept:,} kept as they were, into {printable(args.db)}\n")
    return 0


def losses_to_check(rows: Iterable[Row], done: set[tuple[str, str, int]]
                    ) -> dict[tuple[str, str], tuple[int, list[int]]]:
    """Per game and ruleset, in order: the deals proved lost, and those of them not in ``done``
    in the order to check them, the proofs of fewest positions first (most losses are
    confirmed in moments, the big ones come last)."""
    lost: dict[tuple[str, str], dict[int, int]] = {}
    for row in rows:
        if row.outcome == "lost":
            line = lost.setdefault((row.game, row.ruleset), {})
            line[row.deal] = min(line.get(row.deal, row.states), row.states)
    return {(slug, ruleset): (len(deals), sorted((deal for deal in deals if (slug, ruleset, deal) not in done),
                                                 key=lambda deal: (deals[deal], deal)))
            for (slug, ruleset), deals in sorted(lost.items())}


def run_check_losses(args: argparse.Namespace) -> int:
    """``kibitz results check-losses``: the proved losses not yet checked within this limit, those
    of the fewest positions (in the solver's proof) first."""
    from kibitz.registry import find
    from kibitz.study.commands import open_store
    from kibitz.study.loss_check import CHECKER_VERSION, DEFAULT_LIMIT, CheckPlan, as_record, from_record
    from kibitz.study.runner import Progress, run_batches, run_local
    if not Path(args.db).is_file():
        raise KibitzError(f"there is no results file {printable(args.db)}")
    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    game = find(args.game).slug if args.game is not None else None
    with open_store(args.db) as store:
        checks = [from_record(record) for record in store.check_records(game)]
        done = {(check.game, check.ruleset, check.deal) for check in checks if check.checker_version == CHECKER_VERSION
                and (check.verdict != "unknown" or check.limit >= limit)}
        for (slug, ruleset), (deals, todo) in losses_to_check(store.rows(game, moves=False), done).items():
            sys.stderr.write(f"{slug} ({ruleset}): {deals:,} proved lost, {len(todo):,} to check\n")
            if not todo:
                continue
            progress = Progress(total=len(todo), stream=sys.stderr)
            run_batches(CheckPlan(slug, ruleset, limit, args.workers), todo,
                        lambda checks: store.merge_checks(map(as_record, checks)), run_local, progress)
    sys.stderr.write(f"done; see: kibitz report --db {printable(args.db)}\n")
    return 0
