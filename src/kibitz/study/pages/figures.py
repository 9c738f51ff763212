"""The reference pages' figures, drawn with matplotlib as SVG text: the winnable share of
each game and ruleset (docs/winnability.md), how many deals stay undecided as the time
limit grows, the fair players' win rates beside thoughtful winnability (docs/odds.md), and
the speed of each build of the rules (docs/benchmarks.md).

matplotlib is an optional dependency (``pip install 'kibitz[figures]'``), imported only when
a figure is drawn. The same data give the same SVG, byte for byte: ids come from a fixed
salt, no date is written and text stays text.
"""

from __future__ import annotations

import bisect
import csv
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kibitz.errors import KibitzError, UnknownGameError
from kibitz.files import write_atomically
from kibitz.registry import find
from kibitz.study import fields as field
from kibitz.study.report import CONFLICTING, Alike, Line, OddsLine, joined_rulesets, line_rulesets, verdicts
from kibitz.solver.search import MEMORY_LIMIT
from kibitz.study.store import Row

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH = 8.0
"""Inches: the figures fill a page's column."""
SALT = "kibitz"
"""Salts the ids of the SVG elements, which are otherwise random."""
STYLE: dict[Any, Any] = {  # keys: matplotlib.typing.RcKeyType, which older versions lack
    "svg.hashsalt": SALT,
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Bitstream Vera Sans", "Arial", "Helvetica"],
    "font.size": 9.0,
    "axes.titlesize": 11.0,
    "axes.labelsize": 9.0,
    "axes.edgecolor": "#555555",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "xtick.color": "#333333",
    "ytick.color": "#333333",
    "legend.fontsize": 8.0,
    "legend.frameon": False,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
}
"""A plain style, readable on a light page."""
COLORS = ("#1f5f99", "#d2691e", "#3a8a3a", "#8a3a8a", "#a33333", "#5f7f8f", "#8c6d1f")
"""The series' colours, in turn."""
AGENT_COLORS = {"strong": COLORS[0], "greedy": COLORS[1], "random": COLORS[2]}
AGENT_ORDER = ("strong", "greedy", "random")
THOUGHTFUL = "#222222"
"""The colour of thoughtful winnability (the solver sees every card)."""
BUILD_NAMES = {"python": "pure Python", "compiled": "compiled (mypyc)", "native": "native kernel (Rust)"}
"""The builds as ``benchmarks/core_speed.py`` names them, in words."""
NO_LEGEND = "_nolegend_"
"""The label of a series the legend names already."""
SPEED_HEADER = ("game", "ruleset", "build", "cycles_per_second")
GRID_POINTS = 60
"""Time limits at which the undecided tail is counted."""
SHORTEST_LIMIT = 0.001
"""Seconds: where the undecided tail starts."""


@dataclass(frozen=True)
class Tail:
    """The deals of one game line and how long the solver took to decide each: at a time
    limit, those decided in more time than that, and those never decided, stay undecided."""

    label: str
    deals: int
    decided_seconds: tuple[float, ...]
    """The seconds of the row that decided each decided deal, in increasing order."""
    undecided: int
    """Deals no row decided."""
    limits: tuple[float, ...]
    """The time limits (seconds) of the rows counted."""
    tried: tuple[float, ...]
    """For each undecided deal, the longest time limit (seconds) it was tried at, in
    increasing order (``inf`` for a deal whose verdicts conflict: no limit decides it)."""
    full_tables: int = 0
    """Undecided deals whose search stopped with its table full before its time limit."""
    tables: tuple[int, ...] = ()
    """The table limits (positions) that the counted rows' runs set, in increasing order."""

    def __post_init__(self) -> None:
        if self.deals != len(self.decided_seconds) + self.undecided:
            raise ValueError(f"{self.label}: {self.deals:,} deals, but {len(self.decided_seconds):,} decided "
                             f"and {self.undecided:,} undecided")
        for name, seconds in (("decided deals", self.decided_seconds), ("undecided deals' limits", self.tried)):
            if list(seconds) != sorted(seconds):
                raise ValueError(f"{self.label}: the seconds of the {name} must be in increasing order")
        if len(self.tried) != self.undecided:
            raise ValueError(f"{self.label}: {self.undecided:,} undecided deals, but {len(self.tried):,} "
                             f"limits they were tried at")

    def undecided_at(self, limit: float) -> int:
        """Deals still undecided under a time limit of ``limit`` seconds."""
        return self.deals - bisect.bisect_right(self.decided_seconds, limit)

    def untried_at(self, limit: float) -> int:
        """Of the deals undecided under ``limit`` seconds, those not tried at that limit yet
        (a pass of longer retries not finished): each was only tried at a shorter one."""
        return bisect.bisect_left(self.tried, limit)


@dataclass(frozen=True)
class BuildSpeed:
    """How fast one build of the rules plays one game and ruleset (``benchmarks/core_speed.py``)."""

    game: str
    ruleset: str
    build: str
    cycles_per_second: float
    """``state.legal_moves`` on a new state plus one ``state.apply``, per second."""


def game_name(slug: str) -> str:
    """A game's name in words (``Grand Duchess``); the slug itself when no game has it."""
    try:
        return find(slug).name
    except UnknownGameError:
        return slug


def line_label(game: str, rulesets: str) -> str:
    """A game line in words: ``Duchess (pysolfc)``, ``Cicely (standard = pysolfc)``."""
    return f"{game_name(game)} ({rulesets})"


def tails(rows: Iterable[Row], alike: Alike | None = None) -> list[Tail]:
    """One :class:`Tail` per game, ruleset and rules version, each deal counted once with the
    row that decided it as :func:`~kibitz.study.report.summarize` chooses it (a deal won by one
    solver version and proved lost by another counts as undecided). With ``alike``, rulesets
    with the same rules share one tail, as they share one line of the table."""
    groups: dict[tuple[str, str, int], list[Row]] = {}
    others: dict[tuple[str, str], tuple[str, ...]] = {}
    for row, ruleset in line_rulesets(alike, rows, others):
        groups.setdefault((row.game, ruleset, row.rules_version), []).append(row)
    versions: dict[tuple[str, str], int] = {}
    for game, ruleset, _ in groups:
        versions[game, ruleset] = versions.get((game, ruleset), 0) + 1
    found = []
    for (game, ruleset, rules_version), group in sorted(groups.items()):
        chosen, _ = verdicts(group)
        decided = sorted(row.seconds for row in chosen if row.outcome != "unknown")
        tried = sorted(tried_limit(row) for row in chosen if row.outcome == "unknown")
        label = line_label(game, joined_rulesets(ruleset, others.get((game, ruleset), ())))
        if versions[game, ruleset] > 1:
            label += f", rules version {rules_version}"
        limits = tuple(sorted({row.timeout for row in chosen if row.timeout is not None}))
        full = sum(1 for row in chosen if row.outcome == "unknown" and row.reason == MEMORY_LIMIT)
        tables = tuple(sorted({row.table_limit for row in chosen if row.table_limit is not None}))
        found.append(Tail(label, len(chosen), tuple(decided), len(chosen) - len(decided), limits, tuple(tried),
                          full, tables))
    return found


def tried_limit(row: Row) -> float:
    """The longest time limit (seconds) an undecided deal's chosen row stands for: its own
    limit (the newest, longest try), the time it took when it had none, and ``inf`` when the
    deal's verdicts conflict."""
    if row.reason == CONFLICTING:
        return math.inf
    return row.timeout if row.timeout is not None else row.seconds


# -- drawing -------------------------------------------------------------------------------

def _svg(draw: Callable[[Figure], None], height: float, title: str) -> str:
    """The SVG text of a new figure of the pages' width that ``draw`` fills, in the pages' style."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise KibitzError("drawing the figures needs matplotlib: pip install 'kibitz[figures]'") from None
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(WIDTH, height), layout="constrained")
        draw(figure)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None, "Title": title})
    return out.getvalue()


def _percent_axis(axes: Axes, low: float, high: float, label: str) -> None:
    """Percent ticks on the x axis from ``low`` to ``high`` (percent)."""
    from matplotlib.ticker import FuncFormatter
    axes.set_xlim(low, high)
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.10g}%"))
    axes.set_xlabel(label)


def _rows_axis(axes: Axes, labels: Sequence[str]) -> None:
    """One row per label, the first at the top."""
    axes.set_yticks(range(len(labels)), labels)
    axes.set_ylim(len(labels) - 0.4, -0.6)
    axes.tick_params(axis="y", length=0)
    axes.grid(False, axis="y")


def _point(axes: Axes, share: float, interval: tuple[float, float], y: float, label: str, **style: Any) -> None:
    """A share (0 to 1) at height ``y`` as a percent point with its interval as error bars."""
    rate = 100 * share
    below, above = max(0.0, rate - 100 * interval[0]), max(0.0, 100 * interval[1] - rate)  # rounding aside
    axes.errorbar(rate, y, xerr=[[below], [above]], markersize=5,
                  elinewidth=1.2, clip_on=False, label=label, **style)


def counts_text(line: Line) -> str:
    """``won W, lost L, undecided U of N``."""
    return f"won {line.won:,}, lost {line.lost:,}, undecided {line.unknown:,} of {line.deals:,}"


def winnability_figure(lines: Sequence[Line]) -> str:
    """Each line's winnable share of decided deals with its 95% interval, over its
    conservative interval (undecided deals counted as won, then as lost), as SVG text."""
    if not lines:
        raise ValueError("a winnability figure needs at least one line")
    title = "Thoughtful winnability: the winnable share of decided deals"
    ends = [100 * end for line in lines for end in (*(line.interval if line.decided else ()), *line.conservative)]
    low, high = min(ends), max(ends)
    margin = max(0.05, 0.08 * (high - low))
    left, right = max(0.0, low - margin), min(100.0, high + margin / 2)

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        _rows_axis(axes, [line_label(line.game, line.rulesets) for line in lines])
        shown = False
        for row, line in enumerate(lines):
            axes.hlines(row, 100 * line.conservative[0], 100 * line.conservative[1], color="#a9c4dd",
                        linewidth=7, label="conservative 95% interval (undecided as won or as lost)"
                        if row == 0 else NO_LEGEND)
            if line.winnability is not None:
                _point(axes, line.winnability, line.interval, row, NO_LEGEND if shown else
                       "winnable share of decided deals, 95% interval", fmt="o", color=COLORS[0], capsize=3)
                shown = True
            words = counts_text(line) if line.decided else f"no deal decided of {line.deals:,}"
            axes.text(0.01, row + 0.38, words, transform=axes.get_yaxis_transform(), fontsize=7.5,
                      color="#444444", va="bottom")
        _percent_axis(axes, left, right, "winnable share (%)" + ("; the axis does not start at 0" if left else ""))
        axes.set_title(title)
        figure.legend(loc="outside lower center", ncols=2)

    return _svg(draw, 1.6 + 0.55 * len(lines), title)


def undecided_tail_figure(tails: Sequence[Tail]) -> str:
    """For each tail, the deals left undecided as the time limit grows, on log scales, with a
    dotted line at each time limit the study ran under, as SVG text."""
    if not tails:
        raise ValueError("an undecided-tail figure needs at least one tail")
    title = "Deals the solver leaves undecided, by time limit"
    limits = sorted({limit for tail in tails for limit in tail.limits})
    longest = max([*limits, *(tail.decided_seconds[-1] for tail in tails if tail.decided_seconds), 1.0])
    grid = [SHORTEST_LIMIT * (longest / SHORTEST_LIMIT) ** (k / (GRID_POINTS - 1)) for k in range(GRID_POINTS)]
    sizes = {tail.deals for tail in tails}
    top = max(1, *(tail.deals for tail in tails))

    def draw(figure: Figure) -> None:
        from matplotlib.ticker import FuncFormatter
        axes = figure.add_subplot()
        games = list(dict.fromkeys(tail.label.partition(" (")[0] for tail in tails))
        for tail in tails:
            counts = [tail.undecided_at(limit) for limit in grid]
            game = tail.label.partition(" (")[0]
            dashed = "(pysolfc" in tail.label  # the second ruleset of a game: same colour, dashed
            axes.plot(grid, counts, drawstyle="steps-post", color=COLORS[games.index(game) % len(COLORS)],
                      linewidth=1.6, linestyle="--" if dashed else "-",
                      label=tail.label if len(sizes) == 1 else f"{tail.label}, {tail.deals:,} deals")
        for limit in limits:
            axes.axvline(limit, color="#777777", linestyle=":", linewidth=1)
            axes.text(limit, 0.99, f"{limit:g} s ", transform=axes.get_xaxis_transform(), fontsize=7.5,
                      color="#555555", va="top", ha="right")
        axes.set_xscale("log")
        axes.set_yscale("symlog", linthresh=1, linscale=0.4)
        axes.set_xlim(SHORTEST_LIMIT, longest)
        axes.set_ylim(0, top * 1.5)
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        axes.grid(True, which="major")
        axes.set_xlabel("time limit per deal, seconds (log scale)")
        axes.set_ylabel("deals left undecided" + (f" of {top:,}" if len(sizes) == 1 else "")
                        + "\n(log scale, 0 at the bottom)")
        axes.set_title(title)
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8, frameon=False)

    return _svg(draw, 6.4, title)


def odds_figure(lines: Sequence[OddsLine]) -> str:
    """Per game line, each agent's fair-play win rate with its 95% interval, beside the
    thoughtful winnability of the study (when the line has one), as SVG text."""
    if not lines:
        raise ValueError("an odds figure needs at least one line")
    title = "Fair play against thoughtful winnability"
    groups: dict[tuple[str, str], list[OddsLine]] = {}
    for line in lines:
        groups.setdefault((line.game, line.rulesets), []).append(line)
    # one series per agent and version: the strong agent's budget may differ from game to game
    keys = sorted({(line.agent, line.agent_version) for line in lines},
                  key=lambda key: (AGENT_ORDER.index(key[0]) if key[0] in AGENT_ORDER else len(AGENT_ORDER), key))
    agents = [key[0] for key in keys]
    settings = {key: {line.setting for line in lines if (line.agent, line.agent_version) == key} for key in keys}
    names = {key: (key[0] if agents.count(key[0]) == 1 else f"{key[0]} (version {key[1]})")
             + (", each game at its budget" if len(settings[key]) > 1 else "") for key in keys}
    colors = {key: AGENT_COLORS[key[0]] if key[0] in AGENT_COLORS and agents.count(key[0]) == 1
              else COLORS[index % len(COLORS)] for index, key in enumerate(keys)}
    slots = len(keys) + 1
    step = 0.8 / slots

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        _rows_axis(axes, [line_label(game, rulesets) for game, rulesets in groups])
        labelled: set[object] = set()
        for row, group in enumerate(groups.values()):
            for line in sorted(group, key=lambda line: keys.index((line.agent, line.agent_version))):
                key = (line.agent, line.agent_version)
                _point(axes, line.rate, line.interval, row + (keys.index(key) - (slots - 1) / 2) * step,
                       NO_LEGEND if key in labelled else f"{names[key]} (fair play)",
                       fmt="o", color=colors[key], capsize=2)
                labelled.add(key)
            study = next((line.winnability for line in group if line.winnability is not None), None)
            if study is None:
                continue
            y = row + (slots - 1) / 2 * step
            axes.hlines(y, 100 * study.conservative[0], 100 * study.conservative[1], color="#cccccc", linewidth=6,
                        label=NO_LEGEND if "band" in labelled else
                        "thoughtful, conservative (undecided as won or as lost)")
            labelled.add("band")
            if study.winnability is not None:
                _point(axes, study.winnability, study.interval, y, NO_LEGEND if "study" in labelled else
                       "thoughtful winnability (sees every card)", fmt="D", color=THOUGHTFUL, capsize=2)
                labelled.add("study")
        _percent_axis(axes, 0, 100, "share of deals won (%); bars: 95% intervals")
        axes.set_title(title)
        figure.legend(loc="outside lower center", ncols=2)

    return _svg(draw, 1.8 + 0.12 * (slots + 1) * len(groups), title)


def builds_figure(speeds: Sequence[BuildSpeed]) -> str:
    """Per game and ruleset, a bar per build of its rate of legal-move generation plus apply,
    on a log scale, as SVG text."""
    if not speeds:
        raise ValueError("a builds figure needs at least one measure")
    title = "The rules' speed by build: random play-outs, one core"
    groups: dict[tuple[str, str], dict[str, float]] = {}
    for speed in speeds:
        groups.setdefault((speed.game, speed.ruleset), {})[speed.build] = speed.cycles_per_second
    builds = [*(b for b in BUILD_NAMES if any(s.build == b for s in speeds)),
              *sorted({s.build for s in speeds} - set(BUILD_NAMES))]
    step = 0.8 / len(builds)
    rates = [speed.cycles_per_second for speed in speeds]

    def draw(figure: Figure) -> None:
        from matplotlib.ticker import FuncFormatter
        axes = figure.add_subplot()
        _rows_axis(axes, [line_label(game, ruleset) for game, ruleset in groups])
        for index, build in enumerate(builds):
            rows = [(row, group[build]) for row, group in enumerate(groups.values()) if build in group]
            places = [row + (index - (len(builds) - 1) / 2) * step for row, _ in rows]
            axes.barh(places, [rate for _, rate in rows], height=step * 0.9, color=COLORS[index % len(COLORS)],
                      label=BUILD_NAMES.get(build, build))
            for place, (_, rate) in zip(places, rows):
                axes.text(rate, place, f" {rate:,.0f}", va="center", fontsize=6.5, color="#333333")
        axes.set_xscale("log")
        axes.set_xlim(10 ** math.floor(math.log10(min(rates) / 2)), 10 ** math.ceil(math.log10(max(rates) * 3)))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        axes.grid(False, axis="y")
        axes.set_xlabel("cycles per second (legal_moves + apply), log scale")
        axes.set_title(title)
        figure.legend(loc="outside lower center", ncols=len(builds))

    return _svg(draw, 1.6 + (0.15 + 0.12 * len(builds)) * len(groups), title)


@dataclass(frozen=True)
class RatedLine:
    """The rated deals of one game and ruleset, by level (easy, medium, hard): how many reached
    each level, and whether the level is declared empty (too few to be offered)."""

    label: str
    found: tuple[int, int, int]
    empty: tuple[bool, bool, bool]

    @property
    def rated(self) -> int:
        return sum(self.found)


LEVEL_NAMES = ("easy", "medium", "hard")
LEVEL_COLORS = ("#3a8a3a", "#d2a01e", "#a33333")


def ratings_figure(lines: Sequence[RatedLine]) -> str:
    """Per game and ruleset, the share of rated deals at each level as a stacked bar; a level
    declared empty is hatched (its deals are not offered), as SVG text."""
    if not lines:
        raise ValueError("a ratings figure needs at least one line")
    title = "Rated deals by level: the strong agent's wins in three tries"

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        _rows_axis(axes, [f"{line.label}, {line.rated:,} rated" for line in lines])
        for level, (name, color) in enumerate(zip(LEVEL_NAMES, LEVEL_COLORS)):
            for row, line in enumerate(lines):
                start = sum(line.found[:level]) / line.rated * 100 if line.rated else 0.0
                width = line.found[level] / line.rated * 100 if line.rated else 0.0
                axes.barh(row, width, left=start, height=0.6, color="white" if line.empty[level] else color,
                          edgecolor=color, hatch="///" if line.empty[level] else None, linewidth=0.8,
                          label=NO_LEGEND)
            axes.barh(0, 0, color=color, label=name)  # the legend's swatch, whatever the first line holds
        axes.barh(0, 0, color="white", edgecolor="#555555", hatch="///", label="declared empty: not offered")
        axes.set_xlim(0, 100)
        axes.grid(False, axis="y")
        axes.set_xlabel("share of the rated deals (%)")
        axes.set_title(title)
        figure.legend(loc="outside lower center", ncols=4)

    return _svg(draw, 1.8 + 0.38 * len(lines), title)


# -- files ---------------------------------------------------------------------------------

def read_build_speeds(path: Path) -> list[BuildSpeed]:
    """The measures of a CSV file with the header ``game,ruleset,build,cycles_per_second``;
    :class:`KibitzError` naming the file and the line of the first bad one."""
    try:
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.reader(file)
            header = next(reader, None)
            if header is None or tuple(header) != SPEED_HEADER:
                raise KibitzError(f"{path}: the first line must be {','.join(SPEED_HEADER)}, not "
                                  f"{'nothing' if header is None else ','.join(header)}")
            speeds: list[BuildSpeed] = []
            seen: dict[tuple[str, str, str], int] = {}
            for fields in reader:
                try:
                    speed = _build_speed(fields)
                except ValueError as error:
                    raise KibitzError(f"{path}, line {reader.line_num}: {error}") from None
                key = (speed.game, speed.ruleset, speed.build)
                if key in seen:
                    raise KibitzError(f"{path}, line {reader.line_num}: {' '.join(key)} is measured on "
                                      f"line {seen[key]} already")
                seen[key] = reader.line_num
                speeds.append(speed)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise KibitzError(f"cannot read {path}: {error}") from None
    return speeds


def _build_speed(fields: list[str]) -> BuildSpeed:
    """One line of a speeds file; :class:`ValueError` saying which field is wrong."""
    if len(fields) != len(SPEED_HEADER):
        raise ValueError(f"the line has {len(fields)} fields, not {len(SPEED_HEADER)}")
    game, ruleset = field.slugs(dict(zip(SPEED_HEADER, fields)))
    build, text = fields[2], fields[3]
    if not build.strip():
        raise ValueError("build is empty")
    rate = field.seconds(text, "cycles_per_second")
    if rate <= 0:
        raise ValueError(f"cycles_per_second is {text!r}: it must be more than 0")
    return BuildSpeed(game, ruleset, build, rate)


def write_build_speeds(path: Path, speeds: Iterable[BuildSpeed]) -> None:
    """Write ``speeds`` as the CSV file that :func:`read_build_speeds` reads, atomically."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SPEED_HEADER)
    writer.writerows((s.game, s.ruleset, s.build, f"{s.cycles_per_second:.1f}") for s in speeds)
    write_atomically(path, out.getvalue(), newline="")


def write_figures(folder: Path, *, lines: Sequence[Line] = (), tails: Sequence[Tail] = (),
                  odds: Sequence[OddsLine] = (), builds: Sequence[BuildSpeed] = (),
                  rated: Sequence[RatedLine] = ()) -> list[Path]:
    """Draw the figure of each non-empty input into ``folder`` (made if missing):
    ``winnability.svg``, ``undecided.svg``, ``odds.svg``, ``builds.svg``, ``ratings.svg``, each written
    atomically. A file that already holds its figure is left untouched. Returns the paths
    written (new or changed)."""
    drawings: list[tuple[str, Callable[[], str]]] = []
    if lines:
        drawings.append(("winnability.svg", lambda: winnability_figure(lines)))
    if tails:
        drawings.append(("undecided.svg", lambda: undecided_tail_figure(tails)))
    if odds:
        drawings.append(("odds.svg", lambda: odds_figure(odds)))
    if builds:
        drawings.append(("builds.svg", lambda: builds_figure(builds)))
    if rated:
        drawings.append(("ratings.svg", lambda: ratings_figure(rated)))
    written = []
    for name, draw in drawings:
        text = draw()
        path = folder / name
        if path.is_file() and path.read_bytes() == text.encode("utf-8"):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text, newline="")
        written.append(path)
    return written
