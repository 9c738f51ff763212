"""``kill -9`` in the middle of play: every acknowledged move survives, and the database is sound."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path

import httpx

from kibitz.records import parse_record
from kibitz.web.store import DATABASE_NAME

from .browser import start_server

CYCLES = 3
PLAYERS = 4
PLAY_SECONDS = 1.5


class Player:
    """A client playing one game: moves and undos, remembering the line the server acknowledged."""

    def __init__(self, url: str, game_id: str, line: list[str], seed: int) -> None:
        self.url = url
        self.game_id = game_id
        self.acknowledged = list(line)
        self.in_flight: str | None = None
        """The request sent but not yet answered when the server died: a move, or ``undo``."""
        self.rng = random.Random(seed)
        self.answered = 0
        self.error: str | None = None

    def play(self, until: float) -> None:
        with httpx.Client(base_url=self.url, timeout=10) as client:
            try:
                legal = client.get(f"/api/play/{self.game_id}").json()["legal"]
                while time.monotonic() < until:
                    if legal and (self.rng.random() < 0.85 or not self.acknowledged):
                        self.in_flight = self.rng.choice(legal)
                        response = client.post(f"/api/play/{self.game_id}/move", json={"move": self.in_flight})
                    else:
                        self.in_flight = "undo"
                        response = client.post(f"/api/play/{self.game_id}/undo")
                    if response.status_code != 200:
                        self.error = f"{self.in_flight}: {response.status_code} {response.text}"
                        return
                    if self.in_flight == "undo":
                        self.acknowledged.pop()
                    else:
                        self.acknowledged.append(self.in_flight)
                    self.in_flight = None
                    self.answered += 1
                    legal = response.json()["legal"]
            except httpx.TransportError:
                pass   # the server was killed

    def possible_lines(self) -> list[list[str]]:
        """What the server may hold: the acknowledged line, or that line after the unanswered request."""
        lines = [self.acknowledged]
        if self.in_flight == "undo" and self.acknowledged:
            lines.append(self.acknowledged[:-1])
        elif self.in_flight is not None:
            lines.append(self.acknowledged + [self.in_flight])
        return lines


def test_acknowledged_moves_survive_kill_9(tmp_path: Path) -> None:
    process, url = start_server(tmp_path)
    games = [("grand-duchess", 11), ("duchess", 12), ("cicely", 13), ("kingsdown-eights", 14)]
    ids = [httpx.post(f"{url}/api/games/{slug}/new", json={"deal": deal}).json()["id"] for slug, deal in games]
    lines: dict[str, list[str]] = {gid: [] for gid in ids}
    answered = 0
    for cycle in range(CYCLES):
        players = [Player(url, gid, lines[gid], seed=cycle * 10 + k) for k, gid in enumerate(ids)]
        until = time.monotonic() + PLAY_SECONDS
        threads = [threading.Thread(target=p.play, args=(until + 10,)) for p in players]
        for thread in threads:
            thread.start()
        time.sleep(max(0.0, until - time.monotonic()))
        os.killpg(process.pid, signal.SIGKILL)   # the server and its search workers, mid-request
        process.wait()
        for thread in threads:
            thread.join()
        answered += sum(p.answered for p in players)
        assert [p.error for p in players] == [None] * len(players)

        with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        process, url = start_server(tmp_path)
        for player in players:
            record = httpx.get(f"{url}/api/play/{player.game_id}/record")
            assert record.status_code == 200, record.text
            kept = [str(m) for m in parse_record(record.text).moves]
            assert kept in player.possible_lines(), f"cycle {cycle}: {player.game_id} lost acknowledged moves"
            lines[player.game_id] = kept
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert answered > 50 * CYCLES, f"only {answered} moves were played: the test did not exercise the server"
