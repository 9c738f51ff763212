"""Core speed: legal-move generation plus apply, per game and ruleset, on every build at once.

Random play-outs (seeded) of up to ``--moves`` moves from consecutive deal numbers. A
*cycle* is one ``state.legal_moves`` on a new state plus one ``state.apply`` of a legal
move (checked): the library's own calls, as any client makes them. Each build runs in its
own process: ``python`` (``KIBITZ_PURE_PYTHON=1``), ``compiled`` (the mypyc build of
``scripts/compile``, when it is built and fresh; the native kernel off) and ``native`` (the
native kernel of ``scripts/setup``; the mypyc build off). The builds take turns in short
slices, so that a change in the machine's load falls on all of them alike. Target: 50,000
cycles per second on one core for every game; the native kernel at 5x or more the pure
Python rate.

The native build then measures what crossing into Rust costs (ns per call, on states of
the same play-outs): reading a state and generating its moves in Rust
(``Kernel.count_moves``), the Rust part alone (the same, repeated inside Rust), making the
tuple of ``Move`` objects, and the whole ``state.legal_moves``; and ``state.apply``.

With ``--csv FILE`` the rates are written to FILE too, one line per game, ruleset and build
(``game,ruleset,build,cycles_per_second``), as ``kibitz.study.pages.figures`` reads them for the
figure of docs/benchmarks.md.

    .venv/bin/python benchmarks/core_speed.py [--seconds 2] [--rulesets standard,pysolfc] [--csv FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from solve_apart import build_environment  # noqa: E402  (the harness the tests compare the builds with)

TARGET = 50_000
BUILDS = ("python", "compiled", "native")


# -- a worker: one build, in its own process ------------------------------------------------------

def play_outs(game: Any, seconds: float, max_moves: int, seed: int) -> tuple[int, float, list[Any]]:
    """Play random games for ``seconds``; returns cycles, time spent and sampled states."""
    rng = random.Random(seed)
    cycles = 0
    samples = []
    number = 1
    deal_time = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start - deal_time < seconds:
        before = time.perf_counter()
        state = game.deal(number)
        deal_time += time.perf_counter() - before
        number += 1
        for _ in range(max_moves):
            moves = state.legal_moves
            if not moves:
                break
            state = state.apply(moves[rng.randrange(len(moves))])
            cycles += 1
            if cycles % 16 == 0 and len(samples) < 2000:
                samples.append(state)
    return cycles, time.perf_counter() - start - deal_time, samples


def per_call(function: Any, items: list[Any], repeat: int = 7, batch: int = 32) -> float:
    """The time per item of ``function`` over ``items``, in nanoseconds, without the time of
    the loop and of calling ``function`` itself: the fastest of ``repeat`` runs of each
    batch of items, summed (short batches are seldom interrupted on a busy machine)."""

    def fastest(function: Any, items: list[Any]) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            for item in items:
                function(item)
            best = min(best, time.perf_counter() - start)
        return best

    total = 0.0
    for k in range(0, len(items), batch):
        part = items[k:k + batch]
        total += fastest(function, part) - fastest(lambda item: None, part)
    return total / len(items) * 1e9


def boundary(game: Any, states: list[Any]) -> dict[str, float]:
    """What crossing into the native kernel costs, in ns per call on ``states``."""
    from kibitz.state import State
    kernel = game.kernel
    inside = 11
    count_once = per_call(lambda s: kernel.count_moves(s), states)
    count_many = per_call(lambda s: kernel.count_moves(s, inside), states, batch=8)
    rust = (count_many - count_once) / (inside - 1)
    tuples = per_call(lambda s: kernel.generate_moves(s), states)
    legal = 0.0
    for k in range(0, len(states), 32):  # the first call on new states (later ones are cached)
        best = float("inf")
        for _ in range(7):
            fresh = [State(s.game, s.piles, s.round, s.base) for s in states[k:k + 32]]
            started = time.perf_counter()
            for state in fresh:
                state.legal_moves
            best = min(best, time.perf_counter() - started)
        legal += best
    legal = legal / len(states) * 1e9
    pairs = [(s, s.legal_moves[0]) for s in states if s.legal_moves]
    apply = per_call(lambda pair: pair[0].apply(pair[1]), pairs)
    return {"moves": statistics.mean(len(s.legal_moves) for s in states), "rust": rust,
            "read": count_once - rust, "tuple": tuples - count_once, "legal_moves": legal, "apply": apply}


def worker(build: str) -> None:
    """Serve one build: each line of stdin asks for a slice, each line of stdout answers."""
    import kibitz
    from kibitz import compiled, native
    expected = {"python": (False, False), "compiled": (True, False), "native": (False, True)}[build]
    if (compiled.ACTIVE, native.ACTIVE) != expected:
        print(json.dumps({"error": f"{build}: compiled {compiled.STATUS}; native {native.STATUS}"}), flush=True)
        return
    print(json.dumps({"status": f"compiled {compiled.STATUS}; native {native.STATUS}"}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        game = kibitz.game(ask["game"], ask["ruleset"])
        cycles, elapsed, samples = play_outs(game, ask["seconds"], ask["moves"], ask["seed"])
        answer: dict[str, Any] = {"cycles": cycles, "seconds": elapsed}
        if ask.get("boundary"):
            answer["boundary"] = boundary(game, samples)
        print(json.dumps(answer), flush=True)


# -- the coordinator ------------------------------------------------------------------------------

def environment(build: str, empty: str) -> dict[str, str]:
    """The environment that makes a new process run ``build`` (``empty``: a folder with no mypyc build)."""
    if build == "python":
        return build_environment(pure=True)
    if build == "compiled":
        return build_environment(native=False)
    return build_environment(folder=Path(empty))


def start(build: str, empty: str) -> tuple[subprocess.Popen[str] | None, str]:
    """A worker process for ``build``, or ``None`` and why it cannot run."""
    process = subprocess.Popen([sys.executable, __file__, "--worker", build], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=environment(build, empty))
    assert process.stdout is not None
    hello = json.loads(process.stdout.readline())
    if "error" in hello:
        process.wait()
        return None, hello["error"]
    return process, hello["status"]


def ask(process: subprocess.Popen[str], **question: Any) -> dict[str, Any]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(question) + "\n")
    process.stdin.flush()
    answer: dict[str, Any] = json.loads(process.stdout.readline())
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="play-out time per game, ruleset and build (default 2)")
    parser.add_argument("--slices", type=int, default=4, help="turns the builds take per game (default 4)")
    parser.add_argument("--moves", type=int, default=300, help="moves per play-out at most (default 300)")
    parser.add_argument("--rulesets", default="standard,pysolfc", help="comma-separated (default: both)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--csv", type=Path, metavar="FILE", help="write the rates to FILE as CSV too")
    parser.add_argument("--worker", choices=BUILDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    import kibitz
    from kibitz.study.pages.figures import BuildSpeed, write_build_speeds
    slugs = args.games.split(",") if args.games else [info.slug for info in kibitz.games()]
    with tempfile.TemporaryDirectory(prefix="kibitz-no-build-") as empty:
        workers: dict[str, subprocess.Popen[str]] = {}
        print(f"kibitz {kibitz.__version__}, Python {platform.python_version()} on {platform.machine()}, "
              f"{args.seconds:g} s per game, ruleset and build in {args.slices} slices, one core each")
        for build in BUILDS:
            process, status = start(build, empty)
            print(f"  {build:9} {'runs' if process else 'skipped'}: {status}")
            if process is not None:
                workers[build] = process
        if "python" not in workers:
            raise SystemExit("the pure Python build must run")
        names = [b for b in BUILDS if b in workers]
        print(f"\n{'game':18} {'ruleset':8} " + " ".join(f"{b + ' cycles/s':>19}" for b in names)
              + "".join(f" {b + '/python':>16}" for b in names if b != "python"))
        ratios: dict[str, list[float]] = {b: [] for b in names}
        bounds: list[tuple[str, str, dict[str, float]]] = []
        measured: list[BuildSpeed] = []
        for slug in slugs:
            for ruleset in args.rulesets.split(","):
                cycles = {b: 0 for b in names}
                seconds = {b: 0.0 for b in names}
                for part in range(args.slices):
                    for build in names:
                        last = part == args.slices - 1 and build == "native"
                        answer = ask(workers[build], game=slug, ruleset=ruleset, seconds=args.seconds / args.slices,
                                     moves=args.moves, seed=args.seed, boundary=last)
                        cycles[build] += answer["cycles"]
                        seconds[build] += answer["seconds"]
                        if "boundary" in answer:
                            bounds.append((slug, ruleset, answer["boundary"]))
                rates = {b: cycles[b] / seconds[b] for b in names}
                measured.extend(BuildSpeed(slug, ruleset, b, rates[b]) for b in names)
                for b in names:
                    ratios[b].append(rates[b] / rates["python"])
                print(f"{slug:18} {ruleset:8} " + " ".join(f"{rates[b]:19,.0f}" for b in names)
                      + "".join(f" {rates[b] / rates['python']:15.2f}x" for b in names if b != "python"), flush=True)
        for build in names:
            if build != "python":
                print(f"{build}: {min(ratios[build]):.2f}x to {max(ratios[build]):.2f}x the pure Python rate "
                      f"(median {statistics.median(ratios[build]):.2f}x)")
        if bounds:
            print("\nthe boundary of the native build, ns per call (means over sampled states):")
            print(f"{'game':18} {'ruleset':8} {'moves':>6} {'rust':>6} {'read':>6} {'tuple':>6} "
                  f"{'legal_moves':>11} {'apply':>6}")
            for slug, ruleset, b in bounds:
                print(f"{slug:18} {ruleset:8} {b['moves']:6.1f} {b['rust']:6.0f} {b['read']:6.0f} {b['tuple']:6.0f} "
                      f"{b['legal_moves']:11.0f} {b['apply']:6.0f}")
            print("rust: generating the moves in Rust; read: the call and reading the state; tuple: making the "
                  "tuple of Move objects;\nlegal_moves: the whole property on a new state; apply: state.apply "
                  "of a legal move (checked)")
        if args.csv is not None:
            write_build_speeds(args.csv, measured)
            print(f"\nthe rates written to {args.csv}")
        for process in workers.values():
            assert process.stdin is not None
            process.stdin.close()
            process.wait()


if __name__ == "__main__":
    main()
