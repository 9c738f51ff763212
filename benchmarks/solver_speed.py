"""Solver speed per game: a fixed set of deals, a fixed timeout, one process.

Prints, per game: deals decided per CPU-second, time per deal (median, p90, p99, max),
the fraction undecided with its 95% Wilson interval, won/lost counts and nodes per
second. Targets (issue 3): at most 0.1% undecided at a 10-second timeout and a median
under 50 ms per deal. Progress goes to stderr, the table to stdout.

    .venv/bin/python benchmarks/solver_speed.py [--deals 1-50] [--timeout 2] [--games duchess,cicely]
        [--builds pure,mypyc,native]

``--builds`` runs the named builds one after the other, each in its own process (pure Python,
the mypyc build of ``scripts/compile`` alone, the native kernel of ``scripts/setup`` alone), and
prints their lines side by side.

``--nodes N`` limits each deal to N nodes instead of a time (no time limit): the search is
then the same whatever else the machine is doing, and the same in every build.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import kibitz
from kibitz import compiled, native
from kibitz.solver import Limits, Outcome, solve
from kibitz.intervals import wilson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from solve_apart import build_environment  # noqa: E402  (the harness the tests compare the builds with)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (fraction in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))]


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


BUILDS = ("pure", "mypyc", "native")
"""The builds ``--builds`` may name: pure Python, the mypyc build alone, the native kernel alone."""

HEADER = (f"{'game':18} {'build':6} {'won':>4} {'lost':>4} {'unk':>4} {'undecided':>9} {'decided/cpu-s':>13} "
          f"{'median ms':>9} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'nodes/s':>9}  undecided 95%")


def environment(build: str, empty: Path) -> dict[str, str]:
    """The environment that makes a new process run ``build`` (``empty``: a folder with no mypyc build)."""
    if build == "pure":
        return build_environment(pure=True)
    if build == "mypyc":
        return build_environment(native=False)
    return build_environment(folder=empty)


def measure(slug: str, ruleset: str, deals: range, limits: Limits) -> dict[str, Any]:
    """Solves ``deals`` of one game in this process: counts, times and nodes."""
    game = kibitz.game(slug, ruleset)
    times: list[float] = []
    counts = {outcome: 0 for outcome in Outcome}
    nodes = 0
    cpu_start = time.process_time()
    for done, number in enumerate(deals, 1):
        result = solve(game.deal(number), limits)
        counts[result.outcome] += 1
        print(f"\r{slug}: {done}/{len(deals)} deals, {counts[Outcome.UNKNOWN]} undecided",
              end="", file=sys.stderr, flush=True)
        times.append(result.seconds)
        nodes += result.nodes
    print(file=sys.stderr)
    return {"game": slug, "won": counts[Outcome.WON], "lost": counts[Outcome.LOST],
            "unknown": counts[Outcome.UNKNOWN], "cpu": time.process_time() - cpu_start,
            "times": times, "nodes": nodes}


def row(figures: dict[str, Any], build: str) -> str:
    """One line of the table."""
    times, count = figures["times"], len(figures["times"])
    decided = figures["won"] + figures["lost"]
    low, high = wilson(figures["unknown"], count)
    return (f"{figures['game']:18} {build:6} {figures['won']:4} {figures['lost']:4} {figures['unknown']:4} "
            f"{figures['unknown'] / count:9.1%} {decided / figures['cpu']:13.2f} "
            f"{statistics.median(times) * 1000:9.0f} {percentile(times, 0.9) * 1000:8.0f} "
            f"{percentile(times, 0.99) * 1000:8.0f} {max(times) * 1000:8.0f} "
            f"{figures['nodes'] / sum(times):9,.0f}  {low:.1%} - {high:.1%}")


def this_build() -> str:
    """The build this process runs."""
    if native.ACTIVE:
        return "native"
    return "mypyc" if compiled.ACTIVE else "pure"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-50", help="deal numbers, e.g. 1-50 (default)")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (default 2)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="a node limit per deal instead of the timeout (default: none)")
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--builds", default="",
                        help="comma-separated builds to run one after the other, each in its own "
                             f"process: {', '.join(BUILDS)} (default: this process's build only)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's figures
    args = parser.parse_args()
    deals = parse_range(args.deals)
    slugs = args.games.split(",") if args.games else [info.slug for info in kibitz.games()]
    builds = args.builds.split(",") if args.builds else []
    if unknown := [build for build in builds if build not in BUILDS]:
        parser.error(f"no such build: {', '.join(unknown)} (the builds: {', '.join(BUILDS)})")
    limits = Limits(seconds=args.timeout) if args.nodes is None else Limits(seconds=None, nodes=args.nodes)
    if args.json:
        print(json.dumps({"build": this_build(), "status": f"compiled solver: {compiled.STATUS}; native rules: {native.STATUS}",
                          "games": [measure(slug, args.ruleset, deals, limits) for slug in slugs]}))
        return
    limit = f"timeout {args.timeout:g} s" if args.nodes is None else f"node limit {args.nodes:,}"
    print(f"solver benchmark: deals {args.deals}, {limit}, ruleset {args.ruleset}, "
          f"Python {platform.python_version()}, one process at a time")
    if not builds:
        print(f"compiled solver: {compiled.STATUS}")
        print(f"native rules: {native.STATUS}")
        print(HEADER)
        for slug in slugs:
            print(row(measure(slug, args.ruleset, deals, limits), this_build()), flush=True)
        return
    child = [sys.executable, __file__, "--json", "--deals", args.deals, "--timeout", str(args.timeout),
             "--ruleset", args.ruleset, "--games", ",".join(slugs)]
    if args.nodes is not None:
        child += ["--nodes", str(args.nodes)]
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="kibitz-no-build-") as empty:
        for build in builds:
            print(f"running the {build} build...", file=sys.stderr, flush=True)
            out = subprocess.run(child, env=environment(build, Path(empty)), stdout=subprocess.PIPE,
                                 text=True, check=True).stdout
            results[build] = json.loads(out)
            ran = results[build]["build"]
            note = "" if ran == build else f" (not built: the {ran} build ran; scripts/compile or scripts/setup builds it)"
            print(f"  {build}: {results[build]['status']}{note}")
    print(HEADER)
    for k, slug in enumerate(slugs):
        for build in builds:
            print(row(results[build]["games"][k], results[build]["build"]))


if __name__ == "__main__":
    main()
