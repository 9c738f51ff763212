"""The solver picks each game's search policy by the family the game declares
(``GameInfo.family``), never by its name: a new game of a known family gets that family's
policy, and a game of no family the plain one."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import kibitz
from kibitz.registry import games
from kibitz.families import Family
from kibitz.rules import Game
from kibitz.solver.policies import POLICIES, policy_for
from kibitz.solver.policy import Policy

SOLVER = Path(kibitz.__file__).parent / "solver"


def test_every_game_declares_a_family_with_a_policy(any_game: Game) -> None:
    family = any_game.info.family
    assert family is not None
    assert type(policy_for(any_game)) is POLICIES[family]


def test_every_family_has_a_policy_and_a_game() -> None:
    assert set(POLICIES) == set(Family)
    assert {info.family for info in games()} == set(Family)


def test_the_policy_follows_the_family_not_the_name(any_game: Game) -> None:
    renamed = Game(replace(any_game.info, slug="test-newcomer", name="Test Newcomer", aliases=()),
                   any_game.ruleset, any_game.rules)
    assert type(policy_for(renamed)) is type(policy_for(any_game))
    orphan = Game(replace(any_game.info, slug="test-orphan", name="Test Orphan", aliases=(), family=None),
                  any_game.ruleset, any_game.rules)
    assert type(policy_for(orphan)) is Policy


def test_no_solver_module_compares_a_game_slug_with_a_name() -> None:
    slugs = {info.slug for info in games()}
    for path in SOLVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in slugs:
                raise AssertionError(f"{path.relative_to(SOLVER.parent)}:{node.lineno}: names the game {node.value!r}")
