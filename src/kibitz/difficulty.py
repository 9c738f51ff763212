"""Rated deals: how hard each of a set of deals is, and whether the solver proved it winnable.

The ratings ship with the package (``kibitz/data/ratings.json``, made by
``scripts/rate_deals.py``; how, in ``docs/difficulty.md``). Each rated deal of a game and
ruleset carries the strong agent's wins out of its play-outs (one seed each) and the solver's
verdict on the whole deal (seeing every card). Its level follows from its win share and the
file's thresholds: **easy** from ``easy`` up, **hard** below ``hard``, **medium** between.

>>> from kibitz import difficulty
>>> all(rated.level in difficulty.LEVELS for rated in difficulty.deals("duchess", "standard"))
True

Pure: reads its file and nothing else; imports no UI, web, solver, agent or storage code.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, Mapping

from kibitz.deals import check_deal_number
from kibitz.errors import DealNumberError, KibitzError
from kibitz.registry import find
from kibitz.rules import RULESETS

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
FORMAT = "kibitz-ratings"
"""The ``format`` field of a ratings file."""
FORMAT_VERSION = 1
"""The version of the file's layout this module reads."""


class RatingsError(KibitzError):
    """A ratings file that is not one this module can read."""


class NoRatedDealError(KibitzError):
    """No rated deal meets the choice."""


@dataclass(frozen=True)
class Thresholds:
    """Where the levels part, in the strong agent's win share."""

    easy: float
    """A deal is easy from this share up."""
    hard: float
    """A deal is hard below this share."""

    def __post_init__(self) -> None:
        if not 0 < self.hard <= self.easy <= 1:
            raise RatingsError(f"thresholds need 0 < hard <= easy <= 1, not hard {self.hard}, easy {self.easy}")

    def level(self, share: float) -> Level:
        """The level of a deal the strong agent wins with ``share``."""
        if share >= self.easy:
            return "easy"
        if share < self.hard:
            return "hard"
        return "medium"


@dataclass(frozen=True)
class RatedDeal:
    """One deal's rating."""

    deal: int
    wins: int
    """Play-outs the strong agent won."""
    plays: int
    """Play-outs, one seed each."""
    winnable: bool | None
    """The solver's verdict, seeing every card: ``True`` proved winnable, ``False`` proved
    lost, ``None`` undecided within its limit."""
    level: Level

    @property
    def share(self) -> float:
        """The strong agent's win share."""
        return self.wins / self.plays

    @property
    def proved_winnable(self) -> bool:
        return self.winnable is True


@dataclass(frozen=True)
class LevelCount:
    """How many rated deals a level has, and how many of them are proved winnable."""

    level: Level
    deals: int
    winnable: int


@dataclass(frozen=True)
class Ratings:
    """A ratings file: its version, how it was made, its thresholds and its deals."""

    version: int
    """The version of the ratings (a new run or more deals: a higher version)."""
    made: Mapping[str, Any]
    """How the ratings were made: agent, setting, seeds, solver limit, date, machine."""
    thresholds: Thresholds
    rated: Mapping[tuple[str, str], tuple[RatedDeal, ...]]
    """The rated deals by (game slug, ruleset), in order of deal number."""

    def deals(self, game: str, ruleset: str = "standard", level: Level | None = None,
              winnable_only: bool = False) -> tuple[RatedDeal, ...]:
        """The rated deals of ``game`` and ``ruleset`` at ``level`` (``None``: any level);
        ``winnable_only``: only those the solver proved winnable."""
        key = _key(game, ruleset)
        if level is not None and level not in LEVELS:
            raise KibitzError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
        return tuple(rated for rated in self.rated.get(key, ())
                     if (level is None or rated.level == level) and (not winnable_only or rated.proved_winnable))

    def levels(self, game: str, ruleset: str = "standard") -> tuple[LevelCount, ...]:
        """The rated deals of each level of ``game`` and ``ruleset``, counted."""
        return tuple(LevelCount(level, len(found), sum(rated.proved_winnable for rated in found))
                     for level in LEVELS for found in [self.deals(game, ruleset, level)])

    def rating(self, game: str, ruleset: str, deal: int) -> RatedDeal | None:
        """The rating of one deal, if it is rated."""
        return next((rated for rated in self.rated.get(_key(game, ruleset), ()) if rated.deal == deal), None)

    def pick(self, game: str, ruleset: str, level: Level | None, winnable_only: bool,
             rng: random.Random) -> RatedDeal:
        """A rated deal meeting the choice, drawn by ``rng``; :class:`NoRatedDealError` says
        in words when no rated deal meets it."""
        found = self.deals(game, ruleset, level, winnable_only)
        if not found:
            raise NoRatedDealError(_nothing_meets(game, ruleset, level, winnable_only))
        return found[rng.randrange(len(found))]


def _key(game: str, ruleset: str) -> tuple[str, str]:
    if ruleset not in RULESETS:
        raise KibitzError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(RULESETS)}")
    return find(game).slug, ruleset


def _nothing_meets(game: str, ruleset: str, level: Level | None, winnable_only: bool) -> str:
    kind = " ".join(word for word in (level, "rated") if word)
    proved = " that the solver proved winnable" if winnable_only else ""
    return (f"no {kind} deal of {find(game).name} ({ruleset} rules){proved} yet; "
            "choose another level, or Any")


def parse_ratings(data: object) -> Ratings:
    """The ratings in a ratings file's JSON, checked: every deal a valid deal number, of a
    known game and ruleset, at the level its share and the thresholds give."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RatingsError(f"not a ratings file (its format must be {FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise RatingsError(f"ratings file format {data.get('format_version')!r}; this kibitz reads {FORMAT_VERSION}")
    version = data.get("version")
    made = data.get("made")
    limits = data.get("thresholds")
    games = data.get("games")
    if not isinstance(version, int) or not isinstance(made, dict) or not isinstance(limits, dict) \
            or not isinstance(games, dict):
        raise RatingsError("a ratings file needs a version, how it was made, thresholds and games")
    try:
        thresholds = Thresholds(float(limits["easy"]), float(limits["hard"]))
    except (KeyError, TypeError, ValueError):
        raise RatingsError(f"the thresholds must be two shares, easy and hard, not {limits!r}") from None
    rated: dict[tuple[str, str], tuple[RatedDeal, ...]] = {}
    for slug, rulesets in games.items():
        for ruleset, entries in rulesets.items():
            key = _key(slug, ruleset)
            rated[key] = tuple(sorted((_rated(entry, thresholds, slug) for entry in entries),
                                      key=lambda rated: rated.deal))
            if len({entry.deal for entry in rated[key]}) != len(rated[key]):
                raise RatingsError(f"{slug} ({ruleset}): a deal is rated twice")
    return Ratings(version, made, thresholds, rated)


def _rated(entry: Any, thresholds: Thresholds, slug: str) -> RatedDeal:
    try:
        deal, wins, plays, winnable, level = (entry["deal"], entry["wins"], entry["plays"], entry["winnable"],
                                              entry["level"])
        check_deal_number(deal)
    except (KeyError, TypeError, DealNumberError) as error:
        raise RatingsError(f"{slug}: a rated deal is not valid: {entry!r} ({error})") from None
    if not (isinstance(wins, int) and isinstance(plays, int) and 0 <= wins <= plays and plays > 0) \
            or winnable not in (True, False, None):
        raise RatingsError(f"{slug}: deal {deal} has wins {wins!r} of {plays!r} and winnable {winnable!r}")
    if level != thresholds.level(wins / plays):
        raise RatingsError(f"{slug}: deal {deal} is rated {level!r}, but wins {wins} of {plays} make it "
                           f"{thresholds.level(wins / plays)!r}")
    return RatedDeal(deal, wins, plays, winnable, level)


@lru_cache(maxsize=1)
def ratings() -> Ratings:
    """The ratings that ship with kibitz."""
    text = (resources.files("kibitz") / "data" / "ratings.json").read_text("utf-8")
    return parse_ratings(json.loads(text))


def levels(game: str, ruleset: str = "standard") -> tuple[LevelCount, ...]:
    """The shipped rated deals of each level of ``game`` and ``ruleset``, counted."""
    return ratings().levels(game, ruleset)


def deals(game: str, ruleset: str = "standard", level: Level | None = None,
          winnable_only: bool = False) -> tuple[RatedDeal, ...]:
    """The shipped rated deals of ``game`` and ``ruleset`` at ``level`` (``None``: any);
    ``winnable_only``: only those the solver proved winnable."""
    return ratings().deals(game, ruleset, level, winnable_only)


def pick(game: str, ruleset: str, level: Level | None, winnable_only: bool,
         rng: random.Random | None = None) -> RatedDeal:
    """A shipped rated deal meeting the choice (:class:`NoRatedDealError` when none does)."""
    return ratings().pick(game, ruleset, level, winnable_only, rng or random.SystemRandom())


def level_named(text: str | None) -> Level | None:
    """The level named ``text`` (``None``, ``""`` or ``any``: any level)."""
    if text is None or text.lower() in ("", "any"):
        return None
    for level in LEVELS:
        if text.lower() == level:
            return level
    raise KibitzError(f"unknown level {text!r}; choose one of: {', '.join(LEVELS)} or any")
