"""The compiled build (``scripts/compile``) solves exactly as the Python sources do."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kibitz
from kibitz import compiled
from kibitz.solver import Limits, solve
from tests.hard_deal import HARD_DEAL
from tests.solve_apart import solve_apart

COMPILE = Path(__file__).resolve().parents[2] / "scripts" / "compile_solver.py"
"""What ``scripts/compile`` runs."""

CASES = [("kingsdown-eights", 1, 3000), ("kingsdown-eights", 5, 3000), ("cicely", 9, 3000),
         ("duchess", 143, 3000), ("duchess", 2, 3000), ("tournament", 1, 3000),
         ("napoleons-flank", 4, 3000), ("grand-duchess", 3, 3000), ("parisienne", 7, 3000)]
"""(game, deal, node limit): node limits make the search deterministic."""

def same(row: dict[str, object]) -> dict[str, object]:
    """What must agree between the build and the sources (everything but the clock)."""
    return {k: v for k, v in row.items() if k not in ("seconds", "cpu")}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compiled build in a temporary folder (skipped where there is no C compiler)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler to compile with")
    folder = tmp_path_factory.mktemp("compiled")
    run = subprocess.run([sys.executable, str(COMPILE), "build", str(folder)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("compiled solver: on:"), run.stdout + run.stderr
    return folder


def test_the_compiled_build_solves_exactly_as_the_sources(build: Path) -> None:
    fast = solve_apart(CASES, folder=build)
    assert fast.active, fast.status
    assert fast.rules.startswith(str(build)) and fast.rules.endswith(compiled.SUFFIX)
    expected = [solve(kibitz.game(slug).deal(n), Limits(seconds=None, nodes=nodes)).as_dict()
                for slug, n, nodes in CASES]
    assert [same(r) for r in fast.rows] == [same(r) for r in expected]
    assert {r["outcome"] for r in expected} >= {"won", "unknown"}  # both kinds compared


def test_kibitz_pure_python_turns_the_build_off(build: Path) -> None:
    plain = solve_apart(CASES[:1], pure=True, folder=build)
    assert not plain.active and "KIBITZ_PURE_PYTHON" in plain.status
    assert plain.rules.endswith("rules.py")


def test_an_edited_source_or_another_python_turns_the_build_off(build: Path, tmp_path: Path) -> None:
    files, status = compiled.check(build)
    assert files is not None and status.startswith("on:")
    copy = tmp_path / "copy"
    shutil.copytree(build, copy)
    manifest = json.loads((copy / compiled.MANIFEST).read_text())
    manifest["modules"]["kibitz.rules"]["sha256"] = "0" * 64
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    files, status = compiled.check(copy)
    assert files is None and "kibitz.rules changed since it was compiled" in status
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    manifest["suffix"] = ".cpython-39-x86_64-linux-gnu.so"
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    files, status = compiled.check(copy)
    assert files is None and "another Python" in status
    (copy / compiled.MANIFEST).write_text("{not json")
    assert compiled.check(copy)[0] is None and "unreadable" in compiled.check(copy)[1]
    assert compiled.check(tmp_path / "nothing")[1].startswith("off: not built")
    # An edited source in a real process: the stale build is not loaded.
    stale = solve_apart(CASES[:1], folder=copy)
    assert not stale.active and stale.rules.endswith("rules.py")


def test_ctrl_c_stops_a_compiled_solve_cleanly(build: Path) -> None:
    """Ctrl-C waits for the search's next clock reading (``kibitz.solver.interrupts``): a
    KeyboardInterrupt raised inside a native operation could abort the process instead."""
    env = {k: v for k, v in os.environ.items() if k != "KIBITZ_PURE_PYTHON"}
    env["KIBITZ_COMPILED_DIR"] = str(build)
    # a deal that stays undecided (deals 5, 19 and 29 are now won in under two seconds
    # natively, before a late Ctrl-C)
    for attempt in range(3):
        process = subprocess.Popen([sys.executable, "-m", "kibitz", "solve", "kingsdown-eights", str(HARD_DEAL),
                                    "--timeout", "60"], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0 + 0.4 * attempt)
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
        assert process.returncode == 130, errors
        assert "fatal" not in errors and "Traceback" not in errors, errors
