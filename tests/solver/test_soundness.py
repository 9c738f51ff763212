"""The search's shortcuts are sound: on small positions its verdict equals a plain exhaustive search.

The plain search uses :class:`kibitz.solver.policy.Policy`: the exact state as key, every
legal move, no safe moves, no proofs of loss. Each game's policy must agree with it on
every position where the plain search finishes within its node budget; enough positions
must finish for the comparison to mean something.
"""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.notation import check_state, format_state
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policy import Policy
from kibitz.solver.search import search

from conftest import GAMES_AND_RULESETS
from solver.reduce import random_position, reduce_position

POSITIONS = 20
MIN_COMPARED = 8
FEW_FINISH = {("tournament", "pysolfc"), ("napoleons-flank", "pysolfc")}
"""Where an empty cell takes foundation tops, foundation cards can cycle through every
freed cell and the plain search rarely finishes even on a dozen loose cards; these
rulesets share their policy with the standard ruleset, which is compared in full."""
PLAIN_NODES = 20_000
KEEP = {"grand-duchess": 40, "parisienne": 40, "duchess": 30, "tournament": 40,
        "napoleons-flank": 40, "cicely": 6, "kingsdown-eights": 8}
"""Cards left in play, per game: small enough for the plain search to finish."""


def positions(slug: str, ruleset: str) -> list[kibitz.State]:
    game = kibitz.game(slug, ruleset)
    rng = random.Random(f"{slug}/{ruleset}")
    # Where foundation cards can go back into empty cells (pysolfc Tournament), the cells
    # stay full, or even a dozen loose cards would be too many for the plain search.
    keep_cells = slug in ("tournament", "napoleons-flank") and ruleset == "pysolfc"
    return [reduce_position(random_position(game, rng, 80), KEEP[slug], rng, keep_cells=keep_cells)
            for _ in range(POSITIONS)]


@pytest.mark.parametrize("slug,ruleset", GAMES_AND_RULESETS, ids=[f"{s}-{r}" for s, r in GAMES_AND_RULESETS])
def test_policy_agrees_with_exhaustive_search(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    compared = 0
    for state in positions(slug, ruleset):
        check_state(state)
        plain = search(state, Policy(game), Limits(seconds=None, nodes=PLAIN_NODES))
        if not plain.is_decided:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=10 * PLAIN_NODES))
        assert tuned.outcome is plain.outcome, f"{tuned.outcome} != {plain.outcome} on {format_state(state)}"
        compared += 1
    assert compared >= (1 if (slug, ruleset) in FEW_FINISH else MIN_COMPARED), f"only {compared} compared"
