"""The clock of a time limit (``Limits.clock``): ``cpu`` counts the searching thread's
processor time, so a search that shares its core with other work still gets its seconds."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator

import pytest

import kibitz
from kibitz import native
from kibitz.solver import Limits, solve
from kibitz.solver.result import Budget, clock_reading
from tests.hard_deal import HARD_DEAL

SHARED = hasattr(os, "sched_setaffinity")


def test_a_clock_must_be_known() -> None:
    with pytest.raises(ValueError, match="clock must be one of wall, cpu, not 'sun'"):
        Limits(clock="sun")
    assert Limits().clock == "wall"
    assert Limits(clock="cpu").share(0.5).clock == "cpu"


def test_a_budget_on_the_processor_clock_is_not_spent_by_waiting() -> None:
    wall, cpu = Budget(Limits(seconds=0.05)), Budget(Limits(seconds=0.05, clock="cpu"))
    time.sleep(0.1)
    assert wall.remaining() is None and wall.reason == "time limit"
    left = cpu.remaining()
    assert left is not None and left.clock == "cpu" and left.seconds is not None and 0.04 < left.seconds <= 0.05
    assert clock_reading("cpu") is time.thread_time and clock_reading("wall") is time.perf_counter


def _spin(seconds: float) -> None:
    """Keep a core busy (in another process)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@pytest.fixture
def one_shared_core() -> Iterator[None]:
    """This process on one core, with another process spinning on the same core."""
    if not SHARED:
        pytest.skip("needs sched_setaffinity")
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    spinner = multiprocessing.get_context("fork").Process(target=_spin, args=(30.0,), daemon=True)
    spinner.start()
    try:
        time.sleep(0.2)
        yield
    finally:
        spinner.terminate()
        spinner.join()
        os.sched_setaffinity(0, before)


@pytest.mark.parametrize("build", ["python", "native"])
def test_a_processor_time_limit_gets_its_seconds_on_a_shared_core(build: str, one_shared_core: None) -> None:
    """Sharing one core with a busy process, a 1-second limit on the wall clock stops after
    about a second with about half of it spent searching; on the processor clock it stops
    after about two seconds, with one second of search (and about twice the positions)."""
    if build == "native" and native.load() is None:
        pytest.skip("the native kernel is not built")
    native.use(build)  # type: ignore[arg-type]
    try:
        state = kibitz.game("kingsdown-eights").deal(HARD_DEAL)
        results = {}
        for clock in ("wall", "cpu"):
            started = time.perf_counter()
            result = solve(state, Limits(seconds=1.0, clock=clock))
            results[clock] = (result, time.perf_counter() - started)
            assert result.reason == "time limit", "the deal is decided: pick a harder one"
            assert 0.9 <= result.seconds <= 1.5
        (on_wall, wall_took), (on_cpu, cpu_took) = results["wall"], results["cpu"]
        assert wall_took < 1.5 and cpu_took > 1.5
        assert on_cpu.nodes > 1.4 * on_wall.nodes
    finally:
        native.use("python")
