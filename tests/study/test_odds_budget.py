"""The strong agent at a budget factor: ``kibitz odds --budget N`` (Setting.scaled)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import kibitz
import kibitz.agents
from kibitz.agents import AGENT_VERSIONS, HINT, SETTINGS, STUDY, Agent, Setting, agent
from kibitz.agents.play import play_out
from kibitz.agents.setting import AGENT_NODES, budget_of, scaled_name
from kibitz.cli import main
from kibitz.families import Family
from kibitz.solver import SOLVER_VERSION
from kibitz.study.odds import OddsPlan, generator, play_batch, run_odds
from kibitz.study.store import Play, Store

TINY = STUDY.but(name="tiny", samples=2, least=1, nodes=150, spend=2)
"""A strong agent's setting far cheaper than the study's, for the tests (played in this process)."""


def test_a_scaled_setting_has_n_times_the_nodes_for_every_family_and_the_rest_unchanged() -> None:
    for setting in (STUDY, HINT):
        scaled = setting.scaled(10)
        assert scaled.name == f"{setting.name}*10"
        for family in (*Family, None):
            assert scaled.nodes_for(family, True) == 10 * setting.nodes_for(family, True)
            assert scaled.budget_for(family, True) == 10 * (setting.budget_for(family, True) or 0) > 0
        assert (scaled.samples, scaled.least, scaled.spend, scaled.candidates, scaled.method) == \
            (setting.samples, setting.least, setting.spend, setting.candidates, setting.method)
    assert STUDY.scaled(1) is STUDY
    assert STUDY.scaled(100).nodes_for(Family.DUCHESS, True) == 100 * dict(AGENT_NODES.by_family)[Family.DUCHESS]
    assert STUDY.scaled(10).nodes_for(Family.DUCHESS, False) == 3_000, "pure Python keeps its cap"
    assert TINY.scaled(3).nodes == 450
    with pytest.raises(ValueError, match="budget factor"):
        STUDY.scaled(0)


def test_a_budget_is_named_and_read_back_from_the_setting_it_stores() -> None:
    assert scaled_name("study", 10) == "study*10" and scaled_name("hint", 1) == "hint"
    assert budget_of("study*10") == ("study", 10) and budget_of("study") == ("study", 1)
    assert budget_of("-") == ("-", 1)


def test_the_strong_agent_plays_with_the_scaled_setting_and_stores_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SETTINGS, TINY.name, TINY)
    given: list[Setting] = []

    def recording(name: str, setting: Setting = HINT) -> Agent:
        given.append(setting)
        return agent(name, setting)
    monkeypatch.setattr(kibitz.agents, "agent", recording)
    plan = OddsPlan("parisienne", "standard", "strong", [1], setting=TINY.name, workers=1, budget=2)
    with Store(tmp_path / "o.db") as store:
        assert run_odds(plan, store).done == 1
        (row,) = store.plays()
        assert given == [TINY.scaled(2)]
        assert (row.setting, row.agent_version, row.solver_version) == ("tiny*2", 3, SOLVER_VERSION)
        again = play_out(kibitz.game("parisienne").deal(1), agent("strong", TINY.scaled(2)), generator(0, 1))
        assert (row.won, row.ending, row.moves) == (again.won, again.end, len(again.moves))
        assert run_odds(plan, store).skipped == 1, "a rerun at the same budget resumes"
        assert run_odds(replace(plan, budget=1), store).done == 1, "another budget is another line"
        assert sorted(play.setting for play in store.plays()) == ["tiny", "tiny*2"]


def test_at_budget_one_the_strong_agent_plays_as_before() -> None:
    assert AGENT_VERSIONS["strong"] == 3
    (row,) = play_batch("parisienne", "standard", "strong", "study", 0, [2], budget=1)
    before = play_out(kibitz.game("parisienne").deal(2), agent("strong", STUDY), generator(0, 2))
    assert (row.setting, row.won, row.ending, row.moves) == ("study", before.won, before.end, len(before.moves))


def test_batches_shrink_with_the_budget() -> None:
    plan = OddsPlan("duchess", "standard", "strong", list(range(1, 10_001)), workers=1)
    assert [replace(plan, budget=budget).batch_size(10_000) for budget in (1, 3, 10)] == [12, 4, 1]  # a minute each


def made_up(setting: str, agent_name: str = "strong", won: bool = True) -> Play:
    return Play("duchess", "standard", agent_name, setting, 0, 1, won, "won" if won else "stalled", 100, 1.0,
                AGENT_VERSIONS[agent_name], SOLVER_VERSION if agent_name == "strong" else 0, 1, "0.2.0")


def test_the_report_keeps_budgets_on_lines_of_their_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "o.db")
    with Store(db) as store:
        store.add_plays([made_up("study"), made_up("study*10", won=False), made_up("hint*10"), made_up("-", "greedy")])
    assert main(["odds", "--report", "--db", db]) == 0
    out = capsys.readouterr().out
    for setting in ("study", "study*10", "hint*10"):
        assert out.count(f"| duchess | standard | strong | {setting} | 1 |") == 1, out
    assert main(["odds", "--report", "--db", db, "--budget", "10"]) == 0
    out = capsys.readouterr().out
    assert "| strong | study*10 | 1 | 0 |" in out and "| strong | hint*10 | 1 | 1 |" in out
    assert "| strong | study | " not in out and "| greedy | - | 1 |" in out
    assert main(["odds", "--report", "--db", db, "--budget", "10", "--setting", "study", "--agent", "strong"]) == 0
    out = capsys.readouterr().out
    assert "study*10" in out and "hint" not in out and "greedy" not in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "greedy", "--budget", "10"], "--budget is for an agent that searches (strong); greedy does not"),
    (["--agent", "strong,random,greedy", "--budget", "1"], "random and greedy do not"),
    (["--budget", "0"], "is neither a whole number from 1 to 1,000 nor 'chosen'"),
    (["--budget", "1001"], "is neither a whole number from 1 to 1,000 nor 'chosen'"),
])
def test_a_bad_budget_is_refused_before_anything_runs(argv: list[str], message: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["odds", "parisienne", "--deals", "1-2", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err
    assert not (tmp_path / "kibitz-study.db").exists()
