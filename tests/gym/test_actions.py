"""The actions of the Gymnasium environments: a fixed enumeration that holds every legal move."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.cards import FACE_DOWN
from kibitz.gym.actions import ActionSet
from kibitz.moves import DEAL, Move


def test_every_game_declares_which_moves_it_can_allow(any_game: kibitz.Game) -> None:
    """Both rulesets share one declaration, with the game's rules (not found by its name)."""
    other = "pysolfc" if any_game.ruleset == "standard" else "standard"
    assert any_game.reach == kibitz.game(any_game.slug, other).reach
    assert any_game.reach.sources and any_game.reach.targets


def test_the_actions_are_distinct_moves_deal_first_and_shared_by_both_rulesets(any_game: kibitz.Game) -> None:
    actions = ActionSet(any_game)
    assert actions.moves[0] == DEAL
    assert len(set(actions.moves)) == len(actions) == len(actions.index)
    assert all(actions.action_of(move) == action for action, move in enumerate(actions.moves))
    names = set(any_game.pile_names())
    assert all(move.is_deal or (move.source in names and move.target in names and move.source != move.target)
               for move in actions.moves)
    other = "pysolfc" if any_game.ruleset == "standard" else "standard"
    assert ActionSet(kibitz.game(any_game.slug, other)).moves == actions.moves
    with pytest.raises(KeyError):
        actions.action_of(Move("t1", "s"))


def test_random_play_meets_no_legal_move_outside_the_actions(any_game: kibitz.Game) -> None:
    actions = ActionSet(any_game)
    met: set[Move] = set()
    for number in range(1, 9):
        state, rng = any_game.deal(number), random.Random(number)
        for _ in range(300):
            if not state.legal_moves:
                break
            missing = [move for move in state.legal_moves if move not in actions.index]
            assert missing == [], (number, str(state))
            met.update(state.legal_moves)
            state = state.apply(rng.choice(state.legal_moves))
    assert len(met) > 20


@pytest.mark.parametrize("slug", ["grand-duchess", "parisienne"])
@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_the_positions_reach_under_the_longest_reserve(slug: str, ruleset: str) -> None:
    """Dealing out the first round without playing fills the reserve most: every card under
    its top has an action of its own (and the deepest one is needed in Grand Duchess)."""
    game = kibitz.game(slug, ruleset)
    depth = kibitz.game(slug).reach.depth
    actions = ActionSet(game)
    deepest = 0
    for number in (1, 2, 3):
        state = game.deal(number)
        while state.pile("s") and state.round == 1:
            state = state.apply(DEAL)
        reserve = [state.pile(f"r{i}") for i in (1, 2)]
        deepest = max(deepest, *(len(pile) - 1 for pile in reserve))
        assert all(not card & FACE_DOWN for pile in reserve for card in pile)  # face up once the stock is empty
        assert all(Move(f"r{i}", "f1", 1, position) in actions.index
                   for i in (1, 2) for position in range(len(reserve[i - 1]) - 1))
    assert deepest == depth if slug == "grand-duchess" else deepest <= depth
