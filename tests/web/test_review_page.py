"""The review in the page: it opens after a lost game beside (or below) the table, shows the
graph and the figures as they arrive, shows a position read-only, starts a practice game from
there, and stops on the server when the player leaves.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright, one server and one browser for the module.
"""

from __future__ import annotations

import os
import re
import time

import httpx
import pytest

from .browser import played_through_api
from .test_review import LOST_GAME, random_moves
from .test_server import server_pid, session_cpu_seconds

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import state, type_move, wait_moves

from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402

PHONE: ViewportSize = {"width": 390, "height": 844}


def lose_a_game(page: Page, server: str) -> str:
    """Play the short lost game, its last move in the page (the finished panel shows); its id."""
    slug, deal, moves = LOST_GAME
    game = played_through_api(server, slug, deal, moves[:-1])
    page.goto(f"{server}/?id={game['id']}")
    wait_moves(page, len(moves) - 1)
    type_move(page, moves[-1])
    expect(page.locator("#overlay")).to_be_visible()
    return str(game["id"])


def boxes_overlap(page: Page, first: str, second: str) -> bool:
    one, two = page.locator(first).bounding_box(), page.locator(second).bounding_box()
    assert one is not None and two is not None
    return (min(one["x"] + one["width"], two["x"] + two["width"]) - max(one["x"], two["x"]) > 1 and
            min(one["y"] + one["height"], two["y"] + two["height"]) - max(one["y"], two["y"]) > 1)


@pytest.mark.parametrize("phone", [False, True], ids=["desk", "phone"])
def test_the_review_opens_after_a_lost_game_beside_the_table(page: Page, server: str, phone: bool) -> None:
    if phone:
        page.set_viewport_size(PHONE)
    gid = lose_a_game(page, server)
    page.get_by_role("button", name="Review this game").click()
    expect(page.locator("#overlay")).to_be_hidden()
    panel = page.locator("#review")
    expect(panel).to_be_visible()
    expect(page.locator("#reviewtitle")).to_be_focused()
    expect(page.locator("#reviewstatus")).to_have_text(re.compile(r"^review complete"))
    expect(page.locator("#reviewgraph path.line").first).to_be_attached()
    expect(page.locator("#reviewgraph .no-return")).to_have_count(1)
    figures = page.locator("#reviewfigures")
    expect(figures).to_contain_text(re.compile(r"Accuracy: \d{1,3} of 100"))
    expect(figures).to_contain_text(re.compile(r"Luck: the chance at the first move was (about|not sure).*the game's "
                                               r"average: \d+(\.\d+)?% of its [\d,]+ studied deals"))
    expect(figures.locator(".solver")).to_contain_text("Seeing every card (the solver)")
    expect(figures.locator(".solver")).to_contain_text("the deal could not be won after move 2 (proved)")
    expect(page.locator("#table .card").first).to_be_visible()
    assert not boxes_overlap(page, "#review", "#felt")   # beside or below the table, never over it
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The keyboard chooses a position of the graph: the table shows it, read-only, the move
    # played there and the strong player's move marked.
    graph = page.locator("#reviewgraph")
    graph.focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(graph).to_have_attribute("aria-valuenow", "1")
    expect(graph).to_have_attribute("aria-valuetext", re.compile(r"^after move 1: chance about \d+%"))
    expect(page.locator("#reviewposition")).to_be_visible()
    expect(page.locator("#reviewwhere")).to_contain_text("after move 1, read-only")
    expect(page.locator("#reviewplayed")).to_contain_text("played a deal from the stock")
    expect(page.locator("#table")).to_have_class(re.compile(r"\breadonly\b"))
    expect(page.locator("#table .card.played")).to_have_count(1)   # the stock's top card
    expect(page.locator("#table .hinted").first).to_be_attached()
    expect(page.locator("#table .card")).not_to_have_count(0)
    page.locator("#table .card.movable").first.click(force=True)   # read-only: nothing is picked up
    expect(page.locator("#table .card.selected")).to_have_count(0)
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator("#table")).not_to_have_class(re.compile(r"\breadonly\b"))
    expect(page.locator("#table .card.played")).to_have_count(0)

    page.get_by_role("button", name="close the review").click()
    expect(panel).to_be_hidden()
    expect(page.locator("#reviewbutton")).to_be_focused()
    assert state(page)["id"] == gid and state(page)["moves"] == len(LOST_GAME[2])


def test_try_from_here_starts_a_practice_game_that_never_counts(page: Page, server: str) -> None:
    before = httpx.get(f"{server}/api/stats").json()
    lose_a_game(page, server)
    page.get_by_role("button", name="Look at the table").click()
    page.locator("#reviewbutton").click()   # the toolbar's Review: the same review of the ended game
    expect(page.locator("#reviewstatus")).to_have_text(re.compile(r"^review complete"))
    graph = page.locator("#reviewgraph")
    graph.focus()
    for key in ("Home", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    expect(graph).to_have_attribute("aria-valuenow", "2")
    page.get_by_role("button", name="Try from here").click()
    wait_moves(page, 2)
    expect(page.locator("#practice")).to_be_visible()
    expect(page.locator("#review")).to_be_hidden()
    expect(page.locator("#share")).to_have_text(f"deal #{LOST_GAME[1]}")
    practice = state(page)
    assert practice["practice"] is True and practice["moves"] == 2 and practice["status"] == "playing"
    for move in LOST_GAME[2][2:]:
        type_move(page, move)
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator("#overtext")).to_contain_text("practice game: it does not count")

    page.get_by_role("button", name="Look at the table").click()
    page.get_by_role("link", name="Statistics", exact=True).click()
    row = page.locator("#statstable tr", has_text="Cicely")
    expect(row.locator("td").nth(2)).to_have_text(str(1 + sum(r["played"] for r in before["stats"] if r["game"] == "cicely")))
    expect(row.locator("td").nth(11)).to_have_text(re.compile(r"^\d{1,3}$"))   # the reviewed game's accuracy
    after = httpx.get(f"{server}/api/stats").json()
    assert len(after["recent"]) == len(before["recent"]) + 1   # the lost game; the practice game is not there


def quiet(session: int) -> bool:
    """Whether the processes of the server's session (the server and its search workers) are
    all but idle: under half a second of processor time in two seconds."""
    time.sleep(1.0)
    before = session_cpu_seconds(session)
    time.sleep(2.0)
    after = session_cpu_seconds(session)
    return sum(after[p] - before.get(p, 0) for p in after) < 0.5


def test_a_review_stops_when_its_panel_closes_or_its_page_is_left(page: Page, server: str) -> None:
    long_game = played_through_api(server, "grand-duchess", 5, random_moves("grand-duchess", 5, 40))
    other = played_through_api(server, "duchess", 3, [])
    session = os.getsid(server_pid(server))
    page.goto(f"{server}/?id={long_game['id']}")
    wait_moves(page, 40)
    status = page.locator("#reviewstatus")
    page.locator("#reviewbutton").click()
    expect(status).to_have_text(re.compile(r"^reviewing move ([3-9]|\d\d) of 40"), timeout=60_000)
    # The review searches in a worker at a lower priority: other games' moves are answered at once.
    with httpx.Client(base_url=server, timeout=30) as client:
        view = other
        for count in range(4):
            started = time.monotonic()
            view = client.post(f"/api/play/{other['id']}/move", json={"move": view["legal"][0],
                                                                      "expected_moves": count}).json()
            assert time.monotonic() - started < 1.0 and view["moves"] == count + 1
    page.get_by_role("button", name="close the review").click()   # the stream is aborted: the search stops
    assert quiet(session)

    page.locator("#reviewbutton").click()   # not kept (it never ended): made again
    expect(status).to_have_text(re.compile(r"^reviewing move ([3-9]|\d\d) of 40"), timeout=60_000)
    page.goto("about:blank")   # the player leaves the page
    assert quiet(session)
