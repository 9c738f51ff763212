"""Reading a request: its JSON body and each field, every read bounded.

A body is at most :data:`MAX_BODY` bytes and must arrive within :data:`BODY_SECONDS`;
a number is compared with its bounds before any conversion (a JSON number may have
hundreds of digits). Anything else is refused with an :class:`ApiError`, which the
application answers as ``{"error": ...}`` with its 4xx status.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.requests import Request

from kibitz.difficulty import LEVELS, Level
from kibitz.deals import check_deal_number, parse_deal_number, random_deal_number
from kibitz.errors import DealNumberError
from kibitz.rules import RULESETS

MAX_BODY = 16 * 1024
"""Largest request body accepted, in bytes."""
BODY_SECONDS = 10.0
"""Longest a client may take to send a request body."""
MAX_MOVE_TEXT = 40
DEFAULT_HINT_SECONDS = 3.0
MAX_SOLVER_SECONDS = 10.0
MIN_SOLVER_SECONDS = 0.05
MAX_CLOCK_SECONDS = 10_000_000.0
"""Longest a game's clock may read (about 116 days of play)."""


class ApiError(Exception):
    """A request the API refuses: an HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_json(request: Request, allowed: tuple[str, ...], limit: int = MAX_BODY) -> dict[str, Any]:
    """The JSON object in the request body (``{}`` when empty), at most ``limit`` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or len(length) > 9
                               or int(length) > limit):
        raise ApiError(413, f"request body too large (at most {limit} bytes)")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, f"request body too large (at most {limit} bytes)")
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


def int_field(data: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{name} must be a whole number from {low} to {high}")
    return value


def bool_field(data: dict[str, Any], name: str) -> bool:
    """A true-or-false field, false when absent."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"{name} must be true or false")
    return value


def seconds_field(data: dict[str, Any], default: float) -> float:
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


def deal_field(value: object) -> int:
    if value is None:
        return random_deal_number()
    try:
        if isinstance(value, str):
            return parse_deal_number(value)
        return check_deal_number(value)
    except DealNumberError as error:
        raise ApiError(400, str(error)) from None


def level_field(value: object) -> Level | None:
    """The difficulty asked for a random deal: ``easy``, ``medium`` or ``hard`` (``None``,
    ``any`` or absent: any)."""
    if value is None or value == "any":
        return None
    for level in LEVELS:
        if value == level:
            return level
    raise ApiError(400, f"level must be one of: {', '.join(LEVELS)}, any")


def ruleset_field(value: object) -> str:
    if value is None:
        return "standard"
    if not isinstance(value, str) or value not in RULESETS:
        raise ApiError(400, f"unknown ruleset; choose one of: {', '.join(RULESETS)}")
    return value


def clock_field(data: dict[str, Any]) -> float | None:
    """The player's clock of active play in seconds (``clock``), if the request carries one."""
    value = data.get("clock")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ApiError(400, "clock must be a number of seconds")
    if value <= 0:
        return 0.0
    return MAX_CLOCK_SECONDS if value >= MAX_CLOCK_SECONDS else float(value)
