"""The questions about one position: the fair hint, the fair chance, the solver's answer.

*Fair* questions (:func:`fair_hint`, :func:`fair_chance`) are given the player's
:class:`~kibitz.agents.Observation` and a seed, never a state: what they answer cannot
depend on a card the player has not seen. The solver's answer (:func:`solver_answer`) is
given the true state and sees every card: every client labels it so, and marks a game it
answers about as assisted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from kibitz.agents import Chance, Observation, Setting, agent, observe
from kibitz.agents.strong import chance as estimate
from kibitz.analysis.budgets import FAIR_CHANCE, FAIR_HINT, solver_nodes
from kibitz.history import History
from kibitz.moves import Move
from kibitz.solver import Limits, Outcome, SolveResult, solve
from kibitz.state import State


def observation_of(states: Sequence[State], moves: Iterable[Move]) -> Observation:
    """What the player sees at the last of ``states`` (the positions of the game so far, the
    opening first, ``moves`` leading from each to the next), with the moves played and the
    views seen before: all that a fair question is given."""
    return observe(states[-1], moves, (state.view() for state in states[:-1]))


def observation_at(history: History) -> Observation:
    """:func:`observation_of` the game of ``history`` up to its current position."""
    return observation_of(history.states, history.moves)


@dataclass(frozen=True)
class Hint:
    """An agent's move for a position, from what the player sees, and what led to it."""

    move: Move
    reason: str
    """In words: ``the only legal move``, ``won after it in 9 of 12 samples``."""
    agent: str
    setting: Setting | None
    """The strong agent's setting (``None`` for an agent that does not search)."""
    considered: tuple[tuple[Move, float], ...] = ()
    """The moves considered with their scores, best first."""
    measure: str = ""
    """What the scores are."""
    samples: int = 0
    searches: int = 0


def fair_hint(observation: Observation, seed: int, agent_name: str = "strong",
              setting: Setting = FAIR_HINT) -> Hint:
    """The move of agent ``agent_name`` (the strong one by default) for ``observation``; the
    same observation and seed give the same move."""
    decision = agent(agent_name, setting).decide(observation, random.Random(seed))
    return Hint(decision.move, decision.reason, agent_name, setting if agent_name == "strong" else None,
                decision.scores, decision.measure, decision.samples, decision.searches)


def fair_chance(observation: Observation, seed: int, setting: Setting = FAIR_CHANCE) -> Chance:
    """The chance to win from here: how many of the deals that fit ``observation`` the solver
    wins, proves lost or leaves undecided (never counted as lost; see :class:`Chance`)."""
    return estimate(observation, random.Random(seed), setting)


@dataclass(frozen=True)
class SolverAnswer:
    """The solver's answer about a position, seeing every card."""

    result: SolveResult
    nodes: int
    """The node budget it had."""

    @property
    def outcome(self) -> Outcome:
        return self.result.outcome

    @property
    def winnable(self) -> bool | None:
        """True (a win exists), False (proved lost) or ``None`` (undecided within the budget)."""
        return None if self.outcome is Outcome.UNKNOWN else self.outcome is Outcome.WON

    @property
    def move(self) -> Move | None:
        """The first move of the winning line, if one was found."""
        return self.result.moves[0] if self.outcome is Outcome.WON and self.result.moves else None

    @property
    def reason(self) -> str:
        """The answer in words."""
        return {Outcome.WON: "the first move of a winning line",
                Outcome.LOST: "no move wins: the position is lost",
                Outcome.UNKNOWN: f"no winning line found within {self.nodes:,} nodes"}[self.outcome]


def solver_answer(state: State, nodes: int | None = None) -> SolverAnswer:
    """The solver's verdict on ``state`` and its move, seeing every card, within ``nodes``
    nodes (default: :func:`~kibitz.analysis.budgets.solver_nodes` of its game)."""
    budget = solver_nodes(state.game) if nodes is None else nodes
    return SolverAnswer(solve(state, Limits(seconds=None, nodes=budget)), budget)


def solve_deal(state: State, seconds: float) -> SolveResult:
    """The solver's whole answer about ``state`` (a deal's opening), within ``seconds`` of
    the time that passes: ``kibitz solve``."""
    return solve(state, Limits(seconds=seconds))
