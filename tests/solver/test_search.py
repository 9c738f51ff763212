"""The search itself: limits, counters, split search, replayed wins."""

from __future__ import annotations

import kibitz
from kibitz.solver import Limits, Outcome, solve, verify_win, without_loops
from kibitz.solver.policies import policy_for
from kibitz.solver.policy import Policy
from kibitz.solver.search import search


def test_split_search_agrees_with_a_single_search() -> None:
    """Duchess splits on its base rank; both ways must give the same verdicts."""
    game = kibitz.game("duchess")
    policy = policy_for(game)
    state = game.deal(16)
    assert policy.splits_at(state)
    split = search(state, policy, Limits(seconds=None, nodes=50_000))
    assert split.outcome is Outcome.WON
    verify_win(state, split.moves)
    single = search(state, Policy(game), Limits(seconds=None, nodes=2_000))
    assert single.outcome in (Outcome.WON, Outcome.UNKNOWN)


def test_limits_are_reported() -> None:
    game = kibitz.game("cicely")
    result = solve(game.deal(88), Limits(seconds=None, nodes=50))
    assert result.outcome is Outcome.UNKNOWN and result.reason == "node limit"
    assert 0 < result.nodes <= 50 and result.states > 0
    result = solve(game.deal(88), Limits(seconds=0.05))
    assert result.outcome is Outcome.UNKNOWN and result.reason == "time limit"
    assert result.seconds < 1.0
    result = solve(game.deal(88), Limits(seconds=None, table=100))
    assert result.outcome is Outcome.UNKNOWN and result.reason == "memory limit"
    assert result.peak_table <= 100


def test_a_won_line_replays_and_has_no_loops() -> None:
    game = kibitz.game("duchess")
    state = game.deal(1)
    result = solve(state, Limits(seconds=30))
    assert result.outcome is Outcome.WON
    verify_win(state, result.moves)
    assert without_loops(state, result.moves) == result.moves
    positions = [state]
    for move in result.moves:
        positions.append(positions[-1].apply(move))
    assert len({p.key for p in positions}) == len(positions)


def test_without_loops_cuts_a_detour() -> None:
    game = kibitz.game("kingsdown-eights")
    state = game.deal(1)
    detour = ("r5>f4", "f4>f8", "f8>f4")
    assert without_loops(state, tuple(kibitz.parse_move(m) for m in detour)) == (kibitz.parse_move("r5>f4"),)
