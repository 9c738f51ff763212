"""The browser player's searches (hint, chance to win, analysis), run in worker processes.

A search keeps a core busy for a second or up to ten. Run in the server's own process, it
would hold Python's interpreter lock and slow every other game's moves; so each runs in
a worker process, at a lower scheduling priority than the server, at most one per core.
A search whose client has gone, or whose game has moved on, is stopped at once: its
worker is killed and replaced when next needed.

There are two kinds of question. A *fair* question (:class:`FairQuestion`: the strong
agent's hint, the chance to win from here) carries the player's
:class:`~kibitz.agents.Observation` and a seed, never a state: the worker that answers it
cannot see a hidden card. An *analysis* question (:class:`AnalysisQuestion`) carries the
true state to the solver, which sees every card; the referee marks a game assisted when
it answers one.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, Awaitable, Callable, Literal

import anyio
import anyio.to_thread

from kibitz.agents import HINT, Observation
from kibitz.printable import printable
from kibitz.state import State

Answer = dict[str, Any] | None
"""What a search found, as JSON-ready data (``None``: nothing, the worker died or hung)."""
StopCheck = Callable[[], Awaitable[bool]]

FAIR_SECONDS = 3.0
"""The time a fair answer (hint, chance to win) is expected to take at most: each is bounded by
a node budget, not by time."""
WORKER_NICENESS = 10
"""How much lower than the server a worker's scheduling priority is (Unix ``nice``)."""
POLL_SECONDS = 0.02
"""How often a waiting request looks for its answer, its client and its game."""
GRACE_SECONDS = 30.0
"""How long past its time limit a search may take before its worker is given up as stuck."""

log = logging.getLogger("kibitz.web")


FairKind = Literal["hint", "chance"]
AnalysisKind = Literal["hint", "winnable"]


@dataclass(frozen=True)
class FairQuestion:
    """A question answered from what the player sees: ``hint`` (the strong agent's move) or
    ``chance`` (the chance to win from here). Both are bounded by node budgets; ``seconds``
    only lengthens the time after which the worker is given up as stuck."""

    kind: FairKind
    observation: Observation
    seed: int
    seconds: float


@dataclass(frozen=True)
class AnalysisQuestion:
    """A question to the solver, which sees every card of ``state``: ``hint`` (the first move
    of a winning line) or ``winnable``, within ``seconds``."""

    kind: AnalysisKind
    state: State
    seconds: float


Question = FairQuestion | AnalysisQuestion


class SearchStopped(Exception):
    """A search stopped before its answer: its client left or its game moved on."""


class _WorkerLost(Exception):
    """A worker that died or hung: its search has no answer."""


def answer(question: Question) -> Answer:
    """The answer to ``question`` (run in a worker)."""
    if isinstance(question, FairQuestion):
        return fair_answer(question)
    return analysis_answer(question)


def fair_answer(question: FairQuestion) -> dict[str, Any]:
    """The answer to a fair question, from the observation alone."""
    from kibitz.agents import agent, chance
    observation = question.observation
    if not isinstance(observation, Observation):
        raise TypeError(f"a fair question carries an Observation, not {type(observation).__name__}")
    rng = random.Random(question.seed)
    if question.kind == "hint":
        decision = agent("strong", HINT).decide(observation, rng)
        return {"move": str(decision.move), "reason": decision.reason, "samples": decision.samples}
    return chance(observation, rng).as_dict()   # bounded by nodes (agents.CHANCE), not by time


def analysis_answer(question: AnalysisQuestion) -> dict[str, Any]:
    """The solver's answer, seeing every card."""
    from kibitz.solver import Limits, hint, is_winnable
    limits = Limits(seconds=question.seconds)
    if question.kind == "hint":
        move = hint(question.state, limits)
        return {"move": None if move is None else str(move)}
    return {"winnable": is_winnable(question.state, limits)}


def time_allowed(question: Question) -> float:
    """How long ``question`` may take before its worker is given up as stuck."""
    seconds = question.seconds
    if isinstance(question, FairQuestion):
        seconds = max(seconds, FAIR_SECONDS)
    return seconds + GRACE_SECONDS


def _serve(connection: multiprocessing.connection.Connection) -> None:
    """A worker's loop: answer each question sent, until the server closes the connection."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C stops the server, which stops its workers
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass
    while True:
        try:
            question = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, object] = ("answer", answer(question))
        except Exception as error:   # a bug in the search: report it rather than die silently
            reply = ("error", f"{type(error).__name__}: {error}")
        connection.send(reply)


def _context() -> ForkServerContext | SpawnContext:
    """Fork server where there is one (fast to start, safe from a threaded server), else spawn."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kibitz.web.searches", "kibitz.solver", "kibitz.agents.strong"])
        return context
    return multiprocessing.get_context("spawn")


@dataclass
class _Worker:
    process: BaseProcess
    connection: multiprocessing.connection.Connection

    def kill(self) -> None:
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


class SearchPool:
    """Worker processes for searches: at most ``size`` at once (default: one per core)."""

    def __init__(self, size: int | None = None) -> None:
        self.size = max(1, size or os.cpu_count() or 1)
        self._context = _context()
        self._idle: list[_Worker] = []
        self._busy = 0
        self.stopped = 0
        """Searches stopped early (client gone or game moved on), for tests and benchmarks."""

    @property
    def busy(self) -> int:
        """Searches running now."""
        return self._busy

    def _start(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs,), daemon=True, name="kibitz-search")
        process.start()
        theirs.close()
        return _Worker(process, ours)

    async def ask(self, question: Question, stop: StopCheck) -> Answer:
        """The answer to ``question`` (``None`` when the search's worker died or hung);
        :class:`SearchStopped` as soon as ``stop()`` says the asker no longer wants it
        (checked while waiting)."""
        while self._busy >= self.size:
            if await stop():
                self.stopped += 1
                raise SearchStopped
            await anyio.sleep(POLL_SECONDS)
        self._busy += 1
        try:
            worker = self._idle.pop() if self._idle else await anyio.to_thread.run_sync(self._start)
            try:
                worker.connection.send(question)
                reply = await self._wait(worker, time_allowed(question), stop)
            except _WorkerLost:
                worker.kill()
                return None
            except BaseException:
                worker.kill()   # stopped, cancelled or broken: a fresh worker takes its place
                raise
            self._idle.append(worker)
        finally:
            self._busy -= 1
        kind, value = reply
        if kind != "answer":
            log.error("a search failed: %s", printable(str(value)))
            return None
        assert value is None or isinstance(value, dict)
        return value

    async def _wait(self, worker: _Worker, allowed: float, stop: StopCheck) -> tuple[str, object]:
        deadline = time.monotonic() + allowed
        while not worker.connection.poll():
            if await stop():
                self.stopped += 1
                raise SearchStopped
            if time.monotonic() > deadline or not worker.process.is_alive():
                if not worker.connection.poll():
                    log.error("a search worker %s; its search answers 'unknown'",
                              "stopped answering" if worker.process.is_alive()
                              else f"ended (exit code {worker.process.exitcode})")
                    raise _WorkerLost
            await anyio.sleep(POLL_SECONDS)
        try:
            reply: tuple[str, object] = worker.connection.recv()
        except (EOFError, OSError):
            raise _WorkerLost from None
        return reply

    def close(self) -> None:
        """Stop every idle worker (a running search's worker is killed when it is stopped)."""
        while self._idle:
            self._idle.pop().kill()

