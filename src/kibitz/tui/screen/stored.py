"""The full-screen table's games, kept in the browser player's store.

The same SQLite file in the same data directory (:mod:`kibitz.web.store`,
:func:`kibitz.web.commands.data_dir`), written through the browser's referee
(:class:`kibitz.web.referee.Referee`): moves, undo and redo, the clock of active play
and results are saved exactly as the browser saves them. So a game started in either
player continues in the other, and both count in the same statistics.

The table tells the keeper of every change (:meth:`GameKeeper.keep`); the keeper finds
what changed by comparing the game's line of moves with the line it stored last.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.moves import Move
from kibitz.registry import find
from kibitz.tui.drawing import plural
from kibitz.web.inputs import ApiError
from kibitz.web.referee import Referee
from kibitz.web.searches import SearchPool
from kibitz.web.store import DEFAULT_KEEP_FINISHED_DAYS, Play, Store, statistics

MOVED_ELSEWHERE = ("This game moved on in another window (the browser?): the moves played here are no longer "
                   "kept. Quit and open it again with kibitz play --continue.")


class StoredGameMissing(KibitzError):
    """A game asked for by its id that the store does not have (or can no longer resume)."""


class GameKeeper:
    """Keeps the game played at the table in the store, and reads the statistics from it.

    ``keep_finished_days``: how long a finished game stays resumable (``None``: for ever).
    """

    def __init__(self, directory: Path, keep_finished_days: float | None = DEFAULT_KEEP_FINISHED_DAYS) -> None:
        self.store = Store(directory, keep_finished_days)
        # The referee's searches are never asked here: the table asks the analysis layer itself.
        self.referee = Referee(self.store, SearchPool(1))
        self.game_id: str | None = None
        self.play: Play | None = None
        self.line: tuple[Move, ...] = ()
        """The line of moves stored last (played, then undone)."""
        self.position = 0
        """How many moves of :attr:`line` were played when it was stored."""
        self.detached = False
        """The stored game was changed elsewhere: nothing more is written for it."""

    # -- which game -------------------------------------------------------------

    def start(self, history: History, chosen: bool) -> Play:
        """Keep a new game of ``history``'s deal (``chosen``: its number was chosen, else it is a
        random deal whose number is withheld until the game ends)."""
        deal = history.deal_number
        if deal is None:
            raise KibitzError("a game without a deal number cannot be kept")
        game = history.game
        leaving = self.game_id
        self.game_id, self.play = self.referee.new(game.slug, game.ruleset, deal, chosen, leaving)
        self.play.history = history
        self.line, self.position, self.detached = (), 0, False
        self._save()
        return self.play

    def opened(self, history: History) -> Play:
        """Keep a game opened from a record: a practice game, never counted (as in the browser)."""
        self.game_id, self.play = self.referee.opened(history, self.game_id)
        self._stored()
        return self.play

    def resume(self, game_id: str) -> Play:
        """The stored game ``game_id``, to be continued at the table."""
        try:
            play = self.referee.get(game_id)
        except ApiError as error:
            raise StoredGameMissing(f"cannot open game {game_id!r}: {error.message}") from None
        self.game_id, self.play = game_id, play
        self._stored()
        return play

    def open_games(self) -> list[dict[str, Any]]:
        """The games in progress, most recently played first (:meth:`Store.open_games`)."""
        return self.store.open_games()

    # -- changes ------------------------------------------------------------------

    def keep(self, history: History, chosen: bool = True) -> str | None:
        """Save what changed in ``history`` since it was last kept; a new ``history`` is a new
        game (the one it replaces is given up if it had started, as the browser's New game does).
        Returns what the player must be told, if anything."""
        play = self.play
        if play is None or self.game_id is None:
            return None
        if history is not play.history:
            self.referee.abandon(self.game_id, play)
            self.start(history, chosen)
            return None
        if self.detached:
            return MOVED_ELSEWHERE
        if history.line == self.line and history.move_count == self.position:
            return None
        if self.store.line(self.game_id) != ([str(move) for move in self.line], self.position):
            self.detached = True
            return MOVED_ELSEWHERE
        self._save()
        return None

    def _save(self) -> None:
        """Write the change from the stored line to ``play``'s, with the clock."""
        play = self.play
        assert play is not None and self.game_id is not None
        history = play.history
        self.referee.tick(play, None)
        if history.line == self.line:
            if history.move_count == self.position:
                return
            since: int | None = None   # only the position moved along the line: undo, redo
        else:
            since = _common_length(history.moves, self.line)
        self.referee.changed(self.game_id, play, since)
        self._stored()

    def _stored(self) -> None:
        assert self.play is not None
        self.line, self.position = self.play.history.line, self.play.history.move_count

    def assisted(self) -> None:
        """Mark the game assisted: the solver, which sees every card, was asked about it."""
        if self.play is not None and self.game_id is not None:
            self.referee.assist(self.game_id, self.play)

    # -- statistics and the end -----------------------------------------------------

    def statistics(self) -> list[dict[str, Any]]:
        """Per game and ruleset, the rows of the browser's statistics (:func:`statistics`)."""
        return statistics(self.store.results())

    def close(self) -> None:
        """Save the clock of the game left, and close the store."""
        play = self.play
        if play is not None and self.game_id is not None and not self.detached:
            self.referee.tick(play, None)
            self.store.clocked(self.game_id, play)
        self.store.close()


def _common_length(first: tuple[Move, ...], second: tuple[Move, ...]) -> int:
    """How many moves two lines share from their start."""
    count = 0
    for one, other in zip(first, second):
        if one != other:
            break
        count += 1
    return count


def describe(game: dict[str, Any]) -> str:
    """One game in progress as the list of ``kibitz play --continue`` shows it."""
    name = find(game["game"]).name
    deal = "a random deal" if game["deal"] is None else f"deal {game['deal']}"
    minutes, seconds = divmod(int(game["seconds"]), 60)
    parts = [f"{name} ({game['ruleset']})", deal, plural(game["moves"], "move"), f"{minutes}:{seconds:02d} played"]
    if game["practice"]:
        parts.append("practice")
    if game["assisted"]:
        parts.append("assisted")
    return ", ".join(parts)
