"""The player's page in Chromium, as the browser tests drive it: a browser context, starting a
game, waiting for the table and playing on it.

A test module that imports this one is skipped when Playwright or Chromium is missing (outside
CI: there the browser tests never skip, a missing browser is a failure of the set-up).
Chromium is Debian's (``scripts/setup test`` installs it); Playwright never downloads a
browser of its own.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from .browser import CHROMIUM, POINT_ON

IN_CI = bool(os.environ.get("CI"))
"""In CI the browser tests never skip: a missing browser is a failure of the set-up."""

if not IN_CI:
    pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (scripts/setup test)")
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect  # noqa: E402

TIMEOUT_MS = 20_000
"""How long to wait for the page to show something (generous: CI machines may be loaded)."""
VIEWPORT: ViewportSize = {"width": 1280, "height": 1024}

if not os.access(CHROMIUM, os.X_OK) and not IN_CI:
    pytest.skip(f"the browser tests need chromium at {CHROMIUM} (scripts/setup test installs it)",
                allow_module_level=True)


def new_context(browser: Browser, viewport: ViewportSize, errors: list[str]) -> BrowserContext:
    """A fresh browser context (its own storage) of window size ``viewport``, waiting
    :data:`TIMEOUT_MS` for the page; the script errors of its pages go to ``errors``."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    expect.set_options(timeout=TIMEOUT_MS)
    context.on("page", lambda tab: tab.on("pageerror", lambda error: errors.append(str(error))))
    return context


def open_game(page: Page, server: str, slug: str, deal: int, ruleset: str = "standard") -> None:
    """Start a new game of ``slug`` deal ``deal`` in the page and wait until its table is drawn."""
    page.goto(f"{server}/?game={slug}&deal={deal}&ruleset={ruleset}")
    expect(page.locator("#share")).to_have_text(f"deal #{deal}")
    expect(page.locator("#counts")).to_have_text(re.compile(r"^0 moves "))
    expect(page.locator("#table .card").first).to_be_attached()


def state(page: Page) -> dict[str, Any]:
    """The server's view of the page's game (as the page itself would fetch it)."""
    data: dict[str, Any] = page.evaluate("""async () => {
      const id = new URLSearchParams(location.search).get('id');
      return await (await fetch(`/api/play/${id}`)).json();
    }""")
    return data


def game_id(page: Page) -> str:
    """The id of the page's game, from its address."""
    found = re.search(r"[?&]id=([\w-]+)", page.url)
    assert found, page.url
    return found[1]


def wait_moves(page: Page, count: int) -> None:
    """Wait until the table shows ``count`` moves played."""
    expect(page.locator("#counts")).to_have_text(re.compile(rf"^{count} moves? "))


def type_move(page: Page, move: str) -> None:
    """Play ``move`` by typing it in notation, and wait for the table to show it."""
    counts = page.locator("#counts")
    expect(counts).to_have_text(re.compile(r"^\d+ moves? "))
    played = re.match(r"\d+", counts.text_content() or "")
    assert played, "the move count should show"
    page.locator("#movebox").fill(move)
    page.locator("#movebox").press("Enter")
    wait_moves(page, int(played[0]) + 1)


def point(page: Page, selector: str, pile: str, exact: bool) -> tuple[float, float]:
    """Where to click to reach ``selector`` (see :data:`POINT_ON`), once there is such a point."""
    handle = page.wait_for_function(POINT_ON, arg=[selector, pile, exact], timeout=TIMEOUT_MS)
    where: dict[str, float] = handle.json_value()
    return where["x"], where["y"]


def card_selector(pile: str, index: int) -> str:
    """The card at ``index`` of ``pile`` on the table."""
    return f'#table .card[data-pile="{pile}"][data-index="{index}"]'


def click_card(page: Page, pile: str, index: int) -> None:
    """Click a card where it shows, even when the cards above it cover most of it."""
    page.mouse.click(*point(page, card_selector(pile, index), pile, True))


def cursor_to(page: Page, pile: str) -> None:
    """Move the keyboard cursor of the table (which has the focus) to ``pile`` with the arrow keys."""
    piles: list[str] = page.locator("#table .slot").evaluate_all("slots => slots.map((s) => s.dataset.pile)")
    here = page.locator("#table .slot.cursor").get_attribute("data-pile") or ""
    for _ in range((piles.index(pile) - piles.index(here)) % len(piles)):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#table .slot.cursor")).to_have_attribute("data-pile", pile)
