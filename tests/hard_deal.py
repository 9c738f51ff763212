"""The deal the tests take when they need a search that runs until it is stopped."""

from __future__ import annotations

HARD_DEAL = 24841
"""A Kingsdown Eights deal that no build decides in a few seconds: solver version 12 leaves
it undecided after 20 s natively (3.96 million positions in the first 10 s). The tests of
time limits, clocks and interruptions solve it; when a solver version wins it quickly, those
tests would race their limits, so choose another deal here."""
