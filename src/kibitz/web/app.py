"""The web application: the routes of the JSON API that referees games, and the static player.

Every response about a game carries only the player's view of it (:mod:`kibitz.web.referee`).
Every read is bounded (:mod:`kibitz.web.inputs`): a bad request gets a 4xx answer
``{"error": "..."}``, and a client that leaves mid-request is not an error.
:mod:`kibitz.web.guard` refuses foreign hosts and cross-site requests; searches run in
worker processes (:mod:`kibitz.web.searches`).
"""

from __future__ import annotations

import contextlib
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kibitz import difficulty
from kibitz.autoplay import SAFE_RULE, autoplay, finishing_moves
from kibitz.difficulty import NoRatedDealError
from kibitz.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, KibitzError, UnknownGameError
from kibitz.history import History, NothingToUndoError
from kibitz.reasons import spoken_piles
from kibitz.records import format_record, record_of
from kibitz.registry import find, games
from kibitz.rules import RULESETS
from kibitz.state import State
from kibitz.web.guard import LOCAL_NAMES, Guard, HostPolicy
from kibitz.web.inputs import (DEFAULT_HINT_SECONDS, MAX_MOVE_TEXT, ApiError, bool_field, clock_field, deal_field,
                               int_field, level_field, read_json, ruleset_field, seconds_field)
from kibitz.web.markdown import to_html
from kibitz.web.wording import move_words, played_payload
from kibitz.web import reviews
from kibitz.web.dailies import daily_game, daily_statistics, start_page, today
from kibitz.web.saves import leaving_field, open_record
from kibitz.web.referee import Referee, game_info, position_payload, search_seed, status_of, view_payload
from kibitz.web.searches import (AnalysisKind, AnalysisQuestion, Answer, FairKind, FairQuestion, SearchPool,
                                 SearchStopped)
from kibitz.web.store import DEFAULT_KEEP_FINISHED_DAYS, Play, Store, statistics

LOCAL_HOSTS = HostPolicy.of(LOCAL_NAMES + ("testserver",))
"""The hosts of a server on this computer only (``testserver``: Starlette's test client)."""
STATIC = resources.files("kibitz.web") / "static"
RULES = resources.files("kibitz.games") / "rules"
STEP_FIELDS = ("expected_moves", "clock")
"""The fields every request that acts on a game may carry."""
ANALYSIS = "solver: sees every card"
"""How every answer of the analysis mode is labelled."""
FAIR = "strong player: sees only what you see"
"""How every fair answer (hint, chance to win) is labelled."""


def referee_of(request: Request) -> Referee:
    referee: Referee = request.app.state.referee
    return referee


def slug_of(request: Request) -> str:
    try:
        return find(request.path_params["slug"]).slug
    except UnknownGameError as error:
        raise ApiError(404, str(error)) from None


async def game_for(request: Request, fields: tuple[str, ...]) -> tuple[dict[str, Any], str, Play]:
    """The request's body (``fields`` and :data:`STEP_FIELDS` allowed) and its game, with the
    player's clock taken and the expected move count checked."""
    data = await read_json(request, fields + STEP_FIELDS)
    game_id = request.path_params["id"]
    referee = referee_of(request)
    play = referee.get(game_id)
    referee.tick(play, clock_field(data))
    expected = int_field(data, "expected_moves", 0, 10_000_000)
    count = play.history.move_count
    if expected is not None and expected != count:
        raise ApiError(409, f"the game has moved on ({count} moves, not {expected}); reload to see it")
    return data, game_id, play


# -- pages and descriptions ---------------------------------------------------------------

async def index(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})


async def list_games(request: Request) -> Response:
    return JSONResponse({"games": [game_info(info.slug) for info in games()],
                         "rulesets": list(RULESETS), "safe_rule": SAFE_RULE, "rated": rated_counts()})


def rated_counts() -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """How many rated deals each game and ruleset has at each level, and how many of them the
    solver proved winnable: what New game can offer; a level declared empty says why (``empty``:
    the deals rated, how many reached it, and the least a level needs)."""
    return {info.slug: {ruleset: {count.level: _level_count(count) for count in difficulty.levels(info.slug, ruleset)}
                        for ruleset in RULESETS}
            for info in games()}


def _level_count(count: difficulty.LevelCount) -> dict[str, Any]:
    counted: dict[str, Any] = {"deals": count.deals, "winnable": count.winnable}
    if count.empty is not None:
        counted["empty"] = {"deals_rated": count.empty.deals_rated, "found": count.empty.found,
                            "least": difficulty.MIN_LEVEL_DEALS}
    return counted


async def rules(request: Request) -> Response:
    slug = slug_of(request)
    info = find(slug)
    page = RULES / f"{slug}.md"
    common = RULES / "README.md"
    # Under the page's one h1 (the brand): a rules page's headings start at h2.
    return JSONResponse({"game": slug, "name": info.name, "html": to_html(page.read_text("utf-8"), top=2),
                         "common": to_html(common.read_text("utf-8"), top=2)})


async def stats(request: Request) -> Response:
    """The statistics per game and ruleset, the last 100 games counted (``id``: the game,
    while it is still stored; ``None`` once only its result is kept; ``daily``: the date of a
    deal of the day) and the deals of the day's streaks (:func:`daily_statistics`)."""
    results = referee_of(request).store.results()
    recent = [{"game": r.slug, "ruleset": r.ruleset, "deal": r.deal, "random_deal": not r.chosen,
               "result": r.result, "abandoned": r.abandoned, "assisted": r.assisted,
               "seconds": round(r.seconds, 1), "moves": r.moves, "finished": r.finished,
               "id": r.game_id if r.kept else None, "daily": r.daily} for r in results[-100:]]
    return JSONResponse({"stats": statistics(results), "recent": recent, "daily": daily_statistics(results, today())})


async def reset_stats(request: Request) -> Response:
    """Reset the statistics: every result is deleted (each game's result, time, moves, streaks
    and review figures); the games themselves stay, finished ones shown ended and never counted
    again, and the games in progress count when they end (:meth:`Store.reset_statistics`)."""
    await read_json(request, ())
    removed = referee_of(request).store.reset_statistics()
    return JSONResponse({"removed": removed})


# -- games ---------------------------------------------------------------------------------

async def new_game(request: Request) -> Response:
    """A new game: of the deal numbered ``deal``, else of a random deal; with ``level`` (easy,
    medium, hard) or ``winnable`` (only deals the solver proved winnable), a random rated deal
    meeting the choice (:mod:`kibitz.difficulty`), its number withheld like any random deal's.
    ``leaving``: the game the page leaves for it, not kept if no move was played in it."""
    data = await read_json(request, ("ruleset", "deal", "level", "winnable", "leaving"))
    slug = slug_of(request)
    ruleset = ruleset_field(data.get("ruleset"))
    level = level_field(data.get("level"))
    winnable_only = bool_field(data, "winnable")
    chosen = data.get("deal") is not None
    if chosen and (level is not None or winnable_only):
        raise ApiError(400, "a deal chosen by number has no level to choose: send a deal, or a level")
    if level is not None or winnable_only:
        try:
            deal = difficulty.pick(slug, ruleset, level, winnable_only).deal
        except NoRatedDealError as error:
            raise ApiError(404, str(error)) from None
    else:
        deal = deal_field(data.get("deal"))
    game_id, play = referee_of(request).new(slug, ruleset, deal, chosen, leaving_field(data.get("leaving")))
    return JSONResponse(view_payload(game_id, play), status_code=201)


async def open_games(request: Request) -> Response:
    return JSONResponse({"games": referee_of(request).store.open_games()})


async def show(request: Request) -> Response:
    game_id = request.path_params["id"]
    return JSONResponse(view_payload(game_id, referee_of(request).get(game_id)))


async def move(request: Request) -> Response:
    data, game_id, play = await game_for(request, ("move", "auto"))
    text = data.get("move")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "move must be a move in notation, e.g. 't3>f5' or 'deal'")
    if len(text) > MAX_MOVE_TEXT:
        raise ApiError(400, "move is too long to be a move")
    auto = data.get("auto", False)
    if not isinstance(auto, bool):
        raise ApiError(400, "auto must be true or false")
    before = play.history.move_count
    try:
        with spoken_piles():
            chosen = play.history.state.parse_move(text)
        play.history.play(chosen)
    except InvalidMoveError as error:
        raise ApiError(400, str(error)) from None
    except (IllegalMoveError, AmbiguousMoveError) as error:
        raise ApiError(422, str(error)) from None
    played = [chosen]
    if auto:
        played += autoplay(play.history)
    referee_of(request).changed(game_id, play, before)
    return JSONResponse(view_payload(game_id, play) | played_payload(play, before, played, asked=True))


def step(action: Callable[[History], object]) -> Callable[[Request], Awaitable[Response]]:
    """The handler of a step along the game's line: undo, redo or restart."""
    async def handler(request: Request) -> Response:
        _, game_id, play = await game_for(request, ())
        try:
            action(play.history)
        except NothingToUndoError as error:
            raise ApiError(409, str(error)) from None
        referee_of(request).changed(game_id, play, None)
        return JSONResponse(view_payload(game_id, play))
    return handler


async def auto(request: Request) -> Response:
    _, game_id, play = await game_for(request, ())
    before = play.history.move_count
    played = autoplay(play.history)
    if played:
        referee_of(request).changed(game_id, play, before)
    return JSONResponse(view_payload(game_id, play) | played_payload(play, before, played, asked=False))


async def why(request: Request) -> Response:
    """Why the card at ``index`` of ``pile`` (query parameters) cannot move now, or where it can
    go: what the player is told when dragging it does nothing."""
    state = referee_of(request).get(request.path_params["id"]).history.state
    game = state.game
    pile = request.query_params.get("pile", "")
    if pile not in game.pile_names():
        raise ApiError(400, f"pile must be one of: {' '.join(game.pile_names())}")
    size = len(state.pile(pile))
    index = request.query_params.get("index", "")
    if not size:
        raise ApiError(400, f"{pile} is empty")
    if not (index.isascii() and index.isdigit() and len(index) <= 3 and int(index) < size):
        raise ApiError(400, f"index must be a whole number from 0 to {size - 1}")
    with spoken_piles():
        return JSONResponse({"reason": game.explain_card(state, pile, int(index))})


async def finish(request: Request) -> Response:
    """Play the rest of the game to the foundations, once its end is certain."""
    _, game_id, play = await game_for(request, ())
    moves = finishing_moves(play.history.state)
    if moves is None:
        raise ApiError(409, "the end is not certain yet")
    before = play.history.move_count
    for move in moves:
        play.history.play(move)
    if moves:
        referee_of(request).changed(game_id, play, before)
    return JSONResponse(view_payload(game_id, play) | played_payload(play, before, moves, asked=False))


async def clock(request: Request) -> Response:
    """The player's clock of active play (sent when the page is hidden or left)."""
    _, game_id, play = await game_for(request, ())
    referee_of(request).store.clocked(game_id, play)
    return JSONResponse({"moves": play.history.move_count, "elapsed": round(play.active, 1)})


async def abandon(request: Request) -> Response:
    """Give up a game: once a move was played, it counts as lost in the statistics."""
    _, game_id, play = await game_for(request, ())
    referee_of(request).abandon(game_id, play)
    return JSONResponse(view_payload(game_id, play))


async def record(request: Request) -> Response:
    """The game's record (its deal number and moves), the very text that the terminal's ``save``
    writes (:func:`kibitz.records.format_record`): refused for a random deal until it ends."""
    play = referee_of(request).get(request.path_params["id"])
    if not play.is_deal_shown:
        raise ApiError(403, "the record of a random deal holds its number, which is shown when the game ends")
    history = play.history
    name = f"kibitz-{history.game.slug}-{history.deal_number}.kibitz"
    return PlainTextResponse(format_record(record_of(history)),
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


# -- searches ----------------------------------------------------------------------------

async def ask(request: Request, fair: FairKind,
              analysis: AnalysisKind) -> tuple[dict[str, Any], Answer, State]:
    """Ask the search pool about the game's current position: the fair question ``fair``
    (from the player's observation), or with ``"peek": true`` the solver's ``analysis``
    (from the true state; the game is then marked assisted). Stopped (409) when the client
    leaves or the game moves on. Returns the fields every answer carries (``status``: the
    game's, as in its view), the answer (``None`` when the game is over: no search) and the
    position asked about."""
    data, game_id, play = await game_for(request, ("seconds", "peek"))
    seconds = seconds_field(data, DEFAULT_HINT_SECONDS)
    peek = bool_field(data, "peek")
    history = play.history
    state, count = history.state, history.move_count
    referee = referee_of(request)
    status = status_of(state)
    head: dict[str, Any] = {"moves": count, "status": status, "peek": peek}
    if peek:
        head.update(label=ANALYSIS)
    else:
        head.update(label=FAIR, seed=search_seed(game_id, None if fair == "chance" else count))
    if status != "playing":
        return head | {"assisted": play.assisted}, None, state
    question: FairQuestion | AnalysisQuestion
    if peek:
        question = AnalysisQuestion(analysis, state, seconds)
    else:
        question = FairQuestion(fair, referee.observation(play), head["seed"], seconds)

    async def stop() -> bool:
        return not referee.still_at(game_id, state) or await request.is_disconnected()

    try:
        found = await referee.searches.ask(question, stop)
    except SearchStopped:
        raise ApiError(409, "the game moved on during the search; ask again") from None
    if peek and found is not None:
        referee.assist(game_id, play)
    return head | {"assisted": play.assisted}, found, state


async def hint(request: Request) -> Response:
    """The next move: the strong agent's, which sees only what the player sees (asking again
    gives the same move); with ``"peek": true`` the solver's, which sees every card."""
    head, found, state = await ask(request, "hint", "hint")
    move = None if found is None else found.get("move")
    words = move_words(state, move)   # the move in words (``hint``: in notation, to mark it on the table)
    if head["peek"]:
        message = f"{ANALYSIS}: try {words}" if words else f"{ANALYSIS}: no winning line found"
        return JSONResponse(head | {"hint": move, "words": words, "message": message})
    reason = "" if found is None else str(found.get("reason", ""))
    if words:
        message = f"try {words} ({reason})"
    else:
        message = {"won": "the game is won", "over": "no move is left"}.get(head["status"], "no hint this time")
    samples = 0 if found is None else found.get("samples", 0)
    return JSONResponse(head | {"hint": move, "words": words, "reason": reason, "samples": samples,
                                "message": message})


async def winnable(request: Request) -> Response:
    """The chance to win from here, from deals sampled to fit what the player sees (as many
    as a node budget allows: the same on any machine); with ``"peek": true`` the solver's
    verdict on the true state."""
    head, found, _ = await ask(request, "chance", "winnable")
    if head["peek"]:
        verdict = found.get("winnable") if found is not None else {"won": True, "over": False}.get(head["status"])
        return JSONResponse(head | {"winnable": verdict})
    return JSONResponse(head | {"chance": found})


# -- the review of a game ------------------------------------------------------------------

NDJSON = "application/x-ndjson"
UNZIPPED = DEFAULT_EXCLUDED_CONTENT_TYPES + (NDJSON,)
"""Answers sent as they are: a stream of lines reaches the page line by line, never held back
to be compressed."""


async def review(request: Request) -> Response:
    """The review of the game's moves so far, as a stream of lines of JSON (:mod:`kibitz.web.reviews`):
    seeing every card once the game has ended, else from what the player saw (``"peek": true``
    asks the solver too, and marks the game assisted). A client that leaves stops it."""
    data, game_id, play = await game_for(request, ("peek",))
    referee = referee_of(request)
    run = reviews.start(game_id, play, bool_field(data, "peek"))
    return StreamingResponse(reviews.stream(referee, run, request.is_disconnected), media_type=NDJSON,
                             headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


def moves_refused(play: Play) -> ApiError:
    """The refusal of a ``moves`` that names no position the player has played."""
    return ApiError(400, f"moves must be a whole number from 0 to {play.history.move_count}")


async def position(request: Request) -> Response:
    """The table after the first ``moves`` moves of the game (query), as the player saw it then,
    read-only: a position the player has played, never one ahead."""
    game_id = request.path_params["id"]
    play = referee_of(request).get(game_id)
    text = request.query_params.get("moves", "")
    if not (text.isascii() and text.isdigit() and len(text) <= 8 and int(text) <= play.history.move_count):
        raise moves_refused(play)
    return JSONResponse(position_payload(game_id, play, int(text)))


async def practice(request: Request) -> Response:
    """A practice game: the same deal with the first ``moves`` moves of this game played again,
    never counted in the statistics. Only from a game that has ended (won, lost or given up):
    practice, and the review of its end, would otherwise tell the player about a game in play."""
    data = await read_json(request, ("moves",))
    game_id = request.path_params["id"]
    referee = referee_of(request)
    play = referee.get(game_id)
    if not play.is_deal_shown:
        raise ApiError(403, "a random deal's number is shown when its game ends; practise it then")
    if play.result is None:
        raise ApiError(409, "practice starts from a game that has ended: finish this one, or give it up")
    count = int_field(data, "moves", 0, play.history.move_count)
    if count is None:
        raise moves_refused(play)
    if play.history.states[count].is_over():
        raise ApiError(409, "the game is over at that position: choose an earlier move")
    new_id, new_play = referee.practice(play, count)
    return JSONResponse(view_payload(new_id, new_play), status_code=201)


# -- refusals --------------------------------------------------------------------------------

async def not_found(request: Request) -> Response:
    raise ApiError(404, "no such API endpoint")


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "not found", 405: "method not allowed"}
    return JSONResponse({"error": messages.get(exc.status_code, exc.detail)}, status_code=exc.status_code)


async def kibitz_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, status_code=400)


async def client_gone(request: Request, exc: Exception) -> Response:
    # The client closed its connection while sending: nobody will read this answer.
    return JSONResponse({"error": "the client left before sending its whole request"}, status_code=400)


async def server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": "internal error in the kibitz server"}, status_code=500)


class StaticFilesRevalidated(StaticFiles):
    """The player's files, which browsers keep but check again (by their ETag) on every load."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


ROUTES = [
    Route("/", index),
    Route("/api/games", list_games),
    Route("/api/games/{slug}/new", new_game, methods=["POST"]),
    Route("/api/games/{slug}/daily", daily_game, methods=["POST"]),
    Route("/api/start", start_page),
    Route("/api/rules/{slug}", rules),
    Route("/api/play", open_games),
    Route("/api/play/{id}", show),
    Route("/api/play/{id}/move", move, methods=["POST"]),
    Route("/api/play/{id}/undo", step(History.undo), methods=["POST"]),
    Route("/api/play/{id}/redo", step(History.redo), methods=["POST"]),
    Route("/api/play/{id}/restart", step(History.restart), methods=["POST"]),
    Route("/api/play/{id}/autoplay", auto, methods=["POST"]),
    Route("/api/play/{id}/finish", finish, methods=["POST"]),
    Route("/api/play/{id}/clock", clock, methods=["POST"]),
    Route("/api/play/{id}/abandon", abandon, methods=["POST"]),
    Route("/api/play/{id}/hint", hint, methods=["POST"]),
    Route("/api/play/{id}/winnable", winnable, methods=["POST"]),
    Route("/api/play/{id}/review", review, methods=["POST"]),
    Route("/api/play/{id}/position", position),
    Route("/api/play/{id}/practice", practice, methods=["POST"]),
    Route("/api/play/{id}/record", record),
    Route("/api/play/{id}/why", why),
    Route("/api/stats", stats),
    Route("/api/stats/reset", reset_stats, methods=["POST"]),
    Route("/api/records", open_record, methods=["POST"]),
    Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
    Mount("/static", StaticFilesRevalidated(directory=str(STATIC)), name="static"),
]


def create_app(data_dir: Path, hosts: HostPolicy = LOCAL_HOSTS, *,
               keep_finished_days: float | None = DEFAULT_KEEP_FINISHED_DAYS,
               search_workers: int | None = None) -> Starlette:
    """The player's web application, keeping its database in ``data_dir`` and answering to
    ``hosts``; finished games stay resumable ``keep_finished_days`` (``None``: for ever);
    ``search_workers`` processes run searches (default: one per core)."""
    referee = Referee(Store(data_dir, keep_finished_days), SearchPool(search_workers))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            referee.searches.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts),
                                Middleware(GZipMiddleware, minimum_size=1000, exclude_content_types=UNZIPPED)],
                    exception_handlers={ApiError: api_error, HTTPException: http_error, KibitzError: kibitz_error,
                                        ClientDisconnect: client_gone, 500: server_error})
    app.state.referee = referee
    return app
