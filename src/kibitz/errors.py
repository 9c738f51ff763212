"""The exceptions kibitz raises. All are :class:`ValueError` subclasses and say what was wrong."""

from __future__ import annotations


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, its control characters escaped (``repr``), and cut after
    ``limit`` characters with its length said: a huge argument makes a short message."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


class KibitzError(ValueError):
    """Base class of every kibitz error."""


class NotationError(KibitzError):
    """Text that is not valid notation (a card, a move, a state or a record)."""


class InvalidMoveError(NotationError):
    """A move string that is malformed: it does not parse at all."""


class IllegalMoveError(KibitzError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(KibitzError):
    """A shorthand move that fits more than one legal move."""


class UnknownGameError(KibitzError):
    """No registered game has that name or alias, or the ruleset is unknown."""


class DealNumberError(KibitzError):
    """A deal number that is not a positive integer of at most 20 digits."""


class RecordError(NotationError):
    """A saved game record that is corrupt, truncated or tampered with."""
