"""Where the native search spends its time: a sampling profile of node-limited solves.

Solves the deals of ``benchmarks/compiled_speed.py`` (the same games, counts and node limit)
with the native kernel, one game at a time, each under Linux ``perf record`` (the deals solved
again and again for at least 5 seconds, so that start-up counts for little), and shares the
samples among the parts of the search by the function they fell in (a function inlined into
another counts for the one it was inlined into). Needs ``perf`` (Debian's ``linux-perf``)
and the native kernel built (``scripts/setup``).

    .venv/bin/python benchmarks/native_profile.py [--nodes 20000] [--first 4001] [--games duchess,cicely]
"""

from __future__ import annotations

import argparse
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from compiled_speed import DEALS

PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("move generation", ("generate", "legal_moves", "permits", "::holds")),
    ("safe moves", ("safe_move",)),
    ("proofs of loss", ("is_hopeless", "hopeless")),
    ("move order", ("ordered_moves", "sort")),
    ("keys", ("::key", "canonical", "Canonical::")),
    ("apply", ("apply", "after_into", "after_cards", "position::", "Edit", "with_position")),
    ("table", ("hashbrown", "hash_map")),
    ("search loop", ("search::",)),
)
"""Each part of the search and the pieces of function names that place a native sample in it
(the first part that matches)."""

WORKLOAD = """
import sys, time, kibitz
from kibitz import native
from kibitz.solver import Limits, solve
assert native.load() is not None, "the native kernel is not built"
slug, first, count, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = kibitz.game(slug)
states = [game.deal(n) for n in range(first, first + count)]
solve(states[0], Limits(seconds=None, nodes=10))
started, total = time.perf_counter(), 0
while time.perf_counter() - started < 5:  # the deals again and again: start-up becomes negligible
    for state in states:
        total += solve(state, Limits(seconds=None, nodes=nodes)).nodes
print(total, time.perf_counter() - started)
"""

LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$")


def part_of(library: str, kind: str, symbol: str) -> str:
    """The part of the search a sample in ``symbol`` of ``library`` belongs to."""
    if kind == "k":
        return "system"
    if "kibitz_native" in library:
        for part, pieces in PARTS:
            if any(piece in symbol for piece in pieces):
                return part
        return "other native"
    if library.startswith("libc"):
        return "allocation and copies (libc)"
    return "Python"


def profile(slug: str, first: int, count: int, nodes: int, folder: Path) -> tuple[dict[str, float], float]:
    """The share of samples of each part for one game, and its nodes per second."""
    data = folder / f"{slug}.perf"
    run = subprocess.run(["perf", "record", "-F", "2000", "-o", str(data), "--", sys.executable, "-c", WORKLOAD,
                          slug, str(first), str(count), str(nodes)], capture_output=True, text=True, check=True)
    total_nodes, seconds = run.stdout.split()
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "dso,symbol", "--stdio",
                             "-g", "none", "--percent-limit", "0"], capture_output=True, text=True, check=True)
    shares: dict[str, float] = {}
    for line in report.stdout.splitlines():
        found = LINE.match(line)
        if found:
            percent, library, kind, symbol = found.groups()
            part = part_of(library, kind, symbol)
            shares[part] = shares.get(part, 0.0) + float(percent)
    return shares, int(total_nodes) / float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=20_000, help="node limit per deal (default 20000)")
    parser.add_argument("--first", type=int, default=4001, help="the first deal of each game (default 4001)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: those of compiled_speed.py)")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("native_profile: needs Linux perf (Debian package linux-perf)")
    games = [slug for slug in (args.games.split(",") if args.games else DEALS)]
    unknown = [slug for slug in games if slug not in DEALS]
    if unknown:
        sys.exit(f"native_profile: no deal count for {', '.join(unknown)}; choose from {', '.join(DEALS)}")
    print(f"native profile: {args.nodes:,} nodes per deal from deal {args.first}, Python {platform.python_version()}, "
          f"{platform.machine()}; share of all samples (%)")
    columns = [part for part, _ in PARTS] + ["other native", "allocation and copies (libc)", "Python",
                                             "system"]
    print("| game | nodes/s | " + " | ".join(columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    with tempfile.TemporaryDirectory() as folder:
        for slug in games:
            shares, speed = profile(slug, args.first, DEALS[slug], args.nodes, Path(folder))
            cells = " | ".join(f"{shares.get(part, 0.0):.1f}" for part in columns)
            print(f"| {slug} | {speed:,.0f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
