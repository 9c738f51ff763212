"""The winnability page's commands: one study over several games and rulesets, and the
Markdown table that ``kibitz report --markdown`` prints or writes into docs/winnability.md."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

import kibitz
from kibitz.cli import build_parser, main
from kibitz.rules import RULESETS
from kibitz.study.commands import chosen_games, chosen_rulesets, parse_deals
from kibitz.study.report import TABLE_BEGIN, TABLE_END, embed_table
from kibitz.study.store import Store

NODES = 3_000
"""Studies in these tests stop at a node limit, so their results do not depend on the machine."""
ROOT = Path(__file__).resolve().parents[2]
def find_slug(name: str) -> str:
    return kibitz.find(name).slug


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "winnability"


def study(db: Path, *arguments: str, nodes: int = NODES) -> int:
    return main(["study", *arguments, "--nodes", str(nodes), "--workers", "1", "--db", str(db)])


def stored(db: Path) -> dict[tuple[str, str], list[int]]:
    """The deal numbers stored per game and ruleset."""
    found: dict[tuple[str, str], list[int]] = {}
    with Store(db) as store:
        for row in store.rows(moves=False):
            found.setdefault((row.game, row.ruleset), []).append(row.deal)
    return found


def markdown_rows(table: str) -> list[dict[str, str]]:
    """The rows of a Markdown table, each cell under its column's name."""
    header, rule, *rows = [line for line in table.splitlines() if line.startswith("|")]
    names = [cell.strip() for cell in header.strip("|").split("|")]
    assert set(rule.strip("|").split("|")) == {"---"}
    return [dict(zip(names, (cell.strip() for cell in row.strip("|").split("|")), strict=True)) for row in rows]


def test_rulesets_option() -> None:
    assert chosen_rulesets("all") == list(RULESETS) == ["standard", "pysolfc"]
    assert chosen_rulesets("ALL") == chosen_rulesets("pysolfc, standard") == list(RULESETS)
    assert chosen_rulesets("pysolfc,pysolfc") == ["pysolfc"]
    assert chosen_rulesets("standard") == ["standard"]


def test_one_command_studies_several_games_in_every_ruleset(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "winnability.db"
    assert study(db, "duchess", "Parisienne,duchess", "--ruleset", "all", "--deals", "1-2") == 0
    err = capsys.readouterr().err
    assert "duchess (standard):" in err and "parisienne (pysolfc):" in err
    assert "done: 8 deals solved (0 skipped) of 4 games and rulesets" in err
    assert stored(db) == {(game, ruleset): [1, 2] for game in ("duchess", "parisienne") for ruleset in RULESETS}
    with Store(db) as store:
        decided = sum(row.outcome != "unknown" for row in store.rows(moves=False))
    assert decided > 0
    assert study(db, "duchess", "parisienne", "--ruleset", "standard,pysolfc", "--deals", "1-3") == 0
    err = capsys.readouterr().err  # resumed: the deals of the first run are skipped, decided or not
    assert "done: 4 deals solved (8 skipped) of 4 games and rulesets" in err
    if decided < 8:
        assert "deals left unknown by solver version" in err
    assert stored(db) == {(game, ruleset): [1, 2, 3] for game in ("duchess", "parisienne") for ruleset in RULESETS}


def test_all_games_in_all_rulesets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kibitz.registry import games, rulesets_alike
    db = tmp_path / "all.db"
    # which games and rulesets are studied, not their verdicts: a few nodes each
    assert study(db, "all", "--ruleset", "all", "--deals", "1", nodes=100) == 0
    pairs = {(info.slug, rulesets_alike(info.slug, ruleset)[0]) for info in games() for ruleset in RULESETS}
    assert set(stored(db)) == pairs and len(games()) < len(pairs) < 2 * len(games())
    assert f"of {len(pairs)} games and rulesets" in capsys.readouterr().err


@pytest.mark.parametrize(("arguments", "message"), [
    (["duchess", "--ruleset", "strict"], "unknown ruleset 'strict'"),
    (["duchess", "--ruleset", "standard,"], "unknown ruleset ''"),
    (["duchess,nope", "--ruleset", "all"], "unknown game 'nope'"),
    ([",", "--ruleset", "all"], "name a GAME"),
])
def test_bad_games_and_rulesets_are_refused_before_anything_runs(
        arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "refused.db"
    assert study(db, *arguments, "--deals", "1-2") == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()


def test_markdown_report_agrees_with_the_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "report.db"
    assert study(db, "duchess", "parisienne", "--ruleset", "all", "--deals", "1-3") == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--markdown"]) == 0
    table = capsys.readouterr().out
    assert main(["report", "--db", str(db), "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)
    assert table.splitlines()[0].startswith("| game | ruleset | deals | won | lost | unknown | winnable |")
    rows = markdown_rows(table)
    assert len(rows) == len(lines) == 4
    for row, line in zip(rows, lines, strict=True):
        assert (row["game"], row["ruleset"]) == (line["game"], line["ruleset"])
        for column in ("deals", "won", "lost", "unknown"):
            assert int(row[column].replace(",", "")) == line[column]
        assert row["winnable"] == f"{line['winnability']:.2%}"
        assert row["95% interval (decided)"] == " - ".join(f"{x:.2%}" for x in line["interval"])
        assert row["conservative 95% (unknown as won or lost)"] == " - ".join(f"{x:.2%}"
                                                                           for x in line["conservative"])
        for column, key in (("median ms", "median"), ("p90 ms", "p90"), ("max ms", "max")):
            assert row[column] == f"{line[key] * 1000:,.0f}"
        assert row["solver"] == "+".join(map(str, line["solver_versions"]))
        clocks = "" if line["clocks"] in ([], ["wall"]) else f" ({' and '.join(line['clocks'])})"
        assert row["limit s"] == ", ".join(f"{t:g}" for t in line["limits"]) + clocks
        assert line["clocks"] == ["cpu"]  # a study counts processor time by default
    assert main(["report", "--db", str(db)]) == 0
    assert capsys.readouterr().out == table  # the terminal shows the same table


def test_markdown_report_writes_between_the_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "report.db"
    assert study(db, "parisienne", "--ruleset", "all", "--deals", "1-2") == 0
    assert main(["report", "--db", str(db), "--markdown"]) == 0
    table = capsys.readouterr().out
    page = tmp_path / "page.md"
    before, after = "# A page\n\nAbove.\n\n", "\nBelow, untouched.\n"
    page.write_text(f"{before}{TABLE_BEGIN}\n| an old | table |\n{TABLE_END}\n{after}", encoding="utf-8")
    assert main(["report", "--db", str(db), "--markdown", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == f"{before}{TABLE_BEGIN}\n{table}{TABLE_END}\n{after}"
    assert "written into" in capsys.readouterr().err
    assert main(["report", "--db", str(db), "--markdown", str(page)]) == 0
    assert "already up to date" in capsys.readouterr().err
    unmarked = tmp_path / "unmarked.md"
    unmarked.write_text("no markers\n", encoding="utf-8")
    assert main(["report", "--db", str(db), "--markdown", str(unmarked)]) == 2
    assert "the table goes between" in capsys.readouterr().err
    assert unmarked.read_text(encoding="utf-8") == "no markers\n"
    assert main(["report", "--db", str(db), "--game", "cicely", "--markdown", str(page)]) == 2
    assert "holds no results for --game cicely" in capsys.readouterr().err
    assert main(["report", "--db", str(db), "--markdown", "--json"]) == 2


def test_the_markdown_table_needs_its_markers_once_and_in_order() -> None:
    table = "| game | ruleset |\n|---|---|"
    page = f"before\n{TABLE_BEGIN}\n{TABLE_END}\nafter\n"
    assert embed_table(page, table) == f"before\n{TABLE_BEGIN}\n{table}\n{TABLE_END}\nafter\n"
    with pytest.raises(ValueError, match="each once"):
        embed_table(page + TABLE_END + "\n", table)
    with pytest.raises(ValueError, match="in that order"):
        embed_table(f"{TABLE_END}\n{TABLE_BEGIN}\n", table)


def test_one_script_rebuilds_the_page_with_every_game_in_every_ruleset() -> None:
    """``scripts/winnability --dry-run`` prints the commands it would run: the kept rows read
    in first; then each pass (10, 60, 600 s) studies every game in every ruleset, deals
    1-100,000, with the current solver version only and the options given; after each game's
    study its proved losses are checked and its rows, the speed measures and the checks are
    written back; the pages are written from the kept rows last."""
    printed = subprocess.run([str(SCRIPT), "--dry-run", "--backend", "ray", "--address", "auto", "--workers", "3"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    commands = [shlex.split(line)[1:] for line in printed]
    db = "results/reference.db"
    kept = [path for path in sorted((ROOT / "docs" / "winnability").glob("*")) if path.is_file()]
    if kept:
        assert commands[0][:4] == ["results", "import", "--db", db]
        assert sorted(commands[0][4:]) == sorted(str(path.relative_to(ROOT)) for path in kept)
        commands = commands[1:]
    assert commands[-1] == ["report", "--pages", "docs"]
    commands = commands[:-1]
    parser = build_parser()
    passes: list[float] = []
    studied: dict[float, set[tuple[str, str]]] = {}
    exported: set[tuple[str, str]] = set()
    checks = 0
    checked_after = ""
    for command in commands:
        args = parser.parse_args(command)
        assert args.db == db
        if args.command == "results" and args.action == "check-losses":
            assert args.workers == 3 and args.game == checked_after
            checks += 1
            continue
        if args.command == "results":
            assert args.action == "export"
            if not args.speeds and not args.checks:
                exported.add((find_slug(args.game), args.ruleset))
                assert args.file == f"docs/winnability/{args.game}-{args.ruleset}.csv.gz"
            continue
        assert args.command == "study" and args.backend == "ray" and args.address == "auto"
        assert not args.undecided and args.clock == "cpu" and parse_deals(args.deals) == list(range(1, 100_001))
        if not passes or passes[-1] != args.timeout:
            passes.append(args.timeout)
        checked_after = args.games[0]
        studied.setdefault(args.timeout, set()).update(
            (game, ruleset) for game in chosen_games(args.games) for ruleset in chosen_rulesets(args.ruleset))
    every = {(info.slug, ruleset) for info in kibitz.games() for ruleset in RULESETS}
    assert passes == [10, 60, 600]
    assert all(lines == every for lines in studied.values())
    assert exported == every
    assert checks == len(passes) * len(kibitz.games())  # after each game's study, every pass
