"""The browser player around the table: nothing loses a game, the pages are entries of the
browser's history, the clock counts active play only, cards glide (unless reduced motion is
asked for), settings are remembered, and axe-core finds no serious accessibility problem.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright. Each test plays a game and ruleset of its own, so that the statistics it reads
are its own.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

import kibitz
from kibitz.autoplay import finishing_moves
from kibitz.moves import parse_move
from kibitz.solver import Limits, Outcome, solve
from kibitz.spoken import move_phrase

from .browser import played_through_api
# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import IN_CI, VIEWPORT, click_card, game_id, open_game, state, type_move, wait_moves

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

# Hides or shows the page as the browser does when the tab is switched: the document says so
# and fires visibilitychange.
SET_HIDDEN = """(hidden) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# Each card's picture against its place: how far the one lies from the other (0 once it landed).
CARD_OFFSETS = """() => [...document.querySelectorAll('#table .card')].map((card) => {
  const place = card.getBoundingClientRect(), picture = card.querySelector('svg').getBoundingClientRect();
  return Math.hypot(place.left - picture.left, place.top - picture.top);
})"""
# Plays a move (typed in notation) or clicks a button, and measures inside the page, a frame
# after the table shows the change (the move count or the deal): how far each card's picture
# lies from its place, and how many animations run. Measured in the page, since a test's
# round trips take about as long as a card's movement.
ACT_AND_MEASURE = """async ([kind, what]) => {
  const seen = () => (/^\\d+ moves?/.exec(document.getElementById('counts').textContent) || [''])[0] +
    document.getElementById('share').textContent;
  const before = seen();
  const changed = new Promise((resolve) => {
    const observer = new MutationObserver(() => { if (seen() !== before) { observer.disconnect(); resolve(); } });
    observer.observe(document.getElementById('info'), {subtree: true, childList: true, characterData: true});
  });
  if (kind === 'move') {
    document.getElementById('movebox').value = what;
    document.getElementById('moveform').requestSubmit();
  } else document.getElementById(what).click();
  await changed;
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  return {offsets: (%s)(), animations: document.getAnimations().length};
}""" % CARD_OFFSETS


# -- helpers --------------------------------------------------------------------------------

def statistics_row(server: str, slug: str, ruleset: str) -> dict[str, Any] | None:
    """The statistics of ``slug`` under ``ruleset``, if any game of it counted."""
    rows = httpx.get(f"{server}/api/stats").json()["stats"]
    return next((row for row in rows if row["game"] == slug and row["ruleset"] == ruleset), None)


def clock_text(page: Page) -> str:
    """The clock the page shows (m:ss, the last part of the counts)."""
    return (page.locator("#counts").text_content() or "").split(" · ")[-1]


@pytest.fixture(scope="module")
def winning_line() -> list[str]:
    """Tournament deal 1 (standard rules), won by the solver."""
    result = solve(kibitz.game("tournament").deal(1), Limits(seconds=30))
    assert result.outcome is Outcome.WON
    return [str(move) for move in result.moves]


# -- never losing a game ---------------------------------------------------------------------------

def test_a_new_deal_mid_game_asks_first_and_giving_up_counts_as_lost(page: Page, server: str) -> None:
    slug, ruleset = "napoleons-flank", "pysolfc"
    open_game(page, server, slug, 3, ruleset)
    first = game_id(page)
    # No move yet: a new deal comes at once, and nothing counts.
    page.locator("#random").click()
    expect(page).not_to_have_url(re.compile(first))
    expect(page.locator("#giveup")).not_to_be_visible()
    started = game_id(page)
    type_move(page, state(page)["legal"][0])

    page.locator("#random").click()
    expect(page.locator("#giveup")).to_be_visible()
    expect(page.locator("#giveuptext")).to_contain_text("counts as lost")
    page.locator("#giveup").get_by_role("button", name="Keep playing").click()
    expect(page.locator("#giveup")).not_to_be_visible()
    assert game_id(page) == started and state(page)["moves"] == 1
    assert statistics_row(server, slug, ruleset) is None

    page.locator("#table").focus()
    page.keyboard.press("n")
    expect(page.locator("#giveup")).to_be_visible()
    page.keyboard.press("Escape")   # Esc says no too
    expect(page.locator("#giveup")).not_to_be_visible()
    assert game_id(page) == started

    page.locator("#table").focus()
    page.keyboard.press("n")
    page.locator("#giveup").get_by_role("button", name="Give up and deal anew").click()
    expect(page).not_to_have_url(re.compile(started))
    wait_moves(page, 0)
    row = statistics_row(server, slug, ruleset)
    assert row is not None and (row["played"], row["won"], row["abandoned"]) == (1, 0, 1)
    assert httpx.get(f"{server}/api/play/{started}").json()["result"] == "lost"


def test_asking_again_as_the_dialog_closes_still_waits_for_the_answer(page: Page, server: str) -> None:
    """The dialog's close event comes a moment after it closes: a new question asked in that
    moment (a quick player) must not take that late event for its own answer."""
    open_game(page, server, "duchess", 4)
    started = game_id(page)
    type_move(page, state(page)["legal"][0])
    page.locator("#random").click()
    expect(page.locator("#giveup")).to_be_visible()
    # Close with no answer and ask again in the same moment, before the close event comes.
    page.evaluate("() => { document.getElementById('giveup').close(); document.getElementById('random').click(); }")
    expect(page.locator("#giveup")).to_be_visible()
    page.locator("#giveup").get_by_role("button", name="Give up and deal anew").click()
    expect(page).not_to_have_url(re.compile(started))
    wait_moves(page, 0)


def test_the_continue_list_resumes_a_game_in_progress(page: Page, server: str) -> None:
    open_game(page, server, "kingsdown-eights", 5)
    left = game_id(page)
    type_move(page, state(page)["legal"][0])
    type_move(page, state(page)["legal"][0])
    open_game(page, server, "duchess", 2)   # the first game stays in progress, counted nowhere
    type_move(page, state(page)["legal"][0])
    page.get_by_role("link", name="Continue", exact=True).click()
    expect(page.locator("#continue")).to_be_visible()
    expect(page.locator("#play")).to_be_hidden()
    row = page.locator(f'#continuetable tr[data-id="{left}"]')
    expect(row.locator("td")).to_have_text(["Kingsdown Eights", "#5", "2", re.compile(r"^\d+:\d\d$"), "just now",
                                            "Resume Give up"])
    expect(page.locator(f'#continuetable tr[data-id="{game_id(page)}"] button').first).to_have_text("On the table")
    row.get_by_role("button", name="Resume").click()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#share")).to_have_text("deal #5")
    wait_moves(page, 2)
    assert game_id(page) == left


def test_back_and_forward_go_between_games_and_pages(page: Page, server: str) -> None:
    open_game(page, server, "parisienne", 11)
    first = game_id(page)
    type_move(page, state(page)["legal"][0])   # a game with a move is kept (an untouched one is not)
    page.locator("#deal").fill("12")
    page.get_by_role("button", name="New", exact=True).click()
    page.locator("#giveup").get_by_role("button", name="Give up and deal anew").click()
    expect(page.locator("#share")).to_have_text("deal #12")
    second = game_id(page)
    page.get_by_role("link", name="Statistics", exact=True).click()
    expect(page.locator("#stats")).to_be_visible()

    page.go_back()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#stats")).to_be_hidden()
    expect(page.locator("#share")).to_have_text("deal #12")
    page.go_back()
    expect(page.locator("#share")).to_have_text("deal #11")
    assert game_id(page) == first
    expect(page.locator("#table .card").first).to_be_visible()
    page.go_forward()
    expect(page.locator("#share")).to_have_text("deal #12")
    assert game_id(page) == second
    page.go_forward()
    expect(page.locator("#stats")).to_be_visible()

    # The rules page leads back to the game; help is an entry of its own, and closing it goes back.
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.locator("#rulestext")).to_contain_text("Parisienne")
    page.locator("#rules").get_by_role("link", name="back to the game").click()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#share")).to_have_text("deal #12")
    page.locator("#helpbutton").click()
    expect(page.locator("#help")).to_be_visible()
    assert page.url.endswith("#help")
    page.keyboard.press("Escape")
    expect(page.locator("#help")).to_be_hidden()
    expect(page).not_to_have_url(re.compile("#"))
    page.go_forward()
    expect(page.locator("#help")).to_be_visible()


def test_help_opens_at_the_top(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 390, "height": 600})   # the help is taller than the window
    open_game(page, server, "cicely", 4)
    page.locator("#table").focus()
    page.keyboard.press("?")
    help_dialog = page.locator("#help")
    expect(help_dialog).to_be_visible()
    assert help_dialog.evaluate("d => d.scrollHeight > d.clientHeight"), "the help should need scrolling here"
    assert help_dialog.evaluate("d => d.scrollTop") == 0
    expect(page.get_by_role("heading", name="How to play")).to_be_in_viewport()


# -- the clock ---------------------------------------------------------------------------------

def test_the_clock_stops_while_the_page_is_hidden(page: Page, server: str) -> None:
    opened_at = time.monotonic()   # the page's clock starts once the game shows, a little later
    open_game(page, server, "grand-duchess", 9, "pysolfc")
    gid = game_id(page)
    page.wait_for_timeout(1200)
    page.evaluate(SET_HIDDEN, True)
    hidden_at = time.monotonic()
    # The page reports its clock as it hides: about the time it was shown.
    handle = page.wait_for_function("async (id) => (await (await fetch(`/api/play/${id}`)).json()).elapsed || null", arg=gid)
    reported = handle.json_value()
    assert 1.0 <= reported <= hidden_at - opened_at + 0.2
    page.wait_for_timeout(1100)   # the shown clock is redrawn every second
    shown = clock_text(page)
    page.wait_for_timeout(2500)
    assert clock_text(page) == shown   # paused
    assert state(page)["elapsed"] == reported

    page.evaluate(SET_HIDDEN, False)
    type_move(page, state(page)["legal"][0])
    elapsed = state(page)["elapsed"]
    assert reported <= elapsed < reported + 1.0   # the 2.5 s hidden are not counted

    # A reload goes on from the server's count, not from the game's creation.
    page.reload()
    wait_moves(page, 1)
    minutes, seconds = map(int, clock_text(page).split(":"))
    assert int(elapsed) <= minutes * 60 + seconds <= int(elapsed) + 1


# -- motion ------------------------------------------------------------------------------------------

def act_and_measure(page: Page, kind: str, what: str) -> dict[str, Any]:
    """See :data:`ACT_AND_MEASURE`: ``kind`` "move" (``what`` in notation) or "click" (a button's id)."""
    found: dict[str, Any] = page.evaluate(ACT_AND_MEASURE, [kind, what])
    return found


def test_cards_glide_unless_reduced_motion_is_asked_for(browser: Browser, page: Page, server: str,
                                                        winning_line: list[str]) -> None:
    open_game(page, server, "cicely", 1)
    dealt = act_and_measure(page, "click", "random")   # a new deal flies out of the stock
    assert dealt["animations"] > 0 and max(dealt["offsets"]) > 1
    open_game(page, server, "cicely", 1)
    moved = act_and_measure(page, "move", "t2>t6")
    assert moved["animations"] > 0 and max(moved["offsets"]) > 1, "the card played should still be on its way"
    page.wait_for_function("() => document.getAnimations().length === 0")   # and then the cards lie in their places
    assert max(page.evaluate(CARD_OFFSETS)) < 0.5

    reduced = browser.new_context(viewport=VIEWPORT, reduced_motion="reduce")
    try:
        still = reduced.new_page()
        open_game(still, server, "cicely", 1)
        for kind, what in [("click", "random"), ("move", "t2>t6")]:
            if kind == "move":
                open_game(still, server, "cicely", 1)
            found = act_and_measure(still, kind, what)
            assert found["animations"] == 0 and max(found["offsets"]) < 0.5, what
        gid = played_through_api(server, "tournament", 1, winning_line[:-1])["id"]   # and no celebration
        still.goto(f"{server}/?id={gid}")
        wait_moves(still, len(winning_line) - 1)
        type_move(still, winning_line[-1])
        expect(still.locator("#overtitle")).to_have_text("Won!")
        expect(still.locator(".celebration")).to_have_count(0)
    finally:
        reduced.close()


def test_animation_can_be_turned_off_and_settings_are_remembered(page: Page, server: str) -> None:
    open_game(page, server, "tournament", 2)
    for box in ("#autoplay", "#autofinish"):
        expect(page.locator(box)).not_to_be_checked()
        page.locator(box).check()
    expect(page.locator("#animate")).to_be_checked()
    page.locator("#animate").uncheck()
    page.reload()
    wait_moves(page, 0)
    expect(page.locator("#autoplay")).to_be_checked()
    expect(page.locator("#autofinish")).to_be_checked()
    expect(page.locator("#animate")).not_to_be_checked()
    page.locator("#autoplay").uncheck()
    found = act_and_measure(page, "move", state(page)["legal"][0])
    assert found["animations"] == 0 and max(found["offsets"]) < 0.5
    page.reload()
    wait_moves(page, 1)
    expect(page.locator("#autoplay")).not_to_be_checked()
    expect(page.locator("#animate")).not_to_be_checked()


# -- a game's end ----------------------------------------------------------------------------------

def test_the_finished_panel_belongs_to_its_game(page: Page, server: str, winning_line: list[str]) -> None:
    gid = played_through_api(server, "tournament", 1, winning_line[:-1])["id"]
    page.goto(f"{server}/?id={gid}")
    wait_moves(page, len(winning_line) - 1)
    expect(page.locator("#overlay")).to_be_hidden()
    type_move(page, winning_line[-1])
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator("#overtitle")).to_have_text("Won!")
    expect(page.locator("#announce")).to_contain_text("the game is won")
    celebration = page.locator(".celebration")
    expect(celebration).to_be_attached()   # about two seconds of falling suits, unless a key or click ends them
    page.keyboard.press("Shift")
    expect(celebration).to_have_count(0, timeout=500)

    for address in ("/#stats", "/#rules", "/#continue"):   # a later visit of another page: no panel
        page.goto(server + address)
        expect(page.locator("#play")).to_be_hidden()
        expect(page.locator("#overlay")).to_be_hidden()
    page.goto(f"{server}/?id={gid}")   # the won game itself, opened again: its table, and a word
    wait_moves(page, len(winning_line))
    expect(page.locator("#message")).to_contain_text("this game is won")
    expect(page.locator("#overlay")).to_be_hidden()
    page.goto(server)   # the game played last is over: the start page, the game still a link away
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#play")).to_be_hidden()
    page.locator("#start .togame").click()
    wait_moves(page, len(winning_line))
    assert game_id(page) == gid


def test_finish_plays_the_certain_end_by_a_click_or_on_its_own(page: Page, server: str,
                                                               winning_line: list[str]) -> None:
    state_at = kibitz.game("tournament").deal(1)
    certain = 0
    while finishing_moves(state_at) is None:
        state_at = state_at.apply(winning_line[certain])
        certain += 1
    assert 0 < certain < len(winning_line) - 1
    gid = played_through_api(server, "tournament", 1, winning_line[:certain - 1])["id"]
    page.goto(f"{server}/?id={gid}")
    wait_moves(page, certain - 1)
    expect(page.locator("#finish")).to_be_hidden()
    type_move(page, winning_line[certain - 1])
    expect(page.locator("#finish")).to_be_visible()
    page.locator("#finish").click()
    expect(page.locator("#overtitle")).to_have_text("Won!")
    assert state(page)["status"] == "won"
    expect(page.locator("#finish")).to_be_hidden()

    gid = played_through_api(server, "tournament", 1, winning_line[:certain - 1])["id"]
    page.goto(f"{server}/?id={gid}")
    wait_moves(page, certain - 1)
    page.locator("#autofinish").check()
    page.locator("#movebox").fill(winning_line[certain - 1])
    page.locator("#movebox").press("Enter")   # the move, and then the rest on its own
    expect(page.locator("#overtitle")).to_have_text("Won!")
    wait_moves(page, certain + len(finishing_moves(state_at) or ()))
    assert state(page)["status"] == "won"
    expect(page.locator("#announce")).to_contain_text("to the foundations; ")


# -- words and keys ----------------------------------------------------------------------------------

def test_a_card_that_cannot_move_says_why(page: Page, server: str) -> None:
    open_game(page, server, "grand-duchess", 5)
    view = state(page)
    stuck = next((pile, len(cards) - 1) for pile, cards in view["piles"].items()
                 if pile[0] in "tr" and cards and cards[-1] is not None
                 and not any(re.match(rf"{pile}[>#]", move) for move in view["legal"]))
    reason = httpx.get(f"{server}/api/play/{view['id']}/why", params={"pile": stuck[0], "index": stuck[1]}).json()["reason"]
    assert reason
    click_card(page, *stuck)
    expect(page.locator("#message.error")).to_have_text(reason)
    expect(page.locator("#table .card.selected")).to_have_count(0)
    assert state(page)["moves"] == 0


def test_keyboard_cursor_shows_above_the_cards_and_moves_are_announced(page: Page, server: str) -> None:
    open_game(page, server, "kingsdown-eights", 1)
    page.locator("#table").focus()
    page.keyboard.press("ArrowRight")
    cursor = page.locator("#table .cursor-mark")
    expect(cursor).to_be_visible()
    pile = page.locator("#table .slot.cursor").get_attribute("data-pile")
    slot = page.locator(f'#table .slot[data-pile="{pile}"]').bounding_box()
    mark = cursor.bounding_box()
    assert slot and mark and mark["x"] <= slot["x"] + 1 and mark["y"] <= slot["y"] + 1
    # Above every card, and not in the hint's colour.
    above = cursor.evaluate("""(mark) => {
      const z = (e) => +getComputedStyle(e).zIndex || 0;
      return [...document.querySelectorAll('#table .card')].every((card) => z(card) < z(mark));
    }""")
    assert above
    hint_colour = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()")
    assert cursor.evaluate("m => getComputedStyle(m).outlineColor") not in (hint_colour, "rgb(255, 213, 79)")

    assert ("r8", "t1") in [tuple(m.split(">")) for m in state(page)["legal"] if re.fullmatch(r"\w+>\w+", m)]
    words = move_phrase(kibitz.game("kingsdown-eights").deal(1), parse_move("r8>t1"))   # the server's words
    page.locator("#movebox").fill("r8>t1")
    page.locator("#movebox").press("Enter")
    wait_moves(page, 1)
    expect(page.locator("#announce")).to_have_text(f"{words}; 1 move")
    expect(page.locator("#announce")).to_have_attribute("aria-live", "polite")
    # A refusal is shown and spoken as the server words it.
    refused = next(f"{pile}>f1" for pile in ("t1", "t2", "t3", "t4") if f"{pile}>f1" not in state(page)["legal"])
    page.locator("#movebox").fill(refused)
    page.locator("#movebox").press("Enter")
    expect(page.locator("#message.error")).not_to_have_text("")
    expect(page.locator("#message")).to_have_attribute("aria-live", "polite")
    assert state(page)["moves"] == 1


# -- accessibility --------------------------------------------------------------------------------

def test_axe_finds_no_serious_problem_on_any_page(page: Page, server: str) -> None:
    if not IN_CI:
        pytest.importorskip("axe_playwright_python", reason="the accessibility check needs axe-playwright-python")
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    open_game(page, server, "duchess", 6)
    type_move(page, state(page)["legal"][0])
    problems: dict[str, list[str]] = {}

    def check(name: str) -> None:
        # Moderate problems too: content outside the landmarks, headings out of order.
        violations = axe.run(page).response["violations"]
        found = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
                 for v in violations if v["impact"] in ("moderate", "serious", "critical")]
        headings = page.locator("h1:visible").all_inner_texts()
        if len(headings) != 1:
            found.append(f"one h1 wanted, found {headings}")
        if found:
            problems[name] = found

    check("table")
    page.locator("#movebox").fill(next(f"t1>{pile}" for pile in ("f1", "f2", "t2") if f"t1>{pile}" not in state(page)["legal"]))
    page.locator("#movebox").press("Enter")
    expect(page.locator("#message.error")).not_to_have_text("")
    check("table with a refusal")
    page.locator("#reviewbutton").click()
    expect(page.locator("#review")).to_be_visible()
    check("table with the review open")
    page.locator("#reviewclose").click()
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.locator("#rulestext")).to_contain_text("Duchess")
    check("rules")
    page.get_by_role("link", name="Statistics", exact=True).click()
    expect(page.locator("#statstable")).not_to_be_empty()
    check("statistics")
    page.get_by_role("link", name="Continue", exact=True).click()
    expect(page.locator("#continuetable tr").first).to_be_attached()
    check("continue")
    page.get_by_role("link", name="Games", exact=True).click()
    expect(page.locator("#startgames .gametile .picture .card").first).to_be_attached()
    check("start")
    page.locator("#helpbutton").click()
    expect(page.locator("#help")).to_be_visible()
    check("help")
    page.keyboard.press("Escape")
    page.locator("#random").click()
    expect(page.locator("#giveup")).to_be_visible()
    check("the question before giving up")
    # Given up, the game counts: the statistics have rows and recent games, and a reset asks first.
    page.locator("#giveup").get_by_role("button", name="Give up and deal anew").click()
    expect(page.locator("#counts")).to_have_text(re.compile(r"^0 moves "))
    source = next(move.split(">")[0] for move in state(page)["legal"] if ">" in move and "#" not in move)
    page.locator(f'#table .card[data-pile="{source}"]').last.click()
    expect(page.locator("#table .drop-target").first).to_be_attached()
    check("table with a card picked up and its targets")
    page.get_by_role("link", name="Statistics", exact=True).click()
    expect(page.locator("#stats table").last).to_contain_text("given up")
    check("statistics with a game")
    page.get_by_role("button", name="Reset the statistics").click()
    expect(page.locator("#confirm")).to_be_visible()
    check("the question before a reset")
    page.locator("#confirmno").click()
    # A phone: the options behind the menu, open.
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_role("link", name="back to the game").click()
    expect(page.locator("#menubutton")).to_be_visible()
    check("phone")
    page.locator("#menubutton").click()
    expect(page.locator("#menubutton")).to_have_attribute("aria-expanded", "true")
    check("phone with the menu open")
    assert problems == {}
