"""Where the solver's time goes, per game, on deals that it finds hard.

Runs node-limited solves in pure Python under cProfile (compiled functions are invisible
to it, so the compiled build is switched off) and shares the time among the parts of the
search: move generation (the rules), applying moves, keys, move order, safe moves, proofs
of loss, probes and the search loop itself. A function that is none of these (a built-in
such as ``len`` or ``sorted``, a helper) counts for the parts that called it, in
proportion to the time spent in the calls from each. Profiling slows the search two to
four times, so the nodes per second are only comparable with each other.

The default deals are, per game, deals that the solver left undecided at 3 or 10 s when
this script was written (among deals 1-300 of Duchess and Cicely, 1-200 and 10001-14000
of Tournament and Napoleon's Flank, 1-30 of Kingsdown Eights); Grand Duchess and
Parisienne, which leave none undecided, get their first five deals.

    .venv/bin/python benchmarks/solver_profile.py [--nodes 40000] [--games duchess,cicely] [--deals 9,143]
"""

from __future__ import annotations

import os

os.environ["KIBITZ_PURE_PYTHON"] = "1"  # before kibitz is imported: cProfile sees only Python code

import argparse  # noqa: E402
import cProfile  # noqa: E402
import platform  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import kibitz  # noqa: E402
from kibitz.solver import Limits, solve  # noqa: E402

HARD_DEALS = {
    "duchess": (9, 143, 244, 277, 282),
    "tournament": (164, 10315, 11081, 11848, 12151),
    "napoleons-flank": (164, 10315, 11081, 11848, 12151),
    "cicely": (88, 99, 108, 196, 248),
    "kingsdown-eights": (5, 18, 19, 24, 29),
    "grand-duchess": (1, 2, 3, 4, 5),
    "parisienne": (1, 2, 3, 4, 5),
}
PARTS = ("move generation", "apply", "keys", "move order", "safe moves", "proofs of loss",
         "probes", "search loop", "other")
LABELS = dict(zip(PARTS, ("movegen", "apply", "keys", "order", "safe", "loss", "probes", "loop", "other")))
ANCHORS = {
    "generate_moves": "move generation",
    "apply_unchecked": "apply",
    "key": "keys",
    "ordered_moves": "move order",
    "wanted": "move order",
    "safe_move": "safe moves",
    "settle": "safe moves",
    "is_hopeless": "proofs of loss",
    "probe": "probes",
    "is_won": "search loop",
    "splits_at": "search loop",
    "subtree_budget": "search loop",
    "search": "search loop",
    "_search": "search loop",
    "_split_search": "search loop",
    "first_pass": "search loop",
}
"""Functions of kibitz (by name) that define a part; the others inherit from their callers."""

Function = tuple[str, int, str]


def shares(stats: dict[Function, Any]) -> dict[str, float]:
    """Seconds of own time per part, callees without a part sharing their callers' parts."""
    memo: dict[Function, dict[str, float]] = {}

    def parts_of(function: Function, visiting: frozenset[Function]) -> dict[str, float]:
        if function in memo:
            return memo[function]
        filename, _, name = function
        if "kibitz" in filename and name in ANCHORS:
            result = {ANCHORS[name]: 1.0}
        else:
            callers = stats[function][4]
            weights = {caller: (entry[2] or entry[1]) for caller, entry in callers.items()
                       if caller in stats and caller not in visiting}
            total = sum(weights.values())
            if not total:
                result = {"other": 1.0}
            else:
                result = {}
                for caller, weight in weights.items():
                    for part, share in parts_of(caller, visiting | {function}).items():
                        result[part] = result.get(part, 0.0) + share * weight / total
        if not visiting:
            memo[function] = result
        return result

    seconds = dict.fromkeys(PARTS, 0.0)
    for function, entry in stats.items():
        for part, share in parts_of(function, frozenset()).items():
            seconds[part] += entry[2] * share
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=40_000, help="node limit per deal (default 40000)")
    parser.add_argument("--games", default="duchess,tournament,cicely,kingsdown-eights",
                        help="comma-separated slugs (default: the games that miss the targets)")
    parser.add_argument("--deals", default="", help="comma-separated deal numbers (default: per game, see above)")
    args = parser.parse_args()
    slugs = args.games.split(",")
    print(f"solver profile: {args.nodes:,} nodes per deal, pure Python {platform.python_version()}, "
          f"cProfile; share of the profiled time per part of the search")
    print("parts: " + ", ".join(f"{LABELS[part]} = {part}" for part in PARTS))
    print(f"{'game':17} {'deals':>5} {'nodes/s':>8}  " + " ".join(f"{LABELS[part]:>7}" for part in PARTS))
    for slug in slugs:
        game = kibitz.game(slug)
        deals = [int(n) for n in args.deals.split(",")] if args.deals else list(HARD_DEALS[slug])
        profiler = cProfile.Profile()
        nodes = 0
        started = time.process_time()
        for number in deals:
            state = game.deal(number)
            result = profiler.runcall(solve, state, Limits(seconds=None, nodes=args.nodes))
            nodes += result.nodes
        cpu = time.process_time() - started
        seconds = shares(pstats.Stats(profiler).stats)  # type: ignore[attr-defined]
        total = sum(seconds.values()) or 1.0
        print(f"{slug:17} {len(deals):>5} {nodes / cpu:>8,.0f}  "
              + " ".join(f"{100 * seconds[part] / total:>6.1f}%" for part in PARTS), flush=True)


if __name__ == "__main__":
    main()
