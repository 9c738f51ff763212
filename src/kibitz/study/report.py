"""The winnability table: per game and ruleset, with 95% intervals and time per deal; and the
odds table: per game, ruleset and agent, the win rate of a player who sees only the table,
beside the thoughtful winnability.

A decided deal stays decided: a win is a line replayed through the rules and a loss is an
exhaustive proof, whichever solver version found it. So by default each deal counts once,
with the verdict of any solver version that decided it (the newest such row gives its
time), and unknown only when no version decided it. ``by_version`` keeps the versions apart.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Mapping, Protocol, TypeVar

from kibitz.intervals import wilson
from kibitz.study.loss_check import Check
from kibitz.study.store import Play, Row

def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Loss:
    """A deal proved lost, and how: every proof of loss is a search that tried every line of
    play from the deal (the game's policy pruning it only where its sound rules allow) and
    found no win."""

    deal: int
    positions: int
    """Distinct positions the proving search met."""
    solver_version: int

    def reason(self) -> str:
        return (f"every line of play tried, none wins ({self.positions:,} positions; "
                f"solver version {self.solver_version})")


@dataclass(frozen=True)
class Line:
    """One line of the table."""

    game: str
    ruleset: str
    solver_versions: tuple[int, ...]
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
    limits: tuple[float, ...] = ()
    """The time limits (seconds) of the rows counted."""
    conflicts: int = 0
    """Deals won by one solver version and proved lost by another (a solver bug); counted as unknown."""
    losses: tuple[Loss, ...] = ()
    """The deals proved lost, in deal order."""
    same_rules: tuple[str, ...] = ()
    """The other rulesets of the game with the same rules: the line counts their results too
    and stands for them."""
    clocks: tuple[str, ...] = ()
    """What the time limits of the rows counted counted: ``cpu``, ``wall`` or both."""

    @property
    def limits_text(self) -> str:
        """The time limits, with their clock unless every one is wall-clock (``10 (cpu)``)."""
        text = ", ".join(f"{t:g}" for t in self.limits)
        return text if self.clocks in ((), ("wall",)) else f"{text} ({' and '.join(self.clocks)})"

    @property
    def rulesets(self) -> str:
        """The ruleset, and any with the same rules (``standard = pysolfc``)."""
        return joined_rulesets(self.ruleset, self.same_rules)

    @property
    def decided(self) -> int:
        return self.won + self.lost

    def as_dict(self) -> dict[str, object]:
        """The line as JSON data, each loss with its reason."""
        losses = [{"deal": loss.deal, "positions": loss.positions, "solver_version": loss.solver_version,
                   "reason": loss.reason()} for loss in self.losses]
        return self.__dict__ | {"decided": self.decided, "losses": losses}


CONFLICTING = "conflicting verdicts"
"""The reason :func:`verdicts` gives a deal won by one row and proved lost by another."""


def verdicts(group: list[Row]) -> tuple[list[Row], int]:
    """One row per deal: a won row if any (newest version first), else a lost one, else
    the newest unknown one; and the number of deals with both won and lost rows."""
    by_deal: dict[int, list[Row]] = {}
    for row in group:
        by_deal.setdefault(row.deal, []).append(row)
    chosen = []
    conflicts = 0
    for rows in by_deal.values():
        if len(rows) == 1:  # most deals: one row, chosen as it is
            chosen.append(rows[0])
            continue
        rows.sort(key=lambda r: (r.solver_version, r.timeout or 0.0), reverse=True)
        won = [r for r in rows if r.outcome == "won"]
        lost = [r for r in rows if r.outcome == "lost"]
        if won and lost:
            conflicts += 1
            chosen.append(replace(won[0], outcome="unknown", reason=CONFLICTING))
        else:
            chosen.append((won or lost or rows)[0])
    return chosen, conflicts


Alike = Callable[[str, str], tuple[str, ...]]
"""A game's rulesets with the rules of a given one, the first standing for all
(:func:`kibitz.registry.rulesets_alike`)."""


def line_ruleset(alike: Alike | None, game: str, ruleset: str, others: dict[tuple[str, str], tuple[str, ...]]) -> str:
    """The ruleset whose line counts a result of ``game`` under ``ruleset``: the first of
    its rulesets with the same rules, the rest noted in ``others``; ``ruleset`` itself
    without ``alike``."""
    if alike is None:
        return ruleset
    first, *rest = alike(game, ruleset)
    others[game, first] = tuple(rest)
    return first


class OfRuleset(Protocol):
    """A row of one game and ruleset: a result or a played deal."""

    @property
    def game(self) -> str: ...

    @property
    def ruleset(self) -> str: ...


Counted = TypeVar("Counted", bound=OfRuleset)


def line_rulesets(alike: Alike | None, rows: Iterable[Counted], others: dict[tuple[str, str], tuple[str, ...]]
                  ) -> Iterator[tuple[Counted, str]]:
    """Each row with the ruleset whose line counts it (:func:`line_ruleset`, asked once per
    game and ruleset)."""
    found: dict[tuple[str, str], str] = {}
    for row in rows:
        ruleset = found.get((row.game, row.ruleset))
        if ruleset is None:
            ruleset = found[row.game, row.ruleset] = line_ruleset(alike, row.game, row.ruleset, others)
        yield row, ruleset


def joined_rulesets(ruleset: str, same_rules: tuple[str, ...]) -> str:
    """A line's ruleset, and any with the same rules (``standard = pysolfc``)."""
    return " = ".join((ruleset, *same_rules))


def summarize(rows: Iterable[Row], *, by_version: bool = False, alike: Alike | None = None) -> list[Line]:
    """One :class:`Line` per game, ruleset and rules version (and solver version, with
    ``by_version``); see the module docstring for how versions are merged. With ``alike``,
    rulesets with the same rules share one line, under the first of them."""
    groups: dict[tuple[str, str, int, int], list[Row]] = {}
    others: dict[tuple[str, str], tuple[str, ...]] = {}
    for row, ruleset in line_rulesets(alike, rows, others):
        version = row.solver_version if by_version else 0
        groups.setdefault((row.game, ruleset, row.rules_version, version), []).append(row)
    lines = []
    for (game, ruleset, rules_version, _), group in sorted(groups.items()):
        versions = tuple(sorted({r.solver_version for r in group}))
        group, conflicts = verdicts(group)
        won = sum(r.outcome == "won" for r in group)
        lost = sum(r.outcome == "lost" for r in group)
        unknown = len(group) - won - lost
        decided = won + lost
        times = [r.seconds for r in group]
        low, _ = wilson(won, len(group))
        _, high = wilson(won + unknown, len(group))
        limits = tuple(sorted({r.timeout for r in group if r.timeout is not None}))
        lines.append(Line(game, ruleset, versions, rules_version, len(group), won, lost, unknown,
                          won / decided if decided else None, wilson(won, decided), (low, high),
                          statistics.median(times), percentile(times, 0.9), percentile(times, 0.99),
                          max(times), limits, conflicts,
                          tuple(Loss(r.deal, r.states, r.solver_version)
                                for r in sorted(group, key=lambda r: r.deal) if r.outcome == "lost"),
                          others.get((game, ruleset), ()),
                          tuple(sorted({r.clock for r in group if r.timeout is not None}))))
    return lines


def check_words(check: Check | None) -> str:
    """What the independent check (:mod:`kibitz.study.loss_check`) said of a proved loss."""
    if check is None:
        return "the independent check: not run yet"
    if check.verdict == "lost":
        return f"the independent check: lost too ({check.positions:,} positions, every one reachable)"
    if check.verdict == "won":
        return (f"the independent check: WON, a winning position is reachable ({check.positions:,} positions "
                "visited): the solver's proof is wrong, please report it")
    return f"the independent check: not confirmed within its limit of {check.limit:,} positions"


def format_table(lines: list[Line], checks: Mapping[tuple[str, str, int], Check] | None = None) -> str:
    """The table as Markdown (readable in a terminal too); with ``checks``, each proved loss
    with the independent check's verdict too."""
    header = ("| game | ruleset | deals | won | lost | unknown | winnable | 95% interval (decided) "
              "| conservative 95% (unknown as won or lost) | median ms | p90 ms | p99 ms | max ms "
              "| solver | limit s |")
    rule = "|" + "---|" * 15
    out = [header, rule]
    for line in lines:
        rate = "n/a" if line.winnability is None else f"{line.winnability:.2%}"
        out.append(f"| {line.game} | {line.rulesets} | {line.deals:,} | {line.won:,} | {line.lost:,} | "
                   f"{line.unknown:,} | {rate} | {line.interval[0]:.2%} - {line.interval[1]:.2%} | "
                   f"{line.conservative[0]:.2%} - {line.conservative[1]:.2%} | {line.median * 1000:,.0f} | "
                   f"{line.p90 * 1000:,.0f} | {line.p99 * 1000:,.0f} | {line.max * 1000:,.0f} | "
                   f"{'+'.join(map(str, line.solver_versions))} | {line.limits_text} |")
    for line in lines:
        if line.conflicts:
            out.append(f"\n{line.game} ({line.ruleset}): {line.conflicts:,} deals won by one solver version and "
                       "proved lost by another, counted as unknown: a solver bug, please report it.")
    shared = [line for line in lines if line.same_rules]
    if shared:
        names = ", ".join(f"{line.game} ({line.rulesets})" for line in shared)
        out.append(f"\nOne line stands for rulesets with the same rules: {names}; "
                   "each deal is solved once and counted once.")
    if any(line.losses for line in lines):
        out.append("\nDeals proved lost, and why:\n")
        out.extend(f"- {line.game} ({line.rulesets}) deal {loss.deal}: {loss.reason()}"
                   + ("" if checks is None else f"; {check_words(checks.get((line.game, line.ruleset, loss.deal)))}")
                   for line in lines for loss in line.losses)
    return "\n".join(out)


def format_speeds(records: Iterable[tuple[object, ...]], *,
                  label: Callable[[str, str], str] | None = None,
                  order: Callable[[str, str], tuple[object, ...]] | None = None) -> str:
    """The machine's speed over the study runs (:data:`~kibitz.study.store.SPEED_COLUMNS`
    records), per game, ruleset, solver version and build: the lowest and highest measure,
    how many and on which days; empty without records. ``label`` names a game and ruleset
    (``game (ruleset)`` without it) and ``order`` sorts them (by name without it)."""
    groups: dict[tuple[str, str, int, str], list[tuple[float, str]]] = {}
    for game, ruleset, _, nodes, seconds, build, solver_version, recorded in records:
        rate = float(nodes) / float(seconds) if float(seconds) > 0 else 0.0  # type: ignore[arg-type]
        key = (str(game), str(ruleset), int(solver_version), str(build))  # type: ignore[call-overload]
        groups.setdefault(key, []).append((rate, str(recorded)[:10]))
    if not groups:
        return ""
    out = ["Machine speed during the runs, in million nodes per processor second on a fixed workload "
           "(kibitz.study.speed), measured at the start and end of each run:", ""]

    def sort_key(key: tuple[str, str, int, str]) -> tuple[object, ...]:
        return (*(order(key[0], key[1]) if order else ()), *key)

    for game, ruleset, version, build in sorted(groups, key=sort_key):
        measures = groups[game, ruleset, version, build]
        rates = [rate / 1e6 for rate, _ in measures]
        days = sorted({day for _, day in measures})
        when = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"
        name = label(game, ruleset) if label else f"{game} ({ruleset})"
        out.append(f"- {name}, solver version {version}, {build} rules: "
                   f"{min(rates):.2f} to {max(rates):.2f} over {len(rates):,} "
                   f"measure{'' if len(rates) == 1 else 's'}, {when}")
    return "\n".join(out)


TABLE_BEGIN = "<!-- begin kibitz report: written by 'kibitz report --markdown FILE' -->"
"""The line after which a document holds the table that ``kibitz report --markdown FILE`` writes."""
TABLE_END = "<!-- end kibitz report -->"
"""The line before which that table ends."""


def embed_table(document: str, table: str) -> str:
    """``document`` with the text between its :data:`TABLE_BEGIN` and :data:`TABLE_END` lines
    replaced by ``table`` (the rest kept byte for byte); :class:`ValueError` unless the document
    has each marker line exactly once, the beginning first."""
    lines = document.splitlines(keepends=True)
    begins = [index for index, line in enumerate(lines) if line.strip() == TABLE_BEGIN]
    ends = [index for index, line in enumerate(lines) if line.strip() == TABLE_END]
    place = f"the table goes between a line {TABLE_BEGIN} and a line {TABLE_END}"
    if len(begins) != 1 or len(ends) != 1:
        raise ValueError(f"{place}, each once; found the first {len(begins)} times and the second {len(ends)} times")
    if ends[0] < begins[0]:
        raise ValueError(f"{place}, in that order; the second comes first")
    newline = "\r\n" if lines[begins[0]].endswith("\r\n") else "\n"
    body = newline.join(table.splitlines()) + newline
    return "".join(lines[:begins[0] + 1]) + body + "".join(lines[ends[0]:])


# -- the odds ------------------------------------------------------------------------

@dataclass(frozen=True)
class OddsLine:
    """One line of the odds table: one agent (with its setting and versions) in one game and ruleset."""

    game: str
    ruleset: str
    agent: str
    setting: str
    agent_version: int
    solver_version: int
    rules_version: int
    games: int
    deals: int
    """Distinct deals among the games (fewer than ``games`` when several seeds were played)."""
    seeds: tuple[int, ...]
    won: int
    rate: float
    interval: tuple[float, float]
    cpu_seconds: float
    """Mean processor seconds per game."""
    cpu_median: float
    moves: float
    """Mean moves per game."""
    endings: tuple[tuple[str, int], ...]
    """How the games ended, most frequent first."""
    winnability: Line | None = None
    """The study's line for the same game, ruleset and rules version, if the results file has one."""
    same_rules: tuple[str, ...] = ()
    """The other rulesets of the game with the same rules: the line counts their games too."""

    @property
    def rulesets(self) -> str:
        """The ruleset, and any with the same rules (``standard = pysolfc``)."""
        return joined_rulesets(self.ruleset, self.same_rules)

    def as_dict(self) -> dict[str, object]:
        data = {key: value for key, value in self.__dict__.items() if key != "winnability"}
        study = self.winnability
        data["thoughtful"] = None if study is None else {
            "deals": study.deals, "won": study.won, "lost": study.lost, "unknown": study.unknown,
            "winnability": study.winnability, "interval": study.interval, "conservative": study.conservative,
            "solver_versions": study.solver_versions}
        return data


def summarize_odds(plays: Iterable[Play], studies: Iterable[Line] = (), *,
                   alike: Alike | None = None) -> list[OddsLine]:
    """One :class:`OddsLine` per game, ruleset, agent, setting and versions, each beside the
    study line (thoughtful winnability) of its game, ruleset and rules version among ``studies``.
    With ``alike``, rulesets with the same rules share one line, under the first of them."""
    groups: dict[tuple[str, str, str, str, int, int, int], list[Play]] = {}
    others: dict[tuple[str, str], tuple[str, ...]] = {}
    seen: set[tuple[object, ...]] = set()
    for play, ruleset in line_rulesets(alike, plays, others):
        key = (play.game, ruleset, play.agent, play.setting, play.agent_version, play.solver_version,
               play.rules_version)
        if (*key, play.seed, play.deal) in seen:
            continue  # the same game played under two rulesets with the same rules: counted once
        seen.add((*key, play.seed, play.deal))
        groups.setdefault(key, []).append(play)
    thoughtful = {(line.game, ruleset, line.rules_version): line
                  for line in studies for ruleset in (line.ruleset, *line.same_rules)}
    lines = []
    for key, group in sorted(groups.items()):
        game, ruleset, agent, setting, agent_version, solver_version, rules_version = key
        won = sum(play.won for play in group)
        seconds = [play.cpu_seconds for play in group]
        endings: dict[str, int] = {}
        for play in group:
            endings[play.ending] = endings.get(play.ending, 0) + 1
        lines.append(OddsLine(
            game, ruleset, agent, setting, agent_version, solver_version, rules_version, len(group),
            len({play.deal for play in group}), tuple(sorted({play.seed for play in group})), won,
            won / len(group), wilson(won, len(group)), statistics.fmean(seconds), statistics.median(seconds),
            statistics.fmean(play.moves for play in group),
            tuple(sorted(endings.items(), key=lambda item: (-item[1], item[0]))),
            thoughtful.get((game, ruleset, rules_version)), others.get((game, ruleset), ())))
    return lines


def format_odds_table(lines: list[OddsLine], source: str = "the results file") -> str:
    """The odds table as Markdown, with a note for each game and ruleset that has no study."""
    header = ("| game | ruleset | agent | setting | deals | won | win rate | 95% interval | CPU s per game "
              "| moves per game | thoughtful winnability | its conservative 95% | study deals | versions |")
    out = [header, "|" + "---|" * 14]
    missing: list[str] = []
    for line in lines:
        study = line.winnability
        if study is None:
            thoughtful = conservative = "no study"
            counted = "-"
            name = f"{line.game} ({line.ruleset})"
            if name not in missing:
                missing.append(name)
        else:
            thoughtful = "n/a" if study.winnability is None else (
                f"{study.winnability:.2%} ({study.interval[0]:.2%} - {study.interval[1]:.2%})")
            conservative = f"{study.conservative[0]:.2%} - {study.conservative[1]:.2%}"
            counted = f"{study.deals:,}"
        games = f"{line.games:,}" if line.games == line.deals else f"{line.games:,} games of {line.deals:,}"
        versions = f"agent {line.agent_version}" + (f", solver {line.solver_version}" if line.solver_version else "")
        out.append(f"| {line.game} | {line.rulesets} | {line.agent} | {line.setting} | {games} | {line.won:,} | "
                   f"{line.rate:.2%} | {line.interval[0]:.2%} - {line.interval[1]:.2%} | {line.cpu_seconds:.3f} | "
                   f"{line.moves:,.0f} | {thoughtful} | {conservative} | {counted} | {versions} |")
    if missing:
        out.append(f"\nNo study results for {', '.join(missing)} in {source}: thoughtful winnability "
                   "is not shown there (run 'kibitz study GAME --deals RANGES' into the same file).")
    if any(line.games != line.deals for line in lines):
        out.append("\nWhere several seeds played the same deals, the rate and its interval count games, "
                   "which are then not independent: the interval is too narrow.")
    return "\n".join(out)


def latest_checks(checks: Iterable[Check]) -> dict[tuple[str, str, int], Check]:
    """The check that counts for each deal: of the newest checker version, a verdict before
    an unknown one, and the unknown one of the highest limit."""
    chosen: dict[tuple[str, str, int], Check] = {}
    for check in checks:
        key = (check.game, check.ruleset, check.deal)
        held = chosen.get(key)
        rank = (check.checker_version, check.verdict != "unknown", check.limit)
        if held is None or rank > (held.checker_version, held.verdict != "unknown", held.limit):
            chosen[key] = check
    return chosen
