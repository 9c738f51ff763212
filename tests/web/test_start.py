"""The start page, deal links and the deal of the day in the browser: a first visit lands on
the start page (every game with a picture of its opening, its description, difficulty, odds and
rules), a later one continues the last game; a link opens its deal, a bad link says why on the
start page; the deal of the day is one deal for everyone on a date, and its streak shows in the
statistics.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import httpx

import kibitz
from kibitz import odds
from kibitz.autoplay import finishing_moves
from kibitz.solver import Limits, Outcome, solve

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import game_id, state, type_move, wait_moves

from playwright.sync_api import Page, expect  # noqa: E402

# What each tile of the start page shows.
TILES = """() => [...document.querySelectorAll('#startgames .gametile')].map((tile) => ({
  game: tile.dataset.game,
  name: tile.querySelector('h3').textContent,
  cards: tile.querySelectorAll('.picture .minitable .card').length,
  faceUp: [...tile.querySelectorAll('.picture .minitable .card')].filter((c) => c.title).length,
  picture: (() => { const b = tile.querySelector('.picture .frame').getBoundingClientRect();
                    return {width: b.width, height: b.height}; })(),
  label: tile.querySelector('.picture').getAttribute('aria-label'),
  description: tile.querySelector('.description').textContent,
  level: tile.querySelector('.level').textContent,
  fair: tile.querySelector('.fair').textContent,
  thoughtful: tile.querySelector('.thoughtful').textContent,
  rules: tile.querySelector('a.ruleslink').getAttribute('href'),
  buttons: [...tile.querySelectorAll('button')].map((b) => b.textContent),
}))"""


def opening(page: Page) -> dict[str, list[str | None]]:
    """The piles of the page's game, as its player sees them."""
    piles: dict[str, list[str | None]] = state(page)["piles"]
    return piles


def test_a_first_visit_lands_on_the_start_page_and_a_later_one_continues(page: Page, server: str) -> None:
    page.goto(server)
    expect(page).to_have_url(re.compile(r"#start$"))
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#play")).to_be_hidden()
    expect(page.locator("#start .togame")).to_be_hidden()   # no game to go back to
    expect(page.locator("#startgames .gametile")).to_have_count(len(kibitz.games()))
    tiles: list[dict[str, Any]] = page.evaluate(TILES)
    assert [tile["game"] for tile in tiles] == [info.slug for info in kibitz.games()]
    for tile, info in zip(tiles, kibitz.games()):
        shipped = odds.of(info.slug, "standard")
        assert tile["name"] == info.name and tile["description"] == info.description
        assert tile["cards"] > 0 and tile["faceUp"] > 0, tile
        assert 60 < tile["picture"]["width"] <= 265 and 40 < tile["picture"]["height"] <= 171, tile
        assert tile["label"] == f"{info.name}: the opening of today's deal"
        assert tile["level"] == shipped.level
        assert f"{shipped.fair.deals:,} deals" in tile["fair"]
        low = f"{shipped.thoughtful.low * 100:.2f}%"
        assert low in tile["thoughtful"], tile
        assert tile["rules"] == f"#rules/{info.slug}"
        assert tile["buttons"] == ["New deal", "Deal of the day"]
    duchess = tiles[[info.slug for info in kibitz.games()].index("duchess")]
    fair = odds.of("duchess", "standard").fair
    shown = fair.shown()
    assert (f"{shown['share']:.1f}% ({shown['low']:.1f}%–{shown['high']:.1f}%, {fair.deals:,} deals)"
            in duchess["fair"]), duchess
    assert f"({odds.of('duchess', 'standard').thoughtful.deals:,} deals studied)" in duchess["thoughtful"]
    # The other ruleset: its own odds, on a count of deals of its own.
    other = odds.of("duchess", "pysolfc").fair.deals
    assert other != fair.deals
    page.locator("#startruleset").select_option("pysolfc")
    expect(page.locator('#startgames .gametile[data-game="duchess"] .fair')).to_contain_text(f"{other:,} deals")
    page.locator("#startruleset").select_option("standard")
    expect(page.locator('#startgames .gametile[data-game="duchess"] .fair')).to_contain_text(f"{fair.deals:,} deals")

    # The rules link, and back.
    page.locator('#startgames .gametile[data-game="cicely"] a.ruleslink').click()
    expect(page.locator("#rules")).to_be_visible()
    expect(page.locator("#rulesgame")).to_have_value("cicely")
    page.go_back()
    expect(page.locator("#start")).to_be_visible()

    # Starting a game plays it.
    page.locator('#startgames .gametile[data-game="cicely"] button.newdeal').click()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#title")).to_have_text("Cicely")
    wait_moves(page, 0)
    type_move(page, state(page)["legal"][0])
    played = game_id(page)
    # The brand and the Games link lead to the start page, which leads back to the game.
    page.locator("#home").click()
    expect(page.locator("#start")).to_be_visible()
    page.locator("#start .togame").click()
    wait_moves(page, 1)
    page.get_by_role("link", name="Games", exact=True).click()
    expect(page.locator("#start")).to_be_visible()

    # A later visit continues the last game.
    page.goto(server)
    wait_moves(page, 1)
    expect(page.locator("#play")).to_be_visible()
    assert game_id(page) == played


def test_a_deal_link_opens_its_deal_and_a_bad_one_says_why(page: Page, server: str) -> None:
    page.goto(f"{server}/?game=duchess&deal=42&ruleset=pysolfc")
    expect(page.locator("#share")).to_have_text("deal #42")
    expect(page.locator("#title")).to_have_text("Duchess (pysolfc rules)")
    view = state(page)
    assert (view["game"], view["deal"], view["ruleset"]) == ("duchess", "42", "pysolfc")
    assert opening(page) == {name: [None if card is None else card for card in cards] for name, cards in
                             httpx.post(f"{server}/api/games/duchess/new",
                                        json={"deal": 42, "ruleset": "pysolfc"}).json()["piles"].items()}
    linked = game_id(page)
    bad = {"/?game=whist&deal=4": "unknown game 'whist'",
           "/?game=duchess&deal=4x": "deal",
           "/?game=duchess&deal=0": "deal",
           "/?game=duchess&deal=4&ruleset=house": "unknown ruleset",
           "/?id=no-such-game-here": "cannot be opened"}
    for address, words in bad.items():
        page.goto(server + address)
        notice = page.locator("#startnotice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(words)
        expect(page.locator("#start")).to_be_visible()
        expect(page.locator("#play")).to_be_hidden()
        expect(page).to_have_url(re.compile(r"#start$"))
        assert "whist" not in page.url and "house" not in page.url and "4x" not in page.url   # not kept
    # The game played before is still a click away, and the notice goes once the page is left.
    page.locator("#start .togame").click()
    expect(page.locator("#play")).to_be_visible()
    assert game_id(page) == linked
    expect(page.locator("#startnotice")).to_be_hidden()


def win_daily(server: str, slug: str, day: date) -> None:
    """Win the deal of the day ``day`` of ``slug`` through the API (the solver's line, then Finish)."""
    with httpx.Client(base_url=server, timeout=60) as client:
        view = client.post(f"/api/games/{slug}/daily", json={"date": day.isoformat()}).json()
        # The number is withheld until the end: the solver is given the deal the date names.
        from kibitz.daily import deal_of_the_day
        position = kibitz.game(slug).deal(deal_of_the_day(slug, "standard", day))
        result = solve(position, Limits(seconds=20))
        assert result.outcome is Outcome.WON
        for count, move in enumerate(result.moves):
            if finishing_moves(position) is not None:
                break
            answer = client.post(f"/api/play/{view['id']}/move", json={"move": str(move), "expected_moves": count})
            assert answer.status_code == 200, answer.text
            position = position.apply(move)
        assert client.post(f"/api/play/{view['id']}/finish").json()["status"] == "won"


def test_the_deal_of_the_day_is_one_deal_a_date_and_its_streak_shows(page: Page, server: str) -> None:
    page.goto(server)
    page.locator('#startgames .gametile[data-game="grand-duchess"] button.daily').click()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#share")).to_contain_text("deal of the day")
    first = game_id(page)
    today = state(page)["daily"]
    seen = opening(page)
    # Asked again the same day: the same game, the same deal.
    page.get_by_role("link", name="Games", exact=True).click()
    page.locator('#startgames .gametile[data-game="grand-duchess"] button.daily').click()
    expect(page.locator("#play")).to_be_visible()
    assert game_id(page) == first and opening(page) == seen
    # Given up, and asked again the same day: a new game of the same deal.
    type_move(page, state(page)["legal"][0])
    assert httpx.post(f"{server}/api/play/{first}/abandon").json()["result"] == "lost"
    page.get_by_role("link", name="Games", exact=True).click()
    page.locator('#startgames .gametile[data-game="grand-duchess"] button.daily').click()
    wait_moves(page, 0)
    assert game_id(page) != first and opening(page) == seen and state(page)["daily"] == today
    # The next date: another deal.
    following = (date.fromisoformat(today) + timedelta(days=1)).isoformat()
    next_day: dict[str, Any] = page.evaluate("""async (day) => (await fetch('/api/games/grand-duchess/daily', {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({date: day})})).json()""",
                                             following)
    assert next_day["daily"] == following and next_day["piles"] != seen

    # Two days won in a row: the streak in the statistics.
    day = date.fromisoformat(today)
    for back in (1, 0):
        win_daily(server, "parisienne", day - timedelta(days=back))
    page.get_by_role("link", name="Statistics", exact=True).click()
    block = page.locator("#dailystats")
    expect(block).to_contain_text("Days won in a row: 2")
    row = block.locator('tr[data-game="parisienne"]')
    expect(row).to_contain_text("Parisienne")
    assert row.locator("td").all_text_contents() == ["Parisienne", "standard", "2", "2", "2", "2", today]
    # The day's Grand Duchess given up: counted, lost, no streak.
    assert block.locator('tr[data-game="grand-duchess"] td').all_text_contents() == [
        "Grand Duchess", "standard", "1", "0", "0", "0", "–"]
