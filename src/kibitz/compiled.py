"""The optional compiled build of the solver's inner loop.

``scripts/compile`` compiles the modules in :data:`MODULES` (the state, the rules, the
four games whose deals are hard to solve, the search and its policies) with mypyc,
unchanged, into ``build/compiled/`` beside ``src/``, with a manifest of the hashes of
their sources. When kibitz is imported, :func:`install` loads them in place of the
Python modules, but only when every source still matches its hash and the build is for
this Python: one edited source turns them all off (compiled modules call each other
directly, so they go together), and :data:`STATUS` says why. A compiled module gives the same results as its
source, two to three times as fast; the tests compare the two solve by solve. It checks
the types of its arguments at run time: one of another type than annotated raises
:class:`TypeError`.

``KIBITZ_PURE_PYTHON=1`` turns the compiled build off; ``KIBITZ_COMPILED_DIR`` names
another folder to load it from. Python code cannot subclass the compiled classes (such
as the solver's policies): set ``KIBITZ_PURE_PYTHON=1`` for that.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

MODULES = (
    "kibitz.cards", "kibitz.moves", "kibitz.state", "kibitz.rules",
    "kibitz.games.duchess", "kibitz.games.tournament", "kibitz.games.cicely",
    "kibitz.games.kingsdown_eights",
    "kibitz.solver.policy", "kibitz.solver.search", "kibitz.solver.policies.common",
    "kibitz.solver.policies.grand_duchess", "kibitz.solver.policies.duchess",
    "kibitz.solver.policies.tournament", "kibitz.solver.policies.cicely",
    "kibitz.solver.policies.kingsdown_eights",
)
"""The modules compiled, all plain modules (no package ``__init__``)."""

PACKAGE = Path(__file__).resolve().parent
DEFAULT_FOLDER = PACKAGE.parent.parent / "build" / "compiled"
"""Where ``scripts/compile`` puts the build: ``build/compiled`` in the project folder."""
MANIFEST = "manifest.json"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

ACTIVE = False
"""Whether the compiled modules are in use in this process."""
STATUS = "not installed"
"""One line: whether the compiled modules are in use, and if not, why."""


def source_of(module: str) -> Path:
    """The Python source of one of :data:`MODULES`."""
    return PACKAGE.parent / (module.replace(".", "/") + ".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and mypyc's shared library) by name."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def check(folder: Path) -> tuple[dict[str, Path] | None, str]:
    """The files to load from the build in ``folder``, or ``None`` and the reason why not."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return None, f"off: not built (scripts/compile builds it in {folder})"
    try:
        data = json.loads(manifest.read_text())
        suffix, modules, support = data["suffix"], data["modules"], data["support"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return None, f"off: unreadable {manifest} ({error}); run scripts/compile again"
    if suffix != SUFFIX:
        return None, f"off: built for another Python ({suffix}); run scripts/compile again"
    if sorted(modules) != sorted(MODULES):
        return None, "off: built from another list of modules; run scripts/compile again"
    files: dict[str, Path] = {}
    for module, entry in modules.items():
        source = source_of(module)
        if not source.is_file() or digest(source) != entry["sha256"]:
            return None, f"off: {module} changed since it was compiled; run scripts/compile again"
        files[module] = folder / entry["file"]
    for name, file in support.items():
        files[name] = folder / file
    missing = [str(file) for file in files.values() if not file.is_file()]
    if missing:
        return None, f"off: {missing[0]} is missing; run scripts/compile again"
    return files, f"on: {len(modules)} modules compiled with mypyc, from {folder}"


def install() -> None:
    """Load the compiled modules in place of their sources, when they are fresh (see above)."""
    global ACTIVE, STATUS
    if ACTIVE:
        return
    if os.environ.get("KIBITZ_PURE_PYTHON"):
        STATUS = "off: KIBITZ_PURE_PYTHON is set"
        return
    folder = Path(os.environ.get("KIBITZ_COMPILED_DIR") or DEFAULT_FOLDER)
    files, STATUS = check(folder)
    loaded = [name for name in MODULES if name in sys.modules]
    if files is not None and loaded:
        STATUS = f"off: {loaded[0]} was imported before the compiled build could be installed"
        return
    if files is not None:
        sys.meta_path.insert(0, _Finder(files))
        ACTIVE = True


def build(folder: Path = DEFAULT_FOLDER) -> str:
    """Compile :data:`MODULES` with mypyc into ``folder`` (needs mypy and a C compiler)."""
    compiler = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(str(compiler).split()[0]) is None:
        raise RuntimeError(f"no C compiler ({compiler}); Debian: apt-get install gcc python3-dev")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        raise RuntimeError(f"no Python headers ({headers}); Debian: apt-get install python3-dev")
    with tempfile.TemporaryDirectory(prefix="kibitz-compile-") as work:
        tree = Path(work)
        shutil.copytree(PACKAGE, tree / "kibitz", ignore=shutil.ignore_patterns("__pycache__", "*.so", "static"))
        sources = [str(source_of(m).relative_to(PACKAGE.parent)) for m in MODULES]
        run = subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=tree,
                             capture_output=True, text=True)
        if run.returncode != 0:
            tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"mypyc failed:\n{tail}")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        modules = {}
        for module in MODULES:
            relative = Path(*module.split(".")).with_suffix("").as_posix() + SUFFIX
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(tree / relative, folder / relative)
            modules[module] = {"file": relative, "sha256": digest(source_of(module))}
        support = {}
        for library in tree.glob(f"*__mypyc{SUFFIX}"):
            shutil.copy2(library, folder / library.name)
            support[library.name[:-len(SUFFIX)]] = library.name
    (folder / MANIFEST).write_text(json.dumps({"suffix": SUFFIX, "modules": modules, "support": support},
                                              indent=1) + "\n")
    return check(folder)[1]


SOLVE_APART = """
import json, sys, time
import kibitz
import kibitz.rules
from kibitz import compiled, native
from kibitz.solver import Limits, solve
rows = []
for slug, number, nodes in json.loads(sys.argv[1]):
    started = time.process_time()
    row = solve(kibitz.game(slug).deal(number), Limits(seconds=None, nodes=nodes)).as_dict()
    row["cpu"] = time.process_time() - started
    del row["seconds"]
    rows.append(row)
print(json.dumps({"active": compiled.ACTIVE, "status": compiled.STATUS, "native": native.STATUS,
                  "rules": kibitz.rules.__file__, "rows": rows}))
"""


@dataclass(frozen=True)
class SolvedApart:
    """What :func:`solve_apart` reports from its process."""

    active: bool
    """Whether the process ran the compiled modules."""
    status: str
    """Its :data:`STATUS`."""
    native: str
    """Whether it ran the rules in the native kernel (``kibitz.native.STATUS``)."""
    rules: str
    """The file its ``kibitz.rules`` came from."""
    rows: list[dict[str, Any]]
    """Each case's ``SolveResult.as_dict()``, with the CPU seconds of the solve (``cpu``) in
    place of its clock time."""


def solve_apart(cases: Sequence[tuple[str, int, int]], *, pure: bool = False,
                folder: Path | None = None, native: bool = True) -> SolvedApart:
    """Solve ``(game, deal, node limit)`` cases in a new Python process, to compare the build
    with the sources: pure Python with ``pure``, else the build in ``folder`` (by default
    where :func:`install` looks), with the native kernel unless ``native`` is false. Node
    limits make the searches the same step by step.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("KIBITZ_PURE_PYTHON", "KIBITZ_NATIVE")}
    if pure:
        env["KIBITZ_PURE_PYTHON"] = "1"
    if not native:
        env["KIBITZ_NATIVE"] = "0"
    if folder is not None:
        env["KIBITZ_COMPILED_DIR"] = str(folder)
    out = subprocess.run([sys.executable, "-c", SOLVE_APART, json.dumps(list(cases))], env=env,
                         capture_output=True, text=True, check=True).stdout
    return SolvedApart(**json.loads(out))


def main(argv: Sequence[str] | None = None) -> int:
    """``build [FOLDER]`` (what ``scripts/compile`` runs) or ``status``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["build"] and len(args) <= 2:
        try:
            print(f"compiled solver: {build(Path(args[1]) if len(args) == 2 else DEFAULT_FOLDER)}")
        except RuntimeError as error:
            print(f"compiling failed: {error}", file=sys.stderr)
            return 1
        return 0
    if args == ["status"]:
        print(f"compiled solver: {STATUS}")
        return 0
    print("usage: build [FOLDER] | status", file=sys.stderr)
    return 2
