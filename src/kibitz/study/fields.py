"""The fields of a results file's CSV rows, checked as they are read: each checker names the
field and says what it should have been (:class:`ValueError`)."""

from __future__ import annotations

import math
import re
from typing import Callable, TypeVar

from kibitz.deals import MAX_DEAL_NUMBER

Number = TypeVar("Number", int, float)
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
SLUG = re.compile(r"[a-z][a-z0-9-]*\Z")
SETTING = re.compile(r"(-|[a-z][a-z0-9-]*(\*[1-9][0-9]{0,5})?)\Z")
"""A played deal's setting: ``-`` (the agent does not search), a name, or a name with its
budget factor (``study*10``)."""
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+!-]{0,39}\Z")


def _at_least_zero(text: str, what: str, convert: Callable[[str], Number], kind: str) -> Number:
    """A field read by ``convert`` as a finite ``kind`` of 0 or more."""
    try:
        value = convert(text)
    except ValueError:
        raise ValueError(f"{what} is {text!r}, not a {kind}") from None
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{what} is {text!r}: it must be a {kind}, 0 or more")
    return value


def whole(text: str, what: str) -> int:
    """A field read as a whole number of 0 or more."""
    if text.isascii() and text.isdigit():  # the common case, read at once
        return int(text)
    return _at_least_zero(text, what, int, "whole number")


def seconds(text: str, what: str) -> float:
    """A field read as a finite number of seconds, 0 or more."""
    return _at_least_zero(text, what, float, "number of seconds")


def slugs(fields: dict[str, str]) -> tuple[str, str]:
    """The game and ruleset of a row, each checked to be a slug."""
    game, ruleset = fields["game"], fields["ruleset"]
    for what, name in (("game", game), ("ruleset", ruleset)):
        if not SLUG.match(name):
            raise ValueError(f"{what} is {name!r}, not a slug such as 'duchess' or 'standard'")
    return game, ruleset


def recorded(fields: dict[str, str]) -> str:
    """When a row was recorded, checked to be a UTC time."""
    text = fields["recorded"]
    if not TIMESTAMP.match(text):
        raise ValueError(f"recorded is {text!r}, not a time such as 2026-12-03T12:00:00Z")
    return text


def one_of(fields: dict[str, str], name: str, allowed: tuple[str, ...]) -> str:
    """A field checked to be one of ``allowed``."""
    value = fields[name]
    if value not in allowed:
        raise ValueError(f"{name} is {value!r}, not one of {', '.join(allowed)}")
    return value


def deal(fields: dict[str, str]) -> int:
    """A row's deal number, checked to be one."""
    number = whole(fields["deal"], "deal")
    if not number or number > MAX_DEAL_NUMBER:
        raise ValueError(f"deal is {fields['deal']!r}: deal numbers run from 1 to {MAX_DEAL_NUMBER}")
    return number


def setting(fields: dict[str, str]) -> str:
    """A played deal's setting, checked to be ``-``, a name or a name with a budget factor."""
    value = fields["setting"]
    if not SETTING.match(value):
        raise ValueError(f"setting is {value!r}, not '-', a name such as 'study' or one with its budget "
                         "such as 'study*10'")
    return value


def flag(fields: dict[str, str], name: str) -> bool:
    """A field checked to be 0 or 1."""
    value = fields[name]
    if value not in ("0", "1"):
        raise ValueError(f"{name} is {value!r}, not 0 or 1")
    return value == "1"


def version(fields: dict[str, str], name: str) -> str:
    """A field checked to be a version such as 0.1.0."""
    value = fields[name]
    if not VERSION.match(value):
        raise ValueError(f"{name} is {value!r}, not a version such as 0.1.0")
    return value
