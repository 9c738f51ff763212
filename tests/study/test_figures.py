"""The reference pages' figures: valid SVG naming the games and axes, the same text for the
same data, drawn from the data given; the tails counted from the rows; the build speeds
read and written as CSV; and matplotlib imported only when a figure is drawn."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest

from kibitz.errors import KibitzError
from kibitz.study.commands import registered_alike
from kibitz.study.pages.figures import (BuildSpeed, Tail, builds_figure, odds_figure, read_build_speeds, tails,
                                  undecided_tail_figure, winnability_figure, write_build_speeds, write_figures)
from kibitz.study.report import Line, OddsLine, summarize, summarize_odds
from kibitz.study.store import Play, Row

ROOT = Path(__file__).resolve().parents[2]


def row(deal: int, outcome: str, seconds: float, *, timeout: float = 10.0, version: int = 22,
        game: str = "duchess", ruleset: str = "pysolfc") -> Row:
    return Row(game, ruleset, deal, outcome, "time limit" if outcome == "unknown" else None, (), 10, 10, seconds,
               timeout, version, 1)


SVG = "{http://www.w3.org/2000/svg}"


def words(svg: str) -> str:
    """The text drawn in an SVG document (parsed, so it must be well-formed), one piece a line."""
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return "\n".join("".join(element.itertext()).strip() for element in root.iter(f"{SVG}text"))


def lines() -> list[Line]:
    duchess = summarize([row(n, "won", 0.1) for n in range(1, 5)] + [row(5, "unknown", 10.0)])
    cicely = summarize([row(n, "won", 0.1, game="cicely", ruleset=ruleset)
                        for n in (1, 2) for ruleset in ("standard", "pysolfc")], alike=registered_alike())
    return [replace(duchess[0], deals=100_000, won=99_920, lost=3, unknown=77, winnability=99_920 / 99_923,
                    interval=(0.99991, 0.99999), conservative=(0.99897, 0.99995)),
            replace(cicely[0], deals=100_000, won=99_992, lost=0, unknown=8, winnability=1.0,
                    interval=(0.99996, 1.0), conservative=(0.99984, 1.0))]


def odds_lines() -> list[OddsLine]:
    plays = [Play("grand-duchess", "standard", agent, "-", 0, deal, deal % every == 0, "won", 100, 0.1, 2, 22, 1,
                  "test") for agent, every in (("strong", 2), ("greedy", 5), ("random", 50)) for deal in range(1, 201)]
    studies = summarize([row(n, "won", 0.1, game="grand-duchess", ruleset="standard") for n in range(1, 201)])
    return summarize_odds(plays, studies)


SPEEDS = [BuildSpeed(game, ruleset, build, rate) for game, ruleset in (("napoleons-flank", "standard"),
                                                                       ("tournament", "pysolfc"))
          for build, rate in (("python", 11_800.5), ("compiled", 41_000.0), ("native", 265_432.1))]


def test_the_tails_count_each_deal_once_with_the_row_that_decided_it() -> None:
    rows = [*(row(n, "won", 0.5) for n in (1, 2, 3, 4)),                 # decided within 1 s
            row(5, "won", 5.0), row(6, "lost", 4.0),                      # within 10 s
            row(7, "unknown", 10.0), row(7, "won", 30.0, timeout=60.0, version=23),  # decided on the retry
            row(8, "won", 0.2, version=21), row(8, "unknown", 10.0),      # an older version's win counts
            row(9, "unknown", 10.0), row(9, "unknown", 60.0, timeout=60.0, version=23),
            row(10, "won", 0.1, version=21), row(10, "lost", 0.1)]        # conflicting verdicts: undecided
    (tail,) = tails(rows)
    assert (tail.label, tail.deals, tail.undecided) == ("Duchess (pysolfc)", 10, 2)
    assert tail.decided_seconds == (0.2, 0.5, 0.5, 0.5, 0.5, 4.0, 5.0, 30.0)
    assert tail.limits == (10.0, 60.0)
    assert [tail.undecided_at(limit) for limit in (0.001, 0.2, 1, 10, 60)] == [10, 9, 5, 3, 2]
    assert tail.tried == (60.0, math.inf)  # deal 9 at its retry's limit; deal 10 no limit decides
    assert [tail.untried_at(limit) for limit in (10, 60, 600)] == [0, 0, 1]
    (line,) = summarize(rows)
    assert (line.deals, line.unknown) == (tail.deals, tail.undecided)


def test_rulesets_with_the_same_rules_share_a_tail() -> None:
    rows = [row(1, "won", 0.1, game="kingsdown-eights", ruleset="standard"),
            row(1, "won", 0.2, game="kingsdown-eights", ruleset="pysolfc"),
            row(2, "unknown", 10.0, game="kingsdown-eights", ruleset="pysolfc"),
            row(1, "won", 0.3, game="grand-duchess", ruleset="standard")]
    assert [(t.label, t.deals) for t in tails(rows)] == [
        ("Grand Duchess (standard)", 1), ("Kingsdown Eights (pysolfc)", 2), ("Kingsdown Eights (standard)", 1)]
    assert [(t.label, t.deals, t.undecided) for t in tails(rows, registered_alike())] == [
        ("Grand Duchess (standard)", 1, 0), ("Kingsdown Eights (standard = pysolfc)", 2, 1)]


def test_a_tail_must_add_up() -> None:
    with pytest.raises(ValueError, match="3 deals, but 1 decided and 1 undecided"):
        Tail("Duchess (pysolfc)", 3, (0.5,), 1, (), (10.0,))
    with pytest.raises(ValueError, match="increasing order"):
        Tail("Duchess (pysolfc)", 2, (0.5, 0.1), 0, (), ())
    with pytest.raises(ValueError, match="2 undecided deals, but 1 limits"):
        Tail("Duchess (pysolfc)", 3, (0.5,), 2, (10.0,), (10.0,))


def test_the_winnability_figure_shows_each_line_and_its_counts() -> None:
    given = lines()
    svg = winnability_figure(given)
    text = words(svg)
    for expected in ("Duchess (pysolfc)", "Cicely (standard = pysolfc)", "won 99,920, lost 3, undecided 77 of 100,000",
                     "winnable share (%); the axis does not start at 0", "Thoughtful winnability"):
        assert expected in text
    ticks = [float(tick[:-1]) for tick in text.splitlines() if re.fullmatch(r"[0-9.]+%", tick)]
    assert 99.9 in ticks and 99.8 < min(ticks) and max(ticks) == 100  # zoomed to the data
    assert winnability_figure(given) == svg
    changed = winnability_figure([replace(given[0], won=99_900, unknown=97, winnability=99_900 / 99_903), given[1]])
    assert changed != svg and "won 99,900, lost 3, undecided 97 of 100,000" in words(changed)


def test_the_undecided_tail_figure_steps_down_to_the_limits() -> None:
    decided = tuple(sorted(0.0005 * 1.0001 ** n for n in range(99_950)))  # 100,000 deals: a large input
    many = Tail("Tournament (pysolfc)", 100_000, decided, 50, (10.0, 60.0), (60.0,) * 50)
    few = Tail("Napoleon's Flank (standard)", 100_000, (0.01,) * 99_990, 10, (10.0,), (10.0,) * 10)
    svg = undecided_tail_figure([many, few])
    text = words(svg)
    for expected in ("Tournament (pysolfc)", "Napoleon's Flank (standard)", "10 s", "60 s",
                     "time limit per deal, seconds (log scale)", "deals left undecided of 100,000"):
        assert expected in text
    assert len(svg) < 100_000
    assert undecided_tail_figure([many, few]) == svg
    assert undecided_tail_figure([many, replace(few, decided_seconds=(0.02,) * 99_990)]) != svg


def test_the_odds_figure_sets_the_agents_beside_thoughtful_winnability() -> None:
    given = odds_lines()
    assert [(line.agent, line.won) for line in given] == [("greedy", 40), ("random", 4), ("strong", 100)]
    svg = odds_figure(given)
    text = words(svg)
    for expected in ("Grand Duchess (standard)", "strong (fair play)", "greedy (fair play)", "random (fair play)",
                     "thoughtful winnability (sees every card)", "share of deals won (%); bars: 95% intervals"):
        assert expected in text
    assert odds_figure(given) == svg
    without_study = odds_figure([replace(line, winnability=None) for line in given])
    assert "(sees every card)" not in words(without_study)


def test_the_strong_agent_at_each_games_budget_is_one_series() -> None:
    given = odds_lines()
    other = [replace(line, game="duchess", setting="study*10" if line.agent == "strong" else line.setting)
             for line in given]
    text = words(odds_figure(given + other))
    assert "strong, each game at its budget (fair play)" in text and text.count("strong") == 1
    assert "Duchess (standard)" in text and "greedy (fair play)" in text


def test_the_builds_figure_has_a_bar_per_build() -> None:
    svg = builds_figure(SPEEDS)
    text = words(svg)
    for expected in ("Napoleon's Flank (standard)", "Tournament (pysolfc)", "pure Python", "compiled (mypyc)",
                     "native kernel (Rust)", "265,432", "cycles per second (legal_moves + apply), log scale"):
        assert expected in text
    assert builds_figure(SPEEDS) == svg


def test_the_same_data_give_the_same_svg_in_another_process() -> None:
    program = ("import sys; from kibitz.study.pages.figures import BuildSpeed, builds_figure; "
               "sys.stdout.write(builds_figure([BuildSpeed('duchess', 'standard', 'python', 12345.0)]))")
    drawn = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                           env=os.environ | {"PYTHONPATH": str(ROOT / "src")}).stdout
    assert drawn == builds_figure([BuildSpeed("duchess", "standard", "python", 12345.0)])


def test_the_module_imports_without_matplotlib() -> None:
    program = "import kibitz.study.pages.figures, sys; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                            env=os.environ | {"PYTHONPATH": str(ROOT / "src")})
    assert result.stdout.strip() == "False"


def test_a_missing_matplotlib_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(KibitzError, match=r"pip install 'kibitz\[figures\]'"):
        builds_figure(SPEEDS)


def test_build_speeds_are_written_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "speeds.csv"
    write_build_speeds(path, SPEEDS)
    assert path.read_text().splitlines()[:2] == ["game,ruleset,build,cycles_per_second",
                                                 "napoleons-flank,standard,python,11800.5"]
    assert read_build_speeds(path) == SPEEDS


@pytest.mark.parametrize(("text", "message"), [
    ("", "the first line must be game,ruleset,build,cycles_per_second, not nothing"),
    ("game,ruleset,build,rate\n", "the first line must be game,ruleset,build,cycles_per_second, not game,"),
    ("game,ruleset,build,cycles_per_second\nduchess,standard,native\n", "line 2: the line has 3 fields, not 4"),
    ("game,ruleset,build,cycles_per_second\nduchess,standard,native,fast\n",
     "line 2: cycles_per_second is 'fast', not a number"),
    ("game,ruleset,build,cycles_per_second\nduchess,standard,native,0\n", "line 2: .* must be more than 0"),
    ("game,ruleset,build,cycles_per_second\nDuchess!,standard,native,5\n", "line 2: game is 'Duchess!'"),
    ("game,ruleset,build,cycles_per_second\nduchess,standard,,5\n", "line 2: build is empty"),
    ("game,ruleset,build,cycles_per_second\nduchess,standard,native,5\nduchess,standard,native,6\n",
     "line 3: duchess standard native is measured on line 2 already"),
])
def test_a_bad_speeds_file_is_refused_naming_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "speeds.csv"
    path.write_text(text)
    with pytest.raises(KibitzError) as refused:
        read_build_speeds(path)
    assert str(refused.value).startswith(str(path)) and re.search(message, str(refused.value))


def test_a_missing_speeds_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(KibitzError, match="cannot read .*missing.csv"):
        read_build_speeds(tmp_path / "missing.csv")


def test_the_figures_are_written_once_and_left_alone_when_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "docs" / "figures"
    written = write_figures(folder, lines=lines(), builds=SPEEDS)
    assert written == [folder / "winnability.svg", folder / "builds.svg"]
    assert sorted(path.name for path in folder.iterdir()) == ["builds.svg", "winnability.svg"]
    assert (folder / "builds.svg").read_text() == builds_figure(SPEEDS)
    before = (folder / "winnability.svg").stat().st_mtime_ns
    (folder / "builds.svg").write_text("an old figure")
    assert write_figures(folder, lines=lines(), builds=SPEEDS) == [folder / "builds.svg"]
    assert (folder / "winnability.svg").stat().st_mtime_ns == before
    assert (folder / "builds.svg").read_text() == builds_figure(SPEEDS)
    assert write_figures(folder) == []


def test_the_ratings_figure_hatches_the_levels_declared_empty() -> None:
    from kibitz.study.pages.figures import RatedLine, ratings_figure
    full = ratings_figure([RatedLine("Duchess (standard)", (60, 55, 70), (False, False, False))])
    thin = ratings_figure([RatedLine("Duchess (standard)", (60, 5, 70), (False, True, False))])
    assert "Duchess (standard), 185 rated" in words(full) and "Duchess (standard), 135 rated" in words(thin)
    assert "declared empty: not offered" in words(full)
    # only the legend's swatch is hatched when no level is empty; an empty level adds a hatched bar
    assert thin.count("<pattern") > full.count("<pattern")
    ElementTree.fromstring(thin)
