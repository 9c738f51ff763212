"""The referee against hostile and careless clients (through Starlette's test client):
numbers, hosts, cross-site requests, the store's cost per move, old databases, pruning."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import kibitz
from kibitz.history import History
from kibitz.moves import Move
from kibitz.records import format_record, parse_record, record_of
from kibitz.state import State
from kibitz.web.store import DATABASE_NAME, Play, Store

from .conftest import TestClient, client_for
from .test_api import new, refused

JSON = {"content-type": "application/json"}


def post(client: TestClient, path: str, body: bytes, **headers: str) -> Any:
    return client.post(path, content=body, headers=JSON | headers)


# -- numbers --------------------------------------------------------------------------------

@pytest.mark.parametrize("digits", ["1" + "0" * 400, "-1" + "0" * 400, "1e400", "-1e400"])
def test_search_seconds_of_any_size_are_brought_within_bounds(client: TestClient, digits: str) -> None:
    game = new(client, "grand-duchess", 3)
    for route in ("hint", "winnable"):
        response = post(client, f"/api/play/{game['id']}/{route}", f'{{"seconds": {digits}}}'.encode())
        assert response.status_code == 200, response.text
        assert response.json()["moves"] == 0


def test_huge_numbers_elsewhere_are_refused_as_json(client: TestClient) -> None:
    gid = new(client)["id"]
    big = "9" * 400
    refused(post(client, f"/api/play/{gid}/move", f'{{"move": "deal", "expected_moves": {big}}}'.encode()), 400)
    refused(post(client, f"/api/play/{gid}/undo", f'{{"expected_moves": -{big}}}'.encode()), 400)
    refused(post(client, "/api/games/duchess/new", f'{{"deal": {big}}}'.encode()), 400)
    refused(post(client, "/api/games/duchess/new", b'{"deal": 1e400}'), 400)
    refused(post(client, "/api/games/duchess/new", b'{"deal": NaN}'), 400)
    refused(post(client, "/api/games/duchess/new", ('{"deal": ' + "9" * 5000 + "}").encode()), 400)
    refused(client.post("/api/games/duchess/new", content=b"{}", headers=JSON | {"content-length": "9" * 30}), 413)


# -- hosts ----------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example",
                                  "[::2]:80", "localhost:notaport", "", "a@localhost", "[::1"])
def test_a_foreign_host_gets_a_json_refusal(client: TestClient, host: str) -> None:
    message = refused(client.get("/api/games", headers={"host": host}), 400)
    assert "answers only to" in message
    refused(client.post("/api/games/duchess/new", json={}, headers={"host": host}), 400)


@pytest.mark.parametrize("host", ["localhost", "localhost:8765", "127.0.0.1:1", "[::1]:8765", "[::1]",
                                  "LOCALHOST:8765"])
def test_every_name_of_this_computer_is_served(client: TestClient, host: str) -> None:
    assert client.get("/api/games", headers={"host": host}).status_code == 200
    response = client.post("/api/games/duchess/new", json={}, headers={"host": host})
    assert response.status_code == 201, response.text


def test_a_server_open_to_the_network_answers_ip_addresses_and_its_names(tmp_path: Path) -> None:
    from kibitz.web.commands import host_policy
    with client_for(tmp_path, host_policy("0.0.0.0", ["games.example"])) as client:
        for host in ("192.168.1.20:8765", "[fe80::1]:8765", "games.example", "localhost"):
            assert client.get("/api/games", headers={"host": host}).status_code == 200, host
        refused(client.get("/api/games", headers={"host": "rebound.example"}), 400)


# -- cross-site requests ---------------------------------------------------------------------

def state_changing_paths(client: TestClient) -> list[str]:
    gid = new(client)["id"]
    return ["/api/games/duchess/new"] + [f"/api/play/{gid}/{action}" for action in
                                         ("move", "undo", "redo", "restart", "autoplay", "hint", "winnable")]


def test_a_page_of_another_site_cannot_change_anything(client: TestClient) -> None:
    paths = state_changing_paths(client)
    before = client.get("/api/play").json()
    for path in paths:
        for body, content_type in ((b'{"move": "deal"}', "text/plain"),
                                   (b"move=deal", "application/x-www-form-urlencoded"),
                                   (b"--x\r\n\r\nmove\r\n--x--", "multipart/form-data; boundary=x")):
            assert "JSON" in refused(client.post(path, content=body, headers={"content-type": content_type}), 415)
        for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                        {"origin": "http://testserver.evil.example"}, {"sec-fetch-site": "cross-site"},
                        {"sec-fetch-site": "same-site"}, {"origin": "http://testserver", "sec-fetch-site": "cross-site"}):
            assert "refused" in refused(client.post(path, json={}, headers=headers), 403)
        refused(client.post(path, content=b'{"move": "deal"}'), 415)   # a body with no declared type
    assert client.get("/api/play").json() == before


def test_the_page_itself_and_command_line_clients_keep_working(client: TestClient) -> None:
    game = new(client)
    gid = game["id"]
    same_origin = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    response = client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0]}, headers=same_origin)
    assert response.status_code == 200, response.text
    response = post(client, f"/api/play/{gid}/undo", b"", **{"content-type": "application/json; charset=utf-8"})
    assert response.status_code == 200, response.text
    assert client.post(f"/api/play/{gid}/redo").status_code == 200   # no body, no type: curl -X POST
    assert client.get("/api/games", headers={"origin": "http://evil.example"}).status_code == 200


# -- the record and the store ------------------------------------------------------------------

def play_moves(client: TestClient, gid: str, count: int, seed: int = 1) -> list[str]:
    import random
    rng = random.Random(seed)
    played = []
    data = client.get(f"/api/play/{gid}").json()
    for _ in range(count):
        if not data["legal"]:
            break
        move = rng.choice(data["legal"])
        data = client.post(f"/api/play/{gid}/move", json={"move": move}).json()
        played.append(move)
    return played


def test_the_record_of_a_game_replays_to_what_it_shows(client: TestClient) -> None:
    game = new(client, "cicely", 11)
    played = play_moves(client, game["id"], 30)
    client.post(f"/api/play/{game['id']}/undo")
    response = client.get(f"/api/play/{game['id']}/record")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    history = parse_record(response.text).history()
    assert [str(m) for m in history.moves] == played[:-1]
    shown = client.get(f"/api/play/{game['id']}").json()
    assert shown["legal"] == [str(m) for m in history.state.legal_moves]
    refused(client.get("/api/play/doesnotexist1/record"), 404)


def back_and_forth(state: State) -> tuple[list[Move], Move, Move]:
    """Moves from ``state`` to a position where two moves undo each other, and those two."""
    import random
    rng = random.Random(7)
    for _ in range(50):
        line: list[Move] = []
        position = state
        while position.legal_moves and len(line) < 200:
            for move in position.legal_moves:
                after = position.apply(move)
                for back in after.legal_moves:
                    if after.apply(back) == position:
                        return line, move, back
            move = rng.choice(position.legal_moves)
            line.append(move)
            position = position.apply(move)
    raise AssertionError("no pair of moves that undo each other was found")


def test_a_move_costs_the_same_at_any_length_of_game(client: TestClient) -> None:
    """What the server sends SQLite for one move does not grow with the moves played before it."""
    game = new(client, "cicely", 4)
    gid = game["id"]
    referee = client.app.state.referee  # type: ignore[attr-defined]
    prefix, there, back = back_and_forth(referee.get(gid).history.state)
    written: list[str] = []
    referee.store._db.set_trace_callback(written.append)

    def cost(move: Move) -> int:
        written.clear()
        assert client.post(f"/api/play/{gid}/move", json={"move": str(move)}).status_code == 200
        return sum(len(statement) for statement in written)

    for move in prefix:
        cost(move)
    early = [cost(there), cost(back)]
    for _ in range(500):
        cost(there)
        cost(back)
    late = [cost(there), cost(back)]
    assert client.get(f"/api/play/{gid}").json()["moves"] == len(prefix) + 1004
    assert max(late) <= 2 * max(early), (early, late)


OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL, deal TEXT NOT NULL,
    record TEXT NOT NULL, redo TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE results (game_id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL, deal TEXT NOT NULL,
    record TEXT NOT NULL, result TEXT NOT NULL CHECK (result IN ('won', 'lost')), seconds REAL NOT NULL,
    moves INTEGER NOT NULL, finished REAL NOT NULL);
"""


def test_games_saved_by_the_first_schema_resume(tmp_path: Path) -> None:
    history = History.new(kibitz.game("tournament", "pysolfc"), 9)
    for _ in range(6):
        history.play(history.state.legal_moves[-1])
    line = history.moves
    history.undo()
    history.undo()
    db = sqlite3.connect(tmp_path / DATABASE_NAME)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               ("oldgame-0001", "tournament", "pysolfc", "9", format_record(record_of(history)),
                " ".join(str(m) for m in line[4:]), 100.0, 200.0))
    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               ("oldgame-0002", "tournament", "standard", "9", "not a record", "", 100.0, 200.0))
    db.commit()
    db.close()
    with client_for(tmp_path) as client:
        resumed = client.get("/api/play/oldgame-0001").json()
        assert resumed["moves"] == 4 and resumed["can_redo"] and resumed["ruleset"] == "pysolfc"
        assert client.post("/api/play/oldgame-0001/redo").json()["moves"] == 5
        assert "cannot be resumed" in refused(client.get("/api/play/oldgame-0002"), 410)


def test_finished_games_are_pruned_but_still_counted(tmp_path: Path) -> None:
    from kibitz.solver import Limits, Outcome, solve
    deal = next(n for n in range(1, 50)
                if solve(kibitz.game("grand-duchess").deal(n), Limits(seconds=2)).outcome is Outcome.WON)
    winning = solve(kibitz.game("grand-duchess").deal(deal), Limits(seconds=2)).moves
    with client_for(tmp_path) as client:
        game = new(client, "grand-duchess", deal)
        open_game = new(client, "duchess", 3)
        for move in winning:
            data = client.post(f"/api/play/{game['id']}/move", json={"move": str(move)}).json()
        assert data["status"] == "won"
        store = client.app.state.referee.store  # type: ignore[attr-defined]
        assert store.prune(now=time.time() + 29 * 86400) == 0
        assert store.prune(now=time.time() + 31 * 86400) == 1
        client.app.state.referee.cache.clear()  # type: ignore[attr-defined]
        refused(client.get(f"/api/play/{game['id']}"), 404)
        assert client.get(f"/api/play/{open_game['id']}").status_code == 200
        assert client.get("/api/stats").json()["stats"][0]["won"] == 1
        rows = sqlite3.connect(store.path).execute("SELECT COUNT(*) FROM moves").fetchone()
        assert rows == (0,)


def test_a_stored_move_that_is_not_legal_is_caught_on_loading(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        game = new(client, "duchess", 8)
        play_moves(client, game["id"], 5)
        store = client.app.state.referee.store  # type: ignore[attr-defined]
        with sqlite3.connect(store.path) as db:
            db.execute("UPDATE moves SET move = 't1>f8' WHERE game_id = ? AND ply = 3", (game["id"],))
        client.app.state.referee.cache.clear()  # type: ignore[attr-defined]
        message = refused(client.get(f"/api/play/{game['id']}"), 410)
        assert "move 4 (t1>f8)" in message
