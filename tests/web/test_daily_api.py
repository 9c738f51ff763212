"""The deal of the day and the start page through the API: one deal a date for everyone (its
game in progress resumed when asked again), another the next day, its number withheld until the
game ends; dates and names checked; the days won in a row in the statistics; the start page's
figures (descriptions, odds, an opening view that shows no hidden card)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import kibitz
from kibitz import odds
from kibitz.autoplay import finishing_moves
from kibitz.daily import deal_of_the_day
from kibitz.registry import games
from kibitz.rules import RULESETS
from kibitz.solver import Limits, Outcome, solve

from .conftest import TestClient
from .test_api import refused
from .test_fair_play import check_withheld, deal_number


def daily(client: TestClient, slug: str, day: date | None = None, ruleset: str = "standard",
          status: int = 201) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset}
    if day is not None:
        body["date"] = day.isoformat()
    response = client.post(f"/api/games/{slug}/daily", json=body)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_date_deals_one_deal_for_everyone_and_the_next_date_another(client: TestClient) -> None:
    day = date(2026, 6, 30)
    for info in games():
        for ruleset in RULESETS:
            first = daily(client, info.slug, day, ruleset)
            number = deal_number(client, first["id"])
            assert number == deal_of_the_day(info.slug, ruleset, day)
            assert first["daily"] == "2026-06-30" and first["game"] == info.slug and first["ruleset"] == ruleset
            assert first["deal"] is None and first["random_deal"] is True and first["rating"] is None
            assert number is not None
            check_withheld(first, number)
            again = daily(client, info.slug, day, ruleset, status=200)   # its game, still in progress
            assert again["id"] == first["id"]
            following = daily(client, info.slug, day + timedelta(days=1), ruleset)
            assert following["id"] != first["id"]
            assert deal_number(client, following["id"]) not in (None, number)
    # Without a date: the server's day.
    today = daily(client, "cicely")
    assert today["daily"] == date.today().isoformat() or today["daily"] == (date.today() - timedelta(days=1)).isoformat()


def test_a_days_game_once_ended_is_dealt_anew(client: TestClient) -> None:
    day = date(2026, 7, 1)
    first = daily(client, "duchess", day)
    client.post(f"/api/play/{first['id']}/move", json={"move": first["legal"][0]})
    ended = client.post(f"/api/play/{first['id']}/abandon").json()
    assert ended["result"] == "lost" and ended["deal"] == str(deal_of_the_day("duchess", "standard", day))
    second = daily(client, "duchess", day)
    assert second["id"] != first["id"] and second["moves"] == 0
    assert deal_number(client, second["id"]) == deal_of_the_day("duchess", "standard", day)


def test_a_bad_request_for_a_deal_of_the_day_is_refused_in_words(client: TestClient) -> None:
    assert "unknown game 'whist'" in refused(client.post("/api/games/whist/daily", json={}), 404)
    assert "unknown ruleset" in refused(client.post("/api/games/duchess/daily", json={"ruleset": "house"}), 400)
    tomorrow = date.today() + timedelta(days=1)
    for bad, words in {"2026-02-30": "not a date of the calendar", "30/06/2026": "YYYY-MM-DD", 20260630: "YYYY-MM-DD",
                       (tomorrow + timedelta(days=2)).isoformat(): "date must be from 2000-01-01",
                       "1999-12-31": "date must be from 2000-01-01"}.items():
        assert words in refused(client.post("/api/games/duchess/daily", json={"date": bad}), 400)
    assert "unknown field 'deal'" in refused(client.post("/api/games/duchess/daily", json={"deal": 5}), 400)
    daily(client, "glenwood", tomorrow)   # an alias, and a player whose day has begun ahead of the server's


def win(client: TestClient, game: dict[str, Any]) -> None:
    """Win ``game`` through the API: the solver's line until the end is certain, then Finish."""
    state = kibitz.game(game["game"], game["ruleset"]).deal(deal_number(client, game["id"]) or 0)
    result = solve(state, Limits(seconds=20))
    assert result.outcome is Outcome.WON
    for count, move in enumerate(result.moves):
        if finishing_moves(state) is not None:
            break
        answer = client.post(f"/api/play/{game['id']}/move", json={"move": str(move), "expected_moves": count})
        assert answer.status_code == 200, answer.text
        state = state.apply(move)
    finished = client.post(f"/api/play/{game['id']}/finish").json()
    assert finished["status"] == "won", finished


def test_the_days_won_in_a_row_are_the_streak_of_the_deal_of_the_day(client: TestClient) -> None:
    today = date.today()
    lost = daily(client, "parisienne", today - timedelta(days=3))
    client.post(f"/api/play/{lost['id']}/move", json={"move": lost["legal"][0]})
    client.post(f"/api/play/{lost['id']}/abandon")
    for back in (2, 1):
        win(client, daily(client, "parisienne", today - timedelta(days=back)))
    win(client, daily(client, "grand-duchess", today - timedelta(days=1)))
    ordinary = client.post("/api/games/parisienne/new", json={"deal": 5}).json()   # not a deal of the day
    win(client, ordinary)
    stats = client.get("/api/stats").json()
    assert [(row["game"], row["played"]) for row in stats["stats"]] == [("parisienne", 4), ("grand-duchess", 1)]
    block = stats["daily"]
    rows = {row["game"]: row for row in block["games"]}
    assert [row["game"] for row in block["games"]] == ["grand-duchess", "parisienne"]   # in the games' order
    parisienne = rows["parisienne"]
    assert (parisienne["played"], parisienne["won"], parisienne["days_won"]) == (3, 2, 2)
    # Won the day before yesterday and yesterday: the streak goes on until a day is missed.
    assert (parisienne["current_streak"], parisienne["best_streak"]) == (2, 2)
    assert parisienne["last_won"] == (today - timedelta(days=1)).isoformat()
    assert (rows["grand-duchess"]["current_streak"], rows["grand-duchess"]["days_won"]) == (1, 1)
    assert (block["days_won"], block["current_streak"], block["best_streak"], block["played"]) == (2, 2, 2, 4)
    recent = stats["recent"]
    assert len(recent) == 5 and all(entry["deal"] is not None for entry in recent)


def test_the_start_page_has_every_game_its_odds_and_an_opening_in_sight(client: TestClient) -> None:
    start = client.get("/api/start").json()
    assert start["date"] == date.today().isoformat() or start["date"] == (date.today() - timedelta(days=1)).isoformat()
    day = date.fromisoformat(start["date"])
    assert [entry["slug"] for entry in start["games"]] == [info.slug for info in games()]
    assert start["thresholds"]["easy"] > start["thresholds"]["hard"]
    for entry, info in zip(start["games"], games()):
        assert entry["name"] == info.name and entry["description"] == info.description
        for ruleset in RULESETS:
            shown = entry["rulesets"][ruleset]
            assert shown["odds"] == odds.of(info.slug, ruleset).as_dict()
            # The opening of the day's deal, as its player sees it: hidden cards hidden.
            state = kibitz.game(info.slug, ruleset).deal(deal_of_the_day(info.slug, ruleset, day))
            view = state.view()
            for name, cards in zip(view.pile_names, view.piles):
                assert len(shown["opening"]["piles"][name]) == len(cards)
                assert [card is None for card in shown["opening"]["piles"][name]] == [card is None for card in cards]
            assert shown["opening"]["legal"] == [str(move) for move in state.legal_moves]
