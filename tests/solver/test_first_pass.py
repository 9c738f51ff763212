"""The restarted digging first pass of Cicely, Kingsdown Eights and Duchess (``solver.search.first_pass``)."""

from __future__ import annotations

import kibitz
from kibitz.cards import IDENTITY
from kibitz.solver import Limits, Outcome, solve, verify_win
from kibitz.solver.policies import policy_for
from kibitz.solver.policies.common import CELL_DEPTH, NOT_WANTED, Digging
from kibitz.solver.search import first_pass
from kibitz.state import State


def positions(slug: str, count: int) -> list[State]:
    """Positions met along the first moves of a few deals."""
    game = kibitz.game(slug)
    found = []
    for number in range(1, 4):
        state = game.deal(number)
        for _ in range(count):
            moves = list(state.legal_moves)
            if not moves:
                break
            found.append(state)
            state = state.apply(moves[len(found) % len(moves)])
    return found


def test_digging_keeps_the_legal_non_lifting_moves_in_dig_order() -> None:
    for slug in ("cicely", "kingsdown-eights", "duchess"):
        policy = policy_for(kibitz.game(slug))
        for state in positions(slug, 30):
            attempt = Digging(policy, 0)
            moves = attempt.ordered_moves(state)
            assert set(moves) <= set(state.legal_moves)
            assert not any(m.source.startswith("f") for m in moves)
            kinds = [0 if m.target.startswith("f") else 2 if m.is_deal else 1 for m in moves]
            assert kinds == sorted(kinds)
            wanted = attempt.wanted(state)
            scores = []
            for move in moves:
                if move.target.startswith("f") or move.is_deal:
                    continue
                spec = state.game.piles[state.game.pile_index(move.source)]
                pile = state.piles[state.game.pile_index(move.source)]
                depth = next((k for k in range(len(pile)) if pile[-1 - k] & IDENTITY in wanted), NOT_WANTED)
                scores.append(CELL_DEPTH if spec.cell else depth)
            assert scores == sorted(scores)


def test_restarts_reorder_the_same_moves() -> None:
    policy = policy_for(kibitz.game("cicely"))
    differ = 0
    for state in positions("cicely", 30):
        first = Digging(policy, 0).ordered_moves(state)
        for attempt in (1, 2):
            again = Digging(policy, attempt).ordered_moves(state)
            assert sorted(again) == sorted(first)
            assert again == Digging(policy, attempt).ordered_moves(state)  # reproducible
            differ += again != first
    assert differ > 0


def test_the_first_pass_restarts_until_it_wins() -> None:
    game = kibitz.game("cicely")
    policy = policy_for(game)
    # Deal 9: the first attempts run out of their budgets, a later one wins.
    result = first_pass(game.deal(9), policy, Limits(seconds=None, nodes=30_000))
    assert result.outcome is Outcome.WON
    verify_win(game.deal(9), result.moves)
    assert policy.first_pass_budget is not None and result.nodes > 2 * policy.first_pass_budget
    again = first_pass(game.deal(9), policy, Limits(seconds=None, nodes=30_000))
    assert again.moves == result.moves and again.nodes == result.nodes


def test_node_limited_solves_are_reproducible() -> None:
    game = kibitz.game("kingsdown-eights")
    results = [solve(game.deal(3), Limits(seconds=None, nodes=20_000)) for _ in range(2)]
    assert results[0].outcome == results[1].outcome
    assert results[0].moves == results[1].moves and results[0].nodes == results[1].nodes
