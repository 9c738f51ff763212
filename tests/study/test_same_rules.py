"""Rulesets with the same rules: studied once, stored under the first, counted for both."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.registry import games, rulesets_alike
from kibitz.rules import RULESETS
from kibitz.solver import SOLVER_VERSION
from kibitz.study.commands import registered_alike
from kibitz.study.report import format_odds_table, format_table, summarize, summarize_odds
from kibitz.study.runner import StudyPlan, run_study, solve_batch
from kibitz.study.store import Play, Row, Store

NODES = 3_000
"""Node-limited studies: the same results on any machine."""


def test_rulesets_alike_are_those_with_equal_rules() -> None:
    for info in games():
        for ruleset in RULESETS:
            alike = rulesets_alike(info.slug, ruleset)
            assert ruleset in alike and list(alike) == [r for r in RULESETS if r in alike]
            assert all(rulesets_alike(info.slug, other) == alike for other in alike)
    # the rules say both rulesets of these two games are the same; Duchess's differ
    for slug in ("cicely", "kingsdown-eights"):
        assert rulesets_alike(slug, "pysolfc") == rulesets_alike(slug, "standard") == ("standard", "pysolfc")
    assert rulesets_alike("duchess", "pysolfc") == ("pysolfc",)
    assert rulesets_alike("duchess", "standard") == ("standard",)


def test_a_study_of_both_rulesets_solves_each_deal_once(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "same.db")
    assert main(["study", "cicely", "duchess", "--ruleset", "all", "--deals", "1-3", "--nodes", str(NODES),
                 "--workers", "1", "--db", db]) == 0
    err = capsys.readouterr().err
    assert "cicely (pysolfc): the same rules as standard: studied once, as standard" in err
    assert "duchess (pysolfc): the same rules" not in err
    assert "done: 9 deals solved (0 skipped) of 3 games and rulesets" in err
    with Store(db) as store:
        assert store.count("cicely", "standard") == 3 and store.count("cicely", "pysolfc") == 0
        assert store.count("duchess", "standard") == store.count("duchess", "pysolfc") == 3
        decided = len(store.decided("cicely", "standard", SOLVER_VERSION, 1))
    assert main(["study", "cicely", "--ruleset", "pysolfc", "--deals", "1-3", "--nodes", str(NODES),
                 "--workers", "1", "--db", db]) == 0
    err = capsys.readouterr().err
    assert "solved as standard; its results count for both" in err
    assert f"{decided:,} deals already decided" in err or decided == 0
    assert main(["report", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "| cicely | standard = pysolfc | 3 |" in out and "| duchess | pysolfc | 3 |" in out
    assert "One line stands for rulesets with the same rules: cicely (standard = pysolfc)" in out
    assert main(["report", "--db", db, "--json"]) == 0
    lines = {(line["game"], line["ruleset"]): line for line in json.loads(capsys.readouterr().out)}
    assert set(lines) == {("cicely", "standard"), ("duchess", "standard"), ("duchess", "pysolfc")}
    assert lines["cicely", "standard"]["same_rules"] == ["pysolfc"]
    assert lines["duchess", "pysolfc"]["same_rules"] == []


def test_deals_decided_under_a_ruleset_alike_are_skipped(tmp_path: Path) -> None:
    """Results stored under the second ruleset (as a results file made before rulesets were
    shared holds them) count: a study of the first skips the deals they decided."""
    with Store(tmp_path / "old.db") as store:
        old = solve_batch("kingsdown-eights", "pysolfc", [1, 2, 3, 4], None, NODES)
        store.add(old)
        plan = StudyPlan("kingsdown-eights", "standard", [1, 2, 3, 4, 5], timeout=None, workers=1, nodes=NODES)
        progress = run_study(plan, store)
        decided = [row.deal for row in old if row.outcome != "unknown"]
        assert decided and len(decided) < 4  # deal 4 was left unknown at this node limit
        assert (progress.skipped, progress.done) == (4, 1)
        retried = run_study(replace(plan, retry_unknown=True), store)
        assert (retried.skipped, retried.done) == (len(decided), 5 - len(decided))
        assert {row.ruleset for row in store.rows() if row.deal == 5} == {"standard"}


def row(ruleset: str, deal: int, outcome: str, seconds: float) -> Row:
    return Row("kingsdown-eights", ruleset, deal, outcome, "time limit" if outcome == "unknown" else None,
               (), 10, 10, seconds, 10.0, SOLVER_VERSION, 1)


def test_the_report_merges_rulesets_alike_into_one_line() -> None:
    rows = [row("standard", 1, "won", 0.1), row("pysolfc", 1, "won", 0.2),   # won in both: one deal
            row("standard", 2, "unknown", 10.0), row("pysolfc", 2, "won", 3.0),  # decided in one
            row("pysolfc", 3, "lost", 0.5), row("standard", 4, "unknown", 10.0)]
    apart = summarize(rows)
    assert [(line.ruleset, line.deals) for line in apart] == [("pysolfc", 3), ("standard", 3)]
    (line,) = summarize(rows, alike=registered_alike())
    assert (line.ruleset, line.same_rules, line.rulesets) == ("standard", ("pysolfc",), "standard = pysolfc")
    assert (line.deals, line.won, line.lost, line.unknown) == (4, 2, 1, 1)
    table = format_table([line])
    assert "| kingsdown-eights | standard = pysolfc | 4 | 2 | 1 | 1 |" in table
    assert "- kingsdown-eights (standard = pysolfc) deal 3: every line of play tried" in table
    (only_second,) = summarize([r for r in rows if r.ruleset == "pysolfc"], alike=registered_alike())
    assert (only_second.ruleset, only_second.deals) == ("standard", 3)


def test_the_odds_of_either_ruleset_sit_beside_the_shared_study() -> None:
    (study,) = summarize([row("standard", n, "won", 0.1) for n in (1, 2)], alike=registered_alike())
    plays = [Play("kingsdown-eights", "pysolfc", "greedy", "-", 0, n, n == 1, "won" if n == 1 else "stalled",
                  100, 0.1, 1, 0, 1, "test") for n in (1, 2)]
    (line,) = summarize_odds(plays, [study])
    assert line.winnability == study
    assert "no study" not in format_odds_table([line])
    (alone,) = summarize_odds(plays, [replace(study, same_rules=())])
    assert alone.winnability is None


def test_odds_of_rulesets_alike_are_played_once_and_counted_once(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "odds.db")
    assert main(["odds", "cicely", "--deals", "1-3", "--agent", "greedy", "--workers", "1", "--db", db]) == 0
    capsys.readouterr()
    assert main(["odds", "cicely", "duchess", "--ruleset", "pysolfc", "--deals", "1-4", "--agent", "greedy",
                 "--workers", "1", "--db", db]) == 0
    captured = capsys.readouterr()
    assert "cicely (pysolfc): the same rules as standard: played as standard; its games count for both" in captured.err
    assert "duchess (pysolfc): the same rules" not in captured.err
    assert "3 deals already played by the greedy agent" in captured.err
    assert "done: 5 deals played (3 skipped)" in captured.err  # cicely 4, duchess 1-4
    assert "| cicely | standard = pysolfc | greedy | - | 4 |" in captured.out
    assert "| duchess | pysolfc | greedy | - | 4 |" in captured.out
    with Store(db) as store:
        assert store.count_plays("cicely", "standard") == 4 and store.count_plays("cicely", "pysolfc") == 0
        plays = list(store.plays("cicely"))
    # Games stored under the second ruleset (a file from before rulesets were shared) count
    # once beside the same games under the first.
    doubled = plays + [replace(play, ruleset="pysolfc") for play in plays[:2]]
    (line,) = summarize_odds(doubled, alike=registered_alike())
    assert (line.rulesets, line.games, line.deals, line.won) == ("standard = pysolfc", 4, 4,
                                                                  sum(play.won for play in plays))
    assert len(summarize_odds(doubled)) == 2
