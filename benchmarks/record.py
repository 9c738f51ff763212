"""Run a benchmark and keep what it printed, so that docs/benchmarks.md shows the run's own
tables (written between the page's marker lines by ``kibitz report --pages docs``), never
figures typed by hand::

    .venv/bin/python benchmarks/record.py solver-builds -- .venv/bin/python benchmarks/solver_speed.py ...

The run's standard output goes to ``docs/benchmarks/NAME.txt`` after a header of the command,
the day, the machine and its load when the run began (other work slows a run); its standard
error (progress) goes to the terminal. The checkout's and temporary folders' paths are written
as ``.`` and ``TMP``, so that the kept text names no machine's folders. A run that fails keeps
the old file.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / "docs" / "benchmarks"
NAME = re.compile(r"^[a-z0-9-]+$")


def machine() -> str:
    """The machine in words: cores, processor architecture, system and Python."""
    import kibitz
    from kibitz.about import native_build
    from kibitz.solver import SOLVER_VERSION
    return (f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()}, "
            f"{platform.python_implementation()} {platform.python_version()}, kibitz {kibitz.__version__}, "
            f"solver version {SOLVER_VERSION}, rules build {native_build()}")


def load() -> str:
    """The machine's load when the run begins: the one-minute average of runnable processes."""
    try:
        return f"{os.getloadavg()[0]:.1f} (one-minute average of runnable processes, on {os.cpu_count()} cores)"
    except OSError:
        return "unknown"


def without_paths(text: str) -> str:
    """``text`` with the checkout's path written ``.`` and temporary folders ``TMP``."""
    text = text.replace(str(ROOT), ".")
    return re.sub(re.escape(tempfile.gettempdir().rstrip("/")) + r"/[^\s)'\"]+", "TMP", text)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", help="the run's name (lower case, digits and -): docs/benchmarks/NAME.txt")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the benchmark's command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not NAME.match(args.name) or not command:
        parser.error("give a NAME of lower-case letters, digits and -, then -- and the command")
    started = load()
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"the benchmark failed (exit {result.returncode}); docs/benchmarks/{args.name}.txt kept\n")
        return result.returncode
    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    KEPT.mkdir(parents=True, exist_ok=True)
    text = (f"command: {' '.join(command)}\nmeasured: {day}\nmachine: {machine()}\nload: {started}\n---\n"
            f"{without_paths(result.stdout.rstrip())}\n")
    path = KEPT / f"{args.name}.txt"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
    sys.stdout.write(result.stdout)
    sys.stderr.write(f"kept in docs/benchmarks/{args.name}.txt\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
