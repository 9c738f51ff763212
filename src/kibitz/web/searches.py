"""The browser player's searches (hint, chance to win, analysis, review), run in worker processes.

A search keeps a core busy for a second or up to ten, a review for longer. Run in the
server's own process, it would hold Python's interpreter lock and slow every other game's
moves; so each runs in a worker process, at a lower scheduling priority than the server, at
most one per core. A search whose client has gone, or whose game has moved on, is stopped
at once: its worker is killed and replaced when next needed.

Every answer comes from the analysis layer (:mod:`kibitz.analysis`), bounded by node
budgets: the same question gives the same answer on any machine. There are three kinds of
question. A *fair* question (:class:`FairQuestion`: the strong agent's hint, the chance to
win from here) carries the player's :class:`~kibitz.analysis.Observation` and a seed, never
a state: the worker that answers it cannot see a hidden card. An *analysis* question
(:class:`AnalysisQuestion`) carries the true state to the solver, which sees every card;
the referee marks a game assisted when it answers one. A *review* question
(:class:`ReviewQuestion`) carries a game's opening and its moves; its worker sends each
figure of the review as it is made (:meth:`SearchPool.stream`).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, AsyncGenerator, Awaitable, Callable, Iterator, Literal

import anyio
import anyio.to_thread

from kibitz.analysis import Observation
from kibitz.moves import Move
from kibitz.printable import printable
from kibitz.state import State

Answer = dict[str, Any] | None
"""What a search found, as JSON-ready data (``None``: nothing, the worker died or hung)."""
StopCheck = Callable[[], Awaitable[bool]]

FAIR_SECONDS = 3.0
"""The time a fair answer (hint, chance to win) is expected to take at most: each is bounded by
a node budget, not by time."""
ANALYSIS_SECONDS = 30.0
"""The time the solver's answer is expected to take at most (a node budget: a few seconds
with the native kernel, longer in pure Python)."""
REVIEW_STEP_SECONDS = 300.0
"""The time one figure of a review (a move's, or the point of no return) is expected to take
at most."""
WORKER_NICENESS = 10
"""How much lower than the server a worker's scheduling priority is (Unix ``nice``)."""
POLL_SECONDS = 0.02
"""How often a waiting request looks for its answer, its client and its game."""
GRACE_SECONDS = 30.0
"""How long past its expected time a search may take before its worker is given up as stuck."""

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
    of a winning line) or ``winnable``, within its node budget; ``seconds`` only lengthens
    the time after which the worker is given up as stuck."""

    kind: AnalysisKind
    state: State
    seconds: float


@dataclass(frozen=True)
class ReviewQuestion:
    """The review of the game of ``moves`` from ``start``: the fair part only, or also what
    only the solver sees (``sees_every_card``: the point of no return). ``deal``: the deal's
    number as the review may name it (``None`` while it is withheld)."""

    start: State
    moves: tuple[Move, ...]
    seed: int
    sees_every_card: bool
    deal: int | None


Question = FairQuestion | AnalysisQuestion | ReviewQuestion


class SearchStopped(Exception):
    """A search stopped before its answer: its client left or its game moved on."""


class SearchFailed(Exception):
    """A search that ended without its answer: its worker died, hung or failed."""


class _WorkerLost(Exception):
    """A worker that died or hung: its search has no answer."""


def answer(question: FairQuestion | AnalysisQuestion) -> Answer:
    """The answer to ``question`` (run in a worker)."""
    if isinstance(question, FairQuestion):
        return fair_answer(question)
    return analysis_answer(question)


def fair_answer(question: FairQuestion) -> dict[str, Any]:
    """The answer to a fair question, from the observation alone."""
    from kibitz.analysis import fair_chance, fair_hint
    from kibitz.analysis.review import chance_dict
    observation = question.observation
    if not isinstance(observation, Observation):
        raise TypeError(f"a fair question carries an Observation, not {type(observation).__name__}")
    if question.kind == "hint":
        found = fair_hint(observation, question.seed)
        return {"move": str(found.move), "reason": found.reason, "samples": found.samples}
    return chance_dict(fair_chance(observation, question.seed))


def analysis_answer(question: AnalysisQuestion) -> dict[str, Any]:
    """The solver's answer, seeing every card."""
    from kibitz.analysis import solver_answer
    found = solver_answer(question.state)
    if question.kind == "hint":
        return {"move": None if found.move is None else str(found.move), "reason": found.reason,
                "outcome": found.outcome.value}
    return {"winnable": found.winnable, "reason": found.reason}


def review_answers(question: ReviewQuestion) -> Iterator[tuple[str, dict[str, Any]]]:
    """The messages of a review (run in a worker): ``("event", data)`` for each figure as it
    is made, then ``("done", the whole review)``."""
    from kibitz.analysis import FinalChance, MoveReview, new_review, review_events
    start, moves = question.start, question.moves
    whole = new_review(start, moves, question.seed, question.deal, question.sees_every_card)
    for event in review_events(start, moves, question.seed, question.sees_every_card):
        whole.add(event)
        if isinstance(event, MoveReview):
            yield "event", {"type": "move", **event.as_dict()}
        elif isinstance(event, FinalChance):
            yield "event", {"type": "final", **event.as_dict()}
        else:
            yield "event", {"type": "no_return", **event.as_dict()}
    yield "done", whole.as_dict()


def time_allowed(question: Question) -> float:
    """How long ``question`` may take (a review: each of its figures) before its worker is given
    up as stuck."""
    if isinstance(question, ReviewQuestion):
        return REVIEW_STEP_SECONDS + GRACE_SECONDS
    floor = FAIR_SECONDS if isinstance(question, FairQuestion) else ANALYSIS_SECONDS
    return max(question.seconds, floor) + GRACE_SECONDS


def _serve(connection: multiprocessing.connection.Connection) -> None:
    """A worker's loop: answer each question sent, until the server closes the connection.
    A review is answered with one message per figure, then ``done``; any other question with
    one ``answer``; a failure with one ``error``."""
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
            if isinstance(question, ReviewQuestion):
                for message in review_answers(question):
                    connection.send(message)
                continue
            reply: tuple[str, object] = ("answer", answer(question))
        except Exception as error:   # a bug in the search: report it rather than die silently
            reply = ("error", f"{type(error).__name__}: {error}")
        connection.send(reply)


def _context() -> ForkServerContext | SpawnContext:
    """Fork server where there is one (fast to start, safe from a threaded server), else spawn."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kibitz.web.searches", "kibitz.analysis"])
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

    async def ask(self, question: FairQuestion | AnalysisQuestion, stop: StopCheck) -> Answer:
        """The answer to ``question`` (``None`` when the search's worker died, hung or failed);
        :class:`SearchStopped` as soon as ``stop()`` says the asker no longer wants it
        (checked while waiting)."""
        found: Answer = None
        try:
            async with contextlib.aclosing(self._messages(question, stop)) as messages:
                async for kind, value in messages:   # to the end: the worker is then idle again
                    if kind == "answer" and isinstance(value, dict):
                        found = value
        except SearchFailed:
            return None
        return found

    def stream(self, question: ReviewQuestion, stop: StopCheck) -> AsyncGenerator[tuple[str, Any], None]:
        """The messages of a review as its worker sends them: ``("event", figure)`` for each
        figure, then ``("done", review)``, each figure a JSON-ready ``dict``.
        :class:`SearchFailed` when its worker died, hung or failed; :class:`SearchStopped` as
        soon as ``stop()`` says the asker no longer wants it. Closed early (``aclose``) or
        cancelled, as when its client leaves, it stops the review at once."""
        return self._messages(question, stop)

    async def _messages(self, question: Question, stop: StopCheck) -> AsyncGenerator[tuple[str, Any], None]:
        """Every message the worker sends about ``question``, up to its last (``answer``,
        ``done``); its worker is killed when the asker stops listening before then."""
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
                while True:
                    kind, value = await self._wait(worker, time_allowed(question), stop)
                    if kind == "error":
                        log.error("a search failed: %s", printable(str(value)))
                        self._idle.append(worker)
                        raise SearchFailed(str(value))
                    yield kind, value
                    if kind in ("answer", "done"):
                        break
            except _WorkerLost:
                worker.kill()
                raise SearchFailed("the search's worker stopped answering") from None
            except SearchFailed:
                raise
            except BaseException as error:
                worker.kill()   # stopped, cancelled, left or broken: a fresh worker takes its place
                if not isinstance(error, Exception):   # cancelled, or its asker stopped listening
                    self.stopped += 1
                raise
            self._idle.append(worker)
        finally:
            self._busy -= 1

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
