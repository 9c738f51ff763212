"""Results files as CSV: ``kibitz results export`` and ``import`` (kibitz.study.archive)."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.errors import KibitzError
from kibitz.solver import SOLVER_VERSION
from kibitz.study.archive import export_rows, read_file
from kibitz.study.runner import solve_batch
from kibitz.study.store import Row, Store

NODES = 3_000


def row(deal: int, outcome: str, *, timeout: float | None = 10.0, nodes: int = 500, game: str = "cicely") -> Row:
    """A made-up result row (the store does not solve: any row it is given, it keeps)."""
    return Row(game, "standard", deal, outcome, "time limit" if outcome == "unknown" else None,
               ("t1>f1",) if outcome == "won" else (), nodes, nodes - 1, 0.123456, timeout, SOLVER_VERSION, 1)


def everything(store: Store) -> list[tuple[object, ...]]:
    """Every column of every row but the winning moves, seconds to 0.1 ms."""
    return [record[:7] + (round(float(record[7]), 4),) + record[8:13]  # type: ignore[arg-type]
            for record in store.records()]


def test_export_then_import_gives_the_same_rows(tmp_path: Path) -> None:
    rows = solve_batch("duchess", "standard", [1, 2, 3, 4], None, NODES)
    with Store(tmp_path / "a.db") as store:
        store.add(rows + [row(99999999999999999999, "lost", game="kingsdown-eights"), row(7, "unknown", timeout=None)])
        for name, moves in (("rows.csv", False), ("rows.csv.gz", False), ("moves.csv.gz", True)):
            written = export_rows(store, tmp_path / name, moves=moves)
            assert written.rows == 6
            assert set(written.lines) == {("duchess", "standard"), ("kingsdown-eights", "standard"),
                                          ("cicely", "standard")}
        original = everything(store)
        with_moves = [(r.deal, r.moves) for r in store.rows()]
    assert (tmp_path / "rows.csv").read_text().splitlines()[0].startswith("game,ruleset,deal,outcome")
    assert gzip.decompress((tmp_path / "rows.csv.gz").read_bytes()) == (tmp_path / "rows.csv").read_bytes()
    for name in ("rows.csv", "rows.csv.gz", "moves.csv.gz"):
        with Store(tmp_path / f"{name}.db") as copy:
            assert read_file(tmp_path / name).merge_into(copy) == (6, 0)
            assert everything(copy) == original
            moves = [(r.deal, r.moves) for r in copy.rows()]
            if name == "moves.csv.gz":
                assert moves == with_moves and any(line for _, line in moves)
            else:
                assert all(not line for _, line in moves)
            assert read_file(tmp_path / name).merge_into(copy) == (0, 0)  # a second import changes nothing


def test_the_same_rows_export_to_the_same_bytes(tmp_path: Path) -> None:
    with Store(tmp_path / "a.db") as store:
        store.add([row(1, "won"), row(2, "lost")])
        export_rows(store, tmp_path / "one.csv.gz")
        export_rows(store, tmp_path / "two.csv.gz")
    assert (tmp_path / "one.csv.gz").read_bytes() == (tmp_path / "two.csv.gz").read_bytes()


def test_import_replaces_only_what_it_improves(tmp_path: Path) -> None:
    with Store(tmp_path / "old.db") as old:
        old.add([row(1, "unknown"), row(2, "unknown"), row(3, "won"), row(4, "unknown", timeout=60.0),
                 row(5, "lost")])
    with Store(tmp_path / "new.db") as new:
        new.add([row(1, "won", nodes=900), row(2, "unknown", timeout=60.0), row(3, "unknown", timeout=60.0),
                 row(4, "unknown", timeout=10.0), row(6, "won"), replace(row(5, "lost"), solver_version=99)])
        export_rows(new, tmp_path / "new.csv")
    with Store(tmp_path / "old.db") as old:
        assert read_file(tmp_path / "new.csv").merge_into(old) == (2, 2)
        result = {(r.deal, r.solver_version): (r.outcome, r.timeout, r.nodes) for r in old.rows()}
    assert result == {
        (1, SOLVER_VERSION): ("won", 10.0, 900),           # decided replaces unknown
        (2, SOLVER_VERSION): ("unknown", 60.0, 500),       # a longer limit replaces a shorter one
        (3, SOLVER_VERSION): ("won", 10.0, 500),           # a win is kept
        (4, SOLVER_VERSION): ("unknown", 60.0, 500),       # a shorter limit does not replace a longer one
        (5, SOLVER_VERSION): ("lost", 10.0, 500), (5, 99): ("lost", 10.0, 500),  # another version is another row
        (6, SOLVER_VERSION): ("won", 10.0, 500),
    }


def test_a_study_skips_the_deals_an_import_decided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, csv = str(tmp_path / "first.db"), str(tmp_path / "second.db"), str(tmp_path / "rows.csv.gz")
    assert main(["study", "duchess", "--deals", "1-3", "--nodes", str(NODES), "--workers", "1", "--db", first]) == 0
    assert main(["results", "export", "--db", first, "--game", "Duchess", csv]) == 0
    assert "3 rows written" in capsys.readouterr().err
    assert main(["results", "import", "--db", second, csv]) == 0
    assert "3 rows read, 3 added" in capsys.readouterr().err
    assert main(["study", "duchess", "--deals", "1-3", "--nodes", str(NODES), "--workers", "1", "--db", second]) == 0
    err = capsys.readouterr().err
    with Store(first) as store:
        decided = sum(r.outcome != "unknown" for r in store.rows())
    assert f"done: {3 - decided} deals solved ({decided} skipped)" in err
    assert main(["results", "export", "--db", first, "--game", "cicely", "-"]) == 0
    assert capsys.readouterr().out.splitlines() == ["game,ruleset,deal,outcome,reason,nodes,states,seconds,timeout,"
                                                     "node_limit,clock,table_limit,solver_version,rules_version,recorded"]


@pytest.mark.parametrize(("line", "says"), [
    ("duchess,standard,0,won,,1,1,0.1,10,,11,1,2026-12-03T12:00:00Z", "deal numbers run from 1"),
    ("duchess,standard,5,wonn,,1,1,0.1,10,,11,1,2026-12-03T12:00:00Z", "outcome is 'wonn'"),
    ("duchess,standard,5,won,time limit,1,1,0.1,10,,11,1,2026-12-03T12:00:00Z", "only an unknown one"),
    ("duchess,standard,5,won,,-1,1,0.1,10,,11,1,2026-12-03T12:00:00Z", "nodes is '-1'"),
    ("duchess,standard,5,won,,1,1,nan,10,,11,1,2026-12-03T12:00:00Z", "seconds is 'nan'"),
    ("duchess,standard,5,won,,1,1,0.1,10,x,11,1,2026-12-03T12:00:00Z", "node_limit is 'x'"),
    ("duchess,standard,5,won,,1,1,0.1,10,,11,1,yesterday", "recorded is 'yesterday'"),
    ("Duchess;,standard,5,won,,1,1,0.1,10,,11,1,2026-12-03T12:00:00Z", "not a slug"),
    ("duchess,standard,5,won,,1,1,0.1,10,,11", "fields"),
])
def test_a_bad_line_is_named_and_nothing_is_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     line: str, says: str) -> None:
    good = "duchess,standard,4,won,,1,1,0.1,10,,11,1,2026-12-03T12:00:00Z"
    header = "game,ruleset,deal,outcome,reason,nodes,states,seconds,timeout,node_limit,solver_version,rules_version,recorded"
    path = tmp_path / "bad.csv"
    path.write_text("\n".join([header, good, line, good]) + "\n")
    (tmp_path / "good.csv").write_text(header + "\n" + good + "\n")
    db = tmp_path / "s.db"
    assert main(["results", "import", "--db", str(db), str(tmp_path / "good.csv"), str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.csv, line 3:" in err and says in err
    assert not db.exists()  # every file is read before the results file is opened


def test_files_that_are_no_export_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "broken.csv.gz").write_bytes(b"not gzip")
    for name, says in (("other.csv", "is not a kibitz results export"), ("empty.csv", "is empty"),
                       ("broken.csv.gz", "cannot read"), ("missing.csv", "there is no file")):
        assert main(["results", "import", "--db", db, str(tmp_path / name)]) == 2
        assert says in capsys.readouterr().err
    assert main(["results", "export", "--db", db, str(tmp_path / "x.csv")]) == 2
    assert "there is no results file" in capsys.readouterr().err
    with Store(db) as store:
        store.add([row(1, "won")])
    assert main(["results", "export", "--db", db, "--ruleset", "house", str(tmp_path / "x.csv")]) == 2
    assert "unknown ruleset" in capsys.readouterr().err
    assert main(["results", "export", "--db", db, str(tmp_path / "no-folder" / "x.csv")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.kibitz.tmp*"))


def test_the_clock_of_a_row_is_kept_and_an_export_without_one_reads_as_wall_clock(tmp_path: Path) -> None:
    header = "game,ruleset,deal,outcome,reason,nodes,states,seconds,timeout,node_limit,solver_version,rules_version,recorded"
    (tmp_path / "old.csv").write_text(header + f"\nduchess,standard,4,unknown,time limit,1,1,10.0,10,,{SOLVER_VERSION},1,"
                                      "2026-12-03T12:00:00Z\n")
    with Store(tmp_path / "s.db") as store:
        assert read_file(tmp_path / "old.csv").merge_into(store) == (1, 0)
        assert [r.clock for r in store.rows()] == ["wall"]
        store.add([replace(row(5, "won"), clock="cpu")])
        export_rows(store, tmp_path / "new.csv")
        # The same limit on the processor clock is longer: its unknown row replaces a wall-clock one.
        cpu = replace(row(4, "unknown", game="duchess"), clock="cpu")
        with Store(tmp_path / "t.db") as other:
            other.add([cpu])
            export_rows(other, tmp_path / "cpu.csv")
        assert read_file(tmp_path / "cpu.csv").merge_into(store) == (0, 1)
        assert read_file(tmp_path / "old.csv").merge_into(store) == (0, 0)  # and not the other way round
    assert "clock" in (tmp_path / "new.csv").read_text().splitlines()[0].split(",")
    with Store(tmp_path / "copy.db") as copy:
        read_file(tmp_path / "new.csv").merge_into(copy)
        assert {(r.deal, r.clock) for r in copy.rows()} == {(4, "wall"), (5, "cpu")}
    bad = (tmp_path / "new.csv").read_text().replace(",cpu,", ",sun,")
    (tmp_path / "bad.csv").write_text(bad)
    with pytest.raises(KibitzError, match="line 2: clock is 'sun'"):
        read_file(tmp_path / "bad.csv")
