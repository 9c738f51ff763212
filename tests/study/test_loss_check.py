"""The independent check of proved losses (kibitz.study.loss_check): its verdicts, its
limit, and its place in the results file, the CSV files and the report."""

from __future__ import annotations

from pathlib import Path

import pytest

import kibitz
from kibitz.cli import main
from kibitz.solver import SOLVER_VERSION, Limits, solve
from kibitz.study.archive import read_file
from kibitz.study.loss_check import CHECKER_VERSION, check_loss, exhaust, python_rules
from kibitz.study.runner import solve_batch
from kibitz.study.store import Store
from kibitz.study.tables import CHECKS

LOST = 3931
"""A Kingsdown Eights deal the solver proves lost within a few positions."""


def test_a_proved_loss_is_confirmed_on_the_python_rules() -> None:
    check = check_loss("kingsdown-eights", "standard", LOST, 10_000)
    assert (check.verdict, check.checker_version) == ("lost", CHECKER_VERSION)
    assert 1 < check.positions < 10_000 and check.seconds >= 0
    assert solve(kibitz.game("kingsdown-eights").deal(LOST), Limits(seconds=30)).outcome.value == "lost"


def test_a_reachable_win_is_found_and_a_big_space_stops_at_the_limit() -> None:
    rules = python_rules(kibitz.game("duchess"))
    assert rules.kernel is None and rules.deal(4242).game is rules
    won = solve(kibitz.game("duchess").deal(4242), Limits(seconds=30))
    assert won.outcome.value == "won" and len(won.moves) > 4
    state = rules.deal(4242)
    for move in won.moves[:-4]:
        state = rules.apply(state, move)
    assert exhaust(state, 100_000)[0] == "won"
    assert exhaust(rules.deal(4242), 500) == ("unknown", 500)


def test_checks_are_stored_exported_imported_and_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    with Store(db) as store:
        store.add(solve_batch("kingsdown-eights", "standard", [LOST, 5], 30.0, None, "cpu"))
    assert main(["report", "--db", db]) == 0
    assert f"deal {LOST}: every line of play tried" in capsys.readouterr().out
    assert main(["results", "check-losses", "--db", db, "--limit", "10000"]) == 0
    assert main(["report", "--db", db]) == 0
    report = capsys.readouterr().out
    assert f"deal {LOST}: every line of play tried, none wins" in report
    assert "the independent check: lost too" in report and f"solver version {SOLVER_VERSION}" in report
    assert main(["results", "export", "--db", db, "--checks", str(tmp_path / "checks.csv")]) == 0
    read = read_file(tmp_path / "checks.csv")
    assert read.table is CHECKS and [row[2:4] for row in read.rows] == [(str(LOST), "lost")]
    with Store(tmp_path / "copy.db") as copy:
        assert read.merge_into(copy) == (1, 0)
        assert read.merge_into(copy) == (0, 0)
    assert main(["results", "check-losses", "--db", db]) == 0  # checked already: nothing to do
    assert "1 proved lost, 0 to check" in capsys.readouterr().err


def test_the_smallest_proofs_are_checked_first_and_the_checked_ones_not_again() -> None:
    from kibitz.study.archive_commands import losses_to_check
    from kibitz.study.store import Row

    def lost(deal: int, positions: int, ruleset: str = "standard") -> Row:
        return Row("kingsdown-eights", ruleset, deal, "lost", None, (), positions, positions, 1.0, 10.0, 22, 1)

    rows = [lost(5, 900), lost(9, 12), lost(3, 5_000), lost(7, 12), lost(5, 800),
            Row("kingsdown-eights", "standard", 4, "won", None, (), 1, 1, 0.1, 10.0, 22, 1), lost(2, 1, "pysolfc")]
    found = losses_to_check(rows, {("kingsdown-eights", "standard", 3)})
    assert found == {("kingsdown-eights", "pysolfc"): (1, [2]), ("kingsdown-eights", "standard"): (4, [7, 9, 5])}
