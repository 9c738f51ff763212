"""What the page tells a player of the moves played and hinted, in words (:mod:`kibitz.spoken`):
the server words them, from the position they were played in, so that the page, the review
and the refusals (:func:`kibitz.reasons.spoken_piles`) say moves one way. Notation goes along
for the page's own use (marking the cards on the table)."""

from __future__ import annotations

from typing import Any, Sequence

from kibitz.moves import Move, parse_move
from kibitz.spoken import move_phrase, played_words
from kibitz.state import State
from kibitz.web.store import Play


def played_payload(play: Play, before: int, moves: Sequence[Move], asked: bool) -> dict[str, Any]:
    """The moves a request played from move ``before`` on, in notation (``played``) and in words
    (``played_words``); ``asked``: the first is the move the player asked for (else all were
    played for the player: auto-play, finish)."""
    states = play.history.states[before:before + len(moves)]
    return {"played": [str(move) for move in moves], "played_words": played_words(states, moves, asked)}


def move_words(state: State, text: str | None) -> str | None:
    """A move of ``state`` given in notation (a hint's), in words; ``None`` for none."""
    return None if text is None else move_phrase(state, parse_move(text))
