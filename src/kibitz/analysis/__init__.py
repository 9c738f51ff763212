"""The analysis layer: every question asked about a position or a game, answered once.

- the *fair hint* and the *fair chance* (:mod:`kibitz.analysis.position`), from what the
  player sees only;
- the *solver's answer* (the analysis mode, ``kibitz hint --peek``, ``kibitz solve``), which
  sees every card;
- the *review* of a game (:mod:`kibitz.analysis.review`): the fair chance before every
  move, each move's cost and label, the accuracy, the luck, and the point of no return.

The web app, the terminal player and the command line are thin callers of it: none of them
asks the agents or the solver itself (``tests/test_architecture.py``). Every search is
bounded by nodes (:mod:`kibitz.analysis.budgets`), so the same question, seed and build give
the same answer on any machine.

>>> import kibitz
>>> from kibitz.analysis import fair_chance, observation_of
>>> state = kibitz.game("parisienne").deal(1)
>>> found = fair_chance(observation_of([state], []), seed=1)
>>> found.samples >= 10 and found.unknown <= found.samples
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kibitz.agents import Chance, Observation
    from kibitz.analysis.grading import Cost, Label
    from kibitz.analysis.no_return import NoReturn, Verdict
    from kibitz.analysis.position import (Hint, SolverAnswer, fair_chance, fair_hint, observation_at,
                                          observation_of, solve_deal, solver_answer)
    from kibitz.analysis.review import (REVIEW_VERSION, Event, FinalChance, MoveReview, Review, new_review,
                                        review_events, review_game, sure_share)

_WHERE = {
    "Chance": "kibitz.agents", "Observation": "kibitz.agents",
    "Cost": "kibitz.analysis.grading", "Label": "kibitz.analysis.grading",
    "NoReturn": "kibitz.analysis.no_return", "Verdict": "kibitz.analysis.no_return",
    **dict.fromkeys(("Hint", "SolverAnswer", "fair_chance", "fair_hint", "observation_at", "observation_of",
                     "solve_deal", "solver_answer"), "kibitz.analysis.position"),
    **dict.fromkeys(("REVIEW_VERSION", "Event", "FinalChance", "MoveReview", "Review", "new_review", "review_events",
                     "review_game", "sure_share"), "kibitz.analysis.review"),
}
"""Where each name lives: imported when first asked for, so that a program that only names the
package (the command line, starting) does not load the agents and the solver."""


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'kibitz.analysis' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["Chance", "Cost", "Event", "FinalChance", "Hint", "Label", "MoveReview", "NoReturn", "Observation",
           "REVIEW_VERSION", "Review", "SolverAnswer", "Verdict", "fair_chance", "fair_hint", "new_review",
           "observation_at", "observation_of", "review_events", "review_game", "solve_deal", "solver_answer",
           "sure_share"]
