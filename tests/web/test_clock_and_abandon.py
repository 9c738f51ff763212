"""The clock of active play, games given up, and how the static files are served."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from kibitz.web.store import DATABASE_NAME

from .conftest import TestClient, client_for
from .test_api import new, refused


def test_the_clock_follows_the_player_and_never_runs_ahead_of_time(client: TestClient) -> None:
    game = new(client)
    gid = game["id"]
    assert game["elapsed"] == 0
    time.sleep(0.3)
    # The page says 0.2 s of active play: taken as it is.
    data = client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0], "clock": 0.2}).json()
    assert data["elapsed"] == pytest.approx(0.2, abs=0.05)
    # A clock far ahead of the time gone by since is cut to that time; a clock going back is ignored.
    time.sleep(0.3)
    data = client.post(f"/api/play/{gid}/undo", json={"clock": 3600}).json()
    assert 0.45 < data["elapsed"] < 2
    before = data["elapsed"]
    assert client.post(f"/api/play/{gid}/clock", json={"clock": 0}).json()["elapsed"] == before
    refused(client.post(f"/api/play/{gid}/clock", json={"clock": "soon"}), 400)
    refused(client.post(f"/api/play/{gid}/clock", json={"clock": True}), 400)
    assert client.post(f"/api/play/{gid}/clock", json={"clock": 10**400}).status_code == 200


def test_the_clock_survives_a_restart_and_closed_tabs_do_not_count(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        game = new(client)
        gid = game["id"]
        client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0], "clock": 0.0})
        time.sleep(0.2)
        client.post(f"/api/play/{gid}/clock", json={"clock": 0.15})
    time.sleep(0.5)   # the tab is closed and the server down: no time counts
    with client_for(tmp_path) as client:
        shown = client.get(f"/api/play/{gid}").json()
        assert shown["elapsed"] == pytest.approx(0.15, abs=0.05)
        data = client.post(f"/api/play/{gid}/undo", json={"clock": 0.25}).json()
        assert data["elapsed"] == pytest.approx(0.25, abs=0.05)


def test_a_client_without_a_clock_counts_at_most_a_minute_between_actions(client: TestClient) -> None:
    game = new(client)
    gid = game["id"]
    play = client.app.state.referee.get(gid)  # type: ignore[attr-defined]
    play.clock_at -= 3600   # an hour since the last action
    data = client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0]}).json()
    assert 59 < data["elapsed"] < 62


def test_a_game_given_up_counts_as_lost_and_abandoned(client: TestClient) -> None:
    untouched = new(client)
    assert client.post(f"/api/play/{untouched['id']}/abandon").json()["result"] is None
    game = new(client, "cicely", 5)
    gid = game["id"]
    client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0], "clock": 0.0})
    data = client.post(f"/api/play/{gid}/abandon", json={}).json()
    assert data["result"] == "lost" and data["status"] == "playing"
    client.post(f"/api/play/{gid}/abandon")   # counted once only
    stats = client.get("/api/stats").json()
    assert stats["stats"] == [{"game": "cicely", "ruleset": "standard", "played": 1, "won": 0, "abandoned": 1,
                               "assisted": 0, "win_rate": 0.0, "current_streak": 0, "best_streak": 0, "best_time": None,
                               "fewest_moves": None, "reviewed": 0, "accuracy": None, "blunders_per_game": None,
                               "could_have_won": 0}]
    assert stats["recent"][0]["abandoned"] is True
    assert gid not in [g["id"] for g in client.get("/api/play").json()["games"]]
    assert client.get(f"/api/play/{untouched['id']}").json()["result"] is None   # kept, never counted


def test_a_database_of_schema_2_gains_the_clock_and_abandoned_columns(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DATABASE_NAME)
    db.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL,
            rules_version INTEGER NOT NULL, deal TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0,
            problem TEXT, created REAL NOT NULL, updated REAL NOT NULL);
        CREATE TABLE moves (game_id TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
        CREATE TABLE results (game_id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL,
            deal TEXT NOT NULL, record TEXT NOT NULL, result TEXT NOT NULL, seconds REAL NOT NULL,
            moves INTEGER NOT NULL, finished REAL NOT NULL);
        INSERT INTO games VALUES ('schema2-game', 'duchess', 'standard', 1, '4', 1, NULL, 1.0, 2.0);
        INSERT INTO moves VALUES ('schema2-game', 0, 'r1>f1');
        INSERT INTO results VALUES ('finished-one', 'duchess', 'standard', '3', '', 'won', 61.0, 90, 5.0);
        PRAGMA user_version = 2;
    """)
    db.close()
    with client_for(tmp_path) as client:
        shown = client.get("/api/play/schema2-game").json()
        assert shown["moves"] == 1 and shown["elapsed"] == 0
        assert client.get("/api/stats").json()["stats"][0]["abandoned"] == 0


def test_static_files_are_compressed_and_revalidated(client: TestClient) -> None:
    script = client.get("/static/app.js", headers={"accept-encoding": "gzip"})
    assert script.status_code == 200 and script.headers["content-encoding"] == "gzip"
    assert script.headers["cache-control"] == "no-cache" and script.headers.get("etag")
    again = client.get("/static/app.js", headers={"if-none-match": script.headers["etag"]})
    assert again.status_code == 304
    games = client.get("/api/games", headers={"accept-encoding": "gzip"})
    assert games.headers["content-encoding"] == "gzip"
