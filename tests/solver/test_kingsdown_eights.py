"""Kingsdown Eights policy: each pruning rule on constructed positions, and a cross-check
against the plain exhaustive search on tiny positions."""

from __future__ import annotations

import random

import kibitz
from kibitz.notation import parse_pile
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policies.kingsdown_eights import KingsdownEightsPolicy
from kibitz.solver.policy import Policy
from kibitz.solver.search import search
from kibitz.state import State

from solver.reduce import random_position, reduce_position

GAME = kibitz.game("kingsdown-eights", "standard")
RUN = "A 2 3 4 5 6 7 8 9 T J Q K".split()


def suit_run(suit: str, length: int) -> str:
    """The first ``length`` cards of ``suit`` from the ace, as a pile text."""
    return " ".join(rank + suit for rank in RUN[:length])


def position(**piles: str) -> State:
    """A (partial) position: pile name to cards bottom to top, e.g. ``t1="5H 4S"``."""
    cards = [b""] * len(GAME.piles)
    for name, text in piles.items():
        cards[GAME.pile_index(name)] = parse_pile(text)
    return State(GAME, tuple(cards))


def test_dead_cards() -> None:
    policy = KingsdownEightsPolicy(GAME)
    two_hearts = 13 * 2 + 1
    assert policy.is_dead(0, (0, 0))  # an ace: nothing builds on it
    assert not policy.is_dead(two_hearts, (0, 5))  # a black ace is still in play
    assert policy.is_dead(two_hearts, (1, 0))  # every black ace is up
    five_hearts = 13 * 2 + 4
    assert not policy.is_dead(five_hearts, (5, 2))  # a red 3 could end a chain on it
    assert policy.is_dead(five_hearts, (5, 3))


def test_aces_go_up_at_once() -> None:
    state = position(t1="KD AS", r1="5H AH")
    move = KingsdownEightsPolicy(GAME).safe_move(state)
    assert move is not None and move.target.startswith("f") and move.source in ("t1", "r1")


def test_safe_two_needs_the_other_colour_aces() -> None:
    policy = KingsdownEightsPolicy(GAME)
    state = position(f3="AH", f1="AC", f2="AS", t1="KD 2H")
    assert policy.safe_move(state) is None  # f5 and f6 (black) are empty
    state = position(f3="AH", f1="AC", f2="AS", f5="AC", f6="AS", t1="KD 2H")
    assert str(policy.safe_move(state)) == "t1>f3"


def test_transfers_are_not_generated() -> None:
    state = position(f1=suit_run("C", 5), f5=suit_run("C", 4), t1="KD")
    assert any(str(m) == "f1>f5" for m in state.legal_moves)
    assert not any(m.source.startswith("f") and m.target.startswith("f")
                   for m in KingsdownEightsPolicy(GAME).ordered_moves(state))


def test_dead_foundation_cards_stay_up() -> None:
    policy = KingsdownEightsPolicy(GAME)
    # 2H on f3 over an empty column: with every black ace up it is dead.
    state = position(f3="AH 2H", f1="AC", f5="AC", f2="AS", f6="AS", t1="KD")
    assert any(m.source == "f3" for m in state.legal_moves)
    assert not any(m.source == "f3" for m in policy.ordered_moves(state))
    # With a black ace still in play, 2H may come down to hold it.
    state = position(f3="AH 2H", f1="AC", f2="AS", f5="AC", t1="KD", t2="AS")
    assert any(m.source == "f3" for m in policy.ordered_moves(state))


def test_one_empty_column_only() -> None:
    state = position(t1="5H", t2="9C", r1="3D")
    moves = KingsdownEightsPolicy(GAME).ordered_moves(state)
    assert [str(m) for m in moves if m.source == "r1"] == ["r1>t3"]
    assert not any(m.source == "t1" and m.target.startswith("t") for m in moves)


def tiny_positions(count: int, keep: int, seed: str) -> list[State]:
    rng = random.Random(seed)
    return [reduce_position(random_position(GAME, rng, 60), keep, rng) for _ in range(count)]


def test_cross_check_on_tiny_positions() -> None:
    """The policy agrees with the plain search wherever that finishes."""
    seen: set[Outcome] = set()
    compared = 0
    for state in tiny_positions(40, 6, "kingsdown tiny"):
        plain = search(state, Policy(GAME), Limits(seconds=None, nodes=20_000))
        if not plain.is_decided:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=200_000))
        assert tuned.outcome is plain.outcome, str(state)
        seen.add(plain.outcome)
        compared += 1
    assert compared >= 10
    assert Outcome.WON in seen


def test_a_deal_proved_lost() -> None:
    # Deal 3931: no card of the layout can move (no ace, no build), and after the two deals
    # only a handful of moves remain before nothing moves at all. Both the game's policy and
    # the plain search (no shortcuts) must prove it lost; it was the first loss a study found.
    game = kibitz.game("kingsdown-eights")
    state = game.deal(3931)
    assert [str(m) for m in state.legal_moves] == ["deal"]
    assert solve(state, Limits(seconds=10)).outcome is Outcome.LOST
    plain = search(state, Policy(game), Limits(seconds=10))
    assert plain.outcome is Outcome.LOST
