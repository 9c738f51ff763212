"""Intervals of shares measured by sampling: the one place their arithmetic lives."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1); (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def sign_test(more: int, fewer: int) -> float:
    """The one-sided p-value of ``more`` successes against ``fewer`` in paired comparisons
    with no true difference: the chance of at least ``more`` heads in ``more + fewer`` tosses
    of a fair coin."""
    trials = more + fewer
    return sum(math.comb(trials, k) for k in range(more, trials + 1)) / 2 ** trials if trials else 1.0
