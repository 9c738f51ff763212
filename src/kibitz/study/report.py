"""The winnability table: per game and ruleset, with 95% intervals and time per deal."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable

from kibitz.study.store import Row

Z95 = 1.959963984540054


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


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Line:
    """One line of the table."""

    game: str
    ruleset: str
    solver_version: int
    rules_version: int
    deals: int
    won: int
    lost: int
    unknown: int
    winnability: float | None
    interval: tuple[float, float]
    conservative: tuple[float, float]
    median: float
    p90: float
    p99: float
    max: float

    @property
    def decided(self) -> int:
        return self.won + self.lost


def summarize(rows: Iterable[Row]) -> list[Line]:
    """One :class:`Line` per game, ruleset, solver version and rules version."""
    groups: dict[tuple[str, str, int, int], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.game, row.ruleset, row.solver_version, row.rules_version), []).append(row)
    lines = []
    for (game, ruleset, solver_version, rules_version), group in sorted(groups.items()):
        won = sum(r.outcome == "won" for r in group)
        lost = sum(r.outcome == "lost" for r in group)
        unknown = len(group) - won - lost
        decided = won + lost
        times = [r.seconds for r in group]
        low, _ = wilson(won, len(group))
        _, high = wilson(won + unknown, len(group))
        lines.append(Line(game, ruleset, solver_version, rules_version, len(group), won, lost, unknown,
                          won / decided if decided else None, wilson(won, decided), (low, high),
                          statistics.median(times), percentile(times, 0.9), percentile(times, 0.99),
                          max(times)))
    return lines


def format_table(lines: list[Line]) -> str:
    """The table as Markdown (readable in a terminal too)."""
    header = ("| game | ruleset | deals | won | lost | unknown | winnable | 95% interval (decided) "
              "| conservative 95% (unknown as won or lost) | median ms | p90 ms | p99 ms | max ms |")
    rule = "|" + "---|" * 13
    out = [header, rule]
    for line in lines:
        rate = "n/a" if line.winnability is None else f"{line.winnability:.2%}"
        out.append(f"| {line.game} | {line.ruleset} | {line.deals:,} | {line.won:,} | {line.lost:,} | "
                   f"{line.unknown:,} | {rate} | {line.interval[0]:.2%} - {line.interval[1]:.2%} | "
                   f"{line.conservative[0]:.2%} - {line.conservative[1]:.2%} | {line.median * 1000:,.0f} | "
                   f"{line.p90 * 1000:,.0f} | {line.p99 * 1000:,.0f} | {line.max * 1000:,.0f} |")
    return "\n".join(out)
