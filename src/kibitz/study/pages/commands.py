"""``kibitz report --pages DOCS`` and ``kibitz report --figures DIR``: the reference pages'
generated tables and figures (:mod:`kibitz.study.pages`), written or checked."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kibitz.errors import KibitzError
from kibitz.files import write_atomically
from kibitz.printable import printable
from kibitz.study.store import Row


def run_pages(docs: Path, *, check: bool = False) -> int:
    """Write (or with ``check``, compare) every generated block of the pages under ``docs``
    and, when writing, the figures in ``docs/figures``."""
    from kibitz.study.pages.kept import load
    from kibitz.study.pages.blocks import FIGURES, PageError, regenerate, write_figures
    if not docs.is_dir():
        raise KibitzError(f"no folder {printable(str(docs))}: --pages takes the folder of the reference pages (docs)")
    kept = load(docs)
    try:
        changed, stale = regenerate(docs, kept)
    except (OSError, PageError) as error:
        raise KibitzError(str(error)) from None
    sys.stderr.write(f"read {len(kept.files):,} files of kept rows under {printable(str(docs))}\n")
    if check:
        for block in stale:
            sys.stdout.write(f"{block} disagrees with the kept rows\n")
        if stale:
            sys.stdout.write(f"run 'kibitz report --pages {printable(str(docs))}' to write them\n")
            return 1
        sys.stdout.write("every generated table agrees with the kept rows\n")
        return 0
    for path, text in changed.items():
        write_atomically(path, text, newline="")
    for block in stale:
        sys.stderr.write(f"{block} written\n")
    paths = write_figures(docs / FIGURES, kept)
    sys.stderr.write(f"{plural(len(stale), 'table')} written; {plural(len(paths), 'figure')} written in "
                     f"{printable(str(docs / FIGURES))}\n")
    return 0


def plural(count: int, noun: str) -> str:
    """``1 table``, ``2 tables``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def run_figures(args: argparse.Namespace, folder: Path, rows: list[Row]) -> int:
    """The figures of a results file's rows and games, written into ``folder``."""
    from kibitz.study.commands import open_store
    from kibitz.study.pages.kept import Kept
    from kibitz.study.loss_check import from_record
    from kibitz.study.pages.blocks import write_figures
    with open_store(args.db) as store:
        plays = tuple(store.plays())
        checks = tuple(from_record(record) for record in store.check_records())
    paths = write_figures(folder, Kept(rows=tuple(rows), checks=checks, plays=plays))
    for path in paths:
        sys.stderr.write(f"wrote {printable(str(path))}\n")
    if not paths:
        sys.stderr.write("nothing to draw: the results file holds no rows for the choice\n")
    return 0
