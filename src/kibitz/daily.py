"""The deal of the day: for each game and ruleset, one deal for everyone on a date, always one
the solver proved winnable, and the streak of days won.

The deals of the day are the shipped rated deals that the solver proved winnable
(:mod:`kibitz.difficulty`: those of the levels offered, or, for a game and ruleset whose every
level is declared empty, its rated deals kept without their levels). The days run in cycles as long as that list: each cycle deals every
one of them once, in an order drawn from a hash of the game, the ruleset and the cycle (SHA-256:
the same on every machine and Python). So a deal comes back only in a later cycle, and two days
running never share a deal (when a cycle would open with the deal that closed the one before,
its first two deals change places). A new version of the ratings (more deals) draws new orders.

>>> from datetime import date
>>> from kibitz import daily
>>> daily.deal_of_the_day("duchess", "standard", date(2027, 3, 1)) in daily.candidates("duchess", "standard")
True

Pure: reads the ratings file and nothing else.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Iterable

from kibitz import difficulty
from kibitz.errors import KibitzError
from kibitz.registry import find

EARLIEST = date(2000, 1, 1)
"""The first date that has a deal of the day."""
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DayError(KibitzError):
    """A date that names no deal of the day."""


def candidates(game: str, ruleset: str) -> tuple[int, ...]:
    """The deals of ``game`` and ``ruleset`` a day may deal: the shipped rated deals the
    solver proved winnable (:meth:`kibitz.difficulty.Ratings.daily_deals`), in order of deal number."""
    return difficulty.ratings().daily_deals(game, ruleset)


@lru_cache(maxsize=32)
def _order(slug: str, ruleset: str, cycle: int, count: int) -> tuple[int, ...]:
    """The order of the ``count`` candidates in ``cycle``: a Fisher-Yates shuffle whose every
    draw is a hash. Cached: the days of one cycle share it, so each day costs no new hashes."""
    order = list(range(count))
    for i in range(count - 1, 0, -1):
        digest = hashlib.sha256(f"kibitz-daily:{slug}:{ruleset}:{cycle}:{i}".encode("ascii")).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def deal_of_the_day(game: str, ruleset: str, day: date) -> int:
    """The deal of the day ``day`` for ``game`` in ``ruleset``."""
    slug = find(game).slug
    deals = candidates(slug, ruleset)
    if not deals:
        raise DayError(f"{find(game).name} ({ruleset} rules) has no deal proved winnable to deal")
    count = len(deals)
    cycle, place = divmod(day.toordinal(), count)
    order = _order(slug, ruleset, cycle, count)
    if count >= 3 and place <= 1 and order[0] == _order(slug, ruleset, cycle - 1, count)[-1]:
        place = 1 - place   # the first two deals change places
    return deals[order[place]]


def parse_day(text: object, today: date) -> date:
    """The date ``text`` (``YYYY-MM-DD``): from :data:`EARLIEST` to the day after ``today``
    (a player whose day has begun ahead of the server's)."""
    latest = today + timedelta(days=1)
    if not isinstance(text, str) or not _DAY.fullmatch(text):
        raise DayError("date must be a date written YYYY-MM-DD, e.g. 2027-03-01")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise DayError(f"{text} is not a date of the calendar") from None
    if not EARLIEST <= day <= latest:
        raise DayError(f"date must be from {EARLIEST.isoformat()} to {latest.isoformat()}")
    return day


@dataclass(frozen=True)
class Streak:
    """Runs of consecutive days won: the one still going, and the longest."""

    current: int
    """Days won in a row up to ``today`` or the day before (a streak lasts until a day is
    missed); 0 when the last day won is older."""
    best: int


def streak(days_won: Iterable[date], today: date) -> Streak:
    """The streaks of the days won (in any order, repeats allowed) as of ``today``."""
    days = sorted(set(days_won))
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and previous >= today - timedelta(days=1)
    return Streak(run if alive else 0, best)
