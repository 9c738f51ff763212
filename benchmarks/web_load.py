"""Move latency of the browser player's server under load, idle and with long searches running.

Starts ``kibitz serve`` on a free port with a temporary data folder; 50 clients (each
with its own connection and its own game) play as fast as the server answers them: a
random legal move, or one move undone in five (so that games stay mid-way and the mix
of requests stays the same all along). Measured twice, side by side in one run:

* idle: only the clients' moves;
* searching: the same, while two long searches (the analysis mode's "still winnable?",
  the solver at the 10-second limit, on deals it does not decide in that time) run on
  two other games, a new one started whenever one ends.

Prints p50 and p99 latency per move and requests per second of each phase, and the
ratio of the two. Target: with the searches, p50 and p99 within 2x of idle.

    .venv/bin/python benchmarks/web_load.py [--clients 50] [--seconds 15] [--searches 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

import kibitz
from kibitz.solver import Limits, Outcome, solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web.browser import start_server, stop  # noqa: E402  (the tests' server driver)

GAMES = ["cicely", "duchess", "tournament", "kingsdown-eights", "parisienne", "napoleons-flank"]
SEARCH_SECONDS = 10.0
TARGET_RATIO = 2.0


def long_search_deals(count: int, first: int) -> list[int]:
    """Kingsdown Eights deals from ``first`` on that the solver does not decide in two seconds."""
    game = kibitz.game("kingsdown-eights")
    deals: list[int] = []
    deal = first
    while len(deals) < count:
        if solve(game.deal(deal), Limits(seconds=2)).outcome is Outcome.UNKNOWN:
            deals.append(deal)
        deal += 1
    return deals


class Load:
    """Clients playing moves; each records (time sent, latency) of every move."""

    def __init__(self, url: str, clients: int, seed: int) -> None:
        self.url = url
        self.clients = clients
        self.rng = random.Random(seed)
        self.samples: list[tuple[float, float]] = []
        self.errors = 0
        self.running = True
        self.searches_done = 0

    async def client(self, number: int) -> None:
        rng = random.Random(self.rng.random())
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as http:
            slug = GAMES[number % len(GAMES)]
            view = (await http.post(f"/api/games/{slug}/new", json={"deal": rng.randint(1, 30000)})).json()
            while self.running:
                if view["legal"] and (rng.random() < 0.8 or not view["can_undo"]):
                    path, body = f"/api/play/{view['id']}/move", {"move": rng.choice(view["legal"])}
                elif view["can_undo"]:
                    path, body = f"/api/play/{view['id']}/undo", {}
                else:
                    path, body = f"/api/play/{view['id']}/restart", {}
                sent = time.perf_counter()
                response = await http.post(path, json=body)
                self.samples.append((sent, time.perf_counter() - sent))
                if response.status_code != 200:
                    self.errors += 1
                    view = (await http.get(f"/api/play/{view['id']}")).json()
                else:
                    view = response.json()

    async def searcher(self, deals: list[int]) -> None:
        """Keep one long search running on a game of its own."""
        async with httpx.AsyncClient(base_url=self.url, timeout=120) as http:
            while self.running:
                deal = deals.pop(0)
                deals.append(deal)
                game = (await http.post("/api/games/kingsdown-eights/new", json={"deal": deal})).json()
                await http.post(f"/api/play/{game['id']}/winnable", json={"seconds": SEARCH_SECONDS, "peek": True})
                self.searches_done += 1


def summary(samples: list[float], seconds: float) -> tuple[float, float, float]:
    """p50 and p99 in milliseconds, and requests per second."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return statistics.median(ordered) * 1000, p99 * 1000, len(ordered) / seconds


async def measure(url: str, clients: int, seconds: float, searches: int, deals: list[int]) -> dict[str, tuple[float, float, float]]:
    load = Load(url, clients, seed=1)
    tasks = [asyncio.create_task(load.client(k)) for k in range(clients)]
    await asyncio.sleep(5.0)   # every client has its game and plays
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    idle = [latency for sent, latency in load.samples if start <= sent < start + seconds]
    searchers = [asyncio.create_task(load.searcher(deals[k::searches])) for k in range(searches)]
    await asyncio.sleep(2.0)   # the searches are running
    start_busy = time.perf_counter()
    await asyncio.sleep(seconds)
    busy = [latency for sent, latency in load.samples if start_busy <= sent < start_busy + seconds]
    load.running = False
    for task in searchers:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*searchers, return_exceptions=True)
    if load.errors:
        print(f"note: {load.errors} moves were refused (should be none)")
    print(f"{load.searches_done} searches ended during the second phase, {searches} running all along")
    return {"idle": summary(idle, seconds), f"{searches} searches": summary(busy, seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50, help="clients playing moves (default 50)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase (default 15)")
    parser.add_argument("--searches", type=int, default=2, help="long searches running in the second phase")
    parser.add_argument("--first-deal", type=int, default=50001,
                        help="Kingsdown Eights deals for the searches are taken from here on (default 50001)")
    args = parser.parse_args()
    deals = long_search_deals(max(2, args.searches) * 2, args.first_deal)
    print(f"kibitz web load on {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores; {args.clients} clients; searches on Kingsdown Eights deals "
          f"{', '.join(map(str, deals))} ({SEARCH_SECONDS:.0f} s each)")
    with tempfile.TemporaryDirectory(prefix="kibitz-load-") as data_dir:
        process, url = start_server(Path(data_dir))
        try:
            results = asyncio.run(measure(url, args.clients, args.seconds, args.searches, deals))
        finally:
            stop(process)
    for label, (p50, p99, rate) in results.items():
        print(f"{label:12} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   {rate:6.0f} moves/s")
    (idle_p50, idle_p99, _), (busy_p50, busy_p99, _) = results.values()
    ratio = max(busy_p50 / idle_p50, busy_p99 / idle_p99)
    print(f"with searches / idle: p50 {busy_p50 / idle_p50:.2f}x, p99 {busy_p99 / idle_p99:.2f}x "
          f"({'within' if ratio <= TARGET_RATIO else 'OVER'} the {TARGET_RATIO:.0f}x target)")


if __name__ == "__main__":
    main()
