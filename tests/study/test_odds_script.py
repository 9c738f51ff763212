"""scripts/odds: the budget step and the odds step over every game in both rulesets, the
rows kept as CSV after each game and read back first, so that a run resumes anywhere."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import kibitz
from kibitz.cli import build_parser
from kibitz.rules import RULESETS
from kibitz.study.archive import read_file
from kibitz.study.budgets import AFFORDABLE_SECONDS
from kibitz.study.commands import parse_deals
from kibitz.study.odds_commands import odds_agents
from kibitz.study.tables import PLAYS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "odds"
CHEAPEST_FIRST = ["parisienne", "grand-duchess", "cicely", "duchess", "tournament", "napoleons-flank",
                  "kingsdown-eights"]


def dry_run(*options: str, environment: dict[str, str] | None = None) -> list[list[str]]:
    """The kibitz commands ``scripts/odds --dry-run`` prints (without the program's name)."""
    printed = subprocess.run([str(SCRIPT), "--dry-run", *options], capture_output=True, text=True, check=True,
                             env={**os.environ, **(environment or {})}).stdout.splitlines()
    return [shlex.split(line)[1:] for line in printed]


def played(commands: list[list[str]]) -> list[tuple[str, str, str, int | str | None, tuple[str, ...], str]]:
    """Each ``kibitz odds`` among ``commands``: game, ruleset, deals, budget, agents and results file."""
    parser = build_parser()
    runs = []
    for command in commands:
        if command[0] == "odds":
            args = parser.parse_args(command)
            runs.append((args.games[0], args.ruleset, args.deals, args.budget, tuple(odds_agents(args.agent)),
                         args.db))
    return runs


def test_the_dry_run_prints_the_budget_step_then_the_odds_step_over_every_game_and_ruleset() -> None:
    commands = dry_run("--workers", "2")
    assert commands[0] == ["--version"]
    db = "results/odds.db"
    kept = sorted(ROOT.glob("docs/odds/*-*.csv.gz"))
    if kept:
        assert commands[1][:4] == ["results", "import", "--db", db]
        assert sorted(commands[1][4:]) == [str(path.relative_to(ROOT)) for path in kept]
    runs = played(commands)
    budget = [(game, ruleset, factor) for game in CHEAPEST_FIRST for ruleset in RULESETS for factor in (1, 10)]
    odds = [(game, ruleset, agents) for game in CHEAPEST_FIRST
            for agents in (("strong",), ("greedy", "random")) for ruleset in RULESETS]
    assert [(game, ruleset, factor) for game, ruleset, _, factor, _, _ in runs[:len(budget)]] == budget
    assert {(deals, agents) for _, _, deals, _, agents, _ in runs[:len(budget)]} == {("200001-200100", ("strong",))}
    parser = build_parser()
    affordable = [parser.parse_args(command).affordable for command in commands if command[0] == "odds"]
    assert affordable[:len(budget)] == [None if factor == 1 else AFFORDABLE_SECONDS for *_, factor in budget]
    assert set(affordable[len(budget):]) == {None}
    assert [(game, ruleset, agents) for game, ruleset, _, _, agents, _ in runs[len(budget):]] == odds
    for _, _, deals, factor, agents, results in runs[len(budget):]:
        assert parse_deals(deals) == list(range(1, 2001 if agents == ("strong",) else 10_001))
        assert factor == ("chosen" if agents == ("strong",) else None) and results == db
    assert all(command[-2:] == ["--workers", "2"] for command in commands if command[0] == "odds")
    exports = [parser.parse_args(command) for command in commands if command[:2] == ["results", "export"]]
    assert [(args.game, args.ruleset) for args in exports] == \
        [(game, ruleset) for _ in ("budget", "odds") for game in CHEAPEST_FIRST for ruleset in RULESETS]
    assert all(args.plays and args.db == db and args.file == f"docs/odds/{args.game}-{args.ruleset}.csv.gz"
               for args in exports)
    every = {(info.slug, ruleset) for info in kibitz.games() for ruleset in RULESETS}
    assert {(game, ruleset) for game, ruleset, *_ in runs} == every


def test_the_dry_run_takes_its_own_options_and_the_paths_from_the_environment() -> None:
    commands = dry_run("--steps", "budget", "--games", "duchess", "--budget-deals", "200001-200020",
                       environment={"KIBITZ_ODDS_DB": "scratch/o.db", "KIBITZ_ODDS_KEPT": "scratch/kept"})
    assert [(factor, deals) for _, _, deals, factor, _, _ in played(commands)] == \
        [(factor, "200001-200020") for _ in RULESETS for factor in (1, 10, 100)]
    assert all(results == "scratch/o.db" for *_, results in played(commands))
    assert commands[-1][-1] == "scratch/kept/duchess-pysolfc.csv.gz"
    commands = dry_run("--steps", "odds", "--games", "cicely", "--budget", "10", "--agents", "strong,random",
                       "--strong-deals", "1-50", "--cheap-deals", "1-60")
    assert [run[1:5] for run in played(commands)] == [
        (ruleset, "1-50", 10, ("strong",)) for ruleset in RULESETS] + [
        (ruleset, "1-60", None, ("random",)) for ruleset in RULESETS]
    exported = [command[:2] for command in dry_run("--export", "--games", "tournament")]
    assert exported[0] == ["--version"] and exported[-2:] == [["results", "export"]] * 2
    assert exported[1:-2] in ([], [["results", "import"]])
    for options, says in ((["--steps", "tune"], "unknown step 'tune'"), (["--agents", "clever"], "unknown agent"),
                          (["--budget"], "--budget needs a value")):
        refused = subprocess.run([str(SCRIPT), "--dry-run", *options], capture_output=True, text=True)
        assert refused.returncode == 2 and says in refused.stderr and refused.stdout == ""


def test_a_tiny_run_keeps_its_rows_and_a_run_on_a_fresh_machine_goes_on_from_them(tmp_path: Path) -> None:
    """Greedy on deals 1-2 of Parisienne and Cicely (whose two rulesets share their rules: one
    file), then on deals 1-3 with the results file gone: the kept rows are read back first."""
    db, kept = tmp_path / "results" / "odds.db", tmp_path / "kept"
    environment = {**os.environ, "KIBITZ": f"{sys.executable} -m kibitz", "KIBITZ_ODDS_DB": str(db),
                   "KIBITZ_ODDS_KEPT": str(kept)}
    command = [str(SCRIPT), "--steps", "odds", "--agents", "greedy", "--games", "parisienne,cicely", "--workers", "1"]
    first = subprocess.run([*command, "--cheap-deals", "1-2"], capture_output=True, text=True, env=environment)
    assert first.returncode == 0, first.stderr
    assert sorted(path.name for path in kept.iterdir()) == ["cicely-standard.csv.gz", "parisienne-pysolfc.csv.gz",
                                                            "parisienne-standard.csv.gz"]
    for path in kept.iterdir():
        read = read_file(path)
        assert read.table is PLAYS
        assert sorted((row[2], row[5]) for row in read.rows) == [("greedy", "1"), ("greedy", "2")]
    db.unlink()
    second = subprocess.run([*command, "--cheap-deals", "1-3"], capture_output=True, text=True, env=environment)
    assert second.returncode == 0, second.stderr
    assert second.stderr.count("2 deals already played by the greedy agent") == 3
    assert "3 deals already played by the greedy agent" in second.stderr  # Cicely's pysolfc: its standard games
    assert "cicely-standard.csv.gz: 2 games played by agents read, 2 added" in second.stderr
    assert [len(read_file(kept / f"{line}.csv.gz").rows) for line in
            ("parisienne-standard", "parisienne-pysolfc", "cicely-standard")] == [3, 3, 3]


def test_the_odds_step_goes_on_past_a_game_with_no_budget_step_and_says_so(tmp_path: Path) -> None:
    """The strong agent in Grand Duchess, with no budget step in a new results file: skipped,
    named, while the greedy agent plays; only the rulesets asked for are played."""
    db, kept = tmp_path / "results" / "odds.db", tmp_path / "kept"
    environment = {**os.environ, "KIBITZ": f"{sys.executable} -m kibitz", "KIBITZ_ODDS_DB": str(db),
                   "KIBITZ_ODDS_KEPT": str(kept)}
    run = subprocess.run([str(SCRIPT), "--steps", "odds", "--agents", "strong,greedy", "--games", "grand-duchess",
                          "--rulesets", "pysolfc", "--strong-deals", "1", "--cheap-deals", "1-2", "--workers", "1"],
                         capture_output=True, text=True, env=environment)
    assert run.returncode == 4, run.stderr
    assert "the strong agent's odds not played, for want of a budget step (scripts/odds --steps budget): " \
           "grand-duchess (pysolfc)" in run.stderr
    assert [path.name for path in kept.iterdir()] == ["grand-duchess-pysolfc.csv.gz"]
    rows = read_file(kept / "grand-duchess-pysolfc.csv.gz").rows
    assert sorted((row[2], row[5]) for row in rows) == [("greedy", "1"), ("greedy", "2")]
    refused = subprocess.run([str(SCRIPT), "--dry-run", "--rulesets", "standard,house"], capture_output=True,
                             text=True)
    assert refused.returncode == 2 and "unknown ruleset 'house'" in refused.stderr
