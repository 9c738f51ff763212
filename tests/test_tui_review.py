"""The terminal player's review: after a game (seeing every card) and during one (the fair
part only, unless asked to peek: then assisted), ``goto N`` and the session's statistics."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import kibitz
import kibitz.analysis.position
from kibitz.agents import Chance
from kibitz.history import History
from kibitz.tui import PlaySession
from tests.test_tui import run_lines

REVIEWS = Path(__file__).parent / "data" / "reviews"


def new_session(slug: str = "tournament", number: int = 22) -> tuple[PlaySession, io.StringIO]:
    output = io.StringIO()
    return PlaySession(History.new(kibitz.game(slug), number), output), output


def test_the_review_of_a_finished_game_sees_every_card_and_goto_shows_a_move() -> None:
    session, output = new_session()
    said = " ".join(run_lines(session, output, f"load {REVIEWS / 'parisienne-21.kibitz'}", "review").split())
    assert "You won deal #21" in said
    assert "Review of deal #21 (standard rules): 139 moves, won." in said and "100% |" in said
    assert "Seeing every card (the solver): the deal could be won from its opening; the game was won" in said
    assert not session.assisted   # the game had ended: its deal is no secret
    again = run_lines(session, output, "review")
    assert "Reviewing" not in again and "Review of deal #21" in again   # kept: the second look is instant
    table = run_lines(session, output, "goto 5")
    assert table.startswith("The table after 5 moves") and "Played next: " in table
    assert "the strong player's move: " in table and "chance before it: about" in table
    assert "goto: give a move number from 0 to 139" in run_lines(session, output, "goto 200")
    stats = run_lines(session, output, "stats")
    assert "Parisienne (standard): 1 game, 1 won; 1 reviewed: accuracy 100 on average, 0.0 blunders a game, " \
        "0 games you could have won" in stats


def test_the_review_during_a_game_is_fair_unless_asked_to_peek() -> None:
    session, output = new_session()
    assert "review: no move played yet." in run_lines(session, output, "review")
    moves = [str(move) for move in kibitz.game("tournament").deal(22).legal_moves[:1]]
    said = run_lines(session, output, *moves, "review")
    assert "Review of deal #22" in said and "Seeing every card" not in said and not session.assisted
    peeked = run_lines(session, output, "review --peek")
    assert "This game is now assisted" in peeked and "Seeing every card (the solver)" in peeked
    assert session.assisted
    assert "review: 'twice'?" in run_lines(session, output, "review twice")


def test_the_terminal_never_counts_an_undecided_deal_as_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kibitz.analysis.position, "fair_chance", lambda observation, seed: Chance(0, 0, 40))
    session, output = new_session()
    said = run_lines(session, output, "chance")
    assert "not sure (none of the 40 sampled deals was decided)" in said and "0%" not in said
    monkeypatch.setattr(kibitz.analysis.position, "fair_chance", lambda observation, seed: Chance(10, 2, 28))
    said = run_lines(session, output, "chance")
    assert "between 25% and 95%" in said and "28 of 40 sampled deals undecided" in said


def test_a_game_given_up_counts_in_the_statistics() -> None:
    session, output = new_session()
    assert "no game of this session has ended yet" in run_lines(session, output, "stats")
    move = str(kibitz.game("tournament").deal(22).legal_moves[0])
    run_lines(session, output, move, "new 5")
    assert "Tournament (standard): 1 game, 0 won" in run_lines(session, output, "stats")
