"""The transposition table's limit of a study run (``kibitz study --table``): kept with each
row, exported and imported, and a search stopped by its full table retried under a larger one."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.solver import SOLVER_VERSION
from kibitz.solver.result import NATIVE_TABLE
from kibitz.study.archive import export_rows, read_file
from kibitz.study.pages.figures import Tail
from kibitz.study.pages.tables import full_tables_words
from kibitz.study.store import Row, Store


def unknown(deal: int, reason: str, table: int | None, timeout: float = 600.0) -> Row:
    return Row("duchess", "standard", deal, "unknown", reason, (), 1, 1, 0.1, timeout, SOLVER_VERSION, 1, None,
               "cpu", table)


def test_a_search_stopped_by_its_full_table_counts_as_tried_only_for_tables_no_larger(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.add([unknown(1, "memory limit", None), unknown(2, "memory limit", 100_000_000),
                   unknown(3, "time limit", None), unknown(4, "memory limit", 1_000)])
        tried = functools.partial(store.tried, "duchess", "standard", SOLVER_VERSION, 1, 600.0, None, "cpu")
        assert tried() == {1, 2, 3}                     # the build's own table: none of them would go further
        assert tried(NATIVE_TABLE) == {1, 2, 3}
        assert tried(NATIVE_TABLE + 1) == {2, 3}        # a larger table goes on where deal 1 stopped
        assert tried(200_000_000) == {3}                # a search stopped by its time is not helped by a table
        assert tried(500) == {1, 2, 3, 4}


def test_rows_keep_their_table_limit_through_an_export(tmp_path: Path) -> None:
    with Store(tmp_path / "old.db") as old:
        old.add([unknown(1, "memory limit", None), unknown(2, "memory limit", None), unknown(3, "memory limit", 5_000)])
    with Store(tmp_path / "new.db") as new:
        new.add([unknown(1, "memory limit", 200_000_000), unknown(2, "time limit", None),
                 unknown(3, "memory limit", 1_000)])
        export_rows(new, tmp_path / "new.csv")
    assert "table_limit" in (tmp_path / "new.csv").read_text().splitlines()[0].split(",")
    with Store(tmp_path / "old.db") as old:
        assert read_file(tmp_path / "new.csv").merge_into(old) == (0, 1)
        kept = {r.deal: (r.reason, r.table_limit) for r in old.rows()}
    assert kept == {1: ("memory limit", 200_000_000),  # a larger table replaces a search stopped by a full one
                    2: ("memory limit", None),         # as long a time limit and no larger table: kept
                    3: ("memory limit", 5_000)}        # a smaller table does not replace a larger one


def test_a_study_records_its_table_and_retries_only_under_a_larger_one(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    study = ["study", "duchess", "--deals", "2", "--timeout", "30", "--workers", "1", "--db", db]
    assert main([*study, "--table", "50"]) == 0
    with Store(db) as store:
        [row] = store.rows()
    assert (row.outcome, row.reason, row.table_limit) == ("unknown", "memory limit", 50)
    assert main([*study, "--table", "50"]) == 0
    assert "1 deals left unknown by solver version" in capsys.readouterr().err
    assert main([*study, "--table", "1000000"]) == 0
    with Store(db) as store:
        [row] = store.rows()
    assert (row.outcome, row.table_limit) == ("won", 1_000_000)


@pytest.mark.parametrize("table", ["0", "-5", "many"])
def test_a_table_limit_must_be_a_whole_number_from_1(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "duchess", "--deals", "1", "--table", table]) == 2
    assert "--table" in capsys.readouterr().err


def test_the_help_gives_the_native_table_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "--help"]) == 0
    assert f"{NATIVE_TABLE:,}" in " ".join(capsys.readouterr().out.split())


def test_the_page_says_which_tables_the_runs_set_and_which_deals_filled_theirs() -> None:
    plain = Tail("Duchess (standard)", 2, (0.5,), 1, (10.0,), (10.0,))
    assert full_tables_words([plain]) == (f"Every search kept the native build's own table, at most {NATIVE_TABLE:,}"
                                          " positions. No undecided deal stopped with its table full.")
    full = Tail("Tournament (pysolfc)", 5, (0.5, 1.0), 3, (10.0, 600.0), (600.0,) * 3, 2, (200_000_000,))
    words = full_tables_words([plain, full])
    assert "as many as their run set: 200,000,000." in words
    assert "2 undecided deals stopped with their table full" in words and words.endswith("Tournament (pysolfc) 2.")
