"""One store with the browser: a game started in the browser continues at the full-screen table
with its moves and position, a move played there reaches the browser, a game won there counts in
the browser's statistics, the statistics screen shows the browser's figures, and ``kibitz play``
without a terminal stays the line player."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import kibitz
from kibitz.cli import main
from kibitz.history import History
from kibitz.moves import parse_move
from kibitz.solver import Limits, Outcome, solve
from kibitz.tui.screen.app import TableApp
from kibitz.tui.screen.stats import StatisticsScreen
from kibitz.tui.screen.stored import MOVED_ELSEWHERE, GameKeeper
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kibitz.web.app import LOCAL_HOSTS, create_app  # noqa: E402

from .pilot import Scenario, drive, status


def browser(data_dir: Path) -> TestClient:
    """The browser's side: a new server on ``data_dir`` (nothing of an earlier one in memory)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(data_dir, LOCAL_HOSTS))


def close(client: TestClient) -> None:
    client.app.state.referee.store.close()  # type: ignore[attr-defined]


def at_table(keeper: GameKeeper, game_id: str, scenario: Scenario) -> TableApp:
    """Open stored game ``game_id`` at the table and run ``scenario`` there."""
    play = keeper.resume(game_id)
    return drive(TableApp(play.history, chosen=play.chosen, keeper=keeper), scenario)


async def type_move(pilot: Pilot[None], move: str) -> None:
    await pilot.press("colon", *move, "enter")
    await pilot.pause()


def winning_moves(slug: str, deal: int) -> list[str]:
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=10))
    assert result.outcome is Outcome.WON
    return [str(m) for m in result.moves]


def test_a_browser_game_continues_at_the_table_and_back(tmp_path: Path) -> None:
    web = browser(tmp_path)
    moves = winning_moves("duchess", 3)
    game = web.post("/api/games/duchess/new", json={"ruleset": "standard", "deal": 3}).json()
    gid = game["id"]
    for move in moves[:4]:
        web.post(f"/api/play/{gid}/move", json={"move": move}).raise_for_status()
    seen = web.post(f"/api/play/{gid}/undo").json()   # three moves played, the fourth one undone
    close(web)

    keeper = GameKeeper(tmp_path)

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        history = app.history
        assert [str(m) for m in history.moves] == moves[:3] and [str(m) for m in history.line] == moves[:4]
        assert app.table.view == history.state.view()
        assert sorted(history.state.legal_moves) == sorted(parse_move(m) for m in seen["legal"])
        assert "3 moves" in status(app)
        await pilot.press("r")                     # redo: the browser's undone move
        assert history.move_count == 4
        await type_move(pilot, moves[4])
        assert history.move_count == 5

    at_table(keeper, gid, scenario)
    keeper.close()

    web = browser(tmp_path)
    view = web.get(f"/api/play/{gid}").json()
    assert view["moves"] == 5 and view["can_undo"] and not view["can_redo"]
    assert view["elapsed"] >= 0
    listed = {g["id"]: g for g in web.get("/api/play").json()["games"]}
    assert listed[gid]["moves"] == 5
    web.post(f"/api/play/{gid}/move", json={"move": moves[5]}).raise_for_status()   # and on in the browser
    close(web)
    keeper = GameKeeper(tmp_path)
    assert keeper.resume(gid).history.move_count == 6
    keeper.close()


def test_a_game_won_at_the_table_counts_in_the_browsers_statistics(tmp_path: Path) -> None:
    moves = winning_moves("duchess", 1)
    keeper = GameKeeper(tmp_path)
    play = keeper.start(History.new(kibitz.game("duchess"), 1), chosen=True)
    gid = keeper.game_id
    assert gid is not None
    app = TableApp(play.history, keeper=keeper)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.pause()
        for move in moves[:-1]:
            app.play(parse_move(move))
        await type_move(pilot, moves[-1])
        assert app.history.state.is_won() and "You won" in status(app)
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        table = screen.query_one(DataTable)
        assert table.get_row_at(0)[:5] == ["Duchess", "standard", "1", "1", "100%"]
        assert table.get_row_at(0)[-1] == str(len(moves))
        await pilot.press("escape")
        assert not isinstance(app.screen, StatisticsScreen)

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await scenario(pilot)

    asyncio.run(drive())
    keeper.close()

    web = browser(tmp_path)
    stats = web.get("/api/stats").json()
    row = next(r for r in stats["stats"] if r["game"] == "duchess")
    assert (row["played"], row["won"], row["current_streak"], row["fewest_moves"]) == (1, 1, 1, len(moves))
    assert stats["recent"][-1]["id"] == gid and stats["recent"][-1]["result"] == "won"
    assert web.get(f"/api/play/{gid}").json()["result"] == "won"
    close(web)


def test_a_game_moved_on_elsewhere_is_not_overwritten(tmp_path: Path) -> None:
    moves = winning_moves("duchess", 3)
    keeper = GameKeeper(tmp_path)
    play = keeper.start(History.new(kibitz.game("duchess"), 3), chosen=False)
    gid = keeper.game_id
    play.history.play(moves[0])
    assert keeper.keep(play.history) is None
    web = browser(tmp_path)
    web.post(f"/api/play/{gid}/move", json={"move": moves[1]}).raise_for_status()
    close(web)
    play.history.undo()
    assert keeper.keep(play.history) == MOVED_ELSEWHERE
    keeper.close()
    again = GameKeeper(tmp_path)
    assert [str(m) for m in again.resume(str(gid)).history.moves] == moves[:2]
    assert again.open_games()[0]["deal"] is None   # a random deal's number stays withheld
    again.close()


def test_a_new_deal_at_the_table_gives_the_started_one_up(tmp_path: Path) -> None:
    keeper = GameKeeper(tmp_path)
    play = keeper.start(History.new(kibitz.game("duchess"), 3), chosen=True)
    first = keeper.game_id
    play.history.play(winning_moves("duchess", 3)[0])
    keeper.keep(play.history)
    fresh = History.new(kibitz.game("cicely"), 2)
    keeper.keep(fresh, chosen=True)
    assert keeper.game_id != first and keeper.play is not None and keeper.play.history is fresh
    [row] = keeper.statistics()
    assert (row["game"], row["played"], row["won"], row["abandoned"]) == ("duchess", 1, 0, 1)
    keeper.close()


def test_statistics_without_a_store_say_so() -> None:
    app = TableApp(History.new(kibitz.game("duchess"), 3))

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, StatisticsScreen)
            assert "kept only" in str(app.screen.query_one("#stats-empty", Static).render())

    asyncio.run(drive())


def test_play_without_a_terminal_stays_the_line_player(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "kibitz", "play", "duchess", "--deal", "1",
                             "--data-dir", str(tmp_path)],
                            input="quit\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "Duchess" in result.stdout and "\x1b[?1049h" not in result.stdout
    assert not (tmp_path / "kibitz-web.db").exists()   # the line player keeps nothing


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_full_screen_only_at_a_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    opened: list[Any] = []
    monkeypatch.setattr("kibitz.tui.screen.launch.run_table",
                        lambda keeper, play, args, out: opened.append(play) or 0)
    monkeypatch.setattr(sys, "stdin", Terminal("quit\n"))
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main(["play", "duchess", "--deal", "1", "--data-dir", str(tmp_path)]) == 0
    assert len(opened) == 1 and opened[0].history.deal_number == 1
    monkeypatch.setattr(sys, "stdin", Terminal("quit\n"))
    assert main(["play", "duchess", "--deal", "1", "--plain", "--data-dir", str(tmp_path)]) == 0
    assert len(opened) == 1
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stdin", Terminal("quit\n"))
    assert main(["play", "duchess", "--deal", "1", "--data-dir", str(tmp_path)]) == 0
    assert len(opened) == 1
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(["play", "--plain", "--continue"]) == 2
    assert main(["play", "duchess", "--continue"]) == 2


def test_continue_lists_the_games_in_progress(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    web = browser(tmp_path)
    gid = web.post("/api/games/cicely/new", json={"ruleset": "standard", "deal": 2}).json()["id"]
    legal = web.get(f"/api/play/{gid}").json()["legal"]
    web.post(f"/api/play/{gid}/move", json={"move": legal[0]}).raise_for_status()
    close(web)
    opened: list[Any] = []
    monkeypatch.setattr("kibitz.tui.screen.launch.run_table",
                        lambda keeper, play, args, out: opened.append(keeper.game_id) or 0)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("7\n1\n"))
    assert main(["play", "--continue", "--data-dir", str(tmp_path)]) == 0
    assert opened == [gid]
    assert "1. Cicely (standard), deal 2, 1 move" in out.getvalue() and "from 1 to 1" in out.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(["play", "--game-id", "nosuchgame1", "--data-dir", str(tmp_path)]) == 2
    assert "no such game" in sys.stderr.getvalue()
