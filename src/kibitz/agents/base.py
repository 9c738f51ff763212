"""What every agent offers: a move for an observation, chosen with an explicit generator."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from kibitz.agents.observation import Observation
from kibitz.errors import KibitzError
from kibitz.intervals import Z95, wilson
from kibitz.moves import Move


class NoMoveError(KibitzError):
    """An agent asked for a move where no move is legal (the game is over)."""


@dataclass(frozen=True)
class Decision:
    """A move and what led to it."""

    move: Move
    reason: str
    """In words: ``the only legal move``, ``safe move to a foundation``, ``won in 7 of 10 samples``."""
    scores: tuple[tuple[Move, float], ...] = ()
    """The moves considered with their scores, best first."""
    measure: str = ""
    """What the scores are: ``greedy evaluation``, ``share of samples won after it``, ..."""
    samples: int = 0
    """Deals sampled for the decision (0: none)."""
    searches: int = 0
    """Solver searches run for the decision."""


@dataclass(frozen=True)
class Chance:
    """The chance to win from here, estimated from sampled deals.

    ``won`` of ``samples`` deals consistent with what the player sees were won by the solver
    from the current position, ``lost`` were proved lost and ``unknown`` were undecided
    within the node budget. The solver sees every card of a sample, so the chance is the
    share of the deals consistent with the view that a player who then knew every card
    could win: an upper bound of a fair player's chance.

    An undecided deal is never counted as lost: :attr:`share` is the share of the decided
    deals that were won, and :attr:`low` and :attr:`high` are the shares the undecided deals
    allow (all lost, all won). :meth:`interval` adds the sampling noise.
    """

    won: int
    lost: int
    unknown: int

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def share(self) -> float | None:
        """``won / decided``: the share of the decided deals that were won (``None``: none decided)."""
        return self.won / self.decided if self.decided else None

    @property
    def low(self) -> float:
        """The share of the deals that were won, the undecided ones counted as lost (0 without samples)."""
        return self.won / self.samples if self.samples else 0.0

    @property
    def high(self) -> float:
        """The share of the deals that were won, the undecided ones counted as won (1 without samples)."""
        return (self.won + self.unknown) / self.samples if self.samples else 1.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """A conservative 95% interval of the chance: Wilson's interval of the share won with
        the undecided deals counted as lost (its lower end) and as won (its upper end)."""
        if not self.samples:
            return 0.0, 1.0
        return wilson(self.won, self.samples, z)[0], wilson(self.won + self.unknown, self.samples, z)[1]

    def as_dict(self) -> dict[str, object]:
        low, high = self.interval()
        share = self.share
        return {"won": self.won, "lost": self.lost, "unknown": self.unknown, "samples": self.samples,
                "share": None if share is None else round(share, 6), "low": round(self.low, 6),
                "high": round(self.high, 6), "interval": [round(low, 6), round(high, 6)]}


class Agent(Protocol):
    """A player that sees only an :class:`Observation`.

    The same observation and a generator in the same state give the same move.
    """

    name: str

    def decide(self, observation: Observation, rng: random.Random) -> Decision:
        """The move for ``observation``, with what led to it."""
        ...

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        """The move for ``observation`` (``decide(...).move``)."""
        ...


def check_observation(observation: object) -> Observation:
    """``observation`` if it is an :class:`Observation` with a legal move; an agent is given
    nothing else (a state passed by mistake is refused, never read)."""
    if not isinstance(observation, Observation):
        raise TypeError(f"an agent takes an Observation, not {type(observation).__name__}")
    if not observation.legal_moves:
        raise NoMoveError("no legal move: the game is over")
    return observation
