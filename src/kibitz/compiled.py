"""The loader of the optional compiled build of the solver's inner loop.

``scripts/compile`` (``scripts/compile_solver.py``, where the build is made) compiles the
modules in :data:`MODULES` (the rules with the state, the four games whose deals are hard to
solve, the search and its policies) with mypyc, unchanged, into ``build/compiled/`` beside
``src/``, with a manifest of the hashes of their sources. When kibitz is imported,
:func:`install` loads them in place of the Python modules, but only when every source still
matches its hash and the build is for this Python: one edited source turns them all off
(compiled modules call each other directly, so they go together), and :data:`STATUS` says
why. A compiled module gives the same results as its source, two to three times as fast;
the tests compare the two solve by solve (``tests/solver/test_compiled.py``). It checks
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
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MODULES = (
    "kibitz.cards", "kibitz.moves", "kibitz.rules",
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
    chosen = os.environ.get("KIBITZ_COMPILED_DIR")
    if not chosen and not (DEFAULT_FOLDER.parent.parent / "pyproject.toml").is_file():
        STATUS = "off: an installed package (the compiled solver is built in a checkout: scripts/compile)"
        return
    folder = Path(chosen or DEFAULT_FOLDER)
    files, STATUS = check(folder)
    loaded = [name for name in MODULES if name in sys.modules]
    if files is not None and loaded:
        STATUS = f"off: {loaded[0]} was imported before the compiled build could be installed"
        return
    if files is not None:
        sys.meta_path.insert(0, _Finder(files))
        ACTIVE = True
