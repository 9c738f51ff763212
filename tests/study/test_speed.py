"""The machine's speed kept with a study (kibitz.study.speed): measured at the start and end
of each run that solves something, exported, imported and shown by the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.errors import KibitzError
from kibitz.solver import SOLVER_VERSION
from kibitz.study.archive import export_rows, read_file
from kibitz.study.pages.kept import Kept
from kibitz.study.pages.tables import machine_speeds
from kibitz.study.tables import SPEEDS
from kibitz.study.runner import StudyPlan, run_study, solve_batch
from kibitz.study.speed import NODES, Speed, measure
from kibitz.study.store import Store


def test_the_workload_is_fixed_and_timed_on_the_processor() -> None:
    first, second = measure(), measure()
    assert first.nodes == second.nodes == 2 * NODES[first.build]  # no deal of it is decided within it
    assert first.seconds > 0 and first.nodes_per_second == first.nodes / first.seconds


def test_a_run_stores_its_speed_at_start_and_end_and_none_when_nothing_is_left(tmp_path: Path) -> None:
    plan = StudyPlan("cicely", "standard", [1, 2, 3], timeout=None, workers=1, nodes=2_000)
    with Store(tmp_path / "s.db") as store:
        run_study(plan, store)
        moments = [record[2] for record in store.speed_records()]
        assert moments == ["start", "end"]
        run_study(plan, store)  # every deal already tried: nothing solved, nothing measured
        assert len(store.speed_records()) == 2
        assert {record[:2] for record in store.speed_records()} == {("cicely", "standard")}


def test_speeds_export_import_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(tmp_path / "a.db") as store:
        store.add_speed("duchess", "pysolfc", "start", Speed(600_000, 0.3, "native"), SOLVER_VERSION)
        store.add_speed("duchess", "pysolfc", "end", Speed(600_000, 0.4, "native"), SOLVER_VERSION)
        store.add_speed("cicely", "standard", "start", Speed(40_000, 2.0, "python"), SOLVER_VERSION)
        store.add(solve_batch("cicely", "standard", [1], None, 1_000))
        written = export_rows(store, tmp_path / "speeds.csv", write=SPEEDS.write)
        assert written.rows == 3
        original = store.speed_records()
    read = read_file(tmp_path / "speeds.csv")
    assert read.table is SPEEDS and len(read.rows) == 3
    with Store(tmp_path / "b.db") as copy:
        assert read.merge_into(copy) == (3, 0)
        assert read.merge_into(copy) == (0, 0)
        assert [record[:4] + record[5:] for record in copy.speed_records()] == \
            [record[:4] + record[5:] for record in original]
        assert copy.count() == 0  # measures are not results
    assert main(["report", "--db", str(tmp_path / "a.db")]) == 0
    out = capsys.readouterr().out
    assert "duchess (pysolfc), solver version" in out and "1.50 to 2.00 over 2 measures" in out
    assert "cicely (standard)" in out and "python rules: 0.02 to 0.02 over 1 measure," in out


def test_a_bad_speed_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("game,ruleset,moment,nodes,seconds,build,solver_version,recorded\n"
                   "cicely,standard,start,10,0.1,native,22,2026-12-05T10:00:00Z\n"
                   "cicely,standard,middle,10,0.1,native,22,2026-12-05T10:00:00Z\n")
    with pytest.raises(KibitzError, match=r"bad.csv, line 3: moment is 'middle'"):
        read_file(bad)


def test_the_page_names_each_line_in_words_in_the_order_of_the_tables() -> None:
    speeds = (("kingsdown-eights", "standard", "start", 600_000, 0.5, "native", SOLVER_VERSION, "2026-12-05T10:00:00Z"),
              ("duchess", "pysolfc", "end", 600_000, 0.3, "native", SOLVER_VERSION, "2026-12-06T10:00:00Z"),
              ("duchess", "pysolfc", "start", 600_000, 0.4, "native", SOLVER_VERSION, "2026-12-05T10:00:00Z"),
              ("grand-duchess", "standard", "start", 600_000, 0.3, "native", SOLVER_VERSION, "2026-12-05T10:00:00Z"))
    listed = [line for line in machine_speeds(Kept(speeds=speeds)).splitlines() if line.startswith("- ")]
    assert [line.split(", solver")[0] for line in listed] == \
        ["- Grand Duchess (standard)", "- Duchess (pysolfc)", "- Kingsdown Eights (standard = pysolfc)"]
    assert "1.50 to 2.00 over 2 measures, 2026-12-05 to 2026-12-06" in listed[1]
    assert machine_speeds(Kept()) == "No speed measure is kept."
