"""The terminal player's assists: ``hint`` and ``chance`` see only what the player sees,
``analysis`` (and ``hint --peek``) asks the solver and says so, and a random deal's number
is shown when its game ends."""

from __future__ import annotations

import io
import random
import re

import kibitz
from kibitz.history import History
from kibitz.tui import PlaySession
from kibitz.cards import SUITS
from tests.agents.positions import differently_hidden, random_positions
from tests.test_tui import build, down, run_lines, up


def session_at(state: kibitz.State, number: int | None = 1, chosen: bool = True) -> tuple[PlaySession, io.StringIO]:
    output = io.StringIO()
    return PlaySession(History(state, number), output, chosen=chosen), output


def test_hint_and_chance_answer_the_same_whatever_the_hidden_cards() -> None:
    rng = random.Random(4)
    state, shuffled = next((state, shuffled) for state, *_ in random_positions(kibitz.game("cicely"), (2, 3), (9,))
                           if not state.is_over() and (shuffled := differently_hidden(state, rng)) is not None)
    answers = []
    for start in (state, shuffled):
        session, output = session_at(start)
        session.seed_text = "same seeds"
        answers.append(run_lines(session, output, "hint", "hint", "chance"))
    assert answers[0] == answers[1]
    first, again, chance = answers[0].splitlines()[:3]
    assert first == again   # asking again gives the same move
    move = re.match(r"hint: (\S+) ", first)
    assert move and move[1] in [str(m) for m in state.legal_moves]
    assert first.endswith("(a strong player who sees only what you see)")
    assert re.fullmatch(r"chance to win from here: (about \d{1,3}% \((\d+%-\d+%, )?from \d+ sampled deals"
                        r"(, \d+ undecided)?\)|not sure.*)", chance)
    assert "upper bound of your chance" in answers[0]


def test_analysis_asks_the_solver_says_so_and_marks_the_game_assisted() -> None:
    home = {f"f{k + 1}": up(suit, "K") for k, suit in enumerate(SUITS)}
    home |= {f"f{k + 5}": down(suit, "A") for k, suit in enumerate(SUITS)}
    home["f5"] = down("C", "3")
    session, output = session_at(build("tournament", round=3, s="", t1="AC 2C", **home), None)
    assert not session.assisted
    said = run_lines(session, output, "hint --peek")
    assert said.startswith("solver (sees every card): the game can still be won; try t1>f5")
    assert "assisted" in said and session.assisted
    assert run_lines(session, output, "analysis").startswith("solver (sees every card)")
    assert "(assisted: the solver, which sees every card, was asked)!" in run_lines(session, output, "t1>f5", "t1>f5")
    assert "hint: the game is won." in run_lines(session, output, "hint")
    assert "chance: the game is won." in run_lines(session, output, "chance")
    session.handle("new 5")
    assert not session.assisted
    assert "hint: 'sideways'?" in run_lines(session, output, "hint sideways")


def test_the_commands_are_in_the_help() -> None:
    session, output = session_at(kibitz.game("duchess").deal(3), 3)
    text = run_lines(session, output, "help")
    for command in ("hint ", "chance ", "analysis ", "hint --peek"):
        assert command in text


def test_a_random_deal_shows_its_number_only_when_the_game_ends() -> None:
    number = 987654321
    rng = random.Random(2)
    session, output = session_at(kibitz.game("tournament").deal(number), number, chosen=False)
    session.introduce()
    said = ""
    while not session.state.is_over():
        assert str(number) not in output.getvalue()
        said = run_lines(session, output, str(rng.choice(session.state.legal_moves)))
    assert f"deal #{number}" in said   # the last move ends the game: the number shows
    assert "a random deal" in output.getvalue()

    session, output = session_at(kibitz.game("tournament").deal(number), number, chosen=False)
    run_lines(session, output, str(session.state.legal_moves[0]))
    assert str(number) not in output.getvalue()
    assert f"The game left was deal #{number}." in run_lines(session, output, "new")
    assert not session.chosen
    left = session.history.deal_number
    assert f"To play this deal again: kibitz play tournament --deal {left}" in run_lines(session, output, "quit")

    session, output = session_at(kibitz.game("tournament").deal(42), 42)
    session.introduce()
    assert "deal #42" in output.getvalue()   # a deal chosen by number shows it at once
