"""Honest assists through the API: the hint and the chance to win see only what the player
sees, the solver's analysis marks a game assisted, and a random deal's number is withheld
until its game ends."""

from __future__ import annotations

import io
import pickle
import random
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest

import kibitz
from kibitz.agents import CHANCE
from kibitz.history import History
from kibitz.web.searches import AnalysisQuestion, FairQuestion, SearchPool
from kibitz.web.store import DATABASE_NAME, SCHEMA_VERSION, Play
from tests.agents.positions import differently_hidden, random_positions

from .conftest import TestClient, client_for
from .test_api import new, refused

FAIR_GAMES = ("grand-duchess", "cicely", "duchess")
"""Games whose fair searches are quick enough to ask several times (pure Python)."""


def values(data: Any) -> Iterator[Any]:
    """Every value in a JSON answer, however deep."""
    if isinstance(data, dict):
        for value in data.values():
            yield from values(value)
    elif isinstance(data, list):
        for value in data:
            yield from values(value)
    else:
        yield data


def deal_number(client: TestClient, game_id: str) -> int | None:
    number: int | None = client.app.state.referee.get(game_id).history.deal_number  # type: ignore[attr-defined]
    return number


COUNTS_OF_CARDS = ("longest",)
"""Fields that hold how many cards a pile may hold: a small deal number may equal one."""


def check_withheld(data: Any, number: int) -> None:
    """No field of ``data`` is the deal number, as text or as a number (the counts of cards
    aside)."""
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key not in COUNTS_OF_CARDS}
    assert str(number) not in [str(v) for v in values(data) if isinstance(v, (str, int)) and not isinstance(v, bool)]


# -- a random deal's number ------------------------------------------------------------------

def test_a_random_deal_keeps_its_number_until_the_game_ends(client: TestClient) -> None:
    game = new(client, "grand-duchess", None)
    gid = game["id"]
    number = deal_number(client, gid)
    assert number is not None
    assert game["deal"] is None and game["random_deal"] is True
    answers = [game, client.get(f"/api/play/{gid}").json(),
               client.get(f"/api/play/{gid}/why", params={"pile": "t1", "index": "0"}).json()]
    rng = random.Random(3)
    data = game
    for step in range(4):
        data = client.post(f"/api/play/{gid}/move", json={"move": rng.choice(data["legal"])}).json()
        answers.append(data)
    # Listed under the games in progress once a move is played (an untouched game is not).
    answers.append(client.get("/api/play").json())
    assert client.get("/api/play").json()["games"][0]["random_deal"] is True
    for route in ("undo", "redo", "autoplay", "clock"):
        answers.append(client.post(f"/api/play/{gid}/{route}").json())
    answers.append(client.post(f"/api/play/{gid}/hint").json())
    answers.append(client.post(f"/api/play/{gid}/winnable", json={"seconds": 0.1}).json())
    message = refused(client.get(f"/api/play/{gid}/record"), 403)
    assert "random deal" in message and str(number) not in message
    for answer in answers:
        check_withheld(answer, number)

    # Grand Duchess played at random comes to an end: the number is shown then, everywhere.
    data = client.get(f"/api/play/{gid}").json()
    while data["status"] == "playing":
        data = client.post(f"/api/play/{gid}/move", json={"move": rng.choice(data["legal"])}).json()
    assert data["deal"] == str(number) and data["random_deal"] is True and data["result"] == "lost"
    assert client.post(f"/api/play/{gid}/undo").json()["deal"] == str(number)   # shown for good
    record = client.get(f"/api/play/{gid}/record")
    assert record.status_code == 200 and f"deal: {number}\n" in record.text
    recent = client.get("/api/stats").json()["recent"]
    assert recent[-1]["deal"] == str(number) and recent[-1]["random_deal"] is True


def test_a_random_deal_given_up_shows_its_number_and_a_chosen_one_always_does(client: TestClient) -> None:
    game = new(client, "cicely", None)
    gid = game["id"]
    number = deal_number(client, gid)
    client.post(f"/api/play/{gid}/move", json={"move": game["legal"][0]})
    assert client.get(f"/api/play/{gid}/record").status_code == 403
    given_up = client.post(f"/api/play/{gid}/abandon").json()
    assert given_up["deal"] == str(number) and given_up["result"] == "lost"
    assert client.get(f"/api/play/{gid}/record").status_code == 200

    chosen = new(client, "cicely", 77)
    assert chosen["deal"] == "77" and chosen["random_deal"] is False
    client.post(f"/api/play/{chosen['id']}/move", json={"move": chosen["legal"][0]})
    assert client.get("/api/play").json()["games"][0]["deal"] == "77"
    assert client.get(f"/api/play/{chosen['id']}/record").status_code == 200


def test_a_random_deal_stays_withheld_after_a_restart_of_the_server(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        game = new(client, "duchess", None)
        number = deal_number(client, game["id"])
        client.post(f"/api/play/{game['id']}/move", json={"move": game["legal"][0]})
    assert number is not None
    with client_for(tmp_path) as client:
        shown = client.get(f"/api/play/{game['id']}").json()
        assert shown["moves"] == 1 and shown["deal"] is None and shown["random_deal"] is True
        check_withheld(client.get("/api/play").json(), number)
        refused(client.get(f"/api/play/{game['id']}/record"), 403)


# -- the fair searches -------------------------------------------------------------------------

def seat(client: TestClient, game_id: str, start: kibitz.State) -> None:
    """Put a game whose position is ``start`` on the table as game ``game_id`` (the referee's
    memory), as if it had been dealt so."""
    referee = client.app.state.referee  # type: ignore[attr-defined]
    play = Play(History(start, 1), 0.0)
    if referee.store.stamp(game_id) is None:
        referee.store.create(game_id, play)   # stored with no move: the copy in memory stays current
    referee.cache[game_id] = play


@pytest.mark.parametrize("slug", FAIR_GAMES)
def test_hint_and_chance_answer_the_same_whatever_the_hidden_cards(client: TestClient, slug: str) -> None:
    rng = random.Random(slug)
    state, shuffled = next((state, shuffled) for state, *_ in random_positions(kibitz.game(slug), (2, 3, 4), (9,))
                           if not state.is_over() and (shuffled := differently_hidden(state, rng)) is not None)
    assert shuffled.view() == state.view() and shuffled != state
    answers = []
    for start in (state, shuffled):
        seat(client, "fairplay-test-game", start)
        hint = client.post("/api/play/fairplay-test-game/hint").json()
        chance = client.post("/api/play/fairplay-test-game/winnable", json={"seconds": 10}).json()
        answers.append((hint, chance))
    (hint, chance), (other_hint, other_chance) = answers
    assert hint == other_hint and chance == other_chance
    assert hint["hint"] in [str(m) for m in state.legal_moves] and hint["peek"] is False
    assert CHANCE.least <= chance["chance"]["samples"] <= CHANCE.samples and chance["seed"] != hint["seed"]


def test_the_observation_tells_the_moves_played_and_the_views_seen(client: TestClient) -> None:
    game = new(client, "duchess", 5)
    data = game
    for _ in range(3):
        data = client.post(f"/api/play/{game['id']}/move", json={"move": data["legal"][0]}).json()
    referee = client.app.state.referee  # type: ignore[attr-defined]
    play = referee.get(game["id"])
    observation = referee.observation(play)
    assert observation.played == play.history.moves and len(observation.played) == 3
    assert observation.earlier == tuple(s.view() for s in play.history.states[:-1])
    assert observation.earlier[0] == kibitz.game("duchess").deal(5).view()
    assert observation.view == play.history.state.view()


class Unpickled(pickle.Unpickler):
    """Reads a pickle, noting every class it names."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.classes: set[str] = set()

    def find_class(self, module: str, name: str) -> Any:
        self.classes.add(f"{module}.{name}")
        return super().find_class(module, name)


STATE_MAKERS = ("kibitz.state.", "kibitz.notation.", "kibitz.history.", "kibitz.records.")
"""Where the names that hold or rebuild a true state live (a state pickles as its notation)."""


def makes_a_state(message: object) -> bool:
    """Whether a message to a worker names, as the worker would read it, anything that holds or
    rebuilds a state."""
    reader = Unpickled(pickle.dumps(message))
    reader.load()
    return any(name.startswith(STATE_MAKERS) for name in reader.classes)


class Spy:
    """A connection to a worker that keeps what is sent through it."""

    def __init__(self, connection: Any, sent: list[object]) -> None:
        self.connection = connection
        self.sent = sent

    def send(self, message: object) -> None:
        self.sent.append(message)
        self.connection.send(message)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


def test_a_fair_question_carries_no_state_to_its_worker(client: TestClient) -> None:
    pool: SearchPool = client.app.state.referee.searches  # type: ignore[attr-defined]
    sent: list[object] = []
    start = pool._start

    def spied() -> Any:
        worker = start()
        worker.connection = Spy(worker.connection, sent)  # type: ignore[assignment]
        return worker

    pool._start = spied  # type: ignore[method-assign]
    pool.close()
    game = new(client, "cicely", 4)
    client.post(f"/api/play/{game['id']}/move", json={"move": game["legal"][0]})
    client.post(f"/api/play/{game['id']}/hint")
    client.post(f"/api/play/{game['id']}/winnable", json={"seconds": 0.2})
    client.post(f"/api/play/{game['id']}/hint", json={"peek": True, "seconds": 0.2})
    fair = [m for m in sent if isinstance(m, FairQuestion)]
    assert [m.kind for m in fair] == ["hint", "chance"]
    for message in fair:
        assert not makes_a_state(message)
        assert message.observation.played and message.observation.earlier
    analysis = [m for m in sent if isinstance(m, AnalysisQuestion)]
    assert len(analysis) == 1 and makes_a_state(analysis[0])   # the check can tell


def test_the_chance_is_bounded_by_nodes_not_by_the_time_given(client: TestClient) -> None:
    """The same position gives the same chance whatever time is asked for (or the machine's
    load), from between CHANCE.least and CHANCE.samples deals."""
    game = new(client, "kingsdown-eights", 3)
    quick = client.post(f"/api/play/{game['id']}/winnable", json={"seconds": 0.05}).json()["chance"]
    slow = client.post(f"/api/play/{game['id']}/winnable", json={"seconds": 30}).json()["chance"]
    assert quick == slow
    assert CHANCE.least <= quick["samples"] <= CHANCE.samples
    assert quick["won"] + quick["lost"] + quick["unknown"] == quick["samples"]


# -- the analysis mode and the assisted mark ---------------------------------------------------

def test_the_solver_labelled_and_asking_it_marks_the_game_assisted(client: TestClient) -> None:
    game = new(client, "cicely", 8)
    gid = game["id"]
    fair = client.post(f"/api/play/{gid}/hint").json()
    assert fair["assisted"] is False and fair["label"] == "strong player: sees only what you see"
    assert client.get(f"/api/play/{gid}").json()["assisted"] is False
    peek = client.post(f"/api/play/{gid}/hint", json={"peek": True, "seconds": 2}).json()
    assert peek["peek"] is True and peek["assisted"] is True and peek["label"] == "solver: sees every card"
    assert peek["message"].startswith("solver: sees every card")
    assert peek["hint"] is None or peek["hint"] in game["legal"]
    assert "seed" not in peek
    assert client.get(f"/api/play/{gid}").json()["assisted"] is True
    verdict = client.post(f"/api/play/{gid}/winnable", json={"peek": True, "seconds": 1}).json()
    assert verdict["winnable"] in (True, False, None) and "chance" not in verdict
    refused(client.post(f"/api/play/{gid}/hint", json={"peek": "yes"}), 400)

    honest = new(client, "cicely", 9)
    for played in (game, honest):
        client.post(f"/api/play/{played['id']}/move", json={"move": played["legal"][0]})
        client.post(f"/api/play/{played['id']}/abandon")
    assert [g["assisted"] for g in client.get("/api/play").json()["games"]] == []
    recent = client.get("/api/stats").json()["recent"]
    assert [(r["deal"], r["assisted"]) for r in recent] == [("8", True), ("9", False)]
    stats = client.get("/api/stats").json()["stats"]
    assert [(s["game"], s["played"], s["assisted"]) for s in stats] == [("cicely", 2, 1)]
    # Asked after the end, the solver leaves the result as it was earned.
    client.post(f"/api/play/{honest['id']}/hint", json={"peek": True, "seconds": 0.2})
    assert client.get("/api/stats").json()["stats"][0]["assisted"] == 1


SCHEMA_3 = """
CREATE TABLE games (id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL,
    rules_version INTEGER NOT NULL, deal TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0,
    problem TEXT, created REAL NOT NULL, updated REAL NOT NULL, active REAL NOT NULL DEFAULT 0);
CREATE TABLE moves (game_id TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
CREATE TABLE results (game_id TEXT PRIMARY KEY, slug TEXT NOT NULL, ruleset TEXT NOT NULL,
    deal TEXT NOT NULL, record TEXT NOT NULL, result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
    seconds REAL NOT NULL, moves INTEGER NOT NULL, finished REAL NOT NULL, abandoned INTEGER NOT NULL DEFAULT 0);
INSERT INTO games VALUES ('schema3-game', 'duchess', 'standard', 1, '4', 1, NULL, 1.0, 2.0, 30.0);
INSERT INTO moves VALUES ('schema3-game', 0, 'r1>f1');
INSERT INTO results VALUES ('finished-one', 'duchess', 'standard', '3', '', 'won', 61.0, 90, 5.0, 0);
PRAGMA user_version = 3;
"""


def test_a_database_of_schema_3_gains_the_chosen_and_assisted_columns(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DATABASE_NAME)
    db.executescript(SCHEMA_3)
    db.close()
    with client_for(tmp_path) as client:
        shown = client.get("/api/play/schema3-game").json()
        assert shown["moves"] == 1 and shown["deal"] == "4" and shown["random_deal"] is False
        assert shown["assisted"] is False and shown["elapsed"] == 30.0
        assert client.get("/api/stats").json()["recent"][0]["assisted"] is False
        assert shown["daily"] is None and client.get("/api/stats").json()["daily"]["games"] == []
        client.post("/api/play/schema3-game/hint", json={"peek": True, "seconds": 0.2})
        assert client.get("/api/play/schema3-game").json()["assisted"] is True
        random_game = new(client, "duchess", None)
        assert random_game["deal"] is None
        path = client.app.state.referee.store.path  # type: ignore[attr-defined]
        client.app.state.referee.store.close()  # type: ignore[attr-defined]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (6,)
    assert db.execute("SELECT chosen, assisted FROM games WHERE id = 'schema3-game'").fetchone() == (1, 1)
    assert db.execute("SELECT chosen FROM games WHERE id = ?", (random_game["id"],)).fetchone() == (0,)
    assert db.execute("SELECT chosen, assisted FROM results").fetchone() == (1, 0)
    assert db.execute("SELECT practice, ended FROM games WHERE id = 'schema3-game'").fetchone() == (0, None)
    assert db.execute("SELECT reviewed, accuracy FROM results").fetchone() == (0, None)
    assert db.execute("SELECT daily FROM games WHERE id = 'schema3-game'").fetchone() == (None,)
    assert db.execute("SELECT daily FROM results").fetchone() == (None,)
    db.close()
