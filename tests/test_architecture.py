"""The pure core imports no client: no UI, solver, study or storage code; clients do not
import each other (the browser player does not import the terminal player)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import kibitz

CORE = ["kibitz", "kibitz.cards", "kibitz.deals", "kibitz.piles", "kibitz.state", "kibitz.moves",
        "kibitz.rules", "kibitz.notation", "kibitz.view", "kibitz.history", "kibitz.records",
        "kibitz.registry", "kibitz.errors", "kibitz.autoplay", "kibitz.reasons", "kibitz.table", "kibitz.reach"]
CLIENTS = ("kibitz.cli", "kibitz.tui", "kibitz.solver", "kibitz.study", "kibitz.agents", "kibitz.gym",
           "gymnasium", "numpy", "sqlite3", "ray")


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


def test_web_player_does_not_import_the_terminal_player() -> None:
    program = ("import sys, importlib, pkgutil, kibitz.web\n"
               "for module in pkgutil.walk_packages(kibitz.web.__path__, 'kibitz.web.'):\n"
               "    importlib.import_module(module.name)\n"
               "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "kibitz.web.app" in loaded
    assert not [m for m in loaded if m.startswith(("kibitz.cli", "kibitz.tui"))]


def test_the_environments_import_no_solver_and_no_user_interface() -> None:
    program = ("import sys, gymnasium, kibitz.gym\n"
               "env = gymnasium.make('kibitz/GrandDuchess-v0'); env.reset(seed=1); env.step(0)\n"
               "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "kibitz.gym.env" in loaded
    assert not [m for m in loaded if m.startswith(("kibitz.solver", "kibitz.study", "kibitz.web", "kibitz.cli",
                                                   "kibitz.tui"))]


ASKERS = ("web", "tui")
"""The packages of the clients that ask about positions and games (and ``kibitz.cli``)."""
ANSWERERS = ("kibitz.solver", "kibitz.agents")
"""What computes hints, chances, the solver's answers and reviews: only the analysis layer asks them."""


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_no_client_computes_an_answer_itself() -> None:
    source = Path(kibitz.__file__).parent
    files = [source / "cli.py"] + [path for package in ASKERS for path in sorted((source / package).rglob("*.py"))]
    offending = [(path.relative_to(source).as_posix(), name) for path in files for name in _imports(path)
                 if name.startswith(ANSWERERS)]
    assert offending == []
    for package in ASKERS:   # each asks the analysis layer instead
        assert any(name.startswith("kibitz.analysis") for path in (source / package).rglob("*.py")
                   for name in _imports(path)), package
