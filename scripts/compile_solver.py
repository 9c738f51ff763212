"""Compile the solver's inner loop with mypyc: what ``scripts/compile`` runs.

    .venv/bin/python scripts/compile_solver.py build [FOLDER]   # compile into FOLDER (build/compiled)
    .venv/bin/python scripts/compile_solver.py status           # whether kibitz uses the build, and why not

The modules of ``kibitz.compiled.MODULES`` are compiled as they are, into ``build/compiled/``
beside ``src/`` by default, with a manifest of the hashes of their sources; ``kibitz.compiled``
(only the loader) loads them when kibitz is imported, while every source still matches. It needs
mypy (for mypyc), a C compiler and Python's headers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path

from kibitz import compiled


def build(folder: Path = compiled.DEFAULT_FOLDER) -> str:
    """Compile ``kibitz.compiled.MODULES`` with mypyc into ``folder``; returns the build's status."""
    compiler = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(str(compiler).split()[0]) is None:
        raise RuntimeError(f"no C compiler ({compiler}); Debian: apt-get install gcc python3-dev")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        raise RuntimeError(f"no Python headers ({headers}); Debian: apt-get install python3-dev")
    suffix = compiled.SUFFIX
    with tempfile.TemporaryDirectory(prefix="kibitz-compile-") as work:
        tree = Path(work)
        shutil.copytree(compiled.PACKAGE, tree / "kibitz",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "static"))
        sources = [str(compiled.source_of(m).relative_to(compiled.PACKAGE.parent)) for m in compiled.MODULES]
        run = subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=tree,
                             capture_output=True, text=True)
        if run.returncode != 0:
            tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"mypyc failed:\n{tail}")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        modules = {}
        for module in compiled.MODULES:
            relative = Path(*module.split(".")).with_suffix("").as_posix() + suffix
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(tree / relative, folder / relative)
            modules[module] = {"file": relative, "sha256": compiled.digest(compiled.source_of(module))}
        support = {}
        for library in tree.glob(f"*__mypyc{suffix}"):
            shutil.copy2(library, folder / library.name)
            support[library.name[:-len(suffix)]] = library.name
    (folder / compiled.MANIFEST).write_text(
        json.dumps({"suffix": suffix, "modules": modules, "support": support}, indent=1) + "\n")
    return compiled.check(folder)[1]


def main(argv: Sequence[str]) -> int:
    """``build [FOLDER]`` (the default) or ``status``."""
    args = list(argv) or ["build"]
    if args[:1] == ["build"] and len(args) <= 2:
        try:
            print(f"compiled solver: {build(Path(args[1]) if len(args) == 2 else compiled.DEFAULT_FOLDER)}")
        except RuntimeError as error:
            print(f"compiling failed: {error}", file=sys.stderr)
            return 1
        return 0
    if args == ["status"]:
        print(f"compiled solver: {compiled.STATUS}")
        return 0
    print("usage: build [FOLDER] | status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
