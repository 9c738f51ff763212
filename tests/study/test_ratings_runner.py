"""``scripts/ratings``, the rating runner, on a few deals of Parisienne: it reads the solver's
verdicts in first, plays a block with the three seeds, stops once no level could reach 50 deals
by the cap, declares the levels still short of 50 deals empty, writes the ratings file, and
resumes without playing again; with the plays kept (``kibitz results export --plays``) a fresh results file goes on
from them."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path


from kibitz.difficulty import parse_ratings

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "ratings"
VERDICTS = ("game,ruleset,deal,outcome,reason,nodes,states,seconds,timeout,node_limit,clock,solver_version,"
            "rules_version,recorded\n"
            "parisienne,standard,1,won,,1628,1,0.0002,10.0,,cpu,22,1,2026-12-05T20:02:24Z\n"
            "parisienne,standard,2,unknown,time limit,90000,1,10.0,10.0,,cpu,22,1,2026-12-05T20:02:24Z\n"
            "parisienne,standard,3,won,,133,1,0.0000,10.0,,cpu,22,1,2026-12-05T20:02:24Z\n")


def paths(tmp_path: Path, db: str = "ratings.db") -> dict[str, str]:
    """The runner's files under ``tmp_path``, the kept verdicts holding deals 1-3 of Parisienne."""
    verdicts = tmp_path / "winnability"
    verdicts.mkdir(exist_ok=True)
    with gzip.open(verdicts / "parisienne-standard.csv.gz", "wt", encoding="utf-8") as out:
        out.write(VERDICTS)
    return {"KIBITZ_RATINGS_DB": str(tmp_path / db), "KIBITZ_RATINGS_KEPT": str(tmp_path / "kept"),
            "KIBITZ_ODDS_KEPT": str(tmp_path / "odds"), "KIBITZ_WINNABILITY_KEPT": str(verdicts), "KIBITZ_RATINGS_OUT": str(tmp_path / "ratings.json"),
            "KIBITZ_PYTHON": sys.executable}


def run(files: dict[str, str], *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "--games", "parisienne", "--rulesets", "standard", "--block", "2",
                           "--max-deals", "3", "--workers", "1", *options], capture_output=True, text=True,
                          env=os.environ | files, timeout=300)


def played(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The deals of each ``kibitz odds`` the runner ran, with the seed."""
    lines = [line.split() for line in done.stderr.splitlines() if line.startswith("+ kibitz odds")]
    return [f"{words[words.index('--deals') + 1]} seed {words[words.index('--seed') + 1]}" for words in lines]


def check_ratings(path: str) -> None:
    """The first block's two deals rated: too few for any level, and the cap of three deals could
    not change that, so every level is empty and the deals are kept for the deal of the day only,
    with the kept verdicts."""
    data = json.loads(Path(path).read_text("utf-8"))
    ratings = parse_ratings(data)
    line = data["games"]["parisienne"]["standard"]
    assert line["deals"] == [] and ratings.deals("parisienne", "standard") == ()
    assert set(line["empty"]) == {"easy", "medium", "hard"}
    assert {reason["deals_rated"] for reason in line["empty"].values()} == {2}
    assert line["daily"] == [{"deal": 1, "winnable": True}, {"deal": 2, "winnable": None}]
    assert data["made"]["run"] == {"block": 2, "max_deals": 3} and data["made"]["seeds"] == [0, 1, 2]


def test_the_runner_stops_when_no_level_can_fill_and_declares_the_short_levels_empty(tmp_path: Path) -> None:
    files = paths(tmp_path)
    done = run(files, "--no-keep")
    assert done.returncode == 0, done.stderr
    assert "+ kibitz results import" in done.stderr
    assert played(done) == [f"1-2 seed {seed}" for seed in (0, 1, 2)]
    assert "parisienne (standard): easy" in done.stderr and "rated 2 covered 2" in done.stderr
    check_ratings(files["KIBITZ_RATINGS_OUT"])
    again = run(files, "--no-keep")   # resumed: every line is done, nothing is played again
    assert again.returncode == 0, again.stderr
    assert played(again) == []
    check_ratings(files["KIBITZ_RATINGS_OUT"])
    assert not Path(files["KIBITZ_RATINGS_KEPT"]).exists()


def test_the_runner_refuses_a_block_that_is_not_a_number(tmp_path: Path) -> None:
    done = subprocess.run([str(SCRIPT), "--block", "many", "--no-keep"], capture_output=True, text=True,
                          env=os.environ | paths(tmp_path), timeout=60)
    assert done.returncode == 2 and "--block and --max-deals take a whole number of deals from 1, not 'many'" \
        in done.stderr


def test_the_kept_plays_let_a_fresh_results_file_go_on(tmp_path: Path) -> None:
    files = paths(tmp_path)
    done = run(files)
    assert done.returncode == 0, done.stderr
    kept = Path(files["KIBITZ_RATINGS_KEPT"]) / "parisienne-standard.csv.gz"
    assert kept.is_file() and len(played(done)) == 3
    fresh = files | {"KIBITZ_RATINGS_DB": str(tmp_path / "fresh.db")}
    again = run(fresh)
    assert again.returncode == 0, again.stderr
    assert str(kept) in again.stderr and played(again) == []
    check_ratings(files["KIBITZ_RATINGS_OUT"])


def test_the_odds_strong_games_are_not_played_again(tmp_path: Path) -> None:
    """The odds' kept seed-0 games of the strong agent at the study setting are the rating's own;
    their other games are read but neither used nor kept with the rating."""
    from kibitz.study.archive import export_rows
    from kibitz.study.odds import play_batch
    from kibitz.study.store import Store
    from kibitz.study.tables import PLAYS
    files = paths(tmp_path)
    odds = Path(files["KIBITZ_ODDS_KEPT"])
    odds.mkdir()
    with Store(tmp_path / "odds.db") as store:
        store.add_plays(play_batch("parisienne", "standard", "strong", "study", 0, [1, 2]))
        store.add_plays(play_batch("parisienne", "standard", "greedy", "study", 0, [1, 2, 3]))
        export_rows(store, odds / "parisienne-standard.csv.gz", write=PLAYS.write)
    done = run(files)
    assert done.returncode == 0, done.stderr
    assert str(odds / "parisienne-standard.csv.gz") in done.stderr
    assert played(done) == [f"1-2 seed {seed}" for seed in (0, 1, 2)]
    assert "2 deals already played by the strong agent" in done.stderr   # seed 0: skipped
    with gzip.open(Path(files["KIBITZ_RATINGS_KEPT"]) / "parisienne-standard.csv.gz", "rt") as kept:
        rows = [line.split(",") for line in kept.read().splitlines()[1:]]
    assert sorted((row[2], row[4], row[5]) for row in rows) == sorted(("strong", str(seed), str(deal))
                                                                     for deal in (1, 2) for seed in (0, 1, 2))
    check_ratings(files["KIBITZ_RATINGS_OUT"])


def test_a_run_on_other_games_keeps_the_verdicts_of_the_lines_rated_before(tmp_path: Path) -> None:
    """The ratings file is written for every line the results file holds plays of: on a fresh
    results file, a run that chooses another game reads the kept verdicts of the lines whose plays
    it reads, so "winnable only" of those lines does not fall back to undecided."""
    files = paths(tmp_path)
    assert run(files).returncode == 0
    check_ratings(files["KIBITZ_RATINGS_OUT"])
    fresh = files | {"KIBITZ_RATINGS_DB": str(tmp_path / "fresh.db")}
    environment = {name: value for name, value in (os.environ | fresh).items() if name != "KIBITZ_PURE_PYTHON"}
    other = subprocess.run([str(SCRIPT), "--games", "grand-duchess", "--rulesets", "standard", "--block", "1",
                            "--max-deals", "1", "--workers", "1"], capture_output=True, text=True,
                           env=environment, timeout=300)   # the native kernel where built: three quick games
    assert other.returncode == 0, other.stderr
    assert played(other) == [f"1-1 seed {seed}" for seed in (0, 1, 2)]
    assert str(Path(files["KIBITZ_WINNABILITY_KEPT"]) / "parisienne-standard.csv.gz") in other.stderr
    assert "grand-duchess/standard     no solver verdict" in other.stdout   # none kept in this test
    assert "parisienne/standard        no solver verdict" not in other.stdout
    data = json.loads(Path(files["KIBITZ_RATINGS_OUT"]).read_text("utf-8"))
    assert set(data["games"]) == {"parisienne", "grand-duchess"}
    assert data["games"]["parisienne"]["standard"]["daily"] == [{"deal": 1, "winnable": True},
                                                                {"deal": 2, "winnable": None}]
