"""``kibitz hint``: an agent's move for a position, the solver's with ``--peek``, one-line errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import kibitz
from kibitz.agents import STUDY, agent, observe
from kibitz.cli import main
from kibitz.notation import format_state
from kibitz.solver import Limits, Outcome, solve

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(["hint", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def answer(capsys: Capture, *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0 and err == "", err
    data: dict[str, object] = json.loads(out)
    return data


def test_the_json_answer_is_the_agents_move(capsys: Capture) -> None:
    state = kibitz.game("duchess").deal(1).apply("r2>f1")
    data = answer(capsys, "duchess", "1", "--moves", "r2>f1", "--setting", "study", "--seed", "3")
    expected = agent("strong", STUDY).decide(observe(state, [kibitz.parse_move("r2>f1")]), random.Random(3))
    assert data["move"] == str(expected.move)
    assert data["peek"] is False and data["agent"] == "strong" and data["seed"] == 3
    assert data["deal"] == 1 and data["moves_played"] == 1 and data["game"] == "duchess"
    assert data["samples"] == expected.samples and data["searches"] == expected.searches
    assert data["setting"] == STUDY.as_dict() and data["setting"]["name"] == "study"
    assert [c["move"] for c in data["considered"]] == [str(m) for m, _ in expected.scores]  # type: ignore[attr-defined]


def test_a_state_and_a_deal_number_give_the_same_answer(capsys: Capture) -> None:
    state = kibitz.game("cicely", "pysolfc").deal(7)
    by_number = answer(capsys, "cicely", "7", "--ruleset", "pysolfc", "--agent", "greedy", "--seed", "2")
    by_state = answer(capsys, "Cicely", "--state", format_state(state), "--agent", "greedy", "--seed", "2")
    assert by_number.pop("deal") == 7 and by_state.pop("deal") is None
    assert by_number == by_state
    assert by_number["move"] == str(agent("greedy").choose(observe(state), random.Random(2)))


def test_the_text_answer_names_the_move_and_the_agent(capsys: Capture) -> None:
    code, out, err = run(capsys, "tournament", "5", "--agent", "greedy", "--seed", "1")
    move = agent("greedy").choose(observe(kibitz.game("tournament").deal(5)), random.Random(1))
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"Tournament, deal #5 (standard rules): {move}"
    assert "greedy agent, seed 1" in out and "considered (greedy evaluation)" in out


def test_peek_asks_the_solver_and_says_so(capsys: Capture) -> None:
    state = kibitz.game("parisienne").deal(4)
    data = answer(capsys, "parisienne", "4", "--peek")
    result = solve(state, Limits(seconds=None, nodes=200_000))
    assert data["peek"] is True and data["agent"] == "solver"
    assert data["outcome"] == result.outcome.value
    assert data["move"] == (str(result.moves[0]) if result.outcome is Outcome.WON else None)
    code, out, _ = run(capsys, "parisienne", "4", "--peek")
    assert code == 0 and "sees every card (peek)" in out


def test_a_finished_game_has_no_move(capsys: Capture) -> None:
    state = kibitz.game("tournament").deal(1)
    moves = []
    while state.legal_moves:
        moves.append(state.legal_moves[0])
        state = state.apply(moves[-1])
    data = answer(capsys, "tournament", "1", "--moves", " ".join(map(str, moves)))
    assert data["move"] is None and data["reason"] == "no legal move is left"


@pytest.mark.parametrize("argv, message", [
    (["solitaire", "1"], "unknown game 'solitaire'"),
    (["duchess"], "give either a deal NUMBER or --state STATE"),
    (["duchess", "1", "--state", "x"], "give either a deal NUMBER or --state STATE"),
    (["duchess", "--state", "duchess standard round=1"], "state:"),
    (["duchess", "--state", "cicely standard round=1 base=- s="], "state:"),
    (["duchess", "0"], "deal number"),
    (["duchess", "1", "--ruleset", "classic"], "unknown ruleset 'classic'"),
    (["duchess", "1", "--moves", "r2>f1 t1>t9"], "--moves: move 2 ('t1>t9')"),
    (["duchess", "1", "--moves", "deal"], "--moves: move 1 ('deal')"),
    (["duchess", "1", "--seed", "1" * 40], "argument --seed"),
    (["duchess", "1", "--seed", "-1"], "argument --seed"),
    (["duchess", "1", "--agent", "oracle"], "argument --agent"),
])
def test_bad_input_gets_one_line_and_no_traceback(capsys: Capture, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_state_of_another_game_or_ruleset_is_refused(capsys: Capture) -> None:
    text = format_state(kibitz.game("cicely").deal(1))
    code, _, err = run(capsys, "duchess", "--state", text)
    assert code == 2 and "a position of Cicely, not of Duchess" in err
    code, _, err = run(capsys, "cicely", "--state", text, "--ruleset", "pysolfc")
    assert code == 2 and "standard ruleset" in err


def test_the_command_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "kibitz", "hint", "grand-duchess", "2", "--agent", "greedy",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["move"] in [str(m) for m in kibitz.game("grand-duchess").deal(2).legal_moves]


def test_the_command_line_starts_without_the_solver() -> None:
    program = "import sys, kibitz.cli; print(sorted(m for m in sys.modules if m.startswith('kibitz.')))"
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert "kibitz.analysis.commands" in loaded
    assert "kibitz.solver" not in loaded and "kibitz.agents.strong" not in loaded
