"""Refusals in the player's words over the API (piles named as a player says them, "tableau 2"): an
illegal move, and ``why`` a card cannot move."""

from __future__ import annotations

import kibitz
from kibitz.cards import card_text

from .conftest import TestClient
from .test_api import new, refused


def test_an_illegal_move_is_refused_in_words(client: TestClient) -> None:
    gid = new(client, "duchess", 3)["id"]
    message = refused(client.post(f"/api/play/{gid}/move", json={"move": "t3>f1"}), 422)
    assert message == "The first card on a foundation must come from the reserve; it sets the base rank."
    message = refused(client.post(f"/api/play/{gid}/move", json={"move": "deal"}), 422)
    assert message == ("The stock can't be dealt before the base rank is set: first play a reserve card to "
                       "its foundation.")


def test_why_a_card_cannot_move_or_where_it_can_go(client: TestClient) -> None:
    gid = new(client, "duchess", 3)["id"]
    answer = client.get(f"/api/play/{gid}/why", params={"pile": "r1", "index": "2"})
    assert answer.status_code == 200 and answer.json() == {"reason": "The 7\u2666 can go to foundation 4."}
    covered = client.get(f"/api/play/{gid}/why", params={"pile": "r1", "index": "0"}).json()
    assert covered == {"reason": "The K\u2663 is covered by the 6\u2660; only the top card of a reserve pile "
                                 "can move."}
    tableau = client.get(f"/api/play/{gid}/why", params={"pile": "t1", "index": "0"}).json()
    assert tableau == {"reason": "The first card on a foundation must come from the reserve; it sets the base rank."}


def test_why_never_names_a_hidden_card(client: TestClient) -> None:
    game = new(client, "grand-duchess", 1)
    gid = game["id"]
    assert game["piles"]["r1"] == [None]
    face_down = client.get(f"/api/play/{gid}/why", params={"pile": "r1", "index": "0"}).json()
    assert face_down == {"reason": "That card is face down: the reserve turns face up when a deal empties the stock."}
    stock = client.get(f"/api/play/{gid}/why", params={"pile": "s", "index": "0"}).json()
    assert stock == {"reason": "Cards leave the stock only when it is dealt."}
    flank = new(client, "napoleons-flank", 3)
    under = client.get(f"/api/play/{flank['id']}/why", params={"pile": "t2", "index": "1"}).json()
    assert under == {"reason": "That card cannot be seen: only the top card of tableau 2 shows."}
    state = kibitz.game("napoleons-flank").deal(3)
    assert state.view().pile("t2")[1] is None and card_text(state.pile("t2")[1]) not in under["reason"]


def test_why_refuses_piles_and_indices_that_are_not_there(client: TestClient) -> None:
    gid = new(client, "grand-duchess", 1)["id"]
    url = f"/api/play/{gid}/why"
    assert refused(client.get(url, params={"pile": "t9", "index": "0"}), 400).startswith("pile must be one of")
    assert refused(client.get(url, params={"pile": "f1", "index": "0"}), 400) == "f1 is empty"
    for index in ("1", "-1", "x", "", "0x1", "\u0661", "9" * 5000, " 0"):
        message = refused(client.get(url, params={"pile": "t1", "index": index}), 400)
        assert message == "index must be a whole number from 0 to 0"
    refused(client.get(url, params={"index": "0"}), 400)
    refused(client.get("/api/play/doesnotexist1/why", params={"pile": "t1", "index": "0"}), 404)
