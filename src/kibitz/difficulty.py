"""Rated deals: how hard each of a set of deals is, and whether the solver proved it winnable.

The ratings ship with the package (``kibitz/data/ratings.json``, made by ``scripts/ratings``
and ``scripts/rate_deals.py``; how, in ``docs/difficulty.md``). Each rated deal of a game and
ruleset carries the strong agent's wins out of its play-outs (one seed each) and the solver's
verdict on the whole deal (seeing every card). Its level follows from its win share and the
file's thresholds: **easy** from ``easy`` up, **hard** below ``hard``, **medium** between.

A level is offered only when at least :data:`MIN_LEVEL_DEALS` rated deals reached it: a level
with fewer is *declared empty* (:class:`EmptyLevel`, with the deals rated and how few reached
it), and its deals are left out of the file, so that the file never tells which deal so thin a
level would give. A game and ruleset whose every level is empty keeps its rated deals without
their levels for the deal of the day (:meth:`Ratings.daily_deals`).

>>> from kibitz import difficulty
>>> all(rated.level in difficulty.LEVELS for rated in difficulty.deals("duchess", "standard"))
True

Pure: reads its file and nothing else; imports no UI, web, solver, agent or storage code.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
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
FORMAT_VERSION = 2
"""The version of the file's layout this module reads (2: levels declared empty)."""
MIN_LEVEL_DEALS = 50
"""A level is offered only with at least this many rated deals; with fewer it is declared
empty and its deals are left out of the file."""


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
class EmptyLevel:
    """A level declared empty for a game and ruleset: fewer than :data:`MIN_LEVEL_DEALS` of
    its rated deals reached it, so it is not offered and those deals are not in the file."""

    level: Level
    deals_rated: int
    """The deals of the game and ruleset rated in all."""
    found: int
    """How many of them were of this level."""

    def reason(self) -> str:
        """Why the level is empty, in words: "fewer than 50 of 5,000 rated deals were hard"."""
        return f"fewer than {MIN_LEVEL_DEALS} of {self.deals_rated:,} rated deals were {self.level}"


@dataclass(frozen=True)
class DailyDeal:
    """A rated deal of a game and ruleset whose every level is empty, kept without its level
    for the deal of the day."""

    deal: int
    winnable: bool | None
    """The solver's verdict, as :attr:`RatedDeal.winnable`."""


@dataclass(frozen=True)
class LevelCount:
    """How many rated deals a level has, how many of them are proved winnable, and why it is
    empty when it is declared so."""

    level: Level
    deals: int
    winnable: int
    empty: EmptyLevel | None = None


@dataclass(frozen=True)
class Ratings:
    """A ratings file: its version, how it was made, its thresholds and its deals."""

    version: int
    """The version of the ratings (a new run or more deals: a higher version)."""
    made: Mapping[str, Any]
    """How the ratings were made: agent, setting, seeds, solver limit, date, machine."""
    thresholds: Thresholds
    rated: Mapping[tuple[str, str], tuple[RatedDeal, ...]]
    """The rated deals of the levels offered, by (game slug, ruleset), in order of deal number."""
    empty: Mapping[tuple[str, str], Mapping[Level, EmptyLevel]] = field(default_factory=dict)
    """The levels declared empty, by (game slug, ruleset)."""
    daily: Mapping[tuple[str, str], tuple[DailyDeal, ...]] = field(default_factory=dict)
    """The rated deals, without their levels, of a game and ruleset whose every level is empty."""

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
        """The rated deals of each level of ``game`` and ``ruleset``, counted, with why a level
        declared empty is."""
        empty = self.empty.get(_key(game, ruleset), {})
        return tuple(LevelCount(level, len(found), sum(rated.proved_winnable for rated in found), empty.get(level))
                     for level in LEVELS for found in [self.deals(game, ruleset, level)])

    def daily_deals(self, game: str, ruleset: str = "standard") -> tuple[int, ...]:
        """The deals of ``game`` and ``ruleset`` the solver proved winnable, for the deal of
        the day: those of the levels offered or, where every level is empty, those kept
        without their levels; in order of deal number."""
        key = _key(game, ruleset)
        offered = tuple(rated.deal for rated in self.rated.get(key, ()) if rated.proved_winnable)
        return offered or tuple(kept.deal for kept in self.daily.get(key, ()) if kept.winnable is True)

    def rating(self, game: str, ruleset: str, deal: int) -> RatedDeal | None:
        """The rating of one deal, if it is rated."""
        return next((rated for rated in self.rated.get(_key(game, ruleset), ()) if rated.deal == deal), None)

    def pick(self, game: str, ruleset: str, level: Level | None, winnable_only: bool,
             rng: random.Random) -> RatedDeal:
        """A rated deal meeting the choice, drawn by ``rng``; :class:`NoRatedDealError` says
        in words when no rated deal meets it."""
        found = self.deals(game, ruleset, level, winnable_only)
        if not found:
            raise NoRatedDealError(_nothing_meets(game, ruleset, level, winnable_only,
                                                 self.empty.get(_key(game, ruleset), {})))
        return found[rng.randrange(len(found))]


def _key(game: str, ruleset: str) -> tuple[str, str]:
    if ruleset not in RULESETS:
        raise KibitzError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(RULESETS)}")
    return find(game).slug, ruleset


def _nothing_meets(game: str, ruleset: str, level: Level | None, winnable_only: bool,
                   empty: Mapping[Level, EmptyLevel]) -> str:
    """Why no rated deal meets the choice, in words (the browser's ``unmetWords`` says the same)."""
    name = find(game).name
    if level is not None and level in empty:
        return f"no {level} deal of {name} ({ruleset} rules): {empty[level].reason()}; choose another level, or Any"
    if level is None and len(empty) == len(LEVELS):
        rated = max(reason.deals_rated for reason in empty.values())
        return (f"no rated deal of {name} ({ruleset} rules): fewer than {MIN_LEVEL_DEALS} of {rated:,} rated "
                "deals were of any one level; choose another level, or Any")
    kind = " ".join(word for word in (level, "rated") if word)
    proved = " that the solver proved winnable" if winnable_only else ""
    return f"no {kind} deal of {name} ({ruleset} rules){proved} yet; choose another level, or Any"


def parse_ratings(data: object) -> Ratings:
    """The ratings in a ratings file's JSON, checked: every deal a valid deal number, of a
    known game and ruleset, rated once, at the level its share and the thresholds give; every
    level either holds at least :data:`MIN_LEVEL_DEALS` deals or is declared empty and holds
    none."""
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
    empty: dict[tuple[str, str], Mapping[Level, EmptyLevel]] = {}
    daily: dict[tuple[str, str], tuple[DailyDeal, ...]] = {}
    for slug, rulesets in games.items():
        if not isinstance(rulesets, dict):
            raise RatingsError(f"{slug}: the rulesets of a game must be an object, not {rulesets!r}")
        for ruleset, line in rulesets.items():
            key = _key(slug, ruleset)
            rated[key], empty[key], daily[key] = _line(f"{slug} ({ruleset})", line, thresholds)
    return Ratings(version, made, thresholds, rated, empty, {key: kept for key, kept in daily.items() if kept})


LINE_FIELDS = ("deals", "empty", "daily")
"""The fields of a game and ruleset in a ratings file: its rated deals, its levels declared
empty, and (every level empty) its rated deals kept without levels for the deal of the day."""


def _line(where: str, line: object, thresholds: Thresholds
          ) -> tuple[tuple[RatedDeal, ...], dict[Level, EmptyLevel], tuple[DailyDeal, ...]]:
    """One game and ruleset of a ratings file, checked (``where`` names it in messages)."""
    if not isinstance(line, dict) or not isinstance(line.get("deals"), list) \
            or not isinstance(line.get("empty", {}), dict) or not isinstance(line.get("daily", []), list):
        raise RatingsError(f"{where}: a game and ruleset needs a list of deals and the levels declared empty, "
                           f"not {_short(line)}")
    unknown = [name for name in line if name not in LINE_FIELDS]
    if unknown:
        raise RatingsError(f"{where}: unknown field {unknown[0]!r}; a game and ruleset has {', '.join(LINE_FIELDS)}")
    deals = tuple(sorted((_rated(entry, thresholds, where) for entry in line["deals"]), key=lambda rated: rated.deal))
    if len({rated.deal for rated in deals}) != len(deals):
        raise RatingsError(f"{where}: a deal is rated twice")
    empty = {level: _empty(where, level, reason) for level, reason in line.get("empty", {}).items()}
    for level in LEVELS:
        count = sum(rated.level == level for rated in deals)
        if level in empty and count:
            raise RatingsError(f"{where}: the {level} level is declared empty, yet {count} {level} deals are listed")
        if level not in empty and count < MIN_LEVEL_DEALS:
            raise RatingsError(f"{where}: {count} {level} deals; a level needs at least {MIN_LEVEL_DEALS} rated "
                               "deals, or must be declared empty")
    totals = {reason.deals_rated for reason in empty.values()}
    if len(totals) > 1:
        raise RatingsError(f"{where}: the levels declared empty disagree on the deals rated ({sorted(totals)})")
    withheld = sum(reason.found for reason in empty.values())
    if totals and totals != {len(deals) + withheld}:
        raise RatingsError(f"{where}: {totals.pop():,} deals rated, but {len(deals):,} are listed and {withheld:,} "
                           "withheld")
    kept = tuple(sorted((_daily(entry, where) for entry in line.get("daily", [])), key=lambda daily: daily.deal))
    if kept and len(empty) != len(LEVELS):
        raise RatingsError(f"{where}: deals kept without levels for the deal of the day, though a level is offered")
    if kept and (len({daily.deal for daily in kept}) != len(kept) or len(kept) != withheld):
        raise RatingsError(f"{where}: the deals kept for the deal of the day must be the {withheld:,} deals rated, "
                           f"each once, not {len(kept):,}")
    return deals, empty, kept


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _empty(where: str, name: object, reason: object) -> EmptyLevel:
    level = next((known for known in LEVELS if known == name), None)
    if level is None:
        raise RatingsError(f"{where}: {name!r} is declared empty, but it is not a level; the levels are "
                           f"{', '.join(LEVELS)}")
    if not isinstance(reason, dict) or "deals_rated" not in reason or "found" not in reason:
        raise RatingsError(f"{where}: the empty {level} level needs deals_rated and found, not {_short(reason)}")
    deals_rated, found = reason["deals_rated"], reason["found"]
    if not (type(deals_rated) is int and type(found) is int and 0 <= found < MIN_LEVEL_DEALS and found <= deals_rated):
        raise RatingsError(f"{where}: the {level} level is declared empty with {found!r} of {deals_rated!r} deals; "
                           f"an empty level holds fewer than {MIN_LEVEL_DEALS} of the deals rated")
    return EmptyLevel(level, deals_rated, found)


def _daily(entry: Any, where: str) -> DailyDeal:
    try:
        deal, winnable = entry["deal"], entry["winnable"]
        check_deal_number(deal)
    except (KeyError, TypeError, DealNumberError) as error:
        raise RatingsError(f"{where}: a deal kept for the deal of the day is not valid: {_short(entry)} ({error})") \
            from None
    if winnable not in (True, False, None):
        raise RatingsError(f"{where}: deal {deal} has winnable {winnable!r}")
    return DailyDeal(deal, winnable)


def _rated(entry: Any, thresholds: Thresholds, where: str) -> RatedDeal:
    try:
        deal, wins, plays, winnable, level = (entry["deal"], entry["wins"], entry["plays"], entry["winnable"],
                                              entry["level"])
        check_deal_number(deal)
    except (KeyError, TypeError, DealNumberError) as error:
        raise RatingsError(f"{where}: a rated deal is not valid: {entry!r} ({error})") from None
    if not (isinstance(wins, int) and isinstance(plays, int) and 0 <= wins <= plays and plays > 0) \
            or winnable not in (True, False, None):
        raise RatingsError(f"{where}: deal {deal} has wins {wins!r} of {plays!r} and winnable {winnable!r}")
    if level != thresholds.level(wins / plays):
        raise RatingsError(f"{where}: deal {deal} is rated {level!r}, but wins {wins} of {plays} make it "
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
