"""The rated deals that ship with kibitz (:mod:`kibitz.difficulty`): every level follows from
its win share and the thresholds, every level holds at least 50 deals or is declared empty,
every deal is a valid deal number, the solver agrees with the winnable flags, and a choice no
deal meets is refused in words (an empty level saying why)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import kibitz
from kibitz import difficulty
from kibitz.deals import check_deal_number
from kibitz.difficulty import (LEVELS, MIN_LEVEL_DEALS, EmptyLevel, NoRatedDealError, RatingsError, Thresholds,
                               parse_ratings)
from kibitz.errors import KibitzError
from kibitz.solver import Limits, Outcome, solve

ROOT = Path(__file__).resolve().parent.parent


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("kibitz") / "data" / "ratings.json").read_text("utf-8"))
    return data


def test_the_file_says_how_it_was_made() -> None:
    data = shipped()
    ratings = difficulty.ratings()
    assert data["format"] == "kibitz-ratings" and ratings.version >= 1
    made = ratings.made
    assert made["agent"] == "strong" and made["setting"]["name"] == "study"
    assert len(made["seeds"]) >= 2
    assert made["date"] and made["machine"]["cores"] >= 1
    for source in made["sources"].values():
        assert source["solver_limit_seconds"] and source["rules_version"] >= 1


def test_every_level_holds_enough_deals_or_is_declared_empty_and_every_game_has_deals_of_the_day() -> None:
    ratings = difficulty.ratings()
    for info in kibitz.games():
        for ruleset in ("standard", "pysolfc"):
            for count in difficulty.levels(info.slug, ruleset):
                assert count.deals >= MIN_LEVEL_DEALS or (count.deals == 0 and count.empty is not None), \
                    (info.slug, ruleset, count)
                if count.empty is not None:
                    assert count.empty.found < MIN_LEVEL_DEALS <= count.empty.deals_rated
            assert ratings.daily_deals(info.slug, ruleset), (info.slug, ruleset)


def test_every_rated_deal_is_valid_and_its_level_follows_from_its_share() -> None:
    ratings = difficulty.ratings()
    thresholds = ratings.thresholds
    total = 0
    for (slug, ruleset), rated in ratings.rated.items():
        assert kibitz.game(slug, ruleset).slug == slug
        assert [r.deal for r in rated] == sorted({r.deal for r in rated})
        for deal in rated:
            check_deal_number(deal.deal)
            assert deal.plays == len(ratings.made["seeds"]) and 0 <= deal.wins <= deal.plays
            share = deal.wins / deal.plays
            expected = "easy" if share >= thresholds.easy else "hard" if share < thresholds.hard else "medium"
            assert deal.level == expected, (slug, ruleset, deal)
            total += 1
    assert total >= 7 * 10


def test_levels_count_the_deals_and_deals_filter_them() -> None:
    for (slug, ruleset), rated in difficulty.ratings().rated.items():
        counts = difficulty.levels(slug, ruleset)
        assert [count.level for count in counts] == list(LEVELS)
        assert sum(count.deals for count in counts) == len(rated)
        for count in counts:
            found = difficulty.deals(slug, ruleset, count.level)
            proved = difficulty.deals(slug, ruleset, count.level, winnable_only=True)
            assert len(found) == count.deals and len(proved) == count.winnable
            assert all(r.level == count.level for r in found)
            assert set(proved) <= set(found) and all(r.winnable is True for r in proved)
        assert len(difficulty.deals(slug, ruleset, None, winnable_only=True)) == sum(c.winnable for c in counts)


def test_the_winnable_flags_agree_with_a_fresh_solve() -> None:
    checked = {True: 0, False: 0}
    for slug in ("duchess", "cicely", "grand-duchess"):
        for rated in difficulty.deals(slug, "standard"):
            if rated.winnable is None or checked[rated.winnable] >= 2:
                continue
            result = solve(kibitz.game(slug).deal(rated.deal), Limits(seconds=30))
            assert result.outcome is (Outcome.WON if rated.winnable else Outcome.LOST), (slug, rated)
            checked[rated.winnable] += 1
    assert checked[True] == 2


def test_pick_meets_the_choice_and_names_a_choice_nobody_meets() -> None:
    rng = random.Random(5)
    for level in LEVELS:
        for winnable_only in (False, True):
            expected = difficulty.deals("cicely", "standard", level, winnable_only)
            if expected:
                rated = difficulty.pick("cicely", "standard", level, winnable_only, rng)
                assert rated in expected
    ratings = difficulty.ratings()
    empty = difficulty.Ratings(ratings.version, ratings.made, ratings.thresholds, {})
    with pytest.raises(NoRatedDealError, match=r"no hard rated deal of Duchess \(standard rules\) that the solver "
                                               r"proved winnable yet; choose another level, or Any"):
        empty.pick("Glenwood", "standard", "hard", True, rng)
    with pytest.raises(KibitzError, match="unknown level"):
        difficulty.deals("duchess", "standard", "trivial")  # type: ignore[arg-type]
    with pytest.raises(KibitzError, match="unknown ruleset"):
        difficulty.deals("duchess", "microsoft")


def test_levels_are_named_in_any_case() -> None:
    assert difficulty.level_named("Hard") == "hard"
    assert difficulty.level_named("any") is None and difficulty.level_named(None) is None
    with pytest.raises(KibitzError, match="unknown level"):
        difficulty.level_named("impossible")


def test_thresholds_part_the_levels() -> None:
    thresholds = Thresholds(easy=0.6, hard=0.3)
    assert [thresholds.level(share) for share in (0, 0.2, 1 / 3, 0.5, 0.6, 2 / 3, 1)] == \
        ["hard", "hard", "medium", "medium", "easy", "easy", "easy"]
    with pytest.raises(RatingsError):
        Thresholds(easy=0.2, hard=0.5)


def test_a_file_that_disagrees_with_itself_is_refused() -> None:
    data = shipped()
    slug, ruleset = next((slug, ruleset) for slug, rulesets in data["games"].items()
                         for ruleset, line in rulesets.items() if line["deals"])
    wrong = copy.deepcopy(data)
    entry = wrong["games"][slug][ruleset]["deals"][0]
    entry["level"] = next(level for level in LEVELS if level != entry["level"])
    with pytest.raises(RatingsError, match="is rated"):
        parse_ratings(wrong)
    bad_number = copy.deepcopy(data)
    bad_number["games"][slug][ruleset]["deals"][0]["deal"] = 0
    with pytest.raises(RatingsError, match="not valid"):
        parse_ratings(bad_number)
    twice = copy.deepcopy(data)
    twice["games"][slug][ruleset]["deals"].append(twice["games"][slug][ruleset]["deals"][0])
    with pytest.raises(RatingsError, match="twice"):
        parse_ratings(twice)
    with pytest.raises(RatingsError, match="format"):
        parse_ratings(data | {"format_version": 99})
    with pytest.raises(RatingsError, match="format 1; this kibitz reads 2"):
        parse_ratings(data | {"format_version": 1})
    with pytest.raises(RatingsError, match="thresholds"):
        parse_ratings(data | {"thresholds": {"easy": 0.6}})
    with pytest.raises(KibitzError):
        parse_ratings(data | {"games": {"klondike": {"standard": {"deals": [], "empty": {}}}}})


def entries(level: str, first: int, count: int) -> list[dict[str, Any]]:
    """``count`` rated deals from deal ``first``, of ``level`` with three play-outs."""
    wins = {"easy": 3, "medium": 1, "hard": 0}[level]
    return [{"deal": deal, "wins": wins, "plays": 3, "winnable": True, "level": level}
            for deal in range(first, first + count)]


def ratings_with(games: dict[str, Any]) -> dict[str, Any]:
    """A ratings file of these games and rulesets, thresholds as shipped."""
    return {"format": "kibitz-ratings", "format_version": 2, "version": 7, "made": {"date": "2027-01-01"},
            "thresholds": {"easy": 0.6, "hard": 0.3}, "games": games}


def cicely_line() -> dict[str, Any]:
    """5,000 rated deals of Cicely: 4,960 easy, 37 medium, 3 hard (the thin levels withheld)."""
    return {"empty": {"medium": {"deals_rated": 5000, "found": 37}, "hard": {"deals_rated": 5000, "found": 3}},
            "deals": entries("easy", 1, 4960)}


def test_a_level_declared_empty_is_read_with_its_reason_and_refused_in_words() -> None:
    tournament = {"empty": {level: {"deals_rated": 100, "found": found}
                            for level, found in zip(LEVELS, (38, 41, 21))},
                  "deals": [], "daily": [{"deal": deal, "winnable": deal != 7} for deal in range(1, 101)]}
    ratings = parse_ratings(ratings_with({"cicely": {"standard": cicely_line()}, "tournament": {"pysolfc": tournament}}))
    counts = {count.level: count for count in ratings.levels("cicely", "standard")}
    assert counts["easy"].deals == 4960 and counts["easy"].empty is None
    assert counts["hard"].deals == 0 and counts["hard"].empty == EmptyLevel("hard", 5000, 3)
    rng = random.Random(1)
    with pytest.raises(NoRatedDealError) as refused:
        ratings.pick("cicely", "standard", "hard", False, rng)
    assert str(refused.value) == ("no hard deal of Cicely (standard rules): fewer than 50 of 5,000 rated deals were "
                                  "hard; choose another level, or Any")
    with pytest.raises(NoRatedDealError, match=r"^no medium deal of Cicely \(standard rules\): fewer than 50 of "):
        ratings.pick("cicely", "standard", "medium", True, rng)
    assert ratings.pick("cicely", "standard", "easy", True, rng).level == "easy"
    # Every level empty: nothing by level, nor winnable only; the deal of the day still has its deals.
    for level in LEVELS:
        assert ratings.deals("tournament", "pysolfc", level) == ()
    with pytest.raises(NoRatedDealError) as refused:
        ratings.pick("tournament", "pysolfc", None, True, rng)
    assert str(refused.value) == ("no rated deal of Tournament (pysolfc rules): fewer than 50 of 100 rated deals were "
                                  "of any one level; choose another level, or Any")
    assert ratings.daily_deals("tournament", "pysolfc") == tuple(deal for deal in range(1, 101) if deal != 7)
    assert ratings.rating("tournament", "pysolfc", 5) is None   # a deal kept for the day has no level to tell
    assert ratings.daily_deals("cicely", "standard") == tuple(range(1, 4961))
    # A game and ruleset the file does not hold: no rated deal yet.
    with pytest.raises(NoRatedDealError, match=r"^no easy rated deal of Duchess \(standard rules\) yet; "):
        ratings.pick("duchess", "standard", "easy", False, rng)


@pytest.mark.parametrize(("change", "message"), [
    (lambda line: line["deals"].extend(entries("hard", 6000, 3)),
     r"cicely \(standard\): the hard level is declared empty, yet 3 hard deals are listed"),
    (lambda line: line["empty"].pop("hard"),
     r"cicely \(standard\): 0 hard deals; a level needs at least 50 rated deals, or must be declared empty"),
    (lambda line: line.update(deals=entries("easy", 1, 4960) + entries("hard", 9000, 3),
                              empty={"medium": {"deals_rated": 5000, "found": 37}}),
     r"3 hard deals; a level needs at least 50 rated deals, or must be declared empty"),
    (lambda line: line["empty"].update(hard={"deals_rated": 5000, "found": 50}),
     r"the hard level is declared empty with 50 of 5000 deals; an empty level holds fewer than 50"),
    (lambda line: line["empty"].update(hard={"deals_rated": 5000}), r"the empty hard level needs deals_rated and found"),
    (lambda line: line["empty"].update(trivial={"deals_rated": 5000, "found": 0}),
     r"'trivial' is declared empty, but it is not a level"),
    (lambda line: line["empty"].update(hard={"deals_rated": 4000, "found": 3}),
     r"the levels declared empty disagree on the deals rated \(\[4000, 5000\]\)"),
    (lambda line: line["deals"].pop(), r"5,000 deals rated, but 4,959 are listed and 40 withheld"),
    (lambda line: line.update(daily=[{"deal": 1, "winnable": True}]),
     r"deals kept without levels for the deal of the day, though a level is offered"),
    (lambda line: line.update(level="easy"), r"unknown field 'level'; a game and ruleset has deals, empty, daily"),
    (lambda line: line.pop("deals"), r"a game and ruleset needs a list of deals and the levels declared empty"),
])
def test_a_file_whose_levels_break_the_rule_is_refused_with_what_is_wrong(change: Any, message: str) -> None:
    line = cicely_line()
    parse_ratings(ratings_with({"cicely": {"standard": copy.deepcopy(line)}}))
    change(line)
    with pytest.raises(RatingsError, match=message):
        parse_ratings(ratings_with({"cicely": {"standard": line}}))


def test_the_deals_kept_for_the_day_are_every_deal_rated_once() -> None:
    empty = {level: {"deals_rated": 4, "found": found} for level, found in zip(LEVELS, (1, 2, 1))}
    kept = [{"deal": deal, "winnable": True} for deal in (1, 2, 3, 4)]
    assert parse_ratings(ratings_with({"duchess": {"standard": {"empty": empty, "deals": [], "daily": kept}}})) \
        .daily_deals("duchess", "standard") == (1, 2, 3, 4)
    for wrong, words in (([*kept, kept[0]], "each once, not 5"), (kept[:3], "each once, not 3"),
                         ([*kept[:3], {"deal": 0, "winnable": True}], "not valid"),
                         ([*kept[:3], {"deal": 4, "winnable": "yes"}], "winnable 'yes'")):
        with pytest.raises(RatingsError, match=words):
            parse_ratings(ratings_with({"duchess": {"standard": {"empty": empty, "deals": [], "daily": wrong}}}))


def test_the_file_is_package_data() -> None:
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    assert "data/*.json" in package_data["kibitz"]


def test_the_module_imports_no_client() -> None:
    program = ("import sys, kibitz.difficulty as d; d.ratings()\n"
               "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout.split()
    assert not [m for m in loaded if m.startswith(("kibitz.web", "kibitz.tui", "kibitz.cli", "kibitz.solver",
                                                   "kibitz.agents", "kibitz.study", "sqlite3", "starlette"))]


def test_the_terminal_player_deals_a_rated_deal_of_a_level() -> None:
    import io

    from kibitz.history import History
    from kibitz.tui import PlaySession

    output = io.StringIO()
    session = PlaySession(History.new(kibitz.game("cicely"), 1), output)
    for level in LEVELS:
        for words in (level, f"{level} winnable"):
            expected = difficulty.deals("cicely", "standard", level, winnable_only=words.endswith("winnable"))
            start = output.tell()
            session.handle(f"new {words.upper()}")
            text = output.getvalue()[start:]
            if expected:
                assert session.history.deal_number in {rated.deal for rated in expected}
                # (the game left, a random deal too, has its number told first)
                shown = text[text.index("Cicely, a random deal"):]
                assert f"#{session.history.deal_number}" not in shown
            else:
                assert "choose another level, or Any" in text
    start = output.tell()
    session.handle("new easy hard")
    assert "name one level" in output.getvalue()[start:]
    session.handle("new winnable")
    assert session.history.deal_number in {r.deal for r in difficulty.deals("cicely", "standard", None, True)}
