"""An independent check of the deals the solver proves lost.

The solver's proof of a loss is a search with the game's pruning rules, cut-offs and
knowledge of the game (:mod:`kibitz.solver`). This check shares none of it: from the deal, it
visits every position any sequence of legal moves reaches, through the pure-Python rules
(never the native kernel), remembering each position it has seen, and confirms the loss only
when it has seen them all and none is won. It stops at a limit of positions (memory grows
with them, about 300 bytes each) and then confirms nothing.

It reads only :class:`~kibitz.rules.Game`'s ``deal``, ``generate_moves``, ``apply_unchecked``
and ``is_won``, and a position's key (:attr:`~kibitz.rules.State.key`: its piles, round and
base rank, equal exactly when the positions are).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass

import kibitz
from kibitz.rules import Game, State

CHECKER_VERSION = 1
"""Bumped when a change could alter a verdict; stored with each check."""
DEFAULT_LIMIT = 10_000_000
"""Positions the check may visit before it gives up (about 3 GB of memory, 4 minutes)."""
VERDICTS = ("lost", "won", "unknown")


@dataclass(frozen=True)
class Check:
    """What the check found for one deal."""

    game: str
    ruleset: str
    deal: int
    verdict: str
    """``lost``: every reachable position seen, none won (the loss confirmed); ``won``: a won
    position is reachable (the solver's proof is wrong); ``unknown``: the limit came first."""
    positions: int
    """Distinct positions visited."""
    seconds: float
    """Processor seconds it took."""
    limit: int
    checker_version: int = CHECKER_VERSION

    @property
    def outcome(self) -> str:
        """The verdict, as the progress line counts outcomes."""
        return self.verdict


def python_rules(game: Game) -> Game:
    """``game`` with its moves generated and applied by the pure-Python rules."""
    plain = copy.copy(game)
    plain.kernel = None
    return plain


def exhaust(start: State, limit: int) -> tuple[str, int]:
    """Visit every position reachable from ``start`` (depth first, each position once) through
    ``start``'s game: the verdict (``lost``, ``won`` or ``unknown``) and the positions visited."""
    rules = start.game
    if rules.is_won(start):
        return "won", 1
    seen = {start.key}
    stack = [start]
    while stack:
        state = stack.pop()
        for move in rules.generate_moves(state):
            after = rules.apply_unchecked(state, move)
            key = after.key
            if key in seen:
                continue
            if len(seen) >= limit:
                return "unknown", len(seen)
            seen.add(key)
            if rules.is_won(after):
                return "won", len(seen)
            stack.append(after)
    return "lost", len(seen)


def check_loss(game: str, ruleset: str, deal: int, limit: int = DEFAULT_LIMIT) -> Check:
    """Check that deal ``deal`` is lost: :func:`exhaust` from it on the pure-Python rules."""
    started = time.process_time()
    verdict, positions = exhaust(python_rules(kibitz.game(game, ruleset)).deal(deal), limit)
    return Check(game, ruleset, deal, verdict, positions, time.process_time() - started, limit)


@dataclass(frozen=True)
class CheckJob:
    """A worker's job: check each deal of a batch (picklable, for a process pool)."""

    game: str
    ruleset: str
    limit: int

    def __call__(self, deals: list[int]) -> list[Check]:
        return [check_loss(self.game, self.ruleset, deal, self.limit) for deal in deals]


@dataclass(frozen=True)
class CheckPlan:
    """The proved losses of one game and ruleset to check, one deal per task."""

    game: str
    ruleset: str
    limit: int
    workers: int = 1

    def worker_count(self) -> int:
        return self.workers

    def batch_size(self, remaining: int) -> int:
        return 1

    def job(self) -> CheckJob:
        return CheckJob(self.game, self.ruleset, self.limit)


def as_record(check: Check) -> tuple[object, ...]:
    """A check as the store's columns (:data:`~kibitz.study.store.CHECK_COLUMNS`), recorded now."""
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return (check.game, check.ruleset, str(check.deal), check.verdict, check.positions, check.seconds,
            check.limit, check.checker_version, now)


def from_record(record: tuple[object, ...]) -> Check:
    """A check from the store's columns (:data:`~kibitz.study.store.CHECK_COLUMNS`)."""
    game, ruleset, deal, verdict, positions, seconds, limit, version, _ = (str(value) for value in record)
    return Check(game, ruleset, int(deal), verdict, int(positions), float(seconds), int(limit), int(version))
