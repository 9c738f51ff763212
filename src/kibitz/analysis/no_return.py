"""The point of no return: the first move after which the deal could no longer be won.

This part of the review sees every card (it asks the solver about the true positions of the
game) and every client labels it so. Along one line of play a deal can only stop being
winnable, never become winnable again (a win from a later position is a win from every
earlier one), so the positions of a game go winnable, then lost: a bisection over them
finds where with a few searches. Each verdict is a proof (a win is a line replayed through
the rules, a loss an exhaustive search) or undecided within the node budget; the point is
*proved* when the verdicts on both sides of it are proofs.
"""

from __future__ import annotations

from dataclasses import dataclass
import threading
from typing import Callable, Literal, Sequence

from kibitz.agents.strong import search_threads
from kibitz.solver import Limits, Outcome, SolveResult, interrupts, solve
from kibitz.state import State

Finding = Literal["won", "found", "range", "never winnable", "still winnable", "undecided"]
"""What the search found:

- ``won``: the game was won, so there is no point of no return;
- ``found``: the move (:attr:`NoReturn.move`) after which the deal could not be won;
- ``range``: the point lies among some moves, whose positions were left undecided;
- ``never winnable``: no play could have won this deal (its opening proved lost);
- ``still winnable``: the game ended (given up) in a position that could still be won;
- ``undecided``: the searches decided too little to say.
"""
MAX_SEARCHES = 24
"""The most positions searched for one game (a bisection of 150 moves needs about 8)."""
MAX_UNDECIDED = 4
"""The most searches left undecided before the bisection with a fifth of the budget stops: the
positions around the point are the hardest to decide."""


@dataclass(frozen=True)
class Verdict:
    """The solver's verdict on the position after ``index`` moves, seeing every card."""

    index: int
    outcome: Outcome
    nodes: int


@dataclass(frozen=True)
class NoReturn:
    """Where the deal stopped being winnable along the moves played (see the module docstring)."""

    finding: Finding
    first: int | None
    """The first move (0-based) the point may be: after it the deal may be lost."""
    last: int | None
    """The last move the point may be (``first`` when it is found to one move)."""
    proved: bool
    """Whether the verdicts around the point are proofs (for ``never winnable``: the opening
    was proved lost; for ``won``: the game's own win)."""
    winnable_at_start: bool | None
    """Whether the deal could be won from its opening (``None``: undecided)."""
    verdicts: tuple[Verdict, ...]
    """Every search made, in the order made."""
    nodes: int
    """The node budget of each search."""

    @property
    def move(self) -> int | None:
        """The move after which the deal could no longer be won, when found to one move."""
        return self.first if self.finding == "found" else None

    def words(self) -> str:
        """The finding in a sentence (the solver sees every card)."""
        if self.finding == "won":
            return "the game was won: no move lost it"
        if self.finding == "never winnable":
            return "no play could have won this deal (proved: the solver tried every line)"
        if self.finding == "still winnable":
            return "the game ended while the deal could still be won"
        if self.finding == "found":
            proof = "proved" if self.proved else "not proved"
            return f"the deal could not be won after move {(self.first or 0) + 1} ({proof})"
        if self.finding == "range":
            return (f"the deal stopped being winnable between moves {(self.first or 0) + 1} and "
                    f"{(self.last or 0) + 1} (the solver left the positions between undecided)")
        return f"the solver decided too few positions within {self.nodes:,} nodes to say where"

    def as_dict(self) -> dict[str, object]:
        return {"finding": self.finding, "move": self.move, "first": self.first, "last": self.last,
                "proved": self.proved, "winnable_at_start": self.winnable_at_start, "nodes": self.nodes,
                "words": self.words(),
                "verdicts": [{"index": v.index, "outcome": v.outcome.value, "nodes": v.nodes}
                             for v in self.verdicts]}


Judge = Callable[[Sequence[State], int], list[tuple[Outcome, int]]]
"""Decides positions within a node budget: for each, the verdict and the nodes searched."""
PROBES = 2
"""Positions searched at once in each round of the bisection (at the thirds of what is left):
the rounds are the same whatever the machine, so the answer is too."""
FIRST_SHARE = 5
"""The bisection first searches with a fifth of the node budget; only the positions it leaves
undecided around the point get the whole budget (at most :data:`REFINE_ROUNDS` rounds): most
positions of a game are decided within a fifth, and an undecided search takes its whole budget."""
REFINE_ROUNDS = 1


def searcher(threads: int = 1, stop: threading.Event | None = None) -> Judge:
    """Searches the positions of a round, in ``threads`` threads (one after the other with
    one); once ``stop`` is set, a search under way stops at its next clock reading."""
    def one(state: State, nodes: int) -> SolveResult:
        if stop is None:
            return solve(state, Limits(seconds=None, nodes=nodes))
        with interrupts.stopped_by(stop):
            return solve(state, Limits(seconds=None, nodes=nodes))

    def judge(states: Sequence[State], nodes: int) -> list[tuple[Outcome, int]]:
        results = list(search_threads(threads).map(one, states, [nodes] * len(states))) if threads > 1 \
            else [one(state, nodes) for state in states]
        return [(result.outcome, result.nodes) for result in results]
    return judge


def point_of_no_return(states: Sequence[State], nodes: int, judge: Judge | None = None,
                       stop: Callable[[], bool] | None = None) -> NoReturn:
    """The point of no return of the game whose positions are ``states`` (the opening first),
    each search within ``nodes`` nodes at the most; ``judge`` decides the positions of one
    round (default: :func:`searcher`, one after the other); ``stop()``, asked between rounds,
    gives the rest up (the answer is then as far as it got)."""
    decide_all = judge or searcher()
    last = len(states) - 1
    verdicts: list[Verdict] = []
    known: dict[int, Outcome] = {}
    quick = max(1, nodes // FIRST_SHARE)

    def decide(indices: list[int], budget: int) -> None:
        for index, (outcome, used) in zip(indices, decide_all([states[k] for k in indices], budget)):
            verdicts.append(Verdict(index, outcome, used))
            known[index] = outcome

    def finish(finding: Finding, first: int | None, later: int | None, proved: bool) -> NoReturn:
        # A position of the game that can be won makes every earlier one winnable.
        winnable = True if finding == "won" or Outcome.WON in known.values() else \
            False if known.get(0) is Outcome.LOST else None
        return NoReturn(finding, first, later, proved, winnable, tuple(verdicts), nodes)

    def stopped() -> bool:
        return stop is not None and stop()

    if states[last].is_won():
        return finish("won", None, None, True)
    ends = sorted({0, last})
    decide(ends, quick)
    undecided_ends = [k for k in ends if known[k] is Outcome.UNKNOWN]
    if undecided_ends and not stopped():
        decide(undecided_ends, nodes)
    if known[0] is Outcome.LOST:
        return finish("never winnable", None, None, True)
    if known[last] is Outcome.WON:
        return finish("still winnable", None, None, True)
    if last == 0:
        return finish("undecided", None, None, False)
    # Winnable up to ``low`` (or -1: none known), lost from ``high`` on (or last + 1: none known).
    bounds = [0 if known[0] is Outcome.WON else -1, last if known[last] is Outcome.LOST else last + 1]

    def bisect(budget: int, open_to: Callable[[int], bool], rounds: int, undecided: int) -> None:
        """Rounds of probes at ``budget`` among the positions between the bounds that
        ``open_to`` allows, until ``undecided`` of them are left undecided."""
        missed = 0
        for _ in range(rounds):
            low, high = bounds
            candidates = [k for k in range(low + 1, high) if open_to(k)]
            if not candidates or missed >= undecided or len(verdicts) >= MAX_SEARCHES or stopped():
                return
            probes: list[int] = []
            for mark in (low + (high - low) * (n + 1) / (PROBES + 1) for n in range(PROBES)):
                rest = [k for k in candidates if k not in probes]
                if rest:
                    probes.append(min(rest, key=lambda k: (abs(k - mark), k)))
            decide(sorted(probes), budget)
            missed += sum(known[k] is Outcome.UNKNOWN for k in probes)
            bounds[0] = max([bounds[0]] + [k for k in probes if known[k] is Outcome.WON])
            bounds[1] = min([bounds[1]] + [k for k in probes if known[k] is Outcome.LOST])

    bisect(quick, lambda k: k not in known, MAX_SEARCHES, MAX_UNDECIDED)
    if bounds[0] >= 0 and bounds[1] <= last:   # refine the positions left undecided around the point
        bisect(nodes, lambda k: known.get(k) is not Outcome.LOST and known.get(k) is not Outcome.WON,
               REFINE_ROUNDS, PROBES)
    low, high = bounds
    if low < 0 or high > last:   # no position found winnable, or none found lost
        return finish("undecided", None, None, False)
    if high == low + 1:
        return finish("found", low, low, True)
    return finish("range", low, high - 1, False)
