"""New game by level in the browser: Easy and Hard give rated deals of those levels, "only deals
that can be won" gives deals the solver proved winnable, the number stays withheld until the
game ends, the choice is remembered, and a choice no rated deal meets is said in words (and
gives no game up).

Driven like the other browser tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright; the levels are checked against :mod:`kibitz.difficulty`.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from kibitz import difficulty

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import game_id, open_game, state, type_move, wait_moves
from .test_levels_api import game_offering, unmet_choice

from playwright.sync_api import Page, expect  # noqa: E402


def random_deal(page: Page, level: str, winnable: bool, give_up: bool = False) -> str:
    """Choose ``level`` and winnability, deal a random deal with Random, and wait for it; its id."""
    before = game_id(page)
    page.locator("#level").select_option(level)
    page.locator("#winnable").set_checked(winnable)
    page.locator("#random").click()
    if give_up:
        expect(page.locator("#giveup")).to_be_visible()
        page.get_by_role("button", name="Give up and deal anew").click()
    # (An id may end in "-", after which no word boundary follows: the id's end is matched.)
    expect(page).not_to_have_url(re.compile(rf"[?&]id={re.escape(before)}(&|#|$)"))
    wait_moves(page, 0)
    return game_id(page)


def check_withheld(page: Page) -> None:
    """The page names no deal: the share link, the title, the address and the game's view."""
    expect(page.locator("#share")).to_have_text("random deal")
    assert "deal=" not in page.url
    assert state(page)["deal"] is None and state(page)["rating"] is None
    assert "#" not in (page.locator("#title").text_content() or "")


def ended(server: str, gid: str) -> dict[str, Any]:
    """The game ``gid`` as the server tells it (its number and rating once it has ended)."""
    data: dict[str, Any] = httpx.get(f"{server}/api/play/{gid}").json()
    return data


def test_easy_and_hard_new_games_get_deals_of_those_levels(page: Page, server: str) -> None:
    slug = game_offering("easy")
    open_game(page, server, slug, 1)
    easy = random_deal(page, "easy", False)
    check_withheld(page)
    expect(page.locator("#message")).to_contain_text("an easy deal")
    type_move(page, state(page)["legal"][0])
    again = random_deal(page, "easy", False, give_up=True)
    check_withheld(page)
    # The first easy game was given up: it ended, and its number and rating are told now.
    first = ended(server, easy)
    assert first["deal"] is not None and first["rating"]["level"] == "easy"
    rated = difficulty.ratings().rating(slug, "standard", int(first["deal"]))
    assert rated is not None and rated.level == "easy"
    type_move(page, state(page)["legal"][0])
    httpx.post(f"{server}/api/play/{again}/abandon", json={}).raise_for_status()
    slug = game_offering("hard")
    open_game(page, server, slug, 2)
    hard = random_deal(page, "hard", False)
    check_withheld(page)
    expect(page.locator("#message")).to_contain_text("a hard deal")
    type_move(page, state(page)["legal"][0])
    httpx.post(f"{server}/api/play/{hard}/abandon", json={}).raise_for_status()
    second = ended(server, hard)
    rated = difficulty.ratings().rating(slug, "standard", int(second["deal"]))
    assert rated is not None and rated.level == "hard" and second["rating"]["level"] == "hard"
    # The choice is remembered, like the other settings.
    page.reload()
    wait_moves(page, 1)
    expect(page.locator("#level")).to_have_value("hard")
    expect(page.locator("#winnable")).not_to_be_checked()


def test_only_deals_that_can_be_won(page: Page, server: str) -> None:
    slug = game_offering("easy", winnable=True)
    open_game(page, server, slug, 2)
    proved = {rated.deal for rated in difficulty.deals(slug, "standard", None, winnable_only=True)}
    for _ in range(2):
        gid = random_deal(page, "any", True)
        check_withheld(page)
        expect(page.locator("#message")).to_contain_text("a deal that can be won")
        httpx.post(f"{server}/api/play/{gid}/move", json={"move": state(page)["legal"][0]}).raise_for_status()
        httpx.post(f"{server}/api/play/{gid}/abandon", json={}).raise_for_status()
        finished = ended(server, gid)
        assert int(finished["deal"]) in proved and finished["rating"]["winnable"] is True
    page.reload()
    expect(page.locator("#winnable")).to_be_checked()
    expect(page.locator("#level")).to_have_value("any")


def test_a_choice_no_rated_deal_meets_is_said_and_gives_nothing_up(page: Page, server: str) -> None:
    slug, ruleset, level = unmet_choice()
    open_game(page, server, slug, 3, ruleset)
    type_move(page, state(page)["legal"][0])
    before = game_id(page)
    page.locator("#level").select_option(level)
    page.locator("#random").click()
    expect(page.locator("#message")).to_have_text(re.compile(
        rf"^no {level} deal of .* \({ruleset} rules\): fewer than 50 of [0-9,]+ rated deals were {level}; "
        r"choose another level, or Any$"))
    expect(page.locator("#giveup")).to_be_hidden()
    assert game_id(page) == before and state(page)["moves"] == 1 and state(page)["result"] is None


def test_a_first_load_whose_choice_no_deal_meets_deals_any_deal_and_says_why(page: Page, server: str) -> None:
    slug, ruleset, level = unmet_choice()
    open_game(page, server, slug, 4)
    page.evaluate(f"() => localStorage.setItem('kibitz-setting-level', '{level}')")
    page.goto(f"{server}/?game={slug}&ruleset={ruleset}")
    wait_moves(page, 0)
    expect(page.locator("#level")).to_have_value(level)
    expect(page.locator("#message")).to_have_text(re.compile(rf"^no {level} deal of .*; here is a deal of any level$"))
    assert state(page)["ruleset"] == ruleset and state(page)["random_deal"] is True
    check_withheld(page)
