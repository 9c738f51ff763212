"""Two builds of the native kernel side by side: the same node-limited solves, timed.

A change to the kernel that should only make it faster must search the same positions in
the same order. This script solves the same deals at a node limit with the installed
kernel and with another build of it (a copy of an installed ``kibitz_native`` package
folder, e.g. saved before the change), in turn, several rounds, each solve in a fresh
process, and reports for each game the best time of each build, the ratio, and whether the
two builds gave the same outcomes, node counts and winning lines. The best of several
rounds is the figure that the machine's other work disturbs least.

    cp -r .venv/lib/python3.11/site-packages/kibitz_native /tmp/before   # before the change
    .venv/bin/python benchmarks/native_builds.py --before /tmp/before [--games kingsdown-eights] \\
        [--deals 20001-20030] [--nodes 300000] [--rounds 5] [--workload play]

``--workload play`` times the library's calls instead of the search: seeded random games of
up to 300 moves from each deal, 20 times over, through ``state.legal_moves`` and
``state.apply`` (what crossing between Python and the kernel costs; the nodes column then
counts moves played).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
from pathlib import Path

WORKLOAD = """
import hashlib, sys, time
import kibitz
from kibitz import native
from kibitz.solver import Limits, solve
from kibitz.study.commands import parse_deals
assert native.load() is not None, "the native kernel is not built"
game = kibitz.game(sys.argv[1], sys.argv[2])
nodes = int(sys.argv[4])
states = [game.deal(n) for n in parse_deals(sys.argv[3])]
digest, total = hashlib.sha256(), 0
started = time.perf_counter()
for state in states:
    result = solve(state, Limits(seconds=None, nodes=nodes))
    total += result.nodes
    digest.update(repr((result.outcome.name, result.nodes, [str(m) for m in result.moves])).encode())
print(digest.hexdigest(), total, time.perf_counter() - started)
"""

PLAY = """
import hashlib, random, sys, time
import kibitz
from kibitz import native
from kibitz.study.commands import parse_deals
assert native.load() is not None, "the native kernel is not built"
game = kibitz.game(sys.argv[1], sys.argv[2])
digest, total = hashlib.sha256(), 0
started = time.perf_counter()
for number in parse_deals(sys.argv[3]):
    for round in range(20):
        state, chooser = game.deal(number), random.Random(number * 100 + round)
        for _ in range(300):
            moves = state.legal_moves
            if not moves:
                break
            state = state.apply(chooser.choice(moves))
            total += 1
        digest.update(str(state).encode())
print(digest.hexdigest(), total, time.perf_counter() - started)
"""

DEFAULT_DEALS = {
    "duchess": "143,10378",
    "cicely": "88,296",
    "tournament": "164,10315,12496",
    "kingsdown-eights": "20021,20083,20116,20130",
}
"""Deals that the solver does not decide within the default node limit: every solve runs
the whole limit, so that start-up counts for little."""


def run(slug: str, ruleset: str, deals: str, nodes: int, kernel: Path | None,
        workload: str = WORKLOAD) -> tuple[str, int, float]:
    """One solve of the deals in a fresh process: the results' digest, the nodes and the seconds."""
    environment = dict(os.environ)
    if kernel is not None:  # the other build first on the path
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(kernel), environment.get("PYTHONPATH")]))
    output = subprocess.run([sys.executable, "-c", workload, slug, ruleset, deals, str(nodes)], env=environment,
                            capture_output=True, text=True, check=True).stdout.split()
    return output[0], int(output[1]), float(output[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, type=Path,
                        help="a folder holding the other build's kibitz_native package")
    parser.add_argument("--games", default=",".join(DEFAULT_DEALS), help="game slugs, comma-separated")
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--deals", help="deal numbers for every game, e.g. 20001-20030 (default: hard deals of each game)")
    parser.add_argument("--nodes", type=int, default=300_000, help="node limit of each solve (default 300000)")
    parser.add_argument("--rounds", type=int, default=5, help="solves of each build, alternating (default 5)")
    parser.add_argument("--workload", choices=("solve", "play"), default="solve",
                        help="node-limited solves (default), or random games through legal_moves and apply")
    args = parser.parse_args()
    workload = PLAY if args.workload == "play" else WORKLOAD
    if not (args.before / "kibitz_native").is_dir():
        parser.error(f"{args.before} holds no kibitz_native folder")
    if args.rounds < 1 or args.nodes < 1:
        parser.error("--rounds and --nodes must be at least 1")
    what = f"node limit {args.nodes:,}" if args.workload == "solve" else "random games of up to 300 moves"
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{what}, best of {args.rounds} rounds, each build in turn")
    print()
    print("| game | deals | nodes | before, s | now, s | before / now | same results |")
    print("|---|---|---|---|---|---|---|")
    for slug in args.games.split(","):
        deals = args.deals or DEFAULT_DEALS.get(slug, "1-20")
        before: list[tuple[str, int, float]] = []
        now: list[tuple[str, int, float]] = []
        for _ in range(args.rounds):
            before.append(run(slug, args.ruleset, deals, args.nodes, args.before, workload))
            now.append(run(slug, args.ruleset, deals, args.nodes, None, workload))
        same = len({digest for digest, _, _ in before + now}) == 1
        best_before = min(seconds for *_, seconds in before)
        best_now = min(seconds for *_, seconds in now)
        print(f"| {slug} | {deals} | {now[0][1]:,} | {best_before:.2f} | {best_now:.2f} | "
              f"{best_before / best_now:.2f}x | {'yes' if same else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
