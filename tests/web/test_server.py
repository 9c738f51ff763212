"""A real ``kibitz serve`` process: clients that leave, IPv6, and searches out of its way."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

import kibitz
from kibitz import native
from kibitz.solver import Limits, Outcome, solve

from .browser import start_server, stop

LONG_SEARCH_SECONDS = 10
LONG_SEARCH_POSITIONS = 600_000
"""Several times the positions the server's pure-Python search reaches in that time (about
8,000 a second in Kingsdown Eights on the 2-core test machine)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The address of a server on a fresh data folder, and its log (checked clean at the end)."""
    data_dir = tmp_path_factory.mktemp("kibitz-server")
    process, url = start_server(data_dir)
    try:
        yield url, data_dir / "server.log"
    finally:
        stop(process)
    log = (data_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception" not in log and "ERROR" not in log, log


def raw_request(url: str, data: bytes) -> socket.socket:
    """A socket to the server that has sent ``data`` (and nothing more yet)."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    connection = socket.create_connection((host.strip("[]"), int(port)))
    connection.sendall(data)
    return connection


def read_answer(connection: socket.socket, timeout: float = 30) -> bytes:
    """Everything the server sends on ``connection`` until it closes it (or ``timeout`` passes)."""
    connection.settimeout(timeout)
    chunks = []
    while True:
        try:
            chunk = connection.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def session_cpu_seconds(session: int) -> dict[int, float]:
    """CPU seconds used so far by each process of a session (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:   # fields after the name: state ppid pgrp session ...
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    return used


def server_pid(url: str) -> int:
    """The pid of the server listening at ``url`` (the tests start it as its session's leader)."""
    port = int(url.rsplit(":", 1)[1])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in command and str(port).encode() in command:
                return int(entry.name)
    raise AssertionError(f"no server process for port {port}")


def long_search_deal() -> int:
    """A Kingsdown Eights deal whose search runs long on any machine.

    The pick is the first deal left undecided after more positions than the server (pure
    Python, as the suite runs it) searches in its whole time: a count and not a time, so a
    loaded machine picks the same deal as a quiet one, and never a deal the server would
    decide while the test waits to interrupt it. Positions are counted alike in both builds,
    so the native one, where built, makes the pick quicker.
    """
    quick = native.load() is not None
    native.use("native" if quick else "python")
    try:
        game = kibitz.game("kingsdown-eights")
        for deal in range(1, 200):
            if solve(game.deal(deal), Limits(seconds=None, nodes=LONG_SEARCH_POSITIONS)).outcome is Outcome.UNKNOWN:
                return deal
    finally:
        native.use("python")
    raise AssertionError(f"every deal was decided within {LONG_SEARCH_POSITIONS:,} positions")


# -- clients that leave ------------------------------------------------------------------------

def test_a_client_that_leaves_mid_body_is_not_an_error(server: tuple[str, Path]) -> None:
    url, log = server
    for path in ("/api/games/duchess/new", "/api/play/doesnotexist1/move"):
        for _ in range(10):
            connection = raw_request(url, f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                          "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                                          '{"deal": '.encode())
            connection.close()
    time.sleep(0.5)
    assert httpx.get(f"{url}/api/games").status_code == 200
    assert "Traceback" not in log.read_text(errors="replace")


def test_stalled_clients_are_refused_in_time_and_others_go_on(server: tuple[str, Path]) -> None:
    url, _ = server
    stalled = {
        "body": raw_request(url, b"POST /api/games/duchess/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"),
        "head": raw_request(url, b"POST /api/games/duchess/new HTTP/1.1\r\nHost: 127.0."),
        "nothing": raw_request(url, b""),
    }
    try:
        started = time.monotonic()
        assert httpx.post(f"{url}/api/games/duchess/new", json={}).status_code == 201
        assert time.monotonic() - started < 5
        for what, connection in stalled.items():
            answer = read_answer(connection)
            assert answer.startswith(b"HTTP/1.1 408") and b'{"error":' in answer, (what, answer)
    finally:
        for connection in stalled.values():
            connection.close()


def test_a_request_that_is_not_http_gets_a_json_refusal(server: tuple[str, Path]) -> None:
    url, _ = server
    for garbage in (b"GARBAGE\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
                    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 70_000,   # a head too long
                    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n"):
        connection = raw_request(url, garbage)
        try:
            answer = read_answer(connection, 10)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head, answer
            assert b"not a valid HTTP request" in body
        finally:
            connection.close()


def test_ipv6_loopback(tmp_path: Path) -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")
    process, url = start_server(tmp_path, host="::1")
    try:
        assert url.startswith("http://[::1]:")
        created = httpx.post(f"{url}/api/games/parisienne/new", json={"deal": 5})
        assert created.status_code == 201, created.text
        assert httpx.get(f"{url}/api/play/{created.json()['id']}").json()["deal"] == "5"
        printed = (tmp_path / "server.log").read_text()
        assert url + "/" in printed
    finally:
        stop(process)


# -- searches ------------------------------------------------------------------------------------

def test_searches_run_outside_the_server_and_stop_when_unwanted(server: tuple[str, Path]) -> None:
    url, _ = server
    deal = long_search_deal()
    pid = server_pid(url)
    session = os.getsid(pid)
    games = [httpx.post(f"{url}/api/games/kingsdown-eights/new", json={"deal": deal}).json() for _ in range(2)]
    answers: dict[str, httpx.Response] = {}

    def search(game_id: str) -> None:   # the analysis mode's solver: it searches for its whole time
        answers[game_id] = httpx.post(f"{url}/api/play/{game_id}/winnable",
                                      json={"seconds": LONG_SEARCH_SECONDS, "peek": True}, timeout=60)

    threads = [threading.Thread(target=search, args=(g["id"],)) for g in games]
    for thread in threads:
        thread.start()
    time.sleep(1.0)   # both searches are running
    before = session_cpu_seconds(session)
    time.sleep(2.0)
    after = session_cpu_seconds(session)
    server_used = after.get(pid, 0) - before.get(pid, 0)
    workers_used = sum(after[p] - before.get(p, 0) for p in after if p != pid)
    # The searching happens in other processes (in the server itself it would take it all);
    # how much CPU they get depends on what else the machine runs, so only the share is checked.
    assert workers_used > 0.3 and server_used < workers_used / 4, (server_used, workers_used)

    # The first game moves on: its search stops at once, with a 409.
    started = time.monotonic()
    moved = httpx.post(f"{url}/api/play/{games[0]['id']}/move", json={"move": games[0]["legal"][0]})
    assert moved.status_code == 200
    threads[0].join(timeout=LONG_SEARCH_SECONDS)
    assert answers[games[0]["id"]].status_code == 409
    assert time.monotonic() - started < LONG_SEARCH_SECONDS / 2
    undone = httpx.post(f"{url}/api/play/{games[1]['id']}/move", json={"move": games[1]["legal"][0]})
    threads[1].join(timeout=LONG_SEARCH_SECONDS)
    assert answers[games[1]["id"]].status_code == 409 and undone.status_code == 200
    assert httpx.post(f"{url}/api/play/{games[1]['id']}/undo").status_code == 200

    # A client that leaves mid-search: its search stops, and no process of the server keeps working.
    body = f'{{"seconds": {LONG_SEARCH_SECONDS}, "peek": true}}'
    connection = raw_request(url, (f"POST /api/play/{games[1]['id']}/winnable HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                                   f"{body}").encode())
    time.sleep(1.0)
    connection.close()
    time.sleep(0.5)
    before = session_cpu_seconds(session)
    time.sleep(2.0)
    after = session_cpu_seconds(session)
    assert sum(after[p] - before.get(p, 0) for p in after) < 0.5
