"""Auto-finish over the API: ``can_finish`` in every view, and ``finish`` playing the certain end."""

from __future__ import annotations

import kibitz
from kibitz.autoplay import finishing_moves
from kibitz.solver import Limits, Outcome, solve

from .conftest import TestClient
from .test_api import new, refused


def test_finish_plays_the_certain_end_and_refuses_before(client: TestClient) -> None:
    game = kibitz.game("grand-duchess")
    result = solve(game.deal(1), Limits(seconds=5))
    assert result.outcome is Outcome.WON
    data = new(client, "grand-duchess", 1)
    gid = data["id"]
    assert data["can_finish"] is False
    assert refused(client.post(f"/api/play/{gid}/finish"), 409) == "the end is not certain yet"
    state = game.deal(1)
    for move in result.moves:
        if finishing_moves(state) is not None:
            break
        data = client.post(f"/api/play/{gid}/move", json={"move": str(move)}).json()
        state = state.apply(move)
        assert data["can_finish"] is (finishing_moves(state) is not None)
    assert client.get(f"/api/play/{gid}").json()["can_finish"] is True
    expected = [str(m) for m in finishing_moves(state) or ()]
    before = data["moves"]
    done = client.post(f"/api/play/{gid}/finish", json={"expected_moves": before})
    assert done.status_code == 200
    body = done.json()
    assert body["played"] == expected and body["moves"] == before + len(expected)
    assert body["status"] == "won" and body["can_finish"] is False
    assert client.get("/api/stats").json()["recent"][-1]["result"] == "won"
    refused(client.post(f"/api/play/{gid}/finish", json={"nothing": 1}), 400)


def test_finish_checks_the_expected_move_count(client: TestClient) -> None:
    gid = new(client, "tournament", 2)["id"]
    refused(client.post(f"/api/play/{gid}/finish", json={"expected_moves": 5}), 409)
    refused(client.post("/api/play/doesnotexist1/finish"), 404)
