"""What a search is allowed (:class:`Limits`), what it found (:class:`SolveResult`), and how
a search made of parts spends its limits (:class:`Budget`).

The arithmetic of budgets lives here only: a first pass's share of the limits and what it
leaves to the full search (:meth:`Limits.share`, :meth:`Limits.after`), what is left for
the next part of a search (a restart, an alternative) and the counters added up
(:class:`Budget`, :meth:`SolveResult.following`).
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from kibitz.moves import Move


class Outcome(enum.Enum):
    """The verdict on a position, with full knowledge of every card."""

    WON = "won"
    """A winning line was found (and replayed through the rules)."""
    LOST = "lost"
    """Proved: no sequence of legal moves wins."""
    UNKNOWN = "unknown"
    """The search stopped at a limit before deciding."""


CLOCKS = ("wall", "cpu")
"""What a time limit counts: ``wall`` the time that passes, ``cpu`` the processor time of
the thread that searches (the same on a machine with a core to spare; under load, what the
search got), so that a search stopped by ``cpu`` seconds does not depend on other work."""


def clock_reading(clock: str) -> Callable[[], float]:
    """The function that reads ``clock`` (one of :data:`CLOCKS`), in seconds."""
    return time.thread_time if clock == "cpu" else time.perf_counter


PYTHON_TABLE = 4_000_000
"""The Python search's table limit when :attr:`Limits.table` is ``None``: it keeps each
position's canonical form, about 200 bytes, so about 0.8 GB when full."""
NATIVE_TABLE = 32_000_000
"""The native search's table limit when :attr:`Limits.table` is ``None`` (since solver
version 16; 4,000,000 before): it keeps a 16-byte hash per position, about 1.7 GB of memory
at the most with the hash set's slack and growth (a 60-second Duchess search holding 29.8
million positions peaked at 1.65 GB). The kernel expands up to about 1,000,000 positions a
second: the full search of a long solve no longer stops after 4-5 s of it. A first pass
still forgets at :data:`FIRST_PASS_TABLE`."""
FIRST_PASS_TABLE = 4_000_000
"""The most positions a first pass's table holds, whatever the table limit: when the
attempts' shared table is full, the pass forgets what they searched through and goes on
(:func:`kibitz.solver.search.first_pass`). Forgetting is part of the pass's design: on
Kingsdown Eights's hard deals a shared table of 32,000,000 positions, never cleared within
10 s, left more deals undecided than one cleared at 4,000,000."""


@dataclass(frozen=True)
class Limits:
    """Budgets of one search; ``None`` means no limit of that kind."""

    seconds: float | None = 10.0
    nodes: int | None = None
    table: int | None = None
    """Distinct positions a transposition table may hold; ``None``: the build's own limit,
    :data:`PYTHON_TABLE` or :data:`NATIVE_TABLE` (see :meth:`table_limit`)."""
    clock: str = "wall"
    """What ``seconds`` counts, one of :data:`CLOCKS`; the result's seconds are on it too."""

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {self.clock!r}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"time limit must be positive, not {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"node limit must be at least 1, not {self.nodes}")
        if self.table is not None and self.table < 1:
            raise ValueError(f"table limit must be at least 1, not {self.table}")

    def table_limit(self, native: bool) -> int:
        """The table limit a search in the native kernel (``native``) or in Python obeys."""
        if self.table is not None:
            return self.table
        return NATIVE_TABLE if native else PYTHON_TABLE

    def share(self, fraction: float) -> Limits:
        """These limits cut to ``fraction`` of the time and of the nodes (at least one)."""
        return replace(self, seconds=None if self.seconds is None else self.seconds * fraction,
                       nodes=None if self.nodes is None else max(1, int(self.nodes * fraction)))

    def after(self, spent: SolveResult) -> Limits:
        """What these limits leave after a search that ``spent`` some of them (at least a
        millisecond and one node)."""
        return replace(self, seconds=None if self.seconds is None else max(1e-3, self.seconds - spent.seconds),
                       nodes=None if self.nodes is None else max(1, self.nodes - spent.nodes))


@dataclass(frozen=True)
class SolveResult:
    """The outcome of a search, the winning moves when won, and its counters."""

    outcome: Outcome
    moves: tuple[Move, ...] = ()
    reason: str | None = None
    """Why the outcome is unknown: ``time limit``, ``node limit`` or ``memory limit``."""
    nodes: int = 0
    """Positions expanded (their moves generated)."""
    states: int = 0
    """Distinct positions met (after safe moves)."""
    seconds: float = 0.0
    peak_table: int = 0
    """Largest size the transposition table reached."""
    notes: tuple[str, ...] = field(default=())

    @property
    def is_decided(self) -> bool:
        return self.outcome is not Outcome.UNKNOWN

    def following(self, earlier: SolveResult) -> SolveResult:
        """This result of a search that followed ``earlier`` in one solve, with the counters
        of both: nodes, positions and seconds added, the larger peak of the table."""
        return replace(self, nodes=self.nodes + earlier.nodes, seconds=self.seconds + earlier.seconds,
                       states=self.states + earlier.states, peak_table=max(self.peak_table, earlier.peak_table))

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary: outcome, moves as strings, counters."""
        return {"outcome": self.outcome.value, "moves": [str(m) for m in self.moves],
                "reason": self.reason, "nodes": self.nodes, "states": self.states,
                "seconds": round(self.seconds, 6), "peak_table": self.peak_table}


TIME_LIMIT = "time limit"
NODE_LIMIT = "node limit"


class Budget:
    """The limits of a search made of parts (restarts, alternatives) as they are spent: the
    clock starts when it is made, and each part's counters are added (:meth:`add`)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.now = clock_reading(limits.clock)
        """Reads the limits' clock."""
        self.started = self.now()
        self.deadline: float | None = None if limits.seconds is None else self.started + limits.seconds
        """The clock reading (:attr:`now`) at which the time limit is reached."""
        self.nodes = 0
        self.states = 0
        self.peak_table = 0
        self.reason = NODE_LIMIT
        """Why :meth:`remaining` last found nothing left."""

    def remaining(self, cap: int | None = None) -> Limits | None:
        """The limits of the next part: the time left and the nodes left, at most ``cap``
        of them; ``None`` when the time or the nodes are spent (:attr:`reason` says which)."""
        seconds = None if self.deadline is None else self.deadline - self.now()
        if seconds is not None and seconds <= 0:
            self.reason = TIME_LIMIT
            return None
        nodes = None if self.limits.nodes is None else self.limits.nodes - self.nodes
        if nodes is not None and nodes <= 0:
            self.reason = NODE_LIMIT
            return None
        if cap is not None:
            nodes = cap if nodes is None else min(cap, nodes)
        return replace(self.limits, seconds=seconds, nodes=nodes)  # the table and the clock as they were

    def add(self, part: SolveResult) -> None:
        """Count a part's nodes and positions, and its table's peak."""
        self.nodes += part.nodes
        self.states += part.states
        self.peak_table = max(self.peak_table, part.peak_table)

    def result(self, outcome: Outcome, moves: tuple[Move, ...] = (), reason: str | None = None) -> SolveResult:
        """The result of the whole search, with the parts' counters and the time since it started."""
        return SolveResult(outcome, moves, reason, self.nodes, self.states, self.now() - self.started,
                           self.peak_table)
