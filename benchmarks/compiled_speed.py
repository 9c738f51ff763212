"""The compiled build (``scripts/compile``) against the Python sources, in one run.

Solves the same deals under the same node limits (so both searches are identical) in two
processes, one after the other: one with the compiled modules, one with
``KIBITZ_PURE_PYTHON=1``. Prints, per game, the CPU seconds and nodes per second of each,
their ratio, and whether every result (outcome, moves, counters) is the same.

    scripts/compile && .venv/bin/python benchmarks/compiled_speed.py [--nodes 20000]
"""

from __future__ import annotations

import argparse
import platform

from kibitz import compiled

DEALS = {"grand-duchess": range(1, 31), "duchess": range(1, 21), "tournament": range(1, 11),
         "cicely": range(1, 31), "kingsdown-eights": range(1, 11)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=20_000, help="node limit per deal (default 20000)")
    args = parser.parse_args()
    cases = [(slug, n, args.nodes) for slug, numbers in DEALS.items() for n in numbers]
    fast = compiled.solve_apart(cases)
    if not fast.active:
        raise SystemExit(f"compiled solver: {fast.status}")
    plain = compiled.solve_apart(cases, pure=True)
    print(f"compiled against pure Python: node limit {args.nodes:,} per deal, Python {platform.python_version()}, "
          f"one process at a time")
    print(f"compiled process: {fast.status}; native rules {fast.native}")
    print(f"{'game':18} {'deals':>5} {'nodes':>9} {'pure cpu s':>10} {'pure nodes/s':>12} "
          f"{'compiled cpu s':>14} {'compiled nodes/s':>16} {'speed-up':>8}  same results")
    for slug, numbers in DEALS.items():
        f = [row for (game, _, _), row in zip(cases, fast.rows) if game == slug]
        p = [row for (game, _, _), row in zip(cases, plain.rows) if game == slug]
        nodes = sum(int(row["nodes"]) for row in p)
        f_cpu, p_cpu = sum(float(row.pop("cpu")) for row in f), sum(float(row.pop("cpu")) for row in p)
        print(f"{slug:18} {len(numbers):5} {nodes:9,} {p_cpu:10.2f} {nodes / p_cpu:12,.0f} "
              f"{f_cpu:14.2f} {nodes / f_cpu:16,.0f} {p_cpu / f_cpu:7.2f}x  {'yes' if f == p else 'NO'}")


if __name__ == "__main__":
    main()
