"""New game by level through the API: a random rated deal of the level asked for, or one the
solver proved winnable, its number withheld like any random deal's until the game ends, and
a choice no rated deal meets refused in words."""

from __future__ import annotations

from typing import Any

import kibitz
from kibitz import difficulty
from kibitz.rules import RULESETS
from kibitz.difficulty import LEVELS, Level

from .conftest import TestClient
from .test_api import refused
from .test_fair_play import deal_number


def game_offering(level: Level, winnable: bool = False) -> str:
    """A game whose standard ruleset offers ``level`` (with deals proved winnable, if asked)."""
    for info in kibitz.games():
        count = next(count for count in difficulty.levels(info.slug, "standard") if count.level == level)
        if count.winnable if winnable else count.deals:
            return info.slug
    raise AssertionError(f"no game offers {level} deals in the standard rules")


def unmet_choice() -> tuple[str, str, Level]:
    """A game, ruleset and level that no rated deal meets (every game has a level the strong
    agent's shares leave empty in some ruleset, or a ruleset without ratings)."""
    for info in kibitz.games():
        for ruleset in RULESETS:
            for level in LEVELS:
                if not difficulty.deals(info.slug, ruleset, level):
                    return info.slug, ruleset, level
    raise AssertionError("every level of every game and ruleset has rated deals")


def new_rated(client: TestClient, slug: str, **choice: Any) -> dict[str, Any]:
    response = client.post(f"/api/games/{slug}/new", json={"ruleset": "standard", **choice})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_level_gives_a_rated_deal_of_that_level_its_number_withheld(client: TestClient) -> None:
    for level in ("easy", "hard"):
        slug = game_offering(level)
        allowed = {rated.deal for rated in difficulty.deals(slug, "standard", level)}
        for _ in range(4):
            game = new_rated(client, slug, level=level)
            number = deal_number(client, game["id"])
            assert number in allowed
            assert game["deal"] is None and game["random_deal"] is True and game["rating"] is None
            assert client.get(f"/api/play/{game['id']}").json()["deal"] is None
            refused(client.get(f"/api/play/{game['id']}/record"), 403)


def test_winnable_only_gives_deals_the_solver_proved_winnable(client: TestClient) -> None:
    slug = game_offering("easy", winnable=True)
    proved = {rated.deal for rated in difficulty.deals(slug, "standard", None, winnable_only=True)}
    for _ in range(6):
        game = new_rated(client, slug, winnable=True)
        assert deal_number(client, game["id"]) in proved
        assert game["deal"] is None


def test_the_rating_is_told_with_the_number_once_the_game_ends(client: TestClient) -> None:
    level: Level = "hard"
    slug = game_offering(level, winnable=True)
    game = new_rated(client, slug, level=level, winnable=True)
    gid = game["id"]
    moved = client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0]})
    assert moved.status_code == 200 and moved.json()["rating"] is None
    ended = client.post(f"/api/play/{gid}/abandon", json={}).json()
    rated = difficulty.ratings().rating(slug, "standard", int(ended["deal"]))
    assert rated is not None and rated.level == level
    assert ended["rating"] == {"level": level, "wins": rated.wins, "plays": rated.plays, "winnable": rated.winnable}


def test_a_deal_chosen_by_number_is_rated_from_the_start(client: TestClient) -> None:
    slug = game_offering("easy")
    rated = difficulty.deals(slug, "standard")[0]
    game = new_rated(client, slug, deal=rated.deal)
    assert game["rating"]["level"] == rated.level
    unrated = new_rated(client, slug, deal=10**19 + 7)
    assert unrated["rating"] is None


def test_without_a_choice_a_random_deal_is_any_deal(client: TestClient) -> None:
    rated = {rated.deal for rated in difficulty.deals("duchess", "standard")}
    numbers = [deal_number(client, new_rated(client, "duchess")["id"]) for _ in range(5)]
    assert not set(numbers) <= rated   # deal numbers run to a billion: not the rated ones alone


def test_choices_nobody_meets_and_wrong_choices_are_refused_in_words(client: TestClient) -> None:
    unmet, ruleset, level = unmet_choice()
    message = refused(client.post(f"/api/games/{unmet}/new", json={"ruleset": ruleset, "level": level}), 404)
    empty = next(count.empty for count in difficulty.levels(unmet, ruleset) if count.level == level)
    assert empty is not None   # the shipped file declares every level it leaves without deals empty
    assert message == (f"no {level} deal of {kibitz.game(unmet).name} ({ruleset} rules): fewer than 50 of "
                       f"{empty.deals_rated:,} rated deals were {level}; choose another level, or Any")
    slug = game_offering("easy")
    message = refused(client.post(f"/api/games/{slug}/new", json={"level": "trivial"}), 400)
    assert message == "level must be one of: easy, medium, hard, any"
    message = refused(client.post(f"/api/games/{slug}/new", json={"level": "easy", "deal": 5}), 400)
    assert "a deal chosen by number" in message
    refused(client.post(f"/api/games/{slug}/new", json={"winnable": "yes"}), 400)
    assert new_rated(client, slug, level="any", winnable=False)["random_deal"] is True


def test_the_games_list_counts_the_rated_deals_and_says_why_a_level_is_empty(client: TestClient) -> None:
    rated = client.get("/api/games").json()["rated"]
    seen = set()
    for info in kibitz.games():
        for ruleset in RULESETS:
            for count in difficulty.levels(info.slug, ruleset):
                expected: dict[str, Any] = {"deals": count.deals, "winnable": count.winnable}
                if count.empty is not None:
                    expected["empty"] = {"deals_rated": count.empty.deals_rated, "found": count.empty.found,
                                         "least": 50}
                assert rated[info.slug][ruleset][count.level] == expected
                seen.add(count.empty is None)
    assert seen == {True, False}


def test_winnable_only_leaves_out_deals_lost_or_undecided(client: TestClient, monkeypatch: Any) -> None:
    shipped = difficulty.ratings()
    made = [difficulty.RatedDeal(deal, 0, 3, winnable, "hard")
            for deal, winnable in ((11, False), (12, None), (13, True), (14, None), (15, False))]
    ratings = difficulty.Ratings(shipped.version, shipped.made, shipped.thresholds, {("duchess", "standard"): tuple(made)})
    monkeypatch.setattr(difficulty, "ratings", lambda: ratings)
    for _ in range(8):
        assert deal_number(client, new_rated(client, "duchess", level="hard", winnable=True)["id"]) == 13
    dealt = {deal_number(client, new_rated(client, "duchess", level="hard")["id"]) for _ in range(30)}
    assert dealt <= {11, 12, 13, 14, 15} and len(dealt) > 1
    message = refused(client.post("/api/games/duchess/new", json={"level": "easy", "winnable": True}), 404)
    assert message == ("no easy rated deal of Duchess (standard rules) that the solver proved winnable yet; "
                       "choose another level, or Any")
