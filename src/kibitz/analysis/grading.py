"""What a move cost, its label and the game's accuracy (``docs/review.md`` gives the reasons).

A move's *cost* is measured on the very deals sampled before it: on each, whether the strong
agent's move keeps it winnable and whether the played move does. A deal where both keep it
(or neither does) says nothing about the choice; the cost is the share of the deals the
best move keeps and the played one gives up, less the share where it is the other way round.
Measured in pairs, the cost does not move with which deals happened to be drawn, nor with a
card that a move merely shows.

A cost is *clear* when the pairs that favour the best move are too many to be chance: a sign
test, one-sided at 5%, with every pair where either search was left undecided counted in
the played move's favour. Only a clear cost is labelled or counted in the accuracy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from kibitz.intervals import sign_test
from kibitz.solver import Outcome

Label = Literal["", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[tuple[float, Label], ...] = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
"""The least cost of each label, largest first: a share of the deals that fit what the player
saw, as lichess labels a loss of 30, 20 and 10 points of winning chance."""
CLEAR = 0.05
"""The largest one-sided p-value of a clear cost."""


@dataclass(frozen=True)
class Cost:
    """What the played move gave up against the best move, on the same sampled deals."""

    kept_by_best: int
    """Deals the best move keeps winnable and the played move does not (both decided)."""
    kept_by_played: int
    """Deals the played move keeps winnable and the best move does not (both decided)."""
    undecided: int
    """Deals where either search was left undecided (and the two do not agree)."""
    samples: int

    @property
    def share(self) -> float:
        """The cost: the share of the decided pairs the best move keeps over the played move
        (0 when it keeps none more)."""
        decided = self.samples - self.undecided
        return max(0.0, (self.kept_by_best - self.kept_by_played) / decided) if decided else 0.0

    @property
    def p_value(self) -> float:
        """The one-sided sign test, the undecided pairs counted in the played move's favour."""
        return sign_test(self.kept_by_best, self.kept_by_played + self.undecided)

    @property
    def clear(self) -> bool:
        """Whether the cost is clear of the sampling noise (see the module docstring)."""
        return self.kept_by_best > 0 and self.p_value < CLEAR

    @property
    def label(self) -> Label:
        """``blunder``, ``mistake``, ``inaccuracy`` or ``""`` (a cost that is small or not clear)."""
        if not self.clear:
            return ""
        for least, label in LABELS:
            if self.share >= least:
                return label
        return ""


def cost_of(best: Sequence[Outcome], played: Sequence[Outcome]) -> Cost:
    """The cost of the played move from the verdicts after the best move (``best``) and after
    the played move (``played``) on the same deals, in the same order."""
    more = fewer = undecided = 0
    for after_best, after_played in zip(best, played, strict=True):
        if after_best is after_played:
            continue
        if Outcome.UNKNOWN in (after_best, after_played):
            undecided += 1
        elif after_best is Outcome.WON:
            more += 1
        else:
            fewer += 1
    return Cost(more, fewer, undecided, len(best))


def move_accuracy(cost: Cost, best_won: int) -> float:
    """The accuracy of one move, 0 to 100: the share of the deals the best move keeps
    winnable that the played move keeps too (``best_won``: how many the best move keeps);
    100 where the cost is not clear."""
    if not cost.clear or best_won <= 0:
        return 100.0
    return 100.0 * max(0.0, 1.0 - (cost.kept_by_best - cost.kept_by_played) / best_won)


def game_accuracy(accuracies: Sequence[float]) -> float:
    """The game's accuracy, 0 to 100: the product of its moves' accuracies (as shares), the
    share of the winning chance the player kept through the game. One move that gave up
    half of it caps the game at 50, however many easy moves surround it."""
    kept = 1.0
    for accuracy in accuracies:
        kept *= accuracy / 100.0
    return 100.0 * kept
