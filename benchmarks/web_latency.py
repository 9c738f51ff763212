"""Browser player latency: how long a move takes from request to updated table.

Starts ``kibitz serve`` on a free port with a temporary data folder and plays the
solver's winning lines of a few deals (a few hundred moves):

* through the HTTP API (httpx, one kept-alive connection): from sending ``POST
  /api/play/{id}/move`` to the decoded answer with the new view;
* through the browser (headless Debian Chromium driven by Playwright, if it is
  installed): from the click that plays the move (``pointerup`` on the table) to the
  page showing the new move count, measured inside the page (the table is redrawn by
  then; the cards' glide, when animation is on, starts after it and is not counted);
* the first load of the page: from the navigation's start to the first frame with cards
  on the table, measured inside the page, in a fresh browser context each time ("cold":
  nothing cached) and on reloads ("warm").

* with ``--reviews N``: the same moves through the API again while N reviews of other
  games run on the server (each the review of a long game given up, seeing every card, in the
  server's search pool); the median is compared with the one measured alone (target: at most
  twice as long).

Prints the median, p90 and max in milliseconds. Targets: a move's median under 30 ms; a
first load's under 300 ms.

    .venv/bin/python benchmarks/web_latency.py [--deals 3] [--browser-deals 2] [--loads 10] [--game parisienne]
    .venv/bin/python benchmarks/web_latency.py --browser-deals 0 --loads 0 --reviews 2
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

import kibitz
from kibitz.solver import Limits, Outcome, solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web.browser import CHROMIUM, CHROMIUM_ARGS, POINT_ON, start_server, stop  # noqa: E402  (the tests' page driver)

TARGET_MS = 30.0
LOAD_TARGET_MS = 300.0
TIMEOUT_MS = 20_000

# Records, inside the page, the time from each click on the table to the move count changing.
PROBE = """() => {
  const probe = {clicked: 0, samples: [], moves: null};
  window.kibitzProbe = probe;
  document.getElementById('table').addEventListener('pointerup', () => { probe.clicked = performance.now(); }, true);
  const counts = document.getElementById('counts');
  new MutationObserver(() => {
    const match = /^(\\d+) move/.exec(counts.textContent);
    if (!match || +match[1] === probe.moves) return;
    if (probe.moves !== null && probe.clicked) probe.samples.push(performance.now() - probe.clicked);
    probe.moves = +match[1];
  }).observe(counts, {childList: true, characterData: true, subtree: true});
}"""

def winning_lines(slug: str, count: int) -> list[tuple[int, list[str]]]:
    """The first ``count`` deals of ``slug`` the solver wins quickly, with their moves."""
    lines: list[tuple[int, list[str]]] = []
    deal = 0
    while len(lines) < count and deal < 1000:
        deal += 1
        result = solve(kibitz.game(slug).deal(deal), Limits(seconds=5))
        if result.outcome is Outcome.WON:
            lines.append((deal, [str(m) for m in result.moves]))
    return lines


def reviewed_games(url: str, count: int) -> list[str]:
    """``count`` games of Kingsdown Eights played through the API by the greedy agent (150 moves
    at most) and given up: long reviews, seeing every card."""
    import random
    from kibitz.agents import agent
    from kibitz.agents.play import play_out
    ids: list[str] = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for deal in range(91001, 91001 + count):
            moves = play_out(kibitz.game("kingsdown-eights").deal(deal), agent("greedy"), random.Random(deal),
                             max_moves=150).moves
            game = client.post("/api/games/kingsdown-eights/new", json={"deal": deal}).json()
            for done, move in enumerate(moves):
                client.post(f"/api/play/{game['id']}/move", json={"move": str(move), "expected_moves": done})
            client.post(f"/api/play/{game['id']}/abandon", json={})
            ids.append(game["id"])
    return ids


def run_review(url: str, game_id: str, figures: list[int]) -> None:
    """Stream the review of game ``game_id`` to its end, counting its lines into ``figures``."""
    with httpx.Client(base_url=url, timeout=600) as client:
        with client.stream("POST", f"/api/play/{game_id}/review", json={}) as response:
            for line in response.iter_lines():
                if line:
                    figures.append(1)


def under_reviews(url: str, slug: str, lines: list[tuple[int, list[str]]], count: int
                  ) -> tuple[list[float], list[int], float]:
    """Move latencies through the API while ``count`` reviews run: the samples, the review
    lines received meanwhile, and the seconds the reviews took."""
    import threading
    ids = reviewed_games(url, count)
    figures: list[int] = []
    threads = [threading.Thread(target=run_review, args=(url, game_id, figures)) for game_id in ids]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(1.0)   # the reviews under way
    samples: list[float] = []
    while any(thread.is_alive() for thread in threads):   # moves the whole time the reviews run
        samples += api_latencies(url, slug, lines)
    during = len(figures)
    for thread in threads:
        thread.join()
    return samples, [during, len(figures)], time.perf_counter() - started


def api_latencies(url: str, slug: str, lines: list[tuple[int, list[str]]]) -> list[float]:
    """Milliseconds per move played through the HTTP API."""
    samples: list[float] = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for deal, moves in lines:
            game = client.post(f"/api/games/{slug}/new", json={"deal": deal}).json()
            for count, move in enumerate(moves):
                start = time.perf_counter()
                response = client.post(f"/api/play/{game['id']}/move", json={"move": move, "expected_moves": count})
                view = response.json()
                samples.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200 and view["moves"] == count + 1, view
            assert view["status"] == "won", view
    return samples


def browser_latencies(url: str, slug: str, lines: list[tuple[int, list[str]]]) -> list[float] | None:
    """Milliseconds from the click to the updated page, per move played in Chromium; None without a browser."""
    try:
        from playwright.sync_api import Page, expect, sync_playwright
    except ImportError:
        print("browser: skipped (playwright is not installed; scripts/setup test)")
        return None
    if not os.access(CHROMIUM, os.X_OK):
        print(f"browser: skipped (no chromium at {CHROMIUM}; scripts/setup test)")
        return None

    def point(page: Page, selector: str, pile: str, exact: bool) -> tuple[float, float]:
        where: dict[str, float] = page.wait_for_function(POINT_ON, arg=[selector, pile, exact]).json_value()
        return where["x"], where["y"]

    samples: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1024})
            page.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            for deal, moves in lines:
                page.goto(f"{url}/?game={slug}&deal={deal}&ruleset=standard")
                expect(page.locator("#counts")).to_have_text(re.compile(r"^0 moves "))
                page.evaluate(PROBE)
                for count, move in enumerate(moves):
                    if move == "deal":
                        page.mouse.click(*point(page, '#table .slot[data-pile="s"]', "s", False))
                    else:
                        match = re.fullmatch(r"([a-z]\d?)(?:#(\d+))?>([a-z]\d?)", move)
                        assert match, move
                        src, dst = match[1], match[3]
                        index = int(match[2]) if match[2] is not None else int(
                            page.locator(f'#table .card[data-pile="{src}"]').last.get_attribute("data-index") or 0)
                        card = f'#table .card[data-pile="{src}"][data-index="{index}"]'
                        page.mouse.click(*point(page, card, src, True))
                        expect(page.locator(f"{card}.selected")).to_be_attached()
                        page.mouse.click(*point(page, f'#table .slot[data-pile="{dst}"]', dst, False))
                    expect(page.locator("#counts")).to_have_text(re.compile(rf"^{count + 1} moves? "))
                expect(page.locator("#overtitle")).to_have_text("Won!")
                probe: list[float] = page.evaluate("() => window.kibitzProbe.samples")
                samples += probe
        finally:
            browser.close()
    return samples


# Records, inside the page, when cards are first on screen: the first frame after the first
# card element is in the table, in milliseconds since the navigation started.
FIRST_CARDS = """
window.kibitzFirstCards = null;
new MutationObserver((changes, observer) => {
  if (!document.querySelector('#table .card')) return;
  observer.disconnect();
  requestAnimationFrame(() => { window.kibitzFirstCards = performance.now(); });
}).observe(document, {childList: true, subtree: true});
"""


def first_loads(url: str, slug: str, loads: int) -> dict[str, list[float]] | None:
    """Milliseconds from navigation to cards on screen: each load in a fresh browser context
    (nothing cached) and reloads of one page (the browser's cache revalidated)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not os.access(CHROMIUM, os.X_OK):
        return None
    samples: dict[str, list[float]] = {"cold": [], "warm": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for kind in ("cold", "warm"):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_init_script(FIRST_CARDS)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                for k in range(loads + (1 if kind == "warm" else 0)):
                    if kind == "cold" and k:
                        context.close()
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        context.add_init_script(FIRST_CARDS)
                        page = context.new_page()
                        page.set_default_timeout(TIMEOUT_MS)
                    page.goto(f"{url}/?game={slug}&deal={k + 1}&ruleset=standard")
                    page.wait_for_function("() => window.kibitzFirstCards !== null")
                    if kind == "cold" or k:   # the first warm load fills the cache
                        samples[kind].append(page.evaluate("() => window.kibitzFirstCards"))
                context.close()
        finally:
            browser.close()
    return samples


def report(label: str, samples: list[float], target: float = TARGET_MS, unit: str = "moves") -> None:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    median = statistics.median(ordered)
    verdict = "within" if median < target else "OVER"
    print(f"{label:10} {len(ordered):5} {unit:5}  median {median:6.1f} ms   p90 {p90:6.1f} ms   "
          f"max {ordered[-1]:6.1f} ms   ({verdict} the {target:.0f} ms target)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="parisienne", help="game slug (default parisienne)")
    parser.add_argument("--deals", type=int, default=3, help="deals played through the API (default 3)")
    parser.add_argument("--browser-deals", type=int, default=2, help="deals played in the browser (default 2; 0: none)")
    parser.add_argument("--loads", type=int, default=10, help="page loads timed, cold and warm (default 10; 0: none)")
    parser.add_argument("--reviews", type=int, default=0, help="reviews running while the API moves are timed again")
    args = parser.parse_args()
    slug = kibitz.find(args.game).slug
    lines = winning_lines(slug, max(args.deals, args.browser_deals))
    print(f"kibitz web latency on {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores; {slug} deals {', '.join(str(d) for d, _ in lines)}")
    with tempfile.TemporaryDirectory(prefix="kibitz-latency-") as data_dir:
        process, url = start_server(Path(data_dir))
        try:
            results: dict[str, Any] = {"api": api_latencies(url, slug, lines[:args.deals])}
            if args.browser_deals:
                results["browser"] = browser_latencies(url, slug, lines[:args.browser_deals])
            loads = first_loads(url, slug, args.loads) if args.loads else None
            if args.reviews:
                busy, figures, seconds = under_reviews(url, slug, lines[:args.deals], args.reviews)
                results["reviews"] = busy
        finally:
            stop(process)
    for label, samples in results.items():
        if samples:
            report(label, samples)
    if args.reviews:
        ratio = statistics.median(results["reviews"]) / statistics.median(results["api"])
        print(f"while {args.reviews} reviews ran (their {figures[1]} figures arrived in {seconds:.0f} s, while the "
              f"moves were played): the median move took {ratio:.2f} times as long "
              f"({'within' if ratio <= 2 else 'OVER'} the 2x target)")
    for kind, samples in (loads or {}).items():
        report(f"load {kind}", samples, LOAD_TARGET_MS, "loads")


if __name__ == "__main__":
    main()
