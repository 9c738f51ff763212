"""The reference pages' generated tables: written from the kept rows between marker lines,
and the repository's own pages in agreement with the rows committed beside them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kibitz.cli import main
from kibitz.study.archive import export_rows
from kibitz.study.pages.kept import load
from kibitz.study.pages.tables import budget, winnability_table
from kibitz.study.pages.blocks import BEGIN, END, PAGES, PageError, blocks, fill, regenerate
from kibitz.study.store import Row, Store

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def row(deal: int, outcome: str, seconds: float, game: str = "duchess", ruleset: str = "standard") -> Row:
    return Row(game, ruleset, deal, outcome, "timeout" if outcome == "unknown" else None, (), 100, 50, seconds,
               10.0, 22, 1, clock="cpu")


def skeleton(docs: Path) -> None:
    """Every page with its blocks empty, as a new page starts."""
    for page, writers in PAGES.items():
        text = "".join(f"# {page}\n\n{BEGIN.format(name=name)}\n{END.format(name=name)}\n\n" for name in writers)
        (docs / page).write_text(text, encoding="utf-8")


def kept_study(docs: Path, rows: list[Row]) -> None:
    folder = docs / "winnability"
    folder.mkdir(parents=True, exist_ok=True)
    with Store(docs / "scratch.db") as store:
        store.add(rows)
        for game, ruleset in {(row.game, row.ruleset): None for row in rows}:
            export_rows(store, folder / f"{game}-{ruleset}.csv.gz", game=game, ruleset=ruleset)
    (docs / "scratch.db").unlink()


def test_blocks_are_found_and_filled_and_the_rest_is_kept() -> None:
    page = f"intro\n{BEGIN.format(name='a')}\nold\n{END.format(name='a')}\nmiddle\n" \
           f"{BEGIN.format(name='b')}\n{END.format(name='b')}\nend\n"
    assert blocks(page) == {"a": (1, 3), "b": (5, 6)}
    assert fill(page, {"a": "new\ntable", "b": "x"}) == \
        f"intro\n{BEGIN.format(name='a')}\nnew\ntable\n{END.format(name='a')}\nmiddle\n" \
        f"{BEGIN.format(name='b')}\nx\n{END.format(name='b')}\nend\n"
    with pytest.raises(PageError, match="no generated block c"):
        fill(page, {"c": "x"})
    with pytest.raises(PageError, match="appears twice"):
        blocks(page + f"{BEGIN.format(name='a')}\n{END.format(name='a')}\n")
    with pytest.raises(PageError, match="never ends"):
        blocks(f"{BEGIN.format(name='a')}\n")
    with pytest.raises(PageError, match="begins inside"):
        blocks(f"{BEGIN.format(name='a')}\n{BEGIN.format(name='b')}\n")
    with pytest.raises(PageError, match="did not begin"):
        blocks(f"{END.format(name='a')}\n")


def test_pages_are_written_from_the_kept_rows_and_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    skeleton(docs)
    kept_study(docs, [row(1, "won", 0.01), row(2, "won", 3.0), row(3, "lost", 0.5), row(4, "unknown", 10.0),
                      row(1, "won", 0.2, "parisienne"), row(2, "won", 4.0, "parisienne")])
    assert main(["report", "--pages", str(docs), "--check"]) == 1
    out = capsys.readouterr().out
    assert "winnability.md: block winnability-table disagrees with the kept rows" in out
    page = (docs / "winnability.md").read_text(encoding="utf-8")
    assert "| Duchess | standard | 4 | 2 | 1 | 1 |" not in page
    changed, stale = regenerate(docs, load(docs))
    assert docs / "winnability.md" in changed and stale
    for path, text in changed.items():
        path.write_text(text, encoding="utf-8")
    page = (docs / "winnability.md").read_text(encoding="utf-8")
    assert "| Duchess | standard | 4 | 2 | 1 | 1 |" in page
    assert "| Duchess (standard) | 4 | 2 | 1 | not tried | not tried |" in page  # at 1, 10, 60, 600 s
    assert "| Parisienne (standard) | 2 | 1 | 0 | 0 | 0 |" in page  # none left to try at 60 or 600 s
    assert "Duchess (standard) deal 3: every line of play tried" in page
    assert "the independent check: not run yet" in page
    assert main(["report", "--pages", str(docs), "--check"]) == 0
    assert "every generated table agrees" in capsys.readouterr().out
    # a figure typed over in a generated table is found
    (docs / "winnability.md").write_text(page.replace("| Duchess | standard | 4 | 2 |", "| Duchess | standard | 4 | 3 |"),
                                         encoding="utf-8")
    assert main(["report", "--pages", str(docs), "--check"]) == 1
    assert "block winnability-table disagrees" in capsys.readouterr().out


def test_a_page_without_its_block_is_an_error_that_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    skeleton(docs)
    (docs / "odds.md").write_text("# odds\n", encoding="utf-8")
    assert main(["report", "--pages", str(docs), "--check"]) == 2
    err = capsys.readouterr().err
    assert "odds.md" in err and "no generated block odds-table" in err
    assert main(["report", "--pages", str(tmp_path / "missing")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert main(["report", "--check"]) == 2


def test_the_winnability_table_counts_a_deal_once_with_its_deciding_run() -> None:
    from kibitz.study.pages.kept import Kept
    rows = (row(1, "unknown", 10.0), row(1, "won", 20.0), row(2, "won", 0.1))
    table = winnability_table(Kept(rows=rows))
    assert "| Duchess | standard | 2 | 2 | 0 | 0 |" in table
    assert "From 3 kept rows" in table
    assert "Not studied yet: Grand Duchess (standard), Grand Duchess (pysolfc)," in table
    assert ", Duchess (pysolfc)," in table and ", Duchess (standard)," not in table


def test_the_odds_budget_is_the_least_that_ten_times_more_does_not_beat() -> None:
    from kibitz.study.budgets import Choice, choose
    assert choose({1: (97, 100), 10: (96, 100)}) == Choice(1, False)
    assert choose({1: (8, 30), 10: (17, 30), 100: (20, 30)}) == Choice(10, False)
    assert choose({1: (8, 30), 10: (25, 30)}) == Choice(10, True)
    assert Choice(10, True).words() == "10x (still gaining: the largest measured)" and Choice(1, False).words() == "1x"
    assert choose({1: (8, 30)}) is None and choose({1: (8, 30), 10: (0, 0)}) is None
    # a next budget too costly is never taken: its cost is the reason, whether it gains or not
    assert choose({1: (0, 10), 10: (0, 10)}, {1: 7.0, 10: 37.7}) == Choice(1, False, (10, 37.7))
    assert choose({1: (0, 10), 10: (9, 10)}, {1: 7.0, 10: 37.7}) == Choice(1, False, (10, 37.7))
    assert choose({1: (0, 10), 10: (0, 10)}, {1: 7.0, 10: 19.0}) == Choice(1, False)


def test_a_budget_is_read_from_the_setting_name() -> None:
    assert budget("study") == 1 and budget("study*10") == 10 and budget("hint*100") == 100
    assert budget("study*") == 1


def test_the_repository_pages_agree_with_the_kept_rows() -> None:
    """Every generated table of docs/ is what the rows committed under docs/ write: a page
    edited by hand, or rows committed without writing the pages, fails here."""
    changed, stale = regenerate(DOCS, load(DOCS))
    assert not stale, f"run 'kibitz report --pages docs': {', '.join(map(str, stale))}"
    assert not changed


def test_every_figure_a_page_shows_is_kept_beside_it() -> None:
    """The figures `kibitz report --pages docs` draws are committed, and each page links only
    figures that exist."""
    import re
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        for figure in re.findall(r"!\[[^\]]*\]\((figures/[^)]+\.svg)\)", text):
            path = DOCS / figure
            assert path.is_file(), f"{page} shows {figure}, which is not kept: run 'kibitz report --pages docs'"
            assert path.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))


def test_the_review_averages_take_a_line_once_it_is_complete() -> None:
    import json

    from kibitz.study.pages.kept import Kept
    from kibitz.study.pages.data import FULL_LINE, averages_file
    earlier = {"game": "duchess", "ruleset": "standard", "deals": 100_000, "won": 99_971, "lost": 0, "unknown": 29}
    current = json.dumps({"format": "kibitz-winnability", "version": 1, "lines": [earlier]})
    partial = Kept(rows=(row(1, "won", 0.1), row(2, "unknown", 10.0)))
    data = json.loads(averages_file(partial, current))
    assert data["lines"] == [earlier] and "the earlier table for duchess (standard)" in data["source"]
    complete = Kept(rows=tuple(row(deal, "lost" if deal == 7 else "won", 0.1) for deal in range(1, FULL_LINE + 1)))
    data = json.loads(averages_file(complete, current))
    assert data["lines"] == [{"game": "duchess", "ruleset": "standard", "deals": FULL_LINE, "won": FULL_LINE - 1,
                              "lost": 1, "unknown": 0}]
    assert data["source"] == "docs/winnability.md: the kept rows (solver version 22)"


def test_the_start_page_odds_take_a_line_once_it_holds_two_thousand_games() -> None:
    import json

    from kibitz.study.pages.data import FULL_LINE, FULL_ODDS, odds_file
    from kibitz.study.pages.kept import Kept
    from kibitz.study.store import Play
    earlier = {"fair": {"wins": 354, "deals": 500}, "thoughtful": {"deals": 500, "low": 0.98, "high": 1.0}}
    current = json.dumps({"format": "kibitz-odds", "format_version": 1, "source": "x", "made": {"date": "then"},
                          "games": {"duchess": {"standard": earlier}}})
    study = tuple(row(deal, "won", 0.1) for deal in range(1, FULL_LINE + 1))

    def plays(count: int) -> tuple[Play, ...]:
        return tuple(Play("duchess", "standard", "strong", "study", 0, deal, deal % 4 != 0,
                          "won" if deal % 4 else "no move left", 150, 1.0, 3, 22, 1, "0.2.0")
                     for deal in range(1, count + 1))

    data = json.loads(odds_file(Kept(plays=plays(FULL_ODDS - 1)), current))
    assert data["games"]["duchess"]["standard"] == earlier
    assert data["made"]["lines"]["duchess/standard"] == "the earlier measure (docs/history.md)"
    # the fair rate still the earlier measure, the thoughtful winnability from the complete line
    data = json.loads(odds_file(Kept(rows=study, plays=plays(FULL_ODDS - 1)), current))
    assert data["games"]["duchess"]["standard"] == {"fair": earlier["fair"],
                                                    "thoughtful": {"deals": FULL_LINE, "low": 0.999962, "high": 1.0}}
    assert data["made"]["lines"]["duchess/standard"] == \
        "the earlier measure (docs/history.md); thoughtful winnability: docs/winnability.md: 100,000 deals"
    data = json.loads(odds_file(Kept(rows=study, plays=plays(FULL_ODDS)), current))
    fair = data["games"]["duchess"]["standard"]["fair"]
    assert fair == {"wins": FULL_ODDS * 3 // 4, "deals": FULL_ODDS}
    assert data["games"]["duchess"]["standard"]["thoughtful"]["deals"] == FULL_LINE
    assert data["made"]["lines"]["duchess/standard"].startswith("docs/odds.md: the strong agent (study setting")
    assert data["made"]["date"] == "then"


def test_the_budget_table_says_when_a_game_has_not_played_the_whole_step() -> None:
    from kibitz.study.pages.kept import Kept
    from kibitz.study.pages.tables import budget_table
    from kibitz.study.store import Play

    def play(game: str, setting: str, deal: int, won: bool) -> Play:
        return Play(game, "standard", "strong", setting, 0, deal, won, "won" if won else "stuck", 100, 1.0,
                    3, 22, 1, "0.2.0")

    plays = [play(game, setting, deal, deal % 10 != 0) for game, deals in (("duchess", 40), ("cicely", 20))
             for setting in ("study", "study*10") for deal in range(1, deals + 1)]
    table = budget_table(Kept(plays=tuple(plays)))
    assert "| Duchess | standard | 40 | 36 of 40" in table
    duchess = next(line for line in table.splitlines() if line.startswith("| Duchess |"))
    cicely = next(line for line in table.splitlines() if line.startswith("| Cicely |"))
    assert duchess.endswith("| 1x |")
    assert cicely.endswith("| 1x so far (20 of 40 deals) |")
    # a budget stopped after its first deals for its cost is not "so far": it is done
    costly = [play(game, setting, deal, deal % 10 != 0) for game, deals in (("duchess", 40),)
              for setting in ("study", "study*10") for deal in range(1, deals + 1)]
    costly += [play("cicely", "study", deal, deal % 4 != 0) for deal in range(1, 41)]
    costly += [replace(play("cicely", "study*10", deal, True), cpu_seconds=200.0) for deal in range(1, 11)]
    table = budget_table(Kept(plays=tuple(costly)))
    cicely = next(line for line in table.splitlines() if line.startswith("| Cicely |"))
    assert cicely.endswith("| 1x (10x costs 200.0 s a game, more than the affordable 20 s) |")
    # and so is one that does not win more on those first deals
    no_gain = [*costly[:80], *(replace(play, won=play.deal % 4 != 0) for play in costly[80:])]
    cicely = next(line for line in budget_table(Kept(plays=tuple(no_gain))).splitlines()
                  if line.startswith("| Cicely |"))
    assert cicely.endswith("| 1x (10x costs 200.0 s a game, more than the affordable 20 s) |")
    # a studied line whose step has played one budget only is listed, not left out
    one_budget = [*plays, *(play("tournament", "study", deal, True) for deal in range(1, 31))]
    studied = tuple(row(deal, "won", 0.1, game) for game in ("duchess", "tournament") for deal in (1, 2))
    names = [line.split(" | ")[0] for line in budget_table(Kept(rows=studied, plays=tuple(one_budget))).splitlines()
             if line.startswith("| ") and not line.startswith("| game")]
    assert names == ["| Duchess", "| Tournament", "| Cicely"]  # in the games' order
    assert "| Tournament | standard | - | - | - | not measured yet |" in budget_table(
        Kept(rows=studied, plays=tuple(one_budget)))


def test_the_tail_table_counts_the_deals_a_longer_pass_has_not_retried_yet_apart() -> None:
    from kibitz.study.pages.kept import Kept
    from kibitz.study.pages.tables import tail_table
    retried = [replace(row(deal, outcome, seconds), timeout=60.0)
               for deal, outcome, seconds in ((3, "won", 25.0), (4, "unknown", 60.0))]
    rows = (row(1, "won", 0.5), row(2, "won", 5.0), *(row(deal, "unknown", 10.0) for deal in (3, 4, 5, 6, 7)),
            *retried)
    table = tail_table(Kept(rows=rows), limits=(1, 10, 60, 600))
    # at 60 s: deal 4 undecided when retried, deals 5 to 7 not retried yet; nothing was tried at 600 s
    assert "| Duchess (standard) | 7 | 6 | 5 | 1 + 3 not tried yet | not tried |" in table
    # every deal retried so far decided: none undecided among them, the others still to come
    all_won = (*rows[:-1], replace(row(4, "won", 50.0), timeout=60.0))
    assert "| Duchess (standard) | 7 | 6 | 5 | 0 + 3 not tried yet | not tried |" in tail_table(
        Kept(rows=all_won), limits=(1, 10, 60, 600))
    finished = (*rows, *(replace(row(deal, "won", 30.0), timeout=60.0) for deal in (5, 6, 7)))
    assert "| Duchess (standard) | 7 | 6 | 5 | 1 | not tried |" in tail_table(Kept(rows=finished),
                                                                           limits=(1, 10, 60, 600))


def test_the_odds_table_lists_a_studied_line_no_agent_has_played_yet() -> None:
    from kibitz.study.pages.kept import Kept
    from kibitz.study.pages.tables import odds_table
    from kibitz.study.store import Play
    plays = tuple(Play("duchess", "standard", "greedy", "-", 0, deal, deal % 4 == 0, "stuck", 100, 0.1, 1, 22, 1,
                       "0.2.0") for deal in range(1, 41))
    studied = tuple(row(deal, "won", 0.1, game) for game in ("duchess", "tournament", "kingsdown-eights")
                    for deal in (1, 2))
    table = odds_table(Kept(rows=studied, plays=plays)).splitlines()
    assert [line.split(" | ")[0] for line in table[2:5]] == ["| Duchess", "| Tournament", "| Kingsdown Eights"]
    assert table[2].startswith("| Duchess | standard | not played yet | 25.0% (14.2% - 40.2%), 40 games | not played yet |")
    assert table[3].startswith("| Tournament | standard | not played yet | not played yet | not played yet | ")
    assert table[4].startswith("| Kingsdown Eights | standard = pysolfc | not played yet | not played yet | not played yet | ")
