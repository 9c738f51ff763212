"""Conformance soak: a million random moves per game and ruleset, each checked against the rules.

Plays out deals in every game and ruleset and checks every move against the reference
rules of the conformance suite (``tests/conformance/reference.py``), with the suite's own
checks (``tests/conformance/checks.py``). A play-out starts from a seeded deal number
(half Microsoft numbers 1-31999, half Mersenne Twister numbers of 5 to 20 digits), moves
at random among the legal moves or greedily (cards to the foundations first, so that
late-game states are reached; each play-out draws how often), and ends when the game is
over, when the greedy player has nothing new to try, or after ``--cap`` moves.

Checked at every state reached: the layout invariants, the cards conserved, the won and
over flags, no move generated twice and every generated move legal by the rules; and for
the move played, its result equals the reference's, its input is left alone, and undo
and redo give both states back. Checked in full (``check_state``, everything the
conformance suite checks at a state: the legal moves equal the reference's, every legal
move's result, sampled illegal moves refused, one move per unit onto alike empty piles,
both notations round-trip, the view hides exactly what a player may not see): the
opening of each play-out, each state whose round or base rank changed, each state where
the game is over, and otherwise a seeded sample of ``--full-share`` of the states.

The work is split into chunks of ``CHUNK`` moves with their own seeds, so the results do
not depend on the number of workers. Each finished chunk is appended to ``--results`` (JSON
lines); a rerun with the same settings skips what is there, so an interrupted soak goes
on where it stopped. A violation is printed with the deal number, the move number, the
state in one-line notation and what disagreed; ``--check-state`` reruns every check on
such a state. The exit status is 1 when any violation was found.

    .venv/bin/python benchmarks/conformance_soak.py [--moves 1000000] [--games duchess,cicely]
        [--rulesets standard] [--workers 2] [--seed 1] [--full-share 0.2] [--results FILE]
    .venv/bin/python benchmarks/conformance_soak.py --check-state "duchess standard round=1 ..." [--move t1>f2]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path

import kibitz
from kibitz import State, compiled, native, parse_move
from kibitz.deals import MAX_DEAL_NUMBER
from kibitz.history import History
from kibitz.notation import format_state, parse_state
from kibitz.study.runner import leave_interrupts_to_the_coordinator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conformance.checks import (  # noqa: E402  (the conformance suite's checks)
    STATE_CHECKS, check_apply, check_state, choose, play_and_check_undo)

CHUNK = 10_000
"""Moves per unit of work: each has its own seed, and is stored when finished."""
GREED = (0.0, 0.5, 0.9, 1.0)
"""The shares of greedy moves a play-out draws from."""
MICROSOFT_LAST = 31_999
MAX_VIOLATIONS = 20
"""Violations kept per chunk (the first ones)."""
CHECKS_FILE = "checks.py"


@dataclass(frozen=True)
class Settings:
    """What decides the moves played and checked (a results file holds one set)."""

    seed: int
    cap: int
    full_share: float
    chunk: int = CHUNK


@dataclass(frozen=True)
class Job:
    """One chunk: ``moves`` moves of one game and ruleset."""

    slug: str
    ruleset: str
    index: int
    moves: int
    settings: Settings


@dataclass
class Violation:
    """Where the engine and the rules disagreed, with what it takes to reproduce it."""

    deal: int
    move_number: int
    """Moves played in the play-out before ``state``."""
    state: str
    move: str | None
    """The move being checked, if the disagreement is about playing it."""
    check: str
    error: str
    seed: int
    """The play-out's seed."""
    greed: float


@dataclass
class ChunkResult:
    """What one chunk checked (fewer moves than ``target`` only when it stopped at
    ``MAX_VIOLATIONS`` violations)."""

    slug: str
    ruleset: str
    index: int
    target: int
    moves: int = 0
    playouts: int = 0
    full_checks: int = 0
    deals: list[int] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    build: str = "not recorded"
    """The build of the rules checked: ``native`` (the kernel) or ``python``."""


# -- one play-out ---------------------------------------------------------------------------------

def deal_number(rng: random.Random) -> int:
    """A Microsoft deal number, or a Mersenne Twister one of 5 to 20 digits (digits uniform)."""
    if rng.random() < 0.5:
        return rng.randint(1, MICROSOFT_LAST)
    digits = rng.randint(5, len(str(MAX_DEAL_NUMBER)))
    return rng.randint(max(MICROSOFT_LAST + 1, 10 ** (digits - 1)), 10 ** digits - 1)


def failed_check(error: BaseException) -> str:
    """The check that raised ``error`` (the innermost frame in the checks' file), else where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if Path(frame.filename).name == CHECKS_FILE]
    frame = (ours or frames)[-1]
    return f"{frame.name} (line {frame.lineno})"


def state_text(state: State) -> str:
    """The one-line notation of ``state``, or its raw fields if the notation itself fails."""
    try:
        return format_state(state)
    except Exception as error:  # the notation is one of the things checked
        return f"(format_state failed: {error!r}) {state.game.slug} {state.game.ruleset} " \
               f"round={state.round} base={state.base} piles={[p.hex() for p in state.piles]}"


@dataclass
class PlayOut:
    """What one play-out checked."""

    moves: int = 0
    full_checks: int = 0
    violation: Violation | None = None


def play_out(game: kibitz.Game, number: int, seed: int, greed: float, cap: int, full_share: float) -> PlayOut:
    """Play deal ``number`` for at most ``cap`` moves, checking each state and move; stop at
    the first violation."""
    rng = random.Random(seed)
    sampler = random.Random(seed ^ 0x5EED)
    done = PlayOut()
    state: State | None = None
    move = None
    try:
        history = History(game.deal(number), number)
        state = history.state
        seen = {state.key}
        previous: State | None = None
        while True:
            move = None
            full = (previous is None or state.round != previous.round or state.base != previous.base
                    or state.is_over() or sampler.random() < full_share)
            if full:
                check_state(state, sampler)
                done.full_checks += 1
            else:
                for check in STATE_CHECKS:
                    check(state)
            if done.moves >= cap or state.is_over():
                return done
            move = choose(state, rng, rng.random() < greed, seen)
            if move is None:
                return done
            if not full:  # check_state has checked every legal move's result
                check_apply(state, move)
            previous, state = state, play_and_check_undo(history, move)
            seen.add(state.key)
            done.moves += 1
    except Exception as error:
        message = "".join(traceback.format_exception_only(error)).strip()
        done.violation = Violation(
            number, done.moves, "(the deal)" if state is None else state_text(state),
            None if move is None else str(move), failed_check(error), message[:4000], seed, greed)
        return done


def soak_chunk(job: Job) -> ChunkResult:
    """Play out deals until ``job.moves`` moves are checked."""
    started, cpu_started = time.perf_counter(), time.process_time()
    settings = job.settings
    rng = random.Random(f"{settings.seed}/{job.slug}/{job.ruleset}/{job.index}")
    game = kibitz.game(job.slug, job.ruleset)
    result = ChunkResult(job.slug, job.ruleset, job.index, job.moves,
                         build="python" if game.kernel is None else "native")
    while result.moves < job.moves and len(result.violations) < MAX_VIOLATIONS:
        number, seed, greed = deal_number(rng), rng.getrandbits(32), rng.choice(GREED)
        outcome = play_out(game, number, seed, greed, min(settings.cap, job.moves - result.moves),
                           settings.full_share)
        result.playouts += 1
        result.deals.append(number)
        result.moves += outcome.moves
        result.full_checks += outcome.full_checks
        if outcome.violation is not None:
            result.violations.append(outcome.violation)
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - cpu_started
    return result


# -- the results file ------------------------------------------------------------------------------

class Results:
    """Finished chunks, kept in a JSON-lines file: a header with the settings, then one chunk a line."""

    def __init__(self, path: Path, settings: Settings) -> None:
        self.path = path
        self.chunks: dict[tuple[str, str, int], ChunkResult] = {}
        header = {"settings": asdict(settings)}
        if not path.exists() or path.stat().st_size == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n")
            return
        lines = path.read_text().splitlines()
        if json.loads(lines[0]) != header:
            raise SystemExit(f"{path} holds a soak with other settings ({lines[0]}); "
                             "choose another --results file or remove it")
        for line in lines[1:]:
            try:
                fields = json.loads(line)
                violations = [Violation(**violation) for violation in fields.pop("violations")]
                chunk = ChunkResult(**fields, violations=violations)
            except (ValueError, TypeError, KeyError):
                continue  # a line cut short by an interruption: that chunk runs again
            self.chunks[chunk.slug, chunk.ruleset, chunk.index] = chunk

    def add(self, chunk: ChunkResult) -> None:
        self.chunks[chunk.slug, chunk.ruleset, chunk.index] = chunk
        with self.path.open("a") as stream:
            stream.write(json.dumps(asdict(chunk)) + "\n")

    def finished(self, job: Job) -> ChunkResult | None:
        """The stored result of ``job``, if any."""
        chunk = self.chunks.get((job.slug, job.ruleset, job.index))
        return chunk if chunk is not None and chunk.target == job.moves else None

    def of(self, jobs: list[Job]) -> list[ChunkResult]:
        """The stored results of those of ``jobs`` that are finished."""
        return [chunk for chunk in map(self.finished, jobs) if chunk is not None]


# -- running and reporting -------------------------------------------------------------------------

def plan_of(pairs: list[tuple[str, str]], moves: int, settings: Settings) -> dict[tuple[str, str], list[Job]]:
    """The chunks of each pair."""
    return {(slug, ruleset): [Job(slug, ruleset, index, min(settings.chunk, moves - start), settings)
                              for index, start in enumerate(range(0, moves, settings.chunk))]
            for slug, ruleset in pairs}


def duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02}m{seconds:02}s" if hours else f"{minutes}m{seconds:02}s"


class Progress:
    """Moves checked per pair, shown on stderr: often on a terminal, every ``every`` seconds in a log."""

    def __init__(self, plan: dict[tuple[str, str], list[Job]], target: int, results: Results,
                 every: float) -> None:
        self.target = target
        self.done = {pair: sum(c.moves for c in results.of(jobs)) for pair, jobs in plan.items()}
        self.at_start = sum(self.done.values())
        self.started = time.monotonic()
        self.every = every
        self.shown = 0.0

    def add(self, chunk: ChunkResult) -> None:
        self.done[chunk.slug, chunk.ruleset] += chunk.moves
        above = "\n" if sys.stderr.isatty() else ""  # below the refreshing line
        if self.done[chunk.slug, chunk.ruleset] >= self.target:
            print(f"{above}{chunk.slug} {chunk.ruleset}: {self.target:,} moves done", file=sys.stderr, flush=True)
        for violation in chunk.violations:
            print(f"{above}VIOLATION {chunk.slug} {chunk.ruleset}: {describe(violation)}", file=sys.stderr, flush=True)
        self.show()

    def show(self, final: bool = False) -> None:
        tty = sys.stderr.isatty()
        now = time.monotonic()
        if not final and now - self.shown < (0.5 if tty else self.every):
            return
        self.shown = now
        total = self.target * len(self.done)
        done = sum(self.done.values())
        elapsed = now - self.started
        rate = (done - self.at_start) / elapsed if elapsed > 0 else 0.0
        eta = duration((total - done) / rate) if rate > 0 else "?"
        running = [f"{slug} {ruleset} {moves:,}/{self.target:,}" for (slug, ruleset), moves in self.done.items()
                   if 0 < moves < self.target]
        line = (f"{duration(elapsed)}: {done:,}/{total:,} moves ({done / total:.1%}), {rate:,.0f}/s, "
                f"ETA {eta}" + ("; " + ", ".join(running) if running else ""))
        print(line, end="\r" if tty and not final else "\n", file=sys.stderr, flush=True)


def describe(violation: Violation) -> str:
    """A violation in a few lines, enough to reproduce it."""
    move = f", playing {violation.move}" if violation.move else ""
    return (f"deal {violation.deal}, move {violation.move_number}{move} "
            f"(play-out seed {violation.seed}, greed {violation.greed:g}): {violation.check}\n"
            f"  state: {violation.state}\n  " + violation.error.replace("\n", "\n  "))


def run(jobs: list[Job], workers: int, results: Results, progress: Progress) -> None:
    """Run ``jobs`` on ``workers`` processes, storing each chunk as it finishes."""
    if workers == 1:
        for job in jobs:
            chunk = soak_chunk(job)
            results.add(chunk)
            progress.add(chunk)
        return
    executor = ProcessPoolExecutor(max_workers=workers, initializer=leave_interrupts_to_the_coordinator)
    try:
        pending: set[Future[ChunkResult]] = {executor.submit(soak_chunk, job) for job in jobs}
        while pending:
            finished, pending = wait(pending, timeout=progress.every, return_when=FIRST_COMPLETED)
            for future in finished:
                chunk = future.result()
                results.add(chunk)
                progress.add(chunk)
            progress.show()
    except BaseException:
        # Stop at once: what is stored stays; the chunks under way run again next time.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        raise
    executor.shutdown()


def report(plan: dict[tuple[str, str], list[Job]], results: Results) -> int:
    """Print the table and every violation; the number of violations."""
    print(f"{'game':18} {'ruleset':8} {'moves checked':>13} {'play-outs':>9} {'distinct deals':>14} "
          f"{'full checks':>11} {'violations':>10} {'seconds':>8} {'cpu s':>8}  build (moves)")
    counts = [0] * 5
    times = [0.0] * 2
    found: list[tuple[str, str, Violation]] = []
    for (slug, ruleset), jobs in plan.items():
        done = results.of(jobs)
        row = [sum(c.moves for c in done), sum(c.playouts for c in done),
               len({number for chunk in done for number in chunk.deals}),
               sum(c.full_checks for c in done), sum(len(c.violations) for c in done)]
        spent = [sum(c.seconds for c in done), sum(c.cpu_seconds for c in done)]
        counts = [a + b for a, b in zip(counts, row)]
        times = [a + b for a, b in zip(times, spent)]
        found += [(slug, ruleset, v) for c in done for v in c.violations]
        unfinished = "" if len(done) == len(jobs) else f"  ({len(done)} of {len(jobs)} chunks)"
        builds: dict[str, int] = {}
        for chunk in done:
            builds[chunk.build] = builds.get(chunk.build, 0) + chunk.moves
        print(f"{slug:18} {ruleset:8} {row[0]:13,} {row[1]:9,} {row[2]:14,} {row[3]:11,} {row[4]:10,} "
              f"{spent[0]:8,.0f} {spent[1]:8,.0f}  "
              + ", ".join(f"{build} {moves:,}" for build, moves in sorted(builds.items())) + unfinished)
    print(f"{'total':27} {counts[0]:13,} {counts[1]:9,} {counts[2]:14,} {counts[3]:11,} {counts[4]:10,} "
          f"{times[0]:8,.0f} {times[1]:8,.0f}")
    for slug, ruleset, violation in found:
        print(f"\nVIOLATION {slug} {ruleset}: {describe(violation)}")
    return len(found)


def check_one_state(text: str, move: str | None) -> int:
    """Every check on one state (and on one move of it): 0 when all pass."""
    state = parse_state(text)
    try:
        check_state(state, random.Random(0))
        if move is not None:
            check_apply(state, parse_move(move))
            play_and_check_undo(History(state), parse_move(move))
    except Exception as error:
        print(f"{failed_check(error)}: {''.join(traceback.format_exception_only(error)).strip()}")
        return 1
    print("every check passes")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=1_000_000, help="moves per game and ruleset (default 10^6)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--rulesets", default="", help="comma-separated rulesets (default: all)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every choice (default 1)")
    parser.add_argument("--cap", type=int, default=400, help="moves per play-out at most (default 400)")
    parser.add_argument("--full-share", type=float, default=0.2,
                        help="share of the other states checked in full (default 0.2)")
    parser.add_argument("--results", type=Path, default=Path("results/conformance_soak.jsonl"),
                        help="finished chunks, skipped by a rerun (default results/conformance_soak.jsonl)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between progress lines in a log")
    parser.add_argument("--check-state", metavar="STATE", help="only run every check on this one-line state")
    parser.add_argument("--move", help="with --check-state: also check playing this move")
    args = parser.parse_args()
    if args.check_state:
        sys.exit(check_one_state(args.check_state, args.move))
    slugs = [info.slug for info in kibitz.games()]
    games = args.games.split(",") if args.games else slugs
    rulesets = args.rulesets.split(",") if args.rulesets else list(kibitz.RULESETS)
    for name, chosen, known in (("game", games, slugs), ("ruleset", rulesets, kibitz.RULESETS)):
        unknown = [item for item in chosen if item not in known]
        if unknown:
            parser.error(f"unknown {name}(s): {', '.join(unknown)}")
    if args.moves < 1 or args.workers < 1 or args.cap < 1 or not 0 <= args.full_share <= 1:
        parser.error("--moves, --workers and --cap must be positive, --full-share within 0..1")
    pairs = [(slug, ruleset) for slug in games for ruleset in rulesets]
    settings = Settings(args.seed, args.cap, args.full_share)
    results = Results(args.results, settings)
    plan = plan_of(pairs, args.moves, settings)
    jobs = [job for pair_jobs in plan.values() for job in pair_jobs if results.finished(job) is None]
    print(f"conformance soak: {args.moves:,} moves per game and ruleset, {len(pairs)} pair(s), seed {args.seed}, "
          f"cap {args.cap}, full checks on {args.full_share:g} of the other states, {args.workers} worker(s), "
          f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}")
    print(f"native kernel of the rules: {native.STATUS} (KIBITZ_NATIVE=0 checks pure Python)")
    print(f"compiled build: {compiled.STATUS}; results: {args.results} "
          f"({len(jobs)} of {sum(map(len, plan.values()))} chunks to run)", flush=True)
    progress = Progress(plan, args.moves, results, args.every)
    started = time.monotonic()
    try:
        run(jobs, args.workers, results, progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted: {len(results.chunks)} chunks stored in {args.results}; rerun to go on",
              file=sys.stderr)
        sys.exit(130)
    progress.show(final=True)
    violations = report(plan, results)
    print(f"wall time of this run: {duration(time.monotonic() - started)}; violations: {violations}")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
