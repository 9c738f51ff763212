"""The full-screen table's speed: from a key press to the redrawn table, per game.

Driven by Textual's test pilot (a headless terminal of ``--size``): each game's deal
``--deal`` is played along a solver's winning line, up to ``--moves`` moves. Timed keys:

- *cursor*: an arrow key moving the cursor (one before each move);
- *move*: the key that plays a move (Enter putting down the picked-up card, or ``d`` dealing).

Each is timed two ways from the key press: *screen*, to the last frame the app wrote to its
(headless) terminal, which is what a player waits for; and *pilot*, to the end of
``await pilot.press(...)`` and ``await pilot.pause()``, which adds the pilot's own waits for
the process to fall idle (a key that does nothing takes about 60 ms this way: printed as
the floor).

Also the app's start: a new process importing the table (``kibitz.tui.screen.app``), and,
in this process, the time from making the app to its first table drawn. Figures in ms:
median and 90th percentile.

    .venv/bin/python benchmarks/screen_speed.py --moves 60
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import subprocess
import sys
import time

import kibitz
from kibitz.history import History
from kibitz.moves import Move
from kibitz.solver import Limits, solve
from kibitz.study.report import percentile
from kibitz.tui.screen.app import TableApp
from rich.console import RenderableType
from textual.pilot import Pilot
from textual.screen import Screen


def milliseconds(seconds: list[float]) -> str:
    """Median and 90th percentile, in ms."""
    if not seconds:
        return "      -       -"
    return f"{statistics.median(seconds) * 1000:7.1f} {percentile(seconds, 0.9) * 1000:7.1f}"


class Timer:
    """Times keys at one app: to its last frame written and to the pilot's return."""

    def __init__(self, app: TableApp, pilot: Pilot[None]) -> None:
        self.pilot = pilot
        self.frames: list[float] = []
        display = app._display

        def stamped(screen: Screen[object], renderable: RenderableType | None) -> None:
            display(screen, renderable)
            self.frames.append(time.perf_counter())

        app._display = stamped  # type: ignore[method-assign]

    async def press(self, *keys: str) -> tuple[float, float]:
        """Seconds from pressing ``keys`` to the last frame written, and to the pilot's return."""
        self.frames.clear()
        start = time.perf_counter()
        await self.pilot.press(*keys)
        await self.pilot.pause()
        end = time.perf_counter()
        return (self.frames[-1] if self.frames else end) - start, end - start


Times = dict[str, list[float]]


async def measure(slug: str, deal: int, moves: int, size: tuple[int, int]) -> tuple[float, Times]:
    """The start, and the times of each kind of key, for one game."""
    game = kibitz.game(slug)
    history = History.new(game, deal)
    line: list[Move] = list(solve(history.state, Limits(seconds=3)).moves)[:moves]
    times: Times = {kind: [] for kind in ("cursor screen", "cursor pilot", "move screen", "move pilot", "floor")}
    start = time.perf_counter()
    app = TableApp(history)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        started = time.perf_counter() - start
        timer = Timer(app, pilot)
        table = app.table
        for move in line:
            times["floor"].append((await timer.press("x"))[1])
            screen, round_trip = await timer.press("right")
            times["cursor screen"].append(screen)
            times["cursor pilot"].append(round_trip)
            count = history.move_count
            if move.is_deal:
                screen, round_trip = await timer.press("d")
            else:
                table.cursor = move.source
                await pilot.press("enter")
                table.cursor = move.target
                screen, round_trip = await timer.press("enter")
            times["move screen"].append(screen)
            times["move pilot"].append(round_trip)
            if history.move_count != count + 1 or history.moves[-1] != move:
                if history.move_count != count:
                    history.undo()
                app.picked = None
                history.play(move)   # a move the keys chose differently (several cards): kept on the line
                app.refresh_table()
                await pilot.pause()
    return started, times


def import_seconds() -> float:
    """A new process's time to start, import the table and exit (the best of three)."""
    def run() -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import kibitz.tui.screen.app"], check=True)
        return time.perf_counter() - start
    return min(run() for _ in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=11)
    parser.add_argument("--moves", type=int, default=60, help="moves played per game (default 60)")
    parser.add_argument("--size", default="120x40", help="the terminal, columns x lines (default 120x40)")
    arguments = parser.parse_args()
    width, height = (int(part) for part in arguments.size.split("x"))
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{arguments.size}, deal {arguments.deal}, up to {arguments.moves} moves per game")
    print(f"a new process importing the table: {import_seconds() * 1000:.0f} ms")
    kinds = ("cursor screen", "move screen", "cursor pilot", "move pilot", "floor")
    print(f"{'ms: median p90':<18}{'start':>7}" + "".join(f"{kind:>17}" for kind in kinds))
    everything: Times = {kind: [] for kind in kinds}
    for info in kibitz.games():
        started, times = asyncio.run(measure(info.slug, arguments.deal, arguments.moves, (width, height)))
        for kind in kinds:
            everything[kind].extend(times[kind])
        print(f"{info.slug:<18}{started * 1000:7.0f}" + "".join(f"{milliseconds(times[kind]):>17}" for kind in kinds),
              flush=True)
    print(f"{'all':<18}{'':>7}" + "".join(f"{milliseconds(everything[kind]):>17}" for kind in kinds))


if __name__ == "__main__":
    main()
