"""The core's modules import one another in one direction: no import cycle, counting every
import (at the top of a module, inside a function, or for type checking only), read with ast.

The named core (state, rules, view, notation, registry) has no import of another core module
inside a function or for type checking only: such imports were how cycles were dodged. The
few edges that still close a cycle are listed in ``BACK_EDGES_LEFT`` with why; a new
cycle, or a new edge of that kind among the named core, fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import kibitz

SOURCE = Path(kibitz.__file__).resolve().parent
CLIENTS = ("kibitz.cli", "kibitz.tui", "kibitz.solver", "kibitz.study", "kibitz.agents", "kibitz.gym",
           "kibitz.web", "kibitz.compiled", "kibitz.autoplay", "kibitz.history", "kibitz.records",
           "kibitz.difficulty", "kibitz.__main__")
"""Modules above the core (or beside it, like the loader of the compiled build)."""
NAMED_CORE = ("kibitz.state", "kibitz.rules", "kibitz.view", "kibitz.notation", "kibitz.registry")
BACK_EDGES_LEFT = {
    ("kibitz.reasons", "kibitz.rules"),
    ("kibitz.counterparts", "kibitz.rules"),
    ("kibitz.native", "kibitz.rules"),
}
"""Imports back into the rules that remain, for type checking only: the reasons, the native
counterparts and the native kernel take a ``Game`` (and a ``State``)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def core_modules() -> dict[str, Path]:
    """Every module of the pure core (the package's own ``__init__`` aside)."""
    found = {}
    for path in sorted(SOURCE.rglob("*.py")):
        name = module_name(path)
        if name != "kibitz" and not name.startswith(CLIENTS):
            found[name] = path
    return found


def imports(path: Path, known: set[str]) -> dict[str, str]:
    """The core modules ``path`` imports, each with where: ``top``, ``function`` or ``type checking``."""
    tree = ast.parse(path.read_text())
    where: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            where.update({id(child): "type checking" for child in ast.walk(node)})
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            where.update({id(child): "function" for child in ast.walk(node) if id(child) not in where})
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name in known:
                found.setdefault(name, where.get(id(node), "top"))
    return found


def graph() -> dict[str, dict[str, str]]:
    modules = core_modules()
    known = set(modules)
    return {name: imports(path, known) for name, path in modules.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it, or ``None``."""
    state = dict.fromkeys(edges, 0)  # 0 new, 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target, 2) == 1:
                return path[path.index(target):] + [target]
            if state.get(target) == 0:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if state[node] == 0:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_is_read() -> None:
    edges = graph()
    assert set(NAMED_CORE) <= set(edges)
    assert "kibitz.state" in edges["kibitz.notation"] and "kibitz.rules" in edges["kibitz.state"]
    assert "kibitz.rules" in edges["kibitz.games.duchess"]


def test_the_core_has_no_import_cycle() -> None:
    edges = {name: set(targets) - {t for s, t in BACK_EDGES_LEFT if s == name}
             for name, targets in graph().items()}
    assert cycle(edges) is None


def test_a_cycle_is_found_where_there_is_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_what_is_left_is_for_type_checking_only() -> None:
    edges = graph()
    assert {(s, t, edges[s].get(t)) for s, t in BACK_EDGES_LEFT} == {
        (s, t, "type checking") for s, t in BACK_EDGES_LEFT}


def test_the_named_core_imports_nothing_inside_functions_or_for_type_checking_only() -> None:
    edges = graph()
    hidden = {(name, target, where) for name in NAMED_CORE for target, where in edges[name].items()
              if where != "top"}
    assert hidden == set()
    assert not {(s, t) for s, t in BACK_EDGES_LEFT if s in NAMED_CORE}
