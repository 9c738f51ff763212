"""The start page's figures and the deal of the day, in the browser player.

- ``GET /api/start``: each game with its one-line description and, per ruleset, its odds and
  difficulty (:mod:`kibitz.odds`) and the opening of the day's deal as a player sees it (the
  picture of its table), with the server's date.
- ``POST /api/games/{slug}/daily``: the deal of the day (:mod:`kibitz.daily`) of the server's
  local date, or of ``date`` (``YYYY-MM-DD``, up to the day after the server's): its game still
  in progress if there is one, else a new game. Its number is withheld until the game ends, as
  a random deal's is.
- :func:`daily_statistics`: the deals of the day won, and the days won in a row, per game and
  ruleset and over all games (a day counts as won when its deal of the day was won).
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any, Sequence

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kibitz import difficulty, odds
from kibitz.daily import DayError, deal_of_the_day, parse_day, streak
from kibitz.errors import UnknownGameError
from kibitz.registry import find, game as find_game, games
from kibitz.rules import RULESETS
from kibitz.web.inputs import ApiError, read_json, ruleset_field
from kibitz.web.referee import Referee, table_payload, view_payload
from kibitz.web.saves import leaving_field
from kibitz.web.store import Result


def today() -> date:
    """The server's local date: the day whose deal is dealt when the page names none."""
    return date.today()


@lru_cache(maxsize=2)
def start_payload(day: date) -> dict[str, Any]:
    """What the start page shows of every game on ``day``, and the thresholds of the levels."""
    entries = []
    for info in games():
        rulesets = {}
        for ruleset in RULESETS:
            opening = find_game(info.slug, ruleset).deal(deal_of_the_day(info.slug, ruleset, day))
            rulesets[ruleset] = {"odds": odds.of(info.slug, ruleset).as_dict(), "opening": table_payload(opening)}
        entries.append({"slug": info.slug, "name": info.name, "description": info.description,
                        "rulesets": rulesets})
    thresholds = difficulty.ratings().thresholds
    return {"date": day.isoformat(), "games": entries,
            "thresholds": {"easy": thresholds.easy, "hard": thresholds.hard}}


async def start_page(request: Request) -> Response:
    return JSONResponse(start_payload(today()))


async def daily_game(request: Request) -> Response:
    """The deal of the day of the game ``slug``: its game in progress (200), else a new game (201)."""
    data = await read_json(request, ("ruleset", "date", "leaving"))
    try:
        slug = find(request.path_params["slug"]).slug
    except UnknownGameError as error:
        raise ApiError(404, str(error)) from None
    ruleset = ruleset_field(data.get("ruleset"))
    now = today()
    try:
        day = now if data.get("date") is None else parse_day(data["date"], now)
        deal = deal_of_the_day(slug, ruleset, day)
    except DayError as error:
        raise ApiError(400, str(error)) from None
    referee: Referee = request.app.state.referee
    leaving = leaving_field(data.get("leaving"))
    going = referee.store.open_daily(slug, ruleset, day.isoformat())
    if going is not None:
        try:
            return JSONResponse(view_payload(going, referee.get(going)))
        except ApiError:
            pass   # a stored game that can no longer be resumed: a new one instead
    game_id, play = referee.daily(slug, ruleset, deal, day.isoformat(), leaving)
    return JSONResponse(view_payload(game_id, play), status_code=201)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def daily_statistics(results: Sequence[Result], on: date) -> dict[str, Any]:
    """The deals of the day among ``results``: per game and ruleset (in the games' order), the
    games counted, won, the days won, the streak still going on ``on`` and the best one, the
    last day won; and over all games, the days won and their streaks."""
    groups: dict[tuple[str, str], list[tuple[Result, date]]] = {}
    for result in results:
        day = None if result.daily is None else _day(result.daily)
        if day is not None:
            groups.setdefault((result.slug, result.ruleset), []).append((result, day))
    order = {info.slug: k for k, info in enumerate(games())}
    rows = []
    every: set[date] = set()
    for (slug, ruleset), found in sorted(groups.items(), key=lambda item: (order.get(item[0][0], 99), item[0][1])):
        won = {day for result, day in found if result.result == "won"}
        every |= won
        runs = streak(won, on)
        rows.append({"game": slug, "ruleset": ruleset, "played": len(found),
                     "won": sum(result.result == "won" for result, _ in found), "days_won": len(won),
                     "current_streak": runs.current, "best_streak": runs.best,
                     "last_won": max(won).isoformat() if won else None})
    runs = streak(every, on)
    return {"today": on.isoformat(), "played": sum(row["played"] for row in rows), "days_won": len(every),
            "current_streak": runs.current, "best_streak": runs.best,
            "last_won": max(every).isoformat() if every else None, "games": rows}
