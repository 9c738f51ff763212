"""Fair play: positions that look the same to the player get the same answers, whatever their
hidden cards are, from every agent (through the library and through ``kibitz hint``)."""

from __future__ import annotations

import json
import random

import pytest

import kibitz
from kibitz.agents import AGENTS, Setting, agent, chance, observe
from kibitz.cli import main
from kibitz.notation import format_state
from tests.agents.positions import differently_hidden, random_positions

CHEAP = Setting("test", samples=3, nodes=150, candidates=2)
"""A small search: the answers are reproducible under a node budget, whatever its size."""
SEEDS = {"random": (0, 11, 12), "greedy": (0, 11, 12), "strong": (11,)}


def test_a_shuffle_changes_the_hidden_cards_and_nothing_the_player_sees(any_game: kibitz.Game) -> None:
    rng = random.Random(5)
    changed = 0
    for state, _, _ in random_positions(any_game):
        shuffled = differently_hidden(state, rng)
        if shuffled is None:
            continue
        changed += 1
        assert shuffled.view() == state.view()
        assert shuffled.legal_moves == state.legal_moves
    assert changed >= 3


def test_every_agent_answers_the_same_whatever_the_hidden_cards(any_game: kibitz.Game) -> None:
    rng = random.Random(7)
    compared = 0
    for state, played, earlier in random_positions(any_game):
        if state.is_over():
            continue
        shuffled = differently_hidden(state, rng)
        if shuffled is None:
            continue
        compared += 1
        for name in AGENTS:
            player = agent(name, CHEAP)
            for seed in SEEDS[name]:
                for told in ((), played):  # with the moves played and the views seen, or without
                    past = earlier if told else []
                    truth = player.decide(observe(state, told, past), random.Random(seed))
                    other = player.decide(observe(shuffled, told, past), random.Random(seed))
                    assert truth == other, (name, seed, format_state(state))
        assert (chance(observe(state, played), random.Random(2), CHEAP)
                == chance(observe(shuffled, played), random.Random(2), CHEAP))
    assert compared >= 3


def hint_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(["hint", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    answer: dict[str, object] = json.loads(out)
    return answer


def test_the_hint_command_answers_the_same_whatever_the_hidden_cards(
        any_game: kibitz.Game, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(3)
    state, shuffled = next((state, shuffled) for state, _, _ in random_positions(any_game, (4, 5, 6), (12, 6))
                           if not state.is_over() and (shuffled := differently_hidden(state, rng)) is not None)
    for name in AGENTS:
        options = ["--agent", name, "--seed", "5", "--setting", "study"]
        truth = hint_json(capsys, any_game.slug, "--state", format_state(state), *options)
        other = hint_json(capsys, any_game.slug, "--state", format_state(shuffled), *options)
        assert truth == other
        assert truth["move"] in [str(move) for move in state.legal_moves]
