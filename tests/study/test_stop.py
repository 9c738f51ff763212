"""A study run in the background stops cleanly on SIGTERM, as one in a terminal does on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kibitz.study.store import Store


def as_a_background_job() -> None:
    """What a shell without job control does to a command started with ``&``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def alive(group: int) -> bool:
    """Whether any process of the process group ``group`` is left."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(("workers", "target"), [(1, "process"), (2, "process"), (2, "group")])
def test_sigterm_stops_a_background_study_as_ctrl_c_does(workers: int, target: str, tmp_path: Path) -> None:
    """Ctrl-C is ignored in a background job, so ``kill PID`` (SIGTERM to the coordinating
    process alone) or ``kill -- -PGID`` (to its whole group, the workers too) is how it is
    stopped: every finished batch is kept, the workers end, and the same command then goes
    on where it stopped."""
    db = tmp_path / "s.db"
    command = [sys.executable, "-m", "kibitz", "study", "kingsdown-eights", "--deals", "1-200",
               "--timeout", "3", "--workers", str(workers), "--batch", "1", "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, start_new_session=True, preexec_fn=as_a_background_job)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
            if db.exists():
                with Store(db) as store:
                    if store.count() >= 2:
                        break
        assert process.poll() is None, "the study ended before it could be stopped"
        time.sleep(0.5)  # into the middle of the next deals
        process.send_signal(signal.SIGINT)  # ignored, as in a background job
        time.sleep(0.5)
        assert process.poll() is None
        if target == "group":
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
        _, errors = process.communicate(timeout=60)
        time.sleep(1)
        survivors = alive(process.pid)  # no worker outlives the coordinator
    finally:
        try:  # whatever happened, nothing of the study's is left running
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    assert not survivors
    assert process.returncode == 130, errors
    assert "Traceback" not in errors and "fatal" not in errors, errors
    with Store(db) as store:
        rows = list(store.rows(moves=False))
    stored = {row.deal for row in rows}
    assert len(stored) >= 2 and f"interrupted: {len(stored):,} new results are stored" in errors
    assert "run the same command again" in errors
    again = subprocess.run([*command[:6], "1-3", *command[7:]], capture_output=True, text=True, env=env,
                           timeout=120, check=True)
    skipped = len({1, 2, 3} & stored)  # decided, or left unknown within the same limits
    assert f"done: {3 - skipped} deals solved ({skipped} skipped)" in again.stderr


def test_a_worker_leaves_sigint_to_the_coordinator_and_dies_of_sigterm() -> None:
    """A forked worker starts with the coordinator's handlers; its start-up ignores Ctrl-C
    and puts SIGTERM back to its default (the worker ends at once, without a traceback)."""
    from kibitz.solver import interrupts
    from kibitz.study.runner import leave_interrupts_to_the_coordinator
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with interrupts.terminate_as_interrupt():
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
            leave_interrupts_to_the_coordinator()
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, interrupt)


def test_a_stopped_study_keeps_the_finished_deals_of_the_batches_in_hand(tmp_path: Path) -> None:
    """Two workers with batches too long to finish before the stop: each worker hands in the
    deals it finished (the search in hand stops at once and is not a result), and the same
    command then skips exactly them."""
    db = tmp_path / "s.db"
    command = [sys.executable, "-m", "kibitz", "study", "kingsdown-eights", "--deals", "2001-2400",
               "--timeout", "3", "--workers", "2", "--batch", "200", "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, start_new_session=True, preexec_fn=as_a_background_job)
    try:
        time.sleep(8)  # a few deals into each batch (30-50 s of work each), far from their ends
        assert process.poll() is None, "the study ended before it could be stopped"
        started = time.monotonic()
        process.terminate()
        _, errors = process.communicate(timeout=60)
        stopping = time.monotonic() - started
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    assert process.returncode == 130, errors
    assert "Traceback" not in errors, errors
    assert stopping < 10, f"the workers took {stopping:.1f} s to hand in their batches"
    with Store(db) as store:
        rows = list(store.rows(moves=False))
    stored = {row.deal for row in rows}
    first, second = set(range(2001, 2201)), set(range(2201, 2401))
    # Each worker finished deals of its own batch, in order from the batch's first deal.
    for batch in (first, second):
        mine = sorted(stored & batch)
        assert mine == list(range(min(batch), min(batch) + len(mine))), mine
    assert 2 <= len(stored) < 400, "before, a stop lost every deal of an unfinished batch"
    assert all(row.reason != "interrupted" for row in rows)
    assert f"interrupted: {len(stored):,} new results are stored" in errors
    again = subprocess.run([*command[:6], "2001-2010,2201-2210", *command[7:]], capture_output=True,
                           text=True, env=env, timeout=120, check=True)
    asked = set(range(2001, 2011)) | set(range(2201, 2211))
    skipped = len(asked & stored)
    assert f"done: {20 - skipped} deals solved ({skipped} skipped)" in again.stderr



def test_a_worker_told_to_stop_hands_in_the_deals_it_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a worker, the stop signal ends the search in hand at once: the batch returns the
    deals finished before it, and a batch started after it returns nothing."""
    import threading

    from kibitz.solver import interrupts
    from kibitz.study.odds import NO_SETTING, play_batch
    from kibitz.study.runner import STOP_SIGNAL, solve_batch
    monkeypatch.setattr(interrupts, "_requested", False)  # put back after the test
    previous = signal.getsignal(STOP_SIGNAL), signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a worker (leave_interrupts_to_the_coordinator)
    interrupts.record(STOP_SIGNAL)
    try:
        timer = threading.Timer(2.0, os.kill, (os.getpid(), STOP_SIGNAL))
        timer.start()
        started = time.monotonic()
        rows = solve_batch("kingsdown-eights", "standard", [1, 2, 161, 3], 120, clock="cpu")
        took = time.monotonic() - started
        timer.join()
        assert [row.deal for row in rows] == [1, 2]  # 161 takes seconds, not 2
        assert took < 10
        assert interrupts.requested()
        assert solve_batch("kingsdown-eights", "standard", [1], 30) == []
        assert play_batch("duchess", "standard", "random", NO_SETTING, 1, [1, 2]) == []
    finally:
        signal.signal(STOP_SIGNAL, previous[0])
        signal.signal(signal.SIGINT, previous[1])
