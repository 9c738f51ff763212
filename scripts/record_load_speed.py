"""How long loading the largest kind of game record takes, and how much memory it needs.

Writes a record of COUNT moves that go back and forth between two positions (two moves
that undo each other, repeated: the most moves a record of at most ``MAX_RECORD_BYTES``
can hold), then loads it in a fresh process and prints the time and the peak resident
memory of that process::

    .venv/bin/python scripts/record_load_speed.py               # 1,650,000 moves, Cicely
    .venv/bin/python scripts/record_load_speed.py 100000 --game kingsdown-eights
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import kibitz
from kibitz.moves import Move
from kibitz.records import MAX_RECORD_BYTES, Record, format_record
from kibitz.state import State

LOAD = """\
import resource, sys, time
from kibitz import records
started = time.perf_counter()
history = records.load(sys.argv[1])
seconds = time.perf_counter() - started
try:  # this process's own peak (ru_maxrss may be the parent's, from before exec)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0])
except (OSError, IndexError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{history.move_count} {seconds:.2f} {peak}")
"""


def back_and_forth(state: State) -> tuple[Move, Move]:
    """Two legal card moves from ``state``, the second undoing the first."""
    for there in state.legal_moves:
        if there.is_deal:
            continue
        after = state.apply(there)
        for back in after.legal_moves:
            if not back.is_deal and after.apply(back) == state:
                return there, back
    raise ValueError(f"no move of {state!r} can be undone by another")


def back_and_forth_record(slug: str, deal: int, count: int) -> str:
    """The text of a record of ``count`` moves of deal ``deal`` that go back and forth."""
    game = kibitz.game(slug)
    there, back = back_and_forth(game.deal(deal))
    moves = ((there, back) * (count // 2 + 1))[:count]
    return format_record(Record(game, deal, moves))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, nargs="?", default=1_650_000, help="moves in the record")
    parser.add_argument("--game", default="cicely", help="a game whose opening has two such moves")
    parser.add_argument("--deal", type=int, default=1)
    args = parser.parse_args()
    text = back_and_forth_record(args.game, args.deal, args.count)
    size = len(text.encode("utf-8"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.kibitz"
        path.write_text(text, encoding="utf-8")
        result = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return 1
    moves, seconds, peak = result.stdout.split()
    print(f"{args.game} deal {args.deal}: {int(moves):,} moves, {size:,} bytes "
          f"(limit {MAX_RECORD_BYTES:,}): loaded in {float(seconds):.2f} s, "
          f"peak resident memory {int(peak) / 1024:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
