"""The agents cannot reach the true state: they are given an observation of plain data, refuse
anything else, and their modules import nothing that holds or makes a true state."""

from __future__ import annotations

import ast
import dataclasses
import gc
import types
import random
import typing
from pathlib import Path

import pytest

import kibitz
import kibitz.agents
from kibitz.agents import AGENTS, Observation, Setting, agent, observe
from kibitz.agents.base import Agent
from kibitz.moves import Move
from kibitz.view import View
from tests.agents.positions import random_positions

PACKAGE = Path(kibitz.agents.__file__).parent
SOURCE = PACKAGE.parent

REFEREE = {"observation", "play"}
"""The referee's side: they take a state (the true one) and show the agents observations of it."""
SAMPLES = {"sampling"}
"""Builds states from an observation and cards drawn for its hidden places."""
AGENT_MODULES = {"__init__", "base", "setting", "uniform", "greedy", "strong"}
"""The agents: they see observations and samples only."""
TRUE_STATE_SOURCES = ("kibitz.state", "kibitz.rules", "kibitz.notation", "kibitz.history", "kibitz.records",
                      "kibitz.web", "kibitz.tui", "kibitz.study", "kibitz.cli")
"""Modules that hold, read or make a true state."""


def plain(value: object, path: str = "observation") -> None:
    """Fail unless ``value`` is made of strings, numbers, booleans, ``None``, tuples, moves and
    views (themselves plain) only."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return
    if isinstance(value, tuple):  # a Move is a tuple of plain fields too
        assert type(value) in (tuple, Move), f"{path}: {type(value).__name__}"
        for k, item in enumerate(value):
            plain(item, f"{path}[{k}]")
        return
    assert type(value) in (View, Observation), f"{path}: {type(value).__name__} is not plain data"
    assert set(vars(value)) == {field.name for field in dataclasses.fields(value)}, (
        f"{path}: holds more than its fields")
    for field in dataclasses.fields(value):
        plain(getattr(value, field.name), f"{path}.{field.name}")


def test_an_observation_holds_only_plain_data(any_game: kibitz.Game) -> None:
    for state, played, _ in random_positions(any_game, deals=(1,), depths=(0, 15)):
        observation = observe(state, played)
        plain(observation)
        assert not any(isinstance(getattr(observation, f.name), (bytes, kibitz.State))
                       for f in dataclasses.fields(observation))


def test_the_check_of_plain_data_would_catch_a_state() -> None:
    state = kibitz.game("duchess").deal(1)
    observation = observe(state)
    smuggled = dataclasses.replace(observation, played=(state,))  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        plain(smuggled)
    with pytest.raises(AssertionError):
        plain(dataclasses.replace(observation, face_down=(state.piles[0],)))  # type: ignore[arg-type]


def test_agents_take_an_observation_and_a_generator_only() -> None:
    for name in AGENTS:
        player = agent(name)
        for method in (type(player).choose, type(player).decide):
            hints = typing.get_type_hints(method)
            assert hints["observation"] is Observation and hints["rng"] is random.Random
            assert list(hints) == ["observation", "rng", "return"]
    hints = typing.get_type_hints(Agent.choose)
    assert hints["observation"] is Observation


def test_agents_refuse_a_state() -> None:
    state = kibitz.game("duchess").deal(1)
    for name in AGENTS:
        player = agent(name, Setting("x", samples=2, nodes=50))
        with pytest.raises(TypeError, match="Observation"):
            player.choose(state, random.Random(0))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="Observation"):
            player.decide(state.view(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Observation"):
        kibitz.agents.chance(state, random.Random(0))  # type: ignore[arg-type]


def imports(path: Path) -> list[tuple[str, bool]]:
    """Every module ``path`` imports (``from X import Y`` gives ``X`` and ``X.Y``), and whether
    the import is for type checking only."""
    tree = ast.parse(path.read_text())
    checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            checking.update(id(child) for child in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in checking) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, id(node) in checking))
            found += [(f"{node.module}.{alias.name}", id(node) in checking) for alias in node.names]
    return found


def test_every_module_of_the_agents_is_on_one_side() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert modules == REFEREE | SAMPLES | AGENT_MODULES


def test_agents_import_nothing_that_holds_a_true_state() -> None:
    for name in sorted(AGENT_MODULES):
        for module, _ in imports(PACKAGE / f"{name}.py"):
            assert not module.startswith(TRUE_STATE_SOURCES), f"kibitz.agents.{name} imports {module}"
            referee = tuple(f"kibitz.agents.{side}" for side in REFEREE - {"observation"})
            assert not module.startswith(referee), f"kibitz.agents.{name} imports {module}"
            assert module != "kibitz.agents.observation.observe" or name == "__init__", (
                f"kibitz.agents.{name} imports observe")
            assert module != "kibitz.view.view_of", f"kibitz.agents.{name} imports view_of"


def test_only_sampling_makes_states_and_the_referee_takes_them_only_as_arguments() -> None:
    for path in PACKAGE.glob("*.py"):
        for module, type_checking in imports(path):
            if module.startswith("kibitz.state") or module == "kibitz.rules.State":  # (State is defined in rules)
                assert path.stem in SAMPLES or (path.stem in REFEREE and type_checking), (
                    f"kibitz.agents.{path.stem} imports {module}")


def test_only_observe_makes_an_observation_from_a_state() -> None:
    makers = []
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "Observation":
                        makers.append(f"{path.relative_to(SOURCE)}:{function.name}")
    assert makers == ["agents/observation.py:observe"]


def test_nothing_an_observation_refers_to_leads_back_to_the_state() -> None:
    """Every object reachable from an observation (leaving out classes, modules and functions,
    which every value reaches): no state, and none of its piles."""
    state = kibitz.game("napoleons-flank").deal(2)
    observation = observe(state)
    seen: set[int] = set()
    stack: list[object] = [observation]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType,
                                                 types.BuiltinFunctionType, types.MethodType)):
            continue
        seen.add(id(item))
        assert not isinstance(item, (kibitz.State, bytes, bytearray)), type(item).__name__
        stack.extend(gc.get_referents(item))
    assert all(id(pile) in seen for pile in observation.view.piles)  # the walk went everywhere
