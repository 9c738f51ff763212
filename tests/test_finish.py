"""Finishing a game whose end is certain: every card seen, and the foundations alone take the rest."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.autoplay import finishing_moves
from kibitz.notation import parse_state
from kibitz.solver import Limits, Outcome, solve
from kibitz.state import State

from conftest import GAMES_AND_RULESETS


def has_hidden_card(state: State) -> bool:
    return any(card is None for pile in state.view().piles for card in pile)


def test_a_solved_grand_duchess_deal_finishes_near_its_end() -> None:
    game = kibitz.game("grand-duchess")
    result = solve(game.deal(1), Limits(seconds=5))
    assert result.outcome is Outcome.WON
    line = [game.deal(1)]
    for move in result.moves:
        line.append(line[-1].apply(move))
    certain = [k for k, state in enumerate(line[:-1]) if finishing_moves(state) is not None]
    assert certain and certain[0] > len(line) // 2  # not while cards are still hidden
    assert all(has_hidden_card(state) for state in line[:certain[0]] if state.pile("s"))
    state = line[certain[0]]
    moves = finishing_moves(state)
    assert moves is not None and not has_hidden_card(state)
    assert all(m.target.startswith("f") and not m.source.startswith("f") for m in moves)
    for move in moves:
        state = state.apply(move)
    assert state.is_won() and len(moves) == game.total_cards - sum(len(line[certain[0]].pile(f"f{k}"))
                                                                   for k in range(1, 9))
    assert finishing_moves(line[-1]) == ()


def late_position(slug: str, **piles: str) -> State:
    """A position of round 3 (no redeal left) with an empty stock: every foundation complete
    unless given, and the piles given (codes bottom to top, space-separated)."""
    game = kibitz.game(slug)
    home = {f"f{k + 1}": " ".join(rank + suit for rank in "A23456789TJQK") for k, suit in enumerate("CSHD")}
    home |= {f"f{k + 5}": " ".join(rank + suit for rank in "KQJT98765432A") for k, suit in enumerate("CSHD")}
    cards = home | piles
    fields = " ".join(f"{name}={','.join(cards.get(name, '').split())}" for name in game.pile_names())
    return parse_state(f"{slug} standard round=3 base=- {fields}")


def test_hidden_cards_make_no_end_certain() -> None:
    opening = kibitz.game("grand-duchess").deal(1)
    assert has_hidden_card(opening) and finishing_moves(opening) is None
    # Every other card is home; the last two lie in a column, the 2C on the AC.
    clubs_down = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"
    squared = late_position("napoleons-flank", f5=clubs_down, t1="AC 2C")
    assert has_hidden_card(squared) and finishing_moves(squared) is None  # a squared column hides the AC
    fanned = late_position("tournament", f5=clubs_down, t1="AC 2C")
    assert not has_hidden_card(fanned)
    assert [str(m) for m in finishing_moves(fanned) or ()] == ["t1>f5", "t1>f5"]


def test_an_end_that_needs_more_than_the_foundations_is_not_certain() -> None:
    # f1 waits for the 3C, which lies under the other clubs: only a cell would free it.
    buried = late_position("tournament", f1="AC 2C", t1="3C KC QC JC TC 9C 8C 7C 6C 5C 4C")
    assert not has_hidden_card(buried) and buried.legal_moves
    assert finishing_moves(buried) is None
    in_a_cell = late_position("tournament", f1="AC 2C", r1="3C", t1="KC QC JC TC 9C 8C 7C 6C 5C 4C")
    moves = finishing_moves(in_a_cell)
    assert moves is not None and [str(m) for m in moves[:2]] == ["r1>f1", "t1>f1"] and len(moves) == 11


@pytest.mark.parametrize(("slug", "ruleset"), GAMES_AND_RULESETS)
def test_finishing_moves_only_when_nothing_is_hidden_and_they_win(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    rng = random.Random(slug + ruleset)
    for seed in range(1, 4):
        state = game.deal(seed)
        for _ in range(400):
            moves = finishing_moves(state)
            if has_hidden_card(state):
                assert moves is None
            elif moves is not None:
                end = state
                for move in moves:
                    assert move in end.legal_moves and move.target.startswith("f")
                    end = end.apply(move)
                assert end.is_won()
            legal = state.legal_moves
            if not legal:
                break
            home = [m for m in legal if m.target.startswith("f")]
            state = state.apply(rng.choice(home) if home and rng.random() < 0.7 else rng.choice(legal))
