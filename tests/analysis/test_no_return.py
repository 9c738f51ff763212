"""The point of no return: winnable just before it, lost just after it, proved; none in a won
game; a deal that could never be won says so; undecided searches leave a range."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import kibitz
from kibitz import records
from kibitz.analysis.no_return import MAX_SEARCHES, point_of_no_return
from kibitz.analysis.review import positions
from kibitz.solver import Limits, Outcome, solve
from kibitz.state import State

REVIEWS = Path(__file__).parent.parent / "data" / "reviews"
NODES = 300_000


def line_of(name: str) -> list[State]:
    """The positions of a game kept in ``tests/data/reviews``."""
    history = records.load(REVIEWS / name)
    return positions(history.start, history.moves)


def judged(states: Sequence[State], verdicts: dict[int, Outcome]):  # type: ignore[no-untyped-def]
    """A judge that gives position k the verdict ``verdicts[k]``, and counts what it was asked."""
    index = {id(state): k for k, state in enumerate(states)}
    asked: list[int] = []

    def judge(batch: Sequence[State], nodes: int) -> list[tuple[Outcome, int]]:
        asked.extend(index[id(state)] for state in batch)
        return [(verdicts[index[id(state)]], 1) for state in batch]
    return judge, asked


def test_the_point_is_found_on_a_constructed_line() -> None:
    states = line_of("tournament-22.kibitz")
    last = len(states) - 1
    for point in (0, 1, 17, last - 2, last - 1):
        verdicts = {k: Outcome.WON if k <= point else Outcome.LOST for k in range(last + 1)}
        judge, asked = judged(states, verdicts)
        found = point_of_no_return(states, NODES, judge)
        assert (found.finding, found.move, found.proved, found.winnable_at_start) == ("found", point, True, True)
        assert len(asked) <= 2 + 2 * 6 and len(set(asked)) == len(asked)   # a bisection, each position once


def test_undecided_positions_leave_a_range_not_a_point() -> None:
    states = line_of("tournament-22.kibitz")
    last = len(states) - 1
    verdicts = {k: Outcome.WON if k < 30 else Outcome.UNKNOWN if k < 60 else Outcome.LOST for k in range(last + 1)}
    judge, asked = judged(states, verdicts)
    found = point_of_no_return(states, NODES, judge)
    assert found.finding == "range" and not found.proved and found.move is None
    assert found.first is not None and found.last is not None and found.first <= 29 and found.last >= 59
    assert len(asked) <= MAX_SEARCHES
    judge, _ = judged(states, {k: Outcome.UNKNOWN for k in range(last + 1)})
    unknown = point_of_no_return(states, NODES, judge)
    assert unknown.finding == "undecided" and unknown.winnable_at_start is None


def test_the_point_of_a_real_game_is_proved_by_the_solver() -> None:
    for name in ("tournament-22.kibitz", "duchess-33.kibitz"):
        states = line_of(name)
        found = point_of_no_return(states, NODES)
        assert found.finding == "found" and found.proved and found.move is not None
        assert found.winnable_at_start is True
        before, after = states[found.move], states[found.move + 1]
        limits = Limits(seconds=None, nodes=NODES)
        assert solve(before, limits).outcome is Outcome.WON   # winnable just before the move
        assert solve(after, limits).outcome is Outcome.LOST   # lost just after it
        assert "could not be won after move" in found.words()


def test_a_won_game_has_no_point_of_no_return() -> None:
    states = line_of("parisienne-21.kibitz")
    assert states[-1].is_won()
    found = point_of_no_return(states, NODES)
    assert found.finding == "won" and found.move is None and found.verdicts == () and found.winnable_at_start


def test_a_deal_that_could_never_be_won_says_so() -> None:
    states = line_of("kingsdown-eights-3931.kibitz")
    found = point_of_no_return(states, NODES)
    assert found.finding == "never winnable" and found.proved and found.winnable_at_start is False
    assert found.move is None and "no play could have won this deal" in found.words()


def test_a_game_given_up_while_winnable_has_no_point() -> None:
    states = line_of("tournament-22.kibitz")[:20]
    found = point_of_no_return(states, NODES)
    assert found.finding == "still winnable" and found.move is None and found.winnable_at_start


def test_stopping_gives_up_between_rounds() -> None:
    states = line_of("duchess-33.kibitz")
    found = point_of_no_return(states, NODES, stop=lambda: True)
    assert found.finding in ("undecided", "range") and len(found.verdicts) == 2   # the opening and the end only
    assert kibitz.game("duchess") is states[0].game
