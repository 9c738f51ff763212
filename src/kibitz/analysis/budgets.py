"""How much every question of the analysis layer may search: node budgets, never time.

A budget in nodes gives the same answer on any machine and under any load, for the same
build (the native kernel or pure Python, whose budgets differ where pure Python cannot
afford the native ones: ``docs/review.md`` says how the answers then differ).
"""

from __future__ import annotations

from kibitz.agents import CHANCE, HINT, Setting
from kibitz.rules import Game

SOLVER_NODES = 5_000_000
"""Nodes of one search of the solver, which sees every card (the analysis mode, ``kibitz hint
--peek`` and the point of no return), where the native kernel runs the rules: a few seconds
at the most."""
PYTHON_SOLVER_NODES = 300_000
"""The same where the rules run in pure Python (some thirty to a hundred times slower per node)."""

REVIEW = Setting("review", samples=24, least=24, candidates=1)
"""The sampled deals of a review: 24 at every position, each searched with the game's own node
budget (:data:`kibitz.agents.setting.SAMPLE_NODES`). The strong agent's move there is its one
candidate: the first move of the most winning lines among those deals (the hint scores a second
candidate in hindsight too, whose searches would take a third of a review's time)."""
PYTHON_REVIEW = REVIEW.but(samples=12, least=12)
"""The review where the rules run in pure Python: half the deals."""

FAIR_HINT = HINT
"""The fair hint: the strong agent at its hint setting."""
FAIR_CHANCE = CHANCE
"""The fair chance to win from here."""


def is_native(game: Game) -> bool:
    """Whether the native kernel runs ``game``'s rules."""
    return game.kernel is not None


def nodes_of(setting: Setting, game: Game) -> int:
    """The node budget of each search of a sampled deal of ``game`` at ``setting``."""
    return setting.nodes_for(game.info.family, is_native(game))


def solver_nodes(game: Game) -> int:
    """Nodes of one search of the solver (seeing every card) for ``game`` with its build."""
    return SOLVER_NODES if is_native(game) else PYTHON_SOLVER_NODES


def review_setting(game: Game) -> Setting:
    """The sampled deals of a review of ``game`` with its build."""
    return REVIEW if is_native(game) else PYTHON_REVIEW
