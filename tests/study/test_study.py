"""Studies: the store, resuming after an interruption, local and Ray backends, the report."""

from __future__ import annotations

import functools
import json
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

from kibitz.cli import main
from kibitz.solver import SOLVER_VERSION
from kibitz.study.commands import parse_deals
from kibitz.intervals import wilson
from kibitz.study.report import format_table, summarize
from kibitz.study.runner import MAX_BATCH, MAX_BATCH_SECONDS, StudyPlan, run_local, run_study, solve_batch
from kibitz.study.store import ADDED_COLUMNS, SCHEMA, Row, Store

NODES = 3_000
"""Studies in these tests stop at a node limit, so their results do not depend on the machine."""
PLAN = StudyPlan("duchess", "standard", list(range(1, 13)), timeout=None, workers=2, batch=3, nodes=NODES)


def comparable(rows: list[Row]) -> list[tuple[object, ...]]:
    """What must agree between two runs of the same study (everything but the clock)."""
    return [(r.game, r.ruleset, r.deal, r.outcome, r.reason, r.moves, r.nodes, r.states,
             r.solver_version, r.rules_version, r.node_limit) for r in rows]


def test_store_round_trip_and_versions(tmp_path: Path) -> None:
    rows = solve_batch("duchess", "standard", [1, 2, 3], None, NODES)
    with Store(tmp_path / "s.db") as store:
        assert store.add(rows) == 3
        assert comparable(list(store.rows())) == comparable(rows)
        assert any(r.moves for r in rows)
        assert comparable(list(store.rows(moves=False))) == comparable([replace(r, moves=()) for r in rows])
        assert store.count() == store.count("duchess", "standard") == 3
        assert store.count("duchess", "pysolfc") == store.count("cicely") == 0
        decided = {r.deal for r in rows if r.outcome != "unknown"}
        assert store.decided("duchess", "standard", SOLVER_VERSION, 1) == decided
        assert store.decided("duchess", "standard", SOLVER_VERSION + 1, 1) == set()
        assert store.decided("duchess", "pysolfc", SOLVER_VERSION, 1) == set()
    with Store(tmp_path / "s.db") as reopened:
        assert len(list(reopened.rows())) == 3


def test_a_store_counts_the_rows_it_wrote_itself(tmp_path: Path) -> None:
    """What an interrupted run reports as stored: its own rows, replaced ones included, not
    those of another study writing the same file."""
    rows = solve_batch("duchess", "standard", [1, 2], None, 100)
    with Store(tmp_path / "s.db") as mine, Store(tmp_path / "s.db") as other:
        assert (mine.written, other.written) == (0, 0)
        mine.add(rows)
        mine.add(rows[:1])  # a retry replaces a row
        other.add(solve_batch("duchess", "standard", [3], None, 100))
        assert (mine.written, other.written, mine.count()) == (3, 1, 3)


def test_huge_deal_numbers_are_stored_exactly(tmp_path: Path) -> None:
    number = 99999999999999999999
    rows = solve_batch("duchess", "standard", [number], None, 50)
    with Store(tmp_path / "s.db") as store:
        store.add(rows)
        assert [r.deal for r in store.rows()] == [number]


def test_rerun_skips_decided_deals_and_unknown_ones_within_the_same_limits(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        first = run_study(PLAN, store, stream=None)
        assert first.done == len(PLAN.deals) and first.unknown > 0 and first.won > 0
        second = run_study(PLAN, store, stream=None)
        assert (second.skipped, second.done) == (len(PLAN.deals), 0)
        retried = run_study(replace(PLAN, retry_unknown=True), store, stream=None)
        assert (retried.skipped, retried.done) == (first.won + first.lost, first.unknown)
        deeper = run_study(replace(PLAN, nodes=NODES * 10), store, stream=None)
        assert (deeper.skipped, deeper.done) == (first.won + first.lost, first.unknown)
        unknown = {r.deal for r in store.rows() if r.outcome == "unknown"}
        assert {r.deal for r in store.rows() if r.node_limit == NODES * 10} == {
            r.deal for r in solve_batch(PLAN.game, PLAN.ruleset, PLAN.deals, None, NODES) if r.outcome == "unknown"}
        assert run_study(replace(PLAN, nodes=NODES * 10), store, stream=None).done == 0
        assert run_study(replace(PLAN, nodes=None, timeout=1.0), store, stream=None).done == len(unknown)


def test_unknown_deals_count_as_tried_only_under_limits_as_long(tmp_path: Path) -> None:
    def unknown(deal: int, timeout: float | None, node_limit: int | None, version: int = SOLVER_VERSION,
                reason: str = "time limit") -> Row:
        return Row("duchess", "standard", deal, "unknown", reason, (), 1, 1, 0.1, timeout, version, 1, node_limit)

    with Store(tmp_path / "s.db") as store:
        store.add([unknown(1, 10.0, None), unknown(2, 60.0, None), unknown(3, None, 1000), unknown(4, 10.0, 1000),
                   unknown(5, None, None, reason="memory limit"), unknown(6, 60.0, None, version=SOLVER_VERSION - 1),
                   unknown(7, 60.0, None, reason="interrupted")])
        tried = functools.partial(store.tried, "duchess", "standard", SOLVER_VERSION, 1)
        assert tried(10.0, None) == {1, 2, 5}
        assert tried(30.0, None) == {2, 5}
        assert tried(10.0, 1000) == {1, 2, 3, 4, 5}
        assert tried(10.0, 2000) == {1, 2, 5}
        assert tried(None, 1000) == {3, 5}
        assert tried(None, None) == {5}
        assert store.tried("duchess", "pysolfc", SOLVER_VERSION, 1, 10.0, None) == set()


def test_a_wall_clock_row_counts_as_tried_only_for_a_wall_clock_limit(tmp_path: Path) -> None:
    """A processor-time limit gives a search at least what a wall-clock one of as many
    seconds does, never less: its unknown rows count for both clocks."""
    def unknown(deal: int, timeout: float, clock: str) -> Row:
        return Row("duchess", "standard", deal, "unknown", "time limit", (), 1, 1, 0.1, timeout, SOLVER_VERSION, 1,
                   None, clock)

    with Store(tmp_path / "s.db") as store:
        store.add([unknown(1, 10.0, "wall"), unknown(2, 10.0, "cpu"), unknown(3, 60.0, "wall"), unknown(4, 5.0, "cpu")])
        tried = functools.partial(store.tried, "duchess", "standard", SOLVER_VERSION, 1)
        assert tried(10.0, None, "wall") == {1, 2, 3}
        assert tried(10.0, None, "cpu") == {2}
        assert tried(5.0, None, "cpu") == {2, 4}
        assert [r.clock for r in store.rows()] == ["wall", "cpu", "wall", "cpu"]


def test_a_results_file_from_before_clocks_reads_as_wall_clock(tmp_path: Path) -> None:
    import sqlite3
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        old.executescript(SCHEMA.replace("    clock TEXT NOT NULL DEFAULT 'wall' CHECK (clock IN ('wall', 'cpu')),"
                                         "  -- what the time limit counted\n", ""))
        assert "clock" not in {name for (_, name, *_) in old.execute("PRAGMA table_info(results)")}
        old.execute("INSERT INTO results (game, ruleset, deal, outcome, reason, moves, nodes, states, seconds, timeout,"
                    " solver_version, rules_version) VALUES ('duchess', 'standard', '7', 'unknown', 'time limit', '',"
                    " 1, 1, 10.0, 10.0, ?, 1)", (SOLVER_VERSION,))
    old.close()
    with Store(path) as store:
        assert [(r.deal, r.clock) for r in store.rows()] == [(7, "wall")]
        assert store.tried("duchess", "standard", SOLVER_VERSION, 1, 10.0, None, "cpu") == set()
        store.add([replace(next(store.rows()), deal=8, clock="cpu")])
    with Store(path) as reopened:
        assert [(r.deal, r.clock) for r in reopened.rows()] == [(7, "wall"), (8, "cpu")]


def test_two_studies_opening_an_old_results_file_at_once_both_open_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A column an older file lacks is added once: a study that found it missing and then
    finds it added by another opens the file all the same."""
    import sqlite3
    path = tmp_path / "old.db"
    with Store(path):
        pass  # the new column is there now, as another study would have added it
    columns = Store._columns
    calls: list[int] = []

    def stale_then_fresh(store: Store) -> set[str]:
        calls.append(1)
        found = columns(store)
        return found - {"clock"} if len(calls) == 1 else found

    monkeypatch.setattr(Store, "_columns", stale_then_fresh)
    with Store(path) as store:
        assert {"clock", "table_limit"} <= columns(store) and len(calls) == len(ADDED_COLUMNS) + 1
    monkeypatch.setattr(Store, "_columns", lambda store: set())  # never there: the error is not hidden
    with pytest.raises(sqlite3.OperationalError, match="duplicate column"):
        Store(path)


def test_undecided_only_skips_deals_decided_by_any_solver_version(tmp_path: Path) -> None:
    older = [Row("duchess", "standard", n, outcome, None if outcome != "unknown" else "time limit", (), 1, 1,
                 0.1, 1.0, SOLVER_VERSION - 1, 1) for n, outcome in ((1, "won"), (2, "lost"), (3, "unknown"))]
    with Store(tmp_path / "s.db") as store:
        store.add(older)
        assert store.decided("duchess", "standard", None, 1) == {1, 2}
        assert store.decided("duchess", "standard", SOLVER_VERSION, 1) == set()
        plan = StudyPlan("duchess", "standard", [1, 2, 3, 4], timeout=None, workers=1, nodes=NODES, undecided_only=True)
        progress = run_study(plan, store)
        assert (progress.skipped, progress.done) == (2, 2)
        assert {r.deal for r in store.rows() if r.solver_version == SOLVER_VERSION} == {3, 4}
        again = run_study(replace(plan, undecided_only=False), store)
        assert (again.skipped, again.done) == (2, 2)  # deals 1 and 2 again, for this version


def test_interrupted_study_resumes_to_the_same_rows(tmp_path: Path) -> None:
    with Store(tmp_path / "whole.db") as store:
        run_study(PLAN, store, stream=None)
        whole = list(store.rows())

    def interrupt_after(batches: int) -> Callable[[StudyPlan, list[list[int]], Callable[[list[Row]], None]], None]:
        def backend(plan: StudyPlan, work: list[list[int]], deliver: Callable[[list[Row]], None]) -> None:
            delivered = 0

            def counting(rows: list[Row]) -> None:
                nonlocal delivered
                deliver(rows)
                delivered += 1
                if delivered == batches:
                    raise KeyboardInterrupt
            run_local(plan, work, counting)
        return backend

    with Store(tmp_path / "parts.db") as store:
        with pytest.raises(KeyboardInterrupt):
            run_study(PLAN, store, interrupt_after(2), stream=None)
        kept = list(store.rows())
        # The two finished batches, and what the workers hand in of the batches in hand.
        assert 2 * PLAN.batch <= len(kept) <= len(whole), "finished batches survive the interruption"
        assert set(comparable(kept)) <= set(comparable(whole))
        run_study(PLAN, store, stream=None)
        resumed = list(store.rows())
    assert comparable(resumed) == comparable(whole)


def test_an_interrupted_one_worker_study_loses_only_the_deal_in_flight(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With one worker, an interruption in the middle of a batch keeps the rows of that
    batch's finished deals (deal 4 below); only the deal being solved is lost."""
    from kibitz.study import runner

    def interrupted_at_deal_5(game: str, ruleset: str, deals: list[int], *rest: object) -> list[Row]:
        if 5 in deals:
            raise KeyboardInterrupt
        return solve_batch(game, ruleset, deals, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "solve_batch", interrupted_at_deal_5)
    plan = replace(PLAN, workers=1, batch=3)
    with Store(tmp_path / "s.db") as store:
        with pytest.raises(KeyboardInterrupt):
            run_study(plan, store, stream=None)
        assert sorted(row.deal for row in store.rows()) == [1, 2, 3, 4]


def test_an_interrupted_pool_has_ended_its_manager_thread_when_the_interruption_leaves() -> None:
    """After an interruption, the process pool's manager thread has closed its wake-up pipe
    before the exception leaves ``run_local``: the interpreter's exit hook writes to that pipe
    if it is still open, and a close racing with that write printed "Bad file descriptor"."""
    import threading

    def managers() -> list[threading.Thread]:
        return [thread for thread in threading.enumerate()
                if type(thread).__name__ == "_ExecutorManagerThread" and thread.is_alive()]

    before = set(managers())

    def interrupt(rows: list[Row]) -> None:
        assert [thread for thread in managers() if thread not in before], "a pool runs the batches"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_local(PLAN, [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], interrupt)
    assert [thread for thread in managers() if thread not in before] == []


def test_ctrl_c_at_the_terminal_stops_a_study_cleanly(tmp_path: Path) -> None:
    """Ctrl-C reaches every process of the terminal's group, workers included: the workers
    leave the interruption to the coordinating process, which stores every finished batch,
    ends the workers and says how to continue, with no worker traceback or crash."""
    db = tmp_path / "s.db"
    command = [sys.executable, "-m", "kibitz", "study", "kingsdown-eights", "--deals", "1-200",
               "--timeout", "3", "--workers", "2", "--batch", "1", "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
            if db.exists():
                with Store(db) as store:
                    if store.count() >= 2:
                        break
        assert process.poll() is None, "the study ended before it could be interrupted"
        time.sleep(0.5)  # into the middle of the next deals
        os.killpg(process.pid, signal.SIGINT)
        _, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, errors
    assert "interrupted:" in errors and "run the same command again" in errors
    assert "Traceback" not in errors and "fatal" not in errors, errors
    with Store(db) as store:
        stored = store.count()
    assert stored >= 2 and f"interrupted: {stored:,} new results are stored" in errors


def test_ray_backend_gives_the_same_rows_as_local(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray backend needs the cluster extra")
    from kibitz.study.ray_backend import ray_runner
    plan = StudyPlan("tournament", "standard", list(range(1, 9)), timeout=None, workers=2, batch=2, nodes=NODES)
    with Store(tmp_path / "local.db") as store:
        run_study(plan, store, stream=None)
        local = list(store.rows())
    with Store(tmp_path / "ray.db") as store, ray_runner(None) as runner:
        run_study(plan, store, runner, stream=None)
        on_ray = list(store.rows())
    assert len(local) == len(plan.deals)
    assert comparable(on_ray) == comparable(local)


def test_one_ray_runner_starts_ray_once_for_several_plans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray", reason="the ray backend needs the cluster extra")
    from kibitz.study.ray_backend import ray_runner
    starts = []
    start = ray.init
    monkeypatch.setattr(ray, "init", lambda *args, **options: starts.append(options) or start(*args, **options))
    plans = [StudyPlan(slug, "standard", [1, 2], timeout=None, workers=2, batch=1, nodes=NODES)
             for slug in ("duchess", "parisienne")]
    with Store(tmp_path / "ray.db") as store, ray_runner(None) as runner:
        for plan in plans:
            run_study(plan, store, runner, stream=None)
            assert ray.is_initialized()
        assert {row.game for row in store.rows()} == {"duchess", "parisienne"}
    assert len(starts) == 1 and not ray.is_initialized()


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert math.isclose(low, 0.2366, abs_tol=1e-4) and math.isclose(high, 0.7634, abs_tol=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-4) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def make_row(deal: int, outcome: str, seconds: float) -> Row:
    return Row("cicely", "standard", deal, outcome, "time limit" if outcome == "unknown" else None,
               (), 10, 10, seconds, 10.0, SOLVER_VERSION, 1)


def test_report_counts_and_conservative_interval() -> None:
    rows = ([make_row(n, "won", 0.01 * n) for n in range(1, 61)]
            + [make_row(n, "lost", 0.5) for n in range(61, 91)]
            + [make_row(n, "unknown", 10.0) for n in range(91, 101)])
    (line,) = summarize(rows)
    assert (line.deals, line.won, line.lost, line.unknown, line.decided) == (100, 60, 30, 10, 90)
    assert line.winnability == pytest.approx(60 / 90)
    assert line.interval == pytest.approx(wilson(60, 90))
    assert line.conservative == pytest.approx((wilson(60, 100)[0], wilson(70, 100)[1]))
    assert line.conservative[0] < line.interval[0] and line.conservative[1] > line.interval[1]
    assert line.median == pytest.approx(0.5) and line.max == 10.0
    assert line.p90 == pytest.approx(0.6) and line.p99 == 10.0
    table = format_table([line])
    assert "| cicely | standard | 100 | 60 | 30 | 10 | 66.67% |" in table
    assert [loss.deal for loss in line.losses] == list(range(61, 91))
    assert f"- cicely (standard) deal 61: every line of play tried, none wins (10 positions; solver version {SOLVER_VERSION})" in table
    assert table.count("none wins") == 30
    (none_lost,) = summarize([make_row(1, "won", 0.1), make_row(2, "unknown", 10.0)])
    assert none_lost.losses == () and "proved lost" not in format_table([none_lost])


def test_report_merges_solver_versions() -> None:
    def row(deal: int, outcome: str, version: int, seconds: float = 1.0, timeout: float = 1.0) -> Row:
        return Row("duchess", "standard", deal, outcome, "time limit" if outcome == "unknown" else None,
                   (), 10, 10, seconds, timeout, version, 1)

    rows = [row(1, "won", 2, 0.1), row(1, "won", 3, 0.2),        # won by both: the newest row's time
            row(2, "unknown", 2, 10.0, 10.0), row(2, "won", 3, 0.3),  # decided by the newer version
            row(3, "won", 2, 0.4), row(3, "unknown", 3, 1.0),       # a later timeout does not undo a win
            row(4, "unknown", 2, 10.0, 10.0), row(4, "unknown", 3),  # undecided by both
            row(5, "lost", 3, 0.5)]
    (line,) = summarize(rows)
    assert (line.deals, line.won, line.lost, line.unknown) == (5, 3, 1, 1)
    assert line.solver_versions == (2, 3) and line.limits == (1.0,) and line.conflicts == 0
    assert line.max == 1.0  # deal 4: the newest unknown row
    assert sorted([0.2, 0.3, 0.4, 0.5, 1.0])[2] == line.median
    apart = summarize(rows, by_version=True)
    assert [(x.solver_versions, x.deals, x.won, x.unknown) for x in apart] == [((2,), 4, 2, 2), ((3,), 5, 2, 2)]
    assert [(loss.deal, loss.solver_version) for loss in line.losses] == [(5, 3)]
    (clash,) = summarize([row(7, "won", 2), row(7, "lost", 3)])
    assert (clash.won, clash.lost, clash.unknown, clash.conflicts) == (0, 0, 1, 1)
    assert clash.losses == ()  # a conflict is no proof
    assert "solver bug" in format_table([clash])
    assert "| 2+3 | 1 |" in format_table([clash])


def test_batch_sizes() -> None:
    """Hundreds of deals per task on a long study, fewer when few are left or deals may be slow."""
    plan = StudyPlan("duchess", "standard", [], timeout=0.5, workers=2)
    assert plan.batch_size(100_000) == MAX_BATCH
    assert plan.batch_size(160) == 10 and plan.batch_size(3) == 1
    slow = StudyPlan("duchess", "standard", [], timeout=10.0, workers=2)
    assert slow.batch_size(100_000) == int(MAX_BATCH_SECONDS // 10.0) == 30
    assert StudyPlan("duchess", "standard", [], timeout=1000.0, workers=2).batch_size(100_000) == 1
    assert StudyPlan("duchess", "standard", [], timeout=None, workers=2, nodes=10).batch_size(100_000) == MAX_BATCH
    assert StudyPlan("duchess", "standard", [], timeout=10.0, workers=2, batch=500).batch_size(100_000) == 500


def test_parse_deals() -> None:
    assert parse_deals("1-3,7,5-6,2") == [1, 2, 3, 7, 5, 6]
    for bad in ("0-5", "5-1", "x", "1-", "1-20000000"):
        with pytest.raises(ValueError):
            parse_deals(bad)


def test_cli_study_then_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    assert main(["study", "duchess", "--deals", "1-4", "--nodes", str(NODES), "--workers", "1",
                 "--db", db]) == 0
    assert "done: 4 deals solved" in capsys.readouterr().err
    assert main(["study", "duchess", "--deals", "1-4", "--nodes", str(NODES), "--db", db]) == 0
    assert "already decided by solver version" in capsys.readouterr().err
    assert main(["study", "duchess", "--deals", "1-4", "--nodes", str(NODES), "--undecided", "--db", db]) == 0
    assert "already decided by any solver version" in capsys.readouterr().err
    assert main(["report", "--db", db]) == 0
    assert "| duchess | standard | 4 |" in capsys.readouterr().out
    assert main(["report", "--db", db, "--json"]) == 0
    (line,) = json.loads(capsys.readouterr().out)
    assert line["deals"] == 4 and line["won"] + line["lost"] + line["unknown"] == 4
    assert main(["report", "--db", db, "--game", "Duchess", "--deals", "2-3,9"]) == 0
    assert "| duchess | standard | 2 |" in capsys.readouterr().out
    assert main(["report", "--db", db, "--game", "cicely"]) == 0
    assert "holds no results for --game cicely" in capsys.readouterr().out
    assert main(["report", "--db", db, "--deals", "3-1"]) == 2
    assert "the end is before the start" in capsys.readouterr().err


def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "duchess", "1", "--json", "--timeout", "30"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "won" and result["deal"] == 1
    assert set(result) >= {"moves", "nodes", "states", "seconds", "peak_table"}
    assert all(isinstance(move, str) for move in result["moves"]) and result["moves"]


@pytest.mark.parametrize("argv", [["solve", "duchess", "0"], ["solve", "nope", "1"],
                                  ["solve", "duchess", "1", "--timeout", "0"],
                                  ["study", "duchess", "--deals", "5-1"], ["report", "--db", "/nonexistent/x.db"],
                                  ["study", "duchess", "--deals", "1-2", "--address", "auto"]])
def test_cli_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_report_lists_each_proved_loss_with_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "losses.db"
    with Store(db) as store:
        store.add([make_row(3, "won", 0.1), make_row(9, "lost", 2.0), make_row(4, "lost", 0.2),
                   make_row(5, "unknown", 10.0)])
    assert main(["report", "--db", str(db)]) == 0
    table = capsys.readouterr().out
    prefix = "- cicely (standard = pysolfc) deal "  # the rulesets of Cicely are the same
    listed = [line.removeprefix(prefix) for line in table.splitlines() if line.startswith(prefix)]
    assert [line.split(":")[0] for line in listed] == ["4", "9"]
    assert main(["report", "--db", str(db), "--json"]) == 0
    (line,) = json.loads(capsys.readouterr().out)
    assert [(loss["deal"], loss["positions"]) for loss in line["losses"]] == [(4, 10), (9, 10)]
    assert all("every line of play tried" in loss["reason"] for loss in line["losses"])


def test_the_progress_line_says_times_in_units_a_reader_takes_in() -> None:
    from kibitz.study.runner import Progress, duration
    assert [duration(s) for s in (0, 42.4, 99, 100, 719, 3599, 3600, 33_572, 360_000)] == [
        "0 s", "42 s", "99 s", "2 min", "12 min", "1 h 0 min", "1 h 0 min", "9 h 20 min", "100 h 0 min"]
    slow = Progress(total=10, done=2, started=time.monotonic() - 100)
    assert "2/10 deals, 50.0 s a deal" in slow.line() and "ETA 7 min" in slow.line()
    fast = Progress(total=1000, done=500, started=time.monotonic() - 100)
    assert "500/1,000 deals, 5.0/s" in fast.line() and "ETA 2 min" in fast.line()
    assert "ETA ?" in Progress(total=3).line()


def test_the_table_says_when_a_limit_counted_processor_time() -> None:
    def row(deal: int, clock: str, game: str = "duchess") -> Row:
        return Row(game, "standard", deal, "won", None, (), 1, 1, 0.5, 10.0, SOLVER_VERSION, 1, None, clock)

    lines = summarize([row(1, "cpu"), row(2, "cpu"), row(1, "wall", "cicely"), row(1, "wall", "tournament"),
                       row(2, "cpu", "tournament")])
    assert [(line.game, line.clocks, line.limits_text) for line in lines] == [
        ("cicely", ("wall",), "10"), ("duchess", ("cpu",), "10 (cpu)"), ("tournament", ("cpu", "wall"), "10 (cpu and wall)")]
    table = format_table(lines)
    assert f"| {SOLVER_VERSION} | 10 |" in table and f"| {SOLVER_VERSION} | 10 (cpu) |" in table
    assert lines[1].as_dict()["clocks"] == ("cpu",)
