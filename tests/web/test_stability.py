"""A table that holds still: messages never move it, the card size holds for a round, a
picked-up card shows where it may go, and a phone keeps its options behind one menu.

- For every game, at a laptop's window and a phone's: the table's box and every card's box
  stay the same when a message appears (a refusal typed in the move box, a hint, the chance
  to win) and when it goes.
- For every game, a winning line's first moves played in the page: the card width after each
  move is the width before it, unless a redeal came between them.
- Dragging a card, clicking it or picking it up with the keyboard lights up exactly the piles
  the rules let it go to (the rules asked directly, not the page's reading of them); putting
  it back or playing it puts the lights out.
- At 390 x 844 the options (the new game's form, the settings, the other pages) wait behind a
  Menu button: closed at first, the table then taking most of the height; open, it holds them
  over the table without moving it; Esc closes it.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

import kibitz
from kibitz.solver import Limits, Outcome, solve

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import card_selector, click_card, cursor_to, new_context, open_game, point, state

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect  # noqa: E402

GAMES = [info.slug for info in kibitz.games()]
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
LINE_MOVES = 45
"""How many moves of each game's winning line the card-size test plays."""

# The boxes of the table and of every card on it, in the window, to a hundredth of a pixel.
GEOMETRY = """() => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 100) / 100);
  };
  return {table: box(document.getElementById('table')), felt: box(document.getElementById('felt')),
          cards: [...document.querySelectorAll('#table .card')].map((c) => [c.dataset.pile, +c.dataset.index, ...box(c)])};
}"""

# Two frames later: whatever the page asked to draw in the next frame is drawn.
SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

# Plays moves by typing them in the move box, one after another; after each, once the page
# shows it played (the table is drawn in the same task as the move count): the cards' width
# and the felt's box.
PLAY_LINE = """async (moves) => {
  const counts = document.getElementById('counts');
  const shown = (count) => new Promise((done, fail) => {
    const wanted = new RegExp(`^${count} moves? `);
    if (wanted.test(counts.textContent)) { done(); return; }
    const timer = setTimeout(() => fail(new Error(`move ${count} not shown: ${counts.textContent}`)), 20000);
    const observer = new MutationObserver(() => {
      if (wanted.test(counts.textContent)) { observer.disconnect(); clearTimeout(timer); done(); }
    });
    observer.observe(counts, {childList: true, characterData: true, subtree: true});
  });
  const seen = [];
  for (let k = 0; k < moves.length; k++) {
    document.getElementById('movebox').value = moves[k];
    document.getElementById('moveform').requestSubmit();
    await shown(k + 1);
    const felt = document.getElementById('felt').getBoundingClientRect();
    seen.push({width: parseFloat(document.querySelector('#table .card').style.width),
               felt: [felt.left, felt.top, felt.width, felt.height]});
  }
  return seen;
}"""


@pytest.fixture(scope="module")
def contexts(browser: Browser) -> Iterator[Any]:
    """Opens fresh pages of a window size; fails on any script error in them."""
    opened: list[BrowserContext] = []
    errors: list[str] = []

    def open_page(size: ViewportSize) -> Page:
        opened.append(new_context(browser, size, errors))
        return opened[-1].new_page()

    try:
        yield open_page
    finally:
        for context in opened:
            context.close()
    assert not errors, f"script errors in the page: {errors}"


def geometry(page: Page) -> dict[str, Any]:
    """The table's and the cards' boxes, once the page has drawn what it was asked to."""
    page.evaluate(SETTLED)
    found: dict[str, Any] = page.evaluate(GEOMETRY)
    return found


def refused_move(view: dict[str, Any]) -> str:
    """A move in notation, of a card on the table to another pile, that the rules refuse."""
    names = [name for name in view["piles"] if name != "s"]
    for source in names:
        if view["piles"][source]:
            for target in names:
                if target != source and f"{source}>{target}" not in view["legal"]:
                    return f"{source}>{target}"
    raise AssertionError("every move is legal")


def message_in_sight(page: Page) -> None:
    """A message is shown, whole, inside the window."""
    box = page.locator("#messages").bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["height"] > 0 and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]


# -- messages -------------------------------------------------------------------------------------

def set_option(page: Page, selector: str, on: bool) -> None:
    """Tick or untick a setting: on a phone, through the menu, closed again after."""
    menu = page.locator("#menubutton")
    phone = menu.is_visible()
    if phone:
        menu.click()
    page.locator(selector).set_checked(on)
    if phone:
        page.keyboard.press("Escape")
        expect(page.locator("#options")).to_be_hidden()


@pytest.mark.parametrize("size, asked", [(LAPTOP, GAMES[0]), (PHONE, GAMES[-1])], ids=["1280x800", "390x844"])
def test_messages_never_move_the_table(contexts: Any, server: str, size: ViewportSize, asked: str) -> None:
    """Every game: a refusal, a message emptied, the longest message; one game at each size
    (each search takes seconds) also asks for a hint and the chance to win, shown in the same
    places."""
    page = contexts(size)
    for slug in GAMES:
        open_game(page, server, slug, 2)
        before = geometry(page)
        where = f"{slug} at {size['width']} x {size['height']}"
        # A refusal typed in the move box.
        page.locator("#movebox").fill(refused_move(state(page)))
        page.locator("#movebox").press("Enter")
        expect(page.locator("#message")).not_to_be_empty()
        message_in_sight(page)
        assert geometry(page) == before, f"{where}: a refusal moved the table"
        if slug == asked:
            # A hint, and the chance to win beside it; the chance goes once no longer asked for.
            with page.expect_response(re.compile(r"/hint$")), page.expect_response(re.compile(r"/winnable$")):
                page.locator("#hint").click()
                set_option(page, "#chance", True)
            expect(page.locator("#verdict")).not_to_be_empty()
            expect(page.locator("#message")).not_to_be_empty()
            message_in_sight(page)
            assert geometry(page) == before, f"{where}: a hint or the chance moved the table"
            set_option(page, "#chance", False)
            expect(page.locator("#verdict")).to_be_empty()
            assert geometry(page) == before, f"{where}: the chance going moved the table"
        # A message emptied.
        page.evaluate("() => { document.getElementById('message').textContent = ''; }")
        assert geometry(page) == before, f"{where}: a message going moved the table"
        # The longest message: it wraps in its own box, above the table, which stays put.
        page.evaluate("() => { document.getElementById('message').textContent = 'a message '.repeat(40); }")
        message_in_sight(page)
        assert geometry(page) == before, f"{where}: a long message moved the table"


# -- the card size of a round ------------------------------------------------------------------------

def winning_line(slug: str) -> tuple[int, list[str], list[int]]:
    """The first deal of ``slug`` the solver wins within 5 s: its number, its moves and the
    round after each move."""
    game = kibitz.game(slug)
    for deal in range(1, 200):
        result = solve(game.deal(deal), Limits(seconds=5))
        if result.outcome is Outcome.WON:
            moves = [str(move) for move in result.moves]
            position, rounds = game.deal(deal), []
            for move in moves:
                position = position.apply(move)
                rounds.append(position.round)
            return deal, moves, rounds
    raise AssertionError(f"no deal of {slug} won by the solver")


def test_the_card_size_holds_for_a_round(contexts: Any, server: str) -> None:
    page = contexts(LAPTOP)
    for slug in GAMES:
        deal, moves, rounds = winning_line(slug)
        open_game(page, server, slug, deal)
        page.locator("#animate").uncheck()
        page.evaluate(SETTLED)
        width = page.evaluate("() => parseFloat(document.querySelector('#table .card').style.width)")
        seen: list[dict[str, Any]] = page.evaluate(PLAY_LINE, moves[:LINE_MOVES])
        widths = [width] + [step["width"] for step in seen]
        rounds = [1] + rounds[:LINE_MOVES]
        for k in range(1, len(widths)):
            if rounds[k] == rounds[k - 1]:
                assert widths[k] == widths[k - 1], \
                    f"{slug} #{deal}: the cards went from {widths[k - 1]} to {widths[k]} px at move {k} ({moves[k - 1]})"
        assert all(step["felt"] == seen[0]["felt"] for step in seen), f"{slug}: the room for the table changed"
        assert min(widths) >= 30, slug


# -- drop targets --------------------------------------------------------------------------------------

def lit(page: Page) -> set[str]:
    """The piles lit up as places to drop the card picked up."""
    piles: list[str] = page.locator("#table .drop-target").evaluate_all("marks => marks.map((m) => m.dataset.pile)")
    return set(piles)


def test_a_picked_up_card_shows_where_it_may_go(contexts: Any, server: str) -> None:
    slug, deal = "cicely", 1
    page = contexts(LAPTOP)
    open_game(page, server, slug, deal)
    position = kibitz.game(slug).deal(deal)
    sources = {str(move).split(">")[0] for move in position.legal_moves if not move.is_deal}
    source = next(name for name in position.game.pile_names() if name in sources and name[0] == "t")
    targets = {str(move).split(">")[1] for move in position.legal_moves if str(move).startswith(f"{source}>")}
    assert targets and len(targets) < len(position.game.pile_names()) - 1
    index = len(state(page)["piles"][source]) - 1
    expect(page.locator("#table .drop-target")).to_have_count(0)

    # Dragging: lit while the card moves, out once it is put back.
    x, y = point(page, card_selector(source, index), source, True)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 15, y + 25, steps=3)
    expect(page.locator(f"{card_selector(source, index)}.dragging")).to_be_attached()
    assert lit(page) == targets
    page.mouse.move(x, y, steps=2)
    page.mouse.up()
    expect(page.locator("#table .drop-target")).to_have_count(0)

    # Clicked: lit until the card is put down again (Esc).
    click_card(page, source, index)
    expect(page.locator("#table .card.selected")).to_have_count(1)
    assert lit(page) == targets
    page.keyboard.press("Escape")
    expect(page.locator("#table .drop-target")).to_have_count(0)

    # Picked up with the keyboard: lit, and out once the card is played.
    page.locator("#table").focus()
    cursor_to(page, source)
    page.keyboard.press("Enter")
    expect(page.locator("#table .card.selected")).to_have_count(1)
    assert lit(page) == targets
    expect(page.locator("#table")).to_have_attribute("aria-label", re.compile(r"it may go to "))
    cursor_to(page, sorted(targets)[0])
    page.keyboard.press("Enter")
    expect(page.locator("#counts")).to_have_text(re.compile(r"^1 move "))
    expect(page.locator("#table .drop-target")).to_have_count(0)


# -- the phone -----------------------------------------------------------------------------------------

OPTIONS = ["#game", "#ruleset", "#deal", "#level", "#winnable", "#autoplay", "#chance", "#autofinish",
           "#animate", "#fourcolours", "#analysis", "#continuelink", "#helpbutton"]


def test_the_phone_keeps_its_options_behind_a_menu(contexts: Any, server: str) -> None:
    page = contexts(PHONE)
    open_game(page, server, "tournament", 1)
    menu = page.locator("#menubutton")
    expect(menu).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")
    for option in OPTIONS:
        expect(page.locator(option)).to_be_hidden()
    closed = geometry(page)
    assert closed["felt"][3] >= 0.65 * PHONE["height"], f"the table's room: {closed['felt']}"
    # Open: the options, over the table, which stays where it was.
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#options")).to_be_visible()
    for option in OPTIONS:
        expect(page.locator(f"#options {option}")).to_be_visible()
    assert geometry(page) == closed
    page.locator("#chance").check()   # a setting changed keeps the menu open
    expect(menu).to_have_attribute("aria-expanded", "true")
    page.locator("#chance").uncheck()
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#options")).to_be_hidden()
    expect(menu).to_be_focused()
    # A wide window: no menu; the options are back in the header and the toolbar.
    page.set_viewport_size(LAPTOP)
    expect(menu).to_be_hidden()
    expect(page.locator("header #newgame #game")).to_be_visible()
    expect(page.locator("#toolbar #autoplay")).to_be_visible()
    expect(page.locator("header nav #continuelink")).to_be_visible()
