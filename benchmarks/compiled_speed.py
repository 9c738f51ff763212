"""The compiled build (``scripts/compile``) against the Python sources, in one run.

Solves the same deals under the same node limits (so both searches are identical) in two
processes, one after the other: one with the compiled modules, one with
``KIBITZ_PURE_PYTHON=1``. Prints, per game, the CPU seconds and nodes per second of each,
their ratio, and whether every result (outcome, moves, counters) is the same.

    scripts/compile && .venv/bin/python benchmarks/compiled_speed.py [--nodes 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys

DEALS = {"grand-duchess": range(1, 31), "duchess": range(1, 21), "tournament": range(1, 11),
         "cicely": range(1, 31), "kingsdown-eights": range(1, 11)}

WORKER = """
import json, sys, time
from kibitz import compiled
import kibitz
from kibitz.solver import Limits, solve
deals, nodes = json.loads(sys.argv[1]), int(sys.argv[2])
out = {"status": compiled.STATUS, "games": {}}
for slug, numbers in deals.items():
    game = kibitz.game(slug)
    started = time.process_time()
    rows = [solve(game.deal(n), Limits(seconds=None, nodes=nodes)).as_dict() for n in numbers]
    cpu = time.process_time() - started
    for row in rows:
        row.pop("seconds")
    out["games"][slug] = {"cpu": cpu, "nodes": sum(r["nodes"] for r in rows), "rows": rows}
print(json.dumps(out))
"""


def measure(pure: bool, nodes: int) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("KIBITZ_PURE_PYTHON", None)
    if pure:
        env["KIBITZ_PURE_PYTHON"] = "1"
    deals = {slug: list(numbers) for slug, numbers in DEALS.items()}
    out = subprocess.run([sys.executable, "-c", WORKER, json.dumps(deals), str(nodes)], env=env,
                         capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=20_000, help="node limit per deal (default 20000)")
    args = parser.parse_args()
    fast = measure(False, args.nodes)
    if not str(fast["status"]).startswith("on"):
        raise SystemExit(f"compiled solver: {fast['status']}")
    plain = measure(True, args.nodes)
    print(f"compiled against pure Python: node limit {args.nodes:,} per deal, Python {platform.python_version()}, "
          f"one process at a time")
    print(f"{'game':18} {'deals':>5} {'nodes':>9} {'pure cpu s':>10} {'pure nodes/s':>12} "
          f"{'compiled cpu s':>14} {'compiled nodes/s':>16} {'speed-up':>8}  same results")
    games_fast: dict[str, dict[str, object]] = fast["games"]  # type: ignore[assignment]
    games_plain: dict[str, dict[str, object]] = plain["games"]  # type: ignore[assignment]
    for slug, numbers in DEALS.items():
        f, p = games_fast[slug], games_plain[slug]
        nodes, f_cpu, p_cpu = int(p["nodes"]), float(f["cpu"]), float(p["cpu"])  # type: ignore[call-overload, arg-type]
        print(f"{slug:18} {len(numbers):5} {nodes:9,} {p_cpu:10.2f} {nodes / p_cpu:12,.0f} "
              f"{f_cpu:14.2f} {nodes / f_cpu:16,.0f} {p_cpu / f_cpu:7.2f}x  {'yes' if f['rows'] == p['rows'] else 'NO'}")


if __name__ == "__main__":
    main()
