"""The strong agent's budget for the odds: past which multiple of its setting's nodes more
search stops making it stronger.

The budget step plays the strong agent at several budgets (1x, 10x, ...; ``kibitz odds
--budget N``, stored as the setting ``study*N``) on the same deals. The odds take the least
budget whose next (ten times more, or the next measured) wins no more often than the top of
its 95% Wilson interval; where every step still gains, the largest measured, said so; and never
one that costs more than :data:`AFFORDABLE_SECONDS` a game, said so too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from kibitz.agents.setting import budget_of
from kibitz.intervals import wilson
from kibitz.study.report import Alike, line_rulesets
from kibitz.study.store import Play

AFFORDABLE_SECONDS = 20.0
"""The most processor seconds a game the odds' strong agent may cost: 2,000 games in about
eleven processor-hours. A budget step stops at a budget that costs more (``kibitz odds
--affordable``), and the odds take the largest budget below it."""


@dataclass(frozen=True)
class BudgetResult:
    """The strong agent at one budget, on the deals every budget of its step played."""

    factor: int
    won: int
    games: int
    cpu_seconds: float
    """Mean processor seconds a game."""


@dataclass(frozen=True)
class Choice:
    """The budget the odds take."""

    factor: int
    still_gaining: bool
    """Whether each measured step still gained: the largest measured, not one past which more
    search stops helping."""
    costly: tuple[int, float] | None = None
    """The next budget and its processor seconds a game, where its cost (over
    :data:`AFFORDABLE_SECONDS`) kept the odds from it."""

    def words(self) -> str:
        """``10x``, ``10x (still gaining: the largest measured)`` or ``1x (10x costs 180.0 s
        a game, more than the affordable 20 s)``."""
        if self.costly is not None:
            factor, seconds = self.costly
            return (f"{self.factor}x ({factor}x costs {seconds:.1f} s a game, more than the affordable "
                    f"{AFFORDABLE_SECONDS:g} s)")
        return f"{self.factor}x" + (" (still gaining: the largest measured)" if self.still_gaining else "")


@dataclass(frozen=True)
class BudgetStep:
    """One game and ruleset's budget step: the strong agent at each budget it was played at."""

    game: str
    ruleset: str
    """The line's ruleset (the first of those with the same rules)."""
    same_rules: tuple[str, ...]
    setting: str
    """The setting the budgets multiply (``study``)."""
    deals: int
    """The games every budget played (deal and seed), on which the results are counted."""
    results: tuple[BudgetResult, ...]
    """By budget, the smallest first; each budget of the game's kept games, even with no
    common deal (then with no games)."""

    def choice(self) -> Choice | None:
        """The budget the odds take (:func:`choose`); ``None`` before two budgets share deals."""
        measured = [result for result in self.results if result.games]
        return choose({result.factor: (result.won, result.games) for result in measured},
                      {result.factor: result.cpu_seconds for result in measured})


def choose(counts: Mapping[int, tuple[int, int]], seconds: Mapping[int, float] | None = None,
           affordable: float = AFFORDABLE_SECONDS) -> Choice | None:
    """The least budget the next measured one does not beat beyond its 95% Wilson interval
    (``counts``: wins and games by budget); the largest measured, still gaining, where each
    step gains; but never past a budget whose next costs more than ``affordable`` processor
    seconds a game (``seconds``, by budget), whether or not that next one gains (the cost is then
    the reason given). ``None`` with fewer than two budgets."""
    factors = sorted(factor for factor, (_, games) in counts.items() if games)
    if len(factors) < 2:
        return None
    for factor, following in zip(factors, factors[1:]):
        cost = (seconds or {}).get(following, 0.0)
        if cost > affordable:   # never taken, and measured on its first deals only: its cost decides
            return Choice(factor, False, (following, cost))
        won, games = counts[factor]
        more, more_games = counts[following]
        if more / more_games <= wilson(won, games)[1]:
            return Choice(factor, False)
    return Choice(factors[-1], True)


def budget_steps(plays: Iterable[Play], *, alike: Alike | None = None, agent: str = "strong") -> list[BudgetStep]:
    """Per game, ruleset and setting, the ``agent``'s games at each budget, counted on the
    games (deal and seed) every budget played; only where it was played at two budgets or more.
    ``plays`` should hold one version of the agent (the caller chooses which)."""
    groups: dict[tuple[str, str, str], dict[int, dict[tuple[int, int], Play]]] = {}
    others: dict[tuple[str, str], tuple[str, ...]] = {}
    for play, ruleset in line_rulesets(alike, (play for play in plays if play.agent == agent), others):
        base, factor = budget_of(play.setting)
        groups.setdefault((play.game, ruleset, base), {}).setdefault(factor, {}).setdefault((play.seed, play.deal), play)
    steps = []
    for (game, ruleset, base), by_factor in sorted(groups.items()):
        if len(by_factor) < 2:
            continue
        common = set.intersection(*(set(games) for games in by_factor.values()))
        results = []
        for factor in sorted(by_factor):
            counted = [by_factor[factor][key] for key in sorted(common)]
            seconds = sum(play.cpu_seconds for play in counted) / len(counted) if counted else 0.0
            results.append(BudgetResult(factor, sum(play.won for play in counted), len(counted), seconds))
        steps.append(BudgetStep(game, ruleset, others.get((game, ruleset), ()), base, len(common), tuple(results)))
    return steps
