"""The rated deals that ship with kibitz (:mod:`kibitz.difficulty`): every level follows from
its win share and the thresholds, every deal is a valid deal number, the solver agrees with
the winnable flags, and a choice no deal meets is refused in words."""

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
from kibitz.difficulty import LEVELS, NoRatedDealError, RatingsError, Thresholds, parse_ratings
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


def test_every_standard_game_has_rated_deals() -> None:
    for info in kibitz.games():
        assert difficulty.deals(info.slug, "standard"), info.slug


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
    slug = next(iter(data["games"]))
    ruleset = next(iter(data["games"][slug]))
    wrong = copy.deepcopy(data)
    entry = wrong["games"][slug][ruleset][0]
    entry["level"] = next(level for level in LEVELS if level != entry["level"])
    with pytest.raises(RatingsError, match="is rated"):
        parse_ratings(wrong)
    bad_number = copy.deepcopy(data)
    bad_number["games"][slug][ruleset][0]["deal"] = 0
    with pytest.raises(RatingsError, match="not valid"):
        parse_ratings(bad_number)
    twice = copy.deepcopy(data)
    twice["games"][slug][ruleset].append(twice["games"][slug][ruleset][0])
    with pytest.raises(RatingsError, match="twice"):
        parse_ratings(twice)
    with pytest.raises(RatingsError, match="format"):
        parse_ratings(data | {"format_version": 99})
    with pytest.raises(RatingsError, match="thresholds"):
        parse_ratings(data | {"thresholds": {"easy": 0.6}})
    with pytest.raises(KibitzError):
        parse_ratings(data | {"games": {"klondike": {"standard": []}}})


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
