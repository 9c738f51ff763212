"""The deal the tests take when they need a search that runs until it is stopped."""

from __future__ import annotations

HARD_DEAL = 20083
"""A Kingsdown Eights deal that no build decides in a few seconds: solver versions 13 and 14
leave it undecided after 12 million positions natively (about 21-23 s). The tests of time limits,
clocks and interruptions solve it; when a solver version wins it quickly, those tests would
race their limits, so choose another deal here (version 13 wins 24841, the deal before, in
67,614 positions)."""
