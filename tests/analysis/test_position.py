"""The analysis layer answers every question about a position, in every game and ruleset: the
fair hint and chance from the player's observation only, the solver's answer seeing every card."""

from __future__ import annotations

import pytest

import kibitz
from kibitz.agents import Observation, Setting
from kibitz.analysis import fair_chance, fair_hint, observation_of, solver_answer
from kibitz.solver import Outcome
from tests.analysis.test_review import random_line

CHEAP = Setting("test", samples=4, least=4, nodes=200)


def test_every_question_is_answered_in_every_game(any_game: kibitz.Game) -> None:
    start, moves = random_line(any_game, 11, 6)
    states = [start]
    for move in moves:
        states.append(states[-1].apply(move))
    if states[-1].is_over():
        pytest.skip("the random game ended")
    observation = observation_of(states, moves)
    assert observation.played == tuple(moves) and len(observation.earlier) == len(moves)
    hint = fair_hint(observation, seed=3, setting=CHEAP)
    assert hint.move in states[-1].legal_moves and hint.agent == "strong"
    assert fair_hint(observation, seed=3, setting=CHEAP) == hint   # the same seed, the same hint
    chance = fair_chance(observation, seed=3, setting=CHEAP)
    assert chance.samples == CHEAP.samples and chance == fair_chance(observation, seed=3, setting=CHEAP)
    answer = solver_answer(states[-1], nodes=5_000)
    assert answer.nodes == 5_000
    assert (answer.move is not None) == (answer.outcome is Outcome.WON)
    assert answer.winnable is {Outcome.WON: True, Outcome.LOST: False, Outcome.UNKNOWN: None}[answer.outcome]


def test_fair_questions_take_an_observation_never_a_state() -> None:
    state = kibitz.game("duchess").deal(2)
    with pytest.raises(TypeError, match="Observation"):
        fair_chance(state, seed=1, setting=CHEAP)   # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Observation"):
        fair_hint(state, seed=1, setting=CHEAP)   # type: ignore[arg-type]
    assert isinstance(observation_of([state], []), Observation)
