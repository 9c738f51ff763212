"""The reference pages' generated parts: every table of figures in ``docs/winnability.md``,
``docs/odds.md``, ``docs/difficulty.md`` and ``docs/benchmarks.md`` sits between two marker
lines and is written from the kept results (:mod:`kibitz.study.pages.kept`), never typed::

    <!-- begin generated winnability-table -->
    ...
    <!-- end generated winnability-table -->

``kibitz report --pages docs`` rewrites every block and the figures (``docs/figures/``);
``kibitz report --pages docs --check`` says which blocks disagree with the kept rows
(``tests/study/test_pages.py`` runs it on the repository's own pages).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kibitz.study.pages import data, tables
from kibitz.study.pages.figures import game_name
from kibitz.study.pages.kept import Kept

BEGIN = "<!-- begin generated {name} -->"
END = "<!-- end generated {name} -->"
MARKER = re.compile(r"^<!-- (begin|end) generated ([a-z0-9-]+) -->$")
FIGURES = "figures"
"""The folder (under ``docs/``) of the figures."""


def ratings_table(kept: Kept) -> str:
    """The rated deals that ship with kibitz, counted by level."""
    from kibitz.difficulty import ratings
    return tables.ratings_table(ratings())


def build_speeds_table(kept: Kept) -> str:
    """The builds' speed, per game and ruleset, with each build's ratio to pure Python."""
    speeds = kept.build_speeds
    if not speeds:
        return ("No build speeds are kept yet (`.venv/bin/python benchmarks/record.py core-speed -- "
                ".venv/bin/python benchmarks/core_speed.py --csv docs/benchmarks/core-speed.csv`).")
    run = next((run for run in kept.runs if run.name == "core-speed"), None)
    measured = "" if run is None else f"Measured {run.measured} on {run.machine}; load {run.load}.\n\n"
    builds = list(dict.fromkeys(speed.build for speed in speeds))
    lines = sorted({(speed.game, speed.ruleset) for speed in speeds}, key=lambda key: tables.game_order(*key))
    rate = {(speed.game, speed.ruleset, speed.build): speed.cycles_per_second for speed in speeds}
    base = builds[0]
    out = ["| game | rules | " + " | ".join(f"{build}, cycles/s" for build in builds) + " | "
           + " | ".join(f"{build} / {base}" for build in builds[1:]) + " |",
           "|---|---|" + "---:|" * (2 * len(builds) - 1)]
    for game, ruleset in lines:
        cells = [f"{rate[(game, ruleset, build)]:,.0f}" if (game, ruleset, build) in rate else "-" for build in builds]
        ratios = [f"{rate[(game, ruleset, build)] / rate[(game, ruleset, base)]:.2f}x"
                  if (game, ruleset, build) in rate and rate.get((game, ruleset, base)) else "-"
                  for build in builds[1:]]
        out.append(f"| {game_name(game)} | {ruleset} | " + " | ".join(cells + ratios) + " |")
    return measured + "\n".join(out)


def kept_run(name: str, how: str) -> Callable[[Kept], str]:
    """The block of the benchmark run kept as ``docs/benchmarks/NAME.txt``: its day, machine,
    command and what it printed; ``how`` says how to record it while there is none."""
    def write(kept: Kept) -> str:
        run = next((run for run in kept.runs if run.name == name), None)
        if run is None:
            return f"Not measured yet: `.venv/bin/python benchmarks/record.py {name} -- {how}`."
        return (f"Measured {run.measured} on {run.machine}; load {run.load}:\n\n"
                f"```sh\n{run.command}\n```\n\n{as_markdown(run.output)}")
    return write


def as_markdown(output: str) -> str:
    """A benchmark's printout as Markdown: its tables as they are, its lines of aligned columns
    in a code block, its other lines as text."""
    out: list[str] = []
    fenced = False
    for line in output.splitlines():
        columns = not line.startswith("|") and "  " in line.strip()
        if columns != fenced:
            out.append("```text" if columns else "```")
            fenced = columns
        out.append(line)
    if fenced:
        out.append("```")
    return "\n".join(out)


BENCHMARK_RUNS = {
    "solver-builds": ".venv/bin/python benchmarks/solver_speed.py --deals 30001-30010 --timeout 2 "
                     "--builds pure,native",
    "agent-hint": ".venv/bin/python benchmarks/agent_speed.py --speed-deals 90001-90003",
    "web-latency": ".venv/bin/python benchmarks/web_latency.py",
    "web-load": ".venv/bin/python benchmarks/web_load.py --seconds 15",
    "screen-speed": ".venv/bin/python benchmarks/screen_speed.py --moves 60",
}
"""The benchmark runs the benchmarks page shows, by block name, with how each is recorded."""

Writer = Callable[[Kept], str]

PAGES: Mapping[str, Mapping[str, Writer]] = {
    "winnability.md": {"winnability-table": tables.winnability_table, "winnability-tail": tables.tail_table,
                       "winnability-losses": tables.losses_list, "winnability-machine": tables.machine_speeds},
    "odds.md": {"odds-table": tables.odds_table, "odds-budget": tables.budget_table},
    "difficulty.md": {"ratings-table": ratings_table},
    "benchmarks.md": {"builds-table": build_speeds_table,
                      **{name: kept_run(name, how) for name, how in BENCHMARK_RUNS.items()}},
}
"""Each page's generated blocks, by name, with what writes them."""


class PageError(ValueError):
    """A page whose marker lines are missing, repeated or out of order."""


def blocks(document: str) -> dict[str, tuple[int, int]]:
    """The generated blocks of a page: name to the indices of its begin and end lines;
    :class:`PageError` when a block's markers are repeated, unpaired or nested."""
    found: dict[str, tuple[int, int]] = {}
    open_name: str | None = None
    start = 0
    for index, line in enumerate(document.splitlines()):
        match = MARKER.match(line.strip())
        if match is None:
            continue
        kind, name = match.groups()
        if kind == "begin":
            if open_name is not None:
                raise PageError(f"line {index + 1}: block {name} begins inside block {open_name}")
            if name in found:
                raise PageError(f"line {index + 1}: block {name} appears twice")
            open_name, start = name, index
        elif name != open_name:
            raise PageError(f"line {index + 1}: block {name} ends where it did not begin")
        else:
            found[name] = (start, index)
            open_name = None
    if open_name is not None:
        raise PageError(f"block {open_name} begins but never ends")
    return found


def fill(document: str, texts: Mapping[str, str]) -> str:
    """``document`` with each named block's text replaced (the rest kept byte for byte);
    :class:`PageError` naming a block the page lacks."""
    lines = document.splitlines(keepends=True)
    places = blocks(document)
    missing = [name for name in texts if name not in places]
    if missing:
        raise PageError(f"no generated block {', '.join(missing)}: add a line {BEGIN.format(name=missing[0])} "
                        f"and a line {END.format(name=missing[0])}")
    for name, (start, end) in sorted(((name, places[name]) for name in texts), key=lambda item: -item[1][0]):
        body = texts[name].rstrip("\n") + "\n"
        lines[start + 1:end] = [body]
    return "".join(lines)


@dataclass(frozen=True)
class Stale:
    """A block (or a whole data file, ``block`` empty) whose text disagrees with the kept rows."""

    page: str
    block: str = ""

    def __str__(self) -> str:
        return f"{self.page}: block {self.block}" if self.block else self.page


def written(kept: Kept) -> dict[str, dict[str, str]]:
    """Every page's blocks as the kept rows write them."""
    return {page: {name: writer(kept) for name, writer in writers.items()} for page, writers in PAGES.items()}


DATA = Path("..") / "src" / "kibitz" / "data"
"""Where, from the pages' folder, the package's data files are in a checkout."""
DATA_FILES: Mapping[str, Callable[[Kept, str], str]] = {"winnability.json": data.averages_file,
                                                         "odds.json": data.odds_file}
"""The package's data files written from the kept rows (and their text as it is), by name."""


def regenerate(docs: Path, kept: Kept) -> tuple[dict[Path, str], list[Stale]]:
    """The pages under ``docs`` with their blocks written from ``kept``, and the package's data
    files (:data:`DATA_FILES`) where the checkout holds them: the new text of each file that
    changes, and the blocks (or data files) that changed."""
    changed: dict[Path, str] = {}
    stale: list[Stale] = []
    for name, writer in DATA_FILES.items():
        path = docs / DATA / name
        if path.is_file():
            held = path.read_text(encoding="utf-8")
            text = writer(kept, held)
            if text != held:
                changed[path] = text
                stale.append(Stale(f"{DATA.as_posix()}/{name}"))
    for page, texts in written(kept).items():
        path = docs / page
        document = path.read_text(encoding="utf-8")
        try:
            current = blocks(document)
            new = fill(document, texts)
        except PageError as error:
            raise PageError(f"{path}: {error}") from None
        lines = document.splitlines(keepends=True)
        for name, text in texts.items():
            start, end = current[name]
            if "".join(lines[start + 1:end]) != text.rstrip("\n") + "\n":
                stale.append(Stale(page, name))
        if new != document:
            changed[path] = new
    return changed, stale


def write_figures(folder: Path, kept: Kept) -> list[Path]:
    """The pages' figures written into ``folder`` from ``kept``: the paths written."""
    from kibitz.study.pages import figures
    odds = list(tables.quoted_odds(kept).values())
    from kibitz.difficulty import ratings
    return figures.write_figures(folder, lines=tables.winnability_lines(kept), tails=tables.ordered_tails(kept),
                                 odds=odds, builds=kept.build_speeds, rated=tables.rated_lines(ratings()))
