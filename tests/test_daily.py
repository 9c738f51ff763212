"""The deal of the day (:mod:`kibitz.daily`): one deal a date for each game and ruleset, the
same on every run and machine, another the next day, always one the solver proved winnable;
dates checked; the streaks of days won."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date, timedelta

import pytest

from kibitz import daily, difficulty
from kibitz.daily import DayError, Streak, deal_of_the_day, parse_day, streak
from kibitz.registry import games
from kibitz.rules import RULESETS

EVERY = [(info.slug, ruleset) for info in games() for ruleset in RULESETS]
START = date(2026, 1, 1)


@pytest.mark.parametrize(("slug", "ruleset"), EVERY)
def test_each_day_deals_a_proved_winnable_deal_and_the_next_day_another(slug: str, ruleset: str) -> None:
    candidates = daily.candidates(slug, ruleset)
    assert len(candidates) >= 50   # the shipped ratings prove most of their deals winnable
    ratings = difficulty.ratings()
    kept = {entry.deal: entry for entry in ratings.daily.get((slug, ruleset), ())}   # every level empty
    # Two and a half cycles: every day of them, and so every seam between two cycles.
    days = [START + timedelta(days=k) for k in range(len(candidates) * 5 // 2)]
    deals = [deal_of_the_day(slug, ruleset, day) for day in days]
    for deal in set(deals):
        rated = ratings.rating(slug, ruleset, deal)
        assert (rated is not None and rated.proved_winnable) or kept[deal].winnable is True, deal
    assert all(today != tomorrow for today, tomorrow in zip(deals, deals[1:]))
    # Within a cycle every candidate comes once: no deal again for as many days as there are deals.
    first = next(k for k, day in enumerate(days) if day.toordinal() % len(candidates) == 0)
    assert sorted(deals[first:first + len(candidates)]) == sorted(candidates)
    # The same date, asked again (and by name or alias), gives the same deal.
    assert [deal_of_the_day(slug, ruleset, day) for day in days[:20]] == deals[:20]


def test_the_games_and_rulesets_have_days_of_their_own() -> None:
    day = date(2027, 3, 1)
    assert deal_of_the_day("glenwood", "standard", day) == deal_of_the_day("duchess", "standard", day)
    week = [day + timedelta(days=k) for k in range(7)]
    lines = {(slug, ruleset): [deal_of_the_day(slug, ruleset, d) for d in week] for slug, ruleset in EVERY}
    assert len(set(map(tuple, lines.values()))) == len(EVERY)


def test_the_deal_of_a_date_is_the_same_in_another_process() -> None:
    days = [date(2026, 12, 31) + timedelta(days=k) for k in range(3)]
    program = ("from datetime import date\nfrom kibitz.daily import deal_of_the_day\n"
               f"print([deal_of_the_day(s, r, date.fromisoformat(d)) for s, r in {EVERY!r} for d in "
               f"{[d.isoformat() for d in days]!r}])")
    for seed in ("1", "2"):
        found = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                               env=os.environ | {"PYTHONHASHSEED": seed}).stdout.strip()
        assert found == str([deal_of_the_day(s, r, d) for s, r in EVERY for d in days])


def test_a_date_is_read_exactly_and_within_its_bounds() -> None:
    today = date(2027, 3, 1)
    assert parse_day("2027-03-01", today) == today
    assert parse_day("2027-03-02", today) == date(2027, 3, 2)   # a player whose day began earlier
    assert parse_day("2000-01-01", today) == daily.EARLIEST
    refusals = {"2027-03-03": "from 2000-01-01 to 2027-03-02", "1999-12-31": "from 2000-01-01",
                "2027-02-30": "not a date of the calendar", "2027-3-1": "YYYY-MM-DD", "today": "YYYY-MM-DD",
                " 2027-03-01": "YYYY-MM-DD", "2027-03-01T00:00": "YYYY-MM-DD", "٢٠٢٧-٠٣-٠١": "YYYY-MM-DD"}
    for text, words in refusals.items():
        with pytest.raises(DayError, match=words):
            parse_day(text, today)
    for value in (None, 20270301, ["2027-03-01"]):
        with pytest.raises(DayError, match="YYYY-MM-DD"):
            parse_day(value, today)


def test_a_streak_counts_days_won_in_a_row_until_a_day_is_missed() -> None:
    today = date(2027, 3, 10)
    def days(*back: int) -> list[date]:
        return [today - timedelta(days=k) for k in back]
    assert streak([], today) == Streak(0, 0)
    assert streak(days(0), today) == Streak(1, 1)
    assert streak(days(2, 1, 0, 0), today) == Streak(3, 3)          # a day won twice counts once
    assert streak(days(0, 1, 2), today) == Streak(3, 3)             # in any order
    assert streak(days(3, 2, 1), today) == Streak(3, 3)             # today not played yet: still going
    assert streak(days(4, 3, 2), today) == Streak(0, 3)             # yesterday missed: over
    assert streak(days(9, 8, 7, 6, 1, 0), today) == Streak(2, 4)
    # Across the end of a month and of a year.
    assert streak([date(2026, 12, 30), date(2026, 12, 31), date(2027, 1, 1)], date(2027, 1, 1)) == Streak(3, 3)


def test_a_game_without_a_winnable_deal_has_no_deal_of_the_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily, "candidates", lambda game, ruleset: ())
    with pytest.raises(DayError, match="no deal proved winnable"):
        deal_of_the_day("duchess", "standard", START)
