"""The review of a game: fair before every move, never an undecided deal counted as lost, a
forced move never labelled, the same review for the same record, seed and build."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.agents import Chance
from kibitz.analysis import FinalChance, MoveReview, review_events, review_game, sure_share
from kibitz.analysis.budgets import REVIEW
from kibitz.analysis.grading import Cost, cost_of, game_accuracy, move_accuracy
from kibitz.analysis.review import positions
from kibitz.analysis.text import chance_words, chart, report
from kibitz.solver import Outcome
from tests.analysis.shuffles import unseen_shuffled

CHEAP = REVIEW.but(samples=6, least=6, nodes=300)
"""A review small enough for every game in pure Python."""


def random_line(game: kibitz.Game, number: int, length: int) -> tuple[kibitz.State, list[kibitz.Move]]:
    """A deal and up to ``length`` moves of seeded random play from its opening."""
    start = state = game.deal(number)
    rng = random.Random(number)
    moves: list[kibitz.Move] = []
    while len(moves) < length and state.legal_moves:
        move = rng.choice(state.legal_moves)
        moves.append(move)
        state = state.apply(move)
    return start, moves


def test_the_review_judges_every_move_of_every_game(any_game: kibitz.Game) -> None:
    start, moves = random_line(any_game, 4, 12)
    done = review_game(start, moves, seed=1, deal=4, setting=CHEAP)
    assert [entry.move for entry in done.entries] == moves and done.final is not None and done.complete
    states = positions(start, moves)
    for entry, state in zip(done.entries, states):
        assert entry.chance.samples == CHEAP.samples
        assert entry.best in state.legal_moves and entry.move in state.legal_moves
        assert entry.forced == (len(state.legal_moves) == 1)
        assert entry.played_after.samples == entry.best_after.samples == CHEAP.samples
        if entry.best == entry.move:
            assert entry.cost.share == 0 and not entry.label
        assert 0 <= entry.accuracy <= 100
    data = done.as_dict()
    assert len(data["moves"]) == len(moves)   # type: ignore[arg-type]
    assert data["no_return"] is None and data["winnable_at_start"] is None   # the fair part only
    assert 0 <= data["accuracy"] <= 100   # type: ignore[operator]


def test_an_undecided_deal_is_never_counted_as_lost() -> None:
    game = kibitz.game("kingsdown-eights")   # its deals need far more than 30 nodes
    start, moves = random_line(game, 5, 3)
    done = review_game(start, moves, seed=2, setting=CHEAP.but(nodes=30))
    first = done.entries[0]
    assert first.chance.unknown > 0 and first.chance.lost == 0
    assert sure_share(first.chance) is None or first.chance.unknown * 2 <= first.chance.samples
    data = first.as_dict()
    assert data["before"]["unknown"] == first.chance.unknown   # type: ignore[index]
    if first.chance.won == 0:
        assert data["chance"] is None   # not sure, never 0%
    words = chance_words(Chance(0, 0, 6))
    assert "not sure" in words and "0%" not in words
    assert "between 17% and 100%" in chance_words(Chance(1, 0, 5))
    assert chance_words(Chance(3, 1, 0)).startswith("about 75%")


def test_the_chance_before_a_move_uses_only_what_the_player_had_seen(any_game: kibitz.Game) -> None:
    rng = random.Random(8)
    start, moves = random_line(any_game, 7, 4)
    k = len(moves) - 1
    shuffled = unseen_shuffled(start, moves, k, rng)
    if shuffled is None:
        pytest.skip("every card was seen by then")
    assert [state.view() for state in positions(shuffled, moves[:k])] == \
        [state.view() for state in positions(start, moves[:k])]   # the same tables, the same moves legal
    first = review_game(start, moves[:k + 1], seed=5, setting=CHEAP)
    second = review_game(shuffled, moves[:k + 1], seed=5, setting=CHEAP)
    for a, b in zip(first.entries, second.entries):
        assert (a.chance, a.best, a.played_after, a.best_after, a.label) == \
            (b.chance, b.best, b.played_after, b.best_after, b.label)


def test_the_same_record_seed_and_build_give_the_same_review() -> None:
    start, moves = random_line(kibitz.game("tournament"), 9, 15)
    once = review_game(start, moves, seed=3, setting=CHEAP).as_dict()
    assert review_game(start, moves, seed=3, setting=CHEAP).as_dict() == once
    events = list(review_events(start, moves, 3, setting=CHEAP, threads=1))
    assert [e.as_dict() for e in events if isinstance(e, MoveReview)] == once["moves"]
    assert isinstance(events[-1], FinalChance)
    later = list(review_events(start, moves, 3, setting=CHEAP, skip=5))
    assert later == events[5:]   # a review taken up again gives the same figures from there


def test_a_forced_move_is_never_labelled() -> None:
    cost = Cost(kept_by_best=24, kept_by_played=0, undecided=0, samples=24)
    assert cost.label == "blunder" and cost.clear
    entry = MoveReview(0, kibitz.DEAL, True, Chance(24, 0, 0), kibitz.DEAL, "the only legal move",
                       Chance(0, 24, 0), Chance(24, 0, 0), cost)
    assert entry.label == "" and entry.accuracy == 100
    game = kibitz.game("grand-duchess")   # its first moves deal the stock: forced
    start, moves = random_line(game, 2, 8)
    done = review_game(start, moves, seed=1, setting=CHEAP)
    forced = [entry for entry in done.entries if entry.forced]
    assert forced and all(entry.label == "" for entry in forced)


def test_the_labels_need_a_clear_cost() -> None:
    W, L, U = Outcome.WON, Outcome.LOST, Outcome.UNKNOWN
    assert cost_of([W] * 24, [W] * 24).label == ""
    assert cost_of([W] * 24, [W] * 16 + [L] * 8).label == "blunder"      # 8 of 24: a third
    assert cost_of([W] * 24, [W] * 19 + [L] * 5).label == "mistake"      # 5 of 24
    assert cost_of([W] * 24, [W] * 21 + [L] * 3).label == ""             # 3 pairs: noise
    noisy = cost_of([W] * 12 + [L] * 12, [L] * 12 + [W] * 12)
    assert noisy.share == 0 and noisy.label == ""
    undecided = cost_of([W] * 24, [W] * 16 + [U] * 8)
    assert undecided.share == 0 and undecided.label == ""   # undecided after the move is not a loss
    assert move_accuracy(cost_of([W] * 24, [W] * 12 + [L] * 12), 24) == 50
    assert move_accuracy(cost_of([W] * 24, [W] * 21 + [L] * 3), 24) == 100   # not clear
    assert game_accuracy([100.0] * 99 + [50.0]) == 50   # one blunder is not hidden by easy moves


def test_the_report_shows_the_chart_and_the_labelled_moves() -> None:
    start, moves = random_line(kibitz.game("parisienne"), 3, 20)
    done = review_game(start, moves, seed=2, deal=3, setting=CHEAP)
    text = report(done, positions(start, moves))
    assert text.startswith("Review of deal #3") and "100% |" in text and "Accuracy:" in text and "Luck:" in text
    assert chart([1.0, None, 0.0], marks={2: "X"}) == ["100% |█?_|", "     |  X|", "     moves 1-3"]
    assert chart([0.5]) == ["100% |▄|", "     | |", "     move 1"]
    assert chart([1.0] * 20)[2] == "     move 1" + " " * 12 + "20"   # under the first and the last column
