"""A game in progress: the states so far, with unlimited undo and redo.

States are immutable, so history keeps them all; undo and redo move a cursor.
"""

from __future__ import annotations

from kibitz.errors import KibitzError
from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.state import State


class NothingToUndoError(KibitzError):
    """Undo at the start, or redo at the end, of a history."""


class History:
    """The moves of one game from its opening state, and where the player is among them."""

    def __init__(self, start: State, deal_number: int | None = None) -> None:
        self.deal_number = deal_number
        self._states: list[State] = [start]
        self._moves: list[Move] = []
        self._cursor = 0

    @classmethod
    def new(cls, game: Game, deal_number: int) -> History:
        """A history at the opening of deal ``deal_number``."""
        return cls(game.deal(deal_number), deal_number)

    @property
    def game(self) -> Game:
        return self._states[0].game

    @property
    def start(self) -> State:
        return self._states[0]

    @property
    def state(self) -> State:
        """The current state."""
        return self._states[self._cursor]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves from the start to the current state."""
        return tuple(self._moves[:self._cursor])

    @property
    def move_count(self) -> int:
        """How many moves lead from the start to the current state (``len(moves)``, in constant time)."""
        return self._cursor

    @property
    def line(self) -> tuple[Move, ...]:
        """Every move of the line: those played, then those undone that redo would play again."""
        return tuple(self._moves)

    @property
    def can_undo(self) -> bool:
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._moves)

    def play(self, move: Move | str) -> State:
        """Play a legal move (a :class:`Move`, or text a player typed); forgets the redo line."""
        if isinstance(move, str):
            move = self.state.parse_move(move)
        after = self.state.apply(move)
        del self._states[self._cursor + 1:]
        del self._moves[self._cursor:]
        self._states.append(after)
        self._moves.append(move)
        self._cursor += 1
        return after

    def undo(self) -> State:
        """Step back one move."""
        if not self.can_undo:
            raise NothingToUndoError("nothing to undo: this is the start of the game")
        self._cursor -= 1
        return self.state

    def redo(self) -> State:
        """Step forward again along the undone moves."""
        if not self.can_redo:
            raise NothingToUndoError("nothing to redo")
        self._cursor += 1
        return self.state

    def restart(self) -> State:
        """Back to the opening; the moves stay available to redo."""
        self._cursor = 0
        return self.state
