"""A seeded sweep of hostile and careless requests against a real ``kibitz serve``.

Thousands of requests (two thousand and the races; ``KIBITZ_SWEEP_REQUESTS``
sets the number): malformed and oversized bodies, wrong types, huge numbers,
unknown ids, path traversal, foreign hosts, cross-site requests, wrong methods,
moves on finished games, conflicting moves and undo/redo races from several threads,
and clients that stall or vanish. It passes when no answer is a 5xx, every 4xx is a
JSON ``{"error": ...}``, the server's log holds no traceback, and every game, before
and after a restart of the server, is what its record gives when replayed.
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

import kibitz
from kibitz.records import parse_record
from kibitz.solver import Limits, Outcome, solve
from kibitz.web.referee import view_payload
from kibitz.web.store import Play

from .browser import start_server, stop

SEED = 20261201
REQUESTS = int(os.environ.get("KIBITZ_SWEEP_REQUESTS", "2000"))
"""Requests of the serial part of the sweep (the threads and raw sockets come on top);
``KIBITZ_SWEEP_REQUESTS`` sets more for a longer sweep."""
RACE_THREADS = 6
RACE_REQUESTS = 60
"""Requests of each racing thread."""

Check = Callable[[httpx.Response], None]


class Sweep:
    """The client side of the sweep: a seeded generator of requests and the checks of each answer."""

    def __init__(self, url: str, seed: int) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.client = httpx.Client(base_url=url, timeout=60)
        self.games: list[str] = []
        self.finished: list[str] = []
        self.statuses: dict[int, int] = {}
        self.lock = threading.Lock()

    # -- requests and their checks ---------------------------------------------------

    def check(self, response: httpx.Response) -> None:
        with self.lock:
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        where = f"{response.request.method} {response.request.url.path} -> {response.status_code}"
        assert response.status_code < 500, f"{where}: {response.text[:300]}"
        if response.status_code >= 400:
            assert response.headers.get("content-type", "").startswith("application/json"), where
            body = response.json()
            assert isinstance(body, dict) and set(body) == {"error"}, f"{where}: {body}"
            assert isinstance(body["error"], str) and body["error"].strip(), where
            assert "Traceback" not in body["error"], where

    def send(self, method: str, path: str, client: httpx.Client | None = None, **options: Any) -> httpx.Response:
        response = (client or self.client).request(method, path, **options)
        self.check(response)
        return response

    def post_json(self, path: str, body: Any, client: httpx.Client | None = None) -> httpx.Response:
        return self.send("POST", path, client, content=json.dumps(body).encode(),
                         headers={"content-type": "application/json"})

    # -- what the sweep sends -----------------------------------------------------------

    def new_game(self) -> None:
        info = self.rng.choice(kibitz.games())
        body: dict[str, Any] = {"ruleset": self.rng.choice(kibitz.RULESETS)}
        if self.rng.random() < 0.7:
            body["deal"] = self.rng.choice([self.rng.randint(1, 40_000), str(self.rng.randint(1, 10**19))])
        response = self.post_json(f"/api/games/{info.slug}/new", body)
        assert response.status_code == 201
        self.games.append(response.json()["id"])

    def game_id(self) -> str:
        return self.rng.choice(self.games + self.finished)

    def legal_move(self) -> None:
        gid = self.game_id()
        view = self.send("GET", f"/api/play/{gid}").json()
        body: dict[str, Any] = {"move": self.rng.choice(view["legal"]) if view["legal"] else "deal"}
        if self.rng.random() < 0.5:
            body["expected_moves"] = view["moves"] + self.rng.choice([0, 0, 0, 1, -1])
        if self.rng.random() < 0.2:
            body["auto"] = True
        self.post_json(f"/api/play/{gid}/move", body)

    def step(self) -> None:
        action = self.rng.choice(["undo", "undo", "redo", "redo", "restart", "autoplay"])
        body = {} if self.rng.random() < 0.7 else {"expected_moves": self.rng.randint(-2, 50)}
        self.post_json(f"/api/play/{self.game_id()}/{action}", body)

    def search(self) -> None:
        route = self.rng.choice(["hint", "winnable"])
        seconds = self.rng.choice([0.05, 0, -1, "1", None, 10**400, -10**400, 1e308, True])
        body = {} if seconds is None else {"seconds": seconds}
        if seconds not in (0.05, 0, -1, -10**400):   # long searches would only slow the sweep
            body = {"seconds": 0.05, "extra": seconds}
        self.post_json(f"/api/play/{self.game_id()}/{route}", body)

    def wrong_field(self) -> None:
        gid = self.game_id()
        value = self.rng.choice([None, True, False, 1.5, -1, 10**400, -10**400, 1e308, "", " ", "x" * 5000,
                                 [], {}, [1, 2], {"a": 1}, "t1>f1" * 9, "deal\x00", "\x1b[2J", "∞", "1e999"])
        field = self.rng.choice(["move", "expected_moves", "auto", "seconds", "deal", "ruleset", "nope"])
        path = self.rng.choice([f"/api/play/{gid}/move", f"/api/play/{gid}/undo", f"/api/play/{gid}/hint",
                                "/api/games/duchess/new", "/api/games/cicely/new"])
        body: dict[str, Any] = {field: value}
        if path.endswith("hint"):
            body["seconds"] = 0.05 if field == "seconds" else body.get("seconds", 0.05)
        self.post_json(path, body)

    def malformed_body(self) -> None:
        gid = self.game_id()
        path = self.rng.choice([f"/api/play/{gid}/move", f"/api/play/{gid}/redo", "/api/games/tournament/new"])
        body = self.rng.choice([
            b"{", b"}", b"[]", b"null", b"42", b'"move"', b'{"move": "deal"', b'{"move": deal}',
            b"[" * 100_000, b"{" * 3000 + b"}" * 3000, b'{"a":' * 2000 + b"1" + b"}" * 2000,
            bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 300))),
            b"\xef\xbb\xbf{}", b'{"move": "\xff\xfe"}', b"\x00" * 50, b" " * 20000,
            json.dumps({"move": "deal", "pad": "x" * 17000}).encode(),
            b'{"move": "deal", "move": "t1>f1"}', b'{"expected_moves": 1' + b"0" * 5000 + b"}"])
        self.send("POST", path, content=body, headers={"content-type": "application/json"})

    def strange_path(self) -> None:
        gid = self.game_id()
        path = self.rng.choice([
            "/api/play/../../etc/passwd", "/api/play/%2e%2e%2f%2e%2e%2fetc", "/api/play/" + "a" * 5000,
            "/api/play/" + gid + "%00", "/api/play/" + gid + "/../../games", "/api/play/ünïcödé-id-1",
            "/api/play/" + gid.upper(), "/api/play/doesnotexist1/undo", "/api/games/../games/duchess/new",
            "/api/rules/..%2f..%2fpyproject.toml", "/api/rules/" + "x" * 300, "/api/nothing",
            "/static/../web/app.py", "/static/%2e%2e/app.py", "/api/play/" + gid + "/record/extra",
            "/api/games/duchess/new?deal=1", "/api/stats/../play", "/api/play/%ff%fe"])
        method = self.rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
        response = self.send(method, path, headers={"content-type": "application/json"}, content=b"{}")
        if path.startswith("/static/") and response.status_code == 200:
            assert "def create_app" not in response.text, path

    def foreign(self) -> None:
        gid = self.game_id()
        headers = self.rng.choice([
            {"host": "evil.example"}, {"host": "127.0.0.1.evil.example:80"}, {"host": ""},
            {"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"},
            {"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"},
            {"content-type": "multipart/form-data; boundary=x"}, {"content-type": "application/jsonp"}])
        path = self.rng.choice([f"/api/play/{gid}/move", "/api/games/duchess/new", f"/api/play/{gid}/undo"])
        response = self.send("POST", path, content=b'{"move": "deal"}',
                             headers={"content-type": "application/json"} | headers)
        assert response.status_code in (400, 403, 415), response.text

    def finished_game(self) -> None:
        gid = self.rng.choice(self.finished)
        self.post_json(f"/api/play/{gid}/move", {"move": self.rng.choice(["deal", "t1>f1", "w>t1", "r1>f"])})

    def run(self, count: int) -> None:
        actions: list[tuple[Callable[[], None], float]] = [
            (self.new_game, 0.02), (self.legal_move, 0.35), (self.step, 0.12), (self.search, 0.01),
            (self.wrong_field, 0.14), (self.malformed_body, 0.1), (self.strange_path, 0.1),
            (self.foreign, 0.08), (self.finished_game, 0.08)]
        for _ in range(count):
            action = self.rng.choices([a for a, _ in actions], [w for _, w in actions])[0]
            action()


# -- clients that race, stall and vanish ----------------------------------------------------------

def race(sweep: Sweep, game_ids: list[str], seed: int) -> None:
    """One thread's conflicting moves, undos and redos on a few shared games."""
    rng = random.Random(seed)
    with httpx.Client(base_url=sweep.url, timeout=60) as client:
        for _ in range(RACE_REQUESTS):
            gid = rng.choice(game_ids)
            action = rng.choice(["move", "move", "undo", "redo", "restart", "autoplay"])
            if action == "move":
                view = sweep.send("GET", f"/api/play/{gid}", client).json()
                if view["legal"]:
                    sweep.post_json(f"/api/play/{gid}/move",
                                    {"move": rng.choice(view["legal"]), "expected_moves": view["moves"]}, client)
            else:
                sweep.post_json(f"/api/play/{gid}/{action}", {}, client)


def vanish(url: str, seed: int) -> None:
    """Clients that leave mid-request, send garbage, or stall until the server gives up on them."""
    rng = random.Random(seed)
    host, port = url.removeprefix("http://").rsplit(":", 1)
    openings = [
        b"POST /api/games/duchess/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{\"deal\": 1",
        b"POST /api/games/duchess/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"dea",
        b"GET /api/games HTTP/1.1\r\nHost: 127.",
        b"POST /api/play/doesnotexist1/move HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",   # a TLS hello
        b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 70_000 + b"\r\n\r\n",
        b"BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"]
    stalled = []
    for _ in range(40):
        connection = socket.create_connection((host, int(port)))
        connection.sendall(rng.choice(openings))
        if rng.random() < 0.15:
            stalled.append(connection)   # left open: the server must time it out or keep serving others
        else:
            connection.close()
    for connection in stalled:
        connection.settimeout(30)
        answer = b""
        while b"\r\n\r\n" not in answer:   # the head of the answer, however it is split
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
        connection.close()
        head = answer.partition(b"\r\n\r\n")[0].lower()
        assert head.startswith(b"http/1.1 "), answer[:200]
        status = int(head[9:12])
        assert status < 500 and (status < 400 or b"content-type: application/json" in head), answer[:300]


# -- the sweep ------------------------------------------------------------------------------------

def expected_views(url: str, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each game as the server shows it, checked against its record replayed (a random deal in
    progress refuses its record, which holds its number: it is checked to show no number)."""
    views = {}
    with httpx.Client(base_url=url, timeout=60) as client:
        for gid in game_ids:
            shown = client.get(f"/api/play/{gid}").json()
            record = client.get(f"/api/play/{gid}/record")
            if shown["deal"] is None:
                assert shown["random_deal"] and shown["result"] is None and record.status_code == 403
            else:
                history = parse_record(record.text).history()
                replayed = view_payload(gid, Play(history, 0.0))
                for field in ("piles", "legal", "moves", "round", "base", "redeals_left", "status"):
                    assert shown[field] == replayed[field], f"{gid}: {field} differs from its record replayed"
            views[gid] = {field: shown[field] for field in ("piles", "legal", "moves", "can_undo", "can_redo", "deal")}
    return views


def winning_line(slug: str) -> tuple[int, list[str]]:
    game = kibitz.game(slug)
    for deal in range(1, 100):
        result = solve(game.deal(deal), Limits(seconds=2))
        if result.outcome is Outcome.WON:
            return deal, [str(m) for m in result.moves]
    raise AssertionError("no deal won within two seconds")


def run_sweep(url: str) -> Sweep:
    """The whole sweep against the server at ``url``: serial requests, racing threads, vanishing clients."""
    sweep = Sweep(url, SEED)
    for _ in range(12):
        sweep.new_game()
    deal, moves = winning_line("grand-duchess")
    won = sweep.post_json("/api/games/grand-duchess/new", {"deal": deal}).json()["id"]
    for move in moves:
        sweep.post_json(f"/api/play/{won}/move", {"move": move})
    sweep.finished.append(won)
    assert sweep.send("GET", f"/api/play/{won}").json()["status"] == "won"

    errors: list[BaseException] = []

    def guarded(target: Callable[..., None], *args: Any) -> threading.Thread:
        def run() -> None:
            try:
                target(*args)
            except BaseException as error:
                errors.append(error)
        return threading.Thread(target=run)

    shared = sweep.games[:3]
    threads = [guarded(race, sweep, shared, SEED + k) for k in range(RACE_THREADS)]
    threads.append(guarded(vanish, url, SEED))
    for thread in threads:
        thread.start()
    sweep.run(REQUESTS)
    for thread in threads:
        thread.join()
    sweep.client.close()
    assert not errors, errors
    return sweep


def test_hostile_sweep(tmp_path: Path) -> None:
    process, url = start_server(tmp_path)
    try:
        sweep = run_sweep(url)
        total = sum(sweep.statuses.values())
        assert total >= REQUESTS, sweep.statuses
        assert {200, 201, 400, 403, 404, 405, 409, 413, 415, 422} <= set(sweep.statuses), sweep.statuses
        before = expected_views(url, sweep.games + sweep.finished)
    finally:
        stop(process)
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception" not in log and "ERROR" not in log, log[-3000:]
    process, url = start_server(tmp_path)   # the same data folder: every game as it was
    try:
        assert expected_views(url, list(before)) == before
    finally:
        stop(process)
