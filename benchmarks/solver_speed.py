"""Solver speed per game: a fixed set of deals, a fixed timeout, one process.

Prints, per game: deals decided per CPU-second, time per deal (median, p90, p99, max),
the fraction undecided with its 95% Wilson interval, won/lost counts and nodes per
second. Targets (issue 3): at most 0.1% undecided at a 10-second timeout and a median
under 50 ms per deal. Progress goes to stderr, the table to stdout.

    .venv/bin/python benchmarks/solver_speed.py [--deals 1-50] [--timeout 2] [--games duchess,cicely]

``--nodes N`` limits each deal to N nodes instead of a time (no time limit): the search is
then the same whatever else the machine is doing, and the same in every build.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

import kibitz
from kibitz import compiled, native
from kibitz.solver import Limits, Outcome, solve
from kibitz.study.report import wilson


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (fraction in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))]


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-50", help="deal numbers, e.g. 1-50 (default)")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (default 2)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="a node limit per deal instead of the timeout (default: none)")
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    args = parser.parse_args()
    deals = parse_range(args.deals)
    slugs = args.games.split(",") if args.games else [info.slug for info in kibitz.games()]
    limits = Limits(seconds=args.timeout) if args.nodes is None else Limits(seconds=None, nodes=args.nodes)
    limit = f"timeout {args.timeout:g} s" if args.nodes is None else f"node limit {args.nodes:,}"
    print(f"solver benchmark: deals {args.deals}, {limit}, ruleset {args.ruleset}, "
          f"Python {platform.python_version()}, one process")
    print(f"compiled solver: {compiled.STATUS}")
    print(f"native rules: {native.STATUS}")
    print(f"{'game':18} {'won':>4} {'lost':>4} {'unk':>4} {'undecided':>9} {'decided/cpu-s':>13} "
          f"{'median ms':>9} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'nodes/s':>9}  undecided 95%")
    for slug in slugs:
        game = kibitz.game(slug, args.ruleset)
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
        cpu = time.process_time() - cpu_start
        print(file=sys.stderr)
        decided = counts[Outcome.WON] + counts[Outcome.LOST]
        low, high = wilson(counts[Outcome.UNKNOWN], len(deals))
        print(f"{slug:18} {counts[Outcome.WON]:4} {counts[Outcome.LOST]:4} {counts[Outcome.UNKNOWN]:4} "
              f"{counts[Outcome.UNKNOWN] / len(deals):9.1%} {decided / cpu:13.2f} "
              f"{statistics.median(times) * 1000:9.0f} {percentile(times, 0.9) * 1000:8.0f} "
              f"{percentile(times, 0.99) * 1000:8.0f} {max(times) * 1000:8.0f} {nodes / sum(times):9,.0f}  {low:.1%} - {high:.1%}", flush=True)


if __name__ == "__main__":
    main()
