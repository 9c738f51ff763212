"""The JSON API: every endpoint, and hostile input answered with 4xx JSON."""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

import kibitz
from kibitz.web.referee import search_seed
from kibitz.web.inputs import MAX_BODY

from .conftest import TestClient, client_for

JSON = {"content-type": "application/json"}


def new(client: TestClient, slug: str = "duchess", deal: Any = 1, ruleset: str = "standard") -> dict[str, Any]:
    response = client.post(f"/api/games/{slug}/new", json={"ruleset": ruleset, "deal": deal})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and body["error"]
    assert "Traceback" not in body["error"]
    message: str = body["error"]
    return message


def test_index_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    for name in ("app.js", "cards.js", "style.css", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200


def test_games_list_describes_every_game(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["slug"] for g in data["games"]] == [i.slug for i in kibitz.games()]
    duchess = next(g for g in data["games"] if g["slug"] == "duchess")
    assert duchess["redeals"] == 1 and duchess["rulesets"] == ["standard", "pysolfc"]
    names = [p["name"] for p in duchess["piles"]]
    assert names[:2] == ["s", "w"] and "r4" in names
    assert "safe" in data["safe_rule"]


def test_new_game_and_show(client: TestClient) -> None:
    data = new(client, "Duchess of Luynes", 1)   # any alias
    assert data["game"] == "grand-duchess" and data["deal"] == "1" and data["moves"] == 0
    assert data["piles"]["t1"] and data["status"] == "playing"
    again = client.get(f"/api/play/{data['id']}").json()
    assert again["piles"] == data["piles"] and again["legal"] == data["legal"]
    random_deal = new(client, "cicely", None)
    assert random_deal["deal"] is None and random_deal["random_deal"] is True   # withheld until the end
    assert data["random_deal"] is False
    assert new(client, "duchess", "99999999999999999999")["deal"] == "99999999999999999999"


def test_move_undo_redo_restart(client: TestClient) -> None:
    game = new(client)
    gid = game["id"]
    first = game["legal"][0]
    after = client.post(f"/api/play/{gid}/move", json={"move": first, "expected_moves": 0}).json()
    assert after["moves"] == 1 and after["played"] == [first] and after["can_undo"]
    undone = client.post(f"/api/play/{gid}/undo", json={"expected_moves": 1}).json()
    assert undone["moves"] == 0 and undone["can_redo"] and undone["piles"] == game["piles"]
    redone = client.post(f"/api/play/{gid}/redo").json()
    assert redone["piles"] == after["piles"]
    restarted = client.post(f"/api/play/{gid}/restart").json()
    assert restarted["moves"] == 0 and restarted["can_redo"]
    refused(client.post(f"/api/play/{gid}/undo"), 409)


def test_shorthand_moves_are_accepted(client: TestClient) -> None:
    game = new(client)
    move = game["legal"][0]
    response = client.post(f"/api/play/{game['id']}/move", json={"move": move.split(">")[0] + ">f"})
    assert response.status_code == 200 and response.json()["moves"] == 1


def test_autoplay_hint_winnable_stats_and_rules(client: TestClient) -> None:
    game = new(client)
    gid = game["id"]
    auto = client.post(f"/api/play/{gid}/autoplay").json()
    assert auto["played"] == []   # Duchess: nothing is safe before the base rank
    hint = client.post(f"/api/play/{gid}/hint", json={"seconds": 2}).json()
    assert hint["moves"] == 0 and hint["peek"] is False and hint["assisted"] is False
    assert hint["hint"] in game["legal"] and hint["samples"] > 0
    assert client.post(f"/api/play/{gid}/hint").json()["hint"] == hint["hint"]   # asking again: the same
    verdict = client.post(f"/api/play/{gid}/winnable", json={"seconds": 0.2}).json()
    chance = verdict["chance"]
    assert 1 <= chance["samples"] <= 40 and chance["won"] + chance["lost"] + chance["unknown"] == chance["samples"]
    assert verdict["seed"] == search_seed(gid, None) != hint["seed"] == search_seed(gid, 0)   # the chance's: the game's
    assert "winnable" not in verdict
    empty = client.get("/api/stats").json()
    assert (empty["stats"], empty["recent"], empty["daily"]["games"], empty["daily"]["days_won"]) == ([], [], [], 0)
    assert client.get("/api/play").json()["games"] == []   # no move played yet: not a game to go back to
    rules = client.get("/api/rules/tournament").json()
    assert "<h2>Tournament</h2>" in rules["html"] and "<table>" in rules["html"]


def test_move_with_autoplay(client: TestClient) -> None:
    game = new(client, "grand-duchess", 1)
    gid = game["id"]
    data = client.post(f"/api/play/{gid}/move", json={"move": "deal", "auto": True}).json()
    assert data["played"][0] == "deal" and data["moves"] == len(data["played"])


def test_hostile_input(client: TestClient) -> None:
    gid = new(client)["id"]
    assert "unknown game" in refused(client.post("/api/games/nope/new", json={}), 404)
    assert "ruleset" in refused(client.post("/api/games/duchess/new", json={"ruleset": "house"}), 400)
    assert "20 digits" in refused(client.post("/api/games/duchess/new", json={"deal": 10**30}), 400)
    refused(client.post("/api/games/duchess/new", json={"deal": 0}), 400)
    refused(client.post("/api/games/duchess/new", json={"deal": -5}), 400)
    refused(client.post("/api/games/duchess/new", json={"deal": 1.5}), 400)
    refused(client.post("/api/games/duchess/new", json={"deal": "12abc"}), 400)
    refused(client.post("/api/games/duchess/new", json={"deal": True}), 400)
    refused(client.post("/api/games/duchess/new", json={"colour": "red"}), 400)
    refused(client.post("/api/games/duchess/new", content=b"{not json", headers=JSON), 400)
    refused(client.post("/api/games/duchess/new", content=b"[1, 2]", headers=JSON), 400)
    refused(client.post("/api/games/duchess/new", content=b"[" * 5000 + b"]" * 5000, headers=JSON), 400)
    refused(client.post("/api/games/duchess/new", content=b" " * (MAX_BODY + 1), headers=JSON), 413)
    refused(client.post("/api/games/duchess/new", content=json.dumps({"deal": "1" * 20000}).encode(), headers=JSON), 413)
    assert "not a move" in refused(client.post(f"/api/play/{gid}/move", json={"move": "t9>>x"}), 400)
    refused(client.post(f"/api/play/{gid}/move", json={"move": 42}), 400)
    refused(client.post(f"/api/play/{gid}/move", json={}), 400)
    refused(client.post(f"/api/play/{gid}/move", json={"move": "t1>f1" * 20}), 400)
    refused(client.post(f"/api/play/{gid}/move", json={"move": "deal", "auto": "yes"}), 400)
    illegal = refused(client.post(f"/api/play/{gid}/move", json={"move": "t1>f1"}), 422)
    assert illegal == "The first card on a foundation must come from the reserve; it sets the base rank."
    refused(client.post(f"/api/play/{gid}/move", json={"move": "deal", "expected_moves": -1}), 400)
    refused(client.post(f"/api/play/{gid}/hint", json={"seconds": "soon"}), 400)
    assert refused(client.get("/api/play/doesnotexist1"), 404) == "no such game"
    refused(client.get("/api/play/../../etc"), 404)
    refused(client.post("/api/play/doesnotexist1/move", json={"move": "deal"}), 404)
    refused(client.get("/api/nothing/here"), 404)
    refused(client.get("/api/rules/nope"), 404)
    refused(client.get("/api/games/duchess/new"), 404)
    assert "evil.example" in refused(client.get("/api/play/x", headers={"host": "evil.example"}), 400)


def test_stale_move_is_refused(client: TestClient) -> None:
    game = new(client)
    gid, move = game["id"], game["legal"][0]
    assert client.post(f"/api/play/{gid}/move", json={"move": move, "expected_moves": 0}).status_code == 200
    message = refused(client.post(f"/api/play/{gid}/move", json={"move": move, "expected_moves": 0}), 409)
    assert "moved on" in message
    refused(client.post(f"/api/play/{gid}/undo", json={"expected_moves": 0}), 409)
    assert client.get(f"/api/play/{gid}").json()["moves"] == 1


def test_games_survive_a_restart(tmp_path: Path) -> None:
    first = client_for(tmp_path)
    one, two = new(first, "duchess", 5), new(first, "tournament", 7)
    for move in one["legal"][:1]:
        first.post(f"/api/play/{one['id']}/move", json={"move": move})
    deal = first.post(f"/api/play/{two['id']}/move", json={"move": "deal"}).json()
    undone = first.post(f"/api/play/{two['id']}/undo").json()
    first.app.state.referee.store.close()  # type: ignore[attr-defined]
    second = client_for(tmp_path)
    resumed = second.get(f"/api/play/{one['id']}").json()
    assert resumed["moves"] == 1 and resumed["deal"] == "5"
    other = second.get(f"/api/play/{two['id']}").json()
    assert other["piles"] == undone["piles"] and other["can_redo"]
    assert second.post(f"/api/play/{two['id']}/redo").json()["piles"] == deal["piles"]
    assert {g["id"] for g in second.get("/api/play").json()["games"]} == {one["id"], two["id"]}


def test_every_game_has_one_rules_page_and_the_route_serves_it(client: TestClient) -> None:
    pages = resources.files("kibitz.games") / "rules"
    slugs = [info.slug for info in kibitz.games()]
    assert sorted(p.name for p in pages.iterdir() if p.name.endswith(".md")) == sorted(
        [f"{slug}.md" for slug in slugs] + ["README.md"])
    common = (pages / "README.md").read_text("utf-8")
    for info in kibitz.games():
        text = (pages / f"{info.slug}.md").read_text("utf-8")
        assert next(line for line in text.splitlines() if line.startswith("#")) == f"# {info.name}"
        assert f"]({info.slug}.md)" in common
        served = client.get(f"/api/rules/{info.slug}").json()
        assert served["game"] == info.slug and served["name"] == info.name
        assert served["html"].startswith(f"<h2>{html.escape(info.name)}</h2>")   # under the page's h1
        assert served["common"] == client.get("/api/rules/tournament").json()["common"]
        assert "<h2>Rules of the kibitz games</h2>" in served["common"]
