"""End to end: the real ``kibitz serve`` driven through Chromium, as a player would.

Moves are played by drag and drop (pointer events), by click then click and by the
keyboard; undo and redo, dealing from the stock, a refused drop, a whole game won
move by move and the statistics page. A screenshot of every game's table is saved to
``$KIBITZ_SCREENSHOTS`` (default: a pytest temporary folder).

Chromium is Debian's ``/usr/bin/chromium`` (``scripts/setup test`` installs it);
Playwright never downloads a browser of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import kibitz
from kibitz.solver import Limits, Outcome, solve

# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import VIEWPORT, card_selector, click_card, cursor_to, open_game, point, state, wait_moves

from playwright.sync_api import Page, expect  # noqa: E402


# -- driving the page -------------------------------------------------------------------------

def top_index(page: Page, pile: str) -> int:
    """The index of the top card of ``pile`` on the table."""
    return int(page.locator(f'#table .card[data-pile="{pile}"]').last.get_attribute("data-index") or "-1")


def click_pile(page: Page, pile: str) -> None:
    """Click a pile: its top card or its empty place."""
    page.mouse.click(*point(page, f'#table .slot[data-pile="{pile}"]', pile, False))


def drag_card(page: Page, pile: str, index: int, target: str) -> None:
    """Drag a card with the mouse (pointer events) and drop it on pile ``target``."""
    x, y = point(page, card_selector(pile, index), pile, True)
    box = page.locator(f'#table .slot[data-pile="{target}"]').bounding_box()
    assert box is not None
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 10, steps=2)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    expect(page.locator(f"{card_selector(pile, index)}.dragging")).to_be_attached()
    page.mouse.up()


def table_cards(page: Page) -> list[list[str]]:
    """Every card on the table: pile, index and name (empty when face down)."""
    cards: list[list[str]] = page.eval_on_selector_all(
        "#table .card", "cards => cards.map((c) => [c.dataset.pile, c.dataset.index, c.title])")
    return cards


def simple_moves(page: Page) -> list[tuple[str, str]]:
    """The legal single-card moves ``src>dst`` of the page's game."""
    moves = []
    for text in state(page)["legal"]:
        match = re.fullmatch(r"([a-z]\d?)>([a-z]\d?)", text)
        if match:
            moves.append((match[1], match[2]))
    return moves


def play_by_clicks(page: Page, move: str, before: int) -> None:
    """Play ``move`` (in notation) with the mouse: the stock for ``deal``, else card then pile."""
    if move == "deal":
        click_pile(page, "s")
    else:
        match = re.fullmatch(r"([a-z]\d?)(?:#(\d+))?>([a-z]\d?)(?:/(\d+))?", move)
        assert match, move
        src, position, dst, size = match[1], match[2], match[3], match[4]
        index = int(position) if position is not None else top_index(page, src) + 1 - int(size or 1)
        click_card(page, src, index)
        expect(page.locator(f"{card_selector(src, index)}.selected")).to_be_attached()
        click_pile(page, dst)
    wait_moves(page, before + 1)


# -- the tests -------------------------------------------------------------------------------------

def test_drag_and_drop_plays_a_move(page: Page, server: str) -> None:
    open_game(page, server, "cicely", 1)
    assert ("t2", "t6") in simple_moves(page)
    index = top_index(page, "t2")
    name = page.locator(card_selector("t2", index)).get_attribute("title")
    drag_card(page, "t2", index, "t6")
    wait_moves(page, 1)
    expect(page.locator('#table .card[data-pile="t6"]').last).to_have_attribute("title", name or "")
    assert state(page)["moves"] == 1


def test_click_then_click_plays_a_move(page: Page, server: str) -> None:
    open_game(page, server, "tournament", 1)
    assert ("r4", "f7") in simple_moves(page)
    name = page.locator('#table .card[data-pile="r4"]').last.get_attribute("title")
    click_card(page, "r4", top_index(page, "r4"))
    expect(page.locator('#table .card.selected[data-pile="r4"]')).to_have_count(1)
    click_pile(page, "f7")
    wait_moves(page, 1)
    expect(page.locator('#table .card[data-pile="f7"]').last).to_have_attribute("title", name or "")
    expect(page.locator("#table .card.selected")).to_have_count(0)


def test_double_click_sends_a_card_to_its_foundation(page: Page, server: str) -> None:
    open_game(page, server, "grand-duchess", 1)
    assert ("t3", "f7") in simple_moves(page)
    name = page.locator('#table .card[data-pile="t3"]').last.get_attribute("title")
    page.mouse.dblclick(*point(page, card_selector("t3", top_index(page, "t3")), "t3", True))
    wait_moves(page, 1)
    expect(page.locator('#table .card[data-pile="f7"]').last).to_have_attribute("title", name or "")
    expect(page.locator('#table .card[data-pile="t3"]')).to_have_count(0)


def test_keyboard_plays_a_move(page: Page, server: str) -> None:
    open_game(page, server, "kingsdown-eights", 1)
    assert ("r8", "t1") in simple_moves(page)
    name = page.locator('#table .card[data-pile="r8"]').last.get_attribute("title")
    page.locator("#table").focus()
    cursor_to(page, "r8")
    page.keyboard.press("Enter")
    expect(page.locator('#table .card.selected[data-pile="r8"]')).to_have_count(1)
    cursor_to(page, "t1")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    expect(page.locator('#table .card[data-pile="t1"]').last).to_have_attribute("title", name or "")
    page.keyboard.press("d")   # deal from the stock
    wait_moves(page, 2)


def test_undo_and_redo(page: Page, server: str) -> None:
    open_game(page, server, "grand-duchess", 1)
    opening = table_cards(page)
    expect(page.locator("#undo")).to_be_disabled()
    play_by_clicks(page, "t3>f7", 0)
    after_move = table_cards(page)
    assert after_move != opening
    play_by_clicks(page, "deal", 1)
    after_deal = table_cards(page)
    assert after_deal != after_move
    page.locator("#undo").click()
    wait_moves(page, 1)
    assert table_cards(page) == after_move
    page.locator("#undo").click()
    wait_moves(page, 0)
    assert table_cards(page) == opening
    expect(page.locator("#undo")).to_be_disabled()
    page.locator("#redo").click()
    wait_moves(page, 1)
    assert table_cards(page) == after_move
    page.locator("#table").focus()
    page.keyboard.press("r")
    wait_moves(page, 2)
    assert table_cards(page) == after_deal
    expect(page.locator("#redo")).to_be_disabled()
    page.keyboard.press("Control+z")
    wait_moves(page, 1)
    assert table_cards(page) == after_move


def test_deal_from_the_stock(page: Page, server: str) -> None:
    open_game(page, server, "grand-duchess", 1)
    stock = len(state(page)["piles"]["s"])
    assert stock > 4
    expect(page.locator("#counts")).to_contain_text(f"stock {stock} ")
    expect(page.locator("#table .count")).to_have_text([str(stock)])
    on_table = table_cards(page)
    click_pile(page, "s")
    wait_moves(page, 1)
    left = len(state(page)["piles"]["s"])
    assert left < stock
    expect(page.locator("#counts")).to_contain_text(f"stock {left} ")
    expect(page.locator("#table .count")).to_have_text([str(left)])
    assert len(table_cards(page)) > len(on_table)


def test_illegal_drop_snaps_back_with_a_reason(page: Page, server: str) -> None:
    open_game(page, server, "cicely", 1)
    assert ("t2", "t3") not in simple_moves(page) and ("t2", "t6") in simple_moves(page)
    index = top_index(page, "t2")
    card = page.locator(card_selector("t2", index))
    name = card.get_attribute("title")
    where = card.evaluate("c => [c.style.left, c.style.top]")
    drag_card(page, "t2", index, "t3")
    expect(page.locator("#message.error")).not_to_have_text("")
    expect(page.locator("#table .card.dragging")).to_have_count(0)
    card = page.locator(card_selector("t2", index))
    expect(card).to_have_attribute("title", name or "")
    assert card.evaluate("c => [c.style.left, c.style.top]") == where
    assert state(page)["moves"] == 0
    expect(page.locator("#counts")).to_have_text(re.compile(r"^0 moves "))


def test_win_a_whole_game_and_see_it_in_the_statistics(page: Page, server: str) -> None:
    slug, deal = "parisienne", 7
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=30))
    assert result.outcome is Outcome.WON
    open_game(page, server, slug, deal)
    for count, move in enumerate(result.moves):
        play_by_clicks(page, str(move), count)
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator("#overtitle")).to_have_text("Won!")
    expect(page.locator("#overtext")).to_contain_text(f"won in {len(result.moves)} moves")
    assert state(page)["status"] == "won"

    page.locator("#overclose").click()
    expect(page.locator("#overlay")).to_be_hidden()
    page.get_by_role("link", name="Statistics", exact=True).click()
    expect(page.locator("#stats")).to_be_visible()
    row = page.locator("#statstable tr", has_text="Parisienne")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("standard")
    expect(row.locator("td").nth(2)).to_have_text("1")   # played
    expect(row.locator("td").nth(3)).to_have_text("1")   # won
    expect(row.locator("td").nth(8)).to_have_text(str(len(result.moves)))   # fewest moves
    expect(page.locator("#recent tbody tr.won")).to_have_count(1)


@pytest.mark.parametrize("slug", [info.slug for info in kibitz.games()])
def test_screenshot_of_every_game(page: Page, server: str, screenshots: Path, slug: str) -> None:
    open_game(page, server, slug, 1)
    game = kibitz.game(slug)
    expect(page.locator("#title")).to_have_text(game.name)
    expect(page.locator("#table .slot")).to_have_count(len(game.piles))
    table = page.locator("#table").bounding_box()
    assert table is not None and table["width"] <= VIEWPORT["width"]
    hidden = page.evaluate("""() => {
      // more than a sliver (borders and line height may touch by a pixel or two)
      const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 4 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 4;
      const hidden = [];
      for (const slot of document.querySelectorAll('#table .slot')) {
        const label = slot.querySelector('.label').getBoundingClientRect();
        for (const card of document.querySelectorAll('#table .card')) {
          if (overlap(label, card.getBoundingClientRect())) { hidden.push(slot.dataset.pile); break; }
        }
      }
      return hidden;
    }""")
    assert hidden == [], f"pile labels under cards: {hidden}"
    path = screenshots / f"{slug}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
