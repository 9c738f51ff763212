"""A game in progress: the states so far, with unlimited undo and redo.

States are immutable, so history keeps them all; undo and redo move a cursor.
"""

from __future__ import annotations

from typing import Iterable

from kibitz.errors import IllegalMoveError, KibitzError
from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.state import State


class NothingToUndoError(KibitzError):
    """Undo at the start, or redo at the end, of a history."""


class ReplayError(IllegalMoveError):
    """A move of a replayed game that the rules do not allow where it comes."""

    def __init__(self, number: int, move: Move, reason: str) -> None:
        super().__init__(f"move {number} ({move}): {reason}")
        self.number = number
        """Which move, counting from 1."""


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

    @classmethod
    def replay(cls, start: State, moves: Iterable[Move], deal_number: int | None = None) -> History:
        """The history of ``moves`` played in turn from ``start``, at the last of them.

        Each move is checked as :meth:`play` checks it; the first one that is not legal
        raises :class:`ReplayError`. A position reached again is the very same
        :class:`State` as before, and a move made again from it is checked and made once,
        so a game that goes back and forth costs little more than its distinct moves.
        The states keep no list of their legal moves (``legal_moves`` works it out when
        asked), so that a long game takes less memory.
        """
        history = cls(start, deal_number)
        game = start.game
        states, played = history._states, history._moves
        known = {start: start}
        # Keyed by id(): every state met stays alive in ``known`` until the end.
        made: dict[tuple[int, Move], State] = {}
        state = start
        for number, move in enumerate(moves, 1):
            step = (id(state), move)
            after = made.get(step)
            if after is None:
                if move not in game.generate_moves(state):
                    raise ReplayError(number, move, game.explain_illegal(state, move))
                after = game.apply_unchecked(state, move)
                after = made[step] = known.setdefault(after, after)
            state = after
            states.append(state)
            played.append(move)
        history._cursor = len(played)
        return history

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
    def states(self) -> tuple[State, ...]:
        """The states from the start to the current one (``moves`` leads from each to the next)."""
        return tuple(self._states[:self._cursor + 1])

    @property
    def move_count(self) -> int:
        """How many moves lead from the start to the current state (``len(moves)``, in constant time)."""
        return self._cursor

    @property
    def line(self) -> tuple[Move, ...]:
        """Every move of the line: those played, then those undone that redo would play again."""
        return tuple(self._moves)

    def moves_since(self, count: int) -> tuple[Move, ...]:
        """The moves played after the first ``count``, up to the current state (``moves[count:]``,
        in time proportional to their number)."""
        return tuple(self._moves[max(0, count):self._cursor])

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
