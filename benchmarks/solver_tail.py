"""The deals left undecided: would another division of the time between the searches help?

``solve`` first runs the quick first pass (restarted digging searches that only find
wins) with most of the time, then the full search (which alone proves losses) with the
rest. For each deal this script times three runs at the same limit: ``solve`` itself,
the first pass alone and the full search alone, each given the whole limit. A deal that
neither search decides alone is out of reach of any division of that time between them,
so the last column of the summary bounds what a better schedule could gain. The table
lists the deals that ``solve`` leaves undecided or decides only after a tenth of the
limit, and those that the first pass alone leaves undecided.

    .venv/bin/python benchmarks/solver_tail.py --game cicely [--deals 1-300] [--timeout 10] [--workers 2]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

import kibitz
from kibitz import compiled
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policies import policy_for
from kibitz.solver.search import first_pass, search
from kibitz.study.commands import parse_deals

Run = tuple[Outcome, float]
Row = tuple[int, Run, Run, Run]
"""A deal number, then the outcome and seconds of solve, the first pass and the full search."""


def measure(job: tuple[str, str, int, float]) -> Row:
    """One deal, measured three ways (see ``Row``)."""
    slug, ruleset, number, seconds = job
    game = kibitz.game(slug, ruleset)
    state = game.deal(number)
    policy = policy_for(game)
    limits = Limits(seconds=seconds)
    whole = solve(state, limits)
    quick = first_pass(state, policy, limits)
    full = search(state, policy, limits)
    return number, (whole.outcome, whole.seconds), (quick.outcome, quick.seconds), (full.outcome, full.seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="a game slug, e.g. cicely")
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--deals", default="1-300", help="deal numbers, e.g. 1-300 or 9,143 (default 1-300)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    if args.game not in [info.slug for info in kibitz.games()]:
        parser.error(f"unknown game {args.game!r}")
    if policy_for(kibitz.game(args.game, args.ruleset)).first_pass() is None:
        parser.error(f"{args.game} has no first pass: solve is the full search")
    print(f"solver tail: {args.game} {args.ruleset}, deals {args.deals}, {args.timeout:g} s per run, "
          f"{args.workers} worker(s), Python {platform.python_version()}; compiled solver: {compiled.STATUS}")
    jobs = [(args.game, args.ruleset, number, args.timeout) for number in deals]
    rows: list[Row] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for row in pool.map(measure, jobs):
            rows.append(row)
            print(f"\r{len(rows)}/{len(jobs)} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    unknown = Outcome.UNKNOWN
    print(f"{'deal':>8} {'solve':>14} {'first pass':>14} {'full search':>14}")
    for number, *runs in rows:
        (whole, whole_seconds), (quick, _), _ = runs
        if whole is unknown or quick is unknown or whole_seconds > args.timeout / 10:
            print(f"{number:>8} " + " ".join(f"{outcome.value + f' {seconds:.2f}s':>14}" for outcome, seconds in runs))
    wholes, quicks, fulls = ([row[1] for row in rows], [row[2] for row in rows], [row[3] for row in rows])
    undecided = [sum(outcome is unknown for outcome, _ in runs) for runs in (wholes, quicks, fulls)]
    neither = sum(quick[0] is unknown and full[0] is unknown for quick, full in zip(quicks, fulls))
    median = statistics.median(seconds for _, seconds in wholes) * 1000
    print(f"undecided of {len(rows)} deals at {args.timeout:g} s: solve {undecided[0]} (median {median:.0f} ms), "
          f"first pass alone {undecided[1]}, full search alone {undecided[2]}, neither alone {neither}")

if __name__ == "__main__":
    main()
