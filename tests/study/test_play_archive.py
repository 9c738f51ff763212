"""The games played by agents as CSV: ``kibitz results export --plays`` and ``import``
(kibitz.study.tables.PLAYS)."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.errors import KibitzError
from kibitz.study.archive import export_rows, read_file
from kibitz.study.odds import play_batch
from kibitz.study.store import Play, Store
from kibitz.study.tables import PLAYS

HEADER = ("game,ruleset,agent,setting,seed,deal,won,ending,moves,cpu_seconds,agent_version,solver_version,"
          "rules_version,kibitz_version,recorded")
GOOD = "parisienne,standard,greedy,-,0,4,1,won,120,0.0123,1,0,1,0.2.0,2026-12-03T12:00:00Z"


def made_up_strong(deal: int, won: bool) -> Play:
    """A strong agent's row at ten times the study setting's nodes (the store keeps any row it is given)."""
    return Play("duchess", "pysolfc", "strong", "study*10", 7, deal, won, "won" if won else "repeated position",
                150, 12.345678, 3, 22, 1, "0.2.0")


def plays_to_the_tenth_of_a_millisecond(store: Store) -> list[Play]:
    return [replace(play, cpu_seconds=round(play.cpu_seconds, 4)) for play in store.plays()]


def test_plays_exported_then_imported_into_a_fresh_file_are_the_same_plays(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    db, copy, kept = tmp_path / "a.db", tmp_path / "copy.db", tmp_path / "plays.csv.gz"
    with Store(db) as store:
        store.add_plays(play_batch("parisienne", "standard", "greedy", "study", 0, [1, 2, 3]))
        store.add_plays(play_batch("parisienne", "standard", "random", "study", 1, [1, 2]))
        store.add_plays([made_up_strong(99999999999999999999, False), made_up_strong(5, True)])
        original = plays_to_the_tenth_of_a_millisecond(store)
        recorded = store.play_records()
    assert main(["results", "export", "--db", str(db), "--plays", str(kept)]) == 0
    assert "7 games played by agents written to" in capsys.readouterr().err
    assert gzip.decompress(kept.read_bytes()).decode().splitlines()[0] == HEADER
    assert main(["results", "import", "--db", str(copy), str(kept)]) == 0
    assert "7 games played by agents read, 7 added" in capsys.readouterr().err
    with Store(copy) as store:
        assert plays_to_the_tenth_of_a_millisecond(store) == original
        assert [record[-1] for record in store.play_records()] == [record[-1] for record in recorded]
        assert {play.setting for play in store.plays()} == {"-", "study*10"}
        again = export_rows(store, tmp_path / "again.csv.gz", write=PLAYS.write)
    assert again.rows == 7 and (tmp_path / "again.csv.gz").read_bytes() == kept.read_bytes()
    assert main(["results", "import", "--db", str(copy), str(kept)]) == 0
    assert "7 read, 0 added" in capsys.readouterr().err.replace("games played by agents ", "")


def test_export_of_one_game_and_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    with Store(db) as store:
        store.add_plays(play_batch("parisienne", "standard", "greedy", "study", 0, [1, 2]))
        store.add_plays([made_up_strong(5, True)])
    assert main(["results", "export", "--db", str(db), "--plays", "--game", "Duchess", "--ruleset", "pysolfc", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == HEADER and len(captured.out.splitlines()) == 2
    assert ",study*10,7,5,1,won,150,12.3457," in captured.out
    assert "1 games played by agents written to standard output: duchess (pysolfc)" in captured.err
    assert main(["results", "export", "--db", str(db), "--plays", "--game", "duchess", "--ruleset", "standard", "-"]) == 0
    assert capsys.readouterr().out.splitlines() == [HEADER]


def test_an_import_keeps_a_deal_already_played_with_the_same_setting_seed_and_versions(tmp_path: Path) -> None:
    with Store(tmp_path / "new.db") as new:
        new.add_plays([made_up_strong(5, True), made_up_strong(6, True), replace(made_up_strong(5, True), seed=8)])
        export_rows(new, tmp_path / "new.csv", write=PLAYS.write)
    with Store(tmp_path / "old.db") as old:
        old.add_plays([made_up_strong(5, False)])
        read = read_file(tmp_path / "new.csv")
        assert read.table is PLAYS and len(read.rows) == 3
        assert read.merge_into(old) == (2, 0)
        assert {(play.seed, play.deal): play.won for play in old.plays()} == {(7, 5): False, (7, 6): True, (8, 5): True}


def test_the_odds_skip_the_deals_an_import_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, kept = str(tmp_path / "first.db"), str(tmp_path / "second.db"), str(tmp_path / "plays.csv")
    odds = ["odds", "parisienne", "--agent", "greedy", "--workers", "1"]
    assert main([*odds, "--deals", "1-3", "--db", first]) == 0
    assert main(["results", "export", "--db", first, "--plays", kept]) == 0
    assert main(["results", "import", "--db", second, kept]) == 0
    capsys.readouterr()
    assert main([*odds, "--deals", "1-4", "--db", second]) == 0
    assert "done: 1 deals played (3 skipped)" in capsys.readouterr().err


@pytest.mark.parametrize(("line", "says"), [
    (GOOD.replace("greedy", "clever"), "agent is 'clever'"),
    (GOOD.replace(",1,won,", ",0,won,"), "won is 0 but the game ended as 'won'"),
    (GOOD.replace(",1,won,", ",1,stalled,"), "won is 1 but the game ended as 'stalled'"),
    (GOOD.replace(",1,won,", ",yes,won,"), "won is 'yes'"),
    (GOOD.replace(",won,", ",gave up,"), "ending is 'gave up'"),
    (GOOD.replace(",-,", ",study*0,"), "setting is 'study*0'"),
    (GOOD.replace(",-,0,", ",-,4294967296,"), "seeds run from 0 to 4294967295"),
    (GOOD.replace(",4,1,", ",0,1,"), "deal numbers run from 1"),
    (GOOD.replace("0.0123", "-1"), "cpu_seconds is '-1'"),
    (GOOD.replace("0.2.0", ""), "kibitz_version is ''"),
    (GOOD.replace("2026-12-03T12:00:00Z", "today"), "recorded is 'today'"),
    (GOOD.rsplit(",", 1)[0], "fields"),
])
def test_a_bad_line_is_named_and_no_play_is_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    line: str, says: str) -> None:
    (tmp_path / "bad.csv").write_text("\n".join([HEADER, GOOD, line, GOOD]) + "\n")
    (tmp_path / "good.csv").write_text(HEADER + "\n" + GOOD + "\n")
    db = tmp_path / "s.db"
    assert main(["results", "import", "--db", str(db), str(tmp_path / "good.csv"), str(tmp_path / "bad.csv")]) == 2
    err = capsys.readouterr().err
    assert "bad.csv, line 3:" in err and says in err, err
    assert not db.exists()  # every file is read before the results file is opened


def test_a_file_of_plays_lacking_a_column_is_refused(tmp_path: Path) -> None:
    (tmp_path / "short.csv").write_text(HEADER.replace(",kibitz_version", "") + "\n")
    with pytest.raises(KibitzError, match="short.csv is not a kibitz export of games played by agents: its header "
                                          "line lacks kibitz_version"):
        read_file(tmp_path / "short.csv")


def test_export_of_one_agent_and_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, kept = tmp_path / "a.db", tmp_path / "strong.csv"
    with Store(db) as store:
        store.add_plays(play_batch("parisienne", "standard", "greedy", "study", 0, [1, 2]))
        store.add_plays([made_up_strong(4, False), made_up_strong(5, True),
                         replace(made_up_strong(6, True), setting="study")])
    assert main(["results", "export", "--db", str(db), "--plays", "--agent", "strong", str(kept)]) == 0
    assert "3 games played by agents written" in capsys.readouterr().err
    assert main(["results", "export", "--db", str(db), "--plays", "--agent", "strong", "--setting", "study*10",
                 str(kept)]) == 0
    assert [line.split(",")[3:6] for line in kept.read_text().splitlines()[1:]] == [["study*10", "7", "4"],
                                                                                 ["study*10", "7", "5"]]
    assert main(["results", "export", "--db", str(db), "--plays", "--agent", "nobody", str(kept)]) == 0
    assert len(kept.read_text().splitlines()) == 1   # the header alone
    assert main(["results", "export", "--db", str(db), "--agent", "strong", str(kept)]) == 2
    assert "--agent and --setting choose games played by agents: they go with --plays" in capsys.readouterr().err
