"""The browser player's games around the table: Continue keeps no untouched game and gives a
game up from its list; the statistics show full names, a legend, the recent games (each opens
its game) and a reset that asks first; the finished panel shows the game's statistics line; a
game saved and opened again is the same game, and a broken record is refused with its line.

Driven like the end-to-end tests: the real ``kibitz serve`` and Debian's Chromium through
Playwright (one server for the module: each test plays games of its own and reads them).
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

import kibitz
from kibitz.solver import Limits, Outcome, solve

from .browser import played_through_api
# .pages skips this module when Playwright or Chromium is missing (outside CI).
from .pages import game_id, open_game, state, type_move, wait_moves

from playwright.sync_api import Page, expect  # noqa: E402


def winning_moves(slug: str, deal: int) -> list[str]:
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=10))
    assert result.outcome is Outcome.WON
    return [str(m) for m in result.moves]


def listed(server: str) -> dict[str, dict[str, object]]:
    return {game["id"]: game for game in httpx.get(f"{server}/api/play").json()["games"]}


def test_continue_lists_no_untouched_game_and_gives_a_game_up(page: Page, server: str) -> None:
    open_game(page, server, "kingsdown-eights", 31)
    untouched = game_id(page)
    page.locator("#random").click()   # no move played: nothing to give up, and the game is not kept
    expect(page.locator("#share")).to_have_text("random deal")
    assert game_id(page) != untouched
    assert httpx.get(f"{server}/api/play/{untouched}").status_code == 404
    type_move(page, state(page)["legal"][0])
    played = game_id(page)
    open_game(page, server, "kingsdown-eights", 32)
    page.get_by_role("link", name="Continue", exact=True).click()
    table = page.locator("#continuetable")
    expect(table.locator(f'tr[data-id="{played}"]')).to_be_visible()
    expect(table.locator(f'tr[data-id="{game_id(page)}"]')).to_have_count(0)   # on the table, untouched
    assert all(game["moves"] for game in listed(server).values())
    headings = table.locator("thead th").all_inner_texts()
    assert headings[:5] == ["game", "deal", "moves", "time", "last played"]
    cells = table.locator(f'tr[data-id="{played}"] td').all_inner_texts()
    assert cells[:3] == ["Kingsdown Eights", "random", "1"]
    assert re.fullmatch(r"\d+:\d\d", cells[3]) and re.fullmatch(r"just now|\d+ \w+ ago", cells[4])

    # Giving up asks first; "Keep it" keeps the game.
    give_up = table.locator(f'tr[data-id="{played}"]').get_by_role("button", name=re.compile("^give up"))
    give_up.click()
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("1 move played")
    expect(dialog).to_contain_text("counts as lost")
    dialog.get_by_role("button", name="Keep it").click()
    expect(dialog).to_be_hidden()
    assert played in listed(server)
    give_up.click()
    dialog.get_by_role("button", name="Give up").click()
    expect(table.locator(f'tr[data-id="{played}"]')).to_have_count(0)
    assert played not in listed(server)
    recent = httpx.get(f"{server}/api/stats").json()["recent"]
    assert [(r["result"], r["abandoned"]) for r in recent if r["id"] == played] == [("lost", True)]


def test_the_statistics_and_the_finished_panel(page: Page, server: str) -> None:
    moves = winning_moves("napoleons-flank", 3)
    view = played_through_api(server, "napoleons-flank", 3, moves[:-1], ruleset="pysolfc")
    page.goto(f"{server}/?id={view['id']}")
    wait_moves(page, len(moves) - 1)
    type_move(page, moves[-1])
    expect(page.locator("#overlay")).to_be_visible()
    row = next(r for r in httpx.get(f"{server}/api/stats").json()["stats"]
               if (r["game"], r["ruleset"]) == ("napoleons-flank", "pysolfc"))
    assert (row["won"], row["played"], row["current_streak"]) == (1, 1, 1)
    expect(page.locator("#overstats")).to_have_text(
        "Napoleon's Flank (PySolFC's rules): won 1 of 1 (100%), streak 1, best streak 1.")
    page.locator("#overclose").click()

    page.get_by_role("link", name="Statistics", exact=True).click()
    stats = page.locator("#stats")
    expect(stats.locator("#chart .legend")).to_have_text(re.compile(r"games played\s+games won"))
    names = stats.locator("#chart .barname").all_inner_texts()
    shown = {info.name for info in kibitz.games()}
    assert names and all(name.split(" (")[0] in shown for name in names)   # full names, never cut
    assert "Napoleon's Flank (PySolFC's rules)" in names
    for label in stats.locator("#chart .barname").all():   # each name shows whole
        assert label.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
    recent = stats.locator(f'#recent tr[data-id="{view["id"]}"]')
    cells = recent.locator("td").all_inner_texts()
    assert re.search(r"\d{4}", cells[0])   # the date
    assert [cells[1], cells[2], cells[3].strip(), cells[5], cells[6]] == [
        "Napoleon's Flank (PySolFC's rules)", "#3", "won", str(len(moves)), "–"]   # game, deal, result, moves, assisted
    assert re.fullmatch(r"\d+:\d\d", cells[4])   # the time
    # A recent game opens on the table, at its end.
    recent.get_by_role("link", name=re.compile("^show")).click()
    expect(page.locator("#play")).to_be_visible()
    wait_moves(page, len(moves))
    assert game_id(page) == view["id"] and state(page)["status"] == "won"

    # The reset asks first; "Keep them" keeps them.
    page.get_by_role("link", name="Statistics", exact=True).click()
    page.locator("#resetstats").click()
    dialog = page.locator("#confirm")
    expect(dialog).to_contain_text("Every result is deleted")
    dialog.get_by_role("button", name="Keep them").click()
    expect(stats.locator("#recent tbody tr")).not_to_have_count(0)
    assert httpx.get(f"{server}/api/stats").json()["recent"]
    page.locator("#resetstats").click()
    dialog.get_by_role("button", name="Reset the statistics").click()
    expect(stats.locator("#statstable")).to_have_text("No finished games yet.")
    expect(stats.locator("#recent")).to_have_text("None yet.")
    expect(stats.locator("#chart .bars")).to_have_count(0)
    assert httpx.get(f"{server}/api/stats").json()["recent"] == []


def test_a_saved_game_opens_again_and_a_broken_record_is_refused(page: Page, server: str, tmp_path: Path) -> None:
    open_game(page, server, "duchess", 77)
    for _ in range(4):
        type_move(page, state(page)["legal"][0])
    before = state(page)
    with page.expect_download() as download:
        page.locator("#save").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "kibitz-duchess-77.kibitz"
    assert saved.read_text() == httpx.get(f"{server}/api/play/{before['id']}/record").text

    page.locator("#openfile").set_input_files(saved)
    expect(page.locator("#practice")).to_be_visible()
    wait_moves(page, 4)
    after = state(page)
    assert after["id"] != before["id"] and after["practice"] is True
    for key in ("game", "deal", "piles", "legal", "moves", "base", "round"):
        assert after[key] == before[key], key
    expect(page.locator("#message")).to_contain_text(f"opened {saved.name}")

    # A record changed after saving is refused with its line, here and under Continue.
    lines = saved.read_text().splitlines()
    lines[7] = lines[6]
    broken = ("\n".join(lines) + "\n").encode()
    page.locator("#openfile").set_input_files({"name": "broken.kibitz", "mimeType": "text/plain", "buffer": broken})
    expect(page.locator("#message")).to_have_text(
        "broken.kibitz: line 11: checksum does not match; the record was changed after saving")
    assert game_id(page) == after["id"]
    page.get_by_role("link", name="Continue", exact=True).click()
    page.locator("#openfile").set_input_files({"name": "photo.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n"})
    expect(page.locator("#continuenotice")).to_have_text("photo.png: not a text file (byte 0 is not UTF-8)")
