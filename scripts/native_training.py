"""The runs a profile-guided build of the native kernel is optimized for (``scripts/build_native``).

A profile-guided build compiles the kernel with counters, runs this script on it, and
compiles it again with the counts: the compiler then lays out, inlines and predicts the
code as these runs used it. Code that no run here reaches is compiled as rarely used, so
the script covers what users run: the solver of every game under both rulesets (node
limits, including a long Kingsdown Eights solve, whose first pass changes course after
2,000,000 nodes), and the library's ``legal_moves`` and ``apply`` over random games.

The deals are the side-by-side benchmark's (``benchmarks/native_builds.py``) and the first
few of each game; the deals the speed and winnability figures are measured on are others.
It runs for a few seconds on the counting build.

    .venv/bin/python scripts/native_training.py
"""

from __future__ import annotations

import random
import sys
import time

import kibitz
from kibitz import native
from kibitz.registry import games
from kibitz.rules import RULESETS, Game
from kibitz.solver import Limits, solve

SOLVES: dict[str, tuple[tuple[int, ...], int]] = {
    "duchess": ((143, 10378), 150_000),
    "cicely": ((88, 296), 60_000),
    "tournament": ((164, 10315), 150_000),
    "napoleons-flank": ((1, 2), 60_000),
    "grand-duchess": ((1, 2), 40_000),
    "parisienne": ((1, 2), 40_000),
    "kingsdown-eights": ((20021, 20116), 200_000),
}
"""For each game: the deals solved under each ruleset and the node limit of each solve."""
LONG_SOLVE = ("kingsdown-eights", 20083, 2_500_000)
"""One solve past the point where the Kingsdown Eights first pass grows its budgets faster
and looks at its end games (2,000,000 nodes)."""
PLAY_OUTS = 12
"""Random games played through the library for each game and ruleset."""


def play_outs(game: Game, rng: random.Random) -> int:
    """Random games from the first deals, through ``legal_moves`` and ``apply``; the moves made."""
    made = 0
    for deal in range(1, PLAY_OUTS + 1):
        state = game.deal(deal)
        for _ in range(300):
            moves = state.legal_moves
            if not moves:
                break
            state = state.apply(rng.choice(list(moves)))
            made += 1
    return made


def main() -> int:
    if not native.ACTIVE:
        print(f"native_training: the native kernel is not in use ({native.STATUS})", file=sys.stderr)
        return 1
    started = time.monotonic()
    rng = random.Random(0)
    slugs = [info.slug for info in games()]
    missing = sorted(set(slugs) - set(SOLVES))
    if missing:
        print(f"native_training: no training solves for {', '.join(missing)}", file=sys.stderr)
        return 1
    nodes = moves = 0
    for slug in slugs:
        deals, limit = SOLVES[slug]
        for ruleset in RULESETS:
            game = kibitz.game(slug, ruleset)
            for deal in deals:
                nodes += solve(game.deal(deal), Limits(nodes=limit)).nodes
            moves += play_outs(game, rng)
    slug, deal, limit = LONG_SOLVE
    nodes += solve(kibitz.game(slug).deal(deal), Limits(nodes=limit)).nodes
    print(f"native_training: {nodes:,} nodes solved and {moves:,} moves played in "
          f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
