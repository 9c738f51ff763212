"""Cicely policy: each pruning rule on constructed positions, and a cross-check against the
plain exhaustive search on tiny positions."""

from __future__ import annotations

import random

import kibitz
from kibitz.notation import parse_pile
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policies.cicely import CicelyPolicy
from kibitz.solver.policy import Policy
from kibitz.solver.search import search
from kibitz.state import State

from solver.reduce import random_position, reduce_position

GAME = kibitz.game("cicely", "standard")
RUN = "A 2 3 4 5 6 7 8 9 T J Q K".split()


def position(**piles: str) -> State:
    """A (partial) position: pile name to cards bottom to top, e.g. ``t1="5H 4H"``."""
    cards = [b""] * len(GAME.piles)
    for name, text in piles.items():
        cards[GAME.pile_index(name)] = parse_pile(text)
    return State(GAME, tuple(cards))


def test_one_empty_cell_and_no_cell_to_cell() -> None:
    state = position(t1="5H", r1="9C", t2="KD")
    moves = [str(m) for m in CicelyPolicy(GAME).ordered_moves(state)]
    assert [m for m in moves if m.startswith("t1>r")] == ["t1>r2"]
    assert not any(m.startswith("r1>r") for m in moves)


def test_empty_columns_alike_only_without_stock() -> None:
    policy = CicelyPolicy(GAME)
    state = position(t1="5H", r1="9C")
    moves = [str(m) for m in policy.ordered_moves(state)]
    assert [m for m in moves if m.startswith("r1>t")] == ["r1>t2"]
    assert not any(m.startswith("t1>t") for m in moves)
    dealing = position(s="kd", t1="5H", r1="9C")
    moves = [str(m) for m in policy.ordered_moves(dealing)]
    assert len([m for m in moves if m.startswith("r1>t")]) == 7
    assert moves[-1] == "deal"


def test_complete_suit_stays_up() -> None:
    up = " ".join(rank + "S" for rank in RUN)
    down = " ".join(rank + "S" for rank in reversed(RUN))
    state = position(f2=up, f6=down, t1="5H")
    assert any(m.source in ("f2", "f6") for m in state.legal_moves)
    assert not any(m.source in ("f2", "f6") for m in CicelyPolicy(GAME).ordered_moves(state))


def test_foundation_moves_first_lifts_last() -> None:
    state = position(f1="AC", t1="2C", t2="5H", r1="9D")
    moves = [str(m) for m in CicelyPolicy(GAME).ordered_moves(state)]
    assert moves[0] == "t1>f1"
    assert moves[-1].startswith("f1>")


def test_cross_check_on_tiny_positions() -> None:
    """The policy agrees with the plain search wherever that finishes."""
    rng = random.Random("cicely tiny")
    seen: set[Outcome] = set()
    compared = 0
    for _ in range(30):
        state = reduce_position(random_position(GAME, rng, 60), 5, rng)
        plain = search(state, Policy(GAME), Limits(seconds=None, nodes=20_000))
        if not plain.is_decided:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=200_000))
        assert tuned.outcome is plain.outcome, str(state)
        seen.add(plain.outcome)
        compared += 1
    assert compared >= 10
    assert Outcome.WON in seen
