"""The strong agent's budget step (:mod:`kibitz.study.budgets`): its results counted on the games
every budget played, the budget it chooses, the odds quoted at that budget, and ``kibitz odds
--budget chosen`` playing each game at its own."""

from __future__ import annotations

from pathlib import Path

import pytest

import kibitz
from kibitz.cli import main
from kibitz.study.budgets import BudgetResult, Choice, budget_steps, choose
from kibitz.study.commands import registered_alike
from kibitz.study.odds import versions_of
from kibitz.study.odds_commands import NO_BUDGET
from kibitz.study.pages.tables import chosen_odds
from kibitz.study.report import summarize_odds
from kibitz.study.store import Play, Store


def play(game: str, setting: str, deal: int, won: bool, ruleset: str = "standard", seed: int = 0,
         agent: str = "strong", seconds: float = 1.0) -> Play:
    agent_version, solver, rules = versions_of(game, ruleset, agent)
    return Play(game, ruleset, agent, setting, seed, deal, won, "won" if won else "no move left", 100, seconds,
                agent_version, solver, rules, kibitz.__version__)


def test_a_step_counts_the_games_every_budget_played_and_chooses() -> None:
    plays = ([play("duchess", "study", deal, deal <= 3) for deal in range(1, 11)]          # 3 of the first 6 won
             + [play("duchess", "study*10", deal, True, seconds=5.0) for deal in range(1, 7)]
             + [play("duchess", "study", deal, True, seed=1) for deal in range(1, 7)]     # a seed no budget shares
             + [play("duchess", "greedy", deal, False, agent="greedy") for deal in range(1, 7)]
             + [play("cicely", "study", deal, True) for deal in range(1, 5)]
             + [play("cicely", "study*10", deal, deal != 2, "pysolfc") for deal in range(1, 5)]
             + [play("tournament", "study", deal, True) for deal in range(1, 5)])         # one budget: no step
    steps = {(step.game, step.ruleset): step for step in budget_steps(plays, alike=registered_alike())}
    assert set(steps) == {("duchess", "standard"), ("cicely", "standard")}
    duchess = steps["duchess", "standard"]
    assert duchess.deals == 6 and duchess.setting == "study"
    assert duchess.results == (BudgetResult(1, 3, 6, 1.0), BudgetResult(10, 6, 6, 5.0))
    assert duchess.choice() == Choice(10, True)     # 6 of 6 is above the top of 3 of 6's interval
    cicely = steps["cicely", "standard"]             # its two rulesets have the same rules: one step
    assert cicely.same_rules == ("pysolfc",) and cicely.deals == 4
    assert cicely.choice() == Choice(1, False)
    assert [step.game for step in budget_steps(plays)] == ["duchess"]  # without alike, cicely's rulesets stay apart


def test_the_odds_quote_the_strong_agent_at_the_budget_chosen() -> None:
    plays = ([play("duchess", "study", deal, deal % 4 != 0) for deal in range(1, 41)]
             + [play("duchess", "study*10", deal, True) for deal in range(1, 11)])
    lines = summarize_odds(plays)
    assert chosen_odds(lines)["duchess", "standard", "strong"].setting == "study"       # most games
    assert chosen_odds(lines, {("duchess", "standard"): 10})["duchess", "standard", "strong"].setting == "study*10"
    # a choice with no line at its budget leaves the line of most games
    assert chosen_odds(lines, {("duchess", "standard"): 100})["duchess", "standard", "strong"].setting == "study"


def test_the_odds_command_plays_each_game_at_its_chosen_budget(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "odds.db"
    with Store(db) as store:
        store.add_plays([play("parisienne", "study", deal, False) for deal in range(200001, 200021)]
                        + [play("parisienne", "study*10", deal, True) for deal in range(200001, 200021)])
    # a game with no budget step is skipped, said so, and the others are played
    assert main(["odds", "grand-duchess", "parisienne", "--deals", "2", "--budget", "chosen", "--db", str(db),
                 "--workers", "1"]) == NO_BUDGET
    err = capsys.readouterr().err
    assert "skipped: the strong agent in grand-duchess (standard): no budget step of the strong agent (study " \
           "setting) for grand-duchess (standard)" in err
    assert "not played, no budget step yet: the strong agent in grand-duchess (standard)" in err
    with Store(db) as store:
        assert not list(store.plays("grand-duchess"))
        assert [(p.deal, p.setting) for p in store.plays("parisienne") if p.deal == 2] == [(2, "study*10")]
    assert main(["odds", "parisienne", "--deals", "1", "--budget", "chosen", "--db", str(db), "--workers", "1"]) == 0
    assert "parisienne (standard): the budget its budget step chose: 10x (still gaining: the largest measured), " \
           "on 20 deals" in capsys.readouterr().err
    with Store(db) as store:
        assert [(p.deal, p.setting) for p in store.plays("parisienne") if p.deal == 1] == [(1, "study*10")]
    assert main(["odds", "--report", "--budget", "chosen", "--db", str(db)]) == 2
    assert "--budget chosen is for playing" in capsys.readouterr().err
    assert main(["odds", "parisienne", "--deals", "1", "--budget", "some", "--db", str(db)]) == 2
    assert "'some' is neither a whole number from 1 to 1,000 nor 'chosen'" in capsys.readouterr().err


def test_a_budget_past_the_affordable_cost_is_not_chosen() -> None:
    assert choose({1: (8, 30), 10: (25, 30)}, {1: 17.0, 10: 180.0}) == Choice(1, False, (10, 180.0))
    assert Choice(1, False, (10, 180.0)).words() == "1x (10x costs 180.0 s a game, more than the affordable 20 s)"
    # no gain on the first deals it could afford: still its cost is the reason (those few deals prove little)
    assert choose({1: (8, 30), 10: (9, 30)}, {1: 17.0, 10: 180.0}) == Choice(1, False, (10, 180.0))
    assert choose({1: (8, 30), 10: (25, 30), 100: (30, 30)}, {1: 1.0, 10: 10.0, 100: 100.0}) == \
        Choice(10, False, (100, 100.0))
    assert choose({1: (8, 30), 10: (25, 30)}, {1: 1.0, 10: 180.0}, affordable=200.0) == Choice(10, True)


def test_the_odds_command_stops_a_line_too_costly_after_its_first_deals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from kibitz.study import odds_commands
    monkeypatch.setattr(odds_commands, "PROBE_DEALS", 2)   # the first 2 deals decide, not 10: a quicker test
    db = tmp_path / "odds.db"
    assert main(["odds", "parisienne", "--deals", "1-3", "--affordable", "0.000001", "--db", str(db),
                 "--workers", "1"]) == 3
    err = capsys.readouterr().err
    assert "parisienne (standard), study: " in err and "s a game on its first 2 deals, more than the affordable " \
        "1e-06 s: stopped there" in err
    assert "stopped after its first 2 deals, more costly than --affordable: parisienne (standard) at study" in err
    with Store(db) as store:
        assert sorted(play.deal for play in store.plays("parisienne")) == [1, 2]
    assert main(["odds", "parisienne", "--deals", "1-3", "--affordable", "--db", str(db), "--workers", "1"]) == 0
    assert "done: 1 deals played (2 skipped)" in capsys.readouterr().err
    with Store(db) as store:
        assert sorted(play.deal for play in store.plays("parisienne")) == [1, 2, 3]
    assert main(["odds", "parisienne", "--deals", "1-3", "--affordable", "0", "--db", str(db)]) == 2
    assert "'0' is not a number of seconds above 0" in capsys.readouterr().err
