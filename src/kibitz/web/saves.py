"""Saved games in the browser: a record file that the player's page sends, checked exactly as
``kibitz replay`` checks one (:func:`kibitz.records.history_of_file`) and opened as a game.

The page sends the file's bytes as they are (in base64), so that a file that is not text is
refused as the terminal refuses it. An opened game is a practice game: it never counts in the
statistics, since anyone can write a record (a solver's winning moves and all), and a record
of a game that already counted would count twice.
"""

from __future__ import annotations

import base64
import binascii

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kibitz.errors import RecordError
from kibitz.printable import printable
from kibitz.records import history_of_file
from kibitz.web.inputs import ApiError, read_json
from kibitz.web.referee import Referee, view_payload

MAX_OPEN_BYTES = 1_000_000
"""The largest record file the page may send, in bytes: some 100,000 moves, far more than a
game of any of the games takes."""
MAX_NAME = 120
"""The longest file name shown in a refusal, in characters."""
OPEN_BODY = (MAX_OPEN_BYTES + 2) // 3 * 4 + 2 * MAX_NAME + 1024
"""The largest request that opens a record: the file in base64, its name and the other fields."""


def leaving_field(value: object) -> str | None:
    """The id of the game the page leaves (``leaving``), if the request names one."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise ApiError(400, "leaving must be the id of the game the page leaves")
    return value


def file_name(value: object) -> str:
    """The name of the file sent, as a refusal shows it (``the record`` when it has none)."""
    if value is None or value == "":
        return "the record"
    if not isinstance(value, str):
        raise ApiError(400, "name must be the file's name")
    return printable(value[:MAX_NAME]) + ("…" if len(value) > MAX_NAME else "")


def file_bytes(value: object, name: str) -> bytes:
    """The bytes of the file sent (``data``, in base64), at most :data:`MAX_OPEN_BYTES`."""
    if not isinstance(value, str):
        raise ApiError(400, "data must be the bytes of the record file, in base64")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, "data must be the bytes of the record file, in base64") from None
    if len(raw) > MAX_OPEN_BYTES:
        raise ApiError(413, f"{name}: {len(raw):,} bytes, larger than a record file sent here can be "
                            f"(at most {MAX_OPEN_BYTES:,} bytes)")
    return raw


async def open_record(request: Request) -> Response:
    """Open a record file (``data``: its bytes in base64; ``name``: the file's name) as a new
    game, continued from its last move or shown at its end: a practice game, never counted. A
    file that ``kibitz replay`` would refuse is refused (400) with the same words, naming the
    line at fault. ``leaving``: the game the page leaves, not kept if untouched."""
    data = await read_json(request, ("name", "data", "leaving"), limit=OPEN_BODY)
    name = file_name(data.get("name"))
    raw = file_bytes(data.get("data"), name)
    leaving = leaving_field(data.get("leaving"))
    try:
        history = history_of_file(raw, name)
    except RecordError as error:
        raise ApiError(400, str(error)) from None
    referee: Referee = request.app.state.referee
    game_id, play = referee.opened(history, leaving)
    return JSONResponse(view_payload(game_id, play), status_code=201)
