"""Run a study: solve a range of deals in batches, locally or on Ray, storing each result.

Workers solve batches and send rows back; only the coordinating process writes to the
store, one transaction per batch, so an interrupted study keeps every finished batch, and
the finished deals of the batches in hand (the workers hand them in when told to stop).

The runners are not tied to solving: a :class:`Plan` names its :class:`Job`, the function a
worker runs on a batch of deals (:class:`SolveJob` for a study; the odds,
:mod:`kibitz.study.odds`, play agents), and :func:`run_batches` runs any plan's batches,
stores the rows and shows the progress.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, TextIO, TypeVar

from kibitz.study.store import Row, Store

MAX_BATCH = 200
"""Most deals per task."""
MAX_BATCH_SECONDS = 300.0
"""Most seconds a task may take when every deal in it reaches the time limit: progress is
shown and stored batch by batch, so a batch of hard deals must not hold it back for long."""
STOP_SIGNAL = signal.SIGUSR1
"""The signal by which an interrupted study's coordinator tells its workers to stop after
the deal in hand and hand in the rest of their batch (:func:`stop_workers`)."""
STOP_SECONDS = 10.0
"""How long a stopping worker may take to hand in its batch: a search stops at its next
clock reading, a few milliseconds, but a winning line is still replayed."""
MANAGER_JOIN_SECONDS = 5.0
"""How long an interrupted process pool may take to notice that its workers ended."""


class Result(Protocol):
    """A row a job returns: ``won``, ``lost`` or ``unknown`` (counted by the progress line)."""

    @property
    def outcome(self) -> str: ...


RowT = TypeVar("RowT", bound=Result)


class Job(Protocol[RowT]):
    """What a worker runs on a batch of deals: picklable (a frozen dataclass), so that it can
    be sent to a worker process or a Ray task."""

    def __call__(self, deals: list[int]) -> list[RowT]: ...


class Plan(Protocol[RowT]):
    """What the runners need of a plan: its job, its workers and its batch size."""

    @property
    def workers(self) -> int: ...

    def worker_count(self) -> int: ...

    def batch_size(self, remaining: int) -> int: ...

    def job(self) -> Job[RowT]: ...


def run_job(job: Job[RowT], deals: list[int]) -> list[RowT]:
    """Run ``job`` on a batch (in a worker process or a Ray task)."""
    return job(deals)


@dataclass(frozen=True)
class SolveJob:
    """A study's job: solve each deal of a batch (:func:`solve_batch`)."""

    game: str
    ruleset: str
    timeout: float | None
    nodes: int | None
    clock: str = "wall"
    table: int | None = None

    def __call__(self, deals: list[int]) -> list[Row]:
        return solve_batch(self.game, self.ruleset, deals, self.timeout, self.nodes, self.clock, self.table)


@dataclass(frozen=True)
class StudyPlan:
    """What to solve and how: a game, a ruleset, deal numbers and a time limit per deal."""

    game: str
    ruleset: str
    deals: Sequence[int]
    timeout: float | None
    """Seconds per deal (``None``: no time limit)."""
    workers: int = 0
    """Parallel workers; 0 means one per local core."""
    batch: int = 0
    """Deals per task; 0 picks a size that keeps every worker busy and overhead small, and
    a task under ``MAX_BATCH_SECONDS`` even if all its deals reach the time limit."""
    nodes: int | None = None
    """Node limit per deal: unlike a time limit, it gives the same results on any machine."""
    undecided_only: bool = False
    """Skip deals decided by any solver version, not only by the current one (to deepen a
    study after a solver upgrade: a win is replayed and a loss proved, whatever found it)."""
    retry_unknown: bool = False
    """Solve again the deals the current solver version left unknown under limits at least
    as long as these (skipped otherwise: the same search would stop there again)."""
    clock: str = "wall"
    """What ``timeout`` counts: ``wall`` or ``cpu`` (``kibitz.solver.Limits.clock``)."""
    table: int | None = None
    """The most positions a search's transposition table may hold (``kibitz.solver.Limits.table``);
    ``None``: the build's own limit. A long time limit needs a larger table, or the search
    stops when its table is full (``memory limit``) before its time is up."""

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1

    def batch_size(self, remaining: int) -> int:
        if self.batch:
            return self.batch
        size = min(MAX_BATCH, remaining // (self.worker_count() * 8) or 1)
        if self.timeout is not None:
            size = min(size, int(MAX_BATCH_SECONDS // self.timeout))
        return max(1, size)

    def job(self) -> SolveJob:
        return SolveJob(self.game, self.ruleset, self.timeout, self.nodes, self.clock, self.table)


def solve_batch(game: str, ruleset: str, deals: Sequence[int], timeout: float | None,
                nodes: int | None = None, clock: str = "wall", table: int | None = None) -> list[Row]:
    """Solve each deal of a batch (runs in a worker process), ``timeout`` seconds on ``clock``."""
    import kibitz
    from kibitz.solver import SOLVER_VERSION, Limits, interrupts, solve
    playable = kibitz.game(game, ruleset)
    rows: list[Row] = []
    for number in deals:
        if interrupts.requested():  # told to stop (see leave_interrupts_to_the_coordinator)
            break
        result = solve(playable.deal(number), Limits(seconds=timeout, nodes=nodes, table=table, clock=clock))
        if result.reason == interrupts.INTERRUPTED:
            break  # the deal in hand: not a result
        rows.append(Row(game, ruleset, number, result.outcome.value, result.reason,
                        tuple(str(m) for m in result.moves), result.nodes, result.states,
                        result.seconds, timeout, SOLVER_VERSION, playable.info.rules_version, nodes, clock, table))
    return rows


def leave_interrupts_to_the_coordinator() -> None:
    """Worker start-up: ignore Ctrl-C, which a terminal sends to every process of its group.
    The coordinating process stores what is finished and ends the workers itself; a worker
    interrupted inside compiled code (``kibitz.compiled``) could otherwise abort with a
    misleading message. :data:`STOP_SIGNAL` records a stop request instead
    (``interrupts.record``): the job stops after the deal in hand (whose search stops at
    once) and returns the rows it has. SIGTERM ends a worker at once, as by default: a
    forked worker would otherwise keep the coordinator's handler
    (``interrupts.terminate_as_interrupt``) and print a traceback when ``kill`` reaches the
    whole process group."""
    from kibitz.solver import interrupts
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    interrupts.record(STOP_SIGNAL)


def batches(deals: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(deals), size):
        yield list(deals[start:start + size])


@dataclass
class Progress:
    """Counts of a running study (or odds run), printed as one refreshing line."""

    total: int
    skipped: int = 0
    done: int = 0
    won: int = 0
    lost: int = 0
    unknown: int = 0
    started: float = field(default_factory=time.monotonic)
    stream: TextIO | None = None
    shown: float = 0.0
    counted: tuple[str, ...] = ("won", "lost", "unknown")
    """The outcomes the line shows (a played game is never unknown)."""

    def add(self, rows: Iterable[Result]) -> None:
        for row in rows:
            self.done += 1
            if row.outcome == "won":
                self.won += 1
            elif row.outcome == "lost":
                self.lost += 1
            else:
                self.unknown += 1
        self.show()

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = duration(left / rate) if rate > 0 else "?"
        speed = f"{rate:,.1f}/s" if rate >= 1 or rate == 0 else f"{1 / rate:,.1f} s a deal"
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        counts = " ".join(f"{name} {getattr(self, name):,}" for name in self.counted)
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} deals, "
                f"{speed}, {counts}, ETA {eta}")

    def show(self, final: bool = False) -> None:
        """Refresh the line: often on a terminal, every few seconds in a log."""
        if self.stream is None:
            return
        tty = self.stream.isatty()
        now = time.monotonic()
        if not final and now - self.shown < (0.1 if tty else 5.0) and self.done < self.total:
            return
        self.shown = now
        self.stream.write(self.line() + ("\r" if tty else "\n"))
        self.stream.flush()


def duration(seconds: float) -> str:
    """A time left as a reader takes it in: ``42 s``, ``12 min``, ``9 h 19 min``."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60:,} h {minutes % 60} min"


BatchRunner = Callable[[StudyPlan, list[list[int]], Callable[[list[Row]], None]], None]
"""A backend of a study: runs the batches of a plan, delivering each batch's rows as it finishes
(:func:`run_local`, or :func:`kibitz.study.ray_backend.ray_runner`); any plan's backend has
this form with its own plan and rows."""


def run_local(plan: Plan[RowT], work: list[list[int]], deliver: Callable[[list[RowT]], None]) -> None:
    """Run a plan's batches on a local process pool, delivering each batch's rows as it finishes.

    With one worker the batches run in this process, a deal at a time: when the run is
    interrupted, the rows of the interrupted batch's finished deals are delivered before
    the interruption goes on, so that only the deal in flight is lost."""
    workers = plan.worker_count()
    job = plan.job()
    if workers == 1:
        for batch in work:
            rows: list[RowT] = []
            try:
                for deal in batch:
                    rows.extend(run_job(job, [deal]))
            except BaseException:
                if rows:
                    deliver(rows)
                raise
            deliver(rows)
        return
    executor = ProcessPoolExecutor(max_workers=workers, initializer=leave_interrupts_to_the_coordinator)
    pending: set[Future[list[RowT]]] = set()
    try:
        queue = iter(work)
        for batch in queue:
            pending.add(executor.submit(run_job, job, batch))
            if len(pending) >= workers * 2:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                deliver(future.result())
                following = next(queue, None)
                if following is not None:
                    pending.add(executor.submit(run_job, job, following))
    except BaseException:
        stop_workers(executor, pending, deliver)
        raise
    executor.shutdown()


def stop_workers(executor: ProcessPoolExecutor, pending: set[Future[list[RowT]]],
                 deliver: Callable[[list[RowT]], None]) -> None:
    """Stop an interrupted pool at once: cancel the batches not started, tell the workers to
    stop after the deal in hand (:data:`STOP_SIGNAL`), deliver what they hand in within
    :data:`STOP_SECONDS`, and end them."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    # The pool's manager thread, taken before shutdown() forgets it.
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.pid is not None and process.is_alive():
            try:
                os.kill(process.pid, STOP_SIGNAL)
            except ProcessLookupError:
                pass
    try:
        handing_in = {future for future in pending if not future.cancelled()}
        finished = wait(handing_in, timeout=STOP_SECONDS).done if handing_in else set()
        for future in finished:
            if future.cancelled() or future.exception() is not None:
                continue  # a worker that died: its batch is solved again on the next run
            if rows := future.result():
                deliver(rows)
    finally:
        for process in processes:
            process.terminate()
        # Let the manager thread see its workers end and close its wake-up pipe before the
        # interpreter's exit hook writes to that pipe: the hook checks that the pipe is open
        # and then writes, so a close in between printed "Bad file descriptor" after Ctrl-C
        # under load.
        if manager is not None:
            manager.join(timeout=MANAGER_JOIN_SECONDS)


PlanT = TypeVar("PlanT", bound=Plan[Any])


def run_batches(plan: PlanT, todo: Sequence[int], keep: Callable[[list[RowT]], object],
                backend: Callable[[PlanT, list[list[int]], Callable[[list[RowT]], None]], None],
                progress: Progress) -> Progress:
    """Run the deals ``todo`` of ``plan`` in batches on ``backend``, handing each finished
    batch's rows to ``keep`` (which stores them) and then to ``progress``."""

    def deliver(rows: list[RowT]) -> None:
        keep(rows)
        progress.add(rows)

    backend(plan, list(batches(todo, plan.batch_size(len(todo)))), deliver)
    if progress.stream is not None and progress.stream.isatty():
        progress.stream.write("\n")
    return progress


def run_study(plan: StudyPlan, store: Store, backend: BatchRunner | None = None,
               stream: TextIO | None = None) -> Progress:
    """Solve every deal of ``plan`` not yet decided in ``store`` under the current versions
    (nor left unknown by this solver version within limits as long, unless the plan says
    ``retry_unknown``), showing progress on ``stream`` when one is given. Where the plan's
    ruleset has the rules of another (:func:`~kibitz.registry.rulesets_alike`), a deal
    decided under either counts, and new results are stored under the first of them."""
    import kibitz
    from kibitz.registry import rulesets_alike
    from kibitz.solver import SOLVER_VERSION
    rules_version = kibitz.game(plan.game, plan.ruleset).info.rules_version
    alike = rulesets_alike(plan.game, plan.ruleset)
    plan = replace(plan, ruleset=alike[0])
    version = None if plan.undecided_only else SOLVER_VERSION
    done: set[int] = set()
    tried: set[int] = set()
    for ruleset in alike:
        done |= store.decided(plan.game, ruleset, version, rules_version)
        if not plan.retry_unknown:
            tried |= store.tried(plan.game, ruleset, SOLVER_VERSION, rules_version, plan.timeout, plan.nodes,
                                 plan.clock, plan.table)
    wanted = set(plan.deals)
    decided = len(wanted & done)
    unknown = len((wanted & tried) - done)
    todo = [n for n in plan.deals if n not in done and n not in tried]
    progress = Progress(total=len(todo), skipped=len(plan.deals) - len(todo), stream=stream)
    if stream is not None and decided:
        by = "any solver version" if plan.undecided_only else f"solver version {SOLVER_VERSION}"
        stream.write(f"{decided:,} deals already decided by {by}: skipped\n")
    if stream is not None and unknown:
        stream.write(f"{unknown:,} deals left unknown by solver version {SOLVER_VERSION} within these limits: "
                     "skipped (a longer --timeout or --retry-unknown solves them again)\n")

    if not todo:
        return run_batches(plan, todo, store.add, backend or run_local, progress)
    clock_speed(plan, store, "start", stream)
    try:
        return run_batches(plan, todo, store.add, backend or run_local, progress)
    finally:
        clock_speed(plan, store, "end", stream)


def clock_speed(plan: StudyPlan, store: Store, moment: str, stream: TextIO | None) -> None:
    """Measure the machine's speed (:mod:`kibitz.study.speed`) and store it with the study."""
    from kibitz.solver import SOLVER_VERSION
    from kibitz.study.speed import measure
    speed = measure()
    store.add_speed(plan.game, plan.ruleset, moment, speed, SOLVER_VERSION)
    if stream is not None:
        stream.write(f"machine speed at the {moment}: {speed.nodes_per_second / 1e6:,.2f} million nodes "
                     f"per processor second ({speed.build} rules)\n")
