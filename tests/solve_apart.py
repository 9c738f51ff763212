"""Solve deals in a new Python process, on a chosen build: the harness that compares the builds.

``tests/solver/test_compiled.py`` and ``benchmarks/compiled_speed.py`` use it to solve the same
deals under the same node limits (so every search is the same, step by step) on pure Python,
the mypyc build (``scripts/compile``) and the native kernel, and to compare every counter and
winning line. The benchmarks import it with ``tests/`` on their path, as they import the
conformance checks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROGRAM = """
import json, sys, time
import kibitz
import kibitz.rules
from kibitz import compiled, native
from kibitz.solver import Limits, solve
rows = []
for slug, number, nodes in json.loads(sys.argv[1]):
    state = kibitz.game(slug).deal(number)  # making the game and the deal is not the solve's work
    started = time.process_time()
    row = solve(state, Limits(seconds=None, nodes=nodes)).as_dict()
    row["cpu"] = time.process_time() - started
    del row["seconds"]
    rows.append(row)
print(json.dumps({"active": compiled.ACTIVE, "status": compiled.STATUS, "native": native.STATUS,
                  "rules": kibitz.rules.__file__, "rows": rows}))
"""
"""What the new process runs: each case solved, its result and CPU seconds printed as JSON."""


@dataclass(frozen=True)
class SolvedApart:
    """What :func:`solve_apart` reports from its process."""

    active: bool
    """Whether the process ran the compiled modules (``kibitz.compiled.ACTIVE``)."""
    status: str
    """Its ``kibitz.compiled.STATUS``."""
    native: str
    """Whether it ran the rules in the native kernel (``kibitz.native.STATUS``)."""
    rules: str
    """The file its ``kibitz.rules`` came from."""
    rows: list[dict[str, Any]]
    """Each case's ``SolveResult.as_dict()``, with the CPU seconds of the solve (``cpu``: the
    call to ``solve``, not the making of the game and the deal) in place of its clock time."""


def build_environment(*, pure: bool = False, folder: Path | None = None, native: bool = True) -> dict[str, str]:
    """This process's environment, made to run a new process on one build: pure Python with
    ``pure``, else the mypyc build in ``folder`` (by default where ``kibitz.compiled`` looks; a
    folder without one leaves the native kernel alone), with the native kernel unless
    ``native`` is false."""
    env = {k: v for k, v in os.environ.items() if k not in ("KIBITZ_PURE_PYTHON", "KIBITZ_NATIVE")}
    if pure:
        env["KIBITZ_PURE_PYTHON"] = "1"
    if not native:
        env["KIBITZ_NATIVE"] = "0"
    if folder is not None:
        env["KIBITZ_COMPILED_DIR"] = str(folder)
    return env


def solve_apart(cases: Sequence[tuple[str, int, int]], *, pure: bool = False,
                folder: Path | None = None, native: bool = True) -> SolvedApart:
    """Solve ``(game, deal, node limit)`` cases in a new Python process: pure Python with
    ``pure``, else the mypyc build in ``folder`` (by default where ``kibitz.compiled`` looks),
    with the native kernel unless ``native`` is false."""
    env = build_environment(pure=pure, folder=folder, native=native)
    out = subprocess.run([sys.executable, "-c", PROGRAM, json.dumps(list(cases))], env=env,
                         capture_output=True, text=True, check=True).stdout
    return SolvedApart(**json.loads(out))
