"""Words for players in the browser: what a player reads by default names cards as on their
index ("10", never "T") and piles in words ("tableau 4", never "t4"); refusals say why, in the
server's words; and what was said of a position goes when the position changes (undo, redo,
restart, a new game), the hint's highlight too. Notation stays in the move box, whose
placeholder fits it at every window size.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright. Every text the page shows is recorded as it shows (a mutation observer), so that
messages that come and go are read too.
"""

from __future__ import annotations

import re

import pytest

import kibitz
from kibitz.autoplay import finishing_moves
from kibitz.cards import RANKS, rank_of
from kibitz.moves import DEAL, Move
from kibitz.piles import PileKind
from kibitz.reasons import spoken_piles
from kibitz.registry import games
from kibitz.solver import Limits, Outcome, solve
from kibitz.state import State

from .browser import played_through_api
# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import click_card, open_game, type_move, wait_moves

from playwright.sync_api import Page, expect  # noqa: E402

SLUGS = [info.slug for info in games()]
HINTED = ("duchess",)
"""The games whose walk asks for a hint (a search of a few seconds)."""
FINISHED = ("duchess", "tournament")
"""The games played to their win panel (one pack and two; the words are the same code for all)."""
SIZES = [(1280, 800), (1920, 1080), (1024, 768), (390, 844)]
PILE_CODE = re.compile(r"(?<![\w'#/])(?:[tfr]\d+|[sw])(?![\w'])")
"""A pile in notation standing alone (``t3``, ``f1``, ``s``, ``w``)."""
NOTATION_RANK = re.compile(r"\bT\b|T[\u2663\u2660\u2665\u2666]")
"""A ten written ``T``."""
# Records every text a player reads by default, each time the page changes: the message, the
# verdict, the counts, the live region, the finished panel and what the table's slots show
# (their content, not the pile's name above them, which is the key to typing moves).
RECORD_SHOWN = """() => {
  window.shownTexts = new Set();
  const read = () => {
    const texts = ['message', 'verdict', 'counts', 'announce'].map((id) => document.getElementById(id))
      .filter(Boolean).map((element) => element.textContent);
    const overlay = document.getElementById('overlay');
    if (overlay && !overlay.hidden) texts.push(overlay.innerText);
    for (const slot of document.querySelectorAll('#table .slot')) {
      const copy = slot.cloneNode(true);
      copy.querySelectorAll('.label, .count').forEach((element) => element.remove());
      texts.push(copy.textContent);
    }
    for (const text of texts) if (text) window.shownTexts.add(text);
  };
  new MutationObserver(read).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
# What each foundation's slot shows (the rank it starts with), its pile's name aside.
FOUNDATION_SLOTS = """() => [...document.querySelectorAll('#table .slot.foundation')].map((slot) => {
  const copy = slot.cloneNode(true);
  copy.querySelectorAll('.label, .count').forEach((element) => element.remove());
  return copy.textContent.trim();
})"""
# How much room the move box gives its placeholder, and how wide the placeholder is.
PLACEHOLDER_FIT = """() => {
  const box = document.getElementById('movebox');
  if (!box.getClientRects().length) return null;
  const style = getComputedStyle(box);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  return {text: context.measureText(box.placeholder).width,
          room: box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)};
}"""


def shown(page: Page) -> list[str]:
    texts: list[str] = page.evaluate("() => [...window.shownTexts]")
    return texts


def assert_in_words(texts: list[str]) -> None:
    """No text names a pile or a ten in notation."""
    bad = [text for text in texts if PILE_CODE.search(text) or NOTATION_RANK.search(text)]
    assert not bad, f"notation in what a player reads: {bad}"


def kind_of(state: State, name: str) -> PileKind:
    return state.game.piles[state.game.pile_index(name)].kind


def refused_move(state: State) -> Move:
    """A move the rules refuse in ``state``: a visible top card of the tableau or the reserve onto
    a pile that does not take it, a foundation first."""
    view = state.view()
    legal = set(state.legal_moves)
    sources = [name for name in state.game.pile_names() if kind_of(state, name) in (PileKind.TABLEAU, PileKind.RESERVE)
               and view.pile(name) and view.pile(name)[-1] is not None]
    targets = sorted((name for name in state.game.pile_names() if kind_of(state, name) in
                      (PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE)),
                     key=lambda name: kind_of(state, name) is not PileKind.FOUNDATION)
    return next(Move(source, target) for target in targets for source in sources
                if source != target and Move(source, target) not in legal)


def stuck_card(state: State) -> tuple[str, int] | None:
    """A visible top card (of the tableau or the reserve) that has no legal move."""
    view = state.view()
    sources = {move.source for move in state.legal_moves}
    for name in state.game.pile_names():
        pile = view.pile(name)
        if kind_of(state, name) in (PileKind.TABLEAU, PileKind.RESERVE) and pile and pile[-1] is not None \
                and name not in sources:
            return name, len(pile) - 1
    return None


def spoken_refusal(state: State, move: Move) -> str:
    with spoken_piles():
        return state.game.explain_illegal(state, move)


def expect_refusal(page: Page, words: str) -> None:
    expect(page.locator("#message.error")).to_have_text(words)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_in_words_and_messages_that_go_with_their_position(page: Page, server: str, slug: str) -> None:
    deal = 2
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', {RECORD_SHOWN})")
    open_game(page, server, slug, deal)
    state = kibitz.game(slug).deal(deal)
    message = page.locator("#message")

    # A refusal typed in the move box: the server's reason, piles in words.
    refused = refused_move(state)
    page.locator("#movebox").fill(str(refused))
    page.locator("#movebox").press("Enter")
    expect_refusal(page, spoken_refusal(state, refused))

    first = next((move for move in state.legal_moves if not move.is_deal), DEAL)
    type_move(page, str(first))
    expect(message).to_have_text("")   # a move played: the refusal of the position before is gone
    state = state.apply(first)

    # A click on a card that cannot move says why.
    stuck = stuck_card(state)
    if stuck is not None:
        click_card(page, *stuck)
        with spoken_piles():
            expect_refusal(page, state.game.explain_card(state, *stuck))

    # Undo, redo and restart each leave a position: what was said of it goes.
    page.locator("#undo").click()
    wait_moves(page, 0)
    expect(message).to_have_text("")
    page.locator("#movebox").fill(str(refused))
    page.locator("#movebox").press("Enter")
    expect(page.locator("#message.error")).not_to_have_text("")
    page.locator("#redo").click()
    wait_moves(page, 1)
    expect(message).to_have_text("")
    page.locator("#movebox").fill(str(refused_move(state)))
    page.locator("#movebox").press("Enter")
    expect_refusal(page, spoken_refusal(state, refused_move(state)))
    page.locator("#restart").click()
    wait_moves(page, 0)
    expect(message).to_have_text("")

    # The hint, in words; undo takes it away with its highlight. (A search of a few seconds:
    # asked in one game; its words come from kibitz.spoken, tested for every game.)
    if slug in HINTED:
        page.locator("#redo").click()
        wait_moves(page, 1)
        page.locator("#hint").click()
        expect(page.locator("#message.hint")).to_have_text(re.compile(r"^hint: the .+ \(.+\)$|^hint: a (re)?deal"))
        expect(page.locator("#table .hinted").first).to_be_attached()
        page.locator("#undo").click()
        wait_moves(page, 0)
        expect(message).to_have_text("")
        expect(page.locator("#table .hinted")).to_have_count(0)

    # Auto-play says which cards it played, or that none could go.
    page.locator("#auto").click()
    expect(message).to_have_text(re.compile(r"^(auto-played the .+ to the foundations|auto-played \d+ cards to the "
                                            r"foundations|no card can safely go to the foundations now)$"))

    # A new game: the old game's words go.
    if state_moves(page):
        page.locator("#restart").click()
        wait_moves(page, 0)
    page.locator("#movebox").fill(str(refused))
    page.locator("#movebox").press("Enter")
    expect(page.locator("#message.error")).not_to_have_text("")
    page.locator("#deal").fill(str(deal + 1))
    page.locator("#newgame button[type=submit]").click()
    expect(page.locator("#share")).to_have_text(f"deal #{deal + 1}")
    expect(message).to_have_text(re.compile(r"^new game: "))
    assert_in_words(shown(page))


def state_moves(page: Page) -> int:
    """The move count the page shows."""
    found = re.match(r"\d+", page.locator("#counts").text_content() or "")
    assert found
    return int(found[0])


@pytest.mark.parametrize("slug", FINISHED)
def test_the_finish_and_the_win_panel_in_words(page: Page, server: str, slug: str) -> None:
    deal = 1
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=30))
    assert result.outcome is Outcome.WON
    # The line up to where the rest is certain: Finish plays it.
    state = kibitz.game(slug).deal(deal)
    line: list[str] = []
    for move in result.moves:
        if finishing_moves(state):
            break
        line.append(str(move))
        state = state.apply(move)
    view = played_through_api(server, slug, deal, line)
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', {RECORD_SHOWN})")
    page.goto(f"{server}/?id={view['id']}")
    wait_moves(page, len(line))
    page.locator("#finish").click()
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator("#overtitle")).to_have_text("Won!")
    expect(page.locator("#announce")).to_have_text(re.compile(r"to the foundations; \d+ moves; the game is won$"))
    assert_in_words(shown(page))


def test_tens_read_10_on_the_status_line_and_the_foundations(page: Page, server: str) -> None:
    """Duchess with a ten for its base rank (the first deal whose reserve shows a ten on top)."""
    game = kibitz.game("duchess")
    ten = RANKS.index("T")
    deal, move = next((deal, move) for deal in range(1, 200) for move in game.deal(deal).legal_moves
                      if move.target.startswith("f") and rank_of(game.deal(deal).pile(move.source)[-1]) == ten)
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', {RECORD_SHOWN})")
    open_game(page, server, "duchess", deal)
    type_move(page, str(move))
    expect(page.locator("#counts")).to_contain_text("base 10")
    expect(page.locator("#announce")).to_have_text(re.compile(r"^the 10. from reserve \d to foundation \d; 1 move$"))
    slots = page.evaluate(FOUNDATION_SLOTS)
    assert len(slots) == 4 and all(text == "10" for text in slots), slots   # what each foundation starts with
    assert_in_words(shown(page))


def test_the_move_box_placeholder_fits_at_every_window_size(page: Page, server: str) -> None:
    open_game(page, server, "tournament", 1)
    seen = 0
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        fit = page.evaluate(PLACEHOLDER_FIT)
        if fit is not None:
            seen += 1
            assert fit["text"] <= fit["room"], (width, height, fit)
    assert seen, "the move box should show at some window size"
