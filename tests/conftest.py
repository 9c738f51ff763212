"""Shared fixtures: the project's test data folder and every (game, ruleset) pair."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Iterator

import pytest

# The suite tests the Python sources; tests/solver/test_compiled.py compares a compiled
# build (scripts/compile) with them. Set before kibitz is first imported.
os.environ["KIBITZ_PURE_PYTHON"] = "1"

# A suite started in the background of a shell without job control inherits SIGINT ignored,
# and so would every process it starts; the tests of Ctrl-C need it delivered as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import kibitz  # noqa: E402

DATA = Path(__file__).parent / "data"
GAME_SLUGS = [info.slug for info in kibitz.games()]
GAMES_AND_RULESETS = [(slug, ruleset) for slug in GAME_SLUGS for ruleset in kibitz.RULESETS]


@pytest.fixture(params=GAMES_AND_RULESETS, ids=[f"{s}-{r}" for s, r in GAMES_AND_RULESETS])
def any_game(request: pytest.FixtureRequest) -> kibitz.Game:
    """Each registered game in each ruleset."""
    slug, ruleset = request.param
    return kibitz.game(slug, ruleset)


BUILDS = ["python", "native"]
"""The builds of the rules: pure Python (the reference) and the native kernel."""


@pytest.fixture(scope="module", params=BUILDS)
def build(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a test module once on each build of the rules (every registered game switched),
    the native one skipped where it is not built; pure Python again afterwards."""
    from kibitz import native
    if request.param == "native" and native.load() is None:
        pytest.skip(f"the native kernel is {native.problem()}")
    native.use(request.param)
    yield request.param
    native.use("python")
