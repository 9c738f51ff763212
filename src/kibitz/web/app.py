"""The web application: a JSON API that referees games, and the static player.

Every response about a game carries only the player's view of it (hidden cards as
``null``), the legal moves as text and the counts; never the true state. Input is
checked by hand, and every read is bounded (body size and time, numbers, text): a bad
request gets a 4xx answer ``{"error": "..."}``, and a client that leaves mid-request is
not an error. :mod:`kibitz.web.guard` refuses foreign hosts and cross-site requests;
searches run in worker processes (:mod:`kibitz.web.searches`).
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kibitz.cards import IDENTITY, RANKS, SUITS, format_card
from kibitz.deals import check_deal_number, parse_deal_number, random_deal_number
from kibitz.errors import (AmbiguousMoveError, DealNumberError, IllegalMoveError, InvalidMoveError,
                           KibitzError, UnknownGameError)
from kibitz.history import History, NothingToUndoError
from kibitz.records import format_record, record_of
from kibitz.registry import find, game as find_game, games
from kibitz.rules import RULESETS
from kibitz.state import State
from kibitz.tui.autoplay import SAFE_RULE, autoplay
from kibitz.web.guard import LOCAL_NAMES, Guard, HostPolicy
from kibitz.web.markdown import to_html
from kibitz.web.searches import Question, SearchPool, SearchStopped
from kibitz.web.store import DEFAULT_KEEP_FINISHED_DAYS, Play, Store, StoredGameError, statistics

MAX_BODY = 16 * 1024
"""Largest request body accepted, in bytes."""
BODY_SECONDS = 10.0
"""Longest a client may take to send a request body."""
MAX_MOVE_TEXT = 40
DEFAULT_HINT_SECONDS = 3.0
MAX_SOLVER_SECONDS = 10.0
MIN_SOLVER_SECONDS = 0.05
CACHE_SIZE = 64
"""Games kept in memory; the others are read back from the database when asked for."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
LOCAL_HOSTS = HostPolicy.of(LOCAL_NAMES + ("testserver",))
"""The hosts of a server on this computer only (``testserver``: Starlette's test client)."""

Handler = Callable[[Request], Awaitable[Response]]


class ApiError(Exception):
    """A request the API refuses: an HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# -- input ------------------------------------------------------------------------

async def read_json(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The JSON object in the request body (``{}`` when empty), at most :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or len(length) > 9
                               or int(length) > MAX_BODY):
        raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {BODY_SECONDS:.0f} seconds") from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}"
                       + (f"; fields: {', '.join(allowed)}" if allowed else "; this request takes no fields"))
    return data


def _int_field(data: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{name} must be a whole number from {low} to {high}")
    return value


def _seconds_field(data: dict[str, Any], default: float) -> float:
    """The ``seconds`` a search may take, brought within its bounds (compared before any
    conversion: a JSON number may be an integer of hundreds of digits)."""
    value = data.get("seconds", default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ApiError(400, "seconds must be a number")
    if value >= MAX_SOLVER_SECONDS:
        return MAX_SOLVER_SECONDS
    if value <= MIN_SOLVER_SECONDS:
        return MIN_SOLVER_SECONDS
    return float(value)


def _deal_field(value: object) -> int:
    if value is None:
        return random_deal_number()
    try:
        if isinstance(value, str):
            return parse_deal_number(value)
        return check_deal_number(value)
    except DealNumberError as error:
        raise ApiError(400, str(error)) from None


def _ruleset_field(value: object) -> str:
    if value is None:
        return "standard"
    if not isinstance(value, str) or value not in RULESETS:
        raise ApiError(400, f"unknown ruleset; choose one of: {', '.join(RULESETS)}")
    return value


# -- output -----------------------------------------------------------------------------

def _card(card: int | None) -> str | None:
    return None if card is None else format_card(card & IDENTITY, mark_face_down=False)


def game_info(slug: str) -> dict[str, Any]:
    """A game's description and the piles of its table."""
    info = find(slug)
    game = find_game(slug)
    piles = []
    for spec in game.piles:
        pile: dict[str, Any] = {"name": spec.name, "kind": spec.kind.name.lower(),
                                "spread": spec.spread.value, "cell": spec.cell}
        if spec.foundation is not None:
            f = spec.foundation
            pile["foundation"] = {"suit": SUITS[f.suit], "step": f.step,
                                  "first": None if f.first is None else RANKS[f.first]}
        piles.append(pile)
    return {"slug": info.slug, "name": info.name, "aliases": list(info.aliases), "packs": info.packs,
            "redeals": info.redeals, "description": info.description,
            "rules_version": info.rules_version, "rulesets": list(RULESETS), "piles": piles}


def view_payload(game_id: str, play: Play) -> dict[str, Any]:
    """What the browser may know of a game: the view, the legal moves and the counts."""
    history = play.history
    state = history.state
    game = state.game
    view = state.view()
    won = state.is_won()
    status = "won" if won else "over" if state.is_over() else "playing"
    return {
        "id": game_id, "game": game.slug, "name": game.name, "ruleset": game.ruleset,
        "deal": str(history.deal_number), "round": view.round,
        "redeals_left": max(0, game.info.redeals - (view.round - 1)),
        "base": None if view.base is None else RANKS[view.base],
        "piles": {name: [_card(c) for c in cards] for name, cards in zip(view.pile_names, view.piles)},
        "legal": [str(m) for m in state.legal_moves],
        "moves": history.move_count, "can_undo": history.can_undo, "can_redo": history.can_redo,
        "status": status, "result": play.result,
        "elapsed": round(max(0.0, time.time() - play.created), 1),
    }


# -- the application --------------------------------------------------------------------

class Referee:
    """The games being played: in memory, backed by the store; and their searches."""

    def __init__(self, store: Store, searches: SearchPool) -> None:
        self.store = store
        self.searches = searches
        self.cache: OrderedDict[str, Play] = OrderedDict()

    def new(self, slug: str, ruleset: str, deal: int) -> tuple[str, Play]:
        game = find_game(slug, ruleset)
        game_id = secrets.token_urlsafe(12)
        play = Play(History.new(game, deal), time.time())
        self.store.create(game_id, play)
        self._remember(game_id, play)
        return game_id, play

    def get(self, game_id: str) -> Play:
        if not _GAME_ID.fullmatch(game_id):
            raise ApiError(404, "no such game")
        play = self.cache.get(game_id)
        if play is None:
            try:
                play = self.store.load(game_id)
            except StoredGameError as error:
                raise ApiError(410, str(error)) from None
            if play is None:
                raise ApiError(404, "no such game")
            self._remember(game_id, play)
        self.cache.move_to_end(game_id)
        return play

    def _remember(self, game_id: str, play: Play) -> None:
        self.cache[game_id] = play
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def changed(self, game_id: str, play: Play, played_since: int | None) -> None:
        """Save a game after a change, and count it if it has just ended.

        ``played_since``: the move count before the change when moves were played (they
        replace the redo line from there), ``None`` when only the position moved (undo,
        redo, restart)."""
        if played_since is None:
            self.store.moved(game_id, play.history)
        else:
            self.store.played(game_id, play.history, played_since)
        state = play.history.state
        if play.result is None and state.is_over():
            play.result = "won" if state.is_won() else "lost"
            self.store.finish(game_id, play, play.result)
        self.store.prune()

    def still_at(self, game_id: str, state: State) -> bool:
        """Whether game ``game_id`` is still at ``state`` (a search about it is still wanted)."""
        try:
            return self.get(game_id).history.state == state
        except ApiError:
            return False


def create_app(data_dir: Path, hosts: HostPolicy = LOCAL_HOSTS, *,
               keep_finished_days: float | None = DEFAULT_KEEP_FINISHED_DAYS,
               search_workers: int | None = None) -> Starlette:
    """The player's web application, keeping its database in ``data_dir`` and answering to
    ``hosts``; finished games stay resumable ``keep_finished_days`` (``None``: for ever);
    ``search_workers`` processes run searches (default: one per core)."""
    referee = Referee(Store(data_dir, keep_finished_days), SearchPool(search_workers))
    static = resources.files("kibitz.web") / "static"
    rules_dir = resources.files("kibitz.web") / "rules"

    def check_expected(data: dict[str, Any], play: Play) -> None:
        expected = _int_field(data, "expected_moves", 0, 10_000_000)
        count = play.history.move_count
        if expected is not None and expected != count:
            raise ApiError(409, f"the game has moved on ({count} moves, not {expected}); reload to see it")

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-cache"})

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": [game_info(info.slug) for info in games()],
                             "rulesets": list(RULESETS), "safe_rule": SAFE_RULE})

    async def rules(request: Request) -> Response:
        try:
            info = find(request.path_params["slug"])
        except UnknownGameError as error:
            raise ApiError(404, str(error)) from None
        page = rules_dir / f"{info.slug}.md"
        common = rules_dir / "README.md"
        return JSONResponse({"game": info.slug, "name": info.name, "html": to_html(page.read_text("utf-8")),
                             "common": to_html(common.read_text("utf-8"))})

    async def new_game(request: Request) -> Response:
        data = await read_json(request, ("ruleset", "deal"))
        try:
            info = find(request.path_params["slug"])
        except UnknownGameError as error:
            raise ApiError(404, str(error)) from None
        ruleset = _ruleset_field(data.get("ruleset"))
        deal = _deal_field(data.get("deal"))
        game_id, play = referee.new(info.slug, ruleset, deal)
        return JSONResponse(view_payload(game_id, play), status_code=201)

    async def open_games(request: Request) -> Response:
        return JSONResponse({"games": referee.store.open_games()})

    async def show(request: Request) -> Response:
        game_id = request.path_params["id"]
        return JSONResponse(view_payload(game_id, referee.get(game_id)))

    async def move(request: Request) -> Response:
        data = await read_json(request, ("move", "expected_moves", "auto"))
        game_id = request.path_params["id"]
        play = referee.get(game_id)
        text = data.get("move")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "move must be a move in notation, e.g. 't3>f5' or 'deal'")
        if len(text) > MAX_MOVE_TEXT:
            raise ApiError(400, "move is too long to be a move")
        auto = data.get("auto", False)
        if not isinstance(auto, bool):
            raise ApiError(400, "auto must be true or false")
        check_expected(data, play)
        before = play.history.move_count
        try:
            chosen = play.history.state.parse_move(text)
            play.history.play(chosen)
        except InvalidMoveError as error:
            raise ApiError(400, str(error)) from None
        except (IllegalMoveError, AmbiguousMoveError) as error:
            raise ApiError(422, str(error)) from None
        played = [chosen]
        if auto:
            played += autoplay(play.history)
        referee.changed(game_id, play, before)
        return JSONResponse(view_payload(game_id, play) | {"played": [str(m) for m in played]})

    def step(action: Callable[[History], object]) -> Handler:
        async def handler(request: Request) -> Response:
            data = await read_json(request, ("expected_moves",))
            game_id = request.path_params["id"]
            play = referee.get(game_id)
            check_expected(data, play)
            try:
                action(play.history)
            except NothingToUndoError as error:
                raise ApiError(409, str(error)) from None
            referee.changed(game_id, play, None)
            return JSONResponse(view_payload(game_id, play))
        return handler

    async def auto(request: Request) -> Response:
        data = await read_json(request, ("expected_moves",))
        game_id = request.path_params["id"]
        play = referee.get(game_id)
        check_expected(data, play)
        before = play.history.move_count
        played = autoplay(play.history)
        if played:
            referee.changed(game_id, play, before)
        return JSONResponse(view_payload(game_id, play) | {"played": [str(m) for m in played]})

    async def ask(request: Request, question: Question) -> tuple[int, object]:
        """Ask the search pool ``question`` about the game's current state, within the time the
        request allows; stopped (409) when the client leaves or the game moves on. Returns the
        move count it answered for, and the answer."""
        data = await read_json(request, ("seconds", "expected_moves"))
        game_id = request.path_params["id"]
        play = referee.get(game_id)
        check_expected(data, play)
        seconds = _seconds_field(data, DEFAULT_HINT_SECONDS)
        state, count = play.history.state, play.history.move_count

        async def stop() -> bool:
            return not referee.still_at(game_id, state) or await request.is_disconnected()

        try:
            return count, await referee.searches.ask(question, state, seconds, stop)
        except SearchStopped:
            raise ApiError(409, "the game moved on during the search; ask again") from None

    async def hint(request: Request) -> Response:
        count, found = await ask(request, "hint")
        return JSONResponse({"moves": count, "hint": found,
                             "message": "no winning line found" if found is None else f"try {found}"})

    async def winnable(request: Request) -> Response:
        count, verdict = await ask(request, "winnable")
        return JSONResponse({"moves": count, "winnable": verdict})

    async def record(request: Request) -> Response:
        play = referee.get(request.path_params["id"])
        history = play.history
        name = f"kibitz-{history.game.slug}-{history.deal_number}.kibitz"
        return PlainTextResponse(format_record(record_of(history)),
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def stats(request: Request) -> Response:
        results = referee.store.results()
        recent = [{"game": r.slug, "ruleset": r.ruleset, "deal": r.deal, "result": r.result,
                   "seconds": round(r.seconds, 1), "moves": r.moves, "finished": r.finished}
                  for r in results[-100:]]
        return JSONResponse({"stats": statistics(results), "recent": recent})

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

    routes = [
        Route("/", index),
        Route("/api/games", list_games),
        Route("/api/games/{slug}/new", new_game, methods=["POST"]),
        Route("/api/rules/{slug}", rules),
        Route("/api/play", open_games),
        Route("/api/play/{id}", show),
        Route("/api/play/{id}/move", move, methods=["POST"]),
        Route("/api/play/{id}/undo", step(History.undo), methods=["POST"]),
        Route("/api/play/{id}/redo", step(History.redo), methods=["POST"]),
        Route("/api/play/{id}/restart", step(History.restart), methods=["POST"]),
        Route("/api/play/{id}/autoplay", auto, methods=["POST"]),
        Route("/api/play/{id}/hint", hint, methods=["POST"]),
        Route("/api/play/{id}/winnable", winnable, methods=["POST"]),
        Route("/api/play/{id}/record", record),
        Route("/api/stats", stats),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            referee.searches.close()

    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts)], lifespan=lifespan,
                    exception_handlers={ApiError: api_error, HTTPException: http_error, KibitzError: kibitz_error,
                                        ClientDisconnect: client_gone, 500: server_error})
    app.state.referee = referee
    return app
