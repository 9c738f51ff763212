"""What a search is allowed (:class:`Limits`) and what it found (:class:`SolveResult`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from kibitz.moves import Move


class Outcome(enum.Enum):
    """The verdict on a position, with full knowledge of every card."""

    WON = "won"
    """A winning line was found (and replayed through the rules)."""
    LOST = "lost"
    """Proved: no sequence of legal moves wins."""
    UNKNOWN = "unknown"
    """The search stopped at a limit before deciding."""


@dataclass(frozen=True)
class Limits:
    """Budgets of one search; ``None`` means no limit of that kind."""

    seconds: float | None = 10.0
    nodes: int | None = None
    table: int = 4_000_000
    """Distinct positions the transposition table may hold (about 200 bytes each)."""

    def __post_init__(self) -> None:
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"time limit must be positive, not {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"node limit must be at least 1, not {self.nodes}")
        if self.table < 1:
            raise ValueError(f"table limit must be at least 1, not {self.table}")


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

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary: outcome, moves as strings, counters."""
        return {"outcome": self.outcome.value, "moves": [str(m) for m in self.moves],
                "reason": self.reason, "nodes": self.nodes, "states": self.states,
                "seconds": round(self.seconds, 6), "peak_table": self.peak_table}
