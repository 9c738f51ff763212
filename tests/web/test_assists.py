"""Honest assists in the browser: the chance to win from sampled deals, the analysis mode
labelled as the solver's (it sees every card) and the assisted mark it leaves in the
statistics, and a random deal's number withheld from the page until its game ends.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright, one server and one browser for the module.
"""

from __future__ import annotations

import random
import re

import httpx

import kibitz
from kibitz.analysis import Chance
from kibitz.analysis.review import chance_dict
from kibitz.analysis.text import chance_words
from kibitz.moves import DEAL

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import open_game, state, type_move, wait_moves

from playwright.sync_api import Page, expect  # noqa: E402

ANALYSIS_BACKGROUND = "rgb(74, 20, 140)"
"""The analysis mode's colour (style.css ``--analysis``): white on violet."""
CHANCE = re.compile(r"^chance to win: (about \d{1,3}% \((\d{1,3}%-\d{1,3}%, )?from \d+ sampled deals?(, \d+ undecided)?\)"
                    r"|not sure.*)$")


def background(page: Page, selector: str) -> str:
    """The background colour of the element at ``selector``, as computed."""
    colour: str = page.locator(selector).evaluate("e => getComputedStyle(e).backgroundColor")
    return colour


# -- the fair assists ------------------------------------------------------------------------------

def test_the_chance_to_win_and_the_hint_see_only_what_the_player_sees(page: Page, server: str) -> None:
    open_game(page, server, "cicely", 11)
    expect(page.locator("label", has=page.locator("#chance"))).to_have_text(re.compile(r"chance to win"))
    expect(page.locator("#analysis")).not_to_be_checked()
    page.locator("#chance").check()
    verdict = page.locator("#verdict")
    expect(verdict).to_have_text(CHANCE)
    assert "upper bound" in (verdict.get_attribute("title") or "")
    assert "analysis" not in (verdict.get_attribute("class") or "")

    with page.expect_response(re.compile(r"/winnable$")) as asked:   # after each move, the chance from there
        type_move(page, state(page)["legal"][0])
    answer = asked.value.json()
    assert answer["moves"] == 1 and answer["peek"] is False and answer["chance"]["samples"] >= 1
    chance = answer["chance"]   # said as the analysis layer says it, an undecided deal never counted as lost
    expect(verdict).to_have_text(f"chance to win: {chance_words(Chance(chance['won'], chance['lost'], chance['unknown']))}")

    page.locator("#hint").click()
    message = page.locator("#message")
    expect(message).to_have_text(re.compile(r"^hint: .+ \(.+\)$"))
    expect(message).to_have_class("hint")
    expect(page.locator("#table .hinted").first).to_be_attached()
    expect(page.locator("#table")).not_to_have_class(re.compile(r"\banalysis\b"))
    assert background(page, "#message") != ANALYSIS_BACKGROUND
    expect(page.locator("#assisted")).to_be_hidden()
    assert state(page)["assisted"] is False


def test_the_page_says_a_chance_as_the_analysis_layer_does(page: Page, server: str) -> None:
    """assists.js's chanceWords and kibitz.analysis.text.chance_words agree on every chance of
    up to 24 deals (a figure only when half were decided, the interval when it is wide, a range
    or "not sure" otherwise), from the fields the server sends."""
    page.goto(server)   # a first visit: the start page, its modules loaded
    expect(page.locator("#startgames .gametile").first).to_be_visible()
    chances = [Chance(won, lost, unknown) for samples in (0, 1, 2, 5, 10, 24) for won in range(samples + 1)
               for lost in range(samples + 1 - won) for unknown in [samples - won - lost]]
    said = page.evaluate("""async (chances) => {
      const {chanceWords} = await import('/static/assists.js');
      return chances.map(chanceWords);
    }""", [chance_dict(chance) for chance in chances])
    assert said == [chance_words(chance) for chance in chances]


def test_a_hint_to_deal_marks_the_stock(page: Page, server: str) -> None:
    game = kibitz.game("grand-duchess")
    deal = next(number for number in range(1, 500) if game.deal(number).legal_moves == (DEAL,))
    open_game(page, server, "grand-duchess", deal)
    page.locator("#hint").click()
    expect(page.locator("#message")).to_have_text(re.compile(r"^hint: a deal from the stock \("))
    expect(page.locator("#table .slot.stock.hinted")).to_have_count(1)
    hinted = page.locator("#table .card.hinted")
    expect(hinted).to_have_count(1)
    assert hinted.get_attribute("data-pile") == game.pile_names()[game.stock]


def test_the_analysis_mode_is_labelled_and_marks_the_game_assisted(page: Page, server: str) -> None:
    open_game(page, server, "cicely", 12)
    type_move(page, state(page)["legal"][0])
    analysis = page.locator("#analysis")
    expect(page.locator("label", has=analysis)).to_have_text(re.compile(r"solver: sees every card"))
    analysis.check()
    page.locator("#hint").click()
    message = page.locator("#message")
    expect(message).to_have_text(re.compile(r"^solver \(sees every card\): "))
    expect(message).to_have_class("analysis")
    assert background(page, "#message") == ANALYSIS_BACKGROUND
    expect(page.locator("#assisted")).to_be_visible()
    assert background(page, "#assisted") == ANALYSIS_BACKGROUND
    if state(page)["legal"]:
        expect(page.locator("#table")).to_have_class(re.compile(r"\banalysis\b"))
    page.locator("#chance").check()
    verdict = page.locator("#verdict")
    words = "still winnable|cannot be won any more|not sure"
    expect(verdict).to_have_text(re.compile(rf"^solver \(sees every card\): ({words})$"))
    expect(verdict).to_have_class("analysis")
    assert state(page)["assisted"] is True

    # Off whenever the page is opened again; the game stays assisted.
    page.reload()
    expect(page.locator("#assisted")).to_be_visible()
    expect(page.locator("#analysis")).not_to_be_checked()

    # Given up, it counts as lost and assisted: marked so on the statistics page.
    page.locator("#random").click()
    page.locator("#giveup").get_by_role("button", name="Give up and deal anew").click()
    wait_moves(page, 0)
    expect(page.locator("#assisted")).to_be_hidden()
    page.get_by_role("link", name="Statistics", exact=True).click()
    row = page.locator("#statstable tr", has_text="Cicely")
    expect(row.locator("td.assisted")).to_have_text("1")
    expect(page.locator("#recent tbody tr", has_text="Cicely").locator("td.assisted")).to_have_text("assisted")


# -- a random deal's number ---------------------------------------------------------------------------

def test_a_random_deal_shows_its_number_only_when_the_game_ends(page: Page, server: str) -> None:
    page.goto(f"{server}/?game=tournament")
    expect(page.locator("#table .card").first).to_be_attached()
    wait_moves(page, 0)
    share = page.locator("#share")
    expect(share).to_have_text("random deal")
    assert share.get_attribute("href") is None and share.get_attribute("aria-disabled") == "true"
    seen = [page.url, page.locator("#info").inner_text(), page.locator("#message").inner_text()]
    assert "deal=" not in page.url and "id=" in page.url
    view = state(page)
    assert view["deal"] is None and view["random_deal"] is True

    rng = random.Random(5)
    type_move(page, rng.choice(view["legal"]))
    seen.append(page.locator("#info").inner_text())
    page.get_by_role("link", name="Continue", exact=True).click()
    row = page.locator("#continuetable tbody tr").first
    expect(row).to_contain_text("random")
    seen.append(page.locator("#continue").inner_text())
    page.locator("#continue .togame").click()
    expect(page.locator("#table .card").first).to_be_attached()

    # Random moves until the game ends: then the number shows, in the page and its address.
    view = state(page)
    while view["status"] == "playing":
        type_move(page, rng.choice(view["legal"]))
        view = state(page)
        if view["status"] == "playing":
            assert view["deal"] is None and "deal=" not in page.url
            expect(share).to_have_text("random deal")
    number = view["deal"]
    assert number is not None and view["result"] in ("won", "lost")
    expect(share).to_have_text(f"deal #{number}")
    assert f"deal={number}" in (share.get_attribute("href") or "")
    expect(page).to_have_url(re.compile(rf"[?&]deal={number}(&|$)"))
    expect(page.locator("#overtext")).to_contain_text(f"deal #{number}")
    if len(number) >= 4:   # a short number could turn up in a count by chance
        assert not [text for text in seen if number in text], seen
    stats = httpx.get(f"{server}/api/stats").json()["recent"]
    assert any(r["deal"] == number and r["random_deal"] for r in stats)
