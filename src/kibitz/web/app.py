"""The web application: a JSON API that referees games, and the static player.

Every response about a game carries only the player's view of it (hidden cards as
``null``), the legal moves as text and the counts; never the true state. Input is
checked by hand: a bad request gets a 4xx answer ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kibitz.cards import IDENTITY, RANKS, SUITS, format_card
from kibitz.deals import check_deal_number, parse_deal_number, random_deal_number
from kibitz.errors import (AmbiguousMoveError, DealNumberError, IllegalMoveError, InvalidMoveError,
                           KibitzError, UnknownGameError)
from kibitz.history import History, NothingToUndoError
from kibitz.registry import find, game as find_game, games
from kibitz.rules import RULESETS
from kibitz.tui.autoplay import SAFE_RULE, autoplay
from kibitz.web.markdown import to_html
from kibitz.web.store import Play, Store, StoredGameError, statistics

if TYPE_CHECKING:
    from kibitz.solver import Limits
    from kibitz.state import State

T = TypeVar("T")

MAX_BODY = 16 * 1024
"""Largest request body accepted, in bytes."""
MAX_MOVE_TEXT = 40
DEFAULT_HINT_SECONDS = 3.0
MAX_SOLVER_SECONDS = 10.0
MIN_SOLVER_SECONDS = 0.05
CACHE_SIZE = 64
"""Games kept in memory; the others are read back from the database when asked for."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
LOCAL_HOSTS = ["127.0.0.1", "localhost", "testserver"]

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
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
        chunks.append(chunk)
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
    value = data.get("seconds", default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ApiError(400, "seconds must be a number")
    return min(MAX_SOLVER_SECONDS, max(MIN_SOLVER_SECONDS, float(value)))


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
        "moves": len(history.moves), "can_undo": history.can_undo, "can_redo": history.can_redo,
        "status": status, "result": play.result,
        "elapsed": round(max(0.0, time.time() - play.created), 1),
    }


# -- the application --------------------------------------------------------------------

class Referee:
    """The games being played: in memory, backed by the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cache: OrderedDict[str, Play] = OrderedDict()
        self.solver_limit = anyio.CapacityLimiter(1)

    def new(self, slug: str, ruleset: str, deal: int) -> tuple[str, Play]:
        game = find_game(slug, ruleset)
        game_id = secrets.token_urlsafe(12)
        play = Play(History.new(game, deal), time.time())
        self.store.save(game_id, play)
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

    def changed(self, game_id: str, play: Play) -> None:
        """Save a game after a change, and count it if it has just ended."""
        self.store.save(game_id, play)
        state = play.history.state
        if play.result is None and state.is_over():
            play.result = "won" if state.is_won() else "lost"
            self.store.finish(game_id, play, play.result)


def create_app(data_dir: Path, allowed_hosts: list[str] | None = None) -> Starlette:
    """The player's web application, keeping its database in ``data_dir``."""
    referee = Referee(Store(data_dir))
    static = resources.files("kibitz.web") / "static"
    rules_dir = resources.files("kibitz.web") / "rules"

    def check_expected(data: dict[str, Any], play: Play) -> None:
        expected = _int_field(data, "expected_moves", 0, 10_000_000)
        if expected is not None and expected != len(play.history.moves):
            raise ApiError(409, f"the game has moved on ({len(play.history.moves)} moves, "
                                f"not {expected}); reload to see it")

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
        referee.changed(game_id, play)
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
            referee.changed(game_id, play)
            return JSONResponse(view_payload(game_id, play))
        return handler

    async def auto(request: Request) -> Response:
        data = await read_json(request, ("expected_moves",))
        game_id = request.path_params["id"]
        play = referee.get(game_id)
        check_expected(data, play)
        played = autoplay(play.history)
        if played:
            referee.changed(game_id, play)
        return JSONResponse(view_payload(game_id, play) | {"played": [str(m) for m in played]})

    async def ask_solver(request: Request, ask: Callable[[State, Limits], T]) -> tuple[int, T]:
        """Run ``ask`` on the game's current state in a worker thread, one search at a time,
        within the time the request allows; returns the move count it answered for."""
        from kibitz.solver import Limits
        data = await read_json(request, ("seconds", "expected_moves"))
        play = referee.get(request.path_params["id"])
        check_expected(data, play)
        limits = Limits(seconds=_seconds_field(data, DEFAULT_HINT_SECONDS))
        state, count = play.history.state, len(play.history.moves)
        answer = await anyio.to_thread.run_sync(lambda: ask(state, limits), limiter=referee.solver_limit)
        return count, answer

    async def hint(request: Request) -> Response:
        from kibitz.solver import hint as solver_hint
        count, found = await ask_solver(request, solver_hint)
        return JSONResponse({"moves": count, "hint": None if found is None else str(found),
                             "message": "no winning line found" if found is None else f"try {found}"})

    async def winnable(request: Request) -> Response:
        from kibitz.solver import is_winnable
        count, verdict = await ask_solver(request, is_winnable)
        return JSONResponse({"moves": count, "winnable": verdict})

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
        Route("/api/stats", stats),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or LOCAL_HOSTS)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={
        ApiError: api_error, HTTPException: http_error, KibitzError: kibitz_error, 500: server_error})
    app.state.referee = referee
    return app
