"""Ctrl-C during a solve: the search stops between nodes and ``solve`` raises KeyboardInterrupt."""

from __future__ import annotations

import os
import signal
import threading
import time
from types import FrameType

import pytest

import kibitz
from kibitz.solver import Limits, Outcome, interrupts, solve
from kibitz.solver.policies import policy_for
from kibitz.solver.search import TIME_CHECK_EVERY, search
from tests.hard_deal import HARD_DEAL


def interrupt_in(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_stops_a_long_solve_soon_and_restores_the_handler() -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    state = kibitz.game("kingsdown-eights").deal(HARD_DEAL)
    started = time.monotonic()
    timer = interrupt_in(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(state, Limits(seconds=60))
    finally:
        timer.cancel()
    assert time.monotonic() - started < 5
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not interrupts.requested()


def test_a_requested_interrupt_ends_the_search_at_the_next_clock_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    state = kibitz.game("kingsdown-eights").deal(HARD_DEAL)
    monkeypatch.setattr(interrupts, "_requested", True)
    result = search(state, policy_for(state.game), Limits(seconds=60))
    assert result.outcome is Outcome.UNKNOWN and result.reason == interrupts.INTERRUPTED
    assert result.nodes <= 2 * TIME_CHECK_EVERY


def test_an_interrupt_after_the_search_is_still_raised() -> None:
    state = kibitz.game("grand-duchess").deal(1)
    with pytest.raises(KeyboardInterrupt):
        with interrupts.deferred():
            assert solve(state, Limits(seconds=10)).outcome is Outcome.WON  # nested: leaves the handler alone
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the handler runs: recorded, not raised
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_program_with_its_own_handler_keeps_it() -> None:
    calls: list[int] = []

    def own(signum: int, frame: FrameType | None) -> None:
        calls.append(signum)

    previous = signal.signal(signal.SIGINT, own)
    try:
        state = kibitz.game("kingsdown-eights").deal(HARD_DEAL)
        timer = interrupt_in(0.2)
        result = solve(state, Limits(seconds=0.6))
        timer.join()
        assert result.outcome is Outcome.UNKNOWN and result.reason == "time limit"
        assert calls == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is own
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_solve_in_another_thread_leaves_signals_alone() -> None:
    outcomes: list[Outcome] = []
    worker = threading.Thread(target=lambda: outcomes.append(
        solve(kibitz.game("grand-duchess").deal(1), Limits(seconds=10)).outcome))
    worker.start()
    worker.join()
    assert outcomes == [Outcome.WON]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
