"""Which games the browser player keeps, the statistics' reset, and records saved and opened
over the API (the browser's side: ``test_games_and_stats.py``)."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import kibitz
from kibitz import records
from kibitz.history import History
from kibitz.moves import parse_move
from kibitz.solver import Limits, Outcome, solve
from kibitz.web.saves import MAX_OPEN_BYTES
from kibitz.web.store import UNTOUCHED_KEEP_SECONDS

from .conftest import TestClient
from .test_api import new, refused


def start(client: TestClient, slug: str, deal: int, leaving: str | None = None) -> dict[str, Any]:
    """A new game of ``slug`` deal ``deal``, started by a page that leaves game ``leaving``."""
    response = client.post(f"/api/games/{slug}/new", json={"deal": deal, "leaving": leaving})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def listed(client: TestClient) -> list[str]:
    return [g["id"] for g in client.get("/api/play").json()["games"]]


def move(client: TestClient, game_id: str, text: str) -> dict[str, Any]:
    response = client.post(f"/api/play/{game_id}/move", json={"move": text})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def winning_moves(slug: str, deal: int) -> list[str]:
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=10))
    assert result.outcome is Outcome.WON
    return [str(m) for m in result.moves]


def send(client: TestClient, raw: bytes, name: str = "saved.kibitz", **fields: Any) -> Any:
    return client.post("/api/records", json={"name": name, "data": base64.b64encode(raw).decode("ascii"), **fields})


def test_an_untouched_game_is_not_kept_once_another_starts(client: TestClient) -> None:
    store = client.app.state.referee.store  # type: ignore[attr-defined]
    first = new(client, "duchess", 3)
    second = start(client, "cicely", 4, leaving=first["id"])
    assert refused(client.get(f"/api/play/{first['id']}"), 404) == "no such game"   # gone, from memory too
    # Another page's untouched game, seen lately, outlives the start of a game elsewhere ...
    third = new(client, "tournament", 5)
    assert client.get(f"/api/play/{second['id']}").status_code == 200
    # ... but not an hour without play.
    store._run("UPDATE games SET updated = updated - ? WHERE id = ?", (UNTOUCHED_KEEP_SECONDS + 1, second["id"]))
    played = new(client, "duchess", 6)
    refused(client.get(f"/api/play/{second['id']}"), 404)
    assert client.get(f"/api/play/{third['id']}").status_code == 200
    # A move, even undone, keeps a game (it can be played again); and only such games are listed.
    move(client, played["id"], played["legal"][0])
    client.post(f"/api/play/{played['id']}/restart")
    given_up = start(client, "cicely", 7, leaving=played["id"])
    move(client, given_up["id"], given_up["legal"][0])
    client.post(f"/api/play/{given_up['id']}/abandon")
    store._run("UPDATE games SET updated = 0")
    start(client, "grand-duchess", 8, leaving=given_up["id"])
    assert client.get(f"/api/play/{played['id']}").json()["can_redo"] is True
    assert client.get(f"/api/play/{given_up['id']}").json()["result"] == "lost"
    refused(client.get(f"/api/play/{third['id']}"), 404)
    assert listed(client) == [played["id"]]
    assert "leaving" in refused(client.post("/api/games/duchess/new", json={"leaving": 5}), 400)


def test_the_games_in_progress_show_their_clock_and_are_given_up_from_the_list(client: TestClient) -> None:
    game = new(client, "cicely", 5)
    gid = game["id"]
    client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0], "clock": 0.0})
    client.post(f"/api/play/{gid}/clock", json={"clock": 0.0})
    entry = client.get("/api/play").json()["games"][0]
    assert entry["id"] == gid and entry["moves"] == 1 and entry["deal"] == "5" and entry["seconds"] == 0.0
    assert entry["updated"] > 0
    assert client.post(f"/api/play/{gid}/abandon", json={}).json()["result"] == "lost"
    assert listed(client) == []
    recent = client.get("/api/stats").json()["recent"]
    assert [(r["id"], r["result"], r["abandoned"]) for r in recent] == [(gid, "lost", True)]


def test_resetting_the_statistics_removes_every_result_and_nothing_counts_twice(client: TestClient) -> None:
    lost = new(client, "cicely", 5)
    move(client, lost["id"], lost["legal"][0])
    client.post(f"/api/play/{lost['id']}/abandon")
    won = new(client, "tournament", 1)
    for text in winning_moves("tournament", 1):
        data = move(client, won["id"], text)
    assert data["status"] == "won"
    going = new(client, "duchess", 2)
    move(client, going["id"], going["legal"][0])
    assert len(client.get("/api/stats").json()["recent"]) == 2
    assert refused(client.post("/api/stats/reset", json={"all": True}), 400)
    assert client.post("/api/stats/reset").json() == {"removed": 2}
    stats = client.get("/api/stats").json()
    assert stats["stats"] == [] and stats["recent"] == []
    # The games stay as they ended, out of the games in progress; playing on counts nothing.
    referee = client.app.state.referee  # type: ignore[attr-defined]
    referee.cache.clear()   # read back from the database
    assert client.get(f"/api/play/{won['id']}").json()["result"] == "won"
    assert client.get(f"/api/play/{lost['id']}").json()["result"] == "lost"
    assert listed(client) == [going["id"]]
    client.post(f"/api/play/{won['id']}/undo")
    assert client.post(f"/api/play/{won['id']}/redo").json()["status"] == "won"
    assert client.get("/api/stats").json()["recent"] == []
    client.post(f"/api/play/{going['id']}/abandon")   # a game in progress counts when it ends
    assert [r["id"] for r in client.get("/api/stats").json()["recent"]] == [going["id"]]


def test_the_record_is_the_terminals_and_opens_as_the_same_game(client: TestClient, tmp_path: Path) -> None:
    game = new(client, "duchess", 4)
    gid = game["id"]
    line = winning_moves("duchess", 4)[:12]
    for text in line:
        shown = move(client, gid, text)
    client.post(f"/api/play/{gid}/undo")
    shown = client.post(f"/api/play/{gid}/redo").json()
    download = client.get(f"/api/play/{gid}/record")
    assert download.status_code == 200
    # The terminal's save of the same game writes the very same text.
    history = History.replay(kibitz.game("duchess").deal(4), [parse_move(m) for m in line], 4)
    saved = records.save(history, tmp_path / "terminal.kibitz")
    assert download.content == saved.read_bytes()
    opened = send(client, download.content)
    assert opened.status_code == 201, opened.text
    again = opened.json()
    assert again["id"] != gid and again["practice"] is True and again["deal"] == "4" and again["result"] is None
    for key in ("game", "ruleset", "piles", "legal", "moves", "round", "base", "status"):
        assert again[key] == shown[key], key
    assert client.get(f"/api/play/{again['id']}/record").content == download.content
    assert again["id"] in listed(client)   # unfinished: continued, and waits under Continue


def test_a_finished_record_opens_at_its_end_and_never_counts(client: TestClient) -> None:
    history = History.replay(kibitz.game("grand-duchess").deal(1),
                             [parse_move(m) for m in winning_moves("grand-duchess", 1)], 1)
    text = records.format_record(records.record_of(history)).encode("utf-8")
    first = send(client, text).json()
    assert first["status"] == "won" and first["result"] == "won" and first["practice"] is True
    assert first["id"] not in listed(client)
    # Undo and restart play it again; it never enters the statistics, opened once or twice.
    assert client.post(f"/api/play/{first['id']}/restart").json()["moves"] == 0
    redone = client.post(f"/api/play/{first['id']}/redo").json()
    assert redone["moves"] == 1 and redone["result"] == "won"
    send(client, text)
    assert client.get("/api/stats").json()["recent"] == []


def test_a_broken_or_hostile_record_is_refused_with_its_line(client: TestClient) -> None:
    gid = new(client, "duchess", 4)["id"]
    good = client.get(f"/api/play/{gid}/record").text   # no move yet: an empty line of moves
    history = History.replay(kibitz.game("duchess").deal(4), [parse_move(m) for m in winning_moves("duchess", 4)[:3]], 4)
    played = records.format_record(records.record_of(history))
    lines = played.splitlines()

    def why(raw: bytes, status: int = 400) -> str:
        return refused(send(client, raw, "bad.kibitz"), status)

    changed = "\n".join(lines[:7] + [lines[7] + " "] + lines[8:]) + "\n"
    assert why(changed.encode()) == "bad.kibitz: line 10: checksum does not match; the record was changed after saving"

    def signed(body: list[str]) -> bytes:
        """A record of lines ``body`` with its checksum made right: only the moves' check finds a fault."""
        return ("\n".join(body + [f"end: sha256 {records._checksum(body)}"]) + "\n").encode()

    assert why(signed(lines[:5] + ["moves: 1", "t9>>x"])).startswith("bad.kibitz: line 7: ")
    assert why(signed(lines[:5] + ["moves: 1", "t1>f1"])) == (
        "bad.kibitz: line 7: move 1 (t1>f1): The first card on a foundation must come from the reserve; "
        "it sets the base rank.")
    assert why(good.replace("game: duchess", "game: spider").encode()).startswith("bad.kibitz: line 2: unknown game")
    # Another game's moves under this game's header.
    cicely = History.replay(kibitz.game("cicely").deal(4), [parse_move(m) for m in winning_moves("cicely", 4)[:3]], 4)
    other = records.format_record(records.record_of(cicely)).splitlines()
    assert re.fullmatch(r"bad\.kibitz: line [789]: move \d \(.*\): .*", why(signed(lines[:5] + other[5:-1])))
    assert why(b"\x89PNG\r\n\x1a\n\x00\x00") == "bad.kibitz: not a text file (byte 0 is not UTF-8)"
    assert why(b"") == "bad.kibitz: line 1: not a kibitz game record (expected 'kibitz game record 1')"
    assert "at most" in why(b"x" * (MAX_OPEN_BYTES + 1), 413)
    huge = base64.b64encode(b"x" * (2 * MAX_OPEN_BYTES)).decode("ascii")
    assert "too large" in refused(client.post("/api/records", json={"data": huge}), 413)
    assert "base64" in refused(client.post("/api/records", json={"data": "not base64!"}), 400)
    assert "base64" in refused(client.post("/api/records", json={"name": "x"}), 400)
    assert refused(client.post("/api/records", json={"data": "", "name": "\x1b[31mred\n"}), 400).startswith(
        "\\x1b[31mred\\x0a: line 1")   # a name shown as text, never as a terminal's commands
    refused(client.post("/api/records", json={"data": "", "owner": "me"}), 400)
    assert listed(client) == []


def test_a_game_played_on_elsewhere_is_read_again(tmp_path: Path) -> None:
    """Two programs on one store (the browser's server and the terminal's table): each sees the
    other's moves, and a kept copy that is still current is used as it is."""
    from .conftest import client_for

    here, there = client_for(tmp_path), client_for(tmp_path)
    try:
        game = start(here, "duchess", 5)
        game = move(here, game["id"], game["legal"][0])
        kept = here.app.state.referee.cache[game["id"]]  # type: ignore[attr-defined]
        assert here.get(f"/api/play/{game['id']}").json()["moves"] == 1
        assert here.app.state.referee.cache[game["id"]] is kept  # type: ignore[attr-defined]

        elsewhere = there.get(f"/api/play/{game['id']}").json()
        elsewhere = move(there, game["id"], elsewhere["legal"][0])
        shown = here.get(f"/api/play/{game['id']}").json()
        assert shown["moves"] == 2 and shown["piles"] == elsewhere["piles"]
        # A move played here now follows the other's, and the other sees it.
        after = move(here, game["id"], shown["legal"][0])
        assert there.get(f"/api/play/{game['id']}").json()["piles"] == after["piles"]
        # Given up elsewhere: here too.
        there.post(f"/api/play/{game['id']}/abandon")
        assert here.get(f"/api/play/{game['id']}").json()["result"] == "lost"
    finally:
        for client in (here, there):
            client.app.state.referee.store.close()  # type: ignore[attr-defined]
