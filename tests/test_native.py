"""The native kernel of the rules (``kibitz.native``, the crate in ``native/``).

Every registered game has a complete native spec (a rule without a counterpart is named,
never skipped in silence); the kernel answers as the Python rules do, move for move and
state for state; and kibitz falls back to pure Python when the kernel is missing or turned
off. The conformance suite and the PySolFC transcripts also run on both builds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

import kibitz
from kibitz import DEAL, IllegalMoveError, Move, State, native
from kibitz.counterparts import MissingCounterpart, TopCards, counterpart
from kibitz.piles import PileKind
from kibitz.rules import Game, Unit, deal_while_stock_lasts
from kibitz.solver import Limits, solve
from kibitz.solver.policies import policy_for

from conftest import GAMES_AND_RULESETS

needs_native = pytest.mark.skipif(native.load() is None, reason="the native kernel is not built")


@pytest.fixture
def both(request: pytest.FixtureRequest) -> Iterator[None]:
    """Leaves every game in pure Python after a test that switches builds."""
    yield
    native.use("python")


# -- complete specs ---------------------------------------------------------------------------------

def test_every_game_has_a_complete_native_spec(any_game: Game) -> None:
    """No silent fallback: every rule a registered game uses has a native counterpart
    (``spec_of`` raises naming the first rule that has none)."""
    spec = native.spec_of(any_game)
    assert spec["sources"] and spec["targets"] and spec["stock_click"]
    assert len(spec["kinds"]) == len(any_game.piles)  # type: ignore[arg-type]


def top_tableau_cards(game: Game, state: State, units: list[Unit]) -> None:
    """A source rule declared without a native counterpart."""
    for i in game.tableau:
        pile = state.piles[i]
        if pile:
            units.append((i, 1, -1, pile[-1]))


def test_a_rule_without_a_counterpart_is_named_and_its_game_runs_in_python() -> None:
    cicely = kibitz.game("cicely")
    custom = Game(cicely.info, "standard", cicely.rules.but(sources=(top_tableau_cards,)))
    with pytest.raises(MissingCounterpart,
                       match=r"cicely \(standard\): the source rule test_native.top_tableau_cards has no native"):
        native.spec_of(custom)
    assert native.kernel_for(custom, force=True) is None
    assert "top_tableau_cards" in native.PYTHON_GAMES["cicely/standard"]
    assert custom.kernel is None and native.build_of(custom) == "python"
    assert custom.deal(1).legal_moves  # the Python rules run it
    counterpart(top_tableau_cards, TopCards((PileKind.TABLEAU,)))  # now it has one
    assert native.spec_of(custom)["sources"] == [{"TopCards": {"piles": list(custom.tableau)}}]


def test_a_helper_without_a_counterpart_is_named() -> None:
    def deal_one_each(game: Game, piles: list[bytes]) -> None:
        """A deal helper declared without a native counterpart."""

    cicely = kibitz.game("cicely")
    custom = Game(cicely.info, "standard", cicely.rules.but(deal=deal_while_stock_lasts(deal_one_each)))
    with pytest.raises(MissingCounterpart, match=r"stock-click rule test_native.deal_one_each has no native"):
        native.spec_of(custom)


# -- the same answers -------------------------------------------------------------------------------

def alike_groups(game: Game) -> list[tuple[frozenset[int], ...]]:
    """Groupings of interchangeable piles as the solver's policies pass them, and others."""
    reserve, tableau = frozenset(game.reserve), frozenset(game.tableau)
    return [(), (reserve,), (tableau,), (reserve, tableau), (tableau | reserve,)]


def playout_states(game: Game, seed: int, steps: int) -> Iterator[State]:
    """States of a seeded random play-out (in whichever build is on)."""
    rng = random.Random(seed)
    state = game.deal(seed)
    for _ in range(steps):
        yield state
        moves = state.legal_moves
        if not moves:
            return
        state = state.apply(moves[rng.randrange(len(moves))])


@needs_native
@pytest.mark.parametrize("slug,ruleset", GAMES_AND_RULESETS)
def test_the_kernel_answers_as_the_python_rules(slug: str, ruleset: str) -> None:
    python = kibitz.game(slug, ruleset)
    assert python.kernel is None  # the suite runs on the Python rules; the kernel is asked directly
    kernel = native.kernel_for(python, force=True)
    assert kernel is not None and kernel.making == "slots"
    groupings = alike_groups(python)
    for seed in (1, 2, 3):
        for k, state in enumerate(playout_states(python, seed, 160)):
            for alike in groupings[:1] if k % 4 else groupings:
                expected = python.generate_moves(state, alike)
                assert kernel.generate_moves(state, alike) == expected, (str(state), alike)
            legal = python.generate_moves(state)
            assert kernel.count_moves(state) == len(legal)
            assert kernel.is_won(state) == python.is_won(state)
            for move in legal:
                after = python.apply_unchecked(state, move)
                native_after = kernel.apply_unchecked(state, move)
                assert native_after == after and native_after.key == after.key and hash(native_after) == hash(after)
                assert type(native_after) is State and native_after.game is python
                # Unchanged piles are the very bytes objects of the state before.
                assert sum(a is b for a, b in zip(native_after.piles, state.piles)) >= len(state.piles) - 16
                assert kernel.apply(state, move) == after
            illegal = Move("t1", "t2", 9)
            assert kernel.apply(state, illegal) is None


@needs_native
def test_moves_made_elsewhere_and_illegal_moves(both: None) -> None:
    native.use("native")
    game = kibitz.game("duchess")
    state = game.deal(1)
    typed = Move.parse(str(state.legal_moves[0]))  # an equal move, not the shared object
    assert typed == state.legal_moves[0] and typed is not state.legal_moves[0]
    assert game.apply_unchecked(state, typed) == state.apply(state.legal_moves[0])
    assert state.apply(str(typed)) == game.apply_unchecked(state, typed)
    with pytest.raises(IllegalMoveError) as refused:
        state.apply("t1>t2")
    native.use("python")
    with pytest.raises(IllegalMoveError) as refused_in_python:
        kibitz.game("duchess").deal(1).apply("t1>t2")
    assert str(refused.value) == str(refused_in_python.value)
    native.use("native")
    assert DEAL not in state.legal_moves  # no deal before the base rank is chosen
    with pytest.raises(AssertionError, match="deal applied where it is not legal"):
        game.apply_unchecked(state, DEAL)


@needs_native
def test_node_limited_solves_are_identical_on_both_builds(both: None) -> None:
    """The solver over the native rules (``alike`` groups included) searches exactly as over
    the Python rules."""
    cases = [("duchess", 2, 1500), ("cicely", 9, 1500), ("kingsdown-eights", 1, 1500),
             ("tournament", 1, 1500), ("grand-duchess", 3, 1500), ("parisienne", 7, 800)]
    results = {}
    for build in ("python", "native"):
        native.use(build)  # type: ignore[arg-type]
        assert {native.build_of(kibitz.game(slug)) for slug, _, _ in cases} == {build}
        results[build] = [{k: v for k, v in solve(kibitz.game(slug).deal(n), Limits(seconds=None, nodes=nodes))
                           .as_dict().items() if k != "seconds"} for slug, n, nodes in cases]
    assert results["native"] == results["python"]
    assert {row["outcome"] for row in results["python"]} >= {"won", "unknown"}


@needs_native
def test_a_bad_spec_is_refused() -> None:
    module = native.load()
    assert module is not None
    game = kibitz.game("cicely")
    spec = native.spec_of(game)
    with pytest.raises(ValueError, match="missing field"):
        module.Kernel("{}", game, State, DEAL)
    spec["stock"] = 40
    with pytest.raises(ValueError, match="pile index 40 out of range"):
        module.Kernel(json.dumps(spec), game, State, DEAL)
    # Move generation lists the piles that want a card once each, in the target rules' order:
    # a pile that two of those rules name, or a card a build table names twice, is refused.
    def builds_on(spec: dict[str, Any]) -> dict[str, Any]:
        """The spec's first `BuildsOn` target rule."""
        return next(target["BuildsOn"] for target in spec["targets"] if isinstance(target, dict) and "BuildsOn" in target)

    spec = native.spec_of(game)
    foundation = spec["foundations"][0]["pile"]
    builds_on(spec)["piles"].append(foundation)
    with pytest.raises(ValueError, match=f"pile {foundation} is named twice by the target rules that want cards"):
        module.Kernel(json.dumps(spec), game, State, DEAL)
    spec = native.spec_of(game)
    build = builds_on(spec)["build"]
    build[0] = [*build[0], build[0][0]]
    with pytest.raises(ValueError, match="names card .* twice for one card"):
        module.Kernel(json.dumps(spec), game, State, DEAL)


# -- by default, and the fallback -------------------------------------------------------------------

PROBE = """
import json, sys
if sys.argv[1] == "absent":
    sys.modules["kibitz_native"] = None  # as if it were not installed
import kibitz
from kibitz import native
game = kibitz.game("tournament")
state = game.deal(5)
print(json.dumps({"active": native.ACTIVE, "status": native.STATUS, "build": native.build_of(game),
                  "moves": [str(m) for m in state.legal_moves], "after": str(state.apply(state.legal_moves[0]))}))
"""


def probe(how: str, **env: str) -> dict[str, object]:
    """What a new process with ``env`` (and the module ``absent`` or not) runs the rules on."""
    environment = {k: v for k, v in os.environ.items() if k not in ("KIBITZ_PURE_PYTHON", "KIBITZ_NATIVE")}
    out = subprocess.run([sys.executable, "-c", PROBE, how], env=environment | env, capture_output=True,
                         text=True, check=True).stdout
    answer: dict[str, object] = json.loads(out)
    return answer


def test_without_the_module_kibitz_runs_in_pure_python_and_says_so() -> None:
    absent = probe("absent")
    assert absent["active"] is False and absent["build"] == "python"
    assert str(absent["status"]).startswith("off: not built") and "cargo" in str(absent["status"])
    state = kibitz.game("tournament").deal(5)
    assert absent["moves"] == [str(m) for m in state.legal_moves]
    assert absent["after"] == str(state.apply(state.legal_moves[0]))


def test_the_environment_turns_the_kernel_off() -> None:
    assert probe("present", KIBITZ_PURE_PYTHON="1")["status"] == "off: KIBITZ_PURE_PYTHON is set"
    off = probe("present", KIBITZ_NATIVE="0")
    assert off["status"] == "off: KIBITZ_NATIVE=0" and off["build"] == "python"


@needs_native
def test_the_kernel_is_on_by_default_with_the_same_answers() -> None:
    on = probe("present")
    assert on["active"] is True and on["build"] == "native" and str(on["status"]).startswith("on:")
    assert {k: v for k, v in on.items() if k in ("moves", "after")} == \
        {k: v for k, v in probe("absent").items() if k in ("moves", "after")}


def test_solve_json_says_which_build_ran() -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("KIBITZ_PURE_PYTHON", "KIBITZ_NATIVE")}
    command = [sys.executable, "-m", "kibitz", "solve", "parisienne", "7", "--json", "--timeout", "20"]
    for env, build in (({"KIBITZ_NATIVE": "0"}, "python"), ({}, "native" if native.load() else "python")):
        row = json.loads(subprocess.run(command, env=environment | env, capture_output=True, text=True,
                                        check=True).stdout)
        assert row["build"] == build and row["outcome"] == "won"


def test_the_profile_guided_build_is_trained_on_every_game() -> None:
    """Code the training runs never reach is compiled as rarely used: every game is solved."""
    path = Path(__file__).resolve().parents[1] / "scripts" / "native_training.py"
    spec = importlib.util.spec_from_file_location("native_training", path)
    assert spec is not None and spec.loader is not None
    training = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(training)
    assert set(training.SOLVES) == {info.slug for info in kibitz.games()}
    long_game, _, long_limit = training.LONG_SOLVE
    policy = policy_for(kibitz.game(long_game))
    settings = policy.first_pass_settings
    assert long_limit > max(settings.late_growth_from, settings.look_from) > 0
