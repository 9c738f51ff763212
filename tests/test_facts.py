"""The facts each game's rules declare (``Game.facts``) hold in play: random play in either
ruleset never meets a legal move that a declared fact excludes, and meets a card leaving the
foundations wherever the rules declare that it may. (Declared foundation transfers, met in
play only once a suit's two foundations meet, just make the algorithms that read them more
careful.)"""

from __future__ import annotations

import random
from typing import Iterator

import kibitz
from kibitz.facts import Facts
from kibitz.moves import Move
from kibitz.piles import PileKind
from kibitz.state import State


def test_every_game_declares_its_facts_with_its_rules(any_game: kibitz.Game) -> None:
    assert isinstance(any_game.facts, Facts)
    assert any_game.facts is any_game.rules.facts


def moves_met_in_random_play(game: kibitz.Game) -> Iterator[tuple[State, Move, int, int]]:
    """Each legal move but the deal (with its position, source and target pile) met along
    400 random moves from each of deals 1-6."""
    for number in range(1, 7):
        state, rng = game.deal(number), random.Random(number)
        for _ in range(400):
            if not state.legal_moves:
                break
            for move in state.legal_moves:
                if not move.is_deal:
                    yield (state, move, *game.ends(move))
            state = state.apply(rng.choice(state.legal_moves))


def test_random_play_meets_no_move_a_fact_excludes(any_game: kibitz.Game) -> None:
    facts = any_game.facts
    kinds = any_game.kinds
    to_foundation = leaving = 0
    for state, move, source, target in moves_met_in_random_play(any_game):
        if kinds[source] is not PileKind.FOUNDATION:
            to_foundation += kinds[target] is PileKind.FOUNDATION
            continue
        if kinds[target] is PileKind.FOUNDATION:
            assert facts.foundation_transfers, (move, str(state))
        else:
            assert not facts.foundations_final, (move, str(state))
            leaving += 1
    assert to_foundation > 20  # the foundations were reached: the check was not empty
    assert facts.foundations_final or leaving > 0


def test_random_play_keeps_the_order_of_tableau_piles_where_declared(any_game: kibitz.Game) -> None:
    """``tableau_order_kept``: a card leaves a tableau pile of two or more only alone to a
    foundation, or with the whole pile. Where it is not declared, random play meets a move
    that breaks it (Duchess's standard rules move runs off the top of a pile)."""
    kinds = any_game.kinds
    broken = 0
    for state, move, source, target in moves_met_in_random_play(any_game):
        height = len(state.piles[source])
        if kinds[source] is PileKind.TABLEAU and height >= 2 and (
                move.position is not None and move.position < height - 1 or move.size < height) and not (
                kinds[target] is PileKind.FOUNDATION and move.size == 1 and move.position in (None, height - 1)):
            assert not any_game.facts.tableau_order_kept, (move, str(state))
            broken += 1
    if any_game.slug == "duchess" and any_game.ruleset == "standard":
        assert broken > 0


def test_the_rulesets_differ_where_their_rules_do() -> None:
    """Grand Duchess's pysolfc ruleset allows foundation transfers; Tournament's (and so
    Napoleon's Flank's) pysolfc ruleset lets a foundation's top card back into an empty cell."""
    grand_duchess = kibitz.game("grand-duchess").facts, kibitz.game("grand-duchess", "pysolfc").facts
    assert [f.foundation_transfers for f in grand_duchess] == [False, True]
    assert all(f.foundations_final for f in grand_duchess)
    assert [kibitz.game("duchess", r).facts.tableau_order_kept for r in ("standard", "pysolfc")] == [False, True]
    for slug in ("tournament", "napoleons-flank"):
        facts = kibitz.game(slug).facts, kibitz.game(slug, "pysolfc").facts
        assert [f.foundations_final for f in facts] == [True, False]
