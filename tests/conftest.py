"""Shared fixtures: the project's test data folder and every (game, ruleset) pair."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The suite tests the Python sources; tests/solver/test_compiled.py compares a compiled
# build (scripts/compile) with them. Set before kibitz is first imported.
os.environ["KIBITZ_PURE_PYTHON"] = "1"

import kibitz  # noqa: E402

DATA = Path(__file__).parent / "data"
GAME_SLUGS = [info.slug for info in kibitz.games()]
GAMES_AND_RULESETS = [(slug, ruleset) for slug in GAME_SLUGS for ruleset in kibitz.RULESETS]


@pytest.fixture(params=GAMES_AND_RULESETS, ids=[f"{s}-{r}" for s, r in GAMES_AND_RULESETS])
def any_game(request: pytest.FixtureRequest) -> kibitz.Game:
    """Each registered game in each ruleset."""
    slug, ruleset = request.param
    return kibitz.game(slug, ruleset)
