"""The review of a game through the API: streamed figure by figure, seeing every card only once
the game has ended (or when the player peeks, which marks the game assisted), kept with the
game; a position of the game shown read-only; practice games, which never count; and the
statistics the reviews add."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import kibitz
from kibitz.analysis import REVIEW_VERSION, Chance, observation_at
from kibitz.spoken import move_phrase
from kibitz.cards import IDENTITY, format_card
from kibitz.history import History
from kibitz.moves import parse_move
from kibitz.solver import Limits, Outcome, solve
from kibitz.view import is_hidden
from kibitz.web import searches
from kibitz.web.searches import FairQuestion, SearchPool
from kibitz.web.store import Result, ReviewSummary, statistics

from .conftest import TestClient, client_for
from .test_api import new, refused
from .test_fair_play import check_withheld, deal_number

LOST_GAME = ("cicely", 45, "deal deal t3>f5 t4>f6 r4>t1 r2>r4 t4>r2".split())
"""A short game that ends with no move left; the deal could be won until its second move."""


def played(client: TestClient, slug: str, deal: int | None, moves: list[str]) -> dict[str, Any]:
    """A new game with ``moves`` played: its view after the last."""
    view = new(client, slug, deal)
    for move in moves:
        response = client.post(f"/api/play/{view['id']}/move", json={"move": move})
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def random_moves(slug: str, deal: int, count: int, seed: int = 1) -> list[str]:
    """``count`` moves of deal ``deal`` of ``slug`` chosen at random, the game still going after them."""
    rng = random.Random(seed)
    state = kibitz.game(slug).deal(deal)
    moves = []
    for _ in range(count):
        move = rng.choice(state.legal_moves)
        state = state.apply(move)
        assert not state.is_over()
        moves.append(str(move))
    return moves


def reviewed(client: TestClient, game_id: str, **body: Any) -> list[dict[str, Any]]:
    """The lines of the review of game ``game_id``, in order."""
    response = client.post(f"/api/play/{game_id}/review", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def pool(client: TestClient) -> SearchPool:
    found: SearchPool = client.app.state.referee.searches  # type: ignore[attr-defined]
    return found


# -- the review's stream ------------------------------------------------------------------------

def test_a_finished_game_is_streamed_move_by_move_and_sees_every_card(client: TestClient) -> None:
    slug, deal, moves = LOST_GAME
    game = played(client, slug, deal, moves)
    assert game["status"] == "over" and game["result"] == "lost"
    lines = reviewed(client, game["id"])
    head, *figures, done = lines
    assert head["type"] == "head" and head["moves"] == len(moves) and head["sees_every_card"] is True
    assert head["stored"] is False and head["deal"] == deal and head["review_version"] == REVIEW_VERSION
    assert head["label"] == "seeing every card (the solver)"
    assert [line["type"] for line in figures] == ["move"] * len(moves) + ["final", "no_return"]
    start = kibitz.game(slug).deal(deal)
    states = History.replay(start, [parse_move(m) for m in moves]).states
    for index, line in enumerate(figures[:len(moves)]):
        assert line["index"] == index and line["move"] == moves[index]
        assert line["move_words"] == move_phrase(states[index], parse_move(moves[index]))
        assert {"chance", "best", "best_words", "label", "accuracy", "before", "after", "after_best"} <= set(line)
    no_return = figures[-1]
    assert no_return["finding"] == "found" and no_return["move"] == 1 and no_return["winnable_at_start"] is True
    assert done["type"] == "done" and done["assisted"] is False
    review = done["review"]
    assert review["complete"] is True and review["sees_every_card"] is True and review["result"] == "lost"
    assert review["no_return"] == 1 and review["no_return_proved"] is True and review["winnable_at_start"] is True
    assert [entry["move"] for entry in review["moves"]] == moves
    assert review["moves"][0]["move_words"] == figures[0]["move_words"]
    assert client.get(f"/api/play/{game['id']}").json()["assisted"] is False


def test_a_second_look_is_served_from_the_store_even_after_a_restart(tmp_path: Path) -> None:
    slug, deal, moves = LOST_GAME
    with client_for(tmp_path) as client:
        game = played(client, slug, deal, moves)
        first = reviewed(client, game["id"])

    def no_search(*args: Any) -> Any:
        raise AssertionError("a kept review is not searched again")

    with client_for(tmp_path) as client:
        pool(client).stream = no_search  # type: ignore[method-assign]
        again = reviewed(client, game["id"])
    assert again[0]["stored"] is True and first[0]["stored"] is False
    assert again[0] | {"stored": False} == first[0]
    assert again[1:] == first[1:]


def test_a_game_in_progress_is_reviewed_from_what_the_player_saw_only(client: TestClient) -> None:
    game = new(client, "grand-duchess", None)   # a random deal: its number is withheld
    number = deal_number(client, game["id"])
    assert number is not None
    game = played_on(client, game, random_moves("grand-duchess", number, 4))
    lines = reviewed(client, game["id"])
    assert lines[0]["sees_every_card"] is False and lines[0]["deal"] is None
    assert [line["type"] for line in lines[1:]] == ["move"] * 4 + ["final", "done"]
    review = lines[-1]["review"]
    assert review["sees_every_card"] is False and review["complete"] is True and review["result"] == "unfinished"
    assert review["no_return"] is None and review["no_return_finding"] is None
    assert review["winnable_at_start"] is None and review["deal"] is None
    for line in lines:
        check_withheld(line, number)
    assert client.get(f"/api/play/{game['id']}").json()["assisted"] is False


def played_on(client: TestClient, game: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """Game ``game`` with ``moves`` played on."""
    for move in moves:
        game = client.post(f"/api/play/{game['id']}/move", json={"move": move}).json()
    return game


def test_peeking_at_a_game_in_progress_asks_the_solver_and_marks_it_assisted(client: TestClient) -> None:
    game = played(client, "grand-duchess", 3, random_moves("grand-duchess", 3, 3))
    lines = reviewed(client, game["id"], peek=True, expected_moves=3, clock=12.5)
    assert lines[0]["sees_every_card"] is True
    assert [line["type"] for line in lines[-3:]] == ["final", "no_return", "done"]
    assert lines[-1]["assisted"] is True and lines[-1]["review"]["winnable_at_start"] is not None
    assert client.get(f"/api/play/{game['id']}").json()["assisted"] is True
    refused(client.post(f"/api/play/{game['id']}/review", json={"expected_moves": 2}), 409)
    refused(client.post(f"/api/play/{game['id']}/review", json={"peek": "yes"}), 400)
    refused(client.post(f"/api/play/{game['id']}/review", json={"seconds": 3}), 400)


def test_a_review_whose_client_leaves_is_stopped_at_once(client: TestClient) -> None:
    game = played(client, "grand-duchess", 5, random_moves("grand-duchess", 5, 40))
    searches_pool = pool(client)
    with client.stream("POST", f"/api/play/{game['id']}/review", json={}) as response:
        lines = response.iter_lines()
        assert json.loads(next(lines))["type"] == "head"
        assert json.loads(next(lines))["type"] == "move"
    assert searches_pool.stopped == 1 and searches_pool.busy == 0
    assert client.post(f"/api/play/{game['id']}/hint").json()["hint"] in game["legal"]   # a fresh worker answers


# -- the chance, said honestly ---------------------------------------------------------------------

def check_chance(chance: dict[str, Any]) -> None:
    """The fields of a chance: an undecided deal is never counted as lost."""
    won, lost, unknown, samples = chance["won"], chance["lost"], chance["unknown"], chance["samples"]
    assert won + lost + unknown == samples > 0
    sure = won + lost >= samples / 2
    assert chance["share"] == (round(won / (won + lost), 6) if sure else None)
    assert chance["low"] == round(won / samples, 6) and chance["high"] == round((won + unknown) / samples, 6)
    low, high = Chance(won, lost, unknown).interval()
    assert chance["interval"] == [round(low, 6), round(high, 6)]


def test_the_chance_to_win_never_counts_an_undecided_deal_as_lost(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game = new(client, "kingsdown-eights", 3)
    answer = client.post(f"/api/play/{game['id']}/winnable").json()["chance"]
    check_chance(answer)

    # A search budget so small that most sampled deals are left undecided: the chance is not sure.
    import kibitz.analysis
    real = kibitz.analysis.fair_chance
    monkeypatch.setattr(kibitz.analysis, "fair_chance",
                        lambda observation, seed: real(observation, seed, kibitz.analysis.budgets.FAIR_CHANCE.but(nodes=5)))
    state = kibitz.game("kingsdown-eights").deal(3)
    starved = searches.fair_answer(FairQuestion("chance", observation_at(History(state)), 1, 1.0))
    check_chance(starved)
    assert starved["unknown"] > starved["samples"] / 2 and starved["share"] is None


# -- a position of the game ------------------------------------------------------------------------

def test_a_position_shows_the_table_as_the_player_saw_it_and_no_later(client: TestClient) -> None:
    game = new(client, "napoleons-flank", None)
    number = deal_number(client, game["id"])
    assert number is not None
    moves = random_moves("napoleons-flank", number, 6, seed=2)
    game = played_on(client, game, moves)
    referee = client.app.state.referee  # type: ignore[attr-defined]
    history = referee.get(game["id"]).history
    for k, state in enumerate(history.states):
        shown = client.get(f"/api/play/{game['id']}/position", params={"moves": k}).json()
        assert shown["moves"] == k and shown["read_only"] is True and "deal" not in shown
        assert shown["played"] == (moves[k] if k < len(moves) else None)
        assert shown["legal"] == [str(m) for m in state.legal_moves]
        for spec, pile in zip(state.game.piles, state.piles):
            expected = [None if is_hidden(spec.spread, spec.kind, pile, i) else format_card(card & IDENTITY)
                        for i, card in enumerate(pile)]
            assert shown["piles"][spec.name] == expected
        check_withheld(shown, number)
    client.post(f"/api/play/{game['id']}/undo")   # an undone move is no longer a position to show
    for text in (str(len(moves)), "-1", "x", "99999999999", ""):
        refused(client.get(f"/api/play/{game['id']}/position", params={"moves": text}), 400)


# -- practice ---------------------------------------------------------------------------------------

def test_a_practice_game_never_counts(client: TestClient) -> None:
    slug, deal, moves = LOST_GAME
    game = played(client, slug, deal, moves)
    before = client.get("/api/stats").json()
    response = client.post(f"/api/play/{game['id']}/practice", json={"moves": 2})
    assert response.status_code == 201, response.text
    practice = response.json()
    assert practice["practice"] is True and practice["moves"] == 2 and practice["deal"] == str(deal)
    assert practice["id"] != game["id"] and practice["status"] == "playing"
    listed = client.get("/api/play").json()["games"]
    assert [(g["id"], g["practice"]) for g in listed] == [(practice["id"], True)]
    practice = played_on(client, practice, moves[2:])
    assert practice["status"] == "over" and practice["result"] == "lost" and practice["practice"] is True
    assert client.get("/api/stats").json() == before
    assert client.get("/api/play").json()["games"] == []   # ended: no longer in progress

    again = client.post(f"/api/play/{game['id']}/practice", json={"moves": 0}).json()
    client.post(f"/api/play/{again['id']}/move", json={"move": "deal"})
    given_up = client.post(f"/api/play/{again['id']}/abandon").json()
    assert given_up["practice"] is True
    assert client.get("/api/stats").json() == before   # not given up as lost: not counted at all
    assert client.get(f"/api/play/{again['id']}").json()["practice"] is True

    refused(client.post(f"/api/play/{game['id']}/practice", json={"moves": len(moves)}), 409)   # over there
    refused(client.post(f"/api/play/{game['id']}/practice", json={"moves": len(moves) + 1}), 400)
    refused(client.post(f"/api/play/{game['id']}/practice", json={}), 400)
    hidden = played_on(client, new(client, "cicely", None), ["deal"])
    refused(client.post(f"/api/play/{hidden['id']}/practice", json={"moves": 0}), 403)   # a random deal going on


def test_ended_practice_games_and_reviews_are_pruned_and_the_statistics_stay(tmp_path: Path) -> None:
    slug, deal, moves = LOST_GAME
    with client_for(tmp_path) as client:
        lost = played(client, slug, deal, moves)
        reviewed(client, lost["id"])
        practice = client.post(f"/api/play/{lost['id']}/practice", json={"moves": 6}).json()
        played_on(client, practice, moves[6:])
        going = client.post(f"/api/play/{lost['id']}/practice", json={"moves": 1}).json()
        store = client.app.state.referee.store  # type: ignore[attr-defined]
        assert store.prune(now=time.time() + 31 * 86400) == 2   # the lost game and the ended practice
        client.app.state.referee.cache.clear()  # type: ignore[attr-defined]
        for gone in (lost, practice):
            refused(client.get(f"/api/play/{gone['id']}"), 404)
        assert [g["id"] for g in client.get("/api/play").json()["games"]] == [going["id"]]
        row = client.get("/api/stats").json()["stats"][0]
        assert (row["played"], row["reviewed"], row["could_have_won"]) == (1, 1, 1)
        with sqlite3.connect(store.path) as db:
            assert db.execute("SELECT COUNT(*) FROM reviews").fetchone() == (0,)


# -- the statistics -----------------------------------------------------------------------------

def winning_line(slug: str, deal: int) -> list[str]:
    result = solve(kibitz.game(slug).deal(deal), Limits(seconds=10))
    assert result.outcome is Outcome.WON
    return [str(move) for move in result.moves]


def test_an_assisted_game_sets_no_best_time_and_no_fewest_moves(client: TestClient) -> None:
    assisted = new(client, "grand-duchess", 1)
    peek = client.post(f"/api/play/{assisted['id']}/hint", json={"peek": True})
    assert peek.json()["assisted"] is True
    won = played_on(client, assisted, winning_line("grand-duchess", 1))
    assert won["result"] == "won" and won["assisted"] is True
    row = client.get("/api/stats").json()["stats"][0]
    assert (row["won"], row["assisted"], row["best_time"], row["fewest_moves"]) == (1, 1, None, None)
    line = winning_line("grand-duchess", 2)
    played(client, "grand-duchess", 2, line)
    row = client.get("/api/stats").json()["stats"][0]
    assert (row["won"], row["fewest_moves"]) == (2, len(line)) and row["best_time"] is not None


def test_the_statistics_of_reviewed_games(client: TestClient) -> None:
    slug, deal, moves = LOST_GAME
    lost = played(client, slug, deal, moves)
    row = client.get("/api/stats").json()["stats"][0]
    assert (row["reviewed"], row["accuracy"], row["blunders_per_game"], row["could_have_won"]) == (0, None, None, 0)
    review = reviewed(client, lost["id"])[-1]["review"]
    row = client.get("/api/stats").json()["stats"][0]
    assert row["reviewed"] == 1 and row["could_have_won"] == 1   # lost, though winnable at the start
    assert row["accuracy"] == pytest.approx(review["accuracy"])
    assert row["blunders_per_game"] == review["labels"]["blunder"]
    # A review of the game in progress counts nothing.
    going = played(client, slug, deal, moves[:1])
    reviewed(client, going["id"])
    assert client.get("/api/stats").json()["stats"][0]["reviewed"] == 1


def test_statistics_average_the_reviewed_games() -> None:
    def result(outcome: str, accuracy: float | None = None, blunders: int = 0, winnable: bool | None = None,
               assisted: bool = False, seconds: float = 60.0, moves: int = 100) -> Result:
        summary = None if accuracy is None else ReviewSummary(accuracy, blunders, winnable)
        return Result("duchess", "standard", "1", outcome, seconds, moves, 0.0, assisted=assisted, review=summary)

    rows = [result("lost", 50.0, 2, True), result("lost", 90.0, 1, False), result("won", 100.0, 0, True),
            result("lost"), result("won", assisted=True, seconds=5.0, moves=80)]
    row = statistics(rows)[0]
    assert row["reviewed"] == 3 and row["accuracy"] == pytest.approx(80.0)
    assert row["blunders_per_game"] == pytest.approx(1.0) and row["could_have_won"] == 1
    assert (row["best_time"], row["fewest_moves"]) == (60.0, 100)   # never the assisted game's
