"""The odds: agents play ranges of deals through the study's store and runners."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

import kibitz
from kibitz.agents import AGENT_VERSIONS, SETTINGS, STUDY, agent
from kibitz.agents.play import play_out
from kibitz.cli import main
from kibitz.solver import SOLVER_VERSION
from kibitz.study.odds import NO_SETTING, OddsPlan, generator, play_batch, run_odds
from kibitz.intervals import wilson
from kibitz.study.report import format_odds_table, summarize, summarize_odds
from kibitz.study.runner import run_local, solve_batch
from kibitz.study.store import Play, Store

PLAN = OddsPlan("duchess", "standard", "greedy", list(range(1, 13)), workers=2, batch=3)
GREEDY_VERSION = AGENT_VERSIONS["greedy"]


def comparable(plays: list[Play]) -> list[tuple[object, ...]]:
    """What must agree between two runs (everything but the clock)."""
    return [(p.game, p.ruleset, p.agent, p.setting, p.seed, p.deal, p.won, p.ending, p.moves, p.agent_version,
             p.solver_version, p.rules_version, p.kibitz_version) for p in plays]


def table_without_clock(store: Store) -> list[tuple[object, ...]]:
    """The odds table of ``store`` without its processor times."""
    return [(line.game, line.ruleset, line.agent, line.setting, line.games, line.won, line.rate, line.interval,
             line.moves, line.endings) for line in summarize_odds(store.plays())]


def test_a_deal_is_played_as_play_out_plays_it_with_the_deal_seeded_generator() -> None:
    game = kibitz.game("duchess")
    rows = play_batch("duchess", "standard", "greedy", "study", 3, [1, 2, 5])
    for row in rows:
        again = play_out(game.deal(row.deal), agent("greedy"), generator(3, row.deal))
        assert (row.won, row.ending, row.moves) == (again.won, again.end, len(again.moves))
        assert row.setting == NO_SETTING and row.solver_version == 0 and row.seed == 3
        assert row.agent_version == GREEDY_VERSION and row.kibitz_version == kibitz.__version__
        assert row.cpu_seconds > 0
    assert generator(0, 7).random() == generator(0, 7).random() != generator(1, 7).random()


def test_the_random_agent_depends_on_the_seed() -> None:
    first = play_batch("cicely", "standard", "random", "study", 0, [1, 2, 3])
    other = play_batch("cicely", "standard", "random", "study", 1, [1, 2, 3])
    assert comparable(first) == comparable(play_batch("cicely", "standard", "random", "study", 0, [1, 2, 3]))
    assert [p.moves for p in first] != [p.moves for p in other]


TINY = STUDY.but(name="tiny", samples=2, least=1, nodes=150, spend=2)
"""A strong agent's setting far cheaper than the study's, for the tests (played in this process)."""


def test_the_strong_agent_keeps_its_setting_and_solver_version(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SETTINGS, TINY.name, TINY)
    plan = OddsPlan("duchess", "standard", "strong", [1], setting=TINY.name, workers=1)
    with Store(tmp_path / "o.db") as store:
        store.add_plays([replace(make_play(1, True, 1.0, game="duchess"), agent="strong", setting="study",
                                 solver_version=SOLVER_VERSION)])
        assert run_odds(plan, store).done == 1, "a game with another setting is not this one"
        (_, row) = store.plays()
        assert (row.agent, row.setting, row.solver_version) == ("strong", TINY.name, SOLVER_VERSION)
        again = play_out(kibitz.game("duchess").deal(1), agent("strong", TINY), generator(0, 1))
        assert (row.won, row.ending, row.moves) == (again.won, again.end, len(again.moves))
        assert run_odds(plan, store).skipped == 1


def test_workers_one_and_two_play_the_same_games(tmp_path: Path) -> None:
    results = []
    for workers in (1, 2):
        with Store(tmp_path / f"w{workers}.db") as store:
            for name in ("random", "greedy"):
                run_odds(OddsPlan("duchess", "standard", name, list(range(1, 9)), workers=workers, batch=2), store)
            results.append(comparable(list(store.plays())))
    assert len(results[0]) == 16 and results[0] == results[1]


def test_interrupted_odds_resume_to_the_same_table(tmp_path: Path) -> None:
    with Store(tmp_path / "whole.db") as store:
        progress = run_odds(PLAN, store)
        assert (progress.done, progress.won + progress.lost) == (12, 12)
        whole, whole_table = list(store.plays()), table_without_clock(store)

    def interrupt_after(batches: int) -> Callable[[OddsPlan, list[list[int]], Callable[[list[Play]], None]], None]:
        def backend(plan: OddsPlan, work: list[list[int]], deliver: Callable[[list[Play]], None]) -> None:
            delivered = 0

            def counting(rows: list[Play]) -> None:
                nonlocal delivered
                deliver(rows)
                delivered += 1
                if delivered == batches:
                    raise KeyboardInterrupt
            run_local(plan, work, counting)
        return backend

    with Store(tmp_path / "parts.db") as store:
        with pytest.raises(KeyboardInterrupt):
            run_odds(PLAN, store, interrupt_after(2))
        # The two batches delivered survive; so may the finished deals of the batches in
        # flight, which the workers hand in when told to stop after the deal in hand.
        kept = store.count_plays()
        assert 2 * PLAN.batch <= kept <= len(PLAN.deals), "finished batches survive the interruption"
        resumed = run_odds(PLAN, store)
        assert (resumed.skipped, resumed.done) == (kept, len(PLAN.deals) - kept)
        assert comparable(list(store.plays())) == comparable(whole)
        assert table_without_clock(store) == whole_table


def test_games_of_other_versions_are_played_again_and_kept_apart(tmp_path: Path) -> None:
    with Store(tmp_path / "o.db") as store:
        older = play_batch("duchess", "standard", "greedy", "study", 0, [1, 2])
        store.add_plays(replace(p, agent_version=GREEDY_VERSION - 1, won=True) for p in older)
        progress = run_odds(replace(PLAN, deals=[1, 2, 3], workers=1), store)
        assert (progress.skipped, progress.done) == (0, 3)
        lines = summarize_odds(store.plays())
        assert [(line.agent_version, line.games) for line in lines] == [(GREEDY_VERSION - 1, 2), (GREEDY_VERSION, 3)]
        assert lines[0].won == 2


def make_play(deal: int, won: bool, seconds: float, *, seed: int = 0, game: str = "cicely") -> Play:
    return Play(game, "standard", "greedy", NO_SETTING, seed, deal, won, "won" if won else "stalled", 100 + deal,
                seconds, GREEDY_VERSION, 0, 1, "0.1.0")


def test_report_figures_come_from_the_rows() -> None:
    plays = [make_play(n, n % 4 == 0, 0.01 * n) for n in range(1, 101)]
    (line,) = summarize_odds(plays)
    assert (line.games, line.deals, line.won, line.seeds) == (100, 100, 25, (0,))
    assert line.rate == 0.25 and line.interval == pytest.approx(wilson(25, 100))
    assert line.cpu_seconds == pytest.approx(statistics.fmean(0.01 * n for n in range(1, 101)))
    assert line.moves == pytest.approx(150.5)
    assert line.endings == (("stalled", 75), ("won", 25))
    assert line.winnability is None
    table = format_odds_table([line], "x.db")
    assert "| cicely | standard | greedy | - | 100 | 25 | 25.00% | 17.55% - 34.30% | 0.505 | 150 | no study |" in table
    assert "No study results for cicely (standard) in x.db" in table
    twice = summarize_odds(plays + [make_play(n, False, 0.1, seed=1) for n in range(1, 101)])
    assert (twice[0].games, twice[0].deals, twice[0].seeds) == (200, 100, (0, 1))
    assert "not independent" in format_odds_table(twice)


def test_report_sets_the_study_beside_the_odds(tmp_path: Path) -> None:
    with Store(tmp_path / "o.db") as store:
        store.add(solve_batch("duchess", "standard", [1, 2, 3], None, 3_000))
        run_odds(replace(PLAN, deals=[1, 2, 3], workers=1), store)
        (study,) = summarize(store.rows())
        (line,) = summarize_odds(store.plays(), [study])
    assert line.winnability == study
    table = format_odds_table([line])
    assert "no study" not in table and f"| {study.deals:,} | agent {GREEDY_VERSION} |" in table


def test_cli_odds_then_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    assert main(["odds", "duchess,cicely", "Cicely", "--deals", "1-4", "--agent", "random",
                 "--agent", "greedy", "--workers", "1", "--db", db]) == 0
    captured = capsys.readouterr()
    assert "done: 16 deals played (0 skipped)" in captured.err
    assert "duchess (standard), greedy agent, seed 0:" in captured.err and "unknown" not in captured.err
    assert captured.out.count("| duchess | standard |") == 2 and "no study" in captured.out
    assert captured.out.count("| cicely | standard = pysolfc |") == 2  # one line for rulesets with the same rules
    assert main(["study", "duchess", "--deals", "1-4", "--nodes", "3000", "--workers", "1", "--db", db]) == 0
    assert main(["odds", "duchess", "--deals", "1-6", "--agent", "greedy", "--workers", "1", "--db", db]) == 0
    captured = capsys.readouterr()
    assert "4 deals already played by the greedy agent" in captured.err
    assert "done: 2 deals played (4 skipped)" in captured.err
    assert "| duchess | standard | greedy | - | 6 |" in captured.out
    assert main(["odds", "--report", "--db", db, "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)
    with Store(db) as store:
        plays = list(store.plays())
    assert [(x["game"], x["agent"], x["games"], x["won"]) for x in lines] == [
        (game, name, len(group), sum(p.won for p in group))
        for game, name in (("cicely", "greedy"), ("cicely", "random"), ("duchess", "greedy"), ("duchess", "random"))
        for group in [[p for p in plays if (p.game, p.agent) == (game, name)]]]
    duchess = [x for x in lines if x["game"] == "duchess"]
    assert all(x["thoughtful"]["deals"] == 4 for x in duchess)
    assert all(x["thoughtful"] is None for x in lines if x["game"] == "cicely")
    assert main(["odds", "--report", "duchess", "--agent", "random", "--deals", "2-3", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "| duchess | standard | random | - | 2 |" in out and "greedy" not in out and "cicely" not in out
    assert main(["odds", "--report", "all", "--ruleset", "pysolfc", "--db", db]) == 0
    out = capsys.readouterr().out  # Cicely's games count for its pysolfc rules too; Duchess's do not
    assert "| cicely | standard = pysolfc | random |" in out and "duchess" not in out
    assert main(["odds", "--report", "duchess", "--ruleset", "pysolfc", "--db", db]) == 0
    assert "holds no games played by agents" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["odds", "nope", "--deals", "1-2"], "unknown game"),
    (["odds", "duchess", "--deals", "1-2", "--agent", "perfect"], "unknown agent 'perfect'"),
    (["odds", "duchess", "--deals", "1-2", "--agent", "greedy,"], "unknown agent ''"),
    (["odds", "duchess", "--deals", "5-1"], "the end is before the start"),
    (["odds", "duchess", "--deals", "0-3"], "deal"),
    (["odds", "duchess", "--deals", "x"], "deal"),
    (["odds", "duchess"], "give the deals to play with --deals"),
    (["odds", "--deals", "1-3"], "name a GAME"),
    (["odds", "duchess", "--deals", "1-2", "--ruleset", "pysolfcx"], "unknown ruleset"),
    (["odds", "duchess", "--deals", "1-2", "--json"], "--json is for the table of --report"),
    (["odds", "duchess", "--deals", "1-2", "--address", "auto"], "--address is for the ray backend"),
    (["odds", "duchess", "--deals", "1-2", "--seed", "-1"], "not a whole number"),
    (["odds", "duchess", "--deals", "1-2", "--setting", "huge"], "invalid choice"),
    (["odds", "--report", "--db", "/nonexistent/x.db"], "no results file"),
])
def test_cli_odds_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and message in err, err
    assert not (tmp_path / "kibitz-study.db").exists(), "bad input stores nothing"


def test_ray_backend_plays_the_same_games_as_local(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray backend needs the cluster extra")
    from kibitz.study.ray_backend import ray_runner
    plan = OddsPlan("tournament", "standard", "greedy", list(range(1, 9)), workers=2, batch=2)
    with Store(tmp_path / "local.db") as store:
        run_odds(plan, store)
        local = list(store.plays())
    with Store(tmp_path / "ray.db") as store, ray_runner(None) as runner:
        run_odds(plan, store, runner)
        on_ray = list(store.plays())
    assert len(local) == len(plan.deals)
    assert comparable(on_ray) == comparable(local)


def as_from_a_terminal() -> None:
    """A child's start-up: Ctrl-C acts as in a terminal, even where the tests themselves run in
    the background (which ignores it, and a child would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_at_the_terminal_stops_odds_cleanly_and_a_rerun_resumes(tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too: the coordinating process stores every finished batch,
    ends the workers and says how to continue; the same command then skips what is stored."""
    db = tmp_path / "o.db"
    command = [sys.executable, "-m", "kibitz", "odds", "kingsdown-eights", "--deals", "1-3000", "--agent", "greedy",
               "--workers", "2", "--batch", "1", "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True, preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
            if db.exists():
                with Store(db) as store:
                    if store.count_plays() >= 2:
                        break
        assert process.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.3)
        os.killpg(process.pid, signal.SIGINT)
        out, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, errors
    assert "interrupted:" in errors and "run the same command again" in errors
    assert "Traceback" not in errors and out == "", errors
    with Store(db) as store:
        stored = {p.deal for p in store.plays()}
    assert len(stored) >= 2 and f"interrupted: {len(stored):,} new games are stored" in errors
    first = max(stored) + 2
    rerun = subprocess.run(command[:5] + ["--deals", f"1-{first}"] + command[7:], capture_output=True, text=True,
                           env=env, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(stored):,} deals already played by the greedy agent" in rerun.stderr
    with Store(db) as store:
        assert {p.deal for p in store.plays()} == stored | set(range(1, first + 1))
