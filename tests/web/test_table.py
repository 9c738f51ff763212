"""The table in the browser: it fits every window and every face-up card's index shows.

Every game (standard rules; pysolfc for two games) is played along a winning line the
solver finds, through the HTTP API, and the page opened on it (``?id=``) at five stages:
the start, a third, two thirds, near the end, and where the line's longest pile is longest.
At four window sizes (laptops, a large screen, a phone) the page must not scroll, every
card must lie inside the window, the table must show what the view holds (the cards of
fanned piles, the top card of squared ones, each named as players hear it), and each face-up
card's whole index must belong to that card: no other card covers any part of the rank's or
the suit's box, to their edges.

A screenshot of every game at every size (at the stage a third of the way) goes to
``$KIBITZ_SCREENSHOTS`` (default: a pytest temporary folder).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

import kibitz
from kibitz.solver import Limits, Outcome, solve

from .browser import played_through_api
# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import new_context

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect  # noqa: E402

SIZES: list[ViewportSize] = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768},
                             {"width": 1920, "height": 1080}, {"width": 390, "height": 844}]
LINES = [(info.slug, "standard") for info in kibitz.games()] + [("duchess", "pysolfc"), ("tournament", "pysolfc")]
SCREENSHOT_STAGE = "a third"
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}

# What the page shows, and what is wrong with it: a scrolling page, a card outside the window,
# a face-up card any part of whose index (the rank's and the suit's boxes, edges included) lies
# under another element.
INSPECT = """() => {
  const EDGE = 0.5;
  const along = (from, to) => {
    const points = [];
    for (let at = from; at < to; at += 2) points.push(at);
    points.push(to);
    return points;
  };
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth || page.scrollHeight > innerHeight) {
    problems.push(`the page scrolls: ${page.scrollWidth} x ${page.scrollHeight} in ${innerWidth} x ${innerHeight}`);
  }
  const cards = [...document.querySelectorAll('#table .card')];
  for (const card of cards) {
    const name = `${card.dataset.pile}#${card.dataset.index} (${card.title || 'face down'})`;
    const box = card.getBoundingClientRect();
    if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
      problems.push(`${name} lies outside the window: ${JSON.stringify(box)}`);
    }
    const index = card.querySelector('.index');
    if (!card.title) continue;
    if (!index || index.children.length < 2) { problems.push(`${name} has no index of rank and suit`); continue; }
    // The whole index shows: each glyph's box (the rank's font box, the suit's outline), its
    // centre and points every 2 px along its four edges (half a pixel in), belongs to the card.
    for (const glyph of index.children) {
      const r = glyph.getBoundingClientRect();
      const left = r.left + EDGE, right = r.right - EDGE, top = r.top + EDGE, bottom = r.bottom - EDGE;
      const points = [[(left + right) / 2, (top + bottom) / 2]];
      for (const x of along(left, right)) points.push([x, top], [x, bottom]);
      for (const y of along(top, bottom)) points.push([left, y], [right, y]);
      const covered = points.find(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || hit.closest('.card') !== card;
      });
      if (covered) {
        const [x, y] = covered;
        const hit = document.elementFromPoint(x, y), owner = hit && hit.closest('.card');
        const other = owner ? `${owner.dataset.pile}#${owner.dataset.index}` : hit ? hit.tagName : 'nothing';
        const what = glyph.tagName === 'text' ? 'rank' : 'suit';
        problems.push(`the ${what} of ${name}'s index is covered at (${x.toFixed(1)}, ${y.toFixed(1)}) by ${other}`);
        break;
      }
    }
  }
  const shown = cards.map((c) => [c.dataset.pile, +c.dataset.index, c.querySelector('svg').getAttribute('aria-label')]);
  const cardWidth = cards.length ? cards[0].getBoundingClientRect().width : 0;
  return {problems, shown, cardWidth};
}"""


# Two frames later: a layout the page asked for in the next frame (after a resize) is drawn.
SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@dataclass(frozen=True)
class Stage:
    """A game played some way along a winning line, kept by the server under ``game_id``."""

    name: str
    moves: int
    game_id: str
    view: dict[str, Any]


# -- the games ------------------------------------------------------------------------------------

def winning_line(slug: str, ruleset: str) -> tuple[int, list[str]]:
    """The first deal of the game the solver wins within 5 s, with its moves."""
    game = kibitz.game(slug, ruleset)
    for deal in range(1, 200):
        result = solve(game.deal(deal), Limits(seconds=5))
        if result.outcome is Outcome.WON:
            return deal, [str(move) for move in result.moves]
    raise AssertionError(f"no deal of {slug} won by the solver")


def longest_pile_at(slug: str, ruleset: str, deal: int, moves: list[str]) -> int:
    """After how many moves of the line its longest fanned pile is at its longest."""
    game = kibitz.game(slug, ruleset)
    fanned = [k for k, name in enumerate(game.pile_names()) if game.table.place(name).fan.value != "none"]
    state = game.deal(deal)
    best, at = 0, 0
    for count, move in enumerate(moves):
        state = state.apply(move)
        longest = max((len(state.piles[k]) for k in fanned), default=0)
        if longest > best:
            best, at = longest, count + 1
    return at


@pytest.fixture(scope="module")
def stages(server: str) -> dict[tuple[str, str], list[Stage]]:
    """For every line: its games at the start, a third, two thirds, near the end and the longest pile."""
    found: dict[tuple[str, str], list[Stage]] = {}
    for slug, ruleset in LINES:
        deal, moves = winning_line(slug, ruleset)
        counts = {"the start": 0, "a third": len(moves) // 3, "two thirds": 2 * len(moves) // 3,
                  "near the end": max(0, len(moves) - 3),
                  "the longest pile": longest_pile_at(slug, ruleset, deal, moves)}
        found[slug, ruleset] = []
        for name, count in counts.items():
            view = played_through_api(server, slug, deal, moves[:count], ruleset)
            found[slug, ruleset].append(Stage(name, count, view["id"], view))
    return found


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Any]:
    """Opens fresh pages (their own storage) of a given window size; fails on any script error."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_page(size: ViewportSize) -> Page:
        contexts.append(new_context(browser, size, errors))
        return contexts[-1].new_page()

    try:
        yield open_page
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"script errors in the page: {errors}"


# -- reading the table ---------------------------------------------------------------------------

def card_name(code: str | None) -> str:
    """A card's accessible name, as the page gives it."""
    if code is None:
        return "face-down card"
    return f"{RANK_NAMES.get(code[0], code[0])} of {SUIT_NAMES[code[1]]}"


def expected_cards(slug: str, view: dict[str, Any]) -> list[list[Any]]:
    """The cards the table should show, in drawing order: pile, index and accessible name."""
    table = kibitz.game(slug).table
    shown = []
    for place in table.places:
        cards = view["piles"][place.pile]
        first = len(cards) - 1 if place.fan.value == "none" and cards else 0
        shown += [[place.pile, index, card_name(cards[index])] for index in range(first, len(cards))]
    return shown


def open_stage(page: Page, server: str, stage: Stage) -> dict[str, Any]:
    """Open the page on a stage's game and read what it shows once its table is drawn."""
    page.goto(f"{server}/?id={stage.game_id}")
    expect(page.locator("#counts")).to_have_text(re.compile(rf"^{stage.moves} moves? "))
    expect(page.locator("#table .slot").first).to_be_attached()
    page.evaluate(SETTLED)
    found: dict[str, Any] = page.evaluate(INSPECT)
    return found


# -- the tests -------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=[f"{s['width']}x{s['height']}" for s in SIZES])
@pytest.mark.parametrize("slug,ruleset", LINES, ids=[f"{s}-{r}" for s, r in LINES])
def test_the_table_fits_and_every_index_shows(new_page: Any, server: str, stages: dict[tuple[str, str], list[Stage]],
                                              screenshots: Path, slug: str, ruleset: str, size: ViewportSize) -> None:
    page = new_page(size)
    for stage in stages[slug, ruleset]:
        found = open_stage(page, server, stage)
        where = f"{slug} ({ruleset}) at {stage.name} (move {stage.moves}), {size['width']} x {size['height']}"
        assert found["problems"] == [], where
        assert found["shown"] == expected_cards(slug, stage.view), where
        assert found["cardWidth"] >= 30, where   # every game stays readable at these sizes
        if stage.name == SCREENSHOT_STAGE:
            suffix = "" if ruleset == "standard" else f"-{ruleset}"
            path = screenshots / f"{slug}{suffix}-{size['width']}x{size['height']}.png"
            page.screenshot(path=str(path))
            assert path.stat().st_size > 10_000


def test_a_resize_or_a_rotation_lays_the_table_out_again(new_page: Any, server: str,
                                                          stages: dict[tuple[str, str], list[Stage]]) -> None:
    stage = stages["cicely", "standard"][1]
    page = new_page({"width": 1280, "height": 800})
    before = open_stage(page, server, stage)
    assert before["problems"] == []
    widths = [before["cardWidth"]]
    for width, height in [(390, 844), (844, 390), (1920, 1080)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("(width) => document.querySelector('#table .card').getBoundingClientRect().width !== width",
                               arg=widths[-1])
        page.evaluate(SETTLED)
        after: dict[str, Any] = page.evaluate(INSPECT)
        assert after["problems"] == [], f"{width} x {height}"
        widths.append(after["cardWidth"])
    assert widths[1] < widths[0] and widths[2] < widths[0] and widths[3] > widths[0]


def test_the_four_colour_deck_is_remembered(new_page: Any, server: str,
                                            stages: dict[tuple[str, str], list[Stage]]) -> None:
    stage = stages["cicely", "standard"][0]
    page = new_page({"width": 1280, "height": 800})
    open_stage(page, server, stage)
    colours = """() => Object.fromEntries([...document.querySelectorAll('#table .card[title] .index text')]
      .map((t) => [t.closest('.card').title.split(' of ')[1], t.getAttribute('fill')]))"""
    usual: dict[str, str] = page.evaluate(colours)
    assert usual["clubs"] == usual["spades"] and usual["diamonds"] == usual["hearts"] != usual["clubs"]
    page.locator("#fourcolours").check()
    four: dict[str, str] = page.evaluate(colours)
    assert len(set(four.values())) == 4 and four["spades"] == usual["spades"] and four["hearts"] == usual["hearts"]
    open_stage(page, server, stage)   # a reload keeps the setting
    expect(page.locator("#fourcolours")).to_be_checked()
    assert page.evaluate(colours) == four


def test_fans_close_up_face_down_cards_first_and_never_past_the_index(new_page: Any, server: str) -> None:
    """layout.js on made-up piles: usual steps while they fit; then face-down cards close up
    first; then face-up ones, down to their index's strip and no closer; a pile longer than
    that makes the whole table smaller instead, and still fits its window."""
    page = new_page({"width": 1280, "height": 800})
    page.goto(f"{server}/#rules")
    found: dict[str, Any] = page.evaluate("""async () => {
      const {fanSteps, layOut} = await import('/static/layout.js');
      const {INDEX_STRIP} = await import('/static/cards.js');
      const pile = [...Array(6).fill(null), ...Array(8).fill('QH')];
      const steps = (room) => {
        const s = fanSteps(pile, 'down', 100, room);
        return {faceDown: s[0], faceUp: s[7]};
      };
      const games = await (await fetch('/api/games')).json();
      const table = games.games.find((g) => g.slug === 'cicely').table;
      const layout = (cards) => layOut(table, {t1: Array(cards).fill('5S')}, 1000, 700);
      const ends = (result) => {
        const cards = result.cards.filter((c) => c.pile === 't1');
        return {cardWidth: result.cardWidth, step: cards[1].y - cards[0].y,
                bottom: cards[cards.length - 1].y + result.cardHeight, height: result.height};
      };
      return {roomy: steps(1000), middle: steps(360), tight: steps(330), tighter: steps(200),
              strip: INDEX_STRIP.down, short: ends(layout(5)), long: ends(layout(40))};
    }""")
    roomy, middle, tight, tighter = found["roomy"], found["middle"], found["tight"], found["tighter"]
    strip = found["strip"] * 100
    assert roomy["faceUp"] > roomy["faceDown"] > 0
    assert middle["faceUp"] == roomy["faceUp"] and middle["faceDown"] < roomy["faceDown"]
    assert tight["faceDown"] < middle["faceDown"] and strip < tight["faceUp"] < roomy["faceUp"]
    assert tighter["faceDown"] == tight["faceDown"] and tighter["faceUp"] == pytest.approx(strip)
    short, long = found["short"], found["long"]
    assert long["cardWidth"] < short["cardWidth"]
    assert long["step"] >= found["strip"] * long["cardWidth"] * 1.4 - 0.01
    assert long["bottom"] <= long["height"] <= 700 + 1e-6
