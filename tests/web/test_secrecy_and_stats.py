"""What the API lets a player see, and the statistics of finished games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import kibitz
from kibitz.cards import IDENTITY, format_card
from kibitz.foresight import longest_in_round
from kibitz.rules import RULESETS
from kibitz.solver import Limits, Outcome, solve
from kibitz.state import State
from kibitz.view import is_hidden

from .conftest import TestClient

GAMES = [(info.slug, ruleset) for info in kibitz.games() for ruleset in RULESETS]


def true_state(client: TestClient, game_id: str) -> State:
    state: State = client.app.state.referee.get(game_id).history.state  # type: ignore[attr-defined]
    return state


def check_secrecy(client: TestClient, data: dict[str, Any]) -> None:
    """Every card hidden in the true state is ``null`` in the response; every visible card is right."""
    state = true_state(client, data["id"])
    assert set(data["piles"]) == set(state.game.pile_names())
    for spec, pile in zip(state.game.piles, state.piles):
        shown = data["piles"][spec.name]
        assert len(shown) == len(pile)
        for k, card in enumerate(pile):
            if is_hidden(spec.spread, spec.kind, pile, k):
                assert shown[k] is None, f"{spec.name}#{k} is hidden but was sent"
            else:
                assert shown[k] == format_card(card & IDENTITY)
    allowed = {"id", "game", "name", "ruleset", "deal", "round", "redeals_left", "base", "piles", "legal",
               "moves", "can_undo", "can_redo", "status", "result", "elapsed", "played", "can_finish",
               "random_deal", "assisted", "practice", "rating", "longest", "daily", "played_words"}
    assert set(data) <= allowed
    # How long each fanned pile may grow this round: lengths foreseen from the rules, which
    # the piles' counts tell anyway.
    assert data["longest"] == longest_in_round(state)
    assert all(data["longest"][name] >= len(data["piles"][name]) for name in data["longest"])
    # A deal's rating narrows down which deal it is: told only with its number.
    assert data.get("rating") is None or data["deal"] is not None
    if data["can_finish"]:  # only when the player sees every card: it tells nothing of a hidden one
        assert all(card is not None for pile in data["piles"].values() for card in pile)
    assert data["legal"] == [str(m) for m in state.legal_moves]


@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_no_response_shows_a_hidden_card(client: TestClient, slug: str, ruleset: str) -> None:
    rng = random.Random(f"{slug}/{ruleset}")
    data = client.post(f"/api/games/{slug}/new", json={"ruleset": ruleset, "deal": rng.randint(1, 40000)}).json()
    check_secrecy(client, data)
    gid = data["id"]
    for step in range(60):
        if data["status"] != "playing" or (data["can_undo"] and rng.random() < 0.1):
            data = client.post(f"/api/play/{gid}/undo").json()
        else:
            deals = [m for m in data["legal"] if m == "deal"]
            moves = deals if deals and rng.random() < 0.3 else data["legal"]
            data = client.post(f"/api/play/{gid}/move",
                               json={"move": rng.choice(moves), "expected_moves": data["moves"],
                                     "auto": rng.random() < 0.2}).json()
        check_secrecy(client, data)
        if step % 20 == 0:
            check_secrecy(client, client.get(f"/api/play/{gid}").json())
    check_secrecy(client, client.post(f"/api/play/{gid}/restart").json())


def test_illegal_move_reasons_name_no_hidden_card(client: TestClient) -> None:
    data = client.post("/api/games/napoleons-flank/new", json={"deal": 3}).json()
    for name in ("t1", "t2"):
        response = client.post(f"/api/play/{data['id']}/move", json={"move": f"{name}#0>f1"})
        assert response.status_code == 422
        assert response.json()["error"] == f"That card cannot be seen: only the top card of tableau {name[1:]} shows."
    response = client.post(f"/api/play/{data['id']}/move", json={"move": "s#0>f1"})
    assert response.status_code == 422
    assert response.json()["error"] == "Cards leave the stock only when it is dealt."


def test_statistics_after_a_won_and_a_lost_game(client: TestClient) -> None:
    game = kibitz.game("duchess")
    result = solve(game.deal(4), Limits(seconds=10))
    assert result.outcome is Outcome.WON
    data = client.post("/api/games/duchess/new", json={"deal": 4}).json()
    for move in result.moves:
        data = client.post(f"/api/play/{data['id']}/move", json={"move": str(move)}).json()
    assert data["status"] == "won" and data["result"] == "won"
    assert data["legal"] == []

    # A lost game: Grand Duchess played at random always comes to an end.
    rng = random.Random(7)
    lost = client.post("/api/games/grand-duchess/new", json={"deal": 9}).json()
    while lost["status"] == "playing":
        lost = client.post(f"/api/play/{lost['id']}/move", json={"move": rng.choice(lost["legal"])}).json()
    assert lost["status"] == "over" and lost["result"] == "lost"
    # Undoing after the end does not change the result.
    client.post(f"/api/play/{lost['id']}/undo")

    stats = {(s["game"], s["ruleset"]): s for s in client.get("/api/stats").json()["stats"]}
    duchess = stats[("duchess", "standard")]
    assert duchess["played"] == 1 and duchess["won"] == 1 and duchess["win_rate"] == 1.0
    assert duchess["current_streak"] == duchess["best_streak"] == 1
    assert duchess["fewest_moves"] == len(result.moves) and duchess["best_time"] is not None
    grand = stats[("grand-duchess", "standard")]
    assert grand["played"] == 1 and grand["won"] == 0 and grand["current_streak"] == 0
    assert grand["best_time"] is None and grand["fewest_moves"] is None
    recent = client.get("/api/stats").json()["recent"]
    assert [r["result"] for r in recent] == ["won", "lost"]
    assert client.get("/api/play").json()["games"] == []   # both finished
