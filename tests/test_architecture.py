"""The pure core imports no client: no UI, solver, study or storage code."""

from __future__ import annotations

import subprocess
import sys

CORE = ["kibitz", "kibitz.cards", "kibitz.deals", "kibitz.piles", "kibitz.state", "kibitz.moves",
        "kibitz.rules", "kibitz.notation", "kibitz.view", "kibitz.history", "kibitz.records",
        "kibitz.registry", "kibitz.errors"]
CLIENTS = ("kibitz.cli", "kibitz.tui", "kibitz.solver", "kibitz.study", "sqlite3", "ray")


def test_core_imports_no_client() -> None:
    program = (f"import sys, importlib\n"
               f"for name in {CORE!r}: importlib.import_module(name)\n"
               f"import kibitz; [kibitz.game(i.slug).deal(1) for i in kibitz.games()]\n"
               f"print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True).stdout.split()
    offending = [m for m in loaded if any(m == c or m.startswith(c + ".") for c in CLIENTS)]
    assert offending == []


def test_solver_and_study_do_not_import_user_interfaces() -> None:
    program = ("import sys, kibitz.solver, kibitz.study.runner, kibitz.study.report\n"
               "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True).stdout.split()
    assert not [m for m in loaded if m.startswith(("kibitz.cli", "kibitz.tui"))]
