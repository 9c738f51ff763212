"""The published odds of each game: how often a fair strong player wins it, and how many of its
deals can be won seeing every card.

The figures ship with the package (``kibitz/data/odds.json``), written by ``kibitz report
--pages docs``: a game and ruleset's line from the kept rows of ``docs/odds.md`` once the strong
agent has played 2,000 of its deals, the earlier measure kept in ``docs/history.md`` until then
(``made.lines`` says which). Per game and ruleset:

- **fair**: the strong agent's wins out of the deals it played, seeing only the player's view;
  its 95% Wilson interval follows from the two counts;
- **thoughtful**: the conservative 95% interval of the share of deals the solver, seeing every
  card, can win (an upper bound of any fair player's rate).

A game's **difficulty** is the level (:mod:`kibitz.difficulty`) that the fair win rate earns
with the thresholds that rate single deals: easy, medium or hard.

>>> from kibitz import odds
>>> odds.of("duchess", "standard").level in ("easy", "medium", "hard")
True

Pure: reads its file and nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from kibitz import difficulty
from kibitz.difficulty import Level
from kibitz.errors import KibitzError
from kibitz.intervals import wilson
from kibitz.registry import find
from kibitz.rules import RULESETS

FORMAT = "kibitz-odds"
FORMAT_VERSION = 1


class OddsError(KibitzError):
    """An odds file that is not one this module can read."""


@dataclass(frozen=True)
class FairRate:
    """The strong agent's wins out of the deals it played, seeing only the player's view."""

    wins: int
    deals: int

    @property
    def share(self) -> float:
        return self.wins / self.deals

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the share."""
        return wilson(self.wins, self.deals)

    @property
    def places(self) -> int:
        """The decimals its percentages are shown with, as in the docs: two when the interval
        reaches below 1% (the rate is then shown as wins of deals), else one."""
        return 2 if self.interval[0] < 0.01 else 1

    def shown(self) -> dict[str, float | int]:
        """The share and its interval in percent, as the docs show them (:func:`percent`)."""
        low, high = self.interval
        return {"share": percent(self.share, self.places), "low": percent(low, self.places),
                "high": percent(high, self.places), "places": self.places}


def percent(share: float, places: int) -> float:
    """``share`` in percent to ``places`` decimals as the docs show it: rounded to two decimals
    first (as ``kibitz odds --report`` prints it), then to ``places``, halves up."""
    printed = Decimal(f"{share * 100:.2f}")
    return float(printed.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


@dataclass(frozen=True)
class Winnability:
    """The conservative 95% interval of the share of deals winnable seeing every card
    (undecided deals counted once as won and once as lost), over ``deals`` studied deals."""

    deals: int
    low: float
    high: float


@dataclass(frozen=True)
class Odds:
    """A game's odds in one ruleset."""

    game: str
    ruleset: str
    fair: FairRate
    thoughtful: Winnability

    @property
    def level(self) -> Level:
        """The game's difficulty: the level its fair win rate earns."""
        return difficulty.ratings().thresholds.level(self.fair.share)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.fair.interval
        return {"game": self.game, "ruleset": self.ruleset, "level": self.level,
                "fair": {"wins": self.fair.wins, "deals": self.fair.deals, "share": round(self.fair.share, 6),
                         "low": round(low, 6), "high": round(high, 6), "shown": self.fair.shown()},
                "thoughtful": {"deals": self.thoughtful.deals, "low": self.thoughtful.low,
                               "high": self.thoughtful.high}}


@dataclass(frozen=True)
class OddsTable:
    """An odds file: how its figures were made, and the odds by (game slug, ruleset)."""

    made: Mapping[str, Any]
    odds: Mapping[tuple[str, str], Odds]


def parse_odds(data: object) -> OddsTable:
    """The odds in an odds file's JSON, checked: known games and rulesets, counts and shares
    that make sense."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise OddsError(f"not an odds file (its format must be {FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise OddsError(f"odds file format {data.get('format_version')!r}; this kibitz reads {FORMAT_VERSION}")
    made, games = data.get("made"), data.get("games")
    if not isinstance(made, dict) or not isinstance(games, dict):
        raise OddsError("an odds file needs how it was made and its games")
    table: dict[tuple[str, str], Odds] = {}
    for slug, rulesets in games.items():
        if not isinstance(rulesets, dict):
            raise OddsError(f"{slug}: its rulesets must be an object")
        for ruleset, entry in rulesets.items():
            if ruleset not in RULESETS:
                raise OddsError(f"{slug}: unknown ruleset {ruleset!r}")
            table[find(slug).slug, ruleset] = _odds(find(slug).slug, ruleset, entry)
    return OddsTable(made, table)


def _odds(slug: str, ruleset: str, entry: Any) -> Odds:
    try:
        fair = FairRate(entry["fair"]["wins"], entry["fair"]["deals"])
        thoughtful = Winnability(entry["thoughtful"]["deals"], float(entry["thoughtful"]["low"]),
                                 float(entry["thoughtful"]["high"]))
    except (KeyError, TypeError, ValueError):
        raise OddsError(f"{slug} ({ruleset}): odds need fair wins and deals, and thoughtful deals, low "
                        f"and high, not {entry!r}") from None
    if not (isinstance(fair.wins, int) and isinstance(fair.deals, int) and 0 <= fair.wins <= fair.deals
            and fair.deals > 0):
        raise OddsError(f"{slug} ({ruleset}): fair wins {fair.wins!r} of {fair.deals!r} deals")
    if not (isinstance(thoughtful.deals, int) and thoughtful.deals > 0
            and 0 <= thoughtful.low <= thoughtful.high <= 1):
        raise OddsError(f"{slug} ({ruleset}): thoughtful winnability {thoughtful!r}")
    return Odds(slug, ruleset, fair, thoughtful)


@lru_cache(maxsize=1)
def table() -> OddsTable:
    """The odds that ship with kibitz."""
    text = (resources.files("kibitz") / "data" / "odds.json").read_text("utf-8")
    return parse_odds(json.loads(text))


def of(game: str, ruleset: str = "standard") -> Odds:
    """The shipped odds of ``game`` in ``ruleset`` (every game has them)."""
    key = (find(game).slug, ruleset)
    if key not in table().odds:
        raise OddsError(f"no odds of {find(game).name} ({ruleset} rules)")
    return table().odds[key]
