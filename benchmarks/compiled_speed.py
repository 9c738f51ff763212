"""The builds of the solver against pure Python, in one run: the mypyc build
(``scripts/compile``) and the native kernel (``scripts/setup``).

Solves the same deals under the same node limits (so every search is the same, step by
step) in three processes, one after the other: pure Python (``KIBITZ_PURE_PYTHON=1``),
the mypyc build alone (``KIBITZ_NATIVE=0``) and the native kernel alone (the mypyc build
off). With the native kernel the rules always run natively, and the search too for the
games whose policy declares a native counterpart (``kibitz.solver.native_search``); the
others search in Python over the native rules. Prints, per game, the CPU seconds and
nodes per second of each build, their ratios, and whether every result (outcome, moves,
counters) is the same as pure Python's.

    scripts/compile && .venv/bin/python benchmarks/compiled_speed.py [--nodes 20000] [--first 1]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from solve_apart import solve_apart  # noqa: E402  (the harness the tests compare the builds with)

DEALS = {"grand-duchess": 30, "parisienne": 30, "duchess": 20, "tournament": 10, "napoleons-flank": 10,
         "cicely": 30, "kingsdown-eights": 10}
"""How many consecutive deals of each game, from ``--first``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=20_000, help="node limit per deal (default 20000)")
    parser.add_argument("--first", type=int, default=1, help="the first deal number of each game (default 1)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all seven)")
    args = parser.parse_args()
    chosen = args.games.split(",") if args.games else list(DEALS)
    if unknown := [slug for slug in chosen if slug not in DEALS]:
        parser.error(f"no such game: {', '.join(unknown)} (the games: {', '.join(DEALS)})")
    games = {slug: DEALS[slug] for slug in chosen}
    cases = [(slug, n, args.nodes) for slug, count in games.items() for n in range(args.first, args.first + count)]
    plain = solve_apart(cases, pure=True)
    runs = {"pure": plain}
    fast = solve_apart(cases, native=False)
    if fast.active:
        runs["mypyc"] = fast
    with tempfile.TemporaryDirectory(prefix="kibitz-no-build-") as empty:
        kernel = solve_apart(cases, folder=Path(empty))
    if kernel.native.startswith("on"):
        runs["native"] = kernel
    print(f"builds against pure Python: node limit {args.nodes:,} per deal, deals from {args.first}, "
          f"Python {platform.python_version()}, one process at a time")
    print(f"  mypyc build: {fast.status}\n  native kernel: {kernel.native}")
    names = list(runs)
    print(f"{'game':18} {'deals':>5} {'nodes':>9} " + " ".join(f"{name + ' nodes/s':>15}" for name in names)
          + "".join(f" {name + '/pure':>12}" for name in names[1:])
          + "".join(f" {name + ' vs mypyc':>16}" for name in names[2:]) + "  same results")
    for slug, count in games.items():
        rows = {name: [row for (game, _, _), row in zip(cases, run.rows) if game == slug] for name, run in runs.items()}
        cpu = {name: sum(float(row.pop("cpu")) for row in rows[name]) for name in names}
        nodes = sum(int(row["nodes"]) for row in rows["pure"])
        rate = {name: nodes / cpu[name] for name in names}
        same = all(rows[name] == rows["pure"] for name in names)
        print(f"{slug:18} {count:5} {nodes:9,} " + " ".join(f"{rate[name]:15,.0f}" for name in names)
              + "".join(f" {rate[name] / rate['pure']:11.2f}x" for name in names[1:])
              + "".join(f" {rate[name] / rate['mypyc']:15.2f}x" for name in names[2:] if "mypyc" in rate)
              + f"  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
