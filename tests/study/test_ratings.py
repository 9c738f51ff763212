"""Rating deals for New game's levels (:mod:`kibitz.study.ratings`, ``scripts/rate_deals.py``):
the levels counted from the plays of a results file, the rule that stops a game and ruleset
once every level holds 50 deals or the cap is reached, the thin levels declared empty in the
written file, the solver's verdicts read from the kept winnability rows, and the ``winnable``
fields derived again without replaying."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any, Sequence

import pytest

import kibitz
from kibitz.difficulty import MIN_LEVEL_DEALS, EmptyLevel, NoRatedDealError, parse_ratings
from kibitz.errors import KibitzError
from kibitz.study.odds import versions_of
from kibitz.study.ratings import (Rater, format_ratings, line_entry, next_block, rate_line, ratings_file, settled,
                                  verdicts,
                                  with_verdicts, withhold_thin_levels)
from kibitz.study.store import Play, Row, Store

ROOT = Path(__file__).resolve().parent.parent.parent


def add_plays(store: Store, slug: str, wins: dict[int, int], seeds: Sequence[int] = (0, 1, 2),
              ruleset: str = "standard", agent_version: int | None = None) -> None:
    """The strong agent's plays of each deal of ``wins``: won under the first ``wins[deal]`` seeds."""
    agent, solver, rules = versions_of(slug, ruleset, "strong")
    store.add_plays(Play(slug, ruleset, "strong", "study", seed, deal, k < won, "won" if k < won else "no move left",
                         40, 0.25, agent if agent_version is None else agent_version, solver, rules,
                         kibitz.__version__)
                    for deal, won in wins.items() for k, seed in enumerate(seeds))


def add_rows(store: Store, slug: str, outcomes: dict[int, str], solver_version: int = 22, ruleset: str = "standard",
             rules_version: int | None = None) -> None:
    """The solver's rows of each deal of ``outcomes`` (won, lost or unknown) at 10 s."""
    rules = kibitz.game(slug, ruleset).info.rules_version if rules_version is None else rules_version
    store.add(Row(slug, ruleset, deal, outcome, "time limit" if outcome == "unknown" else None, (), 100, 10, 0.5,
                  10.0, solver_version, rules) for deal, outcome in outcomes.items())


def levels_of(easy: int, medium: int, hard: int, first: int = 1) -> dict[int, int]:
    """Wins out of three for consecutive deals from ``first``: ``easy`` easy deals, then medium, then hard."""
    wins = [3] * easy + [1] * medium + [0] * hard
    return {first + k: won for k, won in enumerate(wins)}


def test_a_deal_is_rated_once_played_under_every_seed_with_the_same_versions(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_plays(store, "duchess", levels_of(4, 3, 3))                 # deals 1-10
        add_plays(store, "duchess", {11: 3}, seeds=(0, 1))              # a seed missing: not rated
        add_plays(store, "duchess", {13: 2})                            # after a gap
        add_plays(store, "duchess", {20: 3, 21: 3}, agent_version=1)    # an older agent: not rated
        add_plays(store, "duchess", {30: 0}, seeds=(0, 1, 2, 5))        # seed 5 is not the rater's
        add_plays(store, "tournament", {1: 3})
        current = versions_of("duchess", "standard", "strong")
        line = rate_line(store, "duchess", "standard", Rater(), current)
        assert [rated.deal for rated in line.deals] == [*range(1, 11), 13, 30]
        assert line.counts() == {"easy": 5, "medium": 3, "hard": 4} and line.covered() == 10
        assert line.versions == current and line.play_cpu_seconds == pytest.approx(12 * 3 * 0.25)
        assert {rated.plays for rated in line.deals} == {3}
        # The newest versions the file holds, when none are given.
        assert rate_line(store, "duchess", "standard").deals == line.deals
        older = rate_line(store, "duchess", "standard", Rater(), (1, current[1], current[2]))
        assert [rated.deal for rated in older.deals] == [20, 21]
        assert rate_line(store, "duchess", "pysolfc").deals == ()
        # Two seeds: deal 11 is rated too.
        assert 11 in {rated.deal for rated in rate_line(store, "duchess", "standard", Rater(seeds=(0, 1))).deals}
    with pytest.raises(KibitzError, match="distinct"):
        Rater(seeds=(0, 0))


def test_a_game_whose_rulesets_agree_is_rated_from_the_plays_stored_under_either(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_plays(store, "cicely", levels_of(2, 1, 0))
        add_rows(store, "cicely", {1: "won", 2: "unknown"})
        line = rate_line(store, "cicely", "pysolfc")
        assert [(rated.deal, rated.winnable) for rated in line.deals] == [(1, True), (2, None), (3, None)]


def test_blocks_go_on_until_every_level_holds_enough_deals_or_the_cap() -> None:
    short = {"easy": 300, "medium": 49, "hard": 50}
    assert next_block(short, 0, 200, 5000) == (1, 200)
    assert next_block(short, 400, 200, 5000) == (401, 600)
    assert next_block(short, 457, 200, 5000) == (458, 600)       # a block left unfinished is finished first
    assert next_block(short, 4900, 200, 5000) == (4901, 5000)
    assert next_block(short, 4900, 300, 5000) == (4901, 5000)    # the cap cuts the last block
    assert next_block(short, 5000, 200, 5000) is None            # the cap: medium will be declared empty
    assert next_block({"easy": 50, "medium": 50, "hard": 50}, 150, 200, 5000) is None
    assert next_block({"easy": 200}, 200, 200, 5000) == (201, 400)   # a level never met counts as none
    with pytest.raises(KibitzError, match="at least one deal"):
        next_block(short, 0, 0, 5000)


def test_a_level_too_rare_to_reach_enough_deals_by_the_cap_stops_the_blocks_early() -> None:
    # none of 200 deals hard: at the top of its interval (1.9%) 4,800 more deals would give 50 or more
    assert next_block({"easy": 180, "medium": 50, "hard": 0}, 200, 200, 5000) == (201, 400)
    # none of 400: the top of the interval (0.95%) gives fewer than 50 by the cap, so it is settled empty
    assert next_block({"easy": 350, "medium": 50, "hard": 0}, 400, 200, 5000) is None
    # a rare level seen now and then goes on while the top of its interval still reaches 50
    assert next_block({"easy": 350, "medium": 50, "hard": 3}, 400, 200, 5000) == (401, 600)
    # one level short, its share too small for the deals left
    assert next_block({"easy": 900, "medium": 49, "hard": 51}, 1000, 200, 1010) is None
    assert next_block({"easy": 900, "medium": 49, "hard": 51}, 1000, 200, 1200) == (1001, 1200)
    # a level that has its deals is settled whatever its share
    assert settled(50, 5000, 5000) and not settled(0, 0, 5000) and settled(0, 400, 5000) and not settled(0, 300, 5000)


def load_rate_deals() -> Any:
    """``scripts/rate_deals.py`` as a module."""
    spec = importlib.util.spec_from_file_location("rate_deals", ROOT / "scripts" / "rate_deals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_counts_and_the_next_block_are_printed_for_the_runner(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.db"
    rate_deals = load_rate_deals()

    def told(*words: str) -> str:
        assert rate_deals.main(["--db", str(db), *words]) == 0
        return str(capsys.readouterr().out.strip())

    with Store(db) as store:
        add_plays(store, "duchess", levels_of(120, 60, 20))
    assert told("--counts", "Duchess", "standard") == "easy 120 medium 60 hard 20 rated 200 covered 200"
    assert told("--next", "duchess", "standard") == "201-400"
    assert told("--next", "duchess", "standard", "--block", "150", "--max-deals", "250") == ""  # hard: too few by 250
    assert told("--next", "duchess", "standard", "--block", "150", "--max-deals", "1000") == "201-300"
    assert told("--next", "duchess", "standard", "--block", "300", "--max-deals", "250") == ""
    assert told("--next", "duchess", "standard", "--max-deals", "200") == ""
    with Store(db) as store:
        add_plays(store, "duchess", levels_of(0, 0, 30, first=201))
    assert told("--next", "duchess", "standard") == ""
    assert told("--counts", "duchess", "pysolfc") == "easy 0 medium 0 hard 0 rated 0 covered 0"
    assert told("--next", "duchess", "pysolfc") == "1-200"
    with pytest.raises(KibitzError, match="unknown ruleset"):
        rate_deals.main(["--db", str(db), "--counts", "duchess", "microsoft"])
    with pytest.raises(KibitzError, match="there is no results file"):
        rate_deals.main(["--db", str(tmp_path / "none.db"), "--counts", "duchess", "standard"])


def test_verdicts_count_a_deal_decided_by_any_solver_version_under_the_current_rules(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_rows(store, "duchess", {1: "won", 2: "unknown", 3: "lost", 4: "unknown"}, solver_version=21)
        add_rows(store, "duchess", {1: "unknown", 2: "won", 4: "unknown"}, solver_version=22)
        add_rows(store, "duchess", {5: "won"}, rules_version=99)           # other rules: not read
        found = verdicts(store, "duchess", "standard")
        assert dict(found.by_deal) == {1: True, 2: True, 3: False, 4: None}
        assert found.solver_versions == (21, 22) and found.longest_limit == 10.0
        assert not verdicts(store, "duchess", "pysolfc").by_deal


def test_the_written_file_withholds_the_thin_levels_and_reads_back(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_plays(store, "duchess", levels_of(60, 5, 55))
        add_rows(store, "duchess", {deal: "won" for deal in range(1, 121)})
        add_rows(store, "duchess", {7: "unknown"}, solver_version=23)
        add_plays(store, "tournament", levels_of(2, 1, 1), ruleset="pysolfc")
        data = ratings_file(store, ["standard", "pysolfc"], Rater(), 4, {"block": 200, "max_deals": 120})
    assert set(data["games"]) == {"duchess", "tournament"} and set(data["games"]["duchess"]) == {"standard"}
    duchess = data["games"]["duchess"]["standard"]
    assert duchess["empty"] == {"medium": {"deals_rated": 120, "found": 5}}
    assert [entry["deal"] for entry in duchess["deals"]] == [*range(1, 61), *range(66, 121)]
    assert "daily" not in duchess
    tournament = data["games"]["tournament"]["pysolfc"]
    assert tournament["deals"] == [] and set(tournament["empty"]) == {"easy", "medium", "hard"}
    assert [entry["deal"] for entry in tournament["daily"]] == [1, 2, 3, 4]
    made = data["made"]
    assert made["run"] == {"block": 200, "max_deals": 120} and made["least_level_deals"] == MIN_LEVEL_DEALS
    assert made["sources"]["duchess/standard"]["deals_rated"] == 120
    assert made["sources"]["duchess/standard"]["verdict_solver_versions"] == [22, 23]
    ratings = parse_ratings(json.loads(format_ratings(data)))
    assert ratings.version == 4
    assert ratings.rating("duchess", "standard", 7) is not None and ratings.rating("duchess", "standard", 7).winnable
    assert ratings.rating("duchess", "standard", 62) is None      # a medium deal: left out
    assert ratings.levels("duchess", "standard")[1].empty == EmptyLevel("medium", 120, 5)
    with pytest.raises(NoRatedDealError, match="fewer than 50 of 120 rated deals were medium"):
        ratings.pick("duchess", "standard", "medium", False, random.Random(0))
    assert ratings.daily_deals("tournament", "pysolfc") == ()      # no verdict: none proved winnable


def test_a_level_of_exactly_fifty_deals_is_offered() -> None:
    line = line_entry([rated for rated in rate_free_deals(levels_of(50, 49, 0))])
    assert set(line["empty"]) == {"medium", "hard"} and len(line["deals"]) == 50
    assert line["empty"]["hard"] == {"deals_rated": 99, "found": 0}


def rate_free_deals(wins: dict[int, int]) -> list[Any]:
    """Rated deals of three play-outs, none with a verdict."""
    from kibitz.difficulty import RatedDeal
    from kibitz.study.ratings import THRESHOLDS
    return [RatedDeal(deal, won, 3, None, THRESHOLDS.level(won / 3)) for deal, won in wins.items()]


def earlier_file() -> dict[str, Any]:
    """A ratings file of format 1: 100 deals of Duchess, 78 easy, 11 medium, 11 hard, none proved."""
    entries = [{"deal": deal, "wins": won, "plays": 3, "winnable": None, "level": rated.level}
               for (deal, won), rated in zip(levels_of(78, 11, 11).items(), rate_free_deals(levels_of(78, 11, 11)))]
    return {"format": "kibitz-ratings", "format_version": 1, "version": 2,
            "made": {"date": "2026-12-01", "agent": "strong", "seeds": [0, 1, 2], "sources": {}},
            "thresholds": {"easy": 0.6, "hard": 0.3}, "games": {"duchess": {"standard": entries}}}


def test_an_earlier_file_has_its_thin_levels_withheld() -> None:
    data = withhold_thin_levels(earlier_file())
    ratings = parse_ratings(json.loads(format_ratings(data)))
    assert ratings.version == 3 and "version 2, 2026-12-01" in ratings.made["withheld"]["what"]
    assert [(count.deals, count.empty) for count in ratings.levels("duchess", "standard")] == [
        (78, None), (0, EmptyLevel("medium", 100, 11)), (0, EmptyLevel("hard", 100, 11))]
    with pytest.raises(KibitzError, match="format 1"):
        withhold_thin_levels(data)


def test_verdicts_only_derives_the_winnable_fields_again_and_nothing_else(tmp_path: Path) -> None:
    data = withhold_thin_levels(earlier_file())
    data["games"]["tournament"] = {"standard": line_entry(rate_free_deals(levels_of(1, 1, 1)))}
    data["games"]["kingsdown-eights"] = {"standard": line_entry(rate_free_deals(levels_of(50, 50, 50)))}
    with Store(tmp_path / "r.db") as store:
        add_rows(store, "duchess", {1: "won", 2: "lost", 3: "unknown"})
        add_rows(store, "tournament", {2: "won"})
        rederived = with_verdicts(data, store, 9)
    after = rederived.data
    assert dict(rederived.changed) == {"duchess/standard": 2, "tournament/standard": 1}
    assert rederived.kept == ("kingsdown-eights/standard",)
    assert [entry["winnable"] for entry in after["games"]["duchess"]["standard"]["deals"][:4]] == \
        [True, False, None, None]
    assert [entry["winnable"] for entry in after["games"]["tournament"]["standard"]["daily"]] == [None, True, None]
    assert after["games"]["kingsdown-eights"] == data["games"]["kingsdown-eights"]
    assert after["version"] == 9 and after["made"]["verdicts"]["kept_as_they_were"] == ["kingsdown-eights/standard"]
    # Only the winnable fields changed: the rest of the file is as it was.
    def without_verdicts(ratings: dict[str, Any]) -> dict[str, Any]:
        stripped = copy.deepcopy(ratings)
        for rulesets in stripped["games"].values():
            for line in rulesets.values():
                for entry in [*line["deals"], *line.get("daily", [])]:
                    entry.pop("winnable")
        stripped["made"].pop("verdicts", None)
        return stripped | {"version": 0}
    assert without_verdicts(after) == without_verdicts(data)
    parse_ratings(json.loads(format_ratings(after)))


def test_verdicts_only_rewrites_a_ratings_file_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ratings.json"
    out.write_text(format_ratings(withhold_thin_levels(earlier_file())), "utf-8")
    db = tmp_path / "r.db"
    with Store(db) as store:
        add_rows(store, "duchess", {deal: "won" for deal in range(1, 101)})
    assert load_rate_deals().main(["--db", str(db), "--verdicts-only", "--out", str(out)]) == 0
    assert "duchess/standard" in capsys.readouterr().out
    ratings = parse_ratings(json.loads(out.read_text("utf-8")))
    assert ratings.version == 4 and all(rated.winnable is True for rated in ratings.deals("duchess", "standard"))
    assert ratings.levels("duchess", "standard")[0].winnable == 78


def test_the_shipped_ratings_say_how_their_levels_and_verdicts_were_made() -> None:
    ratings = parse_ratings(json.loads((ROOT / "src" / "kibitz" / "data" / "ratings.json").read_text("utf-8")))
    made = ratings.made
    assert made["least_level_deals"] == MIN_LEVEL_DEALS
    if "withheld" in made:   # the earlier rating, its thin levels withheld, until a new rating replaces it
        assert "thin levels withheld" in made["withheld"]["what"]
    if "verdicts" in made:
        lines = set(made["verdicts"]["lines"]) | set(made["verdicts"]["kept_as_they_were"])
        assert lines == {f"{slug}/{ruleset}" for slug, ruleset in ratings.rated}


def test_a_new_rating_keeps_the_earlier_lines_it_does_not_rate(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out, db = tmp_path / "ratings.json", tmp_path / "r.db"
    earlier = withhold_thin_levels(earlier_file())                     # duchess (standard) only, version 3
    earlier["games"]["cicely"] = {"pysolfc": line_entry(rate_free_deals(levels_of(60, 0, 0)))}
    earlier["made"]["sources"] = {"duchess/standard": {"agent_version": 2}, "cicely/pysolfc": {"agent_version": 2}}
    out.write_text(format_ratings(earlier), "utf-8")
    with Store(db) as store:
        add_plays(store, "cicely", levels_of(55, 0, 0), ruleset="pysolfc")   # cicely rated again
        add_plays(store, "parisienne", levels_of(50, 0, 0))                 # a line the earlier file lacks
    rate_deals = load_rate_deals()
    assert rate_deals.main(["--db", str(db), "--out", str(out)]) == 0     # blocks of 200 to 5,000: unfinished
    told = capsys.readouterr().out
    assert "cicely/pysolfc             still being rated (rate_deals.py --next): not written" in told
    assert json.loads(out.read_text("utf-8"))["games"] == {key: value for key, value in earlier["games"].items()}
    finished = ["--block", "50", "--max-deals", "50"]                         # 50 deals are all a line needs
    assert rate_deals.main(["--db", str(db), "--out", str(out), *finished]) == 0
    told = capsys.readouterr().out
    assert "duchess/standard" in told
    # no solver row in the results file: said, with the command that reads the kept ones in
    assert f"parisienne/standard        no solver verdict in {db}: every deal written undecided" in told
    assert f"kibitz results import --db {db} docs/winnability/parisienne-*.csv.gz" in told
    assert "duchess/standard           no solver verdict" not in told   # kept as it was
    data = json.loads(out.read_text("utf-8"))
    ratings = parse_ratings(data)
    assert ratings.version == 5
    assert [(slug, ruleset) for slug, rulesets in data["games"].items() for ruleset in rulesets] == [
        ("parisienne", "standard"), ("duchess", "standard"), ("cicely", "standard"),
        ("cicely", "pysolfc")]                               # the registry's order; cicely's rulesets share rules
    assert data["games"]["duchess"]["standard"] == earlier["games"]["duchess"]["standard"]
    sources = data["made"]["sources"]
    assert sources["duchess/standard"] == {"agent_version": 2, "kept_from_version": 3}   # from the first file
    assert sources["cicely/pysolfc"]["agent_version"] == versions_of("cicely", "pysolfc", "strong")[0]
    assert "kept_from_version" not in sources["cicely/pysolfc"]
    assert len(ratings.deals("cicely", "pysolfc")) == 55
    assert rate_deals.main(["--db", str(db), "--out", str(out), "--only-rated", "--unfinished"]) == 0
    assert set(json.loads(out.read_text("utf-8"))["games"]) == {"parisienne", "cicely"}   # duchess dropped
    out.write_text(json.dumps(earlier_file()), "utf-8")                  # format 1: its lines cannot be kept
    with pytest.raises(KibitzError, match="format 1, not 2: its lines cannot be kept"):
        rate_deals.main(["--db", str(db), "--out", str(out), *finished])
