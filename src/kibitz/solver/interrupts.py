"""Ctrl-C during a solve: the search stops between two nodes, then ``KeyboardInterrupt``.

In the compiled build (:mod:`kibitz.compiled`) a ``KeyboardInterrupt`` raised in the middle
of a native operation can abort the whole process. So :func:`kibitz.solver.solve` runs
the search under :func:`deferred`: Ctrl-C only records the request, the search polls
:func:`requested` at each clock reading and stops with the reason :data:`INTERRUPTED`,
and ``solve`` then raises ``KeyboardInterrupt`` as usual.

This module stays pure Python (it is not in ``kibitz.compiled.MODULES``): calling
:func:`requested` enters the interpreter, which is where Python runs a pending signal
handler; compiled code alone might not run it until the search ends.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Iterator

INTERRUPTED = "interrupted"
"""The reason of a search stopped by Ctrl-C (``solve`` turns it into ``KeyboardInterrupt``)."""

_requested = False
_stops: dict[int, threading.Event] = {}
"""The stop asked of each thread that searches under :func:`stopped_by`, by thread."""


def requested() -> bool:
    """Whether Ctrl-C (or SIGTERM, under :func:`terminate_as_interrupt`) came during the
    current :func:`deferred` block, or the stop of this thread's :func:`stopped_by` was set."""
    if _requested:
        return True
    stop = _stops.get(threading.get_ident()) if _stops else None
    return stop is not None and stop.is_set()


@contextmanager
def stopped_by(stop: threading.Event) -> Iterator[None]:
    """Inside, the searches of this thread stop at their next clock reading once ``stop`` is
    set (with the reason :data:`INTERRUPTED`; ``solve`` returns that result, as it does in a
    thread): how a search in a thread of its own is given up."""
    ident = threading.get_ident()
    _stops[ident] = stop
    try:
        yield
    finally:
        _stops.pop(ident, None)


def _record(signum: int, frame: FrameType | None) -> None:
    global _requested
    _requested = True


def record(signum: int) -> None:
    """Have the signal ``signum`` record a stop request (:func:`requested`) instead of taking
    its own action, from now on: how a study's worker hears that it should stop after the
    deal in hand (``kibitz.study.runner.STOP_SIGNAL``). Outside :func:`deferred` the request
    is never cleared: a search stops at its next clock reading with the reason
    :data:`INTERRUPTED`, and ``solve`` returns that result."""
    signal.signal(signum, _record)


_deferring = False
"""Whether a :func:`deferred` block is open (SIGTERM is then recorded, not raised)."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM under :func:`terminate_as_interrupt`: what Ctrl-C does in the foreground."""
    if _deferring:
        _record(signum, frame)
    else:
        raise KeyboardInterrupt


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Inside, SIGTERM (``kill PID``) stops the program as Ctrl-C does: a long job run in
    the background, where the shell has Ctrl-C ignored, can still be stopped cleanly (what
    it finished kept, how to go on said). Only in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def deferred() -> Iterator[None]:
    """Record Ctrl-C instead of raising it at once; raise ``KeyboardInterrupt`` on leaving.

    Only where Python's own handler is in place, in the main thread: a program that
    handles SIGINT itself, a worker that ignores it, or a thread keeps its behaviour.
    SIGTERM under :func:`terminate_as_interrupt` is recorded too.
    """
    global _requested, _deferring
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    own_interrupt = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if not own_interrupt and signal.getsignal(signal.SIGTERM) is not _terminate:
        yield
        return
    _requested = False
    _deferring = True
    if own_interrupt:
        signal.signal(signal.SIGINT, _record)
    try:
        yield
    finally:
        _deferring = False
        if own_interrupt:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if _requested:
            _requested = False
            raise KeyboardInterrupt
